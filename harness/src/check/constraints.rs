//! Constraints: the local TRS of every VRM-constrained node, as the implementation evaluates
//! it at a named pose, equals the reference's output at that pose.

use std::collections::BTreeMap;

use nalgebra::Vector3;

use reference::expect::at_pose::{ConstrainedOutput, ConstraintOutputs};

use crate::case::PoseOutputs;
use crate::check::CheckResult;
use crate::check::geometry::{angle_between, distance, rotation};
use crate::implementation::NodeTrs;
use crate::status::Status;
use crate::tolerance::Tolerance;

/// The checks of one pose: every expected node reported, then the worst translation (and
/// scale) deviation in `length` units and the worst rotation deviation in `angle` units.
pub fn check(
    pose: &PoseOutputs,
    got: &[NodeTrs],
    tolerances: &BTreeMap<String, Tolerance>,
    decisions: &[&str],
) -> Vec<CheckResult> {
    let prefix = format!("constraints.{}", pose.name);
    let want: &[ConstrainedOutput] = match &pose.constraints {
        Some(ConstraintOutputs::Nodes(nodes)) => nodes,
        Some(ConstraintOutputs::Error { error }) => {
            return vec![
                CheckResult::new(
                    format!("{prefix}.nodes"),
                    Status::HarnessError,
                    format!("the reference cannot evaluate the constraints at this pose: {error}"),
                )
                .with_decisions(decisions),
            ];
        }
        None => &[],
    };
    let missing: Vec<usize> = want
        .iter()
        .map(|w| w.node)
        .filter(|n| !got.iter().any(|g| g.node == *n))
        .collect();
    let mut out = vec![
        CheckResult::exact(
            format!("{prefix}.nodes"),
            missing.is_empty(),
            format!("constrained nodes not reported: {missing:?}"),
        )
        .with_decisions(decisions),
    ];
    let mut worst_t: Option<(f64, String)> = None;
    let mut worst_q: Option<(f64, String)> = None;
    let worse = |cur: &Option<(f64, String)>, v: f64| {
        cur.as_ref().is_none_or(|(c, _)| v.is_nan() || v > *c)
    };
    for w in want {
        let Some(g) = got.iter().find(|g| g.node == w.node) else {
            continue;
        };
        let dt = distance(w.translation, g.translation)
            .max((Vector3::from(w.scale) - Vector3::from(g.scale)).norm());
        if worse(&worst_t, dt) {
            worst_t = Some((
                dt,
                format!(
                    "node {}: translation {:?} scale {:?} expected {:?} {:?}",
                    w.node, g.translation, g.scale, w.translation, w.scale
                ),
            ));
        }
        let dq = angle_between(&rotation(w.rotation), &rotation(g.rotation));
        if worse(&worst_q, dq) {
            worst_q = Some((
                dq,
                format!(
                    "node {}: rotation {:?} expected {:?}",
                    w.node, g.rotation, w.rotation
                ),
            ));
        }
    }
    for (suffix, class, worst) in [
        ("translation", "length", worst_t),
        ("rotation", "angle", worst_q),
    ] {
        let Some((value, message)) = worst else {
            continue;
        };
        let check = format!("{prefix}.{suffix}");
        let r = match tolerances.get(class) {
            Some(t) => CheckResult::graded(check, value, *t, message),
            None => CheckResult::new(
                check,
                Status::Skip,
                format!("the case gives no `{class}` tolerance class"),
            ),
        };
        out.push(r.with_decisions(decisions));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn trs(node: usize, t: [f64; 3], q: [f64; 4]) -> NodeTrs {
        NodeTrs {
            node,
            translation: t,
            rotation: q,
            scale: [1.0; 3],
        }
    }

    #[test]
    fn grades_the_worst_node_and_reports_missing_ones() {
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let pose = PoseOutputs {
            name: "bend".into(),
            poses: json!({"nodes": {}}),
            limits: None,
            constraints: Some(ConstraintOutputs::Nodes(vec![
                ConstrainedOutput {
                    node: 1,
                    translation: [0.0, 1.0, 0.0],
                    rotation: [0.0, 0.0, h, h],
                    scale: [1.0; 3],
                },
                ConstrainedOutput {
                    node: 2,
                    translation: [0.0; 3],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                    scale: [1.0; 3],
                },
            ])),
        };
        let exact = vec![
            trs(1, [0.0, 1.0, 0.0], [0.0, 0.0, h, h]),
            trs(2, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        ];
        let tol: BTreeMap<String, Tolerance> = [
            (
                "length".to_owned(),
                Tolerance::new(1e-6, 1e-3).expect("valid"),
            ),
            (
                "angle".to_owned(),
                Tolerance::new(1e-6, 1e-3).expect("valid"),
            ),
        ]
        .into();
        let d = vec!["D-VRM-ROTATION"];
        // Exact answer: everything passes.
        let out = check(&pose, &exact, &tol, &d);
        assert!(out.iter().all(|c| c.status == Status::Pass), "{out:?}");
        assert_eq!(out.len(), 3);
        assert_eq!(out[2].decisions, d);
        // Node 1 off by 0.0005 m (a quality warning), node 2 rotated by a quarter turn (fail).
        let got = vec![
            trs(1, [0.0, 1.0005, 0.0], [0.0, 0.0, h, h]),
            trs(2, [0.0, 0.0, 0.0], [0.0, 0.0, h, h]),
        ];
        let out = check(&pose, &got, &tol, &d);
        assert_eq!(out[1].status, Status::QualityWarning);
        assert!((out[1].measured.expect("measured") - 0.0005).abs() < 1e-12);
        assert_eq!(out[2].status, Status::Fail);
        assert!(out[2].message.starts_with("node 2"), "{}", out[2].message);
        // Node 2 missing.
        let out = check(&pose, &got[..1], &tol, &d);
        assert_eq!(out[0].status, Status::Fail);
        assert!(out[0].message.contains("[2]"));
    }
}
