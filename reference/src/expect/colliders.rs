//! Expected colliders and triggers: the owning body, the pose relative to it, the shape.
//!
//! A collider or trigger belongs to its nearest ancestor-or-self body, else it is static
//! [D-FRAMES]; the reader records that owner in [`Collider::body`]. The relative pose is the rest
//! pose of the collider node relative to the owner's rest pose (rigid parts), the world pose
//! for a static one.
//!
//! The shape is the one simulated [D-COLLIDER-SCALE]: a collider inherits its node's whole world
//! transform (KHR: the node hierarchy; OMI_collider: "colliders inherit the transform of the
//! glTF node they are attached to", scaling being discouraged, not ignored), so the node's world
//! scale applies to the shape. A collider's world matrix `M` is its rigid pose
//! (`math::pose_of`) times the stretch `S = R^T L` (L the 3x3 block, R its closest rotation).
//! A shape keeps its kind under `S` when `S` is: uniform (sphere, capsule), axis-aligned (box),
//! axis-aligned with equal x and z scales (cylinder); meshes take any `S`. Then `S` is folded
//! into the parameters; otherwise the file's parameters are kept and what is left of `S` is
//! given beside them ([`Unabsorbed`]).

use nalgebra::{Isometry3, Matrix3, Matrix4, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use crate::decision::Decision;
use crate::profile::Profile;
use crate::scene::{BodyId, Collider, CompoundTrigger, FilterId, MaterialId, NodeId, Scene, Shape};

use super::json;
use super::world::World;

/// What an importer must end up with for one collider or trigger.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColliderExpect {
    /// The owning body (index into `bodies`); `None`: static.
    pub body: Option<BodyId>,
    pub body_node: Option<NodeId>,
    pub decisions: Vec<Decision>,
    pub filter: Option<FilterId>,
    pub index: usize,
    pub material: Option<MaterialId>,
    pub node: NodeId,
    /// Pose relative to the owning body (world pose when static), at rest.
    #[serde(with = "json::pose")]
    pub pose: Isometry3<f64>,
    /// The shape as simulated: profile defaults resolved, the node's world scale applied.
    pub shape: Option<ScaledShape>,
    pub trigger: bool,
}

/// A shape under a node's world scale; serialised as the shape's own object with the
/// unabsorbed scale, if any, beside its parameters (`{"type": "sphere", "radius": 0.5,
/// "scale": [1, 2, 1]}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScaledShape {
    #[serde(flatten)]
    pub shape: Shape,
    #[serde(flatten)]
    pub unabsorbed: Option<Unabsorbed>,
}

/// The part of a stretch a shape's kind cannot take (an ellipsoid, a sheared box).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unabsorbed {
    /// Per-axis scale (absolute values) of an axis-aligned stretch.
    Scale([f64; 3]),
    /// The whole stretch, row-major, when it shears or rotates.
    Stretch([f64; 9]),
}

/// Relative tolerance under which a stretch counts as axis-aligned or uniform.
pub const SCALE_TOLERANCE: f64 = 1e-6;

/// The stretch `S = R^T L` of a world matrix (scale and shear in the node's rigid frame).
pub fn stretch(world: &Matrix4<f64>) -> Matrix3<f64> {
    let linear: Matrix3<f64> = world.fixed_view::<3, 3>(0, 0).into_owned();
    stretch_with(world, &crate::math::rotation_of(&linear))
}

/// The stretch a profile simulates for a collider of world matrix `world`: [`stretch`], except
/// under `khr-2025` and `khr-2026` for a mirroring matrix [D-SHAPE-SCALE]: a negative scale acts by its
/// absolute value, so the rotation is taken from the matrix with its z column turned over
/// (exact when the scale is axis-aligned), and the stretch keeps the signs the absolute value
/// then drops.
/// Whether `profile` has the zero and negative scale rules of [D-SHAPE-SCALE].
fn shape_scale_rules(profile: Profile) -> bool {
    crate::khr::Revision::of(profile).is_some_and(|r| r.shape_scale_rules)
}

pub fn stretch_of(profile: Profile, world: &Matrix4<f64>) -> Matrix3<f64> {
    let linear: Matrix3<f64> = world.fixed_view::<3, 3>(0, 0).into_owned();
    if shape_scale_rules(profile) && linear.determinant() < 0.0 {
        let flipped = linear * Matrix3::from_diagonal(&Vector3::new(1.0, 1.0, -1.0));
        return stretch_with(world, &crate::math::rotation_of(&flipped));
    }
    stretch(world)
}

/// [`stretch`] of a world matrix whose closest rotation `math::rotation_of` is known (the
/// rotation of its pose, `math::pose_of`).
fn stretch_with(world: &Matrix4<f64>, rotation: &UnitQuaternion<f64>) -> Matrix3<f64> {
    let linear: Matrix3<f64> = world.fixed_view::<3, 3>(0, 0).into_owned();
    rotation.to_rotation_matrix().matrix().transpose() * linear
}

/// The per-axis scale of an axis-aligned stretch (absolute values: a mirrored primitive is
/// the same primitive), or `None` when it shears or rotates.
pub fn axis_scale(s: &Matrix3<f64>) -> Option<Vector3<f64>> {
    let size = s.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let off = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]
        .iter()
        .fold(0.0_f64, |m, &(r, c)| m.max(s[(r, c)].abs()));
    (off <= SCALE_TOLERANCE * size.max(f64::MIN_POSITIVE))
        .then(|| Vector3::new(s[(0, 0)].abs(), s[(1, 1)].abs(), s[(2, 2)].abs()))
}

/// Equal within [`SCALE_TOLERANCE`] (relative).
pub fn nearly_equal(a: f64, b: f64) -> bool {
    (a - b).abs() <= SCALE_TOLERANCE * a.abs().max(b.abs()).max(f64::MIN_POSITIVE)
}

/// The scale of a uniform per-axis scale.
pub fn uniform(d: &Vector3<f64>) -> Option<f64> {
    (nearly_equal(d.x, d.y) && nearly_equal(d.y, d.z)).then(|| (d.x + d.y + d.z) / 3.0)
}

/// The stretch is the identity (within [`SCALE_TOLERANCE`]): the node is not scaled.
pub fn unscaled(s: &Matrix3<f64>) -> bool {
    axis_scale(s)
        .and_then(|k| uniform(&k))
        .is_some_and(|u| nearly_equal(u, 1.0))
}

/// A shape under stretch `s`, as simulated. An unscaled node leaves the shape's parameters
/// untouched (bit for bit: a rotation's rounding does not leak into them).
pub fn scaled(shape: &Shape, s: &Matrix3<f64>) -> ScaledShape {
    if unscaled(s) {
        return ScaledShape {
            shape: shape.clone(),
            unabsorbed: None,
        };
    }
    let k = axis_scale(s);
    let u = k.as_ref().and_then(uniform);
    let left = Some(match k {
        Some(k) => Unabsorbed::Scale([k.x, k.y, k.z]),
        None => Unabsorbed::Stretch(
            s.transpose()
                .as_slice()
                .try_into()
                .unwrap_or([1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
        ),
    });
    let (shape, unabsorbed) = match *shape {
        Shape::Sphere { radius } => match u {
            Some(u) => (Shape::Sphere { radius: radius * u }, None),
            None => (shape.clone(), left),
        },
        Shape::Box { size } => match k {
            Some(k) => (
                Shape::Box {
                    size: size.component_mul(&k),
                },
                None,
            ),
            None => (shape.clone(), left),
        },
        Shape::Capsule {
            height,
            radius_top,
            radius_bottom,
        } => match u {
            Some(u) => (
                Shape::Capsule {
                    height: height * u,
                    radius_top: radius_top * u,
                    radius_bottom: radius_bottom * u,
                },
                None,
            ),
            None => (shape.clone(), left),
        },
        Shape::Cylinder {
            height,
            radius_top,
            radius_bottom,
        } => match k.filter(|k| nearly_equal(k.x, k.z)) {
            Some(k) => (
                Shape::Cylinder {
                    height: height * k.y,
                    radius_top: radius_top * k.x,
                    radius_bottom: radius_bottom * k.x,
                },
                None,
            ),
            None => (shape.clone(), left),
        },
        // A mesh's vertices take any stretch: the shape stays a mesh of the same counts.
        Shape::Convex { .. } | Shape::Trimesh { .. } => (shape.clone(), None),
        // A plane's sizes take the x and z scales of an axis-aligned stretch (y only moves
        // points along the normal; an unbounded side stays unbounded).
        Shape::Plane {
            double_sided,
            size_x,
            size_z,
        } => match k {
            Some(k) => (
                Shape::Plane {
                    double_sided,
                    size_x: size_x.map(|x| x * k.x),
                    size_z: size_z.map(|z| z * k.z),
                },
                None,
            ),
            None => (shape.clone(), left),
        },
    };
    ScaledShape { shape, unabsorbed }
}

/// The expectation of one collider.
pub fn collider(scene: &Scene, world: &World, index: usize, c: &Collider) -> ColliderExpect {
    let body_node = c.body.and_then(|b| scene.bodies.get(b)).map(|b| b.node);
    let s = world.rest.get(c.node).map_or_else(Matrix3::identity, |m| {
        if shape_scale_rules(scene.profile) && m.fixed_view::<3, 3>(0, 0).determinant() < 0.0 {
            stretch_of(scene.profile, m)
        } else {
            stretch_with(m, &world.rest_pose(Some(c.node)).rotation)
        }
    });
    let shape = scene.shapes.get(c.shape).map(|shape| scaled(shape, &s));
    let mut decisions = vec![Decision::Frames];
    if scene.profile == Profile::Omi2023
        && matches!(
            shape,
            Some(ScaledShape {
                shape: Shape::Capsule { .. },
                ..
            })
        )
    {
        decisions.push(Decision::Capsule);
    }
    if scene.profile.is_omi24()
        && matches!(
            shape,
            Some(ScaledShape {
                shape: Shape::Capsule { .. } | Shape::Cylinder { .. },
                ..
            })
        )
    {
        decisions.push(Decision::OmiCapsuleRevision);
    }
    if !unscaled(&s) {
        decisions.push(Decision::ColliderScale);
    }
    if shape_scale_rules(scene.profile) {
        let mesh = matches!(
            shape,
            Some(ScaledShape {
                shape: Shape::Convex { .. } | Shape::Trimesh { .. },
                ..
            })
        );
        if mesh && scene.node_geometry.contains(&c.shape) {
            decisions.push(Decision::GeometryNode);
            if scene.profile == Profile::Khr2026 {
                decisions.push(Decision::GeometryNode2026);
            }
        } else if mesh {
            decisions.push(Decision::GeometryMesh);
        }
        if !unscaled(&s) {
            decisions.push(Decision::ShapeScale);
        }
    }
    ColliderExpect {
        index,
        node: c.node,
        body: c.body,
        body_node,
        trigger: c.is_trigger,
        pose: world.rest_relative(body_node, c.node),
        shape,
        material: c.material,
        filter: c.filter,
        decisions,
    }
}

/// Every collider and simple trigger of the scene.
pub fn colliders(scene: &Scene, world: &World) -> Vec<ColliderExpect> {
    scene
        .colliders
        .iter()
        .enumerate()
        .map(|(i, c)| collider(scene, world, i, c))
        .collect()
}

/// A KHR compound trigger: its node, its owning body, and its member trigger nodes.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompoundTriggerExpect {
    pub body: Option<BodyId>,
    pub members: Vec<NodeId>,
    pub node: NodeId,
}

/// Every compound trigger of the scene.
pub fn compound_triggers(scene: &Scene) -> Vec<CompoundTriggerExpect> {
    scene
        .compound_triggers
        .iter()
        .map(|t: &CompoundTrigger| CompoundTriggerExpect {
            node: t.node,
            body: scene.owning_body(t.node),
            members: t.members.clone(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use nalgebra::{Translation3, UnitQuaternion};
    use proptest::prelude::*;

    use super::*;

    fn d(x: f64, y: f64, z: f64) -> Matrix3<f64> {
        Matrix3::from_diagonal(&Vector3::new(x, y, z))
    }

    #[test]
    fn stretch_is_the_scale_in_the_rigid_frame() {
        // T(1,2,3) R_z(30 deg) S(2,3,4): the stretch is diag(2,3,4).
        let r = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_6);
        let m = Translation3::new(1.0, 2.0, 3.0).to_homogeneous()
            * r.to_homogeneous()
            * Matrix4::new_nonuniform_scaling(&Vector3::new(2.0, 3.0, 4.0));
        let s = stretch(&m);
        assert!((s - d(2.0, 3.0, 4.0)).norm() < 1e-9, "{s}");
        // The rotation alone is no scale.
        assert!(unscaled(&stretch(&r.to_homogeneous())));
        assert!(!unscaled(&s));
    }

    #[test]
    fn the_scale_is_folded_where_the_kind_survives() {
        let sphere = |radius| Shape::Sphere { radius };
        let rows = [
            // Box (1, 2, 3) under (2, 1, 0.5): (2, 2, 1.5).
            (
                Shape::cuboid(1.0, 2.0, 3.0),
                d(2.0, 1.0, 0.5),
                Shape::cuboid(2.0, 2.0, 1.5),
            ),
            // Cylinder height 1, radii 0.25 under (3, 2, 3): height 2, radii 0.75.
            (
                Shape::cylinder(1.0, 0.25, 0.25),
                d(3.0, 2.0, 3.0),
                Shape::cylinder(2.0, 0.75, 0.75),
            ),
            // The OMI capsule of corpus case omi/gen/invalid/00231: full height 1.6, radius 0.4
            // (cap distance 1.6 - 2 * 0.4 = 0.8), node scale 2: cap distance 1.6, radius 0.8.
            (
                Shape::capsule(0.8, 0.4, 0.4),
                d(2.0, 2.0, 2.0),
                Shape::capsule(1.6, 0.8, 0.8),
            ),
            // A mirrored sphere is the same sphere: |-2| = 2.
            (sphere(0.5), d(-2.0, -2.0, -2.0), sphere(1.0)),
        ];
        for (shape, scale, want) in rows {
            let unabsorbed = None;
            let got = scaled(&shape, &scale);
            assert_eq!(
                got,
                ScaledShape {
                    shape: want,
                    unabsorbed
                },
                "{shape:?}"
            );
        }
    }

    #[test]
    fn what_the_kind_cannot_take_is_given_beside_it() {
        // A sphere under (1, 2, 1) is an ellipsoid: the file's radius and the scale.
        let s = scaled(&Shape::Sphere { radius: 0.5 }, &d(1.0, 2.0, 1.0));
        assert_eq!(s.shape, Shape::Sphere { radius: 0.5 });
        assert_eq!(s.unabsorbed, Some(Unabsorbed::Scale([1.0, 2.0, 1.0])));
        let json = serde_json::to_value(&s).expect("serialises");
        assert_eq!(
            json,
            serde_json::json!({"type": "sphere", "radius": 0.5, "scale": [1.0, 2.0, 1.0]})
        );
        // A sheared box keeps its size and gives the whole stretch, row-major.
        let mut shear = d(1.0, 1.0, 1.0);
        shear[(0, 1)] = 0.5;
        let b = scaled(
            &Shape::Box {
                size: Vector3::new(1.0, 1.0, 1.0),
            },
            &shear,
        );
        assert_eq!(
            b.unabsorbed,
            Some(Unabsorbed::Stretch([
                1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0
            ]))
        );
        // Meshes take any stretch.
        let m = scaled(&Shape::Convex { mesh: 0 }, &shear);
        assert_eq!(m.unabsorbed, None);
        // An unscaled shape serialises exactly as the shape.
        let plain = scaled(&Shape::Sphere { radius: 0.5 }, &Matrix3::identity());
        assert_eq!(
            serde_json::to_value(&plain).expect("serialises"),
            serde_json::to_value(Shape::Sphere { radius: 0.5 }).expect("serialises")
        );
    }

    fn rotation() -> impl Strategy<Value = UnitQuaternion<f64>> {
        (-3.0..3.0_f64, -3.0..3.0_f64, -3.0..3.0_f64)
            .prop_map(|(x, y, z)| UnitQuaternion::from_scaled_axis(Vector3::new(x, y, z)))
    }

    proptest! {
        /// Under any rigid pose times a uniform scale u, a sphere's radius and a capsule's
        /// dimensions are multiplied by u, with nothing left over; a rigid pose alone changes
        /// nothing, bit for bit.
        #[test]
        fn uniform_scale_under_any_pose(
            q in rotation(),
            u in 0.1..10.0_f64,
            r in 0.01..5.0_f64,
            h in 0.0..5.0_f64,
        ) {
            let rigid = Translation3::new(1.0, -2.0, 0.5).to_homogeneous() * q.to_homogeneous();
            let m = rigid * Matrix4::new_scaling(u);
            let s = stretch(&m);
            let sphere = scaled(&Shape::Sphere { radius: r }, &s);
            prop_assert_eq!(sphere.unabsorbed, None);
            let Shape::Sphere { radius } = sphere.shape else { panic!("a sphere stays a sphere") };
            // Within the tolerance of 1 the node counts as unscaled: the file's values.
            let u = if nearly_equal(u, 1.0) { 1.0 } else { u };
            prop_assert!((radius - r * u).abs() <= 1e-9 * r * u);
            let cap = scaled(&Shape::Capsule { height: h, radius_top: r, radius_bottom: r }, &s);
            let Shape::Capsule { height, radius_top, .. } = cap.shape else { panic!("a capsule stays a capsule") };
            prop_assert!((height - h * u).abs() <= 1e-9 * (1.0 + h * u));
            prop_assert!((radius_top - r * u).abs() <= 1e-9 * r * u);
            let untouched = scaled(&Shape::Sphere { radius: r }, &stretch(&rigid));
            prop_assert_eq!(untouched.shape, Shape::Sphere { radius: r });
        }

        /// A box under any rigid pose times an axis scale k has size * |k|.
        #[test]
        fn axis_scale_under_any_pose(
            q in rotation(),
            k in (0.1..10.0_f64, 0.1..10.0_f64, 0.1..10.0_f64),
            size in (0.01..5.0_f64, 0.01..5.0_f64, 0.01..5.0_f64),
        ) {
            let k = Vector3::new(k.0, k.1, k.2);
            let k = if unscaled(&Matrix3::from_diagonal(&k)) { Vector3::new(1.0, 1.0, 1.0) } else { k };
            let size = Vector3::new(size.0, size.1, size.2);
            let m = q.to_homogeneous() * Matrix4::new_nonuniform_scaling(&k);
            let b = scaled(&Shape::Box { size }, &stretch(&m));
            prop_assert_eq!(b.unabsorbed, None);
            let Shape::Box { size: got } = b.shape else { panic!("a box stays a box") };
            prop_assert!((got - size.component_mul(&k)).norm() <= 1e-6 * size.component_mul(&k).norm());
        }
    }
}
