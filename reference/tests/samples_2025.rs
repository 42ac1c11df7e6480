//! Every public sample of the current glTF_Physics revision
//! (`shared/specs/current-samples/glTF_Physics_2025-10/`, `.gltf` and `.glb`) is detected as
//! `khr-2025` and reads with zero errors. Skipped, with a message, where the samples are absent
//! (a user's clone does not have them).

use std::path::{Path, PathBuf};

use reference::issue::Severity;
use reference::profile::Profile;

/// The samples folder beside the clone (`CARGO_MANIFEST_DIR/../../shared`), or beside one of
/// its ancestors (a git worktree nested deeper than the clone).
fn samples_root() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared/specs/current-samples/glTF_Physics_2025-10"))
        .find(|dir| dir.is_dir())
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("samples folder is readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "gltf" || e == "glb") {
            out.push(path);
        }
    }
}

#[test]
fn every_current_sample_reads_without_errors_as_khr_2025() {
    let Some(root) = samples_root() else {
        eprintln!(
            "skipped: no shared/specs/current-samples/glTF_Physics_2025-10 beside {} or its \
             ancestors (the shared samples are not part of the repository)",
            env!("CARGO_MANIFEST_DIR")
        );
        return;
    };
    let mut found = Vec::new();
    files(&root, &mut found);
    assert!(found.len() >= 16, "{} sample files", found.len());
    let mut failures = Vec::new();
    for file in &found {
        let reading = reference::read_path(file, None).expect("readable");
        let errors: Vec<String> = reading
            .issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .map(|i| format!("{} at {}: {}", i.code, i.pointer, i.message))
            .collect();
        if reading.profile != Some(Profile::Khr2025) || !errors.is_empty() {
            failures.push(format!(
                "{}: profile {:?}, errors {errors:?}",
                file.display(),
                reading.profile.map(Profile::id)
            ));
        }
        // Every sample has colliders, and the reader keeps them.
        let scene = reading.scene.as_ref().expect("a scene");
        if scene.colliders.is_empty() {
            failures.push(format!("{}: no collider read", file.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
