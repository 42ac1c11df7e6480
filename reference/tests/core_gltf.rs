//! The hand-written core-glTF files of `tests/core-gltf/` (README there): every file under
//! `valid/` reads with no error, every file under `invalid/` with at least one, as the Khronos
//! glTF-Validator reads them (`corpus/check-gltf-validator.mjs --core`, run by `.ci/run`).

mod common;

use std::path::{Path, PathBuf};

/// The `.gltf` and `.glb` files of `tests/core-gltf/<kind>`, sorted.
fn files(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/core-gltf")
        .join(kind);
    common::files::files_under(&dir, &["gltf", "glb"])
}

/// `(file, its errors)` for each file of `kind`.
fn errors(kind: &str) -> Vec<(PathBuf, Vec<String>)> {
    files(kind)
        .into_iter()
        .map(|file| {
            let reading = reference::read_path(&file, None).expect("readable");
            (file, common::files::errors(&reading))
        })
        .collect()
}

#[test]
fn every_valid_file_has_no_error() {
    let read = errors("valid");
    assert!(read.len() >= 10, "{} valid files", read.len());
    let refused: Vec<_> = read.iter().filter(|(_, e)| !e.is_empty()).collect();
    assert!(refused.is_empty(), "valid files with errors: {refused:#?}");
}

#[test]
fn every_invalid_file_has_an_error() {
    let read = errors("invalid");
    assert!(read.len() >= 10, "{} invalid files", read.len());
    let accepted: Vec<_> = read.iter().filter(|(_, e)| e.is_empty()).collect();
    assert!(
        accepted.is_empty(),
        "invalid files without error: {accepted:#?}"
    );
}

/// Every file is listed in the README, and every file the README lists is there.
#[test]
fn the_readme_lists_every_file() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/core-gltf");
    let readme = std::fs::read_to_string(dir.join("README.md")).expect("README.md");
    let mut on_disk = Vec::new();
    for kind in ["valid", "invalid"] {
        for file in files(kind) {
            let name = file.file_name().and_then(|n| n.to_str()).expect("a name");
            on_disk.push(format!("{kind}/{name}"));
        }
    }
    for entry in &on_disk {
        assert!(
            readme.contains(&format!("`{entry}`")),
            "{entry} is not in the README"
        );
    }
    let listed = readme
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|s| s.starts_with("valid/") || s.starts_with("invalid/"))
        .filter(|s| s.ends_with(".gltf") || s.ends_with(".glb"))
        .filter(|s| !on_disk.iter().any(|d| d == s))
        .collect::<Vec<_>>();
    assert!(listed.is_empty(), "listed but missing: {listed:?}");
}
