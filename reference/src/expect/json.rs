//! JSON forms of geometric values in the expected interpretation, as `#[serde(with = ...)]`
//! modules: vectors as `[x, y, z]`, rotations as unit quaternions `[x, y, z, w]` with `w >= 0`
//! (`math::xyzw_positive_w`), poses as `{"translation", "rotation"}`, 3x3 matrices as rows.
//!
//! A rotation is read back as written, without normalising it: the corpus writes quaternions
//! to 6 decimals, and a reader that compares them renormalises where it computes with them
//! ([`crate::expect::joints::place`]), while its messages show the numbers of the file.

use nalgebra::{Isometry3, Matrix3, Quaternion, Translation3, UnitQuaternion, Vector3};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::math::{array3, xyzw_positive_w};

/// Rows of the matrix.
pub fn rows(m: &Matrix3<f64>) -> [[f64; 3]; 3] {
    [0, 1, 2].map(|r| [m[(r, 0)], m[(r, 1)], m[(r, 2)]])
}

/// The quaternion of `[x, y, z, w]` as written.
pub fn quaternion(q: [f64; 4]) -> UnitQuaternion<f64> {
    UnitQuaternion::new_unchecked(Quaternion::new(q[3], q[0], q[1], q[2]))
}

pub mod vec3 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Vector3<f64>, s: S) -> Result<S::Ok, S::Error> {
        array3(v).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vector3<f64>, D::Error> {
        <[f64; 3]>::deserialize(d).map(Vector3::from)
    }
}

pub mod opt_vec3 {
    use super::*;

    pub fn serialize<S: Serializer>(v: &Option<Vector3<f64>>, s: S) -> Result<S::Ok, S::Error> {
        v.as_ref().map(array3).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vector3<f64>>, D::Error> {
        Ok(Option::<[f64; 3]>::deserialize(d)?.map(Vector3::from))
    }
}

pub mod quat {
    use super::*;

    pub fn serialize<S: Serializer>(q: &UnitQuaternion<f64>, s: S) -> Result<S::Ok, S::Error> {
        xyzw_positive_w(q).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<UnitQuaternion<f64>, D::Error> {
        <[f64; 4]>::deserialize(d).map(quaternion)
    }
}

pub mod opt_mat3 {
    use super::*;

    pub fn serialize<S: Serializer>(m: &Option<Matrix3<f64>>, s: S) -> Result<S::Ok, S::Error> {
        m.as_ref().map(rows).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Matrix3<f64>>, D::Error> {
        Ok(Option::<[[f64; 3]; 3]>::deserialize(d)?.map(|r| Matrix3::from_fn(|i, j| r[i][j])))
    }
}

/// The written form of a pose.
#[derive(Serialize, Deserialize)]
struct PoseForm {
    rotation: [f64; 4],
    translation: [f64; 3],
}

pub mod pose {
    use super::*;

    pub fn serialize<S: Serializer>(p: &Isometry3<f64>, s: S) -> Result<S::Ok, S::Error> {
        PoseForm {
            rotation: xyzw_positive_w(&p.rotation),
            translation: array3(&p.translation.vector),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Isometry3<f64>, D::Error> {
        let p = PoseForm::deserialize(d)?;
        Ok(Isometry3::from_parts(
            Translation3::from(Vector3::from(p.translation)),
            quaternion(p.rotation),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Geometry {
        #[serde(with = "pose")]
        p: Isometry3<f64>,
        #[serde(with = "opt_mat3")]
        m: Option<Matrix3<f64>>,
    }

    #[test]
    fn poses_and_matrices_have_plain_forms() {
        // A rotation of 360 degrees about z is the quaternion (0, 0, 0, -1): printed with w >= 0.
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 2.0 * std::f64::consts::PI);
        assert!(q.w < 0.0);
        let probe = Geometry {
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
        // Read back: the same matrix, and the numbers of the rotation as written.
        let back: Geometry = serde_json::from_value(v.clone()).expect("reads");
        assert_eq!(back.m, probe.m);
        assert_eq!(serde_json::to_value(&back).expect("serialisable"), v);
    }

    #[test]
    fn a_rotation_reads_as_written() {
        // Written to 6 decimals, a rotation is not quite unit; it is kept as is.
        let q: [f64; 4] = [0.0, 0.0, 0.6, 0.800001];
        let read = quaternion(q);
        assert_eq!(xyzw_positive_w(&read), q);
    }
}
