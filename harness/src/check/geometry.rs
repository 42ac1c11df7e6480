//! Conversions of reported values to nalgebra and the deviations the checks measure.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use reference::math::quaternion_xyzw;

use crate::implementation::Pose;

/// A rotation from `[x, y, z, w]`, normalised. A zero or non-finite quaternion gives NaN
/// components, which every deviation then reports as NaN (a `FAIL`), never a panic.
pub fn rotation(q: [f64; 4]) -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(quaternion_xyzw(q).normalize())
}

pub fn isometry(translation: [f64; 3], q: [f64; 4]) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(Vector3::from(translation)), rotation(q))
}

pub fn pose(p: &Pose) -> Isometry3<f64> {
    isometry(p.translation, p.rotation)
}

/// Distance between two points.
pub fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (Vector3::from(a) - Vector3::from(b)).norm()
}

/// The angle of the rotation taking `a` to `b`, in `[0, pi]` (q and -q are one rotation).
pub fn angle_between(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> f64 {
    reference::metrics::total_angle(&(a.inverse() * b))
}

/// `|got - want| / max(1, |want|)`: absolute for small quantities, relative for large ones,
/// so one tolerance class serves masses of 0.1 kg and 1000 kg alike.
pub fn scaled(got: f64, want: f64) -> f64 {
    (got - want).abs() / want.abs().max(1.0)
}

#[cfg(test)]
mod tests {
    use std::f64::consts::FRAC_PI_2;

    use super::*;

    #[test]
    fn hand_worked_deviations() {
        // A quarter turn about z against the identity: pi/2.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let a = rotation([0.0, 0.0, h, h]);
        assert!((angle_between(&UnitQuaternion::identity(), &a) - FRAC_PI_2).abs() < 1e-12);
        // -q is the same rotation: 0.
        assert!(angle_between(&a, &rotation([0.0, 0.0, -h, -h])) < 1e-12);
        // Unnormalised input is normalised: (0,0,2,2) is the same quarter turn.
        assert!(angle_between(&a, &rotation([0.0, 0.0, 2.0, 2.0])) < 1e-12);
        // 3-4-5 triangle.
        assert_eq!(distance([0.0, 0.0, 0.0], [3.0, 4.0, 0.0]), 5.0);
        // 1001 vs 1000: 1/1000; 0.2 vs 0.1: 0.1 (absolute under 1).
        assert!((scaled(1001.0, 1000.0) - 1e-3).abs() < 1e-15);
        assert!((scaled(0.2, 0.1) - 0.1).abs() < 1e-15);
    }

    #[test]
    fn a_zero_quaternion_gives_nan_not_a_panic() {
        let z = rotation([0.0, 0.0, 0.0, 0.0]);
        assert!(angle_between(&UnitQuaternion::identity(), &z).is_nan());
    }
}
