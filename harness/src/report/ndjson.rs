//! `results.ndjson`: a header line, one line per case x check, one line per case (its status,
//! verdict and known-failure reason), and a footer; appended and flushed after every case, so
//! an interrupted run leaves a readable log. [`read`] turns a log back into a [`Run`].

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

pub fn header(suite: &str, corpus: &str, implementations: &[ImplInfo]) -> Line {
    Line::Header {
        suite: suite.to_owned(),
        corpus: corpus.to_owned(),
        implementations: implementations.to_vec(),
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

/// Read a log back; a log cut short (no footer, a partial last line) gives the cases it holds.
pub fn read(input: impl BufRead) -> Result<Run, String> {
    let mut run = Run::default();
    let mut pending: Vec<CheckResult> = Vec::new();
    for (n, line) in input.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", n + 1))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: Line = match serde_json::from_str(&line) {
            Ok(l) => l,
            // A torn last line of an interrupted run.
            Err(_) if line.ends_with('}') => return Err(format!("line {}: not a log line", n + 1)),
            Err(_) => break,
        };
        match parsed {
            Line::Header {
                suite,
                corpus,
                implementations,
            } => {
                run.suite = suite;
                run.corpus = corpus;
                run.implementations = implementations;
            }
            Line::Check { check, .. } => pending.push(check),
            Line::Case { result: s } => run.results.push(CaseResult {
                implementation: s.implementation,
                case: s.case,
                profile: s.profile,
                area: s.area,
                tier: s.tier,
                features: s.features,
                status: s.status,
                verdict: s.verdict,
                known_failure: s.known_failure,
                checks: std::mem::take(&mut pending),
                duration_ms: s.duration_ms,
            }),
            Line::Footer { duration_ms, .. } => run.duration_ms = duration_ms,
        }
    }
    Ok(run)
}
