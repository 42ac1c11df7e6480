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

use nalgebra::UnitQuaternion;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::ext::check_properties;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::omi::BODY;
use crate::omi::shape::check_scale;
use crate::rigid::collider::{self, ShapeOfCollider};
use crate::rigid::motion::{self, MotionJson};
use crate::rigid::trigger::{self, ShapeOfTrigger};
use crate::rigid::{Site, material};
use crate::scene::{Body, BodyKind, Combine, Inertia, MassValue, NodeId, Scene, Shape};

use super::{Arrays, SHAPES_ARRAY, SPELLING, Table, non_negative};

/// The default mass (the motion schema).
pub const DEFAULT_MASS: f64 = 1.0;

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum MotionType {
    Static,
    Kinematic,
    Dynamic,
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

/// A combine mode as parsed: the closed enum leaves nothing more to check.
fn combine(c: CombineJson, _: (&str, &str), _: &mut Issues) -> Option<Combine> {
    Some(match c {
        CombineJson::Average => Combine::Average,
        CombineJson::Minimum => Combine::Minimum,
        CombineJson::Maximum => Combine::Maximum,
        CombineJson::Multiply => Combine::Multiply,
    })
}

/// Read `physicsMaterials` and `collisionFilters`, in that order.
pub(super) fn read_resources(
    doc: &Document,
    scene: &mut Scene,
    issues: &mut Issues,
) -> (Table, Table) {
    let Some((value, pointer)) = doc.root_extension(BODY) else {
        return (Table::empty(), Table::empty());
    };
    let Some(root) = SPELLING.object(value, &pointer, issues) else {
        return (Table::unknown(), Table::unknown());
    };
    check_properties(
        value,
        &pointer,
        &["physicsMaterials", "collisionFilters"],
        issues,
    );
    let materials = match SPELLING.array(root, &pointer, "physicsMaterials", issues) {
        Some((list, at)) => {
            material::read_materials((list, &at), &SPELLING, combine, scene, issues)
        }
        None => Table::unknown(),
    };
    let filters = match SPELLING.array(root, &pointer, "collisionFilters", issues) {
        Some((list, at)) => material::read_filters((list, &at), &SPELLING, false, scene, issues),
        None => Table::unknown(),
    };
    (materials, filters)
}

/// Read every node's `motion` into `scene.bodies`; return the nodes whose extension is an
/// object (with its pointer) for the second pass. `motion`, `collider` and `trigger` are each
/// a node of their own (`OMI_BODY_SAME_NODE`).
pub(super) fn read_bodies<'a>(
    doc: &'a Document,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Vec<(NodeId, &'a Map<String, Value>, String)> {
    let keys = ["motion", "collider", "trigger"];
    let same_node = |extension: &Map<String, Value>, pointer: &str, issues: &mut Issues| {
        let present: Vec<&str> = keys
            .into_iter()
            .filter(|k| extension.contains_key(*k))
            .collect();
        if present.len() > 1 {
            issues.push(
                Issue::new(Code::OmiBodySameNode, pointer).arg("properties", present.join(", ")),
            );
        }
    };
    collider::read_bodies(
        doc,
        (&SPELLING, &keys),
        scene,
        issues,
        same_node,
        read_motion,
    )
}

/// The body of node `node`. Always a body: an unreadable motion is a dynamic body with every
/// default (its issue says why).
fn read_motion(node: NodeId, value: &Value, pointer: &str, issues: &mut Issues) -> Body {
    let parsed = motion::parse_motion(value, pointer, (&SPELLING, "type"), issues);
    let Some(m): Option<MotionJson<MotionType, IgnoredAny>> = parsed else {
        let defaults = (
            BodyKind::Dynamic,
            MassValue::Finite(DEFAULT_MASS),
            Inertia::EngineComputes,
        );
        return MotionJson::<IgnoredAny>::default().body(node, defaults, &SPELLING);
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
        .and_then(|q| motion::unit_orientation(q, &at("inertiaOrientation"), &SPELLING, issues));
    let inertia = match m.inertia_diagonal {
        None => Inertia::EngineComputes,
        Some(d) => inertia_of(d, orientation, &at("inertiaDiagonal"), issues),
    };
    let kind = match m.kind {
        Some(MotionType::Static) => BodyKind::Static,
        Some(MotionType::Kinematic) => BodyKind::Kinematic,
        Some(MotionType::Dynamic) | None => BodyKind::Dynamic,
    };
    m.body(node, (kind, mass, inertia), &SPELLING)
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
        ok &= non_negative(v, pointer, i, issues);
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

/// The `collider` of `site`, if any.
pub(super) fn read_collider(site: Site, tables: &Arrays, scene: &mut Scene, issues: &mut Issues) {
    let shape = |c: &collider::ColliderJson<i64>,
                 pointer: &str,
                 _: &mut Scene,
                 issues: &mut Issues| {
        match c.shape.filter(|&s| s != -1) {
            None => {
                issues.push(Issue::new(Code::OmiColliderShapeMissing, pointer));
                None
            }
            Some(s) => tables
                .shapes
                .resolve(s, SHAPES_ARRAY, (pointer, "shape"), issues)
                .copied(),
        }
    };
    collider::read_collider(
        site,
        &SPELLING,
        (&tables.materials, &tables.filters),
        ShapeOfCollider {
            key: "shape",
            before: |scene: &Scene, issues: &mut Issues| {
                check_scale(site.doc, scene, site.node, issues);
            },
            shape,
        },
        scene,
        issues,
    );
}

/// The `trigger` of `site`, if any: a trigger collider (`shape`; not a trimesh,
/// `OMI_TRIGGER_TRIMESH`) or a compound trigger (`nodes`).
pub(super) fn read_trigger(site: Site, tables: &Arrays, scene: &mut Scene, issues: &mut Issues) {
    let shape =
        |t: &trigger::TriggerJson<i64>, pointer: &str, scene: &mut Scene, issues: &mut Issues| {
            let shape = t.shape.and_then(|s| {
                tables
                    .shapes
                    .resolve(s, SHAPES_ARRAY, (pointer, "shape"), issues)
                    .copied()
            });
            if shape.is_some() {
                check_scale(site.doc, scene, site.node, issues);
            }
            if let Some(id) = shape
                && matches!(scene.shapes.get(id), Some(Shape::Trimesh { .. }))
            {
                issues.push(Issue::new(
                    Code::OmiTriggerTrimesh,
                    push_pointer(pointer, "shape"),
                ));
            }
            shape
        };
    trigger::read_trigger(
        site,
        &SPELLING,
        &tables.filters,
        ShapeOfTrigger {
            key: "shape",
            given: |t: &trigger::TriggerJson<i64>| t.shape.is_some_and(|s| s != -1),
            shape,
        },
        scene,
        issues,
    );
}
