//! The runner: one case at a time through the [`Implementation`] interface.
//!
//! Per case: the capability gate first (`NOT_SUPPORTED` / `SKIP` without a call), then the
//! calls on a worker thread that owns the implementation, each inside `catch_unwind` (a panic
//! is a `CRASH` with its message, and the worker builds a fresh implementation), under a
//! deadline per case (`TIMEOUT`: the worker is abandoned and a new one is started, its
//! handshake replayed). [`ImplError`]s map to statuses: `NotSupported` -> `NOT_SUPPORTED`,
//! `Failed` -> `ERROR`, `BadRequest` (we asked wrongly) -> `HARNESS_ERROR`. A restart budget
//! turns the rest of the run into `NOTRUN`.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use crate::case::{Case, CaseEntry, Corpus};
use crate::check::dynamics::Observation;
use crate::check::{self, CheckResult, validation};
use crate::expectations::Expectations;
use crate::implementation::{
    Capabilities, Handshake, ImplError, Implementation, LoadOutcome, LoadRequest,
};
use crate::results::{CaseResult, ImplInfo, Run};
use crate::status::Status;

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
    /// Crashes and timeouts tolerated before the rest of the run is `NOTRUN`.
    pub restart_budget: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            deadline: Duration::from_secs(30),
            restart_budget: 20,
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
    if entry.profile.is_empty() {
        return Some(CheckResult::new(
            CHECK,
            Status::Skip,
            "no profile applies to the case",
        ));
    }
    if !caps.profiles.contains(&entry.profile) {
        return Some(CheckResult::new(
            CHECK,
            Status::NotSupported,
            format!("profile {} is not declared", entry.profile),
        ));
    }
    if !entry.valid && !caps.checks.iter().any(|c| c == VALIDATION) {
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

/// What executing a case did.
#[derive(Debug)]
pub struct Execution {
    pub checks: Vec<CheckResult>,
    /// A call panicked: the implementation must be rebuilt.
    pub crashed: bool,
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

/// Execute one case in the calling thread (the gate has passed).
pub fn execute(imp: &mut dyn Implementation, caps: &Capabilities, case: &Case) -> Execution {
    let mut checks = Vec::new();
    let crashed = run_families(imp, caps, case, &mut checks).is_err();
    if !crashed && let Err(f) = call("unload", || imp.unload()) {
        let (r, c) = *f;
        // Failing to unload is only worth a line when it crashed.
        if c {
            checks.push(r);
            return Execution {
                checks,
                crashed: true,
            };
        }
    }
    Execution { checks, crashed }
}

/// `Err(())` when a call crashed (the remaining families are then `NOTRUN`).
fn run_families(
    imp: &mut dyn Implementation,
    caps: &Capabilities,
    case: &Case,
    out: &mut Vec<CheckResult>,
) -> Result<(), ()> {
    let declares = |family: &str| caps.checks.iter().any(|c| c == family);
    let request = LoadRequest {
        path: std::path::absolute(&case.path).unwrap_or_else(|_| case.path.clone()),
        profile: case.entry.profile.clone(),
    };
    let name = if case.entry.valid {
        validation::LOAD
    } else {
        validation::REJECT
    };
    let outcome = match call(name, || imp.load(&request)) {
        Ok(o) => o,
        Err(f) => {
            let (r, crashed) = *f;
            out.push(r);
            return if crashed { Err(()) } else { Ok(()) };
        }
    };
    if !case.entry.valid {
        out.push(validation::invalid(case, &outcome));
        return Ok(());
    }
    out.push(validation::valid(&outcome));
    if matches!(outcome, LoadOutcome::Rejected { .. }) {
        return Ok(());
    }
    let families: Vec<(&str, bool)> = vec![
        (INTERPRETATION, true),
        (
            CONSTRAINTS,
            case.poses.iter().any(|p| !p.constraints.is_empty()),
        ),
        (DYNAMICS, case.scenario.is_some()),
    ];
    for (i, (family, has_data)) in families.iter().enumerate() {
        if !declares(family) {
            if *has_data && *family != INTERPRETATION {
                out.push(CheckResult::new(
                    *family,
                    Status::Skip,
                    format!("the implementation does not take part in {family}"),
                ));
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
                    out.push(CheckResult::new(
                        *rest,
                        Status::Notrun,
                        "an earlier call crashed",
                    ));
                }
            }
            return Err(());
        }
    }
    Ok(())
}

/// Push the error's check; `Err(())` when it was a crash.
#[allow(
    clippy::boxed_local,
    reason = "the boxed failure is what every call returns"
)]
fn failed(out: &mut Vec<CheckResult>, f: Failure) -> Result<(), ()> {
    let (r, crashed) = *f;
    out.push(r);
    if crashed { Err(()) } else { Ok(()) }
}

fn interpretation(
    imp: &mut dyn Implementation,
    case: &Case,
    out: &mut Vec<CheckResult>,
) -> Result<(), ()> {
    let Some(want) = &case.interpretation else {
        out.push(CheckResult::new(
            INTERPRETATION,
            Status::Skip,
            "the case carries no expected interpretation",
        ));
        return Ok(());
    };
    match call(INTERPRETATION, || imp.interpretation()) {
        Ok(got) => {
            out.extend(check::interpretation::check(want, &got, &case.tolerances));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

fn constraints(
    imp: &mut dyn Implementation,
    case: &Case,
    out: &mut Vec<CheckResult>,
) -> Result<(), ()> {
    let decisions: Vec<String> = case
        .decisions
        .iter()
        .filter(|d| d.starts_with("D-VRM"))
        .cloned()
        .collect();
    for pose in case.poses.iter().filter(|p| !p.constraints.is_empty()) {
        let name = format!("constraints.{}", pose.name);
        match call(&name, || imp.evaluate_constraints(&pose.poses)) {
            Ok(got) => out.extend(check::constraints::check(
                pose,
                &got,
                &case.tolerances,
                &decisions,
            )),
            Err(e) => failed(out, e)?,
        }
    }
    Ok(())
}

/// Run the scenario: configure, observe once, then step in chunks up to each action and
/// observation point, applying actions just before their step.
pub fn simulate(
    imp: &mut dyn Implementation,
    scenario: &crate::case::Scenario,
) -> Result<Vec<Observation>, Failure> {
    call(DYNAMICS, || imp.configure(&scenario.config))?;
    let mut actions = scenario.actions.clone();
    actions.sort_by_key(|a| a.step);
    let mut observations = vec![Observation {
        step: 0,
        state: call(DYNAMICS, || imp.observe())?,
    }];
    let mut done = 0u32;
    let mut next_action = 0usize;
    while done < scenario.steps {
        while let Some(a) = actions.get(next_action).filter(|a| a.step <= done) {
            call(DYNAMICS, || imp.apply(&a.action))?;
            next_action += 1;
        }
        let next_observe = (done / scenario.observe_every + 1) * scenario.observe_every;
        let mut until = next_observe.min(scenario.steps);
        if let Some(a) = actions.get(next_action) {
            until = until.min(a.step.max(done + 1));
        }
        call(DYNAMICS, || imp.step(until - done))?;
        done = until;
        if done.is_multiple_of(scenario.observe_every) || done == scenario.steps {
            observations.push(Observation {
                step: done,
                state: call(DYNAMICS, || imp.observe())?,
            });
        }
    }
    Ok(observations)
}

fn dynamics(
    imp: &mut dyn Implementation,
    case: &Case,
    out: &mut Vec<CheckResult>,
) -> Result<(), ()> {
    let Some(scenario) = &case.scenario else {
        return Ok(());
    };
    match simulate(imp, scenario) {
        Ok(observations) => {
            out.extend(check::dynamics::check(
                scenario,
                case.interpretation.as_ref(),
                &observations,
            ));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

enum Job {
    Handshake,
    Case(Box<Case>, Capabilities),
}

enum Reply {
    Handshake(Result<Handshake, Box<CheckResult>>),
    Case(Execution),
}

/// The worker thread: owns the implementation, rebuilds it after a crash.
fn worker(factory: Factory, jobs: Receiver<Job>, replies: Sender<Reply>) {
    let mut imp: Option<Box<dyn Implementation + Send>> = None;
    for job in jobs {
        if imp.is_none() {
            match catch_unwind(AssertUnwindSafe(|| factory())) {
                Ok(mut fresh) => {
                    // Replay the handshake on a rebuilt implementation, as a process restart would.
                    if !matches!(job, Job::Handshake)
                        && let Err(f) = call("handshake", || fresh.handshake())
                    {
                        let _ = replies.send(Reply::Case(Execution {
                            checks: vec![f.0],
                            crashed: true,
                        }));
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
                        Job::Case(..) => Reply::Case(Execution {
                            checks: vec![r],
                            crashed: true,
                        }),
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
                Ok(h) => Reply::Handshake(Ok(h)),
                Err(f) => {
                    let (r, crashed) = *f;
                    if crashed {
                        imp = None;
                    }
                    Reply::Handshake(Err(Box::new(r)))
                }
            },
            Job::Case(case, caps) => {
                let e = execute(current.as_mut(), &caps, &case);
                if e.crashed {
                    imp = None;
                }
                Reply::Case(e)
            }
        };
        if replies.send(reply).is_err() {
            return;
        }
    }
}

struct Worker {
    jobs: Sender<Job>,
    replies: Receiver<Reply>,
}

impl Worker {
    fn start(name: &str, factory: Factory) -> Option<Worker> {
        let (jobs, job_rx) = mpsc::channel();
        let (reply_tx, replies) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("impl-{name}"))
            .spawn(move || worker(factory, job_rx, reply_tx))
            .ok()?;
        Some(Worker { jobs, replies })
    }
}

fn boxed(check: &str, status: Status, message: impl Into<String>) -> Box<CheckResult> {
    Box::new(CheckResult::new(check, status, message))
}

/// Runs cases on one implementation.
pub struct ImplRunner {
    pub name: String,
    factory: Factory,
    options: Options,
    worker: Option<Worker>,
    info: Option<ImplInfo>,
    restarts: u32,
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
            restarts: 0,
        }
    }

    /// Crashes and timeouts so far.
    pub fn restarts(&self) -> u32 {
        self.restarts
    }

    fn worker(&mut self) -> Result<&Worker, Box<CheckResult>> {
        if self.worker.is_none() {
            let w = Worker::start(&self.name, self.factory.clone())
                .ok_or_else(|| boxed("handshake", Status::HarnessError, "cannot start a thread"))?;
            self.worker = Some(w);
        }
        self.worker
            .as_ref()
            .ok_or_else(|| boxed("handshake", Status::HarnessError, "no worker"))
    }

    fn abandon(&mut self) {
        // The thread may still be inside a call; dropping the channels makes it end after it.
        self.worker = None;
        self.restarts += 1;
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
                let info = ImplInfo {
                    name: self.name.clone(),
                    version: h.version,
                    engine: h.engine,
                    capabilities: h.capabilities,
                };
                self.info = Some(info.clone());
                Ok(info)
            }
            Ok(Reply::Handshake(Err(r))) => Err(r),
            Ok(Reply::Case(_)) => Err(boxed(
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

    /// Run one case: gate, then the calls under the deadline.
    pub fn run_case(&mut self, corpus: &Corpus, entry: &CaseEntry) -> Vec<CheckResult> {
        if self.restarts > self.options.restart_budget {
            return vec![CheckResult::new(
                "case",
                Status::Notrun,
                format!(
                    "restart budget of {} exhausted",
                    self.options.restart_budget
                ),
            )];
        }
        let caps = match self.handshake() {
            Ok(info) => info.capabilities,
            Err(r) => return vec![*r],
        };
        if let Some(r) = gate(&caps, entry) {
            return vec![r];
        }
        let case = match Case::load(&corpus.root, entry) {
            Ok(c) => c,
            Err(e) => {
                return vec![CheckResult::new(
                    "case",
                    Status::HarnessError,
                    e.to_string(),
                )];
            }
        };
        let deadline = self.options.deadline;
        let w = match self.worker() {
            Ok(w) => w,
            Err(r) => return vec![*r],
        };
        if w.jobs.send(Job::Case(Box::new(case), caps)).is_err() {
            self.abandon();
            return vec![CheckResult::new("case", Status::Crash, "the worker died")];
        }
        match w.replies.recv_timeout(deadline) {
            Ok(Reply::Case(e)) => {
                if e.crashed {
                    self.restarts += 1;
                }
                e.checks
            }
            Ok(Reply::Handshake(_)) => vec![CheckResult::new(
                "case",
                Status::HarnessError,
                "the worker answered out of turn",
            )],
            Err(RecvTimeoutError::Timeout) => {
                self.abandon();
                vec![CheckResult::new(
                    "case",
                    Status::Timeout,
                    format!("the case took longer than {:?}", deadline),
                )]
            }
            Err(RecvTimeoutError::Disconnected) => {
                self.abandon();
                vec![CheckResult::new("case", Status::Crash, "the worker died")]
            }
        }
    }
}

/// One implementation of a run with its known failures.
#[derive(Clone)]
pub struct Entrant {
    pub name: String,
    pub factory: Factory,
    pub expectations: Expectations,
}

impl std::fmt::Debug for Entrant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Entrant").field("name", &self.name).finish()
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
    let started = Instant::now();
    let mut runners: Vec<ImplRunner> = entrants
        .iter()
        .map(|e| ImplRunner::new(&e.name, e.factory.clone(), options))
        .collect();
    let infos: Vec<ImplInfo> = runners
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
    let mut results = Vec::with_capacity(entries.len() * entrants.len());
    for (runner, entrant) in runners.iter_mut().zip(entrants) {
        for entry in entries {
            let t = Instant::now();
            let checks = runner.run_case(corpus, entry);
            let known = entrant
                .expectations
                .lookup(&entry.id)
                .map(|k| k.reason.clone());
            let ms = u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX);
            let r = CaseResult::new(&entrant.name, entry, checks, known, ms);
            on_case(&r);
            results.push(r);
        }
    }
    Run {
        suite: format!("physics-cts {}", env!("CARGO_PKG_VERSION")),
        corpus: corpus_label.to_owned(),
        implementations: infos,
        results,
        duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
    }
}
