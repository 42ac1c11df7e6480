//! An [`Implementation`] in another process, spoken to over the stdio protocol
//! ([`crate::protocol`]): `physics-cts run --impl stdio -- CMD ARGS...`.
//!
//! The process runs in its own process group. Every request has a deadline. A timeout, a
//! crash (the process ends or closes its stdout) or a protocol violation (a line over the size
//! limit, not JSON, a wrong `seq`, a missing field, output before a request) comes back as
//! [`ImplError::Timeout`], [`ImplError::Crashed`] (exit status and stderr tail) or
//! [`ImplError::Protocol`], and the process group is killed; the next call starts a new process
//! and replays the handshake (which must say the same as the first one). When more than
//! `restart_budget` restarts would be needed, every call is [`ImplError::NotRun`].
//!
//! [`Implementation::simulate`] is one `batch` request when the handshake declares `batch`
//! (configure and every step, apply and observe of a scenario in one round trip), else one
//! request per call. A batch answer with a result count or a result type other than the
//! requests' is a protocol violation like any other.
//!
//! Memory stays bounded whatever the process writes: stdout is read line by line with a size
//! limit on a thread (at most two lines wait in the channel), and stderr is drained on another
//! thread into a ring buffer holding its last bytes.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::implementation::{
    self, Action, Handshake, ImplError, Implementation, Interpretation, LoadOutcome, LoadRequest,
    NodeTrs, PROTOCOL_VERSION, SimConfig, State, simulate_each,
};
use crate::protocol::MAX_LINE_BYTES;
use crate::protocol::framing::{Frame, LineReader, write_line};
use crate::protocol::message::{Answer, Call, NumberedCall, Op, typed};

/// How to start the process and how patient to be with it.
#[derive(Clone, Debug)]
pub struct StdioConfig {
    /// The program and its arguments.
    pub program: OsString,
    pub args: Vec<OsString>,
    /// Working directory of the process (`None`: the harness's).
    pub cwd: Option<PathBuf>,
    /// Deadline of the handshake (process start included).
    pub handshake_timeout: Duration,
    /// Deadline of every other request.
    pub request_timeout: Duration,
    /// Restarts allowed after the first start.
    pub restart_budget: u32,
    /// Longest answer line accepted, in bytes.
    pub max_line: usize,
    /// Bytes of stderr kept (the tail attached to errors).
    pub stderr_keep: usize,
}

impl StdioConfig {
    /// Defaults for `command` (program first): handshake 10 s, requests 30 s, 20 restarts,
    /// 16 MiB lines, 64 KiB of stderr.
    pub fn new(program: impl Into<OsString>, args: Vec<OsString>) -> StdioConfig {
        StdioConfig {
            program: program.into(),
            args,
            cwd: None,
            handshake_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            restart_budget: 20,
            max_line: MAX_LINE_BYTES,
            stderr_keep: 64 << 10,
        }
    }

    /// Scale both deadlines (for slow machines, sanitizers, debug builds). A multiplier that is
    /// not a positive finite number leaves them as they are.
    pub fn scale_timeouts(mut self, multiplier: f64) -> StdioConfig {
        if multiplier.is_finite() && multiplier > 0.0 {
            // Saturating: a huge multiplier means "no deadline", never a panic.
            let scale = |d: Duration| {
                Duration::try_from_secs_f64(d.as_secs_f64() * multiplier).unwrap_or(Duration::MAX)
            };
            self.handshake_timeout = scale(self.handshake_timeout);
            self.request_timeout = scale(self.request_timeout);
        }
        self
    }
}

/// The last bytes written to a stream.
#[derive(Debug)]
struct Tail {
    bytes: VecDeque<u8>,
    keep: usize,
    total: u64,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let chunk = &chunk[chunk.len().saturating_sub(self.keep)..];
        let excess = (self.bytes.len() + chunk.len()).saturating_sub(self.keep);
        self.bytes.drain(..excess.min(self.bytes.len()));
        self.bytes.extend(chunk);
    }

    /// The last `n` bytes as text (lossy), noting how much came before.
    fn text(&self, n: usize) -> String {
        let skip = self.bytes.len().saturating_sub(n);
        let tail: Vec<u8> = self.bytes.iter().skip(skip).copied().collect();
        let text = String::from_utf8_lossy(&tail).trim_end().to_owned();
        if text.is_empty() {
            "(stderr empty)".into()
        } else if self.total > tail.len() as u64 {
            format!(
                "stderr, last {} of {} bytes:\n{text}",
                tail.len(),
                self.total
            )
        } else {
            format!("stderr:\n{text}")
        }
    }
}

/// Bytes of stderr attached to an error message.
const TAIL_IN_MESSAGE: usize = 2048;

/// A running process.
#[derive(Debug)]
struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    frames: Receiver<std::io::Result<Frame>>,
    stderr: Arc<Mutex<Tail>>,
    /// Its process group, known to [`crate::children`] until it is killed and reaped.
    registration: Option<crate::children::Registration>,
}

impl Process {
    fn spawn(config: &StdioConfig) -> std::io::Result<Process> {
        let mut command = Command::new(&config.program);
        command
            .args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &config.cwd {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        crate::children::watch();
        let mut child = command.spawn()?;
        let registration = Some(crate::children::register(child.id()));
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let (tx, frames) = sync_channel(2);
        if let Some(out) = stdout {
            let limit = config.max_line;
            std::thread::Builder::new()
                .name("stdio-stdout".into())
                .spawn(move || read_frames(out, limit, tx))?;
        }
        let tail = Arc::new(Mutex::new(Tail {
            bytes: VecDeque::new(),
            keep: config.stderr_keep,
            total: 0,
        }));
        if let Some(err) = stderr {
            let tail = tail.clone();
            std::thread::Builder::new()
                .name("stdio-stderr".into())
                .spawn(move || drain(err, &tail))?;
        }
        Ok(Process {
            child,
            stdin,
            frames,
            stderr: tail,
            registration,
        })
    }

    fn stderr_tail(&self) -> String {
        match self.stderr.lock() {
            Ok(t) => t.text(TAIL_IN_MESSAGE),
            Err(p) => p.into_inner().text(TAIL_IN_MESSAGE),
        }
    }

    /// Kill the whole process group and reap the child.
    fn kill(&mut self) -> Option<ExitStatus> {
        self.stdin = None;
        #[cfg(unix)]
        {
            let pid = i32::try_from(self.child.id()).ok();
            if let Some(pid) = pid.and_then(rustix::process::Pid::from_raw) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        }
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        // Reaped: the group id may be reused from now on, so it is forgotten.
        self.registration = None;
        status
    }

    /// After the process closed its stdout: its exit status, waiting up to `grace` for it to
    /// end before killing it (`None`: it had to be killed).
    fn ended(&mut self, grace: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    // Its children may still hold the group: end them too.
                    self.kill();
                    return Some(status);
                }
                Ok(None) if start.elapsed() < grace => std::thread::sleep(Duration::from_millis(5)),
                _ => {
                    self.kill();
                    return None;
                }
            }
        }
    }
}

impl Drop for Process {
    /// A process dropped without [`Process::kill`] is killed too: none outlives its owner.
    fn drop(&mut self) {
        if self.registration.is_some() {
            self.kill();
        }
    }
}

fn read_frames(out: impl Read, limit: usize, tx: SyncSender<std::io::Result<Frame>>) {
    let mut reader = LineReader::new(BufReader::with_capacity(64 << 10, out), limit);
    loop {
        let frame = reader.next_frame();
        let last = !matches!(frame, Ok(Frame::Line(_)) | Ok(Frame::TooLong { .. }));
        if tx.send(frame).is_err() || last {
            return;
        }
    }
}

fn drain(mut err: impl Read, tail: &Mutex<Tail>) {
    let mut buf = vec![0u8; 16 << 10];
    loop {
        match err.read(&mut buf) {
            Ok(0) => return,
            Ok(n) => match tail.lock() {
                Ok(mut t) => t.push(&buf[..n]),
                Err(_) => return,
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// How an exit status reads in a message.
fn describe(status: Option<ExitStatus>) -> String {
    let Some(status) = status else {
        return "closed its stdout but did not exit (killed)".into();
    };
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("was killed by signal {sig}");
        }
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => format!("ended ({status})"),
    }
}

/// An implementation behind a child process.
#[derive(Debug)]
pub struct StdioImplementation {
    config: StdioConfig,
    process: Option<Process>,
    /// The first handshake; a restarted process must say the same.
    handshake: Option<Handshake>,
    seq: u64,
    starts: u32,
}

impl StdioImplementation {
    /// Nothing is started until the first call.
    pub fn new(config: StdioConfig) -> StdioImplementation {
        StdioImplementation {
            config,
            process: None,
            handshake: None,
            seq: 0,
            starts: 0,
        }
    }

    /// Processes started so far (the first one and every restart).
    pub fn starts(&self) -> u32 {
        self.starts
    }

    /// Restarts so far.
    pub fn restarts(&self) -> u32 {
        self.starts.saturating_sub(1)
    }

    /// The running process's id, if one runs.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    fn fail(&mut self, e: ImplError) -> ImplError {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
        e
    }

    /// Start a process and make the handshake, unless one runs.
    fn ensure_started(&mut self) -> Result<(), ImplError> {
        if self.process.is_some() {
            return Ok(());
        }
        if self.starts > self.config.restart_budget {
            return Err(ImplError::NotRun(format!(
                "the restart budget of {} is spent",
                self.config.restart_budget
            )));
        }
        self.starts += 1;
        let process = Process::spawn(&self.config).map_err(|e| {
            ImplError::Crashed(format!(
                "cannot start {:?}: {e}",
                self.config.program.to_string_lossy()
            ))
        })?;
        self.process = Some(process);
        let timeout = self.config.handshake_timeout;
        let h: Handshake = self.exchange(Call::handshake(), timeout)?;
        if h.protocol_version != PROTOCOL_VERSION {
            return Err(self.fail(ImplError::Protocol(format!(
                "the implementation speaks protocol {}, the harness {PROTOCOL_VERSION}",
                h.protocol_version
            ))));
        }
        match &self.handshake {
            Some(first) if *first != h => {
                return Err(self.fail(ImplError::Protocol(format!(
                    "the handshake after a restart differs from the first one ({} {} vs {} {})",
                    h.name, h.version, first.name, first.version
                ))));
            }
            Some(_) => {}
            None => self.handshake = Some(h),
        }
        Ok(())
    }

    /// One call on a started process.
    fn call<T: DeserializeOwned>(&mut self, call: Call) -> Result<T, ImplError> {
        self.ensure_started()?;
        let timeout = self.config.request_timeout;
        self.exchange(call, timeout)
    }

    /// Send a request and wait for its answer, typed by the op's answer type.
    fn exchange<T: DeserializeOwned>(
        &mut self,
        call: Call,
        timeout: Duration,
    ) -> Result<T, ImplError> {
        self.exchange_with(call, timeout, |_, _| None, typed::<T>)
    }

    /// Send a request and wait for its answer; `fit` types an `ok` value or says why it does not
    /// fit (a protocol violation). `fast` may read a well-formed answer line with the request's
    /// `seq` straight into its result first (`None`: let the general path decide). Any failure
    /// but an implementation's own error kills the process.
    fn exchange_with<T>(
        &mut self,
        call: Call,
        timeout: Duration,
        fast: impl FnOnce(u64, &[u8]) -> Option<T>,
        fit: impl FnOnce(Op, Value) -> Result<T, String>,
    ) -> Result<T, ImplError> {
        let op = call.op();
        let seq = self.seq;
        self.seq += 1;
        let line = NumberedCall { seq, call }
            .encode()
            .map_err(|e| ImplError::BadRequest(format!("cannot encode {op}: {e}")))?;
        let Some(p) = self.process.as_mut() else {
            return Err(ImplError::Crashed("no process".into()));
        };
        // Nothing may be waiting: an answer never comes before its request.
        match p.frames.try_recv() {
            Ok(Ok(Frame::Line(l))) => {
                let e = ImplError::Protocol(format!(
                    "output before the {op} request: {}; {}",
                    preview(&l),
                    p.stderr_tail()
                ));
                return Err(self.fail(e));
            }
            Ok(Ok(Frame::TooLong { len })) => {
                let e = ImplError::Protocol(format!(
                    "output before the {op} request: a line of {len} bytes"
                ));
                return Err(self.fail(e));
            }
            Ok(Ok(Frame::Eof)) | Ok(Err(_)) | Err(TryRecvError::Disconnected) => {
                return Err(self.crashed(op, "before the request"));
            }
            Err(TryRecvError::Empty) => {}
        }
        let sent = match p.stdin.as_mut() {
            Some(stdin) => write_line(stdin, &line),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if sent.is_err() {
            return Err(self.crashed(op, "when sent the request"));
        }
        match recv_frame(&p.frames, timeout) {
            Ok(Ok(Frame::Line(l))) => match fast(seq, &l) {
                Some(t) => Ok(t),
                None => self.answer(op, seq, &l, fit),
            },
            Ok(Ok(Frame::TooLong { len })) => {
                let e = ImplError::Protocol(format!(
                    "the answer to {op} is a line of {len} bytes, over the limit of {}",
                    self.config.max_line
                ));
                Err(self.fail(e))
            }
            Ok(Ok(Frame::Eof)) | Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => {
                Err(self.crashed(op, "instead of answering"))
            }
            Err(RecvTimeoutError::Timeout) => {
                let tail = p.stderr_tail();
                let e = ImplError::Timeout(format!(
                    "no answer to {op} within {:.3} s; {tail}",
                    timeout.as_secs_f64()
                ));
                Err(self.fail(e))
            }
        }
    }

    fn answer<T>(
        &mut self,
        op: Op,
        seq: u64,
        line: &[u8],
        fit: impl FnOnce(Op, Value) -> Result<T, String>,
    ) -> Result<T, ImplError> {
        let violation = |this: &mut Self, what: String| {
            let e = ImplError::Protocol(format!("answer to {op} (seq {seq}): {what}"));
            Err(this.fail(e))
        };
        let answer = match Answer::decode(line) {
            Ok(a) => a,
            Err(m) => return violation(self, format!("{m}: {}", preview(line))),
        };
        if answer.seq != seq {
            return violation(self, format!("wrong seq {}", answer.seq));
        }
        match answer.result {
            Ok(v) => match fit(op, v) {
                Ok(t) => Ok(t),
                Err(m) => violation(self, m),
            },
            // `bad_request` means "the harness asked wrongly" and is never scored: over the wire
            // it is the implementation's claim, so it counts as the implementation's error
            // (else an implementation could turn any failure into an unscored case).
            Err(ImplError::BadRequest(m)) => Err(ImplError::Failed(format!(
                "the implementation answered bad_request to {op}: {m}"
            ))),
            Err(e) => Err(e),
        }
    }

    /// A scenario's requests as one `batch` request, each result typed by its sub-request.
    fn batch(
        &mut self,
        config: &SimConfig,
        requests: &[implementation::Request<'_>],
    ) -> Result<Vec<State>, ImplError> {
        use implementation::Request as R;
        let mut calls = Vec::with_capacity(requests.len() + 1);
        calls.push(Call::Configure(*config));
        calls.extend(requests.iter().map(|r| match *r {
            R::Apply(a) => Call::Apply(a.clone()),
            R::Step(steps) => Call::Step { steps },
            R::Observe(_) => Call::Observe,
        }));
        let ops: Vec<Op> = calls.iter().map(Call::op).collect();
        self.ensure_started()?;
        let timeout = self.config.request_timeout;
        self.exchange_with(
            Call::Batch(calls),
            timeout,
            |seq, line| batch_states_fast(&ops, seq, line),
            |_, ok| batch_states(&ops, ok),
        )
    }

    /// The process ended or closed its stdout: a crash, with its exit status and stderr tail.
    fn crashed(&mut self, op: Op, when: &str) -> ImplError {
        let Some(mut p) = self.process.take() else {
            return ImplError::Crashed("no process".into());
        };
        let status = p.ended(Duration::from_secs(2));
        // The stderr thread may still hold the last bytes: give it a moment.
        std::thread::sleep(Duration::from_millis(20));
        ImplError::Crashed(format!(
            "the process {} {when} ({op}); {}",
            describe(status),
            p.stderr_tail()
        ))
    }
}

/// The states of a batch answer's `ok` value, each result typed by its sub-request's op (the
/// others must be `null`), or why it does not fit.
fn batch_states(ops: &[Op], ok: Value) -> Result<Vec<State>, String> {
    let Value::Array(results) = ok else {
        return Err(format!("the answer to batch is not a list: {}", kind(&ok)));
    };
    if results.len() != ops.len() {
        return Err(format!(
            "{} results for {} requests",
            results.len(),
            ops.len()
        ));
    }
    let mut states = Vec::with_capacity(ops.iter().filter(|op| **op == Op::Observe).count());
    for (i, (op, v)) in ops.iter().zip(results).enumerate() {
        let fits = if *op == Op::Observe {
            typed::<State>(*op, v).map(|s| states.push(s))
        } else {
            typed::<()>(*op, v)
        };
        fits.map_err(|m| format!("result {i}: {m}"))?;
    }
    Ok(states)
}

/// [`batch_states`] straight from the answer line, without the intermediate [`Value`] (whose
/// maps and allocations were most of the harness's decoding cost): `None` unless the line is a
/// well-formed `ok` answer to `seq`, with one result per request, a state for each `observe`
/// and `null` for the others. Anything else (an error answer, a violation) goes the general
/// way, which decides and words it.
fn batch_states_fast(ops: &[Op], seq: u64, line: &[u8]) -> Option<Vec<State>> {
    fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| true)
    }
    #[derive(serde::Deserialize)]
    struct Fast {
        seq: u64,
        ok: Vec<Option<State>>,
        #[serde(default, deserialize_with = "present")]
        error: bool,
    }
    use serde::Deserialize;
    let fast: Fast = serde_json::from_slice(line).ok()?;
    if fast.seq != seq || fast.error || fast.ok.len() != ops.len() {
        return None;
    }
    let mut states = Vec::with_capacity(ops.iter().filter(|op| **op == Op::Observe).count());
    for (op, result) in ops.iter().zip(fast.ok) {
        match (*op == Op::Observe, result) {
            (true, Some(state)) => states.push(state),
            (false, None) => {}
            _ => return None,
        }
    }
    Some(states)
}

/// The JSON type of a value, for a message.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// The start of a line, for a message.
fn preview(line: &[u8]) -> String {
    let n = line.len().min(120);
    let mut s = String::from_utf8_lossy(&line[..n]).into_owned();
    if line.len() > n {
        s.push_str(&format!("... ({} bytes)", line.len()));
    }
    format!("{s:?}")
}

impl Drop for StdioImplementation {
    fn drop(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.kill();
        }
    }
}

impl Implementation for StdioImplementation {
    fn handshake(&mut self) -> Result<Handshake, ImplError> {
        if self.process.is_some() {
            let timeout = self.config.handshake_timeout;
            return self.exchange(Call::handshake(), timeout);
        }
        self.ensure_started()?;
        self.handshake
            .clone()
            .ok_or_else(|| ImplError::Protocol("no handshake".into()))
    }

    fn load(&mut self, request: &LoadRequest) -> Result<LoadOutcome, ImplError> {
        self.call(Call::Load(request.clone()))
    }

    fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
        self.call(Call::Interpretation)
    }

    fn configure(&mut self, config: &SimConfig) -> Result<(), ImplError> {
        self.call(Call::Configure(*config))
    }

    fn step(&mut self, steps: u32) -> Result<(), ImplError> {
        self.call(Call::Step { steps })
    }

    fn observe(&mut self) -> Result<State, ImplError> {
        self.call(Call::Observe)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ImplError> {
        self.call(Call::Apply(action.clone()))
    }

    fn evaluate_constraints(&mut self, poses: &Value) -> Result<Vec<NodeTrs>, ImplError> {
        self.call(Call::EvaluateConstraints {
            poses: poses.clone(),
        })
    }

    fn unload(&mut self) -> Result<(), ImplError> {
        self.call(Call::Unload)
    }

    fn simulate(
        &mut self,
        config: &SimConfig,
        requests: &[implementation::Request<'_>],
    ) -> Result<Vec<State>, ImplError> {
        self.ensure_started()?;
        if self
            .handshake
            .as_ref()
            .is_some_and(|h| h.capabilities.batch)
        {
            self.batch(config, requests)
        } else {
            simulate_each(self, config, requests)
        }
    }
}

/// How long [`recv_frame`] polls before it blocks: long enough for a `load` or a `batch` of the
/// corpus's scenes (a millisecond or so), since an answer that comes after the poll costs two
/// wake-ups (the reader thread's, then this one's). Measured (`BENCHMARKS.md`, stdio): the corpus
/// over `serve rapier` took 1.13-1.15 s with 200 us, 1.04-1.11 s with 2 ms, 1.05-1.10 s with 10 ms.
const SPIN: Duration = Duration::from_millis(2);

/// The next frame of the reader thread: polled for [`SPIN`] first, then waited for (the same
/// poll-then-block as [`crate::protocol::pipe::Polled`] on `serve`'s stdin, whose shorter window
/// fits what it waits for: the harness's next request, which follows an answer at once). On an idle
/// virtual machine waking a blocked thread costs tens of microseconds (measured: a `step` round
/// trip of 64 us blocking, 9 us with a core kept busy), so a poll that yields to other threads
/// saves a wake-up per request; yielding leaves the core to any thread that needs it.
fn recv_frame<T>(frames: &Receiver<T>, timeout: Duration) -> Result<T, RecvTimeoutError> {
    let start = Instant::now();
    while start.elapsed() < SPIN.min(timeout) {
        match frames.try_recv() {
            Ok(frame) => return Ok(frame),
            Err(TryRecvError::Disconnected) => return Err(RecvTimeoutError::Disconnected),
            Err(TryRecvError::Empty) => std::thread::yield_now(),
        }
    }
    frames.recv_timeout(timeout.saturating_sub(start.elapsed()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tail_keeps_the_last_bytes() {
        let mut t = Tail {
            bytes: VecDeque::new(),
            keep: 8,
            total: 0,
        };
        t.push(b"hello ");
        t.push(b"world!");
        // 12 bytes written, 8 kept: "o world!".
        assert_eq!(t.bytes.iter().copied().collect::<Vec<_>>(), b"o world!");
        assert_eq!(t.text(5), "stderr, last 5 of 12 bytes:\norld!");
        t.push(&[b'x'; 100]);
        assert_eq!(t.bytes.len(), 8);
        assert_eq!(t.total, 112);
    }

    #[test]
    fn batch_answers_are_typed_per_request() {
        let ops = [Op::Configure, Op::Observe, Op::Step, Op::Observe];
        let state = serde_json::json!({"time": 0.5, "nodes": [{"node": 0,
            "translation": [1, 2, "Infinity"], "rotation": [0, 0, 0, 1],
            "linear_velocity": [0, 0, 0], "angular_velocity": [0, 0, "NaN"]}],
            "contacts": [[1, 2]], "trigger_events": []});
        let ok = serde_json::json!([null, state, null, state]);
        let states = batch_states(&ops, ok).expect("fits");
        assert_eq!(states.len(), 2);
        // The reserved strings survive (an untyped list would have made them null).
        assert_eq!(states[1].nodes[0].translation[2], f64::INFINITY);
        assert!(states[0].nodes[0].angular_velocity[2].is_nan());
        assert_eq!(states[0].contacts, [[1, 2]]);
        for (ok, text) in [
            (
                serde_json::json!([null, state, null]),
                "3 results for 4 requests",
            ),
            (
                serde_json::json!([null, state, null, state, null]),
                "5 results for 4 requests",
            ),
            (serde_json::json!([null, state, 7, state]), "result 2: "),
            (serde_json::json!([null, null, null, state]), "result 1: "),
            (
                serde_json::json!([null, {"time": 0.0}, null, state]),
                "missing field",
            ),
            (serde_json::json!({"0": null}), "not a list: an object"),
        ] {
            let e = batch_states(&ops, ok.clone()).expect_err("does not fit");
            assert!(e.contains(text), "{ok}: {e}");
            let line = serde_json::json!({"seq": 3, "ok": ok}).to_string();
            assert_eq!(batch_states_fast(&ops, 3, line.as_bytes()), None, "{line}");
        }
        // The fast path: the same states, reserved strings included; declines the rest.
        let ok = serde_json::json!([null, state, null, state]);
        let line = serde_json::json!({"seq": 3, "ok": ok}).to_string();
        let fast = batch_states_fast(&ops, 3, line.as_bytes()).expect("fast");
        assert_eq!(
            format!("{fast:?}"),
            format!("{:?}", batch_states(&ops, ok).expect("fits"))
        );
        let finite = serde_json::json!({"time": 0.25, "nodes": [{"node": 2,
            "translation": [1, 2, 3.5], "rotation": [0, 0, 0, 1],
            "linear_velocity": [0, -9.81, 0], "angular_velocity": [0, 0, 0]}],
            "contacts": [], "trigger_events": [{"kind": "enter", "trigger": 1, "other": 2}]});
        let ok = serde_json::json!([null, finite, null, finite]);
        let line = serde_json::json!({"seq": 3, "ok": ok}).to_string();
        let fast = batch_states_fast(&ops, 3, line.as_bytes()).expect("fast");
        assert_eq!(fast, batch_states(&ops, ok.clone()).expect("fits"));
        assert_eq!(fast[0].nodes[0].linear_velocity[1], -9.81);
        for declined in [
            serde_json::json!({"seq": 4, "ok": ok}),
            serde_json::json!({"seq": 3, "ok": ok, "error": null}),
            serde_json::json!({"seq": 3, "error": {"error": "failed", "message": "x"}}),
        ] {
            let line = declined.to_string();
            assert_eq!(batch_states_fast(&ops, 3, line.as_bytes()), None, "{line}");
        }
    }

    #[test]
    fn timeouts_scale() {
        let c = StdioConfig::new("x", Vec::new()).scale_timeouts(2.5);
        assert_eq!(c.request_timeout, Duration::from_secs(75));
        assert_eq!(c.handshake_timeout, Duration::from_secs(25));
        let c = c.scale_timeouts(f64::NAN);
        assert_eq!(c.request_timeout, Duration::from_secs(75));
    }
}
