//! World poses of every node, at rest and at given poses [D-FRAMES].
//!
//! World transforms come from the node hierarchy (TRS or matrix nodes); a pose is the rigid part
//! of a world matrix (`math::pose_of`: scale and shear dropped). The posed locals are the rest
//! TRS with the overrides applied, then the VRM constraints evaluated on them, so every
//! downstream value (joint frames, limit metrics) sees the same pose of the scene.

use nalgebra::{Isometry3, Matrix4};
use serde::Serialize;

use crate::constraints::{self, ConstraintError};
use crate::math::pose_of;
use crate::poses::Poses;
use crate::scene::{NodeId, Scene, Trs};

use super::json;

/// World matrices at rest and at the given poses.
#[derive(Clone, Debug)]
pub struct World {
    pub rest: Vec<Matrix4<f64>>,
    /// Every node's local TRS at the given poses, after constraint evaluation.
    pub posed_locals: Vec<Trs>,
    pub posed: Vec<Matrix4<f64>>,
}

impl World {
    /// Rest world matrices, and world matrices at `poses` after VRM constraint evaluation.
    pub fn new(scene: &Scene, poses: &Poses) -> Result<World, ConstraintError> {
        let overridden = poses.locals(scene);
        let posed_locals = if scene.constraints.is_empty() {
            overridden
        } else {
            constraints::evaluate(scene, &overridden)?
        };
        let matrices: Vec<Matrix4<f64>> = posed_locals.iter().map(Trs::matrix).collect();
        Ok(World {
            rest: scene.rest_world(),
            posed: scene.world_from_locals(&matrices),
            posed_locals,
        })
    }

    /// Rest world pose of a node; the identity for the world (`None`) or an unknown node.
    pub fn rest_pose(&self, node: Option<NodeId>) -> Isometry3<f64> {
        node.and_then(|n| self.rest.get(n))
            .map_or_else(Isometry3::identity, pose_of)
    }

    /// World pose of a node at the given poses; the identity for the world or an unknown node.
    pub fn posed_pose(&self, node: Option<NodeId>) -> Isometry3<f64> {
        node.and_then(|n| self.posed.get(n))
            .map_or_else(Isometry3::identity, pose_of)
    }

    /// The rest pose of `node` relative to the rest pose of `body` (the world when `None`):
    /// `pose(body)^-1 * pose(node)`. Rigid parts first, so a scaled body gives the scaled offset
    /// the engine's rigid frame sees.
    pub fn rest_relative(&self, body: Option<NodeId>, node: NodeId) -> Isometry3<f64> {
        self.rest_pose(body).inv_mul(&self.rest_pose(Some(node)))
    }
}

/// One node's world pose at rest and at the given poses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodePose {
    pub node: NodeId,
    pub name: Option<String>,
    #[serde(serialize_with = "json::pose")]
    pub rest: Isometry3<f64>,
    #[serde(serialize_with = "json::pose")]
    pub posed: Isometry3<f64>,
}

/// World poses of every node of the default scene.
pub fn node_poses(scene: &Scene, world: &World) -> Vec<NodePose> {
    scene
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.in_scene)
        .map(|(i, n)| NodePose {
            node: i,
            name: n.name.clone(),
            rest: world.rest_pose(Some(i)),
            posed: world.posed_pose(Some(i)),
        })
        .collect()
}
