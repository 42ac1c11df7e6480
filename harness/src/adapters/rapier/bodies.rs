//! Canonical bodies -> Rapier rigid bodies (kind, pose, velocities, gravity factor, mass
//! properties), and back.
//!
//! - Kinds: dynamic -> `Dynamic`; kinematic -> `KinematicVelocityBased` (it keeps its initial
//!   velocity until told otherwise); static -> `Fixed`.
//! - Velocities: KHR gives them in the body's local frame, OMI in world space; Rapier holds
//!   world-space velocities (the linear one at the centre of mass).
//! - Mass properties are set in full on the body (colliders get density 0, so Rapier adds
//!   nothing): each property the file gives is used as is, each it omits is computed from the
//!   body's non-trigger shapes at unit density, as Rapier would. A computed inertia is the
//!   shapes' inertia (about their own centre of mass) scaled by `mass / shapes' mass`.
//! - Infinite mass and infinite moments [D-MASS-ZERO] use Rapier's own convention: an inverse
//!   mass (or inverse principal moment) of 0. No contact, joint or force accelerates such a
//!   body along (about) that axis; since Rapier applies gravity as the force `m g`, an
//!   infinitely heavy body also ignores gravity and keeps its velocity.

use nalgebra::{Isometry3, Vector3};
use rapier3d::dynamics::{RigidBody, RigidBodyBuilder, RigidBodyType};
use rapier3d::math::{Matrix, Vector};
use rapier3d::prelude::MassProperties;

use ::reference::expect::bodies::world_velocity;
use ::reference::scene::{Body, BodyKind, Inertia, MassValue, NodeId};

use super::convert;
use crate::implementation::{BodyReport, ImplError, MassReport};
use crate::mutant::Mutant;

/// The Rapier body of `body` at world pose `pose`, without mass properties.
pub(super) fn builder(
    body: &Body,
    pose: &Isometry3<f64>,
    mutant: Option<Mutant>,
) -> Result<RigidBodyBuilder, ImplError> {
    let builder = match body.kind {
        BodyKind::Static => RigidBodyBuilder::fixed(),
        BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
    };
    let to_world = |v: &Vector3<f64>| world_velocity(body.velocity_space, pose, v);
    let gravity_factor = if mutant == Some(Mutant::GravityFactorIgnored) {
        1.0
    } else {
        body.gravity_factor
    };
    let mut builder = builder
        .pose(convert::pose(pose, "body pose")?)
        .gravity_scale(convert::real(gravity_factor, "gravityFactor")?)
        .user_data(body.node as u128);
    if body.kind != BodyKind::Static {
        builder = builder
            .linvel(convert::vector(
                &to_world(&body.linear_velocity),
                "linearVelocity",
            )?)
            .angvel(convert::vector(
                &to_world(&body.angular_velocity),
                "angularVelocity",
            )?);
    }
    Ok(builder)
}

/// The full mass properties of `body`, given the summed unit-density mass properties of its
/// non-trigger shapes in the body frame.
pub(super) fn mass_properties(
    body: &Body,
    shapes: &MassProperties,
) -> Result<MassProperties, ImplError> {
    let shapes_mass = f64::from(shapes.mass());
    let mass = match body.mass {
        MassValue::Finite(m) => m,
        MassValue::Infinite => f64::INFINITY,
        MassValue::EngineComputes => shapes_mass,
    };
    let local_com = match &body.center_of_mass {
        Some(c) => convert::vector(c, "centerOfMass")?,
        None => shapes.local_com,
    };
    let given_diagonal = match &body.inertia {
        Inertia::Principal {
            diagonal,
            orientation,
        } => {
            let mut inv = [0.0_f32; 3];
            let mut complete = true;
            for (slot, d) in inv.iter_mut().zip(diagonal) {
                match d {
                    MassValue::Finite(v) => *slot = inverse(convert::real(*v, "inertia")?),
                    MassValue::Infinite => *slot = 0.0,
                    MassValue::EngineComputes => complete = false,
                }
            }
            complete.then(|| (Vector::from(inv), convert::rotation(orientation)))
        }
        Inertia::Tensor { tensor } => {
            let mut cols = [0.0_f32; 9];
            for (i, slot) in cols.iter_mut().enumerate() {
                // Column-major for glam; the tensor is symmetric anyway.
                *slot = convert::real(tensor[(i % 3, i / 3)], "inertiaTensor")?;
            }
            let m =
                MassProperties::with_inertia_matrix(local_com, 1.0, Matrix::from_cols_array(&cols));
            Some((m.inv_principal_inertia, m.principal_inertia_local_frame))
        }
        Inertia::EngineComputes => None,
    };
    let (inv_principal_inertia, principal_inertia_local_frame) = match given_diagonal {
        Some(given) => given,
        None => {
            // I_body = I_shapes * mass / shapes_mass, so I_body^-1 = I_shapes^-1 * shapes_mass / mass
            // (0 when the mass is infinite).
            let factor = if shapes_mass > 0.0 && mass > 0.0 {
                convert::real_or_infinite(shapes_mass / mass, "inertia scale")?
            } else {
                1.0
            };
            (
                shapes.inv_principal_inertia * factor,
                shapes.principal_inertia_local_frame,
            )
        }
    };
    Ok(MassProperties {
        local_com,
        inv_mass: inverse(convert::real_or_infinite(mass, "mass")?),
        inv_principal_inertia,
        principal_inertia_local_frame,
    })
}

/// `1 / v`, with Rapier's convention that 0 and infinity invert to each other's role:
/// an infinite value has inverse 0 (and so does 0, "no mass", as in parry's `utils::inv`).
fn inverse(v: f32) -> f32 {
    if v == 0.0 || v.is_infinite() {
        0.0
    } else {
        1.0 / v
    }
}

fn mass_report(inverse: f32) -> MassReport {
    if inverse == 0.0 {
        MassReport::Infinite
    } else {
        MassReport::Finite(1.0 / f64::from(inverse))
    }
}

/// What Rapier holds for the body of `node`.
pub(super) fn report(node: NodeId, rb: &RigidBody) -> BodyReport {
    let m = &rb.mass_properties().local_mprops;
    let inv = m.inv_principal_inertia;
    BodyReport {
        node,
        kind: match rb.body_type() {
            RigidBodyType::Dynamic => BodyKind::Dynamic,
            RigidBodyType::Fixed => BodyKind::Static,
            _ => BodyKind::Kinematic,
        },
        mass: mass_report(m.inv_mass),
        center_of_mass: Some(convert::array(m.local_com)),
        inertia_diagonal: [mass_report(inv.x), mass_report(inv.y), mass_report(inv.z)],
        inertia_orientation: convert::quaternion(m.principal_inertia_local_frame),
        linear_velocity: convert::array(rb.linvel()),
        angular_velocity: convert::array(rb.angvel()),
        gravity_factor: f64::from(rb.gravity_scale()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::reference::scene::VelocitySpace;
    use nalgebra::{Matrix3, UnitQuaternion};

    fn body(mass: MassValue, inertia: Inertia) -> Body {
        Body {
            node: 0,
            kind: BodyKind::Dynamic,
            omi_type: None,
            mass,
            center_of_mass: None,
            inertia,
            linear_velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            velocity_space: VelocitySpace::Local,
            gravity_factor: 1.0,
        }
    }

    /// A unit cube at unit density: mass 1, moments 1/6 about its centre, centre (0, 1, 0).
    fn cube() -> MassProperties {
        MassProperties::new(Vector::new(0.0, 1.0, 0.0), 1.0, Vector::splat(1.0 / 6.0))
    }

    #[test]
    fn given_values_win_and_omitted_ones_are_computed() {
        // Mass 3 given, inertia computed: the cube's 1/6 scaled by 3/1 = 0.5; centre from shapes.
        let m = mass_properties(
            &body(MassValue::Finite(3.0), Inertia::EngineComputes),
            &cube(),
        )
        .expect("valid");
        assert!((m.mass() - 3.0).abs() < 1e-6);
        assert!((m.principal_inertia() - Vector::splat(0.5)).length() < 1e-5);
        assert_eq!(m.local_com, Vector::new(0.0, 1.0, 0.0));
        // Everything computed: Rapier's own values.
        let m = mass_properties(
            &body(MassValue::EngineComputes, Inertia::EngineComputes),
            &cube(),
        )
        .expect("valid");
        assert!((m.mass() - 1.0).abs() < 1e-6);
        assert!((m.principal_inertia() - Vector::splat(1.0 / 6.0)).length() < 1e-6);
    }

    #[test]
    fn zero_means_infinite_and_rapier_holds_it_as_a_zero_inverse() {
        let principal = Inertia::Principal {
            diagonal: [
                MassValue::Finite(2.0),
                MassValue::Infinite,
                MassValue::Finite(4.0),
            ],
            orientation: UnitQuaternion::identity(),
        };
        let m = mass_properties(&body(MassValue::Infinite, principal), &cube()).expect("valid");
        assert_eq!(m.inv_mass, 0.0);
        assert_eq!(m.inv_principal_inertia, Vector::new(0.5, 0.0, 0.25));
        // Infinite mass with computed inertia: the scaled inertia is infinite too.
        let m = mass_properties(&body(MassValue::Infinite, Inertia::EngineComputes), &cube())
            .expect("valid");
        assert_eq!(m.inv_principal_inertia, Vector::ZERO);
        assert_eq!(mass_report(m.inv_mass), MassReport::Infinite);
    }

    #[test]
    fn omi_tensor_is_diagonalised() {
        // diag(1, 2, 3) permuted into a symmetric full tensor: eigenvalues 1, 2, 3.
        let t = Matrix3::new(2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 3.0);
        let m = mass_properties(
            &body(MassValue::Finite(1.0), Inertia::Tensor { tensor: t }),
            &cube(),
        )
        .expect("valid");
        let mut p = [
            m.principal_inertia().x,
            m.principal_inertia().y,
            m.principal_inertia().z,
        ];
        p.sort_by(f32::total_cmp);
        assert!(
            (p[0] - 1.0).abs() < 1e-5 && (p[1] - 2.0).abs() < 1e-5 && (p[2] - 3.0).abs() < 1e-5
        );
    }

    #[test]
    fn local_velocities_are_rotated_to_world() {
        // A body turned 90 degrees about +Z: local +X is world +Y.
        let mut b = body(MassValue::Finite(1.0), Inertia::EngineComputes);
        b.linear_velocity = Vector3::new(1.0, 0.0, 0.0);
        let pose = Isometry3::from_parts(
            Vector3::zeros().into(),
            UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
        );
        let rb = builder(&b, &pose, None).expect("valid").build();
        assert!((rb.linvel() - Vector::new(0.0, 1.0, 0.0)).length() < 1e-6);
        b.velocity_space = VelocitySpace::World;
        let rb = builder(&b, &pose, None).expect("valid").build();
        assert!((rb.linvel() - Vector::new(1.0, 0.0, 0.0)).length() < 1e-6);
    }
}
