//! The rest deformation of a `khr-2025` node geometry's meshes [D-GEOMETRY-NODE]: morph targets
//! (POSITION deltas times the node's, else the mesh's, weights), then the skin (every vertex to
//! world space by its weighted joint matrices). Bad data draws an issue (`KHR_SKIN_*`,
//! `KHR_MORPH_TARGET_INVALID`) and leaves the mesh out, never a panic.

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::mesh::Semantic;
use gltf_json::validation::Checked;
use nalgebra::{Matrix4, Point3};

use crate::document::{Document, Part};
use crate::issue::{Code, Issue, Issues};
use crate::scene::{MeshId, NodeId, TriangleMesh};
use serde_json::Value;

/// How far from 1 a vertex's skin weights may sum before `KHR_SKIN_WEIGHTS_NOT_NORMALIZED`.
pub const WEIGHT_SUM_TOLERANCE: f64 = 1e-3;

/// The positions of one mesh node's mesh at rest.
#[derive(Clone, Debug, PartialEq)]
pub enum Deformed {
    /// Neither a skin nor a non-zero morph weight: the mesh as it is.
    Not,
    /// Morphed, in the mesh node's frame.
    Local(Vec<[f64; 3]>),
    /// Skinned (and maybe morphed first), in world space.
    World(Vec<[f64; 3]>),
    /// Bad skin or morph data (an issue says why): the mesh is left out.
    Dropped,
}

/// Whether node `node` would deform its mesh `mesh`: a skin, or a non-zero morph weight on a
/// mesh with targets.
pub fn deforms(doc: &Document, node: NodeId, mesh: MeshId) -> bool {
    let typed = doc.root.nodes.get(node);
    if typed.is_some_and(|n| n.skin.is_some()) {
        return true;
    }
    let has_targets = doc
        .root
        .meshes
        .get(mesh)
        .is_some_and(|m| m.primitives.iter().any(|p| p.targets.is_some()));
    has_targets && weights(doc, node, mesh).is_some_and(|(w, _)| w.iter().any(|x| *x != 0.0))
}

/// The morph weights of `node`'s mesh `mesh`, with their pointer: the node's, else the mesh's.
fn weights(doc: &Document, node: NodeId, mesh: MeshId) -> Option<(Vec<f64>, String)> {
    let list = |v: &Value| -> Option<Vec<f64>> {
        v.as_array()
            .map(|a| a.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect())
    };
    let json = &doc.json;
    if let Some(w) = json
        .get("nodes")
        .and_then(|n| n.get(node))
        .and_then(|n| n.get("weights"))
        .and_then(list)
    {
        return Some((w, format!("/nodes/{node}/weights")));
    }
    json.get("meshes")
        .and_then(|m| m.get(mesh))
        .and_then(|m| m.get("weights"))
        .and_then(list)
        .map(|w| (w, format!("/meshes/{mesh}/weights")))
}

/// The rest positions of `node`'s mesh `mesh` (read as `base`, its primitives at `parts`).
/// `world`: every node's rest world transform.
pub fn deform(
    doc: &Document,
    (node, mesh): (NodeId, MeshId),
    (base, parts): (&TriangleMesh, &[Part]),
    world: &[Matrix4<f64>],
    issues: &mut Issues,
) -> Deformed {
    if !deforms(doc, node, mesh) {
        return Deformed::Not;
    }
    let mut positions = base.positions.clone();
    let mut morphed = false;
    if let Some((w, at)) = weights(doc, node, mesh) {
        match morph(doc, mesh, parts, (&w, &at), &mut positions, issues) {
            Some(changed) => morphed = changed,
            None => return Deformed::Dropped,
        }
    }
    let skin = doc.root.nodes.get(node).and_then(|n| n.skin);
    match skin {
        Some(skin) => match self::skin(
            doc,
            (node, mesh),
            skin.value(),
            parts,
            world,
            &mut positions,
            issues,
        ) {
            Some(()) => Deformed::World(positions),
            None => Deformed::Dropped,
        },
        None if morphed => Deformed::Local(positions),
        None => Deformed::Not,
    }
}

/// The positions of mesh `mesh` (read as `base`, its primitives at `parts`) as a `khr-2026`
/// mesh geometry [D-GEOMETRY-MESH]: morphed by the mesh's own `weights`, since no node gives
/// weights to a geometry; never skinned (a skin belongs to a node). `Not` or `Local`, or
/// `Dropped` on bad morph data (reported).
pub fn mesh_at_rest(
    doc: &Document,
    mesh: MeshId,
    (base, parts): (&TriangleMesh, &[Part]),
    issues: &mut Issues,
) -> Deformed {
    let Some(weights) = doc
        .json
        .get("meshes")
        .and_then(|m| m.get(mesh))
        .and_then(|m| m.get("weights"))
        .and_then(Value::as_array)
    else {
        return Deformed::Not;
    };
    let weights: Vec<f64> = weights.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect();
    if weights.iter().all(|w| *w == 0.0) {
        return Deformed::Not;
    }
    let mut positions = base.positions.clone();
    let at = format!("/meshes/{mesh}/weights");
    match morph(doc, mesh, parts, (&weights, &at), &mut positions, issues) {
        Some(true) => Deformed::Local(positions),
        Some(false) => Deformed::Not,
        None => Deformed::Dropped,
    }
}

/// Add every target's POSITION deltas times its weight to `positions`; `None` on bad data
/// (reported), otherwise whether anything moved.
fn morph(
    doc: &Document,
    mesh: MeshId,
    parts: &[Part],
    (weights, weights_at): (&[f64], &str),
    positions: &mut [[f64; 3]],
    issues: &mut Issues,
) -> Option<bool> {
    let typed = doc.root.meshes.get(mesh)?;
    let mut changed = false;
    for part in parts {
        let Some(primitive) = typed.primitives.get(part.primitive) else {
            continue;
        };
        let Some(targets) = &primitive.targets else {
            continue;
        };
        if targets.len() != weights.len() {
            issues.push(Issue::new(Code::KhrMorphTargetInvalid, weights_at).arg(
                "detail",
                format!(
                    "{} weights for the {} targets of mesh {mesh} primitive {}",
                    weights.len(),
                    targets.len(),
                    part.primitive
                ),
            ));
            return None;
        }
        for (t, (target, &w)) in targets.iter().zip(weights).enumerate() {
            let Some(accessor) = target.positions else {
                continue;
            };
            if w == 0.0 {
                continue;
            }
            let at = format!(
                "/meshes/{mesh}/primitives/{}/targets/{t}/POSITION",
                part.primitive
            );
            let deltas = match doc.accessor_numbers(accessor.value()) {
                Some((n, Type::Vec3, _, _)) if n.len() == 3 * part.count => n,
                Some((n, kind, _, _)) => {
                    issues.push(Issue::new(Code::KhrMorphTargetInvalid, at).arg(
                        "detail",
                        format!(
                            "the target is {kind:?} of {} components, not VEC3 for each of {} vertices",
                            n.len(),
                            part.count
                        ),
                    ));
                    return None;
                }
                // Unreadable data was reported when the document was loaded.
                None => return None,
            };
            let slice = positions.get_mut(part.first..part.first + part.count)?;
            for (p, d) in slice.iter_mut().zip(deltas.chunks_exact(3)) {
                for k in 0..3 {
                    p[k] += w * d[k];
                }
            }
            changed = true;
        }
    }
    Some(changed)
}

/// Skin `positions` (in the mesh's frame) into world space; `None` on bad data (reported).
fn skin(
    doc: &Document,
    (node, mesh): (NodeId, MeshId),
    skin: usize,
    parts: &[Part],
    world: &[Matrix4<f64>],
    positions: &mut [[f64; 3]],
    issues: &mut Issues,
) -> Option<()> {
    let typed_skin = doc.root.skins.get(skin)?;
    let joint_count = typed_skin.joints.len();
    // J_i IB_i for every joint i.
    let mut matrices = Vec::with_capacity(joint_count);
    let inverse_binds = match typed_skin.inverse_bind_matrices {
        Some(a) => {
            let at = format!("/skins/{skin}/inverseBindMatrices");
            match doc.accessor_numbers(a.value()) {
                Some((n, Type::Mat4, ComponentType::F32, _)) if n.len() >= 16 * joint_count => {
                    Some(n)
                }
                Some((n, kind, component, _)) => {
                    issues.push(Issue::new(Code::KhrSkinAccessorInvalid, at).arg(
                        "detail",
                        format!(
                            "inverseBindMatrices is {} elements of {kind:?} of {component:?}, not a float MAT4 for each of the {joint_count} joints",
                            n.len() / kind.multiplicity()
                        ),
                    ));
                    return None;
                }
                None => return None,
            }
        }
        None => None,
    };
    for (i, joint) in typed_skin.joints.iter().enumerate() {
        let j = world.get(joint.value())?;
        let ib = match &inverse_binds {
            // Column-major, as glTF stores matrices.
            Some(n) => Matrix4::from_column_slice(n.get(16 * i..16 * i + 16)?),
            None => Matrix4::identity(),
        };
        matrices.push(j * ib);
    }
    let fallback = world.get(node).copied().unwrap_or_else(Matrix4::identity);
    let typed_mesh = doc.root.meshes.get(mesh)?;
    for part in parts {
        let primitive = typed_mesh.primitives.get(part.primitive)?;
        let attributes = format!("/meshes/{mesh}/primitives/{}/attributes", part.primitive);
        // Every vertex's (joint, weight) pairs over every JOINTS_n / WEIGHTS_n set.
        let mut influences: Vec<Vec<(usize, f64)>> = vec![Vec::new(); part.count];
        for set in 0u32.. {
            let joints = primitive
                .attributes
                .get(&Checked::Valid(Semantic::Joints(set)));
            let weights = primitive
                .attributes
                .get(&Checked::Valid(Semantic::Weights(set)));
            let (joints, weights) = match (joints, weights) {
                (Some(j), Some(w)) => (j.value(), w.value()),
                (None, None) if set > 0 => break,
                (j, _) => {
                    let missing = if j.is_none() { "JOINTS" } else { "WEIGHTS" };
                    issues.push(
                        Issue::new(Code::KhrSkinAttributeMissing, attributes.as_str())
                            .arg("node", node)
                            .arg("attribute", format!("{missing}_{set}")),
                    );
                    return None;
                }
            };
            let joint_at = format!("{attributes}/JOINTS_{set}");
            let weight_at = format!("{attributes}/WEIGHTS_{set}");
            let invalid = |at: &str, detail: String| {
                Issue::new(Code::KhrSkinAccessorInvalid, at).arg("detail", detail)
            };
            let joints = match doc.accessor_numbers(joints) {
                Some((n, Type::Vec4, ComponentType::U8 | ComponentType::U16, false))
                    if n.len() == 4 * part.count =>
                {
                    n
                }
                Some((n, kind, component, normalized)) => {
                    issues.push(invalid(
                        &joint_at,
                        format!(
                            "JOINTS_{set} is {} elements of {kind:?} of {component:?}{}, not an unsigned byte or short VEC4 for each of {} vertices",
                            n.len() / kind.multiplicity(),
                            if normalized { " (normalized)" } else { "" },
                            part.count
                        ),
                    ));
                    return None;
                }
                None => return None,
            };
            let weights = match doc.accessor_numbers(weights) {
                Some((n, Type::Vec4, component, normalized))
                    if n.len() == 4 * part.count
                        && (component == ComponentType::F32
                            || normalized
                                && matches!(component, ComponentType::U8 | ComponentType::U16)) =>
                {
                    n
                }
                Some((n, kind, component, _)) => {
                    issues.push(invalid(
                        &weight_at,
                        format!(
                            "WEIGHTS_{set} is {} elements of {kind:?} of {component:?}, not a float or normalized unsigned byte or short VEC4 for each of {} vertices",
                            n.len() / kind.multiplicity(),
                            part.count
                        ),
                    ));
                    return None;
                }
                None => return None,
            };
            for (v, (j4, w4)) in joints
                .chunks_exact(4)
                .zip(weights.chunks_exact(4))
                .enumerate()
            {
                for (&j, &w) in j4.iter().zip(w4) {
                    if w == 0.0 {
                        continue;
                    }
                    let j = j as usize;
                    if j >= joint_count {
                        issues.push(
                            Issue::new(Code::KhrSkinJointOutOfRange, joint_at.as_str())
                                .arg("vertex", v)
                                .arg("joint", j)
                                .arg("count", joint_count),
                        );
                        return None;
                    }
                    influences[v].push((j, w));
                }
            }
        }
        let slice = positions.get_mut(part.first..part.first + part.count)?;
        let mut warned = false;
        for (v, (p, influence)) in slice.iter_mut().zip(&influences).enumerate() {
            let sum: f64 = influence.iter().map(|(_, w)| w).sum();
            if (sum - 1.0).abs() > WEIGHT_SUM_TOLERANCE && !warned {
                warned = true;
                issues.push(
                    Issue::new(
                        Code::KhrSkinWeightsNotNormalized,
                        format!("{attributes}/WEIGHTS_0"),
                    )
                    .arg("vertex", v)
                    .arg("sum", sum),
                );
            }
            let m = if sum == 0.0 {
                fallback
            } else {
                influence.iter().fold(Matrix4::zeros(), |acc, &(j, w)| {
                    acc + matrices[j] * (w / sum)
                })
            };
            let q = m.transform_point(&Point3::new(p[0], p[1], p[2]));
            *p = [q.x, q.y, q.z];
        }
    }
    Some(())
}
