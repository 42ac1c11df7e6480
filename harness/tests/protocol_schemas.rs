//! Real conversations over stdio validate against the committed protocol schemas
//! (`harness/protocol/*.schema.json`): the request lines the harness writes and the answer
//! lines of `physics-cts serve reference` and of the Python example adapter (when python3 is
//! there), written by the processes themselves, not by the types under test.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use physics_cts::implementation::{Action, LoadRequest, SimConfig};
use physics_cts::protocol::message::{Call, NumberedCall};
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// The committed schema `<name>.schema.json`.
fn schema(name: &str) -> Value {
    let path = root().join(format!("protocol/{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("a schema is JSON")
}

fn assert_valid(name: &str, line: &str) {
    let validator = jsonschema::validator_for(&schema(name)).expect("a valid schema");
    let instance: Value = serde_json::from_str(line).expect("a line is JSON");
    let errors: Vec<String> = validator
        .iter_errors(&instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {line}\n{errors:#?}");
}

/// Send every request to `command` at once, then read its answers: one line per request.
fn converse(mut command: Command, calls: Vec<Call>) -> Vec<(String, String, String)> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("starts");
    let mut sent = Vec::new();
    {
        let mut stdin = child.stdin.take().expect("stdin");
        for (seq, call) in calls.into_iter().enumerate() {
            let op = call.op().to_string();
            let line = NumberedCall {
                seq: seq as u64,
                call,
            }
            .encode()
            .expect("encodes");
            stdin.write_all(&line).expect("writes");
            stdin.write_all(b"\n").expect("writes");
            sent.push((op, String::from_utf8(line).expect("UTF-8")));
        }
    }
    let answers: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("reads"))
        .collect();
    assert!(child.wait().expect("ends").success());
    assert_eq!(
        answers.len(),
        sent.len(),
        "one answer per request: {answers:#?}"
    );
    sent.into_iter()
        .zip(answers)
        .map(|((op, request), answer)| (op, request, answer))
        .collect()
}

/// A committed corpus case, or `None` (and a note) without the corpus.
fn case(file: &str) -> Option<PathBuf> {
    let path = root().join("../corpus/v1").join(file);
    if path.is_file() {
        Some(path)
    } else {
        println!("no {}: skipping", path.display());
        None
    }
}

fn load(path: PathBuf, profile: &str) -> Call {
    Call::Load(LoadRequest {
        path,
        profile: profile.parse().expect("a profile"),
    })
}

fn check(conversation: &[(String, String, String)]) {
    for (op, request, answer) in conversation {
        assert_valid(&format!("{op}.request"), request);
        assert_valid(&format!("{op}.answer"), answer);
    }
}

/// Every operation, batched and not, against the reference served over stdio; the scene has
/// an infinite mass, and one action carries non-finite numbers (the strings on the wire).
#[test]
fn the_served_reference_speaks_the_schemas() {
    let Some(path) = case("khr/body/mass-zero-infinite.gltf") else {
        return;
    };
    let mut command = Command::new(env!("CARGO_BIN_EXE_physics-cts"));
    command.args(["serve", "reference"]);
    let push = Action::Impulse {
        node: 0,
        impulse: [f64::INFINITY, f64::NAN, 0.0],
    };
    let conversation = converse(
        command,
        vec![
            Call::handshake(),
            load(path, "khr-2024-draft"),
            Call::Interpretation,
            Call::Configure(SimConfig::default()),
            Call::Step { steps: 2 },
            Call::Observe,
            Call::Apply(push.clone()),
            Call::Batch(vec![
                Call::Configure(SimConfig::default()),
                Call::Apply(push),
                Call::Step { steps: 1 },
                Call::Observe,
            ]),
            Call::EvaluateConstraints {
                poses: serde_json::json!({"nodes": {}}),
            },
            Call::Unload,
        ],
    );
    assert!(
        conversation[6]
            .1
            .contains(r#""impulse":["Infinity","NaN",0.0]"#)
    );
    check(&conversation);
}

/// The Python example (a VRM constraint adapter): its handshake, a load, constraint outputs,
/// and its errors for what it does not do.
#[test]
fn the_python_example_speaks_the_schemas() {
    let Some(path) = case("vrm/control/seed-003-position.gltf") else {
        return;
    };
    if !Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        println!("python3 is not available: skipping");
        return;
    }
    let mut command = Command::new("python3");
    command.arg(root().join("examples/python/vrm_adapter.py"));
    let conversation = converse(
        command,
        vec![
            Call::handshake(),
            load(path, "vrmc-constraints-draft"),
            Call::EvaluateConstraints {
                poses: serde_json::json!({"nodes": {"1": {"rotation": [0.0, 0.6, 0.0, 0.8]}}}),
            },
            Call::Interpretation,
            Call::Step { steps: 1 },
            Call::Unload,
        ],
    );
    let answer = |i: usize| -> Value { serde_json::from_str(&conversation[i].2).expect("JSON") };
    assert!(
        answer(2)["ok"].is_array(),
        "constraint outputs: {}",
        answer(2)
    );
    assert!(
        answer(3)["error"].is_object(),
        "no interpretation: {}",
        answer(3)
    );
    check(&conversation);
}

/// The check can fail: an answer the schemas do not allow is rejected.
#[test]
fn an_answer_outside_the_schema_is_rejected() {
    let validator = jsonschema::validator_for(&schema("observe.answer")).expect("a valid schema");
    let good = serde_json::json!({"seq": 1, "ok": {"time": "Infinity", "nodes": [],
        "contacts": [], "trigger_events": []}});
    assert!(validator.is_valid(&good));
    for bad in [
        serde_json::json!({"seq": 1, "ok": {"time": "inf", "nodes": [], "contacts": [], "trigger_events": []}}),
        serde_json::json!({"seq": 1, "ok": {"time": 0.0, "nodes": [], "contacts": []}}),
        serde_json::json!({"seq": 1, "error": {"error": "timeout", "message": "x"}}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}
