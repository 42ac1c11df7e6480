//! OMI_physics_body / OMI_collider / OMI_physics_shape / OMI_physics_joint defects.

use reference::issue::Code;
use reference::omi::{BODY, COLLIDER, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::json::{add_mesh, add_node, node_ext, nodes_with, of_type, push_root_ext};
use super::mutator::{Mutator, Row, of_rows};
use crate::case::Case;

const COLLIDERS: &str = "/extensions/OMI_collider/colliders";

/// The document-level shape list of the scene's dialect: (pointer of the list, node key).
fn shape_list(doc: &Value) -> Option<(&'static str, &'static str, &'static str)> {
    if doc["extensions"].get(COLLIDER).is_some() {
        Some((COLLIDERS, COLLIDER, "collider"))
    } else if doc["extensions"].get(SHAPE).is_some() {
        Some(("/extensions/OMI_physics_shape/shapes", SHAPE, "shape"))
    } else {
        None
    }
}

/// The first joint node: (node, pointer of its extension).
pub(super) fn first_joint(case: &Case) -> Option<(usize, String)> {
    let doc = case.json()?;
    let j = *nodes_with(doc, JOINT, "").first()?;
    Some((j, node_ext(j, JOINT)))
}

fn capsule_too_short(case: &mut Case) -> Option<String> {
    let (at, c) = of_type(case, COLLIDERS, &["sphere", "box", "capsule", "cylinder"])?;
    let trigger = c.get("isTrigger").cloned();
    *c = json!({"type": "capsule", "radius": 0.5, "height": 0.6});
    if let Some(t) = trigger {
        c["isTrigger"] = t;
    }
    Some(format!("{at}/height"))
}
fn mesh_missing(case: &mut Case) -> Option<String> {
    let (at, c) = of_type(
        case,
        COLLIDERS,
        &["sphere", "box", "capsule", "cylinder", "hull"],
    )?;
    let trigger = c.get("isTrigger").cloned();
    *c = json!({"type": "hull"});
    if let Some(t) = trigger {
        c["isTrigger"] = t;
    }
    Some(at)
}
fn trigger_trimesh(case: &mut Case) -> Option<String> {
    let (at, c) = of_type(case, COLLIDERS, &["trimesh"])?;
    c["isTrigger"] = json!(true);
    Some(format!("{at}/isTrigger"))
}
fn collider_scaled(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, COLLIDER, "collider")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"].get(BODY).is_none())?;
    doc["nodes"][n]["scale"] = json!([2.0, 2.0, 2.0]);
    Some(format!("/nodes/{n}/scale"))
}
fn body_without_shapes(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = add_node(
        doc,
        json!({"name": "EmptyBody", "translation": [0.0, -30.0, 0.0], "extensions": {BODY: {"type": "static"}}}),
        None,
    );
    // A base with only OMI_collider colliders does not declare the body extension yet.
    super::json::declare(doc, BODY);
    Some(node_ext(n, BODY))
}
fn inertia_not_symmetric(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, BODY, "type").iter().find(|&&n| {
        matches!(
            doc["nodes"][n]["extensions"][BODY]["type"].as_str(),
            Some("rigid" | "vehicle")
        )
    })?;
    doc["nodes"][n]["extensions"][BODY]["inertiaTensor"] =
        json!([1.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    Some(format!("{}/inertiaTensor", node_ext(n, BODY)))
}
fn joint_no_constraints(case: &mut Case) -> Option<String> {
    let (j, at) = first_joint(case)?;
    case.json_mut()?["nodes"][j]["extensions"][JOINT]["constraints"] = json!([]);
    Some(format!("{at}/constraints"))
}
fn constraint_no_axes(case: &mut Case) -> Option<String> {
    let (j, _) = first_joint(case)?;
    let doc = case.json_mut()?;
    let c = push_root_ext(
        doc,
        JOINT,
        "constraints",
        json!({"lowerLimit": -0.5, "upperLimit": 0.5}),
    );
    doc["nodes"][j]["extensions"][JOINT]["constraints"]
        .as_array_mut()?
        .push(json!(c));
    Some(format!("/extensions/{JOINT}/constraints/{c}"))
}
/// A new body node of `kind` with one child shape reusing shape 0.
fn add_body(doc: &mut Value, kind: &str) -> Option<usize> {
    let (_, ext, key) = shape_list(doc)?;
    let b = add_node(
        doc,
        json!({"name": format!("Extra{kind}"), "translation": [0.0, -30.0, 0.0], "extensions": {BODY: {"type": kind}}}),
        None,
    );
    add_node(
        doc,
        json!({"name": format!("Extra{kind}Shape"), "extensions": {ext: {key: 0}}}),
        Some(b),
    );
    Some(b)
}
/// The first joint's `end` (a member naming a node) set to a new plain root node `name`; the
/// pointer of `end`.
pub(super) fn joint_to_plain(case: &mut Case, end: &str, name: &str) -> Option<String> {
    let (j, at) = first_joint(case)?;
    let doc = case.json_mut()?;
    let plain = add_node(
        doc,
        json!({"name": name, "translation": [0.0, -30.0, 0.0]}),
        None,
    );
    doc["nodes"][j]["extensions"][JOINT][end] = json!(plain);
    Some(format!("{at}/{end}"))
}
fn joint_not_body(case: &mut Case) -> Option<String> {
    joint_to_plain(case, "nodeB", "NotABody")
}
fn joint_trigger_body(case: &mut Case) -> Option<String> {
    let (j, at) = first_joint(case)?;
    let doc = case.json_mut()?;
    let t = add_body(doc, "trigger")?;
    doc["nodes"][j]["extensions"][JOINT]["nodeB"] = json!(t);
    Some(format!("{at}/nodeB"))
}
fn joint_same_body(case: &mut Case) -> Option<String> {
    let (j, at) = first_joint(case)?;
    let doc = case.json_mut()?;
    let a = doc["nodes"][j]["extensions"][JOINT]["nodeA"].clone();
    doc["nodes"][j]["extensions"][JOINT]["nodeB"] = a;
    Some(format!("{at}/nodeB"))
}
fn joint_no_rigid_body(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let a = add_body(doc, "static")?;
    let b = add_body(doc, "kinematic")?;
    let c = push_root_ext(doc, JOINT, "constraints", json!({"linearAxes": [0, 1, 2]}));
    let j = add_node(
        doc,
        json!({"name": "JointWithoutRigid", "translation": [0.0, -30.0, 0.0],
        "extensions": {JOINT: {"constraints": [c], "nodeA": a, "nodeB": b}}}),
        None,
    );
    super::json::declare(doc, JOINT);
    super::json::declare(doc, BODY);
    Some(node_ext(j, JOINT))
}
/// A new perspective camera of field of view `yfov` on the first joint's node: (node, pointer
/// of its joint extension).
pub(super) fn joint_with_camera(case: &mut Case, yfov: f64) -> Option<(usize, String)> {
    let (j, at) = first_joint(case)?;
    let doc = case.json_mut()?;
    let cam = super::json::push_top(
        doc,
        "cameras",
        json!({"type": "perspective", "perspective": {"yfov": yfov, "znear": 0.1}}),
    );
    doc["nodes"][j]["camera"] = json!(cam);
    Some((j, at))
}
fn joint_node_not_alone(case: &mut Case) -> Option<String> {
    let (j, _) = joint_with_camera(case, 0.8)?;
    Some(format!("/nodes/{j}/camera"))
}
fn hull_points(case: &mut Case, count: usize) -> Option<String> {
    let (at, _) = of_type(case, COLLIDERS, &["hull"])?;
    // `count` points on a circle in the XZ plane around the Y axis, fanned into triangles.
    #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
    let positions: Vec<[f32; 3]> = (0..count)
        .map(|i| {
            let a = i as f64 / count as f64 * std::f64::consts::TAU;
            [
                (0.3 * a.cos()) as f32,
                if i % 2 == 0 { 0.1 } else { -0.1 },
                (0.3 * a.sin()) as f32,
            ]
        })
        .collect();
    let indices: Vec<u16> = (1..count - 1)
        .flat_map(|i| {
            [
                0,
                u16::try_from(i).unwrap_or(0),
                u16::try_from(i + 1).unwrap_or(0),
            ]
        })
        .collect();
    let doc = case.json_mut()?;
    let m = add_mesh(doc, &positions, &indices);
    doc.pointer_mut(&at)?["mesh"] = json!(m);
    Some(format!("{at}/mesh"))
}
fn hull_too_many_points(case: &mut Case) -> Option<String> {
    hull_points(case, 300)
}
fn hull_few_points(case: &mut Case) -> Option<String> {
    hull_points(case, 3)
}
fn mesh_multiple_primitives(case: &mut Case) -> Option<String> {
    let (at, c) = of_type(case, COLLIDERS, &["hull", "trimesh"])?;
    let m = usize::try_from(c["mesh"].as_u64()?).ok()?;
    let doc = case.json_mut()?;
    let prim = doc["meshes"][m]["primitives"][0].clone();
    doc["meshes"][m]["primitives"].as_array_mut()?.push(prim);
    Some(format!("{at}/mesh"))
}

const COLLIDER_DIALECT: Option<&str> = Some("omi.dialect.omi-collider");
const JOINT_TAG: Option<&str> = Some("omi.joint.");

const ROWS: &[Row] = &[
    (
        Code::OmiCapsuleTooShort,
        "capsule-height-below-diameter",
        COLLIDER_DIALECT,
        capsule_too_short,
    ),
    (
        Code::OmiMeshMissing,
        "hull-without-mesh",
        COLLIDER_DIALECT,
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
        "collider-scale-2",
        Some("collider.child"),
        collider_scaled,
    ),
    (
        Code::OmiBodyWithoutShapes,
        "body-without-shapes",
        None,
        body_without_shapes,
    ),
    (
        Code::OmiInertiaNotSymmetric,
        "inertia-asymmetric",
        Some("body.omi.rigid"),
        inertia_not_symmetric,
    ),
    (
        Code::OmiJointNoConstraints,
        "joint-constraints-empty",
        JOINT_TAG,
        joint_no_constraints,
    ),
    (
        Code::OmiConstraintNoAxes,
        "constraint-without-axes",
        JOINT_TAG,
        constraint_no_axes,
    ),
    (
        Code::OmiJointNotBody,
        "node-b-plain",
        JOINT_TAG,
        joint_not_body,
    ),
    (
        Code::OmiJointTriggerBody,
        "node-b-trigger",
        JOINT_TAG,
        joint_trigger_body,
    ),
    (
        Code::OmiJointSameBody,
        "node-b-is-node-a",
        JOINT_TAG,
        joint_same_body,
    ),
    (
        Code::OmiJointNoRigidBody,
        "static-to-kinematic",
        None,
        joint_no_rigid_body,
    ),
    (
        Code::OmiJointNodeNotAlone,
        "joint-node-with-camera",
        JOINT_TAG,
        joint_node_not_alone,
    ),
    (
        Code::HullTooManyPoints,
        "hull-300-points",
        Some("shape.convex"),
        hull_too_many_points,
    ),
    (
        Code::HullFewPoints,
        "hull-3-points",
        Some("shape.convex"),
        hull_few_points,
    ),
    (
        Code::MeshShapeMultiplePrimitives,
        "mesh-two-primitives",
        Some("shape.convex"),
        mesh_multiple_primitives,
    ),
];

pub fn mutators() -> Vec<Mutator> {
    of_rows(Profile::Omi2023, ROWS)
}
