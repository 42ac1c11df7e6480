//! VRM constraint evaluation [D-VRM-*]: a hand-worked table (the arithmetic of each case in its
//! comment), the dependency order [D-VRM-ORDER], and property tests (weight 0, copying the
//! source's delta, independence from node order, aim geometry, robustness on bad input).
//!
//! Notation: `rx(a)`, `ry(a)`, `rz(a)` rotate by `a` degrees about x, y, z; quaternions are
//! written `(w, x, y, z)`; `c(a) = cos(a deg)`, `s(a) = sin(a deg)`. Rotating a vector:
//! `rz(a) (x, y, z) = (x c(a) - y s(a), x s(a) + y c(a), z)`, `rx(a) (x, y, z) = (x, y c(a) - z
//! s(a), y s(a) + z c(a))`. A product of quaternions is `(w1 w2 - v1.v2, w1 v2 + w2 v1 + v1 x v2)`.

mod common;

use std::collections::BTreeMap;

use common::pose::{Override, c, posed, q, rx, rz, s};
use nalgebra::{Matrix4, Quaternion, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::constraints::{self, ConstraintError, Evaluator, Which};
use reference::poses::Poses;
use reference::profile::Profile;
use reference::scene::{ConstraintKind, NodeConstraint, Scene, Space, Trs};

use Space::{Local as L, Model as M};

// ----- building scenes ---------------------------------------------------------------------

const I: fn() -> UnitQuaternion<f64> = UnitQuaternion::identity;

fn trs(t: [f64; 3], r: UnitQuaternion<f64>, scale: [f64; 3]) -> Trs {
    Trs {
        translation: Vector3::from(t),
        rotation: r,
        scale: Vector3::from(scale),
    }
}
fn at(t: [f64; 3]) -> Trs {
    trs(t, I(), [1.0; 3])
}
fn tr(t: [f64; 3], r: UnitQuaternion<f64>) -> Trs {
    trs(t, r, [1.0; 3])
}
/// A root node at the origin, unrotated.
fn root() -> (Option<usize>, Trs) {
    (None, at([0.0; 3]))
}

/// A scene from (parent, rest) per node, children and roots derived.
fn build(nodes: &[(Option<usize>, Trs)], constraints: Vec<NodeConstraint>) -> Scene {
    let mut scene = Scene::from_parents(Profile::VrmcConstraintsDraft, nodes);
    scene.constraints = constraints;
    scene
}

fn con(
    node: usize,
    source: usize,
    ss: Space,
    ds: Space,
    w: f64,
    kind: ConstraintKind,
) -> NodeConstraint {
    NodeConstraint {
        node,
        source,
        source_space: ss,
        destination_space: ds,
        weight: w,
        kind,
    }
}
fn pos(n: usize, src: usize, ss: Space, ds: Space, w: f64, f: [bool; 3]) -> NodeConstraint {
    let kind = ConstraintKind::Position { freeze_axes: f };
    con(n, src, ss, ds, w, kind)
}
fn rot(n: usize, src: usize, ss: Space, ds: Space, w: f64, f: [bool; 3]) -> NodeConstraint {
    let kind = ConstraintKind::Rotation { freeze_axes: f };
    con(n, src, ss, ds, w, kind)
}
/// An aim constraint: aim vector `a`, up vector `u`, constrained axes `f` (yaw, pitch).
#[allow(clippy::too_many_arguments)]
fn aim(
    n: usize,
    src: usize,
    ss: Space,
    ds: Space,
    w: f64,
    a: [f64; 3],
    u: [f64; 3],
    f: [bool; 2],
) -> NodeConstraint {
    let (aim_vector, up_vector) = (Vector3::from(a), Vector3::from(u));
    let kind = ConstraintKind::Aim {
        aim_vector,
        up_vector,
        freeze_axes: f,
    };
    con(n, src, ss, ds, w, kind)
}
const ALL3: [bool; 3] = [true; 3];
const Z: [f64; 3] = [0.0, 0.0, 1.0];
const Y: [f64; 3] = [0.0, 1.0, 0.0];

// ----- the hand-worked table ---------------------------------------------------------------

enum Want {
    /// Local translation of a node.
    T(usize, [f64; 3]),
    /// Local rotation of a node (up to sign).
    R(usize, UnitQuaternion<f64>),
}

/// A row of the hand-worked table: a scene, its pose and the wanted outputs.
struct WorkedCase {
    name: String,
    scene: Scene,
    pose: Vec<Trs>,
    want: Vec<Want>,
}

/// A row with no wanted value yet: `scene` posed with `overrides`.
fn case(name: &str, scene: Scene, overrides: &[Override]) -> WorkedCase {
    let pose = posed(&scene, overrides);
    let (name, want) = (name.to_owned(), Vec::new());
    WorkedCase {
        name,
        scene,
        pose,
        want,
    }
}

impl WorkedCase {
    /// Wants node `n` at local translation `t`.
    fn translation(mut self, n: usize, t: [f64; 3]) -> Self {
        self.want.push(Want::T(n, t));
        self
    }
    /// Wants node `n` at local rotation `r` (up to sign).
    fn rotation(mut self, n: usize, r: UnitQuaternion<f64>) -> Self {
        self.want.push(Want::R(n, r));
        self
    }
}

/// Two roots: 0 the source at (1, 0, 0), 1 the destination at (0, 2, 0).
fn siblings(rest_src: Trs, rest_dst: Trs, c: NodeConstraint) -> Scene {
    build(&[(None, rest_src), (None, rest_dst)], vec![c])
}

/// Source 0 under parent 2 = T(0,0,10) rz(90); destination 1 under parent 3 = T(5,0,0) rz(90) S(2).
fn parented(src_rest: Trs, dst_rest: Trs, c: NodeConstraint) -> Scene {
    build(
        &[
            (Some(2), src_rest),
            (Some(3), dst_rest),
            (None, tr([0.0, 0.0, 10.0], rz(90.0))),
            (None, trs([5.0, 0.0, 0.0], rz(90.0), [2.0; 3])),
        ],
        vec![c],
    )
}

/// Destination 1 at the origin (root, q0 = I), source 0 at `src` (root).
fn aim_scene(src: Trs, c: NodeConstraint) -> Scene {
    build(&[(None, src), root()], vec![c])
}

fn table() -> Vec<WorkedCase> {
    let src = at([1.0, 0.0, 0.0]);
    let dst = at([0.0, 2.0, 0.0]);
    let h = std::f64::consts::FRAC_1_SQRT_2;
    // Each section's rows share a scene; a row names its case after the section's word.
    // position between `siblings`: weight, axes, the source posed at `t`.
    let sibling_position = |name: &str, w, freeze, t| {
        let scene = siblings(src, dst, pos(1, 0, L, L, w, freeze));
        case(&format!("position {name}"), scene, &[(0, Some(t), None)])
    };
    // position between `parented` nodes: spaces, `node` posed at `t`.
    let parented_position = |name: &str, ss, ds, node, t| {
        let scene = parented(src, dst, pos(1, 0, ss, ds, 1.0, ALL3));
        case(&format!("position {name}"), scene, &[(node, Some(t), None)])
    };
    // rotation between siblings at rest rz30 and rx90, the source posed rz90.
    let sibling_rotation = |name: &str, w, freeze| {
        let (rest_src, rest_dst) = (tr([1.0, 0.0, 0.0], rz(30.0)), tr([0.0, 2.0, 0.0], rx(90.0)));
        let scene = siblings(rest_src, rest_dst, rot(1, 0, L, L, w, freeze));
        case(
            &format!("rotation {name}"),
            scene,
            &[(0, None, Some(rz(90.0)))],
        )
    };
    // rotation between `siblings` at rest, the source posed `r`.
    let turned_rotation = |name: &str, w, freeze, r| {
        let scene = siblings(src, dst, rot(1, 0, L, L, w, freeze));
        case(&format!("rotation {name}"), scene, &[(0, None, Some(r))])
    };
    // rotation between `parented` nodes (destination at `dst_rest`), the source posed rx90.
    let parented_rotation = |name: &str, ss, ds, dst_rest| {
        let scene = parented(src, dst_rest, rot(1, 0, ss, ds, 1.0, ALL3));
        case(
            &format!("rotation {name}"),
            scene,
            &[(0, None, Some(rx(90.0)))],
        )
    };
    // model/model aim (z, up y) at a source resting at (0,0,2): weight, axes, posed at `t`.
    let aim_z = |name: &str, w, freeze, t| {
        let scene = aim_scene(at([0.0, 0.0, 2.0]), aim(1, 0, M, M, w, Z, Y, freeze));
        case(&format!("aim {name}"), scene, &[(0, Some(t), None)])
    };
    let tilt = UnitQuaternion::from_scaled_axis(Vector3::new(0.3, 0.0, 0.4));
    let up = [1.0, 2f64.sqrt(), 1.0];
    vec![
        // ---- position [D-VRM-POSITION] ----
        // delta = (3,1,0) - (1,0,0) = (2,1,0); t = (0,2,0) + (2,1,0) = (2,3,0).
        sibling_position("local/local w1", 1.0, ALL3, [3.0, 1.0, 0.0])
            .translation(1, [2.0, 3.0, 0.0]),
        // delta = (2,1,0) * 0.5 = (1,0.5,0); t = (1,2.5,0).
        sibling_position("local/local w0.5", 0.5, ALL3, [3.0, 1.0, 0.0])
            .translation(1, [1.0, 2.5, 0.0]),
        // weight 0: t = rest (0,2,0).
        sibling_position("local/local w0", 0.0, ALL3, [3.0, 1.0, 0.0])
            .translation(1, [0.0, 2.0, 0.0]),
        // delta = (3,1,5) - (1,0,0) = (2,1,5), y not constrained: (2,0,5); t = (2,2,5).
        sibling_position("freeze x,z", 1.0, [true, false, true], [3.0, 1.0, 5.0])
            .translation(1, [2.0, 2.0, 5.0]),
        // no axis constrained: t = rest (0,2,0).
        sibling_position("freeze none", 1.0, [false; 3], [3.0, 1.0, 5.0])
            .translation(1, [0.0, 2.0, 0.0]),
        // y only, half weight: (2,1,5) -> (0,1,0) * 0.5 = (0,0.5,0); t = (0,2.5,0).
        sibling_position("freeze y w0.5", 0.5, [false, true, false], [3.0, 1.0, 5.0])
            .translation(1, [0.0, 2.5, 0.0]),
        // Source model position: (0,0,10) + rz90 (1,0,0) = (0,1,10) at rest; posed local (2,0,0)
        // -> (0,2,10); delta (0,1,0). Destination parent linear part L = rz90 * 2, so
        // L^-1 delta = 0.5 rz(-90) (0,1,0) = 0.5 (1,0,0) = (0.5,0,0); t = (0,2,0) + (0.5,0,0).
        parented_position("model/model parents", M, M, 0, [2.0, 0.0, 0.0])
            .translation(1, [0.5, 2.0, 0.0]),
        // Local source delta (2,0,0) - (1,0,0) = (1,0,0), read as a model delta:
        // L^-1 (1,0,0) = 0.5 rz(-90) (1,0,0) = 0.5 (0,-1,0); t = (0,1.5,0).
        parented_position("local/model parents", L, M, 0, [2.0, 0.0, 0.0])
            .translation(1, [0.0, 1.5, 0.0]),
        // Model delta (0,1,0) added directly to the local translation: t = (0,3,0).
        parented_position("model/local parents", M, L, 0, [2.0, 0.0, 0.0])
            .translation(1, [0.0, 3.0, 0.0]),
        // The source's parent 2 moves to (0,0,13): source model (0,1,10) -> (0,1,13), delta
        // (0,0,3); t = (0,2,3). (A local source would not see it: delta 0.)
        parented_position("model source, parent moved", M, L, 2, [0.0, 0.0, 13.0])
            .translation(1, [0.0, 2.0, 3.0]),
        parented_position("local source, parent moved", L, L, 2, [0.0, 0.0, 13.0])
            .translation(1, [0.0, 2.0, 0.0]),
        // ---- rotation [D-VRM-ROTATION] ----
        // delta = S0^-1 S = rz(-30) rz(90) = rz(60); out = q0 delta = rx90 rz60
        // = (c45 c30, c30 s45, -s45 s30, c45 s30).
        sibling_rotation("local/local w1", 1.0, ALL3).rotation(
            1,
            q(
                c(45.0) * c(30.0),
                c(30.0) * s(45.0),
                -s(45.0) * s(30.0),
                c(45.0) * s(30.0),
            ),
        ),
        // slerp(I, rz60, 0.5) = rz30; out = rx90 rz30 = (c45 c15, c15 s45, -s45 s15, c45 s15).
        sibling_rotation("local/local w0.5", 0.5, ALL3).rotation(
            1,
            q(
                c(45.0) * c(15.0),
                c(15.0) * s(45.0),
                -s(45.0) * s(15.0),
                c(45.0) * s(15.0),
            ),
        ),
        // weight 0: out = q0 = rx90 = (h, h, 0, 0).
        sibling_rotation("local/local w0", 0.0, ALL3).rotation(1, q(h, h, 0.0, 0.0)),
        // delta rz60 has rotation vector (0,0,pi/3); z not constrained -> 0 -> out = q0 = rx90.
        sibling_rotation("freeze z off", 1.0, [true, true, false]).rotation(1, q(h, h, 0.0, 0.0)),
        // delta = `tilt` = exp((0.3, 0, 0.4)) (angle 0.5 rad); x only: exp((0.3,0,0)) = rx(0.3 rad)
        // = (cos 0.15, sin 0.15, 0, 0); q0 = I.
        turned_rotation("freeze x only", 1.0, [true, false, false], tilt)
            .rotation(1, q(0.15_f64.cos(), 0.15_f64.sin(), 0.0, 0.0)),
        // same delta, x only, weight 0.5: exp((0.15,0,0)) = (cos 0.075, sin 0.075, 0, 0).
        turned_rotation("freeze x only w0.5", 0.5, [true, false, false], tilt)
            .rotation(1, q(0.075_f64.cos(), 0.075_f64.sin(), 0.0, 0.0)),
        // Source model rotation S0 = rz90 (parent), posed local rx90: S = rz90 rx90,
        // delta = S S0^-1 = rz90 rx90 rz(-90) = a 90deg turn about rz90 x = y: ry90.
        // Destination parent P = rz90: out = P^-1 ry90 P = a 90deg turn about rz(-90) y = (1,0,0),
        // i.e. rx90 = (h, h, 0, 0).
        parented_rotation("model/model parents", M, M, dst).rotation(1, q(h, h, 0.0, 0.0)),
        // Local delta S0^-1 S = rx90; out = P^-1 rx90 P = rz(-90) rx90 rz90 = 90deg about
        // rz(-90) x = (0,-1,0): ry(-90) = (h, 0, -h, 0).
        parented_rotation("local/model parents", L, M, dst).rotation(1, q(h, 0.0, -h, 0.0)),
        // Model delta ry90 (as above); local destination with q0 = rz90: out = q0 delta
        // = rz90 ry90 = (h,0,0,h)(h,0,h,0): w = 1/2 - (0,0,h).(0,h,0) = 1/2,
        // v = h(0,h,0) + h(0,0,h) + (0,0,h) x (0,h,0) = (0,1/2,1/2) + (-1/2,0,0): (0.5, -0.5, 0.5, 0.5).
        parented_rotation("model/local parents", M, L, tr([0.0, 2.0, 0.0], rz(90.0)))
            .rotation(1, q(0.5, -0.5, 0.5, 0.5)),
        // A half turn: delta = (0,1,0,0) = rx180; slerp(I, rx180, 0.5) = rx90 = (h, h, 0, 0).
        turned_rotation("half turn w0.5", 0.5, ALL3, q(0.0, 1.0, 0.0, 0.0))
            .rotation(1, q(h, h, 0.0, 0.0)),
        // The negated quaternion is the same rotation: delta -rz60 = rz60 (shortest path),
        // w 0.5 -> rz30 = (c15, 0, 0, s15).
        turned_rotation(
            "negated source w0.5",
            0.5,
            ALL3,
            UnitQuaternion::new_unchecked(-rz(60.0).into_inner()),
        )
        .rotation(1, q(c(15.0), 0.0, 0.0, s(15.0))),
        // ---- aim [D-VRM-AIM] (default frame: aim z, up y, side y x z = x) ----
        // rest direction (0,0,2) - 0: yaw 0, pitch 0. Posed (2,0,2): yaw atan2(1,1) = 45deg,
        // pitch 0: R = ry45 = (c22.5, 0, s22.5, 0); out = R q0, q0 = I.
        aim_z("yaw w1", 1.0, [true, true], [2.0, 0.0, 2.0])
            .rotation(1, q(c(22.5), 0.0, s(22.5), 0.0)),
        // w 0.5: ry22.5 = (c11.25, 0, s11.25, 0).
        aim_z("yaw w0.5", 0.5, [true, true], [2.0, 0.0, 2.0])
            .rotation(1, q(c(11.25), 0.0, s(11.25), 0.0)),
        // w 0: rest rotation I.
        aim_z("yaw w0", 0.0, [true, true], [2.0, 0.0, 2.0]).rotation(1, I()),
        // Posed (0,2,2): pitch asin(1/sqrt2) = 45deg, R = Rot(side x, -45) = rx(-45)
        // = (c22.5, -s22.5, 0, 0); check: rx(-45) z = (0, s45, c45).
        aim_z("pitch", 1.0, [true, true], [0.0, 2.0, 2.0])
            .rotation(1, q(c(22.5), -s(22.5), 0.0, 0.0)),
        // Posed `up` = (1, sqrt2, 1): |.| = 2, d = (1/2, h, 1/2): yaw atan2(1/2, 1/2) = 45, pitch
        // asin(h) = 45. Both: R = ry45 rx(-45) = (c^2, -cs, cs, s^2) with c = c22.5, s = s22.5.
        aim_z("yaw+pitch", 1.0, [true, true], up).rotation(
            1,
            q(
                c(22.5) * c(22.5),
                -c(22.5) * s(22.5),
                c(22.5) * s(22.5),
                s(22.5) * s(22.5),
            ),
        ),
        // Yaw only: pitch stays at rest (0): R = ry45.
        aim_z("yaw only", 1.0, [true, false], up).rotation(1, q(c(22.5), 0.0, s(22.5), 0.0)),
        // Pitch only: yaw stays 0: R = rx(-45).
        aim_z("pitch only", 1.0, [false, true], up).rotation(1, q(c(22.5), -s(22.5), 0.0, 0.0)),
        // Neither: R = I.
        aim_z("none", 1.0, [false, false], up).rotation(1, I()),
        // Rest direction (2,0,0): yaw 90; posed (0,0,-2): yaw atan2(0,-1) = 180. R = ry90,
        // applied on the left of q0 = rz90: ry90 rz90 = (h,0,h,0)(h,0,0,h) = (1/2, 1/2, 1/2, 1/2).
        case(
            "aim from a non-zero rest yaw, local",
            build(
                &[(None, at([2.0, 0.0, 0.0])), (None, tr([0.0; 3], rz(90.0)))],
                vec![aim(1, 0, L, L, 1.0, Z, Y, [true, true])],
            ),
            &[(0, Some([0.0, 0.0, -2.0]), None)],
        )
        .rotation(1, q(0.5, 0.5, 0.5, 0.5)),
        // aimVector x, upVector z: u = z, f = x, side = z x x = y. Rest (2,0,0): yaw 0. Posed
        // (0,2,0): yaw atan2(d.side, d.f) = atan2(1, 0) = 90: R = rz90 = (h, 0, 0, h).
        case(
            "aim custom vectors",
            aim_scene(
                at([2.0, 0.0, 0.0]),
                aim(1, 0, M, M, 1.0, [1.0, 0.0, 0.0], Z, [true, true]),
            ),
            &[(0, Some([0.0, 2.0, 0.0]), None)],
        )
        .rotation(1, q(h, 0.0, 0.0, h)),
        // Model destination under parent 2 = rz90 at the origin: R_model = ry45 (as "aim yaw");
        // out = P^-1 R P q0 = rz(-90) ry45 rz90 = 45deg about rz(-90) y = (1,0,0): rx45.
        case(
            "aim model destination under a rotated parent",
            build(
                &[
                    (None, at([0.0, 0.0, 2.0])),
                    (Some(2), at([0.0; 3])),
                    (None, tr([0.0; 3], rz(90.0))),
                ],
                vec![aim(1, 0, M, M, 1.0, Z, Y, [true, true])],
            ),
            &[(0, Some([2.0, 0.0, 2.0]), None)],
        )
        .rotation(1, q(c(22.5), s(22.5), 0.0, 0.0)),
        // Source posed onto the destination (no direction): the rest rotation q0 = rz90.
        case(
            "aim degenerate at the pose",
            build(
                &[(None, at([0.0, 0.0, 2.0])), (None, tr([0.0; 3], rz(90.0)))],
                vec![aim(1, 0, M, M, 1.0, Z, Y, [true, true])],
            ),
            &[(0, Some([0.0, 0.0, 0.0]), None)],
        )
        .rotation(1, rz(90.0)),
        // Source at the destination at rest: no rest state, so always q0 = rz90.
        case(
            "aim degenerate at rest",
            build(
                &[root(), (None, tr([0.0; 3], rz(90.0)))],
                vec![aim(1, 0, M, M, 1.0, Z, Y, [true, true])],
            ),
            &[(0, Some([5.0, 1.0, 2.0]), None)],
        )
        .rotation(1, rz(90.0)),
        // ---- chains and constrained parents [D-VRM-ORDER] ----
        // 1 <- 0 and 2 <- 1 (listed end first): 0 moves by (1,0,0); 1 = (0,0,0) + (1,0,0);
        // 2 reads 1's output: (0,5,0) + (1,0,0) = (1,5,0).
        case(
            "chain of positions",
            build(
                &[root(), root(), (None, at([0.0, 5.0, 0.0]))],
                vec![pos(2, 1, L, L, 1.0, ALL3), pos(1, 0, L, L, 1.0, ALL3)],
            ),
            &[(0, Some([1.0, 0.0, 0.0]), None)],
        )
        .translation(1, [1.0, 0.0, 0.0])
        .translation(2, [1.0, 5.0, 0.0]),
        // weights multiply along the chain: 1 = 0.5 (1,0,0); 2 = (0,5,0) + 0.5 * 0.5 (1,0,0).
        case(
            "chain of positions w0.5",
            build(
                &[root(), root(), (None, at([0.0, 5.0, 0.0]))],
                vec![pos(2, 1, L, L, 0.5, ALL3), pos(1, 0, L, L, 0.5, ALL3)],
            ),
            &[(0, Some([1.0, 0.0, 0.0]), None)],
        )
        .translation(1, [0.5, 0.0, 0.0])
        .translation(2, [0.25, 5.0, 0.0]),
        // 1 copies 0's delta rz90, 2 copies 1's: both rz90 = (h, 0, 0, h).
        case(
            "chain of rotations",
            build(
                &[root(), root(), root()],
                vec![rot(2, 1, L, L, 1.0, ALL3), rot(1, 0, L, L, 1.0, ALL3)],
            ),
            &[(0, None, Some(rz(90.0)))],
        )
        .rotation(1, q(h, 0.0, 0.0, h))
        .rotation(2, q(h, 0.0, 0.0, h)),
        // Parent 1 copies the rotation of 3 (rz90); its child 2 has a model-space position
        // constraint from 0, which moved by (1,0,0). It must run after 1:
        // L^-1 (1,0,0) = rz(-90) (1,0,0) = (0,-1,0); t = (0,1,0) + (0,-1,0) = 0.
        // (Run before the parent it would give (1,1,0).)
        case(
            "constrained parent, model destination",
            build(
                &[root(), root(), (Some(1), at([0.0, 1.0, 0.0])), root()],
                vec![pos(2, 0, M, M, 1.0, ALL3), rot(1, 3, L, L, 1.0, ALL3)],
            ),
            &[(0, Some([1.0, 0.0, 0.0]), None), (3, None, Some(rz(90.0)))],
        )
        .rotation(1, rz(90.0))
        .translation(2, [0.0, 0.0, 0.0]),
        // Same with a local destination: the parent's rotation does not matter: (1,1,0).
        case(
            "constrained parent, local destination",
            build(
                &[root(), root(), (Some(1), at([0.0, 1.0, 0.0])), root()],
                vec![pos(2, 0, L, L, 1.0, ALL3), rot(1, 3, L, L, 1.0, ALL3)],
            ),
            &[(0, Some([1.0, 0.0, 0.0]), None), (3, None, Some(rz(90.0)))],
        )
        .translation(2, [1.0, 1.0, 0.0]),
        // Source 2 = (1,0,0) under 1, which copies 3's rz90: source model (0,1,0), rest (1,0,0),
        // delta (-1,1,0); destination 4 (root, rest 0): (-1,1,0).
        case(
            "model source under a constrained parent",
            build(
                &[
                    root(),
                    root(),
                    (Some(1), at([1.0, 0.0, 0.0])),
                    root(),
                    root(),
                ],
                vec![pos(4, 2, M, M, 1.0, ALL3), rot(1, 3, L, L, 1.0, ALL3)],
            ),
            &[(3, None, Some(rz(90.0)))],
        )
        .translation(4, [-1.0, 1.0, 0.0]),
        // 1 follows 0 (position, rest (0,0,2)); 2 at the origin aims at 1. 0 moves by (2,0,0):
        // 1 = (2,0,2), yaw 45: ry45 = (c22.5, 0, s22.5, 0).
        case(
            "aim at a constrained source",
            build(
                &[root(), (None, at([0.0, 0.0, 2.0])), root()],
                vec![
                    aim(2, 1, M, M, 1.0, Z, Y, [true, true]),
                    pos(1, 0, L, L, 1.0, ALL3),
                ],
            ),
            &[(0, Some([2.0, 0.0, 0.0]), None)],
        )
        .rotation(2, q(c(22.5), 0.0, s(22.5), 0.0)),
        // ---- fallbacks ----
        // Destination parent scaled (0,1,1) (singular): pseudo-inverse of diag(0,1,1) is
        // diag(0,1,1); delta (1,1,0) -> (0,1,0); t = (0,2,0) + (0,1,0).
        case(
            "singular parent, pseudo-inverse",
            build(
                &[
                    root(),
                    (Some(2), at([0.0, 2.0, 0.0])),
                    (None, trs([0.0; 3], I(), [0.0, 1.0, 1.0])),
                ],
                vec![pos(1, 0, M, M, 1.0, ALL3)],
            ),
            &[(0, Some([1.0, 1.0, 0.0]), None)],
        )
        .translation(1, [0.0, 3.0, 0.0]),
    ]
}

fn same_rotation(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> bool {
    a.coords.dot(&b.coords).abs() > 1.0 - 1e-12
}

#[test]
fn hand_worked_table() {
    let cases = table();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let mut failures = Vec::new();
    for c in &cases {
        let out = match constraints::evaluate(&c.scene, &c.pose) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        for w in &c.want {
            match w {
                Want::T(n, t) => {
                    if (out[*n].translation - Vector3::from(*t)).norm() > 1e-12 {
                        failures.push(format!(
                            "{}: node {n} translation {:?}, want {t:?}",
                            c.name, out[*n].translation
                        ));
                    }
                }
                Want::R(n, r) => {
                    if !same_rotation(&out[*n].rotation, r) {
                        failures.push(format!(
                            "{}: node {n} rotation {:?}, want {:?}",
                            c.name, out[*n].rotation.coords, r.coords
                        ));
                    }
                }
            }
        }
        // Unconstrained nodes are returned as given; constrained ones keep their other parts.
        for (i, t) in out.iter().enumerate() {
            let constrained: Vec<&ConstraintKind> = c
                .scene
                .constraints
                .iter()
                .filter(|k| k.node == i)
                .map(|k| &k.kind)
                .collect();
            let keeps_translation = !constrained
                .iter()
                .any(|k| matches!(k, ConstraintKind::Position { .. }));
            let keeps_rotation = constrained
                .iter()
                .all(|k| matches!(k, ConstraintKind::Position { .. }));
            if keeps_translation && t.translation != c.pose[i].translation
                || keeps_rotation && !same_rotation(&t.rotation, &c.pose[i].rotation)
                || t.scale != c.pose[i].scale
            {
                failures.push(format!("{}: node {i} changed where it should not", c.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- order ----------------------------------------------------------------------------------

#[test]
fn order_follows_dependencies_not_list_order() {
    // Chain 3 <- 2 <- 1 <- 0 listed backwards: order runs the constraint on 1 first.
    let scene = build(
        &[root(), root(), root(), root()],
        vec![
            pos(3, 2, L, L, 1.0, ALL3),
            pos(2, 1, L, L, 1.0, ALL3),
            pos(1, 0, L, L, 1.0, ALL3),
        ],
    );
    assert_eq!(constraints::order(&scene), Ok(vec![2, 1, 0]));
}

#[test]
fn model_destination_waits_for_its_parents_constraint_local_does_not() {
    // 2 (child of 1) reads 0; 1 reads 3. Model destination: 2 depends on 1's constraint.
    let nodes = [root(), root(), (Some(1), at([0.0; 3])), root()];
    let model = build(
        &nodes,
        vec![pos(2, 0, M, M, 1.0, ALL3), rot(1, 3, L, L, 1.0, ALL3)],
    );
    assert_eq!(constraints::dependencies(&model), Ok(vec![vec![1], vec![]]));
    assert_eq!(constraints::order(&model), Ok(vec![1, 0]));
    let local = build(
        &nodes,
        vec![pos(2, 0, L, L, 1.0, ALL3), rot(1, 3, L, L, 1.0, ALL3)],
    );
    assert_eq!(constraints::dependencies(&local), Ok(vec![vec![], vec![]]));
    assert_eq!(constraints::order(&local), Ok(vec![0, 1]));
}

#[test]
fn cycles_are_errors() {
    // 0 <- 1 <- 0.
    let two = build(
        &[root(), root()],
        vec![rot(0, 1, L, L, 1.0, ALL3), rot(1, 0, L, L, 1.0, ALL3)],
    );
    assert_eq!(
        constraints::order(&two),
        Err(ConstraintError::Cycle { nodes: vec![0, 1] })
    );
    assert!(matches!(
        constraints::evaluate(&two, &posed(&two, &[])),
        Err(ConstraintError::Cycle { .. })
    ));
    // The source is the destination, or below it: a cycle of one.
    let own = build(&[root()], vec![rot(0, 0, L, L, 1.0, ALL3)]);
    assert_eq!(
        constraints::order(&own),
        Err(ConstraintError::Cycle { nodes: vec![0] })
    );
    let below = build(
        &[root(), (Some(0), at([0.0; 3]))],
        vec![pos(0, 1, L, L, 1.0, ALL3)],
    );
    assert_eq!(constraints::cycles(&below), Ok(vec![vec![0]]));
    // Through a model destination's parent: 0 reads 2, 2 reads 1 (a child of 0, so 2 also
    // waits for 0: {0, 2} is a cycle either way); with a model destination, 1 waits for 0's
    // constraint and joins the cycle: {0, 1, 2}.
    let nodes = [root(), (Some(0), at([0.0; 3])), root(), root()];
    let via = build(
        &nodes,
        vec![
            rot(0, 2, L, L, 1.0, ALL3),
            pos(1, 3, L, M, 1.0, ALL3),
            rot(2, 1, L, L, 1.0, ALL3),
        ],
    );
    assert_eq!(constraints::cycles(&via), Ok(vec![vec![0, 1, 2]]));
    let local = build(
        &nodes,
        vec![
            rot(0, 2, L, L, 1.0, ALL3),
            pos(1, 3, L, L, 1.0, ALL3),
            rot(2, 1, L, L, 1.0, ALL3),
        ],
    );
    assert_eq!(constraints::cycles(&local), Ok(vec![vec![0, 2]]));
}

#[test]
fn bad_scenes_are_errors() {
    let scene = build(&[root()], vec![rot(0, 5, L, L, 1.0, ALL3)]);
    assert_eq!(
        constraints::order(&scene),
        Err(ConstraintError::NodeOutOfRange {
            constraint: 0,
            node: 5,
            count: 1
        })
    );
    let two = || build(&[root(), (None, at([0.0, 0.0, 1.0]))], vec![]);
    let mut s = two();
    s.constraints = vec![rot(1, 0, L, L, 1.5, ALL3)];
    assert!(matches!(
        constraints::evaluate(&s, &posed(&s, &[])),
        Err(ConstraintError::Weight { .. })
    ));
    s.constraints = vec![rot(1, 0, L, L, f64::NAN, ALL3)];
    assert!(matches!(
        constraints::evaluate(&s, &posed(&s, &[])),
        Err(ConstraintError::Weight { .. })
    ));
    s.constraints = vec![aim(1, 0, L, L, 1.0, [0.0; 3], Y, [true; 2])];
    assert!(matches!(
        constraints::evaluate(&s, &posed(&s, &[])),
        Err(ConstraintError::AimGeometry { .. })
    ));
    s.constraints = vec![aim(1, 0, L, L, 1.0, Y, [0.0, -2.0, 0.0], [true; 2])];
    assert!(matches!(
        constraints::evaluate(&s, &posed(&s, &[])),
        Err(ConstraintError::AimGeometry { .. })
    ));
    s.constraints = vec![pos(1, 0, L, L, 1.0, ALL3)];
    assert_eq!(
        constraints::evaluate(&s, &posed(&s, &[])[..1]),
        Err(ConstraintError::PoseCount {
            expected: 2,
            actual: 1
        })
    );
    let mut pose = posed(&s, &[]);
    pose[0].translation.x = f64::NAN;
    assert_eq!(
        constraints::evaluate(&s, &pose),
        Err(ConstraintError::NonFinite {
            node: 0,
            which: Which::Pose
        })
    );
    let mut pose = posed(&s, &[]);
    pose[1].rotation = UnitQuaternion::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 0.0));
    assert_eq!(
        constraints::evaluate(&s, &pose),
        Err(ConstraintError::ZeroRotation {
            node: 1,
            which: Which::Pose
        })
    );
    let mut bad_rest = two();
    bad_rest.nodes[0].rest.scale.y = f64::INFINITY;
    bad_rest.constraints = vec![pos(1, 0, L, L, 1.0, ALL3)];
    assert!(matches!(
        Evaluator::new(&bad_rest),
        Err(ConstraintError::NonFinite {
            node: 0,
            which: Which::Rest
        })
    ));
    // Overflow: 1e308 - (-1e308) is infinite.
    let mut huge = build(
        &[
            (None, at([-1e308, 0.0, 0.0])),
            (None, at([1e308, 0.0, 0.0])),
        ],
        vec![],
    );
    huge.constraints = vec![pos(1, 0, L, L, 1.0, ALL3)];
    let pose = posed(&huge, &[(0, Some([1e308, 0.0, 0.0]), None)]);
    assert_eq!(
        constraints::evaluate(&huge, &pose),
        Err(ConstraintError::NonFiniteResult { constraint: 0 })
    );
}

#[test]
fn non_unit_rotations_are_normalised() {
    // Source posed with 2 * rz90 (length 2): read as rz90; destination copies it.
    let scene = build(&[root(), root()], vec![rot(1, 0, L, L, 1.0, ALL3)]);
    let mut pose = posed(&scene, &[]);
    pose[0].rotation = UnitQuaternion::new_unchecked(rz(90.0).into_inner() * 2.0);
    let out = constraints::evaluate(&scene, &pose).expect("evaluates");
    assert!(same_rotation(&out[1].rotation, &rz(90.0)));
    assert!((out[0].rotation.norm() - 1.0).abs() < 1e-15);
}

#[test]
fn scene_read_from_json_evaluates() {
    // The seed's example: NodeB follows NodeA's model position.
    let gltf = br#"{"asset": {"version": "2.0"}, "extensionsUsed": ["VRMC_constraints-1.0"],
        "scene": 0, "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "NodeA", "translation": [1, 0, 0]},
                  {"name": "NodeB", "translation": [0, 1, 0],
                   "extensions": {"VRMC_constraints-1.0": {"position": {"source": 0, "weight": 0.5}}}}]}"#;
    let reading = reference::read_bytes(gltf, None, None);
    assert!(reading.issues.is_empty(), "{:?}", reading.issues);
    let scene = reading.scene.expect("scene");
    let poses =
        Poses::from_json(r#"{"nodes": {"0": {"translation": [3, 0, 0]}}}"#, 2).expect("poses");
    // delta (2,0,0) * 0.5 = (1,0,0); t = (0,1,0) + (1,0,0).
    let out = constraints::evaluate(&scene, &poses.locals(&scene)).expect("evaluates");
    assert_eq!(out[1].translation, Vector3::new(1.0, 1.0, 0.0));
}

// ----- property tests -----------------------------------------------------------------------

fn unit_quaternion() -> impl Strategy<Value = UnitQuaternion<f64>> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64)
        .prop_filter("not too short", |(w, x, y, z)| {
            w * w + x * x + y * y + z * z > 0.01
        })
        .prop_map(|(w, x, y, z)| q(w, x, y, z))
}

fn vector(range: f64) -> impl Strategy<Value = Vector3<f64>> {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vector3::new(x, y, z))
}

fn any_trs() -> impl Strategy<Value = Trs> {
    (
        vector(3.0),
        unit_quaternion(),
        (0.5..2.0f64, 0.5..2.0f64, 0.5..2.0f64),
    )
        .prop_map(|(t, r, (a, b, c))| Trs {
            translation: t,
            rotation: r,
            scale: Vector3::new(a, b, c),
        })
}

fn space() -> impl Strategy<Value = Space> {
    prop_oneof![Just(L), Just(M)]
}

fn kind() -> impl Strategy<Value = ConstraintKind> {
    prop_oneof![
        any::<[bool; 3]>().prop_map(|f| ConstraintKind::Position { freeze_axes: f }),
        any::<[bool; 3]>().prop_map(|f| ConstraintKind::Rotation { freeze_axes: f }),
        (vector(1.0), vector(1.0), any::<[bool; 2]>())
            .prop_filter("a frame", |(a, u, _)| {
                reference::constraints::AimFrame::new(a, u).is_ok()
            })
            .prop_map(|(a, u, f)| ConstraintKind::Aim {
                aim_vector: a,
                up_vector: u,
                freeze_axes: f
            }),
    ]
}

/// A random forest of up to 7 nodes with random rest poses and up to 5 constraints (those in a
/// cycle removed, so the scene is valid), plus a random pose.
fn scene_and_pose() -> impl Strategy<Value = (Scene, Vec<Trs>)> {
    (2usize..8).prop_flat_map(|n| {
        let parents = proptest::collection::vec(proptest::option::weighted(0.6, 0usize..n), n);
        let rests = proptest::collection::vec(any_trs(), n);
        let poses = proptest::collection::vec(any_trs(), n);
        let cons =
            proptest::collection::vec((0..n, 0..n, space(), space(), 0.0..=1.0f64, kind()), 0..6);
        (parents, rests, poses, cons).prop_map(move |(parents, rests, poses, cons)| {
            // parent must have a smaller index: a forest by construction.
            let nodes: Vec<(Option<usize>, Trs)> = (0..n)
                .map(|i| (parents[i].filter(|&p| p < i), rests[i]))
                .collect();
            let list: Vec<NodeConstraint> = cons
                .into_iter()
                .map(|(node, source, ss, ds, w, k)| con(node, source, ss, ds, w, k))
                .collect();
            let mut scene = build(&nodes, list);
            // one constraint per node, as in a file; drop cyclic ones.
            let mut seen = vec![false; n];
            scene
                .constraints
                .retain(|c| !std::mem::replace(&mut seen[c.node], true));
            loop {
                let cyc = constraints::cycles(&scene).expect("in range");
                if cyc.is_empty() {
                    break;
                }
                let drop: Vec<usize> = cyc.concat();
                let mut i = 0;
                scene.constraints.retain(|_| {
                    i += 1;
                    !drop.contains(&(i - 1))
                });
            }
            (scene, poses)
        })
    })
}

fn all_good(out: &[Trs]) -> bool {
    out.iter().all(|t| {
        t.translation.iter().all(|v| v.is_finite())
            && t.rotation.coords.iter().all(|v| v.is_finite())
            && (t.rotation.norm() - 1.0).abs() < 1e-9
    })
}

fn model_matrix(scene: &Scene, locals: &[Trs], node: usize) -> Matrix4<f64> {
    let mut m = locals[node].matrix();
    let mut n = node;
    while let Some(p) = scene.nodes[n].parent {
        m = locals[p].matrix() * m;
        n = p;
    }
    m
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn weight_zero_leaves_the_rest_pose((mut scene, pose) in scene_and_pose()) {
        for c in &mut scene.constraints {
            c.weight = 0.0;
        }
        let out = constraints::evaluate(&scene, &pose).expect("valid scene");
        prop_assert!(all_good(&out));
        for c in &scene.constraints {
            let rest = scene.nodes[c.node].rest;
            match c.kind {
                ConstraintKind::Position { .. } => prop_assert!((out[c.node].translation - rest.translation).norm() < 1e-12),
                _ => prop_assert!(out[c.node].rotation.angle_to(&rest.rotation) < 1e-7),
            }
        }
    }

    #[test]
    fn rotation_local_local_weight_one_copies_the_source_delta(
        s0 in unit_quaternion(), s in unit_quaternion(), q0 in unit_quaternion(),
    ) {
        // Every axis constrained ("free" to follow the source): q0^-1 out = S0^-1 S.
        let scene = build(&[(None, tr([0.0; 3], s0)), (None, tr([0.0; 3], q0))], vec![rot(1, 0, L, L, 1.0, ALL3)]);
        let out = constraints::evaluate(&scene, &posed(&scene, &[(0, None, Some(s))])).expect("valid");
        prop_assert!((q0.inverse() * out[1].rotation).angle_to(&(s0.inverse() * s)) < 1e-7);
    }

    #[test]
    fn position_model_model_moves_the_destination_by_the_source_delta((scene0, pose) in scene_and_pose()) {
        // One model/model position constraint between nodes with unconstrained ancestors: the
        // destination's model position is its rest local translation under the current parent
        // plus the source's model delta.
        let (src, dst) = (0, scene0.nodes.len() - 1);
        prop_assume!(src != dst && !constraints::is_below(&scene0, src, dst));
        let mut scene = scene0;
        scene.constraints = vec![pos(dst, src, M, M, 1.0, ALL3)];
        let out = constraints::evaluate(&scene, &pose).expect("valid");
        let rest: Vec<Trs> = scene.nodes.iter().map(|n| n.rest).collect();
        let delta = model_matrix(&scene, &pose, src).column(3).xyz() - model_matrix(&scene, &rest, src).column(3).xyz();
        let mut expected_locals = pose.clone();
        expected_locals[dst].translation = rest[dst].translation;
        let before = model_matrix(&scene, &expected_locals, dst).column(3).xyz();
        let after = model_matrix(&scene, &out, dst).column(3).xyz();
        prop_assert!((after - before - delta).norm() < 1e-9 * (1.0 + delta.norm() + before.norm()), "{after} {before} {delta}");
    }

    #[test]
    fn aim_weight_one_turns_the_rest_direction_into_the_current_one(
        s0 in vector(3.0), s1 in vector(3.0), q0 in unit_quaternion(), a in vector(1.0), u in vector(1.0),
    ) {
        prop_assume!(s0.norm() > 0.1 && s1.norm() > 0.1);
        prop_assume!(reference::constraints::AimFrame::new(&a, &u).is_ok());
        // Keep away from the poles (straight up/down), where yaw is undefined.
        let un = u.normalize();
        prop_assume!(s0.normalize().dot(&un).abs() < 0.99 && s1.normalize().dot(&un).abs() < 0.99);
        let scene = build(&[(None, at(s0.into())), (None, tr([0.0; 3], q0))], vec![aim(1, 0, L, L, 1.0, a.into(), u.into(), [true, true])]);
        let out = constraints::evaluate(&scene, &posed(&scene, &[(0, Some(s1.into()), None)])).expect("valid");
        let r = out[1].rotation * q0.inverse();
        prop_assert!((r * s0.normalize() - s1.normalize()).norm() < 1e-9);
        // and it keeps "up" in the upper hemisphere it was in: no roll about the aim.
        let side0 = un.cross(&s0).normalize();
        prop_assert!((r * side0).dot(&un).abs() < 1e-9);
    }

    #[test]
    fn outputs_do_not_depend_on_node_order((scene, pose) in scene_and_pose(), seed in any::<u64>()) {
        let n = scene.nodes.len();
        // A permutation of node indices and a rotation of the constraint list, from the seed.
        let mut perm: Vec<usize> = (0..n).collect();
        let mut x = seed;
        for i in (1..n).rev() {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            perm.swap(i, (x >> 33) as usize % (i + 1));
        }
        let nodes: BTreeMap<usize, (Option<usize>, Trs)> = (0..n)
            .map(|i| (perm[i], (scene.nodes[i].parent.map(|p| perm[p]), scene.nodes[i].rest)))
            .collect();
        let nodes: Vec<(Option<usize>, Trs)> = nodes.into_values().collect();
        let mut cons: Vec<NodeConstraint> = scene.constraints.iter().map(|c| NodeConstraint { node: perm[c.node], source: perm[c.source], ..c.clone() }).collect();
        if !cons.is_empty() {
            let k = (seed as usize) % cons.len();
            cons.rotate_left(k);
        }
        let permuted = build(&nodes, cons);
        let mut ppose = pose.clone();
        for i in 0..n {
            ppose[perm[i]] = pose[i];
        }
        let a = constraints::evaluate(&scene, &pose).expect("valid");
        let b = constraints::evaluate(&permuted, &ppose).expect("valid");
        for i in 0..n {
            prop_assert!((a[i].translation - b[perm[i]].translation).norm() < 1e-9);
            prop_assert!(same_rotation_tol(&a[i].rotation, &b[perm[i]].rotation));
        }
    }

    #[test]
    fn bad_numbers_give_an_error_or_finite_unit_output(
        (scene, pose) in scene_and_pose(),
        node in 0usize..8,
        what in 0usize..6,
    ) {
        let mut pose = pose;
        let node = node % pose.len();
        match what {
            0 => pose[node].translation.y = f64::NAN,
            1 => pose[node].rotation = UnitQuaternion::new_unchecked(Quaternion::new(0.0, 0.0, 0.0, 0.0)),
            2 => pose[node].rotation = UnitQuaternion::new_unchecked(pose[node].rotation.into_inner() * 1e-200),
            3 => pose[node].scale = Vector3::zeros(),
            4 => {
                // every source onto its destination: zero-length aim directions
                for c in &scene.constraints {
                    pose[c.source] = pose[c.node];
                }
            }
            _ => pose[node].scale.x = f64::INFINITY,
        }
        match constraints::evaluate(&scene, &pose) {
            Ok(out) => prop_assert!(all_good(&out)),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}

fn same_rotation_tol(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> bool {
    a.angle_to(b) < 1e-7
}
