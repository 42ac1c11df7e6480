//! Limit metric throughput, single thread: `cargo bench -p physics-cts-reference --bench metrics`.
//! Each benchmark evaluates one metric over a fixed batch of pose pairs; divan reports the time
//! per batch and the items (metric evaluations) per second.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use nalgebra::{Isometry3, Quaternion, Translation3, UnitQuaternion};
use reference::metrics::{angular_metric, evaluate, linear_metric, violation};
use reference::scene::{DofKind, Limit, LimitSet};

fn main() {
    divan::main();
}

const BATCH: usize = 1024;

/// Deterministic pose pairs (a small LCG: no RNG dependency, the same input every run).
fn pairs() -> Vec<(Isometry3<f64>, Isometry3<f64>)> {
    let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        // 53 random bits mapped to [-1, 1)
        ((s >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    };
    let mut pose = move || {
        let t = Translation3::new(next() * 5.0, next() * 5.0, next() * 5.0);
        let q = Quaternion::new(next(), next(), next(), next() + 1e-3);
        Isometry3::from_parts(t, UnitQuaternion::from_quaternion(q))
    };
    (0..BATCH).map(|_| (pose(), pose())).collect()
}

fn run(bencher: Bencher, metric: fn(&Isometry3<f64>, &Isometry3<f64>) -> f64) {
    let input = pairs();
    bencher.counter(ItemsCount::new(BATCH)).bench(|| {
        let mut sum = 0.0;
        for (a, b) in black_box(&input) {
            sum += metric(a, b);
        }
        black_box(sum)
    });
}

/// A linear or an angular metric of `axes`.
fn metric(linear: bool, axes: &[u8], a: &Isometry3<f64>, b: &Isometry3<f64>) -> f64 {
    if linear {
        linear_metric(axes, a, b)
    } else {
        angular_metric(axes, a, b)
    }
}

/// One benchmark per kind of metric, and `KINDS`, the six in the same order: (linear, axes).
macro_rules! metric_benches {
    ($($name:ident: $linear:literal, $axes:expr;)*) => {
        const KINDS: [(bool, &[u8]); 6] = [$(($linear, &$axes)),*];
        $(
            #[divan::bench]
            fn $name(b: Bencher) {
                run(b, |x, y| metric($linear, &$axes, x, y));
            }
        )*
    };
}

metric_benches! {
    linear_1_axis: true, [1];
    linear_2_axes: true, [0, 2];
    linear_3_axes: true, [0, 1, 2];
    angular_twist: false, [0];
    angular_cone: false, [0, 1];
    angular_total: false, [0, 1, 2];
}

/// The six kinds in turn, each followed by its violation: one item = one metric + violation.
#[divan::bench]
fn mix_with_violation(bencher: Bencher) {
    let input = pairs();
    bencher.counter(ItemsCount::new(BATCH)).bench(|| {
        let mut sum = 0.0;
        for (n, (a, b)) in black_box(&input).iter().enumerate() {
            let (linear, axes) = KINDS[n % 6];
            sum += violation(metric(linear, axes, a, b), Some(-0.5), Some(0.5));
        }
        black_box(sum)
    });
}

/// `evaluate` on a KHR-like joint with one limit of each kind (6 metrics per call, plus the
/// allocation of the result): items = metrics.
#[divan::bench]
fn evaluate_six_limits(bencher: Bencher) {
    let input = pairs();
    let limit = |kind, axes: &[u8]| Limit {
        kind,
        axes: axes.to_vec(),
        min: Some(-0.5),
        max: Some(0.5),
        stiffness: None,
        damping: 0.0,
    };
    let set = LimitSet::Coupled(vec![
        limit(DofKind::Linear, &[1]),
        limit(DofKind::Linear, &[0, 2]),
        limit(DofKind::Linear, &[0, 1, 2]),
        limit(DofKind::Angular, &[0]),
        limit(DofKind::Angular, &[0, 1]),
        limit(DofKind::Angular, &[0, 1, 2]),
    ]);
    bencher.counter(ItemsCount::new(BATCH * 6)).bench(|| {
        let mut sum = 0.0;
        for (a, b) in black_box(&input) {
            for e in evaluate(&set, a, b) {
                sum += e.violation;
            }
        }
        black_box(sum)
    });
}
