//! The edits every KHR revision and OMI 2024/2025 spell alike but for the names of their body
//! extension, shape list and joint list: each written once, over the lists of the case's own
//! profile, and listed by each profile's table.

use reference::issue::Code;
use reference::khr::{COLLISION_SHAPES, IMPLICIT_SHAPES, RIGID_BODIES};
use reference::omi::{BODY, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::json::{
    add_node, axes_key, limit_of, node_ext, nodes_with, of_type, push_root_ext, set_member,
};
use super::mutator::{Row, needs};
use crate::case::Case;

/// The extension of the case's profile that holds bodies, colliders, triggers, materials and
/// filters.
fn body_ext(case: &Case) -> Option<&'static str> {
    match case.profile? {
        Profile::Khr2024Draft | Profile::Khr2025 | Profile::Khr2026 => Some(RIGID_BODIES),
        Profile::Omi2024 | Profile::Omi2025 => Some(BODY),
        _ => None,
    }
}

/// The pointer of the document-level shape list of the case's profile.
fn shapes(case: &Case) -> Option<String> {
    let ext = match case.profile? {
        Profile::Khr2024Draft => COLLISION_SHAPES,
        Profile::Khr2025 | Profile::Khr2026 => IMPLICIT_SHAPES,
        Profile::Omi2024 | Profile::Omi2025 => SHAPE,
        _ => return None,
    };
    Some(format!("/extensions/{ext}/shapes"))
}

/// The pointer of the document-level joint list of the case's profile.
pub(super) fn joints(case: &Case) -> Option<String> {
    let ext = match case.profile? {
        Profile::Khr2024Draft | Profile::Khr2025 | Profile::Khr2026 => RIGID_BODIES,
        Profile::Omi2024 | Profile::Omi2025 => JOINT,
        _ => return None,
    };
    Some(format!("/extensions/{ext}/physicsJoints"))
}

/// Set `prop` of the first body node's `key` (`motion`, `collider`).
fn set_body(case: &mut Case, key: &str, prop: &str, value: Value) -> Option<String> {
    let ext = body_ext(case)?;
    set_member(case, ext, key, prop, value)
}

/// The first limit of the case's joints: (pointer, limit).
pub(super) fn first_limit(case: &mut Case) -> Option<(String, &mut Value)> {
    let joints = joints(case)?;
    limit_of(case, &joints, |_| true)
}

/// The first sphere of the case's shape list: (pointer, shape).
fn first_sphere(case: &mut Case) -> Option<(String, &mut Value)> {
    let shapes = shapes(case)?;
    of_type(case, &shapes, &["sphere"])
}

/// Append `item` to the document-level array `array` of the body extension; its pointer.
fn push_body_list(case: &mut Case, array: &str, item: Value) -> Option<String> {
    let ext = body_ext(case)?;
    let i = push_root_ext(case.json_mut()?, ext, array, item);
    Some(format!("/extensions/{ext}/{array}/{i}"))
}

pub(super) fn collider_shape_string(case: &mut Case) -> Option<String> {
    set_body(case, "collider", "shape", json!("0"))
}
pub(super) fn collider_shape_999(case: &mut Case) -> Option<String> {
    set_body(case, "collider", "shape", json!(999))
}
pub(super) fn velocity_two_components(case: &mut Case) -> Option<String> {
    set_body(case, "motion", "linearVelocity", json!([0.0, 1.0]))
}
pub(super) fn motion_unknown_property(case: &mut Case) -> Option<String> {
    set_body(case, "motion", "bounciness", json!(0.5))
}
pub(super) fn mass_minus_one(case: &mut Case) -> Option<String> {
    set_body(case, "motion", "mass", json!(-1.0))
}
pub(super) fn mass_zero(case: &mut Case) -> Option<String> {
    set_body(case, "motion", "mass", json!(0.0))
}
pub(super) fn static_friction_negative(case: &mut Case) -> Option<String> {
    let at = push_body_list(case, "physicsMaterials", json!({"staticFriction": -0.5}))?;
    Some(format!("{at}/staticFriction"))
}
/// A filter with both lists; `collide_with` is the list of systems it collides with.
pub(super) fn filter_both_lists_with(case: &mut Case, collide_with: Value) -> Option<String> {
    push_body_list(
        case,
        "collisionFilters",
        json!({"collisionSystems": ["A"], "collideWithSystems": collide_with, "notCollideWithSystems": ["C"]}),
    )
}
pub(super) fn filter_both_lists(case: &mut Case) -> Option<String> {
    filter_both_lists_with(case, json!(["B"]))
}
pub(super) fn drive_mode_velocity(case: &mut Case) -> Option<String> {
    let at = joints(case)?;
    let joints = case.json_mut()?.pointer_mut(&at)?.as_array_mut()?;
    let (j, joint) = joints
        .iter_mut()
        .enumerate()
        .find(|(_, j)| j["drives"].is_array())?;
    joint["drives"][0]["mode"] = json!("velocity");
    Some(format!("{at}/{j}/drives/0/mode"))
}
pub(super) fn sphere_typed_box(case: &mut Case) -> Option<String> {
    let (at, s) = first_sphere(case)?;
    s["type"] = json!("box");
    Some(at)
}
/// A sphere of radius 0; the pointer of the sphere's parameters.
pub(super) fn sphere_radius_zero_at_sphere(case: &mut Case) -> Option<String> {
    let (at, s) = first_sphere(case)?;
    s["sphere"]["radius"] = json!(0.0);
    Some(format!("{at}/sphere"))
}
pub(super) fn sphere_radius_zero(case: &mut Case) -> Option<String> {
    Some(format!("{}/radius", sphere_radius_zero_at_sphere(case)?))
}
pub(super) fn limit_min_above_max(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    l["min"] = json!(1.0);
    l["max"] = json!(0.5);
    Some(at)
}
pub(super) fn limit_axis_3(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    let key = axes_key(l);
    l[key][0] = json!(3);
    Some(format!("{at}/{key}/0"))
}
pub(super) fn limit_damping_minus_one(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    l["damping"] = json!(-1.0);
    Some(format!("{at}/damping"))
}
pub(super) fn limit_stiffness_minus_one(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    l["stiffness"] = json!(-1.0);
    Some(format!("{at}/stiffness"))
}
pub(super) fn limit_without_axes(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    let o = l.as_object_mut()?;
    o.remove("linearAxes");
    o.remove("angularAxes");
    Some(at)
}
pub(super) fn trigger_empty(case: &mut Case) -> Option<String> {
    let ext = body_ext(case)?;
    let n = add_node(
        case.json_mut()?,
        json!({"name": "EmptyTrigger", "translation": [0.0, -30.0, 0.0], "extensions": {ext: {"trigger": {}}}}),
        None,
    );
    Some(format!("{}/trigger", node_ext(n, ext)))
}
/// The first compound trigger (one that lists `nodes`): (node, pointer of its trigger).
pub(super) fn compound(case: &Case) -> Option<(usize, String)> {
    let ext = body_ext(case)?;
    let doc = case.json()?;
    let n = *nodes_with(doc, ext, "trigger")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][ext]["trigger"]["nodes"].is_array())?;
    Some((n, format!("{}/trigger", node_ext(n, ext))))
}
/// The first compound trigger given `key` (a shape or geometry of its own) as well.
pub(super) fn compound_with(case: &mut Case, key: &str, value: Value) -> Option<String> {
    let (n, at) = compound(case)?;
    let ext = body_ext(case)?;
    case.json_mut()?["nodes"][n]["extensions"][ext]["trigger"][key] = value;
    Some(at)
}
/// Add `member` (a node) to the first compound trigger's `nodes`; the pointer of the entry.
fn add_member(case: &mut Case, n: usize, at: &str, member: usize) -> Option<String> {
    let ext = body_ext(case)?;
    let nodes =
        case.json_mut()?["nodes"][n]["extensions"][ext]["trigger"]["nodes"].as_array_mut()?;
    nodes.push(json!(member));
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
/// A trigger node outside the first compound trigger, listed as its member; `trigger` is the
/// outside node's own (valid) trigger.
pub(super) fn compound_member_outside(case: &mut Case, trigger: Value) -> Option<String> {
    let (n, at) = compound(case)?;
    let ext = body_ext(case)?;
    let outside = add_node(
        case.json_mut()?,
        json!({"name": "OutsideTrigger", "translation": [0.0, -30.0, 0.0],
            "extensions": {ext: {"trigger": trigger}}}),
        None,
    );
    add_member(case, n, &at, outside)
}
/// A plain child of the first compound trigger listed as its member.
pub(super) fn compound_member_plain(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let plain = add_node(case.json_mut()?, json!({"name": "NotATrigger"}), Some(n));
    add_member(case, n, &at, plain)
}

/// The mutators of the generic extension-object rules (types, array lengths, unknown
/// properties and enum values, indices, ranges) and of a negative mass, shown alike on the KHR
/// draft and OMI 2024/2025.
pub(super) const GENERIC: &[Row] = &[
    (
        Code::ExtType,
        "collider-shape-string",
        needs::COLLIDER,
        collider_shape_string,
    ),
    (
        Code::ExtArrayLength,
        "velocity-two-components",
        needs::BODY,
        velocity_two_components,
    ),
    (
        Code::ExtUnexpectedProperty,
        "motion-unknown-property",
        needs::BODY,
        motion_unknown_property,
    ),
    (
        Code::EnumUnknown,
        "drive-mode-velocity",
        Some("joint.drive.mode"),
        drive_mode_velocity,
    ),
    (
        Code::IndexOutOfRange,
        "collider-shape-999",
        needs::COLLIDER,
        collider_shape_999,
    ),
    (
        Code::ValueOutOfRange,
        "static-friction-negative",
        None,
        static_friction_negative,
    ),
    (
        Code::NegativeMass,
        "mass-minus-one",
        needs::BODY,
        mass_minus_one,
    ),
];
