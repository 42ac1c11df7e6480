//! Optional values drawn exactly as `prop::option::weighted` draws them, without what its
//! value tree keeps for shrinking.
//!
//! proptest's option strategy is a two-way union, `None` first; when it picks `Some`, the
//! union keeps a copy of the test runner (536 bytes in proptest 1.12, with a freshly seeded
//! random generator) to draw the `None` it may later shrink to, in a value tree of 1,120
//! bytes. Every optional field of a scene made one such copy, and its tree was moved again at
//! each level of the draw: copying and dropping them took about 40% of the time a KHR scene
//! took to sample. [`Maybe`] makes the same random draws in the same order (the union's pick,
//! then the seed of that copy, then the `Some` value) and so draws the same scenes from the
//! same seeds, byte for byte, and shrinks the same way: the value first, then `None`.

use proptest::strategy::{NewTree, Strategy, ValueTree, float_to_weight};
use proptest::test_runner::{RngAlgorithm, TestRunner};

/// `Some` of the inner strategy's values with a probability, else `None` ([`maybe`]).
#[derive(Clone, Debug)]
pub struct Maybe<S> {
    /// Weights of `None` and `Some`, as proptest computes them.
    none: u32,
    some: u32,
    inner: S,
}

/// `Some` of `inner`'s values with probability `p` (strictly between 0 and 1), else `None`: the
/// draws of `prop::option::weighted(p, inner)`.
///
/// # Panics
/// If `p` is not strictly between 0 and 1 (proptest's `float_to_weight`).
pub fn maybe<S: Strategy>(p: f64, inner: S) -> Maybe<S> {
    let (some, none) = float_to_weight(p);
    Maybe { none, some, inner }
}

impl<S: Strategy> Strategy for Maybe<S> {
    type Tree = MaybeTree<S::Tree>;
    type Value = Option<S::Value>;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        // The union's pick: uniform below the sum of the weights; `Some` from `none` on (a
        // `u64` range draws with the same call as the union).
        let sum = u64::from(self.none) + u64::from(self.some);
        let pick = (0..sum).new_tree(runner)?.current();
        if pick < u64::from(self.none) {
            return Ok(MaybeTree {
                inner: None,
                state: State::Value,
            });
        }
        // The union seeds a runner for the `None` option it keeps: the seed is drawn (and
        // dropped here) before the value.
        skip_seed(runner);
        Ok(MaybeTree {
            inner: Some(self.inner.new_tree(runner)?),
            state: State::Value,
        })
    }
}

/// Advance `runner`'s random stream past the seed of a new generator, as `runner.new_rng()`
/// draws it. A ChaCha seed is 32 bytes drawn one `u32` word each (rand's `[u8; 32]`), so 32
/// words: `fill_bytes` of 128 bytes takes the same 32 words in one copy, without 32 calls
/// and a generator made and dropped (about 400 instructions, some 60 times a scene). Any other
/// generator makes its seed its own way, so it makes it. The algorithm is the one the runner's
/// configuration names (a runner does not tell its generator's): `sample::runner`, which makes
/// every corpus case, names ChaCha for the ChaCha generator it gives, and proptest's runners
/// make their generator from it. Where they differ (a runner made with another generator, or
/// proptest replaying a failure saved under another algorithm) the draws are still valid values
/// but not those of `prop::option::weighted`.
fn skip_seed(runner: &mut TestRunner) {
    if runner.config().rng_algorithm == RngAlgorithm::ChaCha {
        use proptest::prelude::Rng as _;
        runner.rng().fill_bytes(&mut [0u8; 128]);
    } else {
        drop(runner.new_rng());
    }
}

/// Where a [`MaybeTree`] with a value is in its shrinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Its value (`None` if it was drawn `None`), which shrinks first.
    Value,
    /// The value could shrink no further and became `None`; `complicate` goes back to it.
    TryingNone,
    /// `None` was rejected: the value for good.
    ValueOnly,
}

/// The value tree of [`Maybe`].
#[derive(Clone, Debug)]
pub struct MaybeTree<T> {
    inner: Option<T>,
    state: State,
}

impl<T: ValueTree> ValueTree for MaybeTree<T> {
    type Value = Option<T::Value>;

    fn current(&self) -> Option<T::Value> {
        match (&self.inner, self.state) {
            (Some(t), State::Value | State::ValueOnly) => Some(t.current()),
            _ => None,
        }
    }

    /// As proptest's union: the value shrinks first, then becomes `None`.
    fn simplify(&mut self) -> bool {
        let Some(t) = &mut self.inner else {
            return false;
        };
        match self.state {
            State::Value if t.simplify() => true,
            State::Value => {
                self.state = State::TryingNone;
                true
            }
            State::TryingNone => false,
            State::ValueOnly => t.simplify(),
        }
    }

    fn complicate(&mut self) -> bool {
        let Some(t) = &mut self.inner else {
            return false;
        };
        match self.state {
            State::TryingNone => {
                self.state = State::ValueOnly;
                true
            }
            State::Value | State::ValueOnly => t.complicate(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng};

    fn runner(seed: u8) -> TestRunner {
        runner_with(RngAlgorithm::ChaCha, &[seed; 32])
    }

    /// A runner whose configuration names its generator's algorithm, as proptest's own do.
    fn runner_with(algorithm: RngAlgorithm, seed: &[u8]) -> TestRunner {
        let config = Config {
            rng_algorithm: algorithm,
            ..Config::default()
        };
        TestRunner::new_with_rng(config, TestRng::from_seed(algorithm, seed))
    }

    /// Values of a strategy, then the next draw of the runner (the stream left after them; a
    /// power-of-two range never rejects a draw, so an exhausted pass-through stream, all
    /// zeros, cannot loop).
    fn draws<S: Strategy>(s: &S, mut r: TestRunner, n: usize) -> (Vec<S::Value>, u64) {
        let values = (0..n)
            .map(|_| s.new_tree(&mut r).expect("draw").current())
            .collect();
        let next = (0..1u64 << 62).new_tree(&mut r).expect("draw").current();
        (values, next)
    }

    proptest! {
        /// The same values as proptest's option strategy, leaving the random stream where it
        /// leaves it, for any probability and seed, with either generator proptest seeds (the
        /// seed of the runner copy differs between them: 32 bytes for ChaCha, 16 for XorShift).
        #[test]
        fn draws_as_proptest_does(p in 0.001f64..0.999, seed in any::<u8>()) {
            for algorithm in [RngAlgorithm::ChaCha, RngAlgorithm::XorShift] {
                let bytes = [seed; 32];
                let bytes = &bytes[..if algorithm == RngAlgorithm::XorShift { 16 } else { 32 }];
                let ours = draws(&maybe(p, 0u32..1000), runner_with(algorithm, bytes), 40);
                let theirs = draws(
                    &prop::option::weighted(p, 0u32..1000),
                    runner_with(algorithm, bytes),
                    40,
                );
                prop_assert_eq!(ours, theirs, "{:?}", algorithm);
            }
        }

        /// The weights proptest uses, at the clamped ends too.
        #[test]
        fn extreme_probabilities_draw_as_proptest_does(seed in any::<u8>()) {
            for p in [1e-12, 0.5, 1.0 - 1e-12] {
                let ours = draws(&maybe(p, any::<bool>()), runner(seed), 20);
                let theirs = draws(&prop::option::weighted(p, any::<bool>()), runner(seed), 20);
                prop_assert_eq!(ours, theirs);
            }
        }
    }

    /// The pick at the boundary between the weights, given as the random stream itself: a
    /// pick of `none - 1` is `None`, a pick of `none` is `Some`, for proptest and for us (a
    /// draw below the power-of-two total `2^31` is the stream's next `u64` shifted right by
    /// 33 bits, with no rejection).
    #[test]
    fn the_pick_boundary_is_proptests() {
        for p in [0.2, 0.5, 0.85] {
            let (some, none) = float_to_weight(p);
            assert_eq!(u64::from(some) + u64::from(none), 1 << 31);
            for (pick, want) in [(none - 1, None), (none, Some(7u8)), (0, None)] {
                let mut stream = (u64::from(pick) << 33).to_le_bytes().to_vec();
                stream.extend([0u8; 64]);
                let ours = draws(
                    &maybe(p, Just(7u8)),
                    runner_with(RngAlgorithm::PassThrough, &stream),
                    1,
                );
                let theirs = draws(
                    &prop::option::weighted(p, Just(7u8)),
                    runner_with(RngAlgorithm::PassThrough, &stream),
                    1,
                );
                assert_eq!(ours.0, vec![want], "p {p} pick {pick}");
                assert_eq!(ours, theirs, "p {p} pick {pick}");
            }
        }
    }

    #[test]
    fn both_kinds_are_drawn() {
        let (values, _) = draws(&maybe(0.5, 0u32..10), runner(7), 100);
        assert!(values.iter().any(Option::is_none));
        assert!(values.iter().any(Option::is_some));
    }

    /// The value shrinks as far as it goes, then the option tries `None`; rejected, it is
    /// the shrunk value again and shrinks no further.
    #[test]
    fn some_shrinks_its_value_then_to_none() {
        let mut r = runner(3);
        let mut t = maybe(0.999, 10u32..1000).new_tree(&mut r).expect("draw");
        assert!(t.current().is_some());
        let mut steps = 0;
        while t.current().is_some() {
            assert!(t.simplify(), "a Some always simplifies toward None");
            steps += 1;
        }
        assert!(steps > 1, "the value shrank before None was tried");
        assert!(!t.simplify());
        assert!(t.complicate());
        assert_eq!(t.current(), Some(10));
        assert!(!t.simplify());
    }

    /// The same shrinking steps as proptest's option strategy, when a runner keeps or
    /// rejects each simplification by a pattern (as a runner does: `complicate` only after a
    /// successful `simplify`).
    #[test]
    fn shrinks_as_proptest_does() {
        for seed in 0..32u8 {
            let mut ours = maybe(0.9, 0u32..1000)
                .new_tree(&mut runner(seed))
                .expect("draw");
            let mut theirs = prop::option::weighted(0.9, 0u32..1000)
                .new_tree(&mut runner(seed))
                .expect("draw");
            for step in 0..64 {
                assert_eq!(ours.current(), theirs.current(), "seed {seed} step {step}");
                let simplified = ours.simplify();
                assert_eq!(simplified, theirs.simplify(), "seed {seed} step {step}");
                if simplified && (step + usize::from(seed)) % 3 == 0 {
                    assert_eq!(
                        ours.complicate(),
                        theirs.complicate(),
                        "seed {seed} step {step}"
                    );
                }
            }
        }
    }

    #[test]
    fn none_does_not_shrink() {
        let mut r = runner(1);
        let s = maybe(1e-9, 0u32..10);
        let mut t = s.new_tree(&mut r).expect("draw");
        assert_eq!(t.current(), None);
        assert!(!t.simplify());
        assert!(!t.complicate());
    }

    #[test]
    #[should_panic(expected = "Invalid probability")]
    fn probability_one_is_refused() {
        let _ = maybe(1.0, 0u32..10);
    }
}
