//! `physics-cts verify`: check a bundle written by `physics-cts certify` (see
//! [`crate::bundle::verify`]). Exit 0 valid, 1 a check failed (each failure printed with its
//! code), 2 a usage problem (no such folder, the corpus cannot be read).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use crate::bundle::verify::{CorpusSource, verify};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The bundle folder.
    pub dir: PathBuf,
    /// The corpus to check the bundle against; default: the path its certificate records.
    #[arg(long)]
    pub corpus: Option<PathBuf>,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    if !args.dir.is_dir() {
        bail!("{} is not a folder", args.dir.display());
    }
    let source = args
        .corpus
        .as_deref()
        .map_or(CorpusSource::Recorded, CorpusSource::Given);
    let outcome = verify(&args.dir, source)?;
    for f in &outcome.failures {
        println!("{f}");
    }
    if outcome.failures.is_empty() {
        println!(
            "{}: valid bundle ({} files, {} cases)",
            args.dir.display(),
            outcome.files,
            outcome.cases
        );
        Ok(ExitCode::SUCCESS)
    } else {
        println!(
            "{}: INVALID bundle, {} failed check(s)",
            args.dir.display(),
            outcome.failures.len()
        );
        Ok(ExitCode::from(1))
    }
}
