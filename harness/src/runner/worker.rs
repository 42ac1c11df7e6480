//! The worker thread that owns one implementation: it makes a case's calls, and rebuilds the
//! implementation after a crash, replaying its first handshake.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use super::families::{Execution, Returned, call, calls, panic_message};
use crate::case::LoadedCase;
use crate::check::CheckResult;
use crate::implementation::{Capabilities, Factory, Handshake, Implementation};
use crate::status::Status;

pub(super) enum Job {
    Handshake,
    Case(Arc<LoadedCase>, Arc<Capabilities>),
}

pub(super) enum Reply {
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
                            outcomes: vec![Returned::Decided(*r)],
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
                                outcomes: vec![Returned::Decided(r)],
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

pub(super) struct Worker {
    pub(super) jobs: Sender<Job>,
    pub(super) replies: Receiver<Reply>,
    /// Its thread: the processes it started are registered under it ([`crate::children`]).
    pub(super) thread: std::thread::ThreadId,
}

impl Worker {
    pub(super) fn start(name: &str, factory: Factory, first: Option<Handshake>) -> Option<Worker> {
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

pub(super) fn boxed(check: &str, status: Status, message: impl Into<String>) -> Box<CheckResult> {
    Box::new(CheckResult::new(check, status, message))
}
