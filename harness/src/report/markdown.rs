//! `summary.md`: scores with denominators per implementation and area, then what needs
//! attention (failures outside the known-failure file, unexpected passes, harness errors) and
//! the known failures grouped by reason. A run of several implementations adds the interop
//! section first: counts per tier, the feature x implementation matrix, and the cases where the
//! implementations disagree (every case is in `report.html` and `summary.json`).

use std::collections::BTreeMap;
use std::fmt::Write;

use crate::case::Tier;
use crate::results::{CaseResult, Run, Verdict};
use crate::score::interop::{CaseRow, Interop, Matrix};
use crate::score::{self, ByTier, Scores};

/// At most this many cases are listed per section; the rest are counted.
pub const LIST_LIMIT: usize = 50;
/// At most this many rows of the case x implementation matrix; the rest are counted.
pub const MATRIX_LIMIT: usize = 500;

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
        "Unexpected passes (remove from the known-failure file)",
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

/// A case's cell: its status, marked when it is a known failure; `-` when not run.
fn status_cell(c: Option<crate::score::interop::Cell>) -> String {
    match c {
        Some(c) if c.known_failure => format!("{} (known)", c.status),
        Some(c) => c.status.to_string(),
        None => "-".to_owned(),
    }
}

fn interop(out: &mut String, m: &Matrix, scores: &[Scores]) {
    let _ = writeln!(out, "\n## Interop\n");
    let _ = writeln!(
        out,
        "A case is **interoperable** when every implementation of the run scored it and passed; **unproven** when every implementation that scored it passed but one did not score it (NOT_SUPPORTED, SKIP, NOTRUN, HARNESS_ERROR, or not run): no evidence either way; **failing** when one failed it (expected failures included); **unscored** when none scored it. Implementations **disagree** on a case when their outcomes (pass, failure, not scored) differ.\n"
    );
    let _ = writeln!(
        out,
        "| tier | cases | interoperable | unproven | failing | unscored | disagreements |"
    );
    let _ = writeln!(out, "| --- | --- | --- | --- | --- | --- | --- |");
    for (tier, t) in m.totals() {
        let _ = writeln!(
            out,
            "| {tier} | {} | {} | {} | {} | {} | {} |",
            t.cases, t.interoperable, t.unproven, t.failing, t.unscored, t.disagreements
        );
    }
    let _ = writeln!(
        out,
        "\n### Features\n\nPer implementation passed/scored, per tier; interop: interoperable/cases, with the unproven ones apart.\n"
    );
    let mut head = String::from("| feature |");
    let mut rule = String::from("| --- |");
    for name in m
        .implementations
        .iter()
        .chain(std::iter::once(&"interop".to_owned()))
    {
        for tier in [Tier::Required, Tier::Optional] {
            let _ = write!(head, " {} {tier} |", md_escape(name));
            rule.push_str(" --- |");
        }
    }
    let _ = writeln!(out, "{head}\n{rule}");
    for (feature, tiers) in m.features() {
        let _ = write!(out, "| `{feature}` |");
        for s in scores {
            let t = s.features.get(&feature);
            for tier in [Tier::Required, Tier::Optional] {
                let cell = t
                    .and_then(|t| t.get(&tier))
                    .map_or_else(|| "-".to_owned(), |t| t.short());
                let _ = write!(out, " {cell} |");
            }
        }
        for tier in [Tier::Required, Tier::Optional] {
            let cell = tiers
                .get(&tier)
                .map_or_else(|| "-".to_owned(), |t| t.display());
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    let listed: Vec<&CaseRow> = m.rows.iter().filter(|r| r.listed_in_markdown()).collect();
    let _ = writeln!(
        out,
        "\n### Cases where the implementations disagree ({})\n",
        listed.len()
    );
    if !listed.is_empty() {
        let mut head = String::from("| case | tier |");
        let mut rule = String::from("| --- | --- |");
        for name in &m.implementations {
            let _ = write!(head, " {} |", md_escape(name));
            rule.push_str(" --- |");
        }
        let _ = writeln!(out, "{head} interop |\n{rule} --- |");
        for r in listed.iter().take(MATRIX_LIMIT) {
            let _ = write!(out, "| `{}` | {} |", r.case, r.tier);
            for c in &r.cells {
                let _ = write!(out, " {} |", status_cell(*c));
            }
            let _ = writeln!(out, " {} |", r.interop.as_str());
        }
        if listed.len() > MATRIX_LIMIT {
            let _ = writeln!(
                out,
                "\n... and {} more in `report.html`.",
                listed.len() - MATRIX_LIMIT
            );
        }
    }
    let mut rest: BTreeMap<Interop, usize> = BTreeMap::new();
    for r in m.rows.iter().filter(|r| !r.listed_in_markdown()) {
        *rest.entry(r.interop).or_default() += 1;
    }
    let total: usize = rest.values().sum();
    let parts: Vec<String> = rest
        .iter()
        .map(|(class, n)| format!("{n} {}", class.as_str()))
        .collect();
    let _ = writeln!(
        out,
        "\nThe other {total} case(s) have the same outcome on every implementation{}{}; every case is in `report.html` and `summary.json`.",
        if parts.is_empty() { "" } else { ": " },
        parts.join(", ")
    );
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
            md_escape(&i.name),
            md_escape(&i.version),
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
    if let Some(m) = Matrix::of(run) {
        interop(&mut out, &m, &scores);
    }
    for s in &scores {
        implementation(&mut out, run, s);
    }
    out
}
