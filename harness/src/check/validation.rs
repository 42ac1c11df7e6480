//! Validation: a valid case loads; an invalid case is rejected, with the expected error codes
//! when the implementation speaks the catalogue.
//!
//! Decision (documented in the README): rejecting invalid files is scored only for
//! implementations that declare the `validation` check family (the reference does). Engines
//! that do not validate never receive invalid cases (they are `SKIP`, outside every
//! denominator), but every implementation must load every valid case it supports.

use crate::case::LoadedCase;
use crate::check::CheckResult;
use crate::implementation::LoadOutcome;

/// The check name of a valid case's load.
pub const LOAD: &str = "load";
/// The check name of an invalid case's rejection.
pub const REJECT: &str = "validation.reject";

/// A valid case must load.
pub fn valid(outcome: &LoadOutcome) -> CheckResult {
    match outcome {
        LoadOutcome::Loaded { .. } => CheckResult::exact(LOAD, true, ""),
        LoadOutcome::Rejected { reason, codes } => CheckResult::exact(
            LOAD,
            false,
            format!("a valid file was rejected: {reason} {codes:?}"),
        ),
    }
}

/// An invalid case must be rejected; when the implementation names codes, every expected
/// error code must be among them (it may name more: one defect can break several rules).
pub fn invalid(case: &LoadedCase, outcome: &LoadOutcome) -> CheckResult {
    let expected = case.error_codes();
    match outcome {
        LoadOutcome::Loaded { .. } => CheckResult::exact(
            REJECT,
            false,
            format!("an invalid file was loaded; expected rejection with {expected:?}"),
        ),
        LoadOutcome::Rejected { codes, .. } if codes.is_empty() => {
            CheckResult::exact(REJECT, true, "")
        }
        LoadOutcome::Rejected { codes, reason } => {
            let missing: Vec<&str> = expected
                .iter()
                .copied()
                .filter(|e| !codes.iter().any(|c| c == e))
                .collect();
            CheckResult::exact(
                REJECT,
                missing.is_empty(),
                format!("rejected with {codes:?} ({reason}); expected codes missing: {missing:?}"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::case::{CaseEntry, Tier};
    use crate::status::Status;

    fn invalid_case() -> LoadedCase {
        let entry = CaseEntry {
            id: "khr/gen/invalid/00003".into(),
            file: "khr/gen/invalid/00003.gltf".into(),
            profile: Some("khr-2024-draft".into()),
            area: "invalid".into(),
            features: vec![],
            tier: Tier::Required,
            valid: false,
            expected_codes: Vec::new(),
            seed: None,
            sha256: String::new(),
        };
        LoadedCase::from_json(
            Path::new("/c"),
            &entry,
            r#"{"issues": [{"code": "NODE_CYCLE", "pointer": "/nodes/0", "severity": "error"},
                           {"code": "UNUSED", "pointer": "/x", "severity": "warning"}]}"#,
        )
        .expect("reads")
    }

    fn rejected(codes: &[&str]) -> LoadOutcome {
        LoadOutcome::Rejected {
            reason: "bad".into(),
            codes: codes.iter().map(|c| (*c).to_owned()).collect(),
        }
    }

    #[test]
    fn valid_cases_must_load() {
        assert_eq!(
            valid(&LoadOutcome::Loaded { notes: vec![] }).status,
            Status::Pass
        );
        assert_eq!(valid(&rejected(&[])).status, Status::Fail);
    }

    #[test]
    fn invalid_cases_must_be_rejected_with_the_expected_codes_when_codes_are_given() {
        let case = invalid_case();
        assert_eq!(
            invalid(&case, &LoadOutcome::Loaded { notes: vec![] }).status,
            Status::Fail
        );
        assert_eq!(invalid(&case, &rejected(&[])).status, Status::Pass);
        assert_eq!(
            invalid(&case, &rejected(&["NODE_CYCLE"])).status,
            Status::Pass
        );
        assert_eq!(
            invalid(&case, &rejected(&["EXT_TYPE", "NODE_CYCLE"])).status,
            Status::Pass
        );
        let wrong = invalid(&case, &rejected(&["EXT_TYPE"]));
        assert_eq!(wrong.status, Status::Fail);
        assert!(wrong.message.contains("NODE_CYCLE"), "{}", wrong.message);
        // A warning code is not required.
        assert!(!wrong.message.contains("UNUSED"));
    }
}
