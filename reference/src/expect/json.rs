//! JSON forms of geometric values in the expected interpretation: vectors as `[x, y, z]`,
//! rotations as unit quaternions `[x, y, z, w]` with `w >= 0` (`math::xyzw_positive_w`), poses as
//! `{"translation", "rotation"}`, 3x3 matrices as rows.

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::math::{array3, xyzw_positive_w};

pub fn vec3<S: Serializer>(v: &Vector3<f64>, s: S) -> Result<S::Ok, S::Error> {
    array3(v).serialize(s)
}

pub fn opt_vec3<S: Serializer>(v: &Option<Vector3<f64>>, s: S) -> Result<S::Ok, S::Error> {
    v.as_ref().map(array3).serialize(s)
}

pub fn quat<S: Serializer>(q: &UnitQuaternion<f64>, s: S) -> Result<S::Ok, S::Error> {
    xyzw_positive_w(q).serialize(s)
}

/// Rows of the matrix.
pub fn rows(m: &Matrix3<f64>) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|r| [m[(r, 0)], m[(r, 1)], m[(r, 2)]])
}

pub fn opt_mat3<S: Serializer>(m: &Option<Matrix3<f64>>, s: S) -> Result<S::Ok, S::Error> {
    m.as_ref().map(rows).serialize(s)
}

pub fn pose<S: Serializer>(p: &Isometry3<f64>, s: S) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct("Pose", 2)?;
    st.serialize_field("rotation", &xyzw_positive_w(&p.rotation))?;
    st.serialize_field("translation", &array3(&p.translation.vector))?;
    st.end()
}

pub fn opt_pose<S: Serializer>(p: &Option<Isometry3<f64>>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => pose(p, s),
        None => s.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Probe {
        #[serde(serialize_with = "pose")]
        p: Isometry3<f64>,
        #[serde(serialize_with = "opt_mat3")]
        m: Option<Matrix3<f64>>,
    }

    #[test]
    fn poses_and_matrices_have_plain_forms() {
        // A rotation of 360 degrees about z is the quaternion (0, 0, 0, -1): printed with w >= 0.
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 2.0 * std::f64::consts::PI);
        assert!(q.w < 0.0);
        let probe = Probe {
            p: Isometry3::from_parts(Vector3::new(1.0, 2.0, 3.0).into(), q),
            m: Some(Matrix3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)),
        };
        let v = serde_json::to_value(&probe).expect("serialisable");
        assert_eq!(v["p"]["translation"], serde_json::json!([1.0, 2.0, 3.0]));
        let w = v["p"]["rotation"][3].as_f64().expect("number");
        assert!((w - 1.0).abs() < 1e-12);
        assert_eq!(
            v["m"],
            serde_json::json!([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
        );
    }
}
