//! Valid `vrmc-constraints-draft` scenes: a node forest with VRMC_constraints-1.0 constraints,
//! including chains (a source that is itself constrained) and constrained parents, never a
//! source that is the destination, its parent or below it, and never a dependency cycle
//! ([D-VRM-ORDER]).

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use reference::decision::Decision;
use reference::vrm::KEY;
use serde_json::{Map, json};

use super::common::{Rendered, Tags, tag};
use super::constraint::{ConstraintSpec, DraftKind, constraint};
use super::forest::{self, ForestNode, ancestors, forest, parents};
use super::transform;
use crate::case::PoseSet;
use crate::doc::{BufferMode, DocBuilder};

#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintUse {
    pub destination: usize,
    pub source: usize,
    pub spec: ConstraintSpec,
}

#[derive(Clone, Debug, PartialEq)]
pub struct VrmScene {
    pub nodes: Vec<ForestNode>,
    pub constraints: Vec<ConstraintUse>,
}

pub fn scene() -> impl Strategy<Value = VrmScene> {
    scene_of(3..=10)
}

/// Valid VRM scenes with a number of nodes in `nodes`.
pub fn scene_of(nodes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = VrmScene> {
    (
        forest(nodes),
        prop::collection::vec(
            (0usize..16, 0usize..16, constraint(DraftKind::ALL.to_vec())).prop_map(
                |(destination, source, spec)| ConstraintUse {
                    destination,
                    source,
                    spec,
                },
            ),
            1..=6,
        ),
    )
        .prop_map(|(nodes, constraints)| VrmScene { nodes, constraints })
}

/// The constraints that survive the validity rules, as (destination, source, spec), in order.
pub fn resolve(scene: &VrmScene) -> Vec<(usize, usize, &ConstraintSpec)> {
    let n = scene.nodes.len();
    let parents = parents(&scene.nodes);
    let mut kept: Vec<(usize, usize, &ConstraintSpec)> = Vec::new();
    for c in &scene.constraints {
        let (d, s) = (c.destination % n, c.source % n);
        let bad = s == d
            || parents[d] == Some(s)
            || ancestors(&parents, s).contains(&d)
            || kept.iter().any(|k| k.0 == d);
        if bad {
            continue;
        }
        let mut trial = kept.clone();
        trial.push((d, s, &c.spec));
        if acyclic(&parents, &trial) {
            kept = trial;
        }
    }
    if kept.is_empty() {
        // Always keep one: the first legal (destination, source) pair, with the first spec.
        let legal = (0..n)
            .rev()
            .flat_map(|d| (0..n).map(move |s| (d, s)))
            .find(|&(d, s)| {
                s != d && parents[d] != Some(s) && !ancestors(&parents, s).contains(&d)
            });
        if let (Some((d, s)), Some(c)) = (legal, scene.constraints.first()) {
            kept.push((d, s, &c.spec));
        }
    }
    kept
}

/// Dependencies (conservative superset of [D-VRM-ORDER]): a constraint on `d` with source `s`
/// runs after every constraint on `s`, on an ancestor of `s`, or on an ancestor of `d`.
fn acyclic(parents: &[Option<usize>], cs: &[(usize, usize, &ConstraintSpec)]) -> bool {
    let on: BTreeMap<usize, usize> = cs.iter().enumerate().map(|(i, c)| (c.0, i)).collect();
    let deps: Vec<Vec<usize>> = cs
        .iter()
        .map(|&(d, s, _)| {
            std::iter::once(s)
                .chain(ancestors(parents, s))
                .chain(ancestors(parents, d))
                .filter_map(|n| on.get(&n).copied())
                .collect()
        })
        .collect();
    forest::acyclic(&deps)
}

pub fn render(scene: &VrmScene, stem: &str) -> Rendered {
    let mut doc = DocBuilder::new(stem, BufferMode::DataUri);
    let parents = parents(&scene.nodes);
    forest::write(&mut doc, &scene.nodes, &parents);
    let kept = resolve(scene);
    let mut tags = Tags::new();
    let mut decisions: BTreeSet<Decision> = [Decision::VrmRest, Decision::VrmOrder].into();
    let constrained: BTreeSet<usize> = kept.iter().map(|c| c.0).collect();
    for &(d, s, spec) in &kept {
        doc.node_extension(d, KEY, spec.render(s));
        spec.tags(&mut tags);
        decisions.insert(match spec.kind {
            DraftKind::Position => Decision::VrmPosition,
            DraftKind::Rotation => Decision::VrmRotation,
            DraftKind::Aim => Decision::VrmAim,
        });
        if spec.weight.is_some_and(|w| w > 0.0 && w < 1.0) || spec.kind == DraftKind::Aim {
            decisions.insert(Decision::VrmRange);
        }
        if std::iter::once(s)
            .chain(ancestors(&parents, s))
            .any(|x| constrained.contains(&x))
        {
            tag(&mut tags, &["vrm", "chain"]);
        }
        if ancestors(&parents, d)
            .iter()
            .any(|x| constrained.contains(x))
        {
            tag(&mut tags, &["vrm", "constrained-parent"]);
        }
    }
    // Poses move every source that is not itself constrained.
    let sources: BTreeSet<usize> = kept
        .iter()
        .map(|c| c.1)
        .filter(|s| !constrained.contains(s))
        .collect();
    let mut p1 = Map::new();
    let mut p2 = Map::new();
    for &s in &sources {
        let n = &scene.nodes[s];
        let t = n.translation;
        let r = transform::unit(n.rotation.unwrap_or([0.0, 0.0, 0.0, 1.0]));
        let turn = |axis: [f64; 3], deg: f64| {
            transform::xyzw(&(transform::unit(transform::quat(axis, deg)) * r))
        };
        p1.insert(s.to_string(), json!({"translation": [t[0] + 0.3, t[1], t[2] - 0.2], "rotation": turn([0.0, 1.0, 0.0], 30.0)}));
        p2.insert(s.to_string(), json!({"translation": [t[0], t[1] + 0.5, t[2] + 0.25], "rotation": turn([1.0, 0.0, 1.0], -45.0)}));
    }
    let poses = vec![
        PoseSet::of_nodes("moved", p1),
        PoseSet::of_nodes("moved-more", p2),
    ];
    let summary = format!("{} nodes, {} constraints", scene.nodes.len(), kept.len());
    Rendered::plain(doc.finish(), tags, decisions, poses, summary)
}

pub fn universe(tags: &mut Tags) {
    super::constraint::universe(tags);
    tags.insert("vrm.chain".into());
    tags.insert("vrm.constrained-parent".into());
}
