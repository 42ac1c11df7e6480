//! The runner against scripted fake implementations: statuses from the capability gate,
//! implementation errors, panics, deadlines, the dynamics loop, and the streamed NDJSON log.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use physics_cts::case::Corpus;
use physics_cts::implementation::Factory;
use physics_cts::implementation::{
    Action, BodyKind, BodyReport, Capabilities, CheckFamily, Handshake, ImplError, Implementation,
    Interpretation, LoadOutcome, LoadRequest, MassReport, NodeState, NodeTrs, PROTOCOL_VERSION,
    Profile, SimConfig, State,
};
use physics_cts::known_failures::KnownFailures;
use physics_cts::report::ndjson;
use physics_cts::results::Verdict;
use physics_cts::runner::{Entrant, ImplRunner, Options, run_matrix};
use physics_cts::status::Status;
use scratch::scratch;
use serde_json::{Value, json};

mod misbehave;
mod scratch;

/// A fake implementation scripted by the stem of the file it loads.
#[derive(Debug, Default)]
struct ScriptedFake {
    caps: Capabilities,
    calls: Arc<AtomicUsize>,
    stem: String,
    config: Option<SimConfig>,
    steps: u32,
    pushed: f64,
    /// The version its handshake gives (`1` when empty).
    version: String,
}

impl ScriptedFake {
    fn caps() -> Capabilities {
        Capabilities {
            profiles: vec![Profile::Khr2024Draft],
            features: vec!["body.".into()],
            checks: vec![
                CheckFamily::Validation,
                CheckFamily::Interpretation,
                CheckFamily::Dynamics,
            ],
            batch: false,
        }
    }
}

impl Implementation for ScriptedFake {
    fn handshake(&mut self) -> Result<Handshake, ImplError> {
        Ok(Handshake {
            name: "scripted".into(),
            version: if self.version.is_empty() {
                "1".into()
            } else {
                self.version.clone()
            },
            engine: "none".into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: self.caps.clone(),
        })
    }

    fn load(&mut self, request: &LoadRequest) -> Result<LoadOutcome, ImplError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        // A load replaces the scene: the simulation starts again.
        self.steps = 0;
        self.pushed = 0.0;
        self.stem = request
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        match self.stem.as_str() {
            "panic" => panic!("scripted panic in load"),
            "hang" => {
                std::thread::sleep(Duration::from_secs(3));
                Ok(LoadOutcome::Loaded { notes: vec![] })
            }
            "slow" => {
                std::thread::sleep(Duration::from_millis(200));
                Ok(LoadOutcome::Loaded { notes: vec![] })
            }
            "error" => Err(ImplError::Failed("scripted failure".into())),
            "unsupported" => Err(ImplError::NotSupported("scripted refusal".into())),
            s if s.starts_with("invalid") => Ok(LoadOutcome::Rejected {
                reason: "invalid".into(),
                codes: vec!["NODE_CYCLE".into()],
            }),
            _ => Ok(LoadOutcome::Loaded { notes: vec![] }),
        }
    }

    fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
        let kind = if self.stem == "wrong" {
            BodyKind::Static
        } else {
            BodyKind::Dynamic
        };
        Ok(Interpretation {
            bodies: vec![BodyReport {
                node: 0,
                kind,
                mass: MassReport::Finite(1.0),
                center_of_mass: Some([0.0; 3]),
                inertia_diagonal: [MassReport::Finite(1.0); 3],
                inertia_orientation: [0.0, 0.0, 0.0, 1.0],
                linear_velocity: [0.0; 3],
                angular_velocity: [0.0; 3],
                gravity_factor: 1.0,
            }],
            ..Interpretation::default()
        })
    }

    fn configure(&mut self, config: &SimConfig) -> Result<(), ImplError> {
        self.config = Some(*config);
        Ok(())
    }

    fn step(&mut self, steps: u32) -> Result<(), ImplError> {
        if self.stem == "crash-step" && self.steps > 0 {
            panic!("scripted panic in step");
        }
        self.steps += steps;
        Ok(())
    }

    /// Node 0 falls freely from rest under the configured gravity with symplectic Euler
    /// (v_n = g n dt, y_n = g dt² n(n+1)/2); an impulse adds to x as a constant velocity.
    fn observe(&mut self) -> Result<State, ImplError> {
        let c = self
            .config
            .ok_or_else(|| ImplError::BadRequest("not configured".into()))?;
        let n = f64::from(self.steps);
        let t = n * c.dt;
        let g = c.gravity[1];
        Ok(State {
            time: t,
            nodes: vec![NodeState {
                node: 0,
                translation: [self.pushed * t, g * c.dt * c.dt * n * (n + 1.0) / 2.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
                linear_velocity: [self.pushed, g * t, 0.0],
                angular_velocity: [0.0; 3],
            }],
            contacts: vec![],
            trigger_events: vec![],
        })
    }

    fn apply(&mut self, action: &Action) -> Result<(), ImplError> {
        if let Action::Impulse { impulse, .. } = action {
            self.pushed += impulse[0];
        }
        Ok(())
    }

    fn evaluate_constraints(&mut self, _: &Value) -> Result<Vec<NodeTrs>, ImplError> {
        Err(ImplError::NotSupported("no constraints".into()))
    }

    fn unload(&mut self) -> Result<(), ImplError> {
        Ok(())
    }
}

fn factory(calls: Arc<AtomicUsize>) -> Factory {
    Arc::new(move || {
        Box::new(ScriptedFake {
            caps: ScriptedFake::caps(),
            calls: calls.clone(),
            ..ScriptedFake::default()
        }) as Box<dyn Implementation + Send>
    })
}

/// A contender of a matrix run with no known failure.
fn entrant(name: &str, factory: Factory) -> Entrant {
    Entrant {
        name: name.into(),
        factory,
        known_failures: KnownFailures::default(),
    }
}

fn tol(r: f64, a: f64) -> Value {
    json!({"recommended": r, "allowed": a})
}

/// Write a corpus of `(id, valid, features, expect)` cases (main files are empty: the
/// scripted implementation only reads their names).
fn corpus(dir: &Path, cases: &[(impl AsRef<str>, bool, &[&str], Value)]) -> Corpus {
    let mut rows = Vec::new();
    for (id, valid, features, expect) in cases {
        let id = id.as_ref();
        let file = format!("{id}.gltf");
        let path = dir.join(&file);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, "{}").expect("write");
        std::fs::write(dir.join(format!("{id}.expect.json")), expect.to_string()).expect("write");
        rows.push(
            json!({"id": id, "file": file, "profile": "khr-2024-draft", "area": "body",
            "features": features, "tier": "required", "valid": valid}),
        );
    }
    std::fs::write(
        dir.join("manifest.json"),
        json!({"cases": rows}).to_string(),
    )
    .expect("write");
    Corpus::open(dir).expect("opens")
}

/// A corpus of valid cases `ids` needing no feature, each expecting [`body_expect`].
fn body_corpus(dir: &Path, ids: &[&str]) -> Corpus {
    let cases: Vec<_> = ids
        .iter()
        .map(|id| (*id, true, &[][..], body_expect()))
        .collect();
    corpus(dir, &cases)
}

fn body_expect() -> Value {
    json!({
        "tolerances": {"length": tol(1e-9, 1e-6), "angle": tol(1e-9, 1e-6), "scalar": tol(1e-9, 1e-6)},
        "interpretation": {"profile": "khr-2024-draft", "bodies": [{
            "index": 0, "node": 0, "kind": "dynamic", "omi_type": null,
            "pose": {"translation": [0, 0, 0], "rotation": [0, 0, 0, 1]},
            "mass": {"kind": "finite", "value": 1.0}, "inverse_mass": 1.0,
            "center_of_mass": [0, 0, 0], "center_of_mass_world": [0, 0, 0],
            "inertia": {"kind": "engine_computes"}, "gravity_factor": 1.0,
            "linear_velocity": [0, 0, 0], "angular_velocity": [0, 0, 0], "decisions": []
        }]}
    })
}

/// Observations every 7 steps: the window from step 50 starts at step 56 (t = 0.56) and ends
/// at step 100 (t = 1). Mean v_y = (y_100 - y_56) / 0.44 with y_n = -10 * 1e-4 * n(n+1)/2:
/// (-5.05 + 1.596) / 0.44 = -7.85; v_x = 2 only if the impulse at step 50 was applied.
fn fall_expect() -> Value {
    let mut e = body_expect();
    e["scenario"] = json!({
        "config": {"gravity": [0, -10, 0], "dt": 0.01, "substeps": 1},
        "steps": 100, "observe_every": 7,
        "actions": [{"step": 50, "action": "impulse", "node": 0, "impulse": [2, 0, 0]}],
        "checks": [
            {"name": "gravity", "kind": "acceleration", "node": 0, "expected": [0, -10, 0], "to_step": 49, "tolerance": tol(1e-9, 1e-6), "decisions": ["D-X"]},
            {"name": "pushed", "kind": "mean_velocity", "node": 0, "expected": [2, -7.85, 0], "from_step": 50, "tolerance": tol(0.01, 0.1)}
        ]
    });
    e
}

fn statuses(checks: &[physics_cts::check::CheckResult]) -> Vec<(String, Status)> {
    checks.iter().map(|c| (c.check.clone(), c.status)).collect()
}

#[test]
fn every_status_the_runner_assigns() {
    let dir = scratch("runner-statuses");
    let invalid =
        json!({"issues": [{"code": "NODE_CYCLE", "pointer": "/nodes/0", "severity": "error"}]});
    let c = corpus(
        &dir,
        &[
            ("k/body/ok", true, &["body.dynamic"], body_expect()),
            ("k/body/wrong", true, &["body.dynamic"], body_expect()),
            ("k/body/panic", true, &[], body_expect()),
            ("k/body/after-panic", true, &[], body_expect()),
            ("k/body/error", true, &[], body_expect()),
            ("k/body/unsupported", true, &[], body_expect()),
            (
                "k/body/undeclared",
                true,
                &["joint.limit.angular.3"],
                body_expect(),
            ),
            ("k/body/invalid-1", false, &[], invalid.clone()),
            ("k/body/fall", true, &[], fall_expect()),
            ("k/body/crash-step", true, &[], fall_expect()),
            (
                "k/body/malformed",
                true,
                &[],
                json!({"scenario": {"steps": "many"}}),
            ),
        ],
    );
    let calls = Arc::new(AtomicUsize::new(0));
    let mut runner = ImplRunner::new("scripted", factory(calls.clone()), Options::default());
    let mut run = |id: &str| {
        let entry = c.entries.iter().find(|e| e.id == id).expect("entry");
        runner.run_case(&c, entry)
    };
    let ok = run("k/body/ok");
    assert!(ok.iter().all(|c| c.status == Status::Pass), "{ok:?}");
    assert_eq!(ok[0].check, "load");
    let wrong = run("k/body/wrong");
    assert!(statuses(&wrong).contains(&("interpretation.bodies.kind".into(), Status::Fail)));
    let panic = run("k/body/panic");
    assert_eq!(statuses(&panic), vec![("load".into(), Status::Crash)]);
    let message = &panic[0].message;
    assert!(message.contains("scripted panic in load"), "{message}");
    // A fresh implementation serves the next case.
    assert!(
        run("k/body/after-panic")
            .iter()
            .all(|c| c.status == Status::Pass)
    );
    assert_eq!(
        statuses(&run("k/body/error")),
        vec![("load".into(), Status::Error)]
    );
    assert_eq!(
        statuses(&run("k/body/unsupported")),
        vec![("load".into(), Status::NotSupported)]
    );
    // The gate answers without a call.
    let before = calls.load(Ordering::SeqCst);
    let undeclared = run("k/body/undeclared");
    assert_eq!(
        statuses(&undeclared),
        vec![("capabilities".into(), Status::NotSupported)]
    );
    assert!(undeclared[0].message.contains("joint.limit.angular.3"));
    assert_eq!(calls.load(Ordering::SeqCst), before);
    assert_eq!(
        statuses(&run("k/body/invalid-1")),
        vec![("validation.reject".into(), Status::Pass)]
    );
    // Dynamics: observations every 7 steps and at the action; the impulse at step 50 shows.
    let fall = run("k/body/fall");
    let st = statuses(&fall);
    assert!(
        st.contains(&("dynamics.gravity".into(), Status::Pass)),
        "{fall:?}"
    );
    assert!(
        st.contains(&("dynamics.pushed".into(), Status::Pass)),
        "{fall:?}"
    );
    let g = fall
        .iter()
        .find(|c| c.check == "dynamics.gravity")
        .expect("gravity");
    assert_eq!(g.decisions, vec!["D-X"]);
    let crash = run("k/body/crash-step");
    assert!(
        statuses(&crash).contains(&("dynamics".into(), Status::Crash)),
        "{crash:?}"
    );
    let malformed = run("k/body/malformed");
    assert_eq!(
        statuses(&malformed),
        vec![("case".into(), Status::HarnessError)]
    );
    assert_eq!(runner.restarts(), 2);
}

#[test]
fn a_case_past_its_deadline_times_out_and_the_next_one_runs() {
    let dir = scratch("runner-timeout");
    let c = body_corpus(&dir, &["k/body/hang", "k/body/ok"]);
    let options = Options {
        deadline: Duration::from_millis(300),
        restart_budget: 5,
        ..Options::default()
    };
    let mut runner = ImplRunner::new("scripted", factory(Arc::default()), options);
    let hang = runner.run_case(&c, &c.entries[0]);
    assert_eq!(statuses(&hang), vec![("case".into(), Status::Timeout)]);
    let ok = runner.run_case(&c, &c.entries[1]);
    assert!(ok.iter().all(|c| c.status == Status::Pass), "{ok:?}");
    // Beyond the restart budget the rest is NOTRUN.
    let mut strict = ImplRunner::new(
        "scripted",
        factory(Arc::default()),
        Options {
            restart_budget: 0,
            ..options
        },
    );
    assert_eq!(
        statuses(&strict.run_case(&c, &c.entries[0]))[0].1,
        Status::Timeout
    );
    assert_eq!(
        statuses(&strict.run_case(&c, &c.entries[1]))[0].1,
        Status::Notrun
    );
}

/// Through `run_matrix`, whose instance keeps two cases queued on its worker, a queued case
/// runs as it would unqueued; each row is `(name, case ids, options, statuses)`.
#[test]
fn a_queued_case_runs_as_it_would_unqueued() {
    use Status::{Crash, Fail, Notrun, Pass, Timeout};
    let ms = Duration::from_millis;
    let rows: [(&str, &[&str], Options, &[Status]); 3] = [
        // The case queued behind one that times out is sent to the fresh worker before the
        // next one, and each is judged on its own outputs (`wrong` fails where its
        // neighbours pass).
        (
            "behind-a-timeout",
            &[
                "k/body/a-ok",
                "k/body/b/hang",
                "k/body/c/wrong",
                "k/body/d-ok",
            ],
            Options {
                deadline: ms(300),
                restart_budget: 5,
                jobs: 1,
            },
            &[Pass, Timeout, Fail, Pass],
        ),
        // Its deadline starts when the worker takes it, not when it was queued: two cases of
        // 200 ms each under a 350 ms deadline both pass (the second was queued at the start
        // of the first, so it would have been cut at 350 ms from then, 150 ms into its run).
        (
            "whole-deadline",
            &["k/body/a/slow", "k/body/b/slow"],
            Options {
                deadline: ms(350),
                restart_budget: 5,
                jobs: 1,
            },
            &[Pass, Pass],
        ),
        // With a budget of no restart, the case queued behind the first crash does not run:
        // it is NOTRUN like every later one, exactly as without the queue.
        (
            "behind-the-last-allowed-crash",
            &["k/body/a/panic", "k/body/b-ok", "k/body/c-ok"],
            Options {
                restart_budget: 0,
                ..Options::default()
            },
            &[Crash, Notrun, Notrun],
        ),
    ];
    for (name, ids, options, want) in rows {
        let dir = scratch(&format!("runner-queued-{name}"));
        let c = body_corpus(&dir, ids);
        let (run, streamed) = run_with(&c, &entrant("scripted", factory(Arc::default())), options);
        assert_eq!(streamed, ids.len(), "{name}");
        let got: Vec<(&str, Status)> = run
            .results
            .iter()
            .map(|r| (r.case.as_str(), r.status))
            .collect();
        let want: Vec<(&str, Status)> = ids.iter().copied().zip(want.iter().copied()).collect();
        assert_eq!(got, want, "{name}");
    }
}

/// An implementation rebuilt after a crash must give its first handshake again: one that
/// changed its version under the run makes the next case a HARNESS_ERROR on `handshake`.
#[test]
fn a_restart_with_another_handshake_is_a_harness_error() {
    let dir = scratch("runner-replayed-handshake");
    let c = body_corpus(&dir, &["k/body/a/panic", "k/body/b-ok"]);
    let builds = Arc::new(AtomicUsize::new(0));
    let factory: Factory = Arc::new(move || {
        let n = builds.fetch_add(1, Ordering::SeqCst);
        Box::new(ScriptedFake {
            caps: ScriptedFake::caps(),
            version: format!("build {n}"),
            ..ScriptedFake::default()
        }) as Box<dyn Implementation + Send>
    });
    let mut runner = ImplRunner::new("scripted", factory, Options::default());
    let crashed = runner.run_case(&c, &c.entries[0]);
    assert_eq!(statuses(&crashed), vec![("load".into(), Status::Crash)]);
    let after = runner.run_case(&c, &c.entries[1]);
    assert_eq!(
        statuses(&after),
        vec![("handshake".into(), Status::HarnessError)]
    );
    assert!(
        after[0].message.contains("(build 1") && after[0].message.contains("(build 0"),
        "{}",
        after[0].message
    );
}

#[test]
fn a_matrix_run_streams_a_log_that_reads_back_with_verdicts() {
    let dir = scratch("runner-matrix");
    let c = body_corpus(&dir, &["k/body/ok", "k/body/wrong"]);
    let entries: Vec<_> = c.entries.iter().collect();
    // `a` expects `wrong` to fail, `b` expects `ok` to.
    let expecting = |name: &str, case: &str| Entrant {
        known_failures: KnownFailures::parse(&format!(
            "[[known]]\ncase = \"{case}\"\nreason = \"r\"\n"
        ))
        .expect("parses"),
        ..entrant(name, factory(Arc::default()))
    };
    let entrants = vec![expecting("a", "k/body/wrong"), expecting("b", "k/body/ok")];
    let log = std::cell::RefCell::new(ndjson::Writer::new(Vec::new()));
    let mut seen = 0;
    let run = run_matrix(
        &c,
        "fake",
        &entries,
        &entrants,
        Options::default(),
        &mut |infos| {
            assert_eq!(infos.len(), 2);
            log.borrow_mut()
                .line(&ndjson::header("s", "fake", infos))
                .expect("write");
        },
        &mut |r| {
            seen += 1;
            log.borrow_mut().case(r).expect("write");
        },
    );
    assert_eq!(seen, 4);
    let verdicts: Vec<(&str, &str, Verdict)> = run
        .results
        .iter()
        .map(|r| (r.implementation.as_str(), r.case.as_str(), r.verdict))
        .collect();
    assert_eq!(
        verdicts,
        vec![
            ("a", "k/body/ok", Verdict::Ok),
            ("a", "k/body/wrong", Verdict::ExpectedFailure),
            ("b", "k/body/ok", Verdict::UnexpectedPass),
            ("b", "k/body/wrong", Verdict::Failed),
        ]
    );
    assert!(!run.required_ok());
    let mut log = log.into_inner();
    log.line(&ndjson::footer(&run)).expect("write");
    let text = String::from_utf8(log.into_inner()).expect("utf8");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with(r#"{"type":"header""#));
    assert!(
        lines
            .last()
            .expect("footer")
            .starts_with(r#"{"type":"footer""#)
    );
    let back = ndjson::read(text.as_bytes()).expect("reads");
    assert_eq!(back.results.len(), 4);
    for (a, b) in back.results.iter().zip(&run.results) {
        assert_eq!(a.checks, b.checks);
        assert_eq!((a.status, a.verdict), (b.status, b.verdict));
    }
    // A log cut in the middle of a line still gives the complete cases before it.
    let cut = &text[..text.len() - 20];
    assert!(ndjson::read(cut.as_bytes()).is_ok());
}

/// Every case of the committed corpus (or `CTS_CORPUS`) reads: manifest, expectation file,
/// expected interpretation, poses, tolerances and scenario. Skipped with a message when the
/// corpus is absent.
#[test]
fn every_case_of_the_corpus_reads() {
    let dir = std::env::var_os("CTS_CORPUS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1"),
        PathBuf::from,
    );
    if !dir.join("manifest.json").exists() {
        eprintln!("skipped: no corpus at {}", dir.display());
        return;
    }
    let corpus = Corpus::open(&dir).expect("manifest reads");
    let mut with_interpretation = 0;
    for entry in &corpus.entries {
        let case = physics_cts::case::LoadedCase::load(&dir, entry)
            .unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        assert!(case.path.exists(), "{}: main file missing", entry.id);
        assert_eq!(entry.valid, case.error_codes().is_empty(), "{}", entry.id);
        if entry.valid && entry.profile.is_some() {
            with_interpretation += usize::from(case.interpretation.is_some());
        }
    }
    eprintln!(
        "{} cases read, {with_interpretation} with an expected interpretation",
        corpus.entries.len()
    );
    assert!(!corpus.entries.is_empty());
}

/// `(case, status, checks with their statuses)` of every result, in run order.
type RunStatuses = Vec<(String, Status, Vec<(String, Status)>)>;

fn outcome(run: &physics_cts::results::Run) -> RunStatuses {
    run.results
        .iter()
        .map(|r| (r.case.clone(), r.status, statuses(&r.checks)))
        .collect()
}

fn run_with(c: &Corpus, entrant: &Entrant, options: Options) -> (physics_cts::results::Run, usize) {
    let entries: Vec<_> = c.entries.iter().collect();
    let mut streamed = 0;
    let run = run_matrix(
        c,
        "fake",
        &entries,
        std::slice::from_ref(entrant),
        options,
        &mut |_| {},
        &mut |_| streamed += 1,
    );
    (run, streamed)
}

/// `--jobs 3` gives the same statuses and checks as `--jobs 1`, in the same (entry) order,
/// with panics and crashes among the cases: each instance rebuilds its own implementation.
#[test]
fn three_jobs_give_the_statuses_of_one() {
    let dir = scratch("runner-jobs");
    let mut cases: Vec<(String, bool, &[&str], Value)> = Vec::new();
    for i in 0..8 {
        cases.push((format!("k/body/ok-{i}"), true, &[], body_expect()));
        cases.push((format!("k/fall/f{i}/fall"), true, &[], fall_expect()));
    }
    for (id, expect) in [
        ("k/a/wrong", body_expect()),
        ("k/b/panic", body_expect()),
        ("k/c/error", body_expect()),
        ("k/d/crash-step", fall_expect()),
        ("k/e/unsupported", body_expect()),
    ] {
        cases.push((id.into(), true, &[], expect));
    }
    cases.push(("k/f/invalid-1".into(), false, &[], json!({"issues": []})));
    cases.push((
        "k/g/undeclared".into(),
        true,
        &["joint.limit.angular.3"],
        body_expect(),
    ));
    let c = corpus(&dir, &cases);
    let calls = Arc::new(AtomicUsize::new(0));
    let entrant = entrant("scripted", factory(calls.clone()));
    let (one, n1) = run_with(&c, &entrant, Options::default());
    let loads_one = calls.swap(0, Ordering::SeqCst);
    let (three, n3) = run_with(
        &c,
        &entrant,
        Options {
            jobs: 3,
            ..Options::default()
        },
    );
    assert_eq!((n1, n3), (c.entries.len(), c.entries.len()));
    assert_eq!(outcome(&one), outcome(&three));
    // Every case that passes the gate was loaded once in each run.
    assert_eq!(calls.load(Ordering::SeqCst), loads_one);
    let by = |id: &str| {
        one.results
            .iter()
            .find(|r| r.case == id)
            .map(|r| r.status)
            .expect("case")
    };
    assert_eq!(by("k/b/panic"), Status::Crash);
    assert_eq!(by("k/d/crash-step"), Status::Crash);
    assert_eq!(by("k/fall/f3/fall"), Status::Pass);
    let ids: Vec<&str> = three.results.iter().map(|r| r.case.as_str()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "results are in case id order");
}

fn misbehaving(flags: &[&str]) -> Option<Factory> {
    use physics_cts::adapters::stdio::{StdioConfig, StdioImplementation};
    let py = misbehave::python()?;
    let mut args: Vec<std::ffi::OsString> = vec![misbehave::script().into()];
    args.extend(flags.iter().map(std::ffi::OsString::from));
    let mut config = StdioConfig::new(py, args);
    config.handshake_timeout = Duration::from_secs(10);
    config.request_timeout = Duration::from_secs(5);
    Some(Arc::new(move || {
        Box::new(StdioImplementation::new(config.clone())) as Box<dyn Implementation + Send>
    }))
}

/// The misbehaving stdio fake's corpus: the file stem picks the misbehaviour, the folder
/// makes the id unique.
fn stdio_corpus(dir: &Path) -> Corpus {
    let stems = [
        "ok",
        "crash-step",
        "ok",
        "slow",
        "garbage",
        "ok",
        "fail",
        "early-exit",
        "ok",
        "refuse",
        "wrong-seq",
        "ok",
        "crash-step",
        "ok",
    ];
    misbehave::write_corpus(dir, &stems, |_| "required");
    Corpus::open(dir).expect("opens")
}

/// Over stdio, `--jobs 3` (three processes) gives the statuses of `--jobs 1`; the crashing
/// processes are restarted within their own budget and the other cases are unaffected.
#[test]
fn three_processes_give_the_statuses_of_one() {
    let Some(factory) = misbehaving(&[]) else {
        return;
    };
    let dir = scratch("runner-jobs-stdio");
    let c = stdio_corpus(&dir);
    let entrant = entrant("stdio", factory);
    let (one, _) = run_with(&c, &entrant, Options::default());
    let (three, _) = run_with(
        &c,
        &entrant,
        Options {
            jobs: 3,
            ..Options::default()
        },
    );
    assert_eq!(outcome(&one), outcome(&three));
    let status = |stem: &str| -> Vec<Status> {
        one.results
            .iter()
            .filter(|r| r.case.ends_with(&format!("/{stem}")))
            .map(|r| r.status)
            .collect()
    };
    assert_eq!(status("ok"), vec![Status::Pass; 6]);
    assert_eq!(status("crash-step"), vec![Status::Crash; 2]);
    assert_eq!(status("early-exit"), vec![Status::Crash]);
    assert_eq!(status("garbage"), vec![Status::HarnessError]);
    assert_eq!(status("fail"), vec![Status::Error]);
    assert_eq!(status("refuse"), vec![Status::NotSupported]);
    assert_eq!(status("slow"), vec![Status::Pass]);
}

/// The restart budget is per process: a process that cannot start spends its own budget and
/// stops taking cases; once every process has stopped, the cases left are NOTRUN. With
/// budget 1, each instance runs until its second failed start. The first instance's start
/// for the header counts: one case with one instance (1 + 1 starts), and two more for the
/// second instance of `--jobs 2`.
#[test]
fn the_restart_budget_is_per_process() {
    let Some(factory) = misbehaving(&["--crash-at-start"]) else {
        return;
    };
    let dir = scratch("runner-jobs-budget");
    let c = stdio_corpus(&dir);
    let entrant = entrant("stdio", factory);
    let count = |run: &physics_cts::results::Run, s: Status| {
        run.results.iter().filter(|r| r.status == s).count()
    };
    for (jobs, crashes) in [(1, 1), (2, 3)] {
        let (run, streamed) = run_with(
            &c,
            &entrant,
            Options {
                jobs,
                restart_budget: 1,
                ..Options::default()
            },
        );
        assert_eq!(streamed, c.entries.len());
        assert_eq!(count(&run, Status::Crash), crashes, "--jobs {jobs}");
        assert_eq!(
            count(&run, Status::Notrun),
            c.entries.len() - crashes,
            "--jobs {jobs}"
        );
        let notrun = run
            .results
            .iter()
            .find(|r| r.status == Status::Notrun)
            .expect("a NOTRUN case");
        assert!(
            notrun.checks[0].message.contains("restart budget of 1"),
            "{:?}",
            notrun.checks
        );
    }
}
