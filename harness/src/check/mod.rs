//! Checks: compare what an implementation reports with the reference's expectations in the
//! case data. One module per check family; none of them holds a tolerance or a spec rule: the
//! tolerances come from the case, the semantics from `reference`.

pub mod constraints;
pub mod dynamics;
pub mod geometry;
pub mod interpretation;
pub mod validation;

use serde::{Deserialize, Serialize};

use crate::status::Status;
use crate::tolerance::Tolerance;

/// The result of one check of one case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// `load`, `validation.reject`, `interpretation.bodies.mass`, `dynamics.<name>`, ...
    pub check: String,
    pub status: Status,
    /// The measured deviation (or quantity), next to its tolerances.
    #[serde(default)]
    pub measured: Option<f64>,
    #[serde(default)]
    pub recommended: Option<f64>,
    #[serde(default)]
    pub allowed: Option<f64>,
    /// Decision ids the expectation rests on.
    #[serde(default)]
    pub decisions: Vec<String>,
    #[serde(default)]
    pub message: String,
    /// The measured quantity over the check's window, `[time s, value]` per observation, kept
    /// for a dynamics check that did not pass (the report draws it against its band).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<[f64; 2]>,
}

impl CheckResult {
    /// A check with a status and a message, nothing measured.
    pub fn new(check: impl Into<String>, status: Status, message: impl Into<String>) -> Self {
        CheckResult {
            check: check.into(),
            status,
            measured: None,
            recommended: None,
            allowed: None,
            decisions: Vec::new(),
            message: message.into(),
            series: Vec::new(),
        }
    }

    /// A yes/no check: `PASS` when `ok`, else `FAIL` with the message.
    pub fn exact(check: impl Into<String>, ok: bool, message: impl Into<String>) -> Self {
        let status = if ok { Status::Pass } else { Status::Fail };
        CheckResult::new(
            check,
            status,
            if ok { String::new() } else { message.into() },
        )
    }

    /// A measured deviation graded against a tolerance class.
    pub fn graded(
        check: impl Into<String>,
        measured: f64,
        tolerance: Tolerance,
        message: impl Into<String>,
    ) -> Self {
        CheckResult {
            check: check.into(),
            status: crate::tolerance::grade(&tolerance, measured),
            measured: Some(measured),
            recommended: Some(tolerance.recommended),
            allowed: Some(tolerance.allowed),
            decisions: Vec::new(),
            message: message.into(),
            series: Vec::new(),
        }
    }

    /// The measured quantity over time, kept only when the check did not pass (a passing
    /// run's results stay as small as they were), its finite points only (JSON has no NaN;
    /// the measured value already says when one was not finite).
    pub fn with_series(mut self, series: Vec<[f64; 2]>) -> Self {
        if !matches!(self.status, Status::Pass) {
            self.series = series
                .into_iter()
                .filter(|p| p[0].is_finite() && p[1].is_finite())
                .collect();
        }
        self
    }

    pub fn with_decisions<S: AsRef<str>>(mut self, decisions: &[S]) -> Self {
        let mut d: Vec<String> = self.decisions;
        d.extend(decisions.iter().map(|s| s.as_ref().to_owned()));
        d.sort();
        d.dedup();
        self.decisions = d;
        self
    }
}

/// The status of a case from its checks: a failure or harness error wins (the worst one);
/// else a case with a pass is a pass (the worst pass, so a quality warning shows); else the
/// worst of the rest (not supported, skip, not run). No check at all: `NOTRUN`.
pub fn case_status(checks: &[CheckResult]) -> Status {
    let worst = |f: fn(Status) -> bool| checks.iter().map(|c| c.status).filter(|s| f(*s)).max();
    worst(|s| s.is_failure() || s == Status::HarnessError)
        .or_else(|| worst(Status::is_pass))
        .or_else(|| worst(|_| true))
        .unwrap_or(Status::Notrun)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(status: Status) -> CheckResult {
        CheckResult::new("x", status, "")
    }

    #[test]
    fn case_status_rules() {
        assert_eq!(case_status(&[]), Status::Notrun);
        assert_eq!(
            case_status(&[c(Status::Pass), c(Status::Skip)]),
            Status::Pass
        );
        assert_eq!(
            case_status(&[
                c(Status::Pass),
                c(Status::QualityWarning),
                c(Status::NotSupported)
            ]),
            Status::QualityWarning
        );
        assert_eq!(
            case_status(&[c(Status::Pass), c(Status::Fail), c(Status::Crash)]),
            Status::Crash
        );
        assert_eq!(
            case_status(&[c(Status::Skip), c(Status::NotSupported)]),
            Status::NotSupported
        );
        assert_eq!(
            case_status(&[c(Status::Pass), c(Status::HarnessError)]),
            Status::HarnessError
        );
    }

    #[test]
    fn graded_records_the_measurement_and_both_bounds() {
        let t = Tolerance::new(0.1, 0.2).expect("valid");
        let r = CheckResult::graded("dynamics.limit", 0.15, t, "m")
            .with_decisions(&["D-B", "D-A", "D-B"]);
        assert_eq!(r.status, Status::QualityWarning);
        assert_eq!(
            (r.measured, r.recommended, r.allowed),
            (Some(0.15), Some(0.1), Some(0.2))
        );
        assert_eq!(r.decisions, vec!["D-A", "D-B"]);
        assert_eq!(CheckResult::exact("a", true, "why").message, "");
        // A series is kept only when the check did not pass, its finite points only.
        let series = vec![[0.0, 0.1], [0.5, f64::NAN], [1.0, 0.15]];
        assert_eq!(
            r.clone().with_series(series.clone()).series,
            vec![[0.0, 0.1], [1.0, 0.15]]
        );
        let passed = CheckResult::graded("dynamics.limit", 0.05, t, "m").with_series(series);
        assert!(passed.series.is_empty());
        assert_eq!(CheckResult::exact("a", false, "why").status, Status::Fail);
    }
}
