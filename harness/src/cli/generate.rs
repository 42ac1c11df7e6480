//! `physics-cts generate`: write a corpus (hand-written cases plus `--count` generated ones for
//! `--seed`) into `--out`. Same seed and generator version: byte-identical output.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use generator::corpus::{self, Plan};
use reference::profile::Profile;

/// Arguments of `physics-cts generate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Seed of the generated cases.
    #[arg(long)]
    pub seed: u64,
    /// Number of generated cases (every fourth one is invalid, with exactly one defect).
    #[arg(long)]
    pub count: usize,
    /// Output folder (created when missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Generate only these profiles (repeatable); default: the corpus/v1 profiles
    /// (khr-2024-draft, omi-2023, vrmc-constraints-draft).
    #[arg(long = "profile")]
    pub profiles: Vec<Profile>,
    /// Leave out the hand-written cases.
    #[arg(long)]
    pub no_handwritten: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let plan = Plan {
        seed: args.seed,
        count: args.count,
        profiles: args.profiles,
        handwritten: !args.no_handwritten,
    };
    let cases = corpus::cases(&plan);
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(cases.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} cases {elapsed}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    });
    let report = corpus::write(&args.out, plan.seed, &cases, &mut |done, _| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
    })
    .with_context(|| format!("writing the corpus into {}", args.out.display()))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let invalid = cases.iter().filter(|c| !c.valid()).count();
    println!(
        "wrote {} cases ({} valid, {} invalid) into {} (seed {}, generator {})",
        report.written,
        report.written - invalid,
        invalid,
        args.out.display(),
        plan.seed,
        generator::VERSION
    );
    if report.disagreements.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "{} cases disagree with the reference:",
        report.disagreements.len()
    );
    for d in &report.disagreements {
        eprintln!("  {d}");
    }
    Ok(ExitCode::from(1))
}
