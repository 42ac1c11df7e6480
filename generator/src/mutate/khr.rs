//! KHR_physics_rigid_bodies / KHR_collision_shapes defects, and the generic extension-object
//! rules (types, required properties, array lengths, enums, indices, ranges) shown on KHR.

use reference::issue::Code;
use reference::khr::RIGID_BODIES;
use reference::profile::Profile;
use serde_json::json;

use super::json::{
    add_node, axes_key, buffer0, first_member, limit_of, node_ext, nodes_with, of_type,
    push_root_ext, set_buffer0, set_member,
};
use super::mutator::Mutator;
use crate::case::Case;

const SHAPES: &str = "/extensions/KHR_collision_shapes/shapes";
const JOINTS: &str = "/extensions/KHR_physics_rigid_bodies/physicsJoints";

fn ext_type(case: &mut Case) -> Option<String> {
    set_member(case, RIGID_BODIES, "collider", "shape", json!("0"))
}
fn ext_required(case: &mut Case) -> Option<String> {
    let (at, c) = first_member(case, RIGID_BODIES, "collider")?;
    c.as_object_mut()?.remove("shape");
    Some(at)
}
fn ext_array_length(case: &mut Case) -> Option<String> {
    set_member(
        case,
        RIGID_BODIES,
        "motion",
        "linearVelocity",
        json!([0.0, 1.0]),
    )
}
fn ext_unexpected_property(case: &mut Case) -> Option<String> {
    set_member(case, RIGID_BODIES, "motion", "bounciness", json!(0.5))
}
fn enum_unknown(case: &mut Case) -> Option<String> {
    let joints = case.json_mut()?.pointer_mut(JOINTS)?.as_array_mut()?;
    let (j, joint) = joints
        .iter_mut()
        .enumerate()
        .find(|(_, j)| j["drives"].is_array())?;
    joint["drives"][0]["mode"] = json!("velocity");
    Some(format!("{JOINTS}/{j}/drives/0/mode"))
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
fn index_out_of_range(case: &mut Case) -> Option<String> {
    set_member(case, RIGID_BODIES, "collider", "shape", json!(999))
}
fn value_out_of_range(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let m = push_root_ext(
        doc,
        RIGID_BODIES,
        "physicsMaterials",
        json!({"staticFriction": -0.5}),
    );
    Some(format!(
        "/extensions/{RIGID_BODIES}/physicsMaterials/{m}/staticFriction"
    ))
}
pub(super) fn negative_mass(case: &mut Case) -> Option<String> {
    set_member(case, RIGID_BODIES, "motion", "mass", json!(-1.0))
}
fn mass_zero_infinite(case: &mut Case) -> Option<String> {
    set_member(case, RIGID_BODIES, "motion", "mass", json!(0.0))
}
fn shape_degenerate(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["sphere"]["radius"] = json!(0.0);
    Some(format!("{at}/sphere"))
}
fn shape_parameters_mismatch(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["type"] = json!("box");
    Some(at)
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
    let prims = case.json_mut()?["meshes"][m]["primitives"].as_array_mut()?;
    let mut lines = prims.first()?.clone();
    lines["mode"] = json!(1);
    prims.push(lines);
    Some(format!("/meshes/{m}/primitives/{}/mode", prims.len() - 1))
}
fn mesh_empty(case: &mut Case) -> Option<String> {
    let (m, at) = shape_mesh(case)?;
    let doc = case.json_mut()?;
    // Two vertices and no index list: no triangle at all.
    let prim = doc["meshes"][m]["primitives"][0].as_object_mut()?;
    prim.remove("indices");
    let pos = usize::try_from(prim["attributes"]["POSITION"].as_u64()?).ok()?;
    doc["accessors"][pos]["count"] = json!(2);
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
pub(super) fn limit_min_above_max(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["min"] = json!(1.0);
    l["max"] = json!(0.5);
    Some(at)
}
pub(super) fn axis_out_of_range(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let key = axes_key(l);
    l[key][0] = json!(3);
    Some(format!("{at}/{key}/0"))
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
pub(super) fn stiffness_not_positive(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["stiffness"] = json!(0.0);
    Some(format!("{at}/stiffness"))
}
pub(super) fn damping_negative(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["damping"] = json!(-1.0);
    Some(format!("{at}/damping"))
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
pub(super) fn limit_axes_missing(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let o = l.as_object_mut()?;
    o.remove("linearAxes");
    o.remove("angularAxes");
    Some(at)
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
fn filter_both_lists(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let f = push_root_ext(
        doc,
        RIGID_BODIES,
        "collisionFilters",
        json!({"collisionSystems": ["A"], "collideWithSystems": ["B"], "notCollideWithSystems": ["C"]}),
    );
    Some(format!("/extensions/{RIGID_BODIES}/collisionFilters/{f}"))
}
fn compound(case: &mut Case) -> Option<(usize, String)> {
    let doc = case.json()?;
    let n = *nodes_with(doc, RIGID_BODIES, "trigger")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].is_array())?;
    Some((n, format!("{}/trigger", node_ext(n, RIGID_BODIES))))
}
fn trigger_shape_and_nodes(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    case.json_mut()?["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["shape"] = json!(0);
    Some(at)
}
pub(super) fn trigger_empty(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = add_node(
        doc,
        json!({"name": "EmptyTrigger", "translation": [0.0, -30.0, 0.0], "extensions": {RIGID_BODIES: {"trigger": {}}}}),
        None,
    );
    Some(format!("{}/trigger", node_ext(n, RIGID_BODIES)))
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let doc = case.json_mut()?;
    let outside = add_node(
        doc,
        json!({"name": "OutsideTrigger", "translation": [0.0, -30.0, 0.0], "extensions": {RIGID_BODIES: {"trigger": {"shape": 0}}}}),
        None,
    );
    let nodes = doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].as_array_mut()?;
    nodes.push(json!(outside));
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
pub(super) fn trigger_node_not_trigger(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let doc = case.json_mut()?;
    let plain = add_node(doc, json!({"name": "NotATrigger"}), Some(n));
    let nodes = doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].as_array_mut()?;
    nodes.push(json!(plain));
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}

pub fn mutators() -> Vec<Mutator> {
    let p = Profile::Khr2024Draft;
    let m = |code, name, needs, apply| Mutator {
        code,
        name,
        profile: p,
        needs,
        apply,
    };
    let body = Some("body.");
    let joint = Some("joint.kind");
    let mesh = Some("shape.convex");
    let sphere = Some("shape.sphere");
    let compound_t = Some("trigger.compound");
    vec![
        m(
            Code::ExtType,
            "collider-shape-string",
            Some("collider."),
            ext_type,
        ),
        m(
            Code::ExtRequired,
            "collider-without-shape",
            Some("collider."),
            ext_required,
        ),
        m(
            Code::ExtArrayLength,
            "velocity-two-components",
            body,
            ext_array_length,
        ),
        m(
            Code::ExtUnexpectedProperty,
            "motion-unknown-property",
            body,
            ext_unexpected_property,
        ),
        m(
            Code::EnumUnknown,
            "drive-mode-velocity",
            Some("joint.drive.mode"),
            enum_unknown,
        ),
        m(
            Code::EnumUnknown,
            "friction-combine-median",
            None,
            enum_unknown_combine,
        ),
        m(
            Code::IndexOutOfRange,
            "collider-shape-999",
            Some("collider."),
            index_out_of_range,
        ),
        m(
            Code::ValueOutOfRange,
            "static-friction-negative",
            None,
            value_out_of_range,
        ),
        m(Code::NegativeMass, "mass-minus-one", body, negative_mass),
        m(
            Code::MassZeroInfinite,
            "mass-zero",
            body,
            mass_zero_infinite,
        ),
        m(
            Code::ShapeDegenerate,
            "sphere-radius-zero",
            sphere,
            shape_degenerate,
        ),
        m(
            Code::ShapeParametersMismatch,
            "box-with-sphere-parameters",
            sphere,
            shape_parameters_mismatch,
        ),
        m(
            Code::MeshShapeNotTriangles,
            "mesh-lines",
            mesh,
            mesh_not_triangles,
        ),
        m(Code::MeshShapeEmpty, "mesh-two-vertices", mesh, mesh_empty),
        m(
            Code::MeshIndexOutOfRange,
            "index-200",
            mesh,
            mesh_index_out_of_range,
        ),
        m(
            Code::LimitMinAboveMax,
            "min-above-max",
            joint,
            limit_min_above_max,
        ),
        m(Code::AxisOutOfRange, "axis-3", joint, axis_out_of_range),
        m(Code::AxisDuplicate, "axis-twice", joint, axis_duplicate),
        m(
            Code::StiffnessNotPositive,
            "stiffness-zero",
            joint,
            stiffness_not_positive,
        ),
        m(
            Code::DampingNegative,
            "damping-minus-one",
            joint,
            damping_negative,
        ),
        m(
            Code::KhrInertiaOrientationNotUnit,
            "inertia-orientation-length-2",
            body,
            inertia_orientation_not_unit,
        ),
        m(
            Code::KhrLimitAxesBoth,
            "limit-both-axes",
            Some("joint.limit.linear"),
            limit_axes_both,
        ),
        m(
            Code::KhrLimitAxesMissing,
            "limit-no-axes",
            joint,
            limit_axes_missing,
        ),
        m(
            Code::KhrJointNoLimits,
            "joint-without-limits",
            joint,
            joint_no_limits,
        ),
        m(
            Code::KhrJointNoMotion,
            "joint-between-static-nodes",
            joint,
            joint_no_motion,
        ),
        m(
            Code::KhrFilterBothLists,
            "filter-both-lists",
            None,
            filter_both_lists,
        ),
        m(
            Code::KhrTriggerShapeAndNodes,
            "compound-with-shape",
            compound_t,
            trigger_shape_and_nodes,
        ),
        m(Code::KhrTriggerEmpty, "trigger-empty", None, trigger_empty),
        m(
            Code::KhrTriggerNodeNotDescendant,
            "compound-member-outside",
            compound_t,
            trigger_node_not_descendant,
        ),
        m(
            Code::KhrTriggerNodeNotTrigger,
            "compound-member-plain",
            compound_t,
            trigger_node_not_trigger,
        ),
    ]
}
