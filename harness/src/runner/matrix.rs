//! Scheduling a run: every entrant's cases spread over its instances, taken when one is free,
//! kept in flight two at a time, and gathered back in entry order.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::instance::{ImplRunner, Options, PreparedCase};
use crate::case::{CaseEntry, Corpus};
use crate::check::CheckResult;
use crate::implementation::{Capabilities, Factory};
use crate::known_failures::KnownFailures;
use crate::results::{CaseResult, ImplInfo, Run};
use crate::status::Status;

/// One implementation of a run with its known failures.
#[derive(Clone)]
pub struct Entrant {
    pub name: String,
    pub factory: Factory,
    pub known_failures: KnownFailures,
}

impl std::fmt::Debug for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entrant").field("name", &self.name).finish()
    }
}

/// A finished case of one instance: its index in the entries, checks and wall time.
type Finished = (usize, Vec<CheckResult>, u64);

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Cases an instance keeps dispatched to its worker: with two, the worker starts the next
/// case as soon as one ends (no wake-up of a waiting thread between cases), and the instance
/// reads the next case's expectation file while the worker runs.
const PIPELINE: usize = 2;

/// A case taken by an instance, in the order taken.
enum Taken {
    /// Decided without the worker, with the time it took.
    Done(Vec<CheckResult>, Duration),
    /// On the worker, with the time its preparation took.
    Flying(Duration),
}

/// One instance's loop: take the next case index from `next` until none is left or the
/// restart budget is spent, keeping [`PIPELINE`] cases on the worker; results are emitted in
/// the order the cases were taken.
fn serve(
    runner: &mut ImplRunner,
    corpus: &Corpus,
    entries: &[&CaseEntry],
    todo: &[usize],
    next: &AtomicUsize,
    emit: &mut dyn FnMut(Finished),
) {
    let claim = || {
        let k = next.fetch_add(1, Ordering::Relaxed);
        todo.get(k).copied()
    };
    let mut taken: VecDeque<(usize, Taken)> = VecDeque::with_capacity(PIPELINE + 1);
    loop {
        while taken.len() < PIPELINE && !runner.exhausted() {
            let Some(i) = claim() else {
                break;
            };
            let t = Instant::now();
            let case = match runner.prepare(corpus, entries[i]) {
                PreparedCase::Done(checks) => Taken::Done(checks, t.elapsed()),
                PreparedCase::Ready(case, caps) => {
                    runner.dispatch(case, caps);
                    Taken::Flying(t.elapsed())
                }
            };
            taken.push_back((i, case));
        }
        let Some((i, case)) = taken.pop_front() else {
            return;
        };
        let (checks, took) = match case {
            Taken::Done(checks, took) => (checks, took),
            Taken::Flying(prepared) => {
                let (checks, ran) = runner.collect();
                (checks, prepared + ran)
            }
        };
        emit((i, checks, millis(took)));
    }
}

/// Run `entries` on every entrant, implementation after implementation. `on_start` gets the
/// handshakes before the first case (for the NDJSON header), `on_case` every result as it is
/// made (streaming, progress).
pub fn run_matrix(
    corpus: &Corpus,
    corpus_label: &str,
    entries: &[&CaseEntry],
    entrants: &[Entrant],
    options: Options,
    on_start: &mut dyn FnMut(&[ImplInfo]),
    on_case: &mut dyn FnMut(&CaseResult),
) -> Run {
    resume_matrix(
        corpus,
        corpus_label,
        entries,
        entrants,
        options,
        Vec::new(),
        on_start,
        on_case,
    )
}

/// [`run_matrix`] keeping the results in `done` (an interrupted run's, matched by
/// implementation and case id; their verdicts are recomputed from the current known failures)
/// and running only the rest. With `options.jobs` > 1 each entrant runs that many instances
/// in parallel; `on_case` then sees results in completion order, while the returned run is
/// always in entrant order, then entry order (the reports are deterministic).
#[allow(
    clippy::too_many_arguments,
    reason = "run_matrix plus the kept results"
)]
pub fn resume_matrix(
    corpus: &Corpus,
    corpus_label: &str,
    entries: &[&CaseEntry],
    entrants: &[Entrant],
    options: Options,
    done: Vec<CaseResult>,
    on_start: &mut dyn FnMut(&[ImplInfo]),
    on_case: &mut dyn FnMut(&CaseResult),
) -> Run {
    let started = Instant::now();
    let jobs = options.jobs.max(1);
    let mut firsts: Vec<ImplRunner> = entrants
        .iter()
        .map(|e| ImplRunner::new(&e.name, e.factory.clone(), options))
        .collect();
    let infos: Vec<ImplInfo> = firsts
        .iter_mut()
        .map(|r| {
            r.handshake().unwrap_or_else(|e| ImplInfo {
                name: r.name.clone(),
                version: String::new(),
                engine: format!("handshake failed: {} {}", e.status, e.message),
                capabilities: Capabilities::default(),
            })
        })
        .collect();
    on_start(&infos);
    let mut kept: std::collections::HashMap<(String, String), CaseResult> = done
        .into_iter()
        .map(|r| ((r.implementation.clone(), r.case.clone()), r))
        .collect();
    let mut kept_ms = 0u64;
    let mut results = Vec::with_capacity(entries.len() * entrants.len());
    for ((first, entrant), info) in firsts.into_iter().zip(entrants).zip(&infos) {
        let verdict = |entry: &CaseEntry, checks: Vec<CheckResult>, ms: u64| {
            let known = entrant
                .known_failures
                .lookup(&entry.id)
                .map(|k| k.reason.clone());
            CaseResult::new(&entrant.name, entry, checks, known, ms)
        };
        let mut slots: Vec<Option<CaseResult>> = Vec::with_capacity(entries.len());
        let mut todo = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            match kept.remove(&(entrant.name.clone(), entry.id.clone())) {
                Some(r) => {
                    kept_ms = kept_ms.saturating_add(r.duration_ms);
                    slots.push(Some(verdict(entry, r.checks, r.duration_ms)));
                }
                None => {
                    slots.push(None);
                    todo.push(i);
                }
            }
        }
        let next = AtomicUsize::new(0);
        let mut finish = |(i, checks, ms): Finished| {
            let r = verdict(entries[i], checks, ms);
            on_case(&r);
            slots[i] = Some(r);
        };
        let shook = first.info.is_some();
        let mut instances = vec![first];
        for _ in 1..jobs.min(todo.len()) {
            let mut r = ImplRunner::new(&entrant.name, entrant.factory.clone(), options);
            r.expected = shook.then(|| info.clone());
            instances.push(r);
        }
        if instances.len() == 1 {
            for r in &mut instances {
                serve(r, corpus, entries, &todo, &next, &mut finish);
            }
        } else {
            let (tx, rx) = mpsc::channel::<Finished>();
            std::thread::scope(|scope| {
                for r in &mut instances {
                    let tx = tx.clone();
                    let (todo, next) = (&todo, &next);
                    scope.spawn(move || {
                        serve(r, corpus, entries, todo, next, &mut |f| {
                            let _ = tx.send(f);
                        });
                    });
                }
                drop(tx);
                for f in rx {
                    finish(f);
                }
            });
        }
        // Every instance stopped on its budget: the cases nobody took are NOTRUN.
        let budget = options.restart_budget;
        for (i, slot) in slots.iter_mut().enumerate() {
            if slot.is_none() {
                let r = verdict(
                    entries[i],
                    vec![CheckResult::new(
                        "case",
                        Status::Notrun,
                        format!("restart budget of {budget} exhausted"),
                    )],
                    0,
                );
                on_case(&r);
                *slot = Some(r);
            }
        }
        results.extend(slots.into_iter().flatten());
    }
    Run {
        suite: format!("physics-cts {}", env!("CARGO_PKG_VERSION")),
        corpus: corpus_label.to_owned(),
        implementations: infos,
        results,
        duration_ms: millis(started.elapsed()).saturating_add(kept_ms),
    }
}
