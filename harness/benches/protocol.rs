//! The stdio protocol's round trip: one request and its answer through a child process
//! (`physics-cts serve echo`, which answers at once), against the same call in process.
//! Goal: a median of at most 50 us per request. Also a scenario of 85 requests (the corpus's
//! average) in one `batch` against one request per call (`serve echo --no-batch`).

use physics_cts::adapters::stdio::{StdioConfig, StdioImplementation};
use physics_cts::implementation::{Implementation, NodeState, Request, SimConfig, State};
use physics_cts::protocol::serve::Echo;

mod common;

fn main() {
    divan::main();
}

fn echo_process() -> StdioImplementation {
    echo_with(&[])
}

fn echo_with(extra: &[&str]) -> StdioImplementation {
    let bin = common::binary();
    let mut args = vec!["serve".into(), "echo".into()];
    args.extend(extra.iter().map(Into::into));
    let config = StdioConfig::new(bin, args);
    let mut imp = StdioImplementation::new(config);
    imp.handshake().expect("the echo implementation starts");
    imp
}

/// `step`: the smallest request and answer (`{"seq":N,"op":"step","steps":1}` / `ok: null`).
#[divan::bench]
fn stdio_step(bencher: divan::Bencher) {
    let mut imp = echo_process();
    bencher.bench_local(|| imp.step(1).expect("answers"));
}

/// `observe`: an empty state answer, typed on the way back.
#[divan::bench]
fn stdio_observe(bencher: divan::Bencher) {
    let mut imp = echo_process();
    bencher.bench_local(|| imp.observe().expect("answers"));
}

/// `evaluate_constraints` with a pose of 16 nodes in the request (about 1.5 KB).
#[divan::bench]
fn stdio_evaluate_16_node_pose(bencher: divan::Bencher) {
    let mut imp = echo_process();
    let nodes: serde_json::Map<String, serde_json::Value> = (0..16)
        .map(|i| {
            (
                i.to_string(),
                serde_json::json!({"translation": [0.1 * f64::from(i), 1.0, -2.5],
                                   "rotation": [0.0, 0.38268343236, 0.0, 0.92387953251]}),
            )
        })
        .collect();
    let poses = serde_json::json!({ "nodes": nodes });
    bencher.bench_local(|| imp.evaluate_constraints(&poses).expect("answers"));
}

/// A scenario as the runner schedules it: observe, then 42 times step 3 and observe (85
/// requests after `configure`).
fn scenario() -> Vec<Request<'static>> {
    let mut requests = vec![Request::Observe(0)];
    for k in 1..=42 {
        requests.push(Request::Step(3));
        requests.push(Request::Observe(3 * k));
    }
    requests
}

/// The scenario in one `batch` request (empty states back).
#[divan::bench]
fn stdio_scenario_batch(bencher: divan::Bencher) {
    let mut imp = echo_process();
    let requests = scenario();
    bencher.bench_local(|| {
        imp.simulate(&SimConfig::default(), &requests)
            .expect("answers")
    });
}

/// The same scenario with one request per call (`serve echo --no-batch`).
#[divan::bench]
fn stdio_scenario_per_request(bencher: divan::Bencher) {
    let mut imp = echo_with(&["--no-batch"]);
    let requests = scenario();
    bencher.bench_local(|| {
        imp.simulate(&SimConfig::default(), &requests)
            .expect("answers")
    });
}

/// The same `step` in process: the anchor.
#[divan::bench]
fn in_process_step(bencher: divan::Bencher) {
    let mut imp = Echo::default();
    bencher.bench_local(|| imp.step(1).expect("answers"));
}

/// Encoding and decoding a 64-node state, without any process: the cost of the JSON itself.
#[divan::bench]
fn codec_state_64_nodes(bencher: divan::Bencher) {
    use physics_cts::protocol::message::{Answer, Op, typed};
    let state = State {
        time: 1.5,
        nodes: (0..64)
            .map(|i| NodeState {
                node: i,
                translation: [0.5, 1.25, -3.0],
                rotation: [0.0, 0.38268343236, 0.0, 0.92387953251],
                linear_velocity: [0.0, -9.81, 0.0],
                angular_velocity: [0.1, 0.2, 0.3],
            })
            .collect(),
        ..State::default()
    };
    bencher.bench_local(|| {
        let line = Answer::of(7, Ok::<_, physics_cts::implementation::ImplError>(&state)).encode();
        let a = Answer::decode(&line).expect("decodes");
        let s: State = typed(Op::Observe, a.result.expect("ok")).expect("typed");
        s
    });
}
