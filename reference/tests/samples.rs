//! Every seed-era sample under `/work/shared/specs/samples/` reads with zero errors under the
//! profile detected from its extensions: the glTF_Physics samples as `khr-2024-draft`, the
//! omigroup samples as `omi-2023`. Skipped, with a message, where the samples are absent (a
//! user's clone does not have them).

mod common;

use std::path::Path;

use reference::profile::Profile;

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
    let Some(root) = common::files::shared_or_skip("specs/samples") else {
        return;
    };
    let files = common::files::files_under(&root, &["gltf"]);
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
        for error in common::files::errors(&reading) {
            failures.push(format!("{}: {error}", rel.display()));
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
