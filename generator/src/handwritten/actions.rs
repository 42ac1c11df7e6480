//! Hand-written scenes of the current physics profiles (`khr-2025`, `omi-2024`, `omi-2025`)
//! whose scenario acts on them and measures the effect, one scene per profile each:
//! - a kinematic body moved by a `kinematic_pose` action reaches the pose (an importer that
//!   ignores the action leaves it where it was);
//! - an impulse on a free body gives it the velocity `J / m` (applied as a force for one step
//!   it would give `J dt / m`, 60 times less);
//! - a ball falling through one member of a compound trigger is reported on the compound
//!   trigger's node, entering and leaving (not on the member node).
//!
//! The three profiles write the same scene: KHR with `KHR_implicit_shapes` and a `geometry`,
//! OMI with `OMI_physics_shape` and a `shape` (omi-2024 dated by an unused cylinder with a
//! `radius`).

use reference::expect::Expectation;
use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::{scenario, tol};
use crate::case::{Case, Tier};
use crate::scenario::{GRAVITY, STEPS};
use crate::scene_spelling::{
    PROFILES, cuboid, document, document_tags, motion, node, shape_ref, spec, sphere,
};

pub fn cases() -> Vec<Case> {
    PROFILES
        .into_iter()
        .flat_map(|p| [kinematic_pose(p), impulse(p), compound_trigger(p)])
        .collect()
}

/// A body node at `translation` with its collider on a child node (node `index + 1`).
fn body(
    p: Profile,
    index: usize,
    name: &str,
    translation: [f64; 3],
    mass: Option<f64>,
) -> [Value; 2] {
    let mut b = node(p, name, translation, json!({"motion": motion(p, mass)}));
    b["children"] = json!([index + 1]);
    let shape = node(
        p,
        &format!("{name}Shape"),
        [0.0; 3],
        json!({"collider": shape_ref(p, 0)}),
    );
    [b, shape]
}

fn base_features(p: Profile) -> Vec<&'static str> {
    let mut f = vec!["shape.sphere.explicit", "collider.child"];
    f.extend_from_slice(document_tags(p));
    f
}

/// The generic checks of the scene but those that name `node` (what the action changes).
fn generic_checks_but(e: &Expectation, node: usize) -> Vec<Value> {
    super::common::generic_checks(e)
        .into_iter()
        .filter(|c| c.get("node").and_then(Value::as_u64) != Some(node as u64))
        .collect()
}

/// A scenario case of profile `p`: the reference reads `gltf`, `build` writes the scenario.
fn action_case(
    p: Profile,
    name: &str,
    description: &str,
    features: &[&str],
    gltf: Value,
    build: impl FnOnce(&Expectation) -> Value,
) -> Case {
    let mut all = base_features(p);
    all.extend_from_slice(features);
    super::common::dynamics_case(
        &format!("{}/dynamics/{name}", p.family()),
        p,
        description,
        &spec(p, "Motion, Triggers", "OMI_physics_body Motion, Trigger"),
        Tier::Required,
        &all,
        &[],
        gltf,
        |e| Some(build(e)),
    )
}

/// Where the kinematic body is moved to, from the origin.
const TARGET: [f64; 3] = [1.5, 0.0, 0.0];
/// Steps over which the move is measured: it takes one step, the body then rests there.
const MOVE_STEPS: u32 = 30;
/// A pose reached exactly but for float rounding; ignored, it is 1.5 m off.
const MOVE_TOL: (f64, f64) = (1e-4, 1e-3);

/// A kinematic body at the origin moved to (1.5, 0, 0) by a `kinematic_pose` action before the
/// first step: over the first 30 steps it moves 1.5 m along x.
fn kinematic_pose(p: Profile) -> Case {
    let gltf = document(
        p,
        vec![sphere(0.25)],
        body(p, 0, "Mover", [0.0; 3], None).to_vec(),
        None,
    );
    action_case(
        p,
        "action/kinematic-pose",
        "A kinematic body at the origin is moved to (1.5, 0, 0) by a kinematic_pose action before the first step: over the first 30 steps it moves 1.5 m along x (an importer that ignores the action leaves it at the origin).",
        &["body.kinematic", "body.kinematic.pose-action"],
        gltf,
        |e| {
            let mut checks = generic_checks_but(e, 0);
            checks.push(json!({
                "name": "kinematic-pose-reached", "kind": "displacement", "node": 0,
                "direction": [1.0, 0.0, 0.0], "expected": TARGET[0], "to_step": MOVE_STEPS,
                "tolerance": tol(MOVE_TOL.0, MOVE_TOL.1),
            }));
            scenario(
                GRAVITY,
                STEPS,
                json!([{"step": 0, "action": "kinematic_pose", "node": 0,
                    "translation": TARGET, "rotation": [0.0, 0.0, 0.0, 1.0]}]),
                checks,
            )
        },
    )
}

/// The free body's mass (kg) and the impulse along x (N s): it moves at J / m = 1.5 m/s.
const MASS: f64 = 2.0;
const IMPULSE: f64 = 3.0;
/// The velocity after an impulse is exact in any integrator (no gravity, no contact):
/// 1 mm/s recommended, 1 cm/s allowed. Applied as a force for one 60 Hz step it would be
/// 0.025 m/s; read with mass 1 kg, 3 m/s.
const VELOCITY_TOL: (f64, f64) = (1e-3, 1e-2);

/// A 2 kg ball at rest without gravity takes an impulse of 3 N s along x before the first
/// step: from the first step on it moves at 1.5 m/s.
fn impulse(p: Profile) -> Case {
    let gltf = document(
        p,
        vec![sphere(0.25)],
        body(p, 0, "Ball", [0.0; 3], Some(MASS)).to_vec(),
        None,
    );
    action_case(
        p,
        "action/impulse",
        "A 2 kg ball at rest, without gravity, takes an impulse of 3 N s along x at its centre of mass before the first step: from then on it moves at 1.5 m/s along x (an impulse applied as a force for one step would give 0.025 m/s).",
        &[
            "body.dynamic",
            "body.mass.explicit",
            "body.dynamic.impulse-action",
        ],
        gltf,
        |e| {
            let mut checks = generic_checks_but(e, 0);
            checks.push(json!({
                "name": "impulse-velocity", "kind": "mean_velocity", "node": 0,
                "expected": [IMPULSE / MASS, 0.0, 0.0], "from_step": 1,
                "tolerance": tol(VELOCITY_TOL.0, VELOCITY_TOL.1),
            }));
            scenario(
                [0.0; 3],
                STEPS,
                json!([{"step": 0, "action": "impulse", "node": 0,
                    "impulse": [IMPULSE, 0.0, 0.0]}]),
                checks,
            )
        },
    )
}

/// A static compound trigger (node 0) of two 1 x 0.5 x 1 m boxes at x = -0.6 and x = +0.6; a
/// ball released 3 m up over the +0.6 one falls through it: the compound trigger reports the
/// ball entering and leaving, and the ball falls freely.
fn compound_trigger(p: Profile) -> Case {
    let mut gate = node(p, "Gate", [0.0; 3], json!({"trigger": {"nodes": [1, 2]}}));
    gate["children"] = json!([1, 2]);
    let member =
        |name: &str, x: f64| node(p, name, [x, 0.0, 0.0], json!({"trigger": shape_ref(p, 1)}));
    let [ball, ball_shape] = body(p, 3, "Ball", [0.6, 3.0, 0.0], Some(1.0));
    let gltf = document(
        p,
        vec![sphere(0.25), cuboid([1.0, 0.5, 1.0])],
        vec![
            gate,
            member("Left", -0.6),
            member("Right", 0.6),
            ball,
            ball_shape,
        ],
        None,
    );
    action_case(
        p,
        "trigger/compound-events",
        "A static compound trigger (node 0) made of two 1 x 0.5 x 1 m trigger boxes at x = -0.6 and +0.6 (nodes 1 and 2); a 0.25 m ball released 3 m up over the right one falls through it: the compound trigger's node reports the ball entering and leaving (not the member node), and the ball falls freely.",
        &[
            "trigger.compound",
            "trigger.compound.events",
            "shape.box.explicit",
            "body.dynamic",
            "body.mass.explicit",
        ],
        gltf,
        |e| {
            let mut checks = super::common::generic_checks(e);
            checks.push(json!({
                "name": "compound-trigger-enter-exit", "kind": "trigger_events", "trigger": 0,
                "other": 4, "enter": true, "exit": true,
            }));
            scenario(GRAVITY, STEPS, json!([]), checks)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_reads_cleanly_under_its_profile_and_has_its_scenario() {
        let cases = cases();
        assert_eq!(cases.len(), 9);
        for c in &cases {
            crate::label::clean_reading(c);
            assert!(c.scenario.is_some(), "{}: no scenario", c.id);
        }
    }

    #[test]
    fn the_compound_trigger_has_both_members_and_the_ball_its_collider() {
        for c in cases().iter().filter(|c| c.id.ends_with("compound-events")) {
            let crate::case::Payload::Json(json) = &c.payload else {
                panic!("not JSON");
            };
            let e = crate::scenario::expectation(&reference::read_tree(json, None, None))
                .expect("an expectation");
            assert_eq!(e.compound_triggers.len(), 1, "{}", c.id);
            assert_eq!(e.compound_triggers[0].node, 0);
            assert_eq!(e.compound_triggers[0].members, vec![1, 2]);
            assert!(e.colliders.iter().any(|k| k.node == 4 && !k.trigger));
            assert_eq!(e.body(3).map(|b| b.gravity_factor), Some(1.0));
        }
    }
}
