//! The aim frame and yaw/pitch angles [D-VRM-AIM].
//!
//! `aimVector` and `upVector` are axes of the destination space (the destination's parent frame
//! for a local destination, the model frame for a model destination). With `u = |up|`,
//! `f = |aim - (aim.u) u|` (the aim direction flattened onto the plane orthogonal to up) and
//! `s = u x f = |up x aim|`, a direction `d` has
//! - yaw   `psi   = atan2(d.s, d.f)` (the angle about `u`),
//! - pitch `theta = asin(d.u)`       (the elevation; a rotation about `s` by `-theta`),
//!
//! and its aim state `Q(psi, theta) = Rot(u, psi) Rot(s, -theta)` turns `f` into `d`. The
//! constraint's output is `Q(psi1, theta1) Q(psi0, theta0)^-1`, the rotation from the rest state
//! to the current one: yaw by the difference of atan2 angles, pitch by the difference of asin
//! angles about `s` (in the rest yaw plane).

use nalgebra::{Quaternion, Unit, UnitQuaternion, Vector3};

/// Why an aim/up pair cannot define a frame [D-VRM-RANGE].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AimGeometry {
    #[error("aimVector is zero")]
    AimZero,
    #[error("upVector is zero or parallel to aimVector")]
    ParallelUp,
}

/// Relative threshold below which a direction has no length, or two directions are parallel.
const DEGENERATE: f64 = 1e-9;

/// The orthonormal frame of an aim constraint: up, forward (flattened aim), side (`u x f`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AimFrame {
    pub up: Unit<Vector3<f64>>,
    pub forward: Unit<Vector3<f64>>,
    pub side: Unit<Vector3<f64>>,
}

/// `v / |v|`, computed without overflow or underflow; `None` for a zero or non-finite vector.
pub(crate) fn direction(v: &Vector3<f64>) -> Option<Unit<Vector3<f64>>> {
    let m = v.amax();
    if !(m > 0.0 && m.is_finite()) {
        return None;
    }
    let scaled = v / m;
    Some(Unit::new_normalize(scaled))
}

impl AimFrame {
    /// The frame of `aim` and `up`, or why there is none.
    pub fn new(aim: &Vector3<f64>, up: &Vector3<f64>) -> Result<AimFrame, AimGeometry> {
        let a = direction(aim).ok_or(AimGeometry::AimZero)?;
        let u = direction(up).ok_or(AimGeometry::ParallelUp)?;
        let flat = a.into_inner() - u.into_inner() * a.dot(&u);
        if flat.norm() < DEGENERATE {
            return Err(AimGeometry::ParallelUp);
        }
        let f = Unit::new_normalize(flat);
        let s = Unit::new_normalize(u.cross(&f));
        Ok(AimFrame {
            up: u,
            forward: f,
            side: s,
        })
    }

    /// (yaw, pitch) of the unit direction `d`.
    pub fn angles(&self, d: &Unit<Vector3<f64>>) -> (f64, f64) {
        let yaw = d.dot(&self.side).atan2(d.dot(&self.forward));
        let pitch = d.dot(&self.up).clamp(-1.0, 1.0).asin();
        (yaw, pitch)
    }

    /// The aim state `Q(yaw, pitch) = Rot(u, yaw) Rot(s, -pitch)`, which turns `forward` into
    /// the direction of those angles.
    pub fn state(&self, yaw: f64, pitch: f64) -> UnitQuaternion<f64> {
        UnitQuaternion::from_axis_angle(&self.up, yaw)
            * UnitQuaternion::from_axis_angle(&self.side, -pitch)
    }
}

/// The smallest rotation turning the unit vector `a` into the unit vector `b` [D-VRM1-FROM-TO]:
/// three.js's `setFromUnitVectors`, opposite directions included (a half turn about
/// `(-a.y, a.x, 0)` when `|a.x| > |a.z|`, else about `(0, -a.z, a.y)`).
pub(crate) fn from_to(a: &Vector3<f64>, b: &Vector3<f64>) -> UnitQuaternion<f64> {
    let r = a.dot(b) + 1.0;
    let q = if r < 1e-8 {
        if a.x.abs() > a.z.abs() {
            Quaternion::new(0.0, -a.y, a.x, 0.0)
        } else {
            Quaternion::new(0.0, 0.0, -a.z, a.y)
        }
    } else {
        let c = a.cross(b);
        Quaternion::new(r, c.x, c.y, c.z)
    };
    UnitQuaternion::new_normalize(q)
}

/// The unit direction from `from` to `to`, or `None` when the two points coincide (relative to
/// their magnitude) or a number is not finite.
pub(crate) fn aim_direction(from: &Vector3<f64>, to: &Vector3<f64>) -> Option<Unit<Vector3<f64>>> {
    let d = to - from;
    let scale = 1.0_f64.max(from.amax()).max(to.amax());
    let length = d.amax();
    if length.is_nan() || length <= 1e-12 * scale {
        return None;
    }
    direction(&d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_4;

    #[test]
    fn default_frame_is_z_forward_y_up_x_side() {
        let f = AimFrame::new(&Vector3::z(), &Vector3::y()).expect("frame");
        assert_eq!(f.forward.into_inner(), Vector3::z());
        assert_eq!(f.side.into_inner(), Vector3::x()); // y x z = x
    }

    #[test]
    fn angles_and_state_agree() {
        // d = (1, 1, 1)/sqrt 3 with the default frame: yaw = atan2(x, z) = 45deg,
        // pitch = asin(1/sqrt 3) = 35.264deg; Q(yaw, pitch) z = d.
        let f = AimFrame::new(&Vector3::z(), &Vector3::y()).expect("frame");
        let d = Unit::new_normalize(Vector3::new(1.0, 1.0, 1.0));
        let (yaw, pitch) = f.angles(&d);
        assert!((yaw - FRAC_PI_4).abs() < 1e-15);
        assert!((pitch - (1.0 / 3.0_f64.sqrt()).asin()).abs() < 1e-15);
        assert!((f.state(yaw, pitch) * Vector3::z() - d.into_inner()).norm() < 1e-15);
    }

    #[test]
    fn degenerate_geometry() {
        assert_eq!(
            AimFrame::new(&Vector3::zeros(), &Vector3::y()),
            Err(AimGeometry::AimZero)
        );
        assert_eq!(
            AimFrame::new(&Vector3::y(), &(Vector3::y() * -3.0)),
            Err(AimGeometry::ParallelUp)
        );
        assert_eq!(
            AimFrame::new(&Vector3::z(), &Vector3::zeros()),
            Err(AimGeometry::ParallelUp)
        );
        // tiny but not zero vectors are fine: only directions matter.
        assert!(AimFrame::new(&(Vector3::z() * 1e-300), &(Vector3::y() * 1e300)).is_ok());
        assert!(
            aim_direction(&Vector3::new(1.0, 2.0, 3.0), &Vector3::new(1.0, 2.0, 3.0)).is_none()
        );
    }
}
