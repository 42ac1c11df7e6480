//! Expected colliders and triggers: the owning body, the pose relative to it, the shape.
//!
//! A collider or trigger belongs to its nearest ancestor-or-self body, else it is static
//! [D-FRAMES]; the reader records that owner in [`Collider::body`]. The relative pose is the rest
//! pose of the collider node relative to the owner's rest pose (rigid parts), the world pose
//! for a static one.

use nalgebra::Isometry3;
use serde::Serialize;

use crate::decision::Decision;
use crate::profile::Profile;
use crate::scene::{BodyId, Collider, CompoundTrigger, FilterId, MaterialId, NodeId, Scene, Shape};

use super::json;
use super::world::World;

/// What an importer must end up with for one collider or trigger.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColliderExpect {
    pub index: usize,
    pub node: NodeId,
    /// The owning body (index into `bodies`); `None`: static.
    pub body: Option<BodyId>,
    pub body_node: Option<NodeId>,
    pub trigger: bool,
    /// Pose relative to the owning body (world pose when static), at rest.
    #[serde(serialize_with = "json::pose")]
    pub pose: Isometry3<f64>,
    /// The shape, profile defaults resolved.
    pub shape: Option<Shape>,
    pub material: Option<MaterialId>,
    pub filter: Option<FilterId>,
    pub decisions: Vec<Decision>,
}

/// The expectation of one collider.
pub fn collider(scene: &Scene, world: &World, index: usize, c: &Collider) -> ColliderExpect {
    let body_node = c.body.and_then(|b| scene.bodies.get(b)).map(|b| b.node);
    let shape = scene.shapes.get(c.shape).cloned();
    let mut decisions = vec![Decision::Frames];
    if scene.profile == Profile::Omi2023 && matches!(shape, Some(Shape::Capsule { .. })) {
        decisions.push(Decision::Capsule);
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompoundTriggerExpect {
    pub node: NodeId,
    pub body: Option<BodyId>,
    pub members: Vec<NodeId>,
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
