//! The results of a run, what every report is made of: per implementation and case, the
//! checks, the case status, and its verdict against the implementation's known failures.

use serde::{Deserialize, Serialize};

use crate::case::{CaseEntry, Tier};
use crate::check::CheckResult;
use crate::implementation::Capabilities;
use crate::status::Status;

/// What a case's status means once the known failures are taken into account.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Passed (or a quality warning), not listed as a known failure.
    Ok,
    /// Failed (FAIL, ERROR, CRASH, TIMEOUT) and not listed: a regression.
    Failed,
    /// Failed and listed as a known failure: reported, not failing (XFAIL).
    ExpectedFailure,
    /// Passed although listed: the known-failure file must lose the entry.
    UnexpectedPass,
    /// NOT_SUPPORTED, SKIP or NOTRUN: outside every denominator.
    NotScored,
    /// A suite bug: never counted against the implementation.
    HarnessError,
}

impl Verdict {
    pub fn of(status: Status, known_failure: bool) -> Verdict {
        match (status, known_failure) {
            (Status::HarnessError, _) => Verdict::HarnessError,
            (s, true) if s.is_failure() => Verdict::ExpectedFailure,
            (s, false) if s.is_failure() => Verdict::Failed,
            (s, true) if s.is_pass() => Verdict::UnexpectedPass,
            (s, false) if s.is_pass() => Verdict::Ok,
            _ => Verdict::NotScored,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Failed => "failed",
            Verdict::ExpectedFailure => "expected_failure",
            Verdict::UnexpectedPass => "unexpected_pass",
            Verdict::NotScored => "not_scored",
            Verdict::HarnessError => "harness_error",
        }
    }
}

/// One case run by one implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    pub implementation: String,
    pub case: String,
    pub profile: String,
    pub area: String,
    pub tier: Tier,
    #[serde(default)]
    pub features: Vec<String>,
    pub status: Status,
    pub verdict: Verdict,
    /// The reason from the known-failure file, when the case is listed.
    #[serde(default)]
    pub known_failure: Option<String>,
    pub checks: Vec<CheckResult>,
    /// Wall time of the case in milliseconds.
    #[serde(default)]
    pub duration_ms: u64,
}

impl CaseResult {
    /// A result from checks; the status and the verdict follow from them.
    pub fn new(
        implementation: &str,
        entry: &CaseEntry,
        checks: Vec<CheckResult>,
        known_failure: Option<String>,
        duration_ms: u64,
    ) -> CaseResult {
        let status = crate::check::case_status(&checks);
        CaseResult {
            implementation: implementation.to_owned(),
            case: entry.id.clone(),
            profile: entry.profile_label().to_owned(),
            area: entry.area.clone(),
            tier: entry.tier,
            features: entry.features.clone(),
            status,
            verdict: Verdict::of(status, known_failure.is_some()),
            known_failure,
            checks,
            duration_ms,
        }
    }

    /// The first check that set the case status, for one-line summaries.
    pub fn headline(&self) -> Option<&CheckResult> {
        self.checks.iter().find(|c| c.status == self.status)
    }
}

/// An implementation as its handshake described it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ImplInfo {
    pub name: String,
    pub version: String,
    pub engine: String,
    #[serde(default)]
    pub capabilities: Capabilities,
}

/// A whole run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// `physics-cts <version>`.
    pub suite: String,
    /// The corpus folder as given.
    pub corpus: String,
    pub implementations: Vec<ImplInfo>,
    pub results: Vec<CaseResult>,
    /// Wall time of the run in milliseconds.
    #[serde(default)]
    pub duration_ms: u64,
}

impl Run {
    /// The results of one implementation, in run order.
    pub fn of<'a>(&'a self, implementation: &'a str) -> impl Iterator<Item = &'a CaseResult> + 'a {
        self.results
            .iter()
            .filter(move |r| r.implementation == implementation)
    }

    /// Whether every required case passed or is a known failure, for every implementation.
    pub fn required_ok(&self) -> bool {
        !self.results.iter().any(|r| {
            r.tier == Tier::Required && matches!(r.verdict, Verdict::Failed | Verdict::HarnessError)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_table() {
        use Status::*;
        assert_eq!(Verdict::of(Pass, false), Verdict::Ok);
        assert_eq!(Verdict::of(QualityWarning, false), Verdict::Ok);
        assert_eq!(Verdict::of(Pass, true), Verdict::UnexpectedPass);
        assert_eq!(Verdict::of(Fail, false), Verdict::Failed);
        assert_eq!(Verdict::of(Crash, true), Verdict::ExpectedFailure);
        assert_eq!(Verdict::of(Timeout, false), Verdict::Failed);
        assert_eq!(Verdict::of(NotSupported, true), Verdict::NotScored);
        assert_eq!(Verdict::of(Skip, false), Verdict::NotScored);
        assert_eq!(Verdict::of(HarnessError, true), Verdict::HarnessError);
    }
}
