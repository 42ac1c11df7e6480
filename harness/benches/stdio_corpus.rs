//! Whole-corpus wall time of Rapier in process against Rapier behind the stdio protocol
//! (`physics-cts serve rapier`, a child process), through the same runner as `physics-cts run`.
//! The two alternate, round after round, so that load on the machine falls on both alike; the
//! medians and their ratio are printed. Goal: stdio <= 1.5x in process.
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
use physics_cts::expectations::Expectations;
use physics_cts::implementation::Implementation;
use physics_cts::results::Run;
use physics_cts::runner::{self, Entrant, Factory, Options};

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
    let bin = std::env::var_os("PHYSICS_CTS_BIN")
        .unwrap_or_else(|| env!("CARGO_BIN_EXE_physics-cts").into());
    let in_process: Factory =
        Arc::new(|| Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>);
    let config = StdioConfig::new(bin, vec!["serve".into(), "rapier".into()]);
    let over_stdio: Factory = Arc::new(move || {
        Box::new(StdioImplementation::new(config.clone())) as Box<dyn Implementation + Send>
    });
    let entrant = |name: &str, factory: &Factory| Entrant {
        name: name.into(),
        factory: factory.clone(),
        expectations: Expectations::default(),
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
    let a = entrant("rapier", &in_process);
    let b = entrant("rapier", &over_stdio);
    let mut times_a = Vec::new();
    let mut times_b = Vec::new();
    for round in 0..rounds {
        let (ta, run_a) = time(&a);
        let (tb, run_b) = time(&b);
        println!(
            "round {}: in process {:>8.3} s, stdio {:>8.3} s",
            round + 1,
            ta.as_secs_f64(),
            tb.as_secs_f64()
        );
        if round == 0 {
            report_differences(&run_a, &run_b);
        }
        times_a.push(ta);
        times_b.push(tb);
    }
    let ma = median(&mut times_a);
    let mb = median(&mut times_b);
    println!(
        "{} cases, {rounds} rounds; median wall time: in process {:.3} s, stdio {:.3} s, \
         ratio {:.2}x (goal <= 1.5x)",
        entries.len(),
        ma.as_secs_f64(),
        mb.as_secs_f64(),
        mb.as_secs_f64() / ma.as_secs_f64()
    );
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
