//! Per-pair rules Rapier cannot express natively, applied in its physics hooks:
//! - [D-FILTER]: collision filters with string systems, tested in both directions, exactly (no
//!   squeezing into Rapier's 32-bit interaction groups);
//! - [D-COMBINE]: friction and restitution combined with the spec's precedence (average, then
//!   minimum, then maximum, then multiply: the first either side names). Rapier's own rule picks
//!   the larger enum value (max > multiply > min > average), which differs, so every contact
//!   manifold gets the pair's values in `modify_solver_contacts`.
//!
//! Static and dynamic friction: Rapier's solver has one friction coefficient per contact
//! manifold (`ModifiableManifold::friction`), but the hook runs before every step for pairs with
//! active hooks (Rapier never recycles their contacts), so it picks the coefficient each step
//! from the contact's state: the combined *dynamic* friction while a contact point slides (its
//! tangential relative speed is above [`SLIDING_SPEED`]), the combined *static* friction while
//! the contacts stick. That is Coulomb friction with two coefficients, as the spec describes it.
//! A collider without a material has the implementation-defined values [D-COMBINE-DEFAULT]
//! Rapier gives it (friction 0.5, restitution 0); a pair where neither side names a combine mode
//! uses Rapier's default rule, average.
//!
//! The precedence and the filter rule themselves are the reference's
//! (`reference::expect::{combine, filter}`); this module applies them per contact pair.

use std::collections::HashMap;

use rapier3d::dynamics::{RigidBodyHandle, RigidBodySet};
use rapier3d::geometry::{ColliderHandle, SolverContact, SolverFlags};
use rapier3d::math::Vector;
use rapier3d::pipeline::{ContactModificationContext, PairFilterContext, PhysicsHooks};

use ::reference::expect::{combine, filter};
use ::reference::scene::{Combine, Filter, Material, NodeId};

/// Rapier's default friction for a collider without a material.
pub(super) const DEFAULT_FRICTION: f64 = 0.5;
/// Rapier's default restitution.
pub(super) const DEFAULT_RESTITUTION: f64 = 0.0;
/// Tangential relative speed (m/s) above which a contact slides and gets the dynamic friction.
/// A contact held by static friction in Rapier keeps a residual tangential speed far below it
/// (the friction rows are solved to zero relative speed); 1 cm/s moves a contact 0.17 mm in a
/// 1/60 s step, well under the suite's length tolerances.
pub(super) const SLIDING_SPEED: f64 = 1e-2;

/// What the hooks know about one collider.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct ColliderRule {
    pub node: NodeId,
    pub is_trigger: bool,
    pub material: Option<Material>,
    pub filter: Option<Filter>,
}

/// The response of one pair of colliders.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct PairRule {
    pub collide: bool,
    /// The combined static friction, used while the contacts stick.
    pub static_friction: f64,
    /// The combined dynamic friction, used while a contact slides.
    pub dynamic_friction: f64,
    pub restitution: f64,
}

impl PairRule {
    /// The friction coefficient of a manifold whose fastest contact point slides at
    /// `tangential_speed`.
    pub(super) fn friction(&self, tangential_speed: f64) -> f64 {
        if tangential_speed > SLIDING_SPEED {
            self.dynamic_friction
        } else {
            self.static_friction
        }
    }
}

/// Both directions of [D-FILTER]: the reference's verdict, so the rule lives in one place.
pub(super) fn collide(a: Option<&Filter>, b: Option<&Filter>) -> bool {
    filter::pair(a, b).collide
}

/// Combine two values with the spec's precedence [D-COMBINE]; when neither side names a mode
/// the spec has no value [D-COMBINE-DEFAULT] and Rapier's default rule, average, applies.
pub(super) fn combine(a: f64, ma: Option<Combine>, b: f64, mb: Option<Combine>) -> f64 {
    combine::combine(ma, a, mb, b).unwrap_or((a + b) / 2.0)
}

/// The rule of a pair of colliders.
pub(super) fn pair_rule(a: &ColliderRule, b: &ColliderRule) -> PairRule {
    let friction = |r: &ColliderRule, dynamic: bool| {
        r.material.as_ref().map_or((DEFAULT_FRICTION, None), |m| {
            let value = if dynamic {
                m.dynamic_friction
            } else {
                m.static_friction
            };
            (value, m.friction_combine)
        })
    };
    let restitution = |r: &ColliderRule| {
        r.material
            .as_ref()
            .map_or((DEFAULT_RESTITUTION, None), |m| {
                (m.restitution, m.restitution_combine)
            })
    };
    let combined = |dynamic: bool| {
        let ((fa, ma), (fb, mb)) = (friction(a, dynamic), friction(b, dynamic));
        combine(fa, ma, fb, mb)
    };
    let ((ra, na), (rb, nb)) = (restitution(a), restitution(b));
    PairRule {
        collide: collide(a.filter.as_ref(), b.filter.as_ref()),
        static_friction: combined(false),
        dynamic_friction: combined(true),
        restitution: combine(ra, na, rb, nb),
    }
}

/// The hooks of one loaded world.
#[derive(Clone, Debug, Default)]
pub(super) struct Hooks {
    pub rules: HashMap<ColliderHandle, ColliderRule>,
}

impl Hooks {
    fn rules_of(
        &self,
        a: ColliderHandle,
        b: ColliderHandle,
    ) -> Option<(&ColliderRule, &ColliderRule)> {
        Some((self.rules.get(&a)?, self.rules.get(&b)?))
    }
}

impl PhysicsHooks for Hooks {
    fn filter_contact_pair(&self, context: &PairFilterContext) -> Option<SolverFlags> {
        match self.rules_of(context.collider1, context.collider2) {
            Some((a, b)) if !collide(a.filter.as_ref(), b.filter.as_ref()) => None,
            _ => Some(SolverFlags::COMPUTE_RIGID_IMPULSES),
        }
    }

    fn filter_intersection_pair(&self, context: &PairFilterContext) -> bool {
        match self.rules_of(context.collider1, context.collider2) {
            // Triggers detect colliders, not each other.
            Some((a, b)) if a.is_trigger && b.is_trigger => false,
            Some((a, b)) => collide(a.filter.as_ref(), b.filter.as_ref()),
            None => true,
        }
    }

    fn modify_solver_contacts(&self, context: &mut ContactModificationContext) {
        let Some((a, b)) = self.rules_of(context.collider1, context.collider2) else {
            return;
        };
        let rule = pair_rule(a, b);
        let bodies = [context.rigid_body1, context.rigid_body2];
        let all = context.bodies;
        if let Some(manifold) = context.rigid_mut() {
            let speed =
                max_tangential_speed(all, bodies, *manifold.normal, manifold.solver_contacts);
            *manifold.friction = rule.friction(speed) as f32;
            *manifold.restitution = rule.restitution as f32;
        }
    }
}

/// The largest tangential relative speed over a manifold's contact points (world-space
/// anchors, as the hook sees them): `|v_t|` with `v = v2(p2) - v1(p1)`, `v_t = v - (n . v) n`.
/// A body without a handle (or not in the set) is the still world.
fn max_tangential_speed(
    bodies: &RigidBodySet,
    handles: [Option<RigidBodyHandle>; 2],
    normal: Vector,
    contacts: &[SolverContact],
) -> f64 {
    let velocity = |h: Option<RigidBodyHandle>, p: Vector| {
        h.and_then(|h| bodies.get(h))
            .map_or(Vector::ZERO, |rb| rb.velocity_at_point(p))
    };
    contacts
        .iter()
        .map(|c| {
            let v = velocity(handles[1], c.anchor2) - velocity(handles[0], c.anchor1);
            let t = v - normal * normal.dot(v);
            f64::from(t.length())
        })
        .fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(systems: &[&str], with: Option<&[&str]>, without: Option<&[&str]>) -> Filter {
        let owned = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Filter {
            collision_systems: owned(systems),
            collide_with_systems: with.map(owned),
            not_collide_with_systems: without.map(owned),
        }
    }

    #[test]
    fn filter_examples_both_directions() {
        let player = filter(&["player"], None, Some(&["ghost"]));
        let ghost = filter(&["ghost"], None, None);
        let wall = filter(&["wall"], Some(&["player"]), None);
        // player excludes ghosts: one direction is enough to stop the pair.
        assert!(!collide(Some(&player), Some(&ghost)));
        assert!(!collide(Some(&ghost), Some(&player)));
        // wall admits only players.
        assert!(collide(Some(&wall), Some(&player)));
        assert!(!collide(Some(&wall), Some(&ghost)));
        assert!(collide(None, None));
    }

    #[test]
    fn combine_precedence_examples() {
        use Combine::*;
        // average wins over everything: (0.2 + 0.8) / 2 = 0.5.
        assert_eq!(combine(0.2, Some(Multiply), 0.8, Some(Average)), 0.5);
        // minimum beats maximum and multiply.
        assert_eq!(combine(0.2, Some(Maximum), 0.8, Some(Minimum)), 0.2);
        // maximum beats multiply.
        assert_eq!(combine(0.2, Some(Multiply), 0.8, Some(Maximum)), 0.8);
        // multiply alone: 0.2 * 0.8 = 0.16.
        assert!((combine(0.2, Some(Multiply), 0.8, None) - 0.16).abs() < 1e-12);
        // neither names one: Rapier's average.
        assert_eq!(combine(0.2, None, 0.8, None), 0.5);
        // Rapier would have picked max here (its Max enum value is the largest); the spec says average.
        assert_eq!(combine(1.0, Some(Average), 0.0, Some(Maximum)), 0.5);
    }

    fn rule(material: Option<Material>) -> ColliderRule {
        ColliderRule {
            node: 0,
            is_trigger: false,
            material,
            filter: None,
        }
    }

    #[test]
    fn a_pair_without_materials_gets_rapier_defaults() {
        let r = pair_rule(&rule(None), &rule(None));
        assert_eq!(
            (r.static_friction, r.dynamic_friction, r.restitution),
            (DEFAULT_FRICTION, DEFAULT_FRICTION, DEFAULT_RESTITUTION)
        );
        // One side with a material, no combine mode: average with Rapier's 0.5.
        let m = Material {
            static_friction: 0.9,
            dynamic_friction: 0.1,
            restitution: 0.4,
            friction_combine: Some(Combine::Maximum),
            restitution_combine: None,
        };
        let r = pair_rule(&rule(Some(m)), &rule(None));
        // Friction: maximum of the static values, max(0.9, 0.5) = 0.9, and of the dynamic ones,
        // max(0.1, 0.5) = 0.5; restitution: (0.4 + 0) / 2 = 0.2.
        assert_eq!((r.static_friction, r.dynamic_friction), (0.9, 0.5));
        assert!((r.restitution - 0.2).abs() < 1e-12);
        assert!(r.collide);
        // Sticking contacts get the static value, sliding ones the dynamic value.
        assert_eq!(r.friction(0.0), 0.9);
        assert_eq!(r.friction(SLIDING_SPEED / 2.0), 0.9);
        assert_eq!(r.friction(2.0 * SLIDING_SPEED), 0.5);
    }
}
