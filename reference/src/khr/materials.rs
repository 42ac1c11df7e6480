//! `physicsMaterials[]` and `collisionFilters[]` -> canonical [`Material`](crate::scene::Material)s
//! and [`Filter`](crate::scene::Filter)s, read by [`crate::rigid::material`]; here KHR's combine
//! modes.
//!
//! - Material defaults (schema): staticFriction 0.6, dynamicFriction 0.6, restitution 0; each
//!   has minimum 0 (`VALUE_OUT_OF_RANGE`). The combine modes are read as an open enum: an unknown
//!   mode is `ENUM_UNKNOWN` (a warning) and read as unset, so a later revision's mode does not
//!   make the file invalid [D-COMBINE-DEFAULT].
//! - Filter lists are `string[1-*]` in the seed (`EXT_ARRAY_LENGTH` when empty); both
//!   `collideWithSystems` and `notCollideWithSystems` on one filter is `KHR_FILTER_BOTH_LISTS`.
//!   A missing `collisionSystems` is the empty set [D-FILTER-EMPTY]. `khr-2025`'s schema has no
//!   `minItems` on the lists: an empty list is the empty set; both lists is still an error
//!   (the schema's `not`, the prose's "only one of these must be specified").

use crate::issue::{Issues, push_pointer};
use crate::scene::Combine;

use super::enum_unknown;

const COMBINES: [&str; 4] = ["average", "minimum", "maximum", "multiply"];

/// A combine mode; an unknown one is `ENUM_UNKNOWN` (at `pointer/key`) and read as unset.
pub(super) fn combine(
    value: String,
    (pointer, key): (&str, &str),
    issues: &mut Issues,
) -> Option<Combine> {
    match value.as_str() {
        "average" => Some(Combine::Average),
        "minimum" => Some(Combine::Minimum),
        "maximum" => Some(Combine::Maximum),
        "multiply" => Some(Combine::Multiply),
        other => {
            issues.push(enum_unknown(&push_pointer(pointer, key), other, &COMBINES));
            None
        }
    }
}
