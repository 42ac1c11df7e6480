//! Helpers shared by the tests that load hand-made KHR scenes into the bundled Rapier adapter
//! (`tests/rapier.rs`, `tests/mutants.rs`) or read documents (`tests/reference_impl.rs`,
//! `tests/expect_format.rs`, `benches/validate.rs`). Each test crate uses a part of them.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::implementation::{
    Implementation, LoadOutcome, LoadRequest, NodeState, Profile, SimConfig, State,
};
use physics_cts::mutant::Mutant;
use serde_json::{Value, json};

/// A KHR document assembled from its parts; the scene's roots are the nodes nobody parents.
#[derive(Default)]
pub struct Khr {
    pub shapes: Vec<Value>,
    pub materials: Vec<Value>,
    pub filters: Vec<Value>,
    pub joints: Vec<Value>,
    pub nodes: Vec<Value>,
}

impl Khr {
    pub fn shape(&mut self, shape: Value) -> usize {
        self.shapes.push(shape);
        self.shapes.len() - 1
    }

    pub fn node(&mut self, node: Value) -> usize {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    pub fn doc(&self) -> Value {
        let children: Vec<u64> = self
            .nodes
            .iter()
            .filter_map(|n| n.get("children").and_then(Value::as_array))
            .flatten()
            .filter_map(Value::as_u64)
            .collect();
        let roots: Vec<usize> = (0..self.nodes.len())
            .filter(|i| !children.contains(&(*i as u64)))
            .collect();
        let mut rb = serde_json::Map::new();
        for (key, list) in [
            ("physicsMaterials", &self.materials),
            ("collisionFilters", &self.filters),
            ("physicsJoints", &self.joints),
        ] {
            if !list.is_empty() {
                rb.insert(key.into(), json!(list));
            }
        }
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": ["KHR_collision_shapes", "KHR_physics_rigid_bodies"],
            "extensions": {
                "KHR_collision_shapes": {"shapes": self.shapes},
                "KHR_physics_rigid_bodies": rb,
            },
            "nodes": self.nodes,
            "scenes": [{"nodes": roots}],
            "scene": 0,
        })
    }
}

/// `base` with the members of the object `extra` added (none when it is not an object).
pub fn merged(mut base: Value, extra: &Value) -> Value {
    if let (Some(b), Some(e)) = (base.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    base
}

pub fn sphere(radius: f64) -> Value {
    json!({"type": "sphere", "sphere": {"radius": radius}})
}

pub fn cube(size: [f64; 3]) -> Value {
    json!({"type": "box", "box": {"size": size}})
}

pub fn rb(ext: Value) -> Value {
    json!({"KHR_physics_rigid_bodies": ext})
}

/// Write `doc` as `<name>.gltf` in a temporary folder of this test crate and process.
pub fn write(name: &str, doc: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "physics-cts-{}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, serde_json::to_vec_pretty(doc).expect("json")).expect("write");
    path
}

/// The request loading the `khr-2024-draft` document at `path`.
pub fn request(path: PathBuf) -> LoadRequest {
    LoadRequest {
        path,
        profile: Profile::Khr2024Draft,
    }
}

/// Load `k` into a fresh Rapier adapter with `mutant` (default settings: g = 9.81 down,
/// dt = 1/60).
pub fn load(name: &str, k: &Khr, mutant: Option<Mutant>) -> RapierImplementation {
    load_doc(name, &k.doc(), Profile::Khr2024Draft, mutant)
}

/// Load the `.gltf` `doc` of `profile` into a fresh Rapier adapter with `mutant` (default
/// settings).
pub fn load_doc(
    name: &str,
    doc: &Value,
    profile: Profile,
    mutant: Option<Mutant>,
) -> RapierImplementation {
    let mut imp = RapierImplementation::with_mutant(mutant);
    imp.configure(&SimConfig::default()).expect("configure");
    let path = write(name, doc);
    let outcome = imp.load(&LoadRequest { path, profile }).expect("load");
    assert!(matches!(outcome, LoadOutcome::Loaded { .. }), "{outcome:?}");
    imp
}

/// The state after `steps` more steps.
pub fn stepped(imp: &mut impl Implementation, steps: u32) -> State {
    imp.step(steps).expect("step");
    imp.observe().expect("observe")
}

pub fn node(state: &State, n: usize) -> &NodeState {
    state
        .nodes
        .iter()
        .find(|s| s.node == n)
        .unwrap_or_else(|| panic!("node {n} is not observed: {state:?}"))
}

/// Every `.gltf` and `.glb` under `dir`, recursively, sorted (an unreadable folder adds
/// nothing).
pub fn gltf_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "gltf" || x == "glb") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}
