//! Tests of the omi-2023 reader: canonical values, invariants, and the seed-era samples.

use std::path::{Path, PathBuf};

use nalgebra::{Matrix3, Vector3};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::issue::{Code, Issues, Severity};
use crate::profile::Profile;
use crate::scene::{
    BodyKind, DofKind, Inertia, Limit, LimitSet, MassValue, OmiBodyType, Scene, Shape,
    TriangleMesh, VelocitySpace,
};
use crate::{Reading, read_bytes, read_path};

use super::body::{PROPERTIES, inertia_of};
use super::joint::CONSTRAINT_PROPERTIES;
use super::shape::{Flavor, SUB_OBJECTS, capsule, capsule_too_short, distinct_points, hull_points};

fn read_json(gltf: &Value) -> Reading {
    let bytes = serde_json::to_vec(gltf).expect("serializable");
    read_bytes(&bytes, None, Some(Profile::Omi2023))
}

fn scene_of(reading: &Reading) -> &Scene {
    reading.scene.as_ref().expect("a scene")
}

fn codes(reading: &Reading) -> Vec<(Code, String)> {
    reading
        .issues
        .iter()
        .map(|i| (i.code, i.pointer.clone()))
        .collect()
}

/// A validation case of this area, read from disk.
fn case(name: &str) -> Reading {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/validation/omi")
        .join(format!("{name}.gltf"));
    read_path(&path, None).expect("case is readable")
}

// ----- shapes ---------------------------------------------------------------------------------

#[test]
fn capsule_full_height_becomes_cap_centre_distance() {
    // Seed 004: "The mid-height between the centers of each spherical cap end can be found with
    // height - radius * 2". Defaults h = 2, r = 0.5: 2 - 2 * 0.5 = 1.
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [
            {"type": "capsule"},
            {"type": "capsule", "height": 0.5, "radius": 0.05}
        ]}},
        "nodes": [
            {"extensions": {"OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_collider": {"collider": 1}}}
        ]
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    assert_eq!(s.shapes[0], Shape::capsule(1.0, 0.5, 0.5));
    // Seed 000's rope capsule: 0.5 - 2 * 0.05 = 0.4.
    let Shape::Capsule {
        height,
        radius_top,
        radius_bottom,
    } = s.shapes[1]
    else {
        panic!("capsule expected, got {:?}", s.shapes[1]);
    };
    assert!((height - 0.4).abs() < 1e-12);
    assert_eq!((radius_top, radius_bottom), (0.05, 0.05));
}

#[test]
fn physics_shape_sub_objects_and_defaults() {
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [
            {"type": "box", "box": {"size": [1, 2, 3]}},
            {"type": "box", "box": {}},
            {"type": "sphere", "sphere": {"radius": 0.25}},
            {"type": "capsule", "capsule": {"radius": 0.5, "height": 3}},
            {"type": "cylinder", "cylinder": {}}
        ]}},
        "nodes": [{"extensions": {"OMI_physics_shape": {"shape": 0}}}]
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    assert_eq!(
        s.shapes,
        vec![
            Shape::cuboid(1.0, 2.0, 3.0),
            Shape::cuboid(1.0, 1.0, 1.0),
            Shape::Sphere { radius: 0.25 },
            // 3 - 2 * 0.5 = 2
            Shape::capsule(2.0, 0.5, 0.5),
            Shape::cylinder(2.0, 0.5, 0.5),
        ]
    );
}

#[test]
fn distinct_points_ignore_repeats_and_signed_zero() {
    let mesh = TriangleMesh {
        positions: vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [-0.0, 0.0, 0.0], // same point as #0
            [0.0, 0.0, 1.0],
            [9.0, 9.0, 9.0], // unused by any triangle
        ],
        triangles: vec![[0, 1, 2], [3, 1, 4], [0, 2, 4]],
    };
    assert_eq!(distinct_points(&mesh), 4);
}

/// `n` distinct points on a helix, as `n / 3` separate triangles.
fn points_mesh(n: usize) -> TriangleMesh {
    let positions: Vec<[f64; 3]> = (0..n)
        .map(|i| {
            let t = i as f64;
            [t.cos(), t.sin(), 0.01 * t]
        })
        .collect();
    let triangles = (0..n / 3)
        .map(|k| {
            let k = u32::try_from(k).expect("small");
            [3 * k, 3 * k + 1, 3 * k + 2]
        })
        .collect();
    TriangleMesh {
        positions,
        triangles,
    }
}

#[test]
fn hull_point_counts() {
    let code = |n, flavor| hull_points(&points_mesh(n), "/p", flavor).map(|i| i.code);
    // A single triangle: 3 points, no volume (seed 004 recommends at least 4).
    assert_eq!(code(3, Flavor::Collider), Some(Code::HullFewPoints));
    assert_eq!(code(3, Flavor::PhysicsShape), Some(Code::HullFewPoints));
    assert_eq!(code(6, Flavor::Collider), None);
    assert_eq!(code(255, Flavor::Collider), None);
    // 258 > 255: OMI_collider's limit; OMI_physics_shape 2023-06-22 removed it.
    assert_eq!(code(258, Flavor::Collider), Some(Code::HullTooManyPoints));
    assert_eq!(code(258, Flavor::PhysicsShape), None);
    // No triangle at all is the mesh reader's MESH_SHAPE_EMPTY, not a hull count.
    assert_eq!(code(2, Flavor::Collider), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// For every valid full-height capsule, the canonical height plus both caps gives the file
    /// height back, and it is never reported too short.
    #[test]
    fn capsule_round_trips(radius in 0.0f64..10.0, extra in 0.0f64..10.0) {
        let height = 2.0 * radius + extra;
        prop_assert!(!capsule_too_short(height, radius));
        let Shape::Capsule { height: h, radius_top, radius_bottom } = capsule(height, radius) else {
            unreachable!()
        };
        prop_assert!((h + 2.0 * radius - height).abs() <= 1e-12 * height.max(1.0));
        prop_assert_eq!((radius_top, radius_bottom), (radius, radius));
    }

    /// A capsule shorter than its diameter by more than the tolerance is always reported, and
    /// its canonical height is clamped at 0.
    #[test]
    fn short_capsules_are_reported(radius in 0.01f64..10.0, fraction in 0.0f64..0.999) {
        let height = 2.0 * radius * fraction;
        prop_assert!(capsule_too_short(height, radius));
        prop_assert_eq!(capsule(height, radius), Shape::Capsule {
            height: 0.0, radius_top: radius, radius_bottom: radius
        });
    }
}

// ----- bodies ---------------------------------------------------------------------------------

#[test]
fn body_types_map_to_kinds_and_defaults() {
    let types = ["static", "kinematic", "character", "rigid", "vehicle"];
    let nodes: Vec<Value> = types
        .iter()
        .map(|t| {
            json!({"extensions": {
                "OMI_physics_body": {"type": t},
                "OMI_collider": {"collider": 0}
            }})
        })
        .collect();
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "sphere"}]}},
        "nodes": nodes
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    let got: Vec<(BodyKind, Option<OmiBodyType>)> =
        s.bodies.iter().map(|b| (b.kind, b.omi_type)).collect();
    assert_eq!(
        got,
        vec![
            (BodyKind::Static, Some(OmiBodyType::Static)),
            (BodyKind::Kinematic, Some(OmiBodyType::Kinematic)),
            (BodyKind::Kinematic, Some(OmiBodyType::Character)),
            (BodyKind::Dynamic, Some(OmiBodyType::Rigid)),
            (BodyKind::Dynamic, Some(OmiBodyType::Vehicle)),
        ]
    );
    for b in &s.bodies {
        assert_eq!(b.mass, MassValue::Finite(1.0)); // seed 001 default
        assert_eq!(b.center_of_mass, Some(Vector3::zeros()));
        assert_eq!(b.inertia, Inertia::EngineComputes);
        assert_eq!(b.linear_velocity, Vector3::zeros());
        assert_eq!(b.velocity_space, VelocitySpace::World);
    }
    // Each collider sits on its own body's node.
    for (i, c) in s.colliders.iter().enumerate() {
        assert_eq!(c.body, Some(i));
        assert!(!c.is_trigger);
    }
}

#[test]
fn body_properties_are_read() {
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "sphere"}]}},
        "nodes": [{"extensions": {
            "OMI_physics_body": {
                "type": "rigid", "mass": 2.5,
                "linearVelocity": [1, 2, 3], "angularVelocity": [4, 5, 6],
                "centerOfMass": [0, 0.5, 0],
                "inertiaTensor": [1, 0.1, 0, 0.1, 2, 0, 0, 0, 3]
            },
            "OMI_collider": {"collider": 0}
        }}]
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let b = &scene_of(&r).bodies[0];
    assert_eq!(b.mass, MassValue::Finite(2.5));
    assert_eq!(b.linear_velocity, Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(b.angular_velocity, Vector3::new(4.0, 5.0, 6.0));
    assert_eq!(b.center_of_mass, Some(Vector3::new(0.0, 0.5, 0.0)));
    // Row-major: row 0 is [1, 0.1, 0].
    let expected = Matrix3::new(1.0, 0.1, 0.0, 0.1, 2.0, 0.0, 0.0, 0.0, 3.0);
    assert_eq!(b.inertia, Inertia::Tensor { tensor: expected });
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Symmetric tensors are never reported; breaking one pair by a relative 1e-6 always is.
    #[test]
    fn inertia_symmetry(
        d in prop::array::uniform3(0.001f64..100.0),
        o in prop::array::uniform3(-10.0f64..10.0),
        pair in 0usize..3,
    ) {
        let t = [d[0], o[0], o[1], o[0], d[1], o[2], o[1], o[2], d[2]];
        let mut issues = Issues::default();
        let inertia = inertia_of(&t, "/x", &mut issues);
        prop_assert!(issues.0.is_empty());
        prop_assert_eq!(inertia, Inertia::Tensor { tensor: Matrix3::from_row_slice(&t) });
        let scale = t.iter().fold(0.0f64, |m, a| m.max(a.abs()));
        let (i, _) = [(1, 3), (2, 6), (5, 7)][pair];
        let mut broken = t;
        broken[i] += 1e-6 * scale;
        inertia_of(&broken, "/x", &mut issues);
        prop_assert_eq!(issues.0.len(), 1);
        prop_assert_eq!(issues.0[0].code, Code::OmiInertiaNotSymmetric);
    }
}

#[test]
fn zero_inertia_means_engine_computed() {
    let mut issues = Issues::default();
    assert_eq!(
        inertia_of(&[0.0; 9], "/x", &mut issues),
        Inertia::EngineComputes
    );
    assert!(issues.0.is_empty());
}

// ----- triggers -------------------------------------------------------------------------------

#[test]
fn trigger_body_shapes_belong_to_the_nearest_real_body() {
    // 0 rigid -> 1 trigger -> 2 shape;   3 trigger -> 4 shape;   0 -> 5 shape (solid)
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "box"}]}},
        "nodes": [
            {"children": [1, 5], "extensions": {"OMI_physics_body": {"type": "rigid"}}},
            {"children": [2], "extensions": {"OMI_physics_body": {"type": "trigger"}}},
            {"extensions": {"OMI_collider": {"collider": 0}}},
            {"children": [4], "extensions": {"OMI_physics_body": {"type": "trigger"}}},
            {"extensions": {"OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_collider": {"collider": 0}}}
        ]
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    assert_eq!(s.bodies.len(), 1, "trigger bodies are not bodies");
    assert_eq!(s.bodies[0].node, 0);
    let got: Vec<(usize, bool, Option<usize>)> = s
        .colliders
        .iter()
        .map(|c| (c.node, c.is_trigger, c.body))
        .collect();
    assert_eq!(
        got,
        vec![(2, true, Some(0)), (4, true, None), (5, false, Some(0))]
    );
}

#[test]
fn control_collider_belongs_to_its_static_body() {
    let r = case("control");
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    assert_eq!(s.colliders.len(), 1);
    assert_eq!(s.colliders[0].body, Some(0));
    assert!(!s.colliders[0].is_trigger);
}

// ----- joints ---------------------------------------------------------------------------------

/// (kind, axes, min, max, stiffness, damping) of every limit of the first joint of a case.
type LimitRow = (DofKind, Vec<u8>, Option<f64>, Option<f64>, Option<f64>, f64);

fn limits_of(name: &str) -> Vec<LimitRow> {
    let r = case(name);
    assert!(
        r.issues.iter().all(|i| i.severity != Severity::Error),
        "{name}: {:?}",
        r.issues
    );
    let s = scene_of(&r);
    assert_eq!(s.joints.len(), 1, "{name}");
    let LimitSet::PerAxis(limits) = &s.joints[0].limits else {
        panic!("{name}: OMI limits are per axis [D-OMI-PER-AXIS]");
    };
    rows(limits)
}

fn rows(limits: &[Limit]) -> Vec<LimitRow> {
    let row = |l: &Limit| (l.kind, l.axes.clone(), l.min, l.max, l.stiffness, l.damping);
    limits.iter().map(row).collect()
}

#[test]
fn special_cases_of_seed_000_read_as_per_axis_limits() {
    use DofKind::{Angular, Linear};
    let fixed = |kind, axes: &[u8]| (kind, axes.to_vec(), Some(0.0), Some(0.0), None, 1.0);
    // Fixed / weld: one constraint with both lists -> one linear and one angular limit.
    assert_eq!(
        limits_of("special-fixed"),
        vec![fixed(Linear, &[0, 1, 2]), fixed(Angular, &[0, 1, 2])]
    );
    // Pin: all linear axes fixed, angular free.
    assert_eq!(limits_of("special-pin"), vec![fixed(Linear, &[0, 1, 2])]);
    // Hinge: linear fixed, angular y/z fixed, angular x in [-1.5, 1.5].
    assert_eq!(
        limits_of("special-hinge"),
        vec![
            fixed(Linear, &[0, 1, 2]),
            fixed(Angular, &[1, 2]),
            (Angular, vec![0], Some(-1.5), Some(1.5), None, 1.0),
        ]
    );
    // Slider: linear x in [-1, 1] with a soft limit, the rest fixed.
    assert_eq!(
        limits_of("special-slider"),
        vec![
            (Linear, vec![0], Some(-1.0), Some(1.0), Some(50.0), 0.5),
            fixed(Linear, &[1, 2]),
            fixed(Angular, &[0, 1, 2]),
        ]
    );
}

#[test]
fn later_constraints_are_kept_in_node_order() {
    // The node lists constraint 1 then 0; both limit linear x: keep both, in that order.
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_collider", "OMI_physics_joint"],
        "extensions": {
            "OMI_collider": {"colliders": [{"type": "sphere"}]},
            "OMI_physics_joint": {"constraints": [
                {"linearAxes": [0], "lowerLimit": -1, "upperLimit": 1},
                {"linearAxes": [0, 1], "angularAxes": [2], "stiffness": 10, "damping": 0}
            ]}
        },
        "nodes": [
            {"extensions": {"OMI_physics_joint": {"constraints": [1, 0], "nodeA": 1, "nodeB": 2}}},
            {"extensions": {"OMI_physics_body": {"type": "rigid"}, "OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_physics_body": {"type": "static"}, "OMI_collider": {"collider": 0}}}
        ]
    }));
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let j = &scene_of(&r).joints[0];
    assert_eq!((j.node, j.a.frame, j.b.frame), (0, 0, 0));
    assert_eq!((j.a.body_node, j.b.body_node), (Some(1), Some(2)));
    assert!(!j.enable_collision);
    assert!(j.drives.is_empty());
    use DofKind::{Angular, Linear};
    let soft = |kind, axes: &[u8]| (kind, axes.to_vec(), Some(0.0), Some(0.0), Some(10.0), 0.0);
    assert_eq!(
        rows(j.limits.limits()),
        vec![
            soft(Linear, &[0, 1]),
            soft(Angular, &[2]),
            (Linear, vec![0], Some(-1.0), Some(1.0), None, 1.0),
        ]
    );
}

#[test]
fn rope_chain_links_consecutive_bodies() {
    let r = case("rope-chain");
    assert!(r.issues.is_empty(), "{:?}", r.issues);
    let s = scene_of(&r);
    let pairs: Vec<(Option<usize>, Option<usize>)> = s
        .joints
        .iter()
        .map(|j| (j.a.body_node, j.b.body_node))
        .collect();
    assert_eq!(
        pairs,
        vec![(Some(0), Some(2)), (Some(2), Some(4)), (Some(4), Some(6))]
    );
}

#[test]
fn invalid_axes_are_dropped_from_the_canonical_limit() {
    let r = read_json(&json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_collider", "OMI_physics_joint"],
        "extensions": {
            "OMI_collider": {"colliders": [{"type": "sphere"}]},
            "OMI_physics_joint": {"constraints": [{"linearAxes": [2, 3, 2, -1, 0]}]}
        },
        "nodes": [
            {"extensions": {"OMI_physics_joint": {"constraints": [0], "nodeA": 1, "nodeB": 2}}},
            {"extensions": {"OMI_physics_body": {"type": "rigid"}, "OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_physics_body": {"type": "rigid"}, "OMI_collider": {"collider": 0}}}
        ]
    }));
    let at = "/extensions/OMI_physics_joint/constraints/0/linearAxes";
    assert_eq!(
        codes(&r),
        vec![
            (Code::AxisOutOfRange, format!("{at}/1")),
            (Code::AxisDuplicate, format!("{at}/2")),
            (Code::AxisOutOfRange, format!("{at}/3")),
        ]
    );
    assert_eq!(scene_of(&r).joints[0].limits.limits()[0].axes, vec![2, 0]);
}

// ----- robustness -----------------------------------------------------------------------------

/// Arbitrary JSON with the words and keys of the OMI extensions.
fn any_json() -> impl Strategy<Value = Value> {
    let words = &[
        "box", "sphere", "capsule", "cylinder", "hull", "convex", "trimesh", "rigid", "trigger",
        "static", "Infinity",
    ];
    let shape_keys = ["size", "radius", "height", "mesh", "isTrigger"];
    let document_keys = [
        "constraints",
        "nodeA",
        "nodeB",
        "collider",
        "shape",
        "colliders",
        "shapes",
    ];
    let keys = [
        PROPERTIES,
        &shape_keys,
        &SUB_OBJECTS,
        CONSTRAINT_PROPERTIES,
        &document_keys,
    ]
    .concat();
    crate::any_json::any_json((-3..300, -1e3..1e3), words, keys, 6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Arbitrary values in every OMI extension slot never panic, and every issue has a pointer
    /// into the document (or is at its root).
    #[test]
    fn arbitrary_extension_content_never_panics(
        doc_collider in any_json(), doc_shape in any_json(), doc_joint in any_json(),
        n0 in any_json(), n1 in any_json(), n2 in any_json(),
    ) {
        let gltf = json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": ["OMI_physics_body", "OMI_collider", "OMI_physics_shape", "OMI_physics_joint"],
            "extensions": {
                "OMI_collider": doc_collider, "OMI_physics_shape": doc_shape,
                "OMI_physics_joint": doc_joint
            },
            "nodes": [
                {"children": [1], "extensions": {"OMI_physics_body": n0.clone(), "OMI_collider": n1.clone()}},
                {"extensions": {"OMI_physics_shape": n1, "OMI_physics_joint": n2.clone()}},
                {"extensions": {"OMI_physics_body": n2, "OMI_physics_joint": n0}}
            ]
        });
        let r = read_json(&gltf);
        for issue in &r.issues {
            prop_assert!(issue.pointer.is_empty() || gltf.pointer(&issue.pointer).is_some(),
                "{} points nowhere: {}", issue.code, issue.pointer);
        }
    }
}

// ----- seed-era samples -----------------------------------------------------------------------

const SAMPLES: &str = "/work/shared/specs/samples/omigroup_2023-06_seed_era";

/// (file, bodies, colliders, triggers, joints), counted by hand from the files.
const SAMPLE_COUNTS: &[(&str, usize, usize, usize, usize)] = &[
    ("OMI_collider/box_collider.gltf", 0, 1, 0, 0),
    ("OMI_collider/capsule_collider.gltf", 0, 1, 0, 0),
    ("OMI_collider/cylinder_collider.gltf", 0, 1, 0, 0),
    ("OMI_collider/sphere_collider.gltf", 0, 1, 0, 0),
    ("OMI_collider/trigger_box.gltf", 0, 1, 1, 0),
    ("OMI_collider/hull/convex_hull.gltf", 0, 1, 0, 0),
    ("OMI_collider/hull/convex_hull_only.gltf", 0, 1, 0, 0),
    ("OMI_collider/trimesh/concave_trimesh.gltf", 0, 1, 0, 0),
    ("OMI_collider/trimesh/concave_trimesh_only.gltf", 0, 1, 0, 0),
    ("OMI_physics_body/basic/static_box.gltf", 1, 1, 0, 0),
    ("OMI_physics_body/basic/trigger_box.gltf", 0, 1, 1, 0),
    ("OMI_physics_body/basic/trigger_only_body.gltf", 0, 1, 1, 0),
    ("OMI_physics_body/basic/trigger_only_shape.gltf", 1, 1, 1, 0),
    ("OMI_physics_body/complex/ball_pit.gltf", 6, 9, 0, 0),
    (
        "OMI_physics_body/complex/one_collider_trigger.gltf",
        1,
        2,
        1,
        0,
    ),
    (
        "OMI_physics_body/complex/rigid_with_velocity.gltf",
        1,
        1,
        0,
        0,
    ),
    ("OMI_physics_body/complex/two_boxes.gltf", 1, 2, 1, 0),
    ("OMI_physics_joint/hanging_rope.gltf", 4, 4, 0, 3),
    ("OMI_physics_joint/pendulum_balls.gltf", 4, 4, 0, 3),
    ("OMI_physics_joint/rope_railing.gltf", 7, 7, 0, 6),
    ("OMI_physics_joint/simple_joint.gltf", 3, 3, 0, 1),
    ("OMI_physics_joint/slider_ball.gltf", 2, 2, 0, 1),
    ("OMI_physics_joint/swing_and_slide.gltf", 2, 2, 0, 1),
    ("OMI_physics_joint/weld_joint.gltf", 3, 3, 0, 1),
];

#[test]
fn seed_era_samples_read_without_errors() {
    let root = PathBuf::from(SAMPLES);
    if !root.is_dir() {
        eprintln!("skipped: {SAMPLES} is absent (the OMI seed-era samples are not in a clone)");
        return;
    }
    let mut failures = Vec::new();
    for &(file, bodies, colliders, triggers, joints) in SAMPLE_COUNTS {
        let r = read_path(&root.join(file), None).expect("sample is readable");
        // Not even a warning: these files are what the seeds were written from.
        let errors: Vec<_> = r
            .issues
            .iter()
            .filter(|i| i.severity != Severity::Info)
            .collect();
        for i in r.issues.iter().filter(|i| i.severity == Severity::Info) {
            eprintln!("{file}: {} {} {}", i.code, i.pointer, i.message);
        }
        let s = scene_of(&r);
        let got = (
            s.bodies.len(),
            s.colliders.len(),
            s.colliders.iter().filter(|c| c.is_trigger).count(),
            s.joints.len(),
        );
        if r.profile != Some(Profile::Omi2023)
            || !errors.is_empty()
            || got != (bodies, colliders, triggers, joints)
        {
            failures.push(format!("{file}: {got:?} {errors:?}"));
        }
    }
    // Every sample file is listed above.
    let mut listed = 0;
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "gltf") {
                listed += 1;
            }
        }
    }
    assert_eq!(listed, SAMPLE_COUNTS.len(), "a sample is not listed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn sample_velocities_and_capsules_are_canonical() {
    let root = PathBuf::from(SAMPLES);
    if !root.is_dir() {
        eprintln!("skipped: {SAMPLES} is absent");
        return;
    }
    let r = read_path(
        &root.join("OMI_physics_body/complex/rigid_with_velocity.gltf"),
        None,
    )
    .expect("readable");
    let b = &scene_of(&r).bodies[0];
    assert_eq!(b.linear_velocity, Vector3::new(1.0, 2.0, 3.0));
    assert_eq!(b.angular_velocity, Vector3::new(4.0, 5.0, 6.0));
    assert_eq!(b.velocity_space, VelocitySpace::World);
    // hanging_rope: capsule height 0.5, radius 0.0500000007450581 -> 0.5 - 0.1000000014901162.
    let r = read_path(&root.join("OMI_physics_joint/hanging_rope.gltf"), None).expect("readable");
    let Shape::Capsule { height, .. } = scene_of(&r).shapes[1] else {
        panic!("capsule expected");
    };
    assert!((height - 0.399_999_998_509_883_8).abs() < 1e-12, "{height}");
    // Hull and trimesh samples: the mesh (sibling .bin) is read into scene.meshes.
    for (file, convex) in [
        ("OMI_collider/hull/convex_hull.gltf", true),
        ("OMI_collider/trimesh/concave_trimesh.gltf", false),
    ] {
        let r = read_path(&root.join(file), None).expect("readable");
        let s = scene_of(&r);
        let expected = if convex {
            Shape::Convex { mesh: 0 }
        } else {
            Shape::Trimesh { mesh: 0 }
        };
        assert_eq!(s.shapes, vec![expected], "{file}");
        let mesh = &s.meshes[&0];
        assert!(!mesh.triangles.is_empty(), "{file}");
        if convex {
            let points = distinct_points(mesh);
            assert!((4..=255).contains(&points), "{file}: {points} points");
        }
    }
}
