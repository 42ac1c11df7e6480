//! What the reference expects at a pose other than rest (a case's generated poses, local TRS
//! overrides): every joint's limit metrics [D-METRICS] and the VRM constraints' outputs
//! [D-VRM-*]. The corpus writer records them beside the interpretation at rest.

use serde::{Deserialize, Serialize};

use super::World;
use super::joints;
use crate::constraints::{self, ConstraintError};
use crate::math::{array3, xyzw_positive_w};
use crate::metrics::LimitEval;
use crate::poses::Poses;
use crate::scene::{NodeId, Scene, Trs};

/// One joint's limit metrics at a pose [D-METRICS].
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JointLimits {
    pub joint: usize,
    pub limits: Vec<LimitEval>,
    pub node: NodeId,
}

/// Every joint's limit metrics at `poses` [D-METRICS]: its frames where the interpretation
/// places them at that pose ([D-FRAMES], `joints::frames`: an OMI frame is carried by its body
/// from rest, a KHR frame is its node's world pose), from a world that knows only the frames'
/// and their bodies' nodes (`World::of_nodes`). `Err` when the VRM constraints cannot be
/// evaluated: the world at the pose is then undefined. (A scene is read under one profile,
/// and only that profile's extensions are read: it has joints or VRM constraints, never both.)
pub fn joint_limits(scene: &Scene, poses: &Poses) -> Result<Vec<JointLimits>, ConstraintError> {
    let wanted: Vec<NodeId> = scene
        .joints
        .iter()
        .flat_map(|j| [&j.a, &j.b])
        .flat_map(|at| std::iter::once(at.frame).chain(at.body_node))
        .collect();
    let world = World::of_nodes(scene, poses, &wanted)?;
    Ok(scene
        .joints
        .iter()
        .enumerate()
        .map(|(j, joint)| JointLimits {
            joint: j,
            node: joint.node,
            limits: joints::limit_metrics(scene, &world, joint),
        })
        .collect())
}

/// Local TRS of every constrained node after evaluating the VRM constraints at a pose
/// ([D-VRM-*]), or why the reference cannot evaluate them (`{"error": ...}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ConstraintOutputs {
    Nodes(Vec<ConstrainedOutput>),
    Error { error: String },
}

/// One constrained node's local TRS.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConstrainedOutput {
    pub node: NodeId,
    pub rotation: [f64; 4],
    pub scale: [f64; 3],
    pub translation: [f64; 3],
}

/// The VRM constraints' outputs with the local transforms `locals`.
pub fn constraint_outputs(scene: &Scene, locals: &[Trs]) -> ConstraintOutputs {
    match constraints::evaluate(scene, locals) {
        Ok(out) => ConstraintOutputs::Nodes(
            scene
                .constraints
                .iter()
                .filter_map(|c| {
                    let t = out.get(c.node)?;
                    Some(ConstrainedOutput {
                        node: c.node,
                        translation: array3(&t.translation),
                        rotation: xyzw_positive_w(&t.rotation),
                        scale: array3(&t.scale),
                    })
                })
                .collect(),
        ),
        Err(e) => ConstraintOutputs::Error {
            error: e.to_string(),
        },
    }
}
