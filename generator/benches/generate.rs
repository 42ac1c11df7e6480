//! Generated valid cases per second, including serialisation, on one core.
//!
//! `valid_case` is the measure: one iteration samples one scene of 10 to 50 nodes (a
//! fixed ChaCha stream per index), renders it to glTF, makes the case, and does all the work
//! `corpus::write` does for a case: the canonical glTF text and sibling `.bin` written to a
//! folder, the reference's reading of them, the expected interpretation, pose outputs,
//! tolerances and dynamics scenario, the canonical `expect.json` text (written too), and the
//! SHA-256 of the main file. `scene_text` is the part before the reference reads the case
//! (sample, render, canonical glTF text), the measure of the first benchmark runs.
//!
//! `cargo bench -p physics-cts-generator`

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use generator::strategy::Rendered;
use generator::{corpus, generate, sample, strategy};
use proptest::strategy::BoxedStrategy;
use reference::profile::Profile;

/// The allocator of the `physics-cts` binary, whose `generate` command writes the corpus.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    divan::main();
}

static NEXT: AtomicU64 = AtomicU64::new(0);

const PROFILES: [Profile; 3] = [
    Profile::Khr2024Draft,
    Profile::Omi2023,
    Profile::VrmcConstraintsDraft,
];

/// The next rendered scene of 10 to 50 nodes (rare draws outside the range are drawn again
/// and counted in the time).
fn scene(strategy: &BoxedStrategy<strategy::SceneSpec>) -> Rendered {
    loop {
        let i = NEXT.fetch_add(1, Ordering::Relaxed);
        let Some(scene) = sample::sample(strategy, 1, i, 0) else {
            continue;
        };
        let r = scene.render("case");
        let nodes = r.built.json["nodes"].as_array().map_or(0, Vec::len);
        if (10..=50).contains(&nodes) {
            return r;
        }
    }
}

/// One whole valid case, as the corpus writer makes and writes it into `dir` (with one
/// encoder for all cases, as `corpus::write` has).
fn case(
    profile: Profile,
    strategy: &BoxedStrategy<strategy::SceneSpec>,
    encoder: &mut corpus::Encoder,
    dir: &Path,
) -> usize {
    let r = scene(strategy);
    let case = generate::rendered_case(profile, 1, "bench/gen/scene/case", None, r);
    let encoded = match encoder.encode(&case, dir) {
        Ok(e) => e,
        Err(e) => panic!("cannot write the case into {}: {e}", dir.display()),
    };
    assert!(encoded.disagreement.is_none(), "{:?}", encoded.disagreement);
    if let Err(e) = std::fs::write(dir.join("case.expect.json"), &encoded.expect) {
        panic!("cannot write the expectation: {e}");
    }
    encoded.expect.len() + encoded.sha256.len()
}

/// A folder in memory (`/dev/shm`) where there is one: the measure is the generator's work on
/// one core, not the disk's (rewriting a file on this machine's disk costs 1 to 10 ms).
fn folder() -> tempfile::TempDir {
    let shm = Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    };
    dir.expect("temp dir")
}

#[divan::bench(args = PROFILES, sample_count = 500)]
fn valid_case(bencher: divan::Bencher, profile: Profile) {
    let strategy = strategy::large_scene(profile);
    let dir = folder();
    let mut encoder = corpus::Encoder::default();
    // One case per iteration: divan prints cases/s (`item/s`) beside the times.
    bencher
        .counter(divan::counter::ItemsCount::new(1usize))
        .bench_local(|| case(profile, &strategy, &mut encoder, dir.path()));
}

#[divan::bench(args = PROFILES, sample_count = 500)]
fn scene_text(bencher: divan::Bencher, profile: Profile) {
    let strategy = strategy::large_scene(profile);
    bencher.bench_local(|| generator::canonical::to_string(&scene(&strategy).built.json).len());
}
