//! The JSON Schema of every protocol message, written once here and committed as
//! `harness/protocol/<name>.schema.json` for implementers. A test keeps the two in sync and
//! validates messages produced by the Rust types against them, so a change to a message type
//! that the schemas do not follow fails the build.

use serde_json::{Value, json};

use super::message::Op;

const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Shared definitions, copied into each schema so every file stands alone.
fn defs() -> Value {
    json!({
        "number": {
            "description": "A number; non-finite values as the strings NaN, Infinity, -Infinity.",
            "oneOf": [
                {"type": "number"},
                {"enum": ["NaN", "Infinity", "-Infinity"]}
            ]
        },
        "vec3": {"type": "array", "items": {"$ref": "#/$defs/number"}, "minItems": 3, "maxItems": 3},
        "quat": {
            "description": "A rotation as a quaternion [x, y, z, w].",
            "type": "array", "items": {"$ref": "#/$defs/number"}, "minItems": 4, "maxItems": 4
        },
        "node": {"description": "A glTF node index.", "type": "integer", "minimum": 0},
        "strings": {"type": "array", "items": {"type": "string"}},
        "pose": object(&[("translation", json!({"$ref": "#/$defs/vec3"})),
                         ("rotation", json!({"$ref": "#/$defs/quat"}))], &[]),
        "mass": {
            "description": "A mass or principal moment: infinite, a finite value, or unspecified (not given by the file and not computed).",
            "oneOf": [
                object(&[("kind", json!({"const": "infinite"}))], &[]),
                object(&[("kind", json!({"const": "unspecified"}))], &[]),
                object(&[("kind", json!({"const": "finite"})),
                         ("value", json!({"$ref": "#/$defs/number"}))], &[])
            ]
        }
    })
}

/// An object schema: `required` properties, then `optional` ones, nothing else.
fn object(required: &[(&str, Value)], optional: &[(&str, Value)]) -> Value {
    let mut properties = serde_json::Map::new();
    for (k, v) in required.iter().chain(optional) {
        properties.insert((*k).to_owned(), v.clone());
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
        "additionalProperties": false
    })
}

fn schema(id: &str, title: &str, description: &str, body: Value) -> Value {
    let mut s = json!({
        "$schema": DRAFT,
        "$id": format!("https://physics-cts.invalid/protocol/{id}.schema.json"),
        "title": title,
        "description": description,
    });
    if let (Value::Object(s), Value::Object(b)) = (&mut s, body) {
        s.extend(b);
        s.insert("$defs".into(), defs());
    }
    s
}

fn r(name: &str) -> Value {
    json!({ "$ref": format!("#/$defs/{name}") })
}

fn array_of(items: Value) -> Value {
    json!({"type": "array", "items": items})
}

/// Whether a request schema has `seq` (a request) or not (a sub-request of a batch).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Seq {
    With,
    Without,
}

/// The leading fields of a request: `seq` (unless in a batch) and the `op` constant.
fn head(op: Op, seq: Seq) -> Vec<(&'static str, Value)> {
    let mut fields = Vec::new();
    if seq == Seq::With {
        fields.push(("seq", json!({"type": "integer", "minimum": 0})));
    }
    fields.push(("op", json!({ "const": op.as_str() })));
    fields
}

/// A request: `seq`, the `op` constant, and the op's parameters.
fn request(op: Op, seq: Seq, params: &[(&str, Value)]) -> Value {
    let mut fields = head(op, seq);
    fields.extend(params.iter().cloned());
    object(&fields, &[])
}

fn action(seq: Seq) -> Value {
    let with = |fields: &[(&'static str, Value)]| {
        let mut all = head(Op::Apply, seq);
        all.extend(fields.iter().cloned());
        object(&all, &[])
    };
    json!({"oneOf": [
        with(&[("action", json!({"const": "impulse"})), ("node", r("node")),
               ("impulse", r("vec3"))]),
        with(&[("action", json!({"const": "force"})), ("node", r("node")),
               ("force", r("vec3"))]),
        with(&[("action", json!({"const": "kinematic_pose"})), ("node", r("node")),
               ("translation", r("vec3")), ("rotation", r("quat"))])
    ]})
}

/// The answer envelope, with the `ok` schema of one op.
fn answer(ok: Value) -> Value {
    let seq = ("seq", json!({"type": "integer", "minimum": 0}));
    json!({"oneOf": [
        object(&[seq.clone(), ("ok", ok)], &[]),
        object(&[seq, ("error", object(&[
            ("error", json!({"enum": ["not_supported", "failed", "bad_request"]})),
            ("message", json!({"type": "string"}))
        ], &[]))], &[])
    ]})
}

fn handshake() -> Value {
    object(
        &[
            ("name", json!({"type": "string"})),
            ("version", json!({"type": "string"})),
            ("engine", json!({"type": "string"})),
            ("protocol_version", json!({"type": "integer", "minimum": 1})),
            (
                "capabilities",
                object(
                    &[
                        ("profiles", r("strings")),
                        ("features", r("strings")),
                        ("checks", r("strings")),
                    ],
                    &[(
                        "batch",
                        json!({"type": "boolean", "description":
                            "The implementation answers the batch operation (absent: false)."}),
                    )],
                ),
            ),
        ],
        &[],
    )
}

fn load_outcome() -> Value {
    json!({"oneOf": [
        object(&[("outcome", json!({"const": "loaded"}))], &[("notes", r("strings"))]),
        object(&[("outcome", json!({"const": "rejected"})), ("reason", json!({"type": "string"}))],
               &[("codes", r("strings"))])
    ]})
}

fn interpretation() -> Value {
    let optional_number = json!({"oneOf": [r("number"), {"type": "null"}]});
    let optional_node = json!({"oneOf": [r("node"), {"type": "null"}]});
    let body = object(
        &[
            ("node", r("node")),
            ("kind", json!({"enum": ["static", "kinematic", "dynamic"]})),
            ("mass", r("mass")),
            (
                "center_of_mass",
                json!({"oneOf": [r("vec3"), {"type": "null"}]}),
            ),
            (
                "inertia_diagonal",
                json!({"type": "array", "items": r("mass"), "minItems": 3, "maxItems": 3}),
            ),
            ("inertia_orientation", r("quat")),
            ("linear_velocity", r("vec3")),
            ("angular_velocity", r("vec3")),
        ],
        &[],
    );
    let collider = object(
        &[
            ("node", r("node")),
            ("body", optional_node.clone()),
            ("is_trigger", json!({"type": "boolean"})),
            ("shape", json!({"type": "string"})),
            ("parameters", json!({"type": "object"})),
            ("translation", r("vec3")),
            ("rotation", r("quat")),
        ],
        &[],
    );
    let pair = object(
        &[
            ("a", r("node")),
            ("b", r("node")),
            ("collide", json!({"type": "boolean"})),
        ],
        &[
            ("static_friction", optional_number.clone()),
            ("dynamic_friction", optional_number.clone()),
            ("restitution", optional_number),
        ],
    );
    let joint = object(
        &[
            ("node", r("node")),
            (
                "bodies",
                json!({"type": "array", "items": optional_node, "minItems": 2, "maxItems": 2}),
            ),
            (
                "frames",
                json!({"type": "array", "items": r("pose"), "minItems": 2, "maxItems": 2}),
            ),
        ],
        &[],
    );
    object(
        &[
            ("bodies", array_of(body)),
            ("colliders", array_of(collider)),
            ("pairs", array_of(pair)),
            ("joints", array_of(joint)),
        ],
        &[],
    )
}

fn state() -> Value {
    let node_state = object(
        &[
            ("node", r("node")),
            ("translation", r("vec3")),
            ("rotation", r("quat")),
            ("linear_velocity", r("vec3")),
            ("angular_velocity", r("vec3")),
        ],
        &[],
    );
    let event = object(
        &[
            ("kind", json!({"enum": ["enter", "exit"]})),
            ("trigger", r("node")),
            ("other", r("node")),
        ],
        &[],
    );
    object(
        &[
            ("time", r("number")),
            ("nodes", array_of(node_state)),
            (
                "contacts",
                array_of(
                    json!({"type": "array", "items": r("node"), "minItems": 2, "maxItems": 2}),
                ),
            ),
            ("trigger_events", array_of(event)),
        ],
        &[],
    )
}

fn node_trs_list() -> Value {
    array_of(object(
        &[
            ("node", r("node")),
            ("translation", r("vec3")),
            ("rotation", r("quat")),
            ("scale", r("vec3")),
        ],
        &[],
    ))
}

/// The schema of an op's request parameters.
fn request_of(op: Op) -> Value {
    request_in(op, Seq::With)
}

fn request_in(op: Op, seq: Seq) -> Value {
    match op {
        Op::Handshake => request(
            op,
            seq,
            &[("protocol_version", json!({"type": "integer", "minimum": 1}))],
        ),
        Op::Load => request(
            op,
            seq,
            &[
                (
                    "path",
                    json!({"type": "string", "description": "Absolute path of the .gltf / .glb."}),
                ),
                ("profile", json!({"type": "string"})),
            ],
        ),
        Op::Configure => request(
            op,
            seq,
            &[
                ("gravity", r("vec3")),
                ("dt", r("number")),
                ("substeps", json!({"type": "integer", "minimum": 0})),
            ],
        ),
        Op::Step => request(
            op,
            seq,
            &[("steps", json!({"type": "integer", "minimum": 0}))],
        ),
        Op::Apply => action(seq),
        Op::EvaluateConstraints => request(
            op,
            seq,
            &[(
                "poses",
                json!({"type": "object", "description":
                    "Local TRS overrides: {\"nodes\": {\"<index>\": {\"translation\", \"rotation\", \"scale\"}}}."}),
            )],
        ),
        Op::Interpretation | Op::Observe | Op::Unload => request(op, seq, &[]),
        Op::Batch => {
            let subs: Vec<Value> = Op::IN_BATCH
                .iter()
                .map(|op| request_in(*op, Seq::Without))
                .collect();
            request(
                op,
                seq,
                &[(
                    "requests",
                    json!({"type": "array", "items": {"oneOf": subs}, "description":
                        "Requests without seq, run in order: configure, step, observe, apply."}),
                )],
            )
        }
    }
}

/// The schema of an op's `ok` value.
fn ok_of(op: Op) -> Value {
    match op {
        Op::Handshake => handshake(),
        Op::Load => load_outcome(),
        Op::Interpretation => interpretation(),
        Op::Observe => state(),
        Op::EvaluateConstraints => node_trs_list(),
        Op::Configure | Op::Step | Op::Apply | Op::Unload => json!({"type": "null"}),
        Op::Batch => json!({
            "description": "The result of each request of the batch, in order: null, or the state of an observe.",
            "type": "array",
            "items": {"oneOf": [{"type": "null"}, state()]}
        }),
    }
}

/// Every schema by file stem: `<op>.request` and `<op>.answer` for each op.
pub fn schemas() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for op in Op::ALL {
        out.push((
            format!("{op}.request"),
            schema(
                &format!("{op}.request"),
                &format!("{op} request"),
                &format!("The harness asks the implementation to {op}."),
                request_of(op),
            ),
        ));
        out.push((
            format!("{op}.answer"),
            schema(
                &format!("{op}.answer"),
                &format!("{op} answer"),
                &format!("The implementation's answer to a {op} request: ok or an error."),
                answer(ok_of(op)),
            ),
        ));
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
pub(crate) mod validator {
    //! The subset of JSON Schema the protocol schemas use: `type`, `const`, `enum`, `oneOf`,
    //! `properties`, `required`, `additionalProperties: false`, `items`, `minItems`, `maxItems`,
    //! `minimum` and local `$ref`s.

    use serde_json::Value;

    /// Every violation of `value` against `schema`, with its path.
    pub fn errors(root: &Value, schema: &Value, value: &Value, path: &str, out: &mut Vec<String>) {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let target = r
                .strip_prefix("#/$defs/")
                .and_then(|n| root.get("$defs").and_then(|d| d.get(n)));
            match target {
                Some(t) => errors(root, t, value, path, out),
                None => out.push(format!("{path}: unresolved $ref {r}")),
            }
            return;
        }
        if let Some(t) = schema.get("type").and_then(Value::as_str) {
            let ok = match t {
                "object" => value.is_object(),
                "array" => value.is_array(),
                "string" => value.is_string(),
                "number" => value.is_number(),
                "integer" => value.is_u64() || value.is_i64(),
                "boolean" => value.is_boolean(),
                "null" => value.is_null(),
                _ => false,
            };
            if !ok {
                out.push(format!("{path}: {value} is not of type {t}"));
                return;
            }
        }
        if let Some(c) = schema.get("const")
            && c != value
        {
            out.push(format!("{path}: {value} is not {c}"));
        }
        if let Some(e) = schema.get("enum").and_then(Value::as_array)
            && !e.contains(value)
        {
            out.push(format!("{path}: {value} is not one of {e:?}"));
        }
        if let (Some(min), Some(v)) = (
            schema.get("minimum").and_then(Value::as_f64),
            value.as_f64(),
        ) && v < min
        {
            out.push(format!("{path}: {v} < {min}"));
        }
        if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
            let matching = options
                .iter()
                .filter(|o| {
                    let mut e = Vec::new();
                    errors(root, o, value, path, &mut e);
                    e.is_empty()
                })
                .count();
            if matching != 1 {
                out.push(format!(
                    "{path}: {value} matches {matching} of oneOf, not 1"
                ));
            }
        }
        if let Some(items) = value.as_array() {
            let n = items.len() as u64;
            if schema
                .get("minItems")
                .and_then(Value::as_u64)
                .is_some_and(|m| n < m)
                || schema
                    .get("maxItems")
                    .and_then(Value::as_u64)
                    .is_some_and(|m| n > m)
            {
                out.push(format!("{path}: {n} items"));
            }
            if let Some(s) = schema.get("items") {
                for (i, v) in items.iter().enumerate() {
                    errors(root, s, v, &format!("{path}/{i}"), out);
                }
            }
        }
        if let Some(obj) = value.as_object() {
            let props = schema.get("properties").and_then(Value::as_object);
            for req in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(k) = req.as_str()
                    && !obj.contains_key(k)
                {
                    out.push(format!("{path}: missing {k}"));
                }
            }
            for (k, v) in obj {
                match props.and_then(|p| p.get(k)) {
                    Some(s) => errors(root, s, v, &format!("{path}/{k}"), out),
                    None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                        out.push(format!("{path}: unexpected property {k}"));
                    }
                    None => {}
                }
            }
        }
    }

    /// Whether `value` is valid against the root schema `schema`.
    pub fn validate(schema: &Value, value: &Value) -> Result<(), Vec<String>> {
        let mut out = Vec::new();
        errors(schema, schema, value, "", &mut out);
        if out.is_empty() { Ok(()) } else { Err(out) }
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::validator::validate;
    use super::*;
    use crate::implementation::*;
    use crate::protocol::message::{Answer, Call, Request};

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
                profile: "khr-2024-draft".into(),
            }),
            Call::Interpretation,
            Call::Configure(SimConfig {
                gravity: [0.0, f64::NEG_INFINITY, 0.0],
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
                    kind: "dynamic".into(),
                    mass: MassReport::Unspecified,
                    center_of_mass: None,
                    inertia_diagonal: [MassReport::Unspecified; 3],
                    inertia_orientation: [0.0, 0.0, 0.0, 1.0],
                    linear_velocity: [1.0, 0.0, 0.0],
                    angular_velocity: [0.0; 3],
                },
                BodyReport {
                    node: 0,
                    kind: "dynamic".into(),
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
                },
            ],
            colliders: vec![ColliderReport {
                node: 1,
                body: None,
                is_trigger: false,
                shape: "sphere".into(),
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
                kind: "enter".into(),
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
                profiles: vec!["khr-2024-draft".into()],
                features: vec!["joint.".into()],
                checks: vec!["dynamics".into()],
                batch: false,
            },
        };
        let value = |v: &dyn erased::Ser| v.value();
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

    /// Values through the protocol's own encoder (non-finite numbers as strings).
    mod erased {
        pub trait Ser {
            fn value(&self) -> serde_json::Value;
        }
        impl<T: serde::Serialize> Ser for T {
            fn value(&self) -> serde_json::Value {
                crate::protocol::json::to_value(self).expect("encodes")
            }
        }
    }

    #[test]
    fn every_message_the_types_produce_is_valid() {
        let mut seen = std::collections::BTreeSet::new();
        for call in requests() {
            let op = call.op();
            let line = Request { seq: 9, call }.encode().expect("encodes");
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
        assert!(Request::decode(good.to_string().as_bytes()).is_ok());
        for bad in [
            json!({"seq": 1, "op": "batch", "requests": [{"op": "load", "path": "/a", "profile": "p"}]}),
            json!({"seq": 1, "op": "batch", "requests": [{"op": "step"}]}),
            json!({"seq": 1, "op": "batch", "requests": [{"op": "batch", "requests": []}]}),
            json!({"seq": 1, "op": "batch", "requests": {"op": "observe"}}),
            json!({"seq": 1, "op": "batch"}),
        ] {
            assert!(validate(&batch, &bad).is_err(), "{bad}");
            assert!(
                Request::decode(bad.to_string().as_bytes()).is_err(),
                "{bad}"
            );
        }
        let answer = schema_of("batch.answer");
        assert!(validate(&answer, &json!({"seq": 1, "ok": [null, null]})).is_ok());
        assert!(validate(&answer, &json!({"seq": 1, "ok": [null, "done"]})).is_err());
        assert!(validate(&answer, &json!({"seq": 1, "ok": null})).is_err());
    }
}
