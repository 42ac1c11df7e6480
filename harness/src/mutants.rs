//! The suite's own mutation measurement (issue 22): seeded importer bugs in the bundled
//! implementations, one at a time, and the count of what the corpus catches.
//!
//! Each [`Mutant`] (`crate::mutant`) is one typical importer bug (the file misread on load, or the answer
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

use serde::{Deserialize, Serialize};

use crate::case::Tier;
use crate::mutant::Mutant;
use crate::results::{CaseResult, Run, Verdict};

/// The implementations that have mutants, in report order.
pub const IMPLEMENTATIONS: &[&str] = &["rapier", "reference"];

/// What one mutant's run showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MutantOutcome {
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
pub fn outcome(
    mutant: Mutant,
    implementation: &str,
    control: &Run,
    mutated: &Run,
) -> MutantOutcome {
    let before: std::collections::HashMap<(&str, &str), &CaseResult> = control
        .results
        .iter()
        .map(|r| ((r.implementation.as_str(), r.case.as_str()), r))
        .collect();
    let mut o = MutantOutcome {
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
    pub mutants: Vec<MutantOutcome>,
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
        mutants: Vec<MutantOutcome>,
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
        let survivors: Vec<&MutantOutcome> = self.mutants.iter().filter(|m| !m.caught).collect();
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
        let caught: Vec<&MutantOutcome> = self.mutants.iter().filter(|m| m.caught).collect();
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
    use crate::bundled::mutated;

    #[test]
    fn every_mutant_has_a_factory_of_its_implementations_alone() {
        for &m in Mutant::ALL {
            for i in m.implementations() {
                assert!(IMPLEMENTATIONS.contains(i));
                assert!(mutated(i, Some(m)).is_some());
            }
        }
        assert!(mutated("rapier", Some(Mutant::VrmFileOrder)).is_none());
        assert!(mutated("reference", Some(Mutant::Gravity98)).is_none());
        assert!(mutated("physx", None).is_none());
    }
}
