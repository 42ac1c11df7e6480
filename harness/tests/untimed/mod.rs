//! Helpers of the tests that run the CLI on the Python fakes and compare its reports
//! (`tests/cli_run.rs`, `tests/resume.rs`).

use std::path::Path;
use std::process::Command;

/// Whether `python3` runs here (the fakes need it); says so when it does not.
pub fn python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        println!("python3 is not available: skipping");
    }
    ok
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
