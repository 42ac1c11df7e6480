//! `physics-cts certify`: run one implementation over a corpus exactly as `physics-cts run`
//! does, into an empty folder, and make that folder a bundle anyone can check with
//! `physics-cts verify` (see [`crate::bundle`]).

use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, bail};

use super::run;
use crate::bundle::{self, CERTIFICATE, Certificate, CorpusClaim, EXPECTATIONS, FORMAT, Suite};

#[derive(Debug, clap::Args)]
#[group(skip)]
pub struct CertifyArgs {
    /// The options `physics-cts run` has too (exactly one `--impl` is certified).
    #[command(flatten)]
    pub run: run::RunOptions,
    /// The bundle folder: new or empty.
    #[arg(long)]
    pub out: std::path::PathBuf,
}

pub fn run(args: CertifyArgs) -> anyhow::Result<ExitCode> {
    let out = args.out.clone();
    if args.run.implementations.len() != 1 {
        bail!("certify takes exactly one --impl");
    }
    if std::fs::read_dir(&out).is_ok_and(|mut d| d.next().is_some()) {
        bail!(
            "{} is not empty: a bundle must hold only what certify writes",
            out.display()
        );
    }
    let corpus_path = args.run.cases.corpus.clone();
    let filter = args.run.cases.filter.clone();
    // Digest the corpus before the run, so a corpus whose files are not what its manifest
    // says is refused before any time is spent.
    let digest = bundle::corpus::digest(&corpus_path, filter.as_deref())
        .with_context(|| format!("digesting the corpus {}", corpus_path.display()))?;
    let run_args = run::RunArgs {
        options: args.run.clone(),
        out: Some(out),
        resume: None,
        shard: None,
    };
    let done = match run::execute_or_exit(&run_args)? {
        Ok(done) => done,
        // The external implementation cannot start here: its exit code stands, no bundle.
        Err(code) => return Ok(code),
    };
    let code = run::conclude(&done);
    let known_failures = done
        .known_failures
        .first()
        .and_then(|k| k.source.path().map(Path::to_path_buf));
    let (run, out) = (done.run, done.out);
    let certificate = Certificate {
        format: FORMAT.into(),
        suite: Suite::current(),
        implementations: run.implementations,
        corpus: CorpusClaim {
            path: bundle::corpus_path(&out, &corpus_path)
                .with_context(|| format!("locating the corpus {}", corpus_path.display()))?,
            hash: digest.hash,
            manifest_cases: digest.manifest_cases,
            filter,
        },
        cases: digest.cases,
    };
    write(&out.join(CERTIFICATE), certificate.render().as_bytes())?;
    if let Some(known_failures) = known_failures {
        let bytes = std::fs::read(&known_failures)
            .with_context(|| format!("reading {}", known_failures.display()))?;
        write(&out.join(EXPECTATIONS), &bytes)?;
    }
    let index = bundle::write_index(&out)?;
    println!(
        "bundle written to {} ({} files, {} cases, corpus {})",
        out.display(),
        index.files.len(),
        certificate.cases.len(),
        certificate.corpus.hash
    );
    Ok(code)
}

fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}
