use std::collections::BTreeMap;

use serde_json::json;

use super::*;
use crate::implementation::{
    BodyKind, BodyReport, ColliderReport, DofKind, DriveMode, DriveReport, JointReport,
    LimitReport, PairReport, Pose as ReportPose, ReportedShape,
};

const I: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

fn tolerances() -> BTreeMap<String, Tolerance> {
    [
        ("length", 1e-6, 1e-3),
        ("angle", 1e-6, 1e-3),
        ("scalar", 1e-6, 1e-3),
    ]
    .into_iter()
    .map(|(n, r, a)| (n.to_owned(), Tolerance::new(r, a).expect("valid")))
    .collect()
}

/// The reference's JSON for a scene: a dynamic body at node 1 (mass 2, moments [2, inf, 4]),
/// a box collider on it, a static sphere at node 3, their pair, and a joint at node 4 from the
/// body to the world (a hard angular limit, a soft linear one open below, a force-limited
/// angular drive).
fn expected() -> Expectation {
    serde_json::from_value(json!({
        "profile": "khr-2024-draft",
        "nodes": [],
        "bodies": [{
            "index": 0, "node": 1, "kind": "dynamic", "omi_type": null,
            "pose": {"translation": [0, 1, 0], "rotation": I},
            "mass": {"kind": "finite", "value": 2.0}, "inverse_mass": 0.5,
            "center_of_mass": [0, 0.5, 0], "center_of_mass_world": [0, 1.5, 0],
            "inertia": {"kind": "given",
                "principal": {"moments": [{"kind": "finite", "value": 2.0}, {"kind": "infinite"}, {"kind": "finite", "value": 4.0}], "orientation": I},
                "tensor": null,
                "inverse_tensor": [[0.5, 0, 0], [0, 0, 0], [0, 0, 0.25]]},
            "linear_velocity": [1, 0, 0], "angular_velocity": [0, 0, 0],
            "gravity_factor": 0.5, "decisions": ["D-MASS-ZERO", "D-FRAMES"]
        }],
        "colliders": [
            {"index": 0, "node": 2, "body": 0, "body_node": 1, "trigger": false,
             "pose": {"translation": [0, 0.5, 0], "rotation": I},
             "shape": {"type": "box", "size": [1, 2, 3]}, "material": 0, "filter": null, "decisions": ["D-FRAMES"]},
            {"index": 1, "node": 3, "body": null, "body_node": null, "trigger": false,
             "pose": {"translation": [5, 0, 0], "rotation": I},
             "shape": {"type": "sphere", "radius": 0.5}, "material": 0, "filter": null, "decisions": ["D-FRAMES"]}
        ],
        "compound_triggers": [],
        "pairs": [{
            "colliders": [0, 1], "nodes": [2, 3], "bodies": [0, null],
            "friction": {"mode": "average", "static": 0.5, "dynamic": 0.4},
            "restitution": {"mode": null, "value": null},
            "allows_ab": true, "allows_ba": true, "collide": true, "trigger": false,
            "joined_by": null, "contact": true, "overlap": false, "decisions": ["D-COMBINE"]
        }],
        "joints": [{
            "node": 4, "bodies": [0, null],
            "frames": [
                {"node": 4, "body": 0, "body_node": 1, "relative": {"translation": [0, 1, 0], "rotation": I}, "world": {"translation": [0, 2, 0], "rotation": I}},
                {"node": 5, "body": null, "body_node": null, "relative": {"translation": [0, 2, 0], "rotation": I}, "world": {"translation": [0, 2, 0], "rotation": I}}
            ],
            "coupling": "coupled",
            "limits": [
                {"index": 0, "kind": "angular", "axes": [0], "min": -1.0, "max": 1.0, "stiffness": null, "damping": 0, "metric": 0, "violation": 0, "overridden": false},
                {"index": 1, "kind": "linear", "axes": [1], "min": null, "max": 0.5, "stiffness": 100.0, "damping": 10.0, "metric": 0, "violation": 0, "overridden": false}
            ],
            "drives": [{"axis": 2, "damping": 1.0, "kind": "angular", "max_force": 5.0, "mode": "force",
                        "position_target": 0.25, "stiffness": 50.0, "velocity_target": null}],
            "enable_collision": false, "decisions": ["D-FRAMES", "D-METRICS"]
        }],
        "constraints": []
    }))
    .expect("the reference's JSON reads")
}

/// What a conforming implementation reports for [`expected`].
fn conforming() -> Interpretation {
    let mut box_params = serde_json::Map::new();
    box_params.insert("size".into(), json!([1.0, 2.0, 3.0]));
    let mut sphere_params = serde_json::Map::new();
    sphere_params.insert("radius".into(), json!(0.5));
    Interpretation {
        bodies: vec![BodyReport {
            node: 1,
            kind: BodyKind::Dynamic,
            mass: MassReport::Finite(2.0),
            center_of_mass: Some([0.0, 0.5, 0.0]),
            inertia_diagonal: [
                MassReport::Finite(2.0),
                MassReport::Infinite,
                MassReport::Finite(4.0),
            ],
            inertia_orientation: I,
            linear_velocity: [1.0, 0.0, 0.0],
            angular_velocity: [0.0; 3],
            gravity_factor: 0.5,
        }],
        colliders: vec![
            ColliderReport {
                node: 2,
                body: Some(1),
                is_trigger: false,
                shape: ReportedShape::Box,
                parameters: box_params,
                translation: [0.0, 0.5, 0.0],
                rotation: I,
            },
            ColliderReport {
                node: 3,
                body: None,
                is_trigger: false,
                shape: ReportedShape::Sphere,
                parameters: sphere_params,
                translation: [5.0, 0.0, 0.0],
                rotation: I,
            },
        ],
        pairs: vec![PairReport {
            a: 2,
            b: 3,
            collide: true,
            static_friction: Some(0.5),
            dynamic_friction: Some(0.4),
            restitution: Some(0.0),
        }],
        joints: vec![JointReport {
            node: 4,
            bodies: [Some(1), None],
            frames: [
                ReportPose {
                    translation: [0.0, 1.0, 0.0],
                    rotation: I,
                },
                ReportPose {
                    translation: [0.0, 2.0, 0.0],
                    rotation: I,
                },
            ],
            limits: vec![
                LimitReport {
                    kind: DofKind::Angular,
                    axes: vec![0],
                    min: Some(-1.0),
                    max: Some(1.0),
                    stiffness: None,
                    damping: 0.0,
                },
                LimitReport {
                    kind: DofKind::Linear,
                    axes: vec![1],
                    min: None,
                    max: Some(0.5),
                    stiffness: Some(100.0),
                    damping: 10.0,
                },
            ],
            drives: vec![DriveReport {
                kind: DofKind::Angular,
                axis: 2,
                mode: DriveMode::Force,
                max_force: Some(5.0),
                position_target: Some(0.25),
                velocity_target: None,
                stiffness: 50.0,
                damping: 1.0,
            }],
        }],
    }
}

fn by_name(results: &[CheckResult]) -> BTreeMap<&str, &CheckResult> {
    results.iter().map(|r| (r.check.as_str(), r)).collect()
}

#[test]
fn a_conforming_report_passes_every_check() {
    let out = check(&expected(), &conforming(), &tolerances());
    let names: Vec<&str> = out.iter().map(|r| r.check.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "interpretation.bodies.set",
            "interpretation.bodies.kind",
            "interpretation.bodies.mass",
            "interpretation.bodies.center_of_mass",
            "interpretation.bodies.inertia",
            "interpretation.bodies.velocity",
            "interpretation.bodies.gravity_factor",
            "interpretation.colliders.set",
            "interpretation.colliders.owner",
            "interpretation.colliders.shape",
            "interpretation.colliders.shape_size",
            "interpretation.colliders.translation",
            "interpretation.colliders.rotation",
            "interpretation.pairs.contact",
            "interpretation.pairs.friction",
            "interpretation.joints.set",
            "interpretation.joints.bodies",
            "interpretation.joints.frames.translation",
            "interpretation.joints.frames.rotation",
            "interpretation.joints.limits",
            "interpretation.joints.drives",
        ]
    );
    for r in &out {
        assert_eq!(r.status, Status::Pass, "{r:?}");
    }
    // Decisions travel with the objects compared.
    let m = by_name(&out);
    assert_eq!(
        m["interpretation.bodies.mass"].decisions,
        vec!["D-FRAMES", "D-MASS-ZERO"]
    );
    assert_eq!(
        m["interpretation.pairs.friction"].decisions,
        vec!["D-COMBINE"]
    );
    // Restitution has no expected value [D-COMBINE-DEFAULT]: not checked at all.
    assert!(!m.contains_key("interpretation.pairs.restitution"));
}

#[test]
fn infinite_mass_and_moments_must_be_reported_as_infinite() {
    let mut got = conforming();
    // A huge finite moment instead of an infinite one: the inverse tensor differs by 1e-9 only,
    // but the number of infinite moments differs, so it fails outright.
    got.bodies[0].inertia_diagonal[1] = MassReport::Finite(1e9);
    let out = check(&expected(), &got, &tolerances());
    let r = by_name(&out)["interpretation.bodies.inertia"].clone();
    assert_eq!(r.status, Status::Fail);
    assert_eq!(r.measured, Some(f64::INFINITY));
    let mut got = conforming();
    got.bodies[0].mass = MassReport::Infinite;
    let out = check(&expected(), &got, &tolerances());
    assert_eq!(
        by_name(&out)["interpretation.bodies.mass"].status,
        Status::Fail
    );
}

#[test]
fn principal_axes_swapped_is_measured_on_the_inverse_tensor() {
    // A quarter turn about z swaps the x and y principal axes: the inverse tensor becomes
    // diag(0, 0.5, 0.25) instead of diag(0.5, 0, 0.25). |delta| = sqrt(0.5^2 + 0.5^2) = 0.70711,
    // over max(1, |expected| = 0.559) = 1: 0.70711.
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let mut got = conforming();
    got.bodies[0].inertia_orientation = [0.0, 0.0, h, h];
    let out = check(&expected(), &got, &tolerances());
    let r = by_name(&out)["interpretation.bodies.inertia"].clone();
    assert_eq!(r.status, Status::Fail);
    assert!((r.measured.expect("measured") - 0.5f64.hypot(0.5)).abs() < 1e-12);
}

/// A mistake an implementation makes, written into a correct interpretation.
type Mutation = fn(&mut Interpretation);

#[test]
fn each_kind_of_mistake_fails_its_own_check() {
    // Each row: the check that fails (after `interpretation.`) and the mistake.
    let cases: Vec<(&str, Mutation)> = vec![
        ("bodies.kind", |g| g.bodies[0].kind = BodyKind::Kinematic),
        ("bodies.center_of_mass", |g| {
            g.bodies[0].center_of_mass = Some([0.0, 0.0, 0.0])
        }),
        ("bodies.velocity", |g| {
            g.bodies[0].linear_velocity = [0.0, 0.0, 1.0]
        }),
        ("bodies.set", |g| g.bodies.clear()),
        ("colliders.owner", |g| g.colliders[0].body = None),
        ("colliders.owner", |g| g.colliders[1].is_trigger = true),
        ("colliders.shape", |g| {
            g.colliders[1].shape = ReportedShape::Capsule
        }),
        ("colliders.shape_size", |g| {
            g.colliders[0]
                .parameters
                .insert("size".into(), json!([1.0, 2.0, 2.0]));
        }),
        ("colliders.shape_size", |g| {
            g.colliders[1].parameters.remove("radius");
        }),
        ("colliders.translation", |g| {
            g.colliders[1].translation = [5.0, 0.1, 0.0]
        }),
        ("colliders.rotation", |g| {
            g.colliders[0].rotation = [1.0, 0.0, 0.0, 0.0]
        }),
        ("pairs.contact", |g| g.pairs[0].collide = false),
        ("pairs.contact", |g| g.pairs.clear()),
        ("pairs.friction", |g| {
            g.pairs[0].dynamic_friction = Some(0.45)
        }),
        ("pairs.friction", |g| g.pairs[0].static_friction = None),
        ("joints.bodies", |g| g.joints[0].bodies = [None, Some(1)]),
        ("joints.frames.translation", |g| {
            g.joints[0].frames[1].translation = [0.0, 0.0, 0.0]
        }),
        ("joints.frames.rotation", |g| {
            g.joints[0].frames[0].rotation = [0.0, 1.0, 0.0, 0.0]
        }),
        ("joints.set", |g| g.joints[0].node = 7),
        ("bodies.gravity_factor", |g| {
            g.bodies[0].gravity_factor = 1.0
        }),
        ("joints.limits", |g| {
            g.joints[0].limits[0].kind = DofKind::Linear
        }),
        ("joints.limits", |g| g.joints[0].limits[1].axes = vec![2]),
        ("joints.limits", |g| g.joints[0].limits[1].damping = 0.0),
        ("joints.limits", |g| {
            g.joints[0].limits.pop();
        }),
        ("joints.drives", |g| {
            g.joints[0].drives[0].mode = DriveMode::Acceleration
        }),
        ("joints.drives", |g| g.joints[0].drives[0].axis = 1),
        ("joints.drives", |g| {
            g.joints[0].drives[0].position_target = None
        }),
        ("joints.drives", |g| {
            g.joints[0].drives[0].velocity_target = Some(0.0)
        }),
        ("joints.drives", |g| g.joints[0].drives[0].stiffness = 5.0),
        ("joints.drives", |g| g.joints[0].drives.clear()),
    ];
    for (name, mutate) in cases {
        let name = format!("interpretation.{name}");
        let mut got = conforming();
        mutate(&mut got);
        let out = check(&expected(), &got, &tolerances());
        let failing: Vec<&str> = out
            .iter()
            .filter(|r| r.status != Status::Pass)
            .map(|r| r.check.as_str())
            .collect();
        assert!(
            failing.contains(&name.as_str()),
            "{name}: failing {failing:?}"
        );
        assert!(
            out.iter()
                .all(|r| r.status == Status::Pass || r.status == Status::Fail),
            "{out:?}"
        );
    }
}

#[test]
fn small_deviations_grade_by_the_case_tolerances() {
    let mut got = conforming();
    // 0.0005 m off: outside recommended 1e-6, inside allowed 1e-3.
    got.colliders[0].translation = [0.0, 0.5005, 0.0];
    let out = check(&expected(), &got, &tolerances());
    let r = by_name(&out)["interpretation.colliders.translation"].clone();
    assert_eq!(r.status, Status::QualityWarning);
    assert!((r.measured.expect("measured") - 0.0005).abs() < 1e-12);
    assert_eq!((r.recommended, r.allowed), (Some(1e-6), Some(1e-3)));
    assert!(r.message.starts_with("collider 2"), "{}", r.message);
}

#[test]
fn a_missing_tolerance_class_skips_only_what_needs_it() {
    let mut tol = tolerances();
    tol.remove("angle");
    let out = check(&expected(), &conforming(), &tol);
    let m = by_name(&out);
    assert_eq!(m["interpretation.colliders.rotation"].status, Status::Skip);
    assert!(
        m["interpretation.colliders.rotation"]
            .message
            .contains("`angle`")
    );
    assert_eq!(
        m["interpretation.colliders.translation"].status,
        Status::Pass
    );
}

/// The check of one name after `mutate` on the conforming report.
fn checked(name: &str, mutate: impl FnOnce(&mut Interpretation)) -> CheckResult {
    let mut got = conforming();
    mutate(&mut got);
    let out = check(&expected(), &got, &tolerances());
    by_name(&out)[name].clone()
}

#[test]
fn an_angular_limit_read_in_degrees_fails() {
    // Bounds -1 and 1 rad read as degrees: -pi/180 = -0.0174533 and 0.0174533. Each is off by
    // 1 - pi/180 = 0.9825467, over max(1, |1|) = 1; the first field seen (min) is named.
    let r = checked("interpretation.joints.limits", |g| {
        let l = &mut g.joints[0].limits[0];
        l.min = l.min.map(f64::to_radians);
        l.max = l.max.map(f64::to_radians);
    });
    assert_eq!(r.status, Status::Fail);
    let measured = r.measured.expect("measured");
    assert!((measured - 0.982_546_7).abs() < 1e-7, "{measured}");
    assert!(
        r.message
            .starts_with("joint 4 limit 0 (angular axes [0]): min -0.01745"),
        "{}",
        r.message
    );
    assert!(r.message.ends_with("expected -1"), "{}", r.message);
}

/// Mistakes with an exact measure and message: a structural one (an open side reported as 0,
/// a soft limit reported hard, a dropped max force, a count mismatch naming both counts) is
/// infinite; a gravity factor ignored, 1 reported and 0.5 expected, is off by
/// |1 - 0.5| / max(1, 0.5) = 0.5.
#[test]
fn mistakes_are_measured_and_named() {
    let limits = "interpretation.joints.limits";
    let inf = f64::INFINITY;
    let cases: [(&str, Mutation, f64, &str); 5] = [
        (
            limits,
            |g| g.joints[0].limits[1].min = Some(0.0),
            inf,
            "joint 4 limit 1 (linear axes [1]): min 0 expected absent",
        ),
        (
            limits,
            |g| g.joints[0].limits[1].stiffness = None,
            inf,
            "joint 4 limit 1 (linear axes [1]): hard (stiffness absent) expected soft (stiffness 100)",
        ),
        (
            "interpretation.joints.drives",
            |g| g.joints[0].drives[0].max_force = None,
            inf,
            "joint 4 drive 0 (angular axis 2): force unlimited expected limited to 5",
        ),
        (
            limits,
            |g| drop(g.joints[0].limits.pop()),
            inf,
            "joint 4: 1 limit(s) reported, 2 expected",
        ),
        (
            "interpretation.bodies.gravity_factor",
            |g| g.bodies[0].gravity_factor = 1.0,
            0.5,
            "body 1: gravity factor 1 expected 0.5",
        ),
    ];
    for (name, mutate, measured, message) in cases {
        let r = checked(name, mutate);
        assert_eq!(r.status, Status::Fail, "{message}");
        assert_eq!(r.measured, Some(measured), "{message}");
        assert_eq!(r.message, message);
    }
}

#[test]
fn tiny_float_differences_in_limits_and_drives_pass() {
    // f32 round trips: 0.5 and 0.25 are exact in f32, 1 - 1e-9 and 50 + 1e-7 are not.
    let r = checked("interpretation.joints.limits", |g| {
        g.joints[0].limits[0].max = Some(1.0 - 1e-9);
    });
    assert_eq!(r.status, Status::Pass, "{r:?}");
    assert!((r.measured.expect("measured") - 1e-9).abs() < 1e-15);
    let r = checked("interpretation.joints.drives", |g| {
        g.joints[0].drives[0].stiffness = 50.0 + 1e-7;
    });
    assert_eq!(r.status, Status::Pass, "{r:?}");
    // 1e-7 / max(1, 50) = 2e-9.
    assert!((r.measured.expect("measured") - 2e-9).abs() < 1e-12);
}

/// A hard linear limit as the expectation lists it, first of its joint, met.
fn linear_limit(axes: Vec<u8>, min: Option<f64>, max: Option<f64>, damping: f64) -> LimitExpect {
    LimitExpect {
        axes,
        damping,
        index: 0,
        kind: DofKind::Linear,
        max,
        metric: 0.0,
        min,
        overridden: false,
        stiffness: None,
        violation: 0.0,
    }
}

#[test]
fn per_axis_limits_read_the_same_listed_by_axis_or_together() {
    // An OMI constraint on linear axes 0 and 2 in [-0.5, 0.5]: the expectation lists it once
    // per axis; a report listing the constraint's axes together matches it.
    let mut want = expected();
    want.joints[0].coupling = Coupling::PerAxis;
    let axis = |a: u8| linear_limit(vec![a], Some(-0.5), Some(0.5), 1.0);
    want.joints[0].limits = vec![axis(0), axis(2)];
    let mut got = conforming();
    got.joints[0].limits = vec![LimitReport {
        kind: DofKind::Linear,
        axes: vec![0, 2],
        min: Some(-0.5),
        max: Some(0.5),
        stiffness: None,
        damping: 1.0,
    }];
    let out = check(&want, &got, &tolerances());
    assert_eq!(
        by_name(&out)["interpretation.joints.limits"].status,
        Status::Pass
    );
    // Coupled (KHR) axes are one limit: the same report is one limit of two axes, not two.
    want.joints[0].coupling = Coupling::Coupled;
    let out = check(&want, &got, &tolerances());
    let r = by_name(&out)["interpretation.joints.limits"].clone();
    assert_eq!(r.message, "joint 4: 1 limit(s) reported, 2 expected");
}

#[test]
fn coupled_axes_are_a_set_listed_in_any_order() {
    // A KHR limit on linear axes 2, 0, 1 (a sphere of radius 1): reported as [0, 1, 2] it is
    // the same limit; reported on axes 0 and 1 only (a cylinder) it is not.
    let mut want = expected();
    want.joints[0].coupling = Coupling::Coupled;
    want.joints[0].limits = vec![linear_limit(vec![2, 0, 1], None, Some(1.0), 0.0)];
    let mut got = conforming();
    let report = |axes: Vec<u8>| LimitReport {
        kind: DofKind::Linear,
        axes,
        min: None,
        max: Some(1.0),
        stiffness: None,
        damping: 0.0,
    };
    got.joints[0].limits = vec![report(vec![0, 1, 2])];
    let out = check(&want, &got, &tolerances());
    assert_eq!(
        by_name(&out)["interpretation.joints.limits"].status,
        Status::Pass
    );
    got.joints[0].limits = vec![report(vec![0, 1])];
    let out = check(&want, &got, &tolerances());
    assert_eq!(
        by_name(&out)["interpretation.joints.limits"].status,
        Status::Fail
    );
}

mod properties {
    use proptest::prelude::*;

    use super::*;

    fn side() -> impl Strategy<Value = Option<f64>> {
        prop::option::of(-10.0f64..10.0)
    }

    /// A limit as the expectation lists it, and the same limit as a report.
    fn limit() -> impl Strategy<Value = (LimitExpect, LimitReport)> {
        (
            prop::bool::ANY,
            prop::sample::subsequence(vec![0u8, 1, 2], 1..=3),
            side(),
            side(),
            prop::option::of(0.0f64..1000.0),
            0.0f64..100.0,
        )
            .prop_map(|(angular, axes, min, max, stiffness, damping)| {
                let kind = if angular {
                    DofKind::Angular
                } else {
                    DofKind::Linear
                };
                let want = LimitExpect {
                    kind,
                    stiffness,
                    ..linear_limit(axes.clone(), min, max, damping)
                };
                let got = LimitReport {
                    kind,
                    axes,
                    min,
                    max,
                    stiffness,
                    damping,
                };
                (want, got)
            })
    }

    proptest! {
        /// Limits reported as the reference reads them deviate by 0; dropping a given side,
        /// giving an absent one, or making a hard limit soft (or the reverse) is infinite.
        #[test]
        fn a_structural_change_of_any_limit_is_infinite(
            limits in prop::collection::vec(limit(), 1..5),
            pick in 0usize..100,
            field in 0usize..3,
        ) {
            let (want, got): (Vec<LimitExpect>, Vec<LimitReport>) = limits.into_iter().unzip();
            let (dev, _) = limits_deviation(1, &want, Coupling::Coupled, &got);
            prop_assert_eq!(dev, 0.0);
            let i = pick % got.len();
            let mut changed = got.clone();
            let l = &mut changed[i];
            match field {
                0 => l.min = if l.min.is_some() { None } else { Some(0.0) },
                1 => l.max = if l.max.is_some() { None } else { Some(0.0) },
                _ => l.stiffness = if l.stiffness.is_some() { None } else { Some(1.0) },
            }
            let (dev, message) = limits_deviation(1, &want, Coupling::Coupled, &changed);
            prop_assert_eq!(dev, f64::INFINITY);
            let named = format!("joint 1 limit 0 ({} axes", want[i].kind.name());
            prop_assert!(i != 0 || message.starts_with(&named), "{}", message);
        }

        /// A number off by `d` deviates by `d / max(1, |want|)`, whichever number it is.
        #[test]
        fn a_numeric_change_is_scaled(
            (want, got) in limit(),
            d in 1e-6f64..1.0,
        ) {
            let mut changed = got.clone();
            changed.damping += d;
            let (dev, _) = limits_deviation(1, std::slice::from_ref(&want), Coupling::Coupled, &[changed]);
            let expected = d / want.damping.abs().max(1.0);
            prop_assert!((dev - expected).abs() <= 1e-9 * expected.max(1.0), "{} {}", dev, expected);
        }
    }
}
