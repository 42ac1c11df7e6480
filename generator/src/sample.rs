//! Deterministic sampling of strategies: one ChaCha stream per (seed, index, attempt), so a
//! case depends only on the generator version, the seed and its index, never on how many
//! cases came before it or on the thread that made it.

use std::sync::OnceLock;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use reference::profile::Profile;

use crate::strategy::{self, Rendered, SceneSpec};

/// The runner's configuration. What can change a draw is set here to proptest's built-in
/// defaults, not taken from `Config::default()`, which reads `PROPTEST_*` environment
/// variables: a case depends on the generator version, the seed and its index only (proptest
/// reads `max_default_size_range` from `Config::default()`, not from the runner, for
/// collections without a size: the strategies give every collection its size). No failure
/// persistence: sampling persists nothing, and every copy of a runner (proptest's unions make
/// some) cloned the boxed persistence.
fn config() -> Config {
    static CONFIG: OnceLock<Config> = OnceLock::new();
    CONFIG
        .get_or_init(|| Config {
            max_local_rejects: 65_536,
            max_global_rejects: 1024,
            max_flat_map_regens: 1_000_000,
            max_default_size_range: 100,
            failure_persistence: None,
            // The algorithm of the generator `runner` gives (the configuration names it too).
            rng_algorithm: RngAlgorithm::ChaCha,
            ..Config::default()
        })
        .clone()
}

/// A test runner whose random stream is fixed by `(seed, index, attempt)`.
pub fn runner(seed: u64, index: u64, attempt: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&index.to_le_bytes());
    bytes[16..24].copy_from_slice(&attempt.to_le_bytes());
    bytes[24..].copy_from_slice(b"physcts1");
    TestRunner::new_with_rng(config(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// One value of `strategy` for `(seed, index, attempt)`.
pub fn sample<S: Strategy>(strategy: &S, seed: u64, index: u64, attempt: u64) -> Option<S::Value> {
    let mut r = runner(seed, index, attempt);
    strategy.new_tree(&mut r).ok().map(|t| t.current())
}

/// Attempts made to find a scene that carries a wanted tag.
pub const ATTEMPTS: u64 = 400;

/// A scene drawn as a proptest value tree: its current value, and the simpler and more
/// complex values shrinking walks through ([`crate::draw`]).
pub type SceneTree = Box<dyn ValueTree<Value = SceneSpec>>;

/// A valid scene of `profile` for `(seed, index)`. With `wanted`, the first of up to
/// [`ATTEMPTS`] draws whose tags contain a tag starting with `wanted` (else the first draw).
pub fn scene(
    profile: Profile,
    seed: u64,
    index: u64,
    stem: &str,
    wanted: Option<&str>,
) -> (SceneSpec, Rendered) {
    tree(profile, seed, index, stem, wanted).map_or_else(
        || {
            // The strategies never reject, so the first draw always exists; keep a fallback
            // anyway.
            let scene = sample(&strategy::scene(profile), seed, index, 0)
                .unwrap_or_else(|| unreachable_scene(profile));
            let r = scene.render(stem);
            (scene, r)
        },
        |(tree, r)| (tree.current(), r),
    )
}

/// The value tree of [`scene`]'s draw, with the scene rendered as `stem`; `None` only when
/// every attempt was rejected.
pub fn tree(
    profile: Profile,
    seed: u64,
    index: u64,
    stem: &str,
    wanted: Option<&str>,
) -> Option<(SceneTree, Rendered)> {
    let strategy = strategy::scene(profile);
    let mut first = None;
    for attempt in 0..ATTEMPTS {
        let Ok(tree) = strategy.new_tree(&mut runner(seed, index, attempt)) else {
            continue;
        };
        let rendered = tree.current().render(stem);
        let hit = wanted.is_none_or(|w| rendered.tags.iter().any(|t| t.starts_with(w)));
        if hit {
            return Some((tree, rendered));
        }
        if first.is_none() {
            first = Some((tree, rendered));
        }
        if wanted.is_none() {
            break;
        }
    }
    first
}

fn unreachable_scene(profile: Profile) -> SceneSpec {
    let strategy = strategy::scene(profile);
    let mut r = TestRunner::deterministic();
    loop {
        if let Ok(t) = strategy.new_tree(&mut r) {
            return t.current();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_scene_different_index_different_scene() {
        let a = scene(Profile::Khr2024Draft, 7, 3, "x", None).1;
        let b = scene(Profile::Khr2024Draft, 7, 3, "x", None).1;
        let c = scene(Profile::Khr2024Draft, 7, 4, "x", None).1;
        assert_eq!(a, b);
        assert_ne!(a.built.json, c.built.json);
    }

    #[test]
    fn wanted_tags_are_found() {
        let (_, r) = scene(Profile::Khr2024Draft, 1, 0, "x", Some("trigger.compound"));
        assert!(r.tags.iter().any(|t| t.starts_with("trigger.compound")));
    }
}
