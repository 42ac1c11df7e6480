//! What the reference expects at a pose other than rest (a case's generated poses, local TRS
//! overrides): every joint's limit metrics [D-METRICS] and the VRM constraints' outputs
//! [D-VRM-*]. The corpus writer records them beside the interpretation at rest.

use serde::Serialize;

use crate::constraints;
use crate::math::{array3, pose_of, xyzw_positive_w};
use crate::metrics::{self, LimitEval};
use crate::scene::{NodeId, Scene, Trs};

/// One joint's limit metrics at a pose [D-METRICS].
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JointLimits {
    pub joint: usize,
    pub limits: Vec<LimitEval>,
    pub node: NodeId,
}

/// Every joint's limit metrics with the local transforms `locals` [D-METRICS]: each frame is
/// its node's world pose (`math::pose_of` of its world matrix: scale and shear dropped).
pub fn joint_limits(scene: &Scene, locals: &[Trs]) -> Vec<JointLimits> {
    let frames = scene.joints.iter().flat_map(|j| [j.a.frame, j.b.frame]);
    let world = scene.world_of_nodes(|n| locals[n].matrix(), frames);
    let frame = |n: usize| world.get(n).copied().flatten().as_ref().map(pose_of);
    scene
        .joints
        .iter()
        .enumerate()
        .filter_map(|(j, joint)| {
            let (a, b) = (frame(joint.a.frame)?, frame(joint.b.frame)?);
            Some(JointLimits {
                joint: j,
                node: joint.node,
                limits: metrics::evaluate(&joint.limits, &a, &b),
            })
        })
        .collect()
}

/// Local TRS of every constrained node after evaluating the VRM constraints at a pose
/// ([D-VRM-*]), or why the reference cannot evaluate them (`{"error": ...}`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum ConstraintOutputs {
    Nodes(Vec<ConstrainedOutput>),
    Error { error: String },
}

/// One constrained node's local TRS.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize)]
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
