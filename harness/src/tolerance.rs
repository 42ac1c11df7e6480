//! Tolerance classes: a recommended and an allowed bound on a deviation, read from the case
//! data (never constants in check code), and the grading of a measured deviation against them.

use serde::{Deserialize, Serialize};

use crate::status::Status;

/// Bounds on the magnitude of a deviation, in the unit of the quantity checked.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tolerance {
    /// Within it: `PASS`.
    pub recommended: f64,
    /// Within it but outside `recommended`: `QUALITY_WARNING`; outside: `FAIL`.
    pub allowed: f64,
}

/// Why a tolerance from the case data cannot be used (a corpus bug: `HARNESS_ERROR`).
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

    /// The status of a deviation: its magnitude `|deviation|` against the bounds (a bound is
    /// inclusive). A NaN deviation is a `FAIL`: nothing can be claimed about it.
    pub fn grade(&self, deviation: f64) -> Status {
        let d = deviation.abs();
        if d <= self.recommended {
            Status::Pass
        } else if d <= self.allowed {
            Status::QualityWarning
        } else {
            Status::Fail
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn grades_at_and_around_the_bounds() {
        let t = Tolerance::new(0.01, 0.05).expect("valid");
        assert_eq!(t.grade(0.0), Status::Pass);
        assert_eq!(t.grade(0.01), Status::Pass); // inclusive
        assert_eq!(t.grade(-0.01), Status::Pass); // magnitude
        assert_eq!(t.grade(0.02), Status::QualityWarning);
        assert_eq!(t.grade(0.05), Status::QualityWarning);
        assert_eq!(t.grade(0.0500001), Status::Fail);
        assert_eq!(t.grade(f64::NAN), Status::Fail);
        assert_eq!(t.grade(f64::INFINITY), Status::Fail);
    }

    #[test]
    fn unusable_bounds_are_refused() {
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

    proptest! {
        /// Grading is monotone in the magnitude: a larger deviation is never graded better.
        #[test]
        fn grading_is_monotone(r in 0.0..1.0f64, extra in 0.0..1.0f64, d1 in -3.0..3.0f64, d2 in -3.0..3.0f64) {
            let t = Tolerance::new(r, r + extra).expect("valid by construction");
            let (lo, hi) = if d1.abs() <= d2.abs() { (d1, d2) } else { (d2, d1) };
            prop_assert!(t.grade(lo) <= t.grade(hi));
            // Every graded status is one of the three a tolerance can give.
            prop_assert!(matches!(t.grade(d1), Status::Pass | Status::QualityWarning | Status::Fail));
        }
    }
}
