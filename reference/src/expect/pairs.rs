//! Expected interaction of every pair of colliders: combined materials [D-COMBINE] and whether
//! they may touch [D-FILTER].
//!
//! Pairs are unordered (`a < b`) and skip colliders of the same body: the parts of one rigid body
//! never collide, and the static world counts as one body. A pair makes contact when the
//! filters let it collide, neither side is a trigger, and no joint without `enableCollision`
//! joins the two bodies (KHR `enableCollision` defaults to false; OMI joined bodies never
//! collide). A pair with a trigger that the filters let collide reports overlaps instead.

use serde::{Deserialize, Serialize};

use crate::decision::DecisionSet;
use crate::scene::{BodyId, NodeId, Scene};

use super::combine::{self, Combined, Friction};
use super::filter;

/// What an importer must end up with for one pair of colliders.
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairExpect {
    /// `allows(a, b)`: a's filter lists admit b's systems.
    pub allows_ab: bool,
    pub allows_ba: bool,
    pub bodies: [Option<BodyId>; 2],
    /// The filters let the pair collide (both directions).
    pub collide: bool,
    /// Collider indices, `a < b`.
    pub colliders: [usize; 2],
    /// The pair generates contacts.
    pub contact: bool,
    pub decisions: DecisionSet,
    pub friction: Friction,
    /// The joint node that joins the two bodies without `enableCollision`, if any.
    pub joined_by: Option<NodeId>,
    pub nodes: [NodeId; 2],
    /// The pair generates overlap events (a trigger the filters let collide).
    pub overlap: bool,
    pub restitution: Combined,
    /// Either side is a trigger.
    pub trigger: bool,
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

/// Results of a symmetric-in-shape function of two optional indices into a list of `len`
/// items, computed once per ordered index pair (a scene has few materials and filters but many
/// collider pairs; the saving was not measured apart). Lists too long for a small table are
/// evaluated every time.
struct Memo<T> {
    len: usize,
    table: Option<Vec<Option<T>>>,
}

impl<T: Clone> Memo<T> {
    /// Largest table kept (entries).
    const MAX: usize = 4096;

    fn new(len: usize) -> Memo<T> {
        let side = len.saturating_add(1);
        let table = side
            .checked_mul(side)
            .filter(|&n| n <= Self::MAX)
            .map(|n| vec![None; n]);
        Memo { len, table }
    }

    /// `f(a, b)` for indices `a` and `b` (out of range counts as absent), from the table when
    /// already computed.
    fn get(&mut self, a: Option<usize>, b: Option<usize>, f: impl FnOnce() -> T) -> T {
        let key = |i: Option<usize>| i.filter(|&i| i < self.len).unwrap_or(self.len);
        let index = key(a) * (self.len + 1) + key(b);
        match &mut self.table {
            Some(table) => table[index].get_or_insert_with(f).clone(),
            None => f(),
        }
    }
}

/// Every pair of colliders on different bodies.
pub fn pairs(scene: &Scene) -> Vec<PairExpect> {
    let body_node = |b: Option<BodyId>| b.and_then(|b| scene.bodies.get(b)).map(|b| b.node);
    let mut material_memo = Memo::new(scene.materials.len());
    let mut filter_memo = Memo::new(scene.filters.len());
    // Sized exactly first: growing a vector of pairs copied it about twice over.
    let count = scene
        .colliders
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let later = scene.colliders.iter().skip(i + 1);
            later.filter(|b| a.body != b.body).count()
        })
        .sum();
    let mut out = Vec::with_capacity(count);
    for (i, a) in scene.colliders.iter().enumerate() {
        for (j, b) in scene.colliders.iter().enumerate().skip(i + 1) {
            if a.body == b.body {
                continue;
            }
            let materials = material_memo.get(a.material, b.material, || {
                combine::materials(
                    a.material.and_then(|m| scene.materials.get(m)),
                    b.material.and_then(|m| scene.materials.get(m)),
                )
            });
            let filters = filter_memo.get(a.filter, b.filter, || {
                filter::pair(
                    a.filter.and_then(|f| scene.filters.get(f)),
                    b.filter.and_then(|f| scene.filters.get(f)),
                )
            });
            let trigger = a.is_trigger || b.is_trigger;
            let joined = joined_by(scene, body_node(a.body), body_node(b.body));
            let decisions = materials.decisions.union(filters.decisions);
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
    use crate::decision::Decision;
    use crate::profile::Profile;
    use crate::scene::{Attachment, Collider, Combine, Filter, Joint, LimitSet, Material};
    use proptest::prelude::*;

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

    /// The pairs computed without the memo: every combination evaluated directly.
    fn direct(scene: &Scene) -> Vec<(Friction, Combined, bool, bool, Vec<Decision>)> {
        let mut out = Vec::new();
        for (i, a) in scene.colliders.iter().enumerate() {
            for b in scene.colliders.iter().skip(i + 1) {
                if a.body == b.body {
                    continue;
                }
                let m = combine::materials(
                    a.material.and_then(|m| scene.materials.get(m)),
                    b.material.and_then(|m| scene.materials.get(m)),
                );
                let f = filter::pair(
                    a.filter.and_then(|f| scene.filters.get(f)),
                    b.filter.and_then(|f| scene.filters.get(f)),
                );
                let mut d: Vec<Decision> = m.decisions.iter().chain(f.decisions.iter()).collect();
                d.sort();
                d.dedup();
                out.push((m.friction, m.restitution, f.allows_ab, f.allows_ba, d));
            }
        }
        out
    }

    fn material_strategy() -> impl Strategy<Value = Material> {
        let combine = prop::option::of(prop::sample::select(vec![
            Combine::Average,
            Combine::Minimum,
            Combine::Maximum,
            Combine::Multiply,
        ]));
        (
            0.0f64..2.0,
            0.0f64..2.0,
            0.0f64..1.0,
            combine.clone(),
            combine,
        )
            .prop_map(|(s, d, r, fc, rc)| Material {
                static_friction: s,
                dynamic_friction: d,
                restitution: r,
                friction_combine: fc,
                restitution_combine: rc,
            })
    }

    fn filter_strategy() -> impl Strategy<Value = Filter> {
        let names = || prop::collection::vec(prop::sample::select(vec!["a", "b", "c"]), 0..3);
        let owned = |v: Vec<&str>| v.into_iter().map(str::to_owned).collect::<Vec<_>>();
        (
            names(),
            prop::option::of(names()),
            prop::option::of(names()),
        )
            .prop_map(move |(s, w, n)| Filter {
                collision_systems: owned(s),
                collide_with_systems: w.map(owned),
                not_collide_with_systems: n.map(owned),
            })
    }

    proptest! {
        /// The memo changes nothing: every pair equals its direct evaluation, including
        /// material and filter indices out of range (read as absent), with the table and
        /// without it (`pad`: over 63 filters, too many for the table).
        #[test]
        fn memoised_pairs_equal_direct_evaluation(
            materials in prop::collection::vec(material_strategy(), 0..4),
            filters in prop::collection::vec(filter_strategy(), 0..4),
            colliders in prop::collection::vec(
                (prop::option::of(0usize..6), prop::option::of(0usize..6), any::<bool>(), prop::option::of(0usize..3)),
                0..10,
            ),
            pad in any::<bool>(),
        ) {
            let mut s = Scene::new(Profile::Khr2024Draft, Vec::new(), Vec::new());
            s.materials = materials;
            s.filters = filters;
            if pad {
                let plain = Filter {
                    collision_systems: vec!["pad".into()],
                    collide_with_systems: None,
                    not_collide_with_systems: None,
                };
                s.filters.resize(64, plain);
            }
            s.colliders = colliders
                .into_iter()
                .enumerate()
                .map(|(k, (material, filter, is_trigger, body))| Collider {
                    node: k,
                    shape: 0,
                    material,
                    filter,
                    is_trigger,
                    body,
                })
                .collect();
            let got: Vec<_> = pairs(&s)
                .into_iter()
                .map(|p| (p.friction, p.restitution, p.allows_ab, p.allows_ba, p.decisions.iter().collect()))
                .collect();
            prop_assert_eq!(got, direct(&s));
        }
    }
}
