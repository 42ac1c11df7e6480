//! Reader and rules of the `khr-2024-draft` profile: KHR_physics_rigid_bodies (seed 002, March
//! 2024 draft) with KHR_collision_shapes, read into the canonical [`Scene`].
//!
//! Reading order: the document-level arrays first (shapes, materials, filters, joint
//! descriptions), then every node's `motion` (so that owning bodies are known), then every
//! node's `collider`, `trigger` and `joint`.
//!
//! Mapping rules (see the module docs of each part for the details):
//! - Every object is read on its own: its issues carry exact pointers and never hide another
//!   object's issues.
//! - A document-level object (shape, material, filter, joint description) with any error is left
//!   out of the scene; a reference to it resolves to nothing without another issue (a collider on
//!   a left-out shape is dropped, a material or filter reference becomes `None`, a joint on a
//!   left-out description is dropped). Warnings (unknown open-enum values, unexpected properties)
//!   do not leave the object out. A node-level collider, trigger or joint with any error is
//!   dropped the same way.
//! - The presence of `motion` makes a node a body, whatever its values: ownership of colliders
//!   and joint frames never depends on whether a value is valid. An invalid motion value is read
//!   as absent.

mod bodies;
mod joints;
mod materials;
mod shapes;
#[cfg(test)]
mod tests;

use crate::json::{Map, Value};

use crate::document::Document;
use crate::issue::{Code, Issue, Issues, Severity, Token, push_pointer};
use crate::scene::Scene;

/// The node-level and document-level key of the rigid-body extension.
pub const RIGID_BODIES: &str = "KHR_physics_rigid_bodies";
/// The document-level key of the shape extension.
pub const COLLISION_SHAPES: &str = "KHR_collision_shapes";

/// Read this profile's extensions from `doc` into `scene`, pushing every issue found.
pub fn read(doc: &Document, scene: &mut Scene, issues: &mut Issues) {
    let shapes = shapes::read(doc, scene, issues);
    let resources = read_resources(doc, scene, issues);
    let nodes = bodies::read_bodies(doc, scene, issues);
    let tables = Tables {
        shapes,
        materials: resources.materials,
        filters: resources.filters,
        joints: resources.joints,
    };
    for (node, object, pointer) in &nodes {
        bodies::read_collider(*node, object, pointer, &tables, scene, issues);
        bodies::read_trigger(doc, *node, object, pointer, &tables, scene, issues);
        joints::read_node_joint(*node, object, pointer, &tables, scene, issues);
    }
}

/// What the document-level `KHR_physics_rigid_bodies` object gave.
struct Resources {
    materials: Table,
    filters: Table,
    joints: joints::Descriptions,
}

/// Read `physicsMaterials`, `collisionFilters` and `physicsJoints`.
fn read_resources(doc: &Document, scene: &mut Scene, issues: &mut Issues) -> Resources {
    let Some((value, pointer)) = doc.root_extension(RIGID_BODIES) else {
        return Resources {
            materials: Table::empty(),
            filters: Table::empty(),
            joints: joints::Descriptions::empty(),
        };
    };
    let Some(object) = object(value, &pointer, issues) else {
        return Resources {
            materials: Table::unknown(),
            filters: Table::unknown(),
            joints: joints::Descriptions::unknown(),
        };
    };
    crate::ext::check_properties(
        value,
        &pointer,
        &["physicsMaterials", "collisionFilters", "physicsJoints"],
        issues,
    );
    let materials = match items(object, &pointer, "physicsMaterials", issues) {
        Some((list, at)) => materials::read_materials(list, &at, scene, issues),
        None => Table::unknown(),
    };
    let filters = match items(object, &pointer, "collisionFilters", issues) {
        Some((list, at)) => materials::read_filters(list, &at, scene, issues),
        None => Table::unknown(),
    };
    let joints = match items(object, &pointer, "physicsJoints", issues) {
        Some((list, at)) => joints::read_descriptions(list, &at, issues),
        None => joints::Descriptions::unknown(),
    };
    Resources {
        materials,
        filters,
        joints,
    }
}

/// Every document-level table a node-level object refers to.
struct Tables {
    shapes: Table,
    materials: Table,
    filters: Table,
    joints: joints::Descriptions,
}

/// A document-level array as read: its length in the file and, per file index, the canonical
/// id of the object (`None`: left out because of an error, or not representable).
#[derive(Debug, Clone)]
struct Table {
    /// `None`: the array itself could not be read, so references to it are not checked.
    len: Option<usize>,
    ids: Vec<Option<usize>>,
}

impl Table {
    /// The array is absent: every reference is out of range.
    fn empty() -> Table {
        Table {
            len: Some(0),
            ids: Vec::new(),
        }
    }

    /// The array could not be read (an issue says why): references are not checked again.
    fn unknown() -> Table {
        Table {
            len: None,
            ids: Vec::new(),
        }
    }

    /// The canonical id behind file index `index`, or `None` (with `INDEX_OUT_OF_RANGE` at
    /// `pointer/key` when the index is past the end of the array named `array`).
    fn resolve(
        &self,
        index: usize,
        array: &str,
        (pointer, key): (&str, &str),
        issues: &mut Issues,
    ) -> Option<usize> {
        let len = self.len?;
        check_index_at(index, len, array, (pointer, key), issues)?;
        self.ids.get(index).copied().flatten()
    }
}

/// Names of the arrays in `INDEX_OUT_OF_RANGE` messages.
const SHAPES_ARRAY: &str = "KHR_collision_shapes.shapes";
const MATERIALS_ARRAY: &str = "physicsMaterials";
const FILTERS_ARRAY: &str = "collisionFilters";
const JOINTS_ARRAY: &str = "physicsJoints";
const NODES_ARRAY: &str = "nodes";
const MESHES_ARRAY: &str = "meshes";

/// `value` as a JSON object, or `EXT_TYPE` at `pointer`. (serde would read a struct from an
/// array too, so objects are checked before they are parsed.)
fn object<'a>(value: &'a Value, pointer: &str, issues: &mut Issues) -> Option<&'a Map> {
    let object = value.as_object();
    if object.is_none() {
        issues.push(Issue::new(Code::ExtType, pointer).arg(
            "detail",
            format!("expected an object, found {}", json_kind(value)),
        ));
    }
    object
}

/// The array `object[key]` (at `pointer/key`) whose schema says `minItems: 1`. Absent: an empty
/// list. Present but not an array: `EXT_TYPE` and `None`. Empty: `EXT_ARRAY_LENGTH` and the empty
/// list.
fn items<'a>(
    object: &'a Map,
    pointer: &str,
    key: &str,
    issues: &mut Issues,
) -> Option<(&'a [Value], String)> {
    let at = push_pointer(pointer, key);
    let Some(value) = object.get(key) else {
        return Some((&[], at));
    };
    let Some(list) = value.as_array() else {
        issues.push(Issue::new(Code::ExtType, &at).arg(
            "detail",
            format!("expected an array, found {}", json_kind(value)),
        ));
        return None;
    };
    if list.is_empty() {
        issues.push(array_length(&at, 0, "at least 1"));
    }
    Some((list, at))
}

/// `EXT_ARRAY_LENGTH` for an array checked by hand.
fn array_length(pointer: &str, actual: usize, expected: &str) -> Issue {
    Issue::new(Code::ExtArrayLength, pointer)
        .arg("actual", actual)
        .arg("expected", expected)
}

/// `ENUM_UNKNOWN` for a value of an open enum.
fn enum_unknown(pointer: &str, value: &str, known: &[&str]) -> Issue {
    Issue::new(Code::EnumUnknown, pointer)
        .arg("value", format!("{value:?}"))
        .arg("known", known.join(", "))
}

/// [`crate::ext::check_index`] at `pointer/key`, a pointer written only for the issue.
fn check_index_at(
    index: usize,
    length: usize,
    array: &str,
    (pointer, key): (&str, &str),
    issues: &mut Issues,
) -> Option<usize> {
    let at = || push_pointer(pointer, key);
    crate::ext::check_index_with(index, length, array, at, issues)
}

/// Whether `value` is below the schema minimum of 0 (the one rule of [`non_negative`]; a
/// caller may test it first to write a pointer only for an issue).
fn below_minimum(value: f64) -> bool {
    value < 0.0
}

/// Whether `value` respects its schema minimum of 0; otherwise push `VALUE_OUT_OF_RANGE` at
/// `pointer/key` and return false, so the caller can leave the value (or its object) out. The
/// pointer is written only for the issue (most values are valid).
fn non_negative(value: f64, pointer: &str, key: impl Token, issues: &mut Issues) -> bool {
    if below_minimum(value) {
        issues.push(
            Issue::new(Code::ValueOutOfRange, push_pointer(pointer, key))
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

/// A JSON value's kind, for messages.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
