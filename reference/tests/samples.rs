//! Every seed-era sample under `/work/shared/specs/samples/` reads with zero errors under the
//! profile detected from its extensions: the glTF_Physics samples as `khr-2024-draft`, the
//! omigroup samples as `omi-2023`. Skipped, with a message, where the samples are absent (a
//! user's clone does not have them).

use std::path::{Path, PathBuf};

use reference::issue::Severity;
use reference::profile::Profile;

/// `shared/specs/samples` beside the clone (`CARGO_MANIFEST_DIR/../../shared`), or beside one
/// of its ancestors (a git worktree nested deeper than the clone).
fn samples_root() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/specs/samples"))
        .find(|dir| dir.is_dir())
}

fn gltf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("samples folder is readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            gltf_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "gltf") {
            out.push(path);
        }
    }
}

/// The profile a sample must be detected as, from the collection it belongs to.
fn expected_profile(rel: &Path) -> Profile {
    let collection = rel
        .components()
        .next()
        .and_then(|c| c.as_os_str().to_str())
        .unwrap_or("");
    if collection.starts_with("glTF_Physics") {
        Profile::Khr2024Draft
    } else if collection.starts_with("omigroup") {
        Profile::Omi2023
    } else {
        panic!(
            "{}: unknown sample collection {collection:?}",
            rel.display()
        )
    }
}

#[test]
fn every_sample_reads_without_errors_under_its_detected_profile() {
    let Some(root) = samples_root() else {
        eprintln!(
            "skipped: no shared/specs/samples beside {} or its ancestors (the shared samples \
             are not part of the repository)",
            env!("CARGO_MANIFEST_DIR")
        );
        return;
    };
    let mut files = Vec::new();
    gltf_files(&root, &mut files);
    assert!(
        files.len() >= 30,
        "expected the 32 seed-era samples, found {}",
        files.len()
    );

    let mut failures = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&root).expect("under root");
        let expected = expected_profile(rel);
        let reading =
            reference::read_path(path, None).unwrap_or_else(|e| panic!("{}: {e}", rel.display()));
        if reading.profile != Some(expected) {
            failures.push(format!(
                "{}: detected {:?}, expected {expected}",
                rel.display(),
                reading.profile.map(Profile::id)
            ));
        }
        for issue in reading
            .issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
        {
            failures.push(format!(
                "{}: error[{}] {}: {}",
                rel.display(),
                issue.code,
                issue.pointer,
                issue.message
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} samples fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
