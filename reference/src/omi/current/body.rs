//! `OMI_physics_body` of omi-2024 and omi-2025: document-level `physicsMaterials` and
//! `collisionFilters`, node-level `motion` -> [`Body`], `collider` and `trigger` -> [`Collider`]
//! and [`CompoundTrigger`].
//!
//! Motion [D-OMI-INERTIA]: `type` (static, kinematic, dynamic; required, but a motion without
//! one is read as dynamic with `OMI_MOTION_TYPE_MISSING` [D-OMI-EXAMPLES]); `mass` default 1 (0 is
//! `OMI_MASS_ZERO`, left to the engine; negative is `NEGATIVE_MASS`); an `inertiaDiagonal` that
//! is absent or all zero means "computed by the engine" (KHR: 0 is infinite); one only partly
//! zero is `OMI_INERTIA_PARTLY_ZERO` and computed too; `inertiaOrientation` must be a unit
//! quaternion. Velocities are read in world space [D-OMI-VELOCITY]; `gravityFactor` default 1.
//!
//! Colliders and simple triggers belong to the nearest ancestor-or-self node with `motion`
//! (none: static, as the text says a collider without motion "should be a static solid
//! object"). A compound trigger (`trigger.nodes`) lists distinct descendants with a `trigger`;
//! a trigger with neither `shape` nor `nodes` adds nothing (`OMI_TRIGGER_EMPTY`, a warning).

use std::collections::BTreeSet;

use nalgebra::{UnitQuaternion, Vector3};
use serde::Deserialize;

use crate::document::Document;
use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::math::quaternion_xyzw;
use crate::scene::{
    Body, BodyKind, Collider, Combine, CompoundTrigger, Filter, Inertia, MassValue, Material,
    NodeId, Scene, Shape, VelocitySpace,
};
use serde_json::{Map, Value};

use super::super::BODY;
use super::{
    FILTERS_ARRAY, MATERIALS_ARRAY, NODES_ARRAY, SHAPES_ARRAY, Table, Tables, array, clean_since,
    non_negative, object,
};

/// How far from 1 the length of `inertiaOrientation` may be before it is an error (as KHR).
const UNIT_TOLERANCE: f64 = 1e-3;
/// A node scale within this of 1 is not a scale (matrix decomposition noise).
const SCALE_TOLERANCE: f64 = 1e-6;
/// The default mass (the motion schema).
pub const DEFAULT_MASS: f64 = 1.0;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum MotionType {
    Static,
    Kinematic,
    Dynamic,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MotionJson {
    #[serde(rename = "type")]
    kind: Option<MotionType>,
    mass: Option<f64>,
    center_of_mass: Option<[f64; 3]>,
    inertia_diagonal: Option<[f64; 3]>,
    inertia_orientation: Option<[f64; 4]>,
    linear_velocity: Option<[f64; 3]>,
    angular_velocity: Option<[f64; 3]>,
    gravity_factor: Option<f64>,
}

const MOTION_PROPERTIES: &[&str] = &[
    "type",
    "mass",
    "centerOfMass",
    "inertiaDiagonal",
    "inertiaOrientation",
    "linearVelocity",
    "angularVelocity",
    "gravityFactor",
];

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ColliderJson {
    shape: Option<i64>,
    physics_material: Option<i64>,
    collision_filter: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TriggerJson {
    shape: Option<i64>,
    nodes: Option<Vec<usize>>,
    collision_filter: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MaterialJson {
    static_friction: Option<f64>,
    dynamic_friction: Option<f64>,
    restitution: Option<f64>,
    friction_combine: Option<CombineJson>,
    restitution_combine: Option<CombineJson>,
}

/// The closed enum of the material schema (an unknown mode is `ENUM_INVALID`).
#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum CombineJson {
    Average,
    Minimum,
    Maximum,
    Multiply,
}

impl From<CombineJson> for Combine {
    fn from(c: CombineJson) -> Combine {
        match c {
            CombineJson::Average => Combine::Average,
            CombineJson::Minimum => Combine::Minimum,
            CombineJson::Maximum => Combine::Maximum,
            CombineJson::Multiply => Combine::Multiply,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FilterJson {
    collision_systems: Option<Vec<String>>,
    collide_with_systems: Option<Vec<String>>,
    not_collide_with_systems: Option<Vec<String>>,
}

/// What the document-level `OMI_physics_body` object gave.
pub(super) struct Resources {
    pub(super) materials: Table,
    pub(super) filters: Table,
}

/// Read `physicsMaterials` and `collisionFilters`.
pub(super) fn read_resources(doc: &Document, scene: &mut Scene, issues: &mut Issues) -> Resources {
    let Some((value, pointer)) = doc.root_extension(BODY) else {
        return Resources {
            materials: Table::empty(),
            filters: Table::empty(),
        };
    };
    let Some(root) = object(value, &pointer, issues) else {
        return Resources {
            materials: Table::default(),
            filters: Table::default(),
        };
    };
    check_properties(
        value,
        &pointer,
        &["physicsMaterials", "collisionFilters"],
        issues,
    );
    let materials = match array(root, &pointer, "physicsMaterials", issues) {
        Some((list, at)) => read_table(list, &at, issues, |v, p, i| {
            let m = read_material(v, p, i)?;
            scene.materials.push(m);
            Some(scene.materials.len() - 1)
        }),
        None => Table::default(),
    };
    let filters = match array(root, &pointer, "collisionFilters", issues) {
        Some((list, at)) => read_table(list, &at, issues, |v, p, i| {
            let f = read_filter(v, p, i)?;
            scene.filters.push(f);
            Some(scene.filters.len() - 1)
        }),
        None => Table::default(),
    };
    Resources { materials, filters }
}

/// Read each item of `list` with `read` (an item with an error is left out).
fn read_table(
    list: &[Value],
    pointer: &str,
    issues: &mut Issues,
    mut read: impl FnMut(&Value, &str, &mut Issues) -> Option<usize>,
) -> Table {
    let ids = list
        .iter()
        .enumerate()
        .map(|(i, value)| read(value, &push_pointer(pointer, i), issues))
        .collect();
    Table {
        len: Some(list.len()),
        ids,
    }
}

/// One physics material: defaults 0.6 / 0.6 / 0, each at least 0; combine modes a closed enum.
fn read_material(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Material> {
    object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            "staticFriction",
            "dynamicFriction",
            "restitution",
            "frictionCombine",
            "restitutionCombine",
        ],
        issues,
    );
    let m: MaterialJson = parse(value, pointer, issues)?;
    let material = Material {
        static_friction: m.static_friction.unwrap_or(0.6),
        dynamic_friction: m.dynamic_friction.unwrap_or(0.6),
        restitution: m.restitution.unwrap_or(0.0),
        friction_combine: m.friction_combine.map(Combine::from),
        restitution_combine: m.restitution_combine.map(Combine::from),
    };
    let ok = [
        ("staticFriction", material.static_friction),
        ("dynamicFriction", material.dynamic_friction),
        ("restitution", material.restitution),
    ]
    .into_iter()
    .fold(true, |ok, (key, v)| {
        non_negative(v, push_pointer(pointer, key), issues) && ok
    });
    ok.then_some(material)
}

/// One collision filter; both lists on one filter is `OMI_FILTER_BOTH_LISTS`.
fn read_filter(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Filter> {
    object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            "collisionSystems",
            "collideWithSystems",
            "notCollideWithSystems",
        ],
        issues,
    );
    let f: FilterJson = parse(value, pointer, issues)?;
    if f.collide_with_systems.is_some() && f.not_collide_with_systems.is_some() {
        issues.push(Issue::new(Code::OmiFilterBothLists, pointer));
        return None;
    }
    Some(Filter {
        collision_systems: f.collision_systems.unwrap_or_default(),
        collide_with_systems: f.collide_with_systems,
        not_collide_with_systems: f.not_collide_with_systems,
    })
}

/// Read every node's `motion` into `scene.bodies`; return the nodes whose extension is an
/// object (with its pointer) for the second pass.
pub(super) fn read_bodies<'a>(
    doc: &'a Document,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Vec<(NodeId, &'a Map<String, Value>, String)> {
    let mut nodes = Vec::new();
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count().min(scene.nodes.len()) {
        let Some((value, pointer)) = extensions.get(node, BODY) else {
            continue;
        };
        let Some(extension) = object(value, &pointer, issues) else {
            continue;
        };
        check_properties(value, &pointer, &["motion", "collider", "trigger"], issues);
        let present: Vec<&str> = ["motion", "collider", "trigger"]
            .into_iter()
            .filter(|k| extension.contains_key(*k))
            .collect();
        if present.len() > 1 {
            issues.push(
                Issue::new(Code::OmiBodySameNode, &pointer).arg("properties", present.join(", ")),
            );
        }
        if let Some(motion) = extension.get("motion") {
            let body = read_motion(node, motion, &push_pointer(&pointer, "motion"), issues);
            scene.bodies.push(body);
        }
        nodes.push((node, extension, pointer));
    }
    nodes
}

/// The body of node `node`. Always a body: an unreadable motion is a dynamic body with every
/// default (its issue says why).
fn read_motion(node: NodeId, value: &Value, pointer: &str, issues: &mut Issues) -> Body {
    let parsed = object(value, pointer, issues).and_then(|_| {
        check_properties(value, pointer, MOTION_PROPERTIES, issues);
        parse::<MotionJson>(value, pointer, issues)
    });
    let Some(m) = parsed else {
        return Body {
            node,
            kind: BodyKind::Dynamic,
            omi_type: None,
            mass: MassValue::Finite(DEFAULT_MASS),
            center_of_mass: None,
            inertia: Inertia::EngineComputes,
            linear_velocity: Vector3::zeros(),
            angular_velocity: Vector3::zeros(),
            velocity_space: VelocitySpace::World,
            gravity_factor: 1.0,
        };
    };
    let at = |key: &str| push_pointer(pointer, key);
    if m.kind.is_none() {
        issues.push(Issue::new(Code::OmiMotionTypeMissing, pointer));
    }
    let mass = match m.mass {
        None => MassValue::Finite(DEFAULT_MASS),
        Some(v) if v < 0.0 => {
            issues.push(Issue::new(Code::NegativeMass, at("mass")).arg("value", v));
            MassValue::Finite(DEFAULT_MASS)
        }
        Some(0.0) => {
            issues.push(Issue::new(Code::OmiMassZero, at("mass")));
            MassValue::EngineComputes
        }
        Some(v) => MassValue::Finite(v),
    };
    let orientation = m
        .inertia_orientation
        .and_then(|q| unit_orientation(q, &at("inertiaOrientation"), issues));
    let inertia = match m.inertia_diagonal {
        None => Inertia::EngineComputes,
        Some(d) => inertia_of(d, orientation, &at("inertiaDiagonal"), issues),
    };
    Body {
        node,
        kind: match m.kind {
            Some(MotionType::Static) => BodyKind::Static,
            Some(MotionType::Kinematic) => BodyKind::Kinematic,
            Some(MotionType::Dynamic) | None => BodyKind::Dynamic,
        },
        omi_type: None,
        mass,
        center_of_mass: m.center_of_mass.map(Vector3::from),
        inertia,
        linear_velocity: m.linear_velocity.map_or_else(Vector3::zeros, Vector3::from),
        angular_velocity: m
            .angular_velocity
            .map_or_else(Vector3::zeros, Vector3::from),
        velocity_space: VelocitySpace::World,
        gravity_factor: m.gravity_factor.unwrap_or(1.0),
    }
}

/// The inertia a written diagonal gives [D-OMI-INERTIA]: all zero is "computed by the engine"
/// (KHR would read three infinite moments), partly zero is warned and computed too, negative
/// is `VALUE_OUT_OF_RANGE` and computed.
pub fn inertia_of(
    d: [f64; 3],
    orientation: Option<UnitQuaternion<f64>>,
    pointer: &str,
    issues: &mut Issues,
) -> Inertia {
    let mut ok = true;
    for (i, &v) in d.iter().enumerate() {
        ok &= non_negative(v, push_pointer(pointer, i), issues);
    }
    if !ok || d.iter().all(|&v| v == 0.0) {
        return Inertia::EngineComputes;
    }
    if d.contains(&0.0) {
        issues.push(
            Issue::new(Code::OmiInertiaPartlyZero, pointer)
                .arg("value", format!("[{}, {}, {}]", d[0], d[1], d[2])),
        );
        return Inertia::EngineComputes;
    }
    Inertia::Principal {
        diagonal: d.map(MassValue::Finite),
        orientation: orientation.unwrap_or_else(UnitQuaternion::identity),
    }
}

/// `inertiaOrientation` (`[x, y, z, w]`) normalised, or `None` (with an issue) when its length
/// is not within [`UNIT_TOLERANCE`] of 1.
fn unit_orientation(
    q: [f64; 4],
    pointer: &str,
    issues: &mut Issues,
) -> Option<UnitQuaternion<f64>> {
    let q = quaternion_xyzw(q);
    let length = q.norm();
    if (length - 1.0).abs() > UNIT_TOLERANCE || !length.is_finite() {
        issues.push(Issue::new(Code::OmiInertiaOrientationNotUnit, pointer).arg("length", length));
        return None;
    }
    Some(UnitQuaternion::new_normalize(q))
}

/// The `collider` of node `node`, if any.
pub(super) fn read_collider(
    doc: &Document,
    scene: &mut Scene,
    node: NodeId,
    extension: &Map<String, Value>,
    pointer: &str,
    tables: &Tables,
    issues: &mut Issues,
) {
    let Some(value) = extension.get("collider") else {
        return;
    };
    let pointer = push_pointer(pointer, "collider");
    if object(value, &pointer, issues).is_none() {
        return;
    }
    check_properties(
        value,
        &pointer,
        &["shape", "physicsMaterial", "collisionFilter"],
        issues,
    );
    check_scale(doc, scene, node, issues);
    let Some(c) = parse::<ColliderJson>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let at = |k: &str| push_pointer(&pointer, k);
    let material = c.physics_material.and_then(|m| {
        tables
            .materials
            .resolve(m, MATERIALS_ARRAY, &at("physicsMaterial"), issues)
    });
    let filter = c.collision_filter.and_then(|f| {
        tables
            .filters
            .resolve(f, FILTERS_ARRAY, &at("collisionFilter"), issues)
    });
    let shape = match c.shape.filter(|&s| s != -1) {
        None => {
            issues.push(Issue::new(Code::OmiColliderShapeMissing, &pointer));
            return;
        }
        Some(s) => tables.shapes.resolve(s, SHAPES_ARRAY, &at("shape"), issues),
    };
    let Some(shape) = shape else {
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

/// The `trigger` of node `node`, if any: a trigger collider (`shape`) or a compound trigger
/// (`nodes`).
pub(super) fn read_trigger(
    doc: &Document,
    scene: &mut Scene,
    node: NodeId,
    extension: &Map<String, Value>,
    pointer: &str,
    tables: &Tables,
    issues: &mut Issues,
) {
    let Some(value) = extension.get("trigger") else {
        return;
    };
    let pointer = push_pointer(pointer, "trigger");
    if object(value, &pointer, issues).is_none() {
        return;
    }
    check_properties(
        value,
        &pointer,
        &["shape", "nodes", "collisionFilter"],
        issues,
    );
    let Some(t) = parse::<TriggerJson>(value, &pointer, issues) else {
        return;
    };
    let mark = issues.0.len();
    let shape_given = t.shape.is_some_and(|s| s != -1);
    match (shape_given, &t.nodes, &t.collision_filter) {
        (true, Some(_), _) => issues.push(
            Issue::new(Code::OmiTriggerShapeAndNodes, &pointer)
                .arg("detail", "both shape and nodes"),
        ),
        (false, Some(_), Some(_)) => issues.push(
            Issue::new(Code::OmiTriggerShapeAndNodes, &pointer)
                .arg("detail", "nodes with a collisionFilter"),
        ),
        (false, None, _) => issues.push(Issue::new(Code::OmiTriggerEmpty, &pointer)),
        _ => {}
    }
    let at = |k: &str| push_pointer(&pointer, k);
    let filter = t.collision_filter.and_then(|f| {
        tables
            .filters
            .resolve(f, FILTERS_ARRAY, &at("collisionFilter"), issues)
    });
    let shape = t
        .shape
        .filter(|_| shape_given)
        .and_then(|s| tables.shapes.resolve(s, SHAPES_ARRAY, &at("shape"), issues));
    if shape.is_some() {
        check_scale(doc, scene, node, issues);
    }
    if let Some(id) = shape
        && matches!(scene.shapes.get(id), Some(Shape::Trimesh { .. }))
    {
        issues.push(Issue::new(Code::OmiTriggerTrimesh, at("shape")));
    }
    let members = t
        .nodes
        .as_deref()
        .map(|list| compound_members(doc, node, list, &at("nodes"), scene, issues));
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
        issues.push(
            Issue::new(Code::ExtArrayLength, pointer)
                .arg("actual", 0)
                .arg("expected", "at least 1"),
        );
    }
    let mut seen = BTreeSet::new();
    let mut members = Vec::with_capacity(list.len());
    for (i, &member) in list.iter().enumerate() {
        let at = push_pointer(pointer, i);
        if crate::ext::check_index(member, scene.nodes.len(), NODES_ARRAY, &at, issues).is_none() {
            continue;
        }
        if !seen.insert(member) {
            issues.push(Issue::new(Code::OmiTriggerNodeDuplicate, &at).arg("node", member));
            continue;
        }
        if !scene.is_descendant(member, node) {
            issues.push(Issue::new(Code::OmiTriggerNodeNotDescendant, &at).arg("node", member));
        }
        let has_trigger = doc
            .node_extension(member, BODY)
            .and_then(|(v, _)| v.as_object())
            .is_some_and(|o| o.contains_key("trigger"));
        if !has_trigger {
            issues.push(Issue::new(Code::OmiTriggerNodeNotTrigger, &at).arg("node", member));
        }
        members.push(member);
    }
    members
}

/// `OMI_COLLIDER_SCALED`: "it is discouraged to scale physics shape nodes".
fn check_scale(doc: &Document, scene: &Scene, node: NodeId, issues: &mut Issues) {
    let Some(n) = scene.nodes.get(node) else {
        return;
    };
    let scale = n.rest.scale;
    if scale.iter().all(|s| (s - 1.0).abs() <= SCALE_TOLERANCE) {
        return;
    }
    let has_matrix = doc
        .json
        .get("nodes")
        .and_then(|nodes| nodes.get(node))
        .is_some_and(|n| n.get("matrix").is_some());
    let property = if has_matrix { "matrix" } else { "scale" };
    issues.push(
        Issue::new(Code::OmiColliderScaled, format!("/nodes/{node}/{property}"))
            .arg("scale", format!("[{}, {}, {}]", scale.x, scale.y, scale.z)),
    );
}
