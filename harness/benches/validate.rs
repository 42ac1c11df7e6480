//! Validation throughput, with the Khronos glTF-Validator as the anchor, measured in one run.
//!
//! `cargo bench -p physics-cts --bench validate` writes a folder of scenes to a temporary folder
//! (400 varied KHR / OMI / VRM scenes of 10 to 50 nodes from a small deterministic builder, plus
//! copies of the seed-era samples when /work/shared is there), then measures, as the median of
//! several passes over the whole folder (the binary's CPU time as their mean: it comes in 10 ms
//! clock ticks), after passes that are not kept (`BENCH_WARMUP`, default
//! 8, for the anchor, whose JIT needs them; one for the library and the binary, for the file
//! cache):
//! - the library: `reference::read_path` on every file, in this process;
//! - the binary: `physics-cts validate --format json FOLDER` as a process (start-up included);
//! - the anchor: `gltf-validator` (npm, pinned in `benches/gltf-validator/`), every file in one
//!   Node process, start-up excluded (core glTF only: it does not know the physics extensions).
//!
//! It prints wall-clock files/s and MB/s of each, files per CPU-second (the machine is shared, so
//! CPU time is the steadier figure), and the ratios to the anchor. Goal: the binary at least 10x
//! the anchor's files/s.
//! Environment: `BENCH_SCENES` (default 400), `BENCH_RUNS` (default 5), `BENCH_WARMUP` (default
//! 8), `BENCH_KEEP` (keep the folder, to profile or inspect it), `PHYSICS_CTS_BIN` (the binary to
//! time, by default the bench build's; `target/release/physics-cts` is the one users run).

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use base64::Engine as _;
use serde_json::{Value, json};
use support::gltf_files;

mod common;
#[path = "../tests/support/mod.rs"]
mod support;

fn main() {
    let scenes = env_number("BENCH_SCENES", 400);
    let runs = env_number("BENCH_RUNS", 5).max(1);
    let warmup = env_number("BENCH_WARMUP", 8);
    let folder =
        std::env::temp_dir().join(format!("physics-cts-bench-validate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("create the bench folder");

    for i in 0..scenes {
        let (family, doc) = scene(i);
        let path = folder.join(family).join(format!("scene-{i:04}.gltf"));
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create family folder");
        std::fs::write(&path, serde_json::to_vec(&doc).expect("serialise")).expect("write scene");
    }
    // shared/ sits beside the clone (or beside an ancestor of a nested worktree).
    let samples = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("shared/specs/samples"))
        .find(|dir| dir.is_dir());
    match samples {
        Some(samples) => copy_tree(&samples, &folder.join("samples")),
        None => eprintln!("note: no shared/specs/samples found: generated scenes only"),
    }

    let files = gltf_files(&folder);
    let bytes: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).expect("stat").len())
        .sum();
    println!(
        "validate benchmark: {} files, {:.2} MB in {} ({} passes each, median; the binary's CPU: mean)",
        files.len(),
        bytes as f64 / 1e6,
        folder.display(),
        runs
    );

    // The library, in process, on this one thread.
    let mut counts = [0usize; 3];
    let library: Vec<Pass> = (0..warmup.min(1) + runs)
        .map(|_| {
            counts = [0; 3];
            let (start, cpu) = (Instant::now(), thread_cpu());
            for file in &files {
                let reading = reference::read_path(file, None).expect("readable");
                for issue in &reading.issues {
                    counts[issue.severity as usize] += 1;
                }
            }
            Pass {
                wall: start.elapsed().as_secs_f64(),
                cpu: thread_cpu().zip(cpu).map(|(b, a)| b - a),
            }
        })
        .skip(warmup.min(1))
        .collect();
    println!(
        "  (reference issues per pass: {} errors, {} warnings, {} infos)",
        counts[0], counts[1], counts[2]
    );

    // The binary, as a process over the folder (it reads files on every core).
    let bin = common::binary();
    let binary: Vec<Pass> = (0..warmup.min(1) + runs)
        .map(|_| {
            let (start, cpu) = (Instant::now(), children_cpu());
            let out = Command::new(&bin)
                .args(["validate", "--format", "json"])
                .arg(&folder)
                .output()
                .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.display()));
            let pass = Pass {
                wall: start.elapsed().as_secs_f64(),
                cpu: children_cpu().zip(cpu).map(|(b, a)| b - a),
            };
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "physics-cts validate failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            pass
        })
        .skip(warmup.min(1))
        .collect();

    let anchor = gltf_validator(&folder, warmup, runs, files.len());

    let n = files.len() as f64;
    let mb = bytes as f64 / 1e6;
    println!(
        "  {:<44} {:>10} {:>9} {:>12}",
        "", "files/s", "MB/s", "files/CPU-s"
    );
    // CPU per pass: the median, except for the binary, whose CPU time comes in clock ticks of
    // 10 ms (a pass takes a few ticks): the mean over its passes, to a tick divided by their
    // number, instead of a median that can only be a whole number of ticks.
    let row = |name: &str, passes: &[Pass], ticks: bool| -> (f64, Option<f64>) {
        let wall = median(passes.iter().map(|p| p.wall).collect());
        let cpu = passes
            .iter()
            .map(|p| p.cpu)
            .collect::<Option<Vec<f64>>>()
            .map(|c| {
                if ticks {
                    c.iter().sum::<f64>() / c.len() as f64
                } else {
                    median(c)
                }
            });
        let per_cpu = cpu.map_or("-".to_owned(), |c| format!("{:.0}", n / c));
        println!(
            "  {name:<44} {:>10.0} {:>9.2} {:>12}",
            n / wall,
            mb / wall,
            per_cpu
        );
        (wall, cpu)
    };
    let (lib_wall, lib_cpu) = row("reference::read_path (library, 1 thread)", &library, false);
    let (bin_wall, bin_cpu) = row("physics-cts validate (binary, process)", &binary, true);
    match anchor {
        Some(anchor) => {
            let (anchor_wall, anchor_cpu) =
                row("gltf-validator 2.0.0-dev.3.10 (Node)", &anchor, false);
            let ratio = |ours: Option<f64>, theirs: Option<f64>| {
                ours.zip(theirs)
                    .map_or("-".to_owned(), |(o, t)| format!("{:.1}x", t / o))
            };
            println!(
                "  ratio library / gltf-validator: {:.1}x files/s, {} files/CPU-s",
                anchor_wall / lib_wall,
                ratio(lib_cpu, anchor_cpu)
            );
            println!(
                "  ratio binary  / gltf-validator: {:.1}x files/s, {} files/CPU-s",
                anchor_wall / bin_wall,
                ratio(bin_cpu, anchor_cpu)
            );
            let met = anchor_wall / bin_wall >= 10.0;
            println!(
                "  goal (binary >= 10x the anchor's files/s): {}",
                if met { "met" } else { "NOT met" }
            );
        }
        None => println!("  gltf-validator: skipped (see the note above)"),
    }
    println!("  load average at the end: {}", load_average());
    if std::env::var_os("BENCH_KEEP").is_some() {
        println!("  (kept {})", folder.display());
    } else {
        let _ = std::fs::remove_dir_all(&folder);
    }
}

/// One pass over the folder: wall-clock seconds, and CPU seconds when the platform tells them.
#[derive(Clone, Copy)]
struct Pass {
    wall: f64,
    cpu: Option<f64>,
}

/// CPU seconds this thread has run (Linux `/proc/thread-self/schedstat`, nanoseconds).
fn thread_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// CPU seconds (user + system) of every child process waited for (Linux `/proc/self/stat`
/// fields 16 and 17, `cutime` and `cstime`, in clock ticks of 1/100 s).
fn children_cpu() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |field: usize| fields.get(field - 3)?.parse::<f64>().ok();
    Some((ticks(16)? + ticks(17)?) / 100.0)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    let n = samples.len();
    if !n.is_multiple_of(2) {
        samples[n / 2]
    } else {
        (samples[n / 2 - 1] + samples[n / 2]) / 2.0
    }
}

/// The passes of the glTF-Validator over `folder` (timed inside its Node process, start-up
/// excluded) after `warmup` passes that are not kept, or `None` (with a note) when Node or the
/// package cannot be had. V8 keeps optimising the validator for a few thousand files: over the
/// 432-file folder its pass rate climbs from about 490 to 1,180 files/s by the fifth pass and
/// then stays there, so the passes before are its warm-up, not its speed.
fn gltf_validator(folder: &Path, warmup: usize, runs: usize, files: usize) -> Option<Vec<Pass>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/gltf-validator");
    if !dir.join("node_modules/gltf-validator").is_dir() {
        let ok = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("note: `npm ci` in {} failed: no anchor", dir.display());
            return None;
        }
    }
    let out = match Command::new("node")
        .arg(dir.join("validate-folder.mjs"))
        .arg(folder)
        .arg(warmup.saturating_add(runs).to_string())
        .output()
    {
        Ok(out) if out.status.success() => out,
        Ok(out) => {
            eprintln!(
                "note: gltf-validator runner failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return None;
        }
        Err(e) => {
            eprintln!("note: cannot run node: {e}");
            return None;
        }
    };
    let Ok(report) = serde_json::from_slice::<Value>(&out.stdout) else {
        eprintln!("note: the gltf-validator runner printed no JSON report");
        return None;
    };
    if report["files"] != files {
        eprintln!(
            "note: the gltf-validator runner validated {} files, not {files}: no anchor",
            report["files"]
        );
        return None;
    }
    println!(
        "  (gltf-validator issues per pass: {} errors, {} warnings, {} infos)",
        report["errors"], report["warnings"], report["infos"]
    );
    let seconds = |key: &str| -> Option<Vec<f64>> {
        report[key].as_array()?.iter().map(Value::as_f64).collect()
    };
    let (Some(wall), Some(cpu)) = (seconds("runs_seconds"), seconds("runs_cpu_seconds")) else {
        eprintln!("note: the gltf-validator runner's report has no arrays of seconds: no anchor");
        return None;
    };
    let asked = warmup.saturating_add(runs);
    if wall.len() != asked || cpu.len() != asked {
        eprintln!(
            "note: the gltf-validator runner timed {} and {} passes, not {asked}: no anchor",
            wall.len(),
            cpu.len()
        );
        return None;
    }
    let passes = wall
        .into_iter()
        .zip(cpu)
        .skip(warmup)
        .map(|(wall, cpu)| Pass {
            wall,
            cpu: Some(cpu),
        })
        .collect::<Vec<_>>();
    // `runs` is at least 1 and the count was checked: never empty.
    Some(passes)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read samples") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy sample");
        }
    }
}

// ----- the scene builder ------------------------------------------------------------------------

/// SplitMix64: a small deterministic generator, so every run builds the same folder.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A value in [lo, hi), rounded to 3 decimals so files stay short and readable.
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        ((lo + unit * (hi - lo)) * 1000.0).round() / 1000.0
    }

    fn vec3(&mut self, lo: f64, hi: f64) -> Value {
        json!([self.range(lo, hi), self.range(lo, hi), self.range(lo, hi)])
    }
}

/// Scene `i`: the family folder it goes in and the document. Families rotate KHR, OMI, VRM.
fn scene(i: usize) -> (&'static str, Value) {
    let mut rng = Rng(i as u64 * 7919 + 1);
    let nodes = 10 + rng.below(41);
    match i % 3 {
        0 => ("khr", khr_scene(&mut rng, nodes)),
        1 => ("omi", omi_scene(&mut rng, nodes)),
        _ => ("vrm", vrm_scene(&mut rng, nodes)),
    }
}

/// A unit box (8 corners at +-0.5, 12 triangles) in one base64 buffer: 96 bytes of positions,
/// then 72 bytes of u16 indices.
fn box_mesh() -> (Value, Value, Value, Value) {
    let mut data = Vec::with_capacity(168);
    for corner in 0..8u8 {
        for axis in 0..3 {
            let v: f32 = if corner >> axis & 1 == 1 { 0.5 } else { -0.5 };
            data.extend_from_slice(&v.to_le_bytes());
        }
    }
    const FACES: [[u16; 4]; 6] = [
        [0, 2, 6, 4],
        [1, 5, 7, 3],
        [0, 4, 5, 1],
        [2, 3, 7, 6],
        [0, 1, 3, 2],
        [4, 6, 7, 5],
    ];
    for [a, b, c, d] in FACES {
        for index in [a, b, c, a, c, d] {
            data.extend_from_slice(&index.to_le_bytes());
        }
    }
    let uri = format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(&data)
    );
    (
        json!([{"byteLength": data.len(), "uri": uri}]),
        json!([
            {"buffer": 0, "byteOffset": 0, "byteLength": 96, "target": 34962},
            {"buffer": 0, "byteOffset": 96, "byteLength": 72, "target": 34963}
        ]),
        json!([
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
             "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"}
        ]),
        json!([{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}]),
    )
}

/// The core document around `nodes`: parents come from `parents` (node 0 is the only root).
fn document(mut nodes: Vec<Value>, parents: &[usize], used: &[&str], extensions: Value) -> Value {
    for (child, &parent) in parents.iter().enumerate().skip(1) {
        let children = nodes[parent]
            .as_object_mut()
            .expect("node object")
            .entry("children")
            .or_insert_with(|| json!([]));
        children.as_array_mut().expect("array").push(json!(child));
    }
    let (buffers, views, accessors, meshes) = box_mesh();
    let mut doc = json!({
        "asset": {"version": "2.0", "generator": "physics-cts validate benchmark"},
        "extensionsUsed": used,
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": meshes,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": buffers,
    });
    if !extensions.is_null() {
        doc["extensions"] = extensions;
    }
    doc
}

fn tree(rng: &mut Rng, n: usize) -> Vec<usize> {
    (0..n)
        .map(|k| if k == 0 { 0 } else { rng.below(k) })
        .collect()
}

fn plain_node(rng: &mut Rng, k: usize) -> Value {
    let mut node = json!({"name": format!("node {k}"), "translation": rng.vec3(-2.0, 2.0)});
    if rng.below(2) == 0 {
        node["mesh"] = json!(0);
    }
    node
}

fn khr_scene(rng: &mut Rng, n: usize) -> Value {
    let parents = tree(rng, n);
    let shapes = json!([
        {"type": "box", "box": {"size": rng.vec3(0.1, 2.0)}},
        {"type": "sphere", "sphere": {"radius": rng.range(0.1, 1.0)}},
        {"type": "capsule", "capsule": {"height": rng.range(0.1, 1.0), "radiusBottom": 0.2, "radiusTop": 0.2}},
        {"type": "cylinder", "cylinder": {"height": rng.range(0.1, 1.0), "radiusBottom": 0.3, "radiusTop": 0.2}},
        {"type": "convex", "convex": {"mesh": 0}},
        {"type": "trimesh", "trimesh": {"mesh": 0}}
    ]);
    let bodies_ext = json!({
        "physicsMaterials": [
            {"staticFriction": rng.range(0.0, 1.0), "dynamicFriction": rng.range(0.0, 1.0), "restitution": rng.range(0.0, 1.0)},
            {"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1, "frictionCombine": "minimum", "restitutionCombine": "maximum"}
        ],
        "collisionFilters": [
            {"collisionSystems": ["A"], "collideWithSystems": ["A", "B"]},
            {"collisionSystems": ["B"], "notCollideWithSystems": ["C"]}
        ],
        "physicsJoints": [
            {"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}, {"angularAxes": [0, 1], "min": -0.5, "max": 0.5}]},
            {"limits": [{"linearAxes": [1], "min": -1, "max": 1, "stiffness": 100, "damping": 1}]}
        ]
    });
    let mut bodies = Vec::new();
    let mut nodes = vec![json!({"name": "world"})];
    for k in 1..n {
        let mut node = plain_node(rng, k);
        let ext = match rng.below(6) {
            0 | 1 => {
                bodies.push(k);
                json!({
                    "motion": {"mass": rng.range(0.5, 5.0), "linearVelocity": rng.vec3(-1.0, 1.0)},
                    "collider": {"shape": rng.below(5), "physicsMaterial": rng.below(2), "collisionFilter": rng.below(2)}
                })
            }
            2 => json!({"collider": {"shape": rng.below(6), "physicsMaterial": 0}}),
            3 if !bodies.is_empty() => json!({
                "joint": {"connectedNode": bodies[rng.below(bodies.len())], "joint": rng.below(2), "enableCollision": false}
            }),
            4 => json!({"trigger": {"shape": rng.below(4), "collisionFilter": rng.below(2)}}),
            _ => Value::Null,
        };
        if !ext.is_null() {
            node["extensions"] = json!({"KHR_physics_rigid_bodies": ext});
        }
        nodes.push(node);
    }
    document(
        nodes,
        &parents,
        &["KHR_collision_shapes", "KHR_physics_rigid_bodies"],
        json!({"KHR_collision_shapes": {"shapes": shapes}, "KHR_physics_rigid_bodies": bodies_ext}),
    )
}

fn omi_scene(rng: &mut Rng, n: usize) -> Value {
    let radius = rng.range(0.1, 0.5);
    let colliders = json!([
        {"type": "box", "size": rng.vec3(0.1, 2.0)},
        {"type": "sphere", "radius": rng.range(0.1, 1.0)},
        {"type": "capsule", "radius": radius, "height": 2.0 * radius + rng.range(0.0, 1.0)},
        {"type": "cylinder", "radius": radius, "height": rng.range(0.1, 2.0)},
        {"type": "hull", "mesh": 0},
        {"type": "trimesh", "mesh": 0}
    ]);
    let constraints = json!([
        {"linearAxes": [0, 1, 2]},
        {"angularAxes": [0, 1], "lowerLimit": -0.5, "upperLimit": 0.5, "stiffness": 10, "damping": 0.5}
    ]);
    let mut nodes = vec![json!({"name": "world"})];
    let mut parents = vec![0];
    let mut bodies: Vec<(usize, bool)> = Vec::new(); // (node, is rigid)
    while nodes.len() < n {
        let k = nodes.len();
        match rng.below(4) {
            // A body with one collider child (two nodes).
            0 | 1 if k + 1 < n => {
                let kind = ["rigid", "rigid", "static", "kinematic"][rng.below(4)];
                let rigid = kind == "rigid";
                let mut body = json!({"type": kind});
                if rigid {
                    body["mass"] = json!(rng.range(0.5, 5.0));
                    body["linearVelocity"] = rng.vec3(-1.0, 1.0);
                }
                nodes.push(json!({
                    "name": format!("body {k}"),
                    "translation": rng.vec3(-3.0, 3.0),
                    "extensions": {"OMI_physics_body": body}
                }));
                parents.push(0);
                let collider = if rigid { rng.below(5) } else { rng.below(6) };
                nodes.push(json!({"name": format!("shape {}", k + 1), "mesh": 0,
                    "extensions": {"OMI_collider": {"collider": collider}}}));
                parents.push(k);
                bodies.push((k, rigid));
            }
            // A joint node between two bodies, the first one rigid.
            2 if bodies.len() >= 2 => {
                let rigid: Vec<usize> = bodies.iter().filter(|b| b.1).map(|b| b.0).collect();
                let Some(&a) = rigid.get(rng.below(rigid.len().max(1))) else {
                    continue;
                };
                let others: Vec<usize> = bodies.iter().map(|b| b.0).filter(|&b| b != a).collect();
                let b = others[rng.below(others.len())];
                let used = if rng.below(2) == 0 {
                    json!([0])
                } else {
                    json!([0, 1])
                };
                nodes.push(json!({"name": format!("joint {k}"), "translation": rng.vec3(-3.0, 3.0),
                    "extensions": {"OMI_physics_joint": {"constraints": used, "nodeA": a, "nodeB": b}}}));
                parents.push(0);
            }
            _ => {
                nodes.push(plain_node(rng, k));
                parents.push(rng.below(k));
            }
        }
    }
    document(
        nodes,
        &parents,
        &["OMI_collider", "OMI_physics_body", "OMI_physics_joint"],
        json!({"OMI_collider": {"colliders": colliders}, "OMI_physics_joint": {"constraints": constraints}}),
    )
}

fn vrm_scene(rng: &mut Rng, n: usize) -> Value {
    let parents = tree(rng, n);
    let ancestors = |mut k: usize| {
        let mut out = Vec::new();
        while k != 0 {
            k = parents[k];
            out.push(k);
        }
        out
    };
    let mut nodes = vec![json!({"name": "root"})];
    for k in 1..n {
        let mut node = plain_node(rng, k);
        node["rotation"] = json!([0, 0, 0, 1]);
        // A source before k that is not one of its ancestors: never the destination, its parent,
        // a descendant (those come after k) or part of a cycle (sources always come first).
        let above = ancestors(k);
        let candidates: Vec<usize> = (1..k).filter(|j| !above.contains(j)).collect();
        if !candidates.is_empty() && rng.below(2) == 0 {
            let source = candidates[rng.below(candidates.len())];
            let space = |rng: &mut Rng| ["local", "model"][rng.below(2)];
            let mut c = json!({
                "source": source,
                "sourceSpace": space(rng),
                "destinationSpace": space(rng),
                "weight": rng.range(0.0, 1.0)
            });
            let kind = ["position", "rotation", "aim"][rng.below(3)];
            if kind == "aim" {
                c["aimVector"] = json!([0, 0, 1]);
                c["upVector"] = json!([0, 1, 0]);
                c["freezeAxes"] = json!([true, rng.below(2) == 0]);
            } else {
                c["freezeAxes"] = json!([true, rng.below(2) == 0, true]);
            }
            node["extensions"] = json!({"VRMC_constraints-1.0": {(kind): c}});
        }
        nodes.push(node);
    }
    document(nodes, &parents, &["VRMC_constraints-1.0"], Value::Null)
}
