//! Stepping a loaded Rapier world and acting on it between steps.
//!
//! - A step of `dt` is `substeps` Rapier steps of `dt / substeps`, with the hooks and the
//!   event collector of the world.
//! - `Force` is a Rapier user force, removed when the step call ends; `Impulse` is applied at the
//!   centre of mass at once.
//! - `KinematicPose` moves a kinematic body to the pose by the end of the next step: for that
//!   step it gets the velocities that reach the pose, after it the pose is set exactly and the
//!   body stops (velocity 0) until told otherwise.

use nalgebra::{Isometry3, Translation3, UnitQuaternion};
use rapier3d::dynamics::RigidBodyHandle;

use super::convert;
use super::world::LoadedWorld;
use crate::implementation::{Action, ImplError};
use crate::mutant::Mutant;

impl LoadedWorld {
    fn body(&self, node: usize) -> Result<RigidBodyHandle, ImplError> {
        self.bodies
            .get(&node)
            .copied()
            .ok_or_else(|| ImplError::BadRequest(format!("node {node} is not a body")))
    }

    pub(super) fn apply(&mut self, action: &Action) -> Result<(), ImplError> {
        match action {
            Action::Impulse { node, impulse } => {
                let h = self.body(*node)?;
                let v = convert::vector(&(*impulse).into(), "impulse")?;
                if let Some(rb) = self.world.bodies.get_mut(h) {
                    if self.mutant == Some(Mutant::ImpulseAsForce) {
                        rb.add_force(v, true);
                        self.forced.push(h);
                    } else {
                        rb.apply_impulse(v, true);
                    }
                }
            }
            Action::Force { node, force } => {
                let h = self.body(*node)?;
                let v = convert::vector(&(*force).into(), "force")?;
                if let Some(rb) = self.world.bodies.get_mut(h) {
                    rb.add_force(v, true);
                    self.forced.push(h);
                }
            }
            Action::KinematicPose {
                node,
                translation,
                rotation,
            } => {
                let h = self.body(*node)?;
                if !self.world.bodies.get(h).is_some_and(|rb| rb.is_kinematic()) {
                    return Err(ImplError::BadRequest(format!(
                        "node {node} is not kinematic"
                    )));
                }
                let q = ::reference::math::quaternion_xyzw(*rotation);
                let norm = q.norm();
                if !norm.is_finite() || norm < 1e-12 || !translation.iter().all(|v| v.is_finite()) {
                    return Err(ImplError::BadRequest(format!(
                        "kinematic pose of node {node} is not a finite pose"
                    )));
                }
                let target = Isometry3::from_parts(
                    Translation3::from(nalgebra::Vector3::from(*translation)),
                    UnitQuaternion::from_quaternion(q),
                );
                if self.mutant != Some(Mutant::KinematicPoseIgnored) {
                    self.kinematic_targets.push((h, target));
                }
            }
        }
        Ok(())
    }

    /// Give each targeted kinematic body the velocities that reach its target in one step.
    fn start_kinematic_moves(&mut self) -> Result<(), ImplError> {
        let dt = self.config.dt;
        for (h, target) in &self.kinematic_targets {
            if let Some(rb) = self.world.bodies.get_mut(*h) {
                let now = convert::to_isometry(rb.position());
                let linear = (target.translation.vector - now.translation.vector) / dt;
                let angular = (target.rotation * now.rotation.inverse()).scaled_axis() / dt;
                rb.set_linvel(convert::vector(&linear, "kinematic velocity")?, true);
                rb.set_angvel(convert::vector(&angular, "kinematic velocity")?, true);
            }
        }
        Ok(())
    }

    fn finish_kinematic_moves(&mut self) -> Result<(), ImplError> {
        for (h, target) in std::mem::take(&mut self.kinematic_targets) {
            if let Some(rb) = self.world.bodies.get_mut(h) {
                rb.set_position(convert::pose(&target, "kinematic pose")?, true);
                rb.set_linvel(rapier3d::math::Vector::ZERO, true);
                rb.set_angvel(rapier3d::math::Vector::ZERO, true);
            }
        }
        Ok(())
    }

    /// Advance `steps` steps.
    pub(super) fn step(&mut self, steps: u32) -> Result<(), ImplError> {
        for i in 0..steps {
            if i == 0 && !self.kinematic_targets.is_empty() {
                self.start_kinematic_moves()?;
            }
            for _ in 0..self.config.substeps {
                self.world.step_with_events(&self.hooks, &self.collector);
            }
            self.time += self.config.dt;
            if i == 0 {
                self.finish_kinematic_moves()?;
            }
            self.collect_trigger_events();
        }
        for h in std::mem::take(&mut self.forced) {
            if let Some(rb) = self.world.bodies.get_mut(h) {
                rb.reset_forces(true);
            }
        }
        Ok(())
    }
}
