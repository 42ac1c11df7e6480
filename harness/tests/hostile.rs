//! Hostile inputs, each given to the `physics-cts` binary as a user would: every one must end
//! within [`DEADLINE`] with a clear code, without a panic, and with a peak resident memory under
//! [`MEMORY_CAP`].
//!
//! Peak memory is the child's `VmHWM` (its high-water mark of resident memory) read from
//! `/proc/<pid>/status` every millisecond while it runs: a mark is never lowered, so only the
//! growth of its last millisecond can be missed. A child over the cap or the deadline is killed
//! and the test fails (a regression must not take the machine down with it).
//!
//! Linux only (FIFOs, `/dev/zero`, `/proc`).
#![cfg(target_os = "linux")]

use std::ffi::OsStr;
use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use scratch::scratch;
use serde_json::Value;

mod scratch;

/// Every input ends within this.
const DEADLINE: Duration = Duration::from_secs(10);
/// Peak resident memory allowed, KiB (1 GiB).
const MEMORY_CAP_KIB: u64 = 1 << 20;

/// How a run of the binary ended.
#[derive(Debug)]
struct Ended {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    /// Peak resident memory, KiB.
    peak_kib: u64,
    took: Duration,
}

/// `VmHWM` or `VmRSS` of `pid`, KiB (`None` once it has exited).
fn status_kib(pid: u32, key: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

/// Run `physics-cts ARGS` in `dir`, watching its time and memory.
fn physics_cts<S: AsRef<OsStr>>(dir: &Path, args: &[S]) -> Ended {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_physics-cts"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start physics-cts");
    let pid = child.id();
    let drain = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let mut peak = 0;
    let status = loop {
        if let Some(hwm) = status_kib(pid, "VmHWM:") {
            peak = peak.max(hwm);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        let over_time = started.elapsed() > DEADLINE;
        let over_memory = peak > MEMORY_CAP_KIB;
        if over_time || over_memory {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "physics-cts {:?} killed: {} (peak {} MiB after {:?})",
                args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
                if over_time {
                    "past the deadline"
                } else {
                    "over the memory cap"
                },
                peak >> 10,
                started.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let ended = Ended {
        code: status.code(),
        stdout: out.join().expect("stdout thread"),
        stderr: err.join().expect("stderr thread"),
        peak_kib: peak,
        took: started.elapsed(),
    };
    println!(
        "physics-cts {:?}: exit {:?}, peak {} MiB, {:?}",
        args.iter().map(|a| a.as_ref()).collect::<Vec<_>>(),
        ended.code,
        ended.peak_kib >> 10,
        ended.took
    );
    assert!(
        !ended.stderr.contains("panicked"),
        "a panic: {}",
        ended.stderr
    );
    ended
}

/// `validate --format json PATH`: the (code, pointer) of every issue of its one file.
fn validate(dir: &Path, path: &str) -> (Ended, Vec<(String, String)>) {
    let ended = physics_cts(dir, &["validate", "--format", "json", path]);
    let report: Value = serde_json::from_str(&ended.stdout)
        .unwrap_or_else(|e| panic!("validate prints JSON ({e}): {}", ended.stdout));
    let issues = report["files"][0]["issues"]
        .as_array()
        .expect("one file with issues")
        .iter()
        .map(|i| {
            (
                i["code"].as_str().unwrap_or_default().to_owned(),
                i["pointer"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    (ended, issues)
}

/// The codes alone.
fn codes(issues: &[(String, String)]) -> Vec<&str> {
    issues.iter().map(|(c, _)| c.as_str()).collect()
}

fn mkfifo(path: &Path) {
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        path,
        rustix::fs::Mode::from_raw_mode(0o600),
    )
    .expect("mkfifo");
}

/// A document with one buffer of 36 bytes at `uri`.
const ONE_BUFFER: &str =
    r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":36,"uri":"z.bin"}]}"#;

/// A buffer URI naming what is not a regular file is refused by its type, nothing read:
/// `ln -s /dev/zero z.bin`, a FIFO (a plain open would wait for a writer forever), a folder.
#[test]
fn a_buffer_that_is_not_a_regular_file_is_not_read() {
    for name in ["dev-zero-buffer", "fifo-buffer", "folder-buffer"] {
        let dir = scratch(name);
        let buffer = dir.join("z.bin");
        match name {
            "dev-zero-buffer" => {
                std::os::unix::fs::symlink("/dev/zero", &buffer).expect("symlink");
            }
            "fifo-buffer" => mkfifo(&buffer),
            _ => std::fs::create_dir(&buffer).expect("mkdir"),
        }
        std::fs::write(dir.join("a.gltf"), ONE_BUFFER).expect("write");
        let (ended, issues) = validate(&dir, "a.gltf");
        assert_eq!(ended.code, Some(1), "{name}");
        assert_eq!(
            issues,
            [
                ("NOT_A_REGULAR_FILE".to_owned(), "/buffers/0/uri".to_owned()),
                ("PROFILE_NONE".to_owned(), String::new())
            ],
            "{name}"
        );
        // The buffer's error concerns data nothing physical reads, so eval goes on (issue
        // 36) and finds no extension to evaluate: a usage error (2), the buffer's error
        // still reported.
        let eval = physics_cts(&dir, &["eval", "a.gltf"]);
        assert_eq!(eval.code, Some(2), "{name}: {}", eval.stderr);
        assert!(
            eval.stderr.contains("NOT_A_REGULAR_FILE"),
            "{name}: {}",
            eval.stderr
        );
        std::fs::remove_dir_all(&dir).expect("remove");
    }
}

/// A FIFO named as the document: `validate`, `eval` and `run`'s reader end at once.
#[test]
fn a_fifo_as_the_document_does_not_block() {
    let dir = scratch("fifo-document");
    mkfifo(&dir.join("a.gltf"));
    let (ended, issues) = validate(&dir, "a.gltf");
    assert_eq!(ended.code, Some(1));
    assert_eq!(issues, [("NOT_A_REGULAR_FILE".to_owned(), String::new())]);
    let eval = physics_cts(&dir, &["eval", "a.gltf"]);
    assert_eq!(eval.code, Some(1), "{}", eval.stderr);
    assert!(
        eval.stderr.contains("NOT_A_REGULAR_FILE"),
        "{}",
        eval.stderr
    );
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// `/dev/zero` as the document: refused before a byte is read (it once took 1 GB before
/// FILE_TOO_LARGE).
#[test]
fn a_device_as_the_document_is_not_read() {
    let dir = scratch("dev-zero-document");
    let (ended, issues) = validate(&dir, "/dev/zero");
    assert_eq!(ended.code, Some(1));
    assert_eq!(issues, [("NOT_A_REGULAR_FILE".to_owned(), String::new())]);
    assert!(ended.peak_kib < 64 << 10, "{} KiB", ended.peak_kib);
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A manifest that is a FIFO: `run` says it cannot read it instead of waiting forever.
#[test]
fn a_fifo_as_the_manifest_does_not_block_run() {
    let dir = scratch("fifo-manifest");
    std::fs::create_dir(dir.join("corpus")).expect("mkdir");
    mkfifo(&dir.join("corpus/manifest.json"));
    let ended = physics_cts(
        &dir,
        &[
            "run",
            "--impl",
            "reference",
            "--corpus",
            "corpus",
            "--out",
            "out",
        ],
    );
    assert_eq!(ended.code, Some(2), "{}", ended.stderr);
    assert!(
        ended.stderr.contains("not a regular file"),
        "{}",
        ended.stderr
    );
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A sibling buffer that is a link resolving outside the document's folder is refused like a
/// URI with `..`; a link that stays inside is followed.
#[test]
fn a_symlinked_buffer_leaving_the_folder_escapes() {
    let dir = scratch("symlink-escape");
    std::fs::create_dir(dir.join("doc")).expect("mkdir");
    std::fs::write(dir.join("secret.bin"), [0u8; 36]).expect("write");
    std::os::unix::fs::symlink("../secret.bin", dir.join("doc/z.bin")).expect("symlink");
    std::fs::write(dir.join("doc/a.gltf"), ONE_BUFFER).expect("write");
    let (_, issues) = validate(&dir, "doc/a.gltf");
    assert_eq!(
        issues,
        [
            ("URI_ESCAPES".to_owned(), "/buffers/0/uri".to_owned()),
            ("PROFILE_NONE".to_owned(), String::new())
        ]
    );
    // A link to a folder outside, the file named through it.
    std::fs::remove_file(dir.join("doc/z.bin")).expect("rm");
    std::os::unix::fs::symlink("..", dir.join("doc/up")).expect("symlink");
    let through = ONE_BUFFER.replace("z.bin", "up/secret.bin");
    std::fs::write(dir.join("doc/a.gltf"), through).expect("write");
    let (_, issues) = validate(&dir, "doc/a.gltf");
    assert_eq!(codes(&issues), ["URI_ESCAPES", "PROFILE_NONE"]);
    // Inside the folder: read.
    std::fs::write(dir.join("doc/data.bin"), [0u8; 36]).expect("write");
    std::os::unix::fs::symlink("data.bin", dir.join("doc/z.bin")).expect("symlink");
    std::fs::write(dir.join("doc/a.gltf"), ONE_BUFFER).expect("write");
    let (ended, issues) = validate(&dir, "doc/a.gltf");
    assert_eq!(ended.code, Some(0), "{issues:?}");
    assert!(!codes(&issues).contains(&"URI_ESCAPES"), "{issues:?}");
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A document of `count` empty nodes.
fn empty_nodes(path: &Path, count: usize) {
    let mut text = String::with_capacity(40 + 3 * count);
    text.push_str(r#"{"asset":{"version":"2.0"},"nodes":["#);
    for i in 0..count {
        if i > 0 {
            text.push(',');
        }
        text.push_str("{}");
    }
    text.push_str("]}");
    std::fs::write(path, text).expect("write");
}

/// Over the budget, refused before parsing: 5 million empty nodes (15 MB) once needed 3 GB,
/// and 60 MB of them (20 million) once aborted the process (an allocation failed).
#[test]
fn millions_of_empty_nodes_are_over_the_budget() {
    for (name, count) in [("five-million", 5_000_000), ("sixty-mb", 20_000_000)] {
        let dir = scratch(name);
        empty_nodes(&dir.join("a.gltf"), count);
        let (ended, issues) = validate(&dir, "a.gltf");
        assert_eq!(ended.code, Some(1), "{name}");
        let too_large = [("DOCUMENT_TOO_LARGE".to_owned(), String::new())];
        assert_eq!(issues, too_large, "{name}");
        assert!(ended.peak_kib < 256 << 10, "{name}: {} KiB", ended.peak_kib);
        std::fs::remove_dir_all(&dir).expect("remove");
    }
}

/// Just under the budget, the costliest value there is (an empty node: 3 bytes of text, a
/// typed node and a hierarchy entry) is read whole, within the memory cap.
#[test]
fn a_document_at_the_budget_is_read_within_the_memory_cap() {
    let dir = scratch("at-budget");
    // Counted as 1, the root's, asset's and nodes' brackets, the comma between asset and
    // nodes, then two per node (its bracket and a comma, one comma fewer): 2 n + 4.
    let limit = usize::try_from(reference::document::budget::MAX_JSON_VALUES).expect("usize");
    empty_nodes(&dir.join("a.gltf"), (limit - 4) / 2);
    let (ended, issues) = validate(&dir, "a.gltf");
    assert!(
        !codes(&issues).contains(&"DOCUMENT_TOO_LARGE"),
        "{issues:?}"
    );
    assert_eq!(ended.code, Some(0), "{issues:?}");
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A million nested arrays: a syntax error (the parser's depth limit), not a stack overflow.
#[test]
fn deep_nesting_is_a_syntax_error() {
    let dir = scratch("deep");
    std::fs::write(dir.join("a.gltf"), "[".repeat(1_000_000)).expect("write");
    let (ended, issues) = validate(&dir, "a.gltf");
    assert_eq!(ended.code, Some(1));
    assert_eq!(codes(&issues), ["JSON_SYNTAX"]);
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// One string of 100 MB: a few values, so within the value budget; memory stays a small
/// multiple of the file (200 MB peaked at 624 MB: the file, the tree's copy, the typed copy).
#[test]
fn a_huge_string_costs_a_few_times_its_bytes() {
    let dir = scratch("huge-string");
    let text = format!(
        r#"{{"asset":{{"version":"2.0","generator":"{}"}}}}"#,
        "x".repeat(100 << 20)
    );
    std::fs::write(dir.join("a.gltf"), text).expect("write");
    let (ended, issues) = validate(&dir, "a.gltf");
    assert_eq!(ended.code, Some(0), "{issues:?}");
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A GLB whose header and chunk claim 4 GiB: nothing is allocated from the claim.
#[test]
fn a_glb_lying_about_its_lengths_is_refused() {
    let dir = scratch("glb-lies");
    let mut glb = Vec::new();
    glb.extend_from_slice(b"glTF");
    glb.extend_from_slice(&2u32.to_le_bytes());
    glb.extend_from_slice(&u32::MAX.to_le_bytes());
    glb.extend_from_slice(&(u32::MAX - 3).to_le_bytes());
    glb.extend_from_slice(b"JSON");
    glb.extend_from_slice(br#"{"asset":{"version":"2.0"}}"#);
    std::fs::write(dir.join("a.glb"), glb).expect("write");
    let (ended, issues) = validate(&dir, "a.glb");
    assert_eq!(ended.code, Some(1));
    assert_eq!(codes(&issues), ["GLB_HEADER"]);
    assert!(ended.peak_kib < 64 << 10, "{} KiB", ended.peak_kib);
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A buffer claiming 2^53 bytes and an accessor of 2^32 elements over 36 real bytes: bounds
/// issues, no allocation from the claims.
#[test]
fn huge_claimed_lengths_are_bounds_issues() {
    let dir = scratch("huge-claims");
    std::fs::write(dir.join("z.bin"), [0u8; 36]).expect("write");
    let doc = r#"{"asset":{"version":"2.0"},
        "buffers":[{"byteLength":9007199254740991,"uri":"z.bin"}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":4294967295,"type":"VEC3"}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
        "nodes":[{"mesh":0}]}"#;
    std::fs::write(dir.join("a.gltf"), doc).expect("write");
    let (ended, issues) = validate(&dir, "a.gltf");
    assert_eq!(ended.code, Some(1));
    let codes = codes(&issues);
    assert!(codes.contains(&"BUFFER_TOO_SHORT"), "{codes:?}");
    assert!(codes.contains(&"ACCESSOR_BOUNDS"), "{codes:?}");
    assert!(ended.peak_kib < 64 << 10, "{} KiB", ended.peak_kib);
    std::fs::remove_dir_all(&dir).expect("remove");
}

/// A reader that closes standard output early (`| head -1`): the command ends quietly with
/// 141 (128 + SIGPIPE), no panic (Rust ignores SIGPIPE, and `println!` used to panic).
#[test]
fn a_closed_standard_output_ends_quietly() {
    let v1 = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1");
    if !v1.is_dir() {
        println!("no corpus/v1: skipping");
        return;
    }
    for format in ["text", "json"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_physics-cts"))
            .args(["validate", "--format", format])
            .arg(&v1)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start physics-cts");
        // The read end closed before the output is written (validating the corpus comes
        // first): every write of it meets a closed pipe.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(141), "{format}: {stderr}");
        assert!(stderr.is_empty(), "{format}: {stderr}");
    }
}
