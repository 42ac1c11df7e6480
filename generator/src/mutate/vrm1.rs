//! VRMC_node_constraint 1.0 defects: one mutator per VRM1 code (the closed enums of the axes are
//! asserted by `reference/tests/validation/vrm1/`; a generic-code mutator here would shift the
//! bases every later mutator's test draws).

use reference::issue::Code;
use reference::profile::Profile;
use reference::vrm1::KEY;
use serde_json::json;

use super::json::{add_constrained, add_cycle, add_node, first_constraint, node_ext};
use super::mutator::{Mutator, Row, of_rows};
use crate::case::Case;

/// The first constrained node: (node, kind, pointer of the kind object).
fn first(case: &Case) -> Option<(usize, String, String)> {
    first_constraint(case, KEY, "/constraint")
}

fn spec_version_missing(case: &mut Case) -> Option<String> {
    let (n, _, _) = first(case)?;
    case.json_mut()?["nodes"][n]["extensions"][KEY]
        .as_object_mut()?
        .remove("specVersion")?;
    Some(node_ext(n, KEY))
}
fn spec_version_beta(case: &mut Case) -> Option<String> {
    let (n, _, _) = first(case)?;
    case.json_mut()?["nodes"][n]["extensions"][KEY]["specVersion"] = json!("1.0-beta");
    Some(format!("{}/specVersion", node_ext(n, KEY)))
}
fn spec_version_unknown(case: &mut Case) -> Option<String> {
    let (n, _, _) = first(case)?;
    case.json_mut()?["nodes"][n]["extensions"][KEY]["specVersion"] = json!("0.0");
    Some(format!("{}/specVersion", node_ext(n, KEY)))
}
fn no_constraint(case: &mut Case) -> Option<String> {
    let n = add_constrained(case, KEY, json!({"specVersion": "1.0", "constraint": {}}))?;
    Some(format!("{}/constraint", node_ext(n, KEY)))
}
fn multiple_constraints(case: &mut Case) -> Option<String> {
    let (n, kind, _) = first(case)?;
    let doc = case.json_mut()?;
    let c = &mut doc["nodes"][n]["extensions"][KEY]["constraint"];
    let source = c[kind.as_str()]["source"].clone();
    let other = if kind == "rotation" {
        "aim"
    } else {
        "rotation"
    };
    c[other] = if other == "aim" {
        json!({"source": source, "aimAxis": "PositiveY"})
    } else {
        json!({"source": source})
    };
    Some(format!("{}/constraint", node_ext(n, KEY)))
}
fn source_is_destination(case: &mut Case) -> Option<String> {
    let count = case.json()?["nodes"].as_array()?.len();
    let n = add_constrained(
        case,
        KEY,
        json!({"specVersion": "1.0", "constraint": {"roll": {"source": count, "rollAxis": "Y"}}}),
    )?;
    Some(format!("{}/constraint/roll/source", node_ext(n, KEY)))
}
fn cycle(case: &mut Case) -> Option<String> {
    let a = add_cycle(
        case,
        KEY,
        |b| json!({"specVersion": "1.0", "constraint": {"rotation": {"source": b}}}),
        |a| json!({"specVersion": "1.0", "constraint": {"roll": {"source": a, "rollAxis": "Z"}}}),
    )?;
    Some(format!("{}/constraint/rotation/source", node_ext(a, KEY)))
}
fn source_below_aim(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    // An aim on a new node whose source is its own child: it reads what it moves.
    let dst = add_node(
        doc,
        json!({"name": "Aimer", "translation": [0.0, -3.0, 0.0],
        "extensions": {KEY: {"specVersion": "1.0", "constraint": {"aim": {"source": count + 1, "aimAxis": "PositiveZ"}}}}}),
        None,
    );
    add_node(
        doc,
        json!({"name": "Target", "translation": [0.0, 0.0, 1.0]}),
        Some(dst),
    );
    Some(format!("{}/constraint/aim/source", node_ext(dst, KEY)))
}
fn weight_range(case: &mut Case) -> Option<String> {
    let (n, kind, at) = first(case)?;
    case.json_mut()?["nodes"][n]["extensions"][KEY]["constraint"][kind.as_str()]["weight"] =
        json!(1.5);
    Some(format!("{at}/weight"))
}
const ROWS: &[Row] = &[
    (
        Code::Vrm1SpecVersionMissing,
        "vrm1-spec-version-missing",
        None,
        spec_version_missing,
    ),
    (
        Code::Vrm1SpecVersionBeta,
        "vrm1-spec-version-beta",
        None,
        spec_version_beta,
    ),
    (
        Code::Vrm1SpecVersionUnknown,
        "vrm1-spec-version-0.0",
        None,
        spec_version_unknown,
    ),
    (
        Code::Vrm1NoConstraint,
        "vrm1-empty-constraint",
        None,
        no_constraint,
    ),
    (
        Code::Vrm1MultipleConstraints,
        "vrm1-two-kinds",
        None,
        multiple_constraints,
    ),
    (
        Code::Vrm1SourceIsDestination,
        "vrm1-source-self",
        None,
        source_is_destination,
    ),
    (Code::Vrm1Cycle, "vrm1-two-node-cycle", None, cycle),
    (
        Code::Vrm1Cycle,
        "vrm1-aim-at-own-child",
        None,
        source_below_aim,
    ),
    (Code::Vrm1WeightRange, "vrm1-weight-1.5", None, weight_range),
];

pub fn mutators() -> Vec<Mutator> {
    of_rows(Profile::VrmcNodeConstraint10, ROWS)
}
