//! TEMPORARY: stand-ins with the signatures of `crate::metrics` and `crate::constraints` until
//! those modules land on main. Deleted on merge; nothing here is the reference.

pub mod metrics {
    use nalgebra::{Isometry3, UnitQuaternion, Vector3};

    use crate::scene::{DofKind, LimitSet};

    #[derive(Clone, Debug, PartialEq)]
    pub struct LimitEval {
        pub index: usize,
        pub kind: DofKind,
        pub axes: Vec<u8>,
        pub min: Option<f64>,
        pub max: Option<f64>,
        pub metric: f64,
        pub violation: f64,
    }

    fn twist(q: &UnitQuaternion<f64>, axis: usize) -> f64 {
        let v = q.imag()[axis];
        let a = 2.0 * v.atan2(q.w);
        if a > std::f64::consts::PI {
            a - 2.0 * std::f64::consts::PI
        } else if a <= -std::f64::consts::PI {
            a + 2.0 * std::f64::consts::PI
        } else {
            a
        }
    }

    pub fn evaluate(set: &LimitSet, a: &Isometry3<f64>, b: &Isometry3<f64>) -> Vec<LimitEval> {
        set.limits()
            .iter()
            .enumerate()
            .map(|(index, l)| {
                let d = b.translation.vector - a.translation.vector;
                let e = |i: u8| a.rotation * Vector3::ith(usize::from(i), 1.0);
                let rel = a.rotation.inverse() * b.rotation;
                let metric = match (l.kind, l.axes.as_slice()) {
                    (DofKind::Linear, [i]) => e(*i).dot(&d),
                    (DofKind::Linear, _) => d.norm(),
                    (DofKind::Angular, [i]) => twist(&rel, usize::from(*i)),
                    (DofKind::Angular, _) => rel.angle(),
                };
                let violation = l.min.map_or(0.0, |m| (m - metric).max(0.0))
                    + l.max.map_or(0.0, |m| (metric - m).max(0.0));
                LimitEval {
                    index,
                    kind: l.kind,
                    axes: l.axes.clone(),
                    min: l.min,
                    max: l.max,
                    metric,
                    violation,
                }
            })
            .collect()
    }
}

pub mod constraints {
    use crate::scene::{Scene, Trs};

    #[derive(Debug, thiserror::Error, PartialEq)]
    #[error("constraint evaluation failed")]
    pub struct ConstraintError;

    pub fn evaluate(_scene: &Scene, locals: &[Trs]) -> Result<Vec<Trs>, ConstraintError> {
        Ok(locals.to_vec())
    }
}
