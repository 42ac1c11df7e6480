//! `results.ndjson`: a header line, one line per case x check, one line per case (its status,
//! verdict and known-failure reason), and a footer; appended and flushed after every case, so
//! an interrupted run leaves a readable log. [`read`] turns a log back into a [`Run`];
//! [`read_log`] also gives the header's [`RunKey`], which `run --resume` compares.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};

use serde::{Deserialize, Serialize};

use crate::check::CheckResult;
use crate::results::{CaseResult, ImplInfo, Run};
use crate::status::Status;

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Line {
    Header {
        suite: String,
        corpus: String,
        implementations: Vec<ImplInfo>,
        /// What the run was of (absent in logs of older versions).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        key: Option<RunKey>,
    },
    Check {
        implementation: String,
        case: String,
        #[serde(flatten)]
        check: CheckResult,
    },
    Case {
        #[serde(flatten)]
        result: CaseSummary,
    },
    Footer {
        cases: usize,
        by_status: BTreeMap<Status, usize>,
        duration_ms: u64,
    },
}

/// What makes a later run the same run, for `--resume`: the corpus content, the
/// implementations (and a `stdio` command) and the filter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    /// [`crate::case::Corpus::fingerprint`] of the selected cases.
    pub corpus_sha256: String,
    pub implementations: Vec<String>,
    /// The `stdio` implementation's command, empty without one.
    #[serde(default)]
    pub command: Vec<String>,
    #[serde(default)]
    pub filter: Option<String>,
    /// The corpus hash of the whole corpus, whatever the filter (`bundle::corpus`): what
    /// `diff` compares (absent in logs of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corpus_hash: Option<String>,
    /// `K/N` for one shard of a run split across machines (`run --shard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl RunKey {
    /// Why a log of `self` cannot be resumed as `other`, part by part; `None`: it can.
    pub fn mismatch(&self, other: &RunKey) -> Option<String> {
        let mut why = Vec::new();
        if self.corpus_sha256 != other.corpus_sha256 {
            why.push(format!(
                "the corpus differs (sha256 {} in the log, {} now)",
                self.corpus_sha256, other.corpus_sha256
            ));
        }
        if self.implementations != other.implementations {
            why.push(format!(
                "the implementations differ ({:?} in the log, {:?} now)",
                self.implementations, other.implementations
            ));
        }
        if self.command != other.command {
            why.push(format!(
                "the stdio command differs ({:?} in the log, {:?} now)",
                self.command, other.command
            ));
        }
        if self.filter != other.filter {
            why.push(format!(
                "the filter differs ({:?} in the log, {:?} now)",
                self.filter, other.filter
            ));
        }
        if self.shard != other.shard {
            why.push(format!(
                "the shard differs ({} in the log, {} now)",
                self.shard.as_deref().unwrap_or("none"),
                other.shard.as_deref().unwrap_or("none")
            ));
        }
        (!why.is_empty()).then(|| why.join("; "))
    }
}

/// A case result without its checks (they are the preceding check lines).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub implementation: String,
    pub case: String,
    pub profile: String,
    pub area: String,
    pub tier: crate::case::Tier,
    #[serde(default)]
    pub features: Vec<String>,
    pub status: Status,
    pub verdict: crate::results::Verdict,
    #[serde(default)]
    pub known_failure: Option<String>,
    #[serde(default)]
    pub duration_ms: u64,
}

/// The lines of one case: its checks, then its summary.
pub fn case_lines(r: &CaseResult) -> Vec<Line> {
    let mut v: Vec<Line> = r
        .checks
        .iter()
        .map(|c| Line::Check {
            implementation: r.implementation.clone(),
            case: r.case.clone(),
            check: c.clone(),
        })
        .collect();
    v.push(Line::Case {
        result: CaseSummary {
            implementation: r.implementation.clone(),
            case: r.case.clone(),
            profile: r.profile.clone(),
            area: r.area.clone(),
            tier: r.tier,
            features: r.features.clone(),
            status: r.status,
            verdict: r.verdict,
            known_failure: r.known_failure.clone(),
            duration_ms: r.duration_ms,
        },
    });
    v
}

/// The header of a run that cannot be resumed (no key).
pub fn header(suite: &str, corpus: &str, implementations: &[ImplInfo]) -> Line {
    keyed_header(suite, corpus, implementations, None)
}

/// The header of a run, which can be resumed when it has a key.
pub fn keyed_header(
    suite: &str,
    corpus: &str,
    implementations: &[ImplInfo],
    key: Option<RunKey>,
) -> Line {
    Line::Header {
        suite: suite.to_owned(),
        corpus: corpus.to_owned(),
        implementations: implementations.to_vec(),
        key,
    }
}

pub fn footer(run: &Run) -> Line {
    let mut by_status = BTreeMap::new();
    for r in &run.results {
        *by_status.entry(r.status).or_default() += 1;
    }
    Line::Footer {
        cases: run.results.len(),
        by_status,
        duration_ms: run.duration_ms,
    }
}

/// Streams lines to a writer, flushing after each case.
#[derive(Debug)]
pub struct Writer<W: Write> {
    out: W,
}

impl<W: Write> Writer<W> {
    pub fn new(out: W) -> Self {
        Writer { out }
    }

    pub fn line(&mut self, line: &Line) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, line)?;
        self.out.write_all(b"\n")
    }

    pub fn case(&mut self, r: &CaseResult) -> std::io::Result<()> {
        for l in case_lines(r) {
            self.line(&l)?;
        }
        self.out.flush()
    }

    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// The whole log of a finished run (what the streaming writer produces).
pub fn render(run: &Run) -> String {
    let mut w = Writer::new(Vec::new());
    let mut all = vec![header(&run.suite, &run.corpus, &run.implementations)];
    for r in &run.results {
        all.extend(case_lines(r));
    }
    all.push(footer(run));
    for l in &all {
        // Writing to a Vec cannot fail.
        let _ = w.line(l);
    }
    String::from_utf8_lossy(&w.into_inner()).into_owned()
}

/// A log read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Log {
    /// The complete cases (a case is complete once its summary line is there).
    pub run: Run,
    pub key: Option<RunKey>,
    /// The footer was reached: the run ended.
    pub finished: bool,
    /// A header line was read: the input is a run log (an empty file or one of blank lines
    /// is not).
    pub header: bool,
}

impl Log {
    /// Take in the log's next line; check lines wait in `pending` for their case line.
    pub fn push(&mut self, line: Line, pending: &mut Vec<CheckResult>) {
        match line {
            Line::Header {
                suite,
                corpus,
                implementations,
                key,
            } => {
                self.run.suite = suite;
                self.run.corpus = corpus;
                self.run.implementations = implementations;
                self.key = key;
                self.header = true;
            }
            Line::Check { check, .. } => pending.push(check),
            Line::Case { result: s } => self.run.results.push(CaseResult {
                implementation: s.implementation,
                case: s.case,
                profile: s.profile,
                area: s.area,
                tier: s.tier,
                features: s.features,
                status: s.status,
                verdict: s.verdict,
                known_failure: s.known_failure,
                checks: std::mem::take(pending),
                duration_ms: s.duration_ms,
            }),
            Line::Footer { duration_ms, .. } => {
                self.run.duration_ms = duration_ms;
                self.finished = true;
            }
        }
    }
}

/// Read a log back; a log cut short (no footer, a partial last line) gives the cases it holds.
pub fn read(input: impl BufRead) -> Result<Run, String> {
    read_log(input).map(|l| l.run)
}

/// Read a log back with its key. Only the last line may be torn (an interrupted run stops
/// mid-write, and every earlier line ended with its newline): a last line without a newline
/// is dropped, as are check lines whose case line never came. Any other line that does not
/// parse is an error.
pub fn read_log(mut input: impl BufRead) -> Result<Log, String> {
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read the log: {e}"))?;
    let complete = match bytes.iter().rposition(|b| *b == b'\n') {
        Some(end) => &bytes[..end],
        None => &[][..],
    };
    let mut log = Log::default();
    let mut pending: Vec<CheckResult> = Vec::new();
    if complete.is_empty() {
        return Ok(log);
    }
    for (n, line) in complete.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed: Line = serde_json::from_slice(line)
            .map_err(|e| format!("line {}: not a log line: {e}", n + 1))?;
        log.push(parsed, &mut pending);
    }
    Ok(log)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::Tier;
    use crate::results::Verdict;

    fn result(case: &str, status: Status) -> CaseResult {
        CaseResult {
            implementation: "a".into(),
            case: case.into(),
            profile: "p".into(),
            area: "x".into(),
            tier: Tier::Required,
            features: vec![],
            status,
            verdict: Verdict::of(status, false),
            known_failure: None,
            checks: vec![CheckResult::new("load", status, "m")],
            duration_ms: 1,
        }
    }

    fn key() -> RunKey {
        RunKey {
            corpus_sha256: "00".into(),
            implementations: vec!["a".into()],
            command: vec![],
            filter: None,
            corpus_hash: None,
            shard: None,
        }
    }

    fn log_of(n: usize) -> String {
        let mut w = Writer::new(Vec::new());
        w.line(&keyed_header("s", "c", &[], Some(key())))
            .expect("vec");
        for i in 0..n {
            w.case(&result(&format!("c{i}"), Status::Pass))
                .expect("vec");
        }
        String::from_utf8(w.into_inner()).expect("utf8")
    }

    #[test]
    fn every_cut_of_a_log_keeps_exactly_the_cases_before_it() {
        let text = log_of(3);
        // Byte offsets where each case line ends (after its newline).
        let ends: Vec<usize> = text
            .match_indices("{\"type\":\"case\"")
            .map(|(i, _)| i + text[i..].find('\n').expect("newline") + 1)
            .collect();
        assert_eq!(ends.len(), 3);
        for cut in 0..=text.len() {
            let log = read_log(&text.as_bytes()[..cut]).expect("a cut log reads");
            let want = ends.iter().filter(|e| **e <= cut).count();
            assert_eq!(log.run.results.len(), want, "cut at {cut}");
            assert!(!log.finished);
            if cut > text.find('\n').expect("header") {
                assert_eq!(log.key, Some(key()), "cut at {cut}");
            }
        }
    }

    #[test]
    fn a_broken_line_before_the_last_is_an_error() {
        let text = log_of(2).replacen("{\"type\":\"check\"", "{\"type\":\"chek\"", 1);
        assert!(read_log(text.as_bytes()).is_err());
    }

    #[test]
    fn keys_say_what_differs() {
        let a = key();
        assert_eq!(a.mismatch(&a.clone()), None);
        let b = RunKey {
            filter: Some("khr/*".into()),
            corpus_sha256: "11".into(),
            ..key()
        };
        let why = a.mismatch(&b).expect("differs");
        assert!(
            why.contains("corpus differs") && why.contains("filter differs"),
            "{why}"
        );
        assert!(!why.contains("implementations"), "{why}");
    }
}
