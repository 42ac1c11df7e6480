//! The dynamics scenario of a case: simulation settings, steps, actions, and the invariants to
//! check with their tolerance classes. Written by the generator (`generator::scenario`) from
//! the case's scene by the reference's rules; the harness only executes and measures it.

use serde::{Deserialize, Serialize};

use crate::implementation::{Action, SimConfig};
use crate::tolerance::Tolerance;

/// Bounds on what a scenario may ask, so a corrupt case cannot stall a run.
pub const MAX_STEPS: u32 = 100_000;

/// An action applied just before step `step` (0: before the first step).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimedAction {
    pub step: u32,
    #[serde(flatten)]
    pub action: Action,
}

/// A simulation and what must hold over it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub config: SimConfig,
    /// Number of steps of `config.dt`.
    pub steps: u32,
    /// Observe after every `observe_every` steps (and once before the first step).
    #[serde(default = "one")]
    pub observe_every: u32,
    #[serde(default)]
    pub actions: Vec<TimedAction>,
    pub checks: Vec<DynamicsCheck>,
}

fn one() -> u32 {
    1
}

/// An invariant over the observations. `from_step` / `to_step` select observations by the
/// number of steps taken when they were made (inclusive); `to_step` absent: the last one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DynamicsCheck {
    /// Unique within the scenario; the check is reported as `dynamics.<name>`.
    pub name: String,
    #[serde(default)]
    pub from_step: u32,
    #[serde(default)]
    pub to_step: Option<u32>,
    /// The decision ids the expectation rests on.
    #[serde(default)]
    pub decisions: Vec<String>,
    #[serde(flatten)]
    pub kind: CheckKind,
}

/// What a node a check names must be in the case's expected interpretation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeRole {
    /// A body or a collider.
    Object,
    /// A joint.
    Joint,
}

/// What is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CheckKind {
    /// A joint limit (index into the expected joint's `limits`) holds: the largest violation
    /// of the metric (`reference::metrics`, frames from the reported body poses and the rest
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
    /// The trigger reports these events with `other` over the run.
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
    /// A joint drive (index into the expected joint's `drives`) holds its target over the
    /// window: the drive's degree of freedom (1-axis metric on its axis) minus `target`.
    Drive {
        joint: usize,
        drive: usize,
        target: f64,
        tolerance: Tolerance,
    },
}

impl Scenario {
    /// Reject scenarios the runner cannot execute meaningfully.
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
            CheckKind::Limit { joint, .. } | CheckKind::Drive { joint, .. } => {
                vec![(*joint, NodeRole::Joint)]
            }
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
                vec![(*trigger, NodeRole::Object), (*other, NodeRole::Object)]
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
                   "tolerance": {"recommended": 0.01, "allowed": 0.05}, "decisions": ["D-METRICS"]},
                  {"name": "ground", "kind": "still", "nodes": [0],
                   "length": {"recommended": 0, "allowed": 0}, "angle": {"recommended": 0, "allowed": 0}}
                ]}"#,
        )
        .expect("reads");
        assert_eq!(s.observe_every, 1);
        assert_eq!(
            s.actions[0].action,
            Action::Impulse {
                node: 1,
                impulse: [1.0, 0.0, 0.0]
            }
        );
        assert_eq!(s.checks[0].decisions, vec!["D-METRICS"]);
        assert!(s.validate().is_ok());
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
}
