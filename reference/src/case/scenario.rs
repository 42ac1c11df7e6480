//! The dynamics scenario of a case: simulation settings, steps, actions, and the invariants to
//! check with their tolerance classes. The generator writes it from the invariants the
//! reference finds ([`crate::expect::invariants`]) and its own settings and tolerances; the
//! harness only executes and measures it.
//!
//! An action is a message of the harness's protocol, which the harness owns: the scenario is
//! generic over it (`A`), and keeps actions as JSON values by default.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::decision::Decision;

use super::CatalogueId;

/// Bounds on what a scenario may ask, so a corrupt case cannot stall a run.
pub const MAX_STEPS: u32 = 100_000;

/// Bounds on the magnitude of a deviation, in the unit of the quantity checked: data of the
/// case, never a constant of a check.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Within it: `PASS`.
    pub recommended: f64,
    /// Within it but outside `recommended`: `QUALITY_WARNING`; outside: `FAIL`.
    pub allowed: f64,
}

/// Why a tolerance from the case data cannot be used (a corpus bug).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ToleranceError {
    #[error("tolerance bounds must be non-negative and not NaN (recommended {0}, allowed {1})")]
    Negative(f64, f64),
    #[error("recommended tolerance {0} is larger than the allowed one {1}")]
    Inverted(f64, f64),
}

impl Tolerance {
    /// A tolerance whose bounds are usable: both `>= 0` (NaN refused), recommended <= allowed.
    pub fn new(recommended: f64, allowed: f64) -> Result<Tolerance, ToleranceError> {
        Tolerance {
            recommended,
            allowed,
        }
        .validated()
    }

    /// The tolerance itself when its bounds are usable (see [`Tolerance::new`]).
    pub fn validated(self) -> Result<Tolerance, ToleranceError> {
        let ok = |x: f64| x >= 0.0; // false for NaN
        if !ok(self.recommended) || !ok(self.allowed) {
            return Err(ToleranceError::Negative(self.recommended, self.allowed));
        }
        if self.recommended > self.allowed {
            return Err(ToleranceError::Inverted(self.recommended, self.allowed));
        }
        Ok(self)
    }
}

/// Simulation settings, sent after a load; finite numbers only.
// Also the protocol's `configure` message, whose schema is derived from this type; a scenario
// with a non-finite setting is refused (`Scenario::validate`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct SimConfig {
    /// Gravity, m/s^2, world space.
    pub gravity: [f64; 3],
    /// Seconds per step.
    pub dt: f64,
    /// Solver substeps per step.
    pub substeps: u32,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            gravity: [0.0, -9.81, 0.0],
            dt: 1.0 / 60.0,
            substeps: 1,
        }
    }
}

/// An action applied just before step `step` (0: before the first step).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedAction<A = Value> {
    pub step: u32,
    #[serde(flatten)]
    pub action: A,
}

/// A simulation and what must hold over it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "A: Deserialize<'de>", serialize = "A: Serialize"))]
pub struct Scenario<A = Value> {
    pub config: SimConfig,
    /// Number of steps of `config.dt`.
    pub steps: u32,
    /// Observe after every `observe_every` steps (and once before the first step).
    #[serde(default = "one")]
    pub observe_every: u32,
    /// Actions in the order given; absent (`None`) in the scenarios of generated scenes,
    /// which never act.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<TimedAction<A>>>,
    pub checks: Vec<DynamicsCheck>,
}

fn one() -> u32 {
    1
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

/// An invariant over the observations. `from_step` / `to_step` select observations by the
/// number of steps taken when they were made (inclusive); `to_step` absent: the last one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynamicsCheck {
    /// Unique within the scenario; the check is reported as `dynamics.<name>`.
    pub name: String,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub from_step: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_step: Option<u32>,
    /// The decisions the expectation rests on beyond those of the objects it measures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<CatalogueId<Decision>>,
    #[serde(flatten)]
    pub kind: CheckKind,
}

impl DynamicsCheck {
    /// A check over the whole run.
    pub fn new(name: impl Into<String>, kind: CheckKind) -> DynamicsCheck {
        DynamicsCheck {
            name: name.into(),
            from_step: 0,
            to_step: None,
            decisions: Vec::new(),
            kind,
        }
    }
}

/// What a node a check names must be in the case's expected interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeRole {
    /// A body or a collider.
    Object,
    /// A joint.
    Joint,
    /// A trigger, or the node of a compound trigger (its events are reported there).
    Trigger,
}

/// What is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckKind {
    /// A joint limit (index into the expected joint's `limits`) holds: the largest violation
    /// of the metric (`crate::metrics`, frames from the reported body poses and the rest
    /// attachment frames) over the window. Hard limits use the whole run, soft limits a window
    /// after they settle.
    Limit {
        joint: usize,
        limit: usize,
        tolerance: Tolerance,
    },
    /// The nodes never move from their first observed pose (static bodies and colliders).
    Still {
        nodes: Vec<usize>,
        length: Tolerance,
        angle: Tolerance,
    },
    /// The mean linear velocity of a node over the window (position difference over time)
    /// equals `expected` (kinematic bodies keep their velocity; triggers never push).
    MeanVelocity {
        node: usize,
        expected: [f64; 3],
        tolerance: Tolerance,
    },
    /// The mean acceleration of a node over the window (reported velocity difference over
    /// time) equals `expected` (gravity acts on dynamic bodies only, scaled by their factor).
    Acceleration {
        node: usize,
        expected: [f64; 3],
        tolerance: Tolerance,
    },
    /// These collider pairs never have a contact in any observation.
    NoContact { pairs: Vec<[usize; 2]> },
    /// The trigger (or compound trigger) reports these events with `other` over the run.
    TriggerEvents {
        trigger: usize,
        other: usize,
        enter: bool,
        exit: bool,
    },
    /// The highest position of a node along `direction` over the window (bounce heights).
    MaxHeight {
        node: usize,
        direction: [f64; 3],
        expected: f64,
        tolerance: Tolerance,
    },
    /// The displacement of a node along `direction` between the window's ends (sliding).
    Displacement {
        node: usize,
        direction: [f64; 3],
        expected: f64,
        tolerance: Tolerance,
    },
    /// The extreme of a joint limit's metric (index into the expected joint's `limits`, which
    /// must measure one metric: a coupled limit or a one-axis per-axis one) over the window:
    /// its largest value for `side` `max`, its smallest for `min`, equals `expected`. A body
    /// pushed against a bound gets there, so a bound read too tight fails as surely as one
    /// read too loose; pushed past an open side, it travels on to `expected`, where a side
    /// read as 0 would have stopped it.
    Reach {
        joint: usize,
        limit: usize,
        side: Side,
        expected: f64,
        tolerance: Tolerance,
    },
    /// A joint drive (index into the expected joint's `drives`) holds its target over the
    /// window: the drive's degree of freedom (1-axis metric on its axis) minus `target`.
    Drive {
        joint: usize,
        drive: usize,
        target: f64,
        tolerance: Tolerance,
    },
}

/// Which extreme of a metric a [`CheckKind::Reach`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    Min,
    Max,
}

impl Side {
    /// The serialised name (`min`, `max`).
    pub fn name(self) -> &'static str {
        match self {
            Side::Min => "min",
            Side::Max => "max",
        }
    }
}

impl<A> Scenario<A> {
    /// The actions, in the order given (none when absent).
    pub fn actions(&self) -> &[TimedAction<A>] {
        self.actions.as_deref().unwrap_or_default()
    }

    /// Reject scenarios a runner cannot execute meaningfully.
    pub fn validate(&self) -> Result<(), String> {
        let c = &self.config;
        if !(c.dt > 0.0 && c.dt.is_finite()) {
            return Err(format!("dt must be positive and finite, got {}", c.dt));
        }
        if c.gravity.iter().any(|g| !g.is_finite()) {
            return Err("gravity must be finite".into());
        }
        if self.steps > MAX_STEPS {
            return Err(format!("{} steps is more than {MAX_STEPS}", self.steps));
        }
        if self.observe_every == 0 {
            return Err("observe_every must be at least 1".into());
        }
        let mut names: Vec<&str> = self.checks.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("check name {:?} is used twice", w[0]));
        }
        for check in &self.checks {
            // A window past the run would be measured on the observations that exist and pass.
            let last = check.to_step.unwrap_or(self.steps);
            if check.from_step > last || last > self.steps {
                return Err(format!(
                    "check {:?}: its window (steps {}..={last}) is not within the run's {} steps",
                    check.name, check.from_step, self.steps
                ));
            }
            for t in check.kind.tolerances() {
                t.validated()
                    .map_err(|e| format!("check {:?}: {e}", check.name))?;
            }
        }
        Ok(())
    }
}

impl CheckKind {
    /// The nodes the check names, with what they must be in the case's interpretation.
    pub fn nodes(&self) -> Vec<(usize, NodeRole)> {
        match self {
            CheckKind::Limit { joint, .. }
            | CheckKind::Reach { joint, .. }
            | CheckKind::Drive { joint, .. } => vec![(*joint, NodeRole::Joint)],
            CheckKind::Still { nodes, .. } => {
                nodes.iter().map(|n| (*n, NodeRole::Object)).collect()
            }
            CheckKind::MeanVelocity { node, .. }
            | CheckKind::Acceleration { node, .. }
            | CheckKind::MaxHeight { node, .. }
            | CheckKind::Displacement { node, .. } => vec![(*node, NodeRole::Object)],
            CheckKind::NoContact { pairs } => pairs
                .iter()
                .flatten()
                .map(|n| (*n, NodeRole::Object))
                .collect(),
            CheckKind::TriggerEvents { trigger, other, .. } => {
                vec![(*trigger, NodeRole::Trigger), (*other, NodeRole::Object)]
            }
        }
    }

    /// Every tolerance the check carries.
    pub fn tolerances(&self) -> Vec<Tolerance> {
        match self {
            CheckKind::Limit { tolerance, .. }
            | CheckKind::MeanVelocity { tolerance, .. }
            | CheckKind::Acceleration { tolerance, .. }
            | CheckKind::MaxHeight { tolerance, .. }
            | CheckKind::Displacement { tolerance, .. }
            | CheckKind::Reach { tolerance, .. }
            | CheckKind::Drive { tolerance, .. } => vec![*tolerance],
            CheckKind::Still { length, angle, .. } => vec![*length, *angle],
            CheckKind::NoContact { .. } | CheckKind::TriggerEvents { .. } => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_generator_spelling() {
        let s: Scenario = serde_json::from_str(
            r#"{"config": {"gravity": [0, -9.81, 0], "dt": 0.01, "substeps": 1},
                "steps": 100,
                "actions": [{"step": 10, "action": "impulse", "node": 1, "impulse": [1, 0, 0]}],
                "checks": [
                  {"name": "limit-0", "kind": "limit", "joint": 2, "limit": 0,
                   "tolerance": {"recommended": 0.01, "allowed": 0.05}, "decisions": ["D-METRICS", "D-NEWER"]},
                  {"name": "ground", "kind": "still", "nodes": [0],
                   "length": {"recommended": 0, "allowed": 0}, "angle": {"recommended": 0, "allowed": 0}}
                ]}"#,
        )
        .expect("reads");
        assert_eq!(s.observe_every, 1);
        assert_eq!(s.actions()[0].step, 10);
        assert_eq!(s.actions()[0].action["node"], 1);
        // A decision this build does not know is kept as written.
        assert_eq!(
            s.checks[0].decisions,
            vec![
                CatalogueId::Known(Decision::Metrics),
                CatalogueId::Unknown("D-NEWER".into())
            ]
        );
        assert!(s.validate().is_ok());
    }

    /// Defaults are left out when written: a check over the whole run without decisions is
    /// its name, kind and parameters only, and a scenario without actions has no `actions`.
    #[test]
    fn defaults_are_not_written() {
        let s = Scenario::<Value> {
            config: SimConfig::default(),
            steps: 2,
            observe_every: 1,
            actions: None,
            checks: vec![DynamicsCheck::new(
                "n",
                CheckKind::NoContact {
                    pairs: vec![[0, 1]],
                },
            )],
        };
        assert_eq!(
            serde_json::to_value(&s).expect("serialises"),
            serde_json::json!({
                "config": {"gravity": [0.0, -9.81, 0.0], "dt": 1.0 / 60.0, "substeps": 1},
                "steps": 2, "observe_every": 1,
                "checks": [{"name": "n", "kind": "no_contact", "pairs": [[0, 1]]}]
            })
        );
    }

    #[test]
    fn unusable_scenarios_are_refused() {
        let base: Scenario = serde_json::from_str(
            r#"{"config": {"gravity": [0, 0, 0], "dt": 0.01, "substeps": 1}, "steps": 1,
                "checks": [{"name": "a", "kind": "no_contact", "pairs": []},
                           {"name": "b", "kind": "no_contact", "pairs": []}]}"#,
        )
        .expect("reads");
        assert!(base.validate().is_ok());
        let mut s = base.clone();
        s.config.dt = 0.0;
        assert!(s.validate().is_err());
        let mut s = base.clone();
        s.steps = MAX_STEPS + 1;
        assert!(s.validate().is_err());
        let mut s = base.clone();
        s.checks[1].name = "a".into();
        assert!(s.validate().expect_err("duplicate").contains("used twice"));
        let mut s = base.clone();
        s.observe_every = 0;
        assert!(s.validate().is_err());
        // A window past the run's steps would be measured on what exists, and pass.
        let mut s = base.clone();
        s.checks[0].to_step = Some(2);
        let err = s.validate().expect_err("past the run");
        assert!(err.contains("not within the run's 1 steps"), "{err}");
        let mut s = base.clone();
        s.checks[0].from_step = 2;
        assert!(s.validate().is_err(), "starts after the run");
        let mut s = base;
        s.checks[0].from_step = 1;
        s.checks[0].to_step = Some(1);
        assert!(s.validate().is_ok(), "the last step is in the run");
    }

    #[test]
    fn a_side_is_named_as_it_is_written() {
        for side in [Side::Min, Side::Max] {
            assert_eq!(serde_json::to_value(side).expect("serialises"), side.name());
        }
    }

    #[test]
    fn unusable_tolerance_bounds_are_refused() {
        assert!(matches!(
            Tolerance::new(0.1, 0.01),
            Err(ToleranceError::Inverted(..))
        ));
        assert!(matches!(
            Tolerance::new(-1.0, 0.01),
            Err(ToleranceError::Negative(..))
        ));
        assert!(matches!(
            Tolerance::new(0.0, f64::NAN),
            Err(ToleranceError::Negative(..))
        ));
        assert!(Tolerance::new(0.0, f64::INFINITY).is_ok());
    }
}
