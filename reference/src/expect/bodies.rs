//! Expected rigid bodies: kind, mass properties as given, initial velocities in world space.
//!
//! KHR `mass: 0` and inertia components of 0 are infinite [D-MASS-ZERO] (the reader already maps
//! them to [`MassValue::Infinite`]); the tensor is `R diag(d) R^T` with R the rotation of
//! `inertiaOrientation`. A matrix with an infinite entry has no finite form, so the inverse
//! tensor `R diag(1/d) R^T` (1/inf = 0, what engines store) is given too. KHR velocities are in the
//! body's local frame and are rotated by its rest world rotation [D-FRAMES]; OMI velocities are
//! world already [D-OMI-VELOCITY].

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use crate::decision::Decision;
use crate::profile::Profile;
use crate::scene::{
    Body, BodyId, BodyKind, Inertia, MassValue, NodeId, OmiBodyType, Scene, VelocitySpace,
};

use super::json;
use super::world::World;

/// What an importer must end up with for one body.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BodyExpect {
    /// Initial angular velocity in world space.
    #[serde(with = "json::vec3")]
    pub angular_velocity: Vector3<f64>,
    /// In the body's local frame; `None`: the engine computes it.
    #[serde(with = "json::opt_vec3")]
    pub center_of_mass: Option<Vector3<f64>>,
    /// The same point in world space at rest (the local frame's scale applies).
    #[serde(with = "json::opt_vec3")]
    pub center_of_mass_world: Option<Vector3<f64>>,
    pub decisions: Vec<Decision>,
    pub gravity_factor: f64,
    pub index: BodyId,
    pub inertia: InertiaExpect,
    /// 1 / mass, 0 for an infinite mass; `None` when the engine computes the mass.
    pub inverse_mass: Option<f64>,
    pub kind: BodyKind,
    /// Initial linear velocity in world space.
    #[serde(with = "json::vec3")]
    pub linear_velocity: Vector3<f64>,
    pub mass: MassValue,
    pub node: NodeId,
    /// OMI: the type written in the file (`character`, `vehicle` are recorded here).
    pub omi_type: Option<OmiBodyType>,
    /// World pose at rest (the pose at load).
    #[serde(with = "json::pose")]
    pub pose: Isometry3<f64>,
}

/// Inertia in the body's local frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[allow(
    clippy::large_enum_variant,
    reason = "one value per body, built once: boxing would only complicate matching"
)]
pub enum InertiaExpect {
    /// Not given: the engine computes it from the shapes.
    EngineComputes,
    /// Fields in key order (see [`BodyExpect`]).
    Given {
        /// The inverse tensor (infinite moments give 0); `None` when it does not exist (a
        /// singular OMI tensor) or a moment is engine-computed.
        #[serde(with = "json::opt_mat3")]
        inverse_tensor: Option<Matrix3<f64>>,
        /// KHR: the principal moments (each possibly infinite) and their orientation.
        principal: Option<Principal>,
        /// The tensor; `None` when a principal moment is infinite or engine-computed.
        #[serde(with = "json::opt_mat3")]
        tensor: Option<Matrix3<f64>>,
    },
}

/// KHR principal moments of inertia and the rotation from the principal axes to the body frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Principal {
    pub moments: [MassValue; 3],
    #[serde(with = "json::quat")]
    pub orientation: UnitQuaternion<f64>,
}

/// `1 / m`, 0 for infinite.
pub fn inverse_mass(mass: MassValue) -> Option<f64> {
    match mass {
        MassValue::EngineComputes => None,
        MassValue::Infinite => Some(0.0),
        MassValue::Finite(m) => Some(1.0 / m),
    }
}

/// `R diag(d) R^T` for the principal form; the given tensor and its inverse for OMI.
pub fn inertia(given: &Inertia) -> InertiaExpect {
    match given {
        Inertia::EngineComputes => InertiaExpect::EngineComputes,
        Inertia::Principal {
            diagonal,
            orientation,
        } => {
            let r = orientation.to_rotation_matrix().into_inner();
            let finite: Option<Vec<f64>> = diagonal
                .iter()
                .map(|d| match d {
                    MassValue::Finite(v) => Some(*v),
                    _ => None,
                })
                .collect();
            let inverse: Option<Vec<f64>> = diagonal.iter().map(|d| inverse_mass(*d)).collect();
            let sandwich = |d: &[f64]| {
                r * Matrix3::from_diagonal(&Vector3::new(d[0], d[1], d[2])) * r.transpose()
            };
            InertiaExpect::Given {
                principal: Some(Principal {
                    moments: *diagonal,
                    orientation: *orientation,
                }),
                tensor: finite.as_deref().map(sandwich),
                inverse_tensor: inverse.as_deref().map(sandwich),
            }
        }
        Inertia::Tensor { tensor } => InertiaExpect::Given {
            principal: None,
            tensor: Some(*tensor),
            inverse_tensor: tensor.try_inverse(),
        },
    }
}

/// A velocity in world space: KHR local velocities are rotated by the body's world rotation.
pub fn world_velocity(
    space: VelocitySpace,
    pose: &Isometry3<f64>,
    v: &Vector3<f64>,
) -> Vector3<f64> {
    match space {
        VelocitySpace::Local => pose.rotation * v,
        VelocitySpace::World => *v,
    }
}

/// The expectation of one body.
pub fn body(scene: &Scene, world: &World, index: BodyId, body: &Body) -> BodyExpect {
    let pose = world.rest_pose(Some(body.node));
    let com_world = body.center_of_mass.and_then(|c| {
        world
            .rest
            .get(body.node)
            .map(|m| m.transform_point(&c.into()).coords)
    });
    let mut decisions = vec![Decision::Frames];
    match scene.profile {
        Profile::Omi2023 => decisions.push(Decision::OmiVelocity),
        Profile::Omi2024 | Profile::Omi2025 => {
            decisions.extend([Decision::OmiVelocity, Decision::OmiInertia]);
        }
        _ => decisions.push(Decision::MassZero),
    }
    let zero_inertia = matches!(
        body.inertia,
        Inertia::Principal { diagonal, .. } if diagonal.contains(&MassValue::Infinite)
    );
    let zero_is_a_warning =
        crate::khr::Revision::of(scene.profile).is_some_and(|r| r.zero_mass_is_a_warning());
    if zero_is_a_warning && (body.mass == MassValue::Infinite || zero_inertia) {
        decisions.push(Decision::MassZeroSchema);
    }
    // [D-STATIC-VELOCITY]: a static body does not move, whatever velocity the file gives.
    let (linear_velocity, angular_velocity) = if body.kind == BodyKind::Static {
        decisions.push(Decision::StaticVelocity);
        (Vector3::zeros(), Vector3::zeros())
    } else {
        (
            world_velocity(body.velocity_space, &pose, &body.linear_velocity),
            world_velocity(body.velocity_space, &pose, &body.angular_velocity),
        )
    };
    // [D-STATIC-MASS]: the mass properties of a static body are not observable.
    let (mass, center_of_mass, center_of_mass_world, inertia_expect) =
        if body.kind == BodyKind::Static {
            decisions.push(Decision::StaticMass);
            (
                MassValue::EngineComputes,
                None,
                None,
                InertiaExpect::EngineComputes,
            )
        } else {
            (
                body.mass,
                body.center_of_mass,
                com_world,
                inertia(&body.inertia),
            )
        };
    BodyExpect {
        index,
        node: body.node,
        kind: body.kind,
        omi_type: body.omi_type,
        pose,
        mass,
        inverse_mass: inverse_mass(mass),
        center_of_mass,
        center_of_mass_world,
        inertia: inertia_expect,
        linear_velocity,
        angular_velocity,
        gravity_factor: body.gravity_factor,
        decisions,
    }
}

/// Every body of the scene.
pub fn bodies(scene: &Scene, world: &World) -> Vec<BodyExpect> {
    scene
        .bodies
        .iter()
        .enumerate()
        .map(|(i, b)| body(scene, world, i, b))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    fn close(a: &Matrix3<f64>, b: &Matrix3<f64>) -> bool {
        (a - b).abs().max() < 1e-12
    }

    /// d = (1, 2, 3) rotated 90 degrees about z: R maps x -> y, y -> -x, so the moment about
    /// the body's x axis is the principal y moment (2) and about y the principal x moment (1):
    /// R diag(1, 2, 3) R^T = diag(2, 1, 3).
    #[test]
    fn principal_moments_rotate() {
        let q = UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2);
        let given = Inertia::Principal {
            diagonal: [1.0, 2.0, 3.0].map(MassValue::Finite),
            orientation: q,
        };
        let InertiaExpect::Given {
            tensor,
            inverse_tensor,
            ..
        } = inertia(&given)
        else {
            panic!("given")
        };
        let t = tensor.expect("finite");
        assert!(
            close(&t, &Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, 3.0))),
            "{t}"
        );
        let inv = inverse_tensor.expect("finite");
        assert!(close(
            &inv,
            &Matrix3::from_diagonal(&Vector3::new(0.5, 1.0, 1.0 / 3.0))
        ));
    }

    /// An infinite moment (KHR 0) stays infinite: no finite tensor, the inverse has a 0 there.
    /// d = (inf, 2, 4), identity orientation: inverse diag(0, 0.5, 0.25).
    #[test]
    fn infinite_moment_is_kept() {
        let given = Inertia::Principal {
            diagonal: [
                MassValue::Infinite,
                MassValue::Finite(2.0),
                MassValue::Finite(4.0),
            ],
            orientation: UnitQuaternion::identity(),
        };
        let InertiaExpect::Given {
            principal,
            tensor,
            inverse_tensor,
        } = inertia(&given)
        else {
            panic!("given")
        };
        assert_eq!(tensor, None);
        assert_eq!(principal.expect("khr").moments[0], MassValue::Infinite);
        let inv = inverse_tensor.expect("exists");
        assert!(close(
            &inv,
            &Matrix3::from_diagonal(&Vector3::new(0.0, 0.5, 0.25))
        ));
    }

    #[test]
    fn omi_tensor_is_given_as_is() {
        let t = Matrix3::new(2.0, 0.0, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0, 8.0);
        let e = inertia(&Inertia::Tensor { tensor: t });
        assert_eq!(
            e,
            InertiaExpect::Given {
                principal: None,
                tensor: Some(t),
                inverse_tensor: Some(Matrix3::from_diagonal(&Vector3::new(0.5, 0.25, 0.125))),
            }
        );
        // A singular tensor has no inverse.
        let InertiaExpect::Given { inverse_tensor, .. } = inertia(&Inertia::Tensor {
            tensor: Matrix3::zeros(),
        }) else {
            panic!("given")
        };
        assert_eq!(inverse_tensor, None);
    }

    /// A body rotated 90 degrees about z with local velocity (1, 0, 0) moves along world +y.
    #[test]
    fn local_velocity_is_rotated_world_is_not() {
        let pose = Isometry3::from_parts(
            Vector3::new(5.0, 0.0, 0.0).into(),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), FRAC_PI_2),
        );
        let v = Vector3::new(1.0, 0.0, 0.0);
        let w = world_velocity(VelocitySpace::Local, &pose, &v);
        assert!((w - Vector3::new(0.0, 1.0, 0.0)).norm() < 1e-12);
        assert_eq!(world_velocity(VelocitySpace::World, &pose, &v), v);
    }

    fn any_orientation() -> impl proptest::strategy::Strategy<Value = UnitQuaternion<f64>> {
        use proptest::prelude::*;
        (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64)
            .prop_map(|(x, y, z)| UnitQuaternion::from_scaled_axis(Vector3::new(x, y, z)))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]

        /// For finite moments the tensor is symmetric, its trace is the sum of the moments
        /// (rotation keeps the trace), and the inverse tensor is its inverse.
        #[test]
        fn principal_tensor_is_consistent(
            q in any_orientation(), d in proptest::array::uniform3(0.1..10.0f64),
        ) {
            let InertiaExpect::Given { tensor: Some(t), inverse_tensor: Some(inv), .. } =
                inertia(&Inertia::Principal { diagonal: d.map(MassValue::Finite), orientation: q })
            else {
                panic!("finite moments give both matrices")
            };
            proptest::prop_assert!((t - t.transpose()).abs().max() < 1e-9);
            proptest::prop_assert!((t.trace() - (d[0] + d[1] + d[2])).abs() < 1e-9);
            proptest::prop_assert!((t * inv - Matrix3::identity()).abs().max() < 1e-9);
        }

        /// An infinite moment makes the inverse tensor singular along that principal axis:
        /// inv * (R e_i) = 0.
        #[test]
        fn infinite_moment_is_a_null_direction_of_the_inverse(
            q in any_orientation(), axis in 0usize..3, d in 0.1..10.0f64,
        ) {
            let mut diagonal = [MassValue::Finite(d); 3];
            diagonal[axis] = MassValue::Infinite;
            let InertiaExpect::Given { tensor, inverse_tensor: Some(inv), .. } =
                inertia(&Inertia::Principal { diagonal, orientation: q })
            else {
                panic!("the inverse exists")
            };
            proptest::prop_assert!(tensor.is_none());
            let principal_axis = q * Vector3::ith(axis, 1.0);
            proptest::prop_assert!((inv * principal_axis).norm() < 1e-9);
        }
    }

    #[test]
    fn inverse_mass_of_each_form() {
        assert_eq!(inverse_mass(MassValue::Finite(4.0)), Some(0.25));
        assert_eq!(inverse_mass(MassValue::Infinite), Some(0.0));
        assert_eq!(inverse_mass(MassValue::EngineComputes), None);
    }
}
