//! `report.html`: one self-contained page (inline CSS, no script, no external asset) with the
//! scores, a feature-by-implementation matrix, an area-by-implementation matrix, and every
//! case that needs attention with its checks' measured values and tolerances.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::case::Tier;
use crate::report::number;
use crate::results::{CaseResult, Run, Verdict};
use crate::score::{self, Scores, Tally};

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
.st-QUALITY_WARNING{color:#9a6700}details{margin:.3em 0}";

fn cell(t: Option<&Tally>) -> String {
    match t {
        Some(t) if t.scored > 0 => {
            let class = if t.passed == t.scored {
                "full"
            } else if t.passed == 0 {
                "none"
            } else {
                "part"
            };
            format!("<td class=\"{class}\">{}</td>", escape(&t.display()))
        }
        Some(t) => format!("<td class=\"na\">0/0 of {}</td>", t.cases),
        None => "<td class=\"na\">-</td>".to_owned(),
    }
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
            out.push_str(&cell(get(s, row).as_ref()));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

fn case_details(out: &mut String, r: &CaseResult) {
    let _ = write!(
        out,
        "<details><summary><code>{}</code> <span class=\"st-{}\">{}</span>{}</summary>\n<table><tr><th>check</th><th>status</th><th>measured</th><th>recommended</th><th>allowed</th><th>decisions</th><th>message</th></tr>\n",
        escape(&r.case),
        r.status.as_str(),
        r.status.as_str(),
        r.known_failure
            .as_deref()
            .map(|k| format!(" (known: {})", escape(k)))
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
    out.push_str("</table></details>\n");
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
    out.push_str("<table><tr><th>implementation</th><th>engine</th><th>required</th><th>optional</th><th>informative (passed/cases)</th><th>failures</th><th>expected failures</th><th>unexpected passes</th></tr>\n");
    for (i, s) in run.implementations.iter().zip(&scores) {
        let v = |k: Verdict| s.verdicts.get(&k).copied().unwrap_or(0);
        let info = s.tier(Tier::Informative);
        let _ = writeln!(
            out,
            "<tr><td>{} {}</td><td>{}</td>{}{}<td>{}/{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&i.name),
            escape(&i.version),
            escape(&i.engine),
            cell(s.total.get(&Tier::Required)),
            cell(s.total.get(&Tier::Optional)),
            info.passed,
            info.cases,
            v(Verdict::Failed),
            v(Verdict::ExpectedFailure),
            v(Verdict::UnexpectedPass)
        );
    }
    out.push_str("</table>\n");
    if run.implementations.len() > 1 {
        let _ = writeln!(
            out,
            "<p>Interop: {} case(s) pass on every implementation.</p>",
            score::interop(run).len()
        );
    }
    let features: BTreeSet<String> = scores
        .iter()
        .flat_map(|s| s.features.keys().cloned())
        .collect();
    matrix(
        &mut out,
        "Features (required and optional cases)",
        &features,
        &scores,
        &|s, f| s.features.get(f).cloned(),
    );
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
    for s in &scores {
        let _ = writeln!(
            out,
            "<h2>{}: cases needing attention</h2>",
            escape(&s.implementation)
        );
        let mut any = false;
        for r in run.of(&s.implementation).filter(|r| {
            matches!(
                r.verdict,
                Verdict::Failed
                    | Verdict::UnexpectedPass
                    | Verdict::HarnessError
                    | Verdict::ExpectedFailure
            )
        }) {
            any = true;
            case_details(&mut out, r);
        }
        if !any {
            out.push_str("<p>None.</p>\n");
        }
    }
    out.push_str("</body></html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::escape;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }
}
