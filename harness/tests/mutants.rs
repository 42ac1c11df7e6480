//! The seeded importer bugs of `physics-cts mutants` ([`physics_cts::mutants`]): off by default,
//! each one changes what its adapter does (a small scene where the un-mutated adapter and the
//! mutated one differ, numbers worked by hand in the comments), and the summary counts as
//! documented (a tiny fake run, and a golden `summary.md`).

use std::path::{Path, PathBuf};

use physics_cts::bundled::mutated;
use physics_cts::case::{Corpus, Tier};
use physics_cts::implementation::{Action, Implementation, Profile, TriggerEventKind};
use physics_cts::known_failures::KnownFailures;
use physics_cts::mutant::Mutant;
use physics_cts::mutants::{self, Control, Summary};
use physics_cts::results::{CaseResult, Run, Verdict};
use physics_cts::runner::{self, Entrant, Options};
use physics_cts::status::Status;
use serde_json::{Value, json};

use golden_file::assert_golden;
use support::{Khr, cube, load, load_doc, merged, node, rb, sphere, stepped};

mod golden_file;
mod support;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A dynamic sphere of mass 1 (radius 0.5) at `at`, with extra motion properties.
fn ball(k: &mut Khr, at: [f64; 3], motion: Value) -> usize {
    let s = k.shape(sphere(0.5));
    let m = merged(json!({"mass": 1.0}), &motion);
    k.node(json!({"translation": at,
        "extensions": rb(json!({"motion": m, "collider": {"shape": s}}))}))
}

/// Lowest angle about +Z of an arm hinged at the origin (its body 1 m along +X, the pivot
/// child at the origin), over 3 s of gravity, with the angular z limit `z_limit`.
fn hinge_lowest(name: &str, z_limit: Value, mutant: Option<Mutant>) -> f64 {
    let mut k = Khr::default();
    let s = k.shape(cube([0.4, 0.2, 0.2]));
    let z = merged(json!({"angularAxes": [2]}), &z_limit);
    k.joints.push(json!({"limits": [
        {"linearAxes": [0, 1, 2], "max": 0.0},
        {"angularAxes": [0, 1], "min": 0.0, "max": 0.0},
        z,
    ]}));
    let body = k.node(json!({"translation": [1.0, 0.0, 0.0], "children": [1],
        "extensions": rb(json!({"motion": {"mass": 1.0}, "collider": {"shape": s}}))}));
    let pivot = k.node(json!({"translation": [-1.0, 0.0, 0.0]}));
    k.node(json!({"extensions": rb(json!({"joint": {"connectedNode": pivot, "joint": 0}}))}));
    let mut imp = load(name, &k, mutant);
    let mut lowest: f64 = 0.0;
    for _ in 0..180 {
        let st = stepped(&mut imp, 1);
        // The arm's angle about +Z: its body sits at (cos a, sin a) around the pivot.
        let t = node(&st, body).translation;
        lowest = lowest.min(t[1].atan2(t[0]));
    }
    lowest
}

#[test]
fn angular_limits_in_degrees_hold_the_arm_at_a_hundredth_of_a_radian() {
    // [-0.5, 0.5] rad: gravity swings the arm down to -0.5. Read as degrees, the bounds are
    // 0.5 pi / 180 = 0.0087 rad: the arm hardly moves.
    let right = hinge_lowest("deg-0", json!({"min": -0.5, "max": 0.5}), None);
    let wrong = hinge_lowest(
        "deg-1",
        json!({"min": -0.5, "max": 0.5}),
        Some(Mutant::AngularLimitsInDegrees),
    );
    assert!((right + 0.5).abs() < 0.035, "{right}");
    assert!(wrong.abs() < 0.035, "{wrong}");
}

#[test]
fn an_open_minimum_read_as_zero_stops_the_arm_at_zero() {
    // Only max 0.5: nothing stops the fall below 0, the arm swings down past -pi/4 (its rest
    // hanging angle is -pi/2). With the absent minimum read as 0 it stays at 0.
    let right = hinge_lowest("open-0", json!({"max": 0.5}), None);
    let wrong = hinge_lowest(
        "open-1",
        json!({"max": 0.5}),
        Some(Mutant::OpenLimitSideAsZero),
    );
    assert!(right < -std::f64::consts::FRAC_PI_4, "{right}");
    assert!(wrong.abs() < 0.035, "{wrong}");
}

/// A body of mass 1 on a vertical slider at the origin, driven to y = 0 (k 1000, c 100,
/// force mode) with `maxForce` 2 N, after 1 s of gravity.
fn driven_height(mutant: Option<Mutant>) -> f64 {
    let mut k = Khr::default();
    let s = k.shape(cube([0.2, 0.2, 0.2]));
    k.joints.push(json!({
        "limits": [
            {"linearAxes": [0, 2], "max": 0.0},
            {"angularAxes": [0, 1, 2], "max": 0.0},
        ],
        "drives": [{"type": "linear", "mode": "force", "axis": 1, "maxForce": 2.0,
                    "positionTarget": 0.0, "stiffness": 1000.0, "damping": 100.0}],
    }));
    let body = k.node(
        json!({"extensions": rb(json!({"motion": {"mass": 1.0}, "collider": {"shape": s}}))}),
    );
    k.node(json!({"extensions": rb(json!({"joint": {"connectedNode": body, "joint": 0}}))}));
    let mut imp = load(&format!("drive-{}", mutant.is_some()), &k, mutant);
    node(&stepped(&mut imp, 60), body).translation[1]
}

#[test]
fn an_ignored_max_force_holds_a_load_the_drive_cannot() {
    // 2 N against 9.81 N of weight: it falls at least at 7.81 m/s^2, y <= -7.81 / 2 = -3.9 m
    // after 1 s. Unlimited, k = 1000 holds it within m g / k = 0.0098 m.
    let right = driven_height(None);
    let wrong = driven_height(Some(Mutant::DriveMaxForceIgnored));
    assert!(right < -3.0, "{right}");
    assert!(wrong.abs() < 0.05, "{wrong}");
}

/// Drop of a ball with `motion` after 2 s.
fn drop(name: &str, motion: Value, mutant: Option<Mutant>) -> f64 {
    let mut k = Khr::default();
    let b = ball(&mut k, [0.0, 100.0, 0.0], motion);
    let mut imp = load(name, &k, mutant);
    100.0 - node(&stepped(&mut imp, 120), b).translation[1]
}

#[test]
fn an_ignored_gravity_factor_doubles_a_half_factor_drop() {
    let half = json!({"gravityFactor": 0.5});
    let right = drop("gf-0", half.clone(), None);
    let wrong = drop("gf-1", half, Some(Mutant::GravityFactorIgnored));
    // About g t^2 / 4 = 9.81 m, and g t^2 / 2 = 19.6 m.
    assert!((wrong / right - 2.0).abs() < 1e-3, "{right} {wrong}");
}

#[test]
fn gravity_9_8_falls_short_by_a_thousandth() {
    let right = drop("g-0", json!({}), None);
    let wrong = drop("g-1", json!({}), Some(Mutant::Gravity98));
    // The drop is proportional to g: 9.8 / 9.81 = 0.99898.
    assert!((wrong / right - 9.8 / 9.81).abs() < 1e-5, "{right} {wrong}");
}

/// How far a ball hanging on a soft ball joint (a 3D linear limit of max 0, stiffness 20,
/// damping 2) sags below its anchor after 1 s, at most.
fn soft_sag(mutant: Option<Mutant>) -> f64 {
    let mut k = Khr::default();
    k.joints.push(json!({"limits": [
        {"linearAxes": [0, 1, 2], "max": 0.0, "stiffness": 20.0, "damping": 2.0},
    ]}));
    let b = ball(&mut k, [0.0, 0.0, 0.0], json!({}));
    k.node(json!({"extensions": rb(json!({"joint": {"connectedNode": b, "joint": 0}}))}));
    let mut imp = load(&format!("soft-{}", mutant.is_some()), &k, mutant);
    let mut sag: f64 = 0.0;
    for _ in 0..60 {
        sag = sag.max(-node(&stepped(&mut imp, 1), b).translation[1]);
    }
    sag
}

#[test]
fn soft_limits_built_hard_do_not_sag() {
    // A spring of 20 N/m holds 9.81 N at m g / k = 0.49 m (Rapier's softness is not exactly
    // that spring, but it sags by decimetres); a hard lock by well under a centimetre.
    let right = soft_sag(None);
    let wrong = soft_sag(Some(Mutant::SoftLimitsHard));
    assert!(right > 0.1, "{right}");
    assert!(wrong < 0.01, "{wrong}");
}

#[test]
fn an_ignored_node_matrix_leaves_the_body_at_the_origin() {
    let mut k = Khr::default();
    let s = k.shape(sphere(0.5));
    // A column-major matrix translating by (5, 100, 0).
    let b = k.node(json!({
        "matrix": [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 5.0, 100.0, 0.0, 1.0],
        "extensions": rb(json!({"motion": {"mass": 1.0}, "collider": {"shape": s}}))}));
    let at = |mutant| {
        let mut imp = load("matrix", &k, mutant);
        node(&imp.observe().expect("observe"), b).translation
    };
    assert_eq!(at(None), [5.0, 100.0, 0.0]);
    assert_eq!(at(Some(Mutant::NodeMatrixIgnored)), [0.0, 0.0, 0.0]);
}

#[test]
fn ignored_combine_modes_average_the_pair() {
    let mut k = Khr::default();
    // Friction 0.2 (multiply) and 0.8 (maximum): maximum wins, 0.8; ignored, the average 0.5.
    // Restitution 0.1 (minimum) and 0.5 (unset): minimum, 0.1; ignored, 0.3.
    k.materials.push(
        json!({"staticFriction": 0.2, "dynamicFriction": 0.2, "restitution": 0.1,
        "frictionCombine": "multiply", "restitutionCombine": "minimum"}),
    );
    k.materials.push(
        json!({"staticFriction": 0.8, "dynamicFriction": 0.8, "restitution": 0.5,
        "frictionCombine": "maximum"}),
    );
    let s = k.shape(cube([10.0, 1.0, 10.0]));
    let g = k.node(json!({"translation": [0.0, -0.5, 0.0],
        "extensions": rb(json!({"collider": {"shape": s, "physicsMaterial": 0}}))}));
    let c = k.shape(cube([0.5, 0.5, 0.5]));
    let b = k.node(
        json!({"translation": [0.0, 0.25, 0.0], "extensions": rb(json!({
        "motion": {"mass": 1.0}, "collider": {"shape": c, "physicsMaterial": 1}}))}),
    );
    let pair = |mutant| {
        let mut imp = load("combine", &k, mutant);
        let i = imp.interpretation().expect("interpretation");
        let p = i
            .pairs
            .into_iter()
            .find(|p| p.a == g && p.b == b)
            .expect("pair");
        (
            p.static_friction.expect("friction"),
            p.restitution.expect("restitution"),
        )
    };
    let ((f0, r0), (f1, r1)) = (pair(None), pair(Some(Mutant::CombineModeIgnored)));
    assert!(
        (f0 - 0.8).abs() < 1e-6 && (r0 - 0.1).abs() < 1e-6,
        "{f0} {r0}"
    );
    assert!(
        (f1 - 0.5).abs() < 1e-6 && (r1 - 0.3).abs() < 1e-6,
        "{f1} {r1}"
    );
}

#[test]
fn a_compound_trigger_misreported_names_its_members() {
    let mut k = Khr::default();
    let t = k.shape(cube([2.0, 1.0, 2.0]));
    // A compound of two boxes (nodes 1, 2) at y = 0 and -1; a ball falls through both.
    let compound = k.node(json!({"children": [1, 2],
        "extensions": rb(json!({"trigger": {"nodes": [1, 2]}}))}));
    k.node(json!({"extensions": rb(json!({"trigger": {"shape": t}}))}));
    k.node(json!({"translation": [0.0, -1.0, 0.0], "extensions": rb(json!({"trigger": {"shape": t}}))}));
    let b = ball(&mut k, [0.0, 3.0, 0.0], json!({}));
    let triggers = |mutant| {
        let mut imp = load("compound", &k, mutant);
        let mut seen = Vec::new();
        for _ in 0..120 {
            let s = stepped(&mut imp, 1);
            seen.extend(s.trigger_events.into_iter().filter(|e| e.other == b));
        }
        seen.into_iter()
            .map(|e| (e.kind, e.trigger))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        triggers(None),
        [
            (TriggerEventKind::Enter, compound),
            (TriggerEventKind::Exit, compound)
        ]
    );
    let wrong = triggers(Some(Mutant::CompoundTriggerWrongNode));
    assert!(
        !wrong.is_empty() && wrong.iter().all(|(_, t)| *t != compound),
        "{wrong:?}"
    );
}

#[test]
fn an_impulse_applied_as_a_force_is_dt_times_too_weak() {
    let mut k = Khr::default();
    let b = ball(&mut k, [0.0, 100.0, 0.0], json!({}));
    let push = Action::Impulse {
        node: b,
        impulse: [0.0, 0.0, 1.0],
    };
    let speed = |mutant| {
        let mut imp = load("impulse", &k, mutant);
        imp.apply(&push).expect("apply");
        node(&stepped(&mut imp, 1), b).linear_velocity[2]
    };
    // 1 N s on 1 kg: 1 m/s. As a force of 1 N for one step of 1/60 s: 1/60 m/s.
    assert!((speed(None) - 1.0).abs() < 1e-5);
    assert!((speed(Some(Mutant::ImpulseAsForce)) - 1.0 / 60.0).abs() < 1e-5);
}

#[test]
fn an_ignored_kinematic_pose_leaves_the_body_where_it_was() {
    let mut k = Khr::default();
    let s = k.shape(sphere(0.5));
    let b = k.node(json!({"extensions": rb(json!({
        "motion": {"isKinematic": true}, "collider": {"shape": s}}))}));
    let go = Action::KinematicPose {
        node: b,
        translation: [1.0, 2.0, 3.0],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    let at = |mutant| {
        let mut imp = load("kinematic", &k, mutant);
        imp.apply(&go).expect("apply");
        node(&stepped(&mut imp, 1), b).translation
    };
    let right = at(None);
    assert!(
        (right[0] - 1.0).abs() < 1e-5 && (right[2] - 3.0).abs() < 1e-5,
        "{right:?}"
    );
    assert_eq!(at(Some(Mutant::KinematicPoseIgnored)), [0.0, 0.0, 0.0]);
}

/// The status of one corpus/v2 case run on `implementation` with `mutant`, without known
/// failures.
fn status_of(implementation: &str, mutant: Option<Mutant>, case: &str) -> Status {
    result_of(implementation, mutant, case).status
}

/// The result of one corpus/v2 case run on `implementation` with `mutant`, without known
/// failures.
fn result_of(implementation: &str, mutant: Option<Mutant>, case: &str) -> CaseResult {
    let corpus = Corpus::open(&root().join("corpus/v2")).expect("corpus/v2");
    let entries: Vec<_> = corpus.entries.iter().filter(|e| e.id == case).collect();
    assert_eq!(entries.len(), 1, "{case}");
    let entrant = Entrant {
        name: implementation.into(),
        factory: mutated(implementation, mutant).expect("factory"),
        known_failures: KnownFailures::default(),
    };
    let run = runner::run_matrix(
        &corpus,
        "corpus/v2",
        &entries,
        &[entrant],
        Options::default(),
        &mut |_| {},
        &mut |_| {},
    );
    run.results.into_iter().next().expect("one result")
}

/// Each VRM mutant of the reference fails a corpus case the reference passes: VRM 1.0 cases
/// (required) for weight, quaternion order, order and roll axis, and a draft case (informative:
/// the draft's freeze semantics is an open decision) for the inverted frozen axes.
#[test]
fn each_reference_mutant_fails_a_case_the_reference_passes() {
    for (mutant, case) in [
        (Mutant::VrmWeightIgnored, "vrm1/gen/vrm1/00008"),
        (Mutant::VrmQuaternionWxyz, "vrm1/gen/vrm1/00008"),
        (Mutant::VrmRollAxisOffByOne, "vrm1/gen/vrm1/00008"),
        (Mutant::VrmFileOrder, "vrm1/gen/vrm1/00026"),
        (Mutant::VrmFreezeInverted, "vrm/gen/vrm/00218"),
    ] {
        assert_eq!(status_of("reference", None, case), Status::Pass, "{case}");
        assert_eq!(
            status_of("reference", Some(mutant), case),
            Status::Fail,
            "{mutant} on {case}"
        );
    }
}

/// Each misreading of the file seeded in the reference fails a hand-made corpus case the
/// reference passes, through the interpretation check that compares what it misread.
#[test]
fn each_interpretation_mutant_of_the_reference_fails_a_case_the_reference_passes() {
    for (mutant, case, check) in [
        (
            Mutant::AngularLimitsInDegrees,
            "khr/everything/all-features",
            "interpretation.joints.limits",
        ),
        (
            Mutant::OpenLimitSideAsZero,
            "khr/dynamics/drive/angular-force",
            "interpretation.joints.limits",
        ),
        (
            Mutant::DriveMaxForceIgnored,
            "khr/everything/all-features",
            "interpretation.joints.drives",
        ),
        (
            Mutant::GravityFactorIgnored,
            "khr/everything/all-features",
            "interpretation.bodies.gravity_factor",
        ),
        (
            Mutant::SoftLimitsHard,
            "khr/dynamics/limit/soft-return",
            "interpretation.joints.limits",
        ),
        (
            Mutant::CombineModeIgnored,
            "khr/dynamics/slide/friction-minimum",
            "interpretation.pairs.friction",
        ),
    ] {
        assert_eq!(status_of("reference", None, case), Status::Pass, "{case}");
        let r = result_of("reference", Some(mutant), case);
        assert_eq!(r.status, Status::Fail, "{mutant} on {case}");
        let failing: Vec<&str> = r
            .checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .map(|c| c.check.as_str())
            .collect();
        assert!(failing.contains(&check), "{mutant} on {case}: {failing:?}");
    }
}

/// A hinge to the world with a hard angular limit open below (max 0.5 rad) and a force-limited
/// drive on the same axis, on a body of gravity factor 0.5; and a soft ball joint (stiffness
/// 20, damping 2) on a second body.
fn misreadable() -> Khr {
    let mut k = Khr::default();
    k.joints.push(json!({
        "limits": [{"angularAxes": [2], "max": 0.5}],
        "drives": [{"type": "angular", "mode": "force", "axis": 2, "maxForce": 3.0,
                    "positionTarget": 0.25, "stiffness": 10.0, "damping": 1.0}],
    }));
    k.joints.push(json!({"limits": [
        {"linearAxes": [0, 1, 2], "max": 0.0, "stiffness": 20.0, "damping": 2.0},
    ]}));
    let a = ball(&mut k, [0.0, 0.0, 0.0], json!({"gravityFactor": 0.5}));
    let b = ball(&mut k, [5.0, 0.0, 0.0], json!({}));
    k.node(json!({"extensions": rb(json!({"joint": {"connectedNode": a, "joint": 0}}))}));
    k.node(json!({"translation": [5.0, 0.0, 0.0],
        "extensions": rb(json!({"joint": {"connectedNode": b, "joint": 1}}))}));
    k
}

/// What Rapier and the reference report of [`misreadable`] with `mutant`: the first joint's
/// limit `(min, max)`, its drive's `max_force`, the second joint's limit stiffness, and the
/// gravity factor of the first body.
type Read = ((Option<f64>, Option<f64>), Option<f64>, Option<f64>, f64);

fn read_with(mutant: Option<Mutant>) -> [Read; 2] {
    let path = support::write(
        &format!("misread-{}", mutant.map_or("none", Mutant::id)),
        &misreadable().doc(),
    );
    let mut rapier = physics_cts::adapters::rapier::RapierImplementation::with_mutant(mutant);
    let mut reference =
        physics_cts::adapters::reference::ReferenceImplementation::with_mutant(mutant);
    let imps: [&mut dyn Implementation; 2] = [&mut rapier, &mut reference];
    imps.map(|imp| {
        let outcome = imp.load(&support::request(path.clone())).expect("load");
        assert!(
            matches!(
                outcome,
                physics_cts::implementation::LoadOutcome::Loaded { .. }
            ),
            "{outcome:?}"
        );
        let i = imp.interpretation().expect("interpretation");
        let hinge = i.joints.iter().find(|j| j.node == 2).expect("hinge");
        let ball = i.joints.iter().find(|j| j.node == 3).expect("ball joint");
        let body = i.bodies.iter().find(|b| b.node == 0).expect("body");
        (
            (hinge.limits[0].min, hinge.limits[0].max),
            hinge.drives[0].max_force,
            ball.limits[0].stiffness,
            body.gravity_factor,
        )
    })
}

/// Two balls, node 0 alone in scene 0 and node 1 in scene 1, the default: read right, only
/// node 1 is a body [D-SCENE]; with the default scene ignored, only node 0 (Rapier and the
/// reference alike).
#[test]
fn an_ignored_default_scene_loads_the_other_one() {
    let mut k = Khr::default();
    let s = k.shape(sphere(0.5));
    for x in [5.0, 0.0] {
        k.node(json!({"translation": [x, 0.0, 0.0],
            "extensions": rb(json!({"motion": {"mass": 1.0}, "collider": {"shape": s}}))}));
    }
    let mut doc = k.doc();
    doc["scenes"] = json!([{"nodes": [0]}, {"nodes": [1]}]);
    doc["scene"] = json!(1);
    let bodies = |mutant: Option<Mutant>| -> Vec<Vec<usize>> {
        let path = support::write(
            &format!("scenes-{}", mutant.map_or("none", Mutant::id)),
            &doc,
        );
        let mut rapier = physics_cts::adapters::rapier::RapierImplementation::with_mutant(mutant);
        let mut reference =
            physics_cts::adapters::reference::ReferenceImplementation::with_mutant(mutant);
        let imps: [&mut dyn Implementation; 2] = [&mut rapier, &mut reference];
        imps.into_iter()
            .map(|imp| {
                imp.load(&support::request(path.clone())).expect("load");
                let i = imp.interpretation().expect("interpretation");
                i.bodies.iter().map(|b| b.node).collect()
            })
            .collect()
    };
    assert_eq!(bodies(None), [vec![1], vec![1]]);
    assert_eq!(
        bodies(Some(Mutant::DefaultSceneIgnored)),
        [vec![0], vec![0]]
    );
}

/// Rapier reports what it built from, the reference what it computed from: with each
/// misreading seeded, both report the misread value (worked by hand below).
#[test]
fn rapier_and_the_reference_report_what_they_misread() {
    // Read right: open below, 0.5 above; 3 N m at most; soft at 20; gravity halved. Rapier
    // holds the gravity scale as f32 (0.5 is exact).
    let right: Read = ((None, Some(0.5)), Some(3.0), Some(20.0), 0.5);
    assert_eq!(read_with(None), [right, right]);
    // 0.5 "degrees" = 0.5 pi / 180 = 0.00872665 rad.
    let deg = 0.5f64.to_radians();
    assert!((deg - 0.008_726_646).abs() < 1e-9);
    for (mutant, wrong) in [
        (
            Mutant::AngularLimitsInDegrees,
            ((None, Some(deg)), Some(3.0), Some(20.0), 0.5),
        ),
        (
            Mutant::OpenLimitSideAsZero,
            ((Some(0.0), Some(0.5)), Some(3.0), Some(20.0), 0.5),
        ),
        (
            Mutant::DriveMaxForceIgnored,
            ((None, Some(0.5)), None, Some(20.0), 0.5),
        ),
        (
            Mutant::SoftLimitsHard,
            ((None, Some(0.5)), Some(3.0), None, 0.5),
        ),
        (
            Mutant::GravityFactorIgnored,
            ((None, Some(0.5)), Some(3.0), Some(20.0), 1.0),
        ),
    ] {
        assert_eq!(read_with(Some(mutant)), [wrong, wrong], "{mutant}");
    }
}

/// Off by default: the bundled factories `run` uses and the mutants' un-mutated factories give
/// the same statuses as the committed baseline `reports/<impl>/results.ndjson` (made before the
/// mutants existed) on a slice of the corpus.
#[test]
fn no_mutant_is_active_unless_asked_for() {
    let corpus = Corpus::open(&root().join("corpus/v2")).expect("corpus/v2");
    for (implementation, slice) in [
        ("rapier", "khr/dynamics/"),
        ("reference", "vrm1/gen/vrm1/000"),
    ] {
        let baseline = std::fs::read_to_string(
            root().join(format!("reports/{implementation}/results.ndjson")),
        )
        .expect("baseline");
        let before: std::collections::HashMap<String, String> = baseline
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["type"] == "case")
            .map(|v| {
                (
                    v["case"].as_str().unwrap_or_default().to_owned(),
                    v["status"].as_str().unwrap_or_default().to_owned(),
                )
            })
            .collect();
        let entries: Vec<_> = corpus
            .entries
            .iter()
            .filter(|e| e.id.starts_with(slice))
            .collect();
        assert!(entries.len() >= 5, "{slice}: {}", entries.len());
        for factory in [
            physics_cts::bundled::factory(implementation).expect("bundled"),
            mutated(implementation, None).expect("un-mutated"),
        ] {
            let run = runner::run_matrix(
                &corpus,
                "corpus/v2",
                &entries,
                &[Entrant {
                    name: implementation.into(),
                    factory,
                    known_failures: KnownFailures::default(),
                }],
                Options::default(),
                &mut |_| {},
                &mut |_| {},
            );
            for r in &run.results {
                assert_eq!(
                    Some(&r.status.to_string()),
                    before.get(&r.case),
                    "{implementation} {}",
                    r.case
                );
            }
        }
    }
}

fn result(case: &str, tier: Tier, status: Status, known: bool, features: &[&str]) -> CaseResult {
    CaseResult {
        implementation: "rapier".into(),
        case: case.into(),
        profile: "khr-2024-draft".parse().expect("a profile"),
        area: "joint".into(),
        tier,
        features: features.iter().map(|f| (*f).to_owned()).collect(),
        status,
        verdict: Verdict::of(status, known),
        known_failure: known.then(|| "known".to_owned()),
        checks: Vec::new(),
        duration_ms: 0,
    }
}

fn run_of(results: Vec<CaseResult>) -> Run {
    Run {
        suite: "physics-cts test".into(),
        corpus: "fake".into(),
        results,
        ..Run::default()
    }
}

/// The counting rule on a tiny fake run of six cases:
/// - a: required, passes un-mutated, fails mutated -> counts (1);
/// - b: required, a known failure both times -> does not count;
/// - c: required, fails un-mutated (not listed) and mutated -> does not count;
/// - d: optional, fails mutated only -> an unscored failure;
/// - e: required, NOT_SUPPORTED -> neither, not scored;
/// - f: required, passes both times.
///
/// Tags `joint.limit.angular.1` on a, b, e, f: 4 exercising cases, of which the required,
/// scored and not already failing ones are a and f (2).
#[test]
fn the_summary_counts_only_new_required_failures() {
    use Status::*;
    use Tier::*;
    let tag = &["joint.limit.angular.1"][..];
    let control = run_of(vec![
        result("a", Required, Pass, false, tag),
        result("b", Required, Fail, true, tag),
        result("c", Required, Fail, false, &[]),
        result("d", Optional, Pass, false, &[]),
        result("e", Required, NotSupported, false, tag),
        result("f", Required, Pass, false, tag),
    ]);
    let mutated = run_of(vec![
        result("a", Required, Fail, false, tag),
        result("b", Required, Fail, true, tag),
        result("c", Required, Fail, false, &[]),
        result("d", Optional, Fail, false, &[]),
        result("e", Required, NotSupported, false, tag),
        result("f", Required, Pass, false, tag),
    ]);
    let o = mutants::outcome(Mutant::AngularLimitsInDegrees, "rapier", &control, &mutated);
    assert_eq!(o.scored_failures, 1);
    assert!(o.caught);
    assert_eq!(o.catching_cases, ["a"]);
    assert_eq!(o.unscored_failures, 1);
    assert_eq!((o.exercising_cases, o.exercising_scored), (4, 2));
    // The same mutated run against itself as control: nothing is new, nothing is caught.
    let o = mutants::outcome(Mutant::AngularLimitsInDegrees, "rapier", &mutated, &mutated);
    assert_eq!(
        (o.scored_failures, o.caught, o.unscored_failures),
        (0, false, 0)
    );
    let c = Control::of("rapier", &control);
    assert_eq!((c.cases, c.failed, c.known_failures), (6, 1, 1));
}

/// `summary.md` of a fixed input, byte for byte (`BLESS=1` rewrites the golden file).
#[test]
fn summary_markdown_golden() {
    use Status::*;
    use Tier::*;
    let tag = &["joint.limit.angular.1"][..];
    let control = run_of(vec![
        result("a", Required, Pass, false, tag),
        result("b", Required, Fail, true, &["joint.drive.max-force"]),
    ]);
    let caught = run_of(vec![
        result("a", Required, Fail, false, tag),
        result("b", Required, Fail, true, &["joint.drive.max-force"]),
    ]);
    let summary = Summary::new(
        "physics-cts test",
        "corpus/fake",
        vec![Control::of("rapier", &control)],
        vec![
            mutants::outcome(Mutant::AngularLimitsInDegrees, "rapier", &control, &caught),
            mutants::outcome(Mutant::DriveMaxForceIgnored, "rapier", &control, &control),
            mutants::outcome(Mutant::NodeMatrixIgnored, "rapier", &control, &control),
            // The same bug seeded in another implementation is a row of its own.
            mutants::outcome(
                Mutant::AngularLimitsInDegrees,
                "reference",
                &control,
                &control,
            ),
        ],
        1234,
    );
    assert_eq!(summary.score_line(), "caught 1 of 4 (25%)");
    assert_golden("mutants/summary.md", &summary.markdown());
    // summary.json round-trips.
    let json = serde_json::to_string(&summary).expect("json");
    assert_eq!(
        serde_json::from_str::<Summary>(&json).expect("parses"),
        summary
    );
}

/// A VRM 1.0 document over `nodes` and `scenes` (default: scene 1 when there are two).
fn vrm1_doc(nodes: Value, scenes: Value) -> Value {
    let default = usize::from(scenes.as_array().is_some_and(|s| s.len() > 1));
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["VRMC_node_constraint"],
        "scene": default,
        "scenes": scenes,
        "nodes": nodes,
    })
}

/// The reference's constraint outputs of a VRM 1.0 document at rest with `mutant`: each
/// constrained node and its output rotation `[x, y, z, w]`.
fn vrm1_outputs(name: &str, doc: &Value, mutant: Option<Mutant>) -> Vec<(usize, [f64; 4])> {
    let path = support::write(
        &format!("{name}-{}", mutant.map_or("none", Mutant::id)),
        doc,
    );
    let mut imp = physics_cts::adapters::reference::ReferenceImplementation::with_mutant(mutant);
    let request = physics_cts::implementation::LoadRequest {
        path,
        profile: "vrmc-node-constraint-1.0".parse().expect("a profile"),
    };
    let outcome = imp.load(&request).expect("load");
    assert!(
        matches!(
            outcome,
            physics_cts::implementation::LoadOutcome::Loaded { .. }
        ),
        "{outcome:?}"
    );
    imp.evaluate_constraints(&json!({"nodes": {}}))
        .expect("outputs")
        .into_iter()
        .map(|n| (n.node, n.rotation))
        .collect()
}

/// An aim along +X from the origin at a source placed at (1, 1, 0) under a parent scaled
/// (2, 1, 1), written as `parent` (TRS or matrix): the source is at (2, 1, 0) in the world, so
/// the aim turns atan2(1, 2) = 0.463648 rad about +Z, q = (0, 0, sin 0.231824, cos 0.231824) =
/// (0, 0, 0.229753, 0.973249). The parent has no rotation, so its scale shears nothing.
fn scaled_aim(parent: Value) -> Value {
    let mut root = parent;
    root["name"] = json!("Parent");
    root["children"] = json!([1, 2]);
    vrm1_doc(
        json!([
            root,
            {"name": "Aimer", "extensions": {"VRMC_node_constraint": {"specVersion": "1.0",
                "constraint": {"aim": {"source": 2, "aimAxis": "PositiveX"}}}}},
            {"name": "Target", "translation": [1.0, 1.0, 0.0]}
        ]),
        json!([{"nodes": [0]}]),
    )
}

fn assert_quat(got: [f64; 4], want: [f64; 4]) {
    let dot: f64 = got.iter().zip(want).map(|(a, b)| a * b).sum();
    assert!(dot.abs() > 1.0 - 1e-6, "{got:?} expected {want:?}");
}

/// Read right, the aim of [`scaled_aim`] turns 0.463648 rad; with the scale read as 1, or the
/// matrix read as the identity, the source is at (1, 1, 0) and it turns pi/4, q = (0, 0,
/// sin pi/8, cos pi/8) = (0, 0, 0.382683, 0.923880): 0.32 rad off.
#[test]
fn an_ignored_vrm_scale_or_node_matrix_turns_the_aim_to_the_unscaled_source() {
    let right = [0.0, 0.0, 0.229_753, 0.973_249];
    let wrong = [0.0, 0.0, 0.382_683, 0.923_880];
    let trs = scaled_aim(json!({"scale": [2.0, 1.0, 1.0]}));
    let matrix = scaled_aim(json!({"matrix": [
        2.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0
    ]}));
    for (name, doc, mutant) in [
        ("vrm-scale", &trs, Mutant::VrmScaleIgnored),
        ("vrm-matrix", &matrix, Mutant::VrmNodeMatrixIgnored),
    ] {
        let out = vrm1_outputs(name, doc, None);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].0, 1);
        assert_quat(out[0].1, right);
        assert!((out[0].1[2] - right[2]).abs() < 1e-6, "{out:?}");
        let bad = vrm1_outputs(name, doc, Some(mutant));
        assert_eq!(bad[0].0, 1);
        assert_quat(bad[0].1, wrong);
        assert!((bad[0].1[2] - wrong[2]).abs() < 1e-6, "{mutant}: {bad:?}");
    }
    // The matrix mutant leaves TRS alone, and the scale mutant drops a matrix's scale too.
    assert_quat(
        vrm1_outputs("vrm-scale", &trs, Some(Mutant::VrmNodeMatrixIgnored))[0].1,
        right,
    );
    assert_quat(
        vrm1_outputs("vrm-matrix", &matrix, Some(Mutant::VrmScaleIgnored))[0].1,
        wrong,
    );
}

/// A rotation constraint (node 0, source 1) in scene 1, the default, and its copy (node 2,
/// source 3) alone in scene 0: read right, only node 0 is constrained [D-SCENE]; with the
/// default scene ignored, only the copy, node 2, and node 0 is not reported.
#[test]
fn an_ignored_vrm_default_scene_evaluates_the_other_scenes_constraints() {
    let constrained = |name: &str, source: usize| {
        json!({"name": name, "extensions": {"VRMC_node_constraint": {"specVersion": "1.0",
            "constraint": {"rotation": {"source": source}}}}})
    };
    let doc = vrm1_doc(
        json!([
            constrained("Follower", 1),
            {"name": "Leader"},
            constrained("FollowerInTheOtherScene", 3),
            {"name": "LeaderInTheOtherScene"}
        ]),
        json!([{"nodes": [2, 3]}, {"nodes": [0, 1]}]),
    );
    let nodes = |mutant| -> Vec<usize> {
        vrm1_outputs("vrm-scenes", &doc, mutant)
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    };
    assert_eq!(nodes(None), [0]);
    assert_eq!(nodes(Some(Mutant::VrmDefaultSceneIgnored)), [2]);
    // The physics mutant of the same bug reads VRM documents the same way.
    assert_eq!(nodes(Some(Mutant::DefaultSceneIgnored)), [2]);
}

/// Height of a ball (r 0.5, mass 1) released at (2, 3, 0) after 2 s over a khr-2025 static
/// ground whose geometry is node 2 (out of the scene): its child part, a unit cube moved to
/// (2, 0.5, 0) and scaled (1.5, 0.4, 1.5), as a convex hull.
fn ball_over_part(mutant: Option<Mutant>) -> f64 {
    use base64::Engine as _;
    let corners: Vec<[f32; 3]> = (0..8)
        .map(|k| [k >> 2 & 1, k >> 1 & 1, k & 1].map(|b| if b == 1 { 0.5 } else { -0.5 }))
        .collect();
    let triangles: [u16; 36] = [
        0, 1, 3, 0, 3, 2, 4, 6, 7, 4, 7, 5, 0, 4, 5, 0, 5, 1, 2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4,
        1, 5, 7, 1, 7, 3,
    ];
    let mut bytes: Vec<u8> = corners
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    bytes.extend(triangles.iter().flat_map(|i| i.to_le_bytes()));
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&bytes)
    );
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [
            {"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": [
            {"translation": [2.0, 3.0, 0.0], "extensions": {"KHR_physics_rigid_bodies": {
                "motion": {"mass": 1.0}, "collider": {"geometry": {"shape": 0}}}}},
            {"extensions": {"KHR_physics_rigid_bodies": {
                "collider": {"geometry": {"node": 2, "convexHull": true}}}}},
            {"children": [3]},
            {"translation": [2.0, 0.5, 0.0], "scale": [1.5, 0.4, 1.5], "mesh": 0},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "buffers": [{"byteLength": bytes.len(), "uri": uri}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 96},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
                "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "scenes": [{"nodes": [0, 1]}],
        "scene": 0
    });
    let name = format!("part-{}", mutant.map_or("none", Mutant::id));
    let mut imp = load_doc(&name, &doc, Profile::Khr2025, mutant);
    node(&stepped(&mut imp, 120), 0).translation[1]
}

#[test]
fn ignored_transforms_below_a_geometry_node_leave_the_part_at_the_origin() {
    // The part's top at 0.5 + 0.4 / 2 = 0.7: the ball rests at 0.7 + 0.5 = 1.2. Read without
    // the part's transform, the hull is the unit cube at the origin (|x| <= 0.5): the ball at
    // x = 2 misses it and falls freely, 3 - 9.81 * 2^2 / 2 = -16.6.
    let right = ball_over_part(None);
    let wrong = ball_over_part(Some(Mutant::GeometryNodeTransformsIgnored));
    assert!((right - 1.2).abs() < 0.05, "{right}");
    assert!(wrong < -15.0, "{wrong}");
}

/// Height of an omi-2025 pendulum bob (a 1 kg ball, sphere r 0.2 centred on its centre of
/// mass, `inertiaDiagonal` [0, 0, 0]) after 0.5 s: its body 1 m along +x from a joint at the
/// origin to a static frame, the joint free about z only.
fn pendulum_height(mutant: Option<Mutant>) -> f64 {
    use generator::scene_spelling::{document, joint_node, node as omi_node, shape_ref};
    let p = Profile::Omi2025;
    let mut ball = omi_node(
        p,
        "Bob",
        [1.0, 0.0, 0.0],
        json!({"motion": {"type": "dynamic", "mass": 1.0, "centerOfMass": [0.0, 0.0, 0.0],
            "inertiaDiagonal": [0.0, 0.0, 0.0]}}),
    );
    ball["children"] = json!([1, 2]);
    let joint = joint_node(p, "Joint", [-1.0, 0.0, 0.0], 3);
    let shape = omi_node(
        p,
        "BobShape",
        [0.0; 3],
        json!({"collider": shape_ref(p, 0)}),
    );
    let frame = omi_node(p, "Frame", [0.0; 3], json!({"motion": {"type": "static"}}));
    let doc = document(
        p,
        vec![json!({"type": "sphere", "sphere": {"radius": 0.2}})],
        vec![ball, joint, shape, frame],
        Some(json!({"limits": [
            {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
            {"angularAxes": [0, 1], "min": 0.0, "max": 0.0},
        ]})),
    );
    let name = format!("bob-{}", mutant.map_or("none", Mutant::id));
    let mut imp = load_doc(&name, &doc, p, mutant);
    node(&stepped(&mut imp, 30), 0).translation[1]
}

#[test]
fn omi_zero_inertia_read_as_infinite_keeps_a_pendulum_from_swinging() {
    // Computed from the sphere, I_c = 0.4 * 1 * 0.2^2 = 0.016: a near-simple 1 m pendulum
    // released horizontally swings down (a free fall of 9.81 * 0.5^2 / 2 = 1.2 m would reach
    // the bottom; on the arc it is past y = -0.5 after 0.5 s). With three infinite moments the
    // bob cannot turn, so the joint cannot let its centre go round the pivot: it stays at 0.
    let right = pendulum_height(None);
    let wrong = pendulum_height(Some(Mutant::OmiZeroInertiaAsInfinite));
    assert!(right < -0.5, "{right}");
    assert!(wrong.abs() < 0.05, "{wrong}");
}
