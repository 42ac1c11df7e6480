//! `physics-cts run`: run bundled implementations over a corpus and write the reports.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bundled;
use crate::case::{Corpus, Tier};
use crate::expectations::Expectations;
use crate::report::{self, ndjson};
use crate::results::{Run, Verdict};
use crate::runner::{self, Entrant, Options};
use crate::score;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Implementation to run (repeat for a matrix): one of the bundled ones.
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
    bundled::factory(name).ok_or_else(|| {
        anyhow::anyhow!(
            "unknown implementation {name:?}; bundled: {}, or stdio -- CMD ARGS...",
            bundled::names().join(", ")
        )
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut entrants = Vec::new();
    for name in &args.implementations {
        let factory = factory_of(name, &args)?;
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
    let out = args.out.clone().unwrap_or_else(|| default_out(&args.implementations));
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    let log_path = out.join(report::NDJSON);
    let log = std::fs::File::create(&log_path)
        .with_context(|| format!("creating {}", log_path.display()))?;
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
        Some(b)
    } else {
        None
    };
    let options = Options {
        deadline: Duration::from_secs_f64(args.timeout * args.timeout_multiplier),
        ..Options::default()
    };
    let label = args.corpus.display().to_string();
    let suite = format!("physics-cts {}", env!("CARGO_PKG_VERSION"));
    let run = runner::run_matrix(
        &corpus,
        &label,
        &entries,
        &entrants,
        options,
        &mut |infos| {
            let r = log
                .borrow_mut()
                .0
                .line(&ndjson::header(&suite, &label, infos));
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
    print!("{}", summary_table(&run));
    println!("reports written to {}", out.display());
    Ok(if run.required_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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
