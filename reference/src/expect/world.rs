//! World poses of every node, at rest and at given poses [D-FRAMES].
//!
//! World transforms come from the node hierarchy (TRS or matrix nodes); a pose is the rigid part
//! of a world matrix (`math::pose_of`: scale and shear dropped). The posed locals are the rest
//! TRS with the overrides applied, then the VRM constraints evaluated on them, so every
//! downstream value (joint frames, limit metrics) sees the same pose of the scene.

use nalgebra::{Isometry3, Matrix4};
use serde::{Deserialize, Serialize};

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
    /// `pose_of` every rest matrix, computed once per scene: a pose's rotation normalises and
    /// checks the columns (or iterates, for shear), and every body, collider, joint frame and
    /// node asks for poses.
    rest_poses: Vec<Isometry3<f64>>,
    /// `pose_of` every posed matrix (the rest pose's, bit for bit, where the matrix is the
    /// rest matrix bit for bit).
    posed_poses: Vec<Isometry3<f64>>,
}

/// The same matrix bit for bit (so any function of it gives the same result).
fn same_bits(a: &Matrix4<f64>, b: &Matrix4<f64>) -> bool {
    a.iter()
        .zip(b.iter())
        .all(|(x, y)| x.to_bits() == y.to_bits())
}

/// Every node's local TRS at `poses`: the overrides applied, then the VRM constraints evaluated.
fn posed_locals(scene: &Scene, poses: &Poses) -> Result<Vec<Trs>, ConstraintError> {
    let overridden = poses.locals(scene);
    if scene.constraints.is_empty() {
        Ok(overridden)
    } else {
        constraints::evaluate(scene, &overridden)
    }
}

/// The pose of the posed matrix `posed`: the rest pose `rest_pose` of the rest matrix `rest`
/// when the two matrices are the same bit for bit (no second `pose_of`).
fn pose_of_posed(
    posed: &Matrix4<f64>,
    rest: &Matrix4<f64>,
    rest_pose: &Isometry3<f64>,
) -> Isometry3<f64> {
    if same_bits(posed, rest) {
        *rest_pose
    } else {
        pose_of(posed)
    }
}

impl World {
    /// Rest world matrices, and world matrices at `poses` after VRM constraint evaluation.
    pub fn new(scene: &Scene, poses: &Poses) -> Result<World, ConstraintError> {
        let posed_locals = posed_locals(scene, poses)?;
        let rest = scene.rest_world();
        let rest_poses: Vec<Isometry3<f64>> = rest.iter().map(pose_of).collect();
        // Without overrides or constraints the posed locals are the rest TRS, so the posed
        // matrices and poses are the rest ones bit for bit: the expectation at rest, which is
        // every corpus case's, computes them once.
        let (posed, posed_poses) = if poses.is_rest() && scene.constraints.is_empty() {
            (rest.clone(), rest_poses.clone())
        } else {
            let matrices: Vec<Matrix4<f64>> = posed_locals.iter().map(Trs::matrix).collect();
            let posed = scene.world_from_locals(&matrices);
            let posed_poses = posed
                .iter()
                .zip(&rest)
                .zip(&rest_poses)
                .map(|((p, r), pose)| pose_of_posed(p, r, pose))
                .collect();
            (posed, posed_poses)
        };
        Ok(World {
            rest,
            posed,
            posed_locals,
            rest_poses,
            posed_poses,
        })
    }

    /// [`World::new`] for the nodes `wanted` alone: their ancestors' matrices are computed on
    /// the way, every other node is left at the identity, and only the wanted nodes have poses
    /// (bit for bit those of [`World::new`]). What the joint frames at a case's poses need
    /// ([`super::at_pose`]): a few nodes' poses, not every node's at every pose.
    pub(super) fn of_nodes(
        scene: &Scene,
        poses: &Poses,
        wanted: &[NodeId],
    ) -> Result<World, ConstraintError> {
        let posed_locals = posed_locals(scene, poses)?;
        let known = |m: Vec<Option<Matrix4<f64>>>| -> Vec<Matrix4<f64>> {
            m.into_iter()
                .map(|m| m.unwrap_or_else(Matrix4::identity))
                .collect()
        };
        let wanted_nodes = || wanted.iter().copied();
        let rest = known(scene.world_of_nodes(|n| scene.nodes[n].rest.matrix(), wanted_nodes()));
        let posed = known(scene.world_of_nodes(|n| posed_locals[n].matrix(), wanted_nodes()));
        let mut rest_poses = vec![Isometry3::identity(); rest.len()];
        let mut posed_poses = rest_poses.clone();
        for n in wanted_nodes().filter(|&n| n < rest.len()) {
            rest_poses[n] = pose_of(&rest[n]);
            posed_poses[n] = pose_of_posed(&posed[n], &rest[n], &rest_poses[n]);
        }
        Ok(World {
            rest,
            posed,
            posed_locals,
            rest_poses,
            posed_poses,
        })
    }

    /// Rest world pose of a node (`math::pose_of` of its rest matrix); the identity for the
    /// world (`None`) or an unknown node.
    pub fn rest_pose(&self, node: Option<NodeId>) -> Isometry3<f64> {
        node.and_then(|n| self.rest_poses.get(n))
            .copied()
            .unwrap_or_else(Isometry3::identity)
    }

    /// World pose of a node at the given poses (`math::pose_of` of its posed matrix); the
    /// identity for the world or an unknown node.
    pub fn posed_pose(&self, node: Option<NodeId>) -> Isometry3<f64> {
        node.and_then(|n| self.posed_poses.get(n))
            .copied()
            .unwrap_or_else(Isometry3::identity)
    }

    /// The rest pose of `node` relative to the rest pose of `body` (the world when `None`):
    /// `pose(body)^-1 * pose(node)`. Rigid parts first, so a scaled body gives the scaled offset
    /// the engine's rigid frame sees.
    pub fn rest_relative(&self, body: Option<NodeId>, node: NodeId) -> Isometry3<f64> {
        self.rest_pose(body).inv_mul(&self.rest_pose(Some(node)))
    }
}

/// One node's world pose at rest and at the given poses.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodePose {
    pub name: Option<String>,
    pub node: NodeId,
    #[serde(with = "json::pose")]
    pub posed: Isometry3<f64>,
    #[serde(with = "json::pose")]
    pub rest: Isometry3<f64>,
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

#[cfg(test)]
mod tests {
    use nalgebra::{UnitQuaternion, Vector3};
    use proptest::prelude::*;

    use super::*;
    use crate::poses::PoseOverride;
    use crate::profile::Profile;

    fn bits(p: &Isometry3<f64>) -> Vec<u64> {
        let q = p.rotation.into_inner();
        let t = p.translation.vector;
        [q.i, q.j, q.k, q.w, t.x, t.y, t.z]
            .iter()
            .map(|v| v.to_bits())
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The poses computed once are `pose_of` of the world matrices, bit for bit, at rest
        /// and at poses that move some nodes (non-uniform scales included, so sheared world
        /// matrices take `rotation_of`'s iterative path).
        #[test]
        fn cached_poses_are_pose_of_the_matrices(
            parts in proptest::collection::vec(
                ((-2.0..2.0f64, -2.0..2.0f64, -2.0..2.0f64), -3.0..3.0f64, (0.2..3.0f64, 0.2..3.0f64)), 1..7),
            moved in 0usize..7,
            turn in -3.0..3.0f64,
        ) {
            let locals: Vec<Trs> = parts
                .iter()
                .map(|&((x, y, z), angle, (s, t))| Trs {
                    translation: Vector3::new(x, y, z),
                    rotation: UnitQuaternion::from_scaled_axis(Vector3::new(y, z, x).normalize() * angle),
                    scale: Vector3::new(s, t, s),
                })
                .collect();
            let scene = Scene::chain(Profile::Khr2024Draft, &locals);
            let mut poses = Poses::default();
            if moved < locals.len() {
                poses.nodes.insert(moved, PoseOverride {
                    rotation: Some(UnitQuaternion::from_scaled_axis(Vector3::z() * turn)),
                    ..PoseOverride::default()
                });
            }
            let world = World::new(&scene, &poses).expect("no constraints");
            // The posed matrices are those of the posed locals, with or without overrides
            // (without, `World::new` takes the rest matrices as they are).
            let matrices: Vec<Matrix4<f64>> = poses.locals(&scene).iter().map(Trs::matrix).collect();
            let posed = scene.world_from_locals(&matrices);
            prop_assert!(posed.iter().zip(&world.posed).all(|(a, b)| same_bits(a, b)));
            for n in 0..locals.len() {
                prop_assert_eq!(bits(&world.rest_pose(Some(n))), bits(&pose_of(&world.rest[n])));
                prop_assert_eq!(bits(&world.posed_pose(Some(n))), bits(&pose_of(&world.posed[n])));
            }
            prop_assert_eq!(world.rest_pose(None), Isometry3::identity());
            prop_assert_eq!(world.posed_pose(Some(locals.len())), Isometry3::identity());
            // Above the moved node nothing moves; from it down everything does.
            for n in 0..locals.len().min(moved) {
                prop_assert!(same_bits(&world.posed[n], &world.rest[n]));
            }
            // A world of a few nodes (a node past the end ignored) has their poses bit for bit.
            // (Scenes without VRM constraints; with them both constructors take the same
            // `posed_locals`.)
            let wanted = [locals.len() - 1, moved / 2, locals.len() + 1];
            let few = World::of_nodes(&scene, &poses, &wanted).expect("no constraints");
            for n in wanted.into_iter().filter(|&n| n < locals.len()) {
                prop_assert_eq!(bits(&few.rest_pose(Some(n))), bits(&world.rest_pose(Some(n))));
                prop_assert_eq!(bits(&few.posed_pose(Some(n))), bits(&world.posed_pose(Some(n))));
            }
        }
    }
}
