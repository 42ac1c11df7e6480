//! `omi-2024` / `omi-2025` defects: one mutator per code of the restructured OMI extensions
//! (and the generic and shared physics codes shown on them), for each revision it applies to.
//! A mutated document must still be dated as its base's revision: no mutator here removes a
//! revision's radius keys, and the omi-2025-only codes are not made on omi-2024 bases.

use reference::issue::Code;
use reference::omi::{BODY, JOINT};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::json::{
    add_node, axes_key, first_member, node_ext, nodes_with, of_type, push_root_ext, set_member,
};
use super::mutator::{Mutator, Row, needs, of_rows};
use super::omi::{first_joint, joint_to_plain, joint_with_camera};
use super::physics::*;
use crate::case::Case;

const SHAPES: &str = "/extensions/OMI_physics_shape/shapes";
const JOINTS: &str = "/extensions/OMI_physics_joint/physicsJoints";

/// Append a shape; returns its pointer.
fn add_shape(case: &mut Case, shape: Value) -> Option<String> {
    let shapes = case.json_mut()?.pointer_mut(SHAPES)?.as_array_mut()?;
    shapes.push(shape);
    Some(format!("{SHAPES}/{}", shapes.len() - 1))
}

/// The first node with `motion`.
fn body_node(case: &Case) -> Option<usize> {
    nodes_with(case.json()?, BODY, "motion").first().copied()
}

fn ext_required(case: &mut Case) -> Option<String> {
    let (n, at) = first_joint(case)?;
    case.json_mut()?["nodes"][n]["extensions"][JOINT]
        .as_object_mut()?
        .remove("connectedNode");
    Some(at)
}
fn motion_type_missing(case: &mut Case) -> Option<String> {
    let (at, m) = first_member(case, BODY, "motion")?;
    m.as_object_mut()?.remove("type");
    Some(at)
}
fn enum_invalid(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "type", json!("rigid"))
}
fn multiple_primitives(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["convex", "trimesh"])?;
    let t = s["type"].as_str()?.to_owned();
    let m = usize::try_from(s[t.as_str()]["mesh"].as_u64()?).ok()?;
    let prims = case.json_mut()?["meshes"][m]["primitives"].as_array_mut()?;
    let copy = prims.first()?.clone();
    prims.push(copy);
    Some(format!("{at}/{t}/mesh"))
}
fn mesh_missing(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["convex"])?;
    s["convex"]["mesh"] = json!(-1);
    Some(format!("{at}/convex/mesh"))
}
fn trigger_trimesh(case: &mut Case) -> Option<String> {
    let (at, _) = of_type(case, SHAPES, &["trimesh"])?;
    let index: usize = at.rsplit('/').next()?.parse().ok()?;
    let doc = case.json_mut()?;
    let n = add_node(
        doc,
        json!({"name": "TrimeshTrigger", "translation": [0.0, -30.0, 0.0],
            "extensions": {BODY: {"trigger": {"shape": index}}}}),
        None,
    );
    Some(format!("{}/trigger/shape", node_ext(n, BODY)))
}
fn collider_scaled(case: &mut Case) -> Option<String> {
    let n = *nodes_with(case.json()?, BODY, "collider").first()?;
    case.json_mut()?["nodes"][n]["scale"] = json!([2.0, 2.0, 2.0]);
    Some(format!("/nodes/{n}/scale"))
}
fn axis_duplicate(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    let key = axes_key(l);
    let axes = l[key].as_array_mut()?;
    if axes.len() >= 3 {
        axes.pop();
    }
    axes.push(axes[0].clone());
    Some(format!("{at}/{key}/{}", axes.len() - 1))
}
fn other_revision(case: &mut Case) -> Option<String> {
    let at = add_shape(
        case,
        json!({"type": "capsule", "capsule": {"height": 1.0, "radius": 0.5, "radiusBottom": 0.5, "radiusTop": 0.5}}),
    )?;
    Some(format!("{at}/capsule/radius"))
}
/// Every capsule loses its explicit size (both readings then agree) and a capsule with
/// `height` only is added: nothing dates the document, that capsule is ambiguous.
fn capsule_ambiguous(case: &mut Case) -> Option<String> {
    let shapes = case.json_mut()?.pointer_mut(SHAPES)?.as_array_mut()?;
    for s in shapes.iter_mut() {
        for kind in ["capsule", "cylinder"] {
            if s["type"] == kind {
                s[kind] = json!({});
            }
        }
    }
    let at = add_shape(case, json!({"type": "capsule", "capsule": {"height": 3.0}}))?;
    Some(format!("{at}/capsule/height"))
}
fn tapered(case: &mut Case) -> Option<String> {
    let at = add_shape(
        case,
        json!({"type": "capsule", "capsule": {"height": 1.0, "radiusBottom": 0.25, "radiusTop": 0.5}}),
    )?;
    Some(format!("{at}/capsule"))
}
fn capsule_too_short(case: &mut Case) -> Option<String> {
    let at = add_shape(
        case,
        json!({"type": "capsule", "capsule": {"height": 0.5, "radius": 0.5}}),
    )?;
    Some(format!("{at}/capsule/height"))
}
fn inertia_partly_zero(case: &mut Case) -> Option<String> {
    set_member(
        case,
        BODY,
        "motion",
        "inertiaDiagonal",
        json!([0.0, 1.0, 1.0]),
    )
}
fn inertia_orientation_not_unit(case: &mut Case) -> Option<String> {
    let (at, m) = first_member(case, BODY, "motion")?;
    m["inertiaDiagonal"] = json!([1.0, 1.0, 1.0]);
    m["inertiaOrientation"] = json!([0.0, 0.0, 0.0, 2.0]);
    Some(format!("{at}/inertiaOrientation"))
}
fn collider_shape_missing(case: &mut Case) -> Option<String> {
    let (at, c) = first_member(case, BODY, "collider")?;
    c["shape"] = json!(-1);
    Some(at)
}
/// The first shape a trigger may use without a warning of its own (not a trimesh,
/// OMI_TRIGGER_TRIMESH): the one defect stays the only issue.
fn trigger_shape(case: &Case) -> Option<usize> {
    case.json()?
        .pointer("/extensions/OMI_physics_shape/shapes")?
        .as_array()?
        .iter()
        .position(|s| s["type"] != "trimesh")
}
fn trigger_shape_and_nodes(case: &mut Case) -> Option<String> {
    let shape = trigger_shape(case)?;
    compound_with(case, "shape", json!(shape))
}
fn trigger_node_duplicate(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let nodes =
        case.json_mut()?["nodes"][n]["extensions"][BODY]["trigger"]["nodes"].as_array_mut()?;
    nodes.push(nodes.first()?.clone());
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    let shape = trigger_shape(case)?;
    compound_member_outside(case, json!({"shape": shape}))
}
fn body_same_node(case: &mut Case) -> Option<String> {
    let n = body_node(case)?;
    case.json_mut()?["nodes"][n]["extensions"][BODY]["collider"] = json!({"shape": 0});
    Some(node_ext(n, BODY))
}
/// A joint hung from a plain root node (no body) to a dynamic body.
fn joint_no_dynamic_ancestor(case: &mut Case) -> Option<String> {
    first_joint(case)?;
    let doc = case.json()?;
    let b = *nodes_with(doc, BODY, "motion")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][BODY]["motion"]["type"] == "dynamic")?;
    let n = add_node(
        case.json_mut()?,
        json!({"name": "LooseJoint", "translation": [0.0, -30.0, 0.0],
            "extensions": {JOINT: {"connectedNode": b, "joint": 0}}}),
        None,
    );
    Some(node_ext(n, JOINT))
}
/// A joint from a plain root node to a new static body: no end is dynamic.
fn joint_no_dynamic_body(case: &mut Case) -> Option<String> {
    first_joint(case)?;
    let doc = case.json_mut()?;
    let b = add_node(
        doc,
        json!({"name": "StaticEnd", "translation": [0.0, -30.0, 0.0],
            "extensions": {BODY: {"motion": {"type": "static"}}}}),
        None,
    );
    let n = add_node(
        doc,
        json!({"name": "LooseJoint", "translation": [0.0, -30.0, 0.0],
            "extensions": {JOINT: {"connectedNode": b, "joint": 0}}}),
        None,
    );
    Some(node_ext(n, JOINT))
}
fn joint_node_shared(case: &mut Case) -> Option<String> {
    Some(joint_with_camera(case, 1.0)?.1)
}
fn joint_connected_no_body(case: &mut Case) -> Option<String> {
    joint_to_plain(case, "connectedNode", "NoBody")
}
fn joint_same_body(case: &mut Case) -> Option<String> {
    let (n, at) = first_joint(case)?;
    case.json_mut()?["nodes"][n]["extensions"][JOINT]["connectedNode"] = json!(n);
    Some(format!("{at}/connectedNode"))
}
fn joint_settings_empty(case: &mut Case) -> Option<String> {
    case.json()?.pointer(JOINTS)?;
    let j = push_root_ext(case.json_mut()?, JOINT, "physicsJoints", json!({}));
    Some(format!("{JOINTS}/{j}"))
}
fn limit_unbounded(case: &mut Case) -> Option<String> {
    let (at, l) = first_limit(case)?;
    let o = l.as_object_mut()?;
    o.remove("min");
    o.remove("max");
    Some(at)
}

/// The mutators of both revisions.
const BOTH: &[Row] = &[
    (
        Code::ExtRequired,
        "joint-without-connected-node",
        needs::JOINT,
        ext_required,
    ),
    (
        Code::EnumInvalid,
        "motion-type-rigid",
        needs::BODY,
        enum_invalid,
    ),
    (
        Code::ShapeDegenerate,
        "sphere-radius-zero",
        needs::SPHERE,
        sphere_radius_zero,
    ),
    (
        Code::ShapeParametersMismatch,
        "sphere-typed-box",
        needs::SPHERE,
        sphere_typed_box,
    ),
    (
        Code::MeshShapeMultiplePrimitives,
        "mesh-two-primitives",
        Some("shape.mesh"),
        multiple_primitives,
    ),
    (
        Code::LimitMinAboveMax,
        "limit-min-above-max",
        needs::JOINT,
        limit_min_above_max,
    ),
    (
        Code::AxisOutOfRange,
        "limit-axis-3",
        needs::JOINT,
        limit_axis_3,
    ),
    (
        Code::AxisDuplicate,
        "limit-axis-twice",
        needs::JOINT,
        axis_duplicate,
    ),
    (
        Code::DampingNegative,
        "limit-damping-negative",
        needs::JOINT,
        limit_damping_minus_one,
    ),
    (
        Code::OmiMeshMissing,
        "convex-mesh-minus-one",
        Some("shape.convex"),
        mesh_missing,
    ),
    (
        Code::OmiTriggerTrimesh,
        "trimesh-trigger",
        Some("shape.trimesh"),
        trigger_trimesh,
    ),
    (
        Code::OmiColliderScaled,
        "collider-scaled",
        needs::COLLIDER,
        collider_scaled,
    ),
    (Code::OmiMassZero, "mass-zero", needs::BODY, mass_zero),
    (
        Code::OmiInertiaPartlyZero,
        "inertia-one-zero",
        needs::BODY,
        inertia_partly_zero,
    ),
    (
        Code::OmiInertiaOrientationNotUnit,
        "inertia-orientation-length-2",
        needs::BODY,
        inertia_orientation_not_unit,
    ),
    (
        Code::OmiColliderShapeMissing,
        "collider-shape-minus-one",
        needs::COLLIDER,
        collider_shape_missing,
    ),
    (Code::OmiTriggerEmpty, "trigger-empty", None, trigger_empty),
    (
        Code::OmiTriggerShapeAndNodes,
        "compound-trigger-with-shape",
        needs::COMPOUND,
        trigger_shape_and_nodes,
    ),
    (
        Code::OmiTriggerNodeDuplicate,
        "compound-member-twice",
        needs::COMPOUND,
        trigger_node_duplicate,
    ),
    (
        Code::OmiTriggerNodeNotDescendant,
        "compound-member-outside",
        needs::COMPOUND,
        trigger_node_not_descendant,
    ),
    (
        Code::OmiTriggerNodeNotTrigger,
        "compound-member-plain",
        needs::COMPOUND,
        compound_member_plain,
    ),
    (
        Code::OmiFilterBothLists,
        "filter-both-lists",
        None,
        filter_both_lists,
    ),
    (
        Code::OmiBodySameNode,
        "collider-on-motion-node",
        needs::BODY,
        body_same_node,
    ),
    (
        Code::OmiJointNoDynamicAncestor,
        "joint-from-nothing-to-dynamic",
        needs::JOINT,
        joint_no_dynamic_ancestor,
    ),
    (
        Code::OmiJointNoDynamicBody,
        "joint-to-static-from-nothing",
        needs::JOINT,
        joint_no_dynamic_body,
    ),
    (
        Code::OmiMotionTypeMissing,
        "motion-without-type",
        needs::BODY,
        motion_type_missing,
    ),
    (
        Code::OmiJointNodeShared,
        "joint-node-camera",
        needs::JOINT,
        joint_node_shared,
    ),
    (
        Code::OmiJointConnectedNoBody,
        "joint-connected-plain-node",
        needs::JOINT,
        joint_connected_no_body,
    ),
    (
        Code::OmiJointConnectedSameBody,
        "joint-connected-to-itself",
        needs::JOINT,
        joint_same_body,
    ),
    (
        Code::OmiJointSettingsEmpty,
        "joint-settings-empty",
        needs::JOINT,
        joint_settings_empty,
    ),
    (
        Code::OmiLimitNoAxes,
        "limit-without-axes",
        needs::JOINT,
        limit_without_axes,
    ),
    (
        Code::OmiLimitUnbounded,
        "limit-without-bounds",
        needs::JOINT,
        limit_unbounded,
    ),
    (
        Code::OmiNegativeSentinel,
        "limit-stiffness-minus-one",
        needs::JOINT,
        limit_stiffness_minus_one,
    ),
];

/// omi-2024 only: the full-height capsule.
const ONLY_2024: &[Row] = &[(
    Code::OmiCapsuleTooShort,
    "capsule-shorter-than-diameter",
    None,
    capsule_too_short,
)];

/// omi-2025 only: the codes about its spelling or about undated documents.
const ONLY_2025: &[Row] = &[
    (
        Code::OmiShapeOtherRevision,
        "capsule-radius-beside-radius-top",
        None,
        other_revision,
    ),
    (
        Code::OmiCapsuleAmbiguous,
        "capsule-height-only",
        None,
        capsule_ambiguous,
    ),
    (Code::OmiShapeTapered, "capsule-tapered", None, tapered),
];

pub fn mutators() -> Vec<Mutator> {
    let mut v = Vec::new();
    for (p, only) in [(Profile::Omi2024, ONLY_2024), (Profile::Omi2025, ONLY_2025)] {
        v.extend(of_rows(p, GENERIC));
        v.extend(of_rows(p, BOTH));
        v.extend(of_rows(p, only));
    }
    v
}
