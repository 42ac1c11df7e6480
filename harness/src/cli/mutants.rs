//! `physics-cts mutants`: the suite's own mutation score. For each bundled implementation with
//! seeded bugs ([`crate::mutants`]), run the corpus un-mutated (the control) and then once per
//! mutant, with the implementation's known failures, and write `summary.md` and
//! `summary.json`: which bugs the corpus catches and which survive, and why.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};

use super::run::CaseSelection;
use crate::case::Corpus;
use crate::known_failures::{self, KnownFailures};
use crate::mutant::Mutant;
use crate::mutants::{self, Control, MutantOutcome, Summary};
use crate::results::Run;
use crate::runner::{self, Entrant, Options as RunnerOptions};

#[derive(Debug, clap::Args)]
pub struct MutantsArgs {
    /// Implementation whose mutants run (repeat for several): `rapier`, `reference`. Default:
    /// both.
    #[arg(long = "impl", value_name = "NAME")]
    pub implementations: Vec<String>,
    /// Only these mutants (repeatable), by id; default every mutant of each implementation.
    #[arg(long = "mutant", value_name = "ID")]
    pub mutants: Vec<String>,
    #[command(flatten)]
    pub cases: CaseSelection,
    /// Output folder of `summary.md` and `summary.json`.
    #[arg(long, default_value = "reports/latest/mutants")]
    pub out: PathBuf,
    /// Implementation instances run in parallel per run.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Wall-time limit of one case, in seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
}

/// The runs of one implementation: the control, then each mutant.
struct MutantPlan {
    implementation: String,
    mutants: Vec<Mutant>,
    known: KnownFailures,
}

fn plans(
    args: &MutantsArgs,
    corpus_root: &Path,
    corpus_hash: &str,
) -> anyhow::Result<Vec<MutantPlan>> {
    let names: Vec<String> = if args.implementations.is_empty() {
        mutants::IMPLEMENTATIONS
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    } else {
        args.implementations.clone()
    };
    let mut chosen = Vec::new();
    for id in &args.mutants {
        chosen.push(Mutant::parse(id)?);
    }
    let mut out = Vec::new();
    for name in names {
        if !mutants::IMPLEMENTATIONS.contains(&name.as_str()) {
            bail!(
                "implementation {name:?} has no seeded bugs; those that have: {}",
                mutants::IMPLEMENTATIONS.join(", ")
            );
        }
        let ms: Vec<Mutant> = Mutant::of(&name)
            .into_iter()
            .filter(|m| chosen.is_empty() || chosen.contains(m))
            .collect();
        if ms.is_empty() {
            continue;
        }
        let known = KnownFailures::find(
            corpus_root,
            corpus_hash,
            &name,
            None,
            Path::new(known_failures::DEPRECATED_DIR),
        )?
        .failures;
        out.push(MutantPlan {
            implementation: name,
            mutants: ms,
            known,
        });
    }
    if out.is_empty() {
        bail!("no mutant of the named implementations is selected");
    }
    Ok(out)
}

/// Run the corpus once on `implementation` with `mutant`.
fn one_run(
    corpus: &Corpus,
    label: &str,
    entries: &[&crate::case::CaseEntry],
    plan: &MutantPlan,
    mutant: Option<Mutant>,
    options: RunnerOptions,
) -> anyhow::Result<Run> {
    let factory = crate::bundled::mutated(&plan.implementation, mutant)
        .with_context(|| format!("no factory for {}", plan.implementation))?;
    let entrant = Entrant {
        name: plan.implementation.clone(),
        factory,
        known_failures: plan.known.clone(),
    };
    Ok(runner::run_matrix(
        corpus,
        label,
        entries,
        &[entrant],
        options,
        &mut |_| {},
        &mut |_| {},
    ))
}

/// Run every selected mutant and write the summaries.
pub fn run(args: MutantsArgs) -> anyhow::Result<ExitCode> {
    let started = Instant::now();
    if args.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let deadline = Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|d| !d.is_zero())
        .context("--timeout must be a positive number of seconds")?;
    let (corpus, corpus_hash) = args.cases.open()?;
    let plans = plans(&args, &args.cases.corpus, &corpus_hash)?;
    let entries = args.cases.select(&corpus)?;
    let options = RunnerOptions {
        deadline,
        jobs: args.jobs,
        ..RunnerOptions::default()
    };
    let label = args.cases.corpus.display().to_string();
    let mut controls = Vec::new();
    let mut outcomes: Vec<MutantOutcome> = Vec::new();
    for plan in &plans {
        let control = one_run(&corpus, &label, &entries, plan, None, options)?;
        let c = Control::of(&plan.implementation, &control);
        eprintln!(
            "physics-cts: {} un-mutated: {} case(s), {} failed, {} known failure(s)",
            c.implementation, c.cases, c.failed, c.known_failures
        );
        controls.push(c);
        for &m in &plan.mutants {
            let mutated = one_run(&corpus, &label, &entries, plan, Some(m), options)?;
            let o = mutants::outcome(m, &plan.implementation, &control, &mutated);
            eprintln!(
                "physics-cts: {} {}: {} ({} scored failure(s))",
                o.implementation,
                o.mutant,
                if o.caught { "caught" } else { "SURVIVES" },
                o.scored_failures
            );
            outcomes.push(o);
        }
    }
    let summary = Summary::new(
        &format!("physics-cts {}", env!("CARGO_PKG_VERSION")),
        &label,
        controls,
        outcomes,
        started.elapsed().as_millis() as u64,
    );
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let md = args.out.join("summary.md");
    std::fs::write(&md, summary.markdown()).with_context(|| format!("writing {}", md.display()))?;
    let json = args.out.join("summary.json");
    let text = serde_json::to_string_pretty(&summary).context("serialising the summary")?;
    std::fs::write(&json, text + "\n").with_context(|| format!("writing {}", json.display()))?;
    println!("{}", summary.score_line());
    for m in summary.mutants.iter().filter(|m| !m.caught) {
        println!("  survives: {} ({})", m.mutant, m.description);
    }
    println!("reports written to {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
