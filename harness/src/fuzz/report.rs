//! What `physics-cts fuzz` writes: each finding as a folder (`case/`, the shrunk case as a
//! corpus `run --corpus` reads; `original/`, the scene as first drawn; `finding.json`), and
//! `summary.json` / `summary.md` over them, grouped by check and by feature.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use generator::case::Case;
use generator::corpus;
pub use generator::draw::Size;
use serde::{Deserialize, Serialize};

use super::probe::{Symptom, Trial};
use super::shrink::Stop;
use crate::check::CheckResult;
use crate::status::Status;

/// Seconds to the millisecond, as reports write durations.
pub fn seconds(d: Duration) -> f64 {
    (d.as_secs_f64() * 1000.0).round() / 1000.0
}

/// How the drawn scenes ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    pub draws: u64,
    pub passed: u64,
    /// Scored and failing (a failure, an error, a crash or a timeout).
    pub failed: u64,
    pub not_supported: u64,
    pub skipped: u64,
    /// Failing in a case that is not scored (informative).
    pub unscored: u64,
    pub harness_errors: u64,
    /// Candidates the reference reads otherwise than the generator expects.
    pub disagreements: u64,
}

impl Counts {
    pub fn add(&mut self, trial: &Trial) {
        self.draws += 1;
        let status = trial.status();
        if trial.disagreement.is_some() {
            self.disagreements += 1;
        } else if status.is_pass() {
            self.passed += 1;
        } else if status.is_failure() && trial.scored {
            self.failed += 1;
        } else if status.is_failure() {
            self.unscored += 1;
        } else {
            match status {
                Status::NotSupported => self.not_supported += 1,
                Status::Skip => self.skipped += 1,
                _ => self.harness_errors += 1,
            }
        }
    }
}

/// The first draw that showed a symptom.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FirstFinding {
    pub draw: u64,
    /// Seconds from the start of the search.
    pub after_s: f64,
}

/// How a finding's case was shrunk.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shrinking {
    pub before: Size,
    pub after: Size,
    /// Candidates run.
    pub steps: u32,
    /// Candidates kept.
    pub kept: u32,
    /// `None`: not shrunk (the first scene did not fail again).
    pub stop: Option<Stop>,
}

/// One symptom's shrunk case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    pub check: String,
    pub status: Status,
    pub measured: Option<f64>,
    pub recommended: Option<f64>,
    pub allowed: Option<f64>,
    pub message: String,
    /// The case id inside its folder.
    pub case: String,
    pub profile: Option<String>,
    pub valid: bool,
    pub features: Vec<String>,
    pub seed: u64,
    /// The draw that first showed it.
    pub draw: u64,
    pub shrinking: Shrinking,
    /// The shrunk case did not show it again when run once more.
    pub flaky: bool,
    /// The shrunk case's status on the implementation without its seeded bug.
    pub without_mutant: Option<Status>,
    /// The finding's folder, relative to the output folder.
    pub folder: String,
    /// A command that runs the shrunk case.
    pub repro: String,
}

impl Finding {
    /// The finding of `symptom` shown by `check` on `case`.
    pub fn new(
        symptom: &Symptom,
        check: Option<&CheckResult>,
        case: &Case,
        (seed, draw): (u64, u64),
        shrinking: Shrinking,
        flaky: bool,
        without_mutant: Option<Status>,
    ) -> Finding {
        Finding {
            check: symptom.check.clone(),
            status: symptom.status,
            measured: check.and_then(|c| c.measured),
            recommended: check.and_then(|c| c.recommended),
            allowed: check.and_then(|c| c.allowed),
            message: check.map_or_else(String::new, |c| c.message.clone()),
            case: case.id.clone(),
            profile: case.profile.map(|p| p.id().to_owned()),
            valid: case.valid(),
            features: case.features.iter().cloned().collect(),
            seed,
            draw,
            shrinking,
            flaky,
            without_mutant,
            folder: String::new(),
            repro: String::new(),
        }
    }

    /// The folder name: its rank, check and status (`01-dynamics.rest-fail`).
    pub fn folder_name(&self, rank: usize) -> String {
        format!(
            "{rank:02}-{}-{}",
            self.check,
            self.status.as_str().to_ascii_lowercase()
        )
    }
}

/// The whole search, as `summary.json` holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FuzzSummary {
    pub implementation: String,
    pub mutant: Option<String>,
    pub seed: u64,
    pub profiles: Vec<String>,
    /// The command that repeats the search draw for draw.
    pub command: String,
    pub counts: Counts,
    pub search_s: f64,
    pub first: Option<FirstFinding>,
    pub findings: Vec<Finding>,
    pub disagreements: Vec<String>,
}

impl FuzzSummary {
    /// Findings that are not flaky.
    pub fn confirmed(&self) -> usize {
        self.findings.iter().filter(|f| !f.flaky).count()
    }

    pub fn json(&self) -> String {
        // Strings, numbers and enums only: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    pub fn markdown(&self) -> String {
        let mut s = String::new();
        let c = &self.counts;
        let _ = writeln!(s, "# physics-cts fuzz: {}\n", self.implementation);
        if let Some(m) = &self.mutant {
            let _ = writeln!(s, "Seeded bug: `{m}`.\n");
        }
        let _ = writeln!(
            s,
            "Seed {}, profiles {}: {} scenes drawn in {:.1} s. Repeat: `{}`.\n",
            self.seed,
            self.profiles.join(", "),
            c.draws,
            self.search_s,
            self.command
        );
        let _ = writeln!(
            s,
            "| scenes | passed | failed | not supported | skipped | not scored | harness errors | reference disagreements |"
        );
        let _ = writeln!(
            s,
            "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
        );
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.draws,
            c.passed,
            c.failed,
            c.not_supported,
            c.skipped,
            c.unscored,
            c.harness_errors,
            c.disagreements
        );
        if let Some(f) = &self.first {
            let _ = writeln!(
                s,
                "First failing scene: draw {}, after {:.1} s.\n",
                f.draw, f.after_s
            );
        }
        let _ = writeln!(
            s,
            "## Findings ({}, {} flaky)\n",
            self.findings.len(),
            self.findings.len() - self.confirmed()
        );
        if self.findings.is_empty() {
            let _ = writeln!(s, "None.");
        } else {
            let _ = writeln!(
                s,
                "| # | check | status | profile | measured | allowed | nodes (with an extension): drawn → shrunk | shrinking | flaky | without the bug |"
            );
            let _ = writeln!(
                s,
                "| ---: | --- | --- | --- | ---: | ---: | --- | --- | --- | --- |"
            );
            for (i, f) in self.findings.iter().enumerate() {
                let num = |v: Option<f64>| v.map_or_else(|| "–".to_owned(), |v| format!("{v}"));
                let sh = &f.shrinking;
                let _ = writeln!(
                    s,
                    "| {} | `{}` | {} | {} | {} | {} | {} ({}) → {} ({}) | {} | {} | {} |",
                    i + 1,
                    f.check,
                    f.status.as_str(),
                    f.profile.as_deref().unwrap_or("–"),
                    num(f.measured),
                    num(f.allowed),
                    sh.before.nodes,
                    sh.before.extension_nodes,
                    sh.after.nodes,
                    sh.after.extension_nodes,
                    match sh.stop {
                        Some(stop) =>
                            format!("{} runs, {} kept, {}", sh.steps, sh.kept, stop_text(stop)),
                        None => "not shrunk".to_owned(),
                    },
                    if f.flaky { "yes" } else { "no" },
                    f.without_mutant.map_or("–", Status::as_str)
                );
            }
            for (i, f) in self.findings.iter().enumerate() {
                let (n, check, status) = (i + 1, &f.check, f.status.as_str());
                let _ = writeln!(s, "\n### {n}. `{check}` {status}\n\n{}\n", f.message);
                let _ = writeln!(
                    s,
                    "Case `{}` in `{}`; run it: `{}`",
                    f.case, f.folder, f.repro
                );
            }
        }
        let mut by_feature: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (i, f) in self.findings.iter().enumerate() {
            for t in &f.features {
                by_feature.entry(t).or_default().push(i + 1);
            }
        }
        if !by_feature.is_empty() {
            let _ = writeln!(s, "\n## By feature of the shrunk cases\n");
            let _ = writeln!(s, "| feature | findings |\n| --- | --- |");
            for (t, v) in by_feature {
                let list: Vec<String> = v.iter().map(|i| format!("#{i}")).collect();
                let _ = writeln!(s, "| `{t}` | {} |", list.join(" "));
            }
        }
        if !self.disagreements.is_empty() {
            let _ = writeln!(
                s,
                "\n## The reference disagreed with the generator (a suite bug)\n"
            );
            for d in &self.disagreements {
                let _ = writeln!(s, "- {d}");
            }
        }
        s
    }
}

fn stop_text(stop: Stop) -> &'static str {
    match stop {
        Stop::Converged => "converged",
        Stop::StepBudget => "step budget spent",
        Stop::TimeBudget => "time budget spent",
    }
}

/// Write each finding's folder (its `case/` and `original/` corpora and `finding.json`, with
/// its folder and repro command filled in by `repro(case folder)`), then the summaries.
/// The output's earlier `findings/` and summaries are replaced.
pub fn write(
    out: &Path,
    summary: &mut FuzzSummary,
    cases: &[(Case, Case)],
    repro: &dyn Fn(&Path) -> String,
) -> std::io::Result<()> {
    let findings = out.join("findings");
    if findings.exists() {
        // Only an earlier search's findings are replaced: a `findings` folder without its
        // `summary.json` beside it is someone else's, and nothing already written is lost.
        if !out.join("summary.json").is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AlreadyExists,
                format!(
                    "{} exists and is not an earlier fuzz output (no summary.json beside it): choose another --out",
                    findings.display()
                ),
            ));
        }
        std::fs::remove_dir_all(&findings)?;
    }
    std::fs::create_dir_all(out)?;
    for (i, (f, (original, shrunk))) in summary.findings.iter_mut().zip(cases).enumerate() {
        let name = f.folder_name(i + 1);
        let dir = findings.join(&name);
        for (folder, case) in [("case", shrunk), ("original", original)] {
            let cases = std::slice::from_ref(case);
            corpus::write(&dir.join(folder), f.seed, cases, &mut |_, _| {})?;
        }
        f.folder = format!("findings/{name}");
        f.repro = repro(&dir.join("case"));
        let text = serde_json::to_string_pretty(f).unwrap_or_default() + "\n";
        std::fs::write(dir.join("finding.json"), text)?;
    }
    std::fs::write(out.join("summary.json"), summary.json())?;
    std::fs::write(out.join("summary.md"), summary.markdown())
}
