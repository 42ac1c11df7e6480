//! `physics-cts fuzz`: search an implementation live with scenes drawn from the generator's
//! strategies, shrink the first failure of each check kind, and write each as a case folder
//! ([`crate::fuzz`]).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use reference::profile::Profile;

use crate::bundled;
use crate::external;
use crate::fuzz::probe::Symptom;
use crate::fuzz::report::{Counts, FuzzSummary};
use crate::fuzz::{self, Budget, Progress, SearchLimit, Settings};
use crate::mutant::Mutant;
use crate::runner::Options as RunnerOptions;

#[derive(Debug, clap::Args)]
pub struct FuzzArgs {
    /// The implementation: a bundled one, a named external one, or `stdio` with its command
    /// after `--`.
    #[arg(long = "impl", value_name = "NAME", default_value = "rapier")]
    pub implementation: String,
    /// Draw only these profiles (repeatable); default every profile the implementation
    /// declares.
    #[arg(long = "profile", value_name = "ID")]
    pub profiles: Vec<Profile>,
    /// Search for this long (`90s`, `10m`, `1h`, or seconds); default 60s unless `--cases`.
    #[arg(long, value_parser = duration)]
    pub time: Option<Duration>,
    /// Search this many scenes (the search is then the same on every machine).
    #[arg(long, value_name = "N")]
    pub cases: Option<u64>,
    /// The seed of the draws: the same seed, implementation and `--cases` give the same
    /// findings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder; default `reports/latest/fuzz/<impl>` (its earlier findings are replaced).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Implementation instances run in parallel.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Run the bundled implementation with this seeded bug (`physics-cts mutants`' ids): a
    /// failure counts only where the implementation without it passes the case.
    #[arg(long, value_name = "ID")]
    pub mutant: Option<String>,
    /// Candidates run at most while shrinking one finding.
    #[arg(long, default_value_t = 2000, value_name = "N")]
    pub shrink_steps: u32,
    /// Time spent at most shrinking one finding.
    #[arg(long, value_parser = duration, default_value = "120s")]
    pub shrink_time: Duration,
    /// Wall-time limit of one case, in seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// Scale every deadline (of a case, and of each request to a `stdio` implementation).
    #[arg(long, default_value_t = 1.0)]
    pub timeout_multiplier: f64,
    /// With `--impl stdio`: the implementation's command and arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<OsString>,
}

/// `90s`, `10m`, `1h` or a number of seconds.
fn duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (number, unit) = match s.char_indices().last() {
        Some((i, 's')) => (&s[..i], 1.0),
        Some((i, 'm')) => (&s[..i], 60.0),
        Some((i, 'h')) => (&s[..i], 3600.0),
        _ => (s, 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite() && *v > 0.0)
        .map(|v| Duration::from_secs_f64(v * unit))
        .ok_or_else(|| format!("{s:?} is not a duration (e.g. 90s, 10m, 1h, or seconds)"))
}

/// A progress bar on standard error (hidden when it is not a terminal).
struct Bar(ProgressBar);

impl Progress for Bar {
    fn drawn(&self, counts: &Counts, symptoms: usize) {
        self.0.set_position(counts.draws);
        self.0.set_message(format!(
            "{} passed, {} failed, {} not supported; {symptoms} symptom(s)",
            counts.passed, counts.failed, counts.not_supported
        ));
    }

    fn shrinking(&self, symptom: &Symptom) {
        self.0.println(format!("shrinking {symptom}"));
    }
}

pub fn run(args: FuzzArgs) -> anyhow::Result<ExitCode> {
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    if args.time.is_some() && args.cases.is_some() {
        bail!("--time and --cases both bound the search: give one");
    }
    let mutant = args.mutant.as_deref().map(Mutant::parse).transpose()?;
    let (factory, control) = match mutant {
        Some(m) => {
            let with = bundled::mutated(&args.implementation, Some(m)).with_context(|| {
                format!(
                    "{:?} has no seeded bug {}; bugs are seeded in {}",
                    args.implementation,
                    m.id(),
                    m.implementations().join(", ")
                )
            })?;
            (with, bundled::mutated(&args.implementation, None))
        }
        None => match super::run::factory_of(
            &args.implementation,
            &args.command,
            args.timeout_multiplier,
        ) {
            Ok(f) => (f, None),
            Err(e) if e.downcast_ref::<external::Unavailable>().is_some() => {
                eprintln!("physics-cts: error: {e:#}");
                return Ok(ExitCode::from(crate::exit::UNAVAILABLE));
            }
            Err(e) => return Err(e),
        },
    };
    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports/latest/fuzz").join(match mutant {
            Some(m) => format!("{}-{}", args.implementation, m.id()),
            None => args.implementation.clone(),
        })
    });
    let limit = SearchLimit {
        time: args
            .time
            .or_else(|| args.cases.is_none().then_some(Duration::from_secs(60))),
        draws: args.cases,
    };
    let settings = Settings {
        implementation: args.implementation.clone(),
        factory,
        control,
        profiles: args.profiles.clone(),
        limit,
        seed: args.seed,
        jobs: args.jobs.max(1),
        shrink: Budget {
            steps: args.shrink_steps,
            time: args.shrink_time,
        },
        runner: RunnerOptions {
            deadline: Duration::from_secs_f64(args.timeout * args.timeout_multiplier),
            // A search runs until its limit: a crash is a finding, not a reason to stop.
            restart_budget: u32::MAX - 1,
            jobs: 1,
        },
        work: out.join(".work"),
    };
    let bar = match args.cases {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::no_length(),
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} {pos} scenes {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let bar = Bar(bar);
    let outcome = fuzz::fuzz(&settings, &bar)?;
    bar.0.finish_and_clear();
    let mut summary = FuzzSummary {
        implementation: args.implementation.clone(),
        mutant: mutant.map(|m| m.id().to_owned()),
        seed: args.seed,
        profiles: outcome.profiles.iter().map(|p| p.id().to_owned()).collect(),
        command: search_command(&args, outcome.counts.draws),
        counts: outcome.counts,
        search_s: crate::fuzz::report::seconds(outcome.search_time),
        first: outcome.first,
        findings: outcome.findings.iter().map(|f| f.finding.clone()).collect(),
        disagreements: outcome.disagreements,
    };
    let cases: Vec<_> = outcome
        .findings
        .into_iter()
        .map(|f| (f.original, f.shrunk))
        .collect();
    crate::fuzz::report::write(&out, &mut summary, &cases, &|dir| {
        repro_command(&args, mutant, dir)
    })
    .with_context(|| format!("writing the findings into {}", out.display()))?;
    print!("{}", summary.markdown());
    println!("findings written to {}", out.display());
    Ok(if summary.confirmed() > 0 {
        ExitCode::from(crate::exit::FAILURES)
    } else {
        ExitCode::SUCCESS
    })
}

/// The command that repeats the search draw for draw: the same draws, bounded by count.
fn search_command(args: &FuzzArgs, draws: u64) -> String {
    let mut c = format!(
        "physics-cts fuzz --impl {} --seed {} --cases {draws}",
        args.implementation, args.seed
    );
    for p in &args.profiles {
        c.push_str(&format!(" --profile {}", p.id()));
    }
    if let Some(m) = &args.mutant {
        c.push_str(&format!(" --mutant {m}"));
    }
    c.push_str(&command_tail(&args.command));
    c
}

/// The command that runs a finding's case: `run` on it, or, with a seeded bug, `mutants`
/// (which runs it with and without the bug).
fn repro_command(args: &FuzzArgs, mutant: Option<Mutant>, dir: &Path) -> String {
    match mutant {
        Some(m) => format!(
            "physics-cts mutants --impl {} --mutant {} --corpus {}",
            args.implementation,
            m.id(),
            dir.display()
        ),
        None => format!(
            "physics-cts run --impl {} --corpus {}{}",
            args.implementation,
            dir.display(),
            command_tail(&args.command)
        ),
    }
}

fn command_tail(command: &[OsString]) -> String {
    if command.is_empty() {
        return String::new();
    }
    let words: Vec<String> = command
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    format!(" -- {}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_with_their_unit() {
        assert_eq!(duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(duration("1h"), Ok(Duration::from_secs(3600)));
        assert_eq!(duration("2.5"), Ok(Duration::from_millis(2500)));
        assert!(duration("soon").is_err());
        assert!(duration("-3s").is_err());
        assert!(duration("0").is_err());
        assert!(duration("").is_err());
    }
}
