//! Rotation vectors (axis times angle, the quaternion logarithm) and back. Freezing rotation
//! axes zeroes components of the rotation vector [D-VRM-ROTATION], and `slerp(I, q, t)` is
//! `exp(t log q)`; written here with `atan2` so small angles stay accurate and a half-turn never
//! panics (nalgebra's `slerp` panics on antipodal quaternions).

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

/// The rotation vector of `q`, with angle in [0, pi] (the shortest path: the sign of `q` is
/// chosen with `w >= 0`).
pub(crate) fn log(q: &UnitQuaternion<f64>) -> Vector3<f64> {
    let (w, v) = if q.w < 0.0 {
        (-q.w, -q.imag())
    } else {
        (q.w, q.imag())
    };
    let s = v.norm();
    if s < 1e-300 {
        return 2.0 * v;
    }
    let angle = 2.0 * s.atan2(w);
    v * (angle / s)
}

/// The unit quaternion of a rotation vector.
pub(crate) fn exp(r: &Vector3<f64>) -> UnitQuaternion<f64> {
    let angle = r.norm();
    if angle < 1e-12 {
        // sin(a/2)/a ~ 1/2 for tiny angles.
        return UnitQuaternion::new_normalize(Quaternion::from_parts(1.0, r * 0.5));
    }
    let half = 0.5 * angle;
    UnitQuaternion::new_unchecked(Quaternion::from_parts(half.cos(), r * (half.sin() / angle)))
}

/// `slerp(I, q, t)`: the rotation `q` scaled to the fraction `t` of its (shortest) angle.
pub(crate) fn fraction(q: &UnitQuaternion<f64>, t: f64) -> UnitQuaternion<f64> {
    exp(&(log(q) * t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, PI};

    #[test]
    fn log_of_a_quarter_turn_about_z() {
        // q = (cos 45deg, 0, 0, sin 45deg): rotation vector (0, 0, pi/2).
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2);
        assert!((log(&q) - Vector3::new(0.0, 0.0, FRAC_PI_2)).norm() < 1e-15);
        assert!(exp(&log(&q)).angle_to(&q) < 1e-15);
    }

    #[test]
    fn half_turn_and_negated_sign() {
        let q = UnitQuaternion::new_unchecked(Quaternion::new(0.0, 1.0, 0.0, 0.0));
        assert!((log(&q) - Vector3::new(PI, 0.0, 0.0)).norm() < 1e-15);
        // -q is the same rotation: same rotation vector.
        let m = UnitQuaternion::new_unchecked(-q.into_inner());
        let r = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 0.3);
        let mr = UnitQuaternion::new_unchecked(-r.into_inner());
        assert!((log(&mr) - log(&r)).norm() < 1e-15);
        assert!(log(&m).norm() - PI < 1e-15);
        // half of a half turn about x is a quarter turn about x.
        let h = fraction(&q, 0.5);
        assert!(
            h.angle_to(&UnitQuaternion::from_axis_angle(
                &Vector3::x_axis(),
                FRAC_PI_2
            )) < 1e-12
        );
    }
}
