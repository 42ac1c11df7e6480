//! Expected interaction of every pair of colliders: combined materials [D-COMBINE] and whether
//! they may touch [D-FILTER].
//!
//! Pairs are unordered (`a < b`) and skip colliders of the same body: the parts of one rigid body
//! never collide, and the static world counts as one body. A pair makes contact when the
//! filters let it collide, neither side is a trigger, and no joint without `enableCollision`
//! joins the two bodies (KHR `enableCollision` defaults to false; OMI joined bodies never
//! collide). A pair with a trigger that the filters let collide reports overlaps instead.

use serde::Serialize;

use crate::decision::Decision;
use crate::scene::{BodyId, NodeId, Scene};

use super::combine::{self, Combined, Friction};
use super::filter;

/// What an importer must end up with for one pair of colliders.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PairExpect {
    /// Collider indices, `a < b`.
    pub colliders: [usize; 2],
    pub nodes: [NodeId; 2],
    pub bodies: [Option<BodyId>; 2],
    pub friction: Friction,
    pub restitution: Combined,
    /// `allows(a, b)`: a's filter lists admit b's systems.
    pub allows_ab: bool,
    pub allows_ba: bool,
    /// The filters let the pair collide (both directions).
    pub collide: bool,
    /// Either side is a trigger.
    pub trigger: bool,
    /// The joint node that joins the two bodies without `enableCollision`, if any.
    pub joined_by: Option<NodeId>,
    /// The pair generates contacts.
    pub contact: bool,
    /// The pair generates overlap events (a trigger the filters let collide).
    pub overlap: bool,
    pub decisions: Vec<Decision>,
}

/// The joint (by node) that joins bodies at nodes `p` and `q` (`None`: the world) and disables
/// their collision.
pub fn joined_by(scene: &Scene, p: Option<NodeId>, q: Option<NodeId>) -> Option<NodeId> {
    scene
        .joints
        .iter()
        .find(|j| {
            let (a, b) = (j.a.body_node, j.b.body_node);
            !j.enable_collision && ((a, b) == (p, q) || (a, b) == (q, p))
        })
        .map(|j| j.node)
}

/// Every pair of colliders on different bodies.
pub fn pairs(scene: &Scene) -> Vec<PairExpect> {
    let body_node = |b: Option<BodyId>| b.and_then(|b| scene.bodies.get(b)).map(|b| b.node);
    let mut out = Vec::new();
    for (i, a) in scene.colliders.iter().enumerate() {
        for (j, b) in scene.colliders.iter().enumerate().skip(i + 1) {
            if a.body == b.body {
                continue;
            }
            let materials = combine::materials(
                a.material.and_then(|m| scene.materials.get(m)),
                b.material.and_then(|m| scene.materials.get(m)),
            );
            let filters = filter::pair(
                a.filter.and_then(|f| scene.filters.get(f)),
                b.filter.and_then(|f| scene.filters.get(f)),
            );
            let trigger = a.is_trigger || b.is_trigger;
            let joined = joined_by(scene, body_node(a.body), body_node(b.body));
            let mut decisions: Vec<Decision> = materials
                .decisions
                .iter()
                .chain(&filters.decisions)
                .copied()
                .collect();
            decisions.sort();
            decisions.dedup();
            out.push(PairExpect {
                colliders: [i, j],
                nodes: [a.node, b.node],
                bodies: [a.body, b.body],
                friction: materials.friction,
                restitution: materials.restitution,
                allows_ab: filters.allows_ab,
                allows_ba: filters.allows_ba,
                collide: filters.collide,
                trigger,
                joined_by: joined,
                contact: filters.collide && !trigger && joined.is_none(),
                overlap: filters.collide && trigger,
                decisions,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::scene::{Attachment, Joint, LimitSet};

    fn joint(node: NodeId, a: Option<NodeId>, b: Option<NodeId>, enable_collision: bool) -> Joint {
        Joint {
            node,
            a: Attachment {
                frame: node,
                body_node: a,
            },
            b: Attachment {
                frame: node,
                body_node: b,
            },
            limits: LimitSet::Coupled(Vec::new()),
            drives: Vec::new(),
            enable_collision,
            description: None,
        }
    }

    #[test]
    fn joined_in_either_order_unless_collision_is_enabled() {
        let mut s = Scene::new(Profile::Khr2024Draft, Vec::new(), Vec::new());
        s.joints = vec![
            joint(7, Some(1), None, false),
            joint(8, Some(2), Some(3), true),
        ];
        // The world end matches a static collider (body node `None`), in either order.
        assert_eq!(joined_by(&s, None, Some(1)), Some(7));
        assert_eq!(joined_by(&s, Some(1), None), Some(7));
        // enableCollision: the joint does not exclude the pair.
        assert_eq!(joined_by(&s, Some(2), Some(3)), None);
        assert_eq!(joined_by(&s, Some(1), Some(3)), None);
    }
}
