//! `physics-cts validate` run as a process: exit codes, both output formats, folder recursion,
//! `--profile`, and golden outputs of `tests/golden/validate/input/` (rewrite them with `BLESS=1`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use golden_file::assert_golden;
use scratch::scratch;
use serde_json::Value;

mod golden_file;
mod scratch;

const BIN: &str = env!("CARGO_BIN_EXE_physics-cts");

/// A document with no physics extension: one `PROFILE_NONE` info, no error.
const PLAIN: &str =
    r#"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"scene":0,"nodes":[{"name":"a"}]}"#;
/// Not JSON: one `JSON_SYNTAX` error.
const BROKEN: &str = r#"{"asset":{"version":"2.0"},"nodes":[{"#;

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("create parent");
    std::fs::write(&path, text).expect("write fixture");
    path
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .arg("validate")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run physics-cts")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("utf-8 stderr")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", stdout(out)))
}

fn paths_of(report: &Value) -> Vec<String> {
    report["files"]
        .as_array()
        .expect("files array")
        .iter()
        .map(|f| f["path"].as_str().expect("path string").to_owned())
        .collect()
}

#[test]
fn a_file_without_errors_exits_0_and_prints_its_infos() {
    let dir = scratch("ok");
    write(&dir, "plain.gltf", PLAIN);
    let out = run(&dir, &["plain.gltf"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "plain.gltf: info[PROFILE_NONE]: no physics or constraint extension found\n\
         1 file, 0 errors, 0 warnings, 1 info (0 files with errors)\n"
    );
}

#[test]
fn a_file_with_an_error_exits_1_with_a_compiler_style_line() {
    let dir = scratch("err");
    write(&dir, "plain.gltf", PLAIN);
    write(&dir, "broken.gltf", BROKEN);
    let out = run(&dir, &["plain.gltf", "broken.gltf"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert_eq!(
        lines[0],
        "plain.gltf: info[PROFILE_NONE]: no physics or constraint extension found"
    );
    assert!(
        lines[1].starts_with("broken.gltf: error[JSON_SYNTAX]: invalid JSON: "),
        "{text}"
    );
    assert_eq!(
        lines[2],
        "2 files, 1 error, 0 warnings, 1 info (1 file with errors)"
    );
}

#[test]
fn an_issue_with_a_pointer_prints_it_before_the_message() {
    // Node 0's mesh is a string, not an index: a core schema error at /nodes/0/mesh.
    let dir = scratch("pointer");
    write(
        &dir,
        "bad-index.gltf",
        r#"{"asset":{"version":"2.0"},"nodes":[{"mesh":"three"}]}"#,
    );
    let out = run(&dir, &["--format", "json", "bad-index.gltf"]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let issue = json(&out)["files"][0]["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .find(|i| i["severity"] == "error")
        .cloned()
        .expect("an error");
    let pointer = issue["pointer"].as_str().expect("pointer");
    assert_eq!(pointer, "/nodes/0/mesh");
    let text = stdout(&run(&dir, &["bad-index.gltf"]));
    let expected = format!(
        "bad-index.gltf: error[{}] {pointer}: {}",
        issue["code"].as_str().expect("code"),
        issue["message"].as_str().expect("message")
    );
    assert!(
        text.lines().any(|l| l == expected),
        "no line {expected:?} in\n{text}"
    );
}

#[test]
fn json_output_has_files_issues_and_summary() {
    let dir = scratch("json");
    write(&dir, "a/plain.gltf", PLAIN);
    write(&dir, "a/broken.gltf", BROKEN);
    let out = run(&dir, &["--format", "json", "a"]);
    assert_eq!(out.status.code(), Some(1));
    let report = json(&out);
    assert_eq!(paths_of(&report), ["a/broken.gltf", "a/plain.gltf"]);
    let broken = &report["files"][0];
    assert_eq!(broken["profile"], Value::Null);
    let issue = &broken["issues"][0];
    assert_eq!(issue["code"], "JSON_SYNTAX");
    assert_eq!(issue["severity"], "error");
    assert_eq!(issue["pointer"], "");
    assert!(
        issue["message"]
            .as_str()
            .expect("message")
            .starts_with("invalid JSON")
    );
    let keys: Vec<&String> = issue.as_object().expect("issue object").keys().collect();
    assert_eq!(keys, ["code", "message", "pointer", "severity"]);
    assert_eq!(
        report["summary"],
        serde_json::json!({"files": 2, "errors": 1, "warnings": 0, "infos": 1, "files_with_errors": 1})
    );
}

#[test]
fn folders_are_searched_recursively_in_sorted_order_for_gltf_and_glb_only() {
    let dir = scratch("recurse");
    write(&dir, "in/z.gltf", PLAIN);
    write(&dir, "in/b/deep/c/x.gltf", PLAIN);
    write(&dir, "in/b/a.GLTF", PLAIN);
    write(&dir, "in/a.gltf", PLAIN);
    write(&dir, "in/notes.txt", "not a model");
    write(&dir, "in/data.bin", "\0\0\0\0");
    // A GLB holding PLAIN: 12-byte header, 8-byte chunk header, JSON padded with spaces to 4.
    let mut chunk = PLAIN.as_bytes().to_vec();
    while !chunk.len().is_multiple_of(4) {
        chunk.push(b' ');
    }
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&(12 + 8 + chunk.len() as u32).to_le_bytes());
    glb.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(&chunk);
    std::fs::write(dir.join("in/b/m.glb"), glb).expect("write glb");

    let out = run(&dir, &["--format", "json", "in"]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let report = json(&out);
    assert_eq!(
        paths_of(&report),
        [
            "in/a.gltf",
            "in/b/a.GLTF",
            "in/b/deep/c/x.gltf",
            "in/b/m.glb",
            "in/z.gltf"
        ]
    );
    // Every file, the GLB included, is read as the plain document it holds.
    for file in report["files"].as_array().expect("files") {
        assert_eq!(file["issues"][0]["code"], "PROFILE_NONE", "{file}");
    }
    // The same run twice prints the same bytes.
    assert_eq!(run(&dir, &["--format", "json", "in"]).stdout, out.stdout);
}

#[test]
fn a_file_named_twice_is_validated_once() {
    let dir = scratch("dedup");
    write(&dir, "in/a.gltf", PLAIN);
    let report = json(&run(&dir, &["--format", "json", "in/a.gltf", "in"]));
    assert_eq!(paths_of(&report), ["in/a.gltf"]);
}

#[test]
fn an_explicit_file_is_read_whatever_its_extension() {
    let dir = scratch("explicit");
    write(&dir, "model.json", PLAIN);
    let report = json(&run(&dir, &["--format", "json", "model.json"]));
    assert_eq!(paths_of(&report), ["model.json"]);
    assert_eq!(report["files"][0]["issues"][0]["code"], "PROFILE_NONE");
}

#[test]
fn profile_forces_the_reading_profile() {
    let dir = scratch("profile");
    write(&dir, "plain.gltf", PLAIN);
    let detected = json(&run(&dir, &["--format", "json", "plain.gltf"]));
    assert_eq!(detected["files"][0]["profile"], Value::Null);
    for id in ["khr-2024-draft", "omi-2023", "vrmc-constraints-draft"] {
        let out = run(&dir, &["--profile", id, "--format", "json", "plain.gltf"]);
        let report = json(&out);
        assert_eq!(report["files"][0]["profile"], id);
        // Read under a profile, the document is no longer "without profile".
        let codes: Vec<&Value> = report["files"][0]["issues"]
            .as_array()
            .expect("issues")
            .iter()
            .map(|i| &i["code"])
            .collect();
        assert!(
            !codes.contains(&&Value::from("PROFILE_NONE")),
            "{id}: {codes:?}"
        );
    }
}

#[test]
fn a_missing_path_exits_2_but_the_other_files_are_still_validated() {
    let dir = scratch("missing");
    write(&dir, "broken.gltf", BROKEN);
    let out = run(&dir, &["nowhere.gltf", "broken.gltf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("nowhere.gltf"),
        "stderr: {}",
        stderr(&out)
    );
    assert!(stdout(&out).contains("broken.gltf: error[JSON_SYNTAX]"));
    assert!(stdout(&out).ends_with("1 file, 1 error, 0 warnings, 0 infos (1 file with errors)\n"));
}

#[cfg(unix)]
#[test]
fn an_unreadable_file_exits_2() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("unreadable");
    let path = write(&dir, "locked.gltf", PLAIN);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    if std::fs::read(&path).is_ok() {
        eprintln!("skipped: running as a user who can read a mode-000 file (root)");
        return;
    }
    let out = run(&dir, &["locked.gltf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("locked.gltf"), "{}", stderr(&out));
}

#[test]
fn a_bad_profile_or_format_is_a_usage_error() {
    let dir = scratch("usage");
    write(&dir, "plain.gltf", PLAIN);
    let out = run(&dir, &["--profile", "khr", "plain.gltf"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown profile \"khr\""),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty());
    let out = run(&dir, &["--format", "xml", "plain.gltf"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "no path at all");
}

#[test]
fn an_empty_folder_validates_nothing_and_says_so() {
    let dir = scratch("empty");
    std::fs::create_dir_all(dir.join("nothing")).expect("mkdir");
    let out = run(&dir, &["nothing"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "validating nothing is not a success"
    );
    assert_eq!(
        stdout(&out),
        "0 files, 0 errors, 0 warnings, 0 infos (0 files with errors)\n"
    );
    assert!(
        stderr(&out).contains("nothing: no .gltf or .glb file in this folder"),
        "{}",
        stderr(&out)
    );
}

/// Both formats over `tests/golden/validate/input/`, run from `tests/golden/validate/` so the
/// printed paths are relative and stable.
#[test]
fn golden_outputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/validate");
    for (format, file) in [("text", "expected.txt"), ("json", "expected.json")] {
        let out = run(&root, &["--format", format, "input"]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "the golden folder has one broken file"
        );
        assert_golden(&format!("validate/{file}"), &stdout(&out));
    }
}

/// A folder without any glTF validates nothing: exit 2 with the folder named, not a green 0.
#[test]
fn a_folder_without_gltf_exits_2() {
    let dir = scratch("no-gltf");
    write(&dir, "empty/notes.txt", "not a scene");
    write(&dir, "full/plain.gltf", PLAIN);
    let out = run(&dir, &["empty"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("empty: no .gltf or .glb file"),
        "stderr: {}",
        stderr(&out)
    );
    // The other folders are still validated.
    let out = run(&dir, &["empty", "full"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stdout(&out).starts_with("full/plain.gltf: info[PROFILE_NONE]"),
        "{}",
        stdout(&out)
    );
}
