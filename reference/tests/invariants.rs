//! The dynamics invariants of a scene (`reference::expect::invariants`), worked by hand on one
//! small KHR scene: which nodes stay still, which limits must hold, which pairs never touch,
//! which bodies keep their velocity or fall freely.

use reference::expect::invariants::{BodyMotion, invariants};
use reference::poses::Poses;
use serde_json::{Value, json};

/// Node 0: a static ground box (filter system "a", which excludes "b").
/// Node 1: a body of mass 1 and gravity factor 0.5 without colliders: nothing can touch it.
/// Node 2: a kinematic sphere moving at 2 m/s along x, far from everything.
/// Node 3: a dynamic sphere (system "b", so never against the ground), hinged by node 4 to the
/// world (the plain node 6) by node 4, twist limited to [-0.5, 0.5] rad and at rest at 0.
/// Node 5: a dynamic sphere of mass 3, 40 m from everything; the reference does not judge
/// distances, so its pairs that can make contact (with the ground and the kinematic sphere)
/// make it not free.
fn scene() -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_collision_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {
            "KHR_collision_shapes": {"shapes": [
                {"type": "box", "box": {"size": [10, 1, 10]}},
                {"type": "sphere", "sphere": {"radius": 0.5}}
            ]},
            "KHR_physics_rigid_bodies": {
                "collisionFilters": [
                    {"collisionSystems": ["a"], "notCollideWithSystems": ["b"]},
                    {"collisionSystems": ["b"]}
                ],
                "physicsJoints": [{"limits": [{"angularAxes": [0], "min": -0.5, "max": 0.5}]}]
            }
        },
        "nodes": [
            {"extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0, "collisionFilter": 0}}}},
            {"translation": [20, 10, 0], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 1, "gravityFactor": 0.5}}}},
            {"translation": [-20, 10, 0], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"isKinematic": true, "linearVelocity": [2, 0, 0]}, "collider": {"shape": 1}}}},
            {"translation": [0, 3, 0], "children": [4], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 2}, "collider": {"shape": 1, "collisionFilter": 1}}}},
            {"extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 6, "joint": 0}}}},
            {"translation": [40, 3, 0], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 3}, "collider": {"shape": 1}}}},
            {"translation": [0, 3, 0]}
        ],
        "scenes": [{"nodes": [0, 1, 2, 3, 5, 6]}],
        "scene": 0
    })
}

#[test]
fn a_small_scene_has_the_invariants_worked_by_hand() {
    let reading = reference::read_bytes(scene().to_string().as_bytes(), None, None);
    let errors: Vec<_> = reading
        .issues
        .iter()
        .filter(|i| i.severity == reference::issue::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    let scene = reading.scene.as_ref().expect("a scene");
    let e = reference::expect::evaluate(scene, &Poses::default()).expect("evaluates");
    let facts = invariants(&e);

    // Only the static ground (a collider without a body) never moves.
    assert_eq!(facts.still, vec![0]);
    // The twist limit of the hinge at node 4 holds at rest (twist 0 within [-0.5, 0.5]).
    assert_eq!(facts.limits.len(), 1, "{:?}", facts.limits);
    assert_eq!((facts.limits[0].joint, facts.limits[0].limit), (4, 0));
    // Filters: "a" excludes "b", so the ground (0) and the hinged sphere (3) never touch.
    assert!(facts.no_contact.contains(&[0, 3]), "{:?}", facts.no_contact);

    let kinematic = facts.bodies.iter().find_map(|m| match m {
        BodyMotion::KeepsVelocity { node: 2, velocity } => {
            Some([velocity.x, velocity.y, velocity.z])
        }
        _ => None,
    });
    assert_eq!(kinematic, Some([2.0, 0.0, 0.0]));
    let fall = |node| {
        facts.bodies.iter().find_map(|m| match m {
            BodyMotion::FreeFall {
                node: n,
                gravity_factor,
            } if *n == node => Some(*gravity_factor),
            _ => None,
        })
    };
    // Node 1 has no collider and no joint: it falls at half gravity.
    assert_eq!(fall(1), Some(0.5));
    // Node 3 hangs on a joint, node 5 has pairs that can make contact: neither is free.
    assert_eq!(fall(3), None);
    assert_eq!(fall(5), None);
}

#[test]
fn a_limit_violated_at_rest_is_not_an_invariant() {
    // The hinged sphere starts twisted by 1 rad about the limited axis, outside [-0.5, 0.5]:
    // how an engine brings it back is a trajectory, not an invariant.
    let mut g = scene();
    g["nodes"][3]["rotation"] = json!([0.479425538604203, 0.0, 0.0, 0.8775825618903728]);
    let reading = reference::read_bytes(g.to_string().as_bytes(), None, None);
    let scene = reading.scene.as_ref().expect("a scene");
    let e = reference::expect::evaluate(scene, &Poses::default()).expect("evaluates");
    assert!(invariants(&e).limits.is_empty());
}
