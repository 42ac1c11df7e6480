//! `physicsJoints[]` (shared joint descriptions: limits and drives) and node `joint` objects ->
//! canonical [`Joint`]s.
//!
//! Limits ([D-LIMIT-DEFAULTS], [D-OMI-PER-AXIS]): exactly one of `linearAxes` / `angularAxes`
//! (`KHR_LIMIT_AXES_BOTH`, `KHR_LIMIT_AXES_MISSING`), 1 to 3 distinct axes in 0..=2
//! (`EXT_ARRAY_LENGTH`, `AXIS_OUT_OF_RANGE`, `AXIS_DUPLICATE`); the axes of one limit are coupled
//! ([`LimitSet::Coupled`]). Missing `min`/`max`: unbounded on that side; missing `stiffness`: a
//! hard limit (`STIFFNESS_NOT_POSITIVE` when given and <= 0); `damping` default 0
//! (`DAMPING_NEGATIVE`). A description without limits is `KHR_JOINT_NO_LIMITS`.
//!
//! Drives: `type` (linear, angular) and `mode` (force, acceleration) are open enums: an unknown
//! value is `ENUM_UNKNOWN` and the drive is ignored; `type`, `mode`, `axis` are required; `axis`
//! is 0..=2 (the seed schema's maximum 3 is a bug: there are three axes); `maxForce` and
//! `stiffness` have minimum 0, `damping` too (`DAMPING_NEGATIVE`); stiffness and damping default
//! to 0, a missing `maxForce` means not force-limited.
//!
//! `khr-2025`: a description may hold zero limits (no `KHR_JOINT_NO_LIMITS`); a drive's
//! `positionTarget` and `stiffness` come together, and so do `velocityTarget` and `damping` (the
//! schema's `dependencies`, both ways: `KHR_DRIVE_DEPENDENCY`, the drive is left out and so is
//! its description).
//!
//! Node joints [D-FRAMES]: frame A is the joint node, frame B `connectedNode`, each attached to
//! its nearest ancestor-or-self body (or the world); `enableCollision` defaults to false. A joint
//! neither of whose frames is on a body is `KHR_JOINT_NO_MOTION` (a warning, the joint is kept).

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::{Map, Value};

use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, Token, push_pointer};
use crate::scene::{Attachment, DofKind, Drive, DriveMode, Joint, Limit, LimitSet, NodeId, Scene};

use super::{
    JOINTS_ARRAY, NODES_ARRAY, Revision, Tables, array_length, check_index_at, clean_since,
    enum_unknown, non_negative, object,
};

/// A joint description as read: limits and drives, ready to copy into each joint using it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Description {
    pub limits: Vec<Limit>,
    pub drives: Vec<Drive>,
}

/// Every description by file index (`None`: left out because of an error).
#[derive(Debug, Clone)]
pub(super) struct Descriptions {
    /// `None`: `physicsJoints` could not be read, so references to it are not checked.
    len: Option<usize>,
    list: Vec<Option<Description>>,
}

impl Descriptions {
    pub(super) fn empty() -> Descriptions {
        Descriptions {
            len: Some(0),
            list: Vec::new(),
        }
    }

    pub(super) fn unknown() -> Descriptions {
        Descriptions {
            len: None,
            list: Vec::new(),
        }
    }

    fn resolve(&self, index: usize, at: (&str, &str), issues: &mut Issues) -> Option<&Description> {
        let len = self.len?;
        check_index_at(index, len, JOINTS_ARRAY, at, issues)?;
        self.list.get(index).and_then(Option::as_ref)
    }
}

#[derive(Deserialize)]
struct DescriptionJson {
    limits: Option<Vec<Value>>,
    drives: Option<Vec<Value>>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LimitJson {
    linear_axes: Option<Vec<i64>>,
    angular_axes: Option<Vec<i64>>,
    min: Option<f64>,
    max: Option<f64>,
    stiffness: Option<f64>,
    damping: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DriveJson {
    #[serde(rename = "type")]
    kind: Option<String>,
    mode: Option<String>,
    axis: Option<i64>,
    max_force: Option<f64>,
    position_target: Option<f64>,
    velocity_target: Option<f64>,
    stiffness: Option<f64>,
    damping: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeJointJson {
    connected_node: Option<usize>,
    joint: Option<usize>,
    enable_collision: Option<bool>,
}

const LIMIT_PROPERTIES: &[&str] = &[
    "linearAxes",
    "angularAxes",
    "min",
    "max",
    "stiffness",
    "damping",
];
const DRIVE_PROPERTIES: &[&str] = &[
    "type",
    "mode",
    "axis",
    "maxForce",
    "positionTarget",
    "velocityTarget",
    "stiffness",
    "damping",
];
const DRIVE_TYPES: [&str; 2] = ["linear", "angular"];
const DRIVE_MODES: [&str; 2] = [DriveMode::Force.name(), DriveMode::Acceleration.name()];

/// Read every joint description.
pub(super) fn read_descriptions(
    list: &[Value],
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Descriptions {
    Descriptions {
        len: Some(list.len()),
        list: list
            .iter()
            .enumerate()
            .map(|(index, value)| {
                read_description(value, &push_pointer(pointer, index), revision, issues)
            })
            .collect(),
    }
}

/// One description, or `None` when it has any error.
fn read_description(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Description> {
    object(value, pointer, issues)?;
    check_properties(value, pointer, &["limits", "drives"], issues);
    let d: DescriptionJson = parse(value, pointer, issues)?;
    let mark = issues.0.len();
    let limits_pointer = push_pointer(pointer, "limits");
    let limit_values = d.limits.unwrap_or_default();
    if limit_values.is_empty() && revision.limits_required {
        issues.push(Issue::new(Code::KhrJointNoLimits, pointer));
    }
    let limits: Vec<Option<Limit>> = limit_values
        .iter()
        .enumerate()
        .map(|(i, v)| read_limit(v, &push_pointer(&limits_pointer, i), revision, issues))
        .collect();
    let drives_pointer = push_pointer(pointer, "drives");
    let drives: Vec<Option<Drive>> = d
        .drives
        .unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, v)| read_drive(v, &push_pointer(&drives_pointer, i), revision, issues))
        .collect();
    if !clean_since(issues, mark) {
        return None;
    }
    Some(Description {
        limits: limits.into_iter().flatten().collect(),
        // A drive of an unknown type or mode (a warning) is ignored.
        drives: drives.into_iter().flatten().collect(),
    })
}

/// One limit, or `None` on any error. The draft (seed 000) wants a positive stiffness; the 2025
/// limit schema allows 0 (`minimum: 0`: a soft limit without a spring, damping only).
fn read_limit(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Limit> {
    object(value, pointer, issues)?;
    check_properties(value, pointer, LIMIT_PROPERTIES, issues);
    let l: LimitJson = parse(value, pointer, issues)?;
    let mark = issues.0.len();
    let linear = l
        .linear_axes
        .as_deref()
        .and_then(|a| axes(a, &push_pointer(pointer, "linearAxes"), issues));
    let angular = l
        .angular_axes
        .as_deref()
        .and_then(|a| axes(a, &push_pointer(pointer, "angularAxes"), issues));
    match (&l.linear_axes, &l.angular_axes) {
        (Some(_), Some(_)) => issues.push(Issue::new(Code::KhrLimitAxesBoth, pointer)),
        (None, None) => issues.push(Issue::new(Code::KhrLimitAxesMissing, pointer)),
        _ => {}
    }
    if let (Some(min), Some(max)) = (l.min, l.max)
        && min > max
    {
        issues.push(
            Issue::new(Code::LimitMinAboveMax, pointer)
                .arg("min", min)
                .arg("max", max),
        );
    }
    let refused = |s: f64| s < 0.0 || (s == 0.0 && revision.zero_stiffness_refused);
    if let Some(stiffness) = l.stiffness.filter(|s| refused(*s)) {
        issues.push(
            Issue::new(
                Code::StiffnessNotPositive,
                push_pointer(pointer, "stiffness"),
            )
            .arg("value", stiffness),
        );
    }
    let damping = l.damping.unwrap_or(0.0);
    check_damping(damping, pointer, issues);
    if !clean_since(issues, mark) {
        return None;
    }
    let (kind, axes) = match (linear, angular) {
        (Some(a), None) => (DofKind::Linear, a),
        (None, Some(a)) => (DofKind::Angular, a),
        _ => return None, // cannot happen without an error above
    };
    Some(Limit {
        kind,
        axes,
        min: l.min,
        max: l.max,
        stiffness: l.stiffness,
        damping,
    })
}

/// A limit's axis list: 1 to 3 distinct axes in 0..=2, else issues and `None`.
fn axes(list: &[i64], pointer: &str, issues: &mut Issues) -> Option<Vec<u8>> {
    let mark = issues.0.len();
    if list.is_empty() || list.len() > 3 {
        issues.push(array_length(pointer, list.len(), "1 to 3"));
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(list.len());
    for (i, &axis) in list.iter().enumerate() {
        match axis_index(axis, (pointer, i), issues) {
            Some(a) if !seen.insert(a) => issues
                .push(Issue::new(Code::AxisDuplicate, push_pointer(pointer, i)).arg("axis", a)),
            Some(a) => out.push(a),
            None => {}
        }
    }
    clean_since(issues, mark).then_some(out)
}

/// An axis index in 0..=2, else `AXIS_OUT_OF_RANGE` at `pointer/token` (written only then).
fn axis_index(axis: i64, (pointer, token): (&str, impl Token), issues: &mut Issues) -> Option<u8> {
    match u8::try_from(axis) {
        Ok(a) if a <= 2 => Some(a),
        _ => {
            let at = push_pointer(pointer, token);
            issues.push(Issue::new(Code::AxisOutOfRange, at).arg("axis", axis));
            None
        }
    }
}

/// `DAMPING_NEGATIVE` at `pointer/damping` (written only then) for a negative damping; whether
/// the damping is valid.
fn check_damping(damping: f64, pointer: &str, issues: &mut Issues) -> bool {
    if damping < 0.0 {
        let at = push_pointer(pointer, "damping");
        issues.push(Issue::new(Code::DampingNegative, at).arg("value", damping));
        return false;
    }
    true
}

/// One drive, or `None` when it has an error or an unknown type or mode (a warning: the drive is
/// ignored, the description is not).
fn read_drive(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Drive> {
    object(value, pointer, issues)?;
    check_properties(value, pointer, DRIVE_PROPERTIES, issues);
    let d: DriveJson = parse(value, pointer, issues)?;
    let mut dependencies_ok = true;
    if revision.drive_pairs {
        for (property, given, needs, present) in [
            (
                "positionTarget",
                d.position_target.is_some(),
                "stiffness",
                d.stiffness.is_some(),
            ),
            (
                "stiffness",
                d.stiffness.is_some(),
                "positionTarget",
                d.position_target.is_some(),
            ),
            (
                "velocityTarget",
                d.velocity_target.is_some(),
                "damping",
                d.damping.is_some(),
            ),
            (
                "damping",
                d.damping.is_some(),
                "velocityTarget",
                d.velocity_target.is_some(),
            ),
        ] {
            if given && !present {
                dependencies_ok = false;
                issues.push(
                    Issue::new(Code::KhrDriveDependency, push_pointer(pointer, property))
                        .arg("property", property)
                        .arg("needs", needs),
                );
            }
        }
    }
    let at = |key: &str| push_pointer(pointer, key);
    for (key, present) in [
        ("type", d.kind.is_some()),
        ("mode", d.mode.is_some()),
        ("axis", d.axis.is_some()),
    ] {
        if !present {
            issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", key));
        }
    }
    let kind = d.kind.as_deref().and_then(|k| match k {
        "linear" => Some(DofKind::Linear),
        "angular" => Some(DofKind::Angular),
        other => {
            issues.push(enum_unknown(&at("type"), other, &DRIVE_TYPES));
            None
        }
    });
    let mode = d.mode.as_deref().and_then(|m| {
        let mode = DriveMode::from_name(m);
        if mode.is_none() {
            issues.push(enum_unknown(&at("mode"), m, &DRIVE_MODES));
        }
        mode
    });
    let axis = d
        .axis
        .and_then(|a| axis_index(a, (pointer, "axis"), issues));
    let max_force_ok = d
        .max_force
        .is_none_or(|f| non_negative(f, pointer, "maxForce", issues));
    let stiffness = d.stiffness.unwrap_or(0.0);
    let stiffness_ok = non_negative(stiffness, pointer, "stiffness", issues);
    let damping = d.damping.unwrap_or(0.0);
    let damping_ok = check_damping(damping, pointer, issues);
    if !(max_force_ok && stiffness_ok && damping_ok && dependencies_ok) {
        return None;
    }
    Some(Drive {
        kind: kind?,
        mode: mode?,
        axis: axis?,
        max_force: d.max_force,
        position_target: d.position_target,
        velocity_target: d.velocity_target,
        stiffness,
        damping,
    })
}

/// The `joint` object of node `node`, if any, as a canonical [`Joint`].
pub(super) fn read_node_joint(
    node: NodeId,
    extension: &Map<String, Value>,
    pointer: &str,
    tables: &Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) {
    let Some(value) = extension.get("joint") else {
        return;
    };
    let pointer = push_pointer(pointer, "joint");
    if object(value, &pointer, issues).is_none() {
        return;
    }
    check_properties(
        value,
        &pointer,
        &["connectedNode", "joint", "enableCollision"],
        issues,
    );
    let Some(j) = parse::<NodeJointJson>(value, &pointer, issues) else {
        return;
    };
    for (key, present) in [
        ("connectedNode", j.connected_node.is_some()),
        ("joint", j.joint.is_some()),
    ] {
        if !present {
            issues.push(Issue::new(Code::ExtRequired, &pointer).arg("property", key));
        }
    }
    let connected = j.connected_node.and_then(|c| {
        check_index_at(
            c,
            scene.nodes.len(),
            NODES_ARRAY,
            (&pointer, "connectedNode"),
            issues,
        )
    });
    let description = j.joint.and_then(|d| {
        tables
            .joints
            .resolve(d, (&pointer, "joint"), issues)
            .map(|desc| (d, desc.clone()))
    });
    let (Some(connected), Some((index, description))) = (connected, description) else {
        return;
    };
    let attachment = |frame: NodeId| Attachment {
        frame,
        body_node: scene.owning_body(frame).map(|b| scene.bodies[b].node),
    };
    let a = attachment(node);
    let b = attachment(connected);
    if a.body_node.is_none() && b.body_node.is_none() {
        issues.push(
            Issue::new(Code::KhrJointNoMotion, &pointer)
                .arg("node", node)
                .arg("connected", connected),
        );
    }
    scene.joints.push(Joint {
        node,
        a,
        b,
        limits: LimitSet::Coupled(description.limits),
        drives: description.drives,
        enable_collision: j.enable_collision.unwrap_or(false),
        description: Some(index),
    });
}
