//! `physics-cts run`: run implementations (bundled, named external, or `stdio`) over a corpus
//! and write the reports.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};

use crate::bundled;
use crate::case::{CaseEntry, Corpus, Tier};
use crate::external;
use crate::known_failures::{self, Found, KnownFailures};
use crate::report::{self, ndjson};
use crate::results::{CaseResult, Run, Verdict};
use crate::runner::{self, Entrant, Options as RunnerOptions};
use crate::score;
use crate::status::Status;

/// What `run` and `certify` share: what to run, over which cases, with which known failures
/// and deadlines (`certify --help` lists only these and its own `--out`).
#[derive(Clone, Debug, clap::Args)]
pub struct RunOptions {
    /// Implementation to run (repeat for a matrix): a bundled one (in process), a named external
    /// one (`physx`: Node, needs `npm ci` in harness/adapters/physx-node; `jolt`: Node, Jolt
    /// Physics, needs `npm ci` in harness/adapters/jolt-node; `three-vrm`: Node,
    /// VRM 1.0 node constraints, needs `npm ci` in harness/adapters/three-vrm-node; `babylon`:
    /// Node, Babylon.js + Havok with the KHR editor's loader, needs `npm ci` in
    /// harness/adapters/babylon-havok and the loader's sources, PHYSICS_CTS_BABYLON_LOADER or
    /// ../shared/vendor; `gltf-kun`: unavi's gltf_kun reading omi-2024, a Rust program built on
    /// first use with cargo), or `stdio`.
    #[arg(long = "impl", value_name = "NAME", default_value = "rapier")]
    pub implementations: Vec<String>,
    #[command(flatten)]
    pub cases: CaseSelection,
    /// Known failures: a `.toml` file (one `--impl`) or a folder of `<impl>.toml` files; it must
    /// exist. Default: `<corpus>/known-failures/<impl>.toml` when there is one.
    #[arg(long, value_name = "PATH")]
    pub known_failures: Option<PathBuf>,
    /// Deprecated (read for one more release): a folder of `<impl>.toml` known-failure files.
    #[arg(long, value_name = "DIR", hide = true)]
    pub expectations: Option<PathBuf>,
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
    /// With `--impl stdio`: the implementation's command and arguments, after `--`.
    #[arg(last = true, value_name = "CMD")]
    pub command: Vec<std::ffi::OsString>,
}

/// Which cases a command runs (`run`, `certify`, `mutants`): a corpus and a filter of its ids.
#[derive(Clone, Debug, clap::Args)]
#[group(skip)]
pub struct CaseSelection {
    /// The corpus folder (with manifest.json).
    #[arg(long, default_value = "corpus/v2")]
    pub corpus: PathBuf,
    /// Only cases whose id matches (a glob with `*` / `?`, else a substring).
    #[arg(long)]
    pub filter: Option<String>,
}

impl CaseSelection {
    /// The corpus and its hash (the known failures' key).
    pub fn open(&self) -> anyhow::Result<(Corpus, String)> {
        let path = &self.corpus;
        let corpus =
            Corpus::open(path).with_context(|| format!("opening the corpus {}", path.display()))?;
        let hash = known_failures::corpus_hash(path)
            .with_context(|| format!("hashing the corpus {}", path.display()))?;
        Ok((corpus, hash))
    }

    /// The cases of `corpus` the filter selects: at least one.
    pub fn select<'a>(&self, corpus: &'a Corpus) -> anyhow::Result<Vec<&'a CaseEntry>> {
        let selected = corpus.filtered(self.filter.as_deref());
        if selected.is_empty() {
            bail!(
                "no case of {} matches the filter {:?}",
                self.corpus.display(),
                self.filter.as_deref().unwrap_or("")
            );
        }
        Ok(selected)
    }
}

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub options: RunOptions,
    /// Output folder; default `reports/latest/<impl>` for one implementation,
    /// `reports/latest/interop` for several (git-ignored: the committed baselines in
    /// `reports/<impl>` change only when named here).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the interrupted run whose reports are in OUT: keep the cases its
    /// `results.ndjson` finished, run the rest, write the reports. Refused (exit 2) when OUT's
    /// run was of another corpus, implementation set, command or filter.
    #[arg(long, value_name = "OUT")]
    pub resume: Option<PathBuf>,
    /// Run only shard K of N (cases K, K+N, K+2N, ... of the selected ones, in id order), for
    /// a run split across machines; `physics-cts merge` joins the shards' reports into what one
    /// run writes.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
}

/// One of N parts of a run's cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 1-based.
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// `K/N` with 1 <= K <= N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("{s:?} is not K/N with 1 <= K <= N (e.g. 2/4)");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n) = (
            k.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if k == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }

    /// Whether the `i`-th selected case (0-based) is in this shard.
    pub fn takes(&self, i: usize) -> bool {
        i % self.n == self.k - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The factory of an implementation named on the command line: a bundled one, or `stdio`
/// (a child process speaking the protocol, started with `command`).
pub(crate) fn factory_of(
    name: &str,
    command: &[std::ffi::OsString],
    timeout_multiplier: f64,
) -> anyhow::Result<crate::implementation::Factory> {
    if name == "stdio" {
        let Some((program, rest)) = command.split_first() else {
            bail!("--impl stdio needs the implementation's command after `--`");
        };
        let config = crate::adapters::stdio::StdioConfig::new(program.clone(), rest.to_vec())
            .scale_timeouts(timeout_multiplier);
        return Ok(std::sync::Arc::new(move || {
            Box::new(crate::adapters::stdio::StdioImplementation::new(
                config.clone(),
            )) as Box<dyn crate::implementation::Implementation + Send>
        }));
    }
    if let Some(f) = bundled::factory(name) {
        return Ok(f);
    }
    match external::factory(name, timeout_multiplier) {
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
/// passed or is a known failure, 1 when one failed, [`crate::exit::NOTHING_SCORED`] when no
/// case was scored.
pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    Ok(match execute_or_exit(&args)? {
        Ok(done) => conclude(&done),
        Err(code) => code,
    })
}

/// A finished run: its results, the folder of its reports, and the known failures it used
/// (one per implementation, in order).
#[derive(Debug)]
pub struct Done {
    pub run: Run,
    pub out: PathBuf,
    pub known_failures: Vec<Found>,
}

/// [`execute`], with a named external implementation that cannot start here turned into its
/// own exit code (said on stderr).
pub fn execute_or_exit(args: &RunArgs) -> anyhow::Result<Result<Done, ExitCode>> {
    match execute(args) {
        Ok(done) => Ok(Ok(done)),
        Err(e) if e.downcast_ref::<external::Unavailable>().is_some() => {
            eprintln!("physics-cts: error: {e:#}");
            Ok(Err(ExitCode::from(crate::exit::UNAVAILABLE)))
        }
        Err(e) => Err(e),
    }
}

/// Print the summary table, the known failures used and where the reports are: exit 0 when
/// every required case passed or is a known failure, 1 when one did not, and
/// [`crate::exit::NOTHING_SCORED`] (said on stderr) when no case was scored at all.
pub fn conclude(done: &Done) -> ExitCode {
    let run = &done.run;
    print!("{}", summary_table(run));
    for (i, k) in run.implementations.iter().zip(&done.known_failures) {
        println!("{}", k.describe(&i.name));
    }
    println!("reports written to {}", done.out.display());
    if !run.results.iter().any(|r| r.status.is_scored()) {
        eprintln!(
            "physics-cts: error: no case was scored ({} result(s), none passed or failed): the run says nothing about the implementation",
            run.results.len()
        );
        return ExitCode::from(crate::exit::NOTHING_SCORED);
    }
    if run.required_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(crate::exit::FAILURES)
    }
}

/// Run with `args` and write every report (for `run` and the commands built on it): the
/// run, the folder the reports are in and the known failures used. Nothing is printed on
/// stdout.
pub fn execute(args: &RunArgs) -> anyhow::Result<Done> {
    let options = &args.options;
    let factories = options
        .implementations
        .iter()
        .map(|name| factory_of(name, &options.command, options.timeout_multiplier))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (corpus, corpus_hash) = options.cases.open()?;
    if options.known_failures.is_some() && options.expectations.is_some() {
        bail!("--known-failures and --expectations (deprecated) name two sources: give one");
    }
    if let Some(dir) = &options.expectations {
        eprintln!(
            "physics-cts: warning: --expectations is deprecated (read for one more release): use --known-failures PATH"
        );
        if !dir.is_dir() {
            bail!("--expectations {}: not a folder", dir.display());
        }
    }
    let explicit_file = options.known_failures.as_deref().filter(|p| !p.is_dir());
    if explicit_file.is_some() && options.implementations.len() > 1 {
        bail!(
            "--known-failures names one file but {} implementations run: name a folder of <impl>.toml files",
            options.implementations.len()
        );
    }
    let mut entrants = Vec::new();
    let mut found = Vec::new();
    for (name, factory) in options.implementations.iter().zip(factories) {
        let k = match &options.expectations {
            Some(dir) => {
                KnownFailures::from_deprecated_dir(dir, &options.cases.corpus, &corpus_hash, name)?
            }
            None => KnownFailures::find(
                &options.cases.corpus,
                &corpus_hash,
                name,
                options.known_failures.as_deref(),
                Path::new(known_failures::DEPRECATED_DIR),
            )?,
        };
        entrants.push(Entrant {
            name: name.clone(),
            factory,
            known_failures: k.failures.clone(),
        });
        found.push(k);
    }
    if !(options.timeout > 0.0 && options.timeout.is_finite()) {
        bail!("--timeout must be a positive number of seconds");
    }
    if !(options.timeout_multiplier > 0.0 && options.timeout_multiplier.is_finite()) {
        bail!("--timeout-multiplier must be a positive number");
    }
    if options.jobs == 0 {
        bail!("--jobs must be at least 1");
    }
    let selected = options.cases.select(&corpus)?;
    let entries: Vec<_> = match args.shard {
        Some(shard) => selected
            .iter()
            .enumerate()
            .filter(|(i, _)| shard.takes(*i))
            .map(|(_, e)| *e)
            .collect(),
        None => selected.clone(),
    };
    if entries.is_empty() {
        bail!(
            "shard {} selects none of the {} selected case(s)",
            args.shard.map(|s| s.to_string()).unwrap_or_default(),
            selected.len()
        );
    }
    let out = match (&args.resume, &args.out) {
        (Some(r), Some(o)) if !same_folder(r, o) => {
            bail!(
                "--resume {} and --out {} name different folders",
                r.display(),
                o.display()
            )
        }
        (Some(r), _) => r.clone(),
        (None, Some(o)) => o.clone(),
        (None, None) => default_out(&options.implementations),
    };
    let key = ndjson::RunKey {
        // The whole selection's: a shard's key differs from the unsharded run's by its shard
        // only, so merged shards carry the key one run would.
        corpus_sha256: corpus
            .fingerprint(&selected)
            .with_context(|| format!("hashing the corpus {}", options.cases.corpus.display()))?,
        implementations: options.implementations.clone(),
        command: options
            .command
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        filter: options.cases.filter.clone(),
        corpus_hash: Some(corpus_hash.clone()),
        shard: args.shard.map(|s| s.to_string()),
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
    let deadline = Duration::try_from_secs_f64(options.timeout * options.timeout_multiplier)
        .map_err(|e| {
            anyhow::anyhow!(
                "--timeout {} x --timeout-multiplier {}: not a usable deadline ({e})",
                options.timeout,
                options.timeout_multiplier
            )
        })?;
    let runner_options = RunnerOptions {
        deadline,
        jobs: options.jobs,
        ..RunnerOptions::default()
    };
    let label = options.cases.corpus.display().to_string();
    let suite = format!("physics-cts {}", env!("CARGO_PKG_VERSION"));
    let kept = done.clone();
    let run = runner::resume_matrix(
        &corpus,
        &label,
        &entries,
        &entrants,
        runner_options,
        done,
        &mut |infos| {
            let mut l = log.borrow_mut();
            let mut r = l.0.line(&ndjson::keyed_header(
                &suite,
                &label,
                infos,
                Some(key.clone()),
            ));
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

    // Stale entries are worth a note only when every case ran: a filter leaves most entries
    // unmatched on purpose.
    if options.cases.filter.is_none() && args.shard.is_none() {
        for (e, k) in entrants.iter().zip(&found) {
            let ids: Vec<&str> = entries.iter().map(|c| c.id.as_str()).collect();
            for stale in e.known_failures.unused(&ids) {
                eprintln!(
                    "physics-cts: note: {} known failure {:?} ({}) matches no case of the corpus: remove it",
                    e.name,
                    stale.case,
                    k.source
                        .path()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                );
            }
        }
    }
    Ok(Done {
        run,
        out,
        known_failures: found,
    })
}

/// Whether two paths name the same folder: compared canonical (`reports/x`, `./reports/x/`
/// and a link to it are one folder), or absolute as written when one does not exist.
fn same_folder(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => match (std::path::absolute(a), std::path::absolute(b)) {
            (Ok(a), Ok(b)) => a.components().eq(b.components()),
            _ => a == b,
        },
    }
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

/// The folder of the default outputs, git-ignored: a user's first `run` leaves `git status`
/// clean, and the committed baselines (`reports/<impl>`) change only when named with `--out`.
pub const DEFAULT_OUT_DIR: &str = "reports/latest";

/// The default output folder: `reports/latest/<impl>` for one implementation,
/// `reports/latest/interop` for several (the side-by-side run, whichever implementations it
/// has).
pub fn default_out(implementations: &[String]) -> PathBuf {
    match implementations {
        [one] => PathBuf::from(DEFAULT_OUT_DIR).join(one),
        _ => PathBuf::from(DEFAULT_OUT_DIR).join("interop"),
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
    // Every status's count, zeros included: a run where most cases never ran (NOTRUN) or
    // were not supported must not look like a small green run.
    for s in &scores {
        let total = |st: Status| {
            s.total
                .values()
                .map(|t| t.by_status.get(&st).copied().unwrap_or(0))
                .sum::<u32>()
        };
        let counts: Vec<String> = Status::ALL
            .iter()
            .map(|st| format!("{st} {}", total(*st)))
            .collect();
        out.push_str(&format!("{}: {}\n", s.implementation, counts.join(", ")));
    }
    let attention: Vec<&CaseResult> = run
        .results
        .iter()
        .filter(|r| {
            matches!(
                r.verdict,
                Verdict::Failed | Verdict::UnexpectedPass | Verdict::HarnessError
            )
        })
        .collect();
    for r in attention.iter().take(FAILURES_SHOWN) {
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
    if attention.len() > FAILURES_SHOWN {
        out.push_str(&format!(
            "  ... and {} more (every one in report.html and summary.md)\n",
            attention.len() - FAILURES_SHOWN
        ));
    }
    out
}

/// Cases needing attention listed in the console summary; the rest are counted.
pub const FAILURES_SHOWN: usize = 20;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_out_is_per_implementation_or_interop() {
        let names = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            default_out(&names(&["rapier"])),
            PathBuf::from("reports/latest/rapier")
        );
        assert_eq!(
            default_out(&names(&["rapier", "reference"])),
            PathBuf::from("reports/latest/interop")
        );
        assert_eq!(
            default_out(&names(&["stdio", "rapier", "reference"])),
            PathBuf::from("reports/latest/interop")
        );
    }
}
