//! `physicsMaterials[]` and `collisionFilters[]` -> canonical [`Material`]s and [`Filter`]s, as
//! both families define them: material defaults 0.6 / 0.6 / 0, each at least 0
//! (`VALUE_OUT_OF_RANGE`); a filter may not list both `collideWithSystems` and
//! `notCollideWithSystems`. The families differ in how they read a combine mode (KHR: an open
//! enum, OMI: a closed one, so `C` is the type serde reads it as) and in empty filter lists.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::ext::{check_properties, parse};
use crate::issue::{Issue, Issues, push_pointer};
use crate::scene::{Combine, Filter, Material, Scene};

use super::{Spelling, Table, array_length, clean_since, non_negative};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct MaterialJson<C> {
    static_friction: Option<f64>,
    dynamic_friction: Option<f64>,
    restitution: Option<f64>,
    friction_combine: Option<C>,
    restitution_combine: Option<C>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FilterJson {
    collision_systems: Option<Vec<String>>,
    collide_with_systems: Option<Vec<String>>,
    not_collide_with_systems: Option<Vec<String>>,
}

/// How a family reads a combine mode it parsed as `C` (at `pointer/key`).
pub type ReadCombine<C> = fn(C, (&str, &str), &mut Issues) -> Option<Combine>;

/// Read every material of `list` into `scene.materials`.
pub fn read_materials<C: DeserializeOwned>(
    (list, pointer): (&[Value], &str),
    spelling: &Spelling,
    combine: ReadCombine<C>,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Table {
    Table::read(list, pointer, issues, |value, at, issues| {
        let material = read_material(value, at, spelling, combine, issues)?;
        scene.materials.push(material);
        Some(scene.materials.len() - 1)
    })
}

/// One material, or `None` on any error.
fn read_material<C: DeserializeOwned>(
    value: &Value,
    pointer: &str,
    spelling: &Spelling,
    combine: ReadCombine<C>,
    issues: &mut Issues,
) -> Option<Material> {
    spelling.object(value, pointer, issues)?;
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
    let m: MaterialJson<C> = parse(value, pointer, issues)?;
    let mark = issues.0.len();
    let static_friction = m.static_friction.unwrap_or(0.6);
    let dynamic_friction = m.dynamic_friction.unwrap_or(0.6);
    let restitution = m.restitution.unwrap_or(0.0);
    non_negative(static_friction, pointer, "staticFriction", issues);
    non_negative(dynamic_friction, pointer, "dynamicFriction", issues);
    non_negative(restitution, pointer, "restitution", issues);
    let friction_combine = m
        .friction_combine
        .and_then(|c| combine(c, (pointer, "frictionCombine"), issues));
    let restitution_combine = m
        .restitution_combine
        .and_then(|c| combine(c, (pointer, "restitutionCombine"), issues));
    clean_since(issues, mark).then_some(Material {
        static_friction,
        dynamic_friction,
        restitution,
        friction_combine,
        restitution_combine,
    })
}

/// Read every filter of `list` into `scene.filters`; `empty_refused`: an empty list is
/// `EXT_ARRAY_LENGTH` (the KHR draft's `minItems: 1`).
pub fn read_filters(
    (list, pointer): (&[Value], &str),
    spelling: &Spelling,
    empty_refused: bool,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Table {
    Table::read(list, pointer, issues, |value, at, issues| {
        let filter = read_filter(value, at, spelling, empty_refused, issues)?;
        scene.filters.push(filter);
        Some(scene.filters.len() - 1)
    })
}

/// One filter, or `None` on any error. A missing `collisionSystems` is the empty set
/// [D-FILTER-EMPTY].
fn read_filter(
    value: &Value,
    pointer: &str,
    spelling: &Spelling,
    empty_refused: bool,
    issues: &mut Issues,
) -> Option<Filter> {
    spelling.object(value, pointer, issues)?;
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
        if empty_refused && list.as_ref().is_some_and(Vec::is_empty) {
            issues.push(array_length(&push_pointer(pointer, key), 0, "at least 1"));
        }
    }
    if f.collide_with_systems.is_some() && f.not_collide_with_systems.is_some() {
        issues.push(Issue::new(spelling.filter_both_lists, pointer));
    }
    clean_since(issues, mark).then(|| Filter {
        collision_systems: f.collision_systems.unwrap_or_default(),
        collide_with_systems: f.collide_with_systems,
        not_collide_with_systems: f.not_collide_with_systems,
    })
}
