//! `omi24`: reader and rules of the `omi-2024` and `omi-2025` profiles: the OMI physics extensions as
//! restructured by the OMI group (omigroup/gltf-extensions 807ce4b, November 2024, and df53422,
//! the current main) and as Godot 4.x reads and writes them.
//!
//! - `OMI_physics_shape`: document-level `shapes`, each a `type` and the one parameter object it
//!   names. The two revisions differ only here ([`Convention`], [D-OMI-CAPSULE-REVISION]).
//! - `OMI_physics_body`: node-level `motion` / `collider` / `trigger` objects (compound triggers
//!   list `nodes`), document-level `physicsMaterials` and `collisionFilters`.
//! - `OMI_physics_joint`: document-level `physicsJoints` (limits and drives), joint nodes with
//!   `joint`, `connectedNode` and `enableCollision`.
//!
//! What it shares with the KHR reader is read by [`crate::rigid`] under OMI's [`SPELLING`].
//! Mapping rules, as the KHR reader's: every object is read on its own with exact pointers; a
//! document-level object with an error is left out and references to it resolve to nothing
//! without another issue; the presence of `motion` makes a node a body whatever its values.

mod body;
pub mod detect;
mod joint;
mod shape;
#[cfg(test)]
mod tests;

pub use detect::{Detection, detect};

use crate::document::Document;
use crate::issue::{Code, Issues};
use crate::omi::BODY;
use crate::profile::Profile;
use crate::rigid::{JOINTS_ARRAY, NODES_ARRAY, Site, Spelling, Table, clean_since, non_negative};
use crate::scene::{Scene, VelocitySpace};

/// How a revision writes capsules and cylinders: the one difference between the profiles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// `omi-2024`: one `radius`; a capsule's `height` is its full height (default 2).
    Radius,
    /// `omi-2025`: `radiusBottom` and `radiusTop`; a capsule's `height` is the distance between
    /// its cap centres (default 1).
    TopBottom,
}

impl Convention {
    /// The convention of a restructured OMI profile; `None` for any other profile.
    pub fn of(profile: Profile) -> Option<Convention> {
        match profile {
            Profile::Omi2024 => Some(Convention::Radius),
            Profile::Omi2025 => Some(Convention::TopBottom),
            _ => None,
        }
    }

    /// The profile that writes this convention.
    pub fn profile(self) -> Profile {
        match self {
            Convention::Radius => Profile::Omi2024,
            Convention::TopBottom => Profile::Omi2025,
        }
    }
}

/// Read this profile's extensions from `doc` into `scene` under `convention`, pushing every
/// issue found.
pub fn read(doc: &Document, scene: &mut Scene, convention: Convention, issues: &mut Issues) {
    let shapes = shape::read(doc, scene, convention, issues);
    let (materials, filters) = body::read_resources(doc, scene, issues);
    let joints = joint::read_settings(doc, issues);
    let nodes = body::read_bodies(doc, scene, issues);
    let tables = Arrays {
        shapes,
        materials,
        filters,
    };
    for site in Site::all(doc, &nodes) {
        body::read_collider(site, &tables, scene, issues);
        body::read_trigger(site, &tables, scene, issues);
    }
    joint::read_nodes(doc, scene, &joints, issues);
}

/// Every document-level array (as a [`Table`]) a node-level object refers to.
struct Arrays {
    shapes: Table,
    materials: Table,
    filters: Table,
}

/// How OMI writes what [`crate::rigid`] reads.
const SPELLING: Spelling = Spelling {
    body: BODY,
    velocity_space: VelocitySpace::World,
    name_kind: false,
    min_one_item: false,
    filter_both_lists: Code::OmiFilterBothLists,
    orientation_not_unit: Code::OmiInertiaOrientationNotUnit,
    trigger_shape_and_nodes: Code::OmiTriggerShapeAndNodes,
    trigger_empty: Code::OmiTriggerEmpty,
    member_not_descendant: Code::OmiTriggerNodeNotDescendant,
    member_not_trigger: Code::OmiTriggerNodeNotTrigger,
    member_duplicate: Some(Code::OmiTriggerNodeDuplicate),
};

/// The name of the shape array in `INDEX_OUT_OF_RANGE` messages.
const SHAPES_ARRAY: &str = "OMI_physics_shape.shapes";
