//! Generated valid cases per second, including rendering and canonical serialisation, on one
//! core. Each iteration samples one scene of 10 to 50 nodes and writes its glTF text.
//!
//! `cargo bench -p physics-cts-generator`

use std::sync::atomic::{AtomicU64, Ordering};

use generator::sample;
use reference::profile::Profile;

fn main() {
    divan::main();
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// One valid case: sample, render, serialise. Rejects scenes outside 10..=50 nodes.
fn one(profile: Profile) -> usize {
    loop {
        let i = NEXT.fetch_add(1, Ordering::Relaxed);
        let (_, r) = sample::scene(profile, 1, i, "bench", None);
        let nodes = r.built.json["nodes"].as_array().map_or(0, Vec::len);
        if (10..=50).contains(&nodes) {
            return generator::canonical::to_string(&r.built.json).len();
        }
    }
}

#[divan::bench(args = [Profile::Khr2024Draft, Profile::Omi2023, Profile::VrmcConstraintsDraft], sample_count = 200)]
fn valid_case(profile: Profile) -> usize {
    one(profile)
}
