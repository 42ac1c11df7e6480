//! Canonical joints -> Rapier generic joints (frames, locks, limits, coupled limits, softness,
//! motors), and back.
//!
//! Frames: frame 1 is the attachment frame A relative to its body (or to the world through a
//! fixed ground body), frame 2 is B relative to its body [D-FRAMES]. Rapier measures the
//! relative motion of frame 2 in frame 1, like the KHR limit metrics [D-METRICS].
//!
//! Limits, as Rapier expresses them:
//! - a zero range (`min = max = 0` on one axis, `max = 0` on coupled axes) locks its axes;
//! - 1 linear axis: a per-axis limit (a missing side is unbounded);
//! - 2 or 3 linear axes (KHR, coupled): Rapier's coupled linear limit bounds the distance from
//!   the line (2 axes) or the point (3 axes) by `max`; Rapier ignores a coupled minimum, so a
//!   `min > 0` is not supported;
//! - 1 angular axis: a per-axis limit on the signed angle, bounds clamped to [-pi, pi] (the
//!   range of the metric), a missing side reads as -pi or pi;
//! - 2 angular axes (KHR, coupled): Rapier's coupled angular limit is the angle between the
//!   remaining axes of the two frames, the KHR cone metric, with both bounds;
//! - 3 angular axes (KHR, coupled) with `max > 0`: Rapier has no such limit: not supported;
//! - OMI limits are per axis [D-OMI-PER-AXIS]: each listed axis gets its own range, later
//!   constraints override earlier ones on an axis.
//!
//! One axis in two KHR limits (other than two locks), or two coupled groups of one kind, cannot
//! be expressed: not supported.
//!
//! Softness: Rapier has one softness per joint (a natural frequency and a damping ratio), for
//! every lock and limit. A limit's stiffness `k` and damping `c` map through the effective mass
//! `m` of its degree of freedom at load (reduced mass for linear limits, reduced moment about
//! the first axis for angular ones): `f = sqrt(k / m) / (2 pi)`, `zeta = c / (2 sqrt(k m))`.
//! A joint whose limits do not all map to the same softness (or mixes hard and soft limits) is
//! not supported; all-hard joints keep Rapier's default (stiff) softness.
//!
//! Drives are Rapier motors: `force` mode -> `MotorModel::ForceBased`, `acceleration` ->
//! `MotorModel::AccelerationBased` (the force scaled by the effective mass, as the spec says);
//! the spring and damper of each drive are the reference's (`predict::DriveTerms`: a missing
//! position target means no spring term, a missing velocity target is 0); a missing `maxForce`
//! is unlimited. Drives on one axis add up into one motor (exact when
//! they share a mode and have no force limit, else not supported). A drive on an axis of a
//! coupled group is not supported (Rapier ignores coupled angular motors and drives the
//! distance for coupled linear ones).
//!
//! A motor with no position term and no damping gets no Rapier motor at all: its KHR force
//! `k (x* - x) + c (v* - v)` is 0 whatever its velocity target, but Rapier reads stiffness and
//! damping 0 as an infinitely stiff velocity motor (`MotorModel::combine_coefficients` gives
//! the constraint force mixing `inv(dt² k + dt c)`, and `inv(0)` is 0: a hard velocity row at
//! the target, with unbounded impulse): it turns the axis at the target whatever the load, and
//! two rigid rows fight where a hard limit bounds the same axis (`khr/gen/body/01304`: two such
//! drives of `velocityTarget` -0.9 rad/s on one-axis limits of a body also ball-locked to the
//! world; the lock ended 0.61 m off, 2e-6 m without the motors; test
//! `a_drive_without_position_term_or_damping_is_no_motor`).
//! A drive on a locked axis is built, and Rapier ignores it (it drops `motor_axes` that are
//! locked): a hard lock holds against any drive, as the spec's infinite limit stiffness says.

use std::f64::consts::PI;

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use rapier3d::dynamics::{GenericJoint, JointAxesMask, JointAxis, MotorModel, SpringCoefficients};

use ::reference::expect::predict::{DriveTerms, Oscillator};
use ::reference::scene::{DofKind, Drive, DriveMode, Joint, Limit, LimitSet};

use super::convert;
use crate::implementation::{DriveReport, ImplError, LimitReport, Pose};
use crate::mutant::{Mutant, misread_limit};

/// Relative tolerance under which two softness values are the same.
const SOFTNESS_TOLERANCE: f64 = 1e-3;

/// Mass data of the two bodies a joint connects, at load, for the softness mapping.
#[derive(Clone, Copy, Debug)]
pub(super) struct JointMasses {
    /// Inverse masses (0: static or infinite).
    pub inv_mass: [f64; 2],
    /// World-space inverse inertia tensors (0: static or infinite).
    pub inv_inertia: [Matrix3<f64>; 2],
}

/// Everything needed to build one joint.
#[derive(Clone, Copy, Debug)]
pub(super) struct JointFrames {
    /// Frame A relative to body 1, frame B relative to body 2.
    pub local: [Isometry3<f64>; 2],
    /// World rotation of frame A (its columns are the limit axes).
    pub world_rotation_a: UnitQuaternion<f64>,
}

fn unsupported(what: impl Into<String>) -> ImplError {
    ImplError::NotSupported(what.into())
}

fn dof(kind: DofKind, axis: u8) -> Result<JointAxis, ImplError> {
    Ok(match (kind, axis) {
        (DofKind::Linear, 0) => JointAxis::LinX,
        (DofKind::Linear, 1) => JointAxis::LinY,
        (DofKind::Linear, 2) => JointAxis::LinZ,
        (DofKind::Angular, 0) => JointAxis::AngX,
        (DofKind::Angular, 1) => JointAxis::AngY,
        (DofKind::Angular, 2) => JointAxis::AngZ,
        _ => return Err(ImplError::Failed(format!("axis {axis} is not 0, 1 or 2"))),
    })
}

fn mask_of(kind: DofKind, axes: &[u8]) -> Result<JointAxesMask, ImplError> {
    axes.iter()
        .try_fold(JointAxesMask::empty(), |m, &a| Ok(m | dof(kind, a)?.into()))
}

/// How one limit is expressed.
#[derive(Clone, Debug, PartialEq)]
enum LimitPlan {
    /// Constrains nothing (unbounded, or a range covering every value of the metric).
    Nothing,
    Lock,
    /// A per-axis range on each listed axis.
    Range(f64, f64),
    /// A coupled group with `[min, max]` on its first axis.
    Coupled(f64, f64),
}

fn plan(limit: &Limit, coupled: bool) -> Result<LimitPlan, ImplError> {
    let n = if coupled { limit.axes.len() } else { 1 };
    // Zero range: both bounds 0 on one axis; a maximum distance or angle of 0 on coupled axes.
    if limit.max == Some(0.0) && (n > 1 || limit.min == Some(0.0)) {
        return Ok(LimitPlan::Lock);
    }
    // A bound at or beyond an end of its metric's range says nothing on that side.
    let (lo, hi) = ::reference::metrics::range(limit.kind, n);
    let min = limit.min.filter(|m| *m > lo);
    let max = limit.max.filter(|m| *m < hi);
    match (limit.kind, n, min, max) {
        (_, _, None, None) => Ok(LimitPlan::Nothing),
        (DofKind::Linear, 1, min, max) => Ok(LimitPlan::Range(
            min.unwrap_or(-f64::from(f32::MAX)),
            max.unwrap_or(f64::from(f32::MAX)),
        )),
        (DofKind::Linear, _, Some(_), _) => Err(unsupported(
            "a coupled linear limit with min > 0 (Rapier's coupled limit has only a maximum)",
        )),
        (DofKind::Linear, _, None, Some(max)) if max < 0.0 => {
            Err(unsupported("a coupled linear limit with max < 0"))
        }
        (DofKind::Linear, _, None, max) => Ok(LimitPlan::Coupled(0.0, max.unwrap_or(hi))),
        (DofKind::Angular, 1, min, max) => {
            Ok(LimitPlan::Range(min.unwrap_or(lo), max.unwrap_or(hi)))
        }
        // -1 keeps Rapier's minimum cone row inactive (it activates when angle <= min).
        (DofKind::Angular, 2, min, max) => {
            Ok(LimitPlan::Coupled(min.unwrap_or(-1.0), max.unwrap_or(hi)))
        }
        (DofKind::Angular, _, _, _) => Err(unsupported(
            "a limit on 3 coupled angular axes (Rapier couples at most 2 angular axes)",
        )),
    }
}

/// What the importer understood of a joint's limits and drives, the seeded bug
/// ([`crate::mutants`]) applied: what it builds from, and what the interpretation reports.
pub(super) fn understood(
    joint: &Joint,
    mutant: Option<Mutant>,
) -> (Vec<LimitReport>, Vec<DriveReport>) {
    let coupled = matches!(joint.limits, LimitSet::Coupled(_));
    let limits = joint
        .limits
        .limits()
        .iter()
        .map(|l| LimitReport::from(&misread_limit(l, coupled, mutant)))
        .collect();
    let drives = joint
        .drives
        .iter()
        .map(|d| {
            let mut r = DriveReport::from(d);
            if mutant == Some(Mutant::DriveMaxForceIgnored) {
                r.max_force = None;
            }
            r
        })
        .collect();
    (limits, drives)
}

/// Softness of one soft limit: `(natural frequency, damping ratio)`, or `None` when its
/// degree of freedom cannot move (both sides infinitely heavy).
fn softness(
    limit: &Limit,
    stiffness: f64,
    masses: &JointMasses,
    frames: &JointFrames,
) -> Option<(f64, f64)> {
    let inv = match limit.kind {
        DofKind::Linear => masses.inv_mass[0] + masses.inv_mass[1],
        DofKind::Angular => {
            let axis = limit.axes.first().copied().unwrap_or(0) as usize;
            let e = frames.world_rotation_a * Vector3::ith(axis.min(2), 1.0);
            (e.transpose() * (masses.inv_inertia[0] + masses.inv_inertia[1]) * e)[(0, 0)]
        }
    };
    if inv <= 0.0 || !inv.is_finite() {
        return None;
    }
    let spring = Oscillator::soft_limit(Some(stiffness), limit.damping, 1.0 / inv)?;
    Some((spring.omega / (2.0 * PI), spring.zeta))
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= SOFTNESS_TOLERANCE * a.abs().max(b.abs())
}

/// Build the Rapier joint of `joint`.
pub(super) fn build(
    joint: &Joint,
    frames: &JointFrames,
    masses: &JointMasses,
    mutant: Option<Mutant>,
) -> Result<GenericJoint, ImplError> {
    let mut g = GenericJoint::default();
    g.set_local_frame1(convert::pose(&frames.local[0], "joint frame A")?);
    g.set_local_frame2(convert::pose(&frames.local[1], "joint frame B")?);
    g.set_contacts_enabled(joint.enable_collision);

    let coupled = matches!(joint.limits, LimitSet::Coupled(_));
    // Which limit claimed each axis (and whether it was a lock), per kind.
    let mut claimed: [[Option<bool>; 3]; 2] = [[None; 3]; 2];
    let mut coupled_group = [false; 2];
    let mut soft: Vec<(f64, f64)> = Vec::new();
    let mut hard = false;
    for limit in joint.limits.limits() {
        let limit = &misread_limit(limit, coupled, mutant);
        let p = plan(limit, coupled)?;
        if p == LimitPlan::Nothing {
            continue;
        }
        let k = usize::from(limit.kind == DofKind::Angular);
        if coupled {
            for &a in &limit.axes {
                let slot = &mut claimed[k][usize::from(a.min(2))];
                match slot {
                    Some(true) if p == LimitPlan::Lock => {}
                    Some(_) => {
                        return Err(unsupported(format!(
                            "two limits on {:?} axis {a} of one joint",
                            limit.kind
                        )));
                    }
                    None => *slot = Some(p == LimitPlan::Lock),
                }
            }
        }
        match p {
            LimitPlan::Nothing => {}
            LimitPlan::Lock => {
                let mask = mask_of(limit.kind, &limit.axes)?;
                g.lock_axes(mask);
                // An OMI lock overrides an earlier range on the axis.
                g.limit_axes &= !mask;
            }
            LimitPlan::Range(min, max) => {
                for &a in &limit.axes {
                    let axis = dof(limit.kind, a)?;
                    g.locked_axes &= !JointAxesMask::from(axis);
                    g.set_limits(
                        axis,
                        [
                            convert::real(min, "limit min")?,
                            convert::real(max, "limit max")?,
                        ],
                    );
                }
            }
            LimitPlan::Coupled(min, max) => {
                if coupled_group[k] {
                    return Err(unsupported(format!(
                        "two coupled {:?} limits in one joint",
                        limit.kind
                    )));
                }
                coupled_group[k] = true;
                let mut axes = limit.axes.clone();
                axes.sort_unstable();
                let first = dof(limit.kind, axes[0])?;
                g.coupled_axes |= mask_of(limit.kind, &axes)?;
                g.set_limits(
                    first,
                    [
                        convert::real(min, "limit min")?,
                        convert::real(max, "limit max")?,
                    ],
                );
            }
        }
        match limit.stiffness {
            None => hard = true,
            Some(k) => soft.extend(softness(limit, k, masses, frames)),
        }
    }
    if let Some(&(f, zeta)) = soft.first() {
        if hard {
            return Err(unsupported(
                "hard and soft limits in one joint (Rapier has one softness per joint)",
            ));
        }
        if soft.iter().any(|&(f2, z2)| !same(f, f2) || !same(zeta, z2)) {
            return Err(unsupported(
                "limits of one joint with different softness (Rapier has one softness per joint)",
            ));
        }
        g.softness = SpringCoefficients::new(
            convert::real(f, "limit stiffness")?,
            convert::real(zeta, "limit damping")?,
        );
    }

    // `merged_drives` leaves out the drives that exert no force: none becomes a Rapier motor
    // (see the module doc).
    for (axis, motor) in merged_drives(&joint.drives)? {
        if g.coupled_axes.intersects(JointAxesMask::from(axis)) {
            return Err(unsupported(format!(
                "a drive on {axis:?} of a coupled limit (Rapier drives a coupled group as one)"
            )));
        }
        g.set_motor(
            axis,
            convert::real(motor.terms.position, "positionTarget")?,
            convert::real(motor.terms.velocity, "velocityTarget")?,
            convert::real(motor.terms.stiffness, "drive stiffness")?,
            convert::real(motor.terms.damping, "drive damping")?,
        );
        g.set_motor_model(
            axis,
            match motor.mode {
                DriveMode::Force => MotorModel::ForceBased,
                DriveMode::Acceleration => MotorModel::AccelerationBased,
            },
        );
        let max_force = motor
            .max_force
            .filter(|_| mutant != Some(Mutant::DriveMaxForceIgnored));
        if let Some(f) = max_force {
            g.set_motor_max_force(axis, convert::real(f, "maxForce")?);
        }
    }
    Ok(g)
}

/// One Rapier motor: the sum of the drives on one degree of freedom.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Motor {
    mode: DriveMode,
    max_force: Option<f64>,
    /// The summed spring and damper.
    terms: DriveTerms,
}

/// The drives as one motor per degree of freedom. Drives on one axis add up
/// ([`DriveTerms::combined_with`]); exact when they share a mode and none is force-limited
/// (each limit clamps its own drive), otherwise not supported. A drive that exerts no force is
/// left out first: it adds nothing, whatever its mode or limit.
fn merged_drives(drives: &[Drive]) -> Result<Vec<(JointAxis, Motor)>, ImplError> {
    let mut motors: Vec<(JointAxis, Motor)> = Vec::new();
    for d in drives {
        let axis = dof(d.kind, d.axis)?;
        let one = Motor {
            mode: d.mode,
            max_force: d.max_force,
            terms: DriveTerms::of(d.stiffness, d.damping, d.position_target, d.velocity_target),
        };
        if one.terms.exert_nothing() {
            continue;
        }
        match motors.iter_mut().find(|(a, _)| *a == axis) {
            None => motors.push((axis, one)),
            Some((_, m)) => {
                if m.mode != one.mode || m.max_force.is_some() || one.max_force.is_some() {
                    return Err(unsupported(format!(
                        "two drives on {axis:?} with different modes or a force limit"
                    )));
                }
                m.terms = m.terms.combined_with(one.terms);
            }
        }
    }
    Ok(motors)
}

/// The frames Rapier holds for a joint, relative to its bodies.
pub(super) fn frames_of(g: &GenericJoint) -> [Pose; 2] {
    let pose = |p: &rapier3d::math::Pose| Pose {
        translation: convert::array(p.translation),
        rotation: convert::quaternion(p.rotation),
    };
    [pose(&g.local_frame1), pose(&g.local_frame2)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::reference::scene::Attachment;

    fn joint(limits: LimitSet, drives: Vec<Drive>) -> Joint {
        Joint {
            node: 0,
            a: Attachment {
                frame: 0,
                body_node: None,
            },
            b: Attachment {
                frame: 1,
                body_node: Some(1),
            },
            limits,
            drives,
            enable_collision: false,
            description: None,
        }
    }

    fn frames() -> JointFrames {
        JointFrames {
            local: [Isometry3::identity(), Isometry3::translation(0.0, 1.0, 0.0)],
            world_rotation_a: UnitQuaternion::identity(),
        }
    }

    /// Body 1 is the world; body 2 has mass 2 and moments 4.
    fn masses() -> JointMasses {
        JointMasses {
            inv_mass: [0.0, 0.5],
            inv_inertia: [Matrix3::zeros(), Matrix3::identity() * 0.25],
        }
    }

    fn built(limits: LimitSet) -> Result<GenericJoint, ImplError> {
        build(&joint(limits, Vec::new()), &frames(), &masses(), None)
    }

    #[test]
    fn the_spec_hinge_is_locks_plus_one_limit() {
        // The seed's door: 3D linear max 0, 1D angular [-1, 1] about y, 2D angular zero on x, z.
        let g = built(LimitSet::Coupled(vec![
            Limit::hard(DofKind::Linear, &[0, 1, 2], Some(0.0), Some(0.0)),
            Limit::hard(DofKind::Angular, &[1], Some(-1.0), Some(1.0)),
            Limit::hard(DofKind::Angular, &[0, 2], Some(0.0), Some(0.0)),
        ]))
        .expect("a hinge");
        assert_eq!(
            g.locked_axes,
            JointAxesMask::LIN_AXES | JointAxesMask::ANG_X | JointAxesMask::ANG_Z
        );
        assert_eq!(
            g.limits(JointAxis::AngY).map(|l| [l.min, l.max]),
            Some([-1.0, 1.0])
        );
        assert!(g.coupled_axes.is_empty());
        assert!(!g.contacts_enabled);
        assert_eq!(frames_of(&g)[1].translation, [0.0, 1.0, 0.0]);
    }

    #[test]
    fn coupled_khr_limits_use_rapier_coupling() {
        // A cone of 0.5 rad about z (axes x, y coupled) and a 2D linear distance of 0.3.
        let g = built(LimitSet::Coupled(vec![
            Limit::hard(DofKind::Angular, &[1, 0], None, Some(0.5)),
            Limit::hard(DofKind::Linear, &[2, 0], None, Some(0.3)),
        ]))
        .expect("coupled");
        assert_eq!(
            g.coupled_axes,
            JointAxesMask::ANG_X
                | JointAxesMask::ANG_Y
                | JointAxesMask::LIN_X
                | JointAxesMask::LIN_Z
        );
        assert_eq!(g.limits(JointAxis::AngX).map(|l| l.max), Some(0.5));
        assert_eq!(g.limits(JointAxis::LinX).map(|l| l.max), Some(0.3));
        assert!(g.locked_axes.is_empty());
    }

    #[test]
    fn omi_limits_are_per_axis_and_later_ones_win() {
        let g = built(LimitSet::PerAxis(vec![
            Limit::hard(DofKind::Linear, &[0, 1, 2], Some(-1.0), Some(1.0)),
            Limit::hard(DofKind::Linear, &[1], Some(0.0), Some(0.0)),
        ]))
        .expect("a box with y locked");
        assert!(g.coupled_axes.is_empty());
        assert_eq!(g.locked_axes, JointAxesMask::LIN_Y);
        assert_eq!(
            g.limits(JointAxis::LinX).map(|l| [l.min, l.max]),
            Some([-1.0, 1.0])
        );
        assert_eq!(g.limits(JointAxis::LinY), None);
    }

    #[test]
    fn what_rapier_cannot_express_is_refused() {
        let refused = |limits: Vec<Limit>| {
            matches!(
                built(LimitSet::Coupled(limits)),
                Err(ImplError::NotSupported(_))
            )
        };
        use DofKind::{Angular, Linear};
        assert!(refused(vec![Limit::hard(
            Angular,
            &[0, 1, 2],
            None,
            Some(0.5)
        )]));
        assert!(refused(vec![Limit::hard(
            Linear,
            &[0, 1],
            Some(0.2),
            Some(0.5)
        )]));
        assert!(refused(vec![
            Limit::hard(Linear, &[0], Some(-1.0), Some(1.0)),
            Limit::hard(Linear, &[0, 1, 2], None, Some(2.0)),
        ]));
        // 3 angular axes locked (max 0) or unbounded are fine.
        let locked = Limit::hard(Angular, &[0, 1, 2], Some(0.0), Some(0.0));
        assert!(!refused(vec![locked]));
        assert!(!refused(vec![Limit::hard(Angular, &[0, 1, 2], None, None)]));
    }

    #[test]
    fn softness_maps_through_the_effective_mass() {
        // Linear limit on a body of mass 2 against the world: m = 2; k = 8 gives
        // omega = sqrt(8 / 2) = 2 rad/s, f = 2 / (2 pi) = 1 / pi = 0.3183 Hz; c = 4 gives
        // zeta = 4 / (2 sqrt(8 * 2)) = 0.5.
        let mut l = Limit::hard(DofKind::Linear, &[0], Some(-1.0), Some(1.0));
        l.stiffness = Some(8.0);
        l.damping = 4.0;
        let g = built(LimitSet::Coupled(vec![l.clone()])).expect("soft");
        assert!((g.softness.natural_frequency - std::f32::consts::FRAC_1_PI).abs() < 1e-5);
        assert!((g.softness.damping_ratio - 0.5).abs() < 1e-6);
        // Angular about x with moment 4: k = 16 gives omega = 2, the same frequency, and
        // c = 8 gives zeta = 8 / (2 sqrt(64)) = 0.5: the same softness, accepted.
        let mut a = Limit::hard(DofKind::Angular, &[0], Some(-1.0), Some(1.0));
        a.stiffness = Some(16.0);
        a.damping = 8.0;
        assert!(built(LimitSet::Coupled(vec![l.clone(), a.clone()])).is_ok());
        // A different stiffness, or a hard limit next to a soft one, is refused.
        a.stiffness = Some(10.0);
        assert!(matches!(
            built(LimitSet::Coupled(vec![l.clone(), a])),
            Err(ImplError::NotSupported(_))
        ));
        let hard = Limit::hard(DofKind::Angular, &[1], Some(-1.0), Some(1.0));
        assert!(matches!(
            built(LimitSet::Coupled(vec![l, hard])),
            Err(ImplError::NotSupported(_))
        ));
    }

    /// khr/gen/body/01304's drives: `velocityTarget` -0.9 rad/s about y, stiffness 390 without
    /// a position target, no damping; the KHR force `390 (none) + 0 (-0.9 - v)` is 0. A body of
    /// moments 0.1 held by a ball lock at its centre, gravity off, 30 steps of 1/60 s: Rapier's
    /// reading of such a motor (stiffness 0, damping 0) spins it at 0.9 rad/s; the adapter's
    /// joint, with no motor, leaves it at rest. If the first half fails, upstream changed
    /// `MotorModel::combine_coefficients`: revisit the module doc.
    #[test]
    fn a_drive_without_position_term_or_damping_is_no_motor() {
        use rapier3d::math::Vector;
        use rapier3d::prelude::{MassProperties, PhysicsWorld, RigidBodyBuilder};
        let spin = |g: GenericJoint| -> f32 {
            let mut world = PhysicsWorld::new();
            world.gravity = Vector::ZERO;
            let fixed = world.bodies.insert(RigidBodyBuilder::fixed());
            let body = world
                .bodies
                .insert(RigidBodyBuilder::dynamic().additional_mass_properties(
                    MassProperties::new(Vector::ZERO, 1.0, Vector::splat(0.1)),
                ));
            world.impulse_joints.insert(fixed, body, g, true);
            world.integration_parameters.dt = 1.0 / 60.0;
            for _ in 0..30 {
                world.step();
            }
            world.bodies[body].angvel().length()
        };
        let coasting = Drive {
            kind: DofKind::Angular,
            mode: DriveMode::Acceleration,
            axis: 1,
            max_force: None,
            position_target: None,
            velocity_target: Some(-0.9),
            stiffness: 390.0,
            damping: 0.0,
        };
        let ball = || {
            LimitSet::Coupled(vec![Limit::hard(
                DofKind::Linear,
                &[0, 1, 2],
                None,
                Some(0.0),
            )])
        };
        let centred = JointFrames {
            local: [Isometry3::identity(); 2],
            world_rotation_a: UnitQuaternion::identity(),
        };
        let g = build(
            &joint(ball(), vec![coasting.clone()]),
            &centred,
            &masses(),
            None,
        )
        .expect("a ball joint");
        assert!(g.motor(JointAxis::AngY).is_none(), "{:?}", g.motor_axes);
        let at_rest = spin(g);
        assert!(at_rest < 1e-6, "{at_rest}");
        // Rapier's own reading of stiffness 0 and damping 0: a rigid motor at the target.
        let mut rigid = g;
        rigid.set_motor(JointAxis::AngY, 0.0, -0.9, 0.0, 0.0);
        rigid.set_motor_model(JointAxis::AngY, MotorModel::AccelerationBased);
        let driven = spin(rigid);
        assert!((driven - 0.9).abs() < 0.01, "{driven}");
        // With damping the drive exerts a force: it stays a motor (k 0, c 2 towards -0.9).
        let damped = Drive {
            damping: 2.0,
            ..coasting
        };
        let g =
            build(&joint(ball(), vec![damped]), &centred, &masses(), None).expect("a ball joint");
        let m = g.motor(JointAxis::AngY).expect("a motor on y");
        assert_eq!((m.stiffness, m.damping, m.target_vel), (0.0, 2.0, -0.9));
    }

    #[test]
    fn drives_become_motors_of_the_right_model() {
        let drive = |kind, axis, mode| Drive {
            kind,
            mode,
            axis,
            max_force: Some(10.0),
            position_target: Some(0.5),
            velocity_target: None,
            stiffness: 20.0,
            damping: 3.0,
        };
        let j = joint(
            LimitSet::Coupled(vec![Limit::hard(
                DofKind::Linear,
                &[0, 1, 2],
                Some(0.0),
                Some(0.0),
            )]),
            vec![
                drive(DofKind::Angular, 2, DriveMode::Acceleration),
                drive(DofKind::Angular, 0, DriveMode::Force),
            ],
        );
        let g = build(&j, &frames(), &masses(), None).expect("motors");
        let m = g.motor(JointAxis::AngZ).expect("a motor on z");
        assert_eq!(
            (m.target_pos, m.stiffness, m.damping, m.max_force),
            (0.5, 20.0, 3.0, 10.0)
        );
        assert_eq!(m.model, MotorModel::AccelerationBased);
        assert_eq!(g.motor_model(JointAxis::AngX), Some(MotorModel::ForceBased));
        // Two drives on one axis add up: k 20 + 20 = 40 towards (20 * 0.5 + 20 * 0.5) / 40 = 0.5,
        // damping 3 + 3 = 6 towards velocity 0; a position-only drive (k 10 to 1.0) and a
        // velocity-only one (c 4 to 2.0) give k 10 to 1.0 and c 4 + 3 = 7 to 4 * 2 / 7.
        let mut a = drive(DofKind::Linear, 1, DriveMode::Force);
        a.max_force = None;
        let m = merged_drives(&[a.clone(), a.clone()]).expect("merged");
        assert_eq!(m.len(), 1);
        assert_eq!(
            (
                m[0].1.terms.stiffness,
                m[0].1.terms.position,
                m[0].1.terms.damping
            ),
            (40.0, 0.5, 6.0)
        );
        let mut p = a.clone();
        (p.stiffness, p.position_target) = (10.0, Some(1.0));
        p.damping = 3.0;
        let mut v = a.clone();
        (v.position_target, v.velocity_target, v.damping) = (None, Some(2.0), 4.0);
        let m = merged_drives(&[p, v]).expect("merged");
        assert_eq!((m[0].1.terms.stiffness, m[0].1.terms.position), (10.0, 1.0));
        assert!(
            (m[0].1.terms.damping - 7.0).abs() < 1e-12
                && (m[0].1.terms.velocity - 8.0 / 7.0).abs() < 1e-12
        );
        // Force-limited or mixed-mode drives on one axis are refused.
        let limited = drive(DofKind::Linear, 1, DriveMode::Force);
        assert!(merged_drives(&[limited.clone(), limited.clone()]).is_err());
        // A drive that exerts no force (no position target, no damping) is left out before
        // that check: with the force-limited drive it is no conflict, and alone it is no motor.
        let mut idle = drive(DofKind::Linear, 1, DriveMode::Acceleration);
        (idle.position_target, idle.damping) = (None, 0.0);
        let m = merged_drives(&[limited.clone(), idle.clone()]).expect("merged");
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].1.mode, DriveMode::Force);
        assert!(merged_drives(&[idle]).expect("merged").is_empty());
        // A drive on a coupled axis is refused.
        let j = joint(
            LimitSet::Coupled(vec![Limit::hard(
                DofKind::Angular,
                &[0, 1],
                None,
                Some(0.4),
            )]),
            vec![drive(DofKind::Angular, 1, DriveMode::Force)],
        );
        assert!(matches!(
            build(&j, &frames(), &masses(), None),
            Err(ImplError::NotSupported(_))
        ));
    }
}
