//! Shrinking a failing draw through its value tree: proptest's simplify/complicate walk, each
//! candidate run on the implementation, kept only while it shows the same symptom.

use std::time::{Duration, Instant};

use generator::case::Case;
use generator::draw::Draw;
use generator::edition::Framing;

use super::probe::{Probe, Symptom, Trial};

/// How far shrinking may go for one finding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Candidates run at most.
    pub steps: u32,
    pub time: Duration,
}

/// Why shrinking stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stop {
    /// No simpler candidate is left.
    Converged,
    StepBudget,
    TimeBudget,
}

/// The smallest candidate found that still shows the symptom.
#[derive(Debug)]
pub struct Shrunk {
    pub case: Case,
    pub trial: Trial,
    /// Candidates run.
    pub steps: u32,
    /// Candidates kept (each simpler than the one before).
    pub kept: u32,
    pub stop: Stop,
}

/// Shrink `draw`, whose current candidate `first` showed `symptom` as `trial`. The framing
/// (matrices, another scene) is dropped first where the symptom stays without it; then the
/// value tree is walked as proptest walks it.
pub fn shrink(
    draw: &mut Draw,
    probe: &mut Probe,
    symptom: &Symptom,
    first: (Case, Trial),
    budget: Budget,
) -> std::io::Result<Shrunk> {
    let start = Instant::now();
    let mut best = first;
    let (mut steps, mut kept) = (0u32, 0u32);
    let spent = |steps: u32| {
        if steps >= budget.steps {
            Some(Stop::StepBudget)
        } else if start.elapsed() >= budget.time {
            Some(Stop::TimeBudget)
        } else {
            None
        }
    };
    let try_current = |draw: &Draw, probe: &mut Probe| -> std::io::Result<Option<(Case, Trial)>> {
        let Some(case) = draw.case() else {
            return Ok(None);
        };
        let trial = probe.run(&case)?;
        Ok(trial.showing(symptom).is_some().then_some((case, trial)))
    };
    let framing = draw.framing();
    if framing != Framing::default() && spent(steps).is_none() {
        draw.set_framing(Framing::default());
        steps += 1;
        match try_current(draw, probe)? {
            Some(found) => {
                best = found;
                kept += 1;
            }
            None => draw.set_framing(framing),
        }
    }
    let mut stop = Stop::Converged;
    if draw.simplify() {
        loop {
            if let Some(s) = spent(steps) {
                stop = s;
                break;
            }
            steps += 1;
            let more = match try_current(draw, probe)? {
                Some(found) => {
                    best = found;
                    kept += 1;
                    draw.simplify()
                }
                None => draw.complicate(),
            };
            if !more {
                break;
            }
        }
    }
    let (case, trial) = best;
    Ok(Shrunk {
        case,
        trial,
        steps,
        kept,
        stop,
    })
}
