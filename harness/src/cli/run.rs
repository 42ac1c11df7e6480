//! `physics-cts run`: run implementations (bundled, named external, or `stdio`) over a corpus
//! and write the reports.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bundled;
use crate::case::{Corpus, Tier};
use crate::expectations::Expectations;
use crate::external;
use crate::report::{self, ndjson};
use crate::results::{CaseResult, Run, Verdict};
use crate::runner::{self, Entrant, Options};
use crate::score;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Implementation to run (repeat for a matrix): a bundled one (in process), a named external
    /// one (`physx`: Node, needs `npm ci` in harness/adapters/physx-node; `three-vrm`: Node,
    /// VRM 1.0 node constraints, needs `npm ci` in harness/adapters/three-vrm-node), or `stdio`.
    #[arg(long = "impl", value_name = "NAME", default_value = "rapier")]
    pub implementations: Vec<String>,
    /// The corpus folder (with manifest.json).
    #[arg(long, default_value = "corpus/v1")]
    pub corpus: PathBuf,
    /// Output folder; default `reports/<impl>` for one implementation, `reports/interop` for
    /// several.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Only cases whose id matches (a glob with `*` / `?`, else a substring).
    #[arg(long)]
    pub filter: Option<String>,
    /// Folder of the `<impl>.toml` known-failure files.
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/expectations"))]
    pub expectations: PathBuf,
    /// Wall-time limit of one case, in seconds.
    #[arg(long, default_value_t = 30.0)]
    pub timeout: f64,
    /// Scale every deadline (of a case, and of each request to a `stdio` implementation).
    #[arg(long, default_value_t = 1.0)]
    pub timeout_multiplier: f64,
    /// Implementation instances run in parallel (processes for `stdio`), each with its own
    /// restart budget; cases go to the next free one. Reports are the same as with 1.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Continue the interrupted run whose reports are in OUT: keep the cases its
    /// `results.ndjson` finished, run the rest, write the reports. Refused (exit 2) when OUT's
    /// run was of another corpus, implementation set, command or filter.
    #[arg(long, value_name = "OUT")]
    pub resume: Option<PathBuf>,
    /// With `--impl stdio`: the implementation's command and arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<std::ffi::OsString>,
}

/// The factory of an implementation named on the command line: a bundled one, or `stdio`
/// (a child process speaking the protocol, started with `command`).
fn factory_of(name: &str, args: &Args) -> anyhow::Result<runner::Factory> {
    if name == "stdio" {
        let Some((program, rest)) = args.command.split_first() else {
            bail!("--impl stdio needs the implementation's command after `--`");
        };
        let config = crate::adapters::stdio::StdioConfig::new(program.clone(), rest.to_vec())
            .scale_timeouts(args.timeout_multiplier);
        return Ok(std::sync::Arc::new(move || {
            Box::new(crate::adapters::stdio::StdioImplementation::new(
                config.clone(),
            )) as Box<dyn crate::implementation::Implementation + Send>
        }));
    }
    if let Some(f) = bundled::factory(name) {
        return Ok(f);
    }
    match external::factory(name, args.timeout_multiplier) {
        Some(Ok(f)) => Ok(f),
        Some(Err(e)) => Err(e.into()),
        None => bail!(
            "unknown implementation {name:?}; bundled: {}; external: {}; or stdio -- CMD ARGS...",
            bundled::names().join(", "),
            external::names().join(", ")
        ),
    }
}

/// Run, write every report, print the summary table; exit 0 when every required case
/// passed or is a known failure, else 1.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    Ok(match execute_or_exit(&args)? {
        Ok((run, out)) => conclude(&run, &out),
        Err(code) => code,
    })
}

/// [`execute`], with a named external implementation that cannot start here turned into its
/// own exit code (said on stderr).
pub fn execute_or_exit(args: &Args) -> anyhow::Result<Result<(Run, PathBuf), ExitCode>> {
    match execute(args) {
        Ok(done) => Ok(Ok(done)),
        Err(e) if e.downcast_ref::<external::Unavailable>().is_some() => {
            eprintln!("physics-cts: error: {e:#}");
            Ok(Err(ExitCode::from(external::EXIT_UNAVAILABLE)))
        }
        Err(e) => Err(e),
    }
}

/// Print the summary table and where the reports are: exit 0 when every required case
/// passed or is a known failure, else 1.
pub fn conclude(run: &Run, out: &std::path::Path) -> ExitCode {
    print!("{}", summary_table(run));
    println!("reports written to {}", out.display());
    if run.required_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Run with `args` and write every report (for `run` and the commands built on it): the
/// run and the folder the reports are in. Nothing is printed on stdout.
pub fn execute(args: &Args) -> anyhow::Result<(Run, PathBuf)> {
    let mut entrants = Vec::new();
    for name in &args.implementations {
        let factory = factory_of(name, args)?;
        let expectations = Expectations::load(&args.expectations, name)?;
        entrants.push(Entrant {
            name: name.clone(),
            factory,
            expectations,
        });
    }
    if !(args.timeout > 0.0 && args.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    if !(args.timeout_multiplier > 0.0 && args.timeout_multiplier.is_finite()) {
        bail!("--timeout-multiplier must be a positive number");
    }
    if args.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let corpus = Corpus::open(&args.corpus)
        .with_context(|| format!("opening the corpus {}", args.corpus.display()))?;
    let entries = corpus.filtered(args.filter.as_deref());
    if entries.is_empty() {
        bail!(
            "no case of {} matches the filter {:?}",
            args.corpus.display(),
            args.filter.as_deref().unwrap_or("")
        );
    }
    let out = match (&args.resume, &args.out) {
        (Some(r), Some(o)) if r != o => {
            bail!(
                "--resume {} and --out {} name different folders",
                r.display(),
                o.display()
            )
        }
        (Some(r), _) => r.clone(),
        (None, Some(o)) => o.clone(),
        (None, None) => default_out(&args.implementations),
    };
    let key = ndjson::RunKey {
        corpus_sha256: corpus
            .fingerprint(&entries)
            .with_context(|| format!("hashing the corpus {}", args.corpus.display()))?,
        implementations: args.implementations.clone(),
        command: args
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        filter: args.filter.clone(),
    };
    let log_path = out.join(report::NDJSON);
    let done = match &args.resume {
        Some(_) => resumable(&log_path, &key)?,
        None => Vec::new(),
    };
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    // The log is written whole (header, kept cases) into a temporary file that then replaces
    // the old one, so a run killed while resuming still leaves the kept cases.
    let partial = out.join(format!("{}.partial", report::NDJSON));
    let log = std::fs::File::create(&partial)
        .with_context(|| format!("creating {}", partial.display()))?;
    let log = ndjson::Writer::new(std::io::BufWriter::new(log));
    // Both callbacks write the log: share it through a RefCell.
    let log = std::cell::RefCell::new((log, None::<std::io::Error>));
    let record = |result: std::io::Result<()>| {
        if let Err(e) = result {
            log.borrow_mut().1.get_or_insert(e);
        }
    };

    let total = (entries.len() * entrants.len()) as u64;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(total);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} {msg}")
        {
            b.set_style(style);
        }
        b.inc(done.len() as u64);
        Some(b)
    } else {
        None
    };
    let deadline =
        Duration::try_from_secs_f64(args.timeout * args.timeout_multiplier).map_err(|e| {
            anyhow::anyhow!(
                "--timeout {} x --timeout-multiplier {}: not a usable deadline ({e})",
                args.timeout,
                args.timeout_multiplier
            )
        })?;
    let options = Options {
        deadline,
        jobs: args.jobs,
        ..Options::default()
    };
    let label = args.corpus.display().to_string();
    let suite = format!("physics-cts {}", env!("CARGO_PKG_VERSION"));
    let kept = done.clone();
    let run = runner::resume_matrix(
        &corpus,
        &label,
        &entries,
        &entrants,
        options,
        done,
        &mut |infos| {
            let mut l = log.borrow_mut();
            let mut r =
                l.0.line(&ndjson::keyed_header(&suite, &label, infos, key.clone()));
            for k in &kept {
                r = r.and_then(|()| l.0.case(k));
            }
            r = r
                .and_then(|()| l.0.flush())
                .and_then(|()| std::fs::rename(&partial, &log_path));
            drop(l);
            record(r);
        },
        &mut |r| {
            let w = log.borrow_mut().0.case(r);
            record(w);
            if let Some(b) = &bar {
                b.set_message(format!("{} {}", r.implementation, r.case));
                b.inc(1);
            }
        },
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let (mut log, io_error) = log.into_inner();
    if let Some(e) = io_error {
        return Err(e).with_context(|| format!("writing {}", log_path.display()));
    }
    log.line(&ndjson::footer(&run))
        .and_then(|()| log.into_inner().flush())
        .with_context(|| format!("writing {}", log_path.display()))?;
    report::write_summaries(&out, &run)
        .with_context(|| format!("writing reports into {}", out.display()))?;

    for e in &entrants {
        let ids: Vec<&str> = entries.iter().map(|c| c.id.as_str()).collect();
        for k in e.expectations.unused(&ids) {
            eprintln!(
                "physics-cts: note: {} expectations entry {:?} matches no case run",
                e.name, k.case
            );
        }
    }
    Ok((run, out))
}

/// The finished cases of the log at `path`, if its run is the one `key` describes.
fn resumable(path: &std::path::Path, key: &ndjson::RunKey) -> anyhow::Result<Vec<CaseResult>> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("--resume: cannot open {}", path.display()))?;
    let log = ndjson::read_log(std::io::BufReader::new(file))
        .map_err(|e| anyhow::anyhow!("--resume: {}: {e}", path.display()))?;
    let Some(was) = &log.key else {
        bail!(
            "--resume: {} has no run key (not a log of this version's `run`, or cut before its header)",
            path.display()
        );
    };
    if let Some(why) = was.mismatch(key) {
        bail!("--resume: {} is of another run: {why}", path.display());
    }
    Ok(log.run.results)
}

/// The default output folder: `reports/<impl>` for one implementation, `reports/interop` for
/// several (the side-by-side run, whichever implementations it has).
pub fn default_out(implementations: &[String]) -> PathBuf {
    match implementations {
        [one] => PathBuf::from("reports").join(one),
        _ => PathBuf::from("reports").join("interop"),
    }
}

/// The table printed at the end of a run.
pub fn summary_table(run: &Run) -> String {
    let scores = score::scores(run);
    let mut out = format!(
        "{:<12} {:>22} {:>22} {:>14} {:>8} {:>8} {:>8} {:>8}\n",
        "impl", "required", "optional", "informative", "failed", "xfail", "xpass", "harness"
    );
    for s in &scores {
        let v = |k: Verdict| s.verdicts.get(&k).copied().unwrap_or(0);
        let info = s.tier(Tier::Informative);
        out.push_str(&format!(
            "{:<12} {:>22} {:>22} {:>14} {:>8} {:>8} {:>8} {:>8}\n",
            s.implementation,
            s.tier(Tier::Required).display(),
            s.tier(Tier::Optional).display(),
            format!("{}/{}", info.passed, info.cases),
            v(Verdict::Failed),
            v(Verdict::ExpectedFailure),
            v(Verdict::UnexpectedPass),
            v(Verdict::HarnessError),
        ));
    }
    for r in run
        .results
        .iter()
        .filter(|r| {
            matches!(
                r.verdict,
                Verdict::Failed | Verdict::UnexpectedPass | Verdict::HarnessError
            )
        })
        .take(20)
    {
        let head = r
            .headline()
            .map(|c| format!("{}: {}", c.check, c.message))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {} {} {} [{}] {head}\n",
            r.implementation,
            r.case,
            r.status,
            r.verdict.as_str()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_out_is_per_implementation_or_interop() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            default_out(&names(&["rapier"])),
            PathBuf::from("reports/rapier")
        );
        assert_eq!(
            default_out(&names(&["rapier", "reference"])),
            PathBuf::from("reports/interop")
        );
        assert_eq!(
            default_out(&names(&["stdio", "rapier", "reference"])),
            PathBuf::from("reports/interop")
        );
    }
}
