//! The implementation side of the protocol: read requests, call an [`Implementation`], write
//! answers. `physics-cts serve` runs it over stdin/stdout for a bundled implementation.

use std::io::{self, BufRead, Write};

use serde_json::Value;

use super::framing::{Frame, LineReader, write_line};
use super::message::{Answer, Call, Request, encode_answer};
use crate::implementation::{ImplError, Implementation, PROTOCOL_VERSION};

/// Answer requests from `input` on `output` until `input` ends. A malformed request gets a
/// `bad_request` answer (with `"seq": null` when its number could not be read) and the loop
/// goes on; only an I/O error on the streams ends it early. A panic in the implementation is
/// not caught: the process dies, as a crash should look to the harness.
pub fn serve(
    imp: &mut dyn Implementation,
    input: impl BufRead,
    mut output: impl Write,
    limit: usize,
) -> io::Result<()> {
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
        let answer = match Request::decode(&line) {
            Ok(request) => dispatch(imp, request).encode(),
            Err(m) => encode_answer(m.seq, &Err(ImplError::BadRequest(m.message))),
        };
        write_line(&mut output, &answer)?;
    }
}

/// Call the implementation for one request.
pub fn dispatch(imp: &mut dyn Implementation, request: Request) -> Answer {
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
            Answer::of(seq, imp.handshake())
        }
        Call::Load(r) => Answer::of(seq, imp.load(&r)),
        Call::Interpretation => Answer::of(seq, imp.interpretation()),
        Call::Configure(c) => Answer::of(seq, imp.configure(&c)),
        Call::Step { steps } => Answer::of(seq, imp.step(steps)),
        Call::Observe => Answer::of(seq, imp.observe()),
        Call::Apply(a) => Answer::of(seq, imp.apply(&a)),
        Call::EvaluateConstraints { poses } => Answer::of(seq, imp.evaluate_constraints(&poses)),
        Call::Unload => Answer::of(seq, imp.unload()),
    }
}

/// An implementation that answers every call with defaults: the peer of the protocol round-trip
/// benchmark and of tests that exercise the transport, not physics.
#[derive(Debug, Default)]
pub struct Echo {
    loaded: bool,
}

impl Implementation for Echo {
    fn handshake(&mut self) -> Result<crate::implementation::Handshake, ImplError> {
        Ok(crate::implementation::Handshake {
            name: "echo".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            engine: "none".into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: crate::implementation::Capabilities::default(),
        })
    }
    fn load(
        &mut self,
        _request: &crate::implementation::LoadRequest,
    ) -> Result<crate::implementation::LoadOutcome, ImplError> {
        self.loaded = true;
        Ok(crate::implementation::LoadOutcome::Loaded { notes: Vec::new() })
    }
    fn interpretation(&mut self) -> Result<crate::implementation::Interpretation, ImplError> {
        Ok(Default::default())
    }
    fn configure(&mut self, _config: &crate::implementation::SimConfig) -> Result<(), ImplError> {
        Ok(())
    }
    fn step(&mut self, _steps: u32) -> Result<(), ImplError> {
        Ok(())
    }
    fn observe(&mut self) -> Result<crate::implementation::State, ImplError> {
        Ok(Default::default())
    }
    fn apply(&mut self, _action: &crate::implementation::Action) -> Result<(), ImplError> {
        Ok(())
    }
    fn evaluate_constraints(
        &mut self,
        _poses: &Value,
    ) -> Result<Vec<crate::implementation::NodeTrs>, ImplError> {
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

    fn served(input: &str, limit: usize) -> Vec<Value> {
        let mut out = Vec::new();
        serve(&mut Echo::default(), input.as_bytes(), &mut out, limit).expect("in memory");
        String::from_utf8(out)
            .expect("utf-8")
            .lines()
            .map(|l| serde_json::from_str(l).expect("every answer is JSON"))
            .collect()
    }

    #[test]
    fn answers_every_line_in_order() {
        let input = concat!(
            r#"{"seq":0,"op":"handshake","protocol_version":1}"#,
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
