//! One candidate scene run on a live implementation: written as a one-case corpus by the
//! corpus writer (which labels it with the reference, as `generate` does), then run by the
//! runner and checks `run` uses.

use std::path::{Path, PathBuf};

use generator::case::{Case, Tier};
use generator::corpus;

use crate::case::Corpus;
use crate::check::CheckResult;
use crate::implementation::Capabilities;
use crate::implementation::Factory;
use crate::runner::{ImplRunner, Options};
use crate::status::Status;

/// A failing check of a scored case: the check kind ([`kind`]) and how it failed. Shrinking
/// keeps a candidate only while it still shows the same symptom.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Symptom {
    pub check: String,
    pub status: Status,
}

/// A check's kind, its name without object indices (which change as a scene shrinks): the
/// reference's catalogue rule.
pub use reference::check_id::kind;

impl std::fmt::Display for Symptom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.check, self.status)
    }
}

/// What one candidate did.
#[derive(Clone, Debug)]
pub struct Trial {
    pub checks: Vec<CheckResult>,
    /// The case is scored (required or optional), so its failures count.
    pub scored: bool,
    /// How the reference's reading differs from the generator's expectation (a suite bug: the
    /// candidate says nothing about the implementation).
    pub disagreement: Option<String>,
    /// The checks of the implementation without its seeded bug, when it has one and this
    /// trial failed: unless it passes the case, no symptom is the bug's.
    pub control: Option<Vec<CheckResult>>,
}

impl Trial {
    /// The case's status, as `run` reports it.
    pub fn status(&self) -> Status {
        crate::check::case_status(&self.checks)
    }

    /// The failures that count, one per check kind and status, sorted.
    pub fn symptoms(&self) -> Vec<Symptom> {
        if !self.scored || self.disagreement.is_some() {
            return Vec::new();
        }
        // With a seeded bug, a symptom is the bug's only where the implementation without it
        // passes the case: then the case fails with the bug and passes without it.
        if self
            .control
            .as_ref()
            .is_some_and(|c| !crate::check::case_status(c).is_pass())
        {
            return Vec::new();
        }
        let mut v: Vec<Symptom> = self
            .checks
            .iter()
            .filter(|c| c.status.is_failure())
            .map(|c| Symptom {
                check: kind(&c.check),
                status: c.status,
            })
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The check showing `symptom`, if the trial shows it.
    pub fn showing(&self, symptom: &Symptom) -> Option<&CheckResult> {
        if !self.symptoms().contains(symptom) {
            return None;
        }
        self.checks
            .iter()
            .find(|c| kind(&c.check) == symptom.check && c.status == symptom.status)
    }
}

/// An implementation instance (and its un-mutated twin, when it carries a seeded bug) and the
/// folder its candidates are written to.
pub struct Probe {
    runner: ImplRunner,
    control: Option<ImplRunner>,
    dir: PathBuf,
    seed: u64,
}

impl std::fmt::Debug for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Probe").field("dir", &self.dir).finish()
    }
}

impl Probe {
    /// An instance of `factory` (and of `control`, the same without its seeded bug), writing
    /// its candidates under `dir` (made when needed).
    pub fn new(
        name: &str,
        (factory, control): (Factory, Option<Factory>),
        options: Options,
        dir: &Path,
        seed: u64,
    ) -> Probe {
        Probe {
            runner: ImplRunner::new(name, factory, options),
            control: control.map(|c| ImplRunner::new(name, c, options)),
            dir: dir.to_path_buf(),
            seed,
        }
    }

    /// The implementation's declared capabilities (its handshake, made once).
    pub fn capabilities(&mut self) -> Result<Capabilities, Box<CheckResult>> {
        self.runner.handshake().map(|i| i.capabilities)
    }

    /// Write `case` as the only case of the probe's corpus and run it.
    pub fn run(&mut self, case: &Case) -> std::io::Result<Trial> {
        if self.dir.exists() {
            std::fs::remove_dir_all(&self.dir)?;
        }
        let report = corpus::write(
            &self.dir,
            self.seed,
            std::slice::from_ref(case),
            &mut |_, _| {},
        )?;
        let corpus = Corpus::open(&self.dir).map_err(std::io::Error::other)?;
        let entry = corpus
            .entries
            .first()
            .ok_or_else(|| std::io::Error::other("the probe's corpus has no case"))?;
        let mut trial = Trial {
            checks: self.runner.run_case(&corpus, entry),
            scored: case.tier != Tier::Informative,
            disagreement: report.disagreements.into_iter().next(),
            control: None,
        };
        if let Some(control) = &mut self.control
            && !trial.symptoms().is_empty()
        {
            trial.control = Some(control.run_case(&corpus, entry));
        }
        Ok(trial)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckResult;

    fn trial(checks: &[(&str, Status)], control: Option<&[(&str, Status)]>) -> Trial {
        let make = |v: &[(&str, Status)]| {
            v.iter()
                .map(|(c, s)| CheckResult::new(*c, *s, ""))
                .collect::<Vec<_>>()
        };
        Trial {
            checks: make(checks),
            scored: true,
            disagreement: None,
            control: control.map(make),
        }
    }

    #[test]
    fn symptoms_are_scored_failures_of_cases_the_control_passes() {
        let t = trial(
            &[
                ("load", Status::Pass),
                ("dynamics.gravity-0", Status::Fail),
                ("dynamics.gravity-1", Status::Fail),
                ("dynamics.joint-2-limit-0", Status::Timeout),
            ],
            None,
        );
        let s = t.symptoms();
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].check, "dynamics.gravity");
        assert!(
            t.showing(&s[1])
                .is_some_and(|c| c.check == "dynamics.joint-2-limit-0")
        );
        let failing = [
            ("dynamics.gravity-0", Status::Fail),
            ("dynamics.rest-0", Status::Fail),
        ];
        let control_fails = trial(
            &failing,
            Some(&[("dynamics.joint-4-limit-0", Status::Fail)]),
        );
        assert!(control_fails.symptoms().is_empty());
        let control_passes = trial(
            &failing,
            Some(&[
                ("dynamics.gravity-0", Status::Pass),
                ("capabilities", Status::Skip),
            ]),
        );
        assert_eq!(control_passes.symptoms().len(), 2);
        let mut unscored = t.clone();
        unscored.scored = false;
        assert!(unscored.symptoms().is_empty());
        let mut disagreeing = t;
        disagreeing.disagreement = Some("x".into());
        assert!(disagreeing.symptoms().is_empty());
    }
}
