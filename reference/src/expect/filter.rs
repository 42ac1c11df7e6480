//! Whether two colliders may collide under their collision filters [D-FILTER], [D-FILTER-EMPTY],
//! as small pure functions.
//!
//! The seed: "A will collide with B if A.collisionSystem ⊆ B.collideWithSystems &&
//! A.collisionSystem ⊄ B.notCollideWithSystems", tested in both directions. A collider with no
//! filter, or a filter without `collisionSystems`, belongs to no system: the empty set is a
//! subset of every `collideWithSystems` (admitted) and counts as "not a subset" of a
//! `notCollideWithSystems` list (never excluded).

use serde::Serialize;

use crate::decision::{Decision, DecisionSet};
use crate::scene::Filter;

/// Whether `x`'s lists admit `y`'s systems (`None`: no filter).
pub fn allows(x: Option<&Filter>, y: Option<&Filter>) -> bool {
    let systems: &[String] = y.map_or(&[], |f| &f.collision_systems);
    let Some(x) = x else {
        return true;
    };
    let subset = |list: &[String]| systems.iter().all(|s| list.contains(s));
    let admitted = x.collide_with_systems.as_deref().is_none_or(subset);
    let excluded = x
        .not_collide_with_systems
        .as_deref()
        .is_some_and(|list| !systems.is_empty() && subset(list));
    admitted && !excluded
}

/// The filter verdict of one pair, both directions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FilterPair {
    /// `allows(a, b)`: a's lists admit b's systems.
    pub allows_ab: bool,
    /// `allows(b, a)`.
    pub allows_ba: bool,
    /// Both directions allow it.
    pub collide: bool,
    pub decisions: DecisionSet,
}

/// Evaluate a pair of (optional) filters.
pub fn pair(a: Option<&Filter>, b: Option<&Filter>) -> FilterPair {
    let allows_ab = allows(a, b);
    let allows_ba = allows(b, a);
    let mut decisions: DecisionSet = [Decision::Filter].into_iter().collect();
    let no_system = |f: Option<&Filter>| f.is_none_or(|f| f.collision_systems.is_empty());
    if no_system(a) || no_system(b) {
        decisions.insert(Decision::FilterEmpty);
    }
    FilterPair {
        allows_ab,
        allows_ba,
        collide: allows_ab && allows_ba,
        decisions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    fn filter(systems: &[&str], with: Option<&[&str]>, not_with: Option<&[&str]>) -> Filter {
        Filter {
            collision_systems: strings(systems),
            collide_with_systems: with.map(strings),
            not_collide_with_systems: not_with.map(strings),
        }
    }

    /// Hand-worked cases: (x, y, allows(x, y)).
    #[test]
    fn allows_table() {
        let player = filter(&["player"], None, None);
        let ghost = filter(&["ghost"], None, Some(&["player"]));
        let picky = filter(&["npc"], Some(&["player"]), None);
        let both = filter(&["player", "npc"], None, None);
        let empty = filter(&[], None, None);
        let shy_of_all = filter(&["x"], None, Some(&["player", "npc"]));
        let cases: &[(Option<&Filter>, Option<&Filter>, bool)] = &[
            // No filters anywhere: everything collides.
            (None, None, true),
            (None, Some(&ghost), true),
            (Some(&player), Some(&ghost), true),
            // {player} ⊆ ghost.notCollideWith -> excluded.
            (Some(&ghost), Some(&player), false),
            // {ghost} ⊄ {player}: ghost's systems are not in picky's collideWith.
            (Some(&picky), Some(&ghost), false),
            (Some(&picky), Some(&player), true),
            // {player, npc} ⊄ {player}: not admitted by picky.
            (Some(&picky), Some(&both), false),
            // {player, npc} ⊄ {player}: not excluded by ghost (only every system excludes).
            (Some(&ghost), Some(&both), true),
            // {player, npc} ⊆ {player, npc}: excluded.
            (Some(&shy_of_all), Some(&both), false),
            // [D-FILTER-EMPTY]: no filter or no systems -> admitted by collideWith, never
            // excluded by notCollideWith.
            (Some(&picky), None, true),
            (Some(&picky), Some(&empty), true),
            (Some(&ghost), None, true),
            (Some(&shy_of_all), Some(&empty), true),
        ];
        for (i, &(x, y, want)) in cases.iter().enumerate() {
            assert_eq!(allows(x, y), want, "case {i}");
        }
    }

    /// Asymmetric directions: ghost excludes player, player admits ghost -> no collision.
    #[test]
    fn one_direction_is_enough_to_exclude() {
        let player = filter(&["player"], None, None);
        let ghost = filter(&["ghost"], None, Some(&["player"]));
        let p = pair(Some(&player), Some(&ghost));
        assert!(p.allows_ab);
        assert!(!p.allows_ba);
        assert!(!p.collide);
        assert_eq!(
            p.decisions.iter().collect::<Vec<_>>(),
            vec![Decision::Filter]
        );
        let q = pair(Some(&ghost), Some(&player));
        assert!(!q.allows_ab && q.allows_ba && !q.collide);
        let r = pair(None, Some(&ghost));
        assert!(r.collide);
        assert_eq!(
            r.decisions.iter().collect::<Vec<_>>(),
            vec![Decision::Filter, Decision::FilterEmpty]
        );
    }

    fn any_filter() -> impl Strategy<Value = Option<Filter>> {
        let names = || prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 0..3);
        prop::option::of(
            (
                names(),
                prop::option::of(names()),
                prop::option::of(names()),
            )
                .prop_map(|(s, w, n)| Filter {
                    collision_systems: strings(&s),
                    collide_with_systems: w.map(|w| strings(&w)),
                    not_collide_with_systems: n.map(|n| strings(&n)),
                }),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn collide_is_symmetric(a in any_filter(), b in any_filter()) {
            prop_assert_eq!(pair(a.as_ref(), b.as_ref()).collide, pair(b.as_ref(), a.as_ref()).collide);
        }

        /// A collider without a filter collides with anything whose lists admit the empty set,
        /// which is every list [D-FILTER-EMPTY].
        #[test]
        fn no_filter_always_collides(a in any_filter()) {
            prop_assert!(pair(a.as_ref(), None).collide);
        }

        /// A filter without lists admits everyone.
        #[test]
        fn no_lists_admit_everyone(a in any_filter(), systems in prop::collection::vec("[abc]", 0..3)) {
            let open = Filter { collision_systems: systems, collide_with_systems: None, not_collide_with_systems: None };
            prop_assert!(allows(Some(&open), a.as_ref()));
        }
    }
}
