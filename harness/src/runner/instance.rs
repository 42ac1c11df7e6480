//! One implementation instance's life: its handshake, its worker (started, abandoned on a
//! timeout, restarted on a crash, within a restart budget) and the cases queued on it.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::families::{gate, judge};
use super::worker::{Job, Reply, Worker, boxed};
use crate::case::{CaseEntry, Corpus, LoadedCase};
use crate::check::CheckResult;
use crate::implementation::{Capabilities, Factory, Handshake};
use crate::results::ImplInfo;
use crate::status::Status;

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

/// A case that passed the budget, the handshake and the gate, ready for the worker.
#[derive(Debug)]
pub enum PreparedCase {
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
    pub(super) info: Option<ImplInfo>,
    caps: Option<Arc<Capabilities>>,
    /// The handshake another instance of the same implementation gave (`--jobs`): this one
    /// must say the same.
    pub(super) expected: Option<ImplInfo>,
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
    pub fn prepare(&mut self, corpus: &Corpus, entry: &CaseEntry) -> PreparedCase {
        if self.exhausted() {
            return PreparedCase::Done(self.notrun());
        }
        let caps = match self.caps.clone() {
            Some(c) => c,
            None => match self.handshake() {
                Ok(_) => match self.caps.clone() {
                    Some(c) => c,
                    None => {
                        return PreparedCase::Done(vec![*boxed(
                            "handshake",
                            Status::HarnessError,
                            "no capabilities",
                        )]);
                    }
                },
                Err(r) => return PreparedCase::Done(vec![*r]),
            },
        };
        if let Some(r) = gate(&caps, entry) {
            return PreparedCase::Done(vec![r]);
        }
        match LoadedCase::load(&corpus.root, entry) {
            Ok(c) => PreparedCase::Ready(Arc::new(c), caps),
            Err(e) => PreparedCase::Done(vec![CheckResult::new(
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
            PreparedCase::Done(checks) => checks,
            PreparedCase::Ready(case, caps) => {
                self.dispatch(case, caps);
                self.collect().0
            }
        }
    }
}
