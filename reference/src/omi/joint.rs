//! `OMI_physics_joint` (seed 000): document-level joint constraints, and joint nodes that apply
//! some of them between the bodies `nodeA` and `nodeB`.
//!
//! Each constraint becomes one linear [`Limit`] (if it has linear axes) and one angular
//! [`Limit`] (if it has angular axes) with the same bounds, stiffness and damping, in the node's
//! order, as [`LimitSet::PerAxis`] [D-OMI-PER-AXIS]: each listed axis is limited on its own,
//! and a later limit on an axis overrides an earlier one (the evaluator applies that rule). Both
//! attachment frames are the joint node [D-FRAMES]. The schema's `required: ["type"]` on a
//! constraint is a bug (the seed defines no `type`) and is not enforced.

use serde::Deserialize;
use serde_json::Value;

use crate::document::Document;
use crate::ext;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{Attachment, DofKind, Joint, Limit, LimitSet, OmiBodyType, Scene};

use super::body::BodyState;
use super::{BODY, COLLIDER, JOINT, SHAPE, document_array, parse_object};

pub(super) const CONSTRAINT_PROPERTIES: &[&str] = &[
    "linearAxes",
    "angularAxes",
    "lowerLimit",
    "upperLimit",
    "stiffness",
    "damping",
];
/// Seed 000 defaults [D-LIMIT-DEFAULTS]: limits 0 (fixed), stiffness infinite, damping 1.
pub(super) const DEFAULT_DAMPING: f64 = 1.0;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ConstraintJson {
    /// Signed so that `-1` is an out-of-range axis, not a type error.
    linear_axes: Option<Vec<i64>>,
    angular_axes: Option<Vec<i64>>,
    lower_limit: Option<f64>,
    upper_limit: Option<f64>,
    stiffness: Option<f64>,
    damping: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JointNodeJson {
    constraints: Vec<usize>,
    node_a: usize,
    node_b: usize,
}

/// A readable constraint with its defaults applied and its axes checked.
#[derive(Clone, Debug, PartialEq)]
struct Constraint {
    linear: Vec<u8>,
    angular: Vec<u8>,
    lower: f64,
    upper: f64,
    /// `None`: infinitely stiff.
    stiffness: Option<f64>,
    damping: f64,
}

impl Constraint {
    /// The canonical per-axis limits of this constraint: linear first, then angular.
    fn limits(&self) -> impl Iterator<Item = Limit> + '_ {
        [
            (DofKind::Linear, &self.linear),
            (DofKind::Angular, &self.angular),
        ]
        .into_iter()
        .filter(|(_, axes)| !axes.is_empty())
        .map(|(kind, axes)| Limit {
            kind,
            axes: axes.clone(),
            min: Some(self.lower),
            max: Some(self.upper),
            stiffness: self.stiffness,
            damping: self.damping,
        })
    }
}

/// Read the document-level constraints and every joint node into `scene.joints`.
pub(super) fn read(doc: &Document, scene: &mut Scene, bodies: &[BodyState], issues: &mut Issues) {
    let constraints: Vec<Option<Constraint>> = document_array(doc, JOINT, "constraints", issues)
        .into_iter()
        .map(|(value, pointer)| read_constraint(value, &pointer, issues))
        .collect();
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count() {
        let Some((value, pointer)) = extensions.get(node, JOINT) else {
            continue;
        };
        check_alone(doc, node, issues);
        ext::check_properties(value, &pointer, &["constraints", "nodeA", "nodeB"], issues);
        let Some(json) = parse_object::<JointNodeJson>(value, &pointer, issues) else {
            continue;
        };
        if let Some(joint) = read_joint(node, &json, &pointer, &constraints, scene, bodies, issues)
        {
            scene.joints.push(joint);
        }
    }
}

fn read_constraint(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Constraint> {
    ext::check_properties(value, pointer, CONSTRAINT_PROPERTIES, issues);
    let json = parse_object::<ConstraintJson>(value, pointer, issues)?;
    let linear = axes(
        json.linear_axes.as_deref(),
        &push_pointer(pointer, "linearAxes"),
        issues,
    );
    let angular = axes(
        json.angular_axes.as_deref(),
        &push_pointer(pointer, "angularAxes"),
        issues,
    );
    let written = |a: &Option<Vec<i64>>| a.as_ref().is_some_and(|v| !v.is_empty());
    if !written(&json.linear_axes) && !written(&json.angular_axes) {
        issues.push(Issue::new(Code::OmiConstraintNoAxes, pointer));
    }
    let lower = json.lower_limit.unwrap_or(0.0);
    let upper = json.upper_limit.unwrap_or(0.0);
    if lower > upper {
        issues.push(
            Issue::new(Code::LimitMinAboveMax, pointer)
                .arg("min", lower)
                .arg("max", upper),
        );
    }
    if let Some(s) = json.stiffness.filter(|&s| s <= 0.0) {
        issues.push(
            Issue::new(
                Code::StiffnessNotPositive,
                push_pointer(pointer, "stiffness"),
            )
            .arg("value", s),
        );
    }
    let damping = json.damping.unwrap_or(DEFAULT_DAMPING);
    if damping < 0.0 {
        issues.push(
            Issue::new(Code::DampingNegative, push_pointer(pointer, "damping"))
                .arg("value", damping),
        );
    }
    Some(Constraint {
        linear,
        angular,
        lower,
        upper,
        stiffness: json.stiffness,
        damping,
    })
}

/// The distinct valid axes, in file order; `AXIS_OUT_OF_RANGE` / `AXIS_DUPLICATE` at the item.
fn axes(written: Option<&[i64]>, pointer: &str, issues: &mut Issues) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    for (k, &axis) in written.unwrap_or_default().iter().enumerate() {
        let at = push_pointer(pointer, k);
        match u8::try_from(axis).ok().filter(|&a| a <= 2) {
            None => issues.push(Issue::new(Code::AxisOutOfRange, at).arg("axis", axis)),
            Some(a) if out.contains(&a) => {
                issues.push(Issue::new(Code::AxisDuplicate, at).arg("axis", axis));
            }
            Some(a) => out.push(a),
        }
    }
    out
}

/// Check one joint node's references and build its joint when both ends are bodies.
fn read_joint(
    node: usize,
    json: &JointNodeJson,
    pointer: &str,
    constraints: &[Option<Constraint>],
    scene: &Scene,
    bodies: &[BodyState],
    issues: &mut Issues,
) -> Option<Joint> {
    let list = push_pointer(pointer, "constraints");
    if json.constraints.is_empty() {
        issues.push(Issue::new(Code::OmiJointNoConstraints, &list));
    }
    let mut limits = Vec::new();
    for (k, &index) in json.constraints.iter().enumerate() {
        let at = push_pointer(&list, k);
        let array = "OMI_physics_joint constraints";
        if let Some(Some(c)) = ext::check_index(index, constraints.len(), array, &at, issues)
            .and_then(|i| constraints.get(i))
        {
            limits.extend(c.limits());
        }
    }
    let count = scene.nodes.len();
    let mut end = |property: &str, n: usize| -> Option<BodyState> {
        let at = push_pointer(pointer, property);
        let n = ext::check_index(n, count, "nodes", &at, issues)?;
        let state = bodies.get(n).copied().unwrap_or(BodyState::Absent);
        match state {
            BodyState::Absent => {
                issues.push(Issue::new(Code::OmiJointNotBody, at).arg("node", n));
            }
            BodyState::Typed(OmiBodyType::Trigger) => {
                issues.push(Issue::new(Code::OmiJointTriggerBody, at).arg("node", n));
            }
            BodyState::Invalid | BodyState::Typed(_) => {}
        }
        Some(state)
    };
    let a = end("nodeA", json.node_a);
    let b = end("nodeB", json.node_b);
    if json.node_a == json.node_b && a.is_some() {
        issues.push(
            Issue::new(Code::OmiJointSameBody, push_pointer(pointer, "nodeB"))
                .arg("node", json.node_a),
        );
    } else if let (Some(BodyState::Typed(ta)), Some(BodyState::Typed(tb))) = (a, b) {
        let rigid = |t| matches!(t, OmiBodyType::Rigid | OmiBodyType::Vehicle);
        let trigger = |t| t == OmiBodyType::Trigger;
        if !trigger(ta) && !trigger(tb) && !rigid(ta) && !rigid(tb) {
            issues.push(
                Issue::new(Code::OmiJointNoRigidBody, pointer)
                    .arg("a", json.node_a)
                    .arg("b", json.node_b),
            );
        }
    }
    // A joint is only built between two (non-trigger) bodies, so every attachment names a body.
    scene.body_at(json.node_a)?;
    scene.body_at(json.node_b)?;
    Some(Joint {
        node,
        a: Attachment {
            frame: node,
            body_node: Some(json.node_a),
        },
        b: Attachment {
            frame: node,
            body_node: Some(json.node_b),
        },
        limits: LimitSet::PerAxis(limits),
        drives: Vec::new(),
        // Seed 000: "When physics body nodes are joined, they should not collide with each other."
        enable_collision: false,
        description: None,
    })
}

/// `OMI_JOINT_NODE_NOT_ALONE`: one warning per other thing on the joint node, at its property.
fn check_alone(doc: &Document, node: usize, issues: &mut Issues) {
    let Some(json) = doc.json.get("nodes").and_then(|n| n.get(node)) else {
        return;
    };
    let base = format!("/nodes/{node}");
    let extensions = format!("{base}/extensions");
    let mut found = Vec::new();
    for (property, what) in [("mesh", "a mesh"), ("camera", "a camera")] {
        if json.get(property).is_some() {
            found.push((push_pointer(&base, property), what));
        }
    }
    for (key, what) in [
        ("KHR_lights_punctual", "a light"),
        (COLLIDER, "a collider"),
        (SHAPE, "a collider"),
        (BODY, "a physics body"),
    ] {
        if json.get("extensions").and_then(|e| e.get(key)).is_some() {
            found.push((push_pointer(&extensions, key), what));
        }
    }
    for (at, what) in found {
        issues.push(Issue::new(Code::OmiJointNodeNotAlone, at).arg("what", what));
    }
}
