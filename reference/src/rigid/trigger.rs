//! A node's `trigger`: a trigger collider (a shape, read the reader's way) or a compound
//! trigger (`nodes`: distinct descendants that have a `trigger` themselves).

use std::collections::BTreeSet;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::document::Document;
use crate::ext::parse;
use crate::issue::{Issue, Issues, push_pointer};
use crate::scene::{Collider, CompoundTrigger, NodeId, Scene, ShapeId};

use super::{
    FILTERS_ARRAY, FileIndex, NODES_ARRAY, Site, Spelling, Table, array_length, clean_since,
};

/// A `trigger` object; `I` is the family's index type, `geometry` KHR 2025's shape.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TriggerJson<I> {
    pub shape: Option<I>,
    pub geometry: Option<Value>,
    pub nodes: Option<Vec<usize>>,
    pub collision_filter: Option<I>,
}

/// How a reader finds a trigger's shape: whether one is given, and (asked only then) the shape
/// it resolves to, `None` when it is left out (an issue says why).
pub struct ShapeOfTrigger<G, S> {
    pub key: &'static str,
    pub given: G,
    pub shape: S,
}

/// The `trigger` of `site`, if any, into `scene.colliders` or `scene.compound_triggers`.
pub fn read_trigger<I, G, S>(
    site: Site,
    spelling: &Spelling,
    filters: &Table,
    of: ShapeOfTrigger<G, S>,
    scene: &mut Scene,
    issues: &mut Issues,
) where
    I: FileIndex + DeserializeOwned,
    G: FnOnce(&TriggerJson<I>) -> bool,
    S: FnOnce(&TriggerJson<I>, &str, &mut Scene, &mut Issues) -> Option<ShapeId>,
{
    let known = [of.key, "nodes", "collisionFilter"];
    let Some((value, pointer)) = site.member("trigger", (spelling, &known), issues) else {
        return;
    };
    let Some(t) = parse::<TriggerJson<I>>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let given = (of.given)(&t);
    match (given, &t.nodes, &t.collision_filter) {
        (true, Some(_), _) => issues.push(
            Issue::new(spelling.trigger_shape_and_nodes, &pointer)
                .arg("detail", format!("both {} and nodes", of.key)),
        ),
        (false, Some(_), Some(_)) => issues.push(
            Issue::new(spelling.trigger_shape_and_nodes, &pointer)
                .arg("detail", "nodes with a collisionFilter"),
        ),
        (false, None, _) => issues.push(Issue::new(spelling.trigger_empty, &pointer)),
        _ => {}
    }
    let filter = t.collision_filter.and_then(|f| {
        filters
            .resolve(f, FILTERS_ARRAY, (&pointer, "collisionFilter"), issues)
            .copied()
    });
    let shape = if given {
        (of.shape)(&t, &pointer, scene, issues)
    } else {
        None
    };
    let members = t.nodes.as_deref().map(|list| {
        let at = push_pointer(&pointer, "nodes");
        compound_members(site.doc, site.node, (list, &at), spelling, scene, issues)
    });
    if !clean_since(issues, mark) {
        return;
    }
    let node = site.node;
    if let Some(shape) = shape {
        scene.colliders.push(Collider {
            node,
            shape,
            material: None,
            filter,
            is_trigger: true,
            body: scene.owning_body(node),
        });
    } else if let Some(members) = members {
        scene
            .compound_triggers
            .push(CompoundTrigger { node, members });
    }
}

/// The members of a compound trigger on `node`: distinct descendants that have a `trigger`.
fn compound_members(
    doc: &Document,
    node: NodeId,
    (list, pointer): (&[usize], &str),
    spelling: &Spelling,
    scene: &Scene,
    issues: &mut Issues,
) -> Vec<NodeId> {
    if list.is_empty() {
        issues.push(array_length(pointer, 0, "at least 1"));
    }
    let mut seen = BTreeSet::new();
    let mut members = Vec::with_capacity(list.len());
    for (i, &member) in list.iter().enumerate() {
        let at = push_pointer(pointer, i);
        if crate::ext::check_index(member, scene.nodes.len(), NODES_ARRAY, &at, issues).is_none() {
            continue;
        }
        let first = seen.insert(member);
        if !first && let Some(code) = spelling.member_duplicate {
            issues.push(Issue::new(code, &at).arg("node", member));
            continue;
        }
        if !scene.is_descendant(member, node) {
            issues.push(Issue::new(spelling.member_not_descendant, &at).arg("node", member));
        }
        let has_trigger = doc
            .node_extension(member, spelling.body)
            .and_then(|(v, _)| v.as_object())
            .is_some_and(|o| o.contains_key("trigger"));
        if !has_trigger {
            issues.push(Issue::new(spelling.member_not_trigger, &at).arg("node", member));
        }
        if first {
            members.push(member);
        }
    }
    members
}
