//! `OMI_physics_body` (seed 001): one body per node, typed by a closed string enum.
//!
//! `static` -> [`BodyKind::Static`], `kinematic`/`character` -> [`BodyKind::Kinematic`],
//! `rigid`/`vehicle` -> [`BodyKind::Dynamic`], the file's type kept in `omi_type`. A `trigger`
//! body is not a [`Body`]: its shapes become triggers of the nearest non-trigger ancestor body
//! (see `shape::read_nodes`). Velocities are world-space [D-OMI-VELOCITY].

use nalgebra::{Matrix3, Vector3};
use serde::Deserialize;

use crate::document::Document;
use crate::ext;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{Body, BodyKind, Inertia, MassValue, OmiBodyType, Scene, VelocitySpace};

use super::{BODY, COLLIDER, SHAPE, fixed, parse_object};

/// What `OMI_physics_body` says about one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BodyState {
    /// No `OMI_physics_body` on the node.
    Absent,
    /// Present but unreadable (an issue says why); later rules stay silent about it.
    Invalid,
    /// A readable body of this type (a `Body` in the scene unless `Trigger`).
    Typed(OmiBodyType),
}

/// Property names of the node extension (the schema's, plus `centerOfMass` from the seed).
pub(super) const PROPERTIES: &[&str] = &[
    "type",
    "mass",
    "linearVelocity",
    "angularVelocity",
    "centerOfMass",
    "inertiaTensor",
];

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BodyJson {
    /// Read as the scene records it (the same names in the same order, so the same messages).
    #[serde(rename = "type")]
    kind: OmiBodyType,
    mass: Option<f64>,
    linear_velocity: Option<Vec<f64>>,
    angular_velocity: Option<Vec<f64>>,
    center_of_mass: Option<Vec<f64>>,
    inertia_tensor: Option<Vec<f64>>,
}

/// The engine kind of a non-trigger OMI type.
pub(super) fn kind_of(t: OmiBodyType) -> Option<BodyKind> {
    match t {
        OmiBodyType::Static => Some(BodyKind::Static),
        OmiBodyType::Kinematic | OmiBodyType::Character => Some(BodyKind::Kinematic),
        OmiBodyType::Rigid | OmiBodyType::Vehicle => Some(BodyKind::Dynamic),
        OmiBodyType::Trigger => None,
    }
}

/// Read every node's `OMI_physics_body`, pushing the non-trigger ones to `scene.bodies` in node
/// order. Returns the state of every node.
pub(super) fn read(doc: &Document, scene: &mut Scene, issues: &mut Issues) -> Vec<BodyState> {
    let extensions = doc.node_extensions();
    (0..doc.node_count())
        .map(|node| {
            let Some((value, pointer)) = extensions.get(node, BODY) else {
                return BodyState::Absent;
            };
            ext::check_properties(value, &pointer, PROPERTIES, issues);
            let Some(json) = parse_object::<BodyJson>(value, &pointer, issues) else {
                return BodyState::Invalid;
            };
            if let Some(body) = body_of(node, json.kind, &json, &pointer, issues) {
                scene.bodies.push(body);
            }
            BodyState::Typed(json.kind)
        })
        .collect()
}

/// The canonical body (`None` for a trigger), checking mass and inertia on the way.
fn body_of(
    node: usize,
    omi_type: OmiBodyType,
    json: &BodyJson,
    pointer: &str,
    issues: &mut Issues,
) -> Option<Body> {
    let mass = json.mass.unwrap_or(1.0);
    if mass < 0.0 {
        issues
            .push(Issue::new(Code::NegativeMass, push_pointer(pointer, "mass")).arg("value", mass));
    }
    let vector = |values: &Option<Vec<f64>>, key: &str, issues: &mut Issues| {
        values
            .as_deref()
            .and_then(|v| fixed::<3>(v, &push_pointer(pointer, key), issues))
            .map(Vector3::from)
            .unwrap_or_else(Vector3::zeros)
    };
    let linear_velocity = vector(&json.linear_velocity, "linearVelocity", issues);
    let angular_velocity = vector(&json.angular_velocity, "angularVelocity", issues);
    let center_of_mass = vector(&json.center_of_mass, "centerOfMass", issues);
    let inertia = json
        .inertia_tensor
        .as_deref()
        .and_then(|v| fixed::<9>(v, &push_pointer(pointer, "inertiaTensor"), issues))
        .map(|t| inertia_of(&t, &push_pointer(pointer, "inertiaTensor"), issues))
        .unwrap_or(Inertia::EngineComputes);
    let kind = kind_of(omi_type)?;
    Some(Body {
        node,
        kind,
        omi_type: Some(omi_type),
        mass: MassValue::Finite(mass),
        // Seed 001: the offset defaults to the body origin, it is not engine-computed.
        center_of_mass: Some(center_of_mass),
        inertia,
        linear_velocity,
        angular_velocity,
        velocity_space: VelocitySpace::World,
        gravity_factor: 1.0,
    })
}

/// Relative tolerance of the symmetry check, scaled by the largest entry of the tensor: files
/// written from `f32` repeat the same decimal for both entries, so real asymmetry is far larger.
pub(super) const SYMMETRY_TOLERANCE: f64 = 1e-9;

/// The row-major tensor (seed 001: "If zero or not specified, the inertia should be
/// automatically calculated"). Pushes `OMI_INERTIA_NOT_SYMMETRIC` for the first pair
/// `|a_ij - a_ji| > 1e-9 * max |a|`.
pub(super) fn inertia_of(tensor: &[f64; 9], pointer: &str, issues: &mut Issues) -> Inertia {
    if tensor.iter().all(|&a| a == 0.0) {
        return Inertia::EngineComputes;
    }
    let scale = tensor.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
    let pairs = [(0, 1), (0, 2), (1, 2)];
    if let Some((i, j)) = pairs
        .into_iter()
        .map(|(r, c)| (3 * r + c, 3 * c + r))
        .find(|&(i, j)| (tensor[i] - tensor[j]).abs() > SYMMETRY_TOLERANCE * scale)
    {
        issues.push(
            Issue::new(Code::OmiInertiaNotSymmetric, pointer)
                .arg("i", i)
                .arg("a", tensor[i])
                .arg("j", j)
                .arg("b", tensor[j]),
        );
    }
    Inertia::Tensor {
        tensor: Matrix3::from_row_slice(tensor),
    }
}

/// `OMI_BODY_WITHOUT_SHAPES`: every readable body node (trigger bodies included) needs a node
/// with `OMI_collider` or `OMI_physics_shape` on itself or below it (seed 001: "should have one
/// or many OMI_physics_shape glTF node descendants").
pub(super) fn check_shapes(
    doc: &Document,
    scene: &Scene,
    bodies: &[BodyState],
    issues: &mut Issues,
) {
    let count = scene.nodes.len();
    let mut has_shape = vec![false; count];
    let extensions = doc.node_extensions();
    for node in 0..count {
        if extensions.contains(node, COLLIDER) || extensions.contains(node, SHAPE) {
            // Bounded walk: never loop on a malformed hierarchy.
            for n in std::iter::once(node)
                .chain(scene.ancestors(node))
                .take(count)
            {
                has_shape[n] = true;
            }
        }
    }
    for (node, state) in bodies.iter().enumerate() {
        if matches!(state, BodyState::Typed(_)) && !has_shape.get(node).copied().unwrap_or(true) {
            let pointer = format!("/nodes/{node}/extensions/{BODY}");
            issues.push(Issue::new(Code::OmiBodyWithoutShapes, pointer));
        }
    }
}
