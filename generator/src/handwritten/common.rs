//! What the hand-written cases share: the case and scenario builders. A leaf, so that the
//! modules of cases need not import the module that lists them.

use std::collections::BTreeSet;

use reference::decision::Decision;
use reference::profile::Profile;
use serde_json::{Value, json};

use crate::case::{Case, ExpectedIssue, Payload, Tier};
use crate::plan::Edition;
use crate::scenario::DT;

/// The generic checks of a scene (`scenario::checks`) as JSON, for a hand-written scenario
/// to add its own to.
pub(crate) fn generic_checks(e: &reference::expect::Expectation) -> Vec<serde_json::Value> {
    crate::scenario::checks(e)
        .iter()
        .map(|c| serde_json::to_value(c).expect("a check serialises"))
        .collect()
}

/// A hand-written scenario written as JSON, read as the case format's scenario (a mistake in
/// it is a bug of this crate, found by its tests).
pub(crate) fn scenario_of(json: serde_json::Value) -> reference::case::Scenario {
    serde_json::from_value(json).expect("a hand-written scenario reads")
}

/// The box from `lo` to `hi` as a mesh: its corners (x slowest, then y, then z) and its 12
/// triangles, outward.
pub(crate) fn cuboid(lo: [f32; 3], hi: [f32; 3]) -> ([[f32; 3]; 8], [u16; 36]) {
    let mut corners = [[0.0; 3]; 8];
    let mut k = 0;
    for x in [lo[0], hi[0]] {
        for y in [lo[1], hi[1]] {
            for z in [lo[2], hi[2]] {
                corners[k] = [x, y, z];
                k += 1;
            }
        }
    }
    let triangles = [
        0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4,
        1, 5, 7, 1, 7, 3,
    ];
    (corners, triangles)
}

/// Settling tolerance of a ball coming to rest on a ground: a resting contact in a good engine
/// sinks by millimetres (solver slop, contact skin), so 0.01 m recommended and 0.05 m allowed;
/// the misreadings these scenes catch are off by 0.5 m or more.
pub(crate) const SETTLE_TOL: reference::case::Tolerance = reference::case::Tolerance {
    recommended: 0.01,
    allowed: 0.05,
};

/// The scenario of a hand-written scene where bodies fall and come to rest: the generic checks
/// of `gltf`, and for each `(check name, node, displacement)` that the node moves that far
/// along +y, citing `decision`; 2 s, gravity, no action. `None` when the scene has no
/// expectation.
pub(crate) fn settle_scenario(
    gltf: &Value,
    decision: Decision,
    settles: &[(String, usize, f64)],
) -> Option<reference::case::Scenario> {
    use reference::case::{CheckKind, DynamicsCheck, Scenario};
    crate::scenario::expectation(&reference::read_tree(gltf, None, None)).map(|e| {
        let mut checks = crate::scenario::checks(&e);
        for (name, node, expected) in settles {
            checks.push(DynamicsCheck {
                decisions: vec![decision.into()],
                ..DynamicsCheck::new(
                    name.as_str(),
                    CheckKind::Displacement {
                        node: *node,
                        direction: [0.0, 1.0, 0.0],
                        expected: *expected,
                        tolerance: SETTLE_TOL,
                    },
                )
            });
        }
        Scenario {
            actions: Some(Vec::new()),
            ..crate::scenario::under_gravity(checks)
        }
    })
}

/// A hand-written JSON case.
#[allow(clippy::too_many_arguments)]
pub(crate) fn case(
    id: &str,
    profile: Profile,
    area: &str,
    description: &str,
    spec: &str,
    tier: Tier,
    features: &[&str],
    decisions: &[Decision],
    json: impl Into<Value>,
    expected: Vec<ExpectedIssue>,
) -> Case {
    Case {
        id: id.to_owned(),
        profile: Some(profile),
        area: area.to_owned(),
        description: description.to_owned(),
        spec: spec.to_owned(),
        tier,
        features: features.iter().map(|s| (*s).to_owned()).collect(),
        decisions: decisions.iter().copied().collect::<BTreeSet<_>>(),
        payload: Payload::Json(json.into()),
        siblings: Default::default(),
        expected,
        poses: Vec::new(),
        seed: None,
        scenario: None,
        edition: Edition::V1,
    }
}

/// A hand-written dynamics case with its explicit scenario, built from the reference's reading
/// of the document by `build` (which also gives the scenario's gravity, steps and actions;
/// `None`: no scenario, which the tests of each module refuse).
#[allow(clippy::too_many_arguments)]
pub(crate) fn dynamics_case(
    id: &str,
    profile: Profile,
    description: &str,
    spec: &str,
    tier: Tier,
    features: &[&str],
    decisions: &[Decision],
    gltf: Value,
    build: impl FnOnce(&reference::expect::Expectation) -> Option<Value>,
) -> Case {
    let scenario = crate::scenario::expectation(&reference::read_tree(&gltf, None, None))
        .and_then(|e| build(&e));
    let mut c = case(
        id,
        profile,
        "dynamics",
        description,
        spec,
        tier,
        features,
        decisions,
        gltf,
        vec![],
    );
    c.scenario = scenario.map(scenario_of);
    c
}

/// A scenario of `steps` steps of 60 Hz.
pub(crate) fn scenario(gravity: [f64; 3], steps: u32, actions: Value, checks: Vec<Value>) -> Value {
    json!({
        "config": {"gravity": gravity, "dt": DT, "substeps": 1},
        "steps": steps,
        "observe_every": 1,
        "actions": actions,
        "checks": checks,
    })
}

/// A tolerance class as the case format writes it.
pub(crate) fn tol(recommended: f64, allowed: f64) -> Value {
    json!({"recommended": recommended, "allowed": allowed})
}
