//! Reader and rules of the `vrmc-constraints-draft` profile (seed 003, schema
//! `VRMC_constraints-1.0_draft` of 2021-03-18).
//!
//! Each node may carry `VRMC_constraints-1.0` (or the legacy key `VRMC_constraints`, read with a
//! warning) holding exactly one of `position`, `rotation`, `aim`. Defaults: spaces `model`,
//! `freezeAxes` all true, `weight` 1, `aimVector` [0, 0, 1], `upVector` [0, 1, 0] (the seed's
//! table; the schema's `[0, 0, 1]` default for `upVector` would be parallel to the aim). Every
//! invalid constraint is reported and left out of [`Scene::constraints`], so the evaluator only
//! sees valid ones; the graph rules [D-VRM-ORDER] are checked on the constraints that passed
//! their own checks.

use nalgebra::Vector3;
use serde::Deserialize;
use serde_json::Value;

use crate::constraints::reading::{Candidate, Codes, checked_weight, keep_valid, one_kind};
use crate::constraints::{AimFrame, AimGeometry};
use crate::document::Document;
use crate::ext::{check_index, check_properties, object, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{ConstraintKind, NodeConstraint, Scene, Space};

/// The extension key of the draft.
pub const KEY: &str = "VRMC_constraints-1.0";
/// The key of earlier drafts, accepted with `VRM_LEGACY_KEY`.
pub const LEGACY_KEY: &str = "VRMC_constraints";

const KINDS: [&str; 3] = ["position", "rotation", "aim"];
const COMMON: [&str; 5] = [
    "source",
    "sourceSpace",
    "destinationSpace",
    "freezeAxes",
    "weight",
];
const AIM_ONLY: [&str; 2] = ["aimVector", "upVector"];
const CODES: Codes = Codes {
    no_constraint: Code::VrmNoConstraint,
    multiple: Code::VrmMultipleConstraints,
    weight_range: Code::VrmWeightRange,
    cycle: Code::VrmCycle,
};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TranslationOrRotationFile {
    source: usize,
    source_space: Option<String>,
    destination_space: Option<String>,
    freeze_axes: Option<[bool; 3]>,
    weight: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AimFile {
    source: usize,
    source_space: Option<String>,
    destination_space: Option<String>,
    aim_vector: Option<[f64; 3]>,
    up_vector: Option<[f64; 3]>,
    freeze_axes: Option<[bool; 2]>,
    weight: Option<f64>,
}

/// The fields every kind shares, as read.
struct Common<'a> {
    source: usize,
    source_space: Option<&'a str>,
    destination_space: Option<&'a str>,
    weight: Option<f64>,
}

/// Read this profile's extensions from `doc` into `scene`, pushing every issue found.
pub fn read(doc: &Document, scene: &mut Scene, issues: &mut Issues) {
    let mut candidates = Vec::new();
    let extensions = doc.node_extensions();
    for node in 0..scene.nodes.len() {
        let found = match (extensions.get(node, KEY), extensions.get(node, LEGACY_KEY)) {
            (Some(found), legacy) => {
                if let Some((_, pointer)) = legacy {
                    // Both keys: the current one wins; the legacy object is not read.
                    issues.push(Issue::new(Code::VrmLegacyKey, pointer).arg(
                        "key",
                        format!("{LEGACY_KEY}, ignored as {KEY} is present, would be"),
                    ));
                }
                found
            }
            (None, Some(found)) => {
                issues.push(Issue::new(Code::VrmLegacyKey, &found.1).arg("key", LEGACY_KEY));
                found
            }
            (None, None) => continue,
        };
        let (value, pointer) = found;
        if let Some(c) = read_extension(value, &pointer, node, scene.nodes.len(), issues) {
            candidates.push(c);
        }
    }
    keep_valid(scene, candidates, graph_rules, &CODES, issues);
}

/// Read one node's extension object; `None` if it holds no valid constraint.
fn read_extension(
    value: &Value,
    pointer: &str,
    node: usize,
    node_count: usize,
    issues: &mut Issues,
) -> Option<Candidate> {
    object(value, pointer, issues)?;
    check_properties(value, pointer, &KINDS, issues);
    let kind = one_kind(value, &KINDS, pointer, &CODES, issues)?;
    let pointer = push_pointer(pointer, kind);
    let value = value.get(kind)?;
    object(value, &pointer, issues)?;
    let constraint = match kind {
        "aim" => {
            let known: Vec<&str> = COMMON.iter().chain(&AIM_ONLY).copied().collect();
            check_properties(value, &pointer, &known, issues);
            let file: AimFile = parse(value, &pointer, issues)?;
            let common = Common {
                source: file.source,
                source_space: file.source_space.as_deref(),
                destination_space: file.destination_space.as_deref(),
                weight: file.weight,
            };
            let kind = read_aim(&file, &pointer, issues);
            read_common(&common, kind, &pointer, node, node_count, issues)
        }
        _ => {
            check_properties(value, &pointer, &COMMON, issues);
            let file: TranslationOrRotationFile = parse(value, &pointer, issues)?;
            let freeze_axes = file.freeze_axes.unwrap_or([true; 3]);
            let common = Common {
                source: file.source,
                source_space: file.source_space.as_deref(),
                destination_space: file.destination_space.as_deref(),
                weight: file.weight,
            };
            let kind = Some(if kind == "position" {
                ConstraintKind::Position { freeze_axes }
            } else {
                ConstraintKind::Rotation { freeze_axes }
            });
            read_common(&common, kind, &pointer, node, node_count, issues)
        }
    }?;
    Some(Candidate {
        constraint,
        pointer,
    })
}

/// Source, spaces and weight, checked; `None` after an error here or in `kind` (`None`).
fn read_common(
    file: &Common,
    kind: Option<ConstraintKind>,
    pointer: &str,
    node: usize,
    node_count: usize,
    issues: &mut Issues,
) -> Option<NodeConstraint> {
    let source = check_index(
        file.source,
        node_count,
        "nodes",
        &push_pointer(pointer, "source"),
        issues,
    );
    let source_space = read_space(
        file.source_space,
        &push_pointer(pointer, "sourceSpace"),
        issues,
    );
    let destination_space = read_space(
        file.destination_space,
        &push_pointer(pointer, "destinationSpace"),
        issues,
    );
    let weight = checked_weight(file.weight, pointer, &CODES, issues);
    Some(NodeConstraint {
        node,
        source: source?,
        source_space: source_space?,
        destination_space: destination_space?,
        weight: weight?,
        kind: kind?,
    })
}

/// A space: `local` or `model` (default); `LOCAL`/`MODEL` read with a warning.
fn read_space(value: Option<&str>, pointer: &str, issues: &mut Issues) -> Option<Space> {
    match value {
        None | Some("model") => Some(Space::Model),
        Some("local") => Some(Space::Local),
        Some(upper @ ("MODEL" | "LOCAL")) => {
            let lower = upper.to_ascii_lowercase();
            issues.push(
                Issue::new(Code::VrmSpaceUppercase, pointer)
                    .arg("value", upper)
                    .arg("lower", &lower),
            );
            Some(if lower == "model" {
                Space::Model
            } else {
                Space::Local
            })
        }
        Some(other) => {
            issues.push(
                Issue::new(Code::EnumInvalid, pointer)
                    .arg("value", format!("{other:?}"))
                    .arg("known", "local, model"),
            );
            None
        }
    }
}

/// The aim kind with its vectors checked [D-VRM-RANGE]; `None` after an error.
fn read_aim(file: &AimFile, pointer: &str, issues: &mut Issues) -> Option<ConstraintKind> {
    let aim = Vector3::from(file.aim_vector.unwrap_or([0.0, 0.0, 1.0]));
    let up = Vector3::from(file.up_vector.unwrap_or([0.0, 1.0, 0.0]));
    match AimFrame::new(&aim, &up) {
        Ok(_) => Some(ConstraintKind::Aim {
            aim_vector: aim,
            up_vector: up,
            freeze_axes: file.freeze_axes.unwrap_or([true; 2]),
        }),
        Err(AimGeometry::AimZero) => {
            issues.push(Issue::new(
                Code::VrmAimZero,
                push_pointer(pointer, "aimVector"),
            ));
            None
        }
        Err(AimGeometry::ParallelUp) => {
            // Point at the vector the file gave (upVector first): that is what to change.
            let at = if file.up_vector.is_some() || file.aim_vector.is_none() {
                "upVector"
            } else {
                "aimVector"
            };
            issues.push(
                Issue::new(Code::VrmAimParallelUp, push_pointer(pointer, at))
                    .arg("aim", format!("{:?}", aim.as_slice()))
                    .arg("up", format!("{:?}", up.as_slice())),
            );
            None
        }
    }
}

/// The pairwise source rules [D-VRM-ORDER]; `false` (with an issue) for an invalid source.
fn graph_rules(scene: &Scene, c: &Candidate, issues: &mut Issues) -> bool {
    let (node, source) = (c.constraint.node, c.constraint.source);
    let pointer = push_pointer(&c.pointer, "source");
    let code = if source == node {
        Code::VrmSourceIsDestination
    } else if scene.nodes.get(node).and_then(|n| n.parent) == Some(source) {
        Code::VrmSourceIsParent
    } else if crate::constraints::is_below(scene, source, node) {
        Code::VrmSourceBelowDestination
    } else {
        return true;
    };
    issues.push(Issue::new(code, pointer).arg("source", source));
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> crate::Reading {
        crate::read_bytes(json.as_bytes(), None, None)
    }

    fn doc(nodes: &str) -> String {
        format!(
            r#"{{"asset": {{"version": "2.0"}}, "extensionsUsed": ["VRMC_constraints-1.0"],
                "scene": 0, "scenes": [{{"nodes": [0]}}], "nodes": {nodes}}}"#
        )
    }

    #[test]
    fn seed_example_reads_with_defaults() {
        let r = read(&doc(
            r#"[{"name": "NodeA", "children": [1]}, {"name": "NodeB", "extensions": {"VRMC_constraints-1.0": {"position": {"source": 2, "weight": 1.0}}}}, {"name": "C"}]"#,
        ));
        assert!(r.issues.is_empty(), "{:?}", r.issues);
        let scene = r.scene.expect("scene");
        assert_eq!(
            scene.constraints,
            vec![NodeConstraint {
                node: 1,
                source: 2,
                source_space: Space::Model,
                destination_space: Space::Model,
                weight: 1.0,
                kind: ConstraintKind::Position {
                    freeze_axes: [true; 3]
                },
            }]
        );
    }

    #[test]
    fn aim_defaults_and_invalid_constraints_left_out() {
        let r = read(&doc(r#"[{"children": [1, 2, 3]},
                {"extensions": {"VRMC_constraints-1.0": {"aim": {"source": 2, "sourceSpace": "LOCAL", "freezeAxes": [false, true]}}}},
                {"extensions": {"VRMC_constraints-1.0": {"rotation": {"source": 0}}}},
                {"extensions": {"VRMC_constraints-1.0": {"rotation": {"source": 1, "weight": 2}}}}]"#));
        let codes: Vec<Code> = r.issues.iter().map(|i| i.code).collect();
        assert_eq!(
            codes,
            vec![
                Code::VrmSpaceUppercase,
                Code::VrmWeightRange,
                Code::VrmSourceIsParent
            ]
        );
        let scene = r.scene.expect("scene");
        assert_eq!(scene.constraints.len(), 1);
        assert_eq!(scene.constraints[0].source_space, Space::Local);
        assert_eq!(
            scene.constraints[0].kind,
            ConstraintKind::Aim {
                aim_vector: Vector3::z(),
                up_vector: Vector3::y(),
                freeze_axes: [false, true]
            }
        );
    }

    #[test]
    fn constraints_in_a_cycle_are_left_out_others_kept() {
        // 1 <- 2 <- 1 is a cycle; 3 <- 1 depends on the cycle but is valid itself.
        let r = read(&doc(r#"[{"children": [1, 2, 3]},
                {"extensions": {"VRMC_constraints-1.0": {"rotation": {"source": 2}}}},
                {"extensions": {"VRMC_constraints-1.0": {"rotation": {"source": 1}}}},
                {"extensions": {"VRMC_constraints-1.0": {"position": {"source": 1}}}}]"#));
        let got: Vec<(Code, &str)> = r
            .issues
            .iter()
            .map(|i| (i.code, i.pointer.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![(
                Code::VrmCycle,
                "/nodes/1/extensions/VRMC_constraints-1.0/rotation/source"
            )]
        );
        assert_eq!(
            r.issues[0].message,
            "constraints form a cycle through nodes 1, 2"
        );
        let scene = r.scene.expect("scene");
        assert_eq!(scene.constraints.len(), 1);
        assert_eq!(scene.constraints[0].node, 3);
    }
}
