//! Conversions between the reference's nalgebra `f64` values and rapier3d's glam `f32` ones.
//!
//! Geometry is composed in `f64` (nalgebra) and converted once, at the boundary; a value that
//! does not fit a finite `f32` is refused with a clear error instead of reaching the engine.

use nalgebra::{Isometry3, Quaternion, UnitQuaternion, Vector3};
use rapier3d::math::{Pose, Rotation, Vector};

use crate::implementation::ImplError;

/// `v` as a finite `f32`.
pub(super) fn real(v: f64, what: &str) -> Result<f32, ImplError> {
    let r = v as f32;
    if r.is_finite() {
        Ok(r)
    } else {
        Err(ImplError::NotSupported(format!(
            "{what} = {v} does not fit a finite 32-bit float (rapier3d uses f32)"
        )))
    }
}

/// Like [`real`], but infinity stays infinity (masses and moments).
pub(super) fn real_or_infinite(v: f64, what: &str) -> Result<f32, ImplError> {
    if v == f64::INFINITY {
        Ok(f32::INFINITY)
    } else {
        real(v, what)
    }
}

pub(super) fn vector(v: &Vector3<f64>, what: &str) -> Result<Vector, ImplError> {
    Ok(Vector::new(
        real(v.x, what)?,
        real(v.y, what)?,
        real(v.z, what)?,
    ))
}

pub(super) fn rotation(q: &UnitQuaternion<f64>) -> Rotation {
    // A unit quaternion's components are in [-1, 1]: the cast cannot overflow.
    Rotation::from_xyzw(q.i as f32, q.j as f32, q.k as f32, q.w as f32).normalize()
}

pub(super) fn pose(iso: &Isometry3<f64>, what: &str) -> Result<Pose, ImplError> {
    Ok(Pose::from_parts(
        vector(&iso.translation.vector, what)?,
        rotation(&iso.rotation),
    ))
}

pub(super) fn to_vector(v: Vector) -> Vector3<f64> {
    Vector3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

pub(super) fn to_rotation(q: Rotation) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(Quaternion::new(
        f64::from(q.w),
        f64::from(q.x),
        f64::from(q.y),
        f64::from(q.z),
    ))
}

pub(super) fn to_isometry(p: &Pose) -> Isometry3<f64> {
    Isometry3::from_parts(to_vector(p.translation).into(), to_rotation(p.rotation))
}

pub(super) fn array(v: Vector) -> [f64; 3] {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}

/// A rotation as `[x, y, z, w]` with `w >= 0`.
pub(super) fn quaternion(q: Rotation) -> [f64; 4] {
    ::reference::math::xyzw_positive_w(&to_rotation(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_a_pose() {
        let iso = Isometry3::from_parts(
            Vector3::new(1.0, -2.0, 3.5).into(),
            UnitQuaternion::from_euler_angles(0.3, -0.2, 1.1),
        );
        let back = to_isometry(&pose(&iso, "p").expect("finite"));
        assert!((back.translation.vector - iso.translation.vector).norm() < 1e-6);
        assert!(back.rotation.angle_to(&iso.rotation) < 1e-6);
    }

    #[test]
    fn refuses_values_beyond_f32() {
        assert!(matches!(real(1e300, "x"), Err(ImplError::NotSupported(_))));
        assert_eq!(real_or_infinite(f64::INFINITY, "m"), Ok(f32::INFINITY));
        assert_eq!(real(0.5, "x"), Ok(0.5));
    }
}
