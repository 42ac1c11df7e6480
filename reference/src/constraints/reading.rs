//! The reading steps the two VRM constraint readers share (the draft, [`crate::vrm`], and 1.0,
//! [`crate::vrm1`]): one kind per constraint object, the weight range, and leaving out the
//! constraints of a cycle. Each reader passes its own issue codes.

use serde_json::Value;

use super::cycles;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{NodeConstraint, Scene};

/// The issue codes one VRM profile reports for the steps read here.
pub(crate) struct Codes {
    /// No kind in the constraint object.
    pub no_constraint: Code,
    /// Several kinds in one constraint object.
    pub multiple: Code,
    /// A weight outside [0, 1].
    pub weight_range: Code,
    /// Constraints whose sources form a cycle.
    pub cycle: Code,
}

/// A constraint that passed its own checks, with the pointer of its kind object.
pub(crate) struct Candidate {
    pub constraint: NodeConstraint,
    pub pointer: String,
}

/// The one kind of `kinds` that `object` (at `pointer`) holds; `None`, with an issue, when it
/// holds none or several.
pub(crate) fn one_kind(
    object: &Value,
    kinds: &[&'static str],
    pointer: &str,
    codes: &Codes,
    issues: &mut Issues,
) -> Option<&'static str> {
    let present: Vec<&str> = kinds
        .iter()
        .copied()
        .filter(|k| object.get(k).is_some())
        .collect();
    match present.as_slice() {
        [] => {
            issues.push(Issue::new(codes.no_constraint, pointer));
            None
        }
        [one] => Some(one),
        several => {
            issues.push(Issue::new(codes.multiple, pointer).arg("kinds", several.join(", ")));
            None
        }
    }
}

/// The weight (default 1) of the kind object at `pointer`; `None`, with an issue at its
/// `weight`, outside [0, 1].
pub(crate) fn checked_weight(
    weight: Option<f64>,
    pointer: &str,
    codes: &Codes,
    issues: &mut Issues,
) -> Option<f64> {
    let weight = weight.unwrap_or(1.0);
    let ok = (0.0..=1.0).contains(&weight);
    if !ok {
        issues.push(
            Issue::new(codes.weight_range, push_pointer(pointer, "weight")).arg("value", weight),
        );
    }
    ok.then_some(weight)
}

/// Set `scene.constraints` to the candidates whose source passes the profile's `source_rule`
/// (which reports why not) and that lie on no cycle, reporting each cycle at the `source` of its
/// first constraint.
pub(crate) fn keep_valid(
    scene: &mut Scene,
    candidates: Vec<Candidate>,
    source_rule: impl Fn(&Scene, &Candidate, &mut Issues) -> bool,
    codes: &Codes,
    issues: &mut Issues,
) {
    let candidates: Vec<Candidate> = candidates
        .into_iter()
        .filter(|c| source_rule(scene, c, issues))
        .collect();
    scene.constraints = candidates.iter().map(|c| c.constraint.clone()).collect();
    // `dependencies` only fails on an index out of range, which the readers checked.
    let cycles = cycles(scene).unwrap_or_default();
    let mut in_cycle = vec![false; candidates.len()];
    for cycle in &cycles {
        let nodes: Vec<String> = cycle
            .iter()
            .map(|&i| candidates[i].constraint.node.to_string())
            .collect();
        issues.push(
            Issue::new(
                codes.cycle,
                push_pointer(&candidates[cycle[0]].pointer, "source"),
            )
            .arg("nodes", nodes.join(", ")),
        );
        for &i in cycle {
            in_cycle[i] = true;
        }
    }
    scene.constraints = candidates
        .into_iter()
        .zip(in_cycle)
        .filter(|(_, cyclic)| !cyclic)
        .map(|(c, _)| c.constraint)
        .collect();
}
