//! Whole-corpus wall time of Rapier in process against Rapier behind the stdio protocol
//! (`physics-cts serve rapier`, a child process), through the same runner as `physics-cts run`:
//! over stdio with `batch` (a scenario per request, the default) and without it
//! (`serve rapier --no-batch`: one request per call). The three alternate, round after round,
//! so that load on the machine falls on all alike; the medians and their ratios to the
//! in-process run are printed. Goal: stdio <= 1.5x in process.
//!
//! Run: `cargo bench -p physics-cts --bench stdio_corpus [-- CORPUS_DIR] [--rounds N]`
//! (`PHYSICS_CTS_BIN` overrides the binary spoken to). The statuses of the two runs are
//! compared too: a difference is printed, as it would make the timing meaningless.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::adapters::stdio::{StdioConfig, StdioImplementation};
use physics_cts::case::Corpus;
use physics_cts::implementation::Factory;
use physics_cts::implementation::Implementation;
use physics_cts::known_failures::KnownFailures;
use physics_cts::results::Run;
use physics_cts::runner::{self, Entrant, Options};

mod common;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(5usize)
        .max(1);
    let dir = args
        .iter()
        .enumerate()
        .find(|(i, a)| {
            !a.starts_with('-') && (*i == 0 || args.get(i - 1).is_none_or(|p| p != "--rounds"))
        })
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1"),
            |(_, a)| PathBuf::from(a),
        );
    let Ok(corpus) = Corpus::open(&dir) else {
        eprintln!(
            "stdio_corpus: no corpus at {}: nothing to measure",
            dir.display()
        );
        return;
    };
    let bin = common::binary();
    let in_process: Factory =
        Arc::new(|| Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>);
    let stdio = |extra: &[&str]| -> Factory {
        let mut args = vec!["serve".into(), "rapier".into()];
        args.extend(extra.iter().map(Into::into));
        let config = StdioConfig::new(bin.clone(), args);
        Arc::new(move || {
            Box::new(StdioImplementation::new(config.clone())) as Box<dyn Implementation + Send>
        })
    };
    let entrant = |name: &str, factory: &Factory| Entrant {
        name: name.into(),
        factory: factory.clone(),
        known_failures: KnownFailures::default(),
    };
    let entries = corpus.filtered(None);
    let time = |e: &Entrant| {
        let t = Instant::now();
        let run = runner::run_matrix(
            &corpus,
            "bench",
            &entries,
            std::slice::from_ref(e),
            Options::default(),
            &mut |_| {},
            &mut |_| {},
        );
        (t.elapsed(), run)
    };
    let runs = [
        ("in process", entrant("rapier", &in_process)),
        ("stdio batch", entrant("rapier", &stdio(&[]))),
        (
            "stdio per request",
            entrant("rapier", &stdio(&["--no-batch"])),
        ),
    ];
    let mut times = vec![Vec::new(); runs.len()];
    for round in 0..rounds {
        let mut line = format!("round {}:", round + 1);
        let mut results = Vec::new();
        for (k, (name, e)) in runs.iter().enumerate() {
            let (t, run) = time(e);
            line.push_str(&format!(" {name} {:.3} s;", t.as_secs_f64()));
            times[k].push(t);
            results.push(run);
        }
        println!("{line}");
        if round == 0 {
            for (k, run) in results.iter().enumerate().skip(1) {
                print!("{} against {}: ", runs[k].0, runs[0].0);
                report_differences(&results[0], run);
            }
        }
    }
    let medians: Vec<Duration> = times.iter_mut().map(|t| median(t)).collect();
    println!(
        "{} cases, {rounds} rounds; median wall time:",
        entries.len()
    );
    for ((name, _), m) in runs.iter().zip(&medians) {
        println!(
            "  {name:<18} {:>8.3} s  {:>6.2}x",
            m.as_secs_f64(),
            m.as_secs_f64() / medians[0].as_secs_f64()
        );
    }
    println!("(goal: stdio batch <= 1.5x in process)");
}

/// The middle value (the upper one of the two middles for an even count).
fn median(v: &mut [Duration]) -> Duration {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn report_differences(a: &Run, b: &Run) {
    let differ: Vec<&str> = a
        .results
        .iter()
        .zip(&b.results)
        .filter(|(x, y)| x.case != y.case || x.status != y.status)
        .map(|(x, _)| x.case.as_str())
        .collect();
    if a.results.len() != b.results.len() || !differ.is_empty() {
        println!(
            "WARNING: the runs differ ({} vs {} results; statuses differ on {:?})",
            a.results.len(),
            b.results.len(),
            differ
        );
    } else {
        println!("statuses identical on all {} cases", a.results.len());
    }
}
