//! `physicsMaterials[]` and `collisionFilters[]` -> canonical [`Material`]s and [`Filter`]s.
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

use serde::Deserialize;
use serde_json::Value;

use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{Combine, Filter, Material, Scene};

use super::{Revision, Table, array_length, clean_since, enum_unknown, non_negative, object};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MaterialJson {
    static_friction: Option<f64>,
    dynamic_friction: Option<f64>,
    restitution: Option<f64>,
    friction_combine: Option<String>,
    restitution_combine: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FilterJson {
    collision_systems: Option<Vec<String>>,
    collide_with_systems: Option<Vec<String>>,
    not_collide_with_systems: Option<Vec<String>>,
}

const COMBINES: [&str; 4] = ["average", "minimum", "maximum", "multiply"];

/// Read every material into `scene.materials`.
pub(super) fn read_materials(
    list: &[Value],
    pointer: &str,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Table {
    let ids = list
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let material = read_material(value, &push_pointer(pointer, index), issues)?;
            scene.materials.push(material);
            Some(scene.materials.len() - 1)
        })
        .collect();
    Table {
        len: Some(list.len()),
        ids,
    }
}

fn read_material(value: &Value, pointer: &str, issues: &mut Issues) -> Option<Material> {
    object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            "staticFriction",
            "dynamicFriction",
            "restitution",
            "frictionCombine",
            "restitutionCombine",
        ],
        issues,
    );
    let m: MaterialJson = parse(value, pointer, issues)?;
    let mark = issues.0.len();
    let static_friction = m.static_friction.unwrap_or(0.6);
    let dynamic_friction = m.dynamic_friction.unwrap_or(0.6);
    let restitution = m.restitution.unwrap_or(0.0);
    non_negative(static_friction, pointer, "staticFriction", issues);
    non_negative(dynamic_friction, pointer, "dynamicFriction", issues);
    non_negative(restitution, pointer, "restitution", issues);
    let friction_combine = combine(
        m.friction_combine.as_deref(),
        (pointer, "frictionCombine"),
        issues,
    );
    let restitution_combine = combine(
        m.restitution_combine.as_deref(),
        (pointer, "restitutionCombine"),
        issues,
    );
    clean_since(issues, mark).then_some(Material {
        static_friction,
        dynamic_friction,
        restitution,
        friction_combine,
        restitution_combine,
    })
}

/// A combine mode; an unknown one is `ENUM_UNKNOWN` (at `pointer/key`) and read as unset.
fn combine(
    value: Option<&str>,
    (pointer, key): (&str, &str),
    issues: &mut Issues,
) -> Option<Combine> {
    match value? {
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

/// Read every filter into `scene.filters`.
pub(super) fn read_filters(
    list: &[Value],
    pointer: &str,
    revision: Revision,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Table {
    let ids = list
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let filter = read_filter(value, &push_pointer(pointer, index), revision, issues)?;
            scene.filters.push(filter);
            Some(scene.filters.len() - 1)
        })
        .collect();
    Table {
        len: Some(list.len()),
        ids,
    }
}

fn read_filter(
    value: &Value,
    pointer: &str,
    revision: Revision,
    issues: &mut Issues,
) -> Option<Filter> {
    object(value, pointer, issues)?;
    check_properties(
        value,
        pointer,
        &[
            "collisionSystems",
            "collideWithSystems",
            "notCollideWithSystems",
        ],
        issues,
    );
    let f: FilterJson = parse(value, pointer, issues)?;
    let mark = issues.0.len();
    for (key, list) in [
        ("collisionSystems", &f.collision_systems),
        ("collideWithSystems", &f.collide_with_systems),
        ("notCollideWithSystems", &f.not_collide_with_systems),
    ] {
        if revision.empty_filter_lists_refused && list.as_ref().is_some_and(Vec::is_empty) {
            issues.push(array_length(&push_pointer(pointer, key), 0, "at least 1"));
        }
    }
    if f.collide_with_systems.is_some() && f.not_collide_with_systems.is_some() {
        issues.push(Issue::new(Code::KhrFilterBothLists, pointer));
    }
    clean_since(issues, mark).then(|| Filter {
        collision_systems: f.collision_systems.unwrap_or_default(),
        collide_with_systems: f.collide_with_systems,
        not_collide_with_systems: f.not_collide_with_systems,
    })
}
