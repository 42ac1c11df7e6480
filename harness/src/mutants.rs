//! The suite's own mutation measurement (issue 22): seeded importer bugs in the bundled
//! implementations, one at a time, and the count of what the corpus catches.
//!
//! Each [`Mutant`] is one typical importer bug (the file misread on load, or the answer
//! misreported), injected at the one place of an adapter where a real importer would get it
//! wrong, as a small `if` on the adapter's active mutant. No mutant is active unless one is asked
//! for (`physics-cts mutants`), so `run` reports what it always did.
//!
//! An interpretation bug ([`Mutant::implementations`]) is seeded in both Rapier and the
//! reference (the reference misreads the scene before computing what it reports), and each
//! (mutant, implementation) is measured and counted on its own.
//!
//! A mutant is *caught* when its run has at least one scored failure that `run` would exit 1 on:
//! a `required` case whose verdict is `failed` (not a known failure) and which the un-mutated
//! implementation does not fail (a case already failing cannot catch a bug).

use std::fmt::Write as _;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use reference::scene::{DofKind, Limit, Scene};

use crate::adapters::rapier::RapierImplementation;
use crate::adapters::reference::ReferenceImplementation;
use crate::case::Tier;
use crate::implementation::{Capabilities, Implementation};
use crate::results::{CaseResult, Run, Verdict};
use crate::runner::Factory;

/// One seeded importer bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mutant {
    // Rapier (the misreadings of the file also the reference: see `implementations`).
    AngularLimitsInDegrees,
    OpenLimitSideAsZero,
    DriveMaxForceIgnored,
    GravityFactorIgnored,
    SoftLimitsHard,
    #[serde(rename = "gravity-9-8")]
    Gravity98,
    NodeMatrixIgnored,
    CombineModeIgnored,
    CompoundTriggerWrongNode,
    ImpulseAsForce,
    KinematicPoseIgnored,
    DefaultSceneIgnored,
    // The reference (VRM constraint outputs).
    VrmWeightIgnored,
    VrmQuaternionWxyz,
    VrmFileOrder,
    VrmRollAxisOffByOne,
    VrmFreezeInverted,
    VrmNodeMatrixIgnored,
    VrmScaleIgnored,
    VrmDefaultSceneIgnored,
    // Blind spots of the generated scenes (issue 37): Rapier and the reference.
    GeometryNodeTransformsIgnored,
    OmiZeroInertiaAsInfinite,
}

impl Mutant {
    /// Every mutant, Rapier's first, in the order reports list them.
    pub const ALL: &'static [Mutant] = &[
        Mutant::AngularLimitsInDegrees,
        Mutant::OpenLimitSideAsZero,
        Mutant::DriveMaxForceIgnored,
        Mutant::GravityFactorIgnored,
        Mutant::SoftLimitsHard,
        Mutant::Gravity98,
        Mutant::NodeMatrixIgnored,
        Mutant::CombineModeIgnored,
        Mutant::CompoundTriggerWrongNode,
        Mutant::ImpulseAsForce,
        Mutant::KinematicPoseIgnored,
        Mutant::DefaultSceneIgnored,
        Mutant::VrmWeightIgnored,
        Mutant::VrmQuaternionWxyz,
        Mutant::VrmFileOrder,
        Mutant::VrmRollAxisOffByOne,
        Mutant::VrmFreezeInverted,
        Mutant::VrmNodeMatrixIgnored,
        Mutant::VrmScaleIgnored,
        Mutant::VrmDefaultSceneIgnored,
        Mutant::GeometryNodeTransformsIgnored,
        Mutant::OmiZeroInertiaAsInfinite,
    ];

    /// The stable kebab-case id (`--mutant`, reports).
    pub fn id(self) -> &'static str {
        match self {
            Mutant::AngularLimitsInDegrees => "angular-limits-in-degrees",
            Mutant::OpenLimitSideAsZero => "open-limit-side-as-zero",
            Mutant::DriveMaxForceIgnored => "drive-max-force-ignored",
            Mutant::GravityFactorIgnored => "gravity-factor-ignored",
            Mutant::SoftLimitsHard => "soft-limits-hard",
            Mutant::Gravity98 => "gravity-9-8",
            Mutant::NodeMatrixIgnored => "node-matrix-ignored",
            Mutant::CombineModeIgnored => "combine-mode-ignored",
            Mutant::CompoundTriggerWrongNode => "compound-trigger-wrong-node",
            Mutant::ImpulseAsForce => "impulse-as-force",
            Mutant::KinematicPoseIgnored => "kinematic-pose-ignored",
            Mutant::DefaultSceneIgnored => "default-scene-ignored",
            Mutant::VrmWeightIgnored => "vrm-weight-ignored",
            Mutant::VrmQuaternionWxyz => "vrm-quaternion-wxyz",
            Mutant::VrmFileOrder => "vrm-file-order",
            Mutant::VrmRollAxisOffByOne => "vrm-roll-axis-off-by-one",
            Mutant::VrmFreezeInverted => "vrm-freeze-inverted",
            Mutant::VrmNodeMatrixIgnored => "vrm-node-matrix-ignored",
            Mutant::VrmScaleIgnored => "vrm-scale-ignored",
            Mutant::VrmDefaultSceneIgnored => "vrm-default-scene-ignored",
            Mutant::GeometryNodeTransformsIgnored => "geometry-node-transforms-ignored",
            Mutant::OmiZeroInertiaAsInfinite => "omi-zero-inertia-as-infinite",
        }
    }

    /// One line: what the importer gets wrong.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::AngularLimitsInDegrees => {
                "angular limit bounds read as degrees (converted to radians again)"
            }
            Mutant::OpenLimitSideAsZero => {
                "an absent limit side (min or max) read as 0 when the other side is given"
            }
            Mutant::DriveMaxForceIgnored => "a drive's maxForce ignored (unlimited)",
            Mutant::GravityFactorIgnored => "a body's gravityFactor ignored (1)",
            Mutant::SoftLimitsHard => "soft limits (with stiffness) built as hard ones",
            Mutant::Gravity98 => "gravity 9.8 instead of the scenario's 9.81",
            Mutant::NodeMatrixIgnored => "a node's matrix ignored (identity) in world poses",
            Mutant::CombineModeIgnored => {
                "friction and restitution combine modes ignored (always average)"
            }
            Mutant::CompoundTriggerWrongNode => {
                "trigger events of a compound trigger reported on the member node"
            }
            Mutant::ImpulseAsForce => "an impulse applied as a force for one step",
            Mutant::KinematicPoseIgnored => "the kinematic_pose action ignored",
            Mutant::DefaultSceneIgnored => "the document's default scene ignored (scene 0 loaded)",
            Mutant::VrmWeightIgnored => "a constraint's weight ignored (1)",
            Mutant::VrmQuaternionWxyz => "output rotations written [w, x, y, z]",
            Mutant::VrmFileOrder => "constraints evaluated in file order, not dependency order",
            Mutant::VrmRollAxisOffByOne => "VRM 1.0 roll axis off by one (X->Y, Y->Z, Z->X)",
            Mutant::VrmFreezeInverted => "draft freezeAxes inverted (true read as free)",
            Mutant::VrmNodeMatrixIgnored => {
                "VRM: a node's matrix ignored (identity rest transform) in constraint evaluation"
            }
            Mutant::VrmScaleIgnored => "VRM: node scales ignored (read as 1)",
            Mutant::VrmDefaultSceneIgnored => {
                "VRM: the document's default scene ignored (scene 0's constraints evaluated)"
            }
            Mutant::GeometryNodeTransformsIgnored => {
                "khr-2025 node geometry: the transforms of the nodes below the geometry node ignored"
            }
            Mutant::OmiZeroInertiaAsInfinite => {
                "OMI inertiaDiagonal zeros read as infinite moments (KHR's meaning), not computed"
            }
        }
    }

    /// The bundled implementations the bug is seeded in: a misreading of the file that the
    /// interpretation shows is seeded in Rapier and in the reference ([`misread_scene`]).
    pub fn implementations(self) -> &'static [&'static str] {
        match self {
            Mutant::VrmWeightIgnored
            | Mutant::VrmQuaternionWxyz
            | Mutant::VrmFileOrder
            | Mutant::VrmRollAxisOffByOne
            | Mutant::VrmFreezeInverted
            | Mutant::VrmNodeMatrixIgnored
            | Mutant::VrmScaleIgnored
            | Mutant::VrmDefaultSceneIgnored => &["reference"],
            Mutant::AngularLimitsInDegrees
            | Mutant::OpenLimitSideAsZero
            | Mutant::DriveMaxForceIgnored
            | Mutant::GravityFactorIgnored
            | Mutant::SoftLimitsHard
            | Mutant::NodeMatrixIgnored
            | Mutant::CombineModeIgnored
            | Mutant::DefaultSceneIgnored
            | Mutant::GeometryNodeTransformsIgnored => &["rapier", "reference"],
            Mutant::Gravity98
            | Mutant::CompoundTriggerWrongNode
            | Mutant::ImpulseAsForce
            | Mutant::KinematicPoseIgnored
            // The interpretation leaves a computed inertia to the engine (reported unspecified,
            // never checked), so only a simulation shows this misreading.
            | Mutant::OmiZeroInertiaAsInfinite => &["rapier"],
        }
    }

    /// Whether the bug is seeded in `implementation`.
    pub fn seeded_in(self, implementation: &str) -> bool {
        self.implementations().contains(&implementation)
    }

    /// Feature tags of the cases that exercise the bug (a tag ending in `.` is a prefix), so a
    /// survivor's report says how many cases could have caught it. Empty: no tag names it.
    pub fn tags(self) -> &'static [&'static str] {
        match self {
            Mutant::AngularLimitsInDegrees => &["joint.limit.angular.", "omi.constraint.angular."],
            Mutant::OpenLimitSideAsZero => &["joint.limit.open-min", "joint.limit.open-max"],
            Mutant::DriveMaxForceIgnored => &["joint.drive.max-force"],
            Mutant::GravityFactorIgnored => &["body.gravity-factor"],
            Mutant::SoftLimitsHard => &["joint.limit.soft", "omi.constraint.soft"],
            Mutant::Gravity98 => &["body.dynamic"],
            Mutant::NodeMatrixIgnored => &["node.matrix"],
            Mutant::CombineModeIgnored => &["material.combine.", "material.restitution-combine."],
            Mutant::CompoundTriggerWrongNode => &["trigger.compound"],
            Mutant::ImpulseAsForce => &["body.dynamic.impulse-action"],
            Mutant::KinematicPoseIgnored => &["body.kinematic.pose-action"],
            Mutant::DefaultSceneIgnored => &["scene.non-default"],
            Mutant::VrmWeightIgnored => &[
                "vrm.weight.partial",
                "vrm.weight.zero",
                "vrm1.weight.partial",
                "vrm1.weight.zero",
            ],
            Mutant::VrmQuaternionWxyz => &["vrm.rotation", "vrm.aim", "vrm1."],
            Mutant::VrmFileOrder => &["vrm.chain", "vrm1.chain"],
            Mutant::VrmRollAxisOffByOne => &["vrm1.roll."],
            Mutant::VrmFreezeInverted => &[
                "vrm.position.freeze.",
                "vrm.rotation.freeze.",
                "vrm.aim.freeze.",
            ],
            Mutant::VrmNodeMatrixIgnored => &["vrm1.node-matrix"],
            Mutant::VrmScaleIgnored => &["vrm1.scale."],
            Mutant::VrmDefaultSceneIgnored => &["vrm1.scene.non-default"],
            Mutant::GeometryNodeTransformsIgnored => &["geometry.node."],
            Mutant::OmiZeroInertiaAsInfinite => &["body.inertia-diagonal.zero"],
        }
    }

    /// Whether a case with `features` exercises the bug (carries one of its [`Mutant::tags`]).
    pub fn exercised_by(self, features: &[String]) -> bool {
        let caps = Capabilities {
            features: self.tags().iter().map(|t| (*t).to_owned()).collect(),
            ..Capabilities::default()
        };
        features.iter().any(|f| caps.supports_feature(f))
    }

    /// The mutant of this id.
    pub fn from_id(id: &str) -> Option<Mutant> {
        Mutant::ALL.iter().copied().find(|m| m.id() == id)
    }

    /// The mutants of one implementation, in [`Mutant::ALL`] order.
    pub fn of(implementation: &str) -> Vec<Mutant> {
        Mutant::ALL
            .iter()
            .copied()
            .filter(|m| m.seeded_in(implementation))
            .collect()
    }
}

/// A limit as read with a seeded importer bug: the same limit without one. `coupled`: the
/// joint's limits couple their axes (KHR, OMI 2024 on).
pub fn misread_limit(limit: &Limit, coupled: bool, mutant: Option<Mutant>) -> Limit {
    let mut l = limit.clone();
    if mutant == Some(Mutant::AngularLimitsInDegrees) && l.kind == DofKind::Angular {
        l.min = l.min.map(f64::to_radians);
        l.max = l.max.map(f64::to_radians);
    }
    if mutant == Some(Mutant::OpenLimitSideAsZero) && l.min.is_some() != l.max.is_some() {
        // A coupled distance has no lower side to leave open: its absent minimum is right.
        if !(coupled && l.kind == DofKind::Linear && l.axes.len() > 1) {
            l.min.get_or_insert(0.0);
        }
        l.max.get_or_insert(0.0);
    }
    if mutant == Some(Mutant::SoftLimitsHard) {
        l.stiffness = None;
    }
    l
}

/// The scene as an importer with a seeded bug reads it (unchanged for a bug that is not a
/// misreading of the file): the reference's way of carrying the interpretation bugs that
/// Rapier carries at the places it builds from.
pub fn misread_scene(scene: &mut Scene, mutant: Option<Mutant>) {
    let Some(m) = mutant else { return };
    match m {
        Mutant::AngularLimitsInDegrees | Mutant::OpenLimitSideAsZero | Mutant::SoftLimitsHard => {
            for j in &mut scene.joints {
                let coupled = matches!(j.limits, reference::scene::LimitSet::Coupled(_));
                let (reference::scene::LimitSet::Coupled(list)
                | reference::scene::LimitSet::PerAxis(list)) = &mut j.limits;
                for l in list.iter_mut() {
                    *l = misread_limit(l, coupled, mutant);
                }
            }
        }
        Mutant::DriveMaxForceIgnored => {
            for d in scene.joints.iter_mut().flat_map(|j| &mut j.drives) {
                d.max_force = None;
            }
        }
        Mutant::GravityFactorIgnored => {
            for b in &mut scene.bodies {
                b.gravity_factor = 1.0;
            }
        }
        Mutant::NodeMatrixIgnored => {
            for n in scene.nodes.iter_mut().filter(|n| n.from_matrix) {
                n.rest = reference::scene::Trs::default();
            }
        }
        Mutant::CombineModeIgnored => {
            for mat in &mut scene.materials {
                (mat.friction_combine, mat.restitution_combine) = (None, None);
            }
        }
        _ => {}
    }
}

impl std::fmt::Display for Mutant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

/// The implementations that have mutants, in report order.
pub const IMPLEMENTATIONS: &[&str] = &["rapier", "reference"];

/// A factory of the bundled `implementation` with `mutant` active (`None`: un-mutated); `None`
/// for an implementation without mutants, or a mutant of another implementation.
pub fn factory(implementation: &str, mutant: Option<Mutant>) -> Option<Factory> {
    if mutant.is_some_and(|m| !m.seeded_in(implementation)) {
        return None;
    }
    match implementation {
        "rapier" => Some(Arc::new(move || {
            Box::new(RapierImplementation::with_mutant(mutant)) as Box<dyn Implementation + Send>
        })),
        "reference" => Some(Arc::new(move || {
            Box::new(ReferenceImplementation::with_mutant(mutant)) as Box<dyn Implementation + Send>
        })),
        _ => None,
    }
}

/// What one mutant's run showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    pub mutant: String,
    pub implementation: String,
    pub description: String,
    /// Required cases failed (not known failures) that the un-mutated implementation does not
    /// fail: each would make `run` exit 1.
    pub scored_failures: u32,
    pub caught: bool,
    /// Up to [`CASES_LISTED`] of those cases, in run order.
    pub catching_cases: Vec<String>,
    /// Failures the bug caused that do not count: in optional or informative cases the
    /// un-mutated implementation does not fail (cases it already fails are left out).
    pub unscored_failures: u32,
    /// Cases carrying one of the mutant's feature tags.
    pub exercising_cases: u32,
    /// Of those, the required ones scored in the mutant's run (passed or failed) and not failed
    /// by the un-mutated implementation: the ones that could have caught it.
    pub exercising_scored: u32,
}

/// Catching cases listed per mutant.
pub const CASES_LISTED: usize = 5;

/// Whether the un-mutated result already fails (so it cannot catch anything).
fn failed_before(r: Option<&&CaseResult>) -> bool {
    r.is_some_and(|r| {
        matches!(
            r.verdict,
            Verdict::Failed | Verdict::ExpectedFailure | Verdict::HarnessError
        )
    })
}

/// Count what `mutated` (the run of `implementation` with `mutant`) shows against `control`
/// (the same cases, the same known failures, no mutant).
pub fn outcome(mutant: Mutant, implementation: &str, control: &Run, mutated: &Run) -> Outcome {
    let before: std::collections::HashMap<(&str, &str), &CaseResult> = control
        .results
        .iter()
        .map(|r| ((r.implementation.as_str(), r.case.as_str()), r))
        .collect();
    let mut o = Outcome {
        mutant: mutant.id().to_owned(),
        implementation: implementation.to_owned(),
        description: mutant.description().to_owned(),
        scored_failures: 0,
        caught: false,
        catching_cases: Vec::new(),
        unscored_failures: 0,
        exercising_cases: 0,
        exercising_scored: 0,
    };
    for r in &mutated.results {
        let was = before.get(&(r.implementation.as_str(), r.case.as_str()));
        let already = failed_before(was);
        let counts = r.tier == Tier::Required && !already;
        if mutant.exercised_by(&r.features) {
            o.exercising_cases += 1;
            if counts && r.status.is_scored() {
                o.exercising_scored += 1;
            }
        }
        if r.status.is_failure() && !already {
            if counts && r.verdict == Verdict::Failed {
                o.scored_failures += 1;
                if o.catching_cases.len() < CASES_LISTED {
                    o.catching_cases.push(r.case.clone());
                }
            } else if r.tier != Tier::Required {
                o.unscored_failures += 1;
            }
        }
    }
    o.caught = o.scored_failures > 0;
    o
}

/// The un-mutated run of one implementation, for the reader: it should fail nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Control {
    pub implementation: String,
    pub cases: u32,
    /// Required cases failed that are not known failures (0 when the known failures are
    /// current).
    pub failed: u32,
    pub known_failures: u32,
}

impl Control {
    pub fn of(implementation: &str, run: &Run) -> Control {
        let mine: Vec<&CaseResult> = run.of(implementation).collect();
        Control {
            implementation: implementation.to_owned(),
            cases: mine.len() as u32,
            failed: mine
                .iter()
                .filter(|r| r.tier == Tier::Required && r.verdict == Verdict::Failed)
                .count() as u32,
            known_failures: mine
                .iter()
                .filter(|r| r.verdict == Verdict::ExpectedFailure)
                .count() as u32,
        }
    }
}

/// The whole measurement (`summary.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub suite: String,
    pub corpus: String,
    pub controls: Vec<Control>,
    pub mutants: Vec<Outcome>,
    pub caught: u32,
    pub total: u32,
    /// Wall time of the whole measurement (every control and mutant run), milliseconds.
    pub wall_ms: u64,
}

impl Summary {
    pub fn new(
        suite: &str,
        corpus: &str,
        controls: Vec<Control>,
        mutants: Vec<Outcome>,
        wall_ms: u64,
    ) -> Summary {
        Summary {
            suite: suite.to_owned(),
            corpus: corpus.to_owned(),
            caught: mutants.iter().filter(|m| m.caught).count() as u32,
            total: mutants.len() as u32,
            controls,
            mutants,
            wall_ms,
        }
    }

    /// `caught N of M (P%)`.
    pub fn score_line(&self) -> String {
        let pct = if self.total == 0 {
            0.0
        } else {
            100.0 * f64::from(self.caught) / f64::from(self.total)
        };
        format!("caught {} of {} ({pct:.0}%)", self.caught, self.total)
    }

    /// `summary.md`.
    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Mutation score of the suite\n");
        let _ = writeln!(
            s,
            "{} on `{}`: **{}** seeded importer bugs, one at a time ({:.1} s wall).\n",
            self.suite,
            self.corpus,
            self.score_line(),
            self.wall_ms as f64 / 1000.0
        );
        let _ = writeln!(
            s,
            "A bug is caught when at least one `required` case fails that is not a known failure \
             and that the un-mutated implementation passes (`run` would exit 1). Each row is one \
             bug seeded in one implementation and is counted on its own: a misreading of the file \
             is seeded in Rapier and in the reference, one row each.\n"
        );
        let _ = writeln!(s, "| implementation | cases | failed | known failures |");
        let _ = writeln!(s, "|---|---:|---:|---:|");
        for c in &self.controls {
            let _ = writeln!(
                s,
                "| {} (un-mutated) | {} | {} | {} |",
                c.implementation, c.cases, c.failed, c.known_failures
            );
        }
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "| mutant | implementation | caught | scored failures | unscored failures | cases with its tags (required, scored) | bug |"
        );
        let _ = writeln!(s, "|---|---|---|---:|---:|---:|---|");
        for m in &self.mutants {
            let _ = writeln!(
                s,
                "| `{}` | {} | {} | {} | {} | {} ({}) | {} |",
                m.mutant,
                m.implementation,
                if m.caught { "yes" } else { "**no**" },
                m.scored_failures,
                m.unscored_failures,
                m.exercising_cases,
                m.exercising_scored,
                m.description
            );
        }
        let survivors: Vec<&Outcome> = self.mutants.iter().filter(|m| !m.caught).collect();
        let _ = writeln!(s, "\n## Survivors\n");
        if survivors.is_empty() {
            let _ = writeln!(s, "None.");
        }
        for m in survivors {
            let why = if m.exercising_cases == 0 {
                "No case carries a feature tag of it".to_owned()
            } else if m.exercising_scored == 0 {
                format!(
                    "{} case(s) carry its tags, none of them required, scored and passed un-mutated",
                    m.exercising_cases
                )
            } else {
                format!(
                    "{} case(s) carry its tags, {} of them required, scored and passed un-mutated, and every one still passes with the bug",
                    m.exercising_cases, m.exercising_scored
                )
            };
            let extra = if m.unscored_failures > 0 {
                format!(
                    "; it fails {} optional or informative case(s), which do not count",
                    m.unscored_failures
                )
            } else {
                String::new()
            };
            let _ = writeln!(
                s,
                "- `{}` ({}): {}. {why}{extra}.",
                m.mutant, m.implementation, m.description
            );
        }
        let caught: Vec<&Outcome> = self.mutants.iter().filter(|m| m.caught).collect();
        if !caught.is_empty() {
            let _ = writeln!(s, "\n## Caught by (first cases)\n");
            for m in caught {
                let _ = writeln!(
                    s,
                    "- `{}` ({}): {}",
                    m.mutant,
                    m.implementation,
                    m.catching_cases.join(", ")
                );
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &m in Mutant::ALL {
            assert!(seen.insert(m.id()), "{m} twice");
            assert!(
                m.id()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{m}"
            );
            assert_eq!(Mutant::from_id(m.id()), Some(m));
            assert_eq!(
                serde_json::to_value(m).expect("serialises"),
                serde_json::Value::from(m.id())
            );
            assert!(!m.implementations().is_empty(), "{m}");
            for i in m.implementations() {
                assert!(IMPLEMENTATIONS.contains(i));
                assert!(factory(i, Some(m)).is_some());
            }
        }
        assert!(factory("rapier", Some(Mutant::VrmFileOrder)).is_none());
        assert!(factory("reference", Some(Mutant::Gravity98)).is_none());
        assert!(factory("physx", None).is_none());
        // 8 VRM bugs and 9 misreadings of the file; the misreadings and 5 bugs of simulation
        // (OMI zero inertia read as infinite shows in a simulation only).
        assert_eq!(Mutant::of("reference").len(), 17);
        assert_eq!(Mutant::of("rapier").len(), 14);
    }

    #[test]
    fn tags_match_as_capabilities_do() {
        let f = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(Mutant::AngularLimitsInDegrees.exercised_by(&f(&["joint.limit.angular.2"])));
        assert!(!Mutant::AngularLimitsInDegrees.exercised_by(&f(&["joint.limit.linear.1"])));
        assert!(Mutant::CompoundTriggerWrongNode.exercised_by(&f(&["trigger.compound"])));
        // `trigger.compound` is exact: its descendant variant is a different tag.
        assert!(!Mutant::CompoundTriggerWrongNode.exercised_by(&f(&["trigger.simple"])));
        assert!(!Mutant::NodeMatrixIgnored.exercised_by(&f(&["body.dynamic"])));
        assert!(Mutant::NodeMatrixIgnored.exercised_by(&f(&["node.matrix"])));
        assert!(Mutant::DefaultSceneIgnored.exercised_by(&f(&["scene.non-default"])));
        assert!(Mutant::VrmScaleIgnored.exercised_by(&f(&["vrm1.scale.non-uniform"])));
        assert!(!Mutant::VrmNodeMatrixIgnored.exercised_by(&f(&["node.matrix"])));
        assert!(Mutant::VrmDefaultSceneIgnored.exercised_by(&f(&["vrm1.scene.non-default"])));
    }
}
