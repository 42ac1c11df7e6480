//! Whole-corpus wall time of the harness on Rapier, in process, and its overhead over a bare
//! loop of the same worlds and steps.
//!
//! - bare: for every case with a dynamics scenario that Rapier runs, load the file through the
//!   adapter, configure, and step the scenario's steps in one call: no observation, no check.
//! - harness: the same cases through the runner (worker thread, deadline, `catch_unwind`,
//!   interpretation, an observation after every step, every check).
//! - overhead = harness / bare - 1; the whole corpus is then run as `physics-cts run` does.
//!
//! Run: `cargo bench -p physics-cts --bench corpus_overhead [-- CORPUS_DIR]`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::case::{Case, Corpus};
use physics_cts::expectations::Expectations;
use physics_cts::implementation::{Implementation, LoadOutcome, LoadRequest};
use physics_cts::runner::{self, Entrant, Options};

fn main() {
    let dir = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or_else(
            || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1"),
            PathBuf::from,
        );
    let Ok(corpus) = Corpus::open(&dir) else {
        eprintln!(
            "corpus_overhead: no corpus at {}: nothing to measure",
            dir.display()
        );
        return;
    };
    let caps = runner_caps();
    let mut cases = Vec::new();
    for e in &corpus.entries {
        if runner::gate(&caps, e).is_some() {
            continue;
        }
        if let Ok(c) = Case::load(&corpus.root, e)
            && c.scenario.is_some()
        {
            cases.push(c);
        }
    }
    let best = |f: &mut dyn FnMut() -> Duration| (0..3).map(|_| f()).min().unwrap_or_default();
    let mut bare = || {
        let t = Instant::now();
        for c in &cases {
            let mut imp = RapierImplementation::new();
            let request = LoadRequest {
                path: std::path::absolute(&c.path).unwrap_or_else(|_| c.path.clone()),
                profile: c.entry.profile.clone(),
            };
            let Ok(LoadOutcome::Loaded { .. }) = imp.load(&request) else {
                continue;
            };
            if let Some(s) = &c.scenario
                && imp.configure(&s.config).is_ok()
            {
                let _ = imp.step(s.steps);
            }
        }
        t.elapsed()
    };
    let bare_time = best(&mut bare);
    // The same loop observing after every step, as the scenarios ask: the adapter's share.
    let mut observed = || {
        let t = Instant::now();
        for c in &cases {
            let mut imp = RapierImplementation::new();
            let request = LoadRequest {
                path: std::path::absolute(&c.path).unwrap_or_else(|_| c.path.clone()),
                profile: c.entry.profile.clone(),
            };
            let Ok(LoadOutcome::Loaded { .. }) = imp.load(&request) else {
                continue;
            };
            if let Some(s) = &c.scenario
                && imp.configure(&s.config).is_ok()
            {
                let _ = imp.observe();
                for _ in 0..s.steps {
                    let _ = imp.step(1);
                    let _ = imp.observe();
                }
            }
        }
        t.elapsed()
    };
    let observed_time = best(&mut observed);
    let entrant = Entrant {
        name: "rapier".into(),
        factory: Arc::new(|| {
            Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>
        }),
        expectations: Expectations::default(),
    };
    let same: Vec<_> = corpus
        .entries
        .iter()
        .filter(|e| cases.iter().any(|c| c.entry.id == e.id))
        .collect();
    let mut harness = || {
        let t = Instant::now();
        let _ = runner::run_matrix(
            &corpus,
            "bench",
            &same,
            std::slice::from_ref(&entrant),
            Options::default(),
            &mut |_| {},
            &mut |_| {},
        );
        t.elapsed()
    };
    let harness_time = best(&mut harness);
    // Parts of the harness's share: reading the expectation files, and the interpretation call.
    let t = Instant::now();
    for c in &cases {
        let _ = Case::load(&corpus.root, &c.entry);
    }
    let load_time = t.elapsed();
    let t = Instant::now();
    for c in &cases {
        let mut imp = RapierImplementation::new();
        let request = LoadRequest {
            path: std::path::absolute(&c.path).unwrap_or_else(|_| c.path.clone()),
            profile: c.entry.profile.clone(),
        };
        let _ = imp.load(&request);
        let _ = imp.interpretation();
    }
    let interpretation_time = t.elapsed();
    let all: Vec<_> = corpus.entries.iter().collect();
    let t = Instant::now();
    let run = runner::run_matrix(
        &corpus,
        "bench",
        &all,
        std::slice::from_ref(&entrant),
        Options::default(),
        &mut |_| {},
        &mut |_| {},
    );
    let whole = t.elapsed();
    println!("cases with a scenario run by Rapier: {}", cases.len());
    println!(
        "bare loop (load + step):              {:>8.3} s",
        bare_time.as_secs_f64()
    );
    println!(
        "bare loop observing every step:       {:>8.3} s",
        observed_time.as_secs_f64()
    );
    println!(
        "harness (runner, observe, checks):    {:>8.3} s",
        harness_time.as_secs_f64()
    );
    println!(
        "  of which reading expect.json files: {:>8.3} s",
        load_time.as_secs_f64()
    );
    println!(
        "  load + interpretation() alone:      {:>8.3} s",
        interpretation_time.as_secs_f64()
    );
    println!(
        "overhead = harness / bare - 1:         {:>8.1} %",
        100.0 * (harness_time.as_secs_f64() / bare_time.as_secs_f64() - 1.0)
    );
    println!(
        "overhead over the observing loop:      {:>8.1} %",
        100.0 * (harness_time.as_secs_f64() / observed_time.as_secs_f64() - 1.0)
    );
    println!(
        "whole corpus ({} cases), in process:   {:>8.3} s",
        run.results.len(),
        whole.as_secs_f64()
    );
}

fn runner_caps() -> physics_cts::implementation::Capabilities {
    RapierImplementation::new()
        .handshake()
        .map(|h| h.capabilities)
        .unwrap_or_default()
}
