//! `report.html`: one self-contained page (inline CSS and SVG, no script, no external asset).
//! What needs attention comes first: per implementation, the failures, unexpected passes and
//! harness errors, open, with their checks' measured values and tolerances and, for a dynamics
//! check that did not pass, a chart of the measured quantity over time against its bands
//! ([`crate::report::chart`]). Then the scores, a feature x implementation matrix (required and
//! optional apart, with an interop column for a run of several implementations), an area x
//! implementation matrix, the case x implementation matrix of a run of several implementations
//! (collapsible: the cases where they disagree or one fails open, every other case closed), and
//! the known failures, each reason once with its cases.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::case::Tier;
use crate::results::{CaseResult, Run, Verdict};
use crate::score::interop::{CaseRow, Interop, InteropTally, Matrix};
use crate::score::{self, Scores, Tally};
use crate::text::number;

/// Escape text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}\
th{background:#f4f4f4}td.full{background:#d9f2d9}td.part{background:#fff3c4}td.none{background:#f8d0d0}td.na{color:#999}\
code{font-size:.9em}.st-PASS{color:#1a7f37}.st-FAIL,.st-CRASH,.st-ERROR,.st-TIMEOUT{color:#b3261e;font-weight:bold}\
.st-QUALITY_WARNING{color:#9a6700}details{margin:.3em 0}summary{cursor:pointer}\
td.io-interoperable{background:#d9f2d9}td.io-unproven{background:#e8e8f8}td.io-failing{background:#f8d0d0}td.io-unscored{color:#999}\
svg.chart{display:block;margin:.5em 0}.reason{margin:.8em 0 .2em}ul.cases{margin:.2em 0;columns:3 16em}";

/// Text with Markdown code spans (`` `x` ``) as `<code>`, everything escaped; an unpaired
/// backtick stays as it is.
pub fn inline_code(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    let mut out = String::with_capacity(s.len());
    let paired = if parts.len() % 2 == 1 {
        parts.len()
    } else {
        parts.len() - 1
    };
    for (i, p) in parts.iter().enumerate() {
        if i >= paired {
            out.push('`');
            out.push_str(&escape(p));
        } else if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(p));
        } else {
            out.push_str(&escape(p));
        }
    }
    out
}

/// A score cell: the full tally, or (`short`, the feature matrix) `passed/scored` with the full
/// tally in its title.
fn cell(t: Option<&Tally>, short: bool) -> String {
    match t {
        Some(t) if t.scored > 0 => {
            let class = if t.passed == t.scored {
                "full"
            } else if t.passed == 0 {
                "none"
            } else {
                "part"
            };
            let full = escape(&t.display());
            if short {
                let title = format!("{full} of {} case(s)", t.cases);
                format!("<td class=\"{class}\" title=\"{title}\">{}</td>", t.short())
            } else {
                format!("<td class=\"{class}\">{full}</td>")
            }
        }
        Some(t) => format!("<td class=\"na\">0/0 of {}</td>", t.cases),
        None => "<td class=\"na\">-</td>".to_owned(),
    }
}

/// An interop cell: `interoperable/cases`, the unproven ones apart.
fn interop_cell(t: Option<&InteropTally>) -> String {
    match t {
        Some(t) if t.cases > 0 => {
            let class = if t.interoperable == t.cases {
                "full"
            } else if t.failing > 0 {
                "part"
            } else {
                "na"
            };
            format!(
                "<td class=\"{class}\" title=\"{} failing, {} unscored\">{}</td>",
                t.failing,
                t.unscored,
                escape(&t.display())
            )
        }
        _ => "<td class=\"na\">-</td>".to_owned(),
    }
}

const FEATURE_TIERS: [Tier; 2] = [Tier::Required, Tier::Optional];

/// Features x implementations, required and optional apart, with the interop columns when
/// there is a matrix.
fn features(out: &mut String, scores: &[Scores], m: Option<&Matrix>) {
    let interop = m.map(Matrix::features).unwrap_or_default();
    let rows: BTreeSet<&String> = scores
        .iter()
        .flat_map(|s| s.features.keys())
        .chain(interop.keys())
        .collect();
    out.push_str(
        "<h2>Features (required and optional cases)</h2>\n<p>Per implementation passed/scored",
    );
    if m.is_some() {
        out.push_str("; interop: interoperable/cases, with the unproven ones apart");
    }
    out.push_str(".</p>\n<table><tr><th rowspan=\"2\">feature</th>");
    let columns: Vec<&str> = scores
        .iter()
        .map(|s| s.implementation.as_str())
        .chain(m.map(|_| "interop"))
        .collect();
    for c in &columns {
        let _ = write!(out, "<th colspan=\"2\">{}</th>", escape(c));
    }
    out.push_str("</tr>\n<tr>");
    for _ in &columns {
        for t in FEATURE_TIERS {
            let _ = write!(out, "<th>{t}</th>");
        }
    }
    out.push_str("</tr>\n");
    for row in rows {
        let _ = write!(out, "<tr><th><code>{}</code></th>", escape(row));
        for s in scores {
            let t = s.features.get(row);
            for tier in FEATURE_TIERS {
                out.push_str(&cell(t.and_then(|t| t.get(&tier)), true));
            }
        }
        if m.is_some() {
            let t = interop.get(row);
            for tier in FEATURE_TIERS {
                out.push_str(&interop_cell(t.and_then(|t| t.get(&tier))));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// Interop: the definitions and the counts per tier.
fn interop(out: &mut String, m: &Matrix) {
    out.push_str("<h2>Interop</h2>\n<p>A case is <em>interoperable</em> when every implementation of the run scored it and passed; <em>unproven</em> when every implementation that scored it passed but one did not score it (NOT_SUPPORTED, SKIP, NOTRUN, HARNESS_ERROR, or not run): no evidence either way; <em>failing</em> when one failed it (expected failures included); <em>unscored</em> when none scored it. Implementations <em>disagree</em> on a case when their outcomes (pass, failure, not scored) differ.</p>\n");
    out.push_str("<table><tr><th>tier</th><th>cases</th><th>interoperable</th><th>unproven</th><th>failing</th><th>unscored</th><th>disagreements</th></tr>\n");
    for (tier, t) in m.totals() {
        let _ = writeln!(
            out,
            "<tr><td>{tier}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            t.cases, t.interoperable, t.unproven, t.failing, t.unscored, t.disagreements
        );
    }
    out.push_str("</table>\n");
}

/// The case x implementation matrix, in two collapsible parts.
fn cases(out: &mut String, m: &Matrix) {
    let _ = writeln!(out, "<h2>Cases x implementations</h2>");
    let (attention, rest): (Vec<&CaseRow>, Vec<&CaseRow>) =
        m.rows.iter().partition(|r| r.needs_attention());
    case_matrix(
        out,
        m,
        "Cases where the implementations disagree or one fails",
        &attention,
        true,
    );
    case_matrix(out, m, "Every other case", &rest, false);
}

fn case_matrix(out: &mut String, m: &Matrix, title: &str, rows: &[&CaseRow], open: bool) {
    let _ = writeln!(
        out,
        "<details{}><summary>{} ({})</summary>",
        if open { " open" } else { "" },
        escape(title),
        rows.len()
    );
    if rows.is_empty() {
        out.push_str("<p>None.</p></details>\n");
        return;
    }
    out.push_str("<table><tr><th>case</th><th>tier</th>");
    for name in &m.implementations {
        let _ = write!(out, "<th>{}</th>", escape(name));
    }
    out.push_str("<th>interop</th></tr>\n");
    for r in rows {
        let _ = write!(
            out,
            "<tr><td><code>{}</code></td><td>{}</td>",
            escape(&r.case),
            r.tier
        );
        for c in &r.cells {
            match c {
                Some(c) => {
                    let _ = write!(
                        out,
                        "<td class=\"st-{0}\">{0}{1}</td>",
                        c.status.as_str(),
                        if c.known_failure { " (known)" } else { "" }
                    );
                }
                None => out.push_str("<td class=\"na\">-</td>"),
            }
        }
        let class: Interop = r.interop;
        let _ = writeln!(out, "<td class=\"io-{0}\">{0}</td></tr>", class.as_str());
    }
    out.push_str("</table></details>\n");
}

fn matrix(
    out: &mut String,
    title: &str,
    rows: &BTreeSet<String>,
    scores: &[Scores],
    get: &dyn Fn(&Scores, &str) -> Option<Tally>,
) {
    let _ = write!(out, "<h2>{}</h2>\n<table><tr><th></th>", escape(title));
    for s in scores {
        let _ = write!(out, "<th>{}</th>", escape(&s.implementation));
    }
    out.push_str("</tr>\n");
    for row in rows {
        let _ = write!(out, "<tr><th><code>{}</code></th>", escape(row));
        for s in scores {
            out.push_str(&cell(get(s, row).as_ref(), false));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// One case with its checks; `open` for what needs attention. A dynamics check that did not
/// pass is drawn under the table when it carries its series.
fn case_details(out: &mut String, r: &CaseResult, open: bool, with_reason: bool) {
    let _ = write!(
        out,
        "<details{}><summary><code>{}</code> <span class=\"st-{}\">{}</span>{}</summary>\n<table><tr><th>check</th><th>status</th><th>measured</th><th>recommended</th><th>allowed</th><th>decisions</th><th>message</th></tr>\n",
        if open { " open" } else { "" },
        escape(&r.case),
        r.status.as_str(),
        r.status.as_str(),
        r.known_failure
            .as_deref()
            .filter(|_| with_reason)
            .map(|k| format!(" (known: {})", inline_code(k)))
            .unwrap_or_default()
    );
    let opt = |x: Option<f64>| x.map(number).unwrap_or_default();
    for c in &r.checks {
        let _ = writeln!(
            out,
            "<tr><td><code>{}</code></td><td class=\"st-{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&c.check),
            c.status.as_str(),
            c.status.as_str(),
            opt(c.measured),
            opt(c.recommended),
            opt(c.allowed),
            escape(&c.decisions.join(" ")),
            escape(&c.message)
        );
    }
    out.push_str("</table>\n");
    for c in &r.checks {
        if let Some(svg) = super::chart::svg(c) {
            let _ = writeln!(
                out,
                "<p><code>{}</code> over time (<span class=\"st-{}\">{}</span>):</p>\n{svg}",
                escape(&c.check),
                c.status.as_str(),
                c.status.as_str()
            );
        }
    }
    out.push_str("</details>\n");
}

/// What needs attention, first: per implementation, its failures, unexpected passes and
/// harness errors, open.
fn attention(out: &mut String, run: &Run, scores: &[Scores]) {
    out.push_str("<h2>Needs attention</h2>\n");
    let mut any = false;
    for s in scores {
        let v = |k: Verdict| s.verdicts.get(&k).copied().unwrap_or(0);
        let (failed, unexpected, harness) = (
            v(Verdict::Failed),
            v(Verdict::UnexpectedPass),
            v(Verdict::HarnessError),
        );
        if failed + unexpected + harness == 0 {
            continue;
        }
        any = true;
        let parts: Vec<String> = [
            (failed, "failure(s)"),
            (
                unexpected,
                "unexpected pass(es): remove them from the known failures",
            ),
            (harness, "harness error(s): not counted"),
        ]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
        let _ = writeln!(
            out,
            "<h3>{}: {}</h3>",
            escape(&s.implementation),
            parts.join("; ")
        );
        for r in run.of(&s.implementation).filter(|r| {
            matches!(
                r.verdict,
                Verdict::Failed | Verdict::UnexpectedPass | Verdict::HarnessError
            )
        }) {
            case_details(out, r, true, true);
        }
    }
    if !any {
        let known: u32 = scores
            .iter()
            .map(|s| {
                s.verdicts
                    .get(&Verdict::ExpectedFailure)
                    .copied()
                    .unwrap_or(0)
            })
            .sum();
        out.push_str("<p>Nothing: every scored case passed or is a known failure");
        if known > 0 {
            let _ = write!(
                out,
                " ({known} known failure(s), each reason once at the end of this page)"
            );
        }
        out.push_str(".</p>\n");
    }
}

/// Known failures last: per implementation, each reason once with its cases (closed).
fn known_failures(out: &mut String, run: &Run, scores: &[Scores]) {
    for s in scores {
        let known: Vec<&CaseResult> = run
            .of(&s.implementation)
            .filter(|r| r.verdict == Verdict::ExpectedFailure)
            .collect();
        if known.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<h2>{}: known failures ({})</h2>",
            escape(&s.implementation),
            known.len()
        );
        // Reasons in order of first appearance, each once.
        let mut reasons: Vec<(&str, Vec<&CaseResult>)> = Vec::new();
        for r in known {
            let why = r.known_failure.as_deref().unwrap_or("");
            match reasons.iter_mut().find(|(w, _)| *w == why) {
                Some((_, v)) => v.push(r),
                None => reasons.push((why, vec![r])),
            }
        }
        for (why, cases) in reasons {
            let _ = writeln!(
                out,
                "<p class=\"reason\">{} ({} case(s)):</p>",
                inline_code(why),
                cases.len()
            );
            for r in cases {
                case_details(out, r, false, false);
            }
        }
    }
}

pub fn render(run: &Run) -> String {
    let scores = score::scores(run);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>physics-cts results</title><style>{STYLE}</style></head><body>\n<h1>physics-cts results</h1>\n<p>{} over <code>{}</code>, {:.1} s. Scores are passed/scored; NOT_SUPPORTED, SKIP, NOTRUN and HARNESS_ERROR are outside the denominators; informative cases are shown, never scored.</p>\n",
        escape(&run.suite),
        escape(&run.corpus),
        run.duration_ms as f64 / 1000.0
    );
    attention(&mut out, run, &scores);
    out.push_str("<h2>Scores</h2>\n<table><tr><th>implementation</th><th>engine</th><th>required</th><th>optional</th><th>informative (passed/cases)</th><th>failures</th><th>expected failures</th><th>unexpected passes</th></tr>\n");
    for (i, s) in run.implementations.iter().zip(&scores) {
        let v = |k: Verdict| s.verdicts.get(&k).copied().unwrap_or(0);
        let info = s.tier(Tier::Informative);
        let _ = writeln!(
            out,
            "<tr><td>{} {}</td><td>{}</td>{}{}<td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&i.name),
            escape(&i.version),
            escape(&i.engine),
            cell(s.total.get(&Tier::Required), false),
            cell(s.total.get(&Tier::Optional), false),
            info.passed,
            info.cases,
            v(Verdict::Failed),
            v(Verdict::ExpectedFailure),
            v(Verdict::UnexpectedPass)
        );
    }
    out.push_str("</table>\n");
    let m = Matrix::of(run);
    if let Some(m) = &m {
        interop(&mut out, m);
    }
    features(&mut out, &scores, m.as_ref());
    let areas: BTreeSet<String> = scores
        .iter()
        .flat_map(|s| s.areas.keys().cloned())
        .collect();
    matrix(
        &mut out,
        "Areas (required cases)",
        &areas,
        &scores,
        &|s, a| s.areas.get(a).and_then(|t| t.get(&Tier::Required)).cloned(),
    );
    if let Some(m) = &m {
        cases(&mut out, m);
    }
    known_failures(&mut out, run, &scores);
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::{escape, inline_code};

    #[test]
    fn backticks_become_code() {
        assert_eq!(
            inline_code("`SharedShape::cone` has <none> `x`"),
            "<code>SharedShape::cone</code> has &lt;none&gt; <code>x</code>"
        );
        assert_eq!(inline_code("a `b` c ` d"), "a <code>b</code> c ` d");
        assert_eq!(inline_code("plain"), "plain");
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }
}
