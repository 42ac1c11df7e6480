//! The node pass both families make: every node's body extension read as an object (its
//! `motion` into a body at once), and later each node's `collider`.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::ext::{check_properties, parse};
use crate::issue::{Issues, push_pointer};
use crate::scene::{Body, Collider, NodeId, Scene, ShapeId};

use super::{FILTERS_ARRAY, FileIndex, MATERIALS_ARRAY, Site, Spelling, Table, clean_since};

/// A `collider` object; `I` is the family's index type, `geometry` KHR 2025's shape.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ColliderJson<I> {
    pub shape: Option<I>,
    pub geometry: Option<Value>,
    pub physics_material: Option<I>,
    pub collision_filter: Option<I>,
}

/// Read every node's body extension (allowed `properties`; `check` adds a family's own rule)
/// and its `motion` into `scene.bodies` with `motion`; return the nodes whose extension is an
/// object, with its pointer, for the second pass.
pub fn read_bodies<'a>(
    doc: &'a Document,
    (spelling, properties): (&Spelling, &[&str]),
    scene: &mut Scene,
    issues: &mut Issues,
    mut check: impl FnMut(&Map<String, Value>, &str, &mut Issues),
    mut motion: impl FnMut(NodeId, &Value, &str, &mut Issues) -> Body,
) -> Vec<(NodeId, &'a Map<String, Value>, String)> {
    let mut nodes = Vec::new();
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count().min(scene.nodes.len()) {
        let Some((value, pointer)) = extensions.get(node, spelling.body) else {
            continue;
        };
        let Some(extension) = spelling.object(value, &pointer, issues) else {
            continue;
        };
        check_properties(value, &pointer, properties, issues);
        check(extension, &pointer, issues);
        if let Some(value) = extension.get("motion") {
            let body = motion(node, value, &push_pointer(&pointer, "motion"), issues);
            scene.bodies.push(body);
        }
        nodes.push((node, extension, pointer));
    }
    nodes
}

/// How a reader reads a collider's shape: `key` names it; `before` runs before the collider is
/// parsed; `shape` gives the shape id, `None` when it is missing or left out (an issue says
/// why).
pub struct ShapeOfCollider<B, S> {
    pub key: &'static str,
    pub before: B,
    pub shape: S,
}

/// The `collider` of `site`, if any, into `scene.colliders`.
pub fn read_collider<I, B, S>(
    site: Site,
    spelling: &Spelling,
    (materials, filters): (&Table, &Table),
    of: ShapeOfCollider<B, S>,
    scene: &mut Scene,
    issues: &mut Issues,
) where
    I: FileIndex + DeserializeOwned,
    B: FnOnce(&Scene, &mut Issues),
    S: FnOnce(&ColliderJson<I>, &str, &mut Scene, &mut Issues) -> Option<ShapeId>,
{
    let known = [of.key, "physicsMaterial", "collisionFilter"];
    let Some((value, pointer)) = site.member("collider", (spelling, &known), issues) else {
        return;
    };
    (of.before)(scene, issues);
    let Some(c) = parse::<ColliderJson<I>>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let material = c.physics_material.and_then(|m| {
        materials
            .resolve(m, MATERIALS_ARRAY, (&pointer, "physicsMaterial"), issues)
            .copied()
    });
    let filter = c.collision_filter.and_then(|f| {
        filters
            .resolve(f, FILTERS_ARRAY, (&pointer, "collisionFilter"), issues)
            .copied()
    });
    let Some(shape) = (of.shape)(&c, &pointer, scene, issues) else {
        return;
    };
    if !clean_since(issues, mark) {
        return;
    }
    let node = site.node;
    scene.colliders.push(Collider {
        node,
        shape,
        material,
        filter,
        is_trigger: false,
        body: scene.owning_body(node),
    });
}
