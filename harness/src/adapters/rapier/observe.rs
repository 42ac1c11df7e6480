//! What the harness can see of a Rapier world, read back from the Rapier objects: the
//! interpretation after load, and the state (poses, velocities, contacts, trigger events)
//! after some steps.

use std::collections::BTreeSet;

use rapier3d::dynamics::RigidBodyHandle;
use rapier3d::geometry::{Collider, CollisionEvent};

use super::hooks::pair_rule;
use super::world::LoadedWorld;
use super::{bodies, convert, joints, shapes};
use crate::implementation::{
    ColliderReport, Interpretation, JointReport, NodeState, PairReport, State, TriggerEvent,
    TriggerEventKind,
};

impl LoadedWorld {
    fn body_node(&self, h: RigidBodyHandle) -> Option<usize> {
        self.body_nodes.get(&h).copied()
    }

    /// Whether no Rapier joint between the two bodies disables their contacts.
    fn contacts_enabled(&self, a: Option<RigidBodyHandle>, b: Option<RigidBodyHandle>) -> bool {
        let (Some(a), Some(b)) = (a, b) else {
            return true;
        };
        self.world
            .impulse_joints
            .joints_between(a, b)
            .all(|(_, j)| j.data.contacts_enabled)
    }

    fn collider_report(&self, node: usize, c: &Collider) -> ColliderReport {
        let (shape, parameters) = shapes::describe(c.shared_shape());
        let pose = c.position_wrt_parent().unwrap_or_else(|| c.position());
        ColliderReport {
            node,
            body: c.parent().and_then(|h| self.body_node(h)),
            is_trigger: c.is_sensor(),
            shape,
            parameters,
            translation: convert::array(pose.translation),
            rotation: convert::quaternion(pose.rotation),
        }
    }

    /// The interpretation, read back from Rapier and from the hooks' per-pair rules. A pair's
    /// `collide` says whether Rapier generates contacts: the hooks' filter verdict, neither side
    /// a sensor, and no joint between the two bodies with contacts disabled.
    pub(super) fn interpretation(&self) -> Interpretation {
        let bodies = self
            .bodies
            .iter()
            .filter_map(|(&node, &h)| Some(bodies::report(node, self.world.bodies.get(h)?)))
            .collect();
        let colliders = self
            .colliders
            .iter()
            .filter_map(|(&node, &h)| {
                Some(self.collider_report(node, self.world.colliders.get(h)?))
            })
            .collect();
        // Every pair of colliders on different bodies (the static world is one body), nodes in
        // increasing order so a < b.
        let mut pairs = Vec::new();
        let entries: Vec<_> = self
            .colliders
            .values()
            .filter_map(|&h| Some((self.world.colliders.get(h)?, self.hooks.rules.get(&h)?)))
            .collect();
        for (i, (ca, ra)) in entries.iter().enumerate() {
            for (cb, rb) in &entries[i + 1..] {
                if ca.parent() == cb.parent() {
                    continue;
                }
                let rule = pair_rule(ra, rb);
                pairs.push(PairReport {
                    a: ra.node,
                    b: rb.node,
                    collide: rule.collide
                        && !ca.is_sensor()
                        && !cb.is_sensor()
                        && self.contacts_enabled(ca.parent(), cb.parent()),
                    // The hook hands Rapier one or the other (as f32), see `hooks`.
                    static_friction: Some(f64::from(rule.static_friction as f32)),
                    dynamic_friction: Some(f64::from(rule.dynamic_friction as f32)),
                    restitution: Some(f64::from(rule.restitution as f32)),
                });
            }
        }
        let joints = self
            .joints
            .iter()
            .filter_map(|(&node, &h)| {
                let j = self.world.impulse_joints.get(h)?;
                let (limits, drives) = self.understood.get(&node).cloned().unwrap_or_default();
                Some(JointReport {
                    node,
                    bodies: [self.body_node(j.body1()), self.body_node(j.body2())],
                    frames: joints::frames_of(&j.data),
                    limits,
                    drives,
                })
            })
            .collect();
        Interpretation {
            bodies,
            colliders,
            pairs,
            joints,
        }
    }

    /// Turn Rapier's sensor events into trigger enter/exit events by node: a compound trigger
    /// enters when its first member starts overlapping a collider and exits when its last stops.
    pub(super) fn collect_trigger_events(&mut self) {
        while let Ok(event) = self.collision_events.try_recv() {
            let (h1, h2) = (event.collider1(), event.collider2());
            let (trigger, other) = match (self.trigger_nodes.get(&h1), self.trigger_nodes.get(&h2))
            {
                (Some(&t), None) => (t, h2),
                (None, Some(&t)) => (t, h1),
                _ => continue,
            };
            let Some(other) = self.hooks.rules.get(&other).map(|r| r.node) else {
                continue;
            };
            let count = self.overlaps.entry((trigger, other)).or_insert(0);
            let kind = match event {
                CollisionEvent::Started(..) => {
                    *count += 1;
                    (*count == 1).then_some(TriggerEventKind::Enter)
                }
                CollisionEvent::Stopped(..) => {
                    *count = count.saturating_sub(1);
                    (*count == 0).then_some(TriggerEventKind::Exit)
                }
            };
            if *count == 0 {
                self.overlaps.remove(&(trigger, other));
            }
            if let Some(kind) = kind {
                self.trigger_events.push(TriggerEvent {
                    kind,
                    trigger,
                    other,
                });
            }
        }
    }

    /// World poses and velocities of every body and static collider, active contact pairs,
    /// and the trigger events since the previous observation.
    pub(super) fn state(&mut self) -> State {
        self.collect_trigger_events();
        let mut nodes = Vec::new();
        for (&node, &h) in &self.bodies {
            if let Some(rb) = self.world.bodies.get(h) {
                let p = rb.position();
                nodes.push(NodeState {
                    node,
                    translation: convert::array(p.translation),
                    rotation: convert::quaternion(p.rotation),
                    linear_velocity: convert::array(rb.linvel()),
                    angular_velocity: convert::array(rb.angvel()),
                });
            }
        }
        for (&node, &h) in &self.colliders {
            let on_ground =
                |c: &&Collider| c.parent().is_none_or(|p| !self.body_nodes.contains_key(&p));
            if let Some(c) = self.world.colliders.get(h).filter(on_ground) {
                let p = c.position();
                nodes.push(NodeState {
                    node,
                    translation: convert::array(p.translation),
                    rotation: convert::quaternion(p.rotation),
                    linear_velocity: [0.0; 3],
                    angular_velocity: [0.0; 3],
                });
            }
        }
        nodes.sort_by_key(|n| n.node);
        let node_of = |h| self.hooks.rules.get(&h).map(|r| r.node);
        let contacts: BTreeSet<[usize; 2]> = self
            .world
            .narrow_phase
            .contact_pairs()
            .filter(|p| p.has_any_active_contact())
            .filter_map(|p| {
                let (a, b) = (node_of(p.collider1)?, node_of(p.collider2)?);
                Some([a.min(b), a.max(b)])
            })
            .collect();
        State {
            time: self.time,
            nodes,
            contacts: contacts.into_iter().collect(),
            trigger_events: std::mem::take(&mut self.trigger_events),
        }
    }
}
