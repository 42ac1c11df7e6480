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
