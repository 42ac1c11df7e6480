//! Valid `vrmc-node-constraint-1.0` scenes: a node forest with `VRMC_node_constraint` roll, aim
//! and rotation constraints (every axis, weight written or defaulted), chains and constrained
//! parents, never a source that is the destination and never a circular dependency
//! ([D-VRM1-ORDER]: a constraint depends on the constraints on its source and the source's
//! ancestors, an aim also on those on its destination's ancestors).
//!
//! The poses turn every unconstrained node by a rotation about an axis with three non-zero
//! components and move it, so a roll sees both a twist and a swing, an aim's direction and its
//! parent both change, and a wrong kind, axis, weight or order moves an output by far more than
//! the tolerance (`tests/vrm1_power.rs` checks it). Of a few candidate poses, those are kept
//! where every output is well conditioned (an aim's source far from its destination, no
//! near-half-turn for a slerp or a from-to rotation), so the pseudocode decides every output.

use std::collections::BTreeSet;

use nalgebra::{UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::decision::Decision;
use reference::profile::Profile;
use reference::scene::{ConstraintKind, NodeConstraint, Scene, Space, Trs};
use reference::vrm1::KEY;
use serde_json::{Map, json};

use super::common::{Rendered, Tags, tag};
use super::forest::{self, ForestNode, ancestors, forest, parents};
use super::transform;
use crate::case::PoseSet;
use crate::doc::{BufferMode, DocBuilder};
use serde_json::Value;

/// The kind of a VRM 1.0 constraint, with its axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind1 {
    /// Roll about X, Y or Z (0, 1, 2).
    Roll(usize),
    /// Aim along PositiveX, NegativeX, ..., NegativeZ (0..6).
    Aim(usize),
    Rotation,
}

pub const ROLL_AXES: [&str; 3] = ["X", "Y", "Z"];
pub const AIM_AXES: [&str; 6] = [
    "PositiveX",
    "NegativeX",
    "PositiveY",
    "NegativeY",
    "PositiveZ",
    "NegativeZ",
];

impl Kind1 {
    pub fn name(self) -> &'static str {
        match self {
            Kind1::Roll(_) => "roll",
            Kind1::Aim(_) => "aim",
            Kind1::Rotation => "rotation",
        }
    }

    /// The canonical kind the reference reads it as.
    pub fn canonical(self) -> ConstraintKind {
        match self {
            Kind1::Roll(a) => ConstraintKind::Roll {
                roll_axis: Vector3::ith(a, 1.0),
            },
            Kind1::Aim(a) => {
                let sign = if a % 2 == 0 { 1.0 } else { -1.0 };
                ConstraintKind::AimAxis {
                    aim_axis: Vector3::ith(a / 2, sign),
                }
            }
            Kind1::Rotation => ConstraintKind::Rotation {
                freeze_axes: [true; 3],
            },
        }
    }

    /// Whether it reads its destination's ancestors (model space).
    pub fn is_aim(self) -> bool {
        matches!(self, Kind1::Aim(_))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Constraint1 {
    pub destination: usize,
    pub source: usize,
    pub kind: Kind1,
    /// `None`: omitted (default 1).
    pub weight: Option<f64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Vrm1Scene {
    pub nodes: Vec<ForestNode>,
    pub constraints: Vec<Constraint1>,
}

fn kind() -> impl Strategy<Value = Kind1> + Clone {
    prop_oneof![
        (0usize..3).prop_map(Kind1::Roll),
        (0usize..6).prop_map(Kind1::Aim),
        Just(Kind1::Rotation),
    ]
}

/// Weights: omitted, 0, 1, or a fraction in [0.25, 0.75] (far from both ends, so a weight read
/// as 0 or 1 shows).
fn weight() -> impl Strategy<Value = Option<f64>> + Clone {
    prop_oneof![
        Just(None),
        Just(Some(0.0)),
        Just(Some(1.0)),
        (5i32..=15).prop_map(|k| Some(f64::from(k) / 20.0)),
    ]
}

pub fn scene() -> impl Strategy<Value = Vrm1Scene> {
    scene_of(3..=9)
}

/// Valid VRM 1.0 scenes with a number of nodes in `nodes`.
pub fn scene_of(nodes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Vrm1Scene> {
    (
        forest(nodes),
        prop::collection::vec(
            (0usize..16, 0usize..16, kind(), weight()).prop_map(
                |(destination, source, kind, weight)| Constraint1 {
                    destination,
                    source,
                    kind,
                    weight,
                },
            ),
            1..=5,
        ),
    )
        .prop_map(|(nodes, constraints)| Vrm1Scene { nodes, constraints })
}

/// The nodes a constraint reads the constraints of [D-VRM1-ORDER].
fn reads(parents: &[Option<usize>], d: usize, s: usize, kind: Kind1) -> Vec<usize> {
    let mut v = vec![s];
    v.extend(ancestors(parents, s));
    if kind.is_aim() {
        v.extend(ancestors(parents, d));
    }
    v
}

/// Whether the constraints `(destination, source, kind)` have no circular dependency (a
/// constraint reading its own destination is one).
fn acyclic(parents: &[Option<usize>], cs: &[(usize, usize, Kind1)]) -> bool {
    let deps: Vec<Vec<usize>> = cs
        .iter()
        .map(|&(d, s, k)| {
            let r = reads(parents, d, s, k);
            (0..cs.len()).filter(|&j| r.contains(&cs[j].0)).collect()
        })
        .collect();
    forest::acyclic(&deps)
}

/// The constraints that survive the validity rules, in order: one per destination, source not
/// the destination, no circular dependency. Never empty. A constraint of weight 0 leaves its
/// destination at rest, so no constraint reads one: a constraint reading it could not show its
/// own kind, axis or weight, nor an evaluation order, under any pose. Nor does a roll or a
/// rotation read a rolled node: that node only twists about its roll axis, which a reading roll
/// may see as no twist at all (axes perpendicular in its frame), and a reading rotation copies
/// exactly as a roll about that axis would, whatever the pose.
pub fn resolve(scene: &Vrm1Scene) -> Vec<(usize, usize, &Constraint1)> {
    let n = scene.nodes.len();
    let parents = parents(&scene.nodes);
    let mut kept: Vec<(usize, usize, &Constraint1)> = Vec::new();
    for c in &scene.constraints {
        let (d, s) = (c.destination % n, c.source % n);
        if s == d || kept.iter().any(|k| k.0 == d) {
            continue;
        }
        let reads_still = kept
            .iter()
            .any(|k| k.2.weight == Some(0.0) && reads(&parents, d, s, c.kind).contains(&k.0));
        let read_while_still = c.weight == Some(0.0)
            && kept
                .iter()
                .any(|k| reads(&parents, k.0, k.1, k.2.kind).contains(&d));
        // A roll or rotation reads its source's local rotation; never that of a rolled node.
        let is_roll = |k: &Kind1| matches!(k, Kind1::Roll(_));
        let twist_read = kept.iter().any(|k| {
            (is_roll(&k.2.kind) && !c.kind.is_aim() && k.0 == s)
                || (is_roll(&c.kind) && !k.2.kind.is_aim() && k.1 == d)
        });
        if reads_still || read_while_still || twist_read {
            continue;
        }
        let mut trial: Vec<(usize, usize, Kind1)> =
            kept.iter().map(|k| (k.0, k.1, k.2.kind)).collect();
        trial.push((d, s, c.kind));
        if acyclic(&parents, &trial) {
            kept.push((d, s, c));
        }
    }
    if kept.is_empty()
        && let Some(c) = scene.constraints.first()
    {
        // A rotation between the last node and the first is always legal (the first node is
        // never below the last).
        kept.push((n - 1, 0, c));
    }
    kept
}

/// The reference scene of a generated one, at rest (for choosing poses).
fn reference_scene(scene: &Vrm1Scene, kept: &[(usize, usize, &Constraint1)]) -> Scene {
    let parents = parents(&scene.nodes);
    let nodes: Vec<(Option<usize>, Trs)> = scene
        .nodes
        .iter()
        .zip(&parents)
        .map(|(n, &p)| {
            (
                p,
                Trs {
                    translation: Vector3::from(n.translation),
                    rotation: transform::unit(n.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0])),
                    scale: Vector3::new(1.0, 1.0, 1.0),
                },
            )
        })
        .collect();
    let mut s = Scene::from_parents(Profile::VrmcNodeConstraint10, &nodes);
    s.constraints = kept
        .iter()
        .map(|&(d, src, c)| {
            let space = if c.kind.is_aim() {
                Space::Model
            } else {
                Space::Local
            };
            NodeConstraint {
                node: d,
                source: src,
                source_space: space,
                destination_space: space,
                weight: c.weight.unwrap_or(1.0),
                kind: c.kind.canonical(),
            }
        })
        .collect();
    s
}

/// Axes of the pose rotations: three non-zero components each.
const POSE_AXES: [[f64; 3]; 4] = [
    [1.0, 2.0, 3.0],
    [-2.0, 1.0, 1.5],
    [1.5, -1.0, 2.0],
    [2.0, 1.5, -1.0],
];

/// One candidate pose: every unconstrained node turned by `deg` about an axis (varying with the
/// node) on the left of its rest rotation and moved by an offset.
fn candidate(
    scene: &Vrm1Scene,
    constrained: &BTreeSet<usize>,
    k: usize,
    deg: f64,
) -> Map<String, serde_json::Value> {
    let mut m = Map::new();
    for (i, n) in scene.nodes.iter().enumerate() {
        if constrained.contains(&i) {
            continue;
        }
        let axis = POSE_AXES[(i + k) % POSE_AXES.len()];
        let r = transform::unit(n.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]));
        let turn = transform::unit(transform::quat(axis, deg)) * r;
        let t = n.translation;
        let shift = [0.5, -0.25, 0.375][(i + k) % 3];
        m.insert(
            i.to_string(),
            json!({
                "translation": [t[0] + shift, t[1] - shift / 2.0, t[2] + 0.25],
                "rotation": transform::xyzw(&turn),
            }),
        );
    }
    m
}

/// Whether the outputs at a pose are well conditioned: moving every posed node by 1e-5 (in
/// translation and rotation) moves no output rotation by more than 1e-3 rad, and every aim's
/// source stays at least 0.2 from its destination.
fn well_conditioned(scene: &Scene, pose: &Map<String, serde_json::Value>) -> bool {
    let value = json!({ "nodes": pose });
    let Ok(poses) = reference::poses::Poses::from_value(&value, scene.nodes.len()) else {
        return false;
    };
    let locals = poses.locals(scene);
    let Ok(base) = reference::constraints::evaluate(scene, &locals) else {
        return false;
    };
    let nudge = UnitQuaternion::from_scaled_axis(Vector3::new(1e-5, -1e-5, 1e-5));
    let nudged: Vec<Trs> = locals
        .iter()
        .map(|t| Trs {
            translation: t.translation + Vector3::new(1e-5, 1e-5, -1e-5),
            rotation: nudge * t.rotation,
            scale: t.scale,
        })
        .collect();
    let Ok(moved) = reference::constraints::evaluate(scene, &nudged) else {
        return false;
    };
    let world = |out: &[Trs], node: usize| -> Vector3<f64> {
        let mut p = out[node].translation;
        let mut at = node;
        while let Some(parent) = scene.nodes[at].parent {
            p = out[parent].rotation * out[parent].scale.component_mul(&p)
                + out[parent].translation;
            at = parent;
        }
        p
    };
    scene.constraints.iter().all(|c| {
        let stable = base[c.node].rotation.angle_to(&moved[c.node].rotation) < 1e-3;
        let apart = !matches!(c.kind, ConstraintKind::AimAxis { .. })
            || (world(&base, c.source) - world(&base, c.node)).norm() > 0.2;
        stable && apart
    })
}

/// Whether every pose of a written VRM 1.0 case is well conditioned ([`well_conditioned`]) as
/// the reference reads the document: the check of `render`, redone when the corpus edition
/// changes the scene (scales).
pub fn poses_well_conditioned(json: &Value, poses: &[PoseSet]) -> bool {
    let reading = reference::read_tree(json, None, Some(Profile::VrmcNodeConstraint10));
    let Some(scene) = reading.scene else {
        return false;
    };
    poses.iter().all(|p| {
        p.poses
            .get("nodes")
            .and_then(Value::as_object)
            .is_some_and(|pose| well_conditioned(&scene, pose))
    })
}

pub fn render(scene: &Vrm1Scene, stem: &str) -> Rendered {
    let mut doc = DocBuilder::new(stem, BufferMode::DataUri);
    let parents = parents(&scene.nodes);
    forest::write(&mut doc, &scene.nodes, &parents);
    let kept = resolve(scene);
    let mut tags = Tags::new();
    let mut decisions: BTreeSet<Decision> = [Decision::Vrm1Order].into();
    let constrained: BTreeSet<usize> = kept.iter().map(|c| c.0).collect();
    for &(d, s, c) in &kept {
        let mut body = Map::new();
        body.insert("source".into(), Value::from(s));
        match c.kind {
            Kind1::Roll(a) => {
                body.insert("rollAxis".into(), Value::from(ROLL_AXES[a]));
                tag(
                    &mut tags,
                    &["vrm1", "roll", &ROLL_AXES[a].to_ascii_lowercase()],
                );
                decisions.insert(Decision::Vrm1Roll);
            }
            Kind1::Aim(a) => {
                body.insert("aimAxis".into(), Value::from(AIM_AXES[a]));
                tag(
                    &mut tags,
                    &["vrm1", "aim", &AIM_AXES[a].to_ascii_lowercase()],
                );
                decisions.insert(Decision::Vrm1Aim);
            }
            Kind1::Rotation => {
                tag(&mut tags, &["vrm1", "rotation"]);
                decisions.insert(Decision::Vrm1Rotation);
            }
        }
        if let Some(w) = c.weight {
            body.insert("weight".into(), Value::from(w));
        }
        let weight = match c.weight {
            None => "default",
            Some(0.0) => "zero",
            Some(1.0) => "one",
            Some(_) => "partial",
        };
        tag(&mut tags, &["vrm1", "weight", weight]);
        let mut constraint = Map::new();
        constraint.insert(c.kind.name().into(), Value::from(body));
        let mut ext = Map::new();
        ext.insert("specVersion".into(), Value::from("1.0"));
        ext.insert("constraint".into(), Value::from(constraint));
        doc.node_extension(d, KEY, ext);
        let reads_constrained = reads(&parents, d, s, c.kind)
            .iter()
            .any(|x| constrained.contains(x));
        if reads_constrained {
            tag(&mut tags, &["vrm1", "chain"]);
        }
        if parents[d] == Some(s) {
            tag(&mut tags, &["vrm1", "source-parent"]);
        }
        if ancestors(&parents, d)
            .iter()
            .any(|x| constrained.contains(x))
        {
            tag(&mut tags, &["vrm1", "constrained-parent"]);
        }
    }
    let reference = reference_scene(scene, &kept);
    let mut poses = Vec::new();
    for (k, deg) in [(0usize, 40.0), (1, -55.0), (2, 70.0), (3, -35.0), (4, 25.0)] {
        if poses.len() == 2 {
            break;
        }
        let pose = candidate(scene, &constrained, k, deg);
        if well_conditioned(&reference, &pose) {
            let name = if poses.is_empty() {
                "turned"
            } else {
                "turned-more"
            };
            poses.push(PoseSet::of_nodes(name, pose));
        }
    }
    let summary = format!(
        "{} nodes, {} constraints, {} well-conditioned poses",
        scene.nodes.len(),
        kept.len(),
        poses.len()
    );
    Rendered::plain(doc.finish(), tags, decisions, poses, summary)
}

pub fn universe(tags: &mut Tags) {
    for a in ROLL_AXES {
        tags.insert(format!("vrm1.roll.{}", a.to_ascii_lowercase()));
    }
    for a in AIM_AXES {
        tags.insert(format!("vrm1.aim.{}", a.to_ascii_lowercase()));
    }
    tags.insert("vrm1.rotation".into());
    for w in ["default", "zero", "one", "partial"] {
        tags.insert(format!("vrm1.weight.{w}"));
    }
    tags.insert("vrm1.chain".into());
    tags.insert("vrm1.source-parent".into());
    tags.insert("vrm1.constrained-parent".into());
}
