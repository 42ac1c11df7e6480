use serde_json::json;

use super::*;
use crate::implementation::TriggerEvent;
use crate::implementation::TriggerEventKind::{self, Enter, Exit};

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
/// B at (0, 2, 0)), twist about x limited to [-0.5, 0.5]; a linear drive on y toward 0.25 and
/// an angular one about x toward -0.5 (the body turned by +0.5: the twist of q_a* q_b is minus
/// the body's angle).
fn want() -> Expectation {
    let at = |t: [f64; 3]| json!({"translation": t, "rotation": I});
    serde_json::from_value(json!({
        "profile": "khr-2024-draft",
        "joints": [{
            "node": 4,
            "bodies": [0, null],
            "frames": [
                {"node": 4, "body": 0, "body_node": 1, "relative": at([0.0, 1.0, 0.0]), "world": at([0.0, 2.0, 0.0])},
                {"node": 5, "body": null, "body_node": null, "relative": at([0.0, 2.0, 0.0]), "world": at([0.0, 2.0, 0.0])}
            ],
            "coupling": "coupled",
            "decisions": ["D-FRAMES"],
            "enable_collision": false,
            "limits": [{"index": 0, "kind": "angular", "axes": [0], "min": -0.5, "max": 0.5,
                        "damping": 0, "metric": 0, "violation": 0, "overridden": false}],
            "drives": [
                {"kind": "linear", "mode": "force", "axis": 1, "position_target": 0.25, "stiffness": 1, "damping": 1},
                {"kind": "angular", "mode": "acceleration", "axis": 0, "position_target": -0.5, "stiffness": 100, "damping": 20}
            ]
        }]
    }))
    .expect("reads")
}

fn scenario(checks: serde_json::Value) -> Scenario<Action> {
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

/// The body of [`want`] (node 1, at (0, 1, 0)) turned about x by `angle`, at rest.
fn turned(step: u32, dt: f64, angle: f64) -> Observation {
    obs(
        step,
        dt,
        vec![node(1, [0.0, 1.0, 0.0], rot_x(angle), [0.0; 3])],
    )
}

#[test]
fn a_hard_limit_is_measured_from_reported_body_poses_and_rest_frames() {
    let s = scenario(
        json!([{"name": "hinge", "kind": "limit", "joint": 4, "limit": 0,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}, "decisions": ["D-METRICS"]}]),
    );
    // The body turns about x by 0.2, then 0.53, then 0.7 rad. Frame A turns with it, frame B
    // stays: the twist of q_a* q_b about x is minus the body's angle; violations 0, 0.03, 0.2.
    let at = |step, a| turned(step, 0.1, a);
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
    // The check's own decisions and those of the joint it measures.
    assert_eq!(out[0].decisions, vec!["D-FRAMES", "D-METRICS"]);
    let observations = vec![at(0, 0.2), at(1, 0.7)];
    let out = check(&s, Some(&want()), &observations);
    assert_eq!(out[0].status, Status::Fail);
    assert!((out[0].measured.expect("measured") - 0.2).abs() < 1e-9);
}

/// The hinge of [`want`] pushed towards a side: the body's angles over the window; the metric
/// is minus the body's angle.
fn reach(side: &str, expected: f64, angles: &[f64]) -> CheckResult {
    let s = scenario(
        json!([{"name": "reach", "kind": "reach", "joint": 4, "limit": 0, "side": side,
        "expected": expected, "tolerance": {"recommended": 0.005, "allowed": 0.02}}]),
    );
    let o: Vec<Observation> = (0u32..)
        .zip(angles)
        .map(|(step, a)| turned(step, 0.1, *a))
        .collect();
    let mut out = check(&s, Some(&want()), &o);
    assert_eq!(out.len(), 1);
    out.remove(0)
}

#[test]
fn a_reach_check_measures_the_extreme_of_the_metric() {
    // Pushed to the maximum 0.5: the body turns to -0.497 rad (metric 0.497) and settles at
    // -0.49: the largest metric is 0.003 short.
    let r = reach("max", 0.5, &[0.0, -0.3, -0.497, -0.49]);
    assert_eq!(r.status, Status::Pass, "{r:?}");
    assert!(
        (r.measured.expect("measured") + 0.003).abs() < 1e-9,
        "{r:?}"
    );
    assert_eq!(r.check, "dynamics.reach");
    assert!(r.message.contains("largest value"), "{}", r.message);
    // A bound read too tight stops it at 0.45 (0.05 short); too loose lets it on to 0.6.
    let r = reach("max", 0.5, &[0.0, -0.3, -0.45, -0.45]);
    assert_eq!(r.status, Status::Fail, "{r:?}");
    assert!((r.measured.expect("measured") + 0.05).abs() < 1e-9);
    let r = reach("max", 0.5, &[0.0, -0.3, -0.6]);
    assert_eq!(r.status, Status::Fail, "{r:?}");
    assert!((r.measured.expect("measured") - 0.1).abs() < 1e-9);
    // The minimum side takes the smallest metric: the body at +0.51 rad, metric -0.51, is
    // 0.01 past -0.5 (a warning); its largest metric (0) is not what is measured.
    let r = reach("min", -0.5, &[0.0, 0.3, 0.51, 0.5]);
    assert_eq!(r.status, Status::QualityWarning, "{r:?}");
    assert!((r.measured.expect("measured") + 0.01).abs() < 1e-9);
    // An open side: past where a side read as 0 would stop, to -0.8 (the body at +0.8).
    assert!(reach("min", -0.8, &[0.0, 0.4, 0.8]).status.is_pass());
    assert_eq!(reach("min", -0.8, &[0.0, 0.0, 0.0]).status, Status::Fail);
    // A NaN pose is never a pass.
    assert_eq!(reach("max", 0.5, &[-0.5, f64::NAN]).status, Status::Fail);
}

#[test]
fn a_reach_check_on_a_limit_of_several_metrics_is_a_harness_error() {
    let s = scenario(
        json!([{"name": "reach", "kind": "reach", "joint": 4, "limit": 0, "side": "max",
        "expected": 0.5, "tolerance": {"recommended": 0.005, "allowed": 0.02}}]),
    );
    let o = vec![turned(0, 0.1, 0.0)];
    // A per-axis limit on two axes measures two metrics: which one reaches is not said.
    let mut w = want();
    w.joints[0].coupling = Coupling::PerAxis;
    w.joints[0].limits[0].axes = vec![0, 1];
    let out = check(&s, Some(&w), &o);
    assert_eq!(out[0].status, Status::HarnessError, "{:?}", out[0]);
    assert!(
        out[0].message.contains("gives 2 metrics"),
        "{}",
        out[0].message
    );
    // A limit the joint does not have.
    let mut s = s;
    s.checks[0].kind = CheckKind::Reach {
        joint: 4,
        limit: 3,
        side: Side::Max,
        expected: 0.5,
        tolerance: reference::case::Tolerance::new(0.0, 1.0).expect("usable"),
    };
    assert_eq!(check(&s, Some(&want()), &o)[0].status, Status::HarnessError);
}

#[test]
fn a_soft_limit_window_ignores_what_comes_before_it() {
    let s = scenario(
        json!([{"name": "soft", "kind": "limit", "joint": 4, "limit": 0, "from_step": 2,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}}]),
    );
    let at = |step, a| turned(step, 0.1, a);
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
        kind: Enter,
        trigger: 5,
        other: 2,
    }];
    let mut b = obs(2, 0.1, vec![]);
    b.state.trigger_events = vec![TriggerEvent {
        kind: Exit,
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
fn a_limit_that_measures_nothing_or_an_unknown_coupling_is_a_harness_error() {
    let s = scenario(
        json!([{"name": "hinge", "kind": "limit", "joint": 4, "limit": 0,
        "tolerance": {"recommended": 0.01, "allowed": 0.05}}]),
    );
    let o = vec![turned(0, 0.1, 0.0)];
    // Axis 7 does not exist: the metric gives nothing, which must not grade as a pass.
    let mut w = want();
    w.joints[0].limits[0].axes = vec![7];
    let out = check(&s, Some(&w), &o);
    assert_eq!(out[0].status, Status::HarnessError, "{:?}", out[0]);
    // A coupling the case format does not know is not read as "coupled": the case does not
    // read (a HARNESS_ERROR of the case).
    let mut v = serde_json::to_value(want()).expect("serialises");
    v["joints"][0]["coupling"] = json!("coupld");
    assert!(serde_json::from_value::<Expectation>(v).is_err());
    // The same scene with the expected data passes.
    assert!(check(&s, Some(&want()), &o)[0].status.is_pass());
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

// Wrong trajectories fail: each check of the hand-written dynamics scenes against a trajectory
// that ignores the feature it measures (integrated here at 60 Hz with semi-implicit Euler, as
// engines do), next to the right one.

const DT: f64 = 1.0 / 60.0;
const G: f64 = 9.81;

fn tol(r: f64, a: f64) -> serde_json::Value {
    json!({"recommended": r, "allowed": a})
}

fn scenario_60(checks: serde_json::Value, steps: u32) -> Scenario<Action> {
    serde_json::from_value(json!({
        "config": {"gravity": [0, -9.81, 0], "dt": DT, "substeps": 1},
        "steps": steps,
        "checks": checks
    }))
    .expect("reads")
}

/// Observations of node 1 at (x, y) with velocity (vx, vy), one per step.
fn track(points: &[(f64, f64, f64, f64)]) -> Vec<Observation> {
    points
        .iter()
        .enumerate()
        .map(|(i, &(x, y, vx, vy))| obs(i as u32, DT, vec![node(1, [x, y, 0.0], I, [vx, vy, 0.0])]))
        .collect()
}

/// A ball of radius 0.25 released with its centre at 1.25 m above a ground at y = 0, bouncing
/// with restitution `e` (the velocity reflected and scaled when it reaches the ground).
fn bounce(e: f64, steps: u32) -> Vec<Observation> {
    let (mut y, mut v) = (1.25, 0.0);
    let mut out = vec![(0.0, y, 0.0, v)];
    for _ in 0..steps {
        v -= G * DT;
        y += v * DT;
        if y < 0.25 {
            y = 0.25;
            v = -v * e;
        }
        out.push((0.0, y, 0.0, v));
    }
    track(&out)
}

#[test]
fn ignoring_restitution_or_its_combine_mode_fails_the_bounce() {
    // The scene of khr/dynamics/bounce/restitution-average: apex 0.25 + 0.6² * 1 = 0.61.
    let s = scenario_60(
        json!([{"name": "apex", "kind": "max_height", "node": 1, "direction": [0, 1, 0],
            "expected": 0.61, "from_step": 30, "to_step": 60, "tolerance": tol(0.03, 0.08)}]),
        60,
    );
    let status = |e: f64| check(&s, None, &bounce(e, 60))[0].clone();
    let right = status(0.6);
    assert!(right.status.is_pass(), "{right:?}");
    // Restitution ignored (0), the maximum (0.8) or minimum (0.4) of the two materials.
    for e in [0.0, 0.8, 0.4] {
        assert_eq!(status(e).status, Status::Fail, "e = {e}: {:?}", status(e));
    }
}

/// A box launched at 3 m/s along x on level ground with friction `mu`.
fn slide(mu: f64) -> Vec<Observation> {
    let (mut x, mut v) = (0.0, 3.0);
    let mut out = vec![(x, 0.25, v, 0.0)];
    for _ in 0..120 {
        v = (v - mu * G * DT).max(0.0);
        x += v * DT;
        out.push((x, 0.25, v, 0.0));
    }
    track(&out)
}

#[test]
fn ignoring_friction_or_its_combine_mode_fails_the_slide() {
    // khr/dynamics/slide/friction-minimum: 3² / (2 * 0.3 * 9.81) = 1.529 m.
    let s = scenario_60(
        json!([{"name": "slide", "kind": "displacement", "node": 1, "direction": [1, 0, 0],
            "expected": 1.529_051_987, "tolerance": tol(0.05, 0.15)}]),
        120,
    );
    let right = check(&s, None, &slide(0.3));
    assert_eq!(right[0].status, Status::Pass, "{:?}", right[0]);
    // No friction, the average (0.45) or the static value of the dynamic-friction scene (0.9).
    for mu in [0.0, 0.45, 0.9] {
        let out = check(&s, None, &slide(mu));
        assert_eq!(out[0].status, Status::Fail, "mu = {mu}: {:?}", out[0]);
    }
}

/// The body of `want()` turned about x: critically damped toward +0.5 rad with omega 10
/// (`omega`, `zeta` for another reading), or not at all (`None`: no drive).
fn turning(drive: Option<(f64, f64)>) -> Vec<Observation> {
    (0..=120u32)
        .map(|i| {
            let t = f64::from(i) * DT;
            let a = drive.map_or(0.0, |(w, z)| {
                let o = reference::expect::predict::Oscillator { omega: w, zeta: z };
                0.5 * (1.0 - o.step_remaining(t))
            });
            turned(i, DT, a)
        })
        .collect()
}

#[test]
fn an_absent_or_misread_drive_fails() {
    let s = scenario_60(
        json!([{"name": "drive", "kind": "drive", "joint": 4, "drive": 1, "target": -0.5,
            "from_step": 60, "tolerance": tol(0.005, 0.02)}]),
        120,
    );
    let out = check(&s, Some(&want()), &turning(Some((10.0, 1.0))));
    assert_eq!(out[0].status, Status::Pass, "{:?}", out[0]);
    // No drive: the body stays at 0, 0.5 from the target.
    let out = check(&s, Some(&want()), &turning(None));
    assert_eq!(out[0].status, Status::Fail);
    assert!((out[0].measured.expect("m") - 0.5).abs() < 1e-9);
    // The acceleration drive read in force mode on a moment of 25: omega 2, zeta 0.2.
    let out = check(&s, Some(&want()), &turning(Some((2.0, 0.2))));
    assert_eq!(out[0].status, Status::Fail, "{:?}", out[0]);
}

#[test]
fn a_soft_limit_that_never_returns_fails() {
    let s = scenario_60(
        json!([{"name": "soft", "kind": "limit", "joint": 4, "limit": 0, "from_step": 60,
            "tolerance": tol(0.005, 0.02)}]),
        120,
    );
    // Beyond 0.5 rad at 0.7 until 1 s, then back at 0.5 (returns) or stuck at 0.6.
    let run = |after: f64| -> Vec<Observation> {
        (0..=120u32)
            .map(|i| {
                let a = if i < 60 { 0.7 } else { after };
                turned(i, DT, a)
            })
            .collect()
    };
    assert_eq!(check(&s, Some(&want()), &run(0.5))[0].status, Status::Pass);
    let out = check(&s, Some(&want()), &run(0.6));
    assert_eq!(out[0].status, Status::Fail);
    assert!((out[0].measured.expect("m") - 0.1).abs() < 1e-9);
}

/// A ball falling from rest through a trigger (node 5) between steps 43 and 51; `push` is the
/// upward velocity change a pushing trigger gives it on each step of overlap.
fn through_trigger(push: f64, events: &[(u32, TriggerEventKind)]) -> Vec<Observation> {
    let (mut y, mut v) = (3.0, 0.0);
    let mut out = Vec::new();
    for i in 0..=120u32 {
        if i > 0 {
            v -= G * DT;
            if (43..51).contains(&i) {
                v += push;
            }
            y += v * DT;
        }
        let mut o = obs(i, DT, vec![node(2, [0.0, y, 0.0], I, [0.0, v, 0.0])]);
        o.state.trigger_events = events
            .iter()
            .filter(|(at, _)| *at == i)
            .map(|(_, kind)| TriggerEvent {
                kind: *kind,
                trigger: 5,
                other: 2,
            })
            .collect();
        out.push(o);
    }
    out
}

#[test]
fn a_pushing_or_silent_trigger_fails() {
    let s = scenario_60(
        json!([
            {"name": "events", "kind": "trigger_events", "trigger": 5, "other": 2, "enter": true, "exit": true},
            {"name": "free", "kind": "acceleration", "node": 2, "expected": [0, -9.81, 0], "tolerance": tol(1e-3, 1e-2)}
        ]),
        120,
    );
    let st = |push, events: &[(u32, TriggerEventKind)]| -> Vec<Status> {
        check(&s, None, &through_trigger(push, events))
            .iter()
            .map(|r| r.status)
            .collect()
    };
    let good = [(43, Enter), (51, Exit)];
    assert_eq!(st(0.0, &good), vec![Status::Pass, Status::Pass]);
    // A trigger that pushes: 0.5 m/s per step of overlap changes the mean acceleration over
    // 2 s by 8 * 0.5 / 2 = 2 m/s².
    assert_eq!(st(0.5, &good), vec![Status::Pass, Status::Fail]);
    // No exit, no events, or an exit before any enter.
    assert_eq!(st(0.0, &[(43, Enter)])[0], Status::Fail);
    assert_eq!(st(0.0, &[])[0], Status::Fail);
    assert_eq!(st(0.0, &[(43, Exit), (51, Enter)])[0], Status::Fail);
    // Enter and exit reported in one observation, in order: a fast crossing passes.
    assert_eq!(st(0.0, &[(43, Enter), (43, Exit)])[0], Status::Pass);
}
