//! `summary.json`: the implementations, their scores with denominators (per tier, profile,
//! area and feature), verdict counts, the failing, unexpectedly passing and harness-error
//! cases, and, for a run of several implementations, the interop figures (schema in
//! `reports/README.md`).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::results::Run;
use crate::score;
use crate::score::interop::{Interop, Matrix};

/// The `interop` member: `null` for a run of one implementation.
pub fn interop(run: &Run) -> Value {
    let Some(m) = Matrix::of(run) else {
        return Value::Null;
    };
    let cases: BTreeMap<&str, Vec<&str>> = Interop::ALL
        .iter()
        .map(|c| (c.as_str(), m.cases(*c)))
        .collect();
    let disagreements: Vec<Value> = m
        .rows
        .iter()
        .filter(|r| r.disagree())
        .map(|r| {
            let statuses: BTreeMap<&str, Value> = m
                .implementations
                .iter()
                .zip(&r.cells)
                .map(|(i, c)| (i.as_str(), c.map_or(Value::Null, |c| json!(c.status))))
                .collect();
            json!({
                "case": r.case,
                "tier": r.tier,
                "interop": r.interop,
                "statuses": statuses,
            })
        })
        .collect();
    json!({
        "implementations": m.implementations,
        "total": m.totals(),
        "features": m.features(),
        "cases": cases,
        "disagreements": disagreements,
    })
}

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
        "interop": interop(run),
    })
}

/// Pretty JSON with a final newline.
pub fn render(run: &Run) -> String {
    let mut s = serde_json::to_string_pretty(&value(run)).unwrap_or_default();
    s.push('\n');
    s
}
