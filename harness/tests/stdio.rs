//! The stdio runner against deliberately misbehaving implementations (`tests/fakes/`): every
//! run completes, every case gets the right status, and the other cases are unaffected.
//!
//! The cases here drive the adapter the way the runner does (load, step, observe, unload) and
//! map its errors to statuses the way the runner does.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use misbehave::{python, script};
use physics_cts::adapters::stdio::{StdioConfig, StdioImplementation};
use physics_cts::implementation::{
    ImplError, Implementation, LoadOutcome, LoadRequest, NodeTrs, Profile,
};

mod misbehave;

fn fake(flags: &[&str]) -> Option<StdioConfig> {
    let py = python()?;
    let mut args: Vec<OsString> = vec![script().into()];
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

/// The request loading the (`khr-2024-draft`) case `name`; the fake reads only its stem.
fn request(name: &str) -> LoadRequest {
    LoadRequest {
        path: PathBuf::from(format!("/cases/{name}.gltf")),
        profile: Profile::Khr2024Draft,
    }
}

/// One case: load, step, observe (the fake's state must come back typed), unload.
fn run_case(imp: &mut dyn Implementation, name: &str) -> (String, String) {
    let result = (|| {
        imp.load(&request(name))?;
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
        ("bad-request", "ERROR"),
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
    for (stem, says) in [
        ("crash-step", "signal 6"),
        ("crash-step", "about to abort"),
        ("early-exit", "status 0"),
        ("huge", "over the limit"),
        ("wrong-seq", "wrong seq"),
        ("missing-field", "missing field"),
        ("garbage", "not JSON"),
    ] {
        assert!(msg(stem).contains(says), "{stem}: {}", msg(stem));
    }
    assert!(
        // The flood is seen either before the next request is sent or as its answer.
        msg("flood").contains("before the step request") || msg("flood").contains("wrong seq"),
        "{}",
        msg("flood")
    );
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
    assert!(
        e.to_string().contains(&format!(
            "the harness {}",
            physics_cts::implementation::PROTOCOL_VERSION
        )),
        "{e}"
    );
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
                    .map(|n| run_case(&mut imp, n).0)
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

/// A scenario as the runner makes it: observe, step 2, an impulse, step 1, observe (two states,
/// six requests with the configure).
fn scenario_case(
    imp: &mut dyn Implementation,
    name: &str,
) -> Result<Vec<physics_cts::implementation::State>, ImplError> {
    use physics_cts::implementation::{Action, Request, SimConfig};
    let impulse = Action::Impulse {
        node: 0,
        impulse: [0.0, 1.0, 0.0],
    };
    let requests = [
        Request::Observe(0),
        Request::Step(2),
        Request::Apply(&impulse),
        Request::Step(1),
        Request::Observe(3),
    ];
    imp.load(&request(name))?;
    let states = imp.simulate(&SimConfig::default(), &requests)?;
    imp.unload()?;
    Ok(states)
}

/// With `batch` declared, `simulate` is one request (the fake refuses scenario requests outside
/// a batch); a failing sub-request is that request's error, a result count or type other than
/// the requests' a protocol violation that restarts the process.
#[test]
fn a_batch_runs_a_scenario_in_one_request() {
    let Some(config) = fake(&["--batch-only"]) else {
        return;
    };
    let mut imp = StdioImplementation::new(config);
    assert!(imp.handshake().expect("handshake").capabilities.batch);
    let cases = [
        ("ok-1", "PASS", ""),
        ("batch-fail", "ERROR", "request 2 of 6 failed"),
        ("ok-2", "PASS", ""),
        ("batch-short", "HARNESS_ERROR", "5 results for 6 requests"),
        ("ok-3", "PASS", ""),
        (
            "batch-wrong-type",
            "HARNESS_ERROR",
            "result 1: the answer to observe does not fit: missing field",
        ),
        ("ok-4", "PASS", ""),
        ("crash-step", "CRASH", "about to abort"),
        ("ok-5", "PASS", ""),
    ];
    for (name, want, text) in cases {
        let (got, message) = match scenario_case(&mut imp, name) {
            Ok(states) => {
                assert_eq!(states.len(), 2, "{name}");
                assert!(states.iter().all(|s| s.time == 0.5), "{name}: {states:?}");
                assert_eq!(states[1].nodes[0].translation[2], f64::INFINITY);
                ("PASS", String::new())
            }
            Err(e) => (status(&e), e.to_string()),
        };
        assert_eq!(got, want, "{name}: {message}");
        assert!(message.contains(text), "{name}: {message}");
    }
    // The failed sub-request is the implementation's error (its process goes on); the two
    // violations and the crash restart it.
    assert_eq!(imp.restarts(), 3);
}

/// Without `batch` in the handshake, `simulate` is one request per call (the fake answers a
/// `batch` request with an error, so using it would fail the case).
#[test]
fn without_batch_simulate_falls_back_to_one_request_per_call() {
    let Some(config) = fake(&[]) else { return };
    let mut imp = StdioImplementation::new(config);
    assert!(!imp.handshake().expect("handshake").capabilities.batch);
    let states = scenario_case(&mut imp, "ok").expect("one request per call");
    assert_eq!(states.len(), 2);
    let e = scenario_case(&mut imp, "crash-step").expect_err("crashes in step");
    assert_eq!(status(&e), "CRASH", "{e}");
    assert_eq!(scenario_case(&mut imp, "ok").map(|s| s.len()), Ok(2));
}

#[test]
fn a_missing_program_is_a_crash_not_a_panic() {
    let config = StdioConfig::new("/nonexistent/physics-impl", Vec::new());
    let mut imp = StdioImplementation::new(config);
    let e = imp.handshake().expect_err("cannot start");
    assert_eq!(status(&e), "CRASH");
    assert!(e.to_string().contains("cannot start"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// The Python example adapter (harness/examples/python/vrm_adapter.py) against the reference.

fn example() -> Option<StdioImplementation> {
    let py = python()?;
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/python/vrm_adapter.py");
    let mut c = StdioConfig::new(py, vec![script.into()]);
    c.restart_budget = 0;
    Some(StdioImplementation::new(c))
}

/// Largest translation/scale distance and rotation angle between two node outputs.
fn deviation(want: &NodeTrs, got: &NodeTrs) -> (f64, f64) {
    let d = |a: &[f64], b: &[f64]| {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt()
    };
    let dt = d(&want.translation, &got.translation).max(d(&want.scale, &got.scale));
    // Angle of want^-1 got: 2 atan2(|v|, |w|) of the relative quaternion.
    let [ax, ay, az, aw] = want.rotation;
    let [bx, by, bz, bw] = got.rotation;
    let (ax, ay, az) = (-ax, -ay, -az);
    let x = aw * bx + ax * bw + ay * bz - az * by;
    let y = aw * by - ax * bz + ay * bw + az * bx;
    let z = aw * bz + ax * by - ay * bx + az * bw;
    let w = aw * bw - ax * bx - ay * by - az * bz;
    (dt, 2.0 * (x * x + y * y + z * z).sqrt().atan2(w.abs()))
}

/// A scene of a rotated, scaled root (0) with a source (1), a destination (2) constrained to
/// the source, a child of it (3) constrained to the source too (under a constrained parent) and
/// a sibling (4) constrained to 2 (a chain).
fn vrm_scene(
    kind: &str,
    source_space: &str,
    destination_space: &str,
    weight: f64,
    k: usize,
) -> String {
    let freeze =
        |i: usize| serde_json::json!([(k + i).is_multiple_of(2), !(k + i).is_multiple_of(3), true]);
    let root_scale = if k.is_multiple_of(2) {
        [2.0, 2.0, 2.0]
    } else {
        [1.0, 2.0, 0.5]
    };
    let constraint = |source: usize, s: &str, d: &str, i: usize, w: f64| {
        serde_json::json!({"VRMC_constraints-1.0": {kind: {
            "source": source, "sourceSpace": s, "destinationSpace": d,
            "freezeAxes": freeze(i), "weight": w}}})
    };
    serde_json::json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["VRMC_constraints-1.0"],
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [
            {"children": [1, 2, 4], "translation": [1.0, 0.0, 0.0],
             "rotation": [0.0, 0.0, 0.29552020666133955, 0.955336489125606], "scale": root_scale},
            {"translation": [0.0, 1.0, 0.0], "rotation": [0.1, 0.2, 0.3, 0.9273618495495704]},
            {"children": [3], "translation": [0.5, 0.5, 0.0],
             "extensions": constraint(1, source_space, destination_space, 0, weight)},
            {"translation": [0.0, 0.25, 1.0], "scale": [1.0, 3.0, 1.0],
             "extensions": constraint(1, destination_space, source_space, 1, 1.0 - weight / 2.0)},
            {"translation": [-0.5, 0.0, 0.0],
             "extensions": constraint(2, source_space, source_space, 2, weight)}
        ]
    })
    .to_string()
}

fn reference_outputs(path: &Path, poses: &serde_json::Value) -> Vec<NodeTrs> {
    let reading = reference::read_path(path, None).expect("readable");
    assert!(!reading.has_errors(), "{path:?}: {:?}", reading.issues);
    let scene = reading.scene.expect("a scene");
    let locals = reference::poses::Poses::from_json(&poses.to_string(), scene.nodes.len())
        .expect("poses")
        .locals(&scene);
    let out = reference::constraints::evaluate(&scene, &locals).expect("evaluates");
    scene
        .constraints
        .iter()
        .map(|c| {
            let t = &out[c.node];
            NodeTrs {
                node: c.node,
                translation: [t.translation.x, t.translation.y, t.translation.z],
                rotation: [t.rotation.i, t.rotation.j, t.rotation.k, t.rotation.w],
                scale: [t.scale.x, t.scale.y, t.scale.z],
            }
        })
        .collect()
}

/// Ask the example for every pose and compare with `want` per pose; returns the poses compared.
fn compare_example(
    imp: &mut StdioImplementation,
    path: &Path,
    poses: &[(serde_json::Value, Vec<NodeTrs>)],
    tolerance: f64,
) -> usize {
    let outcome = imp
        .load(&LoadRequest {
            path: path.to_path_buf(),
            profile: Profile::VrmcConstraintsDraft,
        })
        .unwrap_or_else(|e| panic!("{path:?}: {e}"));
    assert!(matches!(outcome, LoadOutcome::Loaded { .. }), "{outcome:?}");
    for (pose, want) in poses {
        let got = imp
            .evaluate_constraints(pose)
            .unwrap_or_else(|e| panic!("{path:?} {pose}: {e}"));
        for w in want {
            let g = got
                .iter()
                .find(|g| g.node == w.node)
                .unwrap_or_else(|| panic!("{path:?}: node {} not reported", w.node));
            let (dt, dq) = deviation(w, g);
            assert!(
                dt <= tolerance && dq <= tolerance,
                "{path:?} {pose}: node {}: got {g:?}, want {w:?} ({dt}, {dq})",
                w.node
            );
        }
    }
    imp.unload().expect("unloads");
    poses.len()
}

#[test]
fn the_python_example_agrees_with_the_reference() {
    let Some(mut imp) = example() else { return };
    let h = imp.handshake().expect("handshake");
    assert_eq!(h.capabilities.profiles, [Profile::VrmcConstraintsDraft]);
    assert!(h.capabilities.supports_feature("vrm.rotation.freeze.tft"));
    assert!(
        !h.capabilities.supports_feature("vrm.aim"),
        "it declares no aim"
    );
    let dir = std::env::temp_dir().join(format!("physics-cts-vrm-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut compared = 0;
    let mut k = 0;
    for kind in ["position", "rotation"] {
        for source_space in ["local", "model"] {
            for destination_space in ["local", "model"] {
                for weight in [1.0, 0.4] {
                    k += 1;
                    let path = dir.join(format!("scene-{k}.gltf"));
                    let text = vrm_scene(kind, source_space, destination_space, weight, k);
                    std::fs::write(&path, text).expect("writes");
                    let poses: Vec<_> = [
                        serde_json::json!({"nodes": {"1": {"translation": [0.3, 1.2, -0.4],
                            "rotation": [0.3, -0.1, 0.2, 0.9273618495495704]}}}),
                        serde_json::json!({"nodes": {
                            "0": {"rotation": [0.0, 0.6, 0.0, 0.8]},
                            "1": {"translation": [-1.0, 0.0, 2.0], "rotation": [0.0, 0.0, 1.0, 0.0]}}}),
                    ]
                    .into_iter()
                    .map(|p| {
                        let want = reference_outputs(&path, &p);
                        (p, want)
                    })
                    .collect();
                    compared += compare_example(&mut imp, &path, &poses, 1e-9);
                }
            }
        }
    }
    assert_eq!(compared, 32);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The example's VRM cases of the corpus (when the corpus is there): every valid case whose
/// features it declares, at every pose, within 1e-5 of the expected outputs (the corpus writes
/// numbers with 6 decimals: a rounded quaternion is off by up to about 2e-6 rad).
#[test]
fn the_python_example_passes_its_corpus_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1");
    let Ok(text) = std::fs::read_to_string(root.join("manifest.json")) else {
        println!("no corpus at {}: skipping", root.display());
        return;
    };
    let Some(mut imp) = example() else { return };
    let caps = imp.handshake().expect("handshake").capabilities;
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("manifest");
    let (mut cases, mut poses) = (0, 0);
    for case in manifest["cases"].as_array().expect("cases") {
        let declared = case["features"].as_array().is_some_and(|f| {
            f.iter()
                .all(|f| f.as_str().is_some_and(|f| caps.supports_feature(f)))
        });
        if case["profile"] != "vrmc-constraints-draft" || case["valid"] != true || !declared {
            continue;
        }
        let id = case["id"].as_str().expect("id");
        let expect: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(root.join(format!("{id}.expect.json"))).expect("expect"),
        )
        .expect("expect json");
        let want: Vec<(serde_json::Value, Vec<NodeTrs>)> = expect["poses"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|p| {
                let c = serde_json::from_value(p["constraints"].clone()).expect("outputs");
                (p["poses"].clone(), c)
            })
            .collect();
        let path = root.join(case["file"].as_str().expect("file"));
        poses += compare_example(&mut imp, &path, &want, 1e-5);
        cases += 1;
    }
    println!("{cases} cases, {poses} poses");
    assert!(cases > 0, "the corpus has no VRM case the example declares");
}

/// Every bundled implementation can be served (the same registry as `run --impl`).
#[test]
fn serve_knows_every_bundled_implementation() {
    for name in physics_cts::bundled::names() {
        let config = StdioConfig::new(cts_bin(), vec!["serve".into(), name.into()]);
        let mut imp = StdioImplementation::new(config);
        let h = imp.handshake().expect("handshake");
        assert_eq!(h.name, name);
    }
}

/// `physics-cts serve echo` end to end: every operation through the real binary.
#[test]
fn serve_echo_answers_every_operation() {
    use physics_cts::implementation::{Action, SimConfig};
    let config = StdioConfig::new(cts_bin(), vec!["serve".into(), "echo".into()]);
    let mut imp = StdioImplementation::new(config);
    let h = imp.handshake().expect("handshake");
    assert_eq!(h.name, "echo");
    let outcome = imp
        .load(&LoadRequest {
            path: "/nowhere.gltf".into(),
            profile: Profile::Khr2024Draft,
        })
        .expect("load");
    assert_eq!(outcome, LoadOutcome::Loaded { notes: Vec::new() });
    assert_eq!(
        imp.interpretation().expect("interpretation"),
        Default::default()
    );
    imp.configure(&SimConfig::default()).expect("configure");
    imp.apply(&Action::Impulse {
        node: 0,
        impulse: [f64::INFINITY, 0.0, f64::NAN],
    })
    .expect("apply with non-finite numbers");
    imp.step(10).expect("step");
    assert_eq!(imp.observe().expect("observe"), Default::default());
    assert!(
        imp.evaluate_constraints(&serde_json::json!({"nodes": {}}))
            .expect("constraints")
            .is_empty()
    );
    // A scenario in one batch: `serve` declares it for every implementation.
    assert!(h.capabilities.batch);
    let impulse = Action::Impulse {
        node: 0,
        impulse: [1.0, 0.0, 0.0],
    };
    use physics_cts::implementation::Request;
    let states = imp
        .simulate(
            &SimConfig::default(),
            &[
                Request::Observe(0),
                Request::Apply(&impulse),
                Request::Step(3),
                Request::Observe(3),
            ],
        )
        .expect("batch");
    assert_eq!(states, vec![Default::default(); 2]);
    imp.unload().expect("unload");
    // The same process answered everything.
    assert_eq!(imp.starts(), 1);
}

/// The `physics-cts` binary: `PHYSICS_CTS_BIN` when set (a copy, for a target folder shared
/// between checkouts), else the one Cargo built for this test.
fn cts_bin() -> OsString {
    std::env::var_os("PHYSICS_CTS_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_physics-cts").into())
}

/// Rapier in process and Rapier behind `physics-cts serve rapier` give the same status, and the
/// same status for every check, on every case of the corpus (when the corpus is there).
#[test]
fn rapier_in_process_and_over_stdio_agree_on_the_corpus() {
    use physics_cts::adapters::rapier::RapierImplementation;
    use physics_cts::case::Corpus;
    use physics_cts::implementation::Factory;
    use physics_cts::known_failures::KnownFailures;
    use physics_cts::runner::{Entrant, Options, run_matrix};
    use std::sync::Arc;

    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1");
    if !root.join("manifest.json").exists() {
        println!("no corpus at {}: skipping", root.display());
        return;
    }
    let corpus = Corpus::open(&root).expect("the corpus opens");
    let entries = corpus.filtered(None);
    let in_process: Factory =
        Arc::new(|| Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>);
    let config = StdioConfig::new(cts_bin(), vec!["serve".into(), "rapier".into()]);
    let over_stdio: Factory = Arc::new(move || {
        Box::new(StdioImplementation::new(config.clone())) as Box<dyn Implementation + Send>
    });
    let entrants = vec![
        Entrant {
            name: "in-process".into(),
            factory: in_process,
            known_failures: KnownFailures::default(),
        },
        Entrant {
            name: "stdio".into(),
            factory: over_stdio,
            known_failures: KnownFailures::default(),
        },
    ];
    let run = run_matrix(
        &corpus,
        "v1",
        &entries,
        &entrants,
        Options::default(),
        &mut |_| {},
        &mut |_| {},
    );
    let (a, b): (Vec<_>, Vec<_>) = run
        .results
        .iter()
        .partition(|r| r.implementation == "in-process");
    assert_eq!(a.len(), entries.len());
    assert_eq!(b.len(), entries.len());
    let mut differ = Vec::new();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.case, y.case);
        let checks = |r: &physics_cts::results::CaseResult| {
            r.checks
                .iter()
                .map(|c| format!("{} {}", c.check, c.status))
                .collect::<Vec<_>>()
        };
        if x.status != y.status || checks(x) != checks(y) {
            differ.push(format!(
                "{}: {} {:?} vs {} {:?}",
                x.case,
                x.status,
                checks(x),
                y.status,
                checks(y)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} cases differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
    let ms = |v: &[&physics_cts::results::CaseResult]| v.iter().map(|r| r.duration_ms).sum::<u64>();
    println!(
        "{} cases, identical statuses; in process {} ms, over stdio {} ms",
        entries.len(),
        ms(&a),
        ms(&b)
    );
}
