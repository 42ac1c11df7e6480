//! Canonical values the KHR reader produces (defaults resolved, owning bodies, frames, limits),
//! property tests of its rules, and the seed-era sample assets.

use nalgebra::{UnitQuaternion, Vector3};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::issue::{Code, Issue, Severity};
use crate::profile::Profile;
use crate::scene::{
    Attachment, BodyKind, Collider, Combine, CompoundTrigger, DofKind, Drive, DriveMode, Filter,
    Inertia, Limit, LimitSet, MassValue, Material, Scene, Shape, VelocitySpace,
};

/// Read `doc` under the KHR profile; the scene and every issue.
fn read(doc: &Value) -> (Scene, Vec<Issue>) {
    let bytes = serde_json::to_vec(doc).expect("serialisable");
    let reading = crate::read_bytes(&bytes, None, Some(Profile::Khr2024Draft));
    let scene = reading.scene.expect("a scene");
    (scene, reading.issues)
}

fn codes(issues: &[Issue]) -> Vec<(Code, &str)> {
    issues
        .iter()
        .map(|i| (i.code, i.pointer.as_str()))
        .collect()
}

/// A document with the given document-level extensions and nodes (all nodes are roots unless
/// a node lists them as children).
fn doc(extensions: Value, nodes: Value) -> Value {
    let count = nodes.as_array().map_or(0, Vec::len);
    let children: Vec<u64> = nodes
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|n| {
            n.get("children")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|c| c.as_u64())
        .collect();
    let roots: Vec<usize> = (0..count)
        .filter(|i| !children.contains(&(*i as u64)))
        .collect();
    // Declare exactly the extensions used, so EXTENSION_UNUSED never adds to a test's issues.
    let mut used: Vec<String> = extensions
        .as_object()
        .into_iter()
        .flat_map(|e| e.keys().cloned())
        .chain(nodes.as_array().into_iter().flatten().flat_map(|n| {
            n.get("extensions")
                .and_then(Value::as_object)
                .into_iter()
                .flat_map(|e| e.keys().cloned())
                .collect::<Vec<_>>()
        }))
        .collect();
    used.sort();
    used.dedup();
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": used,
        "extensions": extensions,
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0
    })
}

fn rb(value: Value) -> Value {
    json!({"extensions": {"KHR_physics_rigid_bodies": value}})
}

#[test]
fn shape_defaults_are_the_schema_defaults() {
    let d = doc(
        json!({"KHR_collision_shapes": {"shapes": [
            {"type": "sphere", "sphere": {}},
            {"type": "box", "box": {}},
            {"type": "capsule", "capsule": {}},
            {"type": "cylinder", "cylinder": {}},
            {"type": "capsule", "capsule": {"height": 2, "radiusTop": 0.5}},
            {"type": "cylinder", "cylinder": {"radiusBottom": 0.75}},
            {"type": "box", "box": {"size": [1, 2, 3]}}
        ]}}),
        json!([]),
    );
    let (scene, issues) = read(&d);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        scene.shapes,
        vec![
            Shape::Sphere { radius: 0.5 },
            Shape::cuboid(1.0, 1.0, 1.0),
            Shape::capsule(0.5, 0.25, 0.25),
            Shape::cylinder(0.5, 0.25, 0.25),
            Shape::capsule(2.0, 0.25, 0.5),
            Shape::cylinder(0.5, 0.75, 0.25),
            Shape::cuboid(1.0, 2.0, 3.0),
        ]
    );
}

#[test]
fn left_out_shapes_keep_file_indices_aligned() {
    // File shape 0 is of an unknown type and file shape 1 has a negative radius: both are left
    // out, so file shape 2 becomes canonical shape 0. The collider on file shape 2 must point at
    // canonical 0, and the colliders on file shapes 0 and 1 are dropped without another issue.
    let d = doc(
        json!({"KHR_collision_shapes": {"shapes": [
            {"type": "plane", "plane": {}},
            {"type": "sphere", "sphere": {"radius": -1}},
            {"type": "box", "box": {"size": [2, 2, 2]}}
        ]}}),
        json!([
            rb(json!({"collider": {"shape": 0}})),
            rb(json!({"collider": {"shape": 1}})),
            rb(json!({"collider": {"shape": 2}}))
        ]),
    );
    let (scene, issues) = read(&d);
    let at = "/extensions/KHR_collision_shapes/shapes";
    let want = [
        (Code::EnumUnknown, format!("{at}/0/type")),
        (Code::ValueOutOfRange, format!("{at}/1/sphere/radius")),
    ];
    assert_eq!(
        codes(&issues),
        want.iter()
            .map(|(c, p)| (*c, p.as_str()))
            .collect::<Vec<_>>()
    );
    assert_eq!(scene.shapes, vec![Shape::cuboid(2.0, 2.0, 2.0)]);
    assert_eq!(scene.colliders.len(), 1);
    assert_eq!((scene.colliders[0].node, scene.colliders[0].shape), (2, 0));
}

#[test]
fn material_and_filter_defaults() {
    let d = doc(
        json!({"KHR_physics_rigid_bodies": {
            "physicsMaterials": [{}, {"staticFriction": 1, "dynamicFriction": 0.5, "restitution": 0.25,
                                      "frictionCombine": "minimum", "restitutionCombine": "multiply"},
                                 {"frictionCombine": "median"}],
            "collisionFilters": [{}, {"collisionSystems": ["a", "b"], "notCollideWithSystems": ["c"]}]
        }}),
        json!([]),
    );
    let (scene, issues) = read(&d);
    assert_eq!(
        codes(&issues),
        vec![(
            Code::EnumUnknown,
            "/extensions/KHR_physics_rigid_bodies/physicsMaterials/2/frictionCombine"
        )]
    );
    let default = Material {
        static_friction: 0.6,
        dynamic_friction: 0.6,
        restitution: 0.0,
        friction_combine: None,
        restitution_combine: None,
    };
    assert_eq!(
        scene.materials,
        vec![
            default.clone(),
            Material {
                static_friction: 1.0,
                dynamic_friction: 0.5,
                restitution: 0.25,
                friction_combine: Some(Combine::Minimum),
                restitution_combine: Some(Combine::Multiply),
            },
            // An unknown combine mode is read as unset: the material is otherwise the default.
            default,
        ]
    );
    assert_eq!(
        scene.filters,
        vec![
            Filter {
                collision_systems: vec![],
                collide_with_systems: None,
                not_collide_with_systems: None,
            },
            Filter {
                collision_systems: vec!["a".into(), "b".into()],
                collide_with_systems: None,
                not_collide_with_systems: Some(vec!["c".into()]),
            },
        ]
    );
}

#[test]
fn motion_values_and_defaults() {
    // Hand-worked: inertiaOrientation [0, 0, 0.6, 0.8005] has length
    // sqrt(0.36 + 0.64080025) = sqrt(1.00080025) = 1.0004, within 1e-3 of 1: normalised, it is
    // the rotation of 2 atan2(0.6, 0.8005) = 1.2864 rad about +Z.
    let d = doc(
        json!({}),
        json!([
            rb(json!({"motion": {}})),
            rb(
                json!({"motion": {"isKinematic": true, "mass": 0, "centerOfMass": [0, 1, 0],
                                 "inertiaDiagonal": [0, 1, 2],
                                 "inertiaOrientation": [0, 0, 0.6, 0.8005],
                                 "linearVelocity": [1, 2, 3], "angularVelocity": [0, 0, 4],
                                 "gravityFactor": -0.5}})
            ),
            rb(json!({"motion": {"mass": 2.5, "inertiaOrientation": [0, 0, 0, 1]}})),
            rb(json!({"motion": {"mass": -1, "inertiaDiagonal": [1, 1, 1],
                                 "inertiaOrientation": [0, 0, 0, 3]}}))
        ]),
    );
    let (scene, issues) = read(&d);
    let p = "/nodes/1/extensions/KHR_physics_rigid_bodies/motion";
    let q = "/nodes/3/extensions/KHR_physics_rigid_bodies/motion";
    let want = [
        (Code::MassZeroInfinite, format!("{p}/mass")),
        (Code::MassZeroInfinite, format!("{p}/inertiaDiagonal/0")),
        (Code::NegativeMass, format!("{q}/mass")),
        (
            Code::KhrInertiaOrientationNotUnit,
            format!("{q}/inertiaOrientation"),
        ),
    ];
    assert_eq!(
        codes(&issues),
        want.iter()
            .map(|(c, p)| (*c, p.as_str()))
            .collect::<Vec<_>>()
    );
    let [a, b, c, e] = &scene.bodies[..] else {
        panic!("four bodies: {:?}", scene.bodies)
    };
    assert_eq!(a.kind, BodyKind::Dynamic);
    assert_eq!(a.mass, MassValue::EngineComputes);
    assert_eq!(a.inertia, Inertia::EngineComputes);
    assert_eq!(a.center_of_mass, None);
    assert_eq!(a.linear_velocity, Vector3::zeros());
    assert_eq!(a.gravity_factor, 1.0);
    assert_eq!(a.velocity_space, VelocitySpace::Local);

    assert_eq!(b.kind, BodyKind::Kinematic);
    assert_eq!(b.mass, MassValue::Infinite);
    assert_eq!(b.center_of_mass, Some(Vector3::new(0.0, 1.0, 0.0)));
    assert_eq!(b.linear_velocity, Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(b.angular_velocity, Vector3::new(0.0, 0.0, 4.0));
    assert_eq!(b.gravity_factor, -0.5);
    let Inertia::Principal {
        diagonal,
        orientation,
    } = b.inertia
    else {
        panic!("principal inertia: {:?}", b.inertia)
    };
    assert_eq!(
        diagonal,
        [
            MassValue::Infinite,
            MassValue::Finite(1.0),
            MassValue::Finite(2.0)
        ]
    );
    let about_z = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 2.0 * 0.6f64.atan2(0.8005));
    assert!(orientation.angle_to(&about_z) < 1e-12);
    assert!((orientation.angle() - 1.2864).abs() < 1e-4);
    assert!((orientation.norm() - 1.0).abs() < 1e-12);

    // An orientation without a diagonal says nothing: the engine computes the inertia.
    assert_eq!(c.mass, MassValue::Finite(2.5));
    assert_eq!(c.inertia, Inertia::EngineComputes);

    // Invalid values are read as absent, and the node is still a body.
    assert_eq!(e.node, 3);
    assert_eq!(e.mass, MassValue::EngineComputes);
    assert_eq!(
        e.inertia,
        Inertia::Principal {
            diagonal: [MassValue::Finite(1.0); 3],
            orientation: UnitQuaternion::identity()
        }
    );
}

/// Node 0: body A with a collider; node 1 (child of 0): collider; node 2 (child of 1): body B
/// (nested, independent); node 3 (child of 2): collider and joint to node 5; node 4: static
/// collider; node 5 (child of 4): static joint frame; node 6 (child of 1): joint to node 3.
fn hierarchy() -> Value {
    doc(
        json!({
            "KHR_collision_shapes": {"shapes": [{"type": "sphere", "sphere": {}}]},
            "KHR_physics_rigid_bodies": {
                "physicsMaterials": [{}],
                "collisionFilters": [{"collisionSystems": ["x"]}],
                "physicsJoints": [
                    {"limits": [{"linearAxes": [0, 1, 2], "max": 0}]},
                    {"limits": [{"angularAxes": [2, 0], "min": -0.5, "stiffness": 10, "damping": 2}],
                     "drives": [{"type": "angular", "mode": "acceleration", "axis": 1,
                                 "velocityTarget": 3, "damping": 5, "maxForce": 7}]}
                ]
            }
        }),
        json!([
            {"children": [1], "extensions": {"KHR_physics_rigid_bodies":
                {"motion": {}, "collider": {"shape": 0, "physicsMaterial": 0}}}},
            {"children": [2, 6], "extensions": {"KHR_physics_rigid_bodies":
                {"collider": {"shape": 0, "collisionFilter": 0}}}},
            {"children": [3], "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2}}}},
            {"extensions": {"KHR_physics_rigid_bodies":
                {"collider": {"shape": 0}, "joint": {"connectedNode": 5, "joint": 0, "enableCollision": true}}}},
            {"children": [5], "extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0}}}},
            {"extensions": {"KHR_physics_rigid_bodies": {}}},
            {"extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 3, "joint": 1}}}}
        ]),
    )
}

#[test]
fn colliders_belong_to_their_nearest_ancestor_or_self_body() {
    let (scene, issues) = read(&hierarchy());
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        scene.bodies.iter().map(|b| b.node).collect::<Vec<_>>(),
        [0, 2]
    );
    let collider = |node, body, material, filter| Collider {
        node,
        shape: 0,
        material,
        filter,
        is_trigger: false,
        body,
    };
    assert_eq!(
        scene.colliders,
        vec![
            collider(0, Some(0), Some(0), None),
            collider(1, Some(0), None, Some(0)),
            // Node 3 is below body A too, but body B (node 2) is nearer.
            collider(3, Some(1), None, None),
            collider(4, None, None, None),
        ]
    );
}

#[test]
fn joints_have_frames_on_owning_bodies_and_coupled_limits() {
    let (scene, _) = read(&hierarchy());
    let [first, second] = &scene.joints[..] else {
        panic!("two joints: {:?}", scene.joints)
    };
    // Joint on node 3 (body B at node 2) to node 5 (static, below static node 4).
    assert_eq!(first.node, 3);
    let at = |frame, body_node| Attachment { frame, body_node };
    assert_eq!((&first.a, &first.b), (&at(3, Some(2)), &at(5, None)));
    assert!(first.enable_collision);
    assert_eq!(first.description, Some(0));
    assert_eq!(
        first.limits,
        LimitSet::Coupled(vec![Limit {
            kind: DofKind::Linear,
            axes: vec![0, 1, 2],
            min: None,
            max: Some(0.0),
            stiffness: None,
            damping: 0.0,
        }])
    );
    assert!(first.drives.is_empty());
    // Joint on node 6 (below node 1, owned by body A at node 0) to node 3 (body B).
    assert_eq!((&second.a, &second.b), (&at(6, Some(0)), &at(3, Some(2))));
    assert!(!second.enable_collision);
    assert_eq!(second.description, Some(1));
    assert_eq!(
        second.limits.limits(),
        &[Limit {
            kind: DofKind::Angular,
            axes: vec![2, 0],
            min: Some(-0.5),
            max: None,
            stiffness: Some(10.0),
            damping: 2.0,
        }]
    );
    assert_eq!(
        second.drives,
        vec![Drive {
            kind: DofKind::Angular,
            mode: DriveMode::Acceleration,
            axis: 1,
            max_force: Some(7.0),
            position_target: None,
            velocity_target: Some(3.0),
            stiffness: 0.0,
            damping: 5.0,
        }]
    );
}

#[test]
fn unknown_drive_is_ignored_but_the_joint_is_kept() {
    let d = doc(
        json!({"KHR_physics_rigid_bodies": {"physicsJoints": [{
            "limits": [{"linearAxes": [0], "min": -1, "max": 1}],
            "drives": [{"type": "helical", "mode": "force", "axis": 0},
                       {"type": "linear", "mode": "force", "axis": 0, "positionTarget": 0.5}]
        }]}}),
        json!([
            rb(json!({"motion": {}, "joint": {"connectedNode": 1, "joint": 0}})),
            {}
        ]),
    );
    let (scene, issues) = read(&d);
    assert_eq!(
        codes(&issues),
        vec![(
            Code::EnumUnknown,
            "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives/0/type"
        )]
    );
    assert_eq!(scene.joints.len(), 1);
    assert_eq!(scene.joints[0].drives.len(), 1);
    assert_eq!(scene.joints[0].drives[0].position_target, Some(0.5));
}

#[test]
fn the_seed_hinged_door_reads_as_three_coupled_limits() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/validation/khr/hinged_door.gltf");
    let reading = crate::read_path(&path, None).expect("readable");
    assert!(reading.issues.is_empty(), "{:?}", reading.issues);
    let scene = reading.scene.expect("a scene");
    let [joint] = &scene.joints[..] else {
        panic!("one joint")
    };
    assert_eq!(joint.a.body_node, Some(0));
    assert_eq!(joint.b.body_node, None);
    type Summary = (DofKind, Vec<u8>, Option<f64>, Option<f64>);
    let summary: Vec<Summary> = joint
        .limits
        .limits()
        .iter()
        .map(|l| (l.kind, l.axes.clone(), l.min, l.max))
        .collect();
    let swing = std::f64::consts::FRAC_PI_2;
    assert_eq!(
        summary,
        vec![
            (DofKind::Linear, vec![0, 1, 2], None, Some(0.0)),
            (DofKind::Angular, vec![1], Some(-swing), Some(swing)),
            (DofKind::Angular, vec![0, 2], Some(0.0), Some(0.0)),
        ]
    );
    // Both hinge frames are at world (0.5, 1, 0): door (0, 1, 0) + (0.5, 0, 0), frame
    // (0.55, 1, 0) + (-0.05, 0, 0), up to the f32 rounding of the node translations.
    let world = scene.rest_world();
    for frame in [joint.a.frame, joint.b.frame] {
        let t = world[frame].column(3);
        assert!((t[0] - 0.5).abs() < 1e-6 && (t[1] - 1.0).abs() < 1e-6 && t[2].abs() < 1e-6);
    }
}

#[test]
fn triggers_become_trigger_colliders_and_compounds() {
    let d = doc(
        json!({
            "KHR_collision_shapes": {"shapes": [{"type": "box", "box": {}}]},
            "KHR_physics_rigid_bodies": {"collisionFilters": [{"collisionSystems": ["t"]}]}
        }),
        json!([
            {"children": [1, 2], "extensions": {"KHR_physics_rigid_bodies":
                {"motion": {}, "trigger": {"nodes": [1, 2, 1]}}}},
            rb(json!({"trigger": {"shape": 0, "collisionFilter": 0}})),
            rb(json!({"trigger": {"shape": 0}}))
        ]),
    );
    let (scene, issues) = read(&d);
    assert!(issues.is_empty(), "{issues:?}");
    assert_eq!(
        scene.compound_triggers,
        vec![CompoundTrigger {
            node: 0,
            members: vec![1, 2]
        }]
    );
    assert_eq!(scene.colliders.len(), 2);
    assert!(
        scene
            .colliders
            .iter()
            .all(|c| c.is_trigger && c.body == Some(0))
    );
    assert_eq!(scene.colliders[0].filter, Some(0));
    assert_eq!(scene.colliders[0].material, None);
}

#[test]
fn a_parent_cycle_does_not_hang_the_owning_body_walk() {
    // Nodes 0 and 1 are each other's child: the forest check reports it; the reader must still
    // finish (the ancestor walk is bounded by the node count).
    let d = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies"],
        "extensions": {"KHR_physics_rigid_bodies": {"physicsJoints": [{"limits": [{"linearAxes": [0]}]}]}},
        "nodes": [
            {"children": [1], "extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0}}}},
            {"children": [0]},
            {"extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 1, "joint": 0}}}}
        ]
    });
    let (scene, _) = read(&d);
    assert_eq!(scene.joints.len(), 1);
    assert_eq!(scene.joints[0].b.body_node, None);
}

// ------------------------------------------------------------------ properties

/// Arbitrary JSON with the words and keys of the KHR extensions.
fn any_json() -> impl Strategy<Value = Value> {
    crate::any_json::any_json(
        (-4..8, -2.0..2.0),
        &["box", "sphere", "linear", "force", "", "x"],
        vec![
            "shape",
            "shapes",
            "type",
            "box",
            "sphere",
            "capsule",
            "trimesh",
            "mesh",
            "motion",
            "collider",
            "trigger",
            "joint",
            "nodes",
            "limits",
            "drives",
            "linearAxes",
            "angularAxes",
            "min",
            "max",
            "mass",
            "connectedNode",
            "physicsJoints",
            "physicsMaterials",
            "collisionFilters",
            "axis",
        ],
        4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    /// Whatever the extension objects hold, reading never panics, every issue has a pointer
    /// into the document, and every canonical index is in range.
    #[test]
    fn arbitrary_extension_content_never_panics(
        shapes in any_json(), resources in any_json(), nodes in prop::collection::vec(any_json(), 1..4)
    ) {
        let node_values: Vec<Value> = nodes.into_iter().map(rb).collect();
        let d = doc(json!({"KHR_collision_shapes": shapes, "KHR_physics_rigid_bodies": resources}), Value::from(node_values));
        let (scene, issues) = read(&d);
        for issue in &issues {
            prop_assert!(d.pointer(&issue.pointer).is_some() || issue.code == Code::ProfileNone,
                "pointer {} of {} is not in the document", issue.pointer, issue.code);
        }
        for c in &scene.colliders {
            prop_assert!(c.shape < scene.shapes.len());
            prop_assert!(c.material.is_none_or(|m| m < scene.materials.len()));
            prop_assert!(c.filter.is_none_or(|f| f < scene.filters.len()));
            prop_assert!(c.body.is_none_or(|b| b < scene.bodies.len()));
        }
        for j in &scene.joints {
            prop_assert!(j.b.frame < scene.nodes.len());
            for l in j.limits.limits() {
                prop_assert!(!l.axes.is_empty() && l.axes.len() <= 3 && l.axes.iter().all(|a| *a <= 2));
            }
        }
    }

    /// A limit's axis list is read iff it has 1 to 3 distinct axes in 0..=2; otherwise there is
    /// one AXIS_OUT_OF_RANGE per bad element, one AXIS_DUPLICATE per repeat of a good element,
    /// and EXT_ARRAY_LENGTH when the count is not 1 to 3.
    #[test]
    fn limit_axes_rules(axes in prop::collection::vec(-2i64..5, 0..6)) {
        let d = doc(
            json!({"KHR_physics_rigid_bodies": {"physicsJoints": [{"limits": [{"angularAxes": axes.clone()}]}]}}),
            json!([rb(json!({"motion": {}, "joint": {"connectedNode": 1, "joint": 0}})), {}]),
        );
        let (scene, issues) = read(&d);
        let out_of_range = axes.iter().filter(|a| !(0..=2).contains(*a)).count();
        let good: Vec<i64> = axes.iter().copied().filter(|a| (0..=2).contains(a)).collect();
        let mut distinct = good.clone();
        distinct.sort_unstable();
        distinct.dedup();
        let duplicates = good.len() - distinct.len();
        let bad_length = axes.is_empty() || axes.len() > 3;
        let count = |code| issues.iter().filter(|i| i.code == code).count();
        prop_assert_eq!(count(Code::AxisOutOfRange), out_of_range);
        prop_assert_eq!(count(Code::AxisDuplicate), duplicates);
        prop_assert_eq!(count(Code::ExtArrayLength), usize::from(bad_length));
        let valid = out_of_range == 0 && duplicates == 0 && !bad_length;
        prop_assert_eq!(issues.is_empty(), valid);
        prop_assert_eq!(scene.joints.len(), usize::from(valid));
        if valid {
            let read_axes: Vec<i64> = scene.joints[0].limits.limits()[0].axes.iter().map(|a| i64::from(*a)).collect();
            prop_assert_eq!(read_axes, axes);
        }
    }

    /// Capsule and cylinder parameters: given values are kept, absent ones take the schema
    /// default, negative ones are VALUE_OUT_OF_RANGE (and the shape is left out), and a valid
    /// shape is SHAPE_DEGENERATE exactly when it encloses no volume.
    #[test]
    fn round_shape_parameters(
        capsule in any::<bool>(),
        height in prop::option::of(prop_oneof![Just(0.0), -1.0f64..3.0]),
        top in prop::option::of(prop_oneof![Just(0.0), -1.0f64..3.0]),
        bottom in prop::option::of(prop_oneof![Just(0.0), -1.0f64..3.0]),
    ) {
        let kind = if capsule { "capsule" } else { "cylinder" };
        let mut params = serde_json::Map::new();
        for (key, v) in [("height", height), ("radiusTop", top), ("radiusBottom", bottom)] {
            if let Some(v) = v {
                params.insert(key.into(), Value::from(v));
            }
        }
        let d = doc(json!({"KHR_collision_shapes": {"shapes": [{"type": kind, kind: params}]}}), json!([]));
        let (scene, issues) = read(&d);
        let (h, t, b) = (height.unwrap_or(0.5), top.unwrap_or(0.25), bottom.unwrap_or(0.25));
        let negatives = [h, t, b].iter().filter(|v| **v < 0.0).count();
        prop_assert_eq!(issues.iter().filter(|i| i.code == Code::ValueOutOfRange).count(), negatives);
        if negatives > 0 {
            prop_assert!(scene.shapes.is_empty());
        } else {
            let expected = if capsule {
                Shape::Capsule { height: h, radius_top: t, radius_bottom: b }
            } else {
                Shape::Cylinder { height: h, radius_top: t, radius_bottom: b }
            };
            let no_volume = (t == 0.0 && b == 0.0) || (!capsule && h == 0.0);
            prop_assert_eq!(&scene.shapes, &vec![expected]);
            prop_assert_eq!(codes(&issues).len(), usize::from(no_volume));
            prop_assert!(issues.iter().all(|i| i.code == Code::ShapeDegenerate && i.severity == Severity::Info));
        }
    }

    /// KHR mass: absent -> engine computes, 0 -> infinite (information), negative -> error and
    /// read as absent, positive -> kept.
    #[test]
    fn mass_mapping(mass in prop::option::of(prop_oneof![Just(0.0), -10.0f64..10.0])) {
        let motion = mass.map_or_else(|| json!({}), |m| json!({"mass": m}));
        let d = doc(json!({}), json!([rb(json!({"motion": motion}))]));
        let (scene, issues) = read(&d);
        let (expected, code) = match mass {
            None => (MassValue::EngineComputes, None),
            Some(m) if m < 0.0 => (MassValue::EngineComputes, Some(Code::NegativeMass)),
            Some(0.0) => (MassValue::Infinite, Some(Code::MassZeroInfinite)),
            Some(m) => (MassValue::Finite(m), None),
        };
        prop_assert_eq!(scene.bodies[0].mass, expected);
        prop_assert_eq!(issues.iter().map(|i| i.code).collect::<Vec<_>>(), code.into_iter().collect::<Vec<_>>());
    }
}

// ------------------------------------------------------------------ seed-era samples

/// (sample, bodies, colliders including simple triggers, compound triggers, joints, shapes)
const SAMPLES: &[(&str, usize, usize, usize, usize, usize)] = &[
    ("Filtering", 4, 10, 0, 0, 4),
    ("JointTypes", 12, 16, 0, 9, 3),
    ("Materials_Friction", 2, 3, 0, 0, 3),
    ("Materials_Restitution", 2, 3, 0, 0, 3),
    ("MotionProperties", 7, 10, 0, 0, 10),
    ("ShapeTypes", 9, 16, 0, 0, 13),
    ("Triggers", 1, 5, 1, 0, 5),
    ("WaterWheel", 13, 17, 0, 2, 8),
];

#[test]
fn seed_era_samples_read_without_errors() {
    let dir =
        std::path::Path::new("/work/shared/specs/samples/glTF_Physics_2024-03_seed_era/samples");
    if !dir.is_dir() {
        println!(
            "skipped: {} is absent (the seed-era samples are not part of the repository)",
            dir.display()
        );
        return;
    }
    for &(name, bodies, colliders, compounds, joints, shapes) in SAMPLES {
        let path = dir.join(name).join(format!("{name}.gltf"));
        let reading = crate::read_path(&path, None).expect("readable");
        let errors: Vec<&Issue> = reading
            .issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");
        assert_eq!(reading.profile, Some(Profile::Khr2024Draft), "{name}");
        let scene = reading.scene.expect("a scene");
        assert_eq!(
            (
                scene.bodies.len(),
                scene.colliders.len(),
                scene.compound_triggers.len(),
                scene.joints.len(),
                scene.shapes.len()
            ),
            (bodies, colliders, compounds, joints, shapes),
            "{name}: bodies, colliders, compound triggers, joints, shapes"
        );
    }
}

/// A drive mode's name is the one the reader accepts and the one it serialises to.
#[test]
fn drive_mode_names_round_trip() {
    use crate::scene::DriveMode;
    for mode in [DriveMode::Force, DriveMode::Acceleration] {
        assert_eq!(DriveMode::from_name(mode.name()), Some(mode));
        assert_eq!(serde_json::to_value(mode).ok(), Some(mode.name().into()));
    }
    assert_eq!(DriveMode::from_name("Force"), None);
    assert_eq!(DriveMode::from_name(""), None);
}

/// The pointers written only when an issue is found (a value out of range, a reference past its
/// array, an unknown enum value, a bad axis) name the exact member: every such path at once,
/// in the order the reader reports them (the order `validate` prints; the reader before pointers
/// were written lazily, 1c68563^, gave this same order).
#[test]
fn pointers_written_for_issues_name_the_member() {
    use Code::{
        AxisDuplicate, AxisOutOfRange, DampingNegative, EnumUnknown, IndexOutOfRange,
        MassZeroInfinite, ValueOutOfRange,
    };
    let d = doc(
        json!({
            "KHR_collision_shapes": {"shapes": [
                {"type": "box", "box": {"size": [-1, 1, -2]}},
                {"type": "capsule", "capsule": {"radiusTop": -1}},
                {"type": "sphere", "sphere": {"radius": -0.5}},
                {"type": "sphere", "sphere": {}}
            ]},
            "KHR_physics_rigid_bodies": {
                "physicsMaterials": [{"restitution": -1, "frictionCombine": "x"}],
                "collisionFilters": [{"collisionSystems": ["a"]}],
                "physicsJoints": [
                    {"limits": [{"angularAxes": [7, 1, 1], "damping": -1}],
                     "drives": [{"type": "linear", "mode": "force", "axis": 5,
                                 "maxForce": -1, "stiffness": -1, "damping": -1}]}
                ]
            }
        }),
        json!([
            rb(json!({
                "motion": {"inertiaDiagonal": [-1, 0, 1]},
                "collider": {"shape": 9, "physicsMaterial": 9, "collisionFilter": 9},
                "joint": {"connectedNode": 99, "joint": 9}
            })),
            rb(json!({"trigger": {"shape": 8, "collisionFilter": 7}}))
        ]),
    );
    let (_, issues) = read(&d);
    let shapes = "/extensions/KHR_collision_shapes/shapes";
    let material = "/extensions/KHR_physics_rigid_bodies/physicsMaterials/0";
    let joint = "/extensions/KHR_physics_rigid_bodies/physicsJoints/0";
    let node0 = "/nodes/0/extensions/KHR_physics_rigid_bodies";
    let node1 = "/nodes/1/extensions/KHR_physics_rigid_bodies";
    let want = vec![
        (ValueOutOfRange, format!("{shapes}/0/box/size/0")),
        (ValueOutOfRange, format!("{shapes}/0/box/size/2")),
        (ValueOutOfRange, format!("{shapes}/1/capsule/radiusTop")),
        (ValueOutOfRange, format!("{shapes}/2/sphere/radius")),
        (ValueOutOfRange, format!("{material}/restitution")),
        (EnumUnknown, format!("{material}/frictionCombine")),
        (AxisOutOfRange, format!("{joint}/limits/0/angularAxes/0")),
        (AxisDuplicate, format!("{joint}/limits/0/angularAxes/2")),
        (DampingNegative, format!("{joint}/limits/0/damping")),
        (AxisOutOfRange, format!("{joint}/drives/0/axis")),
        (ValueOutOfRange, format!("{joint}/drives/0/maxForce")),
        (ValueOutOfRange, format!("{joint}/drives/0/stiffness")),
        (DampingNegative, format!("{joint}/drives/0/damping")),
        (ValueOutOfRange, format!("{node0}/motion/inertiaDiagonal/0")),
        (
            MassZeroInfinite,
            format!("{node0}/motion/inertiaDiagonal/1"),
        ),
        (IndexOutOfRange, format!("{node0}/collider/physicsMaterial")),
        (IndexOutOfRange, format!("{node0}/collider/collisionFilter")),
        (IndexOutOfRange, format!("{node0}/collider/shape")),
        (IndexOutOfRange, format!("{node0}/joint/connectedNode")),
        (IndexOutOfRange, format!("{node0}/joint/joint")),
        (IndexOutOfRange, format!("{node1}/trigger/collisionFilter")),
        (IndexOutOfRange, format!("{node1}/trigger/shape")),
    ];
    let got: Vec<(Code, String)> = issues.iter().map(|i| (i.code, i.pointer.clone())).collect();
    assert_eq!(got, want);
}
