//! [D-SCENE]: only the nodes of the default scene are simulated. The documents are written
//! here; what must be left out is read off them by hand.

use reference::profile::Profile;
use serde_json::json;

#[test]
fn bodies_colliders_and_joints_outside_the_default_scene_are_left_out() {
    // Scene 0 holds the decoy (node 0, a dynamic ball); the default scene 1 holds the real
    // ball (node 1, with its collider on child node 2) and a joint from the world (node 3)
    // to the real ball's frame (node 4, a child of node 1). Node 5, in no scene, hangs a
    // joint on the decoy.
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {
            "KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
            "KHR_physics_rigid_bodies": {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "max": 0.0}]}]}
        },
        "nodes": [
            {"name": "Decoy", "translation": [5.0, 0.0, 0.0], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}},
            {"name": "Real", "translation": [0.0, 2.0, 0.0], "children": [2, 4],
                "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0}}}},
            {"name": "RealShape", "extensions": {"KHR_physics_rigid_bodies": {"collider": {"geometry": {"shape": 0}}}}},
            {"name": "Anchor", "translation": [0.0, 2.0, 0.0],
                "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 4, "joint": 0}}}},
            {"name": "RealFrame"},
            {"name": "Stray", "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 0, "joint": 0}}}}
        ],
        "scenes": [{"nodes": [0]}, {"nodes": [1, 3]}],
        "scene": 1
    });
    // Shapes only: nothing dates the document, so it reads as the newest revision.
    let r = reference::read_tree(&doc, None, None);
    assert_eq!(r.profile, Some(Profile::Khr2026));
    let scene = r.scene.expect("a scene");
    let nodes = |v: Vec<usize>| v;
    assert_eq!(nodes(scene.bodies.iter().map(|b| b.node).collect()), [1]);
    assert_eq!(nodes(scene.colliders.iter().map(|c| c.node).collect()), [2]);
    // The real collider's body id is renumbered to the real ball's (0, not 1).
    assert_eq!(scene.colliders[0].body, Some(0));
    assert_eq!(nodes(scene.joints.iter().map(|j| j.node).collect()), [3]);

    // Made the default, scene 0 keeps the decoy alone; the stray joint (in no scene) stays out.
    let mut zero = doc.clone();
    zero["scene"] = json!(0);
    let scene = reference::read_tree(&zero, None, None)
        .scene
        .expect("a scene");
    assert_eq!(nodes(scene.bodies.iter().map(|b| b.node).collect()), [0]);
    assert_eq!(nodes(scene.colliders.iter().map(|c| c.node).collect()), [0]);
    assert!(scene.joints.is_empty());
}
