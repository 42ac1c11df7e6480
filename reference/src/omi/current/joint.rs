//! `OMI_physics_joint` of omi-2024 and omi-2025: document-level `physicsJoints` (limits and
//! drives) and joint nodes (`joint`, `connectedNode`, `enableCollision`) -> [`Joint`].
//!
//! [D-OMI-LIMITS]: a limit's axes are coupled as KHR's (the limit schema: two linear axes keep
//! "some distance from an infinite line", three "from a point"; two angular axes "a cone"); a
//! limit with both linear and angular axes (the weld example) is two limits with the same
//! values. `min`/`max` default to -inf/+inf; a missing or negative `stiffness` is a hard limit;
//! `damping` defaults to 0. A drive's missing or negative `maxForce` is unlimited.
//! [D-OMI-JOINT-FRAMES]: frame A is the joint node, frame B `connectedNode`, each moving with
//! its nearest ancestor-or-self body with motion. One end must be in a dynamic body
//! (`OMI_JOINT_NO_DYNAMIC_BODY`); the text wants it to be the joint node's, which the examples
//! break (`OMI_JOINT_NO_DYNAMIC_ANCESTOR`, a warning [D-OMI-EXAMPLES]).

use serde::Deserialize;

use crate::document::Document;
use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{
    Attachment, BodyKind, DofKind, Drive, DriveMode, Joint, Limit, LimitSet, NodeId, Scene,
};
use serde_json::Value;

use super::super::{BODY, JOINT, SHAPE};
use super::{JOINTS_ARRAY, NODES_ARRAY, array, clean_since, non_negative, object};

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
    kind: String,
    mode: String,
    axis: i64,
    max_force: Option<f64>,
    position_target: Option<f64>,
    velocity_target: Option<f64>,
    stiffness: Option<f64>,
    damping: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeJointJson {
    joint: usize,
    connected_node: usize,
    #[serde(default)]
    enable_collision: bool,
}

/// One joint settings object as read.
#[derive(Clone, Debug)]
pub(super) struct Settings {
    limits: Vec<Limit>,
    drives: Vec<Drive>,
}

/// `physicsJoints` by file index (`None`: left out because of an error); `len` `None`: the
/// array could not be read, references are not checked.
#[derive(Debug, Default)]
pub(super) struct SettingsTable {
    len: Option<usize>,
    items: Vec<Option<Settings>>,
}

/// Read the document-level `physicsJoints`.
pub(super) fn read_settings(doc: &Document, issues: &mut Issues) -> SettingsTable {
    let Some((value, pointer)) = doc.root_extension(JOINT) else {
        return SettingsTable {
            len: Some(0),
            items: Vec::new(),
        };
    };
    let Some(root) = object(value, &pointer, issues) else {
        return SettingsTable::default();
    };
    check_properties(value, &pointer, &["physicsJoints"], issues);
    let Some((list, at)) = array(root, &pointer, "physicsJoints", issues) else {
        return SettingsTable::default();
    };
    let items = list
        .iter()
        .enumerate()
        .map(|(i, v)| read_one(v, &push_pointer(&at, i), issues))
        .collect();
    SettingsTable {
        len: Some(list.len()),
        items,
    }
}

fn read_one(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Settings> {
    let root = object(value, pointer, issues)?;
    check_properties(value, pointer, &["limits", "drives"], issues);
    let mark = issues.0.len();
    let (limits_json, limits_at) = array(root, pointer, "limits", issues)?;
    let (drives_json, drives_at) = array(root, pointer, "drives", issues)?;
    if limits_json.is_empty() && drives_json.is_empty() {
        issues.push(Issue::new(Code::OmiJointSettingsEmpty, pointer));
    }
    let mut limits = Vec::new();
    for (i, v) in limits_json.iter().enumerate() {
        limits.extend(read_limit(v, &push_pointer(&limits_at, i), issues));
    }
    let mut drives = Vec::new();
    for (i, v) in drives_json.iter().enumerate() {
        drives.extend(read_drive(v, &push_pointer(&drives_at, i), issues));
    }
    clean_since(issues, mark).then_some(Settings { limits, drives })
}

/// Axis indices, each 0..=2 and listed once (`AXIS_OUT_OF_RANGE`, `AXIS_DUPLICATE`).
fn axes(list: &[i64], pointer: &str, issues: &mut Issues) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(list.len());
    for (i, &a) in list.iter().enumerate() {
        let at = push_pointer(pointer, i);
        match u8::try_from(a).ok().filter(|&a| a <= 2) {
            None => issues.push(Issue::new(Code::AxisOutOfRange, at).arg("axis", a)),
            Some(a) if out.contains(&a) => {
                issues.push(Issue::new(Code::AxisDuplicate, at).arg("axis", a));
            }
            Some(a) => out.push(a),
        }
    }
    out
}

/// One limit: one [`Limit`] per non-empty axis list.
fn read_limit(value: &Value, pointer: &str, issues: &mut Issues) -> Vec<Limit> {
    if object(value, pointer, issues).is_none() {
        return Vec::new();
    }
    check_properties(
        value,
        pointer,
        &[
            "linearAxes",
            "angularAxes",
            "min",
            "max",
            "stiffness",
            "damping",
        ],
        issues,
    );
    let Some(l) = parse::<LimitJson>(value, pointer, issues) else {
        return Vec::new();
    };
    let at = |k: &str| push_pointer(pointer, k);
    let linear = axes(
        l.linear_axes.as_deref().unwrap_or(&[]),
        &at("linearAxes"),
        issues,
    );
    let angular = axes(
        l.angular_axes.as_deref().unwrap_or(&[]),
        &at("angularAxes"),
        issues,
    );
    let none_given = l.linear_axes.as_ref().is_none_or(Vec::is_empty)
        && l.angular_axes.as_ref().is_none_or(Vec::is_empty);
    if none_given {
        issues.push(Issue::new(Code::OmiLimitNoAxes, pointer));
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
    if l.min.is_none() && l.max.is_none() {
        issues.push(Issue::new(Code::OmiLimitUnbounded, pointer));
    }
    let stiffness = match l.stiffness {
        Some(s) if s < 0.0 => {
            issues.push(
                Issue::new(Code::OmiNegativeSentinel, at("stiffness"))
                    .arg("property", "stiffness")
                    .arg("value", s)
                    .arg("reading", "infinitely stiff"),
            );
            None
        }
        s => s,
    };
    let damping = l.damping.unwrap_or(0.0);
    if damping < 0.0 {
        issues.push(Issue::new(Code::DampingNegative, at("damping")).arg("value", damping));
    }
    [(DofKind::Linear, linear), (DofKind::Angular, angular)]
        .into_iter()
        .filter(|(_, axes)| !axes.is_empty())
        .map(|(kind, axes)| Limit {
            kind,
            axes,
            min: l.min,
            max: l.max,
            stiffness,
            damping,
        })
        .collect()
}

/// One drive; `None` when it is unreadable or of an unknown type or mode (an open enum:
/// `ENUM_UNKNOWN`, the drive is ignored).
fn read_drive(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Drive> {
    object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            "type",
            "mode",
            "axis",
            "maxForce",
            "positionTarget",
            "velocityTarget",
            "stiffness",
            "damping",
        ],
        issues,
    );
    let d = parse::<DriveJson>(value, pointer, issues)?;
    let at = |k: &str| push_pointer(pointer, k);
    let unknown = |key: &str, v: &str, known: &str| {
        Issue::new(Code::EnumUnknown, push_pointer(pointer, key))
            .arg("value", format!("{v:?}"))
            .arg("known", known)
    };
    let kind = match d.kind.as_str() {
        "linear" => Some(DofKind::Linear),
        "angular" => Some(DofKind::Angular),
        other => {
            issues.push(unknown("type", other, "linear, angular"));
            None
        }
    };
    let mode = DriveMode::from_name(&d.mode);
    if mode.is_none() {
        issues.push(unknown("mode", &d.mode, "force, acceleration"));
    }
    let axis = u8::try_from(d.axis).ok().filter(|&a| a <= 2);
    if axis.is_none() {
        issues.push(Issue::new(Code::AxisOutOfRange, at("axis")).arg("axis", d.axis));
    }
    let max_force = match d.max_force {
        Some(f) if f < 0.0 => {
            issues.push(
                Issue::new(Code::OmiNegativeSentinel, at("maxForce"))
                    .arg("property", "maxForce")
                    .arg("value", f)
                    .arg("reading", "not force-limited"),
            );
            None
        }
        f => f,
    };
    let stiffness = d.stiffness.unwrap_or(0.0);
    let stiffness_ok = non_negative(stiffness, at("stiffness"), issues);
    let damping = d.damping.unwrap_or(0.0);
    if damping < 0.0 {
        issues.push(Issue::new(Code::DampingNegative, at("damping")).arg("value", damping));
    }
    if !stiffness_ok || damping < 0.0 {
        return None;
    }
    Some(Drive {
        axis: axis?,
        damping,
        kind: kind?,
        max_force,
        mode: mode?,
        position_target: d.position_target,
        stiffness,
        velocity_target: d.velocity_target,
    })
}

/// Read every joint node into `scene.joints`.
pub(super) fn read_nodes(
    doc: &Document,
    scene: &mut Scene,
    settings: &SettingsTable,
    issues: &mut Issues,
) {
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count().min(scene.nodes.len()) {
        let Some((value, pointer)) = extensions.get(node, JOINT) else {
            continue;
        };
        if object(value, &pointer, issues).is_none() {
            continue;
        }
        check_properties(
            value,
            &pointer,
            &["joint", "connectedNode", "enableCollision"],
            issues,
        );
        let Some(j) = parse::<NodeJointJson>(value, &pointer, issues) else {
            continue;
        };
        let mark = issues.0.len();
        let shared = shared_with(doc, scene, node);
        if !shared.is_empty() {
            issues.push(
                Issue::new(Code::OmiJointNodeShared, &pointer).arg("what", shared.join(", ")),
            );
        }
        let description = settings.len.and_then(|len| {
            crate::ext::check_index(
                j.joint,
                len,
                JOINTS_ARRAY,
                &push_pointer(&pointer, "joint"),
                issues,
            )
        });
        let connected = crate::ext::check_index(
            j.connected_node,
            scene.nodes.len(),
            NODES_ARRAY,
            &push_pointer(&pointer, "connectedNode"),
            issues,
        );
        let body_a = scene.owning_body(node);
        let Some(connected) = connected else {
            continue;
        };
        let body_b = scene.owning_body(connected);
        let dynamic =
            |b: Option<usize>| b.is_some_and(|b| scene.bodies[b].kind == BodyKind::Dynamic);
        if !dynamic(body_a) && body_b.is_some() {
            let issue = if dynamic(body_b) {
                Issue::new(Code::OmiJointNoDynamicAncestor, &pointer).arg("node", node)
            } else {
                Issue::new(Code::OmiJointNoDynamicBody, &pointer)
                    .arg("node", node)
                    .arg("connected", connected)
            };
            issues.push(issue);
        }
        match (body_a, body_b) {
            (_, None) => issues.push(
                Issue::new(
                    Code::OmiJointConnectedNoBody,
                    push_pointer(&pointer, "connectedNode"),
                )
                .arg("node", connected),
            ),
            (Some(a), Some(b)) if a == b => {
                issues.push(
                    Issue::new(
                        Code::OmiJointConnectedSameBody,
                        push_pointer(&pointer, "connectedNode"),
                    )
                    .arg("node", connected)
                    .arg("body", scene.bodies[a].node),
                );
                continue;
            }
            _ => {}
        }
        if !clean_since(issues, mark) {
            continue;
        }
        let Some(index) = description else {
            continue;
        };
        let Some(Some(s)) = settings.items.get(index) else {
            continue; // left out, already reported
        };
        let attachment = |frame: NodeId| Attachment {
            frame,
            body_node: scene.owning_body(frame).map(|b| scene.bodies[b].node),
        };
        let joint = Joint {
            node,
            a: attachment(node),
            b: attachment(connected),
            limits: LimitSet::Coupled(s.limits.clone()),
            drives: s.drives.clone(),
            enable_collision: j.enable_collision,
            description: Some(index),
        };
        scene.joints.push(joint);
    }
}

/// What else node `node` carries that a joint node must not (mesh, camera, other extensions,
/// a physics body or shape).
fn shared_with(doc: &Document, scene: &Scene, node: NodeId) -> Vec<String> {
    let mut what = Vec::new();
    let Some(n) = scene.nodes.get(node) else {
        return what;
    };
    if n.mesh.is_some() {
        what.push("a mesh".to_owned());
    }
    if n.has_camera {
        what.push("a camera".to_owned());
    }
    for key in [BODY, SHAPE] {
        if doc.node_extension(node, key).is_some() {
            what.push(key.to_owned());
        }
    }
    what.extend(n.other_extensions.iter().cloned());
    what
}
