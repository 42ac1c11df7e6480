//! Expected interpretation of a scene: what a conforming importer must end up with, per profile.
//!
//! [`evaluate`] computes, from a [`Scene`] and pose overrides, the world pose of every node, each
//! body's kind, mass properties and world-space initial velocities, each collider's owner,
//! relative pose and shape, every pair of colliders' combined materials and filter verdict,
//! every joint's frames with its limits evaluated, and the local TRS of every VRM-constrained
//! node. Every value that rests on a documented decision cites its id.

pub mod at_pose;
pub mod bodies;
pub mod colliders;
pub mod combine;
pub mod filter;
pub mod invariants;
pub mod joints;
pub mod json;
pub mod pairs;
pub mod predict;
pub mod world;

use std::collections::BTreeSet;

use nalgebra::{UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use crate::decision::{Decision, DecisionSet};
use crate::poses::Poses;
use crate::profile::Profile;
use crate::scene::{NodeId, Scene};

pub use bodies::BodyExpect;
pub use colliders::{ColliderExpect, CompoundTriggerExpect, ScaledShape, Unabsorbed};
pub use joints::JointExpect;
pub use pairs::PairExpect;
pub use world::{NodePose, World};

pub use crate::constraints::ConstraintError;

/// Everything a conforming importer must end up with for one scene at given poses.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
/// Read back (a case file), a list that is not there is empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Expectation {
    #[serde(default)]
    pub bodies: Vec<BodyExpect>,
    #[serde(default)]
    pub colliders: Vec<ColliderExpect>,
    #[serde(default)]
    pub compound_triggers: Vec<CompoundTriggerExpect>,
    /// Local TRS of every VRM-constrained node after evaluation at the given poses.
    #[serde(default)]
    pub constraints: Vec<ConstrainedNode>,
    /// Every decision some value of this expectation rests on, in catalogue order.
    #[serde(default)]
    pub decisions: Vec<Decision>,
    #[serde(default)]
    pub joints: Vec<JointExpect>,
    /// World poses of the nodes of the default scene, at rest and at the given poses.
    #[serde(default)]
    pub nodes: Vec<NodePose>,
    #[serde(default)]
    pub pairs: Vec<PairExpect>,
    pub profile: Profile,
}

impl Expectation {
    /// The body at `node`.
    pub fn body(&self, node: NodeId) -> Option<&BodyExpect> {
        self.bodies.iter().find(|b| b.node == node)
    }

    /// The joint at `node`.
    pub fn joint(&self, node: NodeId) -> Option<&JointExpect> {
        self.joints.iter().find(|j| j.node == node)
    }
}

/// One constrained node's local TRS after constraint evaluation.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConstrainedNode {
    pub decisions: Vec<Decision>,
    pub node: NodeId,
    #[serde(with = "json::quat")]
    pub rotation: UnitQuaternion<f64>,
    #[serde(with = "json::vec3")]
    pub scale: Vector3<f64>,
    #[serde(with = "json::vec3")]
    pub translation: Vector3<f64>,
}

/// The decisions VRM constraint outputs rest on.
const VRM_DECISIONS: &[Decision] = &[
    Decision::VrmRest,
    Decision::VrmPosition,
    Decision::VrmRotation,
    Decision::VrmAim,
    Decision::VrmOrder,
];

/// The expected interpretation of `scene` at `poses` (local TRS overrides; other nodes at rest).
/// Fails only when VRM constraint evaluation fails (a scene with validation errors).
pub fn evaluate(scene: &Scene, poses: &Poses) -> Result<Expectation, ConstraintError> {
    let world = World::new(scene, poses)?;
    let destinations: BTreeSet<NodeId> = scene.constraints.iter().map(|c| c.node).collect();
    let constraints: Vec<ConstrainedNode> = destinations
        .into_iter()
        .filter_map(|node| {
            world.posed_locals.get(node).map(|t| ConstrainedNode {
                node,
                translation: t.translation,
                rotation: t.rotation,
                scale: t.scale,
                decisions: VRM_DECISIONS.to_vec(),
            })
        })
        .collect();
    let mut e = Expectation {
        profile: scene.profile,
        decisions: Vec::new(),
        nodes: world::node_poses(scene, &world),
        bodies: bodies::bodies(scene, &world),
        colliders: colliders::colliders(scene, &world),
        compound_triggers: colliders::compound_triggers(scene),
        pairs: pairs::pairs(scene),
        joints: joints::joints(scene, &world),
        constraints,
    };
    // A set, not a `BTreeSet`: a scene's pairs alone cite a few hundred decisions, nearly all
    // the same few.
    let mut all: DecisionSet = (e.bodies.iter().flat_map(|b| &b.decisions))
        .chain(e.colliders.iter().flat_map(|c| &c.decisions))
        .chain(e.joints.iter().flat_map(|j| &j.decisions))
        .chain(e.constraints.iter().flat_map(|c| &c.decisions))
        .copied()
        .collect();
    for p in &e.pairs {
        all = all.union(p.decisions);
    }
    e.decisions = all.iter().collect();
    Ok(e)
}

/// The README table of every decision (id and text), generated from [`Decision::ALL`] so the
/// documentation cannot drift from the code.
pub fn decisions_markdown() -> String {
    let mut out = String::from("| id | decision |\n| --- | --- |\n");
    for d in Decision::ALL {
        out.push_str(&format!(
            "| `{}` | {} |\n",
            d.id(),
            d.text().replace('|', "\\|")
        ));
    }
    out
}
