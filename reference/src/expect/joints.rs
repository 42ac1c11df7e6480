//! Expected joints: the two bodies, both attachment frames, limits and drives in canonical form,
//! and the limits evaluated at given poses [D-FRAMES], [D-METRICS].
//!
//! KHR frames are real nodes (the joint node and `connectedNode`): at given poses a frame is
//! wherever its node is. An OMI joint node sits between its two bodies: its rest pose relative
//! to each body is that body's attachment, carried by the body at the given poses (so the two
//! frames separate when the bodies move apart).

use nalgebra::{Isometry3, UnitQuaternion};
use serde::{Deserialize, Serialize};

use crate::decision::Decision;
use crate::metrics;
use crate::profile::Profile;
use crate::scene::{Attachment, BodyId, DofKind, Drive, Joint, Limit, LimitSet, NodeId, Scene};

use super::json;
use super::world::World;

/// How an attachment frame moves at given poses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRule {
    /// The frame is its node's world pose (KHR).
    Node,
    /// The frame is its rest pose relative to the body, carried by the body (OMI).
    CarriedByBody,
}

impl FrameRule {
    pub fn of(profile: Profile) -> FrameRule {
        match profile {
            Profile::Omi2023 => FrameRule::CarriedByBody,
            Profile::Khr2024Draft
            | Profile::Khr2025
            | Profile::Khr2026
            | Profile::VrmcConstraintsDraft
            | Profile::Omi2024
            | Profile::Omi2025
            | Profile::VrmcNodeConstraint10 => FrameRule::Node,
        }
    }
}

/// The world pose of an attachment frame when its body is at `body` (the identity for a
/// frame without a body: the world): the body's pose times the frame's rest pose relative to
/// it. This is how a frame moves with its body in a simulation, whatever the profile's rule
/// at a pose. The relative rotation is renormalised: it may have been read back from the
/// decimals of a case file.
pub fn place(frame: &FrameExpect, body: &Isometry3<f64>) -> Isometry3<f64> {
    let r = &frame.relative;
    let rotation = UnitQuaternion::new_normalize(r.rotation.into_inner());
    body * Isometry3::from_parts(r.translation, rotation)
}

/// One attachment frame.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameExpect {
    /// The body the frame moves with; `None`: the world.
    pub body: Option<BodyId>,
    pub body_node: Option<NodeId>,
    /// The node whose rest pose defines the frame.
    pub node: NodeId,
    /// The frame relative to its body at rest (world pose when static).
    #[serde(with = "json::pose")]
    pub relative: Isometry3<f64>,
    /// The frame's world pose at the given poses.
    #[serde(with = "json::pose")]
    pub world: Isometry3<f64>,
}

/// One limit in canonical form, evaluated at the given poses.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitExpect {
    pub axes: Vec<u8>,
    pub damping: f64,
    /// Position in the joint's limit list.
    pub index: usize,
    pub kind: DofKind,
    pub max: Option<f64>,
    pub metric: f64,
    pub min: Option<f64>,
    /// Per-axis (OMI) only: a later constraint of the same kind limits the same axis, so this
    /// one does not apply ("later constraints override the previous ones").
    pub overridden: bool,
    /// `None`: a hard limit.
    pub stiffness: Option<f64>,
    /// How far the metric is outside `[min, max]`: 0 inside, `metric - max` (> 0) above,
    /// `metric - min` (< 0) below (`metrics::violation`).
    pub violation: f64,
}

impl LimitExpect {
    /// The limit itself, without what the evaluation adds.
    pub fn limit(&self) -> Limit {
        Limit {
            kind: self.kind,
            axes: self.axes.clone(),
            min: self.min,
            max: self.max,
            stiffness: self.stiffness,
            damping: self.damping,
        }
    }
}

/// Whether the axes of each limit are coupled (KHR) or each limited on its own (OMI)
/// [D-OMI-PER-AXIS].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Coupling {
    Coupled,
    PerAxis,
}

impl Coupling {
    /// The serialised name (`coupled`, `per_axis`).
    pub fn name(self) -> &'static str {
        match self {
            Coupling::Coupled => "coupled",
            Coupling::PerAxis => "per_axis",
        }
    }
}

/// What an importer must end up with for one joint.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointExpect {
    /// Bodies of frame A and frame B (indices into `bodies`; `None`: the world).
    pub bodies: [Option<BodyId>; 2],
    pub coupling: Coupling,
    pub decisions: Vec<Decision>,
    pub drives: Vec<Drive>,
    pub enable_collision: bool,
    pub frames: [FrameExpect; 2],
    pub limits: Vec<LimitExpect>,
    /// The node with the joint extension.
    pub node: NodeId,
}

/// One attachment frame of a joint under `rule`.
pub fn frame(scene: &Scene, world: &World, rule: FrameRule, at: &Attachment) -> FrameExpect {
    let relative = world.rest_relative(at.body_node, at.frame);
    let posed = match rule {
        FrameRule::Node => world.posed_pose(Some(at.frame)),
        FrameRule::CarriedByBody => world.posed_pose(at.body_node) * relative,
    };
    FrameExpect {
        node: at.frame,
        body: at.body_node.and_then(|n| scene.body_at(n)),
        body_node: at.body_node,
        relative,
        world: posed,
    }
}

/// The joint's two attachment frames (A, B) under its profile's rule [D-FRAMES].
pub fn frames(scene: &Scene, world: &World, j: &Joint) -> [FrameExpect; 2] {
    let rule = FrameRule::of(scene.profile);
    [
        frame(scene, world, rule, &j.a),
        frame(scene, world, rule, &j.b),
    ]
}

/// The joint's limit metrics in `world` [D-METRICS], its frames placed by [`frames`].
pub fn limit_metrics(scene: &Scene, world: &World, j: &Joint) -> Vec<metrics::LimitEval> {
    let [a, b] = frames(scene, world, j);
    metrics::evaluate(&j.limits, &a.world, &b.world)
}

/// The expectation of one joint.
pub fn joint(scene: &Scene, world: &World, j: &Joint) -> JointExpect {
    let frames = frames(scene, world, j);
    let limits = j.limits.limits();
    let evaluated = metrics::evaluate(&j.limits, &frames[0].world, &frames[1].world);
    let overridden = |e: &metrics::LimitEval| {
        matches!(j.limits, LimitSet::PerAxis(_))
            && evaluated
                .iter()
                .any(|o| o.index > e.index && o.kind == e.kind && o.axes == e.axes)
    };
    let limits: Vec<LimitExpect> = evaluated
        .iter()
        .map(|e| {
            let given = limits.get(e.index);
            LimitExpect {
                index: e.index,
                kind: e.kind,
                axes: e.axes.clone(),
                min: e.min,
                max: e.max,
                stiffness: given.and_then(|l| l.stiffness),
                damping: given.map_or(0.0, |l| l.damping),
                metric: e.metric,
                violation: e.violation,
                overridden: overridden(e),
            }
        })
        .collect();
    let coupling = match j.limits {
        LimitSet::Coupled(_) => Coupling::Coupled,
        LimitSet::PerAxis(_) => Coupling::PerAxis,
    };
    let mut decisions = if scene.profile.is_omi24() {
        vec![
            Decision::Metrics,
            Decision::OmiLimits,
            Decision::OmiJointFrames,
        ]
    } else {
        vec![
            Decision::OmiPerAxis,
            Decision::LimitDefaults,
            Decision::Frames,
            Decision::Metrics,
        ]
    };
    // A single angular axis (every angular axis of a per-axis set) is measured as a signed twist.
    if j.limits
        .limits()
        .iter()
        .any(|l| l.kind == DofKind::Angular && (l.axes.len() == 1 || coupling == Coupling::PerAxis))
    {
        decisions.push(Decision::TwistSigned);
    }
    decisions.sort();
    JointExpect {
        node: j.node,
        bodies: [frames[0].body, frames[1].body],
        frames,
        coupling,
        limits,
        drives: j.drives.clone(),
        enable_collision: j.enable_collision,
        decisions,
    }
}

/// Every joint of the scene.
pub fn joints(scene: &Scene, world: &World) -> Vec<JointExpect> {
    scene
        .joints
        .iter()
        .map(|j| joint(scene, world, j))
        .collect()
}
