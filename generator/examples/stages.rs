//! Per-stage time of whole valid cases by node count (profiling aid).
use std::time::Instant;

use generator::{canonical, corpus, label, sample, strategy};
use reference::profile::Profile;

fn main() {
    let mut tape = canonical::Tape::new();
    let dir = tempfile::tempdir_in("/dev/shm").expect("dir");
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(400);
    for profile in [
        Profile::Khr2024Draft,
        Profile::Omi2023,
        Profile::VrmcConstraintsDraft,
    ] {
        let strategy = strategy::large_scene(profile);
        let mut rows: Vec<(usize, [f64; 7])> = Vec::new();
        for i in 0..n {
            let t0 = Instant::now();
            let Some(scene) = sample::sample(&strategy, 1, i, 0) else {
                continue;
            };
            let t1 = Instant::now();
            let r = scene.render("case");
            let nodes = r.built.json["nodes"].as_array().map_or(0, Vec::len);
            if !(10..=50).contains(&nodes) {
                continue;
            }
            let t2 = Instant::now();
            let case = corpus::rendered_case(profile, 1, "bench/gen/scene/case", None, r);
            let bytes = case.bytes();
            let t3 = Instant::now();
            let reading = label::read_written(&case, &bytes, dir.path()).expect("read");
            let t4 = Instant::now();
            let t5 = Instant::now();
            let text = corpus::expect_text(&case, &reading, &mut tape);
            let t6 = Instant::now();
            std::fs::write(dir.path().join("case.expect.json"), &text).expect("w");
            let t7 = Instant::now();
            let d = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1e6;
            rows.push((
                nodes,
                [
                    d(t0, t1),
                    d(t1, t2),
                    d(t2, t3),
                    d(t3, t4),
                    d(t4, t5),
                    d(t5, t6),
                    d(t6, t7),
                ],
            ));
        }
        println!(
            "{profile:?}: {} cases. stages: sample render gltf-text read expect-doc expect-text write (µs, median per bucket)",
            rows.len()
        );
        for (lo, hi) in [(10, 19), (20, 29), (30, 39), (40, 50), (10, 50)] {
            let b: Vec<&(usize, [f64; 7])> =
                rows.iter().filter(|r| r.0 >= lo && r.0 <= hi).collect();
            if b.is_empty() {
                continue;
            }
            let med = |k: usize| {
                let mut v: Vec<f64> = b.iter().map(|r| r.1[k]).collect();
                v.sort_by(f64::total_cmp);
                v[v.len() / 2]
            };
            let mut tot: Vec<f64> = b.iter().map(|r| r.1.iter().sum()).collect();
            tot.sort_by(f64::total_cmp);
            println!(
                "  nodes {lo}-{hi} ({:3}): {:7.1} {:7.1} {:7.1} {:7.1} {:7.1} {:7.1} {:7.1}  total med {:7.1}",
                b.len(),
                med(0),
                med(1),
                med(2),
                med(3),
                med(4),
                med(5),
                med(6),
                tot[tot.len() / 2]
            );
        }
    }
}
