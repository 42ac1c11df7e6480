//! A node's `motion` as both families write it, bar the property that gives its kind (KHR's
//! `isKinematic`, OMI's `type`): the parsed object, its orientation check and the parts of the
//! [`Body`] read the same way. Each reader gives mass and inertia their own meaning.

use nalgebra::{UnitQuaternion, Vector3};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::Value;

use crate::ext::{check_properties, parse};
use crate::issue::{Issue, Issues};
use crate::math::quaternion_xyzw;
use crate::scene::{Body, BodyKind, Inertia, MassValue, NodeId};

use super::Spelling;

/// How far from 1 the length of `inertiaOrientation` may be before it is an error.
pub const UNIT_TOLERANCE: f64 = 1e-3;

/// A `motion` object. `K` reads OMI's `type`, `B` KHR's `isKinematic`; the other family's key
/// is read as [`IgnoredAny`] (it is only an unexpected property there).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct MotionJson<K = IgnoredAny, B = IgnoredAny> {
    #[serde(rename = "type")]
    pub kind: Option<K>,
    pub is_kinematic: Option<B>,
    pub mass: Option<f64>,
    pub center_of_mass: Option<[f64; 3]>,
    pub inertia_diagonal: Option<[f64; 3]>,
    pub inertia_orientation: Option<[f64; 4]>,
    pub linear_velocity: Option<[f64; 3]>,
    pub angular_velocity: Option<[f64; 3]>,
    pub gravity_factor: Option<f64>,
}

/// The motion at `pointer`, whose kind is given by `kind_key`; `None` when it is not an object
/// or does not parse (an issue says why).
pub fn parse_motion<K: DeserializeOwned, B: DeserializeOwned>(
    value: &Value,
    pointer: &str,
    (spelling, kind_key): (&Spelling, &str),
    issues: &mut Issues,
) -> Option<MotionJson<K, B>> {
    spelling.object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            kind_key,
            "mass",
            "centerOfMass",
            "inertiaDiagonal",
            "inertiaOrientation",
            "linearVelocity",
            "angularVelocity",
            "gravityFactor",
        ],
        issues,
    );
    parse(value, pointer, issues)
}

/// `inertiaOrientation` (glTF `[x, y, z, w]`) normalised, or `None` (with the family's
/// `orientation_not_unit`) when its length is not within [`UNIT_TOLERANCE`] of 1.
pub fn unit_orientation(
    q: [f64; 4],
    pointer: &str,
    spelling: &Spelling,
    issues: &mut Issues,
) -> Option<UnitQuaternion<f64>> {
    let q = quaternion_xyzw(q);
    let length = q.norm();
    if (length - 1.0).abs() > UNIT_TOLERANCE || !length.is_finite() {
        issues.push(Issue::new(spelling.orientation_not_unit, pointer).arg("length", length));
        return None;
    }
    Some(UnitQuaternion::new_normalize(q))
}

impl<K, B> MotionJson<K, B> {
    /// The body of node `node` with what its reader decided (`kind`, `mass`, `inertia`) and what
    /// both families read alike: centre of mass as given, velocities default 0 in the family's
    /// space, `gravityFactor` default 1.
    pub fn body(
        &self,
        node: NodeId,
        (kind, mass, inertia): (BodyKind, MassValue, Inertia),
        spelling: &Spelling,
    ) -> Body {
        Body {
            node,
            kind,
            omi_type: None,
            mass,
            center_of_mass: self.center_of_mass.map(Vector3::from),
            inertia,
            linear_velocity: self
                .linear_velocity
                .map_or_else(Vector3::zeros, Vector3::from),
            angular_velocity: self
                .angular_velocity
                .map_or_else(Vector3::zeros, Vector3::from),
            velocity_space: spelling.velocity_space,
            gravity_factor: self.gravity_factor.unwrap_or(1.0),
        }
    }
}
