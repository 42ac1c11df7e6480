//! `summary.json`: the implementations, their scores with denominators (per tier, profile,
//! area and feature), verdict counts, the failing, unexpectedly passing and harness-error
//! cases, and the interop cases.

use serde_json::{Value, json};

use crate::results::Run;
use crate::score;

pub fn value(run: &Run) -> Value {
    let scores = score::scores(run);
    json!({
        "suite": run.suite,
        "corpus": run.corpus,
        "duration_ms": run.duration_ms,
        "implementations": run.implementations.iter().zip(&scores).map(|(i, s)| json!({
            "name": i.name,
            "version": i.version,
            "engine": i.engine,
            "capabilities": i.capabilities,
            "scores": s,
        })).collect::<Vec<_>>(),
        "interop": score::interop(run),
    })
}

/// Pretty JSON with a final newline.
pub fn render(run: &Run) -> String {
    let mut s = serde_json::to_string_pretty(&value(run)).unwrap_or_default();
    s.push('\n');
    s
}
