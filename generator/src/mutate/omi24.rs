//! `omi-2024` / `omi-2025` defects: one mutator per code of the restructured OMI extensions
//! (and the generic and shared physics codes shown on them), for each revision it applies to.
//! A mutated document must still be dated as its base's revision: no mutator here removes a
//! revision's radius keys, and the omi-2025-only codes are not made on omi-2024 bases.

use reference::issue::Code;
use reference::omi::{BODY, JOINT};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::json::{
    add_node, axes_key, first_member, limit_of, node_ext, nodes_with, of_type, push_root_ext,
    set_member,
};
use super::mutator::Mutator;
use crate::case::Case;

const SHAPES: &str = "/extensions/OMI_physics_shape/shapes";
const JOINTS: &str = "/extensions/OMI_physics_joint/physicsJoints";

/// Append a shape; returns its pointer.
fn add_shape(case: &mut Case, shape: Value) -> Option<String> {
    let shapes = case.json_mut()?.pointer_mut(SHAPES)?.as_array_mut()?;
    shapes.push(shape);
    Some(format!("{SHAPES}/{}", shapes.len() - 1))
}

/// The first joint node: (node, pointer of its extension).
fn joint_node(case: &Case) -> Option<(usize, String)> {
    let n = *nodes_with(case.json()?, JOINT, "").first()?;
    Some((n, node_ext(n, JOINT)))
}

/// The first node with `motion`.
fn body_node(case: &Case) -> Option<usize> {
    nodes_with(case.json()?, BODY, "motion").first().copied()
}

fn ext_type(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "collider", "shape", json!("0"))
}
fn ext_required(case: &mut Case) -> Option<String> {
    let (n, at) = joint_node(case)?;
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
fn ext_array_length(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "linearVelocity", json!([0.0, 1.0]))
}
fn ext_unexpected_property(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "bounciness", json!(0.5))
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
fn enum_invalid(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "type", json!("rigid"))
}
fn index_out_of_range(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "collider", "shape", json!(999))
}
fn value_out_of_range(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let m = push_root_ext(
        doc,
        BODY,
        "physicsMaterials",
        json!({"staticFriction": -0.5}),
    );
    Some(format!(
        "/extensions/{BODY}/physicsMaterials/{m}/staticFriction"
    ))
}
fn negative_mass(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "mass", json!(-1.0))
}
fn shape_degenerate(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["sphere"]["radius"] = json!(0.0);
    Some(format!("{at}/sphere/radius"))
}
fn shape_parameters_mismatch(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["type"] = json!("box");
    Some(at)
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
fn limit_min_above_max(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["min"] = json!(1.0);
    l["max"] = json!(0.5);
    Some(at)
}
fn axis_out_of_range(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let key = axes_key(l);
    l[key][0] = json!(3);
    Some(format!("{at}/{key}/0"))
}
fn axis_duplicate(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let key = axes_key(l);
    let axes = l[key].as_array_mut()?;
    if axes.len() >= 3 {
        axes.pop();
    }
    axes.push(axes[0].clone());
    Some(format!("{at}/{key}/{}", axes.len() - 1))
}
fn damping_negative(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["damping"] = json!(-1.0);
    Some(format!("{at}/damping"))
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
fn mass_zero(case: &mut Case) -> Option<String> {
    set_member(case, BODY, "motion", "mass", json!(0.0))
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
fn trigger_empty(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = add_node(
        doc,
        json!({"name": "EmptyTrigger", "translation": [0.0, -30.0, 0.0], "extensions": {BODY: {"trigger": {}}}}),
        None,
    );
    Some(format!("{}/trigger", node_ext(n, BODY)))
}
fn compound(case: &Case) -> Option<(usize, String)> {
    let doc = case.json()?;
    let n = *nodes_with(doc, BODY, "trigger")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][BODY]["trigger"]["nodes"].is_array())?;
    Some((n, format!("{}/trigger", node_ext(n, BODY))))
}
fn compound_nodes(case: &mut Case, n: usize) -> Option<&mut Vec<Value>> {
    case.json_mut()?["nodes"][n]["extensions"][BODY]["trigger"]["nodes"].as_array_mut()
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
    let (n, at) = compound(case)?;
    let shape = trigger_shape(case)?;
    case.json_mut()?["nodes"][n]["extensions"][BODY]["trigger"]["shape"] = json!(shape);
    Some(at)
}
fn trigger_node_duplicate(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let nodes = compound_nodes(case, n)?;
    nodes.push(nodes.first()?.clone());
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let shape = trigger_shape(case)?;
    let outside = add_node(
        case.json_mut()?,
        json!({"name": "OutsideTrigger", "translation": [0.0, -30.0, 0.0], "extensions": {BODY: {"trigger": {"shape": shape}}}}),
        None,
    );
    let nodes = compound_nodes(case, n)?;
    nodes.push(json!(outside));
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
fn trigger_node_not_trigger(case: &mut Case) -> Option<String> {
    let (n, at) = compound(case)?;
    let plain = add_node(case.json_mut()?, json!({"name": "NotATrigger"}), Some(n));
    let nodes = compound_nodes(case, n)?;
    nodes.push(json!(plain));
    Some(format!("{at}/nodes/{}", nodes.len() - 1))
}
fn filter_both_lists(case: &mut Case) -> Option<String> {
    let f = push_root_ext(
        case.json_mut()?,
        BODY,
        "collisionFilters",
        json!({"collisionSystems": ["A"], "collideWithSystems": ["B"], "notCollideWithSystems": ["C"]}),
    );
    Some(format!("/extensions/{BODY}/collisionFilters/{f}"))
}
fn body_same_node(case: &mut Case) -> Option<String> {
    let n = body_node(case)?;
    case.json_mut()?["nodes"][n]["extensions"][BODY]["collider"] = json!({"shape": 0});
    Some(node_ext(n, BODY))
}
/// A joint hung from a plain root node (no body) to a dynamic body.
fn joint_no_dynamic_ancestor(case: &mut Case) -> Option<String> {
    joint_node(case)?;
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
    joint_node(case)?;
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
    let (n, at) = joint_node(case)?;
    let doc = case.json_mut()?;
    let camera = super::json::push_top(
        doc,
        "cameras",
        json!({"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}),
    );
    doc["nodes"][n]["camera"] = json!(camera);
    Some(at)
}
fn joint_connected_no_body(case: &mut Case) -> Option<String> {
    let (n, at) = joint_node(case)?;
    let doc = case.json_mut()?;
    let plain = add_node(
        doc,
        json!({"name": "NoBody", "translation": [0.0, -30.0, 0.0]}),
        None,
    );
    doc["nodes"][n]["extensions"][JOINT]["connectedNode"] = json!(plain);
    Some(format!("{at}/connectedNode"))
}
fn joint_same_body(case: &mut Case) -> Option<String> {
    let (n, at) = joint_node(case)?;
    case.json_mut()?["nodes"][n]["extensions"][JOINT]["connectedNode"] = json!(n);
    Some(format!("{at}/connectedNode"))
}
fn joint_settings_empty(case: &mut Case) -> Option<String> {
    case.json()?.pointer(JOINTS)?;
    let j = push_root_ext(case.json_mut()?, JOINT, "physicsJoints", json!({}));
    Some(format!("{JOINTS}/{j}"))
}
fn limit_no_axes(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let o = l.as_object_mut()?;
    o.remove("linearAxes");
    o.remove("angularAxes");
    Some(at)
}
fn limit_unbounded(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    let o = l.as_object_mut()?;
    o.remove("min");
    o.remove("max");
    Some(at)
}
fn negative_sentinel(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["stiffness"] = json!(-1.0);
    Some(format!("{at}/stiffness"))
}

type Apply = fn(&mut Case) -> Option<String>;
/// A row of [`table`]: code, name, the feature its base needs, the edit, the one revision it
/// is for (`None`: both).
type Row = (
    Code,
    &'static str,
    Option<&'static str>,
    Apply,
    Option<Profile>,
);

/// Mutators of both revisions (the last flag: omi-2025 only, for the codes about its
/// spelling or about undated documents; omi-2024 only for the full-height capsule).
fn table() -> Vec<Row> {
    let body = Some("body.");
    let joint = Some("joint.kind");
    let collider = Some("collider.");
    let compound_t = Some("trigger.compound");
    vec![
        (
            Code::ExtType,
            "collider-shape-string",
            collider,
            ext_type,
            None,
        ),
        (
            Code::ExtRequired,
            "joint-without-connected-node",
            joint,
            ext_required,
            None,
        ),
        (
            Code::ExtArrayLength,
            "velocity-two-components",
            body,
            ext_array_length,
            None,
        ),
        (
            Code::ExtUnexpectedProperty,
            "motion-unknown-property",
            body,
            ext_unexpected_property,
            None,
        ),
        (
            Code::EnumUnknown,
            "drive-mode-velocity",
            Some("joint.drive.mode"),
            enum_unknown,
            None,
        ),
        (
            Code::EnumInvalid,
            "motion-type-rigid",
            body,
            enum_invalid,
            None,
        ),
        (
            Code::IndexOutOfRange,
            "collider-shape-999",
            collider,
            index_out_of_range,
            None,
        ),
        (
            Code::ValueOutOfRange,
            "static-friction-negative",
            None,
            value_out_of_range,
            None,
        ),
        (
            Code::NegativeMass,
            "mass-minus-one",
            body,
            negative_mass,
            None,
        ),
        (
            Code::ShapeDegenerate,
            "sphere-radius-zero",
            Some("shape.sphere"),
            shape_degenerate,
            None,
        ),
        (
            Code::ShapeParametersMismatch,
            "sphere-typed-box",
            Some("shape.sphere"),
            shape_parameters_mismatch,
            None,
        ),
        (
            Code::MeshShapeMultiplePrimitives,
            "mesh-two-primitives",
            Some("shape.mesh"),
            multiple_primitives,
            None,
        ),
        (
            Code::LimitMinAboveMax,
            "limit-min-above-max",
            joint,
            limit_min_above_max,
            None,
        ),
        (
            Code::AxisOutOfRange,
            "limit-axis-3",
            joint,
            axis_out_of_range,
            None,
        ),
        (
            Code::AxisDuplicate,
            "limit-axis-twice",
            joint,
            axis_duplicate,
            None,
        ),
        (
            Code::DampingNegative,
            "limit-damping-negative",
            joint,
            damping_negative,
            None,
        ),
        (
            Code::OmiCapsuleTooShort,
            "capsule-shorter-than-diameter",
            None,
            capsule_too_short,
            Some(Profile::Omi2024),
        ),
        (
            Code::OmiMeshMissing,
            "convex-mesh-minus-one",
            Some("shape.convex"),
            mesh_missing,
            None,
        ),
        (
            Code::OmiTriggerTrimesh,
            "trimesh-trigger",
            Some("shape.trimesh"),
            trigger_trimesh,
            None,
        ),
        (
            Code::OmiColliderScaled,
            "collider-scaled",
            collider,
            collider_scaled,
            None,
        ),
        (
            Code::OmiShapeOtherRevision,
            "capsule-radius-beside-radius-top",
            None,
            other_revision,
            Some(Profile::Omi2025),
        ),
        (
            Code::OmiCapsuleAmbiguous,
            "capsule-height-only",
            None,
            capsule_ambiguous,
            Some(Profile::Omi2025),
        ),
        (
            Code::OmiShapeTapered,
            "capsule-tapered",
            None,
            tapered,
            Some(Profile::Omi2025),
        ),
        (Code::OmiMassZero, "mass-zero", body, mass_zero, None),
        (
            Code::OmiInertiaPartlyZero,
            "inertia-one-zero",
            body,
            inertia_partly_zero,
            None,
        ),
        (
            Code::OmiInertiaOrientationNotUnit,
            "inertia-orientation-length-2",
            body,
            inertia_orientation_not_unit,
            None,
        ),
        (
            Code::OmiColliderShapeMissing,
            "collider-shape-minus-one",
            collider,
            collider_shape_missing,
            None,
        ),
        (
            Code::OmiTriggerEmpty,
            "trigger-empty",
            None,
            trigger_empty,
            None,
        ),
        (
            Code::OmiTriggerShapeAndNodes,
            "compound-trigger-with-shape",
            compound_t,
            trigger_shape_and_nodes,
            None,
        ),
        (
            Code::OmiTriggerNodeDuplicate,
            "compound-member-twice",
            compound_t,
            trigger_node_duplicate,
            None,
        ),
        (
            Code::OmiTriggerNodeNotDescendant,
            "compound-member-outside",
            compound_t,
            trigger_node_not_descendant,
            None,
        ),
        (
            Code::OmiTriggerNodeNotTrigger,
            "compound-member-plain",
            compound_t,
            trigger_node_not_trigger,
            None,
        ),
        (
            Code::OmiFilterBothLists,
            "filter-both-lists",
            None,
            filter_both_lists,
            None,
        ),
        (
            Code::OmiBodySameNode,
            "collider-on-motion-node",
            body,
            body_same_node,
            None,
        ),
        (
            Code::OmiJointNoDynamicAncestor,
            "joint-from-nothing-to-dynamic",
            joint,
            joint_no_dynamic_ancestor,
            None,
        ),
        (
            Code::OmiJointNoDynamicBody,
            "joint-to-static-from-nothing",
            joint,
            joint_no_dynamic_body,
            None,
        ),
        (
            Code::OmiMotionTypeMissing,
            "motion-without-type",
            body,
            motion_type_missing,
            None,
        ),
        (
            Code::OmiJointNodeShared,
            "joint-node-camera",
            joint,
            joint_node_shared,
            None,
        ),
        (
            Code::OmiJointConnectedNoBody,
            "joint-connected-plain-node",
            joint,
            joint_connected_no_body,
            None,
        ),
        (
            Code::OmiJointConnectedSameBody,
            "joint-connected-to-itself",
            joint,
            joint_same_body,
            None,
        ),
        (
            Code::OmiJointSettingsEmpty,
            "joint-settings-empty",
            joint,
            joint_settings_empty,
            None,
        ),
        (
            Code::OmiLimitNoAxes,
            "limit-without-axes",
            joint,
            limit_no_axes,
            None,
        ),
        (
            Code::OmiLimitUnbounded,
            "limit-without-bounds",
            joint,
            limit_unbounded,
            None,
        ),
        (
            Code::OmiNegativeSentinel,
            "limit-stiffness-minus-one",
            joint,
            negative_sentinel,
            None,
        ),
    ]
}

pub fn mutators() -> Vec<Mutator> {
    let mut v = Vec::new();
    for profile in [Profile::Omi2024, Profile::Omi2025] {
        for (code, name, needs, apply, only) in table() {
            if only.is_none_or(|p| p == profile) {
                v.push(Mutator {
                    code,
                    name,
                    profile,
                    needs,
                    apply,
                });
            }
        }
    }
    v
}
