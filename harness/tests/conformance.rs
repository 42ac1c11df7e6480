//! `cargo test` conformance: one libtest-mimic trial per corpus case and implementation (the
//! bundled ones, in process, and the named external ones, `physx`, `jolt`, `three-vrm`, `babylon`
//! and `gltf-kun`), over the committed corpora `corpus/v1` and `corpus/v2`, named
//! `corpus/impl/profile/area/case` (`v2/rapier/khr-2025/joint/khr25/gen/joint/00042`).
//!
//! - Listing (`--list`) reads each corpus's `manifest.json` and each implementation's handshake and
//!   known-failure file only: no scene is loaded, no engine steps, so `cargo nextest run` (one
//!   process per trial) stays cheap; `cargo nextest run --partition count:K/N` splits the trials
//!   across N machines.
//! - Known failures (`<corpus>/known-failures/<impl>.toml`) and cases the implementation does
//!   not support are ignored trials; each distinct reason is printed once on stderr with its
//!   number of trials. Run them with `--include-ignored`: a known failure that still fails
//!   passes, one that passes fails ("unexpected pass"), so the known-failure file cannot rot.
//! - Without `--format`, progress is terse (one character per trial): a failure is not lost
//!   among thousands of `ok` lines.
//! - A filter that matches no trial is an error (exit 101), never a green run of nothing.
//! - An informative case (an open decision) is shown, never scored: its failure fails no trial.
//! - `CTS_CORPUS=DIR` runs another corpus folder instead (trials named after its folder).
//! - External implementations (`physx`, `jolt`, `three-vrm`, `babylon`: Node) run only where their runtime
//!   is on `PATH`; elsewhere their trials are ignored with the reason "node not found". `babylon`
//!   also needs its loader's sources (`PHYSICS_CTS_BABYLON_LOADER`, else `../shared/vendor`):
//!   without them its trials are ignored with the reason naming the folder. Their trials share a
//!   pool of adapter processes (at most one per test thread), not one process per trial. If the
//!   adapter's `node_modules` is missing, `npm ci` runs first, once, under a file lock. `gltf-kun`
//!   (a Rust program of its own) needs `cargo` instead: without it its trials are ignored with the
//!   reason "cargo not found"; with it, `cargo build --release --locked` of the adapter runs
//!   first, under the same kind of lock (a few minutes the first time, then a quick check).
//!   Nothing of this happens when listing or when the filter selects none of their trials.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use libtest_mimic::{Arguments, Failed, Trial};
use physics_cts::bundled;
use physics_cts::case::Corpus;
use physics_cts::case::{CaseEntry, Tier};
use physics_cts::external;
use physics_cts::implementation::Capabilities;
use physics_cts::implementation::Factory;
use physics_cts::known_failures::KnownFailures;
use physics_cts::results::{CaseResult, Verdict};
use physics_cts::runner::{self, ImplRunner, Options};

fn corpus_dirs() -> Vec<PathBuf> {
    match std::env::var_os("CTS_CORPUS") {
        Some(dir) => vec![PathBuf::from(dir)],
        None => ["v1", "v2"]
            .iter()
            .map(|v| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("../corpus")
                    .join(v)
            })
            .collect(),
    }
}

fn describe(r: &CaseResult) -> String {
    let mut s = format!("{} ({})", r.status, r.verdict.as_str());
    for c in r.checks.iter().filter(|c| !c.status.is_pass()) {
        s.push_str(&format!("\n  {} {}: {}", c.status, c.check, c.message));
        if let (Some(m), Some(r), Some(a)) = (c.measured, c.recommended, c.allowed) {
            s.push_str(&format!(" [measured {m}, recommended {r}, allowed {a}]"));
        }
    }
    s
}

fn trial_name(corpus: &Corpus, implementation: &str, entry: &CaseEntry) -> String {
    let label = corpus
        .root
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    format!(
        "{label}/{implementation}/{}/{}/{}",
        entry.profile_label(),
        entry.area,
        entry.id
    )
}

/// The verdict of one case as a trial outcome.
fn outcome(
    implementation: &str,
    entry: &CaseEntry,
    checks: Vec<physics_cts::check::CheckResult>,
    known: Option<String>,
) -> Result<(), Failed> {
    let r = CaseResult::new(implementation, entry, checks, known, 0);
    // An informative case rests on a decision the text leaves open: it is shown, never scored
    // (as in `run`), so another answer there fails no trial.
    if entry.tier == Tier::Informative && r.verdict == Verdict::Failed {
        return Ok(());
    }
    match r.verdict {
        Verdict::Ok | Verdict::ExpectedFailure | Verdict::NotScored => Ok(()),
        Verdict::UnexpectedPass => Err(Failed::from(format!(
            "unexpected pass: remove {} from the known failures of {implementation} (known-failures/{implementation}.toml in the corpus)",
            entry.id
        ))),
        Verdict::Failed | Verdict::HarnessError => Err(Failed::from(describe(&r))),
    }
}

/// Whether a trial is ignored, and why (noted for stderr): a known failure, or a case the
/// handshake's capabilities gate out (`None`: not known, so no gating).
fn ignore_reason(
    trial_name: &str,
    known_failures: &KnownFailures,
    caps: Option<&Capabilities>,
    entry: &CaseEntry,
    notes: &mut Vec<String>,
) -> (Option<String>, bool) {
    let known = known_failures.lookup(&entry.id).map(|k| k.reason.clone());
    if let Some(reason) = &known {
        notes.push(format!("{trial_name}: known failure: {reason}"));
        return (known, true);
    }
    if let Some(g) = caps.and_then(|c| runner::gate(c, entry)) {
        notes.push(format!("{trial_name}: {}: {}", g.status, g.message));
        return (known, true);
    }
    (known, false)
}

/// The known failures of `name` over `corpus` (`<corpus>/known-failures/<name>.toml`), checked
/// against the corpus hash like `run` does.
fn known_failures(corpus: &Corpus, name: &str) -> Result<KnownFailures, String> {
    let hash = physics_cts::known_failures::corpus_hash(&corpus.root).map_err(|e| e.to_string())?;
    KnownFailures::find(
        &corpus.root,
        &hash,
        name,
        None,
        std::path::Path::new(physics_cts::known_failures::DEPRECATED_DIR),
    )
    .map(|f| f.failures)
    .map_err(|e| e.to_string())
}

fn bundled_trials(corpus: &Arc<Corpus>, notes: &mut Vec<String>) -> Result<Vec<Trial>, String> {
    let mut out = Vec::new();
    for name in bundled::names() {
        let factory = bundled::factory(name).ok_or_else(|| format!("no factory for {name}"))?;
        let known = known_failures(corpus, name)?;
        // The handshake builds the adapter object only; nothing is loaded or stepped.
        let caps = factory()
            .handshake()
            .map_err(|e| format!("{name}: handshake failed: {e}"))?
            .capabilities;
        for entry in &corpus.entries {
            let trial_name = trial_name(corpus, name, entry);
            let (known, ignored) = ignore_reason(&trial_name, &known, Some(&caps), entry, notes);
            let (corpus, factory, entry) = (Arc::clone(corpus), factory.clone(), entry.clone());
            let implementation = name.to_owned();
            out.push(
                Trial::test(trial_name, move || {
                    let mut runner = ImplRunner::new(&implementation, factory, Options::default());
                    let checks = runner.run_case(&corpus, &entry);
                    outcome(&implementation, &entry, checks, known)
                })
                .with_ignored_flag(ignored),
            );
        }
    }
    Ok(out)
}

/// Runners of one external implementation shared by its trials: a trial takes an idle one (or
/// starts another process when all are busy, so at most one per test thread) and gives it back.
struct Pool {
    name: String,
    factory: Factory,
    idle: Mutex<Vec<ImplRunner>>,
}

impl Pool {
    fn run(&self, corpus: &Corpus, entry: &CaseEntry) -> Vec<physics_cts::check::CheckResult> {
        let taken = self.idle.lock().map_or(None, |mut idle| idle.pop());
        let mut runner = taken.unwrap_or_else(|| {
            ImplRunner::new(&self.name, self.factory.clone(), Options::default())
        });
        let checks = runner.run_case(corpus, entry);
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(runner);
        }
        checks
    }
}

/// What an external implementation's trials do, decided once before they are made.
enum ExternalMode {
    /// The runtime is missing: every trial ignored with this reason.
    Absent(String),
    /// Listing, or no trial selected: trials are made but nothing is started.
    Dormant,
    /// Could not be prepared (install or handshake failed): every selected trial fails with it.
    Broken(String),
    /// Ready: a pool holding the runner that made the handshake.
    Ready(Arc<Pool>, Capabilities),
}

fn external_mode(name: &str, selected: bool, listing: bool) -> Result<ExternalMode, String> {
    let launch = external::launch(name).ok_or_else(|| format!("no launch for {name}"))?;
    if launch.runtime_present().is_err() {
        let program = launch.program.to_string_lossy().into_owned();
        return Ok(ExternalMode::Absent(format!("{program} not found")));
    }
    if let Err(e) = launch.source_present() {
        return Ok(ExternalMode::Absent(e.to_string()));
    }
    if listing || !selected {
        return Ok(ExternalMode::Dormant);
    }
    if let Err(e) = launch.ensure_installed() {
        return Ok(ExternalMode::Broken(e));
    }
    if let Err(e) = launch.check() {
        return Ok(ExternalMode::Broken(e.to_string()));
    }
    // Deadlines doubled: the test threads share the machine with the rest of `cargo test`.
    let factory = launch.factory(2.0);
    let mut first = ImplRunner::new(name, factory.clone(), Options::default());
    match first.handshake() {
        Ok(info) => Ok(ExternalMode::Ready(
            Arc::new(Pool {
                name: name.to_owned(),
                factory,
                idle: Mutex::new(vec![first]),
            }),
            info.capabilities,
        )),
        Err(r) => Ok(ExternalMode::Broken(format!(
            "{name}: handshake failed: {} {}",
            r.status, r.message
        ))),
    }
}

fn external_trials(
    corpus: &Arc<Corpus>,
    args: &Arguments,
    notes: &mut Vec<String>,
) -> Result<Vec<Trial>, String> {
    let mut out = Vec::new();
    for name in external::names() {
        let known = known_failures(corpus, name)?;
        let names: Vec<String> = corpus
            .entries
            .iter()
            .map(|e| trial_name(corpus, name, e))
            .collect();
        // Would any of these trials run? (Ignored ones only run with --ignored/--include-ignored.)
        let selected = names.iter().zip(&corpus.entries).any(|(n, e)| {
            let probe =
                Trial::test(n.clone(), || Ok(())).with_ignored_flag(known.lookup(&e.id).is_some());
            !args.is_filtered_out(&probe) && !args.is_ignored(&probe)
        });
        let mode = external_mode(name, selected, args.list)?;
        for (trial_name, entry) in names.into_iter().zip(&corpus.entries) {
            let caps = match &mode {
                ExternalMode::Ready(_, caps) => Some(caps),
                _ => None,
            };
            let (known, ignored) = if let ExternalMode::Absent(reason) = &mode {
                notes.push(format!("{trial_name}: {reason}"));
                (None, true)
            } else {
                ignore_reason(&trial_name, &known, caps, entry, notes)
            };
            let implementation = name.to_owned();
            let entry = entry.clone();
            let trial = match &mode {
                ExternalMode::Absent(reason) => {
                    let reason = reason.clone();
                    Trial::test(trial_name, move || Err(Failed::from(reason)))
                }
                ExternalMode::Dormant => Trial::test(trial_name, move || {
                    Err(Failed::from(format!(
                        "{} was not prepared (listed only)",
                        entry.id
                    )))
                }),
                ExternalMode::Broken(e) => {
                    let e = e.clone();
                    Trial::test(trial_name, move || Err(Failed::from(e)))
                }
                ExternalMode::Ready(pool, _) => {
                    let (pool, corpus) = (Arc::clone(pool), Arc::clone(corpus));
                    Trial::test(trial_name, move || {
                        let checks = pool.run(&corpus, &entry);
                        outcome(&implementation, &entry, checks, known)
                    })
                }
            };
            out.push(trial.with_ignored_flag(ignored));
        }
    }
    Ok(out)
}

fn trials(
    corpus: &Arc<Corpus>,
    args: &Arguments,
    notes: &mut Vec<String>,
) -> Result<Vec<Trial>, String> {
    let mut out = bundled_trials(corpus, notes)?;
    out.extend(external_trials(corpus, args, notes)?);
    Ok(out)
}

fn main() -> ExitCode {
    let mut args = Arguments::from_args();
    if args.format.is_none() && !args.list {
        args.format = Some(libtest_mimic::FormatSetting::Terse);
    }
    let mut notes = Vec::new();
    let mut all = Vec::new();
    for dir in corpus_dirs() {
        if !dir.join("manifest.json").exists() {
            eprintln!(
                "conformance: no corpus at {} (generate it, or set CTS_CORPUS): no trials of it",
                dir.display()
            );
            continue;
        }
        let corpus = match Corpus::open(&dir) {
            Ok(c) => Arc::new(c),
            Err(e) => {
                eprintln!("conformance: {e}");
                return ExitCode::from(101);
            }
        };
        match trials(&corpus, &args, &mut notes) {
            Ok(t) => all.extend(t),
            Err(e) => {
                eprintln!("conformance: {}: {e}", dir.display());
                return ExitCode::from(101);
            }
        }
    }
    if args.filter.is_some() && all.iter().all(|t| args.is_filtered_out(t)) {
        eprintln!(
            "conformance: the filter {:?} matches none of the {} trials; trial names are corpus/impl/profile/area/case",
            args.filter.as_deref().unwrap_or(""),
            all.len()
        );
        return ExitCode::from(101);
    }
    if !args.list && !args.ignored && !args.include_ignored {
        // One line per implementation and reason, with its number of trials (thousands of
        // identical lines would bury a real failure).
        let mut by_reason: std::collections::BTreeMap<(String, &str), usize> = Default::default();
        for n in notes
            .iter()
            .filter(|n| args.filter.as_deref().is_none_or(|f| n.contains(f)))
        {
            let (trial, reason) = n.split_once(": ").unwrap_or((n.as_str(), ""));
            let implementation = trial.split('/').take(2).collect::<Vec<_>>().join("/");
            *by_reason.entry((implementation, reason)).or_default() += 1;
        }
        for ((implementation, reason), n) in by_reason {
            eprintln!("ignored: {n} {implementation} trial(s): {reason}");
        }
    }
    libtest_mimic::run(&args, all).exit_code()
}
