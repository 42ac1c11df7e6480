//! VRMC_constraints-1.0 defects, and the closed-enum rule shown on constraint spaces.

use reference::issue::Code;
use reference::profile::Profile;
use reference::vrm::{KEY, LEGACY_KEY};
use serde_json::{Value, json};

use super::json::{add_constrained, add_node, declare, node_ext, nodes_with};
use super::mutator::Mutator;
use crate::case::Case;

/// The first constrained node: (node, kind, pointer of the kind object).
fn first(case: &Case) -> Option<(usize, String, String)> {
    let doc = case.json()?;
    let n = *nodes_with(doc, KEY, "").first()?;
    let kind = doc["nodes"][n]["extensions"][KEY]
        .as_object()?
        .keys()
        .next()?
        .clone();
    Some((n, kind.clone(), format!("{}/{kind}", node_ext(n, KEY))))
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
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    let a = add_node(
        doc,
        json!({"name": "CycleA", "translation": [1.0, -3.0, 0.0],
        "extensions": {KEY: {"position": {"source": count + 1}}}}),
        None,
    );
    add_node(
        doc,
        json!({"name": "CycleB", "translation": [-1.0, -3.0, 0.0],
        "extensions": {KEY: {"position": {"source": count}}}}),
        None,
    );
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

pub fn mutators() -> Vec<Mutator> {
    let p = Profile::VrmcConstraintsDraft;
    let m = |code, name, apply| Mutator {
        code,
        name,
        profile: p,
        needs: None,
        apply,
    };
    vec![
        m(Code::EnumInvalid, "destination-space-world", enum_invalid),
        m(Code::VrmLegacyKey, "legacy-key", legacy_key),
        m(
            Code::VrmSpaceUppercase,
            "source-space-upper-case",
            space_uppercase,
        ),
        m(Code::VrmNoConstraint, "empty-constraint", no_constraint),
        m(
            Code::VrmMultipleConstraints,
            "position-and-rotation",
            multiple_constraints,
        ),
        m(
            Code::VrmSourceIsDestination,
            "source-self",
            source_is_destination,
        ),
        m(Code::VrmSourceIsParent, "source-parent", source_is_parent),
        m(
            Code::VrmSourceBelowDestination,
            "source-grandchild",
            source_below_destination,
        ),
        m(Code::VrmCycle, "two-node-cycle", cycle),
        m(Code::VrmWeightRange, "weight-1.5", weight_range),
        m(Code::VrmAimZero, "aim-zero", aim_zero),
        m(Code::VrmAimParallelUp, "aim-parallel-up", aim_parallel_up),
    ]
}
