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
use crate::status::Status;

/// The check name of a valid case's load.
pub const LOAD: &str = "load";
/// The check name of an invalid case's rejection.
pub const REJECT: &str = "validation.reject";

/// A valid case must load; but where the texts leave open whether a file with one of its
/// issues is accepted with a warning or refused (a value outside a schema's enum), refusing it
/// conforms too.
pub fn valid(case: &LoadedCase, outcome: &LoadOutcome) -> CheckResult {
    match (outcome, case.open_outcome()) {
        (LoadOutcome::Loaded { .. }, _) => CheckResult::exact(LOAD, true, ""),
        (LoadOutcome::Rejected { reason, codes }, Some(open)) => CheckResult::new(
            LOAD,
            Status::Pass,
            format!(
                "refused ({reason} {codes:?}); the texts leave open whether a file with {open} is accepted with a warning or refused: either conforms"
            ),
        ),
        (LoadOutcome::Rejected { reason, codes }, None) => CheckResult::exact(
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

    fn loaded(valid: bool, expect: &str) -> LoadedCase {
        let entry = CaseEntry {
            id: "khr/gen/invalid/00003".into(),
            file: "khr/gen/invalid/00003.gltf".into(),
            profile: Some("khr-2024-draft".into()),
            area: "invalid".into(),
            features: vec![],
            tier: Tier::Required,
            valid,
            expected_codes: Vec::new(),
            seed: None,
            sha256: String::new(),
        };
        LoadedCase::from_json(Path::new("/c"), &entry, expect).expect("reads")
    }

    fn invalid_case() -> LoadedCase {
        loaded(
            false,
            r#"{"issues": [{"code": "NODE_CYCLE", "pointer": "/nodes/0", "severity": "error"},
                           {"code": "UNUSED", "pointer": "/x", "severity": "warning"}]}"#,
        )
    }

    fn rejected(codes: &[&str]) -> LoadOutcome {
        LoadOutcome::Rejected {
            reason: "bad".into(),
            codes: codes.iter().map(|c| (*c).to_owned()).collect(),
        }
    }

    #[test]
    fn valid_cases_must_load() {
        let case = loaded(
            true,
            r#"{"issues": [{"code": "UNUSED", "pointer": "/x", "severity": "warning"}]}"#,
        );
        let loads = LoadOutcome::Loaded { notes: vec![] };
        assert_eq!(valid(&case, &loads).status, Status::Pass);
        assert_eq!(valid(&case, &rejected(&[])).status, Status::Fail);
    }

    #[test]
    fn a_value_outside_a_schema_enum_may_be_accepted_or_refused() {
        // `median` is outside the closed enum of the seed schema: a strict reader refuses the
        // file, an open one accepts it with ENUM_UNKNOWN; both conform.
        let case = loaded(
            true,
            r#"{"issues": [{"code": "UNUSED", "pointer": "/x", "severity": "warning"},
                           {"code": "ENUM_UNKNOWN", "pointer": "/materials/0/frictionCombine",
                            "severity": "warning"}]}"#,
        );
        let loads = LoadOutcome::Loaded { notes: vec![] };
        assert_eq!(valid(&case, &loads).status, Status::Pass);
        let refused = valid(&case, &rejected(&["ENUM_UNKNOWN"]));
        assert_eq!(refused.status, Status::Pass);
        assert!(
            refused.message.contains("ENUM_UNKNOWN"),
            "{}",
            refused.message
        );
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
