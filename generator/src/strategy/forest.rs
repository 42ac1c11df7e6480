//! The node forest both VRM profiles constrain: nodes with raw parent choices resolved so that
//! parents come first, written as plain glTF nodes; and the cycle check of their constraints.

use proptest::prelude::*;

use super::common::dec3;
use super::transform;
use crate::doc::{DocBuilder, TrsSpec};

/// A node of the forest, at its rest pose.
#[derive(Clone, Debug, PartialEq)]
pub struct ForestNode {
    /// Raw parent choice: `Some(k)` makes node `i` a child of node `k % i` (so parents come
    /// first and the hierarchy is a forest).
    pub parent: Option<usize>,
    pub translation: [f64; 3],
    pub rotation: Option<[f64; 4]>,
}

/// A number of nodes in `nodes`.
pub fn forest(
    nodes: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Vec<ForestNode>> + Clone {
    let node = (
        prop::option::weighted(0.7, 0usize..16),
        dec3(-10, 10, 10.0),
        transform::maybe_rotation(),
    )
        .prop_map(|(parent, translation, rotation)| ForestNode {
            parent,
            translation,
            rotation,
        });
    prop::collection::vec(node, nodes)
}

/// Each node's parent, its raw choice `k` resolved to `k % i` (an earlier node: no cycle; the
/// first node is a root).
pub fn parents(nodes: &[ForestNode]) -> Vec<Option<usize>> {
    nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            if i == 0 {
                None
            } else {
                n.parent.map(|k| k % i)
            }
        })
        .collect()
}

/// A node's ancestors, its parent first.
pub fn ancestors(parents: &[Option<usize>], node: usize) -> Vec<usize> {
    std::iter::successors(parents[node], |&p| parents[p]).collect()
}

/// Write the nodes `Node0`, `Node1`... below their `parents`.
pub fn write(doc: &mut DocBuilder, nodes: &[ForestNode], parents: &[Option<usize>]) {
    for (i, n) in nodes.iter().enumerate() {
        let trs = TrsSpec {
            rotation: n.rotation,
            ..TrsSpec::at(n.translation)
        };
        doc.node(format!("Node{i}"), trs, parents[i]);
    }
}

/// Whether constraints whose dependencies are `deps` (for each, the constraints it runs after,
/// by index, maybe more than once) can run in some order (Kahn's algorithm).
pub fn acyclic(deps: &[Vec<usize>]) -> bool {
    let mut indegree: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut ready: Vec<usize> = (0..deps.len()).filter(|&i| indegree[i] == 0).collect();
    let mut done = 0;
    while let Some(i) = ready.pop() {
        done += 1;
        for (j, dj) in deps.iter().enumerate() {
            for _ in dj.iter().filter(|&&x| x == i) {
                indegree[j] -= 1;
                if indegree[j] == 0 {
                    ready.push(j);
                }
            }
        }
    }
    done == deps.len()
}
