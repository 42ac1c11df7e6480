//! Reports of a run, written into one output folder: `results.ndjson` (streamed as the run
//! goes, [`ndjson`]), then `summary.json`, `results.csv`, `junit.xml`, `summary.md` and a
//! self-contained `report.html`. Each format is a pure function of the [`Run`] (golden-tested);
//! [`diff`] compares two runs.

pub mod chart;
pub mod csv;
pub mod diff;
pub mod html;
pub mod junit;
pub mod markdown;
pub mod ndjson;
pub mod summary;

use std::path::Path;

use crate::results::Run;

/// The file names of the reports.
pub const NDJSON: &str = "results.ndjson";
pub const SUMMARY_JSON: &str = "summary.json";
pub const CSV: &str = "results.csv";
pub const JUNIT: &str = "junit.xml";
pub const MARKDOWN: &str = "summary.md";
pub const HTML: &str = "report.html";

/// Every report but the NDJSON log, by file name, rendered from `run`: the one list that
/// [`write_summaries`] writes and `verify` renders again to compare.
pub fn summaries(run: &Run) -> [(&'static str, std::io::Result<String>); 5] {
    [
        (SUMMARY_JSON, Ok(summary::render(run))),
        (CSV, csv::render(run)),
        (JUNIT, junit::render(run)),
        (MARKDOWN, Ok(markdown::render(run))),
        (HTML, Ok(html::render(run))),
    ]
}

/// Write every report but the NDJSON log (streamed by the runner) into `dir`.
pub fn write_summaries(dir: &Path, run: &Run) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (name, text) in summaries(run) {
        std::fs::write(dir.join(name), text?)?;
    }
    Ok(())
}

/// A number as reports print it: up to 6 significant decimals, no trailing zeros.
pub fn number(x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if x != 0.0 && (x.abs() < 1e-4 || x.abs() >= 1e7) {
        return format!("{x:.3e}");
    }
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.to_owned() }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_print_short_and_stable() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(0.0123456789), "0.012346");
        assert_eq!(number(2e-6), "2.000e-6");
        assert_eq!(number(-0.0), "0");
        assert_eq!(number(f64::INFINITY), "inf");
        assert_eq!(number(f64::NAN), "NaN");
        assert_eq!(number(12345.0), "12345");
    }
}
