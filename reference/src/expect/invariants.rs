//! Which dynamics invariants hold for a scene, whatever an engine does with it (never a
//! trajectory: engines differ by design). The facts come from the expected interpretation; the
//! generator turns them into scenario checks with its own simulation settings and tolerances.
//!
//! - static bodies and static colliders never move ([`Invariants::still`]);
//! - hard joint limits that hold at rest hold over the whole run ([`Invariants::limits`]);
//!   left out: a limit the rest pose violates by more than float noise
//!   ([`crate::metrics::REST_VIOLATION_NOISE`]; how an engine brings it back is a trajectory),
//!   and the limits of bodies torn between a moving anchor and another anchor (no engine can
//!   keep them);
//! - pairs that never make contact (filters [D-FILTER], joints without `enableCollision`)
//!   never do ([`Invariants::no_contact`]);
//! - kinematic bodies without angular velocity keep their linear velocity, and free dynamic
//!   bodies (no joint, no pair that can make contact, a mass that is finite and given or
//!   computed from solid colliders) fall with gravity times their gravity factor
//!   ([`Invariants::bodies`]); gravity never moves static and kinematic bodies (covered by
//!   `still` and the kept velocity).

use nalgebra::Vector3;

use crate::metrics::holds_at_rest;
use crate::scene::{BodyKind, DofKind, MassValue, NodeId};

use super::Expectation;

/// The invariants of one scene, each list in the order of the interpretation.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Invariants {
    /// Nodes of static bodies and static colliders, sorted, each once.
    pub still: Vec<NodeId>,
    /// Hard limits that hold at rest, on joints that can move and whose bodies are not torn.
    pub limits: Vec<HeldLimit>,
    /// Collider node pairs (smaller node first) that never make contact.
    pub no_contact: Vec<[NodeId; 2]>,
    /// What gravity and the initial velocities do to bodies, in body order.
    pub bodies: Vec<BodyMotion>,
}

/// A hard limit that holds over any run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeldLimit {
    /// The joint's node.
    pub joint: NodeId,
    /// Index into the joint's `limits`.
    pub limit: usize,
    pub kind: DofKind,
}

/// A body whose motion is known without simulating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BodyMotion {
    /// A kinematic body without angular velocity keeps its world linear velocity.
    KeepsVelocity {
        node: NodeId,
        velocity: Vector3<f64>,
    },
    /// A free dynamic body accelerates with gravity times its gravity factor.
    FreeFall { node: NodeId, gravity_factor: f64 },
}

/// The invariants of the scene whose expected interpretation is `e`.
pub fn invariants(e: &Expectation) -> Invariants {
    let mut still: Vec<NodeId> = e
        .bodies
        .iter()
        .filter(|b| b.kind == BodyKind::Static)
        .map(|b| b.node)
        .chain(
            e.colliders
                .iter()
                .filter(|c| c.body_node.is_none())
                .map(|c| c.node),
        )
        .collect();
    still.sort_unstable();
    still.dedup();
    let no_contact = e
        .pairs
        .iter()
        .filter(|p| !p.contact && !p.trigger)
        .map(|p| [p.nodes[0].min(p.nodes[1]), p.nodes[0].max(p.nodes[1])])
        .collect();
    let bodies = e
        .bodies
        .iter()
        .filter_map(|b| match b.kind {
            BodyKind::Kinematic if b.angular_velocity.norm() == 0.0 => {
                Some(BodyMotion::KeepsVelocity {
                    node: b.node,
                    velocity: b.linear_velocity,
                })
            }
            BodyKind::Dynamic if free(e, b.node) => Some(BodyMotion::FreeFall {
                node: b.node,
                gravity_factor: b.gravity_factor,
            }),
            _ => None,
        })
        .collect();
    Invariants {
        still,
        limits: held_limits(e),
        no_contact,
        bodies,
    }
}

/// Hard limits on joints that can move (one side a dynamic body of finite mass) and whose
/// bodies are not torn between anchors, that hold at rest.
fn held_limits(e: &Expectation) -> Vec<HeldLimit> {
    let movable = |node: Option<NodeId>| is_movable(e, node);
    let torn = torn_components(e);
    let mut out = Vec::new();
    for j in &e.joints {
        if !(movable(j.frames[0].body_node) || movable(j.frames[1].body_node)) {
            continue;
        }
        if j.frames
            .iter()
            .any(|f| f.body_node.is_some_and(|n| torn.contains(&n)))
        {
            continue;
        }
        for (i, l) in j.limits.iter().enumerate() {
            // A limit the rest pose violates: how an engine resolves it is a trajectory, not
            // an invariant (engines differ by design).
            if l.stiffness.is_some() || l.overridden || !holds_at_rest(l.violation) {
                continue;
            }
            out.push(HeldLimit {
                joint: j.node,
                limit: i,
                kind: l.kind,
            });
        }
    }
    out
}

/// A dynamic body of finite mass: forces (joints, contacts, gravity) move it.
fn is_movable(e: &Expectation, node: Option<NodeId>) -> bool {
    node.and_then(|n| e.bodies.iter().find(|b| b.node == n))
        .is_some_and(|b| b.kind == BodyKind::Dynamic && b.mass != MassValue::Infinite)
}

/// An anchor that moves on its own: a kinematic body, or an infinitely heavy dynamic one,
/// with a non-zero initial velocity.
fn moving_anchor(e: &Expectation, node: NodeId) -> bool {
    e.bodies.iter().find(|b| b.node == node).is_some_and(|b| {
        !is_movable(e, Some(node))
            && b.kind != BodyKind::Static
            && (b.linear_velocity.norm() > 0.0 || b.angular_velocity.norm() > 0.0)
    })
}

/// Movable bodies whose joint-connected group is attached to a moving anchor and to at least
/// one other anchor (the world, a static body, another kinematic one): the anchors pull the
/// group apart, so no engine can keep every limit, and the limits say nothing there.
fn torn_components(e: &Expectation) -> Vec<NodeId> {
    let movable: Vec<NodeId> = e
        .bodies
        .iter()
        .filter(|b| is_movable(e, Some(b.node)))
        .map(|b| b.node)
        .collect();
    // Union-find over movable bodies joined by joints.
    let mut parent: Vec<usize> = (0..movable.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let index = |n: Option<NodeId>| n.and_then(|n| movable.iter().position(|m| *m == n));
    for j in &e.joints {
        if let (Some(a), Some(b)) = (index(j.frames[0].body_node), index(j.frames[1].body_node)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra] = rb;
        }
    }
    // Per group: (anchors, moving anchors) among the other sides of its joints.
    let mut anchors = vec![(Vec::<Option<NodeId>>::new(), false); movable.len()];
    for j in &e.joints {
        for (mine, other) in [(0, 1), (1, 0)] {
            let (Some(i), None) = (
                index(j.frames[mine].body_node),
                index(j.frames[other].body_node),
            ) else {
                continue;
            };
            let r = root(&mut parent, i);
            let anchor = j.frames[other].body_node;
            if !anchors[r].0.contains(&anchor) {
                anchors[r].0.push(anchor);
            }
            anchors[r].1 |= anchor.is_some_and(|n| moving_anchor(e, n));
        }
    }
    (0..movable.len())
        .filter(|&i| {
            let r = root(&mut parent, i);
            anchors[r].1 && anchors[r].0.len() > 1
        })
        .map(|i| movable[i])
        .collect()
}

/// A dynamic body nothing else acts on: no joint frame on it, none of its colliders in a pair
/// that can make contact, and a finite mass (given, or computed from solid colliders).
fn free(e: &Expectation, node: NodeId) -> bool {
    let Some(b) = e.bodies.iter().find(|b| b.node == node) else {
        return false;
    };
    let solid = e
        .colliders
        .iter()
        .any(|c| c.body_node == Some(node) && !c.trigger);
    let mass_ok = match b.mass {
        MassValue::Finite(m) => m > 0.0,
        MassValue::EngineComputes => solid,
        MassValue::Infinite => false,
    };
    let jointed = e
        .joints
        .iter()
        .any(|j| j.frames.iter().any(|f| f.body_node == Some(node)));
    let touches = e
        .pairs
        .iter()
        .any(|p| p.contact && p.bodies.contains(&Some(b.index)));
    mass_ok && !jointed && !touches
}
