//! Profiling aid: the time of each stage of whole valid cases by scene size, or (`whole`) just
//! whole cases, to measure with `perf stat -e task-clock` on a busy machine (CPU time, not
//! wall time).
//! `cargo run --release --example stages -- [stages|whole] [count] [profile]`
use std::time::Instant;

use generator::{corpus, generate, label, sample, strategy};
use reference::profile::Profile;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = |why: String| -> ! {
        eprintln!("stages: {why}\nusage: stages [stages|whole] [count] [profile]");
        std::process::exit(2)
    };
    let whole = match args.get(1).map(String::as_str) {
        None | Some("stages") => false,
        Some("whole") => true,
        Some(other) => usage(format!("unknown mode {other:?}")),
    };
    let n: u64 = match args.get(2) {
        None => 400,
        Some(s) => s
            .parse()
            .unwrap_or_else(|_| usage(format!("count {s:?} is not a number"))),
    };
    let profiles: Vec<Profile> = match args.get(3) {
        Some(id) => match Profile::ALL.into_iter().find(|p| p.id() == id) {
            Some(p) => vec![p],
            None => usage(format!("unknown profile {id:?}")),
        },
        None => Profile::ALL.to_vec(),
    };
    // RAM-backed where there is one: a file rewrite on disk costs more than a case.
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        tempfile::tempdir_in(shm)
    } else {
        tempfile::tempdir()
    }
    .unwrap_or_else(|e| usage(format!("no temporary folder: {e}")));
    let mut encoder = corpus::Encoder::default();
    for profile in profiles {
        let strategy = strategy::large_scene(profile);
        let mut rows: Vec<(usize, [f64; 7])> = Vec::new();
        let mut done = 0;
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
            let case = generate::rendered_case(profile, 1, "bench/gen/scene/case", None, r);
            if whole {
                let e = encoder.encode(&case, dir.path()).expect("encode");
                std::fs::write(dir.path().join("case.expect.json"), &e.expect).expect("w");
                done += 1;
                if std::env::var_os("SIZES").is_some() {
                    let gltf = case.bytes().len();
                    let bin: usize = case.siblings.values().map(Vec::len).sum();
                    let pairs = e.expect.matches("\"allows_ab\"").count();
                    println!(
                        "size nodes={nodes} gltf={gltf} bin={bin} expect={} pairs={pairs}",
                        e.expect.len()
                    );
                }
                continue;
            }
            let t2 = Instant::now();
            let bytes = case.bytes();
            let t3 = Instant::now();
            let reading = label::read_written(&case, &bytes, dir.path()).expect("read");
            let t4 = Instant::now();
            let evaluated = label::evaluate(&reading);
            std::hint::black_box(&evaluated);
            let t5 = Instant::now();
            let text = corpus::expect_text(&case, &reading);
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
        if whole {
            println!("{profile:?}: {done} whole cases");
            continue;
        }
        println!(
            "{profile:?}: {} cases. stages: sample render gltf-text read evaluate expect-text(evaluates again) write (µs, median per bucket)",
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
            println!(
                "  nodes {lo}-{hi} ({:3}): {:7.1} {:7.1} {:7.1} {:7.1} {:7.1} {:7.1} {:7.1}",
                b.len(),
                med(0),
                med(1),
                med(2),
                med(3),
                med(4),
                med(5),
                med(6)
            );
        }
    }
}
