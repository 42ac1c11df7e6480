//! Small geometric helpers shared by every module, so each conversion exists once.

use nalgebra::{Isometry3, Matrix3, Matrix4, Quaternion, Translation3, UnitQuaternion, Vector3};

/// The rigid part (translation and rotation) of an affine matrix. Scale and shear are dropped:
/// the rotation is the closest rotation to the upper-left 3x3 block (polar decomposition via
/// nalgebra's iterative extraction), so scaled and sheared parents still give a valid pose.
pub fn pose_of(m: &Matrix4<f64>) -> Isometry3<f64> {
    let translation = Translation3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]);
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    Isometry3::from_parts(translation, rotation_of(&linear))
}

/// The closest rotation to a 3x3 matrix (identity for a singular or non-finite one).
pub fn rotation_of(linear: &Matrix3<f64>) -> UnitQuaternion<f64> {
    if !linear.iter().all(|v| v.is_finite()) || linear.determinant().abs() < 1e-300 {
        return UnitQuaternion::identity();
    }
    let mut cols = *linear;
    for mut c in cols.column_iter_mut() {
        let n = c.norm();
        if n > 0.0 {
            c /= n;
        }
    }
    UnitQuaternion::from_matrix_eps(&cols, 1e-12, 100, UnitQuaternion::identity())
}

/// A glTF `[x, y, z, w]` quaternion as a nalgebra quaternion (not normalised).
pub fn quaternion_xyzw(q: [f64; 4]) -> Quaternion<f64> {
    Quaternion::new(q[3], q[0], q[1], q[2])
}

/// A unit quaternion as glTF `[x, y, z, w]` with `w >= 0` (the canonical sign used in outputs).
pub fn xyzw_positive_w(q: &UnitQuaternion<f64>) -> [f64; 4] {
    let q = if q.w < 0.0 {
        -q.into_inner()
    } else {
        q.into_inner()
    };
    [q.i, q.j, q.k, q.w]
}

/// A vector as a plain array, for JSON.
pub fn array3(v: &Vector3<f64>) -> [f64; 3] {
    [v.x, v.y, v.z]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    #[test]
    fn pose_of_drops_scale() {
        // T(1,2,3) * Rz(90deg) * S(2,3,4): the pose keeps T and R only.
        let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2);
        let m = Translation3::new(1.0, 2.0, 3.0).to_homogeneous()
            * r.to_homogeneous()
            * Matrix4::new_nonuniform_scaling(&Vector3::new(2.0, 3.0, 4.0));
        let p = pose_of(&m);
        assert!((p.translation.vector - Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-12);
        assert!(p.rotation.angle_to(&r) < 1e-9);
    }

    #[test]
    fn singular_matrix_gives_identity_rotation() {
        let p = pose_of(&Matrix4::zeros());
        assert_eq!(p.rotation, UnitQuaternion::identity());
    }

    #[test]
    fn canonical_sign() {
        let q = UnitQuaternion::from_quaternion(Quaternion::new(-1.0, 0.0, 0.0, 0.0));
        assert_eq!(xyzw_positive_w(&q), [0.0, 0.0, 0.0, 1.0]);
    }
}
