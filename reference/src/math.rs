//! Small geometric helpers shared by every module, so each conversion exists once.

use nalgebra::{
    Isometry3, Matrix3, Matrix4, Quaternion, Rotation3, Translation3, UnitQuaternion, Vector3,
};

/// The rigid part (translation and rotation) of an affine matrix. Scale and shear are dropped:
/// the rotation is the closest rotation to the upper-left 3x3 block ([`rotation_of`]), so scaled
/// and sheared parents still give a valid pose.
pub fn pose_of(m: &Matrix4<f64>) -> Isometry3<f64> {
    let translation = Translation3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)]);
    let linear: Matrix3<f64> = m.fixed_view::<3, 3>(0, 0).into_owned();
    Isometry3::from_parts(translation, rotation_of(&linear))
}

/// Largest `|c_i . c_j|` between normalised columns for which [`rotation_of`] reads the columns
/// as a rotation matrix directly. Column products of rotations and axis scales stay within a
/// few ulps of orthogonal; a sheared matrix is far above this.
pub const ORTHOGONAL_TOLERANCE: f64 = 1e-14;

/// The closest rotation to a 3x3 matrix (identity for a singular or non-finite one).
///
/// The columns are normalised first (scale dropped). When they are then orthogonal within
/// [`ORTHOGONAL_TOLERANCE`] and right-handed (the common case: rotations times axis scales),
/// the normalised matrix is a rotation and its quaternion is read in closed form; otherwise
/// (shear, mirroring) nalgebra's iterative polar extraction finds the closest rotation.
pub fn rotation_of(linear: &Matrix3<f64>) -> UnitQuaternion<f64> {
    if !linear.iter().all(|v| v.is_finite()) || linear.determinant().abs() < 1e-300 {
        return UnitQuaternion::identity();
    }
    let cols = unit_columns(linear);
    closed_form_rotation(&cols).unwrap_or_else(|| iterative_rotation(&cols))
}

/// `m` with each non-zero column scaled to unit length (the scale of an affine block dropped).
fn unit_columns(m: &Matrix3<f64>) -> Matrix3<f64> {
    let mut cols = *m;
    for mut c in cols.column_iter_mut() {
        let n = c.norm();
        if n > 0.0 {
            c /= n;
        }
    }
    cols
}

/// The quaternion of `cols` when its columns are orthonormal within [`ORTHOGONAL_TOLERANCE`]
/// and right-handed (`None` otherwise). `cols` must have unit columns.
fn closed_form_rotation(cols: &Matrix3<f64>) -> Option<UnitQuaternion<f64>> {
    let (x, y, z) = (cols.column(0), cols.column(1), cols.column(2));
    let off = x.dot(&y).abs().max(x.dot(&z).abs()).max(y.dot(&z).abs());
    // Right-handed: z on the side of x cross y (a mirrored frame has no rotation equal to it).
    if off > ORTHOGONAL_TOLERANCE || x.cross(&y).dot(&z) <= 0.0 {
        return None;
    }
    Some(UnitQuaternion::from_rotation_matrix(
        &Rotation3::from_matrix_unchecked(*cols),
    ))
}

/// nalgebra's iterative extraction of the closest rotation (Müller et al.), for matrices that
/// are not rotations once their columns are normalised.
fn iterative_rotation(cols: &Matrix3<f64>) -> UnitQuaternion<f64> {
    UnitQuaternion::from_matrix_eps(cols, 1e-12, 100, UnitQuaternion::identity())
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
    use proptest::prelude::*;
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

    /// Rotations from axis-angle pairs, times axis scales (as TRS products give).
    fn rotation_strategy() -> impl Strategy<Value = UnitQuaternion<f64>> {
        (
            prop::array::uniform3(-1.0f64..1.0),
            -std::f64::consts::PI..std::f64::consts::PI,
        )
            .prop_filter("axis not null", |(a, _)| {
                a.iter().map(|c| c * c).sum::<f64>() > 1e-6
            })
            .prop_map(|(a, angle)| {
                UnitQuaternion::from_axis_angle(
                    &nalgebra::Unit::new_normalize(Vector3::from(a)),
                    angle,
                )
            })
    }

    #[test]
    fn quarter_turn_reads_in_closed_form() {
        // Rz(90deg) scaled by (2, 3, 4): columns (0, 2, 0), (-3, 0, 0), (0, 0, 4); normalised
        // (0, 1, 0), (-1, 0, 0), (0, 0, 1), orthogonal and right-handed: the closed form gives
        // (x, y, z, w) = (0, 0, sin 45deg, cos 45deg).
        let m = Matrix3::new(0.0, -3.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 4.0);
        assert!(closed_form_rotation(&unit_columns(&m)).is_some());
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let q = xyzw_positive_w(&rotation_of(&m));
        for (got, want) in q.iter().zip([0.0, 0.0, h, h]) {
            assert!((got - want).abs() < 1e-15, "{q:?}");
        }
    }

    #[test]
    fn shear_and_mirror_take_the_iterative_path() {
        // Shear: columns (1, 0, 0) and (1, 1, 0)/sqrt 2 have dot 0.707 > tolerance.
        let shear = Matrix3::new(1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0);
        assert!(closed_form_rotation(&unit_columns(&shear)).is_none());
        // Mirror in x: (-1, 0, 0) x (0, 1, 0) = (0, 0, -1), opposite to z.
        let mirror = Matrix3::from_diagonal(&Vector3::new(-1.0, 1.0, 1.0));
        assert!(closed_form_rotation(&mirror).is_none());
        // The sheared matrix gets its closest rotation (the polar factor, from an SVD).
        let q = rotation_of(&shear);
        assert!(gap(&q, &polar(&unit_columns(&shear))) < POLAR, "{q:?}");
    }

    /// The rotation factor `U V^T` of the polar decomposition of `m` (det `m` > 0): the
    /// rotation closest to `m`, found independently of nalgebra's iteration.
    fn polar(m: &Matrix3<f64>) -> UnitQuaternion<f64> {
        assert!(m.determinant() > 0.0);
        let svd = m.svd(true, true);
        let (u, v_t) = (svd.u.expect("u"), svd.v_t.expect("v_t"));
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(u * v_t))
    }

    /// Distance allowed from the SVD's polar factor (both are iterative).
    const POLAR: f64 = 1e-9;

    /// Largest component difference of two unit quaternions, up to sign (q and -q are the
    /// same rotation); about half the angle between them.
    fn gap(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> f64 {
        let (a, b) = (a.coords, b.coords);
        (a - b).amax().min((a + b).amax())
    }

    /// Distance allowed from nalgebra's iteration: it stops once a correction step is below
    /// its eps (1e-12 rad), so its own error reaches about 1e-12 (1.016e-12 seen).
    const ITERATION: f64 = 2e-12;

    /// Distance allowed from the exact rotation: a few roundings.
    const EXACT: f64 = 1e-13;

    proptest! {
        /// On rotations times positive axis scales the closed form is taken (not vacuous), is
        /// the exact rotation within 1e-13 and agrees with the iteration within its accuracy.
        #[test]
        fn closed_form_agrees_with_iteration(
            r in rotation_strategy(),
            s in prop::array::uniform3(0.01f64..100.0),
        ) {
            let m = r.to_rotation_matrix().into_inner()
                * Matrix3::from_diagonal(&Vector3::from(s));
            let cols = unit_columns(&m);
            prop_assert!(closed_form_rotation(&cols).is_some());
            let fast = rotation_of(&m);
            let slow = iterative_rotation(&cols);
            prop_assert!(gap(&fast, &r) < EXACT, "{} {:?} {:?}", gap(&fast, &r), fast, r);
            prop_assert!(gap(&fast, &slow) < ITERATION, "{} {:?} {:?}", gap(&fast, &slow), fast, slow);
        }

        /// Products of a few rotations (world matrices of rotated chains) are read in closed
        /// form, equal the product of the quaternions and agree with the iteration.
        #[test]
        fn chains_of_rotations_agree(rs in prop::collection::vec(rotation_strategy(), 1..6)) {
            let m = rs.iter().fold(Matrix3::identity(), |m, r| m * r.to_rotation_matrix().into_inner());
            let expected = rs.iter().fold(UnitQuaternion::identity(), |q, r| q * r);
            let cols = unit_columns(&m);
            prop_assert!(closed_form_rotation(&cols).is_some());
            let fast = rotation_of(&m);
            prop_assert!(gap(&fast, &expected) < EXACT, "{}", gap(&fast, &expected));
            prop_assert!(gap(&fast, &iterative_rotation(&cols)) < ITERATION);
        }

        /// Sheared matrices: whichever path is taken, the result is the closest rotation (the
        /// polar factor of the normalised columns, from an SVD).
        #[test]
        fn sheared_matrices_get_their_closest_rotation(
            r in rotation_strategy(),
            shear in -2.0f64..2.0,
        ) {
            let mut s = Matrix3::identity();
            s[(0, 1)] = shear;
            let m = r.to_rotation_matrix().into_inner() * s;
            let want = polar(&unit_columns(&m));
            prop_assert!(gap(&rotation_of(&m), &want) < POLAR, "{}", gap(&rotation_of(&m), &want));
        }
    }
}
