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

use crate::document::Document;
use crate::ext::check_properties;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::omi::{BODY, JOINT, SHAPE};
use crate::rigid::joint::{
    Description, NodeJointJson, axis_index, check_damping, check_min_max, drive,
};
use crate::scene::{Attachment, BodyKind, DofKind, Joint, Limit, LimitSet, NodeId, Scene};
use serde_json::Value;

use super::{JOINTS_ARRAY, NODES_ARRAY, SPELLING, Table, clean_since};

/// Read the document-level `physicsJoints`.
pub(super) fn read_settings(doc: &Document, issues: &mut Issues) -> Table<Description> {
    let Some((value, pointer)) = doc.root_extension(JOINT) else {
        return Table::empty();
    };
    let Some(root) = SPELLING.object(value, &pointer, issues) else {
        return Table::unknown();
    };
    check_properties(value, &pointer, &["physicsJoints"], issues);
    let Some((list, at)) = SPELLING.array(root, &pointer, "physicsJoints", issues) else {
        return Table::unknown();
    };
    Table::read(list, &at, issues, read_one)
}

fn read_one(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Description> {
    let root = SPELLING.object(value, pointer, issues)?;
    check_properties(value, pointer, &["limits", "drives"], issues);
    let mark = issues.0.len();
    let (limits_json, limits_at) = SPELLING.array(root, pointer, "limits", issues)?;
    let (drives_json, drives_at) = SPELLING.array(root, pointer, "drives", issues)?;
    if limits_json.is_empty() && drives_json.is_empty() {
        issues.push(Issue::new(Code::OmiJointSettingsEmpty, pointer));
    }
    let mut limits = Vec::new();
    for (i, v) in limits_json.iter().enumerate() {
        limits.extend(read_limit(v, &push_pointer(&limits_at, i), issues));
    }
    let mut drives = Vec::new();
    for (i, v) in drives_json.iter().enumerate() {
        let at = push_pointer(&drives_at, i);
        let Some(d) = SPELLING.parse_drive::<String, i64>(v, &at, issues) else {
            continue;
        };
        let given = (Some(d.kind.as_str()), Some(d.mode.as_str()), Some(d.axis));
        drives.extend(drive(
            &d,
            given,
            &at,
            |f, issues| max_force(f, &at, issues),
            issues,
        ));
    }
    clean_since(issues, mark).then_some(Description { limits, drives })
}

/// Axis indices, each 0..=2 and listed once (`AXIS_OUT_OF_RANGE`, `AXIS_DUPLICATE`).
fn axes(list: &[i64], pointer: &str, issues: &mut Issues) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::with_capacity(list.len());
    for (i, &a) in list.iter().enumerate() {
        match axis_index(a, (pointer, i), issues) {
            None => {}
            Some(a) if out.contains(&a) => {
                let at = push_pointer(pointer, i);
                issues.push(Issue::new(Code::AxisDuplicate, at).arg("axis", a));
            }
            Some(a) => out.push(a),
        }
    }
    out
}

/// One limit: one [`Limit`] per non-empty axis list.
fn read_limit(value: &Value, pointer: &str, issues: &mut Issues) -> Vec<Limit> {
    let Some(l) = SPELLING.parse_limit(value, pointer, issues) else {
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
    check_min_max(&l, pointer, issues);
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
    check_damping(damping, pointer, issues);
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

/// A drive's `maxForce`: a negative one is the schema's sentinel for "not force-limited"
/// (`OMI_NEGATIVE_SENTINEL`, a warning).
fn max_force(f: Option<f64>, pointer: &str, issues: &mut Issues) -> (Option<f64>, bool) {
    match f {
        Some(f) if f < 0.0 => {
            issues.push(
                Issue::new(Code::OmiNegativeSentinel, push_pointer(pointer, "maxForce"))
                    .arg("property", "maxForce")
                    .arg("value", f)
                    .arg("reading", "not force-limited"),
            );
            (None, true)
        }
        f => (f, true),
    }
}

/// Read every joint node into `scene.joints`.
pub(super) fn read_nodes(
    doc: &Document,
    scene: &mut Scene,
    settings: &Table<Description>,
    issues: &mut Issues,
) {
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count().min(scene.nodes.len()) {
        let Some((value, pointer)) = extensions.get(node, JOINT) else {
            continue;
        };
        let properties = ["joint", "connectedNode", "enableCollision"];
        let parsed = SPELLING.parse_object(value, &pointer, &properties, issues);
        let Some(j): Option<NodeJointJson<usize, bool>> = parsed else {
            continue;
        };
        let mark = issues.0.len();
        let shared = shared_with(doc, scene, node);
        if !shared.is_empty() {
            issues.push(
                Issue::new(Code::OmiJointNodeShared, &pointer).arg("what", shared.join(", ")),
            );
        }
        let description = settings.index(j.joint, JOINTS_ARRAY, (&pointer, "joint"), issues);
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
        let Some(s) = settings.get(index) else {
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
