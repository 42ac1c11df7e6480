//! Node-level `KHR_physics_rigid_bodies`: `motion` -> [`Body`], `collider` and `trigger` ->
//! [`Collider`] / [`CompoundTrigger`].
//!
//! Motion [D-MASS-ZERO]: `isKinematic` gives a kinematic body, else dynamic. A missing mass is
//! computed by the engine; 0 is infinite (`MASS_ZERO_INFINITE`, information); a negative mass is
//! `NEGATIVE_MASS` and read as absent. `inertiaDiagonal` gives principal moments (0: infinite,
//! information; negative: `VALUE_OUT_OF_RANGE` and the diagonal is read as absent) rotated by
//! `inertiaOrientation` (default identity; a quaternion farther than 1e-3 from unit length is
//! `KHR_INERTIA_ORIENTATION_NOT_UNIT` and read as absent; a nearly-unit one is normalised). An
//! orientation without a diagonal says nothing: the engine computes the inertia. Velocities are
//! in the body's local space; `gravityFactor` defaults to 1.
//!
//! `khr-2025`: a mass or inertia component of 0 is `KHR_MASS_ZERO` (a warning: the schema's
//! exclusive minimum against the prose) and still infinite [D-MASS-ZERO-SCHEMA]; colliders and
//! simple triggers give a `geometry` (see [`super::geometry`]) instead of a `shape`.
//!
//! Colliders and simple triggers [D-FRAMES] belong to the nearest ancestor-or-self body (else
//! static). A compound trigger (`trigger.nodes`) lists descendants that have a `trigger`.

use nalgebra::UnitQuaternion;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::rigid::Site;
use crate::rigid::collider::{self, ShapeOfCollider};
use crate::rigid::motion::{self, MotionJson};
use crate::rigid::trigger::{self, ShapeOfTrigger};
use crate::scene::{Body, BodyKind, Inertia, MassValue, NodeId, Scene, ShapeId};

use super::{
    GeometryForm, Revision, SHAPES_ARRAY, SPELLING, Table, Tables, geometry, non_negative,
};

/// Read every node's `motion` into `scene.bodies`, and return the nodes that carry the
/// extension as an object (with its pointer) for the second pass.
pub(super) fn read_bodies<'a>(
    doc: &'a Document,
    revision: Revision,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Vec<(NodeId, &'a Map<String, Value>, String)> {
    collider::read_bodies(
        doc,
        (&SPELLING, &["motion", "collider", "trigger", "joint"]),
        scene,
        issues,
        |_, _, _| {},
        |node, value, pointer, issues| read_motion(node, value, pointer, revision, issues),
    )
}

/// The body of node `node`. Always a body: an unreadable motion gives every default.
fn read_motion(
    node: NodeId,
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Body {
    let m: MotionJson<IgnoredAny, bool> =
        motion::parse_motion(value, pointer, (&SPELLING, "isKinematic"), issues)
            .unwrap_or_default();
    let at = |key: &str| push_pointer(pointer, key);
    let mass = match m.mass {
        None => MassValue::EngineComputes,
        Some(v) if v < 0.0 => {
            issues.push(Issue::new(Code::NegativeMass, at("mass")).arg("value", v));
            MassValue::EngineComputes
        }
        Some(0.0) => {
            issues.push(Issue::new(revision.mass_zero, at("mass")).arg("property", "mass"));
            MassValue::Infinite
        }
        Some(v) => MassValue::Finite(v),
    };
    let orientation = m
        .inertia_orientation
        .and_then(|q| motion::unit_orientation(q, &at("inertiaOrientation"), &SPELLING, issues));
    let inertia = m
        .inertia_diagonal
        .and_then(|d| principal_moments(d, &at("inertiaDiagonal"), revision, issues))
        .map_or(Inertia::EngineComputes, |diagonal| Inertia::Principal {
            diagonal,
            orientation: orientation.unwrap_or_else(UnitQuaternion::identity),
        });
    let kind = if m.is_kinematic.unwrap_or(false) {
        BodyKind::Kinematic
    } else {
        BodyKind::Dynamic
    };
    m.body(node, (kind, mass, inertia), &SPELLING)
}

/// `inertiaDiagonal` components (0: infinite), or `None` when one is negative.
fn principal_moments(
    d: [f64; 3],
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<[MassValue; 3]> {
    let mut out = [MassValue::EngineComputes; 3];
    let mut ok = true;
    for (i, v) in d.into_iter().enumerate() {
        out[i] = if !non_negative(v, pointer, i, issues) {
            ok = false;
            continue;
        } else if v == 0.0 {
            // Written only for an issue.
            issues.push(
                Issue::new(revision.mass_zero, push_pointer(pointer, i))
                    .arg("property", format!("inertiaDiagonal[{i}]")),
            );
            MassValue::Infinite
        } else {
            MassValue::Finite(v)
        };
    }
    ok.then_some(out)
}

/// The `collider` of `site`, if any.
pub(super) fn read_collider(
    site: Site,
    tables: &mut Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) {
    let (revision, shapes, cache) = (tables.revision, &tables.shapes, &mut tables.geometry);
    let shape_key = revision.shape_key();
    let shape = |c: &collider::ColliderJson<usize>,
                 pointer: &str,
                 scene: &mut Scene,
                 issues: &mut Issues| {
        if !revision
            .geometry
            .given(c.shape.is_some(), c.geometry.is_some())
        {
            issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", shape_key));
            return None;
        }
        let from = (c.shape, c.geometry.as_ref());
        collider_shape(
            site.doc,
            from,
            pointer,
            (revision, shapes, cache),
            scene,
            issues,
        )
    };
    collider::read_collider(
        site,
        &SPELLING,
        (&tables.materials, &tables.filters),
        ShapeOfCollider {
            key: shape_key,
            before: |_: &Scene, _: &mut Issues| {},
            shape,
        },
        scene,
        issues,
    );
}

/// The shape id of a collider's or simple trigger's `shape` (draft) or `geometry` (2025), the
/// one its revision reads; `None` when it is absent or left out (an issue says why).
fn collider_shape(
    doc: &Document,
    (shape, geometry_value): (Option<usize>, Option<&Value>),
    pointer: &str,
    (revision, shapes, cache): (Revision, &Table, &mut geometry::Cache),
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    match revision.geometry {
        GeometryForm::Shape => shapes
            .resolve(shape?, SHAPES_ARRAY, (pointer, "shape"), issues)
            .copied(),
        GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => {
            let at = push_pointer(pointer, "geometry");
            geometry::read(
                doc,
                (geometry_value?, &at),
                revision.geometry,
                (shapes, cache),
                scene,
                issues,
            )
        }
    }
}

/// The `trigger` of `site`, if any: a trigger collider (`shape`, 2025: `geometry`) or a
/// compound trigger (`nodes`).
pub(super) fn read_trigger(
    site: Site,
    tables: &mut Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) {
    let (revision, shapes, cache) = (tables.revision, &tables.shapes, &mut tables.geometry);
    trigger::read_trigger(
        site,
        &SPELLING,
        &tables.filters,
        ShapeOfTrigger {
            key: revision.shape_key(),
            given: |t: &trigger::TriggerJson<usize>| {
                revision
                    .geometry
                    .given(t.shape.is_some(), t.geometry.is_some())
            },
            shape: |t: &trigger::TriggerJson<usize>,
                    pointer: &str,
                    scene: &mut Scene,
                    issues: &mut Issues| {
                let from = (t.shape, t.geometry.as_ref());
                collider_shape(
                    site.doc,
                    from,
                    pointer,
                    (revision, shapes, cache),
                    scene,
                    issues,
                )
            },
        },
        scene,
        issues,
    );
}
