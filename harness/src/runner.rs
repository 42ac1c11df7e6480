//! The runner: one case at a time through the [`Implementation`] interface.
//!
//! Per case: the capability gate first (`NOT_SUPPORTED` / `SKIP` without a call), then the
//! calls on a worker thread that owns the implementation, each inside `catch_unwind` (a panic
//! is a `CRASH` with its message, and the worker builds a fresh implementation), under a
//! deadline per case (`TIMEOUT`: the worker is abandoned and a new one is started, its
//! handshake replayed). [`ImplError`]s map to statuses: `NotSupported` -> `NOT_SUPPORTED`,
//! `Failed` -> `ERROR`, `BadRequest` (we asked wrongly) -> `HARNESS_ERROR`. A restart budget
//! turns the rest of the run into `NOTRUN`.
//!
//! [`resume_matrix`] runs each implementation with `Options::jobs` instances in parallel (each
//! with its own worker, its own restart budget, taking the next case when free) and keeps the
//! results of an interrupted run; results come back in entry order whatever the completion
//! order. Each instance keeps two cases queued on its worker, so the worker goes from one case
//! to the next without waiting for the instance to wake up, and the instance reads the next
//! case's expectation file while the worker runs: the harness's reading overlaps the
//! implementation's work.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::case::{CaseEntry, Corpus, LoadedCase, PoseOutputs, Scenario};
use crate::check::dynamics::Observation;
use crate::check::{self, CheckResult, validation};
use crate::implementation::{
    Action, Capabilities, Handshake, ImplError, Implementation, Interpretation, LoadOutcome,
    LoadRequest, NodeTrs,
};
use crate::known_failures::KnownFailures;
use crate::results::{CaseResult, ImplInfo, Run};
use crate::status::Status;
use reference::case::TimedAction;

/// Builds a fresh implementation (at start, and after a crash or a timeout).
pub type Factory = Arc<dyn Fn() -> Box<dyn Implementation + Send> + Send + Sync>;

/// The check families of the capabilities.
pub const VALIDATION: &str = "validation";
pub const INTERPRETATION: &str = "interpretation";
pub const CONSTRAINTS: &str = "constraints";
pub const DYNAMICS: &str = "dynamics";

/// How a run treats slow and crashing implementations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Wall-time limit of one case (all its calls).
    pub deadline: Duration,
    /// Crashes and timeouts tolerated per implementation instance (per process for `stdio`)
    /// before that instance stops taking cases; when every instance has stopped, the rest of
    /// the run is `NOTRUN`.
    pub restart_budget: u32,
    /// Implementation instances run in parallel (`--jobs`), each with its own worker and
    /// restart budget; cases go to whichever instance is free.
    pub jobs: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            deadline: Duration::from_secs(30),
            restart_budget: 20,
            jobs: 1,
        }
    }
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".to_owned())
}

/// The status an implementation's error maps to.
pub fn error_status(e: &ImplError) -> Status {
    match e {
        ImplError::NotSupported(_) => Status::NotSupported,
        ImplError::Failed(_) => Status::Error,
        ImplError::BadRequest(_) => Status::HarnessError,
        ImplError::Timeout(_) => Status::Timeout,
        ImplError::Crashed(_) => Status::Crash,
        ImplError::Protocol(_) => Status::HarnessError,
        ImplError::NotRun(_) => Status::Notrun,
    }
}

/// Whether an error left the implementation unusable (an out-of-process one was killed): the
/// rest of the case is `NOTRUN` and the implementation is rebuilt.
pub fn is_fatal(e: &ImplError) -> bool {
    matches!(
        e,
        ImplError::Timeout(_) | ImplError::Crashed(_) | ImplError::Protocol(_)
    )
}

/// The capability gate: a result without any call when the case cannot or need not run.
pub fn gate(caps: &Capabilities, entry: &CaseEntry) -> Option<CheckResult> {
    const CHECK: &str = "capabilities";
    if entry.profile.is_none() {
        return Some(CheckResult::new(
            CHECK,
            Status::Skip,
            "no profile applies to the case",
        ));
    }
    let known = entry.profile.as_ref().and_then(|p| p.known());
    if !known.is_some_and(|p| caps.profiles.contains(&p)) {
        return Some(CheckResult::new(
            CHECK,
            Status::NotSupported,
            format!("profile {} is not declared", entry.profile_id()),
        ));
    }
    if !entry.valid && !caps.checks.iter().any(|c| c.name() == VALIDATION) {
        return Some(CheckResult::new(
            CHECK,
            Status::Skip,
            "invalid case; the implementation does not take part in validation",
        ));
    }
    let missing: Vec<&str> = entry
        .features
        .iter()
        .filter(|f| !caps.supports_feature(f))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Some(CheckResult::new(
            CHECK,
            Status::NotSupported,
            format!("features not declared: {}", missing.join(" ")),
        ));
    }
    None
}

/// What the implementation's calls of one case returned, in call order, before any verdict.
/// The worker makes the calls ([`calls`]); the instance judges them ([`judge`]) while the
/// worker runs the next case, so the checks overlap the implementation's work.
#[derive(Debug)]
pub struct Execution {
    pub outcomes: Vec<Outcome>,
    /// A call panicked: the implementation must be rebuilt.
    pub crashed: bool,
}

/// One entry of an [`Execution`].
#[derive(Debug)]
pub enum Outcome {
    /// Decided by the runner alone: a failed call, a skipped or not-run family.
    Decided(CheckResult),
    Load(LoadOutcome),
    Interpretation(Interpretation),
    /// The outputs for `case.poses[i]`.
    Constraints(usize, Vec<NodeTrs>),
    Dynamics(Vec<Observation>),
}

/// A failed call: its check result, and whether it was a panic.
pub type Failure = Box<(CheckResult, bool)>;

/// One guarded call: `Ok(value)`, or the check result of its error or panic.
fn call<T>(name: &str, f: impl FnOnce() -> Result<T, ImplError>) -> Result<T, Failure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Box::new((
            CheckResult::new(name, error_status(&e), e.to_string()),
            is_fatal(&e),
        ))),
        Err(p) => Err(Box::new((
            CheckResult::new(
                name,
                Status::Crash,
                format!("panicked: {}", panic_message(&*p)),
            ),
            true,
        ))),
    }
}

/// Make a case's calls (the gate has passed), guarded, recording what they returned.
pub fn calls(imp: &mut dyn Implementation, caps: &Capabilities, case: &LoadedCase) -> Execution {
    let mut outcomes = Vec::new();
    let crashed = run_families(imp, caps, case, &mut outcomes).is_err();
    if !crashed && let Err(f) = call("unload", || imp.unload()) {
        let (r, c) = *f;
        // Failing to unload is only worth a line when it crashed.
        if c {
            outcomes.push(Outcome::Decided(r));
            return Execution {
                outcomes,
                crashed: true,
            };
        }
    }
    Execution { outcomes, crashed }
}

/// The check results of a case's outcomes, in order.
pub fn judge(case: &LoadedCase, outcomes: Vec<Outcome>) -> Vec<CheckResult> {
    let mut out = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        match o {
            Outcome::Decided(r) => out.push(r),
            Outcome::Load(outcome) if case.entry.valid => {
                out.push(validation::valid(case, &outcome));
            }
            Outcome::Load(outcome) => out.push(validation::invalid(case, &outcome)),
            Outcome::Interpretation(got) => {
                if let Some(want) = &case.interpretation {
                    out.extend(check::interpretation::check(want, &got, &case.tolerances));
                }
            }
            Outcome::Constraints(i, got) => {
                if let Some(pose) = case.poses.get(i) {
                    let decisions: Vec<&str> = case
                        .decisions
                        .iter()
                        .map(|d| d.id())
                        .filter(|d| d.starts_with("D-VRM"))
                        .collect();
                    out.extend(check::constraints::check(
                        pose,
                        &got,
                        &case.tolerances,
                        &decisions,
                    ));
                }
            }
            Outcome::Dynamics(observations) => {
                if let Some(scenario) = &case.scenario {
                    out.extend(check::dynamics::check(
                        scenario,
                        case.interpretation.as_ref(),
                        &observations,
                    ));
                }
            }
        }
    }
    out
}

/// `Err(())` when a call crashed (the remaining families are then `NOTRUN`).
fn run_families(
    imp: &mut dyn Implementation,
    caps: &Capabilities,
    case: &LoadedCase,
    out: &mut Vec<Outcome>,
) -> Result<(), ()> {
    let declares = |family: &str| caps.checks.iter().any(|c| c.name() == family);
    // The gate passed: the profile is known.
    let Some(profile) = case.entry.profile.as_ref().and_then(|p| p.known()) else {
        return Ok(());
    };
    let request = LoadRequest {
        path: std::path::absolute(&case.path).unwrap_or_else(|_| case.path.clone()),
        profile,
    };
    let name = if case.entry.valid {
        validation::LOAD
    } else {
        validation::REJECT
    };
    let outcome = match call(name, || imp.load(&request)) {
        Ok(o) => o,
        Err(f) => return failed(out, f),
    };
    let rejected = matches!(outcome, LoadOutcome::Rejected { .. });
    out.push(Outcome::Load(outcome));
    if !case.entry.valid || rejected {
        return Ok(());
    }
    let families: Vec<(&str, bool)> = vec![
        (INTERPRETATION, true),
        (
            CONSTRAINTS,
            case.poses.iter().any(PoseOutputs::has_constraints),
        ),
        (DYNAMICS, case.scenario.is_some()),
    ];
    for (i, (family, has_data)) in families.iter().enumerate() {
        if !declares(family) {
            if *has_data && *family != INTERPRETATION {
                out.push(Outcome::Decided(CheckResult::new(
                    *family,
                    Status::Skip,
                    format!("the implementation does not take part in {family}"),
                )));
            }
            continue;
        }
        let result = match *family {
            INTERPRETATION => interpretation(imp, case, out),
            CONSTRAINTS if *has_data => constraints(imp, case, out),
            DYNAMICS if *has_data => dynamics(imp, case, out),
            _ => Ok(()),
        };
        if result.is_err() {
            for (rest, data) in &families[i + 1..] {
                if *data && declares(rest) {
                    out.push(Outcome::Decided(CheckResult::new(
                        *rest,
                        Status::Notrun,
                        "an earlier call crashed",
                    )));
                }
            }
            return Err(());
        }
    }
    Ok(())
}

/// Record the error's check; `Err(())` when it was a crash.
#[allow(
    clippy::boxed_local,
    reason = "the boxed failure is what every call returns"
)]
fn failed(out: &mut Vec<Outcome>, f: Failure) -> Result<(), ()> {
    let (r, crashed) = *f;
    out.push(Outcome::Decided(r));
    if crashed { Err(()) } else { Ok(()) }
}

fn interpretation(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Outcome>,
) -> Result<(), ()> {
    if case.interpretation.is_none() {
        out.push(Outcome::Decided(CheckResult::new(
            INTERPRETATION,
            Status::Skip,
            "the case carries no expected interpretation",
        )));
        return Ok(());
    }
    match call(INTERPRETATION, || imp.interpretation()) {
        Ok(got) => {
            out.push(Outcome::Interpretation(got));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

fn constraints(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Outcome>,
) -> Result<(), ()> {
    for (i, pose) in case.poses.iter().enumerate() {
        if !pose.has_constraints() {
            continue;
        }
        let name = format!("constraints.{}", pose.name);
        match call(&name, || imp.evaluate_constraints(&pose.poses)) {
            Ok(got) => out.push(Outcome::Constraints(i, got)),
            Err(e) => failed(out, e)?,
        }
    }
    Ok(())
}

/// One request of a scenario's run after `configure` (the interface's type, named here too).
pub use crate::implementation::Request;

/// The requests of a scenario in order: observe once, then step in chunks up to each
/// action and observation point, applying actions just before their step. The one place
/// that knows the cadence (the runner and the overhead bench's bare loop both follow it).
///
/// Example: 10 steps, `observe_every` 4, an action at step 6: observe(0), step 4,
/// observe(4), step 2, apply, step 2, observe(8), step 2, observe(10).
pub fn schedule(scenario: &Scenario<Action>) -> Vec<Request<'_>> {
    let mut actions: Vec<&TimedAction<Action>> = scenario.actions().iter().collect();
    actions.sort_by_key(|a| a.step);
    let every = scenario.observe_every.max(1);
    let mut out = Vec::with_capacity(2 * (scenario.steps / every) as usize + 2 * actions.len() + 2);
    out.push(Request::Observe(0));
    let mut done = 0u32;
    let mut next_action = 0usize;
    while done < scenario.steps {
        while let Some(a) = actions.get(next_action).filter(|a| a.step <= done) {
            out.push(Request::Apply(&a.action));
            next_action += 1;
        }
        let next_observe = (done / every + 1) * every;
        let mut until = next_observe.min(scenario.steps);
        if let Some(a) = actions.get(next_action) {
            until = until.min(a.step.max(done + 1));
        }
        out.push(Request::Step(until - done));
        done = until;
        if done.is_multiple_of(every) || done == scenario.steps {
            out.push(Request::Observe(done));
        }
    }
    out
}

/// Run the scenario: configure, then the [`schedule`]'s requests, in one guarded
/// [`Implementation::simulate`] call (one round trip over stdio when the implementation
/// batches). A number of states other than the observations asked for is a harness error.
pub fn simulate(
    imp: &mut dyn Implementation,
    scenario: &Scenario<Action>,
) -> Result<Vec<Observation>, Failure> {
    let requests = schedule(scenario);
    let steps: Vec<u32> = requests
        .iter()
        .filter_map(|r| match r {
            Request::Observe(step) => Some(*step),
            _ => None,
        })
        .collect();
    let states = call(DYNAMICS, || {
        let states = imp.simulate(&scenario.config, &requests)?;
        if states.len() != steps.len() {
            return Err(ImplError::Protocol(format!(
                "simulate gave {} states for {} observations",
                states.len(),
                steps.len()
            )));
        }
        Ok(states)
    })?;
    Ok(steps
        .into_iter()
        .zip(states)
        .map(|(step, state)| Observation { step, state })
        .collect())
}

fn dynamics(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Outcome>,
) -> Result<(), ()> {
    let Some(scenario) = &case.scenario else {
        return Ok(());
    };
    match simulate(imp, scenario) {
        Ok(observations) => {
            out.push(Outcome::Dynamics(observations));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

enum Job {
    Handshake,
    Case(Arc<LoadedCase>, Arc<Capabilities>),
}

enum Reply {
    Handshake(Result<Handshake, Box<CheckResult>>),
    /// A case's execution and its wall time on the worker.
    Case(Execution, Duration),
}

/// The worker thread: owns the implementation, rebuilds it after a crash. `first` is the
/// implementation's first handshake, which a rebuilt one must repeat.
fn worker(
    factory: Factory,
    mut first: Option<Handshake>,
    jobs: Receiver<Job>,
    replies: Sender<Reply>,
) {
    let mut imp: Option<Box<dyn Implementation + Send>> = None;
    for job in jobs {
        if imp.is_none() {
            match catch_unwind(AssertUnwindSafe(|| factory())) {
                Ok(mut fresh) => {
                    // Replay the handshake on a rebuilt implementation, as a process restart would.
                    if !matches!(job, Job::Handshake)
                        && let Err(r) = replay(fresh.as_mut(), first.as_ref())
                    {
                        let execution = Execution {
                            outcomes: vec![Outcome::Decided(*r)],
                            crashed: true,
                        };
                        let _ = replies.send(Reply::Case(execution, Duration::ZERO));
                        continue;
                    }
                    imp = Some(fresh);
                }
                Err(p) => {
                    let r = CheckResult::new(
                        "handshake",
                        Status::Crash,
                        format!(
                            "building the implementation panicked: {}",
                            panic_message(&*p)
                        ),
                    );
                    let reply = match job {
                        Job::Handshake => Reply::Handshake(Err(Box::new(r))),
                        Job::Case(..) => Reply::Case(
                            Execution {
                                outcomes: vec![Outcome::Decided(r)],
                                crashed: true,
                            },
                            Duration::ZERO,
                        ),
                    };
                    if replies.send(reply).is_err() {
                        return;
                    }
                    continue;
                }
            }
        }
        let Some(current) = imp.as_mut() else {
            continue;
        };
        let reply = match job {
            Job::Handshake => match call("handshake", || current.handshake()) {
                Ok(h) => {
                    first = Some(h.clone());
                    Reply::Handshake(Ok(h))
                }
                Err(f) => {
                    let (r, crashed) = *f;
                    if crashed {
                        imp = None;
                    }
                    Reply::Handshake(Err(Box::new(r)))
                }
            },
            Job::Case(case, caps) => {
                let started = Instant::now();
                let e = calls(current.as_mut(), &caps, &case);
                if e.crashed {
                    imp = None;
                }
                Reply::Case(e, started.elapsed())
            }
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}

/// The handshake of a rebuilt implementation: an error, or a handshake other than the first
/// (an engine that changed under the run), is the case's failure.
fn replay(imp: &mut dyn Implementation, first: Option<&Handshake>) -> Result<(), Box<CheckResult>> {
    let h = call("handshake", || imp.handshake()).map_err(|f| Box::new(f.0))?;
    match first {
        Some(first) if *first != h => Err(boxed(
            "handshake",
            Status::HarnessError,
            format!(
                "the restarted implementation's handshake ({} {}) differs from its first one ({} {})",
                h.version, h.engine, first.version, first.engine
            ),
        )),
        _ => Ok(()),
    }
}

struct Worker {
    jobs: Sender<Job>,
    replies: Receiver<Reply>,
    /// Its thread: the processes it started are registered under it ([`crate::children`]).
    thread: std::thread::ThreadId,
}

impl Worker {
    fn start(name: &str, factory: Factory, first: Option<Handshake>) -> Option<Worker> {
        let (jobs, job_rx) = mpsc::channel();
        let (reply_tx, replies) = mpsc::channel();
        let handle = std::thread::Builder::new()
            .name(format!("impl-{name}"))
            .spawn(move || worker(factory, first, job_rx, reply_tx))
            .ok()?;
        Some(Worker {
            jobs,
            replies,
            thread: handle.thread().id(),
        })
    }
}

fn boxed(check: &str, status: Status, message: impl Into<String>) -> Box<CheckResult> {
    Box::new(CheckResult::new(check, status, message))
}

/// A case that passed the budget, the handshake and the gate, ready for the worker.
#[derive(Debug)]
pub enum Prepared {
    /// Decided without a call (gate, budget, unreadable case).
    Done(Vec<CheckResult>),
    Ready(Arc<LoadedCase>, Arc<Capabilities>),
}

/// A case on the worker's queue: the case itself (its checks are judged against it, and it is
/// sent again when the worker is abandoned before reaching it), and when it was sent.
#[derive(Debug)]
struct InFlight {
    case: Arc<LoadedCase>,
    caps: Arc<Capabilities>,
    /// `None`: no worker could take it.
    sent: Option<Instant>,
}

/// Runs cases on one implementation instance.
pub struct ImplRunner {
    pub name: String,
    factory: Factory,
    options: Options,
    worker: Option<Worker>,
    info: Option<ImplInfo>,
    caps: Option<Arc<Capabilities>>,
    /// The handshake another instance of the same implementation gave (`--jobs`): this one
    /// must say the same.
    expected: Option<ImplInfo>,
    restarts: u32,
    /// The first handshake, which every restart must repeat.
    first: Option<Handshake>,
    /// Cases dispatched and not collected yet, in order: the worker answers in that order.
    queue: VecDeque<InFlight>,
    /// When the last case's execution came back: the worker starts a queued case then.
    last_reply: Option<Instant>,
}

impl std::fmt::Debug for ImplRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImplRunner")
            .field("name", &self.name)
            .field("restarts", &self.restarts)
            .finish()
    }
}

impl ImplRunner {
    pub fn new(name: &str, factory: Factory, options: Options) -> ImplRunner {
        ImplRunner {
            name: name.to_owned(),
            factory,
            options,
            worker: None,
            info: None,
            caps: None,
            expected: None,
            restarts: 0,
            first: None,
            queue: VecDeque::new(),
            last_reply: None,
        }
    }

    /// Crashes and timeouts so far.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    /// Whether the restart budget is spent: every further case is `NOTRUN`.
    pub fn exhausted(&self) -> bool {
        self.restarts > self.options.restart_budget
    }

    fn worker(&mut self) -> Result<&Worker, Box<CheckResult>> {
        if self.worker.is_none() {
            let w = Worker::start(&self.name, self.factory.clone(), self.first.clone())
                .ok_or_else(|| boxed("handshake", Status::HarnessError, "cannot start a thread"))?;
            self.worker = Some(w);
        }
        self.worker
            .as_ref()
            .ok_or_else(|| boxed("handshake", Status::HarnessError, "no worker"))
    }

    /// Drop a stuck or dead worker, counting a restart; the cases queued on it go to a fresh
    /// worker, in order. The thread may still be inside a call; dropping the channels makes it
    /// end after it, without running its queue.
    fn abandon(&mut self) {
        if let Some(w) = self.worker.take() {
            // The implementation processes it started end now, not when its call times out
            // on its own (the thread, woken by their end, reaps them).
            crate::children::end_started_by(w.thread);
        }
        self.restarts += 1;
        if self.exhausted() {
            return;
        }
        let mut queue = std::mem::take(&mut self.queue);
        for flight in &mut queue {
            flight.sent = self.send(&flight.case, &flight.caps);
        }
        self.queue = queue;
    }

    /// Send a case to the worker (started if needed): when, or `None` when no worker took it.
    fn send(&mut self, case: &Arc<LoadedCase>, caps: &Arc<Capabilities>) -> Option<Instant> {
        let w = self.worker().ok()?;
        w.jobs
            .send(Job::Case(case.clone(), caps.clone()))
            .ok()
            .map(|()| Instant::now())
    }

    /// The implementation's handshake (made once; replayed by the worker after restarts).
    pub fn handshake(&mut self) -> Result<ImplInfo, Box<CheckResult>> {
        if let Some(info) = &self.info {
            return Ok(info.clone());
        }
        let deadline = self.options.deadline;
        let w = self.worker()?;
        if w.jobs.send(Job::Handshake).is_err() {
            self.abandon();
            return Err(boxed("handshake", Status::Crash, "the worker died"));
        }
        match w.replies.recv_timeout(deadline) {
            Ok(Reply::Handshake(Ok(h))) => {
                self.first = Some(h.clone());
                let info = ImplInfo {
                    name: self.name.clone(),
                    version: h.version,
                    engine: h.engine,
                    capabilities: h.capabilities,
                };
                if let Some(first) = self.expected.as_ref().filter(|e| **e != info) {
                    return Err(boxed(
                        "handshake",
                        Status::HarnessError,
                        format!(
                            "this instance's handshake ({} {}) differs from the first instance's ({} {})",
                            info.version, info.engine, first.version, first.engine
                        ),
                    ));
                }
                self.caps = Some(Arc::new(info.capabilities.clone()));
                self.info = Some(info.clone());
                Ok(info)
            }
            Ok(Reply::Handshake(Err(r))) => {
                // A handshake that crashed or timed out was a (re)start: it spends the budget.
                if matches!(r.status, Status::Crash | Status::Timeout) {
                    self.restarts += 1;
                }
                Err(r)
            }
            Ok(Reply::Case(..)) => Err(boxed(
                "handshake",
                Status::HarnessError,
                "the worker answered out of turn",
            )),
            Err(RecvTimeoutError::Timeout) => {
                self.abandon();
                Err(boxed(
                    "handshake",
                    Status::Timeout,
                    format!("no handshake within {:?}", deadline),
                ))
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.abandon();
                Err(boxed("handshake", Status::Crash, "the worker died"))
            }
        }
    }

    fn notrun(&self) -> Vec<CheckResult> {
        vec![CheckResult::new(
            "case",
            Status::Notrun,
            format!(
                "restart budget of {} exhausted",
                self.options.restart_budget
            ),
        )]
    }

    /// Budget, handshake, gate, then the case file.
    pub fn prepare(&mut self, corpus: &Corpus, entry: &CaseEntry) -> Prepared {
        if self.exhausted() {
            return Prepared::Done(self.notrun());
        }
        let caps = match self.caps.clone() {
            Some(c) => c,
            None => match self.handshake() {
                Ok(_) => match self.caps.clone() {
                    Some(c) => c,
                    None => {
                        return Prepared::Done(vec![*boxed(
                            "handshake",
                            Status::HarnessError,
                            "no capabilities",
                        )]);
                    }
                },
                Err(r) => return Prepared::Done(vec![*r]),
            },
        };
        if let Some(r) = gate(&caps, entry) {
            return Prepared::Done(vec![r]);
        }
        match LoadedCase::load(&corpus.root, entry) {
            Ok(c) => Prepared::Ready(Arc::new(c), caps),
            Err(e) => Prepared::Done(vec![CheckResult::new(
                "case",
                Status::HarnessError,
                e.to_string(),
            )]),
        }
    }

    /// Queue a prepared case on the worker. Its deadline starts when the worker takes it: now,
    /// or when the case queued before it comes back.
    pub fn dispatch(&mut self, case: Arc<LoadedCase>, caps: Arc<Capabilities>) {
        let sent = if self.exhausted() {
            None
        } else {
            self.send(&case, &caps)
        };
        self.queue.push_back(InFlight { case, caps, sent });
    }

    /// The checks and wall time of the oldest dispatched case, or its `TIMEOUT` at the
    /// deadline; `NOTRUN` once a case before it spent the restart budget.
    pub fn collect(&mut self) -> (Vec<CheckResult>, Duration) {
        let Some(flight) = self.queue.pop_front() else {
            let r = CheckResult::new("case", Status::HarnessError, "no case in flight");
            return (vec![r], Duration::ZERO);
        };
        if self.exhausted() {
            // It does not run (nor do we wait for its worker, if it still has one: its
            // processes end now).
            if let Some(w) = self.worker.take() {
                crate::children::end_started_by(w.thread);
            }
            return (self.notrun(), Duration::ZERO);
        }
        let (Some(sent), Some(w)) = (flight.sent, self.worker.as_ref()) else {
            let died = CheckResult::new("case", Status::Crash, "the worker died");
            return (vec![died], Duration::ZERO);
        };
        let deadline = self.options.deadline;
        let start = self.last_reply.filter(|t| *t > sent).unwrap_or(sent);
        let reply = w
            .replies
            .recv_timeout(deadline.saturating_sub(start.elapsed()));
        self.last_reply = Some(Instant::now());
        let failed = |status, message: String| {
            let r = CheckResult::new("case", status, message);
            (vec![r], start.elapsed())
        };
        match reply {
            Ok(Reply::Case(e, took)) => {
                if e.crashed {
                    self.restarts += 1;
                }
                (judge(&flight.case, e.outcomes), took)
            }
            Ok(Reply::Handshake(_)) => failed(
                Status::HarnessError,
                "the worker answered out of turn".into(),
            ),
            Err(RecvTimeoutError::Timeout) => {
                self.abandon();
                failed(
                    Status::Timeout,
                    format!("the case took longer than {deadline:?}"),
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.abandon();
                failed(Status::Crash, "the worker died".into())
            }
        }
    }

    /// Run one case: gate, then the calls under the deadline.
    pub fn run_case(&mut self, corpus: &Corpus, entry: &CaseEntry) -> Vec<CheckResult> {
        match self.prepare(corpus, entry) {
            Prepared::Done(checks) => checks,
            Prepared::Ready(case, caps) => {
                self.dispatch(case, caps);
                self.collect().0
            }
        }
    }
}

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
                Prepared::Done(checks) => Taken::Done(checks, t.elapsed()),
                Prepared::Ready(case, caps) => {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::SimConfig;
    use proptest::prelude::*;

    fn scenario(steps: u32, every: u32, actions: &[u32]) -> Scenario<Action> {
        Scenario {
            config: SimConfig::default(),
            steps,
            observe_every: every,
            actions: Some(
                actions
                    .iter()
                    .enumerate()
                    .map(|(i, s)| TimedAction {
                        step: *s,
                        action: Action::Impulse {
                            node: i,
                            impulse: [0.0; 3],
                        },
                    })
                    .collect(),
            ),
            checks: Vec::new(),
        }
    }

    /// The doc example: 10 steps, observe every 4, an action at step 6.
    #[test]
    fn schedule_of_the_doc_example() {
        let s = scenario(10, 4, &[6]);
        let got: Vec<String> = schedule(&s)
            .iter()
            .map(|r| match r {
                Request::Apply(_) => "apply".to_owned(),
                Request::Step(n) => format!("step {n}"),
                Request::Observe(k) => format!("observe {k}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "observe 0",
                "step 4",
                "observe 4",
                "step 2",
                "apply",
                "step 2",
                "observe 8",
                "step 2",
                "observe 10"
            ]
        );
    }

    proptest! {
        /// Steps add up to the scenario's; observations come at 0, at every multiple of the
        /// cadence and at the end, each labelled with the steps taken; each action before the
        /// end is applied once, after exactly its step count.
        #[test]
        fn schedule_keeps_the_cadence_and_the_actions(
            steps in 1u32..200,
            every in 1u32..30,
            actions in proptest::collection::vec(0u32..220, 0..6),
        ) {
            let s = scenario(steps, every, &actions);
            let mut taken = 0u32;
            let mut observed = Vec::new();
            let mut applied = Vec::new();
            for r in schedule(&s) {
                match r {
                    Request::Step(n) => {
                        prop_assert!(n > 0);
                        taken += n;
                    }
                    Request::Observe(k) => {
                        prop_assert_eq!(k, taken);
                        observed.push(k);
                    }
                    Request::Apply(Action::Impulse { node, .. }) => applied.push((*node, taken)),
                    Request::Apply(_) => prop_assert!(false, "only impulses here"),
                }
            }
            prop_assert_eq!(taken, steps);
            let mut want: Vec<u32> = (0..=steps).filter(|k| k % every == 0).collect();
            if want.last() != Some(&steps) {
                want.push(steps);
            }
            prop_assert_eq!(observed, want);
            let mut want_applied: Vec<(usize, u32)> = actions
                .iter()
                .enumerate()
                .filter(|(_, a)| **a < steps)
                .map(|(i, a)| (i, *a))
                .collect();
            want_applied.sort_by_key(|(i, a)| (*a, *i));
            applied.sort_by_key(|(i, a)| (*a, *i));
            prop_assert_eq!(applied, want_applied);
        }
    }
}
