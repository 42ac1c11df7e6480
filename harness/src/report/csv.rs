//! `results.csv`: one row per case x check, with the case's status and verdict repeated so
//! any row can be filtered alone.

use crate::report::number;
use crate::results::Run;

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

pub fn render(run: &Run) -> std::io::Result<String> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record(HEADER)?;
    let opt = |x: Option<f64>| x.map(number).unwrap_or_default();
    for r in &run.results {
        for c in &r.checks {
            w.write_record([
                r.implementation.as_str(),
                &r.case,
                &r.profile,
                &r.area,
                r.tier.as_str(),
                r.status.as_str(),
                r.verdict.as_str(),
                r.known_failure.as_deref().unwrap_or(""),
                &c.check,
                c.status.as_str(),
                &opt(c.measured),
                &opt(c.recommended),
                &opt(c.allowed),
                &c.decisions.join(" "),
                &c.message,
            ])?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
