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
use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::rigid::Site;
use crate::rigid::joint::{
    Description, DriveJson, NodeJointJson, axis_index, check_damping, check_min_max, drive,
};
use crate::scene::{Attachment, DofKind, Drive, Joint, Limit, LimitSet, NodeId, Scene};

use super::{
    JOINTS_ARRAY, NODES_ARRAY, Revision, SPELLING, Table, Tables, array_length, check_index_at,
    clean_since, non_negative,
};

#[derive(Deserialize)]
struct DescriptionJson {
    limits: Option<Vec<Value>>,
    drives: Option<Vec<Value>>,
}

/// Read every joint description.
pub(super) fn read_descriptions(
    list: &[Value],
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Table<Description> {
    Table::read(list, pointer, issues, |value, at, issues| {
        read_description(value, at, revision, issues)
    })
}

/// One description, or `None` when it has any error.
fn read_description(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Description> {
    let d: DescriptionJson =
        SPELLING.parse_object(value, pointer, &["limits", "drives"], issues)?;
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
    let l = SPELLING.parse_limit(value, pointer, issues)?;
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
    check_min_max(&l, pointer, issues);
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

/// One drive, or `None` when it has an error or an unknown type or mode (a warning: the drive is
/// ignored, the description is not).
fn read_drive(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Drive> {
    let d: DriveJson<Option<String>, Option<i64>> = SPELLING.parse_drive(value, pointer, issues)?;
    let mut dependencies_ok = true;
    if revision.drive_pairs {
        // A target without its gain is harmless under the schema's own default gain of 0 (the
        // target has no effect): a warning, the drive kept [D-SCHEMA-HARMLESS].
        for (property, needs, given) in [
            (
                "positionTarget",
                "stiffness",
                d.position_target.is_some() && d.stiffness.is_none(),
            ),
            (
                "velocityTarget",
                "damping",
                d.velocity_target.is_some() && d.damping.is_none(),
            ),
        ] {
            if given {
                issues.push(
                    Issue::new(
                        Code::KhrDriveTargetWithoutGain,
                        push_pointer(pointer, property),
                    )
                    .arg("property", property)
                    .arg("needs", needs),
                );
            }
        }
        // A gain without its target has no target to reach (the schema gives none): an error.
        for (property, given, needs, present) in [
            (
                "stiffness",
                d.stiffness.is_some(),
                "positionTarget",
                d.position_target.is_some(),
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
    for (key, present) in [
        ("type", d.kind.is_some()),
        ("mode", d.mode.is_some()),
        ("axis", d.axis.is_some()),
    ] {
        if !present {
            issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", key));
        }
    }
    let given = (d.kind.as_deref(), d.mode.as_deref(), d.axis);
    let max_force = |f: Option<f64>, issues: &mut Issues| {
        (
            f,
            f.is_none_or(|f| non_negative(f, pointer, "maxForce", issues)),
        )
    };
    drive(&d, given, pointer, max_force, issues).filter(|_| dependencies_ok)
}

/// The `joint` object of `site`, if any, as a canonical [`Joint`].
pub(super) fn read_node_joint(site: Site, tables: &Tables, scene: &mut Scene, issues: &mut Issues) {
    let Some(value) = site.extension.get("joint") else {
        return;
    };
    let node = site.node;
    let pointer = push_pointer(site.pointer, "joint");
    let properties = ["connectedNode", "joint", "enableCollision"];
    let parsed = SPELLING.parse_object(value, &pointer, &properties, issues);
    let Some(j): Option<NodeJointJson<Option<usize>, Option<bool>>> = parsed else {
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
            .resolve(d, JOINTS_ARRAY, (&pointer, "joint"), issues)
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
