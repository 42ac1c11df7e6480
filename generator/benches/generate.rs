//! Generated valid cases per second, including rendering and canonical serialisation, on one
//! core: each iteration samples one scene of 10 to 50 nodes (a fixed ChaCha stream per index),
//! renders it to glTF and writes its canonical text.
//!
//! `cargo bench -p physics-cts-generator`

use std::sync::atomic::{AtomicU64, Ordering};

use generator::{sample, strategy};
use proptest::strategy::BoxedStrategy;
use reference::profile::Profile;

fn main() {
    divan::main();
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// One valid case of 10 to 50 nodes: sample, render, serialise (rare draws outside the range
/// are drawn again and counted in the time).
fn one(strategy: &BoxedStrategy<strategy::Scene>) -> usize {
    loop {
        let i = NEXT.fetch_add(1, Ordering::Relaxed);
        let Some(scene) = sample::sample(strategy, 1, i, 0) else {
            continue;
        };
        let r = scene.render("bench");
        let nodes = r.built.json["nodes"].as_array().map_or(0, Vec::len);
        if (10..=50).contains(&nodes) {
            return generator::canonical::to_string(&r.built.json).len();
        }
    }
}

#[divan::bench(args = [Profile::Khr2024Draft, Profile::Omi2023, Profile::VrmcConstraintsDraft], sample_count = 500)]
fn valid_case(bencher: divan::Bencher, profile: Profile) {
    let strategy = strategy::large_scene(profile);
    bencher.bench_local(|| one(&strategy));
}
