//! The JSON Schema of every protocol message, derived from the message types with `schemars`
//! (their doc comments are the descriptions) and committed as
//! `harness/protocol/<op>.{request,answer}.schema.json` for implementers. A test fails when a
//! committed file differs from the derived schema (`PHYSICS_CTS_BLESS=1` rewrites them) and
//! validates real messages against them.
//!
//! Only the envelopes are assembled here: a request is an object of `seq` (absent in a batch),
//! the `op` constant and the op's parameter fields; an answer is `{"seq", "ok": <result>}` or
//! `{"seq", "error": {"error", "message"}}`.

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value, json};

use super::message::{HandshakeParams, Op, PosesParams, StepParams};
use crate::implementation::{
    Action, Handshake, ImplError, Interpretation, LoadOutcome, LoadRequest, NodeTrs, SimConfig,
    State,
};

/// The schema of `T` itself (not a reference to it), its definitions left in `generator`.
fn inline<T: JsonSchema>(generator: &mut SchemaGenerator) -> Value {
    T::json_schema(generator).to_value()
}

/// Add required `fields` to an object schema, or to every branch of a `oneOf` of them.
fn with_fields(schema: &mut Value, fields: &[(&str, Value)]) {
    if let Some(Value::Array(branches)) = schema.get_mut("oneOf") {
        for b in branches {
            with_fields(b, fields);
        }
        return;
    }
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    object.insert("type".into(), json!("object"));
    let properties = object
        .entry("properties")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .map(std::mem::take)
        .unwrap_or_default();
    let mut first: Map<String, Value> = fields
        .iter()
        .map(|(k, v)| ((*k).to_owned(), v.clone()))
        .collect();
    first.extend(properties);
    object.insert("properties".into(), Value::Object(first));
    let mut required: Vec<Value> = fields.iter().map(|(k, _)| json!(k)).collect();
    if let Some(Value::Array(r)) = object.remove("required") {
        required.extend(r);
    }
    object.insert("required".into(), Value::Array(required));
    object.insert("additionalProperties".into(), json!(false));
}

/// The schema of an op's request: `seq` (when `seq` is given: not in a batch), `op`, params.
fn request(op: Op, seq: Option<&Value>, generator: &mut SchemaGenerator) -> Value {
    let mut schema = match op {
        Op::Handshake => inline::<HandshakeParams>(generator),
        Op::Load => inline::<LoadRequest>(generator),
        Op::Configure => inline::<SimConfig>(generator),
        Op::Step => inline::<StepParams>(generator),
        Op::Apply => inline::<Action>(generator),
        Op::EvaluateConstraints => inline::<PosesParams>(generator),
        Op::Interpretation | Op::Observe | Op::Unload => json!({}),
        Op::Batch => {
            let subs: Vec<Value> = Op::IN_BATCH
                .iter()
                .map(|op| request(*op, None, generator))
                .collect();
            json!({"properties": {"requests": {
                "description": "Requests without seq, run in order: configure, step, observe, apply.",
                "type": "array",
                "items": {"oneOf": subs}
            }}, "required": ["requests"]})
        }
    };
    let mut fields = Vec::new();
    if let Some(seq) = seq {
        fields.push(("seq", seq.clone()));
    }
    fields.push(("op", json!({ "const": op.as_str() })));
    with_fields(&mut schema, &fields);
    schema
}

/// The schema of an op's `ok` value.
fn ok(op: Op, generator: &mut SchemaGenerator) -> Value {
    match op {
        Op::Handshake => generator.subschema_for::<Handshake>(),
        Op::Load => generator.subschema_for::<LoadOutcome>(),
        Op::Interpretation => generator.subschema_for::<Interpretation>(),
        Op::Observe => generator.subschema_for::<State>(),
        Op::EvaluateConstraints => generator.subschema_for::<Vec<NodeTrs>>(),
        Op::Configure | Op::Step | Op::Apply | Op::Unload => generator.subschema_for::<()>(),
        Op::Batch => {
            let mut s = generator.subschema_for::<Vec<Option<State>>>();
            s.insert(
                "description".into(),
                json!("The result of each request of the batch, in order: null, or the state of an observe."),
            );
            s
        }
    }
    .to_value()
}

/// The answer envelope around an op's `ok` schema.
fn answer(op: Op, seq: &Value, generator: &mut SchemaGenerator) -> Value {
    let mut ok_answer = json!({});
    with_fields(
        &mut ok_answer,
        &[("seq", seq.clone()), ("ok", ok(op, generator))],
    );
    let mut error_answer = json!({});
    let error = generator.subschema_for::<ImplError>().to_value();
    with_fields(&mut error_answer, &[("seq", seq.clone()), ("error", error)]);
    json!({"oneOf": [ok_answer, error_answer]})
}

/// One schema file: the header, the body, and the definitions it uses.
fn file(
    name: &str,
    description: String,
    build: impl FnOnce(&mut SchemaGenerator) -> Value,
) -> Value {
    let mut generator = SchemaSettings::draft2020_12().into_generator();
    let body = build(&mut generator);
    let mut s = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": format!("https://physics-cts.invalid/protocol/{name}.schema.json"),
        "title": name.replace('.', " "),
        "description": description,
    });
    if let (Some(s), Value::Object(body)) = (s.as_object_mut(), body) {
        s.extend(body);
        let defs = generator.take_definitions(true);
        if !defs.is_empty() {
            s.insert("$defs".into(), Value::Object(defs));
        }
    }
    s
}

/// Every schema by file stem: `<op>.request` and `<op>.answer` for each op.
pub fn schemas() -> Vec<(String, Value)> {
    let seq = || -> Value { json!({"type": "integer", "minimum": 0}) };
    let mut out = Vec::new();
    for op in Op::ALL {
        let name = format!("{op}.request");
        let s = file(
            &name,
            format!("The harness asks the implementation to {op}."),
            |g| request(op, Some(&seq()), g),
        );
        out.push((name, s));
        let name = format!("{op}.answer");
        let description = format!("The implementation's answer to a {op} request: ok or an error.");
        let s = file(&name, description, |g| answer(op, &seq(), g));
        out.push((name, s));
    }
    out
}

/// The schema file text (pretty, with a final newline) of one schema.
pub fn file_text(schema: &Value) -> String {
    let mut s = serde_json::to_string_pretty(schema).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::implementation::*;
    use crate::protocol::message::{Answer, Call, NumberedCall};

    fn folder() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol")
    }

    /// The committed files are exactly the generated schemas (`PHYSICS_CTS_BLESS=1` rewrites them).
    #[test]
    fn committed_schemas_are_the_generated_ones() {
        let bless = std::env::var_os("PHYSICS_CTS_BLESS").is_some();
        let mut names = Vec::new();
        for (name, s) in schemas() {
            let path = folder().join(format!("{name}.schema.json"));
            let text = file_text(&s);
            if bless {
                std::fs::create_dir_all(folder()).expect("mkdir");
                std::fs::write(&path, &text).expect("write");
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == text,
                "{} is stale: run with PHYSICS_CTS_BLESS=1",
                path.display()
            );
            names.push(format!("{name}.schema.json"));
        }
        let mut files: Vec<String> = std::fs::read_dir(folder())
            .expect("protocol folder")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".schema.json"))
            .collect();
        files.sort();
        names.sort();
        assert_eq!(
            files, names,
            "a schema file without a message, or the reverse"
        );
    }

    /// Whether `value` is valid against `schema`, with every violation when it is not.
    fn validate(schema: &Value, value: &Value) -> Result<(), Vec<String>> {
        let validator = jsonschema::validator_for(schema).expect("a valid schema");
        let errors: Vec<String> = validator
            .iter_errors(value)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    fn schema_of(name: &str) -> Value {
        schemas()
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s)
            .unwrap_or_else(|| panic!("no schema {name}"))
    }

    fn line_value(line: &[u8]) -> Value {
        serde_json::from_slice(line).expect("a line is JSON")
    }

    fn requests() -> Vec<Call> {
        vec![
            Call::handshake(),
            Call::Load(LoadRequest {
                path: "/corpus/v1/khr/a.gltf".into(),
                profile: Profile::Khr2024Draft,
            }),
            Call::Interpretation,
            // Settings are finite: a scenario with others is refused before it is sent.
            Call::Configure(SimConfig {
                gravity: [0.0, -1.62, 0.0],
                ..SimConfig::default()
            }),
            Call::Step { steps: 60 },
            Call::Observe,
            Call::Apply(Action::Impulse {
                node: 1,
                impulse: [1.0, f64::NAN, 0.0],
            }),
            Call::Apply(Action::Force {
                node: 2,
                force: [0.0, 9.81, 0.0],
            }),
            Call::Apply(Action::KinematicPose {
                node: 3,
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }),
            Call::EvaluateConstraints {
                poses: json!({"nodes": {"0": {"scale": [1, 2, 3]}}}),
            },
            Call::Unload,
            Call::Batch(vec![
                Call::Configure(SimConfig::default()),
                Call::Observe,
                Call::Apply(Action::KinematicPose {
                    node: 3,
                    translation: [0.0, f64::INFINITY, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                }),
                Call::Step { steps: 4 },
                Call::Apply(Action::Impulse {
                    node: 1,
                    impulse: [1.0, 0.0, 0.0],
                }),
                Call::Observe,
            ]),
            Call::Batch(Vec::new()),
        ]
    }

    fn answers() -> Vec<(Op, Answer)> {
        let interpretation = Interpretation {
            bodies: vec![
                BodyReport {
                    node: 0,
                    kind: BodyKind::Dynamic,
                    mass: MassReport::Unspecified,
                    center_of_mass: None,
                    inertia_diagonal: [MassReport::Unspecified; 3],
                    inertia_orientation: [0.0, 0.0, 0.0, 1.0],
                    linear_velocity: [1.0, 0.0, 0.0],
                    angular_velocity: [0.0; 3],
                    gravity_factor: 1.0,
                },
                BodyReport {
                    node: 0,
                    kind: BodyKind::Dynamic,
                    mass: MassReport::Finite(2.0),
                    center_of_mass: Some([0.0, 0.5, 0.0]),
                    inertia_diagonal: [
                        MassReport::Infinite,
                        MassReport::Finite(1.0),
                        MassReport::Finite(f64::INFINITY),
                    ],
                    inertia_orientation: [0.0, 0.0, 0.0, 1.0],
                    linear_velocity: [1.0, 0.0, 0.0],
                    angular_velocity: [0.0; 3],
                    gravity_factor: 1.0,
                },
            ],
            colliders: vec![ColliderReport {
                node: 1,
                body: None,
                is_trigger: false,
                shape: ReportedShape::Sphere,
                parameters: json!({"radius": 0.5})
                    .as_object()
                    .cloned()
                    .unwrap_or_default(),
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }],
            pairs: vec![PairReport {
                a: 1,
                b: 2,
                collide: true,
                static_friction: Some(0.5),
                dynamic_friction: None,
                restitution: Some(0.0),
            }],
            joints: vec![JointReport {
                node: 4,
                bodies: [Some(0), None],
                frames: [Pose {
                    translation: [0.0; 3],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                }; 2],
                limits: vec![LimitReport {
                    kind: DofKind::Angular,
                    axes: vec![0, 1],
                    min: None,
                    max: Some(f64::INFINITY),
                    stiffness: Some(10.0),
                    damping: 1.0,
                }],
                drives: vec![DriveReport {
                    kind: DofKind::Linear,
                    axis: 2,
                    mode: DriveMode::Acceleration,
                    max_force: None,
                    position_target: Some(0.5),
                    velocity_target: None,
                    stiffness: 20.0,
                    damping: 2.0,
                }],
            }],
        };
        let state = State {
            time: 0.5,
            nodes: vec![NodeState {
                node: 0,
                translation: [f64::NAN, 0.0, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
                linear_velocity: [0.0; 3],
                angular_velocity: [0.0; 3],
            }],
            contacts: vec![[1, 2]],
            trigger_events: vec![TriggerEvent {
                kind: TriggerEventKind::Enter,
                trigger: 3,
                other: 1,
            }],
        };
        let handshake = Handshake {
            name: "x".into(),
            version: "1".into(),
            engine: "e".into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: Capabilities {
                profiles: vec![Profile::Khr2024Draft],
                features: vec!["joint.".into()],
                checks: vec![CheckFamily::Dynamics],
                batch: false,
            },
        };
        let mut out = vec![
            (
                Op::Handshake,
                Answer {
                    seq: 0,
                    result: Ok(value(&handshake)),
                },
            ),
            (
                Op::Load,
                Answer {
                    seq: 1,
                    result: Ok(value(&LoadOutcome::Loaded { notes: vec![] })),
                },
            ),
            (
                Op::Load,
                Answer {
                    seq: 1,
                    result: Ok(value(&LoadOutcome::Rejected {
                        reason: "r".into(),
                        codes: vec!["C".into()],
                    })),
                },
            ),
            (
                Op::Interpretation,
                Answer {
                    seq: 2,
                    result: Ok(value(&interpretation)),
                },
            ),
            (
                Op::Observe,
                Answer {
                    seq: 3,
                    result: Ok(value(&state)),
                },
            ),
            (
                Op::EvaluateConstraints,
                Answer {
                    seq: 4,
                    result: Ok(value(&vec![NodeTrs {
                        node: 1,
                        translation: [0.0; 3],
                        rotation: [0.0, 0.0, 0.0, 1.0],
                        scale: [1.0; 3],
                    }])),
                },
            ),
        ];
        out.push((
            Op::Batch,
            Answer {
                seq: 8,
                result: Ok(Value::Array(vec![
                    Value::Null,
                    value(&state),
                    Value::Null,
                    value(&State::default()),
                ])),
            },
        ));
        let mut batching = handshake.clone();
        batching.capabilities.batch = true;
        out.push((
            Op::Handshake,
            Answer {
                seq: 0,
                result: Ok(value(&batching)),
            },
        ));
        for op in [Op::Configure, Op::Step, Op::Apply, Op::Unload] {
            out.push((
                op,
                Answer {
                    seq: 5,
                    result: Ok(Value::Null),
                },
            ));
        }
        for op in Op::ALL {
            out.push((
                op,
                Answer {
                    seq: 6,
                    result: Err(ImplError::Failed("no".into())),
                },
            ));
            out.push((
                op,
                Answer {
                    seq: 7,
                    result: Err(ImplError::NotSupported("no".into())),
                },
            ));
        }
        out
    }

    /// A value as the protocol writes it.
    fn value<T: serde::Serialize>(v: &T) -> Value {
        serde_json::to_value(v).expect("encodes")
    }

    #[test]
    fn every_message_the_types_produce_is_valid() {
        let mut seen = std::collections::BTreeSet::new();
        for call in requests() {
            let op = call.op();
            let line = NumberedCall { seq: 9, call }.encode().expect("encodes");
            let v = line_value(&line);
            validate(&schema_of(&format!("{op}.request")), &v)
                .unwrap_or_else(|e| panic!("{op} request {v}: {e:?}"));
            seen.insert(format!("{op}.request"));
        }
        for (op, a) in answers() {
            let v = line_value(&a.encode());
            validate(&schema_of(&format!("{op}.answer")), &v)
                .unwrap_or_else(|e| panic!("{op} answer {v}: {e:?}"));
            seen.insert(format!("{op}.answer"));
        }
        let all: std::collections::BTreeSet<String> =
            schemas().into_iter().map(|(n, _)| n).collect();
        assert_eq!(seen, all, "every schema has an example");
    }

    #[test]
    fn the_schemas_reject_what_the_decoders_reject() {
        // A missing required field, an unknown field, an error kind of the harness, a wrong type.
        let observe = schema_of("observe.answer");
        let good = json!({"seq": 1, "ok": {"time": 0.0, "nodes": [], "contacts": [], "trigger_events": []}});
        assert!(validate(&observe, &good).is_ok());
        let mut missing = good.clone();
        missing["ok"]
            .as_object_mut()
            .expect("object")
            .remove("contacts");
        assert!(validate(&observe, &missing).is_err());
        let mut extra = good.clone();
        extra["ok"]["colour"] = json!("red");
        assert!(validate(&observe, &extra).is_err());
        let mut bad_number = good.clone();
        bad_number["ok"]["time"] = json!("soon");
        assert!(validate(&observe, &bad_number).is_err());
        let timeout = json!({"seq": 1, "error": {"error": "timeout", "message": "x"}});
        assert!(validate(&observe, &timeout).is_err());
        assert!(Answer::decode(timeout.to_string().as_bytes()).is_err());
        let both = json!({"seq": 1, "ok": null, "error": {"error": "failed", "message": "x"}});
        assert!(validate(&schema_of("step.answer"), &both).is_err());
        assert!(Answer::decode(both.to_string().as_bytes()).is_err());
        let step = schema_of("step.request");
        assert!(validate(&step, &json!({"seq": 1, "op": "step"})).is_err());
        assert!(validate(&step, &json!({"seq": 1, "op": "step", "steps": -1})).is_err());
        // A batch holds only scenario requests, each complete; its answer only null or states.
        let batch = schema_of("batch.request");
        let good = json!({"seq": 1, "op": "batch", "requests": [{"op": "step", "steps": 2}, {"op": "observe"}]});
        assert!(validate(&batch, &good).is_ok());
        assert!(NumberedCall::decode(good.to_string().as_bytes()).is_ok());
        for bad in [
            json!({"seq": 1, "op": "batch", "requests": [{"op": "load", "path": "/a", "profile": "p"}]}),
            json!({"seq": 1, "op": "batch", "requests": [{"op": "step"}]}),
            json!({"seq": 1, "op": "batch", "requests": [{"op": "batch", "requests": []}]}),
            json!({"seq": 1, "op": "batch", "requests": {"op": "observe"}}),
            json!({"seq": 1, "op": "batch"}),
        ] {
            assert!(validate(&batch, &bad).is_err(), "{bad}");
            assert!(
                NumberedCall::decode(bad.to_string().as_bytes()).is_err(),
                "{bad}"
            );
        }
        let answer = schema_of("batch.answer");
        assert!(validate(&answer, &json!({"seq": 1, "ok": [null, null]})).is_ok());
        assert!(validate(&answer, &json!({"seq": 1, "ok": [null, "done"]})).is_err());
        assert!(validate(&answer, &json!({"seq": 1, "ok": null})).is_err());
    }
}
