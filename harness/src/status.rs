//! Result statuses (what each means: `reports/README.md`, "Statuses"), their severity order,
//! and which of them count against an implementation.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The outcome of one check or one case for one implementation.
///
/// Declared from the best to the worst outcome for the implementation, so `max` over a case's
/// checks is the case's status. `HARNESS_ERROR` sorts after the implementation's own failures:
/// a suite bug hides every other verdict of the case, and is never counted against it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Status {
    Pass,
    /// Within the allowed tolerance, outside the recommended one.
    QualityWarning,
    /// Not reached (an earlier failure of the case, or a run stopped early).
    Notrun,
    /// Deliberately not run, with a reason (e.g. the check family is not taken part in).
    Skip,
    /// The case needs a feature the implementation does not declare.
    NotSupported,
    Fail,
    /// The implementation reported its own error.
    Error,
    Timeout,
    /// The implementation panicked or its process died.
    Crash,
    /// A protocol violation or a suite bug: never counted against the implementation.
    HarnessError,
}

impl Status {
    pub const ALL: [Status; 10] = [
        Status::Pass,
        Status::QualityWarning,
        Status::Notrun,
        Status::Skip,
        Status::NotSupported,
        Status::Fail,
        Status::Error,
        Status::Timeout,
        Status::Crash,
        Status::HarnessError,
    ];

    /// The stable spelling used in every report.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::QualityWarning => "QUALITY_WARNING",
            Status::Notrun => "NOTRUN",
            Status::Skip => "SKIP",
            Status::NotSupported => "NOT_SUPPORTED",
            Status::Fail => "FAIL",
            Status::Error => "ERROR",
            Status::Timeout => "TIMEOUT",
            Status::Crash => "CRASH",
            Status::HarnessError => "HARNESS_ERROR",
        }
    }

    /// Parse the stable spelling.
    pub fn parse(s: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// The implementation met the check (a quality warning is still a pass).
    pub fn is_pass(self) -> bool {
        matches!(self, Status::Pass | Status::QualityWarning)
    }

    /// The implementation is to blame: a failure, its own error, a crash or a timeout.
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Status::Fail | Status::Error | Status::Timeout | Status::Crash
        )
    }

    /// Whether the status enters a score's denominator: passes and failures do; a feature the
    /// implementation does not declare, a skip, a case not run and a harness error do not.
    pub fn is_scored(self) -> bool {
        self.is_pass() || self.is_failure()
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelling_round_trips_through_serde_and_parse() {
        for s in Status::ALL {
            let json = serde_json::to_string(&s).expect("serialises");
            assert_eq!(json, format!("\"{}\"", s.as_str()));
            assert_eq!(serde_json::from_str::<Status>(&json).expect("parses"), s);
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
        assert_eq!(Status::parse("pass"), None);
    }

    #[test]
    fn worst_of_a_case_is_the_max() {
        let checks = [
            Status::Pass,
            Status::QualityWarning,
            Status::Fail,
            Status::Skip,
        ];
        assert_eq!(checks.into_iter().max(), Some(Status::Fail));
        assert!(Status::Crash > Status::Fail);
        assert!(Status::HarnessError > Status::Crash);
        assert!(Status::QualityWarning > Status::Pass);
    }

    #[test]
    fn classes_partition_the_statuses() {
        for s in Status::ALL {
            let classes = [s.is_pass(), s.is_failure(), !s.is_scored()];
            assert_eq!(classes.iter().filter(|c| **c).count(), 1, "{s}");
        }
        assert!(!Status::HarnessError.is_scored());
        assert!(!Status::NotSupported.is_scored());
    }
}
