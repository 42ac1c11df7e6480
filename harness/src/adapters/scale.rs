//! How a collider node's world scale applies to its shape, shared by the adapters: the Rapier
//! adapter bakes it into the shapes it builds, the reference adapter reports the shape as
//! simulated with it.
//!
//! A collider's world matrix `M` is its rigid pose (`reference::math::pose_of`) times the
//! stretch `S = R^T L` (L the 3x3 block, R its closest rotation). A shape keeps its kind under
//! `S` when `S` is: uniform (sphere, capsule), axis-aligned (box), axis-aligned with equal x and
//! z scales (cylinder); meshes take any `S`.

use std::collections::BTreeMap;

use nalgebra::{Matrix3, Matrix4, Vector3};
use serde_json::{Map, Value, json};

use ::reference::scene::{MeshId, Shape, TriangleMesh};

/// Relative tolerance under which a stretch counts as axis-aligned or uniform.
const SCALE_TOLERANCE: f64 = 1e-6;

/// The stretch `S = R^T L` of a world matrix (scale and shear in the node's rigid frame).
pub(crate) fn stretch(world: &Matrix4<f64>) -> Matrix3<f64> {
    let linear: Matrix3<f64> = world.fixed_view::<3, 3>(0, 0).into_owned();
    let rotation = ::reference::math::rotation_of(&linear);
    rotation.to_rotation_matrix().matrix().transpose() * linear
}

/// The per-axis scale of an axis-aligned stretch (absolute values: a mirrored primitive is
/// the same primitive), or `None` when it shears or rotates.
pub(crate) fn axis_scale(s: &Matrix3<f64>) -> Option<Vector3<f64>> {
    let size = s.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let off = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
        .iter()
        .fold(0.0_f64, |m, &(r, c)| m.max(s[(r, c)].abs()));
    (off <= SCALE_TOLERANCE * size.max(f64::MIN_POSITIVE))
        .then(|| Vector3::new(s[(0, 0)].abs(), s[(1, 1)].abs(), s[(2, 2)].abs()))
}

pub(crate) fn nearly_equal(a: f64, b: f64) -> bool {
    (a - b).abs() <= SCALE_TOLERANCE * a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
}

/// The scale of a uniform per-axis scale.
pub(crate) fn uniform(d: &Vector3<f64>) -> Option<f64> {
    (nearly_equal(d.x, d.y) && nearly_equal(d.y, d.z)).then(|| (d.x + d.y + d.z) / 3.0)
}

/// The shape's name and parameters as simulated under stretch `s`, in the vocabulary of
/// `ColliderReport`. When `s` changes the shape's kind (an ellipsoid, a sheared box), the file's
/// parameters are given with the per-axis `scale` (or the full `stretch`) beside them.
#[cfg_attr(
    not(test),
    allow(
        dead_code,
        reason = "used by the reference adapter once reference::expect lands"
    )
)]
pub(crate) fn parameters(
    shape: &Shape,
    s: &Matrix3<f64>,
    meshes: &BTreeMap<MeshId, TriangleMesh>,
) -> (String, Map<String, Value>) {
    let mut p = Map::new();
    let k = axis_scale(s);
    let u = k.as_ref().and_then(uniform);
    let unscaled = |p: &mut Map<String, Value>| match k {
        Some(k) => p.insert("scale".into(), json!([k.x, k.y, k.z])),
        None => p.insert("stretch".into(), json!(s.transpose().as_slice())),
    };
    let name = match shape {
        Shape::Sphere { radius } => {
            match u {
                Some(u) => p.insert("radius".into(), json!(radius * u)),
                None => {
                    p.insert("radius".into(), json!(radius));
                    unscaled(&mut p)
                }
            };
            "sphere"
        }
        Shape::Box { size } => {
            match k {
                Some(k) => p.insert(
                    "size".into(),
                    json!(<[f64; 3]>::from(size.component_mul(&k))),
                ),
                None => {
                    p.insert("size".into(), json!(<[f64; 3]>::from(*size)));
                    unscaled(&mut p)
                }
            };
            "box"
        }
        Shape::Capsule {
            height,
            radius_top,
            radius_bottom,
        }
        | Shape::Cylinder {
            height,
            radius_top,
            radius_bottom,
        } => {
            let capsule = matches!(shape, Shape::Capsule { .. });
            let (axial, radial) = match (capsule, u, k) {
                (true, Some(u), _) => (Some(u), u),
                (false, _, Some(k)) if nearly_equal(k.x, k.z) => (Some(k.y), k.x),
                _ => (None, 1.0),
            };
            p.insert("height".into(), json!(height * axial.unwrap_or(1.0)));
            p.insert("radius_top".into(), json!(radius_top * radial));
            p.insert("radius_bottom".into(), json!(radius_bottom * radial));
            if axial.is_none() {
                unscaled(&mut p);
            }
            if capsule { "capsule" } else { "cylinder" }
        }
        Shape::Convex { mesh } | Shape::Trimesh { mesh } => {
            let m = meshes.get(mesh);
            p.insert(
                "vertex_count".into(),
                json!(m.map_or(0, |m| m.positions.len())),
            );
            if matches!(shape, Shape::Trimesh { .. }) {
                p.insert(
                    "triangle_count".into(),
                    json!(m.map_or(0, |m| m.triangles.len())),
                );
                "trimesh"
            } else {
                "convex"
            }
        }
    };
    (name.to_owned(), p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Translation3, UnitQuaternion};

    #[test]
    fn stretch_is_the_scale_in_the_rigid_frame() {
        // T(1,2,3) R_z(30 deg) S(2,3,4): the stretch is diag(2,3,4).
        let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_6);
        let m = Translation3::new(1.0, 2.0, 3.0).to_homogeneous()
            * r.to_homogeneous()
            * Matrix4::new_nonuniform_scaling(&Vector3::new(2.0, 3.0, 4.0));
        let s = stretch(&m);
        assert!(
            (s - Matrix3::from_diagonal(&Vector3::new(2.0, 3.0, 4.0))).norm() < 1e-9,
            "{s}"
        );
    }

    #[test]
    fn parameters_apply_the_scale_where_the_kind_survives() {
        let none = BTreeMap::new();
        let d = |x, y, z| Matrix3::from_diagonal(&Vector3::new(x, y, z));
        // Box (1, 2, 3) under (2, 1, 0.5): (2, 2, 1.5).
        let (n, p) = parameters(
            &Shape::Box {
                size: Vector3::new(1.0, 2.0, 3.0),
            },
            &d(2.0, 1.0, 0.5),
            &none,
        );
        assert_eq!((n.as_str(), &p["size"]), ("box", &json!([2.0, 2.0, 1.5])));
        // Cylinder height 1, radii 0.25 under (3, 2, 3): height 2, radii 0.75.
        let (_, p) = parameters(
            &Shape::Cylinder {
                height: 1.0,
                radius_top: 0.25,
                radius_bottom: 0.25,
            },
            &d(3.0, 2.0, 3.0),
            &none,
        );
        assert_eq!(p["height"], json!(2.0));
        assert_eq!(p["radius_top"], json!(0.75));
        // A sphere under (1, 2, 1) is an ellipsoid: the file's radius and the scale.
        let (_, p) = parameters(&Shape::Sphere { radius: 0.5 }, &d(1.0, 2.0, 1.0), &none);
        assert_eq!(p["radius"], json!(0.5));
        assert_eq!(p["scale"], json!([1.0, 2.0, 1.0]));
    }
}
