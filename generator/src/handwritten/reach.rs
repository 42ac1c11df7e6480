//! Hand-written limit and drive scenes of the current physics profiles in which the body is
//! pushed to each bound and the check is that it gets there, not only that it stays inside: a
//! limit read too tight (angles taken as degrees, an open side read as 0) fails as surely as
//! one read too loose. Without gravity, impulses at the body's centre of mass move it; with
//! gravity, a drive too weak for its load gives way. The numbers are worked by hand:
//!
//! The joint is on the ball and its connected frame on the world, so every limit measures the
//! ball's motion mirrored (the world's frame relative to the ball's).
//!
//! - Hinge: a 1 kg ball (radius 0.2, `I = 0.016` about its centre) on a 1 m arm about the
//!   z axis through the origin (the joint's frames; linear axes and angular x, y locked), so
//!   about the hinge `I = 0.016 + 1 * 1^2 = 1.016`. An impulse `J` at the ball, along the
//!   tangent, turns it at `J * 1 / 1.016` rad/s: 1.016 N s gives 1 rad/s, 2.032 N s 2 rad/s.
//!   Its height is `sin(angle)`: at -0.9 rad -0.783327, at 0.6 rad 0.564642.
//! - Slider: a 1 kg ball on x (everything else locked): an impulse of `J` N s gives `J` m/s.
//! - Drive: a 1 kg ball on a vertical slider above a limit at -0.5 m, held at 0 by a
//!   position drive (stiffness 400, damping 40) whose `maxForce` (4.9 N) is half its weight
//!   (9.81 N): it sinks to the floor limit. Unlimited, the drive would hold it at
//!   `-9.81 / 400 = -0.0245` m.

use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::{scenario, tol};
use crate::case::{Case, Tier};
use crate::scenario::GRAVITY;
use crate::scene_spelling::{
    PROFILES, document, document_tags, joint_node, node, shape_ref, spec, sphere, world_frame,
    world_frame_tags,
};

pub fn cases() -> Vec<Case> {
    PROFILES
        .into_iter()
        .flat_map(|p| {
            [
                hinge(p, Some(HINGE_MIN)),
                hinge(p, None),
                fast_swing(p),
                slider_open_min(p),
                drive_gives_way(p),
            ]
        })
        .collect()
}

/// The hinge's bounds, rad.
const HINGE_MAX: f64 = 0.9;
const HINGE_MIN: f64 = -0.6;
/// Moment of inertia of the ball about its centre (kg m^2) and about the hinge.
const BALL_INERTIA: f64 = 0.016;
const HINGE_INERTIA: f64 = BALL_INERTIA + 1.0;
/// A bound is reached within the solver's slop: a hard limit row stops the arm within a few
/// µrad (Rapier and PhysX: under 1e-5 m of height), so 3 mm recommended and 5 mm allowed,
/// which a bound read 1% off misses (0.9 rad for 0.891: 5.6 mm of height; 0.5 m for 0.495:
/// 5 mm). Angles read as degrees stop the arm at 0.0157 rad (height 0.0157, 0.77 m off).
const REACH_TOL: (f64, f64) = (0.003, 0.005);
/// Free travel past where an open side read as 0 would stop: the arm keeps its speed but for
/// what the engine's solver takes (PhysX's, which projects the velocity onto the joint each
/// step, loses 15 mm of the hinge's 0.56 m), so 2 cm recommended and 5 cm allowed; a side read
/// as 0 stops it 0.3 m or more off.
const TRAVEL_TOL: (f64, f64) = (0.02, 0.05);
/// Steps of the push to the first bound (1.5 s: it arrives at 0.9 s and rests), of the push
/// back to a closed minimum (1 s at 2 rad/s: it arrives after 0.75 s and rests), and of the
/// free travel past an open one (0.75 s at 2 rad/s: 1.5 rad, from 0.9 to -0.6 exactly).
const FIRST: u32 = 90;
const BACK: u32 = 60;
const TRAVEL: u32 = 45;

/// The ball's motion: 1 kg, explicit inertia and centre of mass (nothing left to the engine).
fn ball_motion(p: Profile) -> Value {
    let d = [BALL_INERTIA; 3];
    if p.is_khr() {
        json!({"mass": 1.0, "inertiaDiagonal": d, "centerOfMass": [0.0, 0.0, 0.0]})
    } else {
        json!({"type": "dynamic", "mass": 1.0, "inertiaDiagonal": d, "centerOfMass": [0.0, 0.0, 0.0]})
    }
}

/// Node 0 the ball at `at`, with the joint on node 1 (frame A, a child of the ball at the
/// origin) and its collider on node 2; node 3 frame B at the origin, on the world
/// ([`world_frame`]). The limits
/// measure frame B relative to frame A, so they bound the ball's motion mirrored: a metric
/// of +0.9 rad is the ball turned by -0.9 rad.
fn jointed_ball(p: Profile, at: [f64; 3], joint: Value) -> Value {
    let mut ball = node(p, "Ball", at, json!({"motion": ball_motion(p)}));
    ball["children"] = json!([1, 2]);
    let shape = node(
        p,
        "BallShape",
        [0.0; 3],
        json!({"collider": shape_ref(p, 0)}),
    );
    document(
        p,
        vec![sphere(0.2)],
        vec![
            ball,
            joint_node(p, "Joint", at.map(|x| -x), 3),
            shape,
            world_frame(p),
        ],
        Some(joint),
    )
}

/// A check that the ball's highest position along `direction` over steps `from..=to` is
/// `expected`, within `tolerance`.
fn reach(
    name: &str,
    direction: [f64; 3],
    expected: f64,
    (from, to): (u32, u32),
    tolerance: (f64, f64),
) -> Value {
    json!({
        "name": name, "kind": "max_height", "node": 0, "direction": direction,
        "expected": expected, "from_step": from, "to_step": to,
        "tolerance": tol(tolerance.0, tolerance.1),
    })
}

fn impulse(step: u32, j: [f64; 3]) -> Value {
    json!({"step": step, "action": "impulse", "node": 0, "impulse": j})
}

/// A reach case of profile `p` with the generic checks of the scene plus `checks`.
#[allow(clippy::too_many_arguments)]
fn reach_case(
    p: Profile,
    name: &str,
    description: &str,
    features: &[&str],
    gltf: Value,
    gravity: [f64; 3],
    steps: u32,
    actions: Value,
    checks: Vec<Value>,
) -> Case {
    let mut tags = crate::reach::BALL_TAGS.to_vec();
    tags.extend_from_slice(document_tags(p));
    tags.extend_from_slice(world_frame_tags(p));
    tags.extend_from_slice(features);
    super::common::dynamics_case(
        &format!("{}/dynamics/reach/{name}", p.family()),
        p,
        description,
        &spec(
            p,
            "Joints (limits, drives)",
            "OMI_physics_joint Joint Limits and Drives",
        ),
        Tier::Required,
        &tags,
        &[],
        gltf,
        |e| {
            let mut all = super::common::generic_checks(e);
            all.extend(checks);
            Some(scenario(gravity, steps, actions, all))
        },
    )
}

/// The hinge of the module doc, pushed to its maximum (1 rad/s) and then, from there, to its
/// minimum (2 rad/s), or with no minimum (`min` `None`) as far as -0.6 rad, where a minimum
/// read as 0 would have stopped it at 0.
fn hinge(p: Profile, min: Option<f64>) -> Case {
    let mut range = json!({"angularAxes": [2], "max": HINGE_MAX});
    if let Some(m) = min {
        range["min"] = json!(m);
    }
    let joint = json!({"limits": [
        {"linearAxes": [0, 1, 2], "max": 0.0},
        {"angularAxes": [0, 1], "max": 0.0},
        range
    ]});
    let gltf = jointed_ball(p, [1.0, 0.0, 0.0], joint);
    // The metric is the ball's angle negated: its maximum is the ball at -0.9 rad, reached
    // with a push along -y; from there the push back is along the tangent of increasing
    // angle at -0.9 rad, (-sin(-0.9), cos(-0.9)) = (sin 0.9, cos 0.9).
    let back = [HINGE_MAX.sin(), HINGE_MAX.cos(), 0.0].map(|x| x * 2.0 * HINGE_INERTIA);
    let (name, side, what, second, tolerance) = match min {
        Some(_) => (
            "hinge-both-bounds",
            "joint.limit.range",
            "and then to its minimum -0.6 rad (the ball at +0.6 rad, height 0.564642), where it rests",
            BACK,
            REACH_TOL,
        ),
        None => (
            "hinge-open-min",
            "joint.limit.open-min",
            "and then, its minimum absent, on through 0 to -0.6 rad at 2 rad/s in 0.75 s (the ball at +0.6 rad, height 0.564642; a minimum read as 0 would stop it at 0)",
            TRAVEL,
            TRAVEL_TOL,
        ),
    };
    reach_case(
        p,
        name,
        &format!(
            "A 1 kg ball on a 1 m arm hinged about z at the origin (the joint on the ball, its connected frame on the world: angular limit on z, max 0.9 rad, measured as the world's frame relative to the ball's, so the ball's angle negated; everything else locked), without gravity: an impulse along the tangent turns it at 1 rad/s to the limit's maximum 0.9 rad (the ball at -0.9 rad, height -0.783327) {what}."
        ),
        &[
            "joint.limit.linear.3",
            "joint.limit.angular.2",
            "joint.limit.angular.1",
            "joint.limit.fixed",
            side,
            "body.dynamic.impulse-action",
        ],
        gltf,
        [0.0; 3],
        FIRST + second,
        json!([impulse(0, [0.0, -HINGE_INERTIA, 0.0]), impulse(FIRST, back)]),
        vec![
            reach(
                "reach-max",
                [0.0, -1.0, 0.0],
                HINGE_MAX.sin(),
                (0, FIRST),
                REACH_TOL,
            ),
            reach(
                "reach-min",
                [0.0, 1.0, 0.0],
                -HINGE_MIN.sin(),
                (FIRST, FIRST + second),
                tolerance,
            ),
        ],
    )
}

/// The fast swing's speed back from the maximum, rad/s, and where it gets in [`TRAVEL`] steps.
const FAST: f64 = 3.5;
const FAST_END: f64 = HINGE_MAX - FAST * TRAVEL as f64 / 60.0;

/// The hinge of the module doc with no minimum, pushed to its maximum and then back at
/// 3.5 rad/s for 0.75 s: 2.625 rad, through 0 to -1.725 rad, measured on the limit's own
/// metric (past 90 degrees a height no longer tells how far the arm went). A frictionless hinge
/// keeps its speed; a solver that projects the velocity onto the joint each step loses about
/// `(w dt)^2 / 2` of it a step (0.17% at 3.5 rad/s and 60 Hz) and ends about 0.1 rad short,
/// where the hinge at 2 rad/s loses only 15 mm.
fn fast_swing(p: Profile) -> Case {
    let joint = json!({"limits": [
        {"linearAxes": [0, 1, 2], "max": 0.0},
        {"angularAxes": [0, 1], "max": 0.0},
        {"angularAxes": [2], "max": HINGE_MAX}
    ]});
    let gltf = jointed_ball(p, [1.0, 0.0, 0.0], joint);
    let back = [HINGE_MAX.sin(), HINGE_MAX.cos(), 0.0].map(|x| x * FAST * HINGE_INERTIA);
    let metric = |name: &str, side: &str, expected: f64, (from, to): (u32, u32), t: (f64, f64)| {
        json!({"name": name, "kind": "reach", "joint": 1, "limit": 2, "side": side,
            "expected": expected, "from_step": from, "to_step": to, "tolerance": tol(t.0, t.1)})
    };
    reach_case(
        p,
        "hinge-fast-swing",
        &format!(
            "A 1 kg ball on a 1 m arm hinged about z at the origin (the joint on the ball, its connected frame on the world: angular limit on z, max 0.9 rad, no minimum, measured as the world's frame relative to the ball's; everything else locked), without gravity: an impulse along the tangent turns it at 1 rad/s to the maximum 0.9 rad; at step {FIRST} one of 3.556 N s (3.5 rad/s about the hinge, I = 1.016 kg m^2) swings it back through 0 to {FAST_END} rad after {TRAVEL} steps (2.625 rad at constant speed: a frictionless hinge keeps its speed; a minimum read as 0 would stop it at 0)."
        ),
        &[
            "joint.limit.linear.3",
            "joint.limit.angular.2",
            "joint.limit.angular.1",
            "joint.limit.fixed",
            "joint.limit.open-min",
            "body.dynamic.impulse-action",
        ],
        gltf,
        [0.0; 3],
        FIRST + TRAVEL,
        json!([impulse(0, [0.0, -HINGE_INERTIA, 0.0]), impulse(FIRST, back)]),
        vec![
            metric("reach-max", "max", HINGE_MAX, (0, FIRST), REACH_TOL),
            metric(
                "reach-min",
                "min",
                FAST_END,
                (FIRST, FIRST + TRAVEL),
                TRAVEL_TOL,
            ),
        ],
    )
}

/// The tags of a one-axis slider whose limit has no minimum, everything else locked.
const SLIDER_TAGS: &[&str] = &[
    "joint.limit.linear.1",
    "joint.limit.linear.2",
    "joint.limit.angular.2",
    "joint.limit.angular.1",
    "joint.limit.fixed",
    "joint.limit.open-min",
];

/// The slider's maximum, m.
const SLIDER_MAX: f64 = 0.5;

/// The slider of the module doc with a maximum of 0.5 m and no minimum (the metric is the
/// ball's x negated): 1 m/s to the maximum (the ball at -0.5 m), then 2 m/s back for 24 steps
/// (0.4 s): 0.8 m, through 0 to a metric of -0.3 m (the ball at +0.3 m), where a minimum read
/// as 0 would have stopped it at 0.
fn slider_open_min(p: Profile) -> Case {
    let joint = json!({"limits": [
        {"linearAxes": [0], "max": SLIDER_MAX},
        {"linearAxes": [1, 2], "max": 0.0},
        {"angularAxes": [0, 1], "max": 0.0},
        {"angularAxes": [2], "min": 0.0, "max": 0.0}
    ]});
    let gltf = jointed_ball(p, [0.0; 3], joint);
    let back = 24;
    reach_case(
        p,
        "slider-open-min",
        "A 1 kg ball on a slider along x (the joint on the ball, its connected frame on the world: linear limit on x, max 0.5 m, no minimum, measured as the ball's x negated; everything else locked), without gravity: an impulse of -1 N s takes it to the limit's maximum (the ball at x = -0.5 m); at step 60 one of 2 N s takes it back at 2 m/s through 0 to x = +0.3 m after 24 steps (a minimum read as 0 would stop it at 0).",
        &[SLIDER_TAGS, &["body.dynamic.impulse-action"]].concat(),
        gltf,
        [0.0; 3],
        60 + back,
        json!([impulse(0, [-1.0, 0.0, 0.0]), impulse(60, [2.0, 0.0, 0.0])]),
        vec![
            reach(
                "reach-max",
                [-1.0, 0.0, 0.0],
                SLIDER_MAX,
                (0, 60),
                REACH_TOL,
            ),
            reach(
                "reach-open-min",
                [1.0, 0.0, 0.0],
                0.3,
                (60, 60 + back),
                TRAVEL_TOL,
            ),
        ],
    )
}

/// How far the drive scene's limit lets the ball sink, m, and the drive's force limit, N (half
/// the ball's weight).
const FLOOR: f64 = 0.5;
const MAX_FORCE: f64 = 4.9;

/// The drive of the module doc: too weak for its load, it gives way and the ball sinks to the
/// limit at -0.5 m (a maximum of 0.5 on the metric, the ball's y negated), where it rests from
/// at most 0.5 s on (net force 9.81 - 4.9 N down, less the damping): the lowest point over the
/// second second is the floor.
fn drive_gives_way(p: Profile) -> Case {
    let joint = json!({
        "limits": [
            {"linearAxes": [1], "max": FLOOR},
            {"linearAxes": [0, 2], "max": 0.0},
            {"angularAxes": [0, 1], "max": 0.0},
            {"angularAxes": [2], "min": 0.0, "max": 0.0}
        ],
        "drives": [{"type": "linear", "mode": "force", "axis": 1, "positionTarget": 0.0, "velocityTarget": 0.0,
            "stiffness": 400.0, "damping": 40.0, "maxForce": MAX_FORCE}]
    });
    let gltf = jointed_ball(p, [0.0; 3], joint);
    reach_case(
        p,
        "drive-gives-way",
        "A 1 kg ball on a vertical slider (the joint on the ball, its connected frame on the world: a linear limit on y with max 0.5 m and no minimum, measured as the ball's y negated, so a floor at -0.5 m; everything else locked) held at 0 by a force-mode position drive (stiffness 400, damping 40) whose maxForce 4.9 N is half its weight: under gravity the drive gives way and the ball sinks to the floor limit at -0.5 m (without the force limit it would hold at -0.0245 m).",
        &[
            SLIDER_TAGS,
            &[
                "joint.drive.linear",
                "joint.drive.position-target",
                "joint.drive.mode.force",
                "joint.drive.max-force",
            ],
        ]
        .concat(),
        gltf,
        GRAVITY,
        120,
        json!([]),
        vec![reach(
            "sinks-to-floor",
            [0.0, -1.0, 0.0],
            FLOOR,
            (60, 120),
            REACH_TOL,
        )],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_reads_cleanly_with_its_joint() {
        let cases = cases();
        assert_eq!(cases.len(), 15);
        for c in &cases {
            let r = crate::label::clean_reading(c);
            let e = crate::scenario::expectation(&r).expect("an expectation");
            assert_eq!(e.joints.len(), 1, "{}", c.id);
            assert!(c.scenario.is_some(), "{}: no scenario", c.id);
        }
    }

    #[test]
    fn the_hand_worked_heights_and_speeds() {
        // sin(0.9) and sin(0.6), as the doc says.
        assert!((HINGE_MAX.sin() - 0.783327).abs() < 1e-6);
        assert!((-HINGE_MIN.sin() - 0.564642).abs() < 1e-6);
        // 2 rad/s for 45 steps of 1/60 s: 1.5 rad, from the maximum to the minimum.
        assert!((2.0 * f64::from(TRAVEL) / 60.0 - (HINGE_MAX - HINGE_MIN)).abs() < 1e-12);
        // Pushed back, the arm reaches a closed minimum with 0.25 s to spare.
        assert!(2.0 * f64::from(BACK) / 60.0 > HINGE_MAX - HINGE_MIN + 0.49);
        // 2 m/s for 24 steps: 0.8 m, from 0.5 to -0.3.
        assert!((2.0 * 24.0 / 60.0 - 0.8_f64).abs() < 1e-12);
        // 3.5 rad/s for 45 steps: 2.625 rad, from 0.9 to -1.725; the push is 3.5 * 1.016 N s.
        assert!((FAST_END - (-1.725)).abs() < 1e-12);
        assert!((FAST * HINGE_INERTIA - 3.556).abs() < 1e-12);
        // The drive's limit is below the weight: it gives way.
        const { assert!(MAX_FORCE < 9.81) };
    }
}
