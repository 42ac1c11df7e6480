//! Data-driven validation tests: every `NAME.gltf` / `NAME.glb` under `tests/validation/`
//! has a sibling `NAME.expect.json`:
//!
//! ```json
//! {"profile": "khr-2024-draft", "issues": [{"code": "KHR_LIMIT_AXES_BOTH", "pointer": "/extensions/..."}]}
//! ```
//!
//! The file's issues, as a multiset of (code, pointer) over every severity, must equal the
//! listed ones exactly (`profile` may be `null`; `forced` optionally forces a profile;
//! `same_under` lists profiles that, forced, must read the file with exactly the same issues:
//! a document nothing dates is read as the newest revision, and reads alike under the one
//! before [D-KHR-REVISION]). A second test fails if any catalogue code is asserted by no file.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use reference::issue::Code;
use reference::profile::Profile;
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    profile: Option<String>,
    #[serde(default)]
    forced: Option<String>,
    #[serde(default)]
    same_under: Vec<String>,
    issues: Vec<Expected>,
}

impl Expect {
    /// Whether the file is asserted under `profile`: read as it, or forced with the same issues.
    fn asserts_under(&self, profile: Profile) -> bool {
        self.profile.as_deref() == Some(profile.id())
            || self.same_under.iter().any(|p| p == profile.id())
    }
}

#[derive(Deserialize, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
#[serde(deny_unknown_fields)]
struct Expected {
    code: String,
    pointer: String,
}

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validation");
    common::files::files_under(&root, &["gltf", "glb"])
}

fn expect_of(case: &Path) -> Expect {
    let stem = case
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("utf-8 name");
    let path = case.with_file_name(format!("{stem}.expect.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: missing expectation: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A reading's issues as (code, pointer), sorted.
fn sorted_issues(reading: &reference::Reading) -> Vec<Expected> {
    let mut v: Vec<Expected> = reading
        .issues
        .iter()
        .map(|i| Expected {
            code: i.code.id().to_owned(),
            pointer: i.pointer.clone(),
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_case_reports_exactly_its_expected_issues() {
    let cases = cases();
    assert!(!cases.is_empty(), "no validation cases found");
    let mut failures = Vec::new();
    for case in &cases {
        let expect = expect_of(case);
        let forced = expect
            .forced
            .as_deref()
            .map(|p| p.parse::<Profile>().expect("forced profile id"));
        let reading = reference::read_path(case, forced).expect("readable");
        let actual = sorted_issues(&reading);
        let mut wanted = expect.issues.clone();
        wanted.sort();
        let profile = reading.profile.map(|p| p.id().to_owned());
        if actual != wanted || profile != expect.profile {
            failures.push(format!(
                "{}\n  profile: expected {:?}, got {:?}\n  expected: {:?}\n  actual:   {:?}\n  messages: {:?}",
                case.display(),
                expect.profile,
                profile,
                wanted,
                actual,
                reading.issues.iter().map(|i| &i.message).collect::<Vec<_>>()
            ));
        }
        for other in &expect.same_under {
            let p = other.parse::<Profile>().expect("same_under profile id");
            let issues = sorted_issues(&reference::read_path(case, Some(p)).expect("readable"));
            if issues != wanted {
                failures.push(format!(
                    "{} forced to {other}: expected {wanted:?}, got {issues:?}",
                    case.display()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_code_is_asserted_by_some_case() {
    let asserted: BTreeSet<String> = cases()
        .iter()
        .flat_map(|c| expect_of(c).issues.into_iter().map(|e| e.code))
        .collect();
    for id in &asserted {
        assert!(
            Code::from_id(id).is_some(),
            "unknown code {id} in an expectation"
        );
    }
    // FILE_TOO_LARGE needs a file over 512 MiB: `file_too_large_is_not_read` in
    // tests/robustness.rs asserts it on a sparse temporary file instead. DOCUMENT_TOO_LARGE
    // needs millions of values: `a_document_over_the_value_budget_is_not_parsed` there.
    let exempt = [Code::FileTooLarge.id(), Code::DocumentTooLarge.id()];
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.id())
        .filter(|id| !asserted.contains(*id) && !exempt.contains(id))
        .collect();
    assert!(
        missing.is_empty(),
        "codes asserted by no validation case: {missing:?}"
    );
}

/// Reading a document's tree in place (`read_tree`, what the corpus writer does) is reading its
/// file: the same issues with their messages, the same profile and the same scene, for every
/// case here that is JSON text (its buffers resolved against its folder, forced or not). This
/// checks the plumbing (a borrowed tree, the folder, the forced profile).
#[test]
fn reading_the_tree_is_reading_the_file() {
    let mut compared = 0;
    for case in cases() {
        let Ok(text) = std::fs::read(&case) else {
            continue;
        };
        let Ok(tree) = serde_json::from_slice::<serde_json::Value>(&text) else {
            continue;
        };
        let forced = expect_of(&case)
            .forced
            .as_deref()
            .map(|p| p.parse::<Profile>().expect("forced profile id"));
        let from_file = reference::read_path(&case, forced).expect("readable");
        let from_tree = reference::read_tree(&tree, case.parent(), forced);
        assert_eq!(from_tree.issues, from_file.issues, "{}", case.display());
        assert_eq!(from_tree.profile, from_file.profile, "{}", case.display());
        assert_eq!(from_tree.scene, from_file.scene, "{}", case.display());
        compared += 1;
    }
    assert!(compared >= 150, "{compared} documents compared");
}

/// Every code whose scope names `khr-2025` (`khr-2026`) is asserted, code and pointer, by a
/// case read under that revision (the files under `tests/validation/khr25/`, `.../khr26/`).
#[test]
fn every_current_khr_code_is_asserted_under_its_revision() {
    use reference::issue::Scope;
    for profile in [Profile::Khr2025, Profile::Khr2026] {
        let asserted: BTreeSet<String> = cases()
            .iter()
            .map(|c| expect_of(c))
            .filter(|e| e.asserts_under(profile))
            .flat_map(|e| e.issues.into_iter().map(|i| i.code))
            .collect();
        let missing: Vec<&str> = Code::ALL
            .iter()
            .filter(|c| matches!(c.scope(), Scope::Only(list) if list.contains(&profile)))
            .map(|c| c.id())
            .filter(|id| !asserted.contains(*id))
            .collect();
        assert!(
            missing.is_empty(),
            "{profile} codes asserted by no {profile} case: {missing:?}"
        );
    }
}
