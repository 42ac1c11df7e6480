//! Evidence for the joint limit metrics [D-METRICS]: a hand-worked table (arithmetic in the
//! comments), the degenerate cases, and property tests for the invariants.

mod common;

use std::f64::consts::{FRAC_PI_2, FRAC_PI_3, FRAC_PI_4, FRAC_PI_6, PI, SQRT_2};

use nalgebra::{Isometry3, Quaternion, Translation3, Unit, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::metrics::{
    LimitEval, angular_metric, evaluate, linear_metric, range, total_angle, twist_angle, violation,
};
use reference::scene::{DofKind, Limit, LimitSet};

const EPS: f64 = 1e-12;

fn deg(x: f64) -> f64 {
    x.to_radians()
}

fn rx(a: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&Vector3::x_axis(), a)
}
fn ry(a: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&Vector3::y_axis(), a)
}
fn rz(a: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&Vector3::z_axis(), a)
}
fn pose(t: [f64; 3], r: UnitQuaternion<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::new(t[0], t[1], t[2]), r)
}
fn at(t: [f64; 3]) -> Isometry3<f64> {
    pose(t, UnitQuaternion::identity())
}
fn rot(r: UnitQuaternion<f64>) -> Isometry3<f64> {
    pose([0.0; 3], r)
}
fn origin() -> Isometry3<f64> {
    Isometry3::identity()
}

#[derive(Clone, Copy, Debug)]
enum K {
    Lin,
    Ang,
}

/// A row of the hand-worked table: name, kind, axes, frames A and B, the expected metric.
type MetricCase = (
    &'static str,
    K,
    &'static [u8],
    Isometry3<f64>,
    Isometry3<f64>,
    f64,
);

fn case(
    name: &'static str,
    kind: K,
    axes: &'static [u8],
    a: Isometry3<f64>,
    b: Isometry3<f64>,
    expected: f64,
) -> MetricCase {
    (name, kind, axes, a, b, expected)
}

/// The hand-worked table. Frame A is the identity unless the case says otherwise; `d = t_b - t_a`,
/// `e_i` = column i of A's rotation, `q = q_a* q_b`.
fn table() -> Vec<MetricCase> {
    use K::*;
    // A rotated 90 deg about z: e_0 = (0,1,0), e_1 = (-1,0,0), e_2 = (0,0,1).
    let a_rz90 = pose([1.0, 1.0, 0.0], rz(FRAC_PI_2));
    // A rotated 90 deg about x: e_0 = (1,0,0), e_1 = (0,0,1), e_2 = (0,-1,0).
    let a_rx90 = rot(rx(FRAC_PI_2));
    // A rotated 45 deg about z: e_0 = (1,1,0)/sqrt2, e_1 = (-1,1,0)/sqrt2.
    let a_rz45 = rot(rz(FRAC_PI_4));
    // Linear, A = identity and B at (3, -4, 12): d = (3, -4, 12).
    let lin_d =
        |name, axes, expected| case(name, Lin, axes, origin(), at([3.0, -4.0, 12.0]), expected);
    let lin = |name, axes, a, b, expected| case(name, Lin, axes, a, b, expected);
    // Angular, A = identity: q = q_b.
    let ang = |name, axes, b, expected| case(name, Ang, axes, origin(), b, expected);
    vec![
        // ---- linear, A = identity, d = (3, -4, 12) ----
        // e_0 . d = 3
        lin_d("lin x", &[0], 3.0),
        // e_1 . d = -4 (negative: B is on the -y side)
        lin_d("lin y signed", &[1], -4.0),
        // e_2 . d = 12
        lin_d("lin z", &[2], 12.0),
        // k = 2: |(3,-4,12) - 12 (0,0,1)| = |(3,-4,0)| = 5
        lin_d("lin xy cylinder", &[0, 1], 5.0),
        // axis order does not matter: [1, 0] is still k = 2 -> 5
        lin_d("lin yx order", &[1, 0], 5.0),
        // k = 0: |(0,-4,12)| = sqrt(16 + 144) = sqrt(160)
        lin_d("lin yz cylinder", &[1, 2], 160f64.sqrt()),
        // k = 1: |(3,0,12)| = sqrt(9 + 144) = sqrt(153)
        lin_d("lin xz cylinder", &[0, 2], 153f64.sqrt()),
        // sqrt(9 + 16 + 144) = sqrt(169) = 13
        lin_d("lin xyz sphere", &[0, 1, 2], 13.0),
        // with A at (1,2,3) and B at (4,-2,15): d = (3,-4,12) again -> 13
        lin(
            "lin xyz translated",
            &[2, 0, 1],
            at([1.0, 2.0, 3.0]),
            at([4.0, -2.0, 15.0]),
            13.0,
        ),
        // ---- linear, coincident frames: d = 0 -> every metric 0 ----
        lin("lin coincident 1", &[0], at([5.0; 3]), at([5.0; 3]), 0.0),
        lin("lin coincident 2", &[0, 1], at([5.0; 3]), at([5.0; 3]), 0.0),
        lin(
            "lin coincident 3",
            &[0, 1, 2],
            at([5.0; 3]),
            at([5.0; 3]),
            0.0,
        ),
        // ---- linear, A rotated so its axes are not world axes ----
        // A = Rz(90) at (1,1,0), B at (1,3,0): d = (0,2,0); e_0 . d = (0,1,0).(0,2,0) = 2
        lin("lin rotA x", &[0], a_rz90, at([1.0, 3.0, 0.0]), 2.0),
        // e_1 . d = (-1,0,0).(0,2,0) = 0 (a world-axis reading would say 2)
        lin("lin rotA y zero", &[1], a_rz90, at([1.0, 3.0, 0.0]), 0.0),
        // B at (4,1,0): d = (3,0,0); e_1 . d = (-1,0,0).(3,0,0) = -3
        lin(
            "lin rotA y negative",
            &[1],
            a_rz90,
            at([4.0, 1.0, 0.0]),
            -3.0,
        ),
        // A = Rx(90), d = (1,2,3): e_2 . d = (0,-1,0).(1,2,3) = -2
        lin("lin rotA z", &[2], a_rx90, at([1.0, 2.0, 3.0]), -2.0),
        // e_1 . d = (0,0,1).(1,2,3) = 3
        lin("lin rotA y", &[1], a_rx90, at([1.0, 2.0, 3.0]), 3.0),
        // k = 2: d - (e_2.d) e_2 = (1,2,3) - (-2)(0,-1,0) = (1,0,3) -> sqrt(10)
        lin(
            "lin rotA cylinder",
            &[0, 1],
            a_rx90,
            at([1.0, 2.0, 3.0]),
            10f64.sqrt(),
        ),
        // A = Rz(45), d = (1,1,0): e_0 . d = (1 + 1)/sqrt2 = sqrt2
        lin("lin rotA 45 x", &[0], a_rz45, at([1.0, 1.0, 0.0]), SQRT_2),
        // e_1 . d = (-1 + 1)/sqrt2 = 0
        lin("lin rotA 45 y", &[1], a_rz45, at([1.0, 1.0, 0.0]), 0.0),
        // B's rotation plays no part in a linear metric: B = (3,-4,12) turned by Rx(1) -> 3
        lin(
            "lin B rotation ignored",
            &[0],
            origin(),
            pose([3.0, -4.0, 12.0], rx(1.0)),
            3.0,
        ),
        // ---- angular twist (1 axis), signed in (-pi, pi] ----
        // q = Rx(30): twist about x = 30 deg = pi/6
        ang("twist x +30", &[0], rot(rx(deg(30.0))), FRAC_PI_6),
        // q = Rx(-30): -pi/6 (the sign the unsigned appendix formula loses)
        ang("twist x -30", &[0], rot(rx(deg(-30.0))), -FRAC_PI_6),
        // q = Ry(100): 100 deg
        ang("twist y 100", &[1], rot(ry(deg(100.0))), deg(100.0)),
        // q = Rz(-170): -170 deg
        ang("twist z -170", &[2], rot(rz(deg(-170.0))), deg(-170.0)),
        // q = Rz(190): w = cos 95 < 0, v_z = sin 95 > 0; flip to w >= 0:
        // 2 atan2(-sin 95, -cos 95) = 2 (-85 deg) = -170 deg
        ang("twist z 190 wraps", &[2], rot(rz(deg(190.0))), deg(-170.0)),
        // q = Rz(180): w = 0, v_z = 1 -> 2 atan2(1, 0) = pi
        ang("twist z 180", &[2], rot(rz(PI)), PI),
        // q = Rz(-180): w = 0 (cos -90), v_z = -1; 2 atan2(-1, +0) = -pi -> reported as +pi
        ang("twist z -180 is +pi", &[2], rot(rz(-PI)), PI),
        // q = Ry(90), a pure swing for axis x: v_x = 0 -> 2 atan2(0, cos 45) = 0
        ang("twist x of pure swing", &[0], rot(ry(FRAC_PI_2)), 0.0),
        // q = Ry(90) Rx(60) = (c45 c30, c45 s30, s45 c30, -s45 s30):
        // twist x = 2 atan2(c45 s30, c45 c30) = 2 (30 deg) = 60 deg
        ang(
            "twist swing*twist",
            &[0],
            rot(ry(FRAC_PI_2) * rx(FRAC_PI_3)),
            FRAC_PI_3,
        ),
        // q = Rx(60) Ry(90) = (c30 c45, s30 c45, c30 s45, s30 s45): same w and v_x -> 60 deg
        ang(
            "twist twist*swing",
            &[0],
            rot(rx(FRAC_PI_3) * ry(FRAC_PI_2)),
            FRAC_PI_3,
        ),
        // A = Rz(90), B = Ry(30) Rz(90) (30 deg about world y = A's x axis):
        // q = Rz(-90) Ry(30) Rz(90) = Rx(30) -> twist about A's x = 30 deg
        case(
            "twist rotA x",
            Ang,
            &[0],
            rot(rz(FRAC_PI_2)),
            rot(ry(FRAC_PI_6) * rz(FRAC_PI_2)),
            FRAC_PI_6,
        ),
        // same frames, twist about A's y: q = Rx(30) has v_y = 0 -> 0
        // (a world-axis reading would see the 30 deg turn about world y)
        case(
            "twist rotA y",
            Ang,
            &[1],
            rot(rz(FRAC_PI_2)),
            rot(ry(FRAC_PI_6) * rz(FRAC_PI_2)),
            0.0,
        ),
        // ---- degenerate twist: a swing of exactly pi (w = 0 and v . e_i = 0) -> 0 ----
        // q = Rz(180) = (0, 0,0,1): v_x = 0, w = 0 -> undefined, reported 0
        ang("twist x of half turn z", &[0], rot(rz(PI)), 0.0),
        // q = Ry(180) = (0, 0,1,0): v_x = 0 -> 0
        ang("twist x of half turn y", &[0], rot(ry(PI)), 0.0),
        // half turn about (0,1,1)/sqrt2: v = (0, s, s), v_x = 0, w = 0 -> 0
        ang(
            "twist x of half turn yz",
            &[0],
            rot(UnitQuaternion::from_axis_angle(
                &Unit::new_normalize(Vector3::new(0.0, 1.0, 1.0)),
                PI,
            )),
            0.0,
        ),
        // ---- angular cone (2 axes, k the other), in [0, pi] ----
        // k = 2, q = Rx(40): e_z turns by 40 deg
        ang("cone z by x 40", &[0, 1], rot(rx(deg(40.0))), deg(40.0)),
        // k = 2, q = Rz(70): a twist about e_z leaves e_z fixed -> 0
        ang("cone z by twist", &[0, 1], rot(rz(deg(70.0))), 0.0),
        // k = 2, q = Rx(180): e_z -> -e_z -> pi
        ang("cone z flipped", &[0, 1], rot(rx(PI)), PI),
        // k = 1, q = Rx(-50): e_y turns by 50 deg; the cone angle is unsigned -> 50 deg
        ang("cone y unsigned", &[0, 2], rot(rx(deg(-50.0))), deg(50.0)),
        // k = 0, q = Rz(30) Ry(40): e_x -> Ry(40): (c40, 0, -s40) -> Rz(30): (c40 c30, c40 s30, -s40);
        // the angle to e_x is acos(c40 c30) = acos(0.766044 * 0.866025) = acos(0.663414) ~ 48.44 deg
        ang(
            "cone x compound",
            &[1, 2],
            rot(rz(deg(30.0)) * ry(deg(40.0))),
            (deg(40.0).cos() * deg(30.0).cos()).acos(),
        ),
        // A = Ry(90), B = identity: q = Ry(-90), k = 2: e_z -> (-1, 0, 0) -> 90 deg
        case(
            "cone rotA",
            Ang,
            &[0, 1],
            rot(ry(FRAC_PI_2)),
            origin(),
            FRAC_PI_2,
        ),
        // A = B = Ry(90) at different places: q = identity -> 0
        case(
            "cone equal frames",
            Ang,
            &[0, 1],
            pose([1.0, 0.0, 0.0], ry(FRAC_PI_2)),
            rot(ry(FRAC_PI_2)),
            0.0,
        ),
        // ---- angular total (3 axes), shortest path, in [0, pi] ----
        // q = Rx(30) -> 30 deg
        ang("total 30", &[0, 1, 2], rot(rx(deg(30.0))), FRAC_PI_6),
        // q = Rx(-30) -> 30 deg (unsigned)
        ang("total -30", &[0, 1, 2], rot(rx(deg(-30.0))), FRAC_PI_6),
        // q = Rz(200): w = cos 100 < 0 -> 2 atan2(sin 100, |cos 100|) = 2 (80 deg) = 160 deg
        ang(
            "total 200 shortest",
            &[0, 1, 2],
            rot(rz(deg(200.0))),
            deg(160.0),
        ),
        // q = Rz(180): w = 0 -> 2 atan2(1, 0) = pi
        ang("total 180", &[0, 1, 2], rot(rz(PI)), PI),
        // coincident frames: q = identity -> 0
        case(
            "total coincident",
            Ang,
            &[0, 1, 2],
            rot(rx(1.0)),
            rot(rx(1.0)),
            0.0,
        ),
        // q = Rx(90) Ry(90) = (c45, s45, 0, 0)(c45, 0, s45, 0): w = c45 c45 = 1/2
        // -> 2 acos(1/2) = 120 deg
        ang(
            "total compound",
            &[2, 1, 0],
            rot(rx(FRAC_PI_2) * ry(FRAC_PI_2)),
            deg(120.0),
        ),
        // A = Rz(90), B = Rz(90) Ry(60): q = Ry(60) -> 60 deg
        case(
            "total rotA",
            Ang,
            &[0, 1, 2],
            rot(rz(FRAC_PI_2)),
            rot(rz(FRAC_PI_2) * ry(FRAC_PI_3)),
            FRAC_PI_3,
        ),
    ]
}

#[test]
fn hand_worked_table() {
    let table = table();
    assert!(table.len() >= 40, "the table has {} cases", table.len());
    let mut failures = Vec::new();
    for &(name, kind, axes, a, b, expected) in &table {
        let got = match kind {
            K::Lin => linear_metric(axes, &a, &b),
            K::Ang => angular_metric(axes, &a, &b),
        };
        let ok = (got - expected).abs() <= EPS * (1.0 + expected.abs()); // false for NaN
        if !ok {
            failures.push(format!("{name}: got {got}, expected {expected}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A limit holds at rest up to float noise: |violation| <= 1e-9, both signs; 2e-9 (twice the
/// noise) and NaN (nothing known) do not.
#[test]
fn holds_at_rest_boundary() {
    use reference::metrics::{REST_VIOLATION_NOISE, holds_at_rest};
    assert_eq!(REST_VIOLATION_NOISE, 1e-9);
    for v in [0.0, -0.0, 1e-9, -1e-9, 5e-10] {
        assert!(holds_at_rest(v), "{v}");
    }
    for v in [2e-9, -2e-9, 1e-6, f64::NAN, f64::INFINITY] {
        assert!(!holds_at_rest(v), "{v}");
    }
}

/// `(metric, min, max, expected violation)`.
#[test]
fn violation_table() {
    let nan = f64::NAN;
    let cases: &[(f64, Option<f64>, Option<f64>, f64)] = &[
        // inside [-1, 1] -> 0
        (0.5, Some(-1.0), Some(1.0), 0.0),
        // 1.5 - 1 = 0.5 above
        (1.5, Some(-1.0), Some(1.0), 0.5),
        // -1.25 - (-1) = -0.25 below
        (-1.25, Some(-1.0), Some(1.0), -0.25),
        // on either bound: still inside
        (1.0, Some(-1.0), Some(1.0), 0.0),
        (-1.0, Some(-1.0), Some(1.0), 0.0),
        // no bounds: never violated
        (1e300, None, None, 0.0),
        // only max 2: -100 is fine, 3 is 3 - 2 = 1 above
        (-100.0, None, Some(2.0), 0.0),
        (3.0, None, Some(2.0), 1.0),
        // only min 0: -0.5 - 0 = -0.5 below, 1e9 fine
        (-0.5, Some(0.0), None, -0.5),
        (1e9, Some(0.0), None, 0.0),
        // zero-width bounds [pi/4, pi/4] (a locked angle): pi/3 - pi/4 = pi/12 above
        (
            FRAC_PI_3,
            Some(FRAC_PI_4),
            Some(FRAC_PI_4),
            FRAC_PI_3 - FRAC_PI_4,
        ),
        // inverted bounds min 1 > max 0, metric 0.5 is above max and below min: 0.5 - 0 = 0.5
        (0.5, Some(1.0), Some(0.0), 0.5),
        // a NaN bound counts as absent
        (5.0, Some(nan), Some(nan), 0.0),
        (5.0, Some(nan), Some(4.0), 1.0),
    ];
    for &(m, min, max, want) in cases {
        let got = violation(m, min, max);
        assert!(
            (got - want).abs() <= EPS,
            "violation({m}, {min:?}, {max:?}) = {got}, want {want}"
        );
    }
    // A NaN metric has no claim: NaN.
    assert!(violation(nan, Some(0.0), Some(1.0)).is_nan());
}

fn close(e: &LimitEval, index: usize, axes: &[u8], metric: f64, violation: f64) {
    assert_eq!(e.index, index, "{e:?}");
    assert_eq!(e.axes, axes, "{e:?}");
    assert!((e.metric - metric).abs() < EPS, "{e:?}: metric {metric}");
    assert!(
        (e.violation - violation).abs() < EPS,
        "{e:?}: violation {violation}"
    );
}

#[test]
fn evaluate_coupled() {
    // KHR: a sphere of radius 1 and a twist within +-45 deg.
    let set = LimitSet::Coupled(vec![
        Limit::hard(DofKind::Linear, &[0, 1, 2], None, Some(1.0)),
        Limit::hard(DofKind::Angular, &[0], Some(-FRAC_PI_4), Some(FRAC_PI_4)),
    ]);
    // B at (0,2,0) turned Rx(60): |d| = 2 -> 2 - 1 = 1 above; twist 60 deg -> pi/3 - pi/4 above.
    let out = evaluate(&set, &origin(), &pose([0.0, 2.0, 0.0], rx(FRAC_PI_3)));
    assert_eq!(out.len(), 2);
    close(&out[0], 0, &[0, 1, 2], 2.0, 1.0);
    assert_eq!(out[0].kind, DofKind::Linear);
    assert_eq!(out[0].max, Some(1.0));
    close(&out[1], 1, &[0], FRAC_PI_3, FRAC_PI_3 - FRAC_PI_4);
    assert_eq!(out[1].kind, DofKind::Angular);
    // B turned Rx(-60): twist -pi/3 -> -pi/3 - (-pi/4) = -pi/12 below.
    let out = evaluate(&set, &origin(), &pose([0.0, 0.5, 0.0], rx(-FRAC_PI_3)));
    close(&out[0], 0, &[0, 1, 2], 0.5, 0.0);
    close(&out[1], 1, &[0], -FRAC_PI_3, -FRAC_PI_3 + FRAC_PI_4);
}

#[test]
fn evaluate_per_axis() {
    // OMI: linearAxes [0,1,2] within [-1, 1] is a box; angular [2] within [0, 0.5].
    let set = LimitSet::PerAxis(vec![
        Limit::hard(DofKind::Linear, &[0, 1, 2], Some(-1.0), Some(1.0)),
        Limit::hard(DofKind::Angular, &[2], Some(0.0), Some(0.5)),
    ]);
    // B at (0.5, -2, 3), turned Rz(-0.25): offsets 0.5 (inside), -2 (-2 - -1 = -1), 3 (3 - 1 = 2);
    // twist about z -0.25 -> -0.25 - 0 = -0.25 below.
    let out = evaluate(&set, &origin(), &pose([0.5, -2.0, 3.0], rz(-0.25)));
    assert_eq!(out.len(), 4);
    close(&out[0], 0, &[0], 0.5, 0.0);
    close(&out[1], 0, &[1], -2.0, -1.0);
    close(&out[2], 0, &[2], 3.0, 2.0);
    close(&out[3], 1, &[2], -0.25, -0.25);
    // The same box read as KHR (coupled) is a sphere: |d| = sqrt(0.25 + 4 + 9) = sqrt(13.25).
    let coupled = LimitSet::Coupled(vec![Limit::hard(
        DofKind::Linear,
        &[0, 1, 2],
        Some(-1.0),
        Some(1.0),
    )]);
    let out = evaluate(&coupled, &origin(), &at([0.5, -2.0, 3.0]));
    close(
        &out[0],
        0,
        &[0, 1, 2],
        13.25f64.sqrt(),
        13.25f64.sqrt() - 1.0,
    );
}

#[test]
fn evaluate_skips_invalid_limits_and_keeps_indices() {
    for make in [
        LimitSet::Coupled as fn(Vec<Limit>) -> LimitSet,
        LimitSet::PerAxis,
    ] {
        let set = make(vec![
            Limit::hard(DofKind::Linear, &[], None, None),
            Limit::hard(DofKind::Linear, &[0, 0], None, None),
            Limit::hard(DofKind::Angular, &[3], None, None),
            Limit::hard(DofKind::Angular, &[0, 1, 2, 0], None, None),
            Limit::hard(DofKind::Linear, &[1], Some(0.0), None),
        ]);
        // d = (0, -2, 0): e_1 . d = -2 -> -2 - 0 = -2 below; only the last limit (index 4) counts.
        let out = evaluate(&set, &origin(), &at([0.0, -2.0, 0.0]));
        assert_eq!(out.len(), 1, "{out:?}");
        close(&out[0], 4, &[1], -2.0, -2.0);
    }
}

#[test]
fn primitive_metrics_read_axes_as_a_set() {
    let b = pose([3.0, -4.0, 12.0], rx(FRAC_PI_3));
    let o = origin();
    // Empty, or only out-of-range entries: nothing constrained -> 0.
    assert_eq!(linear_metric(&[], &o, &b), 0.0);
    assert_eq!(linear_metric(&[3, 200], &o, &b), 0.0);
    assert_eq!(angular_metric(&[], &o, &b), 0.0);
    // Duplicates count once, out-of-range entries are ignored: [0, 0, 7] is [0] -> 3.
    assert_eq!(linear_metric(&[0, 0, 7], &o, &b), 3.0);
    // [0, 1, 1] is [0, 1] -> 5; [2, 2, 1, 0, 0] is the sphere -> 13.
    assert!((linear_metric(&[0, 1, 1], &o, &b) - 5.0).abs() < EPS);
    assert!((linear_metric(&[2, 2, 1, 0, 0], &o, &b) - 13.0).abs() < EPS);
    // [0, 9] is the x twist -> pi/3.
    assert!((angular_metric(&[0, 9], &o, &b) - FRAC_PI_3).abs() < EPS);
    // twist_angle reads an axis above 2 as 2.
    assert_eq!(twist_angle(&rz(0.5), 9), twist_angle(&rz(0.5), 2));
}

#[test]
fn no_negative_zero() {
    // e_0 . d = -0.0 * 1 would print as -0; the API reports 0.
    let m = linear_metric(&[0], &at([0.0, 0.0, 0.0]), &at([-0.0, 1.0, 0.0]));
    assert!(m == 0.0 && m.is_sign_positive());
    let t = twist_angle(
        &UnitQuaternion::new_unchecked(Quaternion::new(1.0, -0.0, 0.0, 0.0)),
        0,
    );
    assert!(t == 0.0 && t.is_sign_positive());
    // The degenerate swing of pi with w = -0.0 and v_x = -0.0 is still +0, never +-pi.
    let q = UnitQuaternion::new_unchecked(Quaternion::new(-0.0, -0.0, 1.0, 0.0));
    let t = twist_angle(&q, 0);
    assert!(t == 0.0 && t.is_sign_positive(), "{t}");
}

#[test]
fn swapping_frames_by_hand() {
    // A = Rz(90) at the origin, B = identity at (1,0,0): d = (1,0,0).
    // metric([0], A, B) = e^A_0 . d = (0,1,0).(1,0,0) = 0
    // metric([0], B, A) = e^B_0 . (-d) = (1,0,0).(-1,0,0) = -1: not -0, so the 1-axis linear
    // metric is not antisymmetric when the rotations differ.
    let a = rot(rz(FRAC_PI_2));
    let b = at([1.0, 0.0, 0.0]);
    assert!(linear_metric(&[0], &a, &b).abs() < EPS);
    assert!((linear_metric(&[0], &b, &a) + 1.0).abs() < EPS);
}

// ---------------------------------------------------------------- properties

fn unit_quaternion() -> impl Strategy<Value = UnitQuaternion<f64>> {
    prop_oneof![
        // generic rotations
        4 => (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
            .prop_filter("not too short", |(w, x, y, z)| w * w + x * x + y * y + z * z > 1e-3)
            .prop_map(|(w, x, y, z)| UnitQuaternion::from_quaternion(Quaternion::new(w, x, y, z))),
        // exact quarter and half turns about the axes (zeros in the quaternion)
        1 => (0..3usize, -2i32..=2).prop_map(|(i, n)| {
            let axis = [Vector3::x_axis(), Vector3::y_axis(), Vector3::z_axis()][i];
            UnitQuaternion::from_axis_angle(&axis, f64::from(n) * FRAC_PI_2)
        }),
    ]
}

fn isometry() -> impl Strategy<Value = Isometry3<f64>> {
    (
        -100.0..100.0f64,
        -100.0..100.0f64,
        -100.0..100.0f64,
        unit_quaternion(),
    )
        .prop_map(|(x, y, z, r)| pose([x, y, z], r))
}

/// Every non-empty axis set.
const AXIS_SETS: [&[u8]; 7] = [&[0], &[1], &[2], &[0, 1], &[0, 2], &[1, 2], &[0, 1, 2]];

/// Difference of two angles on the circle, in [0, pi].
fn angle_gap(x: f64, y: f64) -> f64 {
    let d = (x - y).rem_euclid(2.0 * PI);
    d.min(2.0 * PI - d)
}

/// `w^2 + (v . e_i)^2` of `q_a* q_b`: near 0 the twist is ill-conditioned (close to the
/// degenerate swing of pi), so properties of the twist skip those poses.
fn twist_conditioning(a: &Isometry3<f64>, b: &Isometry3<f64>, axis: usize) -> f64 {
    let q = a.rotation.inverse() * b.rotation;
    q.w * q.w + q.imag()[axis] * q.imag()[axis]
}

/// The range of each row of the module's table; the `ranges` property below checks that every
/// metric stays inside it.
#[test]
fn range_of_each_row() {
    let inf = f64::INFINITY;
    assert_eq!(range(DofKind::Linear, 1), (-inf, inf));
    assert_eq!(range(DofKind::Linear, 2), (0.0, inf));
    assert_eq!(range(DofKind::Linear, 3), (0.0, inf));
    assert_eq!(range(DofKind::Angular, 1), (-PI, PI));
    assert_eq!(range(DofKind::Angular, 2), (0.0, PI));
    assert_eq!(range(DofKind::Angular, 3), (0.0, PI));
    // Half turns reach the top of each angular range: about x for the twist about x and the
    // total angle, about y for the cone about x (axes 1, 2: e_x turned to -e_x).
    let (x, y) = (rot(rx(PI)), rot(ry(PI)));
    assert!((angular_metric(&[0], &origin(), &x).abs() - PI).abs() < EPS);
    assert!((angular_metric(&[1, 2], &origin(), &y) - PI).abs() < EPS);
    assert!((angular_metric(&[0, 1, 2], &origin(), &x) - PI).abs() < EPS);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every metric depends only on the relative placement of the frames: applying one rigid
    /// motion M to both leaves it unchanged.
    #[test]
    fn invariant_under_rigid_motion(a in isometry(), b in isometry(), m in isometry()) {
        let (ma, mb) = (m * a, m * b);
        for axes in AXIS_SETS {
            let (l0, l1) = (linear_metric(axes, &a, &b), linear_metric(axes, &ma, &mb));
            prop_assert!((l0 - l1).abs() < 1e-9, "linear {axes:?}: {l0} vs {l1}");
            let (r0, r1) = (angular_metric(axes, &a, &b), angular_metric(axes, &ma, &mb));
            if axes.len() == 1 {
                if twist_conditioning(&a, &b, usize::from(axes[0])) > 1e-6 {
                    prop_assert!(angle_gap(r0, r1) < 1e-6, "twist {axes:?}: {r0} vs {r1}");
                }
            } else {
                prop_assert!((r0 - r1).abs() < 1e-6, "angular {axes:?}: {r0} vs {r1}");
            }
        }
    }

    /// Swapping the frames. What holds precisely:
    /// - 1 linear axis: metric([i], B, A) = -(R_b e_i) . d while metric([i], A, B) = (R_a e_i) . d,
    ///   so the metric is antisymmetric exactly when (R_a e_i - R_b e_i) . d = 0, in particular
    ///   whenever R_a = R_b (see `swapping_frames_by_hand` for a failing pair);
    /// - 2 linear axes: symmetric when R_a = R_b; 3 linear axes: always symmetric (|d|);
    /// - twist: always antisymmetric (q* has the opposite vector part), up to the pi wrap;
    /// - cone and total angle: always symmetric.
    #[test]
    fn swapping_frames(a in isometry(), b in isometry(), t in prop::array::uniform3(-50.0..50.0f64)) {
        let d = b.translation.vector - a.translation.vector;
        for i in 0..3u8 {
            let e_b = b.rotation * Vector3::ith(usize::from(i), 1.0);
            let swapped = linear_metric(&[i], &b, &a);
            prop_assert!((swapped + e_b.dot(&d)).abs() < 1e-9);
        }
        // same rotation: move B's origin only
        let b_same = pose(t, a.rotation);
        for axes in AXIS_SETS {
            let (ab, ba) = (linear_metric(axes, &a, &b_same), linear_metric(axes, &b_same, &a));
            if axes.len() == 1 {
                prop_assert!((ab + ba).abs() < 1e-9, "{axes:?}: {ab} vs {ba}");
            } else {
                prop_assert!((ab - ba).abs() < 1e-9, "{axes:?}: {ab} vs {ba}");
            }
        }
        prop_assert!((linear_metric(&[0, 1, 2], &a, &b) - linear_metric(&[0, 1, 2], &b, &a)).abs() < 1e-9);
        for axes in AXIS_SETS {
            let (ab, ba) = (angular_metric(axes, &a, &b), angular_metric(axes, &b, &a));
            if axes.len() == 1 {
                if twist_conditioning(&a, &b, usize::from(axes[0])) > 1e-6 {
                    prop_assert!(angle_gap(ab, -ba) < 1e-9, "twist {axes:?}: {ab} vs {ba}");
                }
            } else {
                prop_assert!((ab - ba).abs() < 1e-9, "angular {axes:?}: {ab} vs {ba}");
            }
        }
    }

    /// The 3-axis linear metric is the distance between the frame origins, and the 2-axis one
    /// never exceeds it nor falls below a 1-axis offset of its own axes.
    #[test]
    fn sphere_is_distance(a in isometry(), b in isometry()) {
        let dist = (b.translation.vector - a.translation.vector).norm();
        let sphere = linear_metric(&[0, 1, 2], &a, &b);
        prop_assert!((sphere - dist).abs() < 1e-9);
        let cyl = linear_metric(&[0, 1], &a, &b);
        prop_assert!(cyl <= sphere + 1e-9);
        prop_assert!(cyl + 1e-9 >= linear_metric(&[0], &a, &b).abs());
        // Pythagoras: cylinder about e_2 and offset along e_2 make the distance.
        let along = linear_metric(&[2], &a, &b);
        prop_assert!((cyl.hypot(along) - dist).abs() < 1e-9);
    }

    /// Every metric lies in its `range` (cone and total angle in [0, pi], the twist in
    /// (-pi, pi], distances from 0); nothing is ever NaN, also at the exact quarter and half
    /// turns the strategy mixes in.
    #[test]
    fn ranges(a in isometry(), b in isometry()) {
        for axes in AXIS_SETS {
            let l = linear_metric(axes, &a, &b);
            let (lo, hi) = range(DofKind::Linear, axes.len());
            prop_assert!(l.is_finite() && (lo..=hi).contains(&l), "{axes:?}: {l}");
            let r = angular_metric(axes, &a, &b);
            let (lo, hi) = range(DofKind::Angular, axes.len());
            prop_assert!((lo..=hi).contains(&r), "{axes:?}: {r}");
            if axes.len() == 1 {
                prop_assert!(r > -PI, "twist {r}");
            }
        }
        // total angle >= cone angle (turning e_k by theta takes a rotation of at least theta)
        let total = angular_metric(&[0, 1, 2], &a, &b);
        for axes in [&[0u8, 1][..], &[0, 2], &[1, 2]] {
            prop_assert!(angular_metric(axes, &a, &b) <= total + 1e-9);
        }
    }

    /// A pure rotation about A's axis i by t in (-pi, pi]: twist i = t, cone about k = i is 0,
    /// total angle = |t|, and the twists about the other axes are 0.
    #[test]
    fn pure_rotation(a in isometry(), i in 0..3usize, t in (-PI + 1e-9)..(PI - 1e-9), off in prop::array::uniform3(-10.0..10.0f64)) {
        let axis = Unit::new_unchecked(Vector3::ith(i, 1.0));
        let b = pose(off, a.rotation * UnitQuaternion::from_axis_angle(&axis, t));
        let i8 = u8::try_from(i).unwrap_or(0);
        prop_assert!((angular_metric(&[i8], &a, &b) - t).abs() < 1e-9);
        let (j, k) = ((i8 + 1) % 3, (i8 + 2) % 3);
        // Near t = +-pi the other twists approach the degenerate swing of pi (w -> 0 with
        // v_j = v_k = 0), where rounding decides the value: check them away from it.
        if t.abs() < PI - 1e-3 {
            prop_assert!(angular_metric(&[j], &a, &b).abs() < 1e-9);
            prop_assert!(angular_metric(&[k], &a, &b).abs() < 1e-9);
        }
        prop_assert!(angular_metric(&[j, k], &a, &b).abs() < 1e-9);
        prop_assert!((angular_metric(&[0, 1, 2], &a, &b) - t.abs()).abs() < 1e-9);
        prop_assert!((total_angle(&(a.rotation.inverse() * b.rotation)) - t.abs()).abs() < 1e-9);
    }

    /// Inside the given bounds the violation is exactly 0; above max it is metric - max > 0,
    /// below min it is metric - min < 0.
    #[test]
    fn violation_sign(m in -1e3..1e3f64, x in -1e3..1e3f64, y in -1e3..1e3f64, use_min: bool, use_max: bool) {
        let (lo, hi) = (x.min(y), x.max(y));
        let (min, max) = (use_min.then_some(lo), use_max.then_some(hi));
        let v = violation(m, min, max);
        let above = max.is_some_and(|h| m > h);
        let below = min.is_some_and(|l| m < l);
        if above {
            prop_assert!(v > 0.0 && v == m - hi);
        } else if below {
            prop_assert!(v < 0.0 && v == m - lo);
        } else {
            prop_assert!(v == 0.0);
        }
    }

    /// evaluate agrees with the primitive metrics entry by entry.
    #[test]
    fn evaluate_matches_primitives(a in isometry(), b in isometry(), li in 0..7usize, ai in 0..7usize) {
        let (la, aa) = (AXIS_SETS[li], AXIS_SETS[ai]);
        let limits = vec![
            Limit::hard(DofKind::Linear, la, Some(-1.0), Some(1.0)),
            Limit::hard(DofKind::Angular, aa, Some(-0.5), Some(0.5)),
        ];
        let coupled = evaluate(&LimitSet::Coupled(limits.clone()), &a, &b);
        prop_assert_eq!(coupled.len(), 2);
        prop_assert_eq!(coupled[0].metric, linear_metric(la, &a, &b));
        prop_assert_eq!(coupled[1].metric, angular_metric(aa, &a, &b));
        let per_axis = evaluate(&LimitSet::PerAxis(limits), &a, &b);
        prop_assert_eq!(per_axis.len(), la.len() + aa.len());
        for e in &per_axis {
            let want = match e.kind {
                DofKind::Linear => linear_metric(&e.axes, &a, &b),
                DofKind::Angular => angular_metric(&e.axes, &a, &b),
            };
            prop_assert_eq!(e.metric, want);
            prop_assert_eq!(e.violation, violation(want, e.min, e.max));
        }
    }
}
