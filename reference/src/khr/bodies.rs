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

use std::collections::BTreeSet;

use nalgebra::{UnitQuaternion, Vector3};
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::math::quaternion_xyzw;
use crate::scene::{
    Body, BodyKind, Collider, CompoundTrigger, Inertia, MassValue, NodeId, Scene, ShapeId,
    VelocitySpace,
};

use super::{
    FILTERS_ARRAY, GeometryForm, MATERIALS_ARRAY, NODES_ARRAY, RIGID_BODIES, Revision,
    SHAPES_ARRAY, Tables, array_length, clean_since, geometry, non_negative, object,
};

/// How far from 1 the length of `inertiaOrientation` may be before it is an error.
pub(super) const UNIT_TOLERANCE: f64 = 1e-3;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct MotionJson {
    is_kinematic: Option<bool>,
    mass: Option<f64>,
    center_of_mass: Option<[f64; 3]>,
    inertia_diagonal: Option<[f64; 3]>,
    inertia_orientation: Option<[f64; 4]>,
    linear_velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
    gravity_factor: Option<f64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ColliderJson {
    shape: Option<usize>,
    geometry: Option<Value>,
    physics_material: Option<usize>,
    collision_filter: Option<usize>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TriggerJson {
    shape: Option<usize>,
    geometry: Option<Value>,
    nodes: Option<Vec<usize>>,
    collision_filter: Option<usize>,
}

const MOTION_PROPERTIES: &[&str] = &[
    "isKinematic",
    "mass",
    "centerOfMass",
    "inertiaDiagonal",
    "inertiaOrientation",
    "linearVelocity",
    "angularVelocity",
    "gravityFactor",
];

/// Read every node's `motion` into `scene.bodies`, and return the nodes that carry the
/// extension as an object (with its pointer) for the second pass.
pub(super) fn read_bodies<'a>(
    doc: &'a Document,
    revision: Revision,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Vec<(NodeId, &'a Map<String, Value>, String)> {
    let mut nodes = Vec::new();
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count().min(scene.nodes.len()) {
        let Some((value, pointer)) = extensions.get(node, RIGID_BODIES) else {
            continue;
        };
        let Some(extension) = object(value, &pointer, issues) else {
            continue;
        };
        check_properties(
            value,
            &pointer,
            &["motion", "collider", "trigger", "joint"],
            issues,
        );
        if let Some(motion) = extension.get("motion") {
            let at = push_pointer(&pointer, "motion");
            let body = read_motion(node, motion, &at, revision, issues);
            scene.bodies.push(body);
        }
        nodes.push((node, extension, pointer));
    }
    nodes
}

/// The body of node `node`. Always a body: an unreadable motion gives every default.
fn read_motion(
    node: NodeId,
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Body {
    let m: MotionJson = object(value, pointer, issues)
        .and_then(|_| {
            check_properties(value, pointer, MOTION_PROPERTIES, issues);
            parse(value, pointer, issues)
        })
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
        .and_then(|q| unit_orientation(q, &at("inertiaOrientation"), issues));
    let inertia = m
        .inertia_diagonal
        .and_then(|d| principal_moments(d, &at("inertiaDiagonal"), revision, issues))
        .map_or(Inertia::EngineComputes, |diagonal| Inertia::Principal {
            diagonal,
            orientation: orientation.unwrap_or_else(UnitQuaternion::identity),
        });
    Body {
        node,
        kind: if m.is_kinematic.unwrap_or(false) {
            BodyKind::Kinematic
        } else {
            BodyKind::Dynamic
        },
        omi_type: None,
        mass,
        center_of_mass: m.center_of_mass.map(Vector3::from),
        inertia,
        linear_velocity: m.linear_velocity.map_or_else(Vector3::zeros, Vector3::from),
        angular_velocity: m
            .angular_velocity
            .map_or_else(Vector3::zeros, Vector3::from),
        velocity_space: VelocitySpace::Local,
        gravity_factor: m.gravity_factor.unwrap_or(1.0),
    }
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

/// `inertiaOrientation` (glTF `[x, y, z, w]`) normalised, or `None` when its length is not
/// within [`UNIT_TOLERANCE`] of 1.
fn unit_orientation(
    q: [f64; 4],
    pointer: &str,
    issues: &mut Issues,
) -> Option<UnitQuaternion<f64>> {
    let q = quaternion_xyzw(q);
    let length = q.norm();
    if (length - 1.0).abs() > UNIT_TOLERANCE || !length.is_finite() {
        issues.push(Issue::new(Code::KhrInertiaOrientationNotUnit, pointer).arg("length", length));
        return None;
    }
    Some(UnitQuaternion::new_normalize(q))
}

/// The `collider` of node `node`, if any.
pub(super) fn read_collider(
    doc: &Document,
    node: NodeId,
    extension: &Map<String, Value>,
    pointer: &str,
    tables: &mut Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) {
    let Some(value) = extension.get("collider") else {
        return;
    };
    let pointer = push_pointer(pointer, "collider");
    if object(value, &pointer, issues).is_none() {
        return;
    }
    let shape_key = tables.revision.shape_key();
    check_properties(
        value,
        &pointer,
        &[shape_key, "physicsMaterial", "collisionFilter"],
        issues,
    );
    let Some(c) = parse::<ColliderJson>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let material = c.physics_material.and_then(|m| {
        tables
            .materials
            .resolve(m, MATERIALS_ARRAY, (&pointer, "physicsMaterial"), issues)
    });
    let filter = c.collision_filter.and_then(|f| {
        tables
            .filters
            .resolve(f, FILTERS_ARRAY, (&pointer, "collisionFilter"), issues)
    });
    let given = match tables.revision.geometry {
        GeometryForm::Shape => c.shape.is_some(),
        GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => c.geometry.is_some(),
    };
    if !given {
        issues.push(Issue::new(Code::ExtRequired, &pointer).arg("property", shape_key));
        return;
    }
    let Some(shape) = collider_shape(
        doc,
        (c.shape, c.geometry.as_ref()),
        &pointer,
        tables,
        scene,
        issues,
    ) else {
        return;
    };
    if !clean_since(issues, mark) {
        return;
    }
    scene.colliders.push(Collider {
        node,
        shape,
        material,
        filter,
        is_trigger: false,
        body: scene.owning_body(node),
    });
}

/// The shape id of a collider's or simple trigger's `shape` (draft) or `geometry` (2025), the
/// one its revision reads; `None` when it is absent or left out (an issue says why).
fn collider_shape(
    doc: &Document,
    (shape, geometry_value): (Option<usize>, Option<&Value>),
    pointer: &str,
    tables: &mut Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<ShapeId> {
    match tables.revision.geometry {
        GeometryForm::Shape => {
            tables
                .shapes
                .resolve(shape?, SHAPES_ARRAY, (pointer, "shape"), issues)
        }
        GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => {
            let at = push_pointer(pointer, "geometry");
            geometry::read(
                doc,
                (geometry_value?, &at),
                tables.revision.geometry,
                (&tables.shapes, &mut tables.geometry),
                scene,
                issues,
            )
        }
    }
}

/// The `trigger` of node `node`, if any: a trigger collider (`shape`, 2025: `geometry`) or a
/// compound trigger (`nodes`).
pub(super) fn read_trigger(
    doc: &Document,
    node: NodeId,
    extension: &Map<String, Value>,
    pointer: &str,
    tables: &mut Tables,
    scene: &mut Scene,
    issues: &mut Issues,
) {
    let Some(value) = extension.get("trigger") else {
        return;
    };
    let pointer = push_pointer(pointer, "trigger");
    if object(value, &pointer, issues).is_none() {
        return;
    }
    let shape_key = tables.revision.shape_key();
    check_properties(
        value,
        &pointer,
        &[shape_key, "nodes", "collisionFilter"],
        issues,
    );
    let Some(t) = parse::<TriggerJson>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let given = match tables.revision.geometry {
        GeometryForm::Shape => t.shape.is_some(),
        GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => t.geometry.is_some(),
    };
    match (given, &t.nodes, &t.collision_filter) {
        (true, Some(_), _) => issues.push(
            Issue::new(Code::KhrTriggerShapeAndNodes, &pointer)
                .arg("detail", format!("both {shape_key} and nodes")),
        ),
        (false, Some(_), Some(_)) => issues.push(
            Issue::new(Code::KhrTriggerShapeAndNodes, &pointer)
                .arg("detail", "nodes with a collisionFilter"),
        ),
        (false, None, _) => issues.push(Issue::new(Code::KhrTriggerEmpty, &pointer)),
        _ => {}
    }
    let filter = t.collision_filter.and_then(|f| {
        tables
            .filters
            .resolve(f, FILTERS_ARRAY, (&pointer, "collisionFilter"), issues)
    });
    let shape = if given {
        collider_shape(
            doc,
            (t.shape, t.geometry.as_ref()),
            &pointer,
            tables,
            scene,
            issues,
        )
    } else {
        None
    };
    let members = t.nodes.as_deref().map(|list| {
        compound_members(
            doc,
            node,
            list,
            &push_pointer(&pointer, "nodes"),
            scene,
            issues,
        )
    });
    if !clean_since(issues, mark) {
        return;
    }
    if let Some(shape) = shape {
        scene.colliders.push(Collider {
            node,
            shape,
            material: None,
            filter,
            is_trigger: true,
            body: scene.owning_body(node),
        });
    } else if let Some(members) = members {
        scene
            .compound_triggers
            .push(CompoundTrigger { node, members });
    }
}

/// The members of a compound trigger on `node`: distinct descendants that have a `trigger`.
fn compound_members(
    doc: &Document,
    node: NodeId,
    list: &[usize],
    pointer: &str,
    scene: &Scene,
    issues: &mut Issues,
) -> Vec<NodeId> {
    if list.is_empty() {
        issues.push(array_length(pointer, 0, "at least 1"));
    }
    let mut seen = BTreeSet::new();
    let mut members = Vec::with_capacity(list.len());
    for (i, &member) in list.iter().enumerate() {
        let at = push_pointer(pointer, i);
        if crate::ext::check_index(member, scene.nodes.len(), NODES_ARRAY, &at, issues).is_none() {
            continue;
        }
        if !scene.is_descendant(member, node) {
            issues.push(Issue::new(Code::KhrTriggerNodeNotDescendant, &at).arg("node", member));
        }
        let has_trigger = doc
            .node_extension(member, RIGID_BODIES)
            .and_then(|(v, _)| v.as_object())
            .is_some_and(|o| o.contains_key("trigger"));
        if !has_trigger {
            issues.push(Issue::new(Code::KhrTriggerNodeNotTrigger, &at).arg("node", member));
        }
        // The schema's uniqueItems: a repeated member adds nothing.
        if seen.insert(member) {
            members.push(member);
        }
    }
    members
}
