//! VRM constraint evaluation throughput, single thread:
//! `cargo bench -p physics-cts-reference --bench constraints`.
//!
//! - `evaluate/*`: the public `constraints::evaluate` on a scene with one constraint (order,
//!   checks, rest quantities and the evaluation itself, every call);
//! - `prepared/*`: one `Evaluator` built once, then `evaluate_into` per pose (what a runtime
//!   does every frame);
//! - `chain_64`: 64 constraints in a dependency chain, counted per constraint.
//!
//! Each scene is a model-space constraint whose source and destination sit under rotated,
//! scaled parents (the costliest path: model matrices and their inverse), posed away from rest.

use divan::Bencher;
use divan::counter::ItemsCount;
use nalgebra::{UnitQuaternion, Vector3};
use reference::constraints::{self, Evaluator};
use reference::profile::Profile;
use reference::scene::{ConstraintKind, NodeConstraint, Scene, Space, Trs};

fn main() {
    divan::main();
}

fn trs(t: [f64; 3], axis: Vector3<f64>, angle: f64, s: f64) -> Trs {
    Trs {
        translation: Vector3::from(t),
        rotation: UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(axis), angle),
        scale: Vector3::new(s, s, s),
    }
}

fn kind(name: &str) -> ConstraintKind {
    match name {
        "position" => ConstraintKind::Position {
            freeze_axes: [true, false, true],
        },
        "rotation" => ConstraintKind::Rotation {
            freeze_axes: [true, true, false],
        },
        _ => ConstraintKind::Aim {
            aim_vector: Vector3::z(),
            up_vector: Vector3::y(),
            freeze_axes: [true, true],
        },
    }
}

/// Parents 0 and 1 (rotated, scaled), source 2 under 0, destination 3 under 1.
fn single(name: &str) -> (Scene, Vec<Trs>) {
    let mut scene = Scene::from_parents(
        Profile::VrmcConstraintsDraft,
        &[
            (
                None,
                trs([0.0, 1.0, 0.0], Vector3::new(1.0, 2.0, 3.0), 0.4, 1.5),
            ),
            (
                None,
                trs([1.0, 0.0, 2.0], Vector3::new(-1.0, 0.5, 0.2), 1.1, 0.8),
            ),
            (
                Some(0),
                trs([0.3, 0.2, 1.0], Vector3::new(0.0, 1.0, 1.0), 0.2, 1.0),
            ),
            (
                Some(1),
                trs([0.0, 0.5, 0.0], Vector3::new(1.0, 0.0, 0.0), 0.7, 1.0),
            ),
        ],
    );
    scene.constraints = vec![NodeConstraint {
        node: 3,
        source: 2,
        source_space: Space::Model,
        destination_space: Space::Model,
        weight: 0.7,
        kind: kind(name),
    }];
    let mut pose: Vec<Trs> = scene.nodes.iter().map(|n| n.rest).collect();
    pose[2] = trs([0.8, -0.4, 1.5], Vector3::new(1.0, 1.0, 0.0), 0.9, 1.0);
    (scene, pose)
}

const KINDS: [&str; 3] = ["position", "rotation", "aim"];

#[divan::bench(args = KINDS)]
fn evaluate(bencher: Bencher, name: &str) {
    let (scene, pose) = single(name);
    bencher
        .counter(ItemsCount::new(1usize))
        .bench(|| constraints::evaluate(divan::black_box(&scene), divan::black_box(&pose)));
}

#[divan::bench(args = KINDS)]
fn prepared(bencher: Bencher, name: &str) {
    let (scene, pose) = single(name);
    let evaluator = Evaluator::new(&scene).expect("valid scene");
    let mut out = Vec::with_capacity(pose.len());
    bencher
        .counter(ItemsCount::new(1usize))
        .bench_local(|| evaluator.evaluate_into(divan::black_box(&pose), &mut out));
}

/// Root 0 moves; node i + 1 follows node i (model/model, alternating kinds), all roots.
#[divan::bench]
fn chain_64(bencher: Bencher) {
    const N: usize = 64;
    let nodes: Vec<(Option<usize>, Trs)> = (0..=N)
        .map(|i| {
            (
                None,
                trs([i as f64, 0.0, 1.0], Vector3::y(), 0.1 * i as f64, 1.0),
            )
        })
        .collect();
    let mut scene = Scene::from_parents(Profile::VrmcConstraintsDraft, &nodes);
    scene.constraints = (0..N)
        .rev()
        .map(|i| NodeConstraint {
            node: i + 1,
            source: i,
            source_space: Space::Model,
            destination_space: Space::Model,
            weight: 0.9,
            kind: kind(KINDS[i % 3]),
        })
        .collect();
    let mut pose: Vec<Trs> = scene.nodes.iter().map(|n| n.rest).collect();
    pose[0] = trs([0.5, 0.5, 0.5], Vector3::x(), 0.3, 1.0);
    let evaluator = Evaluator::new(&scene).expect("valid scene");
    let mut out = Vec::with_capacity(pose.len());
    bencher
        .counter(ItemsCount::new(N))
        .bench_local(|| evaluator.evaluate_into(divan::black_box(&pose), &mut out));
}
