//! Joint descriptions (`physicsJoints[]`: limits and drives) and node joint objects as both
//! families write them. Each reader keeps its own rules for what a limit's axes mean and for
//! `maxForce`; the parsed objects, the axis and damping checks and the reading of a drive's
//! `type`, `mode`, `axis`, `stiffness` and `damping` are one.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::issue::{Code, Issue, Issues, Token, push_pointer};
use crate::scene::{DofKind, Drive, DriveMode, Limit};

use super::{Spelling, enum_unknown, non_negative};

/// A joint description as read: limits and drives, ready to copy into each joint using it.
#[derive(Debug, Clone, PartialEq)]
pub struct Description {
    pub limits: Vec<Limit>,
    pub drives: Vec<Drive>,
}

/// A limit object.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LimitJson {
    pub linear_axes: Option<Vec<i64>>,
    pub angular_axes: Option<Vec<i64>>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
}

/// A drive object; `S` and `A` are how a family's schema types `type`/`mode` and `axis`
/// (required in OMI's: a missing one is a parse error there).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DriveJson<S, A> {
    #[serde(rename = "type")]
    pub kind: S,
    pub mode: S,
    pub axis: A,
    pub max_force: Option<f64>,
    pub position_target: Option<f64>,
    pub velocity_target: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
}

/// A node's joint object; `I` is how a family's schema types the two indices (required in
/// OMI's), `E` `enableCollision` (default false).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeJointJson<I, E> {
    pub joint: I,
    pub connected_node: I,
    #[serde(default)]
    pub enable_collision: E,
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

impl Spelling {
    /// The limit at `pointer`, parsed (`None`: not an object or unreadable, an issue says why).
    pub fn parse_limit(
        &self,
        value: &Value,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<LimitJson> {
        self.parse_object(value, pointer, LIMIT_PROPERTIES, issues)
    }

    /// The drive at `pointer`, parsed.
    pub fn parse_drive<S: DeserializeOwned, A: DeserializeOwned>(
        &self,
        value: &Value,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<DriveJson<S, A>> {
        self.parse_object(value, pointer, DRIVE_PROPERTIES, issues)
    }
}

/// `LIMIT_MIN_ABOVE_MAX` at `pointer` when the limit's `min` is above its `max`.
pub fn check_min_max(l: &LimitJson, pointer: &str, issues: &mut Issues) {
    if let (Some(min), Some(max)) = (l.min, l.max)
        && min > max
    {
        issues.push(
            Issue::new(Code::LimitMinAboveMax, pointer)
                .arg("min", min)
                .arg("max", max),
        );
    }
}

/// An axis index in 0..=2, else `AXIS_OUT_OF_RANGE` at `pointer/token` (written only then).
pub fn axis_index(
    axis: i64,
    (pointer, token): (&str, impl Token),
    issues: &mut Issues,
) -> Option<u8> {
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
pub fn check_damping(damping: f64, pointer: &str, issues: &mut Issues) -> bool {
    if damping < 0.0 {
        let at = push_pointer(pointer, "damping");
        issues.push(Issue::new(Code::DampingNegative, at).arg("value", damping));
        return false;
    }
    true
}

/// A drive once its reader has checked its own rules: `type`, `mode` and `axis` as given (an
/// unknown type or mode is `ENUM_UNKNOWN`, a warning), `maxForce` read by `max_force` (the
/// value kept and whether it is valid), stiffness and damping default 0 and at least 0. `None`
/// when it has an error or an unknown type or mode (the drive is ignored).
pub fn drive<S, A>(
    d: &DriveJson<S, A>,
    (kind, mode, axis): (Option<&str>, Option<&str>, Option<i64>),
    pointer: &str,
    max_force: impl FnOnce(Option<f64>, &mut Issues) -> (Option<f64>, bool),
    issues: &mut Issues,
) -> Option<Drive> {
    let at = |key: &str| push_pointer(pointer, key);
    let kind = kind.and_then(|k| match k {
        "linear" => Some(DofKind::Linear),
        "angular" => Some(DofKind::Angular),
        other => {
            issues.push(enum_unknown(&at("type"), other, &DRIVE_TYPES));
            None
        }
    });
    let mode = mode.and_then(|m| {
        let mode = DriveMode::from_name(m);
        if mode.is_none() {
            issues.push(enum_unknown(&at("mode"), m, &DRIVE_MODES));
        }
        mode
    });
    let axis = axis.and_then(|a| axis_index(a, (pointer, "axis"), issues));
    let (max_force, max_force_ok) = max_force(d.max_force, issues);
    let stiffness = d.stiffness.unwrap_or(0.0);
    let stiffness_ok = non_negative(stiffness, pointer, "stiffness", issues);
    let damping = d.damping.unwrap_or(0.0);
    let damping_ok = check_damping(damping, pointer, issues);
    if !(max_force_ok && stiffness_ok && damping_ok) {
        return None;
    }
    Some(Drive {
        kind: kind?,
        mode: mode?,
        axis: axis?,
        max_force,
        position_target: d.position_target,
        velocity_target: d.velocity_target,
        stiffness,
        damping,
    })
}
