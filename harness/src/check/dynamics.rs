//! Dynamics: invariants over a simulation, measured from the observations the runner made.
//! The checks and their tolerances are the case's scenario; limit metrics come from
//! `reference::metrics`, with attachment frames placed by the reported body poses and the
//! reference's rest attachment frames (so a wrongly imported frame shows here too).
//!
//! Engines differ by design: the scenarios check invariants, resting states and averages over
//! windows, never a trajectory after an impact.

use nalgebra::{Isometry3, Vector3};
use reference::case::{CheckKind, DynamicsCheck, Scenario, Side, Tolerance};
use reference::expect::Expectation;
use reference::expect::joints::{Coupling, JointExpect, LimitExpect, place};
use reference::metrics;
use reference::scene::{DofKind, Limit, LimitSet};

use crate::check::CheckResult;
use crate::check::geometry::{angle_between, isometry};
use crate::implementation::{Action, NodeState, State};
use crate::status::Status;

/// One observation: the state after `step` steps.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    pub step: u32,
    pub state: State,
}

/// Why a check could not be measured.
enum Problem {
    /// The implementation did not report what the check needs: a `FAIL`.
    Missing(String),
    /// The case data is unusable (a suite bug): a `HARNESS_ERROR`.
    Data(String),
}

type Measured<T> = Result<T, Problem>;

/// The results of one dynamics check.
type Checked = Measured<Vec<CheckResult>>;

fn node_pose(state: &State, node: usize) -> Measured<&NodeState> {
    state.nodes.iter().find(|n| n.node == node).ok_or_else(|| {
        Problem::Missing(format!(
            "node {node} is not in the observation at t = {}",
            state.time
        ))
    })
}

fn iso(n: &NodeState) -> Isometry3<f64> {
    isometry(n.translation, n.rotation)
}

/// World poses of a joint's two attachment frames in `state`, placed by the reference
/// (`joints::place`) on the reported pose of each frame's body (the world when the frame has
/// no body).
fn frames(joint: &JointExpect, state: &State) -> Measured<[Isometry3<f64>; 2]> {
    let mut out = [Isometry3::identity(); 2];
    for (slot, f) in out.iter_mut().zip(&joint.frames) {
        let body = match f.body_node {
            Some(n) => iso(node_pose(state, n)?),
            None => Isometry3::identity(),
        };
        *slot = place(f, &body);
    }
    Ok(out)
}

fn joint(want: Option<&Expectation>, node: usize) -> Measured<&JointExpect> {
    want.and_then(|w| w.joint(node))
        .ok_or_else(|| Problem::Data(format!("no expected joint at node {node}")))
}

/// The observations of a check's window.
fn window<'a>(check: &DynamicsCheck, observations: &'a [Observation]) -> Vec<&'a Observation> {
    let to = check.to_step.unwrap_or(u32::MAX);
    observations
        .iter()
        .filter(|o| o.step >= check.from_step && o.step <= to)
        .collect()
}

fn ends<'a>(w: &[&'a Observation]) -> Measured<(&'a Observation, &'a Observation)> {
    match (w.first(), w.last()) {
        (Some(a), Some(b)) if b.state.time > a.state.time => Ok((a, b)),
        _ => Err(Problem::Data(
            "the window holds fewer than two observations at different times".into(),
        )),
    }
}

/// The largest of the values, NaN winning (an unmeasurable value must not pass).
fn worst(values: impl IntoIterator<Item = f64>) -> f64 {
    values.into_iter().fold(0.0, |m: f64, v| {
        if v.is_nan() || m.is_nan() {
            f64::NAN
        } else {
            m.max(v)
        }
    })
}

/// Limit `limit` of joint `j` alone, in the joint's coupling, to evaluate its metric; without
/// damping, which no metric reads.
fn one_limit(j: &JointExpect, limit: usize) -> Measured<(&LimitExpect, LimitSet)> {
    let l = j
        .limits
        .get(limit)
        .ok_or_else(|| Problem::Data(format!("joint {} has no limit {limit}", j.node)))?;
    let one = Limit {
        damping: 0.0,
        ..l.limit()
    };
    let set = match j.coupling {
        Coupling::PerAxis => LimitSet::PerAxis(vec![one]),
        Coupling::Coupled => LimitSet::Coupled(vec![one]),
    };
    Ok((l, set))
}

/// Limit `index` of joint `j` for people: `coupled limit 0 (angular axes [0], [-0.5, 0.5]) of
/// joint 4`.
fn describe(j: &JointExpect, l: &LimitExpect, index: usize) -> String {
    format!(
        "{} limit {index} ({} axes {:?}, [{}, {}]) of joint {}",
        j.coupling.name(),
        l.kind.name(),
        l.axes,
        bound(l.min),
        bound(l.max),
        j.node
    )
}

/// A limit bound for people (not `Some(0.1000000015)`): the number, or `unbounded`.
fn bound(x: Option<f64>) -> String {
    x.map_or_else(|| "unbounded".to_owned(), crate::text::number)
}

/// Every dynamics check of a scenario over its observations.
pub fn check(
    scenario: &Scenario<Action>,
    want: Option<&Expectation>,
    observations: &[Observation],
) -> Vec<CheckResult> {
    let mut out = Vec::new();
    for c in &scenario.checks {
        let name = format!("dynamics.{}", c.name);
        let results = measure(c, &name, want, observations).unwrap_or_else(|p| {
            let (status, message) = match p {
                Problem::Missing(m) => (Status::Fail, m),
                Problem::Data(m) => (Status::HarnessError, m),
            };
            vec![CheckResult::new(name.clone(), status, message)]
        });
        let objects = want.map_or_else(Vec::new, |w| object_decisions(&c.kind, w));
        let decisions: Vec<&str> = c.decisions.iter().map(|d| d.id()).collect();
        out.extend(
            results
                .into_iter()
                .map(|r| r.with_decisions(&decisions).with_decisions(&objects)),
        );
    }
    out
}

/// The decisions of the objects a check measures, as the interpretation records them: the
/// joint of a limit or drive, the bodies of a node check, the pairs of a contact check.
fn object_decisions(kind: &CheckKind, want: &Expectation) -> Vec<&'static str> {
    let body = |n: &usize| {
        want.body(*n)
            .map(|b| b.decisions.iter().map(|d| d.id()).collect())
            .unwrap_or_default()
    };
    match kind {
        CheckKind::Limit { joint, .. }
        | CheckKind::Reach { joint, .. }
        | CheckKind::Drive { joint, .. } => want
            .joint(*joint)
            .map(|j| j.decisions.iter().map(|d| d.id()).collect())
            .unwrap_or_default(),
        CheckKind::Still { nodes, .. } => nodes.iter().flat_map(body).collect(),
        CheckKind::MeanVelocity { node, .. }
        | CheckKind::Acceleration { node, .. }
        | CheckKind::MaxHeight { node, .. }
        | CheckKind::Displacement { node, .. } => body(node),
        CheckKind::NoContact { pairs } => want
            .pairs
            .iter()
            .filter(|p| {
                let n = [p.nodes[0].min(p.nodes[1]), p.nodes[0].max(p.nodes[1])];
                pairs.iter().any(|q| [q[0].min(q[1]), q[0].max(q[1])] == n)
            })
            .flat_map(|p| p.decisions.iter().map(|d| d.id()))
            .collect(),
        CheckKind::TriggerEvents { .. } => Vec::new(),
    }
}

/// What every measurement reads: the check's name, its window (never empty) and the expected
/// interpretation.
struct Window<'a> {
    name: &'a str,
    obs: Vec<&'a Observation>,
    want: Option<&'a Expectation>,
}

/// One check over its window: a function per kind of check.
fn measure(
    c: &DynamicsCheck,
    name: &str,
    want: Option<&Expectation>,
    observations: &[Observation],
) -> Checked {
    let obs = window(c, observations);
    if obs.is_empty() {
        return Err(Problem::Data("the window holds no observation".into()));
    }
    let w = &Window { name, obs, want };
    match &c.kind {
        CheckKind::Limit {
            joint,
            limit,
            tolerance,
        } => limit_violation(w, *joint, *limit, *tolerance),
        CheckKind::Reach {
            joint,
            limit,
            side,
            expected,
            tolerance,
        } => reach(w, *joint, *limit, *side, *expected, *tolerance),
        CheckKind::Still {
            nodes,
            length,
            angle,
        } => still(w, nodes, *length, *angle),
        CheckKind::MeanVelocity {
            node,
            expected,
            tolerance,
        } => mean_rate(w, *node, expected, *tolerance, VELOCITY),
        CheckKind::Acceleration {
            node,
            expected,
            tolerance,
        } => mean_rate(w, *node, expected, *tolerance, ACCELERATION),
        CheckKind::NoContact { pairs } => no_contact(w, pairs),
        CheckKind::TriggerEvents {
            trigger,
            other,
            enter,
            exit,
        } => trigger_events(w, *trigger, *other, *enter, *exit),
        CheckKind::MaxHeight {
            node,
            direction,
            expected,
            tolerance,
        } => max_height(w, *node, direction, *expected, *tolerance),
        CheckKind::Displacement {
            node,
            direction,
            expected,
            tolerance,
        } => displacement(w, *node, direction, *expected, *tolerance),
        CheckKind::Drive {
            joint,
            drive,
            target,
            tolerance,
        } => drive_target(w, *joint, *drive, *target, *tolerance),
    }
}

/// The largest violation of a joint limit over the window.
fn limit_violation(w: &Window, node: usize, limit: usize, tol: Tolerance) -> Checked {
    let j = joint(w.want, node)?;
    let (l, set) = one_limit(j, limit)?;
    let mut violations = Vec::new();
    let mut series = Vec::new();
    let mut at = (0.0, 0.0);
    for o in &w.obs {
        let [a, b] = frames(j, &o.state)?;
        let mut here = Vec::new();
        for e in metrics::evaluate(&set, &a, &b) {
            if e.violation.is_nan() || e.violation.abs() > at.1 {
                at = (o.state.time, e.violation.abs());
            }
            here.push(e.violation.abs());
        }
        if !here.is_empty() {
            series.push([o.state.time, worst(here.iter().copied())]);
        }
        violations.extend(here);
    }
    // An empty list means the metric measured nothing (e.g. axes it cannot read): that is a
    // data problem, never a pass.
    if violations.is_empty() {
        return Err(Problem::Data(format!(
            "joint {node}: limit {limit} gives no metric to measure"
        )));
    }
    let v = worst(violations);
    Ok(vec![
        CheckResult::graded(
            w.name,
            v,
            tol,
            format!(
                "largest violation of {}: {v:.6} at t = {:.4}",
                describe(j, l, limit),
                at.0
            ),
        )
        .with_series(series),
    ])
}

/// The extreme of a joint limit's metric on one side over the window.
fn reach(
    w: &Window,
    node: usize,
    limit: usize,
    side: Side,
    expected: f64,
    tol: Tolerance,
) -> Checked {
    let j = joint(w.want, node)?;
    let (l, set) = one_limit(j, limit)?;
    let mut series = Vec::new();
    for o in &w.obs {
        let [a, b] = frames(j, &o.state)?;
        match metrics::evaluate(&set, &a, &b).as_slice() {
            [e] => series.push([o.state.time, e.metric]),
            other => {
                return Err(Problem::Data(format!(
                    "joint {node}: limit {limit} gives {} metrics, a reach check needs one",
                    other.len()
                )));
            }
        }
    }
    let metric = |p: &[f64; 2]| p[1];
    let extreme = match side {
        Side::Max => series.iter().map(metric).fold(f64::NEG_INFINITY, f64::max),
        Side::Min => series.iter().map(metric).fold(f64::INFINITY, f64::min),
    };
    let extreme = if series.iter().any(|p| p[1].is_nan()) {
        f64::NAN
    } else {
        extreme
    };
    let which = match side {
        Side::Max => "largest",
        Side::Min => "smallest",
    };
    Ok(vec![
        CheckResult::graded(
            w.name,
            extreme - expected,
            tol,
            format!(
                "{which} value of the metric of {}: {extreme:.6}, expected {expected}",
                describe(j, l, limit)
            ),
        )
        .with_series(series),
    ])
}

/// The largest displacement and rotation of the nodes from their first pose in the window.
fn still(w: &Window, nodes: &[usize], length: Tolerance, angle: Tolerance) -> Checked {
    let first = w.obs[0];
    let (mut dt, mut dq) = (Vec::new(), Vec::new());
    // Per observation, the worst node: the series drawn for a failing check.
    let mut st: Vec<[f64; 2]> = w.obs.iter().map(|o| [o.state.time, 0.0]).collect();
    let mut sq = st.clone();
    for n in nodes {
        let p0 = iso(node_pose(&first.state, *n)?);
        for (k, o) in w.obs.iter().enumerate() {
            let p = iso(node_pose(&o.state, *n)?);
            let (t, q) = (
                (p.translation.vector - p0.translation.vector).norm(),
                angle_between(&p0.rotation, &p.rotation),
            );
            st[k][1] = worst([st[k][1], t]);
            sq[k][1] = worst([sq[k][1], q]);
            dt.push(t);
            dq.push(q);
        }
    }
    let (dt, dq) = (worst(dt), worst(dq));
    Ok(vec![
        CheckResult::graded(
            format!("{}.translation", w.name),
            dt,
            length,
            format!("largest displacement of nodes {nodes:?}: {dt:.6} m"),
        )
        .with_series(st),
        CheckResult::graded(
            format!("{}.rotation", w.name),
            dq,
            angle,
            format!("largest rotation of nodes {nodes:?}: {dq:.6} rad"),
        )
        .with_series(sq),
    ])
}

/// What [`mean_rate`] measures: its name, its unit, and the reported vector it is the rate of.
type Rate = (&'static str, &'static str, fn(&NodeState) -> [f64; 3]);
const VELOCITY: Rate = ("velocity", "m/s", |n| n.translation);
const ACCELERATION: Rate = ("acceleration", "m/s²", |n| n.linear_velocity);

/// A node's mean velocity (or acceleration) between the window's ends, from its reported
/// translations (or velocities).
fn mean_rate(w: &Window, node: usize, expected: &[f64; 3], tol: Tolerance, rate: Rate) -> Checked {
    let (what, unit, of) = rate;
    let (a, b) = ends(&w.obs)?;
    let (sa, sb) = (node_pose(&a.state, node)?, node_pose(&b.state, node)?);
    let mean = (Vector3::from(of(sb)) - Vector3::from(of(sa))) / (b.state.time - a.state.time);
    let dev = (mean - Vector3::from(*expected)).norm();
    Ok(vec![CheckResult::graded(
        w.name,
        dev,
        tol,
        format!(
            "node {node}: mean {what} [{:.4}, {:.4}, {:.4}] {unit}, expected {expected:?}",
            mean.x, mean.y, mean.z
        ),
    )])
}

/// The contact observations of forbidden pairs over the window (none passes).
fn no_contact(w: &Window, pairs: &[[usize; 2]]) -> Checked {
    let sorted: Vec<[usize; 2]> = pairs
        .iter()
        .map(|p| [p[0].min(p[1]), p[0].max(p[1])])
        .collect();
    let mut hits = 0usize;
    let mut first = None;
    for o in &w.obs {
        for c in &o.state.contacts {
            let c = [c[0].min(c[1]), c[0].max(c[1])];
            if sorted.contains(&c) {
                hits += 1;
                first.get_or_insert((c, o.state.time));
            }
        }
    }
    let mut r = CheckResult::exact(
        w.name,
        hits == 0,
        format!(
            "{hits} contact observation(s) of forbidden pairs; first {:?}",
            first
        ),
    );
    r.measured = Some(hits as f64);
    Ok(vec![r])
}

/// Whether a trigger's enter and exit events with `other` came as expected, an exit after an
/// enter.
fn trigger_events(w: &Window, trigger: usize, other: usize, enter: bool, exit: bool) -> Checked {
    // Events in report order (observations in time order, events within one in the order
    // given): the first of each kind.
    let events: Vec<&str> = w
        .obs
        .iter()
        .flat_map(|o| o.state.trigger_events.iter())
        .filter(|e| e.trigger == trigger && e.other == other)
        .map(|e| e.kind.name())
        .collect();
    let first = |kind: &str| events.iter().position(|k| *k == kind);
    let (got_enter, got_exit) = (first("enter"), first("exit"));
    // An exit is an exit from an overlap: when both are expected, one enter precedes the first
    // exit.
    let ordered = match (got_enter, got_exit) {
        (Some(a), Some(b)) => !(enter && exit) || a < b,
        _ => true,
    };
    Ok(vec![CheckResult::exact(
        w.name,
        got_enter.is_some() == enter && got_exit.is_some() == exit && ordered,
        format!(
            "trigger {trigger} with {other}: events {events:?}, expected enter {enter} exit {exit} (an exit after an enter)"
        ),
    )])
}

/// A node's highest position along `dir` over the window.
fn max_height(w: &Window, node: usize, dir: &[f64; 3], expected: f64, tol: Tolerance) -> Checked {
    let d = Vector3::from(*dir).normalize();
    let mut heights = Vec::new();
    let mut series = Vec::new();
    for o in &w.obs {
        let h = Vector3::from(node_pose(&o.state, node)?.translation).dot(&d);
        heights.push(h);
        series.push([o.state.time, h - expected]);
    }
    let h = heights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let h = if heights.iter().any(|x| x.is_nan()) {
        f64::NAN
    } else {
        h
    };
    Ok(vec![
        CheckResult::graded(
            w.name,
            h - expected,
            tol,
            format!("node {node}: highest {h:.4} m along {dir:?}, expected {expected}"),
        )
        .with_series(series),
    ])
}

/// A node's displacement along `dir` between the window's ends.
fn displacement(w: &Window, node: usize, dir: &[f64; 3], expected: f64, tol: Tolerance) -> Checked {
    let (a, b) = ends(&w.obs)?;
    let d = Vector3::from(*dir).normalize();
    let s = (Vector3::from(node_pose(&b.state, node)?.translation)
        - Vector3::from(node_pose(&a.state, node)?.translation))
    .dot(&d);
    Ok(vec![CheckResult::graded(
        w.name,
        s - expected,
        tol,
        format!("node {node}: moved {s:.4} m along {dir:?}, expected {expected}"),
    )])
}

/// The largest distance of a joint drive's degree of freedom to its target over the window.
fn drive_target(w: &Window, node: usize, drive: usize, target: f64, tol: Tolerance) -> Checked {
    let j = joint(w.want, node)?;
    let dr = j
        .drives
        .get(drive)
        .ok_or_else(|| Problem::Data(format!("joint {node} has no drive {drive}")))?;
    let mut devs = Vec::new();
    let mut series = Vec::new();
    let mut last = f64::NAN;
    for o in &w.obs {
        let [a, b] = frames(j, &o.state)?;
        last = match dr.kind {
            DofKind::Linear => metrics::linear_metric(&[dr.axis], &a, &b),
            DofKind::Angular => metrics::angular_metric(&[dr.axis], &a, &b),
        };
        devs.push((last - target).abs());
        series.push([o.state.time, (last - target).abs()]);
    }
    let v = worst(devs);
    Ok(vec![CheckResult::graded(
        w.name,
        v,
        tol,
        format!(
            "joint {node} drive {drive} ({} axis {}): largest distance to target {target}: {v:.6}; last value {last:.6}",
            dr.kind.name(), dr.axis
        ),
    )
    .with_series(series)])
}

#[cfg(test)]
mod tests;
