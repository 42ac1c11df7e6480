//! The implementation side of the protocol: read requests, call an [`Implementation`], write
//! answers. `physics-cts serve` runs it over stdin/stdout for a bundled implementation.

use std::io::{self, BufRead, Write};

use serde_json::Value;

use super::framing::{Frame, LineReader, write_line};
use super::message::{Answer, Call, NumberedCall, encode_answer};
use crate::implementation::{
    Action, Capabilities, Handshake, ImplError, Implementation, Interpretation, LoadOutcome,
    LoadRequest, NodeTrs, PROTOCOL_VERSION, SimConfig, State,
};

/// How `serve` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// Longest request line accepted, in bytes.
    pub max_line: usize,
    /// Declare and answer `batch` (else a `batch` request is refused with `bad_request` and the
    /// harness makes one request per call: for measuring what batching saves).
    pub batch: bool,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            max_line: super::MAX_LINE_BYTES,
            batch: true,
        }
    }
}

/// Answer requests from `input` on `output` until `input` ends. A malformed request gets a
/// `bad_request` answer (with `"seq": null` when its number could not be read) and the loop
/// goes on; only an I/O error on the streams ends it early. A panic in the implementation is
/// not caught: the process dies, as a crash should look to the harness.
pub fn serve(
    imp: &mut dyn Implementation,
    input: impl BufRead,
    mut output: impl Write,
    options: ServeOptions,
) -> io::Result<()> {
    let limit = options.max_line;
    let mut reader = LineReader::new(input, limit);
    loop {
        let line = match reader.next_frame()? {
            Frame::Eof => return Ok(()),
            Frame::TooLong { len } => {
                let e = ImplError::BadRequest(format!(
                    "request line of {len} bytes is over the limit of {limit}"
                ));
                write_line(&mut output, &encode_answer(None, &Err(e)))?;
                continue;
            }
            Frame::Line(l) => l,
        };
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let answer = match NumberedCall::decode(&line) {
            Ok(request) => answer_line(imp, request, options.batch),
            Err(m) => encode_answer(m.seq, &Err(ImplError::BadRequest(m.message))),
        };
        write_line(&mut output, &answer)?;
    }
}

/// Call the implementation for one request; `batch`: whether `batch` is offered.
pub fn dispatch(imp: &mut dyn Implementation, request: NumberedCall, batch: bool) -> Answer {
    let seq = request.seq;
    match request.call {
        Call::Handshake { protocol_version } => {
            if protocol_version != PROTOCOL_VERSION {
                return Answer::of::<()>(
                    seq,
                    Err(ImplError::BadRequest(format!(
                        "this implementation speaks protocol {PROTOCOL_VERSION}, not {protocol_version}"
                    ))),
                );
            }
            // `serve` answers `batch` for every implementation: it says so.
            let handshake = imp.handshake().map(|mut h| {
                h.capabilities.batch |= batch;
                h
            });
            Answer::of(seq, handshake)
        }
        Call::Load(r) => Answer::of(seq, imp.load(&r)),
        Call::Interpretation => Answer::of(seq, imp.interpretation()),
        Call::Configure(c) => Answer::of(seq, imp.configure(&c)),
        Call::Step { steps } => Answer::of(seq, imp.step(steps)),
        Call::Observe => Answer::of(seq, imp.observe()),
        Call::Apply(a) => Answer::of(seq, imp.apply(&a)),
        Call::EvaluateConstraints { poses } => Answer::of(seq, imp.evaluate_constraints(&poses)),
        Call::Unload => Answer::of(seq, imp.unload()),
        Call::Batch(_) if !batch => Answer::of::<()>(
            seq,
            Err(ImplError::BadRequest("batch is not offered".into())),
        ),
        Call::Batch(calls) => {
            let mut out = Vec::new();
            let result = run_batch(imp, calls, &mut out).and_then(|()| {
                serde_json::from_slice(&out)
                    .map_err(|e| ImplError::Failed(format!("cannot encode: {e}")))
            });
            Answer { seq, result }
        }
    }
}

/// The answer line to one request: [`dispatch`]'s answer, except for a batch, whose results
/// are written straight into the line ([`run_batch`]).
pub fn answer_line(imp: &mut dyn Implementation, request: NumberedCall, batch: bool) -> Vec<u8> {
    match request.call {
        Call::Batch(calls) if batch => {
            let mut line = format!("{{\"seq\":{},\"ok\":", request.seq).into_bytes();
            match run_batch(imp, calls, &mut line) {
                Ok(()) => {
                    line.push(b'}');
                    line
                }
                Err(e) => encode_answer(Some(request.seq), &Err(e)),
            }
        }
        _ => dispatch(imp, request, batch).encode(),
    }
}

/// A batch: each sub-call in order, its result appended to `out` as a JSON list; or the error of
/// the first that failed (the ones after it are not run). The decoder let only the operations
/// of [`super::Op::IN_BATCH`] in; a batch built otherwise is refused at the first other one.
/// A state is written straight from its type (the intermediate [`Value`] of [`Answer::of`], its
/// maps and allocations, was most of `serve`'s encoding cost), except one with a non-finite
/// number, which keeps the sorted keys it had when only a [`Value`] could carry those.
fn run_batch(
    imp: &mut dyn Implementation,
    calls: Vec<Call>,
    out: &mut Vec<u8>,
) -> Result<(), ImplError> {
    let cannot = |e: serde_json::Error| ImplError::Failed(format!("cannot encode: {e}"));
    out.push(b'[');
    for (i, call) in calls.into_iter().enumerate() {
        if !super::message::Op::IN_BATCH.contains(&call.op()) {
            return Err(ImplError::BadRequest(format!(
                "{} cannot be in a batch",
                call.op()
            )));
        }
        if i > 0 {
            out.push(b',');
        }
        let written = match call {
            Call::Observe => {
                let state = imp.observe()?;
                if is_finite(&state) {
                    serde_json::to_writer(&mut *out, &state)
                } else {
                    let v = serde_json::to_value(&state).map_err(cannot)?;
                    serde_json::to_writer(&mut *out, &v)
                }
            }
            call => {
                let v = dispatch(imp, NumberedCall { seq: 0, call }, true).result?;
                serde_json::to_writer(&mut *out, &v)
            }
        };
        written.map_err(cannot)?;
    }
    out.push(b']');
    Ok(())
}

/// Whether every number of a state is finite (plain JSON can hold it).
fn is_finite(state: &State) -> bool {
    state.time.is_finite()
        && state.nodes.iter().all(|n| {
            n.translation
                .iter()
                .chain(&n.rotation)
                .chain(&n.linear_velocity)
                .chain(&n.angular_velocity)
                .all(|x| x.is_finite())
        })
}

/// An implementation that answers every call with defaults: the peer of the protocol round-trip
/// benchmark and of tests that exercise the transport, not physics.
#[derive(Debug, Default)]
pub struct Echo {
    loaded: bool,
}

impl Implementation for Echo {
    fn handshake(&mut self) -> Result<Handshake, ImplError> {
        Ok(Handshake {
            name: "echo".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            engine: "none".into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: Capabilities::default(),
        })
    }
    fn load(&mut self, _request: &LoadRequest) -> Result<LoadOutcome, ImplError> {
        self.loaded = true;
        Ok(LoadOutcome::Loaded { notes: Vec::new() })
    }
    fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
        Ok(Default::default())
    }
    fn configure(&mut self, _config: &SimConfig) -> Result<(), ImplError> {
        Ok(())
    }
    fn step(&mut self, _steps: u32) -> Result<(), ImplError> {
        Ok(())
    }
    fn observe(&mut self) -> Result<State, ImplError> {
        Ok(Default::default())
    }
    fn apply(&mut self, _action: &Action) -> Result<(), ImplError> {
        Ok(())
    }
    fn evaluate_constraints(&mut self, _poses: &Value) -> Result<Vec<NodeTrs>, ImplError> {
        Ok(Vec::new())
    }
    fn unload(&mut self) -> Result<(), ImplError> {
        self.loaded = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::NodeState;

    fn served(input: &str, limit: usize) -> Vec<Value> {
        let mut out = Vec::new();
        let options = ServeOptions {
            max_line: limit,
            batch: true,
        };
        serve(&mut Echo::default(), input.as_bytes(), &mut out, options).expect("in memory");
        String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("every answer is JSON"))
            .collect()
    }

    #[test]
    fn answers_every_line_in_order() {
        let input = concat!(
            r#"{"seq":0,"op":"handshake","protocol_version":2}"#,
            "\n\n",
            r#"{"seq":1,"op":"step","steps":3}"#,
            "\nnot json\n",
            r#"{"seq":2,"op":"fly"}"#,
            "\n",
            r#"{"seq":3,"op":"handshake","protocol_version":99}"#,
            "\n",
            r#"{"seq":4,"op":"observe"}"#,
            "\n"
        );
        let a = served(input, 1 << 20);
        assert_eq!(a.len(), 6);
        assert_eq!(a[0]["seq"], 0);
        assert_eq!(a[0]["ok"]["name"], "echo");
        assert_eq!(a[1], serde_json::json!({"seq": 1, "ok": null}));
        assert_eq!(a[2]["seq"], Value::Null);
        assert_eq!(a[2]["error"]["error"], "bad_request");
        assert_eq!(a[3]["seq"], 2);
        assert_eq!(a[4]["error"]["error"], "bad_request");
        assert_eq!(a[5]["ok"]["time"], 0.0);
    }

    /// Echo, except that a `step` of 13 fails and every step is counted.
    #[derive(Default)]
    struct Unlucky {
        echo: Echo,
        steps: Vec<u32>,
    }

    impl Implementation for Unlucky {
        fn handshake(&mut self) -> Result<Handshake, ImplError> {
            self.echo.handshake()
        }
        fn load(&mut self, r: &LoadRequest) -> Result<LoadOutcome, ImplError> {
            self.echo.load(r)
        }
        fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
            self.echo.interpretation()
        }
        fn configure(&mut self, c: &SimConfig) -> Result<(), ImplError> {
            self.echo.configure(c)
        }
        fn step(&mut self, steps: u32) -> Result<(), ImplError> {
            self.steps.push(steps);
            if steps == 13 {
                return Err(ImplError::Failed("unlucky".into()));
            }
            Ok(())
        }
        /// After a step of 7, a state with a node (and two non-finite numbers unless 8 came too).
        fn observe(&mut self) -> Result<State, ImplError> {
            if !self.steps.contains(&7) {
                return self.echo.observe();
            }
            let (far, spin) = if self.steps.contains(&8) {
                (1e300, 0.5)
            } else {
                (f64::INFINITY, f64::NAN)
            };
            Ok(State {
                time: 0.125,
                nodes: vec![NodeState {
                    node: 3,
                    translation: [far, -2.5, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    linear_velocity: [0.0; 3],
                    angular_velocity: [0.0, spin, 0.0],
                }],
                contacts: vec![[1, 3]],
                trigger_events: Vec::new(),
            })
        }
        fn apply(&mut self, a: &Action) -> Result<(), ImplError> {
            self.echo.apply(a)
        }
        fn evaluate_constraints(&mut self, p: &Value) -> Result<Vec<NodeTrs>, ImplError> {
            self.echo.evaluate_constraints(p)
        }
        fn unload(&mut self) -> Result<(), ImplError> {
            self.echo.unload()
        }
    }

    #[test]
    fn a_batch_answers_each_request_or_its_first_error() {
        let mut imp = Unlucky::default();
        let input = concat!(
            r#"{"seq":0,"op":"handshake","protocol_version":2}"#,
            "\n",
            r#"{"seq":1,"op":"batch","requests":[{"op":"configure","gravity":[0,-9.81,0],"dt":0.01,"substeps":1},{"op":"step","steps":2},{"op":"observe"},{"op":"apply","action":"force","node":0,"force":[1,2,3]}]}"#,
            "\n",
            // The third request fails: the fourth is not run, the answer is the error.
            r#"{"seq":2,"op":"batch","requests":[{"op":"step","steps":1},{"op":"observe"},{"op":"step","steps":13},{"op":"step","steps":4}]}"#,
            "\n",
            // Not a batch operation: refused whole, nothing run.
            r#"{"seq":3,"op":"batch","requests":[{"op":"step","steps":5},{"op":"load","path":"/a.gltf","profile":"p"}]}"#,
            "\n",
            r#"{"seq":4,"op":"batch","requests":[{"op":"step","steps":6},{"op":"batch","requests":[]}]}"#,
            "\n",
            r#"{"seq":5,"op":"batch","requests":[{"op":"step"}]}"#,
            "\n",
            r#"{"seq":6,"op":"batch","requests":{}}"#,
            "\n",
            r#"{"seq":7,"op":"batch","requests":[]}"#,
            "\n",
        );
        let mut out = Vec::new();
        serve(
            &mut imp,
            input.as_bytes(),
            &mut out,
            ServeOptions::default(),
        )
        .expect("in memory");
        let a: Vec<Value> = String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(a.len(), 8);
        assert_eq!(a[0]["ok"]["capabilities"]["batch"], true);
        let empty_state =
            serde_json::json!({"time": 0.0, "nodes": [], "contacts": [], "trigger_events": []});
        assert_eq!(
            a[1],
            serde_json::json!({"seq": 1, "ok": [null, null, empty_state, null]})
        );
        assert_eq!(
            a[2],
            serde_json::json!({"seq": 2, "error": {"error": "failed", "message": "unlucky"}})
        );
        for (k, text) in [
            (3, "batch request 1: load cannot be in a batch"),
            (4, "batch request 1: batch cannot be in a batch"),
            (5, "batch request 0: step: missing field `steps`"),
            (6, "\"requests\" must be an array"),
        ] {
            assert_eq!(a[k]["seq"], k, "{}", a[k]);
            assert_eq!(a[k]["error"]["error"], "bad_request", "{}", a[k]);
            let message = a[k]["error"]["message"].as_str().expect("message");
            assert!(message.contains(text), "{message}");
        }
        assert_eq!(a[7], serde_json::json!({"seq": 7, "ok": []}));
        // Steps run: 2 (seq 1), then 1 and 13 (seq 2); nothing of the refused batches.
        assert_eq!(imp.steps, [2, 1, 13]);
    }

    /// A batch's line (states written straight, or through the reserved strings) reads as the
    /// same value as [`dispatch`]'s answer, with non-finite numbers as the reserved strings.
    #[test]
    fn batch_lines_are_the_dispatched_answers() {
        for steps in [[7, 7], [7, 8]] {
            let request = || NumberedCall {
                seq: 4,
                call: Call::Batch(vec![
                    Call::Step { steps: steps[0] },
                    Call::Step { steps: steps[1] },
                    Call::Observe,
                ]),
            };
            let mut imp = Unlucky::default();
            let line = answer_line(&mut imp, request(), true);
            let mut imp = Unlucky::default();
            let want = dispatch(&mut imp, request(), true).encode();
            let got: Value = serde_json::from_slice(&line).expect("JSON");
            assert_eq!(got, serde_json::from_slice::<Value>(&want).expect("JSON"));
            // Both go through `run_batch`: compare with the calls made one by one and the state
            // through the general codec too.
            let mut imp = Unlucky::default();
            imp.step(steps[0]).expect("step");
            imp.step(steps[1]).expect("step");
            let state = imp.observe().expect("observe");
            let state = serde_json::to_value(&state).expect("encodes");
            assert_eq!(
                got,
                serde_json::json!({"seq": 4, "ok": [null, null, state]}),
                "the calls one by one"
            );
            let node = &got["ok"][2]["nodes"][0];
            // [7, 8]: every number finite, written straight; [7, 7]: the reserved strings.
            let (far, spin) = if steps[1] == 8 {
                (serde_json::json!(1e300), serde_json::json!(0.5))
            } else {
                (serde_json::json!("Infinity"), serde_json::json!("NaN"))
            };
            assert_eq!(node["translation"][0], far, "{got}");
            assert_eq!(node["angular_velocity"][1], spin, "{got}");
            assert_eq!(got["ok"][2]["contacts"], serde_json::json!([[1, 3]]));
        }
    }

    #[test]
    fn without_batch_it_is_neither_declared_nor_answered() {
        let input = concat!(
            r#"{"seq":0,"op":"handshake","protocol_version":2}"#,
            "\n",
            r#"{"seq":1,"op":"batch","requests":[{"op":"step","steps":1}]}"#,
            "\n",
        );
        let mut imp = Unlucky::default();
        let mut out = Vec::new();
        let options = ServeOptions {
            batch: false,
            ..ServeOptions::default()
        };
        serve(&mut imp, input.as_bytes(), &mut out, options).expect("in memory");
        let a: Vec<Value> = String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
        assert_eq!(a[0]["ok"]["capabilities"].get("batch"), None, "{}", a[0]);
        assert_eq!(a[1]["error"]["error"], "bad_request");
        assert!(imp.steps.is_empty());
    }

    #[test]
    fn an_over_long_request_is_refused_and_the_next_is_answered() {
        let input = format!("{}\n{}\n", "x".repeat(100), r#"{"seq":9,"op":"unload"}"#);
        let a = served(&input, 50);
        assert_eq!(a.len(), 2);
        assert!(
            a[0]["error"]["message"]
                .as_str()
                .expect("message")
                .contains("100 bytes")
        );
        assert_eq!(a[1], serde_json::json!({"seq": 9, "ok": null}));
    }
}
