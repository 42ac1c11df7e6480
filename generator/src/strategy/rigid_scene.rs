//! The rigid-body scene the KHR and OMI 2024/2025 strategies draw alike (groups of bodies,
//! static colliders and triggers, joints, materials, filters), before any family spells it:
//! `rigid` renders it, `khr` and `omi24` say how.

use proptest::prelude::*;

use super::body::{MotionSpec, motion};
use super::filter::{FilterSpec, filter};
use super::hierarchy::{Attached, attached};
use super::joint::{JointDescSpec, joint_desc};
use super::material::{MaterialSpec, material};
use super::shape::{ShapeKind, ShapeSpec, shape};
use super::transform;
use crate::doc::BufferMode;

/// A collider: a shape with an optional material and filter (raw indices, taken modulo the
/// number of materials / filters; `None` or no materials: omitted).
#[derive(Clone, Debug, PartialEq)]
pub struct ColliderUse {
    pub shape: ShapeSpec,
    pub material: Option<usize>,
    pub filter: Option<usize>,
}

/// A simple trigger: a shape with an optional filter.
#[derive(Clone, Debug, PartialEq)]
pub struct TriggerShape {
    pub shape: ShapeSpec,
    pub filter: Option<usize>,
}

/// A rigid body with `motion`, its colliders and maybe a trigger attached to it.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyLeaf {
    pub motion: MotionSpec,
    pub rotation: Option<[f64; 4]>,
    pub colliders: Vec<Attached<ColliderUse>>,
    pub trigger: Option<Attached<TriggerShape>>,
}

/// One independent group, placed in its own grid cell.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Group {
    /// A body, maybe with an independent body nested below it.
    Body {
        main: BodyLeaf,
        nested: Option<BodyLeaf>,
    },
    /// Colliders without any `motion` above them: static.
    Static {
        rotation: Option<[f64; 4]>,
        colliders: Vec<Attached<ColliderUse>>,
    },
    SimpleTrigger(TriggerShape),
    /// A compound trigger whose members are descendants with their own `trigger.shape`.
    CompoundTrigger(Vec<Attached<ShapeSpec>>),
}

/// A joint between two body groups (raw indices) or a body and the world.
#[derive(Clone, Debug, PartialEq)]
pub struct JointUse {
    pub a: usize,
    pub b: Option<usize>,
    pub desc: usize,
    pub enable_collision: Option<bool>,
    pub rotation: Option<[f64; 4]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KhrScene {
    pub groups: Vec<Group>,
    pub materials: Vec<MaterialSpec>,
    pub filters: Vec<FilterSpec>,
    pub descs: Vec<JointDescSpec>,
    pub joints: Vec<JointUse>,
    pub buffer: BufferMode,
}

fn collider(kinds: Vec<ShapeKind>) -> impl Strategy<Value = ColliderUse> + Clone {
    (
        shape(kinds),
        prop::option::weighted(0.7, 0usize..8),
        prop::option::weighted(0.4, 0usize..8),
    )
        .prop_map(|(shape, material, filter)| ColliderUse {
            shape,
            material,
            filter,
        })
}

fn trigger_shape() -> impl Strategy<Value = TriggerShape> + Clone {
    (
        shape(vec![
            ShapeKind::Sphere,
            ShapeKind::Box,
            ShapeKind::Capsule,
            ShapeKind::Cylinder,
            ShapeKind::Convex,
        ]),
        prop::option::weighted(0.4, 0usize..8),
    )
        .prop_map(|(shape, filter)| TriggerShape { shape, filter })
}

fn body_leaf() -> impl Strategy<Value = BodyLeaf> + Clone {
    (
        motion(),
        transform::maybe_rotation(),
        prop::collection::vec(attached(collider(ShapeKind::moving())), 1..=2),
        prop::option::weighted(0.2, attached(trigger_shape())),
    )
        .prop_map(|(motion, rotation, colliders, trigger)| BodyLeaf {
            motion,
            rotation,
            colliders,
            trigger,
        })
        .boxed()
}

fn group() -> impl Strategy<Value = Group> + Clone {
    prop_oneof![
        5 => (body_leaf(), prop::option::weighted(0.2, body_leaf()))
            .prop_map(|(main, nested)| Group::Body { main, nested }).boxed(),
        2 => (transform::maybe_rotation(), prop::collection::vec(attached(collider(ShapeKind::ALL.to_vec())), 1..=2))
            .prop_map(|(rotation, colliders)| Group::Static { rotation, colliders }).boxed(),
        1 => trigger_shape().prop_map(Group::SimpleTrigger).boxed(),
        1 => prop::collection::vec(
                attached(shape(vec![ShapeKind::Sphere, ShapeKind::Box, ShapeKind::Capsule])), 1..=2)
            .prop_map(Group::CompoundTrigger).boxed(),
    ]
}

fn joint_use() -> impl Strategy<Value = JointUse> + Clone {
    (
        0usize..8,
        prop::option::weighted(0.7, 0usize..8),
        0usize..4,
        prop::option::weighted(0.3, any::<bool>()),
        transform::maybe_rotation(),
    )
        .prop_map(|(a, b, desc, enable_collision, rotation)| JointUse {
            a,
            b,
            desc,
            enable_collision,
            rotation,
        })
}

/// Valid KHR scenes of 1 to 3 groups (small enough for a corpus case; see `scene_of`).
pub fn scene() -> impl Strategy<Value = KhrScene> {
    scene_of(1..=3)
}

/// Valid KHR scenes with a number of groups in `groups`.
pub fn scene_of(groups: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = KhrScene> {
    (
        prop::collection::vec(group(), groups),
        prop::collection::vec(material(), 0..=4),
        prop::collection::vec(filter(), 0..=3),
        prop::collection::vec(joint_desc(), 1..=3),
        prop::collection::vec(joint_use(), 0..=3),
        prop::sample::select(vec![BufferMode::DataUri, BufferMode::Sibling]),
    )
        .prop_map(
            |(groups, materials, filters, descs, joints, buffer)| KhrScene {
                groups,
                materials,
                filters,
                descs,
                joints,
                buffer,
            },
        )
}
