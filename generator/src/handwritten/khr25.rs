//! Hand-written `khr-2025` cases: node geometry deformed at rest [D-GEOMETRY-NODE], a morphed
//! and a skinned ground under a falling ball. Both grounds are a slab 4 x 0.2 x 4 m (corners
//! +-2, +-0.1, +-2) whose top face the deformation lifts by 0.5 m, to y = 0.6: an engine that
//! reads the mesh undeformed has its top at 0.1. The ball (radius 0.5, centre at y = 2) comes
//! to rest on the deformed top with its centre at 0.6 + 0.5 = 1.1: a displacement of -0.9 m
//! along y over the run (on the undeformed slab it would be -1.4 m, 0.5 m off).

use reference::decision::Decision;
use reference::khr::{IMPLICIT_SHAPES, RIGID_BODIES};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::{case, settle_scenario};
use crate::case::{Case, Tier};
use crate::mutate::json::{add_accessor, add_mesh};

const P: Profile = Profile::Khr2025;

pub fn cases() -> Vec<Case> {
    vec![morphed(), skinned(), half_turn_matrix()]
}

/// A body placed by a node matrix whose rotation is a half turn about (2, -2, -3)/sqrt(17)
/// (R = 2 a aᵀ - I, trace -1), with a box collider 1 x 2 x 3 and a joint to the world whose
/// frame on the body is a child node under the same half turn. A half turn is where matrix
/// readers that extract the rotation by iterating from the identity stall (their update is
/// zero there) and read no rotation at all: the box then stands 180° off and the joint frame
/// with it. `physics-cts fuzz` found the reference itself reading it so, through a joint frame
/// that PhysX read right.
fn half_turn_matrix() -> Case {
    let a = [2.0f64, -2.0, -3.0];
    let n = a.iter().map(|v| v * v).sum::<f64>().sqrt();
    let a = a.map(|v| v / n);
    // Column-major: column j, row i of 2 a aᵀ - I (symmetric).
    let mut m: Vec<f64> = Vec::with_capacity(16);
    for j in 0..3 {
        for i in 0..3 {
            m.push(2.0 * a[i] * a[j] - if i == j { 1.0 } else { 0.0 });
        }
        m.push(0.0);
    }
    let body_matrix: Vec<f64> = m.iter().copied().chain([0.0, 2.0, 0.0, 1.0]).collect();
    let frame_matrix: Vec<f64> = m.iter().copied().chain([0.5, 0.0, 0.0, 1.0]).collect();
    let gltf = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [IMPLICIT_SHAPES, RIGID_BODIES],
        "extensions": {
            IMPLICIT_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1.0, 2.0, 3.0]}}]},
            RIGID_BODIES: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]}
        },
        "nodes": [
            {"name": "Body", "matrix": body_matrix, "children": [1],
                "extensions": {RIGID_BODIES: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}},
            {"name": "Frame", "matrix": frame_matrix,
                "extensions": {RIGID_BODIES: {"joint": {"connectedNode": 2, "joint": 0}}}},
            {"name": "World", "translation": [0.0, 2.0, 0.0]}
        ],
        "scenes": [{"nodes": [0, 2]}],
        "scene": 0
    });
    case(
        "khr25/body/matrix-half-turn",
        P,
        "body",
        "A body placed by a node matrix whose rotation is a half turn about (2, -2, -3)/sqrt(17), with a 1 x 2 x 3 box collider and a joint frame on a child node under the same half turn: a reader that extracts the rotation by iterating from the identity stalls at a half turn and reads none (the box 180° off).",
        "glTF 2.0 node transforms (matrix); KHR_physics_rigid_bodies joints",
        Tier::Required,
        &[
            "body.dynamic",
            "body.mass.explicit",
            "collider.on-body",
            "shape.box.explicit",
            "node.matrix",
            "joint.to-world",
            "joint.kind.ball",
            "joint.limit.linear.3",
        ],
        &[Decision::Frames],
        gltf,
        Vec::new(),
    )
}

/// The slab's corners (x slowest, then y, then z) and its 12 triangles.
fn slab() -> ([[f32; 3]; 8], [u16; 36]) {
    super::common::cuboid([-2.0, -0.1, -2.0], [2.0, 0.1, 2.0])
}

/// The ball's displacement along y at rest: 1.1 - 2.0.
const SETTLE: f64 = -0.9;
/// A hand-written case whose scenario adds to the generic checks that the ball (node 0)
/// settles on the deformed top: 2 s, gravity, no action.
fn settle_case(id: &str, description: &str, spec: &str, features: &[&str], gltf: Value) -> Case {
    let settles = [("ball-settles-on-deformed-top".to_owned(), 0, SETTLE)];
    let scenario = settle_scenario(&gltf, Decision::GeometryNode, &settles);
    let mut c = case(
        id,
        P,
        "geometry",
        description,
        spec,
        Tier::Required,
        features,
        &[Decision::GeometryNode],
        gltf,
        vec![],
    );
    c.scenario = scenario;
    c
}

fn floats(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A ball (sphere r = 0.5, mass 1) at y = 2 over a static ground node 1 whose geometry is
/// node 2 (as a convex hull); nodes 2.. are `extra_nodes`.
fn scene(extra_nodes: Vec<Value>, roots: &[usize]) -> Value {
    let mut nodes = vec![
        json!({"name": "Ball", "translation": [0.0, 2.0, 0.0],
            "extensions": {RIGID_BODIES: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}}),
        json!({"name": "Ground",
            "extensions": {RIGID_BODIES: {"collider": {"geometry": {"node": 2, "convexHull": true}}}}}),
    ];
    nodes.extend(extra_nodes);
    ball_document(nodes, roots)
}

/// The document of `nodes` (the scene's roots `roots`) whose one implicit shape is the
/// ball's: a sphere of radius 0.5.
pub(super) fn ball_document(nodes: Vec<Value>, roots: &[usize]) -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [IMPLICIT_SHAPES, RIGID_BODIES],
        "extensions": {IMPLICIT_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0
    })
}

/// One morph target lifts the top face (y = +0.1, corners 2, 3, 6, 7) by 1 m; the mesh's
/// default weight is 0 and the node's weight 0.5 wins: the top face at 0.1 + 0.5 = 0.6.
fn morphed() -> Case {
    let mut doc = scene(
        vec![json!({"name": "MorphedSlab", "mesh": 0, "weights": [0.5]})],
        &[0, 1],
    );
    let (corners, triangles) = slab();
    let m = add_mesh(&mut doc, &corners, &triangles);
    let deltas: Vec<f32> = corners
        .iter()
        .flat_map(|c| {
            if c[1] > 0.0 {
                [0.0, 1.0, 0.0]
            } else {
                [0.0; 3]
            }
        })
        .collect();
    let t = add_accessor(&mut doc, &floats(&deltas), 5126, 8, "VEC3");
    doc["accessors"][t]["min"] = json!([0.0, 0.0, 0.0]);
    doc["accessors"][t]["max"] = json!([0.0, 1.0, 0.0]);
    doc["meshes"][m]["primitives"][0]["targets"] = json!([{"POSITION": t}]);
    doc["meshes"][m]["weights"] = json!([0.0]);
    settle_case(
        "khr25/geometry/node-morphed",
        "Node geometry with morph weights applied at rest: a 4 x 0.2 x 4 m slab whose one morph target lifts the top face by 1 m, weighted 0.5 by the node (the mesh's default weight 0 loses), so the ground's hull tops out at y = 0.6, not 0.1; a ball falls onto it.",
        "KHR_physics_rigid_bodies Geometry (skin or weights applied)",
        &[
            "geometry.node.morphed",
            "shape.convex",
            "shape.sphere.explicit",
            "body.dynamic",
        ],
        doc,
    )
}

/// The slab skinned to two joints with identity inverse bind matrices: joint 0 at the origin
/// holds the bottom corners, joint 1 at (0, 0.5, 0) at rest holds the top corners (weight 1):
/// the top face at 0.1 + 0.5 = 0.6. The geometry node (2, at the origin, out of the scene)
/// has the skinned node as its child, whose own translation (30, 0, 0) skinning ignores.
fn skinned() -> Case {
    let mut doc = scene(
        vec![
            json!({"name": "SlabGeometry", "children": [5]}),
            // Joint 1 is a child of joint 0: the joints of a skin share a root (core glTF).
            json!({"name": "SlabJoint0", "children": [4]}),
            json!({"name": "SlabJoint1", "translation": [0.0, 0.5, 0.0]}),
            json!({"name": "SkinnedSlab", "mesh": 0, "skin": 0, "translation": [30.0, 0.0, 0.0]}),
        ],
        &[0, 1, 3],
    );
    let (corners, triangles) = slab();
    let m = add_mesh(&mut doc, &corners, &triangles);
    debug_assert_eq!(m, 0, "the only mesh");
    let joints: Vec<u8> = corners
        .iter()
        .flat_map(|c| {
            if c[1] > 0.0 {
                [1, 0, 0, 0]
            } else {
                [0, 0, 0, 0]
            }
        })
        .collect();
    let weights = floats(&[1.0, 0.0, 0.0, 0.0].repeat(8));
    let j = add_accessor(&mut doc, &joints, 5121, 8, "VEC4");
    let w = add_accessor(&mut doc, &weights, 5126, 8, "VEC4");
    let identity = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let b = add_accessor(&mut doc, &floats(&identity.repeat(2)), 5126, 2, "MAT4");
    let attributes = &mut doc["meshes"][m]["primitives"][0]["attributes"];
    attributes["JOINTS_0"] = json!(j);
    attributes["WEIGHTS_0"] = json!(w);
    doc["skins"] = json!([{"joints": [3, 4], "inverseBindMatrices": b}]);
    settle_case(
        "khr25/geometry/node-skinned",
        "Node geometry with its skin applied at rest: a 4 x 0.2 x 4 m slab skinned to two joints (identity inverse bind matrices), the top corners weighted to a joint 0.5 m up at rest, so the ground's hull tops out at y = 0.6, not 0.1; the skinned node's own translation (30, 0, 0) is ignored as glTF skinning says; a ball falls onto it.",
        "KHR_physics_rigid_bodies Geometry (skin or weights applied); glTF 2.0 Skins",
        &[
            "geometry.node.skinned",
            "shape.convex",
            "shape.sphere.explicit",
            "body.dynamic",
        ],
        doc,
    )
}
