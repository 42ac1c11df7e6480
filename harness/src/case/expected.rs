//! The reference's expected interpretation of a case, as written in `<id>.expect.json` by the
//! generator (the JSON of `reference::expect::Expectation`): only the parts the checks compare,
//! read leniently.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::implementation::Pose;

/// A scalar mass property as the reference gives it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum MassValue {
    /// Not given in the file: the engine computes it (nothing to compare).
    EngineComputes,
    Infinite,
    Finite(f64),
}

impl std::fmt::Display for MassValue {
    /// For people: `2.5`, `infinite`, `engine-computed` (not `Finite(2.5)`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MassValue::EngineComputes => f.write_str("engine-computed"),
            MassValue::Infinite => f.write_str("infinite"),
            MassValue::Finite(x) => f.write_str(&crate::report::number(*x)),
        }
    }
}

/// KHR principal moments and their orientation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Principal {
    pub moments: [MassValue; 3],
    pub orientation: [f64; 4],
}

/// Inertia in the body's local frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum InertiaExpect {
    EngineComputes,
    Given {
        #[serde(default)]
        principal: Option<Principal>,
        /// Rows of the inverse tensor (infinite moments give 0); `None` when it does not exist.
        #[serde(default)]
        inverse_tensor: Option<[[f64; 3]; 3]>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyExpect {
    pub node: usize,
    /// `static`, `kinematic`, `dynamic`.
    pub kind: String,
    /// World pose at rest.
    pub pose: Pose,
    pub mass: MassValue,
    #[serde(default)]
    pub center_of_mass: Option<[f64; 3]>,
    pub inertia: InertiaExpect,
    pub linear_velocity: [f64; 3],
    pub angular_velocity: [f64; 3],
    #[serde(default)]
    pub decisions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColliderExpect {
    pub node: usize,
    /// The node of the owning body; `None`: static.
    #[serde(default)]
    pub body_node: Option<usize>,
    pub trigger: bool,
    /// Relative to the owning body (world when static), at rest.
    pub pose: Pose,
    /// `{"type": "sphere", "radius": ...}` and so on (`reference::scene::Shape`).
    #[serde(default)]
    pub shape: Option<Value>,
    #[serde(default)]
    pub decisions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrictionExpect {
    #[serde(default, rename = "static")]
    pub static_friction: Option<f64>,
    #[serde(default, rename = "dynamic")]
    pub dynamic_friction: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CombinedExpect {
    #[serde(default)]
    pub value: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairExpect {
    /// Collider nodes, in collider order.
    pub nodes: [usize; 2],
    pub friction: FrictionExpect,
    pub restitution: CombinedExpect,
    /// The pair generates contacts.
    pub contact: bool,
    #[serde(default)]
    pub overlap: bool,
    #[serde(default)]
    pub decisions: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameExpect {
    pub node: usize,
    #[serde(default)]
    pub body_node: Option<usize>,
    /// The frame relative to its body at rest (world pose when static).
    pub relative: Pose,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitExpect {
    /// `linear` or `angular`.
    pub kind: String,
    pub axes: Vec<u8>,
    #[serde(default)]
    pub min: Option<f64>,
    #[serde(default)]
    pub max: Option<f64>,
    /// `None`: a hard limit.
    #[serde(default)]
    pub stiffness: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DriveExpect {
    /// `linear` or `angular`.
    #[serde(rename = "kind")]
    pub dof: String,
    pub axis: u8,
    #[serde(default)]
    pub position_target: Option<f64>,
    #[serde(default)]
    pub velocity_target: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointExpect {
    pub node: usize,
    pub frames: [FrameExpect; 2],
    /// `coupled` (KHR) or `per_axis` (OMI) [D-OMI-PER-AXIS].
    pub coupling: String,
    #[serde(default)]
    pub limits: Vec<LimitExpect>,
    #[serde(default)]
    pub drives: Vec<DriveExpect>,
    #[serde(default)]
    pub decisions: Vec<String>,
}

/// What a conforming importer must end up with after load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExpectedInterpretation {
    #[serde(default)]
    pub bodies: Vec<BodyExpect>,
    #[serde(default)]
    pub colliders: Vec<ColliderExpect>,
    #[serde(default)]
    pub pairs: Vec<PairExpect>,
    #[serde(default)]
    pub joints: Vec<JointExpect>,
}

impl ExpectedInterpretation {
    pub fn body(&self, node: usize) -> Option<&BodyExpect> {
        self.bodies.iter().find(|b| b.node == node)
    }

    pub fn joint(&self, node: usize) -> Option<&JointExpect> {
        self.joints.iter().find(|j| j.node == node)
    }
}
