//! KHR_physics_rigid_bodies / KHR_collision_shapes defects, and the generic extension-object
//! rules (types, required properties, array lengths, enums, indices, ranges) shown on KHR.

use reference::issue::Code;
use reference::khr::RIGID_BODIES;
use reference::profile::Profile;
use serde_json::json;

use super::json::{
    add_lines, add_node, axes_key, buffer0, first_member, limit_of, node_ext, of_type,
    push_root_ext, set_buffer0, set_member, two_vertices,
};
use super::mutator::{Mutator, Row, needs, of_rows};
use super::physics::*;
use crate::case::Case;

const SHAPES: &str = "/extensions/KHR_collision_shapes/shapes";
const JOINTS: &str = "/extensions/KHR_physics_rigid_bodies/physicsJoints";

fn ext_required(case: &mut Case) -> Option<String> {
    let (at, c) = first_member(case, RIGID_BODIES, "collider")?;
    c.as_object_mut()?.remove("shape");
    Some(at)
}
/// Combine modes are an open enum in the reference: an unknown one is a warning.
fn enum_unknown_combine(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let m = push_root_ext(
        doc,
        RIGID_BODIES,
        "physicsMaterials",
        json!({"frictionCombine": "median"}),
    );
    Some(format!(
        "/extensions/{RIGID_BODIES}/physicsMaterials/{m}/frictionCombine"
    ))
}
/// The mesh of the first mesh shape, and the pointer of the shape's `mesh` property.
fn shape_mesh(case: &mut Case) -> Option<(usize, String)> {
    let (at, s) = of_type(case, SHAPES, &["convex", "trimesh"])?;
    let t = s["type"].as_str()?.to_owned();
    let m = usize::try_from(s[t.as_str()]["mesh"].as_u64()?).ok()?;
    Some((m, format!("{at}/{t}/mesh")))
}
/// A second primitive of lines: the mesh still has triangles, but not only triangles.
fn mesh_not_triangles(case: &mut Case) -> Option<String> {
    let (m, _) = shape_mesh(case)?;
    add_lines(case.json_mut()?, m)
}
fn mesh_empty(case: &mut Case) -> Option<String> {
    let (m, at) = shape_mesh(case)?;
    two_vertices(case.json_mut()?, m)?;
    Some(at)
}
fn mesh_index_out_of_range(case: &mut Case) -> Option<String> {
    let (m, _) = shape_mesh(case)?;
    let doc = case.json()?;
    let acc = usize::try_from(doc["meshes"][m]["primitives"][0]["indices"].as_u64()?).ok()?;
    let view = usize::try_from(doc["accessors"][acc]["bufferView"].as_u64()?).ok()?;
    let offset =
        usize::try_from(doc["bufferViews"][view]["byteOffset"].as_u64().unwrap_or(0)).ok()?;
    if doc["bufferViews"][view]["buffer"] != 0 || doc["accessors"][acc]["componentType"] != 5123 {
        return None;
    }
    let mut bytes = buffer0(case)?;
    bytes
        .get_mut(offset..offset + 2)?
        .copy_from_slice(&200u16.to_le_bytes());
    set_buffer0(case, bytes)?;
    Some(format!("/meshes/{m}/primitives/0/indices"))
}
pub(super) fn axis_duplicate(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |l| {
        l[axes_key(l)].as_array().is_some_and(|a| a.len() < 3)
    })?;
    let key = axes_key(l);
    let axes = l[key].as_array_mut()?;
    axes.push(axes[0].clone());
    Some(format!("{at}/{key}/{}", axes.len() - 1))
}
pub(super) fn inertia_orientation_not_unit(case: &mut Case) -> Option<String> {
    set_member(
        case,
        RIGID_BODIES,
        "motion",
        "inertiaOrientation",
        json!([0.0, 0.0, 0.0, 2.0]),
    )
}
pub(super) fn limit_axes_both(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |l| l.get("linearAxes").is_some())?;
    l["angularAxes"] = json!([0]);
    Some(at)
}
fn stiffness_zero(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    l["stiffness"] = json!(0.0);
    Some(format!("{at}/stiffness"))
}
fn trigger_shape_and_nodes(case: &mut Case) -> Option<String> {
    compound_with(case, "shape", json!(0))
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    compound_member_outside(case, json!({"shape": 0}))
}
fn joint_no_limits(case: &mut Case) -> Option<String> {
    let joints = case.json_mut()?.pointer_mut(JOINTS)?.as_array_mut()?;
    joints[0].as_object_mut()?.remove("limits");
    Some(format!("{JOINTS}/0"))
}
/// A new joint between two plain root nodes: nothing has motion.
pub(super) fn joint_no_motion(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    doc.pointer(JOINTS)?;
    let b = add_node(
        doc,
        json!({"name": "StaticFrameB", "translation": [0.0, -30.0, 0.0]}),
        None,
    );
    let a = add_node(
        doc,
        json!({"name": "StaticFrameA", "translation": [0.0, -30.0, 0.0],
        "extensions": {RIGID_BODIES: {"joint": {"connectedNode": b, "joint": 0}}}}),
        None,
    );
    Some(format!("{}/joint", node_ext(a, RIGID_BODIES)))
}

const MESH: Option<&str> = Some("shape.convex");

const ROWS: &[Row] = &[
    (
        Code::ExtRequired,
        "collider-without-shape",
        needs::COLLIDER,
        ext_required,
    ),
    (
        Code::EnumUnknown,
        "friction-combine-median",
        None,
        enum_unknown_combine,
    ),
    (Code::MassZeroInfinite, "mass-zero", needs::BODY, mass_zero),
    (
        Code::ShapeDegenerate,
        "sphere-radius-zero",
        needs::SPHERE,
        sphere_radius_zero_at_sphere,
    ),
    (
        Code::ShapeParametersMismatch,
        "box-with-sphere-parameters",
        needs::SPHERE,
        sphere_typed_box,
    ),
    (
        Code::MeshShapeNotTriangles,
        "mesh-lines",
        MESH,
        mesh_not_triangles,
    ),
    (Code::MeshShapeEmpty, "mesh-two-vertices", MESH, mesh_empty),
    (
        Code::MeshIndexOutOfRange,
        "index-200",
        MESH,
        mesh_index_out_of_range,
    ),
    (
        Code::LimitMinAboveMax,
        "min-above-max",
        needs::JOINT,
        limit_min_above_max,
    ),
    (Code::AxisOutOfRange, "axis-3", needs::JOINT, limit_axis_3),
    (
        Code::AxisDuplicate,
        "axis-twice",
        needs::JOINT,
        axis_duplicate,
    ),
    (
        Code::StiffnessNotPositive,
        "stiffness-zero",
        needs::JOINT,
        stiffness_zero,
    ),
    (
        Code::DampingNegative,
        "damping-minus-one",
        needs::JOINT,
        limit_damping_minus_one,
    ),
    (
        Code::KhrInertiaOrientationNotUnit,
        "inertia-orientation-length-2",
        needs::BODY,
        inertia_orientation_not_unit,
    ),
    (
        Code::KhrLimitAxesBoth,
        "limit-both-axes",
        Some("joint.limit.linear"),
        limit_axes_both,
    ),
    (
        Code::KhrLimitAxesMissing,
        "limit-no-axes",
        needs::JOINT,
        limit_without_axes,
    ),
    (
        Code::KhrJointNoLimits,
        "joint-without-limits",
        needs::JOINT,
        joint_no_limits,
    ),
    (
        Code::KhrJointNoMotion,
        "joint-between-static-nodes",
        needs::JOINT,
        joint_no_motion,
    ),
    (
        Code::KhrFilterBothLists,
        "filter-both-lists",
        None,
        filter_both_lists,
    ),
    (
        Code::KhrTriggerShapeAndNodes,
        "compound-with-shape",
        needs::COMPOUND,
        trigger_shape_and_nodes,
    ),
    (Code::KhrTriggerEmpty, "trigger-empty", None, trigger_empty),
    (
        Code::KhrTriggerNodeNotDescendant,
        "compound-member-outside",
        needs::COMPOUND,
        trigger_node_not_descendant,
    ),
    (
        Code::KhrTriggerNodeNotTrigger,
        "compound-member-plain",
        needs::COMPOUND,
        compound_member_plain,
    ),
];

pub fn mutators() -> Vec<Mutator> {
    let mut v = of_rows(Profile::Khr2024Draft, GENERIC);
    v.extend(of_rows(Profile::Khr2024Draft, ROWS));
    v
}
