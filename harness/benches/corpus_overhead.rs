//! Harness overhead on Rapier, in process: the runner over the corpus's dynamics cases against
//! a bare loop making the same implementation calls on the same worlds.
//!
//! - bare: for every case with a dynamics scenario that Rapier runs, exactly the calls the
//!   runner makes, on one reused implementation as the runner's worker does: `load` from the
//!   case's file, `interpretation()`, `configure`, then the scenario's requests in the
//!   runner's own order ([`runner::schedule`]: observe, steps, actions, observations at the
//!   scenario's cadence), `unload`. The scenarios are in memory before the clock starts.
//! - bare without `interpretation()`: the same minus that call, for readers who count the
//!   interpretation report as the harness's.
//! - harness: the same cases through `runner::run_matrix` (reading each `expect.json`, the
//!   worker thread and its deadline, `catch_unwind` per call, every check, the results).
//!
//! The three are interleaved, `ROUNDS` times, and the medians compared, so a load change on
//! the machine hits all of them alike. overhead = harness / bare - 1, in wall time (the goal)
//! and in CPU time of the whole process (every thread; steadier when the machine is shared,
//! and blind to time spent waiting for a thread to wake up). Both sides use mimalloc, as the
//! `physics-cts` binary does. Then the whole corpus as `physics-cts run` runs it, with
//! `--jobs 1` and `--jobs 2`.
//!
//! Run: `cargo bench -p physics-cts --bench corpus_overhead [-- CORPUS_DIR]`.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::case::{CaseEntry, Corpus, LoadedCase, Scenario};
use physics_cts::implementation::{CheckFamily, Implementation, LoadOutcome, LoadRequest, Request};
use physics_cts::known_failures::KnownFailures;
use physics_cts::runner::{self, Entrant, Options};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const ROUNDS: usize = 5;

/// What the bare loop needs of a case, read before the clock starts.
struct BareLoopCase {
    request: LoadRequest,
    scenario: Scenario<physics_cts::implementation::Action>,
    poses: Vec<serde_json::Value>,
}

/// Wall and CPU time (all threads of the process) of `f`.
fn timed(f: impl FnOnce()) -> (Duration, Duration) {
    let cpu = || {
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
        Duration::new(
            u64::try_from(t.tv_sec).unwrap_or(0),
            u32::try_from(t.tv_nsec).unwrap_or(0),
        )
    };
    let (wall, c) = (Instant::now(), cpu());
    f();
    (wall.elapsed(), cpu().saturating_sub(c))
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or_default()
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// The bare loop: the implementation's share of the work, nothing else.
fn bare(cases: &[BareLoopCase], interpretation: bool) {
    let mut imp = RapierImplementation::new();
    for c in cases {
        let Ok(LoadOutcome::Loaded { .. }) = imp.load(&c.request) else {
            continue;
        };
        if interpretation {
            let _ = imp.interpretation();
        }
        for p in &c.poses {
            let _ = imp.evaluate_constraints(p);
        }
        let _ = imp.configure(&c.scenario.config);
        for r in runner::schedule(&c.scenario) {
            let _ = match r {
                Request::Apply(a) => imp.apply(a),
                Request::Step(n) => imp.step(n),
                Request::Observe(_) => imp.observe().map(|_| ()),
            };
        }
        let _ = imp.unload();
    }
}

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
    let load_before = load_average();
    let caps = RapierImplementation::new()
        .handshake()
        .map(|h| h.capabilities)
        .unwrap_or_default();
    let constraints = caps.checks.contains(&CheckFamily::Constraints);
    let mut cases = Vec::new();
    let mut same: Vec<&CaseEntry> = Vec::new();
    let mut probe = RapierImplementation::new();
    for e in &corpus.entries {
        if runner::gate(&caps, e).is_some() {
            continue;
        }
        let Ok(c) = LoadedCase::load(&corpus.root, e) else {
            continue;
        };
        let (Some(scenario), Some(profile)) = (c.scenario.clone(), e.profile.as_ref()) else {
            continue;
        };
        let Some(profile) = profile.known() else {
            continue;
        };
        let request = LoadRequest {
            path: std::path::absolute(&c.path).unwrap_or_else(|_| c.path.clone()),
            profile,
        };
        // Cases Rapier rejects end at the load in both loops; keep the ones it simulates.
        if !matches!(probe.load(&request), Ok(LoadOutcome::Loaded { .. })) {
            continue;
        }
        let poses = if constraints {
            c.poses
                .iter()
                .filter(|p| p.has_constraints())
                .map(|p| p.poses.clone())
                .collect()
        } else {
            Vec::new()
        };
        cases.push(BareLoopCase {
            request,
            scenario,
            poses,
        });
        same.push(e);
    }
    let entrant = Entrant {
        name: "rapier".into(),
        factory: Arc::new(|| {
            Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>
        }),
        known_failures: KnownFailures::default(),
    };
    let harness = |entries: &[&CaseEntry], jobs: usize| {
        let run = runner::run_matrix(
            &corpus,
            "bench",
            entries,
            std::slice::from_ref(&entrant),
            Options {
                jobs,
                ..Options::default()
            },
            &mut |_| {},
            &mut |_| {},
        );
        run.results.len()
    };
    // Warm the page cache and the allocator once.
    bare(&cases, true);
    let _ = harness(&same, 1);
    // Wall and CPU times of each variant, round after round.
    let mut rounds: [[Vec<Duration>; 2]; 4] = Default::default();
    for _ in 0..ROUNDS {
        let variants: [&dyn Fn(); 4] = [
            &|| bare(&cases, true),
            &|| bare(&cases, false),
            &|| {
                let _ = harness(&same, 1);
            },
            &|| {
                for e in &same {
                    let _ = LoadedCase::load(&corpus.root, e);
                }
            },
        ];
        for (v, times) in variants.iter().zip(&mut rounds) {
            let (wall, cpu) = timed(v);
            times[0].push(wall);
            times[1].push(cpu);
        }
    }
    let all: Vec<&CaseEntry> = corpus.entries.iter().collect();
    let mut whole = [Vec::new(), Vec::new()];
    let mut count = 0;
    for _ in 0..3 {
        for (jobs, times) in whole.iter_mut().enumerate() {
            let (t, _) = timed(|| count = harness(&all, jobs + 1));
            times.push(t);
        }
    }
    let [[b, b_cpu], [bi, bi_cpu], [h, h_cpu], [read, read_cpu]] =
        rounds.map(|[wall, cpu]| [median(wall), median(cpu)]);
    let s = |d: Duration| d.as_secs_f64();
    println!(
        "load average before: {load_before}; after: {}",
        load_average()
    );
    println!(
        "cases with a scenario Rapier simulates: {}; medians of {ROUNDS} interleaved rounds",
        cases.len()
    );
    println!("{:<50} {:>8} {:>8}", "", "wall s", "CPU s");
    for (what, wall, cpu) in [
        ("bare loop (the runner's calls)", b, b_cpu),
        ("bare loop without interpretation()", bi, bi_cpu),
        ("harness (run_matrix, --jobs 1)", h, h_cpu),
        ("  reading those expect.json files alone", read, read_cpu),
    ] {
        println!("{what:<50} {:>8.3} {:>8.3}", s(wall), s(cpu));
    }
    let percent = |a: Duration, b: Duration| 100.0 * (s(a) / s(b) - 1.0);
    println!(
        "{:<50} {:>7.1}% {:>7.1}%",
        "overhead = harness / bare - 1",
        percent(h, b),
        percent(h_cpu, b_cpu)
    );
    println!(
        "{:<50} {:>7.1}% {:>7.1}%",
        "overhead over the loop without interpretation()",
        percent(h, bi),
        percent(h_cpu, bi_cpu)
    );
    for (jobs, times) in whole.into_iter().enumerate() {
        println!(
            "whole corpus ({count} cases), in process, --jobs {}: {:>8.3} s (median of 3)",
            jobs + 1,
            s(median(times))
        );
    }
}
