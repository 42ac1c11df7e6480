//! Helpers of the tests that run the misbehaving stdio fake (`tests/fakes/misbehave.py`, the
//! stem of a case's file picks its behaviour) and compare the reports of its runs.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

/// `python3` when it runs here (the fake needs it); says so when it does not.
pub fn python() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("python3 is not available: skipping");
    }
    ok.then_some("python3")
}

/// The fake's script.
pub fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fakes/misbehave.py")
}

/// A scenario the fake passes when it behaves: 3 steps, no contact of (0, 1).
pub fn apart_expect() -> Value {
    json!({"interpretation": null, "tolerances": null, "scenario": {
        "config": {"gravity": [0, -10, 0], "dt": 0.01, "substeps": 1},
        "steps": 3, "observe_every": 1,
        "checks": [{"name": "apart", "kind": "no_contact", "pairs": [[0, 1]]}]}})
}

/// A corpus of one case per stem (`k/cNN/<stem>`, of tier `tier(NN)`), with a manifest
/// carrying each document's sha256 like a generated one.
pub fn write_corpus(dir: &Path, stems: &[&str], tier: impl Fn(usize) -> &'static str) {
    let mut rows = Vec::new();
    for (i, stem) in stems.iter().enumerate() {
        let id = format!("k/c{i:02}/{stem}");
        let file = format!("{id}.gltf");
        let path = dir.join(&file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        // Each document differs, so two corpora of other stems have other hashes.
        let doc = format!("{{\"asset\":{{\"version\":\"2.0\"}},\"extras\":\"{id}\"}}");
        std::fs::write(&path, &doc).expect("write");
        let expect = apart_expect().to_string();
        std::fs::write(dir.join(format!("{id}.expect.json")), expect).expect("write");
        rows.push(
            json!({"id": id, "file": file, "profile": "khr-2024-draft", "area": "body",
            "features": [], "tier": tier(i), "valid": true,
            "sha256": physics_cts::text::sha256_hex(doc.as_bytes())}),
        );
    }
    let manifest = json!({"cases": rows}).to_string();
    std::fs::write(dir.join("manifest.json"), manifest).expect("write");
}

/// The number after each `marker`, replaced by `#`.
fn blank_after(text: &str, marker: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(marker) {
        let (head, tail) = rest.split_at(i + marker.len());
        out.push_str(head);
        out.push('#');
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    }
    out.push_str(rest);
    out
}

/// A report without its timings.
pub fn report(dir: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(dir.join(name)).expect("report written");
    [
        "\"duration_ms\": ",
        "\"duration_ms\":",
        "time=\"",
        "implementation(s), ",
        "</code>, ",
    ]
    .iter()
    .fold(text, |t, m| blank_after(&t, m))
}
