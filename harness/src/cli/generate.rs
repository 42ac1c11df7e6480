//! `physics-cts generate`: write a corpus (hand-written cases plus `--count` generated ones for
//! `--seed`) into `--out`. Same seed and generator version: byte-identical output.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use generator::corpus::{self, Edition, Plan};
use reference::profile::Profile;

/// Arguments of `physics-cts generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Seed of the generated cases.
    #[arg(long)]
    pub seed: u64,
    /// Number of generated cases (every fourth one is invalid, with exactly one defect).
    #[arg(long)]
    pub count: usize,
    /// Output folder (created when missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Generate only these profiles (repeatable), or `all` (corpus/v2); default: the corpus/v1
    /// profiles (khr-2024-draft, omi-2023, vrmc-constraints-draft).
    #[arg(long = "profile")]
    pub profiles: Vec<ProfileArg>,
    /// Leave out the hand-written cases.
    #[arg(long)]
    pub no_handwritten: bool,
    /// The generation rules: `v1` (corpus/v1's, which never change) or `v2` (the living
    /// corpus's). Default: `v1` when no `--profile` is named (the plan of corpus/v1), else `v2`.
    #[arg(long, value_parser = edition)]
    pub edition: Option<Edition>,
    /// Write into a folder that is not empty: everything in it but `known-failures/` and
    /// `README.md` (written by hand) is removed first (a stale case beside the new manifest would
    /// be read as part of it).
    #[arg(long)]
    pub force: bool,
}

/// A `--profile` value: a profile id, or `all` for every profile.
#[derive(Clone, Debug)]
pub enum ProfileArg {
    All,
    One(Profile),
}

impl std::str::FromStr for ProfileArg {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "all" {
            Ok(Self::All)
        } else {
            s.parse()
                .map(Self::One)
                .map_err(|e| format!("{e} (or `all`)"))
        }
    }
}

fn edition(s: &str) -> Result<Edition, String> {
    Edition::parse(s).ok_or_else(|| format!("unknown edition `{s}` (v1 or v2)"))
}

/// The profiles `--profile` names, each once, in [`Profile::ALL`] order.
fn profiles(args: &[ProfileArg]) -> Vec<Profile> {
    Profile::ALL
        .into_iter()
        .filter(|p| {
            args.iter()
                .any(|a| matches!(a, ProfileArg::All) || matches!(a, ProfileArg::One(q) if q == p))
        })
        .collect()
}

/// What a corpus carries over from one generation to the next: what people wrote there.
const KEPT: [&str; 2] = [crate::known_failures::DIR, "README.md"];

/// What `--out` holds besides what a corpus carries over from one generation to the next
/// ([`KEPT`]).
fn contents(dir: &std::path::Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    match std::fs::read_dir(dir) {
        Ok(entries) => {
            let mut v = Vec::new();
            for e in entries {
                let e = e?;
                if !KEPT.iter().any(|k| e.file_name() == *k) {
                    v.push(e.path());
                }
            }
            v.sort();
            Ok(v)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e),
    }
}

pub fn run(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let plan = Plan {
        seed: args.seed,
        count: args.count,
        profiles: profiles(&args.profiles),
        handwritten: !args.no_handwritten,
        edition: args.edition.unwrap_or(if args.profiles.is_empty() {
            Edition::V1
        } else {
            Edition::V2
        }),
    };
    let stale = contents(&args.out).with_context(|| format!("reading {}", args.out.display()))?;
    if !stale.is_empty() {
        if !args.force {
            anyhow::bail!(
                "{} is not empty ({} entries, e.g. {}): generate into a new or empty folder, or pass --force to replace its contents (known-failures/ and README.md are kept)",
                args.out.display(),
                stale.len(),
                stale[0].display()
            );
        }
        for p in &stale {
            let removed = if p.is_dir() && !p.is_symlink() {
                std::fs::remove_dir_all(p)
            } else {
                std::fs::remove_file(p)
            };
            removed.with_context(|| format!("--force: removing {}", p.display()))?;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(values: &[&str]) -> Vec<ProfileArg> {
        values
            .iter()
            .map(|v| v.parse().expect("a profile"))
            .collect()
    }

    #[test]
    fn profiles_are_every_named_one_once_in_catalogue_order() {
        // The order given and repeats do not change the plan (nor so the corpus bytes).
        assert_eq!(
            profiles(&args(&["omi-2023", "khr-2024-draft", "omi-2023"])),
            vec![Profile::Khr2024Draft, Profile::Omi2023]
        );
        assert_eq!(profiles(&args(&["all"])), Profile::ALL.to_vec());
        assert_eq!(profiles(&args(&["khr-2025", "all"])), Profile::ALL.to_vec());
        assert_eq!(profiles(&[]), Vec::<Profile>::new());
        let err = "khr-2027".parse::<ProfileArg>().expect_err("unknown");
        assert!(err.contains("khr-2027") && err.contains("`all`"), "{err}");
    }
}
