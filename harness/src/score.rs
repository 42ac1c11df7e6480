//! Scores with their denominators: per implementation, per profile and feature area, per
//! feature tag, with required, optional and informative apart. A score counts passed cases
//! over scored ones (passes and failures; expected failures are still failures); cases not
//! supported, skipped, not run or hit by a harness error are outside the denominator.
//! Informative cases are tallied to be shown, never folded into a score. Across the
//! implementations of one run, [`interop`] says which cases pass on all of them.

pub mod interop;

use std::collections::BTreeMap;

use serde::Serialize;

use crate::case::Tier;
use crate::results::{CaseResult, Run, Verdict};
use crate::status::Status;

/// Passed over scored, and every status seen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub passed: u32,
    /// The denominator.
    pub scored: u32,
    pub cases: u32,
    pub by_status: BTreeMap<Status, u32>,
}

impl Tally {
    pub fn add(&mut self, status: Status) {
        self.cases += 1;
        *self.by_status.entry(status).or_default() += 1;
        if status.is_scored() {
            self.scored += 1;
        }
        if status.is_pass() {
            self.passed += 1;
        }
    }

    /// `passed/scored (pct%)`, or `-` with nothing scored.
    pub fn display(&self) -> String {
        match self.percent() {
            Some(p) => format!("{}/{} ({p:.1}%)", self.passed, self.scored),
            None => "-".to_owned(),
        }
    }

    /// `passed/scored` for a matrix cell, or `-` with nothing scored.
    pub fn short(&self) -> String {
        if self.scored == 0 {
            "-".to_owned()
        } else {
            format!("{}/{}", self.passed, self.scored)
        }
    }

    pub fn percent(&self) -> Option<f64> {
        (self.scored > 0).then(|| 100.0 * f64::from(self.passed) / f64::from(self.scored))
    }
}

/// Tallies by tier.
pub type ByTier = BTreeMap<Tier, Tally>;

/// The scores of one implementation.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scores {
    pub implementation: String,
    pub total: ByTier,
    /// By profile id.
    pub profiles: BTreeMap<String, ByTier>,
    /// By `profile/area`.
    pub areas: BTreeMap<String, ByTier>,
    /// By feature tag and tier, required and optional cases only (the feature matrix).
    pub features: BTreeMap<String, ByTier>,
    pub verdicts: BTreeMap<Verdict, u32>,
    /// Ids of cases that failed without being listed as known failures.
    pub failed: Vec<String>,
    /// Ids of listed cases that passed: their known-failure entries must go.
    pub unexpected_passes: Vec<String>,
    pub harness_errors: Vec<String>,
}

impl Scores {
    pub fn of<'a>(
        implementation: &str,
        results: impl IntoIterator<Item = &'a CaseResult>,
    ) -> Scores {
        let mut s = Scores {
            implementation: implementation.to_owned(),
            ..Scores::default()
        };
        for r in results {
            // The result counted in its tier of the table `key` names in `by`.
            let add = |by: &mut BTreeMap<String, ByTier>, key: String| {
                by.entry(key)
                    .or_default()
                    .entry(r.tier)
                    .or_default()
                    .add(r.status);
            };
            s.total.entry(r.tier).or_default().add(r.status);
            add(&mut s.profiles, r.profile.clone());
            add(&mut s.areas, format!("{}/{}", r.profile, r.area));
            if r.tier != Tier::Informative {
                for f in &r.features {
                    add(&mut s.features, f.clone());
                }
            }
            *s.verdicts.entry(r.verdict).or_default() += 1;
            match r.verdict {
                Verdict::Failed => s.failed.push(r.case.clone()),
                Verdict::UnexpectedPass => s.unexpected_passes.push(r.case.clone()),
                Verdict::HarnessError => s.harness_errors.push(r.case.clone()),
                _ => {}
            }
        }
        s
    }

    /// The tally of a tier (empty when no case has it).
    pub fn tier(&self, tier: Tier) -> Tally {
        self.total.get(&tier).cloned().unwrap_or_default()
    }
}

/// The scores of every implementation of a run, in handshake order.
pub fn scores(run: &Run) -> Vec<Scores> {
    run.implementations
        .iter()
        .map(|i| Scores::of(&i.name, run.of(&i.name)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::CaseEntry;
    use crate::check::CheckResult;

    /// A case result of one `load` check, in the area its id names (`khr/<area>/1`).
    pub(crate) fn result(
        imp: &str,
        id: &str,
        tier: Tier,
        status: Status,
        known: bool,
    ) -> CaseResult {
        let entry = CaseEntry {
            id: id.into(),
            file: format!("{id}.gltf"),
            profile: Some("khr-2024-draft".into()),
            area: id.split('/').nth(1).unwrap_or("x").into(),
            features: vec!["shape.box".into()],
            tier,
            valid: true,
            expected_codes: Vec::new(),
            seed: None,
            sha256: String::new(),
        };
        CaseResult::new(
            imp,
            &entry,
            vec![CheckResult::new("load", status, "")],
            known.then(|| "why".to_owned()),
            1,
        )
    }

    #[test]
    fn denominators_exclude_what_was_not_scored() {
        let results = [
            result("a", "khr/joint/1", Tier::Required, Status::Pass, false),
            result(
                "a",
                "khr/joint/2",
                Tier::Required,
                Status::QualityWarning,
                false,
            ),
            result("a", "khr/joint/3", Tier::Required, Status::Fail, true),
            result(
                "a",
                "khr/joint/4",
                Tier::Required,
                Status::NotSupported,
                false,
            ),
            result("a", "khr/shape/5", Tier::Required, Status::Crash, false),
            result(
                "a",
                "khr/shape/6",
                Tier::Optional,
                Status::HarnessError,
                false,
            ),
            result("a", "khr/shape/7", Tier::Informative, Status::Pass, true),
        ];
        let s = Scores::of("a", &results);
        let req = s.tier(Tier::Required);
        // 2 passes (PASS, QUALITY_WARNING) over 4 scored (+ FAIL, CRASH); NOT_SUPPORTED out.
        assert_eq!((req.passed, req.scored, req.cases), (2, 4, 5));
        assert_eq!(req.display(), "2/4 (50.0%)");
        assert_eq!(req.short(), "2/4");
        assert_eq!(s.tier(Tier::Optional).short(), "-");
        assert_eq!(s.tier(Tier::Optional).scored, 0);
        assert_eq!(s.tier(Tier::Optional).display(), "-");
        assert_eq!(s.areas["khr-2024-draft/joint"][&Tier::Required].scored, 3);
        assert_eq!(s.failed, vec!["khr/shape/5"]);
        assert_eq!(s.unexpected_passes, vec!["khr/shape/7"]);
        assert_eq!(s.harness_errors, vec!["khr/shape/6"]);
        // Informative cases are not in the feature matrix; required and optional apart.
        assert_eq!(s.features["shape.box"][&Tier::Required].cases, 5);
        assert_eq!(s.features["shape.box"][&Tier::Optional].cases, 1);
        assert!(!s.features["shape.box"].contains_key(&Tier::Informative));
    }
}
