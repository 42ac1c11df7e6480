//! Exit codes of every `physics-cts` command, in one table: the README prints [`TABLE`] (a test
//! keeps them equal), so a script can tell a failing engine from a run that proved nothing.
//! Outside the table, by the shell's convention: 128+N when the harness was ended by signal N
//! (its implementations' processes are ended first), and 141 (128+SIGPIPE) when the reader of
//! standard output closed it first (`cli::out`).

/// Success: the command did what was asked and found nothing wrong.
pub const OK: u8 = 0;
/// The command ran and found failures (errors in a validated file, failing cases, a broken
/// case in `diff`, a failed bundle check).
pub const FAILURES: u8 = 1;
/// A usage or I/O problem (a bad option, a missing or unreadable path).
pub const USAGE: u8 = 2;
/// A named external implementation (`physx`) cannot start on this machine.
pub const UNAVAILABLE: u8 = 3;
/// `run` or `certify` scored nothing: every case was NOT_SUPPORTED, SKIP, NOTRUN or a harness
/// error, so the run says nothing about the implementation.
pub const NOTHING_SCORED: u8 = 4;
/// `diff` or `merge` was given something that is not a readable run log (empty, garbage, a log
/// without its header).
pub const NOT_A_RUN: u8 = 5;
/// `diff` or `merge` was given runs of different corpora (or different shards of a run).
pub const OTHER_CORPUS: u8 = 6;
/// A known-failure file is of another corpus (its corpus hash is not the run's).
pub const KNOWN_FAILURES_OF_ANOTHER_CORPUS: u8 = 7;

/// An error with its own exit code (see [`TABLE`]).
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct Coded {
    pub code: u8,
    pub message: String,
}

impl Coded {
    pub fn new(code: u8, message: impl Into<String>) -> Coded {
        Coded {
            code,
            message: message.into(),
        }
    }
}

/// Every exit code with its meaning, as the README's table shows it.
pub const TABLE: [(u8, &str); 8] = [
    (OK, "success: nothing wrong was found"),
    (
        FAILURES,
        "the command ran and found failures: a file with a validation error, a required case that failed and is not a known failure, a regression in `diff`, a failed bundle check in `verify`",
    ),
    (
        USAGE,
        "a usage or I/O problem: a bad option, a missing or unreadable path, a folder without glTF files for `validate`, a non-empty `--out` for `generate` without `--force`, a missing `--known-failures` file",
    ),
    (
        UNAVAILABLE,
        "a named external implementation (`--impl physx`) cannot start here (no `node`, no `npm ci`; no `cargo` to build `gltf-kun`)",
    ),
    (
        NOTHING_SCORED,
        "`run`/`certify` scored no case: every case was NOT_SUPPORTED, SKIP, NOTRUN or HARNESS_ERROR",
    ),
    (
        NOT_A_RUN,
        "`diff`/`merge`: an input is not a run log (empty, garbage, no header)",
    ),
    (
        OTHER_CORPUS,
        "`diff`/`merge`: the runs are of different corpora (or, for `merge`, not shards of one run)",
    ),
    (
        KNOWN_FAILURES_OF_ANOTHER_CORPUS,
        "a known-failure file records another corpus hash than the corpus run",
    ),
];

/// The table as Markdown, as the README carries it.
pub fn markdown() -> String {
    let mut s = String::from("| exit code | meaning |\n| --- | --- |\n");
    for (code, meaning) in TABLE {
        s.push_str(&format!("| {code} | {meaning} |\n"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_in_order() {
        for (i, (code, _)) in TABLE.iter().enumerate() {
            assert_eq!(usize::from(*code), i);
        }
    }

    /// The README's exit-code table is this one (regenerate the rows from [`markdown`]).
    #[test]
    fn readme_has_the_table() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
            .expect("README.md");
        assert!(
            readme.contains(&markdown()),
            "README.md must carry the exit-code table:\n{}",
            markdown()
        );
    }
}
