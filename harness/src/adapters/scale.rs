//! A collider's shape as simulated, in the vocabulary of `ColliderReport`, shared by the
//! adapters. How a node's world scale acts on a shape is spec semantics and lives in
//! [`reference::expect::colliders`] [D-COLLIDER-SCALE]: the Rapier adapter bakes it into the
//! shapes it builds with the helpers re-exported here, the reference adapter reports the
//! expectation's scaled shape through [`parameters`].

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

pub(crate) use ::reference::expect::colliders::nearly_equal;
use ::reference::expect::{ScaledShape, Unabsorbed};
use ::reference::scene::{MeshId, Shape, TriangleMesh};

use crate::implementation::ReportedShape;

/// The shape's name and parameters as simulated (`radius`, `size`, `height`, `radius_top`,
/// `radius_bottom`; `vertex_count` and `triangle_count` for meshes), with the unabsorbed
/// `scale` or `stretch` beside them when the scale changed the shape's kind.
pub(crate) fn parameters(
    scaled: &ScaledShape,
    meshes: &BTreeMap<MeshId, TriangleMesh>,
) -> (ReportedShape, Map<String, Value>) {
    let mut p = Map::new();
    match &scaled.shape {
        Shape::Sphere { radius } => {
            p.insert("radius".into(), json!(radius));
        }
        Shape::Box { size } => {
            p.insert("size".into(), json!(<[f64; 3]>::from(*size)));
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
            p.insert("height".into(), json!(height));
            p.insert("radius_top".into(), json!(radius_top));
            p.insert("radius_bottom".into(), json!(radius_bottom));
        }
        Shape::Convex { mesh } | Shape::Trimesh { mesh } => {
            let m = meshes.get(mesh);
            p.insert(
                "vertex_count".into(),
                json!(m.map_or(0, |m| m.positions.len())),
            );
            if matches!(scaled.shape, Shape::Trimesh { .. }) {
                p.insert(
                    "triangle_count".into(),
                    json!(m.map_or(0, |m| m.triangles.len())),
                );
            }
        }
        Shape::Plane {
            double_sided,
            size_x,
            size_z,
        } => {
            p.insert("double_sided".into(), json!(double_sided));
            p.insert("size_x".into(), json!(size_x));
            p.insert("size_z".into(), json!(size_z));
        }
    }
    match &scaled.unabsorbed {
        Some(Unabsorbed::Scale(k)) => p.insert("scale".into(), json!(k)),
        Some(Unabsorbed::Stretch(s)) => p.insert("stretch".into(), json!(s)),
        None => None,
    };
    (ReportedShape::from(&scaled.shape), p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::reference::expect::colliders::scaled;
    use nalgebra::{Matrix3, Vector3};

    #[test]
    fn parameters_name_the_scaled_shape() {
        let none = BTreeMap::new();
        let d = |x, y, z| Matrix3::from_diagonal(&Vector3::new(x, y, z));
        // Box (1, 2, 3) under (2, 1, 0.5): (2, 2, 1.5).
        let b = Shape::Box {
            size: Vector3::new(1.0, 2.0, 3.0),
        };
        let (n, p) = parameters(&scaled(&b, &d(2.0, 1.0, 0.5)), &none);
        assert_eq!(
            (n, &p["size"]),
            (ReportedShape::Box, &json!([2.0, 2.0, 1.5]))
        );
        // A sphere under (1, 2, 1) is an ellipsoid: the file's radius and the scale.
        let (n, p) = parameters(
            &scaled(&Shape::Sphere { radius: 0.5 }, &d(1.0, 2.0, 1.0)),
            &none,
        );
        assert_eq!(n, ReportedShape::Sphere);
        assert_eq!(p["radius"], json!(0.5));
        assert_eq!(p["scale"], json!([1.0, 2.0, 1.0]));
        // A capsule keeps the canonical names.
        let c = Shape::Capsule {
            height: 0.8,
            radius_top: 0.4,
            radius_bottom: 0.4,
        };
        let (n, p) = parameters(&scaled(&c, &d(2.0, 2.0, 2.0)), &none);
        assert_eq!(n, ReportedShape::Capsule);
        assert_eq!(
            (&p["height"], &p["radius_top"], &p["radius_bottom"]),
            (&json!(1.6), &json!(0.8), &json!(0.8))
        );
    }

    /// The report of the reference adapter and the expectation in the corpus use the same
    /// names: every numeric parameter of the expectation's JSON is in the report.
    #[test]
    fn the_report_carries_every_parameter_of_the_expectation() {
        let none = BTreeMap::new();
        let d = |x, y, z| Matrix3::from_diagonal(&Vector3::new(x, y, z));
        for (shape, s) in [
            (Shape::Sphere { radius: 0.5 }, d(1.0, 2.0, 1.0)),
            (
                Shape::Cylinder {
                    height: 1.0,
                    radius_top: 0.2,
                    radius_bottom: 0.3,
                },
                d(1.0, 2.0, 3.0),
            ),
            (
                Shape::Box {
                    size: Vector3::new(1.0, 1.0, 1.0),
                },
                d(2.0, 2.0, 2.0),
            ),
        ] {
            let scaled = scaled(&shape, &s);
            let want = serde_json::to_value(&scaled).expect("serialises");
            let (_, got) = parameters(&scaled, &none);
            for (k, v) in want.as_object().expect("an object") {
                if k == "type" {
                    continue;
                }
                assert_eq!(got.get(k), Some(v), "{k} of {want}");
            }
        }
    }
}
