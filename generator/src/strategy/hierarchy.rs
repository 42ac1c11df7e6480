//! Where things sit in the node hierarchy: a collider or trigger on the body node itself, on a
//! child, or on an indirect descendant (through a plain intermediate node); and a grid that
//! places independent groups farther apart than their bounding spheres, so no two bodies
//! interpenetrate at rest.

use nalgebra::Isometry3;
use proptest::prelude::*;

use super::common::{Tags, dec3, tag};
use super::transform;
use crate::doc::{DocBuilder, TrsSpec};

/// Where an attached item sits relative to its owner node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Placement {
    OnNode,
    Child,
    Descendant,
}

impl Placement {
    pub fn tag(self) -> &'static str {
        match self {
            Placement::OnNode => "on-body",
            Placement::Child => "child",
            Placement::Descendant => "descendant",
        }
    }
}

/// An item (shape, trigger...) attached below an owner node.
#[derive(Clone, Debug, PartialEq)]
pub struct Attached<T> {
    pub item: T,
    pub placement: Placement,
    pub offset: [f64; 3],
    pub rotation: Option<[f64; 4]>,
    /// Transform of the intermediate node of a `Descendant`.
    pub mid_offset: [f64; 3],
    pub mid_rotation: Option<[f64; 4]>,
}

pub fn attached<T: std::fmt::Debug + Clone + 'static>(
    item: impl Strategy<Value = T> + Clone + 'static,
) -> impl Strategy<Value = Attached<T>> + Clone {
    (
        item,
        prop::sample::select(vec![
            Placement::OnNode,
            Placement::Child,
            Placement::Descendant,
        ]),
        dec3(-5, 5, 10.0),
        transform::maybe_rotation(),
        dec3(-3, 3, 10.0),
        transform::maybe_rotation(),
    )
        .prop_map(
            |(item, placement, offset, rotation, mid_offset, mid_rotation)| Attached {
                item,
                placement,
                offset,
                rotation,
                mid_offset,
                mid_rotation,
            },
        )
        .boxed()
}

impl<T> Attached<T> {
    /// Distance from the owner's origin to this item's origin, at most; `on_owner`: an
    /// `OnNode` item is on the owner's node (else it gets a node of its own at its offset).
    pub fn reach(&self, on_owner: bool) -> f64 {
        let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        match self.placement {
            Placement::OnNode if on_owner => 0.0,
            Placement::OnNode | Placement::Child => norm(self.offset),
            Placement::Descendant => norm(self.offset) + norm(self.mid_offset),
        }
    }

    /// Create the node(s) for this item below `owner` (or use `owner` itself for `OnNode`
    /// when `owner_free`), returning the node that carries the item; `name` is formatted only
    /// for the nodes made.
    pub fn place(
        &self,
        doc: &mut DocBuilder,
        owner: usize,
        owner_free: bool,
        name: std::fmt::Arguments,
    ) -> usize {
        let trs = TrsSpec {
            rotation: self.rotation,
            ..TrsSpec::at(self.offset)
        };
        match self.placement {
            Placement::OnNode if owner_free => owner,
            Placement::OnNode | Placement::Child => {
                doc.node(std::fmt::format(name), trs, Some(owner))
            }
            Placement::Descendant => {
                let mid = doc.node(
                    format!("{name}Group"),
                    TrsSpec {
                        rotation: self.mid_rotation,
                        ..TrsSpec::at(self.mid_offset)
                    },
                    Some(owner),
                );
                doc.node(std::fmt::format(name), trs, Some(mid))
            }
        }
    }

    /// The effective placement once rendered (a second `OnNode` item becomes a child).
    pub fn effective(&self, owner_free: bool) -> Placement {
        match self.placement {
            Placement::OnNode if !owner_free => Placement::Child,
            p => p,
        }
    }
}

/// Tag where a collider sits: `collider.on-body|child|descendant`.
pub fn placement_tag(tags: &mut Tags, what: &str, placement: Placement) {
    tag(tags, &[what, placement.tag()]);
}

/// Grid positions for groups with bounding radii `radii`: cells are squares of side
/// `2 * max(radius) + 1` metres, so spheres of neighbouring cells never touch.
pub fn grid(radii: &[f64]) -> Vec<[f64; 3]> {
    let max = radii.iter().copied().fold(0.0, f64::max);
    let spacing = (2.0 * max + 1.0).ceil();
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss
    )]
    let columns = (radii.len() as f64).sqrt().ceil().max(1.0) as usize;
    (0..radii.len())
        .map(|i| {
            #[allow(clippy::cast_precision_loss)]
            let (col, row) = ((i % columns) as f64, (i / columns) as f64);
            [col * spacing, spacing / 2.0, row * spacing]
        })
        .collect()
}

/// Where a nested body sits in its parent's frame, from the two bodies' bounding radii: above
/// every part of the parent.
pub fn nested_offset(parent_radius: f64, nested_radius: f64) -> [f64; 3] {
    [0.0, (parent_radius + nested_radius + 0.5).ceil(), 0.0]
}

/// A node named `name` at world pose `world`, below `parent` (its node and world pose) or a root.
pub fn frame_node(
    doc: &mut DocBuilder,
    name: String,
    world: &Isometry3<f64>,
    parent: Option<(usize, Isometry3<f64>)>,
) -> usize {
    let (t, r) = match parent {
        Some((_, parent_world)) => transform::parts(&transform::relative(&parent_world, world)),
        None => transform::parts(world),
    };
    let trs = TrsSpec {
        rotation: r,
        ..TrsSpec::at(t)
    };
    doc.node(name, trs, parent.map(|p| p.0))
}

pub fn universe(tags: &mut Tags, what: &str) {
    for p in [Placement::OnNode, Placement::Child, Placement::Descendant] {
        placement_tag(tags, what, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_are_wider_than_two_radii() {
        let radii = [0.5, 1.2, 0.3, 0.9, 0.1];
        let cells = grid(&radii);
        for i in 0..cells.len() {
            for j in i + 1..cells.len() {
                let d: f64 = (0..3)
                    .map(|k| (cells[i][k] - cells[j][k]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(d > radii[i] + radii[j], "{i} {j} {d}");
            }
        }
        // 5 groups: 3 columns, spacing ceil(2 * 1.2 + 1) = 4.
        assert_eq!(cells[4], [4.0, 2.0, 4.0]);
    }
}
