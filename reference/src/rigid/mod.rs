//! The reader core that the KHR reader ([`crate::khr`]) and the restructured OMI reader
//! ([`crate::omi24`]) share: both describe rigid bodies with the same objects (motions,
//! materials, filters, triggers with compound members, joint descriptions with limits and
//! drives) under their own extension keys and issue codes. A reader passes its [`Spelling`] and,
//! where its meaning differs, a closure; the rest is read here once so the two cannot drift.
//! Nothing here imports from a reader.

pub mod collider;
pub mod joint;
pub mod json;
pub mod material;
pub mod motion;
pub mod table;
pub mod trigger;

pub use json::{array_length, clean_since, enum_unknown, non_negative};
pub use table::{FileIndex, Table};

use serde_json::{Map, Value};

use crate::document::Document;
use crate::ext::check_properties;
use crate::issue::{Code, Issues, push_pointer};
use crate::scene::{NodeId, VelocitySpace};

/// A node's body extension object, where its `collider`, `trigger` (and KHR's `joint`) are read.
#[derive(Clone, Copy)]
pub struct Site<'a> {
    pub doc: &'a Document<'a>,
    pub node: NodeId,
    pub extension: &'a Map<String, Value>,
    pub pointer: &'a str,
}

impl<'a> Site<'a> {
    /// The sites of the nodes [`collider::read_bodies`] returned, in node order.
    pub fn all(
        doc: &'a Document<'a>,
        nodes: &'a [(NodeId, &'a Map<String, Value>, String)],
    ) -> impl Iterator<Item = Site<'a>> {
        nodes.iter().map(move |(node, extension, pointer)| Site {
            doc,
            node: *node,
            extension,
            pointer,
        })
    }

    /// The object `key` of this node's body extension and its pointer, its properties checked
    /// against `known`; `None` when it is absent or no object (`EXT_TYPE`).
    pub fn member(
        self,
        key: &str,
        (spelling, known): (&Spelling, &[&str]),
        issues: &mut Issues,
    ) -> Option<(&'a Value, String)> {
        let value = self.extension.get(key)?;
        let pointer = push_pointer(self.pointer, key);
        spelling.object(value, &pointer, issues)?;
        check_properties(value, &pointer, known, issues);
        Some((value, pointer))
    }
}

/// How one family writes what the core reads: keys, array names and codes.
#[derive(Clone, Copy, Debug)]
pub struct Spelling {
    /// The node-level extension key that holds `motion`, `collider` and `trigger`.
    pub body: &'static str,
    /// The space a motion's velocities are written in (KHR: the body's own, OMI: the world).
    pub velocity_space: VelocitySpace,
    /// `EXT_TYPE` names the JSON kind found ("expected an object, found a number"), as KHR's
    /// messages do; OMI's say only what was expected.
    pub name_kind: bool,
    /// A document-level array with no items is `EXT_ARRAY_LENGTH` (KHR's `minItems: 1`).
    pub min_one_item: bool,
    /// Both `collideWithSystems` and `notCollideWithSystems` on one filter.
    pub filter_both_lists: Code,
    /// An `inertiaOrientation` far from unit length.
    pub orientation_not_unit: Code,
    /// A trigger with both a shape and `nodes`, or `nodes` with a filter.
    pub trigger_shape_and_nodes: Code,
    /// A trigger with neither a shape nor `nodes`.
    pub trigger_empty: Code,
    /// A compound member that is not a descendant of the trigger's node.
    pub member_not_descendant: Code,
    /// A compound member without a `trigger`.
    pub member_not_trigger: Code,
    /// A compound member listed twice: reported and skipped, or (`None`, KHR's `uniqueItems`)
    /// checked again and kept once.
    pub member_duplicate: Option<Code>,
}

/// Names of the arrays in `INDEX_OUT_OF_RANGE` messages, the same in both families.
pub const MATERIALS_ARRAY: &str = "physicsMaterials";
pub const FILTERS_ARRAY: &str = "collisionFilters";
pub const JOINTS_ARRAY: &str = "physicsJoints";
pub const NODES_ARRAY: &str = "nodes";
