//! Canonical shapes -> parry shapes, with the collider node's scale baked in, and back.
//!
//! A collider's world matrix is its rigid pose times the stretch `S` (see
//! [`crate::adapters::scale`]). Which `S` a primitive absorbs, and how, is the reference's
//! rule ([`reference::expect::colliders::scaled`], [D-COLLIDER-SCALE]): the adapter builds the
//! scaled primitive it gives, and a primitive whose kind the scale would change (an ellipsoid,
//! a sheared box, a non-uniformly scaled capsule, an oval cylinder) is not supported. Then:
//! - a capsule with different top and bottom radii (tapered) has no Rapier shape: the convex
//!   hull of points on the two cap spheres (radial error below 0.5 %, any `S` applied to the
//!   points), said in the load notes;
//! - a cylinder with equal radii is a Rapier cylinder, with one zero radius a cone (flipped in
//!   a one-part compound when the apex is at the bottom), with two different radii a frustum,
//!   approximated by the convex hull of two 64-gons (radial error below 0.13 %, said in the
//!   load notes);
//! - convex, trimesh: any `S` (even a shear) is applied to the vertices exactly; a mirroring `S`
//!   flips the triangles' winding so the trimesh keeps its outward side;
//! - plane (khr-2025): an unbounded single-sided plane is a Rapier half-space (solid below the
//!   plane, normal +Y, exact; a stretch only moves points along or across it). Rapier has no
//!   bounded or double-sided plane: those are not supported (a thin box would collide on its
//!   underside and edges, which neither plane does).

use std::collections::BTreeMap;
use std::f64::consts::PI;

use nalgebra::{Matrix3, Vector3};
use rapier3d::geometry::{SharedShape, TypedShape};
use rapier3d::math::{Pose, Rotation, Vector};
use serde_json::{Map, Value, json};

use ::reference::expect::colliders::scaled;
use ::reference::scene::{MeshId, Shape, TriangleMesh};

use super::convert::real;
use crate::adapters::scale::nearly_equal;
use crate::implementation::{ImplError, ReportedShape};

/// Segments of the polygons approximating a frustum.
pub(super) const FRUSTUM_SEGMENTS: usize = 64;

/// A parry shape built from a canonical one.
#[derive(Clone, Debug)]
pub(super) struct BuiltShape {
    pub shape: SharedShape,
    /// Set when the Rapier shape only approximates the canonical one.
    pub approximation: Option<String>,
}

fn unsupported(what: &str) -> ImplError {
    ImplError::NotSupported(what.to_owned())
}

/// Build the parry shape of `shape` stretched by `s`.
pub(super) fn build(
    shape: &Shape,
    s: &Matrix3<f64>,
    meshes: &BTreeMap<MeshId, TriangleMesh>,
) -> Result<BuiltShape, ImplError> {
    let exact = |shape| {
        Ok(BuiltShape {
            shape,
            approximation: None,
        })
    };
    if let Shape::Capsule {
        height,
        radius_top,
        radius_bottom,
    } = *shape
        && !nearly_equal(radius_top, radius_bottom)
    {
        return tapered_capsule(height, radius_top, radius_bottom, s);
    }
    let primitive = || {
        let absorbed = scaled(shape, s);
        match absorbed.unabsorbed {
            None => Ok(absorbed.shape),
            Some(_) => Err(unsupported(match shape {
                Shape::Sphere { .. } => "a sphere under non-uniform scale (an ellipsoid)",
                Shape::Box { .. } => "a box under a sheared scale",
                Shape::Capsule { .. } => "a capsule under non-uniform scale",
                _ => "a cylinder under a scale that is not round about its axis",
            })),
        }
    };
    match shape {
        Shape::Sphere { .. }
        | Shape::Box { .. }
        | Shape::Capsule { .. }
        | Shape::Cylinder { .. } => match primitive()? {
            Shape::Sphere { radius } => exact(SharedShape::ball(real(radius, "sphere radius")?)),
            Shape::Box { size } => {
                let half = size / 2.0;
                exact(SharedShape::cuboid(
                    real(half.x, "box size")?,
                    real(half.y, "box size")?,
                    real(half.z, "box size")?,
                ))
            }
            Shape::Capsule {
                height, radius_top, ..
            } => exact(SharedShape::capsule_y(
                real(height / 2.0, "capsule height")?,
                real(radius_top, "capsule radius")?,
            )),
            Shape::Cylinder {
                height,
                radius_top,
                radius_bottom,
            } => cylinder(height, radius_top, radius_bottom),
            Shape::Convex { .. } | Shape::Trimesh { .. } | Shape::Plane { .. } => Err(
                ImplError::Failed("a primitive scaled into another kind".into()),
            ),
        },
        Shape::Plane {
            double_sided: false,
            size_x: None,
            size_z: None,
        } => {
            if axis_scale_mirrors_y(s) {
                return Err(unsupported(
                    "a single-sided plane under a scale that flips its normal",
                ));
            }
            exact(SharedShape::halfspace(Vector::Y))
        }
        Shape::Plane {
            double_sided: true, ..
        } => Err(unsupported(
            "a double-sided plane (Rapier's half-space has one side)",
        )),
        Shape::Plane { .. } => Err(unsupported(
            "a bounded plane (Rapier's half-space is unbounded)",
        )),
        Shape::Convex { mesh } => {
            let points = stretched_points(mesh_of(meshes, *mesh)?, s)?;
            let hull = SharedShape::convex_hull(&points).ok_or_else(|| {
                ImplError::Failed(format!(
                    "the convex hull of mesh {mesh} is degenerate ({} points)",
                    points.len()
                ))
            })?;
            exact(hull)
        }
        Shape::Trimesh { mesh } => {
            let source = mesh_of(meshes, *mesh)?;
            let points = stretched_points(source, s)?;
            let mirrored = s.determinant() < 0.0;
            let mut triangles = Vec::with_capacity(source.triangles.len());
            for t in &source.triangles {
                if t.iter().any(|&i| i as usize >= points.len()) {
                    return Err(ImplError::Failed(format!(
                        "mesh {mesh}: a triangle index is out of range"
                    )));
                }
                triangles.push(if mirrored { [t[0], t[2], t[1]] } else { *t });
            }
            let trimesh = SharedShape::trimesh(points, triangles)
                .map_err(|e| ImplError::Failed(format!("mesh {mesh}: {e}")))?;
            exact(trimesh)
        }
    }
}

/// Whether stretch `s` turns local +Y to a direction below the plane (its (1, 1) entry is
/// negative: a mirrored normal), or shears it out of the plane's normal.
fn axis_scale_mirrors_y(s: &Matrix3<f64>) -> bool {
    s[(1, 1)] <= 0.0 || s[(0, 1)] != 0.0 || s[(2, 1)] != 0.0
}

fn mesh_of(
    meshes: &BTreeMap<MeshId, TriangleMesh>,
    id: MeshId,
) -> Result<&TriangleMesh, ImplError> {
    meshes
        .get(&id)
        .ok_or_else(|| ImplError::Failed(format!("mesh {id} has no triangles in the scene")))
}

fn stretched_points(mesh: &TriangleMesh, s: &Matrix3<f64>) -> Result<Vec<Vector>, ImplError> {
    mesh.positions
        .iter()
        .map(|p| {
            let q = s * Vector3::from(*p);
            super::convert::vector(&q, "mesh vertex")
        })
        .collect()
}

/// A cylinder already scaled: a Rapier cylinder, a cone, or a frustum's hull.
fn cylinder(height: f64, top: f64, bottom: f64) -> Result<BuiltShape, ImplError> {
    let half = height / 2.0;
    let half_f = real(half, "cylinder height")?;
    if nearly_equal(top, bottom) {
        return Ok(BuiltShape {
            shape: SharedShape::cylinder(half_f, real(top, "cylinder radius")?),
            approximation: None,
        });
    }
    if top == 0.0 {
        return Ok(BuiltShape {
            shape: SharedShape::cone(half_f, real(bottom, "cylinder radius")?),
            approximation: None,
        });
    }
    if bottom == 0.0 {
        // Parry's cone has its apex at +Y: turn it over about X.
        let flip = Pose::from_rotation(Rotation::from_rotation_x(std::f32::consts::PI));
        let cone = SharedShape::cone(half_f, real(top, "cylinder radius")?);
        return Ok(BuiltShape {
            shape: SharedShape::compound(vec![(flip, cone)]),
            approximation: None,
        });
    }
    let mut points = Vec::with_capacity(2 * FRUSTUM_SEGMENTS);
    for i in 0..FRUSTUM_SEGMENTS {
        let a = 2.0 * PI * i as f64 / FRUSTUM_SEGMENTS as f64;
        for (y, r) in [(half, top), (-half, bottom)] {
            points.push(super::convert::vector(
                &Vector3::new(r * a.cos(), y, r * a.sin()),
                "cylinder",
            )?);
        }
    }
    let hull = SharedShape::convex_hull(&points)
        .ok_or_else(|| ImplError::Failed("the frustum's convex hull is degenerate".into()))?;
    Ok(BuiltShape {
        shape: hull,
        approximation: Some(format!(
            "a cylinder with radii {top} (top) and {bottom} (bottom) is the convex hull of two \
             {FRUSTUM_SEGMENTS}-gons"
        )),
    })
}

/// Rings and segments of the spheres approximating a tapered capsule's caps.
pub(super) const CAP_RINGS: usize = 16;
pub(super) const CAP_SEGMENTS: usize = 32;

/// A capsule with two radii: the convex hull of points on its two cap spheres (the exact shape
/// is the hull of the spheres), stretched by `s`. The points are vertices of an inscribed
/// polyhedron with 11.25 degree spacing: the radial error is below r (1 - cos 5.625 deg) < 0.5 %.
fn tapered_capsule(
    height: f64,
    top: f64,
    bottom: f64,
    s: &Matrix3<f64>,
) -> Result<BuiltShape, ImplError> {
    let mut points = Vec::with_capacity(2 * (CAP_RINGS + 1) * CAP_SEGMENTS);
    for (y, r) in [(height / 2.0, top), (-height / 2.0, bottom)] {
        for i in 0..=CAP_RINGS {
            let phi = PI * i as f64 / CAP_RINGS as f64;
            for j in 0..CAP_SEGMENTS {
                let theta = 2.0 * PI * j as f64 / CAP_SEGMENTS as f64;
                let p = Vector3::new(
                    r * phi.sin() * theta.cos(),
                    y + r * phi.cos(),
                    r * phi.sin() * theta.sin(),
                );
                points.push(super::convert::vector(&(s * p), "capsule")?);
            }
        }
    }
    let hull = SharedShape::convex_hull(&points).ok_or_else(|| {
        ImplError::Failed("the tapered capsule's convex hull is degenerate".into())
    })?;
    Ok(BuiltShape {
        shape: hull,
        approximation: Some(format!(
            "a capsule with radii {top} (top) and {bottom} (bottom) is the convex hull of points \
             on its caps (Rapier capsules have one radius)"
        )),
    })
}

/// What a parry shape is, in the canonical vocabulary of [`ColliderReport`]
/// (`crate::implementation::ColliderReport`): the name and the parameters read back from it.
pub(super) fn describe(shape: &SharedShape) -> (ReportedShape, Map<String, Value>) {
    let mut p = Map::new();
    let f = |v: f32| json!(f64::from(v));
    let name = match shape.as_typed_shape() {
        TypedShape::Ball(b) => {
            p.insert("radius".into(), f(b.radius));
            ReportedShape::Sphere
        }
        TypedShape::Cuboid(c) => {
            let size = c.half_extents * 2.0;
            p.insert("size".into(), json!(super::convert::array(size)));
            ReportedShape::Box
        }
        TypedShape::Capsule(c) => {
            p.insert("height".into(), f(c.segment.length()));
            p.insert("radius_top".into(), f(c.radius));
            p.insert("radius_bottom".into(), f(c.radius));
            ReportedShape::Capsule
        }
        TypedShape::Cylinder(c) => {
            p.insert("height".into(), f(2.0 * c.half_height));
            p.insert("radius_top".into(), f(c.radius));
            p.insert("radius_bottom".into(), f(c.radius));
            ReportedShape::Cylinder
        }
        TypedShape::Cone(c) => {
            p.insert("height".into(), f(2.0 * c.half_height));
            p.insert("radius_top".into(), f(0.0));
            p.insert("radius_bottom".into(), f(c.radius));
            ReportedShape::Cylinder
        }
        TypedShape::Compound(c) => match c.shapes() {
            [(pose, part)] if part.as_cone().is_some() => {
                let (name, mut q) = describe(part);
                // An apex turned down: the radii swap.
                if (pose.rotation * Vector::Y).y < 0.0 {
                    let top = q.remove("radius_top");
                    let bottom = q.remove("radius_bottom");
                    q.insert("radius_top".into(), bottom.unwrap_or(Value::Null));
                    q.insert("radius_bottom".into(), top.unwrap_or(Value::Null));
                }
                return (name, q);
            }
            parts => {
                p.insert("parts".into(), json!(parts.len()));
                ReportedShape::Compound
            }
        },
        TypedShape::ConvexPolyhedron(c) => {
            p.insert("vertex_count".into(), json!(c.points().len()));
            ReportedShape::Convex
        }
        TypedShape::TriMesh(t) => {
            p.insert("vertex_count".into(), json!(t.vertices().len()));
            p.insert("triangle_count".into(), json!(t.indices().len()));
            ReportedShape::Trimesh
        }
        TypedShape::HalfSpace(_) => {
            p.insert("double_sided".into(), json!(false));
            p.insert("size_x".into(), Value::Null);
            p.insert("size_z".into(), Value::Null);
            ReportedShape::Plane
        }
        _ => ReportedShape::Other,
    };
    (name, p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scaled(x: f64, y: f64, z: f64) -> Matrix3<f64> {
        Matrix3::from_diagonal(&Vector3::new(x, y, z))
    }

    fn param(p: &Map<String, Value>, k: &str) -> f64 {
        p[k].as_f64().expect("number")
    }

    #[test]
    fn scale_is_baked_into_primitives() {
        let none = BTreeMap::new();
        // Box of size (1, 2, 3) scaled (2, 1, 0.5): half extents (1, 1, 0.75).
        let b = build(
            &Shape::Box {
                size: Vector3::new(1.0, 2.0, 3.0),
            },
            &scaled(2.0, 1.0, 0.5),
            &none,
        )
        .expect("box");
        let (name, p) = describe(&b.shape);
        assert_eq!(name, ReportedShape::Box);
        assert_eq!(p["size"], json!([2.0, 2.0, 1.5]));
        // Capsule height 0.5 (between cap centres), radius 0.25, uniform scale 2:
        // Rapier half height 0.5, radius 0.5; read back height 1.0.
        let c = build(
            &Shape::Capsule {
                height: 0.5,
                radius_top: 0.25,
                radius_bottom: 0.25,
            },
            &scaled(2.0, 2.0, 2.0),
            &none,
        )
        .expect("capsule");
        let (name, p) = describe(&c.shape);
        assert_eq!(name, ReportedShape::Capsule);
        assert!((param(&p, "height") - 1.0).abs() < 1e-6);
        assert!((param(&p, "radius_top") - 0.5).abs() < 1e-6);
    }

    #[test]
    fn what_rapier_cannot_express_is_refused() {
        let none = BTreeMap::new();
        let sphere = Shape::Sphere { radius: 1.0 };
        assert!(matches!(
            build(&sphere, &scaled(1.0, 2.0, 1.0), &none),
            Err(ImplError::NotSupported(_))
        ));
    }

    #[test]
    fn a_tapered_capsule_is_a_hull_within_half_a_percent() {
        let none = BTreeMap::new();
        let tapered = Shape::Capsule {
            height: 1.0,
            radius_top: 0.2,
            radius_bottom: 0.3,
        };
        let b = build(&tapered, &Matrix3::identity(), &none).expect("a hull");
        assert!(b.approximation.is_some());
        // Extent along y: from -0.5 - 0.3 = -0.8 to 0.5 + 0.2 = 0.7 (the poles are sampled).
        let aabb = b.shape.compute_local_aabb();
        assert!((aabb.mins.y + 0.8).abs() < 1e-5 && (aabb.maxs.y - 0.7).abs() < 1e-5);
        // Around the bottom cap's equator the radius is 0.3 within 0.5 %.
        assert!(
            aabb.maxs.x <= 0.3 + 1e-6 && aabb.maxs.x >= 0.3 * 0.995,
            "{aabb:?}"
        );
    }

    #[test]
    fn cones_keep_their_orientation_and_frustums_are_flagged() {
        let none = BTreeMap::new();
        for (top, bottom) in [(0.0, 0.3), (0.3, 0.0)] {
            let b = build(
                &Shape::Cylinder {
                    height: 1.0,
                    radius_top: top,
                    radius_bottom: bottom,
                },
                &Matrix3::identity(),
                &none,
            )
            .expect("cone");
            assert!(b.approximation.is_none());
            let (name, p) = describe(&b.shape);
            assert_eq!(name, ReportedShape::Cylinder);
            assert!((param(&p, "radius_top") - top).abs() < 1e-6, "{p:?}");
            assert!((param(&p, "radius_bottom") - bottom).abs() < 1e-6, "{p:?}");
            // The narrow side is where the file says: at y = 0.45 the radius is
            // 0.3 * 0.05 = 0.015 below an apex at the top, 0.3 * 0.95 = 0.285 above an apex at
            // the bottom, so (0.25, 0.45, 0) is inside only in the second case.
            let inside = b.shape.contains_local_point(Vector::new(0.25, 0.45, 0.0));
            assert_eq!(inside, top > 0.0, "top {top}");
        }
        let frustum = build(
            &Shape::Cylinder {
                height: 1.0,
                radius_top: 0.2,
                radius_bottom: 0.4,
            },
            &Matrix3::identity(),
            &none,
        )
        .expect("frustum");
        assert!(frustum.approximation.is_some());
        assert_eq!(describe(&frustum.shape).0, ReportedShape::Convex);
    }

    #[test]
    fn mirrored_trimesh_keeps_its_winding_outward() {
        let mut meshes = BTreeMap::new();
        meshes.insert(
            0,
            TriangleMesh {
                positions: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
                triangles: vec![[0, 1, 2]],
            },
        );
        let b = build(
            &Shape::Trimesh { mesh: 0 },
            &scaled(-1.0, 1.0, 1.0),
            &meshes,
        )
        .expect("trimesh");
        let t = b.shape.as_trimesh().expect("a trimesh");
        assert_eq!(t.indices(), &[[0, 2, 1]]);
        // The normal of the original triangle is +Z; mirrored in x and rewound it stays +Z.
        let v = t.vertices();
        let n = (v[2] - v[0]).cross(v[1] - v[0]);
        assert!(n.z > 0.0, "{n:?}");
        let bad = TriangleMesh {
            positions: vec![[0.0, 0.0, 0.0]],
            triangles: vec![[0, 1, 2]],
        };
        meshes.insert(1, bad);
        assert!(matches!(
            build(&Shape::Trimesh { mesh: 1 }, &Matrix3::identity(), &meshes),
            Err(ImplError::Failed(_))
        ));
    }
}
