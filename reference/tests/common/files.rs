//! Sample files: finding the shared folder (absent from a user's clone, so its tests skip and
//! say so), listing the files in a folder, and a reading's errors.

use std::path::{Path, PathBuf};

use reference::Reading;
use reference::issue::Severity;

/// `shared/SUBDIR` beside the clone (`CARGO_MANIFEST_DIR/../../shared`) or beside one of its
/// ancestors (a git worktree nested deeper than the clone); `None` after saying the test is
/// skipped where it is absent (the shared files are not part of the repository).
pub fn shared_or_skip(subdir: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(1)
        .map(|dir| dir.join("shared").join(subdir))
        .find(|dir| dir.is_dir());
    if root.is_none() {
        eprintln!(
            "skipped: no shared/{subdir} beside {} or its ancestors (the shared files are not \
             part of the repository)",
            env!("CARGO_MANIFEST_DIR")
        );
    }
    root
}

/// The files under `dir` (recursively, in name order) whose extension is one of `extensions`.
pub fn files_under(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    let mut out = Vec::new();
    for path in entries {
        if path.is_dir() {
            out.extend(files_under(&path, extensions));
        } else if path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| extensions.contains(&e))
        {
            out.push(path);
        }
    }
    out
}

/// A reading's error-severity issues, one `CODE at POINTER: MESSAGE` line each.
pub fn errors(reading: &Reading) -> Vec<String> {
    reading
        .issues
        .iter()
        .filter(|i| i.severity == Severity::Error)
        .map(|i| format!("{} at {}: {}", i.code, i.pointer, i.message))
        .collect()
}
