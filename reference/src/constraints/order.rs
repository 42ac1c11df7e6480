//! Evaluation order of constraints [D-VRM-ORDER]: a constraint runs after every constraint that
//! moves its source, one of its source's ancestors, or (model-space destination) one of its own
//! ancestors, because those change what it reads.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::ConstraintError;
use crate::scene::{NodeId, Scene, Space};

/// Ancestors of `node`, nearest first, bounded by the node count so a corrupt hierarchy (a parent
/// cycle) can never loop forever.
pub(crate) fn ancestors(scene: &Scene, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let n = scene.nodes.len();
    std::iter::successors(scene.nodes.get(node).and_then(|x| x.parent), move |&p| {
        scene.nodes.get(p).and_then(|x| x.parent)
    })
    .take(n)
}

/// Whether `node` is strictly below `ancestor` (bounded walk).
pub fn is_below(scene: &Scene, node: NodeId, ancestor: NodeId) -> bool {
    ancestors(scene, node).any(|a| a == ancestor)
}

/// For each constraint of `scene.constraints`, the indices of the constraints it depends on
/// (sorted, without duplicates). A constraint may depend on itself (its source is its
/// destination or below it): that is a cycle of one.
pub fn dependencies(scene: &Scene) -> Result<Vec<Vec<usize>>, ConstraintError> {
    let count = scene.nodes.len();
    let mut by_node: Vec<Vec<usize>> = vec![Vec::new(); count];
    for (i, c) in scene.constraints.iter().enumerate() {
        for node in [c.node, c.source] {
            if node >= count {
                return Err(ConstraintError::NodeOutOfRange {
                    constraint: i,
                    node,
                    count,
                });
            }
        }
        by_node[c.node].push(i);
    }
    let mut deps = Vec::with_capacity(scene.constraints.len());
    for c in &scene.constraints {
        let mut read: Vec<usize> = Vec::new();
        let mut add = |node: NodeId| read.extend_from_slice(&by_node[node]);
        add(c.source);
        ancestors(scene, c.source).for_each(&mut add);
        if c.destination_space == Space::Model {
            ancestors(scene, c.node).for_each(&mut add);
        }
        read.sort_unstable();
        read.dedup();
        deps.push(read);
    }
    Ok(deps)
}

/// The dependency cycles among the constraints: each strongly connected component with more
/// than one constraint, or one constraint that depends on itself. Each cycle lists constraint
/// indices in increasing order; cycles are ordered by their smallest index.
pub fn cycles(scene: &Scene) -> Result<Vec<Vec<usize>>, ConstraintError> {
    let deps = dependencies(scene)?;
    let mut out: Vec<Vec<usize>> = strongly_connected(&deps)
        .into_iter()
        .filter(|c| c.len() > 1 || deps[c[0]].contains(&c[0]))
        .collect();
    out.sort();
    Ok(out)
}

/// Order constraints so each runs after those it depends on; `Err` on a cycle. Among
/// constraints that are ready together, the lower index runs first (a deterministic order;
/// outputs do not depend on it, since independent constraints do not read each other).
pub fn order(scene: &Scene) -> Result<Vec<usize>, ConstraintError> {
    let deps = dependencies(scene)?;
    let n = deps.len();
    let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (c, ds) in deps.iter().enumerate() {
        for &d in ds {
            dependents[d].push(c);
        }
    }
    let mut ready: BinaryHeap<Reverse<usize>> =
        (0..n).filter(|&c| waiting[c] == 0).map(Reverse).collect();
    let mut out = Vec::with_capacity(n);
    while let Some(Reverse(c)) = ready.pop() {
        out.push(c);
        for &d in &dependents[c] {
            waiting[d] -= 1;
            if waiting[d] == 0 {
                ready.push(Reverse(d));
            }
        }
    }
    if out.len() < n {
        let cycle = strongly_connected(&deps)
            .into_iter()
            .find(|c| c.len() > 1 || deps[c[0]].contains(&c[0]))
            .unwrap_or_default();
        let mut nodes: Vec<NodeId> = cycle.iter().map(|&c| scene.constraints[c].node).collect();
        nodes.sort_unstable();
        nodes.dedup();
        return Err(ConstraintError::Cycle { nodes });
    }
    Ok(out)
}

/// Tarjan's strongly connected components, iterative (no recursion depth limit). Each component
/// is sorted.
fn strongly_connected(graph: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = graph.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<usize> = Vec::new();
    let mut call: Vec<(usize, usize)> = Vec::new(); // (vertex, next edge to look at)
    let mut next = 0;
    let mut out = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        call.push((root, 0));
        while let Some(&(v, edge)) = call.last() {
            if let Some(&w) = graph[v].get(edge) {
                if let Some(top) = call.last_mut() {
                    top.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                component.sort_unstable();
                out.push(component);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_of_a_small_graph() {
        // 0 -> 1 -> 2 -> 0 is one cycle; 3 -> 3 a self loop; 4 -> 0 outside any cycle.
        let g = vec![vec![1], vec![2], vec![0], vec![3], vec![0]];
        let mut c = strongly_connected(&g);
        c.sort();
        assert_eq!(c, vec![vec![0, 1, 2], vec![3], vec![4]]);
    }

    #[test]
    fn long_chain_does_not_overflow_the_stack() {
        let n = 200_000;
        let g: Vec<Vec<usize>> = (0..n).map(|i| vec![(i + 1) % n]).collect();
        let c = strongly_connected(&g);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].len(), n);
    }
}
