//! VRMC_node_constraint 1.0 evaluation [D-VRM1-*], hand-worked: each case is read from a small
//! glTF written here (so the reader is exercised too), posed, evaluated, and compared with an
//! oracle whose arithmetic is in the comment (never computed by the code under test).
//!
//! Notation: quaternions `(w, x, y, z)`; `rx(a)`, `ry(a)`, `rz(a)` rotate by `a` degrees;
//! `c(a) = cos(a deg)`, `s(a) = sin(a deg)`, `r = sqrt(2)/2`. A product of quaternions is
//! `(w1 w2 - v1.v2, w1 v2 + w2 v1 + v1 x v2)`. `ry(a) (x, y, z) = (x c(a) + z s(a), y, -x s(a) +
//! z c(a))`, `rx(a) (x, y, z) = (x, y c(a) - z s(a), y s(a) + z c(a))`.

mod common;

use common::pose::{Override, c, posed, q, rx, ry, rz, s};
use nalgebra::{UnitQuaternion, Vector3};
use reference::constraints;
use reference::profile::Profile;
use reference::scene::{Scene, Trs};

const R: f64 = std::f64::consts::FRAC_1_SQRT_2;

/// glTF `[x, y, z, w]` of a quaternion, for writing files.
fn xyzw(r: UnitQuaternion<f64>) -> String {
    format!("[{}, {}, {}, {}]", r.i, r.j, r.k, r.w)
}

/// A node object: name, optional translation/rotation, children, optional constraint JSON.
fn node(
    name: &str,
    t: [f64; 3],
    r: UnitQuaternion<f64>,
    children: &[usize],
    constraint: Option<&str>,
) -> String {
    let mut s = format!(
        r#"{{"name": "{name}", "translation": [{}, {}, {}], "rotation": {}"#,
        t[0],
        t[1],
        t[2],
        xyzw(r)
    );
    if !children.is_empty() {
        let list: Vec<String> = children.iter().map(|c| c.to_string()).collect();
        s += &format!(r#", "children": [{}]"#, list.join(", "));
    }
    if let Some(con) = constraint {
        s += &format!(
            r#", "extensions": {{"VRMC_node_constraint": {{"specVersion": "1.0", "constraint": {con}}}}}"#
        );
    }
    s + "}"
}

/// Read a document of the given nodes (the roots listed), asserting it is valid VRM 1.0.
fn scene(nodes: &[String], roots: &[usize]) -> Scene {
    let roots: Vec<String> = roots.iter().map(|c| c.to_string()).collect();
    let json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "extensionsUsed": ["VRMC_node_constraint"],
            "scene": 0, "scenes": [{{"nodes": [{}]}}], "nodes": [{}]}}"#,
        roots.join(", "),
        nodes.join(", ")
    );
    let reading = reference::read_bytes(json.as_bytes(), None, None);
    assert_eq!(reading.profile, Some(Profile::VrmcNodeConstraint10));
    assert!(reading.issues.is_empty(), "{:?}", reading.issues);
    reading.scene.expect("scene")
}

/// Evaluate at rest with the given local overrides.
fn eval(scene: &Scene, overrides: &[Override]) -> Vec<Trs> {
    constraints::evaluate(scene, &posed(scene, overrides)).expect("evaluates")
}

/// Same rotation up to the quaternion's sign, within 1e-12.
#[track_caller]
fn same(got: UnitQuaternion<f64>, want: UnitQuaternion<f64>) {
    let d = got.coords.dot(&want.coords).abs();
    assert!(
        (1.0 - d).abs() < 1e-12,
        "got {:?}, want {:?}",
        got.coords,
        want.coords
    );
}

const ID: [f64; 3] = [0.0; 3];
fn id() -> UnitQuaternion<f64> {
    UnitQuaternion::identity()
}

fn with_weight(kind: &str, body: &str, w: f64) -> String {
    format!(r#"{{"{kind}": {{{body}, "weight": {w}}}}}"#)
}

// ----- rotation ---------------------------------------------------------------------------

#[test]
fn rotation_at_weights_0_half_1() {
    // Src 0 (rest rz(20)), posed rz(20) rz(60) = rz(80): delta S0^-1 S = rz(60).
    // Dst 1 rest rx(90); target q0 delta = rx(90) rz(60):
    //   w = c45 c30, v = c45 (0, 0, s30) + c30 (s45, 0, 0) + (s45, 0, 0) x (0, 0, s30)
    //     = (c30 s45, -s45 s30, c45 s30): r (c30, c30, -s30, s30).
    // Weight 0.5: rx(90) rz(30) = r (c15, c15, -s15, s15). Weight 0: rx(90).
    // (delta q0 = rz(60) rx(90) would have +s30 in y.)
    for (w, want) in [
        (1.0, q(R * c(30.0), R * c(30.0), -R * s(30.0), R * s(30.0))),
        (0.5, q(R * c(15.0), R * c(15.0), -R * s(15.0), R * s(15.0))),
        (0.0, rx(90.0)),
    ] {
        let sc = scene(
            &[
                node("src", ID, rz(20.0), &[], None),
                node(
                    "dst",
                    [1.0, 0.0, 0.0],
                    rx(90.0),
                    &[],
                    Some(&with_weight("rotation", r#""source": 0"#, w)),
                ),
            ],
            &[0, 1],
        );
        let out = eval(&sc, &[(0, None, Some(rz(80.0)))]);
        same(out[1].rotation, want);
        assert_eq!(out[1].translation, Vector3::new(1.0, 0.0, 0.0));
    }
}

#[test]
fn rotation_reads_the_source_local_rotation_only() {
    // The source's parent turns rx(90) at the pose: a local-local constraint does not see it.
    let sc = scene(
        &[
            node("parent", ID, id(), &[1], None),
            node("src", ID, id(), &[], None),
            node("dst", ID, id(), &[], Some(r#"{"rotation": {"source": 1}}"#)),
        ],
        &[0, 2],
    );
    let out = eval(&sc, &[(0, None, Some(rx(90.0))), (1, None, Some(rz(40.0)))]);
    same(out[2].rotation, rz(40.0));
}

// ----- roll -------------------------------------------------------------------------------

/// Roll with the source and destination at rest identity: delta = the source's rotation.
/// The source turns `swing * twist` where `twist` is about the roll axis and `swing` about an
/// axis orthogonal to it, so fromTo(axis, delta axis) = swing and the roll is `twist`.
fn roll_case(axis: &str, pose: UnitQuaternion<f64>, w: f64) -> UnitQuaternion<f64> {
    let body = format!(r#""source": 0, "rollAxis": "{axis}""#);
    let sc = scene(
        &[
            node("src", ID, id(), &[], None),
            node("dst", ID, id(), &[], Some(&with_weight("roll", &body, w))),
        ],
        &[0, 1],
    );
    eval(&sc, &[(0, None, Some(pose))])[1].rotation
}

#[test]
fn roll_about_each_axis_with_a_swing_present() {
    // X: pose rz(90) rx(60); delta x = rz(90) x = y, fromTo(x, y) = rz(90) (x cross y = z):
    //    roll = rz(90)^-1 rz(90) rx(60) = rx(60); weight 0.5: rx(30); weight 0: identity.
    // Y: pose rx(90) ry(60); rx(90) y = z, fromTo(y, z) = rx(90): roll ry(60).
    // Z: pose ry(90) rz(60); ry(90) z = x, fromTo(z, x) = ry(90) (z cross x = y): roll rz(60).
    type Rot = fn(f64) -> UnitQuaternion<f64>;
    let cases: [(&str, Rot, Rot); 3] = [("X", rz, rx), ("Y", rx, ry), ("Z", ry, rz)];
    for (axis, swing, twist) in cases {
        let pose = swing(90.0) * twist(60.0);
        same(roll_case(axis, pose, 1.0), twist(60.0));
        same(roll_case(axis, pose, 0.5), twist(30.0));
        same(roll_case(axis, pose, 0.0), id());
        // A pure swing transfers nothing.
        same(roll_case(axis, swing(70.0), 1.0), id());
    }
}

#[test]
fn roll_moves_the_source_delta_into_the_destination_rest_frame() {
    // Src rest rz(30), posed rx(60) rz(30): delta in the parent S S0^-1 = rx(60).
    // Dst rest rz(90): delta in dst = rz(-90) rx(60) rz(90) = 60deg about rz(-90) x = -y:
    //   ry(-60). Roll axis Y: ry(-60) y = y, no swing, roll ry(-60).
    //   Result rz(90) ry(-60): w = c45 c30, v = c45 (0, -s30, 0) + c30 (0, 0, s45)
    //   + (0, 0, s45) x (0, -s30, 0) = (s45 s30, -c45 s30, c30 s45): r (c30, s30, -s30, c30).
    // Roll axis X: ry(-60) x = (c60, 0, s60), fromTo = ry(-60), roll identity: rest rz(90).
    let make = |axis: &str| {
        let body = format!(r#""source": 0, "rollAxis": "{axis}""#);
        scene(
            &[
                node("src", ID, rz(30.0), &[], None),
                node(
                    "dst",
                    ID,
                    rz(90.0),
                    &[],
                    Some(&format!(r#"{{"roll": {{{body}}}}}"#)),
                ),
            ],
            &[0, 1],
        )
    };
    let pose = [(0, None, Some(rx(60.0) * rz(30.0)))];
    same(
        eval(&make("Y"), &pose)[1].rotation,
        q(R * c(30.0), R * s(30.0), -R * s(30.0), R * c(30.0)),
    );
    same(eval(&make("X"), &pose)[1].rotation, rz(90.0));
}

#[test]
fn roll_with_the_source_as_parent_is_valid() {
    // The text's own hierarchy: Twist (roll, source LowerArm) under LowerArm. LowerArm turns
    // rx(50) (a pure twist about X): Twist rolls rx(50) in its own frame.
    let sc = scene(
        &[
            node("lower", ID, id(), &[1], None),
            node(
                "twist",
                [0.0, 1.0, 0.0],
                id(),
                &[],
                Some(r#"{"roll": {"source": 0, "rollAxis": "X", "weight": 0.5}}"#),
            ),
        ],
        &[0],
    );
    same(
        eval(&sc, &[(0, None, Some(rx(50.0)))])[1].rotation,
        rx(25.0),
    );
}

// ----- aim --------------------------------------------------------------------------------

fn aim_scene(axis: &str, src_at: [f64; 3], w: f64) -> Scene {
    let body = format!(r#""source": 0, "aimAxis": "{axis}""#);
    scene(
        &[
            node("src", src_at, id(), &[], None),
            node("dst", ID, id(), &[], Some(&with_weight("aim", &body, w))),
        ],
        &[0, 1],
    )
}

#[test]
fn aim_with_the_source_behind_the_destination() {
    // Dst at the origin, aim +Z, Src at (1, 0, -1): from z to (1, 0, -1)/sqrt2 is 135 deg about
    // z x (1, 0, -1) = (0, 1, 0): ry(135); weight 0.5: ry(67.5); weight 0: identity.
    // Aim -X at a source at (1, 0, -1): from -x to (1, 0, -1)/sqrt2 is 135 deg about
    // (-x) x (1, 0, -1) = (0, -1, 0): ry(-135).
    for (axis, w, want) in [
        ("PositiveZ", 1.0, ry(135.0)),
        ("PositiveZ", 0.5, ry(67.5)),
        ("PositiveZ", 0.0, id()),
        ("NegativeX", 1.0, ry(-135.0)),
    ] {
        let sc = aim_scene(axis, [1.0, 0.0, -1.0], w);
        same(eval(&sc, &[])[1].rotation, want);
    }
}

#[test]
fn aim_exactly_behind_takes_three_js_half_turn() {
    // [D-VRM1-FROM-TO] from z to -z: |z.x| > |z.z| is false, axis (0, -z.z, z.y) = (0, -1, 0):
    // (w, x, y, z) = (0, 0, -1, 0), the half turn about y.
    same(
        eval(&aim_scene("PositiveZ", [0.0, 0.0, -3.0], 1.0), &[])[1].rotation,
        ry(180.0),
    );
}

#[test]
fn aim_follows_a_moved_source_and_leaves_rest_when_it_sits_on_the_destination() {
    // Aim +Y, source moved to (0, 0, 2): from y to z is 90 deg about y x z = x: rx(90).
    let sc = aim_scene("PositiveY", [0.0, 1.0, 0.0], 1.0);
    same(eval(&sc, &[])[1].rotation, id());
    same(
        eval(&sc, &[(0, Some([0.0, 0.0, 2.0]), None)])[1].rotation,
        rx(90.0),
    );
    same(eval(&sc, &[(0, Some(ID), None)])[1].rotation, id());
}

#[test]
fn aim_with_a_rotated_parent() {
    // Parent 0 rest ry(90) at the origin; Dst 1 its child at the origin, rest identity, aim +Z;
    // Src 2 a root at (0, 5, 0). P = ry(90): from = P z = (1, 0, 0), to = (0, 1, 0),
    // fromTo = rz(90). Local target P^-1 rz(90) P = 90 deg about ry(-90) z = (-1, 0, 0):
    // rx(-90) = (r, -r, 0, 0). Check: ry(90) rx(-90) z = ry(90) (0, 1, 0) = (0, 1, 0).
    // Weight 0.5: rx(-45).
    for (w, want) in [(1.0, rx(-90.0)), (0.5, rx(-45.0))] {
        let body = format!(r#"{{"aim": {{"source": 2, "aimAxis": "PositiveZ", "weight": {w}}}}}"#);
        let sc = scene(
            &[
                node("parent", ID, ry(90.0), &[1], None),
                node("dst", ID, id(), &[], Some(&body)),
                node("src", [0.0, 5.0, 0.0], id(), &[], None),
            ],
            &[0, 2],
        );
        same(eval(&sc, &[])[1].rotation, want);
        // The parent turning back to identity at the pose: from = z, to = y, rx(-90) again in
        // the parent frame: P = I, fromTo(z, y) = rx(-90).
        same(eval(&sc, &[(0, None, Some(id()))])[1].rotation, want);
    }
}

// ----- order --------------------------------------------------------------------------------

#[test]
fn chain_runs_in_dependency_order_not_file_order() {
    // Node 1 (C) copies node 2 (B), which copies node 0 (A) at weight 0.5. A posed rz(60):
    // B = rz(30), then C = B's delta = rz(30). In file order C would run first and see B at
    // rest: identity.
    let sc = scene(
        &[
            node("a", ID, id(), &[], None),
            node("c", ID, id(), &[], Some(r#"{"rotation": {"source": 2}}"#)),
            node(
                "b",
                ID,
                id(),
                &[],
                Some(r#"{"rotation": {"source": 0, "weight": 0.5}}"#),
            ),
        ],
        &[0, 1, 2],
    );
    let out = eval(&sc, &[(0, None, Some(rz(60.0)))]);
    same(out[2].rotation, rz(30.0));
    same(out[1].rotation, rz(30.0));
}

#[test]
fn aim_runs_after_the_constraint_that_turns_its_parent() {
    // 0 Src at (0, 0, 5); 1 Parent (rotation, source 3); 2 Dst child of 1, aim +Z at 0;
    // 3 Driver posed ry(90). Parent = ry(90) first; then P = ry(90), from = P z = x, to = z,
    // fromTo(x, z) = 90 deg about x cross z = -y: ry(-90); local P^-1 ry(-90) P = ry(-90)
    // = (r, 0, -r, 0). Run before the parent's constraint, it would keep identity.
    let sc = scene(
        &[
            node("src", [0.0, 0.0, 5.0], id(), &[], None),
            node(
                "parent",
                ID,
                id(),
                &[2],
                Some(r#"{"rotation": {"source": 3}}"#),
            ),
            node(
                "dst",
                ID,
                id(),
                &[],
                Some(r#"{"aim": {"source": 0, "aimAxis": "PositiveZ"}}"#),
            ),
            node("driver", ID, id(), &[], None),
        ],
        &[0, 1, 3],
    );
    let out = eval(&sc, &[(3, None, Some(ry(90.0)))]);
    same(out[1].rotation, ry(90.0));
    same(out[2].rotation, q(R, 0.0, -R, 0.0));
}
