//! `physics-cts fuzz`: a live search. Scenes are drawn from the generator's strategies
//! ([`generator::draw`]), labelled by the corpus writer exactly as `generate` labels them, and
//! run on an implementation by the runner and checks of `run`; the lowest failing draws of each
//! symptom (a check kind failing one way) are shrunk to a small case ([`shrink`]) and written as
//! a case folder `run --corpus` reads ([`report`]).
//!
//! The search is in two phases so that the same seed and implementation give the same
//! findings whatever `--jobs` is: the draws are run (instance `k` of `jobs` takes draws `k`,
//! `k + jobs`, ...), then each symptom's lowest failing draws are shrunk.

pub mod probe;
pub mod report;
pub mod shrink;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use generator::draw::{self, Size};
use reference::profile::Profile;

use crate::implementation::{Capabilities, CheckFamily, Factory};
use crate::runner::Options as RunnerOptions;
use crate::status::Status;
use probe::{Probe, Symptom, Trial};
use report::{Counts, Finding, FirstFinding, Shrinking};
pub use shrink::Budget;

/// When the search phase stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimit {
    pub time: Option<Duration>,
    pub draws: Option<u64>,
}

/// What to search.
#[derive(Clone)]
pub struct Settings {
    /// The implementation's name (reports, work folders).
    pub implementation: String,
    pub factory: Factory,
    /// The un-mutated implementation, when `factory` carries a seeded bug: a finding's case is
    /// run on it too, and must pass there.
    pub control: Option<Factory>,
    /// Profiles to draw; empty: every profile the implementation declares.
    pub profiles: Vec<Profile>,
    pub limit: SearchLimit,
    pub seed: u64,
    pub jobs: usize,
    pub shrink: Budget,
    pub runner: RunnerOptions,
    /// Where candidates are written while they run (removed at the end).
    pub work: PathBuf,
}

impl std::fmt::Debug for Settings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Settings")
            .field("implementation", &self.implementation)
            .field("seed", &self.seed)
            .field("limit", &self.limit)
            .finish()
    }
}

/// Why a search could not run.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    #[error("{implementation} did not complete its handshake: {status} {message}")]
    Handshake {
        implementation: String,
        status: Status,
        message: String,
    },
    #[error("{implementation} declares none of the profiles to draw ({wanted})")]
    NoProfile {
        implementation: String,
        wanted: String,
    },
    #[error("writing a candidate under {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// What a search found.
#[derive(Debug)]
pub struct Outcome {
    pub profiles: Vec<Profile>,
    pub counts: Counts,
    pub first: Option<FirstFinding>,
    /// One per symptom, by symptom.
    pub findings: Vec<Shrunken>,
    /// Candidates the reference reads otherwise than the generator expects (suite bugs).
    pub disagreements: Vec<String>,
    pub search_time: Duration,
}

/// A symptom's shrunk case, before it is written.
#[derive(Debug)]
pub struct Shrunken {
    pub finding: Finding,
    pub original: generator::case::Case,
    pub shrunk: generator::case::Case,
}

/// Progress of a search, for a bar or a log line.
pub trait Progress: Sync {
    /// A draw ran: the counts so far and the number of symptoms seen.
    fn drawn(&self, counts: &Counts, symptoms: usize);
    /// Shrinking of a symptom started.
    fn shrinking(&self, symptom: &Symptom);
}

/// No progress shown.
#[derive(Debug)]
pub struct Quiet;

impl Progress for Quiet {
    fn drawn(&self, _: &Counts, _: usize) {}
    fn shrinking(&self, _: &Symptom) {}
}

/// The lowest draw of each symptom, and the counts, shared by the search's instances.
#[derive(Debug, Default)]
struct SearchTally {
    counts: Counts,
    /// The lowest draw of each profile showing each symptom.
    first: BTreeMap<Symptom, BTreeMap<Option<Profile>, u64>>,
    first_finding: Option<FirstFinding>,
    disagreements: BTreeMap<u64, String>,
}

/// Run the search and shrink what it finds.
pub fn fuzz(settings: &Settings, progress: &dyn Progress) -> Result<Outcome, FuzzError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| FuzzError::Io { path, source }
    };
    let jobs = settings.jobs.max(1);
    let mut probes: Vec<Probe> = (0..jobs)
        .map(|k| {
            Probe::new(
                &settings.implementation,
                (settings.factory.clone(), settings.control.clone()),
                settings.runner,
                &settings.work.join(format!("instance-{k}")),
                settings.seed,
            )
        })
        .collect();
    let caps = handshake(settings, &mut probes[0])?;
    let profiles = profiles(settings, &caps)?;
    let plan = draw::SearchPlan::new(&profiles, caps.checks.contains(&CheckFamily::Validation));

    // Search.
    let start = Instant::now();
    let found = Mutex::new(SearchTally::default());
    let failed = AtomicBool::new(false);
    let error: Mutex<Option<FuzzError>> = Mutex::new(None);
    let over = |n: u64| {
        settings.limit.draws.is_some_and(|d| n >= d)
            || settings.limit.time.is_some_and(|t| start.elapsed() >= t)
            || failed.load(Ordering::Relaxed)
    };
    std::thread::scope(|s| {
        for (k, probe) in probes.iter_mut().enumerate() {
            let (found, error, failed, plan) = (&found, &error, &failed, &plan);
            s.spawn(move || {
                let mut n = k as u64;
                while !over(n) {
                    match search_one(plan, settings.seed, n, probe) {
                        Ok(Some((profile, trial))) => {
                            record(found, (n, profile), &trial, start, progress);
                        }
                        Ok(None) => {}
                        Err(e) => {
                            failed.store(true, Ordering::Relaxed);
                            *error.lock().unwrap_or_else(|p| p.into_inner()) =
                                Some(io(&settings.work)(e));
                        }
                    }
                    n += jobs as u64;
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let search_time = start.elapsed();
    let found = found.into_inner().unwrap_or_else(|p| p.into_inner());

    // Shrink each symptom's lowest draw, instances taking symptoms in turn.
    let symptoms: Vec<(Symptom, Vec<u64>)> = found
        .first
        .into_iter()
        .map(|(s, per_profile)| {
            let mut draws: Vec<u64> = per_profile.into_values().collect();
            draws.sort_unstable();
            (s, draws)
        })
        .collect();
    let queue = Mutex::new(symptoms.iter().collect::<Vec<_>>().into_iter());
    let results: Mutex<Vec<Shrunken>> = Mutex::new(Vec::new());
    let error: Mutex<Option<FuzzError>> = Mutex::new(None);
    std::thread::scope(|s| {
        for probe in probes.iter_mut() {
            let (queue, results, error, plan) = (&queue, &results, &error, &plan);
            s.spawn(move || {
                loop {
                    let next = queue.lock().unwrap_or_else(|p| p.into_inner()).next();
                    let Some((symptom, draws)) = next else { break };
                    progress.shrinking(symptom);
                    match smallest_finding(settings, plan, probe, symptom, draws) {
                        Ok(Some(f)) => results.lock().unwrap_or_else(|p| p.into_inner()).push(f),
                        Ok(None) => {}
                        Err(e) => {
                            *error.lock().unwrap_or_else(|p| p.into_inner()) =
                                Some(io(&settings.work)(e));
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let mut findings = results.into_inner().unwrap_or_else(|p| p.into_inner());
    findings.sort_by(|a, b| {
        (&a.finding.check, a.finding.status).cmp(&(&b.finding.check, b.finding.status))
    });
    let _ = std::fs::remove_dir_all(&settings.work);
    Ok(Outcome {
        profiles,
        counts: found.counts,
        first: found.first_finding,
        findings,
        disagreements: found.disagreements.into_values().collect(),
        search_time,
    })
}

fn handshake(settings: &Settings, probe: &mut Probe) -> Result<Capabilities, FuzzError> {
    probe.capabilities().map_err(|r| FuzzError::Handshake {
        implementation: settings.implementation.clone(),
        status: r.status,
        message: r.message,
    })
}

/// The profiles to draw: those asked for (or every profile) that the implementation declares.
fn profiles(settings: &Settings, caps: &Capabilities) -> Result<Vec<Profile>, FuzzError> {
    let asked: Vec<Profile> = if settings.profiles.is_empty() {
        Profile::ALL.to_vec()
    } else {
        settings.profiles.clone()
    };
    let declared: Vec<Profile> = asked
        .iter()
        .copied()
        .filter(|p| caps.profiles.contains(p))
        .collect();
    if declared.is_empty() {
        return Err(FuzzError::NoProfile {
            implementation: settings.implementation.clone(),
            wanted: asked.iter().map(|p| p.id()).collect::<Vec<_>>().join(", "),
        });
    }
    Ok(declared)
}

/// Draw `n` and run it: the case's profile and the trial; `None` when the draw makes no case
/// (no base takes its defect).
fn search_one(
    plan: &draw::SearchPlan,
    seed: u64,
    n: u64,
    probe: &mut Probe,
) -> std::io::Result<Option<(Option<Profile>, Trial)>> {
    let Some(case) = plan.draw(seed, n).and_then(|d| d.case()) else {
        return Ok(None);
    };
    probe.run(&case).map(|t| Some((case.profile, t)))
}

fn record(
    found: &Mutex<SearchTally>,
    (n, profile): (u64, Option<Profile>),
    trial: &Trial,
    start: Instant,
    progress: &dyn Progress,
) {
    let mut f = found.lock().unwrap_or_else(|p| p.into_inner());
    f.counts.add(trial);
    if let Some(d) = &trial.disagreement {
        f.disagreements.insert(n, d.clone());
    }
    let symptoms = trial.symptoms();
    if !symptoms.is_empty() && f.first_finding.is_none_or(|first| n < first.draw) {
        f.first_finding = Some(FirstFinding {
            draw: n,
            after_s: report::seconds(start.elapsed()),
        });
    }
    for s in symptoms {
        let lowest = f.first.entry(s).or_default().entry(profile).or_insert(n);
        *lowest = (*lowest).min(n);
    }
    progress.drawn(&f.counts, f.first.len());
}

/// Nodes carrying an extension in a shrunk case small enough to stop at.
const SMALL: usize = 3;

/// The smallest shrunk case of a symptom's draws (the lowest of each profile, lowest first),
/// by nodes carrying an extension, then nodes, then bytes; a flaky one only when every draw
/// is. It stops at the first of [`SMALL`] nodes carrying an extension: a profile whose scenes
/// need more objects for the symptom (an OMI joint between bodies with child colliders) is
/// often beaten by another's.
fn smallest_finding(
    settings: &Settings,
    plan: &draw::SearchPlan,
    probe: &mut Probe,
    symptom: &Symptom,
    draws: &[u64],
) -> std::io::Result<Option<Shrunken>> {
    let mut best: Option<Shrunken> = None;
    for n in draws {
        let Some(f) = finding(settings, plan, probe, symptom, *n)? else {
            continue;
        };
        let key = |f: &Shrunken| {
            let a = f.finding.shrinking.after;
            (f.finding.flaky, a.extension_nodes, a.nodes, a.bytes)
        };
        if best.as_ref().is_none_or(|b| key(&f) < key(b)) {
            best = Some(f);
        }
        if best
            .as_ref()
            .is_some_and(|b| !b.finding.flaky && b.finding.shrinking.after.extension_nodes <= SMALL)
        {
            break;
        }
    }
    Ok(best)
}

/// Draw `n` again, confirm it shows `symptom`, shrink it, run the shrunk case once more (a
/// case that then passes is flaky), and on the un-mutated implementation when there is one.
fn finding(
    settings: &Settings,
    plan: &draw::SearchPlan,
    probe: &mut Probe,
    symptom: &Symptom,
    n: u64,
) -> std::io::Result<Option<Shrunken>> {
    let Some(mut draw) = plan.draw(settings.seed, n) else {
        return Ok(None);
    };
    let Some(original) = draw.case() else {
        return Ok(None);
    };
    let trial = probe.run(&original)?;
    let before = Size::of(&original);
    let (shrunk, flaky) = if trial.showing(symptom).is_some() {
        let s = shrink::shrink(
            &mut draw,
            probe,
            symptom,
            (original.clone(), trial),
            settings.shrink,
        )?;
        let again = probe.run(&s.case)?;
        let flaky = again.showing(symptom).is_none();
        (Some(s), flaky)
    } else {
        // It failed once and not again: reported as it is, unshrunk.
        (None, true)
    };
    let without = match &settings.control {
        Some(control) => {
            let case = shrunk.as_ref().map_or(&original, |s| &s.case);
            let mut clean = Probe::new(
                &settings.implementation,
                (control.clone(), None),
                settings.runner,
                &settings.work.join(format!("control-{n}")),
                settings.seed,
            );
            Some(clean.run(case)?.status())
        }
        None => None,
    };
    let (case, trial, steps, kept, stop) = match shrunk {
        Some(s) => (s.case, s.trial, s.steps, s.kept, Some(s.stop)),
        None => {
            let t = probe.run(&original)?;
            (original.clone(), t, 0, 0, None)
        }
    };
    let check = trial.showing(symptom).cloned();
    Ok(Some(Shrunken {
        finding: Finding::new(
            symptom,
            check.as_ref(),
            &case,
            (settings.seed, n),
            Shrinking {
                before,
                after: Size::of(&case),
                steps,
                kept,
                stop,
            },
            flaky,
            without,
        ),
        original,
        shrunk: case,
    }))
}
