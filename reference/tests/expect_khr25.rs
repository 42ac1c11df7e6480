//! `khr-2025` expectations worked by hand: scale on implicit shapes and planes (negative acts
//! by its absolute value, zero disables), node geometry merged from child meshes, a zero mass,
//! and `enableCollision` in the expected pairs. Oracles are computed here by hand, not by the
//! reference.

use reference::expect::{self, ScaledShape};
use reference::poses::Poses;
use reference::profile::Profile;
use reference::scene::{MassValue, Shape};
use serde_json::{Value, json};

const RB: &str = "KHR_physics_rigid_bodies";
const IS: &str = "KHR_implicit_shapes";

fn read(doc: &Value) -> reference::Reading {
    let text = serde_json::to_vec(doc).expect("json");
    // Forced: a document that only a node geometry would date is read as the newest revision.
    let reading = reference::read_bytes(&text, None, Some(Profile::Khr2025));
    assert_eq!(reading.profile, Some(Profile::Khr2025));
    assert!(!reading.has_errors(), "{:?}", reading.issues);
    reading
}

fn evaluate(reading: &reference::Reading) -> expect::Expectation {
    expect::evaluate(reading.scene.as_ref().expect("scene"), &Poses::default()).expect("evaluates")
}

/// A document with `shapes` and one static collider per `(shape, scale)`.
fn colliders(shapes: Value, uses: &[(usize, [f64; 3])]) -> Value {
    let nodes: Vec<Value> = uses
        .iter()
        .enumerate()
        .map(|(i, (shape, scale))| {
            json!({"translation": [10.0 * i as f64, 0.0, 0.0], "scale": scale,
                "extensions": {RB: {"collider": {"geometry": {"shape": shape}}}}})
        })
        .collect();
    let roots: Vec<usize> = (0..nodes.len()).collect();
    json!({"asset": {"version": "2.0"}, "extensionsUsed": [IS, RB],
        "extensions": {IS: {"shapes": shapes}},
        "nodes": nodes, "scenes": [{"nodes": roots}], "scene": 0})
}

fn shape_of(e: &expect::Expectation, node: usize) -> Option<Shape> {
    e.colliders
        .iter()
        .find(|c| c.node == node)
        .and_then(|c| c.shape.clone())
        .map(|ScaledShape { shape, unabsorbed }| {
            assert!(
                unabsorbed.is_none(),
                "node {node}: {shape:?} {unabsorbed:?}"
            );
            shape
        })
}

/// The spec's own example: a box of size [1, 1, 1] under scale [1, -2, 3] is a box of size
/// [1, 2, 3]. A plane of 10 x 4 under [2, -5, 0.5] is 20 x 2 (y does not size a plane); an
/// unbounded side stays unbounded. A zero scale on all axes leaves the collider out.
#[test]
fn negative_scale_acts_by_its_absolute_value_and_zero_disables() {
    let doc = colliders(
        json!([
            {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
            {"type": "plane", "plane": {"sizeX": 10.0, "sizeZ": 4.0, "doubleSided": true}},
            {"type": "plane", "plane": {"sizeX": 3.0}}
        ]),
        &[
            (0, [1.0, -2.0, 3.0]),
            (1, [2.0, -5.0, 0.5]),
            (2, [-1.0, 1.0, 1.0]),
            (0, [0.0, 0.0, 0.0]),
        ],
    );
    let reading = read(&doc);
    let disabled: Vec<_> = reading
        .issues
        .iter()
        .map(|i| (i.code.id(), i.pointer.as_str()))
        .collect();
    assert_eq!(
        disabled,
        [(
            "KHR_SHAPE_DISABLED",
            "/nodes/3/extensions/KHR_physics_rigid_bodies/collider"
        )]
    );
    let e = evaluate(&reading);
    let Some(Shape::Box { size }) = shape_of(&e, 0) else {
        panic!("a box")
    };
    for (got, want) in size.iter().zip([1.0, 2.0, 3.0]) {
        assert!((got - want).abs() < 1e-12, "{size:?}");
    }
    assert_eq!(
        shape_of(&e, 1),
        Some(Shape::Plane {
            double_sided: true,
            size_x: Some(20.0),
            size_z: Some(2.0)
        })
    );
    assert_eq!(
        shape_of(&e, 2),
        Some(Shape::Plane {
            double_sided: false,
            size_x: Some(3.0),
            size_z: None
        })
    );
    assert!(
        e.colliders.iter().all(|c| c.node != 3),
        "node 3 is disabled"
    );
}

/// A tetrahedron (corners (1,1,1), (1,-1,-1), (-1,1,-1), (-1,-1,1)) as a data URI.
fn tetrahedron() -> Value {
    let mut bytes = Vec::new();
    for p in [
        [1.0f32, 1.0, 1.0],
        [1.0, -1.0, -1.0],
        [-1.0, 1.0, -1.0],
        [-1.0, -1.0, 1.0],
    ] {
        for c in p {
            bytes.extend(c.to_le_bytes());
        }
    }
    for i in [0u16, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2] {
        bytes.extend(i.to_le_bytes());
    }
    use base64::Engine as _;
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    json!({
        "buffers": [{"byteLength": 72, "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": 48}, {"buffer": 0, "byteOffset": 48, "byteLength": 24}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1, -1, -1], "max": [1, 1, 1]},
            {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}]
    })
}

/// [D-GEOMETRY-NODE]: a geometry node outside the scene, moved to (50, 50, 50) (its own
/// transform does not count), with two children: the tetrahedron moved by (0, 1, 0) and the
/// tetrahedron scaled by 0.5. The merged mesh has 8 vertices: the first four shifted up by 1,
/// the last four halved; 8 triangles, the second four's indices offset by 4.
#[test]
fn node_geometry_merges_child_meshes_relative_to_the_geometry_node() {
    let mut doc = json!({"asset": {"version": "2.0"}, "extensionsUsed": [RB],
        "nodes": [
            {"name": "Body", "extensions": {RB: {"motion": {"mass": 0.0},
                "collider": {"geometry": {"node": 1, "convexHull": true}}}}},
            {"name": "Geometry", "translation": [50.0, 50.0, 50.0], "children": [2, 3]},
            {"name": "Part0", "mesh": 0, "translation": [0.0, 1.0, 0.0]},
            {"name": "Part1", "mesh": 0, "scale": [0.5, 0.5, 0.5]}
        ],
        "scenes": [{"nodes": [0]}], "scene": 0});
    for (k, v) in tetrahedron().as_object().expect("object") {
        doc[k] = v.clone();
    }
    let reading = read(&doc);
    // The zero mass is a warning (KHR_MASS_ZERO), read as infinite [D-MASS-ZERO-SCHEMA].
    let codes: Vec<&str> = reading.issues.iter().map(|i| i.code.id()).collect();
    assert_eq!(codes, ["KHR_MASS_ZERO"]);
    let scene = reading.scene.as_ref().expect("scene");
    assert_eq!(scene.bodies[0].mass, MassValue::Infinite);
    let Shape::Convex { mesh } = scene.shapes[scene.colliders[0].shape] else {
        panic!("a convex hull")
    };
    // One glTF mesh in the document: the merged mesh's id is past it.
    assert_eq!(mesh, 1 + 1);
    let merged = &scene.meshes[&mesh];
    let want: [[f64; 3]; 8] = [
        [1.0, 2.0, 1.0],
        [1.0, 0.0, -1.0],
        [-1.0, 2.0, -1.0],
        [-1.0, 0.0, 1.0],
        [0.5, 0.5, 0.5],
        [0.5, -0.5, -0.5],
        [-0.5, 0.5, -0.5],
        [-0.5, -0.5, 0.5],
    ];
    assert_eq!(merged.positions.len(), 8);
    for (got, want) in merged.positions.iter().zip(want) {
        for k in 0..3 {
            assert!((got[k] - want[k]).abs() < 1e-6, "{got:?} vs {want:?}");
        }
    }
    assert_eq!(merged.triangles.len(), 8);
    assert_eq!(merged.triangles[0], [0, 1, 2]);
    assert_eq!(merged.triangles[4], [4, 5, 6]);
    let e = evaluate(&reading);
    assert_eq!(e.bodies[0].inverse_mass, Some(0.0));
}

/// `enableCollision` (default false): two bodies joined by a joint do not collide unless it is
/// true.
#[test]
fn enable_collision_decides_whether_joined_bodies_collide() {
    for (enable, contact) in [(None, false), (Some(false), false), (Some(true), true)] {
        let mut joint = json!({"connectedNode": 3, "joint": 0});
        if let Some(e) = enable {
            joint["enableCollision"] = json!(e);
        }
        let doc = json!({"asset": {"version": "2.0"}, "extensionsUsed": [IS, RB],
            "extensions": {IS: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
                RB: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "max": 0.0}]}]}},
            "nodes": [
                {"children": [1], "extensions": {RB: {"motion": {}, "collider": {"geometry": {"shape": 0}}}}},
                {"translation": [0.5, 0.0, 0.0], "extensions": {RB: {"joint": joint}}},
                {"translation": [1.0, 0.0, 0.0], "children": [3],
                    "extensions": {RB: {"motion": {}, "collider": {"geometry": {"shape": 0}}}}},
                {"translation": [-0.5, 0.0, 0.0]}
            ],
            "scenes": [{"nodes": [0, 2]}], "scene": 0});
        let e = evaluate(&read(&doc));
        assert_eq!(e.pairs.len(), 1);
        assert_eq!(e.pairs[0].contact, contact, "enableCollision {enable:?}");
        assert_eq!(e.pairs[0].joined_by.is_some(), !contact);
    }
}
