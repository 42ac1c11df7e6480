//! `physics-cts generate` end to end: files, manifests, determinism, profile filter, exit codes.

use std::path::Path;
use std::process::Command;

fn generate(out: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_physics-cts"))
        .args([
            "generate",
            "--seed",
            "3",
            "--count",
            "12",
            "--no-handwritten",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .expect("the binary runs")
}

fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("folder") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("below").display().to_string();
                out.push((rel, std::fs::read(&p).expect("file")));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn writes_cases_and_manifests_deterministically() {
    let a = tempfile::tempdir().expect("temp");
    let b = tempfile::tempdir().expect("temp");
    let out = generate(a.path(), &[]);
    // Exit 0; 1 only when the reference disagrees with a case (reported on stderr).
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{out:?}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("wrote 12 cases"),
        "{out:?}"
    );
    generate(b.path(), &[]);
    let (ta, tb) = (tree(a.path()), tree(b.path()));
    assert_eq!(ta, tb, "same seed, different bytes");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(a.path().join("manifest.json")).expect("manifest"))
            .expect("json");
    assert_eq!(manifest["seed"], 3);
    assert_eq!(manifest["cases"].as_array().map(Vec::len), Some(12));
    let csv = std::fs::read_to_string(a.path().join("manifest.csv")).expect("csv");
    assert!(
        csv.starts_with("id,profile,area,features,tier,valid,expected_codes,seed,sha256\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 13);
    for case in manifest["cases"].as_array().expect("cases") {
        let file = a.path().join(case["file"].as_str().expect("file"));
        assert!(file.exists(), "{}", file.display());
        let stem = file.file_stem().and_then(|s| s.to_str()).expect("stem");
        assert!(file.with_file_name(format!("{stem}.expect.json")).exists());
    }
}

#[test]
fn profile_filter_and_usage_errors() {
    let d = tempfile::tempdir().expect("temp");
    generate(d.path(), &["--profile", "vrmc-constraints-draft"]);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.path().join("manifest.json")).expect("manifest"))
            .expect("json");
    let cases = manifest["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 12);
    assert!(
        cases
            .iter()
            .all(|c| c["profile"] == "vrmc-constraints-draft" || c["profile"] == ""),
        "{cases:?}"
    );
    let bad = generate(d.path(), &["--profile", "khr"]);
    assert_eq!(bad.status.code(), Some(2), "{bad:?}");
}

/// A non-empty folder is refused (a stale case would sit beside the new manifest); `--force`
/// replaces its contents but keeps `known-failures/` and `README.md` (written by hand).
#[test]
fn a_non_empty_folder_needs_force() {
    let d = tempfile::tempdir().expect("temp");
    let stale = d.path().join("khr/gen/body/stale.gltf");
    std::fs::create_dir_all(stale.parent().expect("parent")).expect("mkdir");
    std::fs::write(&stale, "{}").expect("stale case");
    let known = d.path().join("known-failures/rapier.toml");
    std::fs::create_dir_all(known.parent().expect("parent")).expect("mkdir");
    std::fs::write(&known, "# kept\n").expect("known failures");
    let readme = d.path().join("README.md");
    std::fs::write(&readme, "# by hand\n").expect("README");

    let refused = generate(d.path(), &[]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("not empty") && err.contains("--force"),
        "{err}"
    );
    assert!(!d.path().join("manifest.json").exists(), "nothing written");

    let forced = generate(d.path(), &["--force"]);
    assert!(matches!(forced.status.code(), Some(0 | 1)), "{forced:?}");
    assert!(!stale.exists(), "the stale case is gone");
    assert_eq!(std::fs::read_to_string(&known).expect("kept"), "# kept\n");
    assert_eq!(
        std::fs::read_to_string(&readme).expect("kept"),
        "# by hand\n"
    );
    assert!(d.path().join("manifest.json").exists());

    // A folder holding only known-failures/ is a corpus to be: no --force needed.
    let e = tempfile::tempdir().expect("temp");
    std::fs::create_dir_all(e.path().join("known-failures")).expect("mkdir");
    let ok = generate(e.path(), &[]);
    assert!(matches!(ok.status.code(), Some(0 | 1)), "{ok:?}");
}
