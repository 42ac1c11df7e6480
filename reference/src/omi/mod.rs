//! Reader and rules of the `omi-2023` profile (seeds 000, 001, 004): `OMI_physics_body` with a
//! `type` string, shapes from `OMI_collider` (flat colliders) or `OMI_physics_shape` (2023-06-22:
//! `type` + one parameter sub-object), and `OMI_physics_joint` (document-level constraints, joint
//! nodes with `nodeA`/`nodeB`).
//!
//! Reading order matters: shape definitions first, then bodies (so colliders can find their
//! owning [`Body`](crate::scene::Body)), then colliders on nodes, then joints.

mod body;
mod joint;
pub(crate) mod shape;
#[cfg(test)]
mod tests;

pub use shape::{DEFAULT_HEIGHT, DEFAULT_RADIUS, DEFAULT_SIZE};

use crate::document::Document;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::Scene;

/// Extension keys of this profile.
pub const BODY: &str = "OMI_physics_body";
pub const COLLIDER: &str = "OMI_collider";
pub const SHAPE: &str = "OMI_physics_shape";
pub const JOINT: &str = "OMI_physics_joint";

/// Read this profile's extensions from `doc` into `scene`, pushing every issue found.
pub fn read(doc: &Document, scene: &mut Scene, issues: &mut Issues) {
    let definitions = shape::read_definitions(doc, scene, issues);
    let bodies = body::read(doc, scene, issues);
    shape::read_nodes(doc, scene, &definitions, &bodies, issues);
    body::check_shapes(doc, scene, &bodies, issues);
    joint::read(doc, scene, &bodies, issues);
}

/// [`ext::parse`] for an extension object: serde reads a struct from a JSON array too
/// (`[0]` as `{"collider": 0}`), so anything but an object is `EXT_TYPE` here.
fn parse_object<T: serde::de::DeserializeOwned>(
    value: &serde_json::Value,
    pointer: &str,
    issues: &mut Issues,
) -> Option<T> {
    crate::ext::object(value, pointer, issues)?;
    crate::ext::parse(value, pointer, issues)
}

/// A number array of the length `N` the schema gives; `EXT_ARRAY_LENGTH` at `pointer` otherwise.
/// Arrays are read as `Vec` so that one wrong length drops only that property, not its object.
fn fixed<const N: usize>(values: &[f64], pointer: &str, issues: &mut Issues) -> Option<[f64; N]> {
    match <[f64; N]>::try_from(values) {
        Ok(array) => Some(array),
        Err(_) => {
            issues.push(
                Issue::new(Code::ExtArrayLength, pointer)
                    .arg("actual", values.len())
                    .arg("expected", N),
            );
            None
        }
    }
}

/// The document-level array `key` of extension `extension` (e.g. `OMI_collider.colliders`):
/// its items with their pointers. Pushes `EXT_REQUIRED` / `EXT_TYPE` / `EXT_ARRAY_LENGTH`
/// (`minItems: 1`) and `EXT_UNEXPECTED_PROPERTY`; empty when the extension is absent.
fn document_array<'a>(
    doc: &'a Document<'a>,
    extension: &str,
    key: &str,
    issues: &mut Issues,
) -> Vec<(&'a serde_json::Value, String)> {
    let Some((value, pointer)) = doc.root_extension(extension) else {
        return Vec::new();
    };
    crate::ext::check_properties(value, &pointer, &[key], issues);
    let Some(object) = value.as_object() else {
        issues.push(
            Issue::new(Code::ExtType, &pointer)
                .arg("detail", format!("{extension} is not an object")),
        );
        return Vec::new();
    };
    let at = push_pointer(&pointer, key);
    match object.get(key) {
        None => {
            issues.push(Issue::new(Code::ExtRequired, &pointer).arg("property", key));
            Vec::new()
        }
        Some(serde_json::Value::Array(items)) => {
            if items.is_empty() {
                issues.push(
                    Issue::new(Code::ExtArrayLength, &at)
                        .arg("actual", 0)
                        .arg("expected", "at least 1"),
                );
            }
            items
                .iter()
                .enumerate()
                .map(|(i, item)| (item, push_pointer(&at, i)))
                .collect()
        }
        Some(_) => {
            issues.push(
                Issue::new(Code::ExtType, &at).arg("detail", format!("{key} is not an array")),
            );
            Vec::new()
        }
    }
}
