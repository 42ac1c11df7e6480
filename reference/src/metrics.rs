//! Joint limit metrics [D-METRICS] evaluated from the world poses of a joint's two attachment
//! frames A and B.
//!
//! Notation (appendix of the KHR seed): `d = t_b - t_a`; the axes `e_i` are the columns of
//! frame A's world rotation; `q = q_a* q_b` is B's orientation relative to A, in A's frame.
//!
//! | limit | metric | range |
//! | --- | --- | --- |
//! | 1 linear axis i | `e_i · d` | signed |
//! | 2 linear axes i, j (k the other) | `\| d - (e_k · d) e_k \|` | `[0, inf)` |
//! | 3 linear axes | `\|d\|` | `[0, inf)` |
//! | 1 angular axis i | signed twist of `q` about `e_i` [D-TWIST-SIGNED] | `(-pi, pi]` |
//! | 2 angular axes i, j (k the other) | angle between `q_a e_k` and `q_b e_k` | `[0, pi]` |
//! | 3 angular axes | angle of `q`, shortest path | `[0, pi]` |
//!
//! Per-axis limits (OMI, [D-OMI-PER-AXIS]) give one 1-axis metric per listed axis.
//!
//! Numerics: every formula works in A's frame (`R_a^T d` and `q`), so the linear metrics are
//! norms of local components and every angle comes from `atan2`, never from `acos`/`asin`.
//! The results are therefore never NaN for finite inputs (`atan2` is total, so no argument
//! needs clamping) and stay accurate near 0 and pi, where `acos` loses half the digits.
//!
//! Invalid axis lists (the readers reject them; these functions still never panic):
//! [`linear_metric`] and [`angular_metric`] read `axes` as a *set*: entries outside `0..=2`
//! are ignored, duplicates count once, and an empty set gives `0.0` (nothing is constrained).
//! [`evaluate`] skips, without an entry, every limit whose axes are not 1 to 3 distinct
//! indices in `0..=2`, so an inconsistent limit is never reported as if it had been measured.

use std::f64::consts::PI;

use nalgebra::{Isometry3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use crate::scene::{DofKind, Limit, LimitSet};

/// Axis set as a 3-bit mask (bit i: axis i); entries outside `0..=2` are ignored.
fn mask_of(axes: &[u8]) -> u8 {
    axes.iter()
        .filter(|&&a| a <= 2)
        .fold(0u8, |m, &a| m | (1 << a))
}

/// The index of the single axis of a 1-axis mask, or of the single axis *missing* from a
/// 2-axis mask (`k`).
fn lone_axis(mask: u8) -> usize {
    match mask {
        0b001 | 0b110 => 0,
        0b010 | 0b101 => 1,
        _ => 2,
    }
}

/// `d = t_b - t_a` expressed in A's frame: component i is `e_i · d`.
fn local_offset(a: &Isometry3<f64>, b: &Isometry3<f64>) -> Vector3<f64> {
    a.rotation
        .inverse_transform_vector(&(b.translation.vector - a.translation.vector))
}

/// `q_a* q_b`: B's orientation relative to A, in A's frame.
fn relative_rotation(a: &Isometry3<f64>, b: &Isometry3<f64>) -> UnitQuaternion<f64> {
    a.rotation.inverse() * b.rotation
}

/// The range of the metric of a limit of `kind` on `axes` axes (the table above; the twist's
/// open end at -pi is taken as closed): a bound at or beyond an end of it constrains nothing on
/// that side. Any other axis count: the whole line.
pub fn range(kind: DofKind, axes: usize) -> (f64, f64) {
    match (kind, axes) {
        (DofKind::Linear, 2 | 3) => (0.0, f64::INFINITY),
        (DofKind::Angular, 1) => (-PI, PI),
        (DofKind::Angular, 2 | 3) => (0.0, PI),
        _ => (f64::NEG_INFINITY, f64::INFINITY),
    }
}

/// Coupled linear metric: 1 axis the signed offset `e_i · d`, 2 axes the distance from the line
/// through A along the remaining axis, 3 axes the distance `|d|`. See the module doc for
/// invalid `axes` (empty set: `0.0`).
pub fn linear_metric(axes: &[u8], a: &Isometry3<f64>, b: &Isometry3<f64>) -> f64 {
    let mask = mask_of(axes);
    if mask == 0 {
        return 0.0;
    }
    let d = local_offset(a, b);
    match mask.count_ones() {
        // `+ 0.0` turns -0.0 into 0.0 so reports never show a negative zero.
        1 => d[lone_axis(mask)] + 0.0,
        // |d - (e_k · d) e_k| is the norm of the two other local components; computing it
        // this way avoids the cancellation of sqrt(|d|^2 - (e_k · d)^2).
        2 => {
            let k = lone_axis(mask);
            d[(k + 1) % 3].hypot(d[(k + 2) % 3])
        }
        _ => d.norm(),
    }
}

/// Coupled angular metric: 1 axis the signed twist ([`twist_angle`]), 2 axes the cone angle
/// ([`cone_angle`]), 3 axes the total angle ([`total_angle`]). See the module doc for invalid
/// `axes` (empty set: `0.0`).
pub fn angular_metric(axes: &[u8], a: &Isometry3<f64>, b: &Isometry3<f64>) -> f64 {
    let mask = mask_of(axes);
    if mask == 0 {
        return 0.0;
    }
    let q = relative_rotation(a, b);
    match mask.count_ones() {
        1 => twist_angle(&q, lone_axis(mask)),
        2 => cone_angle(&q, lone_axis(mask)),
        _ => total_angle(&q),
    }
}

/// The signed twist angle of `q` about its local axis `axis` (0..=2; larger values are read as
/// 2), in `(-pi, pi]` [D-TWIST-SIGNED].
///
/// Swing-twist decomposition: the twist is `(w, (v · e) e)` normalised, the same for
/// `q = swing * twist` and `q = twist * swing`; its signed angle is `2 atan2(v · e, w)` once the
/// sign of `q` is fixed so that `w >= 0` (q and -q are one rotation). A twist of exactly pi is
/// reported as `+pi`.
///
/// Degenerate case: when `w = 0` and `v · e = 0`, `q` is a half turn about an axis perpendicular
/// to `e` (a swing of exactly pi) and the twist is undefined; the result is then `0.0` (the
/// twist component vanishes). Arbitrarily close to it the twist can take any value: that is
/// the geometry, not rounding.
pub fn twist_angle(q: &UnitQuaternion<f64>, axis: usize) -> f64 {
    let axis = axis.min(2);
    let (w, v) = (q.w, q.imag()[axis]);
    // Sign canonicalisation by the sign bit, so w = -0.0 also flips and `w` ends up +0.0 or
    // positive: atan2 then stays in [-pi/2, pi/2] and atan2(+-0, +0) is +-0, never +-pi.
    let (w, v) = if w.is_sign_negative() {
        (-w, -v)
    } else {
        (w, v)
    };
    let t = 2.0 * v.atan2(w);
    if t <= -PI { PI } else { t + 0.0 }
}

/// The angle between `e_k` and `q e_k` (equal to the angle between `q_a e_k` and `q_b e_k`
/// when `q = q_a* q_b`), in `[0, pi]`. `k` above 2 is read as 2.
pub fn cone_angle(q: &UnitQuaternion<f64>, k: usize) -> f64 {
    let k = k.min(2);
    let mut e = Vector3::zeros();
    e[k] = 1.0;
    // atan2 of the off-axis and on-axis parts: exact near 0 and pi, unlike acos of a dot.
    let v = q.transform_vector(&e);
    let off = v[(k + 1) % 3].hypot(v[(k + 2) % 3]);
    off.atan2(v[k])
}

/// The rotation angle of `q` along the shortest path, in `[0, pi]`: `2 atan2(|v|, |w|)`
/// (the appendix's `2 arccos(Re q)` with the sign of `q` chosen so that `Re q >= 0`).
pub fn total_angle(q: &UnitQuaternion<f64>) -> f64 {
    2.0 * q.imag().norm().atan2(q.w.abs())
}

/// Largest rest-pose violation of a hard limit (m or rad) that still counts as the rest pose
/// holding the limit (the generator gives such a limit a dynamics `limit` check).
///
/// Why not `== 0.0`: a limit whose bound is the rest metric (a lock, a range ending at the rest
/// angle) is violated at rest by the rounding of the frame poses composed along the node
/// hierarchy, a few ulps (2.2e-16 relative) of the scene's coordinates, so up to about 1e-13
/// in scenes of tens of metres; whether it comes out 0.0 or 1e-13 depends on the order of
/// float operations in `reference::math`, and an exact-zero rule let that noise decide
/// whether a limit is checked (`omi/gen/shape/01433` gained a check when `rotation_of`
/// changed). 1e-9 is 10^4 times that noise and 10^3 times below the precision expected values
/// are written at (1e-6), so a limit written with a non-zero `violation` never gets a check;
/// the violations scenes author on purpose are far larger (none in corpus/v1 lies in
/// (0, 1e-3)), as are the check's own tolerances (0.01 m, 0.0175 rad recommended).
pub const REST_VIOLATION_NOISE: f64 = 1e-9;

/// Whether a limit's rest-pose violation is float noise: within [`REST_VIOLATION_NOISE`]
/// (NaN, a metric nothing can be said about, is not).
pub fn holds_at_rest(violation: f64) -> bool {
    violation.abs() <= REST_VIOLATION_NOISE
}

/// How far a metric lies outside `[min, max]`: `0.0` inside (each bound only if given),
/// `metric - max` (> 0) above, `metric - min` (< 0) below.
///
/// Edge cases, decided so the function is total: a NaN bound counts as absent; a NaN metric
/// gives NaN (nothing can be claimed about it); when `min > max` and the metric is both above
/// `max` and below `min`, the excess over `max` is reported (readers reject such bounds).
pub fn violation(metric: f64, min: Option<f64>, max: Option<f64>) -> f64 {
    if metric.is_nan() {
        return f64::NAN;
    }
    if let Some(max) = max
        && metric > max
    {
        return metric - max;
    }
    if let Some(min) = min
        && metric < min
    {
        return metric - min;
    }
    0.0
}

/// One limit (or one axis of a per-axis limit) evaluated at a pair of frame poses.
/// Fields in key order, the order serde writes them: the generator's canonical writer (the
/// pose outputs of `expect.json`) then has no member to sort.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LimitEval {
    /// The limit's axes (coupled) or the one axis measured (per-axis).
    pub axes: Vec<u8>,
    /// The limit's index in its [`LimitSet`].
    pub index: usize,
    pub kind: DofKind,
    pub max: Option<f64>,
    pub metric: f64,
    pub min: Option<f64>,
    pub violation: f64,
}

/// Whether a limit's axes are what the readers accept: 1 to 3 distinct indices in `0..=2`.
fn axes_valid(axes: &[u8]) -> bool {
    (1..=3).contains(&axes.len()) && mask_of(axes).count_ones() as usize == axes.len()
}

/// The coupled metric of a limit's kind over `axes`.
fn metric_of(kind: DofKind, axes: &[u8], a: &Isometry3<f64>, b: &Isometry3<f64>) -> f64 {
    match kind {
        DofKind::Linear => linear_metric(axes, a, b),
        DofKind::Angular => angular_metric(axes, a, b),
    }
}

fn entry(index: usize, limit: &Limit, axes: Vec<u8>, metric: f64) -> LimitEval {
    LimitEval {
        index,
        kind: limit.kind,
        axes,
        min: limit.min,
        max: limit.max,
        metric,
        violation: violation(metric, limit.min, limit.max),
    }
}

/// Every limit of a joint evaluated at the given frame poses: one entry per coupled limit, one
/// per listed axis of a per-axis limit (index = the limit's index in the LimitSet), in order.
/// Limits with invalid axes give no entry (see the module doc). Per-axis limits that list the
/// same axis are all reported; which one wins is the interpretation's concern.
pub fn evaluate(limits: &LimitSet, a: &Isometry3<f64>, b: &Isometry3<f64>) -> Vec<LimitEval> {
    let mut out = Vec::new();
    match limits {
        LimitSet::Coupled(list) => {
            for (index, limit) in list.iter().enumerate() {
                if axes_valid(&limit.axes) {
                    let metric = metric_of(limit.kind, &limit.axes, a, b);
                    out.push(entry(index, limit, limit.axes.clone(), metric));
                }
            }
        }
        LimitSet::PerAxis(list) => {
            for (index, limit) in list.iter().enumerate() {
                if axes_valid(&limit.axes) {
                    for &axis in &limit.axes {
                        let metric = metric_of(limit.kind, &[axis], a, b);
                        out.push(entry(index, limit, vec![axis], metric));
                    }
                }
            }
        }
    }
    out
}
