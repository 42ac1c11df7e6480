//! The node hierarchy: canonical [`Node`]s with their rest TRS read exactly (f64 from the raw
//! JSON; gltf-json keeps f32), matrices decomposed, and the forest check.

use nalgebra::{Matrix3, Matrix4, Rotation3, UnitQuaternion, Vector3};
use serde_json::Value;

use crate::issue::{Code, Issue, Issues};
use crate::math::quaternion_xyzw;
use crate::profile::Profile;
use crate::scene::{Node, NodeId, Trs};

use super::Document;

/// A rotation whose length differs from 1 by more than this is `NODE_ROTATION_NOT_UNIT`.
/// glTF-Validator uses 5e-6 on the length; files written with 4 to 6 decimals (common in
/// hand-written and older exported assets) miss that, and such a rotation is still clearly
/// meant as a unit quaternion, so the reference accepts 1e-3 and normalises.
pub const ROTATION_UNIT_TOLERANCE: f64 = 1e-3;

/// A matrix is TRS when its last row is `[0, 0, 0, 1]` within this, and its normalised columns
/// are orthogonal within this (|dot| of unit columns): f32-rounded matrices pass, a skew of
/// 0.01 rad does not.
pub const MATRIX_TRS_TOLERANCE: f64 = 1e-4;

/// Canonical nodes and the roots of the default scene; pushes `NODE_ROTATION_NOT_UNIT`,
/// `NODE_MATRIX_NOT_TRS`, `NODE_CYCLE`, `NODE_MULTIPLE_PARENTS` and `GLTF_VALUE` (a child
/// listed twice by one parent).
pub fn read_nodes(doc: &Document, issues: &mut Issues) -> (Vec<Node>, Vec<NodeId>) {
    let raw: &[Value] = doc
        .json
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    let count = doc.root.nodes.len().min(raw.len());
    let mut nodes: Vec<Node> = (0..count)
        .map(|i| read_node(i, &doc.root.nodes[i], &raw[i], issues))
        .collect();
    for (p, c) in forest(raw, count, issues) {
        nodes[c].parent = Some(p);
        nodes[p].children.push(c);
    }
    let roots = default_roots(doc, &nodes);
    for n in &mut nodes {
        n.in_scene = false;
    }
    let mut stack = roots.clone();
    while let Some(n) = stack.pop() {
        if !nodes[n].in_scene {
            nodes[n].in_scene = true;
            stack.extend(nodes[n].children.iter().copied());
        }
    }
    (nodes, roots)
}

fn read_node(i: usize, typed: &gltf_json::Node, raw: &Value, issues: &mut Issues) -> Node {
    let members = Members::of(raw);
    let matrix = numbers::<16>(members.matrix);
    let rest = match &matrix {
        Some(m) => match decompose(&Matrix4::from_column_slice(m)) {
            Ok(trs) => trs,
            Err(detail) => {
                issues.push(
                    Issue::new(Code::NodeMatrixNotTrs, format!("/nodes/{i}/matrix"))
                        .arg("detail", detail),
                );
                Trs::default()
            }
        },
        None => {
            let vec3 = |member: Option<&Value>, default: f64| match numbers::<3>(member) {
                Some(v) => Vector3::from(v),
                None => Vector3::repeat(default),
            };
            let rotation = match numbers::<4>(members.rotation) {
                Some([x, y, z, w]) => {
                    let q = quaternion_xyzw([x, y, z, w]);
                    let length = q.norm();
                    if (length - 1.0).abs() > ROTATION_UNIT_TOLERANCE {
                        issues.push(
                            Issue::new(Code::NodeRotationNotUnit, format!("/nodes/{i}/rotation"))
                                .arg("length", length),
                        );
                    }
                    UnitQuaternion::try_new(q, f64::MIN_POSITIVE)
                        .filter(|q| q.coords.iter().all(|c| c.is_finite()))
                        .unwrap_or_else(UnitQuaternion::identity)
                }
                _ => UnitQuaternion::identity(),
            };
            Trs {
                translation: vec3(members.translation, 0.0),
                rotation,
                scale: vec3(members.scale, 1.0),
            }
        }
    };
    let other_extensions = members
        .extensions
        .and_then(Value::as_object)
        .map(|e| {
            e.keys()
                .filter(|k| Profile::of_extension(k).is_none())
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    Node {
        name: typed.name.clone(),
        parent: None,
        children: Vec::new(),
        rest,
        from_matrix: matrix.is_some(),
        mesh: typed.mesh.map(|m| m.value()),
        has_camera: typed.camera.is_some(),
        other_extensions,
        in_scene: true,
    }
}

/// The members of a raw node that [`read_node`] reads, found in one pass over its entries: five
/// lookups were five scans of the same few entries, most of them for members that are absent
/// (a node has a matrix or TRS, rarely both).
#[derive(Default)]
struct Members<'a> {
    matrix: Option<&'a Value>,
    rotation: Option<&'a Value>,
    translation: Option<&'a Value>,
    scale: Option<&'a Value>,
    extensions: Option<&'a Value>,
}

impl<'a> Members<'a> {
    fn of(raw: &'a Value) -> Members<'a> {
        let mut members = Members::default();
        for (key, value) in raw.as_object().into_iter().flatten() {
            let slot = match key.as_bytes() {
                b"matrix" => &mut members.matrix,
                b"rotation" => &mut members.rotation,
                b"translation" => &mut members.translation,
                b"scale" => &mut members.scale,
                b"extensions" => &mut members.extensions,
                _ => continue,
            };
            *slot = Some(value);
        }
        members
    }
}

/// A node member when it is an array of exactly `N` numbers (read without allocating: four
/// such arrays per node).
fn numbers<const N: usize>(member: Option<&Value>) -> Option<[f64; N]> {
    let items = member?.as_array()?;
    if items.len() != N {
        return None;
    }
    let mut out = [0.0; N];
    for (slot, item) in out.iter_mut().zip(items) {
        *slot = item.as_f64()?;
    }
    Some(out)
}

/// Decompose a column-major node matrix into T * R * S. Errors: a projection row, a zero or
/// non-finite scale (singular), or skew (columns not orthogonal). A negative determinant is a
/// mirror: decomposed with a negative x scale.
pub fn decompose(m: &Matrix4<f64>) -> Result<Trs, String> {
    if !m.iter().all(|v| v.is_finite()) {
        return Err("the matrix is not finite".to_owned());
    }
    let row = m.row(3);
    if (row[0].abs().max(row[1].abs()).max(row[2].abs())) > MATRIX_TRS_TOLERANCE
        || (row[3] - 1.0).abs() > MATRIX_TRS_TOLERANCE
    {
        return Err(format!(
            "the last row is [{}, {}, {}, {}], not [0, 0, 0, 1] (projection)",
            row[0], row[1], row[2], row[3]
        ));
    }
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    let mut scale = Vector3::new(
        linear.column(0).norm(),
        linear.column(1).norm(),
        linear.column(2).norm(),
    );
    if !scale.iter().all(|s| s.is_finite() && *s > 0.0) {
        return Err(format!(
            "column lengths {}, {}, {}: singular",
            scale.x, scale.y, scale.z
        ));
    }
    let mut r = Matrix3::from_columns(&[
        linear.column(0) / scale.x,
        linear.column(1) / scale.y,
        linear.column(2) / scale.z,
    ]);
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        let dot = r.column(a).dot(&r.column(b));
        if dot.abs() > MATRIX_TRS_TOLERANCE {
            return Err(format!(
                "columns {a} and {b} are not orthogonal (skew): cos = {dot}"
            ));
        }
    }
    if r.determinant() < 0.0 {
        scale.x = -scale.x;
        r.set_column(0, &(-r.column(0)));
    }
    // The columns are orthonormal within the tolerance: read the quaternion in closed form and
    // normalise it. (`Rotation3::from_matrix` iterates from the identity, and a half turn is a
    // stationary point of that iteration: it returned the identity for one.)
    let rotation = UnitQuaternion::new_normalize(
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(r)).into_inner(),
    );
    Ok(Trs {
        translation: Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]),
        rotation,
        scale,
    })
}

/// `(j, Some(child))` for each entry of a raw node's `children` that is a valid index
/// (`None` when it is not an unsigned integer).
fn child_entries(node: &Value) -> impl Iterator<Item = (usize, Option<usize>)> + '_ {
    node.get("children")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(j, c)| {
            (
                j,
                super::schema::integer(c).and_then(|c| usize::try_from(c).ok()),
            )
        })
}

/// The `(parent, child)` edges kept by the forest check, in file order. Edges are taken in file order (parents by
/// index, then their children); an edge is dropped, with an issue at `/nodes/p/children/j`,
/// when the child already has a parent (`NODE_MULTIPLE_PARENTS`), is the parent itself or its
/// ancestor (`NODE_CYCLE`), or was listed before by the same parent (`GLTF_VALUE`). The kept
/// edges always form a forest. Union-find over tree roots keeps this near-linear even for
/// chains of millions of nodes.
fn forest(raw: &[Value], count: usize, issues: &mut Issues) -> Vec<(NodeId, NodeId)> {
    let mut kept = Vec::new();
    let mut parent: Vec<Option<NodeId>> = vec![None; count];
    // Disjoint sets of the nodes of one tree. A set's representative is always its tree's
    // root: a child's set (whose representative is the child itself, a root until now) is
    // only ever linked below the parent's representative.
    let mut set: Vec<usize> = (0..count).collect();
    fn find(set: &mut [usize], mut x: usize) -> usize {
        let mut r = x;
        while set[r] != r {
            r = set[r];
        }
        while set[x] != r {
            let next = set[x];
            set[x] = r;
            x = next;
        }
        r
    }
    for (p, node) in raw.iter().enumerate().take(count) {
        for (j, child) in child_entries(node) {
            let Some(c) = child.filter(|&c| c < count) else {
                continue; // GLTF_INDEX from the schema check
            };
            let pointer = || format!("/nodes/{p}/children/{j}");
            if c == p {
                issues.push(Issue::new(Code::NodeCycle, pointer()).arg("node", c));
            } else if parent[c] == Some(p) {
                issues.push(Issue::new(Code::GltfValue, pointer()).arg(
                    "detail",
                    format!("node {c} is listed twice among the children of node {p}"),
                ));
            } else if parent[c].is_some() {
                issues.push(Issue::new(Code::NodeMultipleParents, pointer()).arg("node", c));
            } else {
                // c has no parent, so it is the root of its tree; p's tree root is
                // find(p). Linking closes a cycle exactly when they are the same node.
                let rp = find(&mut set, p);
                if rp == c {
                    issues.push(Issue::new(Code::NodeCycle, pointer()).arg("node", c));
                } else {
                    parent[c] = Some(p);
                    set[c] = rp;
                    kept.push((p, c));
                }
            }
        }
    }
    kept
}

/// Roots of the default scene: `scene`, else scene 0, else every parentless node.
fn default_roots(doc: &Document, nodes: &[Node]) -> Vec<NodeId> {
    let scene = doc
        .root
        .scene
        .map(|s| s.value())
        .filter(|&s| s < doc.root.scenes.len())
        .or((!doc.root.scenes.is_empty()).then_some(0));
    match scene {
        Some(s) => {
            let mut roots = Vec::new();
            for n in doc.root.scenes[s].nodes.iter().map(|n| n.value()) {
                if n < nodes.len() && !roots.contains(&n) {
                    roots.push(n);
                }
            }
            roots
        }
        None => (0..nodes.len())
            .filter(|&n| nodes[n].parent.is_none())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    fn read(json: &str) -> (Vec<Node>, Vec<NodeId>, Vec<(Code, String)>) {
        let mut issues = Issues::default();
        let doc = Document::load(json.as_bytes(), None, &mut issues).expect("loads");
        let (nodes, roots) = read_nodes(&doc, &mut issues);
        (
            nodes,
            roots,
            issues.0.into_iter().map(|i| (i.code, i.pointer)).collect(),
        )
    }

    fn node_json(children: &[&str]) -> String {
        let nodes: Vec<String> = children
            .iter()
            .map(|c| format!("{{\"children\":[{c}]}}"))
            .collect();
        format!(
            "{{\"asset\":{{\"version\":\"2.0\"}},\"nodes\":[{}]}}",
            nodes.join(",")
        )
    }

    #[test]
    fn exact_f64_values() {
        let (nodes, _, issues) = read(
            r#"{"asset":{"version":"2.0"},"nodes":[{"translation":[0.1,1e-30,3.000000000001]}]}"#,
        );
        assert!(issues.is_empty());
        // f32 would round 0.1 to 0.100000001490116...
        assert_eq!(
            nodes[0].rest.translation,
            Vector3::new(0.1, 1e-30, 3.000000000001)
        );
    }

    /// A fixed-length number array: exactly N numbers, anything else is `None` (the node
    /// then keeps the default: no matrix, zero translation, unit scale, identity rotation).
    #[test]
    fn fixed_number_arrays() {
        let raw = serde_json::from_slice::<Value>(
            br#"{"t": [1, 2.5, -3], "short": [1, 2], "long": [1, 2, 3, 4], "text": [1, "x", 3],
                "empty": [], "scalar": 3}"#,
        )
        .expect("JSON");
        assert_eq!(numbers::<3>(raw.get("t")), Some([1.0, 2.5, -3.0]));
        assert_eq!(numbers::<4>(raw.get("long")), Some([1.0, 2.0, 3.0, 4.0]));
        for key in ["short", "long", "text", "empty", "scalar", "absent"] {
            assert_eq!(numbers::<3>(raw.get(key)), None, "{key}");
        }
        assert_eq!(numbers::<0>(raw.get("empty")), Some([]));
    }

    /// One pass finds each member the lookups found (`get`), among other keys, and nothing in
    /// a node that is not an object.
    #[test]
    fn one_pass_finds_the_members_lookups_find() {
        let raw = serde_json::from_slice::<Value>(
            br#"{"children": [1], "extensions": {"X_y": {}}, "matrix": [1], "mesh": 0,
                "name": "n", "rotation": [0, 0, 0, 1], "scale": [2, 2, 2], "translation": [1, 2, 3],
                "zz": 1}"#,
        )
        .expect("JSON");
        let m = Members::of(&raw);
        for (found, key) in [
            (m.matrix, "matrix"),
            (m.rotation, "rotation"),
            (m.translation, "translation"),
            (m.scale, "scale"),
            (m.extensions, "extensions"),
        ] {
            assert_eq!(found, raw.get(key), "{key}");
            assert!(found.is_some(), "{key}");
        }
        let sparse = serde_json::from_slice::<Value>(br#"{"scale": [1, 1, 1]}"#).expect("JSON");
        let m = Members::of(&sparse);
        assert_eq!(m.scale, sparse.get("scale"));
        assert!(m.matrix.is_none() && m.rotation.is_none() && m.translation.is_none());
        assert!(m.extensions.is_none());
        let list = Value::from(vec![Value::from(1u64)]);
        let m = Members::of(&list);
        assert!(m.matrix.is_none() && m.scale.is_none() && m.extensions.is_none());
    }

    #[test]
    fn rotation_tolerance() {
        // [0, 0, 0.7071, 0.7071]: length 0.99999, within 1e-3: no issue, normalised.
        let (nodes, _, issues) = read(
            r#"{"asset":{"version":"2.0"},"nodes":[{"rotation":[0,0,0.7071,0.7071]},{"rotation":[0,0,0,2]},{"rotation":[0,0,0,0]}]}"#,
        );
        assert_eq!(
            issues,
            [
                (Code::NodeRotationNotUnit, "/nodes/1/rotation".to_owned()),
                (Code::NodeRotationNotUnit, "/nodes/2/rotation".to_owned())
            ]
        );
        let expected = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2);
        assert!(nodes[0].rest.rotation.angle_to(&expected) < 1e-12);
        assert_eq!(nodes[1].rest.rotation, UnitQuaternion::identity());
        assert_eq!(nodes[2].rest.rotation, UnitQuaternion::identity());
    }

    #[test]
    fn matrix_decomposition() {
        // T(1,2,3) * Rz(90) * S(2,3,4): column-major, Rz(90) maps x->y, y->-x.
        // Columns: S.x * (0,1,0) = (0,2,0); S.y * (-1,0,0) = (-3,0,0); (0,0,4); (1,2,3,1).
        let m = [
            0.0, 2.0, 0.0, 0.0, -3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0, 0.0, 1.0, 2.0, 3.0, 1.0,
        ];
        let trs = decompose(&Matrix4::from_column_slice(&m)).expect("TRS");
        assert!((trs.translation - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-12);
        assert!((trs.scale - Vector3::new(2.0, 3.0, 4.0)).norm() < 1e-12);
        let rz = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2);
        assert!(trs.rotation.angle_to(&rz) < 1e-12);
        assert!((trs.matrix() - Matrix4::from_column_slice(&m)).norm() < 1e-12);

        // Mirror: diag(-1, 1, 1) decomposes with a negative scale and recomposes exactly.
        let mirror = Matrix4::from_diagonal(&nalgebra::Vector4::new(-1.0, 1.0, 1.0, 1.0));
        let trs = decompose(&mirror).expect("TRS");
        assert!((trs.matrix() - mirror).norm() < 1e-12);
        // A half turn about (2, -2, -3)/sqrt(17), as a generated joint frame wrote it: R = 2 a aᵀ - I
        // (trace -1). It was read as the identity.
        let a = Vector3::new(2.0, -2.0, -3.0).normalize();
        let half = 2.0 * a * a.transpose() - Matrix3::identity();
        let mut m = Matrix4::identity();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&half);
        let trs = decompose(&m).expect("a rotation");
        assert!((trs.rotation.angle() - std::f64::consts::PI).abs() < 1e-12);
        assert!((trs.rotation.axis().expect("an axis").into_inner().cross(&a)).norm() < 1e-12);

        // Skew: column 1 = (0.1, 1, 0) is not orthogonal to column 0 = (1, 0, 0).
        let mut skew = Matrix4::identity();
        skew[(0, 1)] = 0.1;
        assert!(decompose(&skew).expect_err("not TRS").contains("skew"));
        // Projection row, singular scale.
        let mut projection = Matrix4::identity();
        projection[(3, 2)] = -1.0;
        assert!(
            decompose(&projection)
                .expect_err("not TRS")
                .contains("projection")
        );
        let mut singular = Matrix4::identity();
        singular[(1, 1)] = 0.0;
        assert!(
            decompose(&singular)
                .expect_err("not TRS")
                .contains("singular")
        );
    }

    #[test]
    fn cycles_and_multiple_parents() {
        // 0 -> 1 -> 2 -> 0: the entry closing the cycle is node 2's child 0.
        let (nodes, roots, issues) = read(&node_json(&["1", "2", "0"]));
        assert_eq!(
            issues,
            [(Code::NodeCycle, "/nodes/2/children/0".to_owned())]
        );
        assert_eq!(nodes[0].parent, None);
        assert_eq!(nodes[2].parent, Some(1));
        assert_eq!(roots, [0]);
        // Self reference, also of a node that has a parent.
        let (_, _, issues) = read(&node_json(&["0"]));
        assert_eq!(
            issues,
            [(Code::NodeCycle, "/nodes/0/children/0".to_owned())]
        );
        let (_, _, issues) = read(&node_json(&["1", "1"]));
        assert_eq!(
            issues,
            [(Code::NodeCycle, "/nodes/1/children/0".to_owned())]
        );
        // Node 2 is a child of 0 and of 1: the second parent's entry.
        let (nodes, _, issues) = read(&node_json(&["2", "2", ""]));
        assert_eq!(
            issues,
            [(Code::NodeMultipleParents, "/nodes/1/children/0".to_owned())]
        );
        assert_eq!(nodes[2].parent, Some(0));
        assert!(nodes[1].children.is_empty());
        // Listed twice by one parent.
        let (nodes, _, issues) = read(&node_json(&["1,1", ""]));
        assert_eq!(
            issues,
            [(Code::GltfValue, "/nodes/0/children/1".to_owned())]
        );
        assert_eq!(nodes[0].children, [1]);
    }

    #[test]
    fn long_chain_is_fast() {
        // 200,000 nodes, node i the parent of i+1, and the last one closing a cycle to node 0.
        let n = 200_000;
        let children: Vec<String> = (0..n).map(|i| ((i + 1) % n).to_string()).collect();
        let refs: Vec<&str> = children.iter().map(String::as_str).collect();
        let start = std::time::Instant::now();
        let (nodes, roots, issues) = read(&node_json(&refs));
        assert!(start.elapsed().as_secs() < 20);
        assert_eq!(
            issues,
            [(Code::NodeCycle, format!("/nodes/{}/children/0", n - 1))]
        );
        assert_eq!(roots, [0]);
        assert!(nodes.iter().all(|n| n.in_scene));
    }

    #[test]
    fn default_scene_roots() {
        let (nodes, roots, _) = read(
            r#"{"asset":{"version":"2.0"},"scene":1,"scenes":[{"nodes":[0]},{"nodes":[1]}],
                "nodes":[{},{"children":[2]},{},{"extensions":{"KHR_lights_punctual":{},"OMI_collider":{}}}]}"#,
        );
        assert_eq!(roots, [1]);
        let in_scene: Vec<bool> = nodes.iter().map(|n| n.in_scene).collect();
        assert_eq!(in_scene, [false, true, true, false]);
        assert_eq!(nodes[3].other_extensions, ["KHR_lights_punctual"]);
        // No scene: every parentless node.
        let (_, roots, _) = read(&node_json(&["", "0", ""]));
        assert_eq!(roots, [1, 2]);
    }
}
