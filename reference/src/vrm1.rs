//! Reader and rules of the `vrmc-node-constraint-1.0` profile (`VRMC_node_constraint` 1.0,
//! vrm-specification 3942748).
//!
//! Each node may carry `VRMC_node_constraint` with a required `specVersion` ("1.0"; "1.0-beta"
//! read with a warning [D-VRM1-SPEC-VERSION]) and a `constraint` holding exactly one of `roll`
//! (`source`, `rollAxis` X/Y/Z, `weight`), `aim` (`source`, `aimAxis` PositiveX..NegativeZ,
//! `weight`) and `rotation` (`source`, `weight`); `weight` defaults to 1 and lies in [0, 1].
//!
//! Each is read into the canonical [`NodeConstraint`] with the spaces its pseudocode reads:
//! roll and rotation local/local (they read the source's local rotation), aim model/model (world
//! positions and the parent's world rotation), so the one dependency rule of
//! [`crate::constraints::dependencies`] gives the text's update order [D-VRM1-ORDER]. Every
//! invalid constraint is reported and left out of [`Scene::constraints`].

use nalgebra::Vector3;
use serde::Deserialize;

use serde_json::Value;

use crate::constraints::reading::{Candidate, Codes, checked_weight, keep_valid, one_kind};
use crate::document::Document;
use crate::ext::{check_index, check_properties, object, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{ConstraintKind, NodeConstraint, Scene, Space};

/// The extension key.
pub const KEY: &str = "VRMC_node_constraint";

const KINDS: [&str; 3] = ["roll", "aim", "rotation"];
const CODES: Codes = Codes {
    no_constraint: Code::Vrm1NoConstraint,
    multiple: Code::Vrm1MultipleConstraints,
    weight_range: Code::Vrm1WeightRange,
    cycle: Code::Vrm1Cycle,
};

#[derive(Deserialize, Clone, Copy)]
enum RollAxis {
    X,
    Y,
    Z,
}

#[derive(Deserialize, Clone, Copy)]
enum AimAxis {
    PositiveX,
    NegativeX,
    PositiveY,
    NegativeY,
    PositiveZ,
    NegativeZ,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RollFile {
    source: usize,
    roll_axis: RollAxis,
    weight: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AimAxisFile {
    source: usize,
    aim_axis: AimAxis,
    weight: Option<f64>,
}

#[derive(Deserialize)]
struct RotationFile {
    source: usize,
    weight: Option<f64>,
}

impl RollAxis {
    fn vector(self) -> Vector3<f64> {
        match self {
            RollAxis::X => Vector3::x(),
            RollAxis::Y => Vector3::y(),
            RollAxis::Z => Vector3::z(),
        }
    }
}

impl AimAxis {
    fn vector(self) -> Vector3<f64> {
        match self {
            AimAxis::PositiveX => Vector3::x(),
            AimAxis::NegativeX => -Vector3::x(),
            AimAxis::PositiveY => Vector3::y(),
            AimAxis::NegativeY => -Vector3::y(),
            AimAxis::PositiveZ => Vector3::z(),
            AimAxis::NegativeZ => -Vector3::z(),
        }
    }
}

/// Read this profile's extensions from `doc` into `scene`, pushing every issue found.
pub fn read(doc: &Document, scene: &mut Scene, issues: &mut Issues) {
    let extensions = doc.node_extensions();
    let node_count = scene.nodes.len();
    let mut candidates = Vec::new();
    for node in 0..node_count {
        let Some((value, pointer)) = extensions.get(node, KEY) else {
            continue;
        };
        if let Some(c) = read_extension(value, &pointer, node, node_count, issues) {
            candidates.push(c);
        }
    }
    keep_valid(scene, candidates, source_rule, &CODES, issues);
}

/// The one source rule of 1.0: a constraint's source is not its own node; `false` (with an
/// issue) otherwise.
fn source_rule(_: &Scene, c: &Candidate, issues: &mut Issues) -> bool {
    let ok = c.constraint.source != c.constraint.node;
    if !ok {
        let pointer = push_pointer(&c.pointer, "source");
        issues.push(
            Issue::new(Code::Vrm1SourceIsDestination, pointer).arg("source", c.constraint.source),
        );
    }
    ok
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
    check_properties(value, pointer, &["specVersion", "constraint"], issues);
    let version_ok = spec_version(value, pointer, issues);
    let Some(constraint) = value.get("constraint") else {
        issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", "constraint"));
        return None;
    };
    let pointer = push_pointer(pointer, "constraint");
    object(constraint, &pointer, issues)?;
    check_properties(constraint, &pointer, &KINDS, issues);
    let kind = one_kind(constraint, &KINDS, &pointer, &CODES, issues)?;
    let pointer = push_pointer(&pointer, kind);
    let value = constraint.get(kind)?;
    object(value, &pointer, issues)?;
    let (source, weight, kind, space) = match kind {
        "roll" => {
            check_properties(value, &pointer, &["source", "rollAxis", "weight"], issues);
            let f: RollFile = parse(value, &pointer, issues)?;
            let kind = ConstraintKind::Roll {
                roll_axis: f.roll_axis.vector(),
            };
            (f.source, f.weight, kind, Space::Local)
        }
        "aim" => {
            check_properties(value, &pointer, &["source", "aimAxis", "weight"], issues);
            let f: AimAxisFile = parse(value, &pointer, issues)?;
            let kind = ConstraintKind::AimAxis {
                aim_axis: f.aim_axis.vector(),
            };
            (f.source, f.weight, kind, Space::Model)
        }
        _ => {
            check_properties(value, &pointer, &["source", "weight"], issues);
            let f: RotationFile = parse(value, &pointer, issues)?;
            let kind = ConstraintKind::Rotation {
                freeze_axes: [true; 3],
            };
            (f.source, f.weight, kind, Space::Local)
        }
    };
    let source = check_index(
        source,
        node_count,
        "nodes",
        &push_pointer(&pointer, "source"),
        issues,
    );
    let weight = checked_weight(weight, &pointer, &CODES, issues);
    if !version_ok {
        return None;
    }
    Some(Candidate {
        constraint: NodeConstraint {
            node,
            source: source?,
            source_space: space,
            destination_space: space,
            weight: weight?,
            kind,
        },
        pointer,
    })
}

/// Check `specVersion` [D-VRM1-SPEC-VERSION]; `false` when the constraint must not be read.
fn spec_version(value: &Value, pointer: &str, issues: &mut Issues) -> bool {
    let at = push_pointer(pointer, "specVersion");
    match value.get("specVersion") {
        None => {
            issues.push(Issue::new(Code::Vrm1SpecVersionMissing, pointer));
            false
        }
        Some(v) => match v.as_str() {
            Some("1.0") => true,
            Some("1.0-beta") => {
                issues.push(Issue::new(Code::Vrm1SpecVersionBeta, &at));
                true
            }
            Some(other) => {
                issues.push(
                    Issue::new(Code::Vrm1SpecVersionUnknown, &at)
                        .arg("value", format!("{other:?}")),
                );
                false
            }
            None => {
                issues.push(Issue::new(Code::ExtType, &at).arg("detail", "expected a string"));
                false
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> crate::Reading {
        crate::read_bytes(json.as_bytes(), None, None)
    }

    fn doc(nodes: &str) -> String {
        format!(
            r#"{{"asset": {{"version": "2.0"}}, "extensionsUsed": ["VRMC_node_constraint"],
                "scene": 0, "scenes": [{{"nodes": [0]}}], "nodes": {nodes}}}"#
        )
    }

    #[test]
    fn each_kind_reads_with_its_spaces_and_defaults() {
        let r = read(&doc(r#"[{"children": [1, 2, 3]},
            {"extensions": {"VRMC_node_constraint": {"specVersion": "1.0", "constraint": {"roll": {"source": 0, "rollAxis": "Y", "weight": 0.5}}}}},
            {"extensions": {"VRMC_node_constraint": {"specVersion": "1.0", "constraint": {"aim": {"source": 1, "aimAxis": "NegativeZ"}}}}},
            {"extensions": {"VRMC_node_constraint": {"specVersion": "1.0", "constraint": {"rotation": {"source": 0}}}}}]"#));
        assert!(r.issues.is_empty(), "{:?}", r.issues);
        let scene = r.scene.expect("scene");
        assert_eq!(
            scene.constraints,
            vec![
                NodeConstraint {
                    node: 1,
                    source: 0,
                    source_space: Space::Local,
                    destination_space: Space::Local,
                    weight: 0.5,
                    kind: ConstraintKind::Roll {
                        roll_axis: Vector3::y()
                    },
                },
                NodeConstraint {
                    node: 2,
                    source: 1,
                    source_space: Space::Model,
                    destination_space: Space::Model,
                    weight: 1.0,
                    kind: ConstraintKind::AimAxis {
                        aim_axis: -Vector3::z()
                    },
                },
                NodeConstraint {
                    node: 3,
                    source: 0,
                    source_space: Space::Local,
                    destination_space: Space::Local,
                    weight: 1.0,
                    kind: ConstraintKind::Rotation {
                        freeze_axes: [true; 3]
                    },
                },
            ]
        );
    }

    #[test]
    fn beta_is_read_with_a_warning_others_are_not_read() {
        let r = read(&doc(r#"[{"children": [1, 2]},
            {"extensions": {"VRMC_node_constraint": {"specVersion": "1.0-beta", "constraint": {"rotation": {"source": 0}}}}},
            {"extensions": {"VRMC_node_constraint": {"specVersion": "2.0", "constraint": {"rotation": {"source": 0}}}}}]"#));
        let codes: Vec<Code> = r.issues.iter().map(|i| i.code).collect();
        assert_eq!(
            codes,
            vec![Code::Vrm1SpecVersionBeta, Code::Vrm1SpecVersionUnknown]
        );
        let scene = r.scene.expect("scene");
        assert_eq!(scene.constraints.len(), 1);
        assert_eq!(scene.constraints[0].node, 1);
    }
}
