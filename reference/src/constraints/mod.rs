//! VRM node constraint evaluation [D-VRM-*].
//!
//! The draft leaves the math open; the reference takes the decisions of `reference/DESIGN.md`:
//! everything is relative to the rest pose (the node TRS in the file) [D-VRM-REST], model space
//! is relative to the scene root, and `freezeAxes[i] == true` means axis i IS constrained.
//!
//! - position [D-VRM-POSITION], rotation [D-VRM-ROTATION] and aim [D-VRM-AIM] formulas live in
//!   [`evaluator`];
//! - the dependency order and cycle detection [D-VRM-ORDER] live in [`order`], which the
//!   profile reader uses too, so the rule exists once.
//!
//! Documented fallbacks (never a panic, never a NaN in the output):
//! - a rotation that is not unit length is normalised; a zero or non-finite one is an error;
//! - an aim constraint whose source sits at the destination's position (no direction), at rest
//!   or at the pose, leaves the rest rotation;
//! - a singular parent model matrix (a zero scale) maps a model-space position delta through its
//!   Moore-Penrose pseudo-inverse (the part of the delta the parent can still express), and its
//!   rotation is the identity ([`crate::math::rotation_of`]);
//! - a result that overflows to a non-finite number is an error.

mod aim;
mod evaluator;
mod order;
pub(crate) mod reading;
mod rotvec;

use crate::scene::{NodeId, Scene, Trs};

pub use aim::{AimFrame, AimGeometry};
pub use evaluator::Evaluator;
pub use order::{cycles, dependencies, is_below, order};

/// Which transform of a node an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The rest pose (the TRS in the file).
    Rest,
    /// The local pose given to [`evaluate`].
    Pose,
}

impl std::fmt::Display for Which {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Which::Rest => "rest",
            Which::Pose => "posed",
        })
    }
}

/// Why constraints cannot be evaluated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConstraintError {
    #[error("constraints form a cycle through nodes {nodes:?}")]
    Cycle { nodes: Vec<NodeId> },
    #[error("constraint {constraint}: node {node} does not exist (the scene has {count} nodes)")]
    NodeOutOfRange {
        constraint: usize,
        node: NodeId,
        count: usize,
    },
    #[error("{actual} local poses given for a scene of {expected} nodes")]
    PoseCount { expected: usize, actual: usize },
    #[error("node {node}: the {which} transform has a non-finite component")]
    NonFinite { node: NodeId, which: Which },
    #[error("node {node}: the {which} rotation is the zero quaternion")]
    ZeroRotation { node: NodeId, which: Which },
    #[error("constraint {constraint}: weight {weight} is outside [0, 1]")]
    Weight { constraint: usize, weight: f64 },
    #[error("constraint {constraint}: {problem}")]
    AimGeometry {
        constraint: usize,
        problem: AimGeometry,
    },
    #[error("constraint {constraint}: the result is not finite (the numbers are too large)")]
    NonFiniteResult { constraint: usize },
}

/// Evaluate every constraint at the given local poses (one [`Trs`] per node, e.g. from
/// [`crate::poses::Poses::locals`]), returning the local TRS of every node after evaluation
/// (constrained nodes changed, the others as given, rotations normalised).
pub fn evaluate(scene: &Scene, locals: &[Trs]) -> Result<Vec<Trs>, ConstraintError> {
    Evaluator::new(scene)?.evaluate(locals)
}
