//! `physics-cts run --resume OUT`: a run killed (SIGKILL) part way is resumed from its
//! `results.ndjson`, and the reports equal an uninterrupted run's but for timings; a log of
//! another run is refused with exit code 2. The implementation is the misbehaving stdio fake
//! (`tests/fakes/misbehave.py`), whose `slow` cases make the run long enough to interrupt.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use misbehave::{apart_expect, python, report, script};
use scratch::scratch;
use serde_json::json;

mod misbehave;
mod scratch;

/// Sixteen cases, every other one `slow` (it answers after 0.3 s); the file stem picks the
/// fake's behaviour.
fn write_corpus(dir: &Path) {
    let stems: Vec<&str> = [
        "ok",
        "crash-step",
        "fail",
        "ok",
        "garbage",
        "ok",
        "refuse",
        "ok",
    ]
    .into_iter()
    .flat_map(|s| ["slow", s])
    .collect();
    misbehave::write_corpus(dir, &stems, |i| {
        if i % 3 == 0 { "optional" } else { "required" }
    });
}

fn command(corpus: &Path, out_flag: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_physics-cts"));
    c.arg("run")
        .arg("--impl")
        .arg("stdio")
        .arg("--corpus")
        .arg(corpus)
        .arg(out_flag)
        .arg(out)
        .args(extra)
        .arg("--")
        .arg("python3")
        .arg(script())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn case_lines(out: &Path) -> usize {
    std::fs::read_to_string(out.join("results.ndjson"))
        .unwrap_or_default()
        .matches("{\"type\":\"case\"")
        .count()
}

fn statuses(dir: &Path) -> Vec<(String, String)> {
    let run = physics_cts::report::ndjson::read(std::io::BufReader::new(
        std::fs::File::open(dir.join("results.ndjson")).expect("log"),
    ))
    .expect("reads");
    let mut v: Vec<(String, String)> = run
        .results
        .iter()
        .map(|r| (r.case.clone(), r.status.to_string()))
        .collect();
    v.sort();
    v
}

#[test]
fn a_killed_run_resumes_to_the_reports_of_an_uninterrupted_one() {
    if python().is_none() {
        return;
    }
    let dir = scratch("resume");
    let corpus = dir.join("corpus");
    write_corpus(&corpus);
    let (whole, cut) = (dir.join("whole"), dir.join("cut"));

    let status = command(&corpus, "--out", &whole, &[])
        .status()
        .expect("runs");
    assert_eq!(status.code(), Some(1), "a required case fails");

    let mut child = command(&corpus, "--out", &cut, &[])
        .spawn()
        .expect("starts");
    let t = Instant::now();
    while case_lines(&cut) < 4 {
        assert!(t.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().expect("SIGKILL");
    let _ = child.wait();
    let done = case_lines(&cut);
    assert!(done < 16, "killed before the end ({done} cases)");
    assert!(!cut.join("summary.json").exists());
    // A torn last line, as a kill in the middle of a write leaves it.
    let mut log = std::fs::read_to_string(cut.join("results.ndjson")).expect("log");
    log.push_str("{\"type\":\"check\",\"implementation\":\"stdio\",\"ca");
    std::fs::write(cut.join("results.ndjson"), log).expect("write");

    let resumed = command(&corpus, "--resume", &cut, &[])
        .output()
        .expect("resumes");
    assert_eq!(
        resumed.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_eq!(statuses(&cut), statuses(&whole));
    assert_eq!(case_lines(&cut), 16);
    for name in [
        "summary.json",
        "results.csv",
        "junit.xml",
        "summary.md",
        "report.html",
    ] {
        assert_eq!(report(&cut, name), report(&whole, name), "{name}");
    }

    // Another run's log is refused with exit code 2, saying why.
    let refused = |extra: &[&str], why: &str| {
        let o = command(&corpus, "--resume", &cut, extra)
            .output()
            .expect("runs");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(why), "{err}");
    };
    refused(&["--filter", "c0"], "the filter differs");
    let first = corpus.join("k/c01/ok.expect.json");
    let mut changed = apart_expect();
    changed["scenario"]["steps"] = json!(4);
    std::fs::write(&first, changed.to_string()).expect("write");
    refused(&[], "the corpus differs");
    let _ = std::fs::remove_dir_all(&dir);
}
