use serde_json::json;

use super::*;
use crate::implementation::TriggerEvent;

const I: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

fn node(node: usize, t: [f64; 3], q: [f64; 4], v: [f64; 3]) -> NodeState {
    NodeState {
        node,
        translation: t,
        rotation: q,
        linear_velocity: v,
        angular_velocity: [0.0; 3],
    }
}

fn obs(step: u32, dt: f64, nodes: Vec<NodeState>) -> Observation {
    Observation {
        step,
        state: State {
            time: f64::from(step) * dt,
            nodes,
            contacts: vec![],
            trigger_events: vec![],
        },
    }
}

/// A hinge at node 4 between the body at node 1 (frame A 1 m above it) and the world (frame
/// B at (0, 2, 0)), twist about x limited to [-0.5, 0.5]; a linear drive on y toward 0.25.
fn want() -> ExpectedInterpretation {
    serde_json::from_value(json!({
        "joints": [{
            "node": 4,
            "frames": [
                {"node": 4, "body_node": 1, "relative": {"translation": [0, 1, 0], "rotation": I}},
                {"node": 5, "body_node": null, "relative": {"translation": [0, 2, 0], "rotation": I}}
            ],
            "coupling": "coupled",
            "limits": [{"kind": "angular", "axes": [0], "min": -0.5, "max": 0.5}],
            "drives": [{"kind": "linear", "mode": "force", "axis": 1, "position_target": 0.25, "stiffness": 1, "damping": 1}]
        }]
    }))
    .expect("reads")
}

fn scenario(checks: serde_json::Value) -> Scenario {
    serde_json::from_value(json!({
        "config": {"gravity": [0, -10, 0], "dt": 0.1, "substeps": 1},
        "steps": 3,
        "checks": checks
    }))
    .expect("reads")
}

fn rot_x(angle: f64) -> [f64; 4] {
    [(angle / 2.0).sin(), 0.0, 0.0, (angle / 2.0).cos()]
}

#[test]
fn a_hard_limit_is_measured_from_reported_body_poses_and_rest_frames() {
    let s = scenario(
        json!([{"name": "hinge", "kind": "limit", "joint": 4, "limit": 0,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}, "decisions": ["D-METRICS"]}]),
    );
    // The body turns about x by 0.2, then 0.53, then 0.7 rad. Frame A turns with it, frame B
    // stays: the twist of q_a* q_b about x is minus the body's angle; violations 0, 0.03, 0.2.
    let at = |step, a: f64| {
        obs(
            step,
            0.1,
            vec![node(1, [0.0, 1.0, 0.0], rot_x(a), [0.0; 3])],
        )
    };
    let observations = vec![at(0, 0.2), at(1, 0.53), at(2, 0.2)];
    let out = check(&s, Some(&want()), &observations);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].check, "dynamics.hinge");
    assert_eq!(out[0].status, Status::QualityWarning);
    assert!(
        (out[0].measured.expect("measured") - 0.03).abs() < 1e-9,
        "{:?}",
        out[0]
    );
    assert_eq!(out[0].decisions, vec!["D-METRICS"]);
    let observations = vec![at(0, 0.2), at(1, 0.7)];
    let out = check(&s, Some(&want()), &observations);
    assert_eq!(out[0].status, Status::Fail);
    assert!((out[0].measured.expect("measured") - 0.2).abs() < 1e-9);
}

#[test]
fn a_soft_limit_window_ignores_what_comes_before_it() {
    let s = scenario(
        json!([{"name": "soft", "kind": "limit", "joint": 4, "limit": 0, "from_step": 2,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}}]),
    );
    let at = |step, a: f64| {
        obs(
            step,
            0.1,
            vec![node(1, [0.0, 1.0, 0.0], rot_x(a), [0.0; 3])],
        )
    };
    let out = check(
        &s,
        Some(&want()),
        &[at(0, 0.0), at(1, 0.9), at(2, 0.5), at(3, 0.45)],
    );
    assert_eq!(out[0].status, Status::Pass, "{:?}", out[0]);
}

#[test]
fn a_drive_is_measured_on_its_axis() {
    let s = scenario(
        json!([{"name": "drive", "kind": "drive", "joint": 4, "drive": 0, "target": 0.25,
        "from_step": 1, "tolerance": {"recommended": 0.01, "allowed": 0.05}}]),
    );
    // Frame A at body + (0, 1, 0); frame B at (0, 2, 0). Body at y = 1.25: frame A at 2.25,
    // e_y · (t_b - t_a) = -0.25: 0.5 away from the target 0.25.
    let at = |step, y| obs(step, 0.1, vec![node(1, [0.0, y, 0.0], I, [0.0; 3])]);
    let out = check(&s, Some(&want()), &[at(0, 0.0), at(1, 0.75), at(2, 0.78)]);
    assert_eq!(out[0].status, Status::QualityWarning, "{:?}", out[0]);
    assert!((out[0].measured.expect("m") - 0.03).abs() < 1e-9);
    let out = check(&s, Some(&want()), &[at(0, 0.0), at(1, 1.25)]);
    assert_eq!(out[0].status, Status::Fail);
    assert!((out[0].measured.expect("m") - 0.5).abs() < 1e-9);
}

#[test]
fn still_velocity_acceleration_height_displacement() {
    let t = |r, a| json!({"recommended": r, "allowed": a});
    let s = scenario(json!([
        {"name": "ground", "kind": "still", "nodes": [0], "length": t(1e-6, 1e-3), "angle": t(1e-6, 1e-3)},
        {"name": "kinematic", "kind": "mean_velocity", "node": 2, "expected": [1, 0, 0], "tolerance": t(0.01, 0.1)},
        {"name": "gravity", "kind": "acceleration", "node": 1, "expected": [0, -10, 0], "tolerance": t(0.01, 0.1)},
        {"name": "bounce", "kind": "max_height", "node": 1, "direction": [0, 2, 0], "expected": 1.0, "from_step": 1, "tolerance": t(0.01, 0.1)},
        {"name": "slide", "kind": "displacement", "node": 2, "direction": [1, 0, 0], "expected": 0.2, "tolerance": t(0.01, 0.1)}
    ]));
    // dt 0.1. Ground fixed; kinematic body at x = 0, 0.1, 0.2 (1 m/s); falling body with
    // v_y = 0, -1, -2 (-10 m/s²), heights 2, 0.95, 0.5 (max after step 1: 0.95, 0.05 low).
    let o = |step: u32, x: f64, v: f64, y: f64| {
        obs(
            step,
            0.1,
            vec![
                node(0, [0.0; 3], I, [0.0; 3]),
                node(1, [0.0, y, 0.0], I, [0.0, v, 0.0]),
                node(2, [x, 0.0, 0.0], I, [1.0, 0.0, 0.0]),
            ],
        )
    };
    let out = check(
        &s,
        None,
        &[
            o(0, 0.0, 0.0, 2.0),
            o(1, 0.1, -1.0, 0.95),
            o(2, 0.2, -2.0, 0.5),
        ],
    );
    let st: Vec<(&str, Status)> = out.iter().map(|r| (r.check.as_str(), r.status)).collect();
    assert_eq!(
        st,
        vec![
            ("dynamics.ground.translation", Status::Pass),
            ("dynamics.ground.rotation", Status::Pass),
            ("dynamics.kinematic", Status::Pass),
            ("dynamics.gravity", Status::Pass),
            ("dynamics.bounce", Status::QualityWarning),
            ("dynamics.slide", Status::Pass),
        ]
    );
    assert!((out[4].measured.expect("m") + 0.05).abs() < 1e-9);
    // The ground moving 1 cm fails.
    let mut moved = o(2, 0.2, -2.0, 0.5);
    moved.state.nodes[0].translation = [0.0, 0.01, 0.0];
    let out = check(&s, None, &[o(0, 0.0, 0.0, 2.0), moved]);
    assert_eq!(out[0].status, Status::Fail);
}

#[test]
fn contacts_and_trigger_events() {
    let s = scenario(json!([
        {"name": "filtered", "kind": "no_contact", "pairs": [[3, 2]]},
        {"name": "trigger", "kind": "trigger_events", "trigger": 5, "other": 2, "enter": true, "exit": true}
    ]));
    let mut a = obs(1, 0.1, vec![]);
    a.state.contacts = vec![[0, 2]];
    a.state.trigger_events = vec![TriggerEvent {
        kind: "enter".into(),
        trigger: 5,
        other: 2,
    }];
    let mut b = obs(2, 0.1, vec![]);
    b.state.trigger_events = vec![TriggerEvent {
        kind: "exit".into(),
        trigger: 5,
        other: 2,
    }];
    let out = check(&s, None, &[a.clone(), b.clone()]);
    assert!(out.iter().all(|r| r.status == Status::Pass), "{out:?}");
    a.state.contacts.push([2, 3]);
    b.state.trigger_events.clear();
    let out = check(&s, None, &[a, b]);
    assert_eq!(out[0].status, Status::Fail);
    assert_eq!(out[0].measured, Some(1.0));
    assert_eq!(out[1].status, Status::Fail);
}

#[test]
fn missing_nodes_fail_and_bad_data_is_a_harness_error() {
    let t = json!({"recommended": 0.01, "allowed": 0.1});
    let s = scenario(json!([
        {"name": "a", "kind": "mean_velocity", "node": 9, "expected": [0, 0, 0], "tolerance": t},
        {"name": "b", "kind": "limit", "joint": 99, "limit": 0, "tolerance": t},
        {"name": "c", "kind": "limit", "joint": 4, "limit": 3, "tolerance": t},
        {"name": "d", "kind": "mean_velocity", "node": 1, "expected": [0, 0, 0], "from_step": 50, "tolerance": t}
    ]));
    let o = |step| obs(step, 0.1, vec![node(1, [0.0; 3], I, [0.0; 3])]);
    let out = check(&s, Some(&want()), &[o(0), o(1)]);
    let st: Vec<Status> = out.iter().map(|r| r.status).collect();
    assert_eq!(
        st,
        vec![
            Status::Fail,
            Status::HarnessError,
            Status::HarnessError,
            Status::HarnessError
        ]
    );
}

#[test]
fn nan_poses_fail() {
    let s = scenario(
        json!([{"name": "hinge", "kind": "limit", "joint": 4, "limit": 0,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}}]),
    );
    let out = check(
        &s,
        Some(&want()),
        &[obs(
            0,
            0.1,
            vec![node(1, [f64::NAN, 0.0, 0.0], [0.0; 4], [0.0; 3])],
        )],
    );
    assert_eq!(out[0].status, Status::Fail, "{:?}", out[0]);
}
