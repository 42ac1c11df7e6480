//! The requests of the stdio protocol (harness/PROTOCOL.md, version 2) and their answers: a
//! request `{"seq": N, "op": ..., ...}` gets `{"seq": N, "ok": ...}` or
//! `{"seq": N, "error": {"error": kind, "message": ...}}`.

use std::path::Path;

use serde_json::{Value, json};

use crate::{FEATURES, GLTF_KUN_VERSION, Loaded, PROFILE};

/// The protocol version this adapter speaks.
pub const PROTOCOL_VERSION: u64 = 2;

/// Every operation of the protocol; the ones not listed in [`Adapter::answer`]'s match are
/// `not_supported`.
const OPS: &[&str] = &[
    "handshake",
    "load",
    "interpretation",
    "configure",
    "step",
    "observe",
    "apply",
    "evaluate_constraints",
    "unload",
    "batch",
    "shutdown",
];

/// An error answer: its kind (`bad_request`, `not_supported`, `failed`) and message.
#[derive(Debug)]
pub struct Refusal(&'static str, String);

fn bad_request(message: impl Into<String>) -> Refusal {
    Refusal("bad_request", message.into())
}

/// The adapter's state: the document loaded last, if any.
#[derive(Debug, Default)]
pub struct Adapter {
    loaded: Option<Loaded>,
}

/// The handshake's answer.
pub fn handshake() -> Value {
    json!({
        "name": "physics-cts-gltf-kun",
        "version": env!("CARGO_PKG_VERSION"),
        "engine": format!("gltf_kun {GLTF_KUN_VERSION} (omi_physics)"),
        "protocol_version": PROTOCOL_VERSION,
        "capabilities": {
            "profiles": [PROFILE],
            "features": FEATURES,
            "checks": ["interpretation"],
        },
    })
}

impl Adapter {
    /// The answer line to one request line, and whether to stop serving (after `shutdown`).
    pub fn answer(&mut self, line: &str) -> (String, bool) {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => {
                return (
                    refusal(Value::Null, bad_request(format!("not JSON: {e}"))),
                    false,
                );
            }
        };
        let seq = match request.get("seq").and_then(Value::as_u64) {
            Some(s) => json!(s),
            None => {
                return (
                    refusal(
                        Value::Null,
                        bad_request("a request needs a non-negative integer seq"),
                    ),
                    false,
                );
            }
        };
        let op = request.get("op").and_then(Value::as_str).unwrap_or("");
        let stop = op == "shutdown";
        let line = match self.call(op, &request) {
            Ok(ok) => json!({"seq": seq, "ok": ok}).to_string(),
            Err(r) => refusal(seq, r),
        };
        (line, stop)
    }

    fn call(&mut self, op: &str, request: &Value) -> Result<Value, Refusal> {
        match op {
            "handshake" => {
                let version = request.get("protocol_version").and_then(Value::as_u64);
                if version.is_some_and(|v| v != PROTOCOL_VERSION) {
                    return Err(bad_request(format!(
                        "this implementation speaks protocol {PROTOCOL_VERSION}, not {}",
                        request["protocol_version"]
                    )));
                }
                Ok(handshake())
            }
            "load" => self.load(request),
            "interpretation" => match &self.loaded {
                Some(l) => Ok(crate::interpretation(l)),
                None => Err(bad_request("interpretation before load")),
            },
            "unload" | "shutdown" => {
                self.loaded = None;
                Ok(Value::Null)
            }
            _ if OPS.contains(&op) => Err(Refusal(
                "not_supported",
                format!("{op}: gltf_kun reads files; it does not simulate or evaluate constraints"),
            )),
            _ => Err(bad_request(format!("unknown op {op:?}"))),
        }
    }

    fn load(&mut self, request: &Value) -> Result<Value, Refusal> {
        self.loaded = None;
        let path = request
            .get("path")
            .and_then(Value::as_str)
            .ok_or_else(|| bad_request("load needs a string path"))?;
        let profile = request.get("profile").and_then(Value::as_str).unwrap_or("");
        if profile != PROFILE {
            return Err(Refusal("not_supported", format!("profile {profile}")));
        }
        let imported = crate::import(Path::new(path));
        match imported.result {
            Ok(l) => {
                self.loaded = Some(l);
                Ok(json!({"outcome": "loaded", "notes": imported.notes}))
            }
            Err(e) if e.starts_with("gltf_kun panicked") => Err(Refusal("failed", e)),
            Err(e) => {
                Ok(json!({"outcome": "rejected", "reason": format!("gltf_kun: {e}"), "codes": []}))
            }
        }
    }
}

fn refusal(seq: Value, Refusal(kind, message): Refusal) -> String {
    json!({"seq": seq, "error": {"error": kind, "message": message}}).to_string()
}
