//! Per-pair rules Rapier cannot express natively, applied in its physics hooks:
//! - [D-FILTER]: collision filters with string systems, tested in both directions, exactly (no
//!   squeezing into Rapier's 32-bit interaction groups);
//! - [D-COMBINE]: friction and restitution combined with the spec's precedence (average, then
//!   minimum, then maximum, then multiply: the first either side names). Rapier's own rule picks
//!   the larger enum value (max > multiply > min > average), which differs, so every contact
//!   manifold gets the pair's values in `modify_solver_contacts`.
//!
//! Rapier has one friction coefficient: it gets the combined *static* friction (the value that
//! decides whether a resting body stays put). A collider without a material has the
//! implementation-defined values [D-COMBINE-DEFAULT] Rapier gives it (friction 0.5, restitution
//! 0); a pair where neither side names a combine mode uses Rapier's default rule, average.
//!
//! The combine precedence and the filter rule are small and also belong to the reference's
//! expectations; once `reference::expect` exposes them, these two functions should call it.

use std::collections::HashMap;

use rapier3d::geometry::{ColliderHandle, SolverFlags};
use rapier3d::pipeline::{ContactModificationContext, PairFilterContext, PhysicsHooks};

use ::reference::scene::{Combine, Filter, Material, NodeId};

/// Rapier's default friction for a collider without a material.
pub(super) const DEFAULT_FRICTION: f64 = 0.5;
/// Rapier's default restitution.
pub(super) const DEFAULT_RESTITUTION: f64 = 0.0;

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
    /// Rapier's single friction coefficient (the combined static friction).
    pub friction: f64,
    pub restitution: f64,
}

/// `allows(x, y)` of [D-FILTER]: every system of `y` is in `x`'s `collideWithSystems` (when
/// given), and not every system of `y` is in `x`'s `notCollideWithSystems` (when given; an
/// empty set of systems is never excluded [D-FILTER-EMPTY]).
pub(super) fn allows(x: Option<&Filter>, y: Option<&Filter>) -> bool {
    let Some(x) = x else { return true };
    let systems: &[String] = y.map_or(&[], |f| &f.collision_systems);
    let subset = |list: &[String]| systems.iter().all(|s| list.contains(s));
    let admitted = x.collide_with_systems.as_deref().is_none_or(subset);
    let excluded = x
        .not_collide_with_systems
        .as_deref()
        .is_some_and(|without| !systems.is_empty() && subset(without));
    admitted && !excluded
}

/// Both directions of [D-FILTER].
pub(super) fn collide(a: Option<&Filter>, b: Option<&Filter>) -> bool {
    allows(a, b) && allows(b, a)
}

/// [D-COMBINE]: the mode is the first of average, minimum, maximum, multiply that either side
/// names; `None` when neither names one.
pub(super) fn combine_mode(a: Option<Combine>, b: Option<Combine>) -> Option<Combine> {
    [
        Combine::Average,
        Combine::Minimum,
        Combine::Maximum,
        Combine::Multiply,
    ]
    .into_iter()
    .find(|m| a == Some(*m) || b == Some(*m))
}

/// Combine two values with [`combine_mode`] (average when neither side names a mode).
pub(super) fn combine(a: f64, ma: Option<Combine>, b: f64, mb: Option<Combine>) -> f64 {
    match combine_mode(ma, mb).unwrap_or(Combine::Average) {
        Combine::Average => (a + b) / 2.0,
        Combine::Minimum => a.min(b),
        Combine::Maximum => a.max(b),
        Combine::Multiply => a * b,
    }
}

/// The rule of a pair of colliders.
pub(super) fn pair_rule(a: &ColliderRule, b: &ColliderRule) -> PairRule {
    let friction = |r: &ColliderRule| {
        r.material.as_ref().map_or((DEFAULT_FRICTION, None), |m| {
            (m.static_friction, m.friction_combine)
        })
    };
    let restitution = |r: &ColliderRule| {
        r.material
            .as_ref()
            .map_or((DEFAULT_RESTITUTION, None), |m| {
                (m.restitution, m.restitution_combine)
            })
    };
    let ((fa, ma), (fb, mb)) = (friction(a), friction(b));
    let ((ra, na), (rb, nb)) = (restitution(a), restitution(b));
    PairRule {
        collide: collide(a.filter.as_ref(), b.filter.as_ref()),
        friction: combine(fa, ma, fb, mb),
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
        if let Some(manifold) = context.rigid_mut() {
            *manifold.friction = rule.friction as f32;
            *manifold.restitution = rule.restitution as f32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn filter(systems: &[&str], with: Option<&[&str]>, without: Option<&[&str]>) -> Filter {
        let owned = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Filter {
            collision_systems: owned(systems),
            collide_with_systems: with.map(owned),
            not_collide_with_systems: without.map(owned),
        }
    }

    #[test]
    fn filter_examples() {
        let player = filter(&["player"], None, Some(&["ghost"]));
        let ghost = filter(&["ghost"], None, None);
        let wall = filter(&["wall"], Some(&["player"]), None);
        let nobody = filter(&[], None, None);
        // player excludes ghosts: one direction is enough to stop the pair.
        assert!(!allows(Some(&player), Some(&ghost)));
        assert!(allows(Some(&ghost), Some(&player)));
        assert!(!collide(Some(&player), Some(&ghost)));
        // wall admits only players.
        assert!(collide(Some(&wall), Some(&player)));
        assert!(!collide(Some(&wall), Some(&ghost)));
        // [D-FILTER-EMPTY]: no systems is never excluded and always admitted.
        assert!(allows(Some(&player), Some(&nobody)));
        assert!(allows(Some(&wall), Some(&nobody)));
        assert!(allows(Some(&wall), None));
        assert!(collide(None, None));
        // Subset, not intersection: {a, b} is not excluded by a list naming only a.
        let ab = filter(&["a", "b"], None, None);
        let not_a = filter(&["c"], None, Some(&["a"]));
        assert!(allows(Some(&not_a), Some(&ab)));
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

    fn combine_strategy() -> impl Strategy<Value = Option<Combine>> {
        prop_oneof![
            Just(None),
            Just(Some(Combine::Average)),
            Just(Some(Combine::Minimum)),
            Just(Some(Combine::Maximum)),
            Just(Some(Combine::Multiply)),
        ]
    }

    proptest! {
        #[test]
        fn combine_is_symmetric_and_bounded(
            a in 0.0..2.0f64, b in 0.0..2.0f64,
            ma in combine_strategy(), mb in combine_strategy(),
        ) {
            prop_assert_eq!(combine(a, ma, b, mb), combine(b, mb, a, ma));
            let v = combine(a, ma, b, mb);
            if combine_mode(ma, mb) != Some(Combine::Multiply) {
                prop_assert!(v >= a.min(b) - 1e-12 && v <= a.max(b) + 1e-12);
            }
        }

        #[test]
        fn lists_covering_the_other_side_decide(
            systems in proptest::collection::btree_set(0..4u8, 0..3),
            extra in proptest::collection::btree_set(4..6u8, 0..2),
        ) {
            let names = |v: &std::collections::BTreeSet<u8>| {
                v.iter().map(|i| format!("s{i}")).collect::<Vec<_>>()
            };
            let y = Filter {
                collision_systems: names(&systems),
                collide_with_systems: None,
                not_collide_with_systems: None,
            };
            let mut covering = systems.clone();
            covering.extend(&extra);
            // A collideWith list containing all of y's systems admits y.
            let with = Filter {
                collision_systems: Vec::new(),
                collide_with_systems: Some(names(&covering)),
                not_collide_with_systems: None,
            };
            prop_assert!(allows(Some(&with), Some(&y)));
            // A notCollideWith list containing all of y's systems excludes y, unless y has none.
            let without = Filter {
                collision_systems: Vec::new(),
                collide_with_systems: None,
                not_collide_with_systems: Some(names(&covering)),
            };
            prop_assert_eq!(allows(Some(&without), Some(&y)), systems.is_empty());
            // A collideWith list missing one of y's systems refuses y.
            if let Some(first) = systems.iter().next() {
                let mut short = covering.clone();
                short.remove(first);
                let partial = Filter {
                    collision_systems: Vec::new(),
                    collide_with_systems: Some(names(&short)),
                    not_collide_with_systems: None,
                };
                prop_assert!(!allows(Some(&partial), Some(&y)));
            }
        }
    }
}
