//! `junit.xml` for CI systems: one test suite per implementation, one test case per corpus
//! case (`classname` = `impl.profile.area`). Failures are `failure` (an `error` for CRASH and
//! TIMEOUT), harness errors are `error`s named as such, and expected failures, unsupported
//! and skipped cases are `skipped` with their reason.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use crate::results::{Run, Verdict};
use crate::status::Status;

fn headline(r: &crate::results::CaseResult) -> String {
    r.headline()
        .map(|c| format!("{} {}: {}", c.status, c.check, c.message))
        .unwrap_or_else(|| r.status.to_string())
}

pub fn render(run: &Run) -> std::io::Result<String> {
    let mut report = Report::new("physics-cts");
    for info in &run.implementations {
        let mut suite = TestSuite::new(info.name.as_str());
        for r in run.of(&info.name) {
            let status = match r.verdict {
                Verdict::Ok | Verdict::UnexpectedPass => TestCaseStatus::success(),
                Verdict::Failed => {
                    let kind = if matches!(r.status, Status::Crash | Status::Timeout) {
                        NonSuccessKind::Error
                    } else {
                        NonSuccessKind::Failure
                    };
                    let mut s = TestCaseStatus::non_success(kind);
                    s.set_message(headline(r)).set_type(r.status.as_str());
                    s
                }
                Verdict::HarnessError => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Error);
                    s.set_message(headline(r)).set_type("HARNESS_ERROR");
                    s
                }
                Verdict::ExpectedFailure => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(format!(
                        "expected failure ({}): {}",
                        r.known_failure.as_deref().unwrap_or(""),
                        headline(r)
                    ))
                    .set_type(r.status.as_str());
                    s
                }
                Verdict::NotScored => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(headline(r)).set_type(r.status.as_str());
                    s
                }
            };
            let mut case = TestCase::new(r.case.as_str(), status);
            case.set_classname(format!("{}.{}.{}", r.implementation, r.profile, r.area))
                .set_time(Duration::from_millis(r.duration_ms));
            if r.verdict == Verdict::UnexpectedPass {
                case.set_system_out(format!(
                    "unexpected pass: remove the known-failure entry ({})",
                    r.known_failure.as_deref().unwrap_or("")
                ));
            }
            suite.add_test_case(case);
        }
        report.add_test_suite(suite);
    }
    report.to_string().map_err(std::io::Error::other)
}
