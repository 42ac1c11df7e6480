//! Hand-written `khr-2026` cases: mesh geometry placed in its collider's node frame under a
//! transform a wrong reader misses by metres [D-GEOMETRY-MESH]. The mesh is the unit cube
//! [0, 1]^3 (a corner at the origin, so no symmetry hides a wrong frame). A ball (sphere
//! r = 0.5, mass 1) falls onto each ground: on the right placement it comes to rest on the
//! ground's top; under a wrong one the ground is elsewhere and the ball falls past it (about
//! 20 m in the 2 s run).

use reference::decision::Decision;
use reference::khr::RIGID_BODIES;
use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::{case, settle_scenario};
use crate::case::{Case, Tier};
use crate::mutate::json::add_mesh;

const P: Profile = Profile::Khr2026;

pub fn cases() -> Vec<Case> {
    vec![turned_and_scaled(), shared()]
}

/// The unit cube [0, 1]^3: corners (x slowest, then y, then z) and 12 outward triangles.
fn cube() -> ([[f32; 3]; 8], [u16; 36]) {
    super::common::cuboid([0.0; 3], [1.0; 3])
}

/// A ball on node `node` at `at` (mass 1, sphere shape 0).
fn ball(name: &str, at: [f64; 3]) -> Value {
    json!({"name": name, "translation": at,
        "extensions": {RIGID_BODIES: {"motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}})
}

/// A static ground on mesh 0 (a triangle mesh) placed by `trs`.
fn ground(name: &str, trs: Value) -> Value {
    let mut node = trs;
    node["name"] = json!(name);
    node["extensions"] = json!({RIGID_BODIES: {"collider": {"geometry": {"mesh": 0}}}});
    node
}

/// The document of `nodes` (every one a root) with the cube as mesh 0.
fn document(nodes: Vec<Value>) -> Value {
    let roots: Vec<usize> = (0..nodes.len()).collect();
    let mut doc = super::khr25::ball_document(nodes, &roots);
    let (corners, triangles) = cube();
    let m = add_mesh(&mut doc, &corners, &triangles);
    debug_assert_eq!(m, 0, "the only mesh");
    doc
}

/// A case whose scenario adds to the generic checks that each `(ball node, displacement)`
/// comes to rest that far along y: 2 s, gravity, no action.
fn settle_case(
    (id, description): (&str, &str),
    features: &[&str],
    gltf: Value,
    settles: &[(usize, f64)],
) -> Case {
    let settles: Vec<(String, usize, f64)> = settles
        .iter()
        .map(|&(node, d)| (format!("ball-{node}-settles-on-the-mesh"), node, d))
        .collect();
    let scenario = settle_scenario(&gltf, Decision::GeometryMesh, &settles);
    let mut c = case(
        id,
        P,
        "geometry",
        description,
        "KHR_physics_rigid_bodies Geometry (January 2026: a geometry names a mesh, in the collider's frame)",
        Tier::Required,
        features,
        &[Decision::GeometryMesh, Decision::ColliderScale],
        gltf,
        vec![],
    );
    c.scenario = scenario;
    c
}

/// The ground's node is at (2, 0.75, -2), turned 90 degrees about +z, scale (0.25, 4, 4):
/// v -> T + R(S v), R(x, y, z) = (-y, x, z), so the cube becomes x in [-2, 2], y in
/// [0.75, 1], z in [-2, 2]. The ball at (-1, 3, 1) rests with its centre at 1 + 0.5: a
/// displacement of -1.5. Without the scale the cube is x in [1, 2], z in [-2, -1]; without the
/// rotation x in [2, 2.25]; in the parent's frame [0, 1]^3: none is under the ball.
fn turned_and_scaled() -> Case {
    let half = std::f64::consts::FRAC_1_SQRT_2;
    let doc = document(vec![
        ball("Ball", [-1.0, 3.0, 1.0]),
        ground(
            "Ground",
            json!({"translation": [2.0, 0.75, -2.0], "rotation": [0.0, 0.0, half, half],
                "scale": [0.25, 4.0, 4.0]}),
        ),
    ]);
    settle_case(
        (
            "khr26/geometry/mesh-in-turned-scaled-node",
            "A mesh geometry in its collider node's frame: the unit cube [0, 1]^3 on a static node at (2, 0.75, -2), turned 90 degrees about +z and scaled (0.25, 4, 4), is the slab x in [-2, 2], y in [0.75, 1], z in [-2, 2]; a ball dropped at (-1, 3, 1) rests on it (-1.5 m). A reader that drops the node's scale, its rotation, or places the mesh in another frame has no ground under the ball.",
        ),
        &[
            "geometry.mesh.only",
            "shape.trimesh",
            "shape.sphere.explicit",
            "body.dynamic",
        ],
        doc,
        &[(0, -1.5)],
    )
}

/// One mesh, two grounds: node 2 scales the cube (2, 0.5, 2) at (-4, 0.5, -1) (x in [-4, -2],
/// top at 1), node 3 scales it (2, 2, 2) at (2, 0, -1) (x in [2, 4], top at 2). Ball 0 at
/// (-3, 3, 0) rests at 1.5 (-1.5), ball 1 at (3, 4, 0) at 2.5 (-1.5). A reader that builds the
/// shared mesh once with the first node's scale puts the second top at 0.5: ball 1 then moves
/// -3, 1.5 m off (measured on Rapier with the file edited that way; dropping the first
/// ground's scale lets ball 0 fall 19.6 m).
fn shared() -> Case {
    let doc = document(vec![
        ball("BallA", [-3.0, 3.0, 0.0]),
        ball("BallB", [3.0, 4.0, 0.0]),
        ground(
            "GroundA",
            json!({"translation": [-4.0, 0.5, -1.0], "scale": [2.0, 0.5, 2.0]}),
        ),
        ground(
            "GroundB",
            json!({"translation": [2.0, 0.0, -1.0], "scale": [2.0, 2.0, 2.0]}),
        ),
    ]);
    settle_case(
        (
            "khr26/geometry/mesh-shared-by-two-colliders",
            "One mesh named by two colliders' geometry, each under its own node's scale: the unit cube scaled (2, 0.5, 2) tops out at y = 1 and scaled (2, 2, 2) at y = 2; a ball rests on each (-1.5 m both). A reader that shares one scaled shape between the colliders puts the second top at 0.5 (ball B 1.5 m lower).",
        ),
        &[
            "geometry.mesh.only",
            "geometry.mesh.shared",
            "shape.trimesh",
            "shape.sphere.explicit",
            "body.dynamic",
        ],
        doc,
        &[(0, -1.5), (1, -1.5)],
    )
}
