//! The stdio runner against deliberately misbehaving implementations (`tests/fakes/`): every
//! run completes, every case gets the right status, and the other cases are unaffected.
//!
//! The cases here drive the adapter the way the runner does (load, step, observe, unload) and
//! map its errors to statuses the way the runner does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use physics_cts::adapters::stdio::{StdioConfig, StdioImplementation};
use physics_cts::implementation::{ImplError, Implementation, LoadRequest};

fn python() -> Option<&'static str> {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        Some("python3")
    } else {
        println!("python3 is not available: skipping");
        None
    }
}

fn fake_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fakes/misbehave.py")
}

fn fake(flags: &[&str]) -> Option<StdioConfig> {
    let py = python()?;
    let mut args: Vec<OsString> = vec![fake_script().into()];
    args.extend(flags.iter().map(OsString::from));
    let mut c = StdioConfig::new(py, args);
    c.handshake_timeout = Duration::from_secs(5);
    c.request_timeout = Duration::from_secs(2);
    c.max_line = 1 << 20;
    c.restart_budget = 20;
    Some(c)
}

/// The status a call's error gives a case (as the runner maps them).
fn status(e: &ImplError) -> &'static str {
    match e {
        ImplError::NotSupported(_) => "NOT_SUPPORTED",
        ImplError::Failed(_) => "ERROR",
        ImplError::BadRequest(_) | ImplError::Protocol(_) => "HARNESS_ERROR",
        ImplError::Timeout(_) => "TIMEOUT",
        ImplError::Crashed(_) => "CRASH",
        ImplError::NotRun(_) => "NOTRUN",
    }
}

/// One case: load, step, observe (the fake's state must come back typed), unload.
fn run_case(imp: &mut dyn Implementation, name: &str) -> (String, String) {
    let request = LoadRequest {
        path: PathBuf::from(format!("/cases/{name}.gltf")),
        profile: "khr-2024-draft".into(),
    };
    let result = (|| {
        imp.load(&request)?;
        imp.step(1)?;
        let state = imp.observe()?;
        assert_eq!(state.time, 0.5);
        assert_eq!(state.nodes[0].translation[2], f64::INFINITY);
        imp.unload()
    })();
    match result {
        Ok(()) => ("PASS".into(), String::new()),
        Err(e) => (status(&e).into(), e.to_string()),
    }
}

#[test]
fn every_misbehaviour_gets_its_status_and_the_others_pass() {
    let Some(config) = fake(&[]) else { return };
    let cases = [
        ("ok-1", "PASS"),
        ("crash-step", "CRASH"),
        ("ok-2", "PASS"),
        ("hang", "TIMEOUT"),
        ("ok-3", "PASS"),
        ("slow", "PASS"),
        ("garbage", "HARNESS_ERROR"),
        ("ok-4", "PASS"),
        ("huge", "HARNESS_ERROR"),
        ("ok-5", "PASS"),
        ("wrong-seq", "HARNESS_ERROR"),
        ("missing-field", "HARNESS_ERROR"),
        ("ok-6", "PASS"),
        ("flood", "HARNESS_ERROR"),
        ("ok-7", "PASS"),
        ("stderr-flood", "PASS"),
        ("early-exit", "CRASH"),
        ("refuse", "NOT_SUPPORTED"),
        ("fail", "ERROR"),
        ("ok-8", "PASS"),
    ];
    let mut imp = StdioImplementation::new(config);
    let h = imp.handshake().expect("the fake shakes hands");
    assert_eq!(h.name, "misbehave");
    let mut got = Vec::new();
    let t = Instant::now();
    for (name, want) in cases {
        let (s, message) = run_case(&mut imp, name);
        got.push((name, s.clone(), message.clone()));
        assert_eq!(s, want, "case {name}: {message}");
    }
    // Restarts: crash-step, hang, garbage, huge, wrong-seq, missing-field, flood, early-exit.
    assert_eq!(imp.restarts(), 8, "{got:#?}");
    let msg = |n: &str| {
        got.iter()
            .find(|g| g.0 == n)
            .map(|g| g.2.clone())
            .unwrap_or_default()
    };
    assert!(
        msg("crash-step").contains("signal 6"),
        "{}",
        msg("crash-step")
    );
    assert!(
        msg("crash-step").contains("about to abort"),
        "{}",
        msg("crash-step")
    );
    assert!(
        msg("early-exit").contains("status 0"),
        "{}",
        msg("early-exit")
    );
    assert!(msg("huge").contains("over the limit"), "{}", msg("huge"));
    assert!(
        msg("wrong-seq").contains("wrong seq"),
        "{}",
        msg("wrong-seq")
    );
    assert!(
        msg("missing-field").contains("missing field"),
        "{}",
        msg("missing-field")
    );
    assert!(
        msg("flood").contains("before the step request"),
        "{}",
        msg("flood")
    );
    assert!(msg("garbage").contains("not JSON"), "{}", msg("garbage"));
    // One hang of 2 s, the huge line and the floods: well under a minute.
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
}

#[test]
fn crash_at_start_spends_the_budget_then_notrun() {
    let Some(mut config) = fake(&["--crash-at-start"]) else {
        return;
    };
    config.restart_budget = 2;
    let mut imp = StdioImplementation::new(config);
    let e = imp.handshake().expect_err("it crashes");
    assert_eq!(status(&e), "CRASH");
    assert!(e.to_string().contains("status 3"), "{e}");
    assert!(e.to_string().contains("crashing at start"), "{e}");
    let statuses: Vec<String> = (0..4)
        .map(|i| run_case(&mut imp, &format!("ok-{i}")).0)
        .collect();
    assert_eq!(statuses, ["CRASH", "CRASH", "NOTRUN", "NOTRUN"]);
    assert_eq!(imp.starts(), 3);
}

#[test]
fn no_handshake_is_a_timeout_and_a_wrong_protocol_a_harness_error() {
    let Some(mut config) = fake(&["--no-handshake"]) else {
        return;
    };
    config.handshake_timeout = Duration::from_millis(500);
    let mut imp = StdioImplementation::new(config);
    let e = imp.handshake().expect_err("no answer");
    assert_eq!(status(&e), "TIMEOUT", "{e}");
    assert_eq!(run_case(&mut imp, "ok").0, "TIMEOUT");

    let Some(config) = fake(&["--wrong-protocol"]) else {
        return;
    };
    let mut imp = StdioImplementation::new(config);
    let e = imp.handshake().expect_err("protocol 99");
    assert_eq!(status(&e), "HARNESS_ERROR", "{e}");
    assert!(e.to_string().contains("protocol 99"), "{e}");
}

#[test]
fn a_restart_must_shake_hands_the_same_way() {
    let Some(config) = fake(&["--changing-handshake"]) else {
        return;
    };
    let mut imp = StdioImplementation::new(config);
    imp.handshake().expect("first start");
    assert_eq!(run_case(&mut imp, "crash-step").0, "CRASH");
    let (s, m) = run_case(&mut imp, "ok");
    assert_eq!(s, "HARNESS_ERROR");
    assert!(m.contains("differs from the first"), "{m}");
}

#[cfg(target_os = "linux")]
#[test]
fn a_timeout_kills_the_whole_process_group() {
    let Some(config) = fake(&[]) else { return };
    let mut imp = StdioImplementation::new(config);
    let (s, m) = run_case(&mut imp, "hang-child");
    assert_eq!(s, "TIMEOUT", "{m}");
    let pid: u32 = m
        .split("child pid ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no child pid in {m}"));
    // The grandchild got SIGKILL with its group; once reaped by init it is gone.
    let t = Instant::now();
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let gone = stat.is_empty() || stat.contains(") Z ");
        if gone {
            break;
        }
        assert!(
            t.elapsed() < Duration::from_secs(5),
            "grandchild {pid} still runs: {stat}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(run_case(&mut imp, "ok").0, "PASS");
}

#[test]
fn parallel_processes_do_not_interfere() {
    let Some(config) = fake(&[]) else { return };
    let threads: Vec<_> = (0..3)
        .map(|j| {
            let config = config.clone();
            std::thread::spawn(move || {
                let mut imp = StdioImplementation::new(config);
                let names = ["ok", "crash-step", "slow", "garbage", "ok"];
                names
                    .iter()
                    .map(|n| run_case(&mut imp, &format!("{n}")).0)
                    .chain(std::iter::once(j.to_string()))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for (j, t) in threads.into_iter().enumerate() {
        let got = t.join().expect("no panic");
        assert_eq!(
            got,
            [
                "PASS",
                "CRASH",
                "PASS",
                "HARNESS_ERROR",
                "PASS",
                &j.to_string()
            ]
        );
    }
}

#[test]
fn a_missing_program_is_a_crash_not_a_panic() {
    let config = StdioConfig::new("/nonexistent/physics-impl", Vec::new());
    let mut imp = StdioImplementation::new(config);
    let e = imp.handshake().expect_err("cannot start");
    assert_eq!(status(&e), "CRASH");
    assert!(e.to_string().contains("cannot start"), "{e}");
}
