//! VRMC_constraints-1.0 defects, and the closed-enum rule shown on constraint spaces.

use reference::issue::Code;
use reference::profile::Profile;
use reference::vrm::{KEY, LEGACY_KEY};
use serde_json::{Value, json};

use super::json::{
    add_constrained, add_cycle, add_node, declare, first_constraint, node_ext, nodes_with,
};
use super::mutator::{Mutator, Row, of_rows};
use crate::case::Case;

/// The first constrained node: (node, kind, pointer of the kind object).
fn first(case: &Case) -> Option<(usize, String, String)> {
    first_constraint(case, KEY, "")
}

fn set(case: &mut Case, prop: &str, value: Value) -> Option<String> {
    let (n, kind, at) = first(case)?;
    case.json_mut()?["nodes"][n]["extensions"][KEY][kind.as_str()][prop] = value;
    Some(format!("{at}/{prop}"))
}

fn legacy_key(case: &mut Case) -> Option<String> {
    let (n, _, _) = first(case)?;
    let doc = case.json_mut()?;
    let exts = doc["nodes"][n]["extensions"].as_object_mut()?;
    let v = exts.remove(KEY)?;
    exts.insert(LEGACY_KEY.into(), v);
    declare(doc, LEGACY_KEY);
    if nodes_with(doc, KEY, "").is_empty() {
        let used = doc["extensionsUsed"].as_array_mut()?;
        used.retain(|e| e != KEY);
    }
    Some(node_ext(n, LEGACY_KEY))
}
fn space_uppercase(case: &mut Case) -> Option<String> {
    set(case, "sourceSpace", json!("MODEL"))
}
fn enum_invalid(case: &mut Case) -> Option<String> {
    set(case, "destinationSpace", json!("world"))
}
fn no_constraint(case: &mut Case) -> Option<String> {
    let n = add_constrained(case, KEY, json!({}))?;
    Some(node_ext(n, KEY))
}
fn multiple_constraints(case: &mut Case) -> Option<String> {
    let (n, kind, _) = first(case)?;
    let doc = case.json_mut()?;
    let source = doc["nodes"][n]["extensions"][KEY][kind.as_str()]["source"].clone();
    let other = if kind == "rotation" {
        "position"
    } else {
        "rotation"
    };
    doc["nodes"][n]["extensions"][KEY][other] = json!({"source": source});
    Some(node_ext(n, KEY))
}
fn source_is_destination(case: &mut Case) -> Option<String> {
    let count = case.json()?["nodes"].as_array()?.len();
    let n = add_constrained(case, KEY, json!({"position": {"source": count}}))?;
    Some(format!("{}/position/source", node_ext(n, KEY)))
}
fn source_is_parent(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = add_node(
        doc,
        json!({"name": "ChildOfNode0", "translation": [0.0, 1.0, 0.0],
        "extensions": {KEY: {"rotation": {"source": 0}}}}),
        Some(0),
    );
    Some(format!("{}/rotation/source", node_ext(n, KEY)))
}
fn source_below_destination(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    // New parent (count) constrained by its new grandchild (count + 2).
    let parent = add_node(
        doc,
        json!({"name": "Dest", "translation": [0.0, -3.0, 0.0],
        "extensions": {KEY: {"rotation": {"source": count + 2}}}}),
        None,
    );
    let mid = add_node(
        doc,
        json!({"name": "Mid", "translation": [0.0, 1.0, 0.0]}),
        Some(parent),
    );
    add_node(
        doc,
        json!({"name": "Below", "translation": [0.0, 1.0, 0.0]}),
        Some(mid),
    );
    Some(format!("{}/rotation/source", node_ext(parent, KEY)))
}
fn cycle(case: &mut Case) -> Option<String> {
    let position = |source| json!({"position": {"source": source}});
    let a = add_cycle(case, KEY, position, position)?;
    Some(format!("{}/position/source", node_ext(a, KEY)))
}
fn weight_range(case: &mut Case) -> Option<String> {
    set(case, "weight", json!(1.5))
}
fn aim_zero(case: &mut Case) -> Option<String> {
    let n = add_constrained(
        case,
        KEY,
        json!({"aim": {"source": 0, "aimVector": [0.0, 0.0, 0.0]}}),
    )?;
    Some(format!("{}/aim/aimVector", node_ext(n, KEY)))
}
fn aim_parallel_up(case: &mut Case) -> Option<String> {
    let n = add_constrained(
        case,
        KEY,
        json!({"aim": {"source": 0, "aimVector": [0.0, 1.0, 0.0], "upVector": [0.0, 2.0, 0.0]}}),
    )?;
    Some(format!("{}/aim/upVector", node_ext(n, KEY)))
}

const ROWS: &[Row] = &[
    (
        Code::EnumInvalid,
        "destination-space-world",
        None,
        enum_invalid,
    ),
    (Code::VrmLegacyKey, "legacy-key", None, legacy_key),
    (
        Code::VrmSpaceUppercase,
        "source-space-upper-case",
        None,
        space_uppercase,
    ),
    (
        Code::VrmNoConstraint,
        "empty-constraint",
        None,
        no_constraint,
    ),
    (
        Code::VrmMultipleConstraints,
        "position-and-rotation",
        None,
        multiple_constraints,
    ),
    (
        Code::VrmSourceIsDestination,
        "source-self",
        None,
        source_is_destination,
    ),
    (
        Code::VrmSourceIsParent,
        "source-parent",
        None,
        source_is_parent,
    ),
    (
        Code::VrmSourceBelowDestination,
        "source-grandchild",
        None,
        source_below_destination,
    ),
    (Code::VrmCycle, "two-node-cycle", None, cycle),
    (Code::VrmWeightRange, "weight-1.5", None, weight_range),
    (Code::VrmAimZero, "aim-zero", None, aim_zero),
    (
        Code::VrmAimParallelUp,
        "aim-parallel-up",
        None,
        aim_parallel_up,
    ),
];

pub fn mutators() -> Vec<Mutator> {
    of_rows(Profile::VrmcConstraintsDraft, ROWS)
}
