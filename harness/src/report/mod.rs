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
