//! `results.csv`: one row per case x check, with the case's status and verdict repeated so
//! any row can be filtered alone.

use crate::results::Run;
use crate::text::number;

pub const HEADER: [&str; 15] = [
    "implementation",
    "case",
    "profile",
    "area",
    "tier",
    "case_status",
    "verdict",
    "known_failure",
    "check",
    "status",
    "measured",
    "recommended",
    "allowed",
    "decisions",
    "message",
];

/// A text cell a spreadsheet will not run as a formula: one that starts with `=`, `+`, `-`, `@`,
/// a tab or a carriage return gets a leading `'` (OWASP's advice for CSV injection). Case ids,
/// messages and reasons come from corpora and implementations the user may not trust; the
/// numeric columns are written by [`number`] and left as they are.
fn text(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

pub fn render(run: &Run) -> std::io::Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    let opt = |x: Option<f64>| x.map(number).unwrap_or_default();
    for r in &run.results {
        for c in &r.checks {
            let decisions = c.decisions.join(" ");
            let row: [std::borrow::Cow<'_, str>; 15] = [
                text(&r.implementation),
                text(&r.case),
                text(&r.profile),
                text(&r.area),
                r.tier.as_str().into(),
                r.status.as_str().into(),
                r.verdict.as_str().into(),
                text(r.known_failure.as_deref().unwrap_or("")),
                text(&c.check),
                c.status.as_str().into(),
                opt(c.measured).into(),
                opt(c.recommended).into(),
                opt(c.allowed).into(),
                text(&decisions),
                text(&c.message),
            ];
            w.write_record(row.iter().map(|cell| cell.as_bytes()))?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::text;

    #[test]
    fn formula_cells_are_neutralised_and_others_kept() {
        assert_eq!(
            text("=HYPERLINK(\"http://x\")"),
            "'=HYPERLINK(\"http://x\")"
        );
        assert_eq!(text("+1"), "'+1");
        assert_eq!(text("-2+3"), "'-2+3");
        assert_eq!(text("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(text("\tx"), "'\tx");
        assert_eq!(text("khr/gen/joint/00001"), "khr/gen/joint/00001");
        assert_eq!(text(""), "");
    }
}
