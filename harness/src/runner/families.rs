//! The check families of one case: the capability gate, the guarded calls of each family the
//! implementation declares (load, interpretation, constraints, dynamics) and the checks that
//! judge what they returned.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::case::{CaseEntry, LoadedCase, PoseOutputs, Scenario};
use crate::check::dynamics::Observation;
use crate::check::{self, CheckResult, validation};
use crate::implementation::{
    Action, Capabilities, CheckFamily, ImplError, Implementation, Interpretation, LoadOutcome,
    LoadRequest, NodeTrs, Request,
};
use crate::status::Status;
use reference::case::TimedAction;

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic with a non-string payload".to_owned())
}

/// The status an implementation's error maps to.
pub fn error_status(e: &ImplError) -> Status {
    match e {
        ImplError::NotSupported(_) => Status::NotSupported,
        ImplError::Failed(_) => Status::Error,
        ImplError::BadRequest(_) => Status::HarnessError,
        ImplError::Timeout(_) => Status::Timeout,
        ImplError::Crashed(_) => Status::Crash,
        ImplError::Protocol(_) => Status::HarnessError,
        ImplError::NotRun(_) => Status::Notrun,
    }
}

/// Whether an error left the implementation unusable (an out-of-process one was killed): the
/// rest of the case is `NOTRUN` and the implementation is rebuilt.
pub fn is_fatal(e: &ImplError) -> bool {
    matches!(
        e,
        ImplError::Timeout(_) | ImplError::Crashed(_) | ImplError::Protocol(_)
    )
}

/// The capability gate: a result without any call when the case cannot or need not run.
pub fn gate(caps: &Capabilities, entry: &CaseEntry) -> Option<CheckResult> {
    const CHECK: &str = "capabilities";
    if entry.profile.is_none() {
        return Some(CheckResult::new(
            CHECK,
            Status::Skip,
            "no profile applies to the case",
        ));
    }
    let known = entry.profile.as_ref().and_then(|p| p.known());
    if !known.is_some_and(|p| caps.profiles.contains(&p)) {
        return Some(CheckResult::new(
            CHECK,
            Status::NotSupported,
            format!("profile {} is not declared", entry.profile_id()),
        ));
    }
    if !entry.valid && !caps.checks.contains(&CheckFamily::Validation) {
        return Some(CheckResult::new(
            CHECK,
            Status::Skip,
            "invalid case; the implementation does not take part in validation",
        ));
    }
    let missing: Vec<&str> = entry
        .features
        .iter()
        .filter(|f| !caps.supports_feature(f))
        .map(String::as_str)
        .collect();
    if !missing.is_empty() {
        return Some(CheckResult::new(
            CHECK,
            Status::NotSupported,
            format!("features not declared: {}", missing.join(" ")),
        ));
    }
    None
}

/// What the implementation's calls of one case returned, in call order, before any verdict.
/// The worker makes the calls ([`calls`]); the instance judges them ([`judge`]) while the
/// worker runs the next case, so the checks overlap the implementation's work.
#[derive(Debug)]
pub struct Execution {
    pub outcomes: Vec<Returned>,
    /// A call panicked: the implementation must be rebuilt.
    pub crashed: bool,
}

/// One entry of an [`Execution`].
#[derive(Debug)]
pub enum Returned {
    /// Decided by the runner alone: a failed call, a skipped or not-run family.
    Decided(CheckResult),
    Load(LoadOutcome),
    Interpretation(Interpretation),
    /// The outputs for `case.poses[i]`.
    Constraints(usize, Vec<NodeTrs>),
    Dynamics(Vec<Observation>),
}

/// A failed call: its check result, and whether it was a panic.
pub type Failure = Box<(CheckResult, bool)>;

/// One guarded call: `Ok(value)`, or the check result of its error or panic.
pub(super) fn call<T>(name: &str, f: impl FnOnce() -> Result<T, ImplError>) -> Result<T, Failure> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(Box::new((
            CheckResult::new(name, error_status(&e), e.to_string()),
            is_fatal(&e),
        ))),
        Err(p) => Err(Box::new((
            CheckResult::new(
                name,
                Status::Crash,
                format!("panicked: {}", panic_message(&*p)),
            ),
            true,
        ))),
    }
}

/// Make a case's calls (the gate has passed), guarded, recording what they returned.
pub fn calls(imp: &mut dyn Implementation, caps: &Capabilities, case: &LoadedCase) -> Execution {
    let mut outcomes = Vec::new();
    let crashed = run_families(imp, caps, case, &mut outcomes).is_err();
    if !crashed && let Err(f) = call("unload", || imp.unload()) {
        let (r, c) = *f;
        // Failing to unload is only worth a line when it crashed.
        if c {
            outcomes.push(Returned::Decided(r));
            return Execution {
                outcomes,
                crashed: true,
            };
        }
    }
    Execution { outcomes, crashed }
}

/// The check results of a case's outcomes, in order.
pub fn judge(case: &LoadedCase, outcomes: Vec<Returned>) -> Vec<CheckResult> {
    let mut out = Vec::with_capacity(outcomes.len());
    for o in outcomes {
        match o {
            Returned::Decided(r) => out.push(r),
            Returned::Load(outcome) if case.entry.valid => {
                out.push(validation::valid(case, &outcome));
            }
            Returned::Load(outcome) => out.push(validation::invalid(case, &outcome)),
            Returned::Interpretation(got) => {
                if let Some(want) = &case.interpretation {
                    out.extend(check::interpretation::check(want, &got, &case.tolerances));
                }
            }
            Returned::Constraints(i, got) => {
                if let Some(pose) = case.poses.get(i) {
                    let decisions: Vec<&str> = case
                        .decisions
                        .iter()
                        .map(|d| d.id())
                        .filter(|d| d.starts_with("D-VRM"))
                        .collect();
                    out.extend(check::constraints::check(
                        pose,
                        &got,
                        &case.tolerances,
                        &decisions,
                    ));
                }
            }
            Returned::Dynamics(observations) => {
                if let Some(scenario) = &case.scenario {
                    out.extend(check::dynamics::check(
                        scenario,
                        case.interpretation.as_ref(),
                        &observations,
                    ));
                }
            }
        }
    }
    out
}

/// `Err(())` when a call crashed (the remaining families are then `NOTRUN`).
fn run_families(
    imp: &mut dyn Implementation,
    caps: &Capabilities,
    case: &LoadedCase,
    out: &mut Vec<Returned>,
) -> Result<(), ()> {
    let declares = |family: &CheckFamily| caps.checks.contains(family);
    // The gate passed: the profile is known.
    let Some(profile) = case.entry.profile.as_ref().and_then(|p| p.known()) else {
        return Ok(());
    };
    let request = LoadRequest {
        path: std::path::absolute(&case.path).unwrap_or_else(|_| case.path.clone()),
        profile,
    };
    let name = if case.entry.valid {
        validation::LOAD
    } else {
        validation::REJECT
    };
    let outcome = match call(name, || imp.load(&request)) {
        Ok(o) => o,
        Err(f) => return failed(out, f),
    };
    let rejected = matches!(outcome, LoadOutcome::Rejected { .. });
    out.push(Returned::Load(outcome));
    if !case.entry.valid || rejected {
        return Ok(());
    }
    let families = [
        (CheckFamily::Interpretation, true),
        (
            CheckFamily::Constraints,
            case.poses.iter().any(PoseOutputs::has_constraints),
        ),
        (CheckFamily::Dynamics, case.scenario.is_some()),
    ];
    for (i, (family, has_data)) in families.iter().enumerate() {
        if !declares(family) {
            if *has_data && *family != CheckFamily::Interpretation {
                out.push(Returned::Decided(CheckResult::new(
                    family.name(),
                    Status::Skip,
                    format!("the implementation does not take part in {family}"),
                )));
            }
            continue;
        }
        let result = match family {
            CheckFamily::Interpretation => interpretation(imp, case, out),
            CheckFamily::Constraints if *has_data => constraints(imp, case, out),
            CheckFamily::Dynamics if *has_data => dynamics(imp, case, out),
            _ => Ok(()),
        };
        if result.is_err() {
            for (rest, data) in &families[i + 1..] {
                if *data && declares(rest) {
                    out.push(Returned::Decided(CheckResult::new(
                        rest.name(),
                        Status::Notrun,
                        "an earlier call crashed",
                    )));
                }
            }
            return Err(());
        }
    }
    Ok(())
}

/// Record the error's check; `Err(())` when it was a crash.
#[allow(
    clippy::boxed_local,
    reason = "the boxed failure is what every call returns"
)]
fn failed(out: &mut Vec<Returned>, f: Failure) -> Result<(), ()> {
    let (r, crashed) = *f;
    out.push(Returned::Decided(r));
    if crashed { Err(()) } else { Ok(()) }
}

fn interpretation(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Returned>,
) -> Result<(), ()> {
    if case.interpretation.is_none() {
        out.push(Returned::Decided(CheckResult::new(
            CheckFamily::Interpretation.name(),
            Status::Skip,
            "the case carries no expected interpretation",
        )));
        return Ok(());
    }
    match call(CheckFamily::Interpretation.name(), || imp.interpretation()) {
        Ok(got) => {
            out.push(Returned::Interpretation(got));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

fn constraints(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Returned>,
) -> Result<(), ()> {
    for (i, pose) in case.poses.iter().enumerate() {
        if !pose.has_constraints() {
            continue;
        }
        let name = format!("constraints.{}", pose.name);
        match call(&name, || imp.evaluate_constraints(&pose.poses)) {
            Ok(got) => out.push(Returned::Constraints(i, got)),
            Err(e) => failed(out, e)?,
        }
    }
    Ok(())
}

/// The requests of a scenario in order: observe once, then step in chunks up to each
/// action and observation point, applying actions just before their step. The one place
/// that knows the cadence (the runner and the overhead bench's bare loop both follow it).
///
/// Example: 10 steps, `observe_every` 4, an action at step 6: observe(0), step 4,
/// observe(4), step 2, apply, step 2, observe(8), step 2, observe(10).
pub fn schedule(scenario: &Scenario<Action>) -> Vec<Request<'_>> {
    let mut actions: Vec<&TimedAction<Action>> = scenario.actions().iter().collect();
    actions.sort_by_key(|a| a.step);
    let every = scenario.observe_every.max(1);
    let mut out = Vec::with_capacity(2 * (scenario.steps / every) as usize + 2 * actions.len() + 2);
    out.push(Request::Observe(0));
    let mut done = 0u32;
    let mut next_action = 0usize;
    while done < scenario.steps {
        while let Some(a) = actions.get(next_action).filter(|a| a.step <= done) {
            out.push(Request::Apply(&a.action));
            next_action += 1;
        }
        let next_observe = (done / every + 1) * every;
        let mut until = next_observe.min(scenario.steps);
        if let Some(a) = actions.get(next_action) {
            until = until.min(a.step.max(done + 1));
        }
        out.push(Request::Step(until - done));
        done = until;
        if done.is_multiple_of(every) || done == scenario.steps {
            out.push(Request::Observe(done));
        }
    }
    out
}

/// Run the scenario: configure, then the [`schedule`]'s requests, in one guarded
/// [`Implementation::simulate`] call (one round trip over stdio when the implementation
/// batches). A number of states other than the observations asked for is a harness error.
pub fn simulate(
    imp: &mut dyn Implementation,
    scenario: &Scenario<Action>,
) -> Result<Vec<Observation>, Failure> {
    let requests = schedule(scenario);
    let steps: Vec<u32> = requests
        .iter()
        .filter_map(|r| match r {
            Request::Observe(step) => Some(*step),
            _ => None,
        })
        .collect();
    let states = call(CheckFamily::Dynamics.name(), || {
        let states = imp.simulate(&scenario.config, &requests)?;
        if states.len() != steps.len() {
            return Err(ImplError::Protocol(format!(
                "simulate gave {} states for {} observations",
                states.len(),
                steps.len()
            )));
        }
        Ok(states)
    })?;
    Ok(steps
        .into_iter()
        .zip(states)
        .map(|(step, state)| Observation { step, state })
        .collect())
}

fn dynamics(
    imp: &mut dyn Implementation,
    case: &LoadedCase,
    out: &mut Vec<Returned>,
) -> Result<(), ()> {
    let Some(scenario) = &case.scenario else {
        return Ok(());
    };
    match simulate(imp, scenario) {
        Ok(observations) => {
            out.push(Returned::Dynamics(observations));
            Ok(())
        }
        Err(e) => failed(out, e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::SimConfig;
    use proptest::prelude::*;

    fn scenario(steps: u32, every: u32, actions: &[u32]) -> Scenario<Action> {
        Scenario {
            config: SimConfig::default(),
            steps,
            observe_every: every,
            actions: Some(
                actions
                    .iter()
                    .enumerate()
                    .map(|(i, s)| TimedAction {
                        step: *s,
                        action: Action::Impulse {
                            node: i,
                            impulse: [0.0; 3],
                        },
                    })
                    .collect(),
            ),
            checks: Vec::new(),
        }
    }

    /// The doc example: 10 steps, observe every 4, an action at step 6.
    #[test]
    fn schedule_of_the_doc_example() {
        let s = scenario(10, 4, &[6]);
        let got: Vec<String> = schedule(&s)
            .iter()
            .map(|r| match r {
                Request::Apply(_) => "apply".to_owned(),
                Request::Step(n) => format!("step {n}"),
                Request::Observe(k) => format!("observe {k}"),
            })
            .collect();
        assert_eq!(
            got,
            [
                "observe 0",
                "step 4",
                "observe 4",
                "step 2",
                "apply",
                "step 2",
                "observe 8",
                "step 2",
                "observe 10"
            ]
        );
    }

    proptest! {
        /// Steps add up to the scenario's; observations come at 0, at every multiple of the
        /// cadence and at the end, each labelled with the steps taken; each action before the
        /// end is applied once, after exactly its step count.
        #[test]
        fn schedule_keeps_the_cadence_and_the_actions(
            steps in 1u32..200,
            every in 1u32..30,
            actions in proptest::collection::vec(0u32..220, 0..6),
        ) {
            let s = scenario(steps, every, &actions);
            let mut taken = 0u32;
            let mut observed = Vec::new();
            let mut applied = Vec::new();
            for r in schedule(&s) {
                match r {
                    Request::Step(n) => {
                        prop_assert!(n > 0);
                        taken += n;
                    }
                    Request::Observe(k) => {
                        prop_assert_eq!(k, taken);
                        observed.push(k);
                    }
                    Request::Apply(Action::Impulse { node, .. }) => applied.push((*node, taken)),
                    Request::Apply(_) => prop_assert!(false, "only impulses here"),
                }
            }
            prop_assert_eq!(taken, steps);
            let mut want: Vec<u32> = (0..=steps).filter(|k| k % every == 0).collect();
            if want.last() != Some(&steps) {
                want.push(steps);
            }
            prop_assert_eq!(observed, want);
            let mut want_applied: Vec<(usize, u32)> = actions
                .iter()
                .enumerate()
                .filter(|(_, a)| **a < steps)
                .map(|(i, a)| (i, *a))
                .collect();
            want_applied.sort_by_key(|(i, a)| (*a, *i));
            applied.sort_by_key(|(i, a)| (*a, *i));
            prop_assert_eq!(applied, want_applied);
        }
    }
}
