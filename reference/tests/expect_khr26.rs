//! `khr-2026` mesh geometry worked by hand [D-GEOMETRY-MESH], [D-GEOMETRY-NODE-2026], on the
//! validation fixtures under `tests/validation/khr26/`. Their mesh is the tetrahedron
//! (0,0,0), (1,0,0), (0,2,0), (0,0,3); every expected vertex below is computed by hand.

use std::path::Path;

use nalgebra::Point3;
use reference::Reading;
use reference::profile::Profile;
use reference::scene::{Scene, Shape};

const TETRAHEDRON: [[f64; 3]; 4] = [[0.0; 3], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 3.0]];

fn read(name: &str) -> (Reading, Scene) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/validation/khr26")
        .join(format!("{name}.gltf"));
    let reading = reference::read_path(&path, None).expect("readable");
    assert_eq!(reading.profile, Some(Profile::Khr2026), "{name}");
    assert!(reading.dated, "{name}: a mesh geometry dates the document");
    assert!(!reading.has_errors(), "{name}: {:?}", reading.issues);
    let scene = reading.scene.clone().expect("scene");
    (reading, scene)
}

/// The vertices of the mesh shape of the collider (or trigger) on `node`, in its node's frame.
fn vertices(scene: &Scene, node: usize, trigger: bool) -> Vec<[f64; 3]> {
    let c = scene
        .colliders
        .iter()
        .find(|c| c.node == node && c.is_trigger == trigger)
        .expect("a collider on the node");
    match &scene.shapes[c.shape] {
        Shape::Convex { mesh } | Shape::Trimesh { mesh } => scene.meshes[mesh].positions.clone(),
        other => panic!("not a mesh: {other:?}"),
    }
}

fn assert_near(got: &[[f64; 3]], want: &[[f64; 3]]) {
    assert_eq!(got.len(), want.len(), "{got:?} against {want:?}");
    for (g, w) in got.iter().zip(want) {
        for k in 0..3 {
            assert!((g[k] - w[k]).abs() < 1e-6, "{got:?} against {want:?}");
        }
    }
}

/// The mesh sits in the collider node's own frame: its vertices as stored, carried by the
/// node's world transform. The body node is at (0, 2, 0), turned 90 degrees about +z, scale
/// (1, 2, 0.5): v -> T + R(S v) with R(x, y, z) = (-y, x, z). (0,0,0) -> (0,2,0);
/// (1,0,0) -> (1,0,0) -> (0,1,0) -> (0,3,0); (0,2,0) -> (0,4,0) -> (-4,0,0) -> (-4,2,0);
/// (0,0,3) -> (0,0,1.5) -> (0,2,1.5). A reader that drops the node's scale puts the third
/// vertex at (-2, 2, 0); one that uses the body's parent frame leaves it at (0, 2, 0) + v.
#[test]
fn a_mesh_geometry_is_in_its_collider_nodes_frame_under_its_world_scale() {
    let (_, scene) = read("control");
    assert_near(&vertices(&scene, 0, false), &TETRAHEDRON);
    let world = scene.rest_world()[0];
    let placed: Vec<[f64; 3]> = TETRAHEDRON
        .iter()
        .map(|v| {
            let p = world.transform_point(&Point3::new(v[0], v[1], v[2]));
            [p.x, p.y, p.z]
        })
        .collect();
    let want = [
        [0.0, 2.0, 0.0],
        [0.0, 3.0, 0.0],
        [-4.0, 2.0, 0.0],
        [0.0, 2.0, 1.5],
    ];
    assert_near(&placed, &want);
}

/// Morph targets take the mesh's own weights, never a node's: the target moves vertex 1 by
/// (1, 0, 0); at the mesh's weight 0.5 it is at (1.5, 0, 0). The node that draws the mesh has
/// weight 1, which would put it at (2, 0, 0).
#[test]
fn a_mesh_geometry_is_morphed_by_the_meshs_own_weights() {
    let (_, scene) = read("geometry_mesh_morphed");
    let mut want = TETRAHEDRON;
    want[1] = [1.5, 0.0, 0.0];
    assert_near(&vertices(&scene, 0, false), &want);
}

/// A skin belongs to a node: the geometry is the mesh as stored (its bind pose), though the
/// node draws it through a joint of scale 2 (skinned, vertex 3 would be at (0, 0, 6)). The
/// reference says so with information, not an error.
#[test]
fn a_mesh_geometry_is_read_unskinned() {
    let (reading, scene) = read("geometry_mesh_unskinned");
    assert_near(&vertices(&scene, 0, false), &TETRAHEDRON);
    let codes: Vec<&str> = reading.issues.iter().map(|i| i.code.id()).collect();
    assert_eq!(codes, ["KHR_GEOMETRY_MESH_UNSKINNED"]);
}

/// One mesh used by two colliders is one shape; the trigger on it, a convex hull, another.
#[test]
fn colliders_on_one_mesh_share_its_shape() {
    let (_, scene) = read("geometry_mesh_shared_and_trigger");
    let shape = |node: usize| {
        scene
            .colliders
            .iter()
            .find(|c| c.node == node)
            .map(|c| c.shape)
            .expect("collider")
    };
    assert_eq!(shape(0), shape(1));
    assert_ne!(shape(0), shape(2));
    assert!(matches!(scene.shapes[shape(0)], Shape::Trimesh { .. }));
    assert!(matches!(scene.shapes[shape(2)], Shape::Convex { .. }));
    assert!(scene.colliders.iter().any(|c| c.node == 2 && c.is_trigger));
    assert_near(&vertices(&scene, 2, true), &TETRAHEDRON);
}

/// A node geometry in a 2026 document is the 2025 form, read by its rule with a warning: the
/// geometry node's mesh in the collider's frame, the same tetrahedron as the mesh geometry
/// beside it.
#[test]
fn a_node_geometry_in_a_2026_document_reads_as_in_2025() {
    let (reading, scene) = read("geometry_node_2025");
    assert_near(&vertices(&scene, 0, false), &TETRAHEDRON);
    assert_near(&vertices(&scene, 1, false), &TETRAHEDRON);
    let codes: Vec<&str> = reading.issues.iter().map(|i| i.code.id()).collect();
    assert_eq!(codes, ["KHR_GEOMETRY_NODE_2025"]);
    let decisions: Vec<&str> = reference::expect::evaluate(&scene, &Default::default())
        .expect("evaluates")
        .colliders
        .iter()
        .flat_map(|c| c.decisions.iter().map(|d| d.id()))
        .collect();
    assert!(decisions.contains(&"D-GEOMETRY-MESH"), "{decisions:?}");
    assert!(decisions.contains(&"D-GEOMETRY-NODE-2026"), "{decisions:?}");
}
