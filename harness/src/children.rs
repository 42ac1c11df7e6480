//! Every implementation process the harness starts, so that none outlives it.
//!
//! An implementation runs in its own process group (its own children with it), registered here
//! from its start until its owner has killed the group and reaped it ([`Registration`]). Three
//! ways a run can leave one behind are closed here:
//! - a case abandoned on timeout: the worker thread holding the process is still inside a
//!   call; [`end_started_by`] kills the groups that thread started, so the call ends and the
//!   thread reaps them; and whatever is still registered when a command ends, [`end_all`]
//!   kills, waiting (briefly) for the owners to reap;
//! - the end of the run: the same [`end_all`], so that no exit races a worker thread's drop;
//! - the harness killed (SIGINT, SIGTERM, SIGHUP, even SIGKILL): a watchdog process
//!   (`/bin/sh`, in a process group of its own, so a terminal's Ctrl-C does not reach it) reads
//!   a pipe that only the harness holds open. The harness tells it each group as it starts
//!   (`+PGID`) and ends (`-PGID`); when the pipe reaches end of file because the harness died,
//!   it kills the groups still listed. The harness itself ends with the signal's default
//!   action, so the shell reports 128+N: installing a handler would need unsafe code, which the
//!   workspace forbids.
//!
//! A group is forgotten only after its leader is reaped, so that the watchdog never kills a
//! process group id that was reused. The watchdog runs before an implementation is spawned
//! ([`watch`]) and hears of its group with one write right after: a harness killed between the
//! spawn and that write leaves the group behind (closing that gap would need code run in the child
//! before `exec`, which needs unsafe code).

use std::io::Write as _;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// How long [`end_all`] waits for the owners of killed groups to reap them.
const REAP_WAIT: Duration = Duration::from_secs(2);

/// The watchdog: the groups it lists, and when the pipe closes without the harness having
/// forgotten them, it kills them.
const WATCHDOG: &str = r#"groups=' '
while IFS= read -r line; do
  case $line in
    +*) groups="$groups${line#+} " ;;
    -*) g=${line#-}
        case $groups in *" $g "*) groups="${groups%%" $g "*} ${groups#*" $g "}" ;; esac ;;
  esac
done
for g in $groups; do kill -9 -"$g" 2>/dev/null; done"#;

#[derive(Debug, Default)]
struct Registry {
    /// Process group ids of the live implementation processes, with the thread that started
    /// each.
    groups: Vec<(i32, ThreadId)>,
    /// The watchdog and the write end of its pipe (`None` before the first registration, or
    /// when it cannot be started: then a killed harness can leave processes behind).
    watchdog: Option<(Child, ChildStdin)>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: Vec::new(),
    watchdog: None,
});

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

impl Registry {
    /// Tell the watchdog a line; a watchdog that died is not restarted (it cannot be told the
    /// groups it missed, and a new one would be started by the next registration anyway).
    fn tell(&mut self, line: &str) {
        if let Some((_, stdin)) = &mut self.watchdog
            && stdin.write_all(line.as_bytes()).is_err()
        {
            self.watchdog = None;
        }
    }

    fn start_watchdog(&mut self) {
        if self.watchdog.is_some() {
            return;
        }
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg(WATCHDOG)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        if let Ok(mut child) = command.spawn()
            && let Some(stdin) = child.stdin.take()
        {
            self.watchdog = Some((child, stdin));
        }
    }
}

/// A live implementation process group; dropped by its owner after it killed the group and
/// reaped the process (dropping it forgets the group).
#[derive(Debug)]
pub struct Registration {
    pgid: i32,
}

impl Drop for Registration {
    fn drop(&mut self) {
        let mut r = registry();
        if let Some(i) = r.groups.iter().position(|(g, _)| *g == self.pgid) {
            r.groups.swap_remove(i);
            let line = format!("-{}\n", self.pgid);
            r.tell(&line);
        }
    }
}

/// Start the watchdog, if it is not running, before an implementation process is spawned: its
/// group is then registered right after the spawn with one write, where starting the watchdog
/// there (a fork and exec of `/bin/sh`) left time for the implementation to start children and
/// the harness to be killed before the watchdog knew the group.
pub fn watch() {
    registry().start_watchdog();
}

/// Register the process group led by `pid` (a process started with `process_group(0)`).
pub fn register(pid: u32) -> Registration {
    let pgid = i32::try_from(pid).unwrap_or(0);
    let mut r = registry();
    if pgid > 0 {
        r.start_watchdog();
        r.groups.push((pgid, std::thread::current().id()));
        let line = format!("+{pgid}\n");
        r.tell(&line);
    }
    Registration { pgid }
}

/// The process groups registered now (for tests and diagnostics).
pub fn live() -> Vec<i32> {
    registry().groups.iter().map(|(g, _)| *g).collect()
}

/// Kill the process groups started by `thread` (a worker abandoned inside a call: its owner
/// reaps them when the call ends, which their end makes immediate).
pub fn end_started_by(thread: ThreadId) {
    let groups: Vec<i32> = registry()
        .groups
        .iter()
        .filter(|(_, t)| *t == thread)
        .map(|(g, _)| *g)
        .collect();
    for g in groups {
        kill_group(g);
    }
}

/// Kill every registered process group, wait up to [`REAP_WAIT`] for their owners to reap
/// them, and stop the watchdog. Called when a command ends; harmless when nothing was started.
pub fn end_all() {
    let groups = live();
    for g in &groups {
        kill_group(*g);
    }
    let start = Instant::now();
    while !live().is_empty() && start.elapsed() < REAP_WAIT {
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut r = registry();
    // Groups whose owner did not reap them in time were killed above: the watchdog must not
    // kill their ids again after the harness is gone (they may be reused by then).
    for (g, _) in std::mem::take(&mut r.groups) {
        let line = format!("-{g}\n");
        r.tell(&line);
    }
    if let Some((mut child, stdin)) = r.watchdog.take() {
        drop(stdin);
        let _ = child.wait();
    }
}

/// SIGKILL to the process group `pgid`.
fn kill_group(pgid: i32) {
    #[cfg(unix)]
    if let Some(pid) = rustix::process::Pid::from_raw(pgid) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    #[cfg(not(unix))]
    let _ = pgid;
}
