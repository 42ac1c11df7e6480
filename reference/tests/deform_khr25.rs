//! `khr-2025` node geometry deformed at rest [D-GEOMETRY-NODE], worked by hand: a morphed box
//! (one target moving a face, weight 0.5; plain and sparse), and a two-joint skin with one
//! joint translated at rest. The oracles are written here from the arithmetic in the comments,
//! not computed by the reference.

use base64::Engine as _;
use reference::profile::Profile;
use reference::scene::{Scene, Shape};
use serde_json::{Value, json};

const RB: &str = "KHR_physics_rigid_bodies";

/// The unit box's corners (+-0.5 on each axis), x slowest, and its 12 triangles.
fn unit_box() -> (Vec<[f32; 3]>, Vec<u16>) {
    let mut corners = Vec::new();
    for x in [-0.5, 0.5] {
        for y in [-0.5, 0.5] {
            for z in [-0.5, 0.5] {
                corners.push([x, y, z]);
            }
        }
    }
    let triangles = vec![
        0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4,
        1, 5, 7, 1, 7, 3,
    ];
    (corners, triangles)
}

/// The binary data of a test document: one data-URI buffer with a view per accessor.
#[derive(Default)]
struct BufferData {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl BufferData {
    /// Append `raw` as a view and an accessor `{component, count, type}` (+ `extra`).
    fn accessor(&mut self, raw: &[u8], component: u32, count: usize, kind: &str) -> usize {
        self.bytes.resize(self.bytes.len().next_multiple_of(4), 0);
        let at = self.bytes.len();
        self.bytes.extend(raw);
        self.views
            .push(json!({"buffer": 0, "byteOffset": at, "byteLength": raw.len()}));
        self.accessors
            .push(json!({"bufferView": self.views.len() - 1,
            "componentType": component, "count": count, "type": kind}));
        self.accessors.len() - 1
    }

    fn floats(&mut self, v: &[f32], count: usize, kind: &str) -> usize {
        let raw: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.accessor(&raw, 5126, count, kind)
    }

    /// The box's POSITION and indices accessors.
    fn unit_box(&mut self) -> (usize, usize) {
        let (corners, triangles) = unit_box();
        let p = self.floats(&corners.concat(), 8, "VEC3");
        self.accessors[p]["min"] = json!([-0.5, -0.5, -0.5]);
        self.accessors[p]["max"] = json!([0.5, 0.5, 0.5]);
        let raw: Vec<u8> = triangles.iter().flat_map(|i| i.to_le_bytes()).collect();
        let i = self.accessor(&raw, 5123, triangles.len(), "SCALAR");
        (p, i)
    }

    /// Put the buffer, views and accessors into `doc`.
    fn into(self, mut doc: Value) -> Value {
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&self.bytes)
        );
        doc["buffers"] = json!([{"byteLength": self.bytes.len(), "uri": uri}]);
        doc["bufferViews"] = json!(self.views);
        doc["accessors"] = json!(self.accessors);
        doc
    }
}

fn read(doc: &Value) -> reference::Reading {
    let text = serde_json::to_vec(doc).expect("json");
    let reading = reference::read_bytes(&text, None, None);
    assert_eq!(reading.profile, Some(Profile::Khr2025));
    assert!(reading.issues.is_empty(), "{:?}", reading.issues);
    reading
}

/// The positions of the mesh of the first collider's shape.
fn collider_positions(scene: &Scene) -> Vec<[f64; 3]> {
    let (Shape::Convex { mesh } | Shape::Trimesh { mesh }) =
        scene.shapes[scene.colliders[0].shape].clone()
    else {
        panic!("a mesh shape")
    };
    scene.meshes[&mesh].positions.clone()
}

/// The smallest box holding `points`: (min, max).
fn extent(points: &[[f64; 3]]) -> ([f64; 3], [f64; 3]) {
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in points {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    (lo, hi)
}

fn assert_close(got: [f64; 3], want: [f64; 3]) {
    for k in 0..3 {
        assert!((got[k] - want[k]).abs() < 1e-6, "{got:?} vs {want:?}");
    }
}

/// A box whose one morph target moves the +x face by (1, 0, 0): the target holds (1, 0, 0) on
/// the four corners with x = +0.5 and nothing elsewhere (`sparse`: as a sparse accessor of
/// those four indices over zeros). The mesh's default weight is 0, the node's is 0.5: the
/// node's wins, so the +x face ends at 0.5 + 0.5 * 1 = 1.0 and the -x face stays at -0.5.
/// Extent: x in [-0.5, 1.0], y and z in [-0.5, 0.5]. With the mesh's weight alone (0.0,
/// `node_weight` None) nothing moves.
fn morphed_box(sparse: bool, node_weight: Option<f64>) -> Value {
    let mut data = BufferData::default();
    let (p, i) = data.unit_box();
    // Corners 4..8 have x = +0.5 (x varies slowest).
    let target = if sparse {
        let idx: Vec<u8> = [4u16, 5, 6, 7]
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        let vals: Vec<u8> = [1.0f32, 0.0, 0.0]
            .repeat(4)
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        // Two views for the sparse parts; the accessor itself has no bufferView (zeros).
        let idx_acc = data.accessor(&idx, 5123, 4, "SCALAR");
        let idx_view = data.accessors[idx_acc]["bufferView"].clone();
        let val_acc = data.accessor(&vals, 5126, 4, "VEC3");
        let val_view = data.accessors[val_acc]["bufferView"].clone();
        data.accessors
            .push(json!({"componentType": 5126, "count": 8, "type": "VEC3",
            "min": [0, 0, 0], "max": [1, 0, 0],
            "sparse": {"count": 4,
                "indices": {"bufferView": idx_view, "componentType": 5123},
                "values": {"bufferView": val_view}}}));
        data.accessors.len() - 1
    } else {
        let mut deltas = [[0.0f32; 3]; 8];
        for d in &mut deltas[4..] {
            *d = [1.0, 0.0, 0.0];
        }
        let t = data.floats(&deltas.concat(), 8, "VEC3");
        data.accessors[t]["min"] = json!([0, 0, 0]);
        data.accessors[t]["max"] = json!([1, 0, 0]);
        t
    };
    let mut morphed = json!({"name": "Morphed", "mesh": 0});
    if let Some(w) = node_weight {
        morphed["weights"] = json!([w]);
    }
    data.into(json!({"asset": {"version": "2.0"}, "extensionsUsed": [RB],
        "nodes": [
            {"name": "Ground", "extensions": {RB: {"collider": {"geometry": {"node": 1, "convexHull": true}}}}},
            morphed
        ],
        "scenes": [{"nodes": [0]}], "scene": 0,
        "meshes": [{"primitives": [{"attributes": {"POSITION": p}, "indices": i,
            "targets": [{"POSITION": target}]}], "weights": [0.0]}]}))
}

#[test]
fn a_morph_target_at_half_weight_moves_one_face_half_way() {
    for sparse in [false, true] {
        let reading = read(&morphed_box(sparse, Some(0.5)));
        let positions = collider_positions(reading.scene.as_ref().expect("scene"));
        let (lo, hi) = extent(&positions);
        assert_close(lo, [-0.5, -0.5, -0.5]);
        assert_close(hi, [1.0, 0.5, 0.5]);
        // Corner 4 (0.5, -0.5, -0.5) moved to (1.0, -0.5, -0.5); corner 0 stayed.
        assert_close(positions[4], [1.0, -0.5, -0.5]);
        assert_close(positions[0], [-0.5, -0.5, -0.5]);
    }
    // The mesh's own weight 0: the box as it is.
    let reading = read(&morphed_box(false, None));
    let (lo, hi) = extent(&collider_positions(reading.scene.as_ref().expect("scene")));
    assert_close(lo, [-0.5, -0.5, -0.5]);
    assert_close(hi, [0.5, 0.5, 0.5]);
}

/// A box skinned to two joints. Joint 0 at the origin, inverse bind identity: J0 IB0 = I.
/// Joint 1 at (0, 3, 0) at rest, bound at (0, 1, 0) (inverse bind = translation (0, -1, 0)):
/// J1 IB1 = translation (0, 2, 0). The bottom corners (y = -0.5) are weighted 1 to joint 0 and
/// stay; the top corners (y = +0.5) are weighted 0.25 to joint 0 and 0.75 to joint 1, so they
/// rise by 0.75 * 2 = 1.5, to y = 2.0. The skinned mesh node's own translation (100, 0, 0) is
/// ignored (glTF skinning). The geometry node is the collider node at (0, 0, 5): world
/// positions come into its frame by its inverse, z - 5. So in the collider's frame:
/// x in [-0.5, 0.5], y in [-0.5, 2.0], z in [-5.5, -4.5].
#[test]
fn a_joint_translated_at_rest_moves_the_hull_by_its_weighted_offset() {
    let mut data = BufferData::default();
    let (p, i) = data.unit_box();
    let (corners, _) = unit_box();
    let joints: Vec<u8> = [0u8, 1, 0, 0].repeat(8);
    let j = data.accessor(&joints, 5121, 8, "VEC4");
    let weights: Vec<f32> = corners
        .iter()
        .flat_map(|c| {
            if c[1] > 0.0 {
                [0.25, 0.75, 0.0, 0.0]
            } else {
                [1.0, 0.0, 0.0, 0.0]
            }
        })
        .collect();
    let w = data.floats(&weights, 8, "VEC4");
    // Column-major: the translation is in elements 12..15.
    let mut ibm = vec![
        1.0f32, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    ibm.extend([
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0,
    ]);
    let b = data.floats(&ibm, 2, "MAT4");
    let doc = data.into(json!({"asset": {"version": "2.0"}, "extensionsUsed": [RB],
        "nodes": [
            {"name": "Body", "translation": [0.0, 0.0, 5.0], "children": [1],
                "extensions": {RB: {"motion": {"mass": 1.0},
                    "collider": {"geometry": {"node": 0, "convexHull": true}}}}},
            {"name": "Skinned", "mesh": 0, "skin": 0, "translation": [100.0, 0.0, 0.0]},
            {"name": "Joint0"},
            {"name": "Joint1", "translation": [0.0, 3.0, 0.0]}
        ],
        "scenes": [{"nodes": [0, 2, 3]}], "scene": 0,
        "meshes": [{"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j, "WEIGHTS_0": w},
            "indices": i}]}],
        "skins": [{"joints": [2, 3], "inverseBindMatrices": b}]}));
    let reading = read(&doc);
    let positions = collider_positions(reading.scene.as_ref().expect("scene"));
    assert_eq!(positions.len(), 8);
    let (lo, hi) = extent(&positions);
    assert_close(lo, [-0.5, -0.5, -5.5]);
    assert_close(hi, [0.5, 2.0, -4.5]);
    // Corner 3 (-0.5, 0.5, 0.5): top, so (-0.5, 2.0, 0.5) in world, (-0.5, 2.0, -4.5) here.
    assert_close(positions[3], [-0.5, 2.0, -4.5]);
    // Corner 4 (0.5, -0.5, -0.5): bottom, unmoved in world, z - 5 here.
    assert_close(positions[4], [0.5, -0.5, -5.5]);
}

/// The box skinned to two joints at rest translations `t0` and `t1` (identity inverse bind
/// matrices), every vertex weighted `w` to joint 1 and `1 - w` to joint 0, the geometry node
/// at the origin.
fn two_joint_box(t0: [f32; 3], t1: [f32; 3], w: f32) -> Value {
    let mut data = BufferData::default();
    let (p, i) = data.unit_box();
    let j = data.accessor(&[0u8, 1, 0, 0].repeat(8), 5121, 8, "VEC4");
    let weights = data.floats(&[1.0 - w, w, 0.0, 0.0].repeat(8), 8, "VEC4");
    data.into(json!({"asset": {"version": "2.0"}, "extensionsUsed": [RB],
        "nodes": [
            {"name": "Ground", "extensions": {RB: {"collider": {"geometry": {"node": 1}}}}},
            {"name": "Skinned", "mesh": 0, "skin": 0},
            {"name": "Joint0", "translation": t0},
            {"name": "Joint1", "translation": t1}
        ],
        "scenes": [{"nodes": [0, 2, 3]}], "scene": 0,
        "meshes": [{"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j,
            "WEIGHTS_0": weights}, "indices": i}]}],
        "skins": [{"joints": [2, 3]}]}))
}

proptest::proptest! {
    /// Linear blend skinning of pure translations moves every vertex by the weighted mean of
    /// the joints' translations: v + (1 - w) t0 + w t1.
    #[test]
    fn translated_joints_move_vertices_by_the_weighted_translation(
        t0 in proptest::array::uniform3(-10i8..10),
        t1 in proptest::array::uniform3(-10i8..10),
        quarters in 0u8..=4,
    ) {
        let (t0, t1) = (t0.map(f32::from), t1.map(f32::from));
        let w = f32::from(quarters) / 4.0;
        let reading = read(&two_joint_box(t0, t1, w));
        let positions = collider_positions(reading.scene.as_ref().expect("scene"));
        let (corners, _) = unit_box();
        for (got, v) in positions.iter().zip(corners) {
            for k in 0..3 {
                let want = f64::from(v[k])
                    + f64::from(1.0 - w) * f64::from(t0[k])
                    + f64::from(w) * f64::from(t1[k]);
                proptest::prop_assert!((got[k] - want).abs() < 1e-9, "{got:?} vs {want}");
            }
        }
    }
}
