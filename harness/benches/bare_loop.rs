//! Cost of the Rapier adapter over a bare rapier3d loop.
//!
//! For each scene, the same world is stepped the same number of steps twice: built by hand with
//! the rapier3d API and stepped with `PhysicsWorld::step`, and loaded from glTF through the
//! `Implementation` trait and stepped with `step` (hooks for filters and material combining,
//! event collection). Both timings and their ratio are printed; the harness engineer can point
//! `scenes()` at the corpus later.
//!
//! Run: `cargo bench -p physics-cts --bench bare_loop`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::implementation::{Implementation, LoadOutcome, LoadRequest, Profile, SimConfig};
use rapier3d::prelude::*;
use serde_json::{Value, json};

const STEPS: u32 = 600;
const REPEATS: usize = 3;

/// A benchmark scene: its glTF and the same world built by hand.
struct BenchScene {
    name: &'static str,
    gltf: Value,
    bare: fn() -> PhysicsWorld,
}

fn khr(shapes: Value, joints: Value, nodes: Vec<Value>) -> Value {
    let roots: Vec<usize> = (0..nodes.len())
        .filter(|i| {
            !nodes.iter().any(|n| {
                n.get("children")
                    .and_then(Value::as_array)
                    .is_some_and(|c| c.contains(&json!(i)))
            })
        })
        .collect();
    let mut rb = json!({});
    if joints.as_array().is_some_and(|j| !j.is_empty()) {
        rb["physicsJoints"] = joints;
    }
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_collision_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {"KHR_collision_shapes": {"shapes": shapes}, "KHR_physics_rigid_bodies": rb},
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0,
    })
}

/// Balls of the pile: an 8 x 8 grid, 1.2 m apart, 2 m above a 20 x 1 x 20 ground.
const PILE: usize = 8;

fn pile_position(i: usize) -> [f32; 3] {
    let (x, z) = ((i % PILE) as f32, (i / PILE) as f32);
    [1.2 * x - 4.0, 2.0 + 0.1 * (i % 3) as f32, 1.2 * z - 4.0]
}

fn pile_gltf() -> Value {
    let mut nodes = vec![json!({"translation": [0.0, -0.5, 0.0],
        "extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0}}}})];
    for i in 0..PILE * PILE {
        nodes.push(json!({"translation": pile_position(i),
            "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, "collider": {"shape": 1}}}}));
    }
    khr(
        json!([{"type": "box", "box": {"size": [20.0, 1.0, 20.0]}},
               {"type": "sphere", "sphere": {"radius": 0.5}}]),
        json!([]),
        nodes,
    )
}

fn pile_bare() -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    w.colliders
        .insert(ColliderBuilder::cuboid(10.0, 0.5, 10.0).translation(Vector::new(0.0, -0.5, 0.0)));
    for i in 0..PILE * PILE {
        let [x, y, z] = pile_position(i);
        let b = w
            .bodies
            .insert(RigidBodyBuilder::dynamic().translation(Vector::new(x, y, z)));
        w.colliders
            .insert_with_parent(ColliderBuilder::ball(0.5).mass(1.0), b, &mut w.bodies);
    }
    w
}

/// A chain of boxes hanging from the world, each linked to the next by a ball joint.
const CHAIN: usize = 10;

fn chain_gltf() -> Value {
    // Node 2i: link i (a body at x = i + 1); node 2i + 1: its pivot at the previous link's end
    // (local x = -0.5), carrying a joint whose connected node is the previous link's tip.
    let mut nodes = Vec::new();
    for i in 0..CHAIN {
        nodes.push(json!({"translation": [i as f64 + 1.0, 0.0, 0.0], "children": [2 * i + 1],
            "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 1.0}, "collider": {"shape": 0}}}}));
        let connected = if i == 0 { 2 * CHAIN } else { 2 * CHAIN + i };
        nodes.push(json!({"translation": [-0.5, 0.0, 0.0],
            "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": connected, "joint": 0}}}}));
    }
    // Node 2 CHAIN: the world anchor at x = 0.5; then one tip per link at local x = +0.5.
    nodes.push(json!({"translation": [0.5, 0.0, 0.0]}));
    for i in 0..CHAIN {
        nodes.push(json!({"translation": [0.5, 0.0, 0.0]}));
        let children = nodes[2 * i]["children"].as_array_mut().expect("children");
        children.push(json!(2 * CHAIN + 1 + i));
    }
    khr(
        json!([{"type": "box", "box": {"size": [0.8, 0.2, 0.2]}}]),
        json!([{"limits": [{"linearAxes": [0, 1, 2], "max": 0.0}]}]),
        nodes,
    )
}

fn chain_bare() -> PhysicsWorld {
    let mut w = PhysicsWorld::new();
    let ground = w.bodies.insert(RigidBodyBuilder::fixed());
    let mut previous = None;
    for i in 0..CHAIN {
        let b = w
            .bodies
            .insert(RigidBodyBuilder::dynamic().translation(Vector::new(i as f32 + 1.0, 0.0, 0.0)));
        // Mass 1 given, inertia the box's scaled to it: what the adapter does.
        w.colliders.insert_with_parent(
            ColliderBuilder::cuboid(0.4, 0.1, 0.1).mass(1.0),
            b,
            &mut w.bodies,
        );
        // Joint frame 1 on this link at its -x end, frame 2 on the previous link's +x end
        // (or the world anchor).
        let (other, anchor) = match previous {
            Some(p) => (p, Vector::new(0.5, 0.0, 0.0)),
            None => (ground, Vector::new(0.5, 0.0, 0.0)),
        };
        let joint = GenericJointBuilder::new(JointAxesMask::LIN_AXES)
            .local_anchor1(Vector::new(-0.5, 0.0, 0.0))
            .local_anchor2(anchor)
            .contacts_enabled(false);
        w.impulse_joints.insert(b, other, joint, true);
        previous = Some(b);
    }
    w
}

fn scenes() -> Vec<BenchScene> {
    vec![
        BenchScene {
            name: "pile-64-balls",
            gltf: pile_gltf(),
            bare: pile_bare,
        },
        BenchScene {
            name: "chain-10-links",
            gltf: chain_gltf(),
            bare: chain_bare,
        },
    ]
}

fn best_of(mut f: impl FnMut() -> Duration) -> Duration {
    (0..REPEATS).map(|_| f()).min().unwrap_or_default()
}

fn write(name: &str, doc: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("physics-cts-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, serde_json::to_vec(doc).expect("json")).expect("write");
    path
}

fn main() {
    println!(
        "{:<16} {:>8} {:>12} {:>14} {:>9} {:>16} {:>9}",
        "scene", "steps", "bare (ms)", "adapter (ms)", "ratio", "+observe (ms)", "ratio"
    );
    let mut totals = [Duration::ZERO; 3];
    for scene in scenes() {
        let bare = best_of(|| {
            let mut w = (scene.bare)();
            let start = Instant::now();
            for _ in 0..STEPS {
                w.step();
            }
            start.elapsed()
        });
        let path = write(scene.name, &scene.gltf);
        let request = LoadRequest {
            path,
            profile: Profile::Khr2024Draft,
        };
        let run = |observe: bool| {
            best_of(|| {
                let mut imp = RapierImplementation::new();
                imp.configure(&SimConfig::default()).expect("configure");
                match imp.load(&request).expect("load") {
                    LoadOutcome::Loaded { .. } => {}
                    other => panic!("{}: {other:?}", scene.name),
                }
                let start = Instant::now();
                if observe {
                    for _ in 0..STEPS {
                        imp.step(1).expect("step");
                        imp.observe().expect("observe");
                    }
                } else {
                    imp.step(STEPS).expect("step");
                }
                start.elapsed()
            })
        };
        let adapter = run(false);
        let observed = run(true);
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:<16} {:>8} {:>12.2} {:>14.2} {:>9.2} {:>16.2} {:>9.2}",
            scene.name,
            STEPS,
            ms(bare),
            ms(adapter),
            ms(adapter) / ms(bare),
            ms(observed),
            ms(observed) / ms(bare)
        );
        totals[0] += bare;
        totals[1] += adapter;
        totals[2] += observed;
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "{:<16} {:>8} {:>12.2} {:>14.2} {:>9.2} {:>16.2} {:>9.2}",
        "total",
        "",
        ms(totals[0]),
        ms(totals[1]),
        ms(totals[1]) / ms(totals[0]),
        ms(totals[2]),
        ms(totals[2]) / ms(totals[0])
    );
}
