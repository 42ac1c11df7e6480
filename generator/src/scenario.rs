//! What the harness checks beyond the reference's interpretation: the tolerance classes of a
//! case and its dynamics scenario. Recorded in `<id>.expect.json` as `tolerances` and
//! `scenario` (`reference::case`); both are data, so no check in the harness holds a tolerance.
//!
//! Which invariants hold for a scene is the reference's (`reference::expect::invariants`:
//! static nodes still, hard limits held, pairs apart, kinematic velocities kept, free bodies
//! falling); only the simulation settings and the tolerances are chosen here. A check names
//! the joint, body or pairs it measures; the harness reports the decisions those objects carry
//! in the interpretation, so they are not repeated.

use std::collections::BTreeMap;

use reference::Reading;
use reference::case::{CheckKind, DynamicsCheck, Scenario, SimConfig, Tolerance};
use reference::expect::Expectation;
use reference::expect::invariants::{BodyMotion, invariants};
use reference::scene::DofKind;

use crate::plan::Edition;

/// Gravity of every scenario, m/s².
pub const GRAVITY: [f64; 3] = [0.0, -9.81, 0.0];
/// Step of every scenario: 60 Hz, one substep.
pub const DT: f64 = 1.0 / 60.0;
/// Two seconds.
pub const STEPS: u32 = 120;
/// Window of the free-fall check: the first half second, before anything can land.
pub const FALL_STEPS: u32 = 30;
/// The free-fall check's tolerance under [`Edition::V2`], m/s²: free fall is exact in any
/// integrator (Rapier and PhysX measure under 4e-5 over corpus/v2), so 1e-4 recommended and
/// 1e-3 allowed, which gravity read as 9.8 instead of 9.81 misses tenfold (`Edition::V1`
/// allows 1e-2, which it misses by 1e-4).
pub const FALL_TOLERANCE: Tolerance = Tolerance {
    recommended: 1e-4,
    allowed: 1e-3,
};

/// A tolerance class; the bounds are constants of this file, valid by construction.
pub fn tol(recommended: f64, allowed: f64) -> Tolerance {
    Tolerance {
        recommended,
        allowed,
    }
}

/// The expectation at rest of a readable case without errors.
pub fn expectation(reading: &Reading) -> Option<Expectation> {
    crate::label::evaluate(reading).and_then(Result::ok)
}

/// The interpretation tolerance classes of a case with an expectation (`None` without one).
/// The expected values are rounded to 1e-6 and engines often store f32 (7 digits): 1e-5 is
/// exact to that precision for scenes within 100 m, 1e-3 (1 mm, 1 mrad, 0.1 %) is the most an
/// importer may be off.
pub fn tolerances(expectation: Option<&Expectation>) -> Option<BTreeMap<String, Tolerance>> {
    expectation?;
    Some(
        ["length", "angle", "scalar"]
            .into_iter()
            .map(|class| (class.to_owned(), tol(1e-5, 1e-3)))
            .collect(),
    )
}

/// The scenario of a case with an expectation: `None` without one, or with nothing to check.
pub fn scenario(expectation: Option<&Expectation>, edition: Edition) -> Option<Scenario> {
    let mut checks = checks(expectation?);
    if edition == Edition::V2 {
        for c in &mut checks {
            if let CheckKind::Acceleration { tolerance, .. } = &mut c.kind {
                *tolerance = FALL_TOLERANCE;
            }
        }
    }
    if checks.is_empty() {
        return None;
    }
    Some(under_gravity(checks))
}

/// The generated scenes' run: [`STEPS`] of [`DT`] under [`GRAVITY`], observed at every step,
/// without actions.
pub fn under_gravity(checks: Vec<DynamicsCheck>) -> Scenario {
    Scenario {
        config: SimConfig {
            gravity: GRAVITY,
            dt: DT,
            substeps: 1,
        },
        steps: STEPS,
        observe_every: 1,
        actions: None,
        checks,
    }
}

/// Limits: Rapier's own joint tests accept about 2 degrees of settling error; PhysX, Havok
/// and Jolt agree closely on simple limit scenes.
pub fn limit_tolerance(kind: DofKind) -> Tolerance {
    match kind {
        DofKind::Angular => tol(0.0175, 0.035),
        DofKind::Linear => tol(0.01, 0.05),
    }
}

/// The checks of [`scenario`] for an expectation: one per invariant the reference finds.
pub fn checks(e: &Expectation) -> Vec<DynamicsCheck> {
    let facts = invariants(e);
    let mut out = Vec::new();
    if !facts.still.is_empty() {
        out.push(DynamicsCheck::new(
            "static-still",
            CheckKind::Still {
                nodes: facts.still,
                length: tol(1e-6, 1e-4),
                angle: tol(1e-6, 1e-4),
            },
        ));
    }
    for l in facts.limits {
        out.push(DynamicsCheck::new(
            format!("joint-{}-limit-{}", l.joint, l.limit),
            CheckKind::Limit {
                joint: l.joint,
                limit: l.limit,
                tolerance: limit_tolerance(l.kind),
            },
        ));
    }
    if !facts.no_contact.is_empty() {
        out.push(DynamicsCheck::new(
            "no-contact",
            CheckKind::NoContact {
                pairs: facts.no_contact,
            },
        ));
    }
    for motion in facts.bodies {
        out.push(match motion {
            BodyMotion::KeepsVelocity { node, velocity } => DynamicsCheck::new(
                format!("kinematic-{node}"),
                CheckKind::MeanVelocity {
                    node,
                    expected: [velocity.x, velocity.y, velocity.z],
                    tolerance: tol(1e-4, 1e-2),
                },
            ),
            BodyMotion::FreeFall {
                node,
                gravity_factor,
            } => DynamicsCheck {
                to_step: Some(FALL_STEPS),
                ..DynamicsCheck::new(
                    format!("gravity-{node}"),
                    CheckKind::Acceleration {
                        node,
                        expected: GRAVITY.map(|x| x * gravity_factor),
                        tolerance: tol(1e-3, 1e-2),
                    },
                )
            },
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use reference::khr::{COLLISION_SHAPES, RIGID_BODIES};
    use reference::metrics::holds_at_rest;
    use serde_json::{Value, json};

    use super::*;

    fn reading(gltf: &Value) -> Reading {
        reference::read_bytes(gltf.to_string().as_bytes(), None, None)
    }

    /// The scenario of a reading as written (`null`: none).
    fn scenario_of(r: &Reading) -> Value {
        serde_json::to_value(scenario(expectation(r).as_ref(), Edition::V1)).expect("serialises")
    }

    /// The tolerance classes of a reading as written (`null`: none).
    fn tolerances_of(r: &Reading) -> Value {
        serde_json::to_value(tolerances(expectation(r).as_ref())).expect("serialises")
    }

    /// The names of a written scenario's checks.
    fn check_names(s: &Value) -> Vec<&Value> {
        let checks = s["checks"].as_array().expect("checks");
        checks.iter().map(|c| &c["name"]).collect()
    }

    fn tol_json(recommended: f64, allowed: f64) -> Value {
        json!({"recommended": recommended, "allowed": allowed})
    }

    /// A static ground box (node 0), a free body without colliders (nothing can touch it) with
    /// mass 1 and gravity factor 0.5 (node 1),
    /// a kinematic box moving at 2 m/s along x (node 2), a dynamic box hanging on a hinge at
    /// node 4 to the world with twist limited to [-0.5, 0.5], and a filter that keeps the
    /// hinged box (filtered, system "b") from the ground (system "a", which excludes "b").
    fn scene() -> Value {
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLISION_SHAPES, RIGID_BODIES],
            "extensions": {
                COLLISION_SHAPES: {"shapes": [
                    {"type": "box", "box": {"size": [10, 1, 10]}},
                    {"type": "sphere", "sphere": {"radius": 0.5}}
                ]},
                RIGID_BODIES: {
                    "collisionFilters": [
                        {"collisionSystems": ["a"], "notCollideWithSystems": ["b"]},
                        {"collisionSystems": ["b"]}
                    ],
                    "physicsJoints": [{"limits": [{"angularAxes": [0], "min": -0.5, "max": 0.5}]}]
                }
            },
            "nodes": [
                {"extensions": {RIGID_BODIES: {"collider": {"shape": 0, "collisionFilter": 0}}}},
                {"translation": [20, 10, 0], "extensions": {RIGID_BODIES: {
                    "motion": {"mass": 1, "gravityFactor": 0.5}}}},
                {"translation": [-20, 10, 0], "extensions": {RIGID_BODIES: {
                    "motion": {"isKinematic": true, "linearVelocity": [2, 0, 0]}, "collider": {"shape": 1}}}},
                {"translation": [0, 3, 0], "children": [4], "extensions": {RIGID_BODIES: {
                    "motion": {"mass": 2}, "collider": {"shape": 1, "collisionFilter": 1}}}},
                {"translation": [0, 1, 0], "extensions": {RIGID_BODIES: {
                    "joint": {"connectedNode": 5, "joint": 0}}}},
                {"translation": [0, 4, 0]}
            ],
            "scenes": [{"nodes": [0, 1, 2, 3, 5]}],
            "scene": 0
        })
    }

    #[test]
    fn a_scene_gets_every_invariant_it_supports() {
        let r = reading(&scene());
        assert!(!r.has_errors(), "{:?}", r.issues);
        let s = scenario_of(&r);
        let checks = s["checks"].as_array().expect("checks");
        let by_name = |n: &str| {
            checks
                .iter()
                .find(|c| c["name"] == n)
                .unwrap_or_else(|| panic!("no check {n} in {s}"))
        };
        assert_eq!(by_name("static-still")["nodes"], json!([0]));
        let limit = by_name("joint-4-limit-0");
        assert_eq!(limit["joint"], 4);
        // The hinge frames coincide at rest: the limit holds from the first step.
        assert!(limit.get("from_step").is_none());
        assert_eq!(limit["tolerance"], tol_json(0.0175, 0.035));
        // Ground (0) and the hinged box (3) are filtered apart.
        assert_eq!(by_name("no-contact")["pairs"], json!([[0, 3]]));
        assert_eq!(by_name("kinematic-2")["expected"], json!([2.0, 0.0, 0.0]));
        // The free sphere falls at half gravity: -9.81 * 0.5.
        assert_eq!(by_name("gravity-1")["expected"], json!([0.0, -4.905, 0.0]));
        // The jointed box is not free.
        assert!(checks.iter().all(|c| c["name"] != "gravity-3"));
        assert_eq!(s["steps"], STEPS);
        assert_eq!(tolerances_of(&r)["angle"], tol_json(1e-5, 1e-3));
    }

    #[test]
    fn a_limit_violated_at_rest_is_left_out() {
        let mut g = scene();
        // Frame B turned by 1 rad about x: the twist is outside [-0.5, 0.5] at rest.
        g["nodes"][5]["rotation"] = json!([0.479425538604203, 0.0, 0.0, 0.8775825618903728]);
        let s = scenario_of(&reading(&g));
        let names = check_names(&s);
        assert!(!names.contains(&&json!("joint-4-limit-0")), "{names:?}");
        assert!(names.contains(&&json!("static-still")));
    }

    /// [`scene`] with a ball lock (3D linear, max 0) added to the hinge's joint and the world
    /// frame B (node 5) moved `dy` up from the joint frame A (world (0, 4, 0)): the lock's rest
    /// violation is the distance between the frames, about `dy`.
    fn locked_gltf(dy: f64) -> Value {
        let mut g = scene();
        g["extensions"][RIGID_BODIES]["physicsJoints"][0]["limits"]
            .as_array_mut()
            .expect("limits")
            .push(json!({"linearAxes": [0, 1, 2], "max": 0.0}));
        g["nodes"][5]["translation"] = json!([0.0, 4.0 + dy, 0.0]);
        g
    }

    /// The scenario of [`locked_gltf`] and the lock's rest violation.
    fn locked_scene(dy: f64) -> (Value, f64) {
        let r = reading(&locked_gltf(dy));
        assert!(!r.has_errors(), "{:?}", r.issues);
        let e = expectation(&r).expect("an expectation");
        let violation = e.joints[0].limits[1].violation;
        (scenario_of(&r), violation)
    }

    fn has_check(s: &Value, name: &str) -> bool {
        s["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .any(|c| c["name"] == name)
    }

    #[test]
    fn a_limit_off_at_rest_by_float_noise_keeps_its_check() {
        // 1e-12 m is float noise (4 + 1e-12 is 4.000000000001, 1125 ulps of 4): the old rule
        // `violation != 0.0` dropped the lock's check for it.
        let (s, violation) = locked_scene(1e-12);
        assert!(violation > 0.0 && violation < 2e-12, "{violation}");
        assert!(has_check(&s, "joint-4-limit-1"), "{s}");
        assert!(has_check(&s, "joint-4-limit-0"), "{s}");
        // Exactly on the lock: kept, as before.
        let (s, violation) = locked_scene(0.0);
        assert_eq!(violation, 0.0);
        assert!(has_check(&s, "joint-4-limit-1"), "{s}");
    }

    #[test]
    fn a_limit_off_at_rest_by_more_than_noise_is_left_out() {
        // 1 µm is a violation written to expect.json (rounded to 1e-6): left out, while the
        // hinge's twist limit, inside at rest, keeps its check.
        let (s, violation) = locked_scene(1e-6);
        assert!((violation - 1e-6).abs() < 1e-12, "{violation}");
        assert!(!has_check(&s, "joint-4-limit-1"), "{s}");
        assert!(has_check(&s, "joint-4-limit-0"), "{s}");
        // The boundary: at the tolerance a limit holds, NaN (nothing known) never does.
        use reference::metrics::REST_VIOLATION_NOISE;
        assert!(holds_at_rest(REST_VIOLATION_NOISE) && holds_at_rest(-REST_VIOLATION_NOISE));
        assert!(!holds_at_rest(2.0 * REST_VIOLATION_NOISE) && !holds_at_rest(f64::NAN));
    }

    #[test]
    fn limits_of_a_body_torn_between_anchors_are_left_out() {
        let mut g = scene();
        // A second joint from the hinged box (node 3) to the kinematic box moving at 2 m/s
        // (node 2): the box is pulled between the world and a moving anchor.
        g["nodes"][3]["children"] = json!([4, 6]);
        g["nodes"].as_array_mut().expect("nodes").push(json!({
            "extensions": {RIGID_BODIES: {"joint": {"connectedNode": 2, "joint": 0}}}
        }));
        let r = reading(&g);
        assert!(!r.has_errors(), "{:?}", r.issues);
        let s = scenario_of(&r);
        let names = check_names(&s);
        assert!(
            !names
                .iter()
                .any(|n| n.as_str().is_some_and(|n| n.starts_with("joint-"))),
            "{names:?}"
        );
    }

    #[test]
    fn invalid_and_empty_scenes_have_no_scenario() {
        let mut g = scene();
        g["extensions"][COLLISION_SHAPES]["shapes"][0]["box"]["size"] = json!([-1, 1, 1]);
        let r = reading(&g);
        assert!(r.has_errors());
        assert_eq!(scenario_of(&r), Value::Null);
        assert_eq!(tolerances_of(&r), Value::Null);
        let empty = reading(&json!({"asset": {"version": "2.0"}, "nodes": [{}]}));
        assert_eq!(scenario_of(&empty), Value::Null);
    }
}
