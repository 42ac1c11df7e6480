//! Joint limits for the tests that build joints by hand.

use reference::scene::{DofKind, Limit};

/// A limit on `axes` within `[min, max]`: no spring, no damping.
pub fn limit(kind: DofKind, axes: &[u8], min: Option<f64>, max: Option<f64>) -> Limit {
    Limit {
        kind,
        axes: axes.to_vec(),
        min,
        max,
        stiffness: None,
        damping: 0.0,
    }
}
