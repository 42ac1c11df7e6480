//! `summary.md`: scores with denominators per implementation and area, then what needs
//! attention (failures outside the expectations file, unexpected passes, harness errors) and
//! the known failures grouped by reason.

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::case::Tier;
use crate::results::{CaseResult, Run, Verdict};
use crate::score::{self, ByTier, Scores};

/// At most this many cases are listed per section; the rest are counted.
pub const LIST_LIMIT: usize = 50;

fn tier_cell(t: &ByTier, tier: Tier) -> String {
    t.get(&tier).map_or_else(|| "-".to_owned(), |t| t.display())
}

fn informative_cell(t: &ByTier) -> String {
    t.get(&Tier::Informative).map_or_else(
        || "-".to_owned(),
        |t| format!("{}/{} passed", t.passed, t.cases),
    )
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn list(out: &mut String, title: &str, cases: &[&CaseResult], with_reason: bool) {
    if cases.is_empty() {
        return;
    }
    let _ = writeln!(out, "\n### {title} ({})\n", cases.len());
    for r in cases.iter().take(LIST_LIMIT) {
        let head = r
            .headline()
            .map(|c| {
                let m = if c.message.is_empty() {
                    String::new()
                } else {
                    format!(": {}", md_escape(&c.message))
                };
                format!("{} `{}`{m}", c.status, c.check)
            })
            .unwrap_or_else(|| r.status.to_string());
        let reason = match (&r.known_failure, with_reason) {
            (Some(k), true) => format!(" (listed: {})", md_escape(k)),
            _ => String::new(),
        };
        let _ = writeln!(out, "- `{}` {head}{reason}", r.case);
    }
    if cases.len() > LIST_LIMIT {
        let _ = writeln!(out, "- ... and {} more", cases.len() - LIST_LIMIT);
    }
}

fn implementation(out: &mut String, run: &Run, s: &Scores) {
    let _ = writeln!(out, "\n## {}\n", s.implementation);
    let _ = writeln!(
        out,
        "| profile/area | required | optional | informative (not scored) |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- |");
    for (area, t) in &s.areas {
        let _ = writeln!(
            out,
            "| {area} | {} | {} | {} |",
            tier_cell(t, Tier::Required),
            tier_cell(t, Tier::Optional),
            informative_cell(t)
        );
    }
    let results: Vec<&CaseResult> = run.of(&s.implementation).collect();
    let pick = |v: Verdict| -> Vec<&CaseResult> {
        results.iter().copied().filter(|r| r.verdict == v).collect()
    };
    list(out, "Failures", &pick(Verdict::Failed), false);
    list(
        out,
        "Unexpected passes (remove from the expectations file)",
        &pick(Verdict::UnexpectedPass),
        true,
    );
    list(
        out,
        "Harness errors (not counted)",
        &pick(Verdict::HarnessError),
        false,
    );
    let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
    for r in pick(Verdict::ExpectedFailure) {
        *reasons
            .entry(r.known_failure.as_deref().unwrap_or(""))
            .or_default() += 1;
    }
    if !reasons.is_empty() {
        let _ = writeln!(
            out,
            "\n### Known failures\n\n| cases | reason |\n| --- | --- |"
        );
        for (reason, n) in reasons {
            let _ = writeln!(out, "| {n} | {} |", md_escape(reason));
        }
    }
}

pub fn render(run: &Run) -> String {
    let scores = score::scores(run);
    let mut out = String::from("# physics-cts results\n\n");
    let cases = run
        .results
        .iter()
        .map(|r| r.case.as_str())
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let _ = writeln!(
        out,
        "{} over `{}`: {cases} cases, {} implementation(s), {:.1} s.\n",
        run.suite,
        run.corpus,
        run.implementations.len(),
        run.duration_ms as f64 / 1000.0
    );
    let _ = writeln!(
        out,
        "Scores are passed/scored: failures (expected ones included) are scored; NOT_SUPPORTED, SKIP, NOTRUN and HARNESS_ERROR are not. Informative cases are shown, never scored.\n"
    );
    let _ = writeln!(
        out,
        "| implementation | engine | required | optional | informative (not scored) | failures | expected failures | unexpected passes | harness errors |"
    );
    let _ = writeln!(
        out,
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for (i, s) in run.implementations.iter().zip(&scores) {
        let v = |k: Verdict| s.verdicts.get(&k).copied().unwrap_or(0);
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            i.name,
            i.version,
            md_escape(&i.engine),
            tier_cell(&s.total, Tier::Required),
            tier_cell(&s.total, Tier::Optional),
            informative_cell(&s.total),
            v(Verdict::Failed),
            v(Verdict::ExpectedFailure),
            v(Verdict::UnexpectedPass),
            v(Verdict::HarnessError),
        );
    }
    if run.implementations.len() > 1 {
        let _ = writeln!(
            out,
            "\nInterop: {} case(s) pass on every implementation.",
            score::interop(run).len()
        );
    }
    for s in &scores {
        implementation(&mut out, run, s);
    }
    out
}
