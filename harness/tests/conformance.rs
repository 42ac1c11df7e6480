//! `cargo test` conformance: one libtest-mimic trial per corpus case and bundled
//! implementation, named `impl/profile/area/case`.
//!
//! - Listing (`--list`) reads `corpus/v1/manifest.json` and each implementation's handshake and
//!   expectations file only: no scene is loaded, no engine steps, so `cargo nextest run` (one
//!   process per trial) stays cheap.
//! - Known failures (`harness/expectations/<impl>.toml`) and cases the implementation does not
//!   support are ignored trials; their reasons are printed on stderr. Run them with
//!   `--include-ignored`: a known failure that still fails passes, one that passes fails
//!   ("unexpected pass"), so the expectations file cannot rot.
//! - A filter that matches no trial is an error (exit 101), never a green run of nothing.
//! - `CTS_CORPUS=DIR` runs another corpus folder.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use libtest_mimic::{Arguments, Failed, Trial};
use physics_cts::bundled;
use physics_cts::case::Corpus;
use physics_cts::expectations::Expectations;
use physics_cts::results::{CaseResult, Verdict};
use physics_cts::runner::{self, ImplRunner, Options};

fn corpus_dir() -> PathBuf {
    std::env::var_os("CTS_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1"),
        PathBuf::from,
    )
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

fn trials(corpus: &Arc<Corpus>, notes: &mut Vec<String>) -> Result<Vec<Trial>, String> {
    let expectations_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("expectations");
    let mut out = Vec::new();
    for name in bundled::names() {
        let factory = bundled::factory(name).ok_or_else(|| format!("no factory for {name}"))?;
        let expectations =
            Expectations::load(&expectations_dir, name).map_err(|e| e.to_string())?;
        // The handshake builds the adapter object only; nothing is loaded or stepped.
        let caps = factory()
            .handshake()
            .map_err(|e| format!("{name}: handshake failed: {e}"))?
            .capabilities;
        for entry in &corpus.entries {
            let trial_name = format!(
                "{name}/{}/{}/{}",
                entry.profile_label(),
                entry.area,
                entry.id
            );
            let known = expectations.lookup(&entry.id).map(|k| k.reason.clone());
            let gated = runner::gate(&caps, entry);
            let ignored = match (&known, &gated) {
                (Some(reason), _) => {
                    notes.push(format!("{trial_name}: known failure: {reason}"));
                    true
                }
                (None, Some(g)) => {
                    notes.push(format!("{trial_name}: {}: {}", g.status, g.message));
                    true
                }
                (None, None) => false,
            };
            let (corpus, factory, entry) = (Arc::clone(corpus), factory.clone(), entry.clone());
            let implementation = name.to_owned();
            out.push(
                Trial::test(trial_name, move || {
                    let mut runner = ImplRunner::new(&implementation, factory, Options::default());
                    let checks = runner.run_case(&corpus, &entry);
                    let r = CaseResult::new(&implementation, &entry, checks, known, 0);
                    match r.verdict {
                        Verdict::Ok | Verdict::ExpectedFailure | Verdict::NotScored => Ok(()),
                        Verdict::UnexpectedPass => Err(Failed::from(format!(
                            "unexpected pass: remove {} from harness/expectations/{implementation}.toml",
                            entry.id
                        ))),
                        Verdict::Failed | Verdict::HarnessError => Err(Failed::from(describe(&r))),
                    }
                })
                .with_ignored_flag(ignored),
            );
        }
    }
    Ok(out)
}

fn main() -> ExitCode {
    let args = Arguments::from_args();
    let dir = corpus_dir();
    let mut notes = Vec::new();
    let all = if dir.join("manifest.json").exists() {
        let corpus = match Corpus::open(&dir) {
            Ok(c) => Arc::new(c),
            Err(e) => {
                eprintln!("conformance: {e}");
                return ExitCode::from(101);
            }
        };
        match trials(&corpus, &mut notes) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("conformance: {e}");
                return ExitCode::from(101);
            }
        }
    } else {
        eprintln!(
            "conformance: no corpus at {} (generate it, or set CTS_CORPUS): no trials",
            dir.display()
        );
        Vec::new()
    };
    if args.filter.is_some() && all.iter().all(|t| args.is_filtered_out(t)) {
        eprintln!(
            "conformance: the filter {:?} matches none of the {} trials; trial names are impl/profile/area/case",
            args.filter.as_deref().unwrap_or(""),
            all.len()
        );
        return ExitCode::from(101);
    }
    if !args.list && !args.ignored && !args.include_ignored {
        for n in notes
            .iter()
            .filter(|n| args.filter.as_deref().is_none_or(|f| n.contains(f)))
        {
            eprintln!("ignored: {n}");
        }
    }
    libtest_mimic::run(&args, all).exit_code()
}
