//! `physics-cts diff OLD NEW`: what changed between two runs (report folders or their
//! `results.ndjson`): fixed, broken, new crashes. Exit 1 when something broke or crashes now.

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;

use crate::report::{self, diff::Diff, ndjson};
use crate::results::Run;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The earlier run: a report folder or its results.ndjson.
    pub old: PathBuf,
    /// The later run.
    pub new: PathBuf,
}

fn read(path: &Path) -> anyhow::Result<Run> {
    let file = if path.is_dir() {
        path.join(report::NDJSON)
    } else {
        path.to_path_buf()
    };
    let f = std::fs::File::open(&file).with_context(|| format!("opening {}", file.display()))?;
    ndjson::read(BufReader::new(f))
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("reading {}", file.display()))
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let d = Diff::of(&read(&args.old)?, &read(&args.new)?);
    print!("{}", d.render());
    Ok(if d.regressed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
