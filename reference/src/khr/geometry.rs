//! `khr-2025` and `khr-2026` collider and trigger `geometry` -> a canonical [`Shape`] id, and the
//! zero-scale rule [D-SHAPE-SCALE].
//!
//! - `khr-2025`: a geometry gives exactly one of `shape` (an index into
//!   `KHR_implicit_shapes.shapes`) and `node` (`KHR_GEOMETRY_SHAPE_AND_NODE`,
//!   `KHR_GEOMETRY_EMPTY`); `convexHull` (default false) makes the meshes a convex hull and has
//!   no effect on implicit shapes (all convex).
//! - `khr-2026`: exactly one of `shape` and `mesh` (`KHR_GEOMETRY_AMBIGUOUS` for more than one of
//!   `shape`, `mesh`, `node`). Mesh geometry [D-GEOMETRY-MESH]: the mesh's primitives in the
//!   collider's own node frame, morphed by the mesh's `weights`, never skinned
//!   (`KHR_GEOMETRY_MESH_UNSKINNED`, information, when a node draws that mesh with a skin). A
//!   mesh index past `meshes` is `INDEX_OUT_OF_RANGE`; a mesh with no triangle (no primitive with
//!   `POSITION`, which are skipped) is `MESH_SHAPE_EMPTY`; a primitive that is not triangles is
//!   `MESH_SHAPE_NOT_TRIANGLES`: each leaves out every collider and trigger on that mesh. A
//!   `node` of the previous revision is read by its rule with `KHR_GEOMETRY_NODE_2025` (a
//!   warning) [D-GEOMETRY-NODE-2026].
//! - Node geometry [D-GEOMETRY-NODE]: the meshes of the node and of its descendants, each placed
//!   by its transform relative to the geometry node, make one mesh in the collider's local frame.
//!   A node with no mesh below it gives no geometry (`KHR_GEOMETRY_NO_MESH`, the collider is left
//!   out). Skins and morph weights are applied at rest ([`super::deform`]); a skin is left
//!   unapplied (`KHR_GEOMETRY_DEFORMED`) only when the geometry node's rest world transform
//!   is singular, so that world-space skinned vertices cannot be brought into its frame.
//!   A node geometry used by several colliders is read once ([`Cache`]).

use std::collections::HashMap;

use nalgebra::{Matrix4, Point3};
use serde::Deserialize;

use crate::document::{Document, Part};
use crate::ext::{check_index, check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{MeshId, NodeId, Scene, Shape, ShapeId, TriangleMesh};
use serde_json::Value;

use super::deform::{self, Deformed};
use super::{
    GeometryForm, IMPLICIT_SHAPES_ARRAY, MESHES_ARRAY, NODES_ARRAY, RIGID_BODIES, SPELLING, Table,
    clean_since,
};

/// Node geometries already read, by (node, convexHull): the shape id (`None`: no geometry);
/// every glTF mesh read for them (`None`: no triangle) with its primitives' vertex ranges, and
/// every mesh node's rest deformation, so that a mesh's or a node's issues are reported once
/// however many geometries use it; the rest world transforms, computed once when a skin needs
/// them.
#[derive(Debug, Default)]
pub(super) struct Cache {
    shapes: HashMap<(NodeId, bool), Option<ShapeId>>,
    /// Mesh geometries (2026) already read, by (mesh, convexHull): `None` when the mesh gave
    /// an error, so that every collider on it is left out alike.
    mesh_shapes: HashMap<(MeshId, bool), Option<ShapeId>>,
    meshes: HashMap<MeshId, Option<(TriangleMesh, Vec<Part>)>>,
    deformed: HashMap<NodeId, Deformed>,
    world: Option<Vec<Matrix4<f64>>>,
}

impl Cache {
    /// The triangles of glTF mesh `mesh`, read once (`pointer`: the first geometry using it).
    fn triangles(
        &mut self,
        doc: &Document,
        mesh: MeshId,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<&TriangleMesh> {
        self.meshes
            .entry(mesh)
            .or_insert_with(|| doc.mesh_parts(mesh, pointer, issues))
            .as_ref()
            .map(|(m, _)| m)
    }

    /// The rest deformation of node `node`'s mesh `mesh`, worked out once.
    fn deformed(
        &mut self,
        doc: &Document,
        scene: &Scene,
        (node, mesh): (NodeId, MeshId),
        issues: &mut Issues,
    ) -> &Deformed {
        if !self.deformed.contains_key(&node) {
            let world = self.world.get_or_insert_with(|| scene.rest_world());
            let d = match self.meshes.get(&mesh) {
                Some(Some((base, parts))) => {
                    deform::deform(doc, (node, mesh), (base, parts), world, issues)
                }
                _ => Deformed::Dropped,
            };
            self.deformed.insert(node, d);
        }
        &self.deformed[&node]
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeometryJson {
    shape: Option<usize>,
    node: Option<usize>,
    mesh: Option<usize>,
    convex_hull: Option<bool>,
}

/// The shape of the `geometry` object `value` at `pointer` in a revision of geometry form
/// `form`, or `None` (an issue says why, or the shape it names was left out).
pub(super) fn read(
    doc: &Document,
    (value, pointer): (&Value, &str),
    form: GeometryForm,
    (shapes, cache): (&Table, &mut Cache),
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    SPELLING.object(value, pointer, issues)?;
    let mesh_form = form == GeometryForm::ShapeOrMesh;
    let known: &[&str] = if mesh_form {
        &["shape", "mesh", "node", "convexHull"]
    } else {
        &["shape", "node", "convexHull"]
    };
    check_properties(value, pointer, known, issues);
    let mut g: GeometryJson = parse(value, pointer, issues)?;
    if !mesh_form {
        // Not a key of this revision: reported as unexpected above, and not read.
        g.mesh = None;
    }
    let convex = g.convex_hull.unwrap_or(false);
    let given: Vec<&str> = [("shape", g.shape), ("mesh", g.mesh), ("node", g.node)]
        .into_iter()
        .filter_map(|(key, index)| index.map(|_| key))
        .collect();
    match (g.shape, g.mesh, g.node) {
        _ if given.len() > 1 => {
            issues.push(if mesh_form {
                Issue::new(Code::KhrGeometryAmbiguous, pointer).arg("given", given.join(", "))
            } else {
                Issue::new(Code::KhrGeometryShapeAndNode, pointer)
            });
            None
        }
        (Some(shape), _, _) => shapes
            .resolve(shape, IMPLICIT_SHAPES_ARRAY, (pointer, "shape"), issues)
            .copied(),
        (_, Some(mesh), _) => {
            let at = push_pointer(pointer, "mesh");
            check_index(mesh, doc.root.meshes.len(), MESHES_ARRAY, &at, issues)?;
            if let Some(known) = cache.mesh_shapes.get(&(mesh, convex)) {
                return *known;
            }
            let mark = issues.0.len();
            let id = mesh_shape(doc, mesh, convex, &at, cache, scene, issues)
                .filter(|_| clean_since(issues, mark));
            cache.mesh_shapes.insert((mesh, convex), id);
            id
        }
        (_, _, Some(node)) => {
            let at = push_pointer(pointer, "node");
            if mesh_form {
                issues.push(Issue::new(Code::KhrGeometryNode2025, &at));
            }
            check_index(node, scene.nodes.len(), NODES_ARRAY, &at, issues)?;
            if let Some(known) = cache.shapes.get(&(node, convex)) {
                return *known;
            }
            let id = node_shape(doc, node, convex, &at, cache, scene, issues);
            cache.shapes.insert((node, convex), id);
            id
        }
        (None, None, None) => {
            let other = if mesh_form { "mesh" } else { "node" };
            issues.push(Issue::new(Code::KhrGeometryEmpty, pointer).arg("other", other));
            None
        }
    }
}

/// The shape of mesh geometry `mesh` [D-GEOMETRY-MESH]: the mesh's primitives in the collider's
/// own node frame, morphed by the mesh's `weights`, never skinned.
fn mesh_shape(
    doc: &Document,
    mesh: MeshId,
    convex: bool,
    pointer: &str,
    cache: &mut Cache,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    cache.triangles(doc, mesh, pointer, issues)?;
    let Some(Some((base, parts))) = cache.meshes.get(&mesh) else {
        return None;
    };
    if let Some(node) = doc
        .root
        .nodes
        .iter()
        .position(|n| n.mesh.is_some_and(|m| m.value() == mesh) && n.skin.is_some())
    {
        issues.push(
            Issue::new(Code::KhrGeometryMeshUnskinned, pointer)
                .arg("mesh", mesh)
                .arg("node", node),
        );
    }
    let id = match deform::mesh_at_rest(doc, mesh, (base, parts), issues) {
        Deformed::Dropped => return None,
        Deformed::Local(positions) => {
            let id = Scene::morphed_mesh_id(doc.root.meshes.len(), scene.nodes.len(), mesh);
            let morphed = TriangleMesh {
                positions,
                triangles: base.triangles.clone(),
            };
            scene.meshes.insert(id, morphed);
            id
        }
        Deformed::Not | Deformed::World(_) => {
            scene.meshes.entry(mesh).or_insert_with(|| base.clone());
            mesh
        }
    };
    Some(push_mesh_shape(scene, id, convex))
}

/// Add the convex hull (`convex`) or the triangle mesh of mesh id `mesh` to the scene's shapes.
fn push_mesh_shape(scene: &mut Scene, mesh: MeshId, convex: bool) -> ShapeId {
    scene.shapes.push(if convex {
        Shape::Convex { mesh }
    } else {
        Shape::Trimesh { mesh }
    });
    scene.shapes.len() - 1
}

/// The shape made of the meshes of `node` and its descendants [D-GEOMETRY-NODE].
fn node_shape(
    doc: &Document,
    node: NodeId,
    convex: bool,
    pointer: &str,
    cache: &mut Cache,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    let placed = placed_meshes(scene, node);
    if placed.is_empty() {
        issues.push(Issue::new(Code::KhrGeometryNoMesh, pointer).arg("node", node));
        return None;
    }
    let deformed = placed
        .iter()
        .any(|(n, mesh, _)| deform::deforms(doc, *n, *mesh));
    let mesh = match placed.as_slice() {
        // One undeformed mesh on the node itself: the glTF mesh as it is.
        [(n, mesh, _)] if *n == node && !deformed => {
            let triangles = cache.triangles(doc, *mesh, pointer, issues)?;
            if !scene.meshes.contains_key(mesh) {
                scene.meshes.insert(*mesh, triangles.clone());
            }
            *mesh
        }
        _ => {
            let mut merged = TriangleMesh::default();
            // Into the geometry node's frame from world space, for skinned meshes.
            let mut from_world: Option<Option<Matrix4<f64>>> = None;
            for (n, mesh, matrix) in &placed {
                if cache.triangles(doc, *mesh, pointer, issues).is_none() {
                    continue;
                }
                let positions = match cache.deformed(doc, scene, (*n, *mesh), issues).clone() {
                    Deformed::Not => None,
                    Deformed::Dropped => continue,
                    Deformed::Local(p) => Some((p, *matrix)),
                    Deformed::World(p) => {
                        let inverse = *from_world.get_or_insert_with(|| {
                            cache
                                .world
                                .as_ref()
                                .and_then(|w| w.get(node))
                                .and_then(|m| m.try_inverse())
                        });
                        match inverse {
                            Some(inverse) => Some((p, inverse)),
                            None => {
                                issues.push(
                                    Issue::new(Code::KhrGeometryDeformed, pointer).arg("node", *n),
                                );
                                None
                            }
                        }
                    }
                };
                let Some(Some((part, _))) = cache.meshes.get(mesh) else {
                    continue;
                };
                match positions {
                    Some((positions, m)) => {
                        let moved = TriangleMesh {
                            positions,
                            triangles: part.triangles.clone(),
                        };
                        append(&mut merged, &moved, &m);
                    }
                    None => append(&mut merged, part, matrix),
                }
            }
            if merged.triangles.is_empty() {
                return None;
            }
            let id = Scene::merged_mesh_id(doc.root.meshes.len(), node);
            scene.meshes.insert(id, merged);
            id
        }
    };
    let id = push_mesh_shape(scene, mesh, convex);
    scene.node_geometry.insert(id);
    Some(id)
}

/// Every node at or below `node` that has a mesh, with its mesh and its transform relative to
/// `node` (the node itself: identity), in depth-first order.
pub fn placed_meshes(scene: &Scene, node: NodeId) -> Vec<(NodeId, MeshId, Matrix4<f64>)> {
    let mut out = Vec::new();
    let mut stack = vec![(node, Matrix4::identity())];
    // At most one visit per node: the hierarchy was checked, this never loops anyway.
    let mut budget = scene.nodes.len();
    while let Some((n, matrix)) = stack.pop() {
        let Some(data) = scene.nodes.get(n) else {
            continue;
        };
        if budget == 0 {
            break;
        }
        budget -= 1;
        if let Some(mesh) = data.mesh {
            out.push((n, mesh, matrix));
        }
        for &child in data.children.iter().rev() {
            if let Some(c) = scene.nodes.get(child) {
                stack.push((child, matrix * c.rest.matrix()));
            }
        }
    }
    out
}

/// Append `part`'s triangles to `merged`, its positions moved by `matrix`.
fn append(merged: &mut TriangleMesh, part: &TriangleMesh, matrix: &Matrix4<f64>) {
    let offset = u32::try_from(merged.positions.len()).unwrap_or(u32::MAX);
    merged.positions.extend(part.positions.iter().map(|p| {
        let q = matrix.transform_point(&Point3::new(p[0], p[1], p[2]));
        [q.x, q.y, q.z]
    }));
    merged.triangles.extend(part.triangles.iter().map(|t| {
        [
            t[0].saturating_add(offset),
            t[1].saturating_add(offset),
            t[2].saturating_add(offset),
        ]
    }));
}

/// Leave out every collider and trigger whose world scale is zero on all three axes, with
/// `KHR_SHAPE_DISABLED` (information) at its `collider` or `trigger` [D-SHAPE-SCALE].
pub(super) fn disable_zero_scale(scene: &mut Scene, issues: &mut Issues) {
    if scene.colliders.is_empty() {
        return;
    }
    let world = scene.rest_world();
    let zero = |n: NodeId| {
        world
            .get(n)
            .is_some_and(|m| m.fixed_view::<3, 3>(0, 0).iter().all(|v| *v == 0.0))
    };
    let mut kept = Vec::with_capacity(scene.colliders.len());
    for collider in std::mem::take(&mut scene.colliders) {
        if zero(collider.node) {
            let what = if collider.is_trigger {
                "trigger"
            } else {
                "collider"
            };
            let at = format!("/nodes/{}/extensions/{RIGID_BODIES}/{what}", collider.node);
            issues.push(
                Issue::new(Code::KhrShapeDisabled, at)
                    .arg("node", collider.node)
                    .arg("what", what),
            );
        } else {
            kept.push(collider);
        }
    }
    scene.colliders = kept;
}
