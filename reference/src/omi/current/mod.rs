//! Reader and rules of the `omi-2024` and `omi-2025` profiles: the OMI physics extensions as
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
use crate::issue::{Code, Issue, Issues, Severity, push_pointer};
use crate::profile::Profile;
use crate::scene::Scene;
use serde_json::{Map, Value};

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
    let resources = body::read_resources(doc, scene, issues);
    let joints = joint::read_settings(doc, issues);
    let nodes = body::read_bodies(doc, scene, issues);
    let tables = Tables {
        shapes,
        materials: resources.materials,
        filters: resources.filters,
    };
    for (node, object, pointer) in &nodes {
        body::read_collider(doc, scene, *node, object, pointer, &tables, issues);
        body::read_trigger(doc, scene, *node, object, pointer, &tables, issues);
    }
    joint::read_nodes(doc, scene, &joints, issues);
}

/// Every document-level table a node-level object refers to.
struct Tables {
    shapes: Table,
    materials: Table,
    filters: Table,
}

/// A document-level array as read: its length in the file (`None`: unreadable, references are
/// not checked) and, per file index, the canonical id (`None`: left out because of an error).
#[derive(Debug, Clone, Default)]
struct Table {
    len: Option<usize>,
    ids: Vec<Option<usize>>,
}

impl Table {
    fn empty() -> Table {
        Table {
            len: Some(0),
            ids: Vec::new(),
        }
    }

    /// The canonical id behind a file index. `-1` (the schemas' default) means none, silently;
    /// any other index past the end (or negative) is `INDEX_OUT_OF_RANGE` at `pointer`.
    fn resolve(
        &self,
        index: i64,
        array: &str,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<usize> {
        if index == -1 {
            return None;
        }
        let len = self.len?;
        match usize::try_from(index).ok().filter(|&i| i < len) {
            Some(i) => self.ids.get(i).copied().flatten(),
            None => {
                issues.push(
                    Issue::new(Code::IndexOutOfRange, pointer)
                        .arg("index", index)
                        .arg("array", array)
                        .arg("length", len),
                );
                None
            }
        }
    }
}

/// `value` as a JSON object, or `EXT_TYPE` at `pointer`.
fn object<'a>(
    value: &'a Value,
    pointer: &str,
    issues: &mut Issues,
) -> Option<&'a Map<String, Value>> {
    let object = value.as_object();
    if object.is_none() {
        issues.push(Issue::new(Code::ExtType, pointer).arg("detail", "expected an object"));
    }
    object
}

/// The array `object[key]` (at `pointer/key`): absent is empty, not an array is `EXT_TYPE` and
/// `None`.
fn array<'a>(
    object: &'a Map<String, Value>,
    pointer: &str,
    key: &str,
    issues: &mut Issues,
) -> Option<(&'a [Value], String)> {
    let at = push_pointer(pointer, key);
    match object.get(key) {
        None => Some((&[], at)),
        Some(Value::Array(list)) => Some((list, at)),
        Some(_) => {
            issues.push(Issue::new(Code::ExtType, &at).arg("detail", "expected an array"));
            None
        }
    }
}

/// `VALUE_OUT_OF_RANGE` at `pointer` when `value` is below 0; whether it is not.
fn non_negative(value: f64, pointer: String, issues: &mut Issues) -> bool {
    if value < 0.0 {
        issues.push(
            Issue::new(Code::ValueOutOfRange, pointer)
                .arg("value", value)
                .arg("range", "minimum 0"),
        );
        false
    } else {
        true
    }
}

/// Whether no error was pushed since `mark` (a length of `issues` taken earlier).
fn clean_since(issues: &Issues, mark: usize) -> bool {
    !issues.0[mark..]
        .iter()
        .any(|i| i.severity == Severity::Error)
}

/// Names of the arrays in `INDEX_OUT_OF_RANGE` messages.
const SHAPES_ARRAY: &str = "OMI_physics_shape.shapes";
const MATERIALS_ARRAY: &str = "physicsMaterials";
const FILTERS_ARRAY: &str = "collisionFilters";
const JOINTS_ARRAY: &str = "physicsJoints";
const NODES_ARRAY: &str = "nodes";
