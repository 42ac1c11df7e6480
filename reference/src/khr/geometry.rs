//! `khr-2025` collider and trigger `geometry` -> a canonical [`Shape`] id, and the zero-scale
//! rule [D-SHAPE-SCALE].
//!
//! - A geometry gives exactly one of `shape` (an index into `KHR_implicit_shapes.shapes`) and
//!   `node` (`KHR_GEOMETRY_SHAPE_AND_NODE`, `KHR_GEOMETRY_EMPTY`); `convexHull` (default false)
//!   makes a node's meshes a convex hull and has no effect on implicit shapes (all convex).
//! - Node geometry [D-GEOMETRY-NODE]: the meshes of the node and of its descendants, each placed
//!   by its transform relative to the geometry node, make one mesh in the collider's local frame.
//!   A node with no mesh below it gives no geometry (`KHR_GEOMETRY_NO_MESH`, the collider is left
//!   out); a skin or non-zero morph weights are not applied (`KHR_GEOMETRY_DEFORMED`).
//!   A node geometry used by several colliders is read once ([`Cache`]).

use std::collections::HashMap;

use nalgebra::{Matrix4, Point3};
use serde::Deserialize;

use crate::document::Document;
use crate::ext::{check_index, check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::json::Value;
use crate::scene::{MeshId, NodeId, Scene, Shape, ShapeId, TriangleMesh};

use super::{IMPLICIT_SHAPES_ARRAY, NODES_ARRAY, RIGID_BODIES, Table, object};

/// Node geometries already read, by (node, convexHull): the shape id (`None`: no geometry);
/// and every glTF mesh read for them (`None`: no triangle), so that a mesh's issues are
/// reported once however many geometries use it.
#[derive(Debug, Default)]
pub(super) struct Cache {
    shapes: HashMap<(NodeId, bool), Option<ShapeId>>,
    meshes: HashMap<MeshId, Option<TriangleMesh>>,
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
            .or_insert_with(|| doc.mesh_triangles(mesh, pointer, issues))
            .as_ref()
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct GeometryJson {
    shape: Option<usize>,
    node: Option<usize>,
    convex_hull: Option<bool>,
}

/// The shape of the `geometry` object `value` at `pointer`, or `None` (an issue says why, or
/// the shape it names was left out).
pub(super) fn read(
    doc: &Document,
    value: &Value,
    pointer: &str,
    (shapes, cache): (&Table, &mut Cache),
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    object(value, pointer, issues)?;
    check_properties(value, pointer, &["shape", "node", "convexHull"], issues);
    let g: GeometryJson = parse(value, pointer, issues)?;
    match (g.shape, g.node) {
        (Some(_), Some(_)) => {
            issues.push(Issue::new(Code::KhrGeometryShapeAndNode, pointer));
            None
        }
        (None, None) => {
            issues.push(Issue::new(Code::KhrGeometryEmpty, pointer));
            None
        }
        (Some(shape), None) => {
            shapes.resolve(shape, IMPLICIT_SHAPES_ARRAY, (pointer, "shape"), issues)
        }
        (None, Some(node)) => {
            let at = push_pointer(pointer, "node");
            check_index(node, scene.nodes.len(), NODES_ARRAY, &at, issues)?;
            let convex = g.convex_hull.unwrap_or(false);
            if let Some(known) = cache.shapes.get(&(node, convex)) {
                return *known;
            }
            let id = node_shape(doc, node, convex, &at, cache, scene, issues);
            cache.shapes.insert((node, convex), id);
            id
        }
    }
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
    if let Some(what) = deformation(doc, &placed) {
        issues.push(
            Issue::new(Code::KhrGeometryDeformed, pointer)
                .arg("node", node)
                .arg("what", what),
        );
    }
    let mesh = match placed.as_slice() {
        // One mesh on the node itself: the glTF mesh as it is.
        [(n, mesh, _)] if *n == node => {
            let triangles = cache.triangles(doc, *mesh, pointer, issues)?;
            if !scene.meshes.contains_key(mesh) {
                scene.meshes.insert(*mesh, triangles.clone());
            }
            *mesh
        }
        _ => {
            let mut merged = TriangleMesh::default();
            for (_, mesh, matrix) in &placed {
                if let Some(part) = cache.triangles(doc, *mesh, pointer, issues) {
                    append(&mut merged, part, matrix);
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
    scene.shapes.push(if convex {
        Shape::Convex { mesh }
    } else {
        Shape::Trimesh { mesh }
    });
    Some(scene.shapes.len() - 1)
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

/// What deforms the placed meshes at rest, if anything: a skin, or morph weights not all 0.
fn deformation(doc: &Document, placed: &[(NodeId, MeshId, Matrix4<f64>)]) -> Option<&'static str> {
    let nodes = doc.json.get("nodes");
    let meshes = doc.json.get("meshes");
    for (n, mesh, _) in placed {
        let node = nodes.and_then(|v| v.get(*n));
        if node.and_then(|v| v.get("skin")).is_some() {
            return Some("a skin");
        }
        let mesh = meshes.and_then(|v| v.get(*mesh));
        let weights = node
            .and_then(|v| v.get("weights"))
            .or_else(|| mesh.and_then(|m| m.get("weights")))
            .and_then(Value::as_array);
        let has_targets = mesh
            .and_then(|m| m.get("primitives"))
            .and_then(Value::as_array)
            .is_some_and(|ps| ps.iter().any(|p| p.get("targets").is_some()));
        let weighted =
            weights.is_some_and(|w| w.iter().any(|x| x.as_f64().is_some_and(|x| x != 0.0)));
        if has_targets && weighted {
            return Some("morph weights");
        }
    }
    None
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
