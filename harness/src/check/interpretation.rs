//! Interpretation: what `interpretation()` reports after load equals the reference's expected
//! interpretation: bodies (kind, mass, centre of mass, inertia incl. infinite moments,
//! velocities), colliders (owner, trigger, shape, pose), pairs (contact, combined friction and
//! restitution) and joints (bodies, attachment frames, limits and drives in canonical form).
//!
//! Each quantity is one check; its measured value is the worst deviation over the objects,
//! named in the message, graded against the case's tolerance class for that unit: `length`
//! (metres), `angle` (radians) or `scalar` (the [`geometry::scaled`] deviation). Limits and
//! drives mix metres, radians and gains, so they are `scalar`; a structural mismatch (a limit
//! or drive of another kind, a side or target present on one side only, hard against soft) has
//! no size and is an infinite deviation.

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};
use reference::decision::Decision;
use reference::expect::Expectation;
use reference::expect::bodies::InertiaExpect;
use reference::expect::joints::{Coupling, LimitExpect};
use reference::math::array3;
use reference::scene::{Drive, MassValue};
use serde_json::Value;

use crate::check::CheckResult;
use crate::check::geometry::{self, angle_between, distance, scaled};
use crate::implementation::{DriveReport, Interpretation, LimitReport, MassReport, ReportedShape};
use crate::status::Status;
use crate::text::number;
use crate::tolerance::Tolerance;

/// An expected mass for people: `2.5`, `infinite`, `engine-computed` (not `Finite(2.5)`).
pub(crate) fn mass_text(m: MassValue) -> String {
    match m {
        MassValue::EngineComputes => "engine-computed".to_owned(),
        MassValue::Infinite => "infinite".to_owned(),
        MassValue::Finite(x) => number(x),
    }
}

/// The numbers of a rotation as the case file writes them, `[x, y, z, w]`.
fn xyzw(q: &UnitQuaternion<f64>) -> [f64; 4] {
    [q.i, q.j, q.k, q.w]
}

/// The ids of decisions, for a check result.
fn ids(decisions: impl IntoIterator<Item = Decision>) -> Vec<String> {
    decisions.into_iter().map(|d| d.id().to_owned()).collect()
}

/// A reported value for people: the number, or `not reported` (never `Some(0.1000000015)`).
fn shown(x: Option<f64>) -> String {
    x.map_or_else(|| "not reported".to_owned(), number)
}

/// Numbers for people: `[0, 1.5, 2]`.
fn numbers(v: &[f64]) -> String {
    listed(&v.iter().map(|x| number(*x)).collect::<Vec<_>>())
}

/// `[a, b, c]` of displayed values.
fn listed<T: std::fmt::Display>(v: &[T]) -> String {
    let parts: Vec<String> = v.iter().map(ToString::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// The worst deviation seen for one quantity, with where it was and what it rests on.
#[derive(Debug, Default)]
struct Worst {
    value: Option<f64>,
    message: String,
    decisions: BTreeSet<String>,
}

impl Worst {
    /// Record a deviation; NaN counts as the worst of all.
    fn see(&mut self, value: f64, decisions: &[String], message: impl FnOnce() -> String) {
        self.decisions.extend(decisions.iter().cloned());
        let worse = match self.value {
            None => true,
            Some(v) => value.is_nan() || (!v.is_nan() && value > v),
        };
        if worse {
            self.value = Some(value);
            self.message = message();
        }
    }

    /// The graded check, `SKIP` when the case has no tolerance class for it; `None` when
    /// nothing was compared.
    fn result(
        self,
        check: &str,
        class: &str,
        tolerances: &BTreeMap<String, Tolerance>,
    ) -> Option<CheckResult> {
        let value = self.value?;
        let decisions: Vec<String> = self.decisions.into_iter().collect();
        let r = match tolerances.get(class) {
            Some(t) => CheckResult::graded(check, value, *t, self.message),
            None => CheckResult::new(
                check,
                Status::Skip,
                format!("the case gives no `{class}` tolerance class"),
            ),
        };
        Some(r.with_decisions(&decisions))
    }
}

/// Yes/no comparisons of one quantity: the first mismatch is the message.
#[derive(Debug, Default)]
struct Exact {
    compared: bool,
    mismatches: Vec<String>,
    decisions: BTreeSet<String>,
}

impl Exact {
    fn see(&mut self, ok: bool, decisions: &[String], message: impl FnOnce() -> String) {
        self.compared = true;
        self.decisions.extend(decisions.iter().cloned());
        if !ok {
            self.mismatches.push(message());
        }
    }

    fn result(self, check: &str) -> Option<CheckResult> {
        if !self.compared {
            return None;
        }
        let n = self.mismatches.len();
        let message = match self.mismatches.first() {
            Some(first) if n > 1 => format!("{first} (and {} more)", n - 1),
            Some(first) => first.clone(),
            None => String::new(),
        };
        let decisions: Vec<String> = self.decisions.into_iter().collect();
        Some(CheckResult::exact(check, n == 0, message).with_decisions(&decisions))
    }
}

fn mass_deviation(want: MassValue, got: MassReport) -> Option<f64> {
    match (want, got) {
        (MassValue::EngineComputes, _) => None,
        (MassValue::Infinite, MassReport::Infinite) => Some(0.0),
        (MassValue::Finite(w), MassReport::Finite(g)) => Some(scaled(g, w)),
        _ => Some(f64::INFINITY),
    }
}

/// The inverse inertia tensor of a report, by the reference's rule for a principal form
/// (`R diag(1/d) R^T`, an infinite moment giving 0); NaN where a moment is unspecified, so the
/// comparison with a given value fails.
fn reported_inverse_tensor(d: &[MassReport; 3], q: [f64; 4]) -> Matrix3<f64> {
    use reference::expect::bodies::InertiaExpect as Reference;
    use reference::scene::{Inertia, MassValue as Moment};
    let moment = |m: MassReport| match m {
        MassReport::Infinite => Some(Moment::Infinite),
        MassReport::Finite(v) => Some(Moment::Finite(v)),
        MassReport::Unspecified => None,
    };
    let given = match (moment(d[0]), moment(d[1]), moment(d[2])) {
        (Some(x), Some(y), Some(z)) => Inertia::Principal {
            diagonal: [x, y, z],
            orientation: geometry::rotation(q),
        },
        _ => return Matrix3::from_element(f64::NAN),
    };
    match reference::expect::bodies::inertia(&given) {
        Reference::Given {
            inverse_tensor: Some(t),
            ..
        } => t,
        _ => Matrix3::from_element(f64::NAN),
    }
}

/// Numeric shape parameters of the reference's shape JSON, by the report's names.
fn shape_parameters(shape: &Value) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    if let Some(map) = shape.as_object() {
        for (k, v) in map {
            match v {
                Value::Number(n) => out.extend(n.as_f64().map(|x| (k.clone(), x))),
                Value::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        out.extend(x.as_f64().map(|x| (format!("{k}[{i}]"), x)));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// A reported parameter by the name [`shape_parameters`] gives it.
fn reported_parameter(params: &serde_json::Map<String, Value>, name: &str) -> Option<f64> {
    match name.split_once('[') {
        Some((k, rest)) => {
            let i: usize = rest.trim_end_matches(']').parse().ok()?;
            params.get(k)?.as_array()?.get(i)?.as_f64()
        }
        None => params.get(name)?.as_f64(),
    }
}

/// Mesh references (`mesh`) are indices into the file, not comparable with a report.
fn compared_parameter(name: &str) -> bool {
    name != "mesh"
}

/// The worst translation and rotation deviations of poses (a collider's, a joint's frames).
#[derive(Debug, Default)]
struct PoseDeviations {
    translation: Worst,
    rotation: Worst,
}

impl PoseDeviations {
    /// Compare a reported pose with the expected one; `what` names it in the messages.
    fn see(
        &mut self,
        want: &Isometry3<f64>,
        (got_t, got_q): ([f64; 3], [f64; 4]),
        decisions: &[String],
        what: impl Fn() -> String,
    ) {
        let want_t = array3(&want.translation.vector);
        self.translation
            .see(distance(want_t, got_t), decisions, || {
                format!("{}: translation {got_t:?} expected {want_t:?}", what())
            });
        let want_q = xyzw(&want.rotation);
        let dq = angle_between(&geometry::rotation(want_q), &geometry::rotation(got_q));
        self.rotation.see(dq, decisions, || {
            format!("{}: rotation {got_q:?} expected {want_q:?}", what())
        });
    }

    /// The `<check>.translation` and `<check>.rotation` results.
    fn results(self, check: &str, tol: &BTreeMap<String, Tolerance>, out: &mut Vec<CheckResult>) {
        let translation = format!("{check}.translation");
        out.extend(self.translation.result(&translation, "length", tol));
        out.extend(
            self.rotation
                .result(&format!("{check}.rotation"), "angle", tol),
        );
    }
}

fn sets_equal(
    check: &str,
    what: &str,
    want: &BTreeSet<usize>,
    got: &BTreeSet<usize>,
) -> CheckResult {
    let missing: Vec<_> = want.difference(got).collect();
    let extra: Vec<_> = got.difference(want).collect();
    CheckResult::exact(
        check,
        missing.is_empty() && extra.is_empty(),
        format!("{what} nodes missing {missing:?}, unexpected {extra:?}"),
    )
}

/// Every interpretation check of a case.
pub fn check(
    want: &Expectation,
    got: &Interpretation,
    tolerances: &BTreeMap<String, Tolerance>,
) -> Vec<CheckResult> {
    let mut out = Vec::new();
    bodies(want, got, tolerances, &mut out);
    colliders(want, got, tolerances, &mut out);
    pairs(want, got, tolerances, &mut out);
    joints(want, got, tolerances, &mut out);
    out
}

fn bodies(
    want: &Expectation,
    got: &Interpretation,
    tol: &BTreeMap<String, Tolerance>,
    out: &mut Vec<CheckResult>,
) {
    if want.bodies.is_empty() && got.bodies.is_empty() {
        return;
    }
    let w: BTreeSet<usize> = want.bodies.iter().map(|b| b.node).collect();
    let g: BTreeSet<usize> = got.bodies.iter().map(|b| b.node).collect();
    out.push(sets_equal("interpretation.bodies.set", "body", &w, &g));
    let mut kind = Exact::default();
    let (mut mass, mut com, mut inertia, mut velocity, mut gravity) = (
        Worst::default(),
        Worst::default(),
        Worst::default(),
        Worst::default(),
        Worst::default(),
    );
    for e in &want.bodies {
        let Some(r) = got.bodies.iter().find(|b| b.node == e.node) else {
            continue;
        };
        let d = &ids(e.decisions.iter().copied());
        kind.see(r.kind == e.kind, d, || {
            format!(
                "body {}: kind {} expected {}",
                e.node,
                r.kind.name(),
                e.kind.name()
            )
        });
        if let Some(dev) = mass_deviation(e.mass, r.mass) {
            mass.see(dev, d, || {
                format!(
                    "body {}: mass {} expected {}",
                    e.node,
                    r.mass,
                    mass_text(e.mass)
                )
            });
        }
        if let Some(c) = e.center_of_mass.as_ref().map(array3) {
            let dev = r.center_of_mass.map_or(f64::INFINITY, |g| distance(c, g));
            com.see(dev, d, || {
                format!(
                    "body {}: centre of mass {} expected {}",
                    e.node,
                    r.center_of_mass
                        .as_ref()
                        .map_or_else(|| "not reported".to_owned(), |g| numbers(g)),
                    numbers(&c)
                )
            });
        }
        if let InertiaExpect::Given {
            principal,
            inverse_tensor: Some(want_inv),
            ..
        } = &e.inertia
        {
            let want_inv = *want_inv;
            let rows = reference::expect::json::rows(&want_inv);
            let got_inv = reported_inverse_tensor(&r.inertia_diagonal, r.inertia_orientation);
            let want_inf = principal.as_ref().map(|p| {
                p.moments
                    .iter()
                    .filter(|m| **m == MassValue::Infinite)
                    .count()
            });
            let got_inf = r
                .inertia_diagonal
                .iter()
                .filter(|m| **m == MassReport::Infinite)
                .count();
            let dev = if want_inf.is_some_and(|n| n != got_inf) {
                f64::INFINITY
            } else {
                (got_inv - want_inv).norm() / want_inv.norm().max(1.0)
            };
            inertia.see(dev, d, || {
                format!(
                    "body {}: inertia {} about {} expected inverse tensor {}",
                    e.node,
                    listed(&r.inertia_diagonal),
                    numbers(&r.inertia_orientation),
                    listed(&rows.map(|row| numbers(&row)))
                )
            });
        }
        let lin = (Vector3::from(r.linear_velocity) - e.linear_velocity).norm()
            / e.linear_velocity.norm().max(1.0);
        let ang = (Vector3::from(r.angular_velocity) - e.angular_velocity).norm()
            / e.angular_velocity.norm().max(1.0);
        velocity.see(lin.max(ang), d, || {
            format!(
                "body {}: velocity {:?} / {:?} expected {:?} / {:?}",
                e.node,
                r.linear_velocity,
                r.angular_velocity,
                array3(&e.linear_velocity),
                array3(&e.angular_velocity)
            )
        });
        gravity.see(scaled(r.gravity_factor, e.gravity_factor), d, || {
            format!(
                "body {}: gravity factor {} expected {}",
                e.node,
                number(r.gravity_factor),
                number(e.gravity_factor)
            )
        });
    }
    out.extend(kind.result("interpretation.bodies.kind"));
    out.extend(mass.result("interpretation.bodies.mass", "scalar", tol));
    out.extend(com.result("interpretation.bodies.center_of_mass", "length", tol));
    out.extend(inertia.result("interpretation.bodies.inertia", "scalar", tol));
    out.extend(velocity.result("interpretation.bodies.velocity", "scalar", tol));
    out.extend(gravity.result("interpretation.bodies.gravity_factor", "scalar", tol));
}

fn colliders(
    want: &Expectation,
    got: &Interpretation,
    tol: &BTreeMap<String, Tolerance>,
    out: &mut Vec<CheckResult>,
) {
    if want.colliders.is_empty() && got.colliders.is_empty() {
        return;
    }
    let w: BTreeSet<usize> = want.colliders.iter().map(|c| c.node).collect();
    let g: BTreeSet<usize> = got.colliders.iter().map(|c| c.node).collect();
    out.push(sets_equal(
        "interpretation.colliders.set",
        "collider",
        &w,
        &g,
    ));
    let mut owner = Exact::default();
    let mut kind = Exact::default();
    let mut size = Worst::default();
    let mut poses = PoseDeviations::default();
    for e in &want.colliders {
        let Some(r) = got.colliders.iter().find(|c| c.node == e.node) else {
            continue;
        };
        let d = &ids(e.decisions.iter().copied());
        owner.see(
            r.body == e.body_node && r.is_trigger == e.trigger,
            d,
            || {
                format!(
                    "collider {}: body {:?} trigger {} expected body {:?} trigger {}",
                    e.node, r.body, r.is_trigger, e.body_node, e.trigger
                )
            },
        );
        if let Some(scaled) = &e.shape {
            let ty = ReportedShape::from(&scaled.shape);
            kind.see(r.shape == ty, d, || {
                format!("collider {}: shape {} expected {ty}", e.node, r.shape)
            });
            if r.shape == ty {
                let shape = &serde_json::to_value(scaled).unwrap_or(Value::Null);
                for (name, value) in shape_parameters(shape) {
                    if !compared_parameter(&name) {
                        continue;
                    }
                    let got = reported_parameter(&r.parameters, &name);
                    let dev = got.map_or(f64::INFINITY, |g| (g - value).abs());
                    size.see(dev, d, || {
                        format!(
                            "collider {}: {ty} {name} {} expected {}",
                            e.node,
                            shown(got),
                            number(value)
                        )
                    });
                }
            }
        }
        poses.see(&e.pose, (r.translation, r.rotation), d, || {
            format!("collider {}", e.node)
        });
    }
    out.extend(owner.result("interpretation.colliders.owner"));
    out.extend(kind.result("interpretation.colliders.shape"));
    out.extend(size.result("interpretation.colliders.shape_size", "length", tol));
    poses.results("interpretation.colliders", tol, out);
}

fn pairs(
    want: &Expectation,
    got: &Interpretation,
    tol: &BTreeMap<String, Tolerance>,
    out: &mut Vec<CheckResult>,
) {
    if want.pairs.is_empty() {
        return;
    }
    let mut contact = Exact::default();
    let mut friction = Worst::default();
    let mut restitution = Worst::default();
    for e in &want.pairs {
        let (a, b) = (e.nodes[0].min(e.nodes[1]), e.nodes[0].max(e.nodes[1]));
        let d = &ids(e.decisions.iter());
        let Some(r) = got
            .pairs
            .iter()
            .find(|p| (p.a.min(p.b), p.a.max(p.b)) == (a, b))
        else {
            contact.see(false, d, || format!("pair ({a}, {b}) is not reported"));
            continue;
        };
        contact.see(r.collide == e.contact, d, || {
            format!(
                "pair ({a}, {b}): collide {} expected {}",
                r.collide, e.contact
            )
        });
        let frictions = [
            (
                "static friction",
                e.friction.static_friction,
                r.static_friction,
            ),
            (
                "dynamic friction",
                e.friction.dynamic_friction,
                r.dynamic_friction,
            ),
        ];
        for (name, w, g) in frictions {
            let Some(w) = w else { continue };
            let dev = g.map_or(f64::INFINITY, |g| scaled(g, w));
            friction.see(dev, d, || {
                format!("pair ({a}, {b}): {name} {} expected {w}", shown(g))
            });
        }
        if let Some(w) = e.restitution.value {
            let g = r.restitution;
            let dev = g.map_or(f64::INFINITY, |g| scaled(g, w));
            restitution.see(dev, d, || {
                format!("pair ({a}, {b}): restitution {} expected {w}", shown(g))
            });
        }
    }
    out.extend(contact.result("interpretation.pairs.contact"));
    out.extend(friction.result("interpretation.pairs.friction", "scalar", tol));
    out.extend(restitution.result("interpretation.pairs.restitution", "scalar", tol));
}

fn joints(
    want: &Expectation,
    got: &Interpretation,
    tol: &BTreeMap<String, Tolerance>,
    out: &mut Vec<CheckResult>,
) {
    if want.joints.is_empty() && got.joints.is_empty() {
        return;
    }
    let w: BTreeSet<usize> = want.joints.iter().map(|j| j.node).collect();
    let g: BTreeSet<usize> = got.joints.iter().map(|j| j.node).collect();
    out.push(sets_equal("interpretation.joints.set", "joint", &w, &g));
    let mut bodies = Exact::default();
    let mut frames = PoseDeviations::default();
    let mut limits = Worst::default();
    let mut drives = Worst::default();
    for e in &want.joints {
        let Some(r) = got.joints.iter().find(|j| j.node == e.node) else {
            continue;
        };
        let d = &ids(e.decisions.iter().copied());
        let want_bodies = [e.frames[0].body_node, e.frames[1].body_node];
        bodies.see(r.bodies == want_bodies, d, || {
            format!(
                "joint {}: bodies {:?} expected {:?}",
                e.node, r.bodies, want_bodies
            )
        });
        for ((f, rf), side) in e.frames.iter().zip(&r.frames).zip(["A", "B"]) {
            frames.see(&f.relative, (rf.translation, rf.rotation), d, || {
                format!("joint {} frame {side}", e.node)
            });
        }
        let (dev, message) = limits_deviation(e.node, &e.limits, e.coupling, &r.limits);
        limits.see(dev, d, || message);
        let (dev, message) = drives_deviation(e.node, &e.drives, &r.drives);
        drives.see(dev, d, || message);
    }
    out.extend(bodies.result("interpretation.joints.bodies"));
    frames.results("interpretation.joints.frames", tol, out);
    out.extend(limits.result("interpretation.joints.limits", "scalar", tol));
    out.extend(drives.result("interpretation.joints.drives", "scalar", tol));
}

/// An optional number for people: the number, or `absent`.
fn side(x: Option<f64>) -> String {
    x.map_or_else(|| "absent".to_owned(), number)
}

/// The worst deviation of one reported object from its expectation, and what it was: each
/// field is compared, a structural difference is infinite.
#[derive(Debug, Default)]
struct Fields {
    worst: f64,
    message: Option<String>,
}

impl Fields {
    fn see(&mut self, dev: f64, message: impl FnOnce() -> String) {
        if self.message.is_none() || dev > self.worst || dev.is_nan() {
            self.worst = dev;
            self.message = Some(message());
        }
    }

    /// These fields' deviation and message (named by `name`) in place of `worst` when they
    /// are the first object compared, deviate more, or could not be measured (NaN).
    fn keep_worst(self, worst: &mut (f64, String), first: bool, name: impl FnOnce(&str) -> String) {
        if first || self.worst > worst.0 || self.worst.is_nan() {
            *worst = (self.worst, name(&self.message.unwrap_or_default()));
        }
    }

    /// A structural field, as people read it: equal or an infinite deviation.
    fn same(&mut self, what: &str, got: &str, want: &str) {
        let dev = if got == want { 0.0 } else { f64::INFINITY };
        self.see(dev, || format!("{what} {got} expected {want}"));
    }

    /// A number.
    fn number(&mut self, what: &str, got: f64, want: f64) {
        self.see(scaled(got, want), || {
            format!("{what} {} expected {}", number(got), number(want))
        });
    }

    /// An optional number: present on both sides and compared, or absent on both.
    fn optional(&mut self, what: &str, got: Option<f64>, want: Option<f64>) {
        let dev = match (got, want) {
            (Some(g), Some(w)) => scaled(g, w),
            (None, None) => 0.0,
            _ => f64::INFINITY,
        };
        self.see(dev, || {
            format!("{what} {} expected {}", side(got), side(want))
        });
    }
}

/// The reported limits as the expectation lists them: OMI's per-axis limits one entry per
/// axis (a report may list a constraint's axes together), KHR's as reported.
fn listed_limits(reported: &[LimitReport], coupling: Coupling) -> Vec<LimitReport> {
    match coupling {
        Coupling::Coupled => reported.to_vec(),
        Coupling::PerAxis => reported
            .iter()
            .flat_map(|l| {
                l.axes.iter().map(|&a| LimitReport {
                    axes: vec![a],
                    ..l.clone()
                })
            })
            .collect(),
    }
}

/// The deviation of a joint's `what`s (limits, drives) when their counts decide it: none
/// expected and none reported (0), or a count that differs (infinite); `None`: compare them.
fn counts(joint: usize, what: &str, got: usize, want: usize) -> Option<(f64, String)> {
    if want == 0 && got == 0 {
        Some((0.0, format!("joint {joint}: no {what}s, as expected")))
    } else if got != want {
        Some((
            f64::INFINITY,
            format!("joint {joint}: {got} {what}(s) reported, {want} expected"),
        ))
    } else {
        None
    }
}

/// How far a joint's reported limits are from the expected ones, compared in order, with a
/// message naming the joint, the limit and the worst field.
fn limits_deviation(
    joint: usize,
    want: &[LimitExpect],
    coupling: Coupling,
    got: &[LimitReport],
) -> (f64, String) {
    let got = listed_limits(got, coupling);
    if let Some(counted) = counts(joint, "limit", got.len(), want.len()) {
        return counted;
    }
    let mut worst = (0.0, String::new());
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        let mut f = Fields::default();
        f.same("kind", g.kind.name(), w.kind.name());
        // A limit's axes are a set: the order they are listed in means nothing [D-METRICS].
        let sorted = |axes: &[u8]| {
            let mut v = axes.to_vec();
            v.sort_unstable();
            v
        };
        f.same("axes", &listed(&sorted(&g.axes)), &listed(&sorted(&w.axes)));
        f.optional("min", g.min, w.min);
        f.optional("max", g.max, w.max);
        let hard = |s: Option<f64>| if s.is_some() { "soft" } else { "hard" };
        if g.stiffness.is_some() == w.stiffness.is_some() {
            f.optional("stiffness", g.stiffness, w.stiffness);
        } else {
            f.see(f64::INFINITY, || {
                format!(
                    "{} (stiffness {}) expected {} (stiffness {})",
                    hard(g.stiffness),
                    side(g.stiffness),
                    hard(w.stiffness),
                    side(w.stiffness)
                )
            });
        }
        f.number("damping", g.damping, w.damping);
        f.keep_worst(&mut worst, i == 0, |what| {
            format!(
                "joint {joint} limit {} ({} axes {}): {what}",
                w.index,
                w.kind.name(),
                listed(&w.axes)
            )
        });
    }
    worst
}

/// How far a joint's reported drives are from the expected ones, compared in order, with a
/// message naming the joint, the drive and the worst field.
fn drives_deviation(joint: usize, want: &[Drive], got: &[DriveReport]) -> (f64, String) {
    if let Some(counted) = counts(joint, "drive", got.len(), want.len()) {
        return counted;
    }
    let mut worst = (0.0, String::new());
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let mut f = Fields::default();
        f.same("kind", g.kind.name(), w.kind.name());
        f.same("axis", &g.axis.to_string(), &w.axis.to_string());
        f.same("mode", g.mode.name(), w.mode.name());
        if g.max_force.is_some() == w.max_force.is_some() {
            f.optional("maxForce", g.max_force, w.max_force);
        } else {
            let limited = |m: Option<f64>| {
                m.map_or_else(
                    || "unlimited".to_owned(),
                    |m| format!("limited to {}", number(m)),
                )
            };
            f.see(f64::INFINITY, || {
                format!(
                    "force {} expected {}",
                    limited(g.max_force),
                    limited(w.max_force)
                )
            });
        }
        f.optional("positionTarget", g.position_target, w.position_target);
        f.optional("velocityTarget", g.velocity_target, w.velocity_target);
        f.number("stiffness", g.stiffness, w.stiffness);
        f.number("damping", g.damping, w.damping);
        f.keep_worst(&mut worst, i == 0, |what| {
            format!(
                "joint {joint} drive {i} ({} axis {}): {what}",
                w.kind.name(),
                w.axis
            )
        });
    }
    worst
}

#[cfg(test)]
mod tests;
