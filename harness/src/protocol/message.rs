//! The envelopes: a request `{"seq": N, "op": "<operation>", ...params}` and its answer
//! `{"seq": N, "ok": <result>}` or `{"seq": N, "error": {"error": "<kind>", "message": "..."}}`.
//! One operation per method of [`Implementation`](crate::implementation::Implementation), with
//! the same message types, so a run over stdio is the image of a run in process.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::implementation::{Action, ImplError, LoadRequest, PROTOCOL_VERSION, SimConfig};

/// The operations, as the `op` field spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Handshake,
    Load,
    Interpretation,
    Configure,
    Step,
    Observe,
    Apply,
    EvaluateConstraints,
    Unload,
    /// Several requests in one (optional: sent only to an implementation whose handshake
    /// declares `batch`).
    Batch,
}

impl Op {
    pub const ALL: [Op; 10] = [
        Op::Handshake,
        Op::Load,
        Op::Interpretation,
        Op::Configure,
        Op::Step,
        Op::Observe,
        Op::Apply,
        Op::EvaluateConstraints,
        Op::Unload,
        Op::Batch,
    ];

    /// The operations a `batch` may hold: those of a scenario's run.
    pub const IN_BATCH: [Op; 4] = [Op::Configure, Op::Step, Op::Observe, Op::Apply];

    pub fn as_str(self) -> &'static str {
        match self {
            Op::Handshake => "handshake",
            Op::Load => "load",
            Op::Interpretation => "interpretation",
            Op::Configure => "configure",
            Op::Step => "step",
            Op::Observe => "observe",
            Op::Apply => "apply",
            Op::EvaluateConstraints => "evaluate_constraints",
            Op::Unload => "unload",
            Op::Batch => "batch",
        }
    }

    pub fn parse(s: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.as_str() == s)
    }
}

impl std::fmt::Display for Op {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One call with its parameters.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// The harness says which protocol version it speaks.
    Handshake {
        protocol_version: u32,
    },
    Load(LoadRequest),
    Interpretation,
    Configure(SimConfig),
    Step {
        steps: u32,
    },
    Observe,
    Apply(Action),
    EvaluateConstraints {
        poses: Value,
    },
    Unload,
    /// Sub-calls run in order, each one of [`Op::IN_BATCH`]; the answer holds the result of
    /// each, or the error of the first that failed (the rest are not run).
    Batch(Vec<Call>),
}

impl Call {
    pub fn handshake() -> Call {
        Call::Handshake {
            protocol_version: PROTOCOL_VERSION,
        }
    }

    pub fn op(&self) -> Op {
        match self {
            Call::Handshake { .. } => Op::Handshake,
            Call::Load(_) => Op::Load,
            Call::Interpretation => Op::Interpretation,
            Call::Configure(_) => Op::Configure,
            Call::Step { .. } => Op::Step,
            Call::Observe => Op::Observe,
            Call::Apply(_) => Op::Apply,
            Call::EvaluateConstraints { .. } => Op::EvaluateConstraints,
            Call::Unload => Op::Unload,
            Call::Batch(_) => Op::Batch,
        }
    }

    /// The parameters as the fields of the request object (besides `seq` and `op`).
    fn params(&self) -> Result<Map<String, Value>, Unencodable> {
        let value = match self {
            Call::Handshake { protocol_version } => {
                serde_json::json!({ "protocol_version": protocol_version })
            }
            Call::Load(r) => serde_json::to_value(r)?,
            Call::Configure(c) => serde_json::to_value(c)?,
            Call::Step { steps } => serde_json::json!({ "steps": steps }),
            Call::Apply(a) => serde_json::to_value(a)?,
            Call::EvaluateConstraints { poses } => serde_json::json!({ "poses": poses }),
            Call::Interpretation | Call::Observe | Call::Unload => Value::Object(Map::new()),
            Call::Batch(_) => {
                return Err(Unencodable(
                    "a batch's parameters are written by `write_call`".into(),
                ));
            }
        };
        match value {
            Value::Object(m) => Ok(m),
            other => Err(Unencodable(format!(
                "parameters must be an object, not {other}"
            ))),
        }
    }
}

/// A numbered call.
#[derive(Clone, Debug, PartialEq)]
pub struct NumberedCall {
    pub seq: u64,
    pub call: Call,
}

/// `"op":"<op>"` and the call's parameters as fields (the inside of a request object); a batch's
/// sub-calls as `"requests":[{"op":...},...]`.
fn write_call(line: &mut Vec<u8>, call: &Call) -> Result<(), Unencodable> {
    line.extend_from_slice(format!("\"op\":\"{}\"", call.op()).as_bytes());
    if let Call::Batch(calls) = call {
        line.extend_from_slice(b",\"requests\":[");
        for (i, c) in calls.iter().enumerate() {
            if !Op::IN_BATCH.contains(&c.op()) {
                return Err(Unencodable(format!("{} cannot be in a batch", c.op())));
            }
            if i > 0 {
                line.push(b',');
            }
            line.push(b'{');
            write_call(line, c)?;
            line.push(b'}');
        }
        line.push(b']');
        return Ok(());
    }
    for (k, v) in call.params()? {
        line.push(b',');
        serde_json::to_writer(&mut *line, &k)?;
        line.push(b':');
        serde_json::to_writer(&mut *line, &v)?;
    }
    Ok(())
}

/// Why a request cannot be written: a call that cannot be in a batch (or a value serde_json
/// cannot write).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unencodable(pub String);

impl From<serde_json::Error> for Unencodable {
    fn from(e: serde_json::Error) -> Unencodable {
        Unencodable(e.to_string())
    }
}

/// Why a line is not a valid message. `seq` is the request's number when it could be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct Malformed {
    pub seq: Option<u64>,
    pub message: String,
}

fn malformed(seq: Option<u64>, message: impl Into<String>) -> Malformed {
    Malformed {
        seq,
        message: message.into(),
    }
}

/// The object a line holds, or why it is not one.
fn object_of(line: &[u8]) -> Result<Map<String, Value>, Malformed> {
    let value: Value =
        serde_json::from_slice(line).map_err(|e| malformed(None, format!("not JSON: {e}")))?;
    match value {
        Value::Object(m) => Ok(m),
        _ => Err(malformed(None, "not a JSON object")),
    }
}

fn seq_of(m: &Map<String, Value>) -> Result<u64, Malformed> {
    match m.get("seq") {
        Some(v) => v.as_u64().ok_or_else(|| {
            malformed(
                None,
                format!("\"seq\" must be a non-negative integer, not {v}"),
            )
        }),
        None => Err(malformed(None, "missing \"seq\"")),
    }
}

impl NumberedCall {
    /// The request as one line of JSON (without the newline).
    pub fn encode(&self) -> Result<Vec<u8>, Unencodable> {
        // Written by hand so `seq` and `op` lead the line (a JSON map would sort its keys).
        let mut line = format!("{{\"seq\":{},", self.seq).into_bytes();
        write_call(&mut line, &self.call)?;
        line.push(b'}');
        Ok(line)
    }

    /// Read a request line. Unknown parameters are ignored (a later minor revision may add some).
    /// A batch is read whole: a sub-request that cannot be read makes the whole line malformed.
    pub fn decode(line: &[u8]) -> Result<NumberedCall, Malformed> {
        let mut m = object_of(line)?;
        let seq = seq_of(&m)?;
        m.remove("seq");
        let op = op_of(&mut m).map_err(|e| malformed(Some(seq), e))?;
        let call = call_of(op, m).map_err(|e| malformed(Some(seq), e))?;
        Ok(NumberedCall { seq, call })
    }
}

/// The `op` field, removed from the request object.
fn op_of(m: &mut Map<String, Value>) -> Result<Op, String> {
    match m.remove("op") {
        Some(Value::String(s)) => Op::parse(&s).ok_or_else(|| format!("unknown op {s:?}")),
        Some(v) => Err(format!("\"op\" must be a string, not {v}")),
        None => Err("missing \"op\"".into()),
    }
}

/// The parameters of a `handshake` request.
#[derive(Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct HandshakeParams {
    /// The protocol version the harness speaks.
    #[schemars(range(min = 1))]
    pub protocol_version: u32,
}

/// The parameters of a `step` request.
#[derive(Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct StepParams {
    /// How many steps of the configured `dt` to advance.
    pub steps: u32,
}

/// The parameters of an `evaluate_constraints` request.
#[derive(Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub(crate) struct PosesParams {
    /// Local TRS overrides: `{"nodes": {"<index>": {"translation", "rotation", "scale"}}}`.
    #[schemars(with = "Map<String, Value>")]
    pub poses: Value,
}

/// The call of `op` with the rest of the request object as its parameters.
fn call_of(op: Op, m: Map<String, Value>) -> Result<Call, String> {
    let params = Value::Object(m);
    let bad = |e: serde_json::Error| format!("{op}: {e}");
    Ok(match op {
        Op::Handshake => Call::Handshake {
            protocol_version: serde_json::from_value::<HandshakeParams>(params)
                .map_err(bad)?
                .protocol_version,
        },
        Op::Load => Call::Load(serde_json::from_value(params).map_err(bad)?),
        Op::Interpretation => Call::Interpretation,
        Op::Configure => Call::Configure(serde_json::from_value(params).map_err(bad)?),
        Op::Step => Call::Step {
            steps: serde_json::from_value::<StepParams>(params)
                .map_err(bad)?
                .steps,
        },
        Op::Observe => Call::Observe,
        Op::Apply => Call::Apply(serde_json::from_value(params).map_err(bad)?),
        Op::EvaluateConstraints => Call::EvaluateConstraints {
            poses: serde_json::from_value::<PosesParams>(params)
                .map_err(bad)?
                .poses,
        },
        Op::Unload => Call::Unload,
        Op::Batch => {
            let Value::Object(mut m) = params else {
                return Err("batch: parameters must be an object".into());
            };
            let requests = match m.remove("requests") {
                Some(Value::Array(a)) => a,
                Some(v) => return Err(format!("batch: \"requests\" must be an array, not {v}")),
                None => return Err("batch: missing field `requests`".into()),
            };
            let calls = requests
                .into_iter()
                .enumerate()
                .map(|(i, r)| {
                    let Value::Object(mut m) = r else {
                        return Err(format!("batch request {i}: not a JSON object"));
                    };
                    let op = op_of(&mut m).map_err(|e| format!("batch request {i}: {e}"))?;
                    if !Op::IN_BATCH.contains(&op) {
                        return Err(format!("batch request {i}: {op} cannot be in a batch"));
                    }
                    call_of(op, m).map_err(|e| format!("batch request {i}: {e}"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Call::Batch(calls)
        }
    })
}

/// The error kinds an implementation may send; the others of [`ImplError`] are the harness's.
pub const WIRE_ERRORS: [&str; 3] = ["not_supported", "failed", "bad_request"];

/// An answer: the result as a JSON value (typed by the op it answers) or the implementation's
/// error.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub seq: u64,
    pub result: Result<Value, ImplError>,
}

impl Answer {
    /// The answer to `seq` with a typed result.
    pub fn of<T: serde::Serialize>(seq: u64, result: Result<T, ImplError>) -> Answer {
        let result = match result {
            Ok(v) => serde_json::to_value(&v)
                .map_err(|e| ImplError::Failed(format!("cannot encode: {e}"))),
            Err(e) => Err(e),
        };
        Answer { seq, result }
    }

    /// The answer as one line of JSON. Only the wire error kinds are sent; a harness-side error
    /// in an answer (which `serve` never produces) is sent as `failed`.
    pub fn encode(&self) -> Vec<u8> {
        encode_answer(Some(self.seq), &self.result)
    }

    /// Read an answer line: an object with an integer `seq` and exactly one of `ok` / `error`,
    /// the error one of the [`WIRE_ERRORS`] kinds with a string message.
    pub fn decode(line: &[u8]) -> Result<Answer, Malformed> {
        let mut m = object_of(line)?;
        let seq = seq_of(&m)?;
        let result = match (m.remove("ok"), m.remove("error")) {
            (Some(ok), None) => Ok(ok),
            (None, Some(error)) => Err(wire_error(error).map_err(|e| malformed(Some(seq), e))?),
            (Some(_), Some(_)) => {
                return Err(malformed(Some(seq), "both \"ok\" and \"error\""));
            }
            (None, None) => return Err(malformed(Some(seq), "neither \"ok\" nor \"error\"")),
        };
        Ok(Answer { seq, result })
    }
}

/// An answer line (also for a request whose `seq` could not be read: `"seq": null`).
pub fn encode_answer(seq: Option<u64>, result: &Result<Value, ImplError>) -> Vec<u8> {
    // Written by hand so `seq` leads the line.
    let mut line = match seq {
        Some(n) => format!("{{\"seq\":{n},"),
        None => "{\"seq\":null,".to_owned(),
    }
    .into_bytes();
    let body = match result {
        Ok(v) => {
            line.extend_from_slice(b"\"ok\":");
            serde_json::to_writer(&mut line, v)
        }
        Err(e) => {
            let (kind, message) = match e {
                ImplError::NotSupported(s) => ("not_supported", s.clone()),
                ImplError::BadRequest(s) => ("bad_request", s.clone()),
                ImplError::Failed(s) => ("failed", s.clone()),
                other => ("failed", other.to_string()),
            };
            line.extend_from_slice(b"\"error\":");
            serde_json::to_writer(
                &mut line,
                &serde_json::json!({ "error": kind, "message": message }),
            )
        }
    };
    line.push(b'}');
    // Writing a `Value` into a `Vec` cannot fail; if it ever did, the line is not JSON and the
    // peer reports a protocol violation.
    debug_assert!(body.is_ok());
    line
}

fn wire_error(v: Value) -> Result<ImplError, String> {
    let Value::Object(m) = &v else {
        return Err(format!("\"error\" must be an object, not {v}"));
    };
    let kind = m.get("error").and_then(Value::as_str).unwrap_or("");
    if !WIRE_ERRORS.contains(&kind) {
        return Err(format!(
            "\"error.error\" must be one of {}, not {}",
            WIRE_ERRORS.join(", "),
            m.get("error").map_or("nothing".into(), Value::to_string)
        ));
    }
    serde_json::from_value(v).map_err(|e| format!("\"error\": {e}"))
}

/// The typed result of an `ok` value, or why it does not fit the op's answer type: the path of
/// the field that does not (`colliders[0].shape: unknown variant ..., expected one of ...`).
pub fn typed<T: DeserializeOwned>(op: Op, ok: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(ok)
        .map_err(|e| format!("the answer to {op} does not fit: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{Profile, State};
    use std::path::PathBuf;

    fn round_trip(call: Call) {
        let r = NumberedCall { seq: 7, call };
        let line = r.encode().expect("encodes");
        assert!(!line.contains(&b'\n'));
        assert_eq!(NumberedCall::decode(&line).expect("decodes"), r);
    }

    /// A string outside its enum is named by its path, with the values the protocol allows.
    #[test]
    fn an_unknown_enum_value_names_its_field_and_the_allowed_values() {
        let ok = serde_json::json!({"time": 0.0, "nodes": [], "contacts": [],
            "trigger_events": [{"kind": "stay", "trigger": 1, "other": 2}]});
        let err = typed::<State>(Op::Observe, ok).expect_err("stay is no trigger event kind");
        assert!(err.contains("trigger_events[0].kind"), "{err}");
        assert!(err.contains("`enter`") && err.contains("`exit`"), "{err}");
    }

    #[test]
    fn every_op_round_trips() {
        round_trip(Call::handshake());
        round_trip(Call::Load(LoadRequest {
            path: PathBuf::from("/a/b.gltf"),
            profile: Profile::Khr2024Draft,
        }));
        round_trip(Call::Interpretation);
        round_trip(Call::Configure(SimConfig::default()));
        round_trip(Call::Step { steps: 60 });
        round_trip(Call::Observe);
        round_trip(Call::Apply(Action::Force {
            node: 4,
            force: [0.0, 10.0, -1.0],
        }));
        round_trip(Call::EvaluateConstraints {
            poses: serde_json::json!({"nodes": {"1": {"rotation": [0, 0, 0, 1]}}}),
        });
        round_trip(Call::Unload);
        round_trip(Call::Batch(vec![
            Call::Configure(SimConfig::default()),
            Call::Observe,
            Call::Apply(Action::Impulse {
                node: 1,
                impulse: [0.0, f64::INFINITY, 0.0],
            }),
            Call::Step { steps: 3 },
            Call::Observe,
        ]));
        round_trip(Call::Batch(Vec::new()));
    }

    #[test]
    fn request_layout_is_flat() {
        let line = |seq, call| NumberedCall { seq, call }.encode();
        assert_eq!(
            line(3, Call::Step { steps: 10 }).expect("encodes"),
            br#"{"seq":3,"op":"step","steps":10}"#
        );
        let impulse = Action::Impulse {
            node: 1,
            impulse: [f64::NAN, 0.0, 1.0],
        };
        assert_eq!(
            line(4, Call::Apply(impulse)).expect("encodes"),
            br#"{"seq":4,"op":"apply","action":"impulse","impulse":["NaN",0.0,1.0],"node":1}"#
        );
        let batch = Call::Batch(vec![Call::Step { steps: 2 }, Call::Observe]);
        assert_eq!(
            line(5, batch).expect("encodes"),
            br#"{"seq":5,"op":"batch","requests":[{"op":"step","steps":2},{"op":"observe"}]}"#
        );
        // Only scenario requests go in a batch, and no batch in a batch.
        for inner in [Call::Unload, Call::Batch(Vec::new())] {
            let e = line(6, Call::Batch(vec![inner])).expect_err("not in a batch");
            assert!(e.0.contains("cannot be in a batch"), "{e}");
        }
    }

    #[test]
    fn malformed_requests_say_why() {
        let cases: [(&[u8], Option<u64>, &str); 7] = [
            (b"hello", None, "not JSON"),
            (b"[1]", None, "not a JSON object"),
            (br#"{"op":"step"}"#, None, "missing \"seq\""),
            (br#"{"seq":-1,"op":"step"}"#, None, "non-negative integer"),
            (br#"{"seq":2}"#, Some(2), "missing \"op\""),
            (br#"{"seq":2,"op":"jump"}"#, Some(2), "unknown op"),
            (
                br#"{"seq":2,"op":"step"}"#,
                Some(2),
                "missing field `steps`",
            ),
        ];
        for (line, seq, text) in cases {
            let e = NumberedCall::decode(line).expect_err("malformed");
            assert_eq!(e.seq, seq, "{e}");
            assert!(e.message.contains(text), "{e}");
        }
    }

    #[test]
    fn answers_round_trip_and_are_checked() {
        let state = State {
            time: f64::INFINITY,
            ..State::default()
        };
        let ok = Answer::of(5, Ok::<_, ImplError>(&state));
        let line = ok.encode();
        assert_eq!(
            line,
            br#"{"seq":5,"ok":{"contacts":[],"nodes":[],"time":"Infinity","trigger_events":[]}}"#
        );
        let back = Answer::decode(&line).expect("decodes");
        assert_eq!(back.seq, 5);
        let v: State = typed(Op::Observe, back.result.expect("ok")).expect("typed");
        assert_eq!(v, state);

        let err = Answer::of::<()>(6, Err(ImplError::NotSupported("cones".into())));
        let line = err.encode();
        assert_eq!(
            line,
            br#"{"seq":6,"error":{"error":"not_supported","message":"cones"}}"#
        );
        assert_eq!(Answer::decode(&line).expect("decodes"), err);

        for (line, text) in [
            (&br#"{"seq":1}"#[..], "neither"),
            (br#"{"seq":1,"ok":null,"error":{}}"#, "both"),
            (br#"{"seq":1,"error":"boom"}"#, "must be an object"),
            (
                br#"{"seq":1,"error":{"error":"timeout","message":"x"}}"#,
                "must be one of",
            ),
            (br#"{"seq":1,"error":{"error":"failed"}}"#, "message"),
            (br#"{"ok":null}"#, "missing \"seq\""),
        ] {
            let e = Answer::decode(line).expect_err("malformed");
            assert!(e.message.contains(text), "{e}");
        }
    }
}
