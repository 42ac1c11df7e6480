//! One scene drawn for a live search (`physics-cts fuzz`): a valid scene, or a valid base with
//! one defect, kept as its proptest value tree so that it can shrink. Every candidate becomes a
//! [`Case`] through exactly the code `generate` uses (the same strategies, framing and
//! mutators; the corpus writer then labels it), so a search has no oracle of its own.

use proptest::strategy::{Strategy, ValueTree};
use reference::profile::Profile;

use crate::blind;
use crate::case::Case;
use crate::corpus;
use crate::edition::{self, Framing};
use crate::features;
use crate::generate;
use crate::mutate::{self, Mutator};
use crate::plan::Edition;
use crate::reach;
use crate::sample::{self, SceneTree};

/// Retries of an invalid draw whose base already draws an issue or that the defect cannot
/// break (as the corpus writer retries).
const INVALID_RETRIES: u64 = 16;

/// A drawn scene that can shrink.
pub struct Draw {
    pub profile: Profile,
    pub seed: u64,
    pub index: u64,
    /// The case id every candidate gets (`<family>/fuzz/<index>`).
    pub id: String,
    source: DrawSource,
}

/// What a draw is drawn from.
enum DrawSource {
    /// A scene of the profile's strategy: valid, framed as the corpus frames it, or a valid
    /// base with one defect.
    Scene {
        tree: SceneTree,
        /// The feature tag the scene was drawn for (its area).
        wanted: Option<String>,
        framing: Framing,
        defect: Option<Mutator>,
    },
    /// A scene written from a drawn specification by its own module ([`ScriptedScene`]).
    Scripted(Box<dyn SpecTree>),
}

/// A specification's value tree with the function that writes its case.
trait SpecTree {
    fn case(&self, profile: Profile, seed: u64, id: &str) -> Case;
    fn simplify(&mut self) -> bool;
    fn complicate(&mut self) -> bool;
}

/// [`ScriptedScene`] for a value tree `T` of specifications and the writer of their cases.
struct Spec<T: ValueTree> {
    tree: T,
    write: fn(Profile, u64, &str, &T::Value) -> Case,
}

impl<T: ValueTree> SpecTree for Spec<T> {
    fn case(&self, profile: Profile, seed: u64, id: &str) -> Case {
        (self.write)(profile, seed, id, &self.tree.current())
    }
    fn simplify(&mut self) -> bool {
        self.tree.simplify()
    }
    fn complicate(&mut self) -> bool {
        self.tree.complicate()
    }
}

impl std::fmt::Debug for Draw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Draw");
        d.field("id", &self.id);
        match &self.source {
            DrawSource::Scene {
                framing, defect, ..
            } => d.field("framing", framing).field("defect", defect),
            DrawSource::Scripted(_) => d.field("scripted", &true),
        };
        d.finish()
    }
}

impl Draw {
    /// The `index`th valid scene of `profile` for `seed`, drawn for a tag starting with
    /// `wanted` when one can be found, framed as the corpus frames its `index`th valid case.
    pub fn valid(profile: Profile, seed: u64, index: u64, wanted: Option<&str>) -> Option<Draw> {
        let id = format!("{}/fuzz/{index:06}", profile.family());
        let (tree, _) = sample::tree(profile, seed, index, stem(&id), wanted)?;
        Some(Draw {
            profile,
            seed,
            index,
            id,
            source: DrawSource::Scene {
                tree,
                wanted: wanted.map(str::to_owned),
                framing: Framing::nth(usize::try_from(index).unwrap_or(usize::MAX)),
                defect: None,
            },
        })
    }

    /// The `index`th scene of `kind` in `profile` (one of `kind`'s profiles) for `seed`.
    pub fn scripted(kind: ScriptedScene, profile: Profile, seed: u64, index: u64) -> Option<Draw> {
        let at = (profile, seed, index);
        match kind {
            ScriptedScene::Reach => Draw::spec(at, kind, reach::spec_strategy(), reach::case),
            ScriptedScene::NodeGeometry => Draw::spec(
                at,
                kind,
                blind::geometry_strategy(),
                blind::node_geometry_case,
            ),
            ScriptedScene::InertiaZero => Draw::spec(
                at,
                kind,
                reach::spec_strategy().prop_filter("an angular reach scene", |s| {
                    s.kind() == reference::scene::DofKind::Angular
                }),
                blind::inertia_zero_of,
            ),
            ScriptedScene::CompoundTrigger => Draw::spec(
                at,
                kind,
                blind::trigger_strategy(),
                blind::compound_trigger_case,
            ),
            ScriptedScene::KinematicMove => {
                Draw::spec(at, kind, blind::move_strategy(), blind::kinematic_move_case)
            }
        }
    }

    /// The `index`th scene of `profile` for `seed` (`at`) of a specification drawn from
    /// `strategy` and written by `write`, its id named after `kind`.
    fn spec<S: Strategy + 'static>(
        (profile, seed, index): (Profile, u64, u64),
        kind: ScriptedScene,
        strategy: S,
        write: fn(Profile, u64, &str, &S::Value) -> Case,
    ) -> Option<Draw>
    where
        S::Tree: 'static,
    {
        let tree = strategy
            .new_tree(&mut sample::runner(seed, index, 0))
            .ok()?;
        Some(Draw {
            profile,
            seed,
            index,
            id: format!("{}/fuzz/{}-{index:06}", profile.family(), kind.name()),
            source: DrawSource::Scripted(Box::new(Spec { tree, write })),
        })
    }

    /// The `index`th invalid scene for `seed`: a valid base of the defect's profile, unframed,
    /// that draws no issue of its own, with the defect; `None` when no base of
    /// [`INVALID_RETRIES`] takes it.
    pub fn invalid(defect: &Mutator, seed: u64, index: u64) -> Option<Draw> {
        let m = mutate::for_edition(defect, Edition::V2);
        let id = format!("{}/fuzz/invalid-{index:06}", m.profile.family());
        (0..INVALID_RETRIES).find_map(|retry| {
            let at = index + retry * 1_000_003;
            let (tree, _) = sample::tree(m.profile, seed, at, stem(&id), m.needs)?;
            let draw = Draw {
                profile: m.profile,
                seed,
                index: at,
                id: id.clone(),
                source: DrawSource::Scene {
                    tree,
                    wanted: m.needs.map(str::to_owned),
                    framing: Framing::default(),
                    defect: Some(m),
                },
            };
            draw.case().map(|_| draw)
        })
    }

    /// Whether the draw carries a defect.
    pub fn is_invalid(&self) -> bool {
        matches!(
            &self.source,
            DrawSource::Scene {
                defect: Some(_),
                ..
            }
        )
    }

    /// The current candidate as a case, labelled by the generator's own rules; `None` when the
    /// defect cannot break it, or its base draws an issue of its own.
    pub fn case(&self) -> Option<Case> {
        let (tree, wanted, framing, defect) = match &self.source {
            DrawSource::Scripted(spec) => {
                return Some(spec.case(self.profile, self.seed, &self.id));
            }
            DrawSource::Scene {
                tree,
                wanted,
                framing,
                defect,
            } => (tree, wanted, framing, defect),
        };
        let rendered = tree.current().render(stem(&self.id));
        let case = generate::rendered_case(
            self.profile,
            self.seed,
            &self.id,
            wanted.as_deref(),
            rendered,
        );
        match defect {
            None => {
                let mut case = edition::framed(case, *framing);
                edition::rescore_draft(&mut case);
                Some(case)
            }
            Some(m) if case.expected.is_empty() => {
                let mut case = m.mutate(&case)?;
                case.tier = m.code.tier();
                Some(case)
            }
            Some(_) => None,
        }
    }

    /// Move to a simpler candidate (proptest's `simplify`); `false` when there is none.
    pub fn simplify(&mut self) -> bool {
        match &mut self.source {
            DrawSource::Scene { tree, .. } => tree.simplify(),
            DrawSource::Scripted(spec) => spec.simplify(),
        }
    }

    /// Move back towards the last candidate that was kept, more complex than the current one
    /// (proptest's `complicate`); `false` when there is none.
    pub fn complicate(&mut self) -> bool {
        match &mut self.source {
            DrawSource::Scene { tree, .. } => tree.complicate(),
            DrawSource::Scripted(spec) => spec.complicate(),
        }
    }

    /// The framing of the current candidate (none for a reach scene).
    pub fn framing(&self) -> Framing {
        match &self.source {
            DrawSource::Scene { framing, .. } => *framing,
            DrawSource::Scripted(_) => Framing::default(),
        }
    }

    /// Write candidates under another framing (shrinking drops matrices and the other scene).
    pub fn set_framing(&mut self, to: Framing) {
        if let DrawSource::Scene { framing, .. } = &mut self.source {
            *framing = to;
        }
    }
}

fn stem(id: &str) -> &str {
    id.rsplit('/').next().unwrap_or(id)
}

/// The scenes a module writes from a drawn specification, with a scenario of their own: the
/// only generated scenes that push a body with impulses, drop a ball on node geometry or
/// through a compound trigger, or move a kinematic body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScriptedScene {
    /// [`reach`]: a ball on a joint pushed by impulses to its limits, or driven.
    Reach,
    /// [`blind`]: a ball settling on node geometry placed below its geometry node.
    NodeGeometry,
    /// [`blind`]: an angular reach scene whose OMI `inertiaDiagonal` is `[0, 0, 0]`.
    InertiaZero,
    /// [`blind`]: a ball falling through a member of a compound trigger.
    CompoundTrigger,
    /// [`blind`]: a kinematic body moved by a `kinematic_pose` action.
    KinematicMove,
}

impl ScriptedScene {
    pub const ALL: [ScriptedScene; 5] = [
        ScriptedScene::Reach,
        ScriptedScene::NodeGeometry,
        ScriptedScene::InertiaZero,
        ScriptedScene::CompoundTrigger,
        ScriptedScene::KinematicMove,
    ];

    /// The profiles that have such scenes.
    pub fn profiles(self) -> &'static [Profile] {
        match self {
            ScriptedScene::Reach => &reach::PROFILES,
            ScriptedScene::NodeGeometry => &[Profile::Khr2025],
            ScriptedScene::InertiaZero => &[Profile::Omi2024, Profile::Omi2025],
            ScriptedScene::CompoundTrigger | ScriptedScene::KinematicMove => {
                &blind::TRIGGER_PROFILES
            }
        }
    }

    /// The name in case ids.
    pub fn name(self) -> &'static str {
        match self {
            ScriptedScene::Reach => "reach",
            ScriptedScene::NodeGeometry => "node-geometry",
            ScriptedScene::InertiaZero => "inertia-zero",
            ScriptedScene::CompoundTrigger => "compound-trigger",
            ScriptedScene::KinematicMove => "kinematic-move",
        }
    }
}

/// What the `n`th draw of a search over `profiles` is: a valid scene of which profile, drawn
/// for which tag (each profile's feature universe in turn, as the corpus takes them); every
/// [`SCRIPTED_EVERY`]th valid one a [`ScriptedScene`] (each kind and profile in turn); and
/// every [`corpus::INVALID_EVERY`]th draw, when there are defects, which defect.
#[derive(Clone, Copy, Debug)]
pub enum Pick<'a> {
    Valid(Profile, &'a str),
    Scripted(ScriptedScene, Profile),
    Invalid(&'a Mutator),
}

/// Every how many valid draws one is a [`ScriptedScene`] (where a profile has them).
pub const SCRIPTED_EVERY: usize = 4;

/// The draws of a search: the profiles' feature universes and their defects.
#[derive(Debug)]
pub struct SearchPlan {
    profiles: Vec<Profile>,
    universes: Vec<Vec<String>>,
    scripted: Vec<(ScriptedScene, Profile)>,
    defects: Vec<Mutator>,
}

impl SearchPlan {
    /// A search over `profiles`, with invalid draws when `validation` (the implementation
    /// takes part in validation).
    pub fn new(profiles: &[Profile], validation: bool) -> SearchPlan {
        let defects = if validation {
            mutate::all()
                .into_iter()
                .filter(|m| profiles.contains(&m.profile))
                .collect()
        } else {
            Vec::new()
        };
        SearchPlan {
            profiles: profiles.to_vec(),
            universes: profiles
                .iter()
                .map(|p| features::universe(*p).into_iter().collect())
                .collect(),
            scripted: ScriptedScene::ALL
                .into_iter()
                .flat_map(|k| k.profiles().iter().map(move |p| (k, *p)))
                .filter(|(_, p)| profiles.contains(p))
                .collect(),
            defects,
        }
    }

    /// The `n`th pick; `None` when the plan has no profile.
    pub fn pick(&self, n: u64) -> Option<Pick<'_>> {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        let every = corpus::INVALID_EVERY;
        if !self.defects.is_empty() && n % every == every - 1 {
            return Some(Pick::Invalid(
                &self.defects[(n / every) % self.defects.len()],
            ));
        }
        let valid_n = if self.defects.is_empty() {
            n
        } else {
            n - (n + 1) / every
        };
        let scene_n = if self.scripted.is_empty() {
            valid_n
        } else if valid_n % SCRIPTED_EVERY == SCRIPTED_EVERY - 1 {
            let (kind, profile) = self.scripted[(valid_n / SCRIPTED_EVERY) % self.scripted.len()];
            return Some(Pick::Scripted(kind, profile));
        } else {
            // Counted apart from the scripted draws, so that every profile takes its turn.
            valid_n - (valid_n + 1) / SCRIPTED_EVERY
        };
        let p = scene_n % self.profiles.len().max(1);
        let universe = self.universes.get(p)?;
        let wanted = universe.get((scene_n / self.profiles.len()) % universe.len().max(1))?;
        Some(Pick::Valid(self.profiles[p], wanted))
    }

    /// The `n`th draw for `seed`.
    pub fn draw(&self, seed: u64, n: u64) -> Option<Draw> {
        match self.pick(n)? {
            Pick::Valid(profile, wanted) => Draw::valid(profile, seed, n, Some(wanted)),
            Pick::Scripted(kind, profile) => Draw::scripted(kind, profile, seed, n),
            Pick::Invalid(m) => Draw::invalid(m, seed, n),
        }
    }
}

/// The size of a candidate, for shrinking reports: its nodes, the nodes carrying an extension
/// (the physics or constraint objects), and its main file's bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Size {
    pub nodes: usize,
    pub extension_nodes: usize,
    pub bytes: usize,
}

impl Size {
    pub fn of(case: &Case) -> Size {
        let nodes = case
            .json()
            .and_then(|j| j.get("nodes"))
            .and_then(|n| n.as_array());
        Size {
            nodes: nodes.map_or(0, Vec::len),
            extension_nodes: nodes.map_or(0, |n| {
                n.iter()
                    .filter(|node| {
                        node.get("extensions")
                            .and_then(|e| e.as_object())
                            .is_some_and(|e| !e.is_empty())
                    })
                    .count()
            }),
            bytes: case.bytes().len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A draw's first candidate is the case the corpus writer makes of the same scene (before
    /// the corpus isolates tapered shapes), byte for byte.
    #[test]
    fn a_draw_is_the_case_generate_writes() {
        for (profile, n) in [
            (Profile::Khr2025, 0u64),
            (Profile::Omi2024, 5),
            (Profile::Khr2026, 12),
        ] {
            let wanted = features::universe(profile)
                .into_iter()
                .next()
                .expect("a tag");
            let draw = Draw::valid(profile, 3, n, Some(&wanted)).expect("a draw");
            let ours = draw.case().expect("a valid case");
            let theirs = edition::framed(
                generate::valid_case(profile, 3, n, &draw.id, Some(&wanted)),
                Framing::nth(n as usize),
            );
            assert_eq!(ours.bytes(), theirs.bytes(), "{profile:?} {n}");
            assert_eq!(ours.features, theirs.features);
            assert_eq!(ours.edition, Edition::V2);
        }
    }

    #[test]
    fn an_invalid_draw_expects_exactly_its_defect() {
        let m = mutate::all()
            .into_iter()
            .find(|m| m.profile == Profile::Khr2025)
            .expect("a khr-2025 mutator");
        let draw = Draw::invalid(&m, 1, 3).expect("a base takes the defect");
        let case = draw.case().expect("the defect applies");
        assert_eq!(case.expected_codes(), vec![m.code]);
        assert!(draw.is_invalid());
    }

    /// Simplified all the way (every step kept, as when every candidate still fails), a scene
    /// of any profile ends with at most 3 nodes, one or two of them with an extension, every
    /// rotation the identity and every scale 1: the strategies shrink towards small scenes.
    #[test]
    fn strategies_shrink_to_small_scenes_with_identity_transforms() {
        for profile in Profile::ALL {
            let plan = SearchPlan::new(&[profile], false);
            for n in (0..7).filter(|n| matches!(plan.pick(*n), Some(Pick::Valid(..)))) {
                let mut draw = plan.draw(9, n).expect("a draw");
                draw.set_framing(Framing::default());
                let before = Size::of(&draw.case().expect("a case"));
                let mut steps = 0;
                while draw.simplify() {
                    steps += 1;
                    assert!(steps < 10_000, "{profile:?} {n}: shrinking does not end");
                }
                let case = draw.case().expect("a case");
                let after = Size::of(&case);
                assert!(
                    after.nodes <= 3 && after.extension_nodes <= 2 && after.bytes < before.bytes,
                    "{profile:?} {n}: {before:?} -> {after:?}"
                );
                let json = case.json().expect("json");
                for node in json["nodes"].as_array().expect("nodes") {
                    let r = node.get("rotation").map(|r| r.to_string());
                    let s = node.get("scale").map(|s| s.to_string());
                    assert!(
                        r.is_none_or(|r| r == "[0.0,0.0,0.0,1.0]")
                            && s.is_none_or(|s| s == "[1.0,1.0,1.0]"),
                        "{profile:?} {n}: {node}"
                    );
                }
            }
        }
    }

    /// In a plan of every profile, each profile's scenes are drawn in turn (the scripted and
    /// the invalid draws take their own turns, not a profile's).
    #[test]
    fn every_profile_takes_its_turn() {
        let plan = SearchPlan::new(&Profile::ALL, true);
        let drawn: std::collections::BTreeSet<Profile> = (0..64)
            .filter_map(|n| match plan.pick(n) {
                Some(Pick::Valid(p, _)) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(drawn.len(), Profile::ALL.len(), "{drawn:?}");
    }

    #[test]
    fn picks_cycle_profiles_and_put_a_defect_every_fourth() {
        let plan = SearchPlan::new(&[Profile::Khr2025, Profile::Omi2024], true);
        let picks: Vec<Pick<'_>> = (0..8).filter_map(|n| plan.pick(n)).collect();
        assert!(matches!(picks[3], Pick::Invalid(_)));
        assert!(matches!(picks[7], Pick::Invalid(_)));
        assert!(matches!(picks[0], Pick::Valid(Profile::Khr2025, _)));
        assert!(matches!(picks[1], Pick::Valid(Profile::Omi2024, _)));
        assert!(matches!(picks[2], Pick::Valid(Profile::Khr2025, _)));
        // The 4th valid draw (draw 4: draw 3 is invalid) is a scripted scene.
        assert!(matches!(plan.pick(4), Some(Pick::Scripted(..))));
        let plain = SearchPlan::new(&[Profile::Khr2025], false);
        let scripted: Vec<(u64, ScriptedScene)> = (0..12)
            .filter_map(|n| match plain.pick(n) {
                Some(Pick::Scripted(k, Profile::Khr2025)) => Some((n, k)),
                _ => None,
            })
            .collect();
        let kinds = [
            ScriptedScene::Reach,
            ScriptedScene::NodeGeometry,
            ScriptedScene::CompoundTrigger,
        ];
        assert_eq!(scripted, vec![(3, kinds[0]), (7, kinds[1]), (11, kinds[2])]);
        let vrm = SearchPlan::new(&[Profile::VrmcNodeConstraint10], false);
        assert!((0..18).all(|n| matches!(vrm.pick(n), Some(Pick::Valid(..)))));
        // Every kind draws and writes a case in each of its profiles.
        for kind in ScriptedScene::ALL {
            for p in kind.profiles() {
                let draw = Draw::scripted(kind, *p, 1, 0).expect("a draw");
                let case = draw.case().expect("a case");
                assert!(case.id.contains(kind.name()) && case.profile == Some(*p));
                assert!(case.scenario.is_some(), "{}", case.id);
            }
        }
    }
}
