//! Grading a measured deviation against a tolerance class of the case data
//! (`reference::case::Tolerance`: never a constant in check code).

use crate::status::Status;

pub use reference::case::Tolerance;

/// The status of a deviation: its magnitude `|deviation|` against the bounds (a bound is
/// inclusive). A NaN deviation is a `FAIL`: nothing can be claimed about it.
pub fn grade(t: &Tolerance, deviation: f64) -> Status {
    let d = deviation.abs();
    if d <= t.recommended {
        Status::Pass
    } else if d <= t.allowed {
        Status::QualityWarning
    } else {
        Status::Fail
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn grades_at_and_around_the_bounds() {
        let t = Tolerance::new(0.01, 0.05).expect("valid");
        assert_eq!(grade(&t, 0.0), Status::Pass);
        assert_eq!(grade(&t, 0.01), Status::Pass); // inclusive
        assert_eq!(grade(&t, -0.01), Status::Pass); // magnitude
        assert_eq!(grade(&t, 0.02), Status::QualityWarning);
        assert_eq!(grade(&t, 0.05), Status::QualityWarning);
        assert_eq!(grade(&t, 0.0500001), Status::Fail);
        assert_eq!(grade(&t, f64::NAN), Status::Fail);
        assert_eq!(grade(&t, f64::INFINITY), Status::Fail);
    }

    proptest! {
        /// Grading is monotone in the magnitude: a larger deviation is never graded better.
        #[test]
        fn grading_is_monotone(r in 0.0..1.0f64, extra in 0.0..1.0f64, d1 in -3.0..3.0f64, d2 in -3.0..3.0f64) {
            let t = Tolerance::new(r, r + extra).expect("valid by construction");
            let (lo, hi) = if d1.abs() <= d2.abs() { (d1, d2) } else { (d2, d1) };
            prop_assert!(grade(&t, lo) <= grade(&t, hi));
            // Every graded status is one of the three a tolerance can give.
            prop_assert!(matches!(grade(&t, d1), Status::Pass | Status::QualityWarning | Status::Fail));
        }
    }
}
