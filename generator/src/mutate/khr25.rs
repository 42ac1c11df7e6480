//! `khr-2025` and `khr-2026` defects: KHR_physics_rigid_bodies (PR #2424, and its January-2026
//! revision) with KHR_implicit_shapes. Every code whose scope names either revision has a
//! mutator here, on a base of that revision: the edits the two share are written once and
//! listed for both (a mesh shape is written as the base's revision writes it: a node geometry
//! on the collider's own node, or a mesh geometry); the rules all KHR revisions share reuse the
//! draft's edits where the spelling is the same.

use reference::issue::Code;
use reference::khr::RIGID_BODIES;
use reference::profile::Profile;
use serde_json::{Value, json};

use super::json::{
    add_accessor, add_lines, add_mesh, add_node, node_ext, nodes_with, push_top, two_vertices,
};
use super::khr as draft;
use super::mutator::{Apply, Mutator, Row, needs, of_rows};
use super::physics::*;
use crate::case::Case;

/// The first collider whose geometry names a `key` (`shape` or `node`): (pointer of the
/// collider's geometry, geometry).
fn geometry<'a>(case: &'a mut Case, key: &str) -> Option<(String, &'a mut Value)> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, RIGID_BODIES, "collider")
        .iter()
        .find(|&&n| {
            doc["nodes"][n]["extensions"][RIGID_BODIES]["collider"]["geometry"]
                .get(key)
                .is_some()
        })?;
    Some((
        format!("{}/collider/geometry", node_ext(n, RIGID_BODIES)),
        &mut doc["nodes"][n]["extensions"][RIGID_BODIES]["collider"]["geometry"],
    ))
}

/// The key a mesh geometry of `case`'s revision names: `mesh` (`khr-2026`) or `node`.
fn mesh_key(case: &Case) -> &'static str {
    if case.profile == Some(Profile::Khr2026) {
        "mesh"
    } else {
        "node"
    }
}

/// A new static collider far below the scene on mesh `mesh`, drawn by the collider's node,
/// whose geometry names the mesh (`key` `mesh`) or the node (`node`); returns the pointer of
/// its `geometry/<key>`.
fn mesh_collider(doc: &mut Value, mesh: usize, key: &str) -> Option<String> {
    let n = doc["nodes"].as_array()?.len();
    let source = if key == "mesh" { mesh } else { n };
    let added = add_node(
        doc,
        json!({"name": "MeshCollider", "mesh": mesh, "translation": [0.0, -30.0, 0.0],
            "extensions": {RIGID_BODIES: {"collider": {"geometry": {key: source, "convexHull": true}}}}}),
        None,
    );
    (added == n).then(|| format!("{}/collider/geometry/{key}", node_ext(n, RIGID_BODIES)))
}

/// A tetrahedron.
fn tetrahedron(doc: &mut Value) -> usize {
    add_mesh(
        doc,
        &[
            [1.0, 1.0, 1.0],
            [1.0, -1.0, -1.0],
            [-1.0, 1.0, -1.0],
            [-1.0, -1.0, 1.0],
        ],
        &[0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2],
    )
}

fn ext_type(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "shape")?;
    g["shape"] = json!("0");
    Some(format!("{at}/shape"))
}
fn ext_required(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let at = match geometry(case, "shape") {
        Some((at, _)) => at,
        None => geometry(case, key)?.0,
    };
    let collider = at.strip_suffix("/geometry")?.to_owned();
    case.json_mut()?
        .pointer_mut(&collider)?
        .as_object_mut()?
        .remove("geometry");
    Some(collider)
}
fn index_out_of_range(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "shape")?;
    g["shape"] = json!(999);
    Some(format!("{at}/shape"))
}
fn mesh_not_triangles(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    let at = add_lines(doc, m)?;
    mesh_collider(doc, m, key)?;
    Some(at)
}
fn mesh_empty(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    two_vertices(doc, m)?;
    mesh_collider(doc, m, key)
}
fn geometry_shape_and_node(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "shape")?;
    g["node"] = json!(0);
    Some(at)
}
fn geometry_empty(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "shape")?;
    g.as_object_mut()?.remove("shape");
    Some(at)
}
/// A new static collider whose geometry names a plain node (no mesh below it).
fn geometry_no_mesh(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let plain = add_node(doc, json!({"name": "NoMesh"}), None);
    let n = add_node(
        doc,
        json!({"name": "EmptyGeometry", "translation": [0.0, -30.0, 0.0],
            "extensions": {RIGID_BODIES: {"collider": {"geometry": {"node": plain}}}}}),
        None,
    );
    Some(format!(
        "{}/collider/geometry/node",
        node_ext(n, RIGID_BODIES)
    ))
}
/// What to spoil in [`skinned_collider`]'s skin.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SkinDefect {
    /// WEIGHTS_0 left out.
    NoWeights,
    /// One inverse bind matrix for two joints.
    OneInverseBind,
    /// Vertices weighted to joint 5 of 2.
    JointFive,
    /// Weights summing to 0.5.
    HalfWeights,
    /// The skinned node is the child of an out-of-scene geometry node of scale [1, 0, 1].
    SingularGeometry,
    /// No defect, and the collider's geometry names the mesh (`khr-2026`).
    None,
}

/// A tetrahedron skinned to two new joints at y = -30 (joint 1, weighted 1 on vertex 0, is
/// 1 m higher), on a new static collider node whose geometry is itself (or, for
/// [`SkinDefect::SingularGeometry`], an out-of-scene parent), with `defect`. Returns
/// (mesh, skin, collider node).
fn skinned_collider(doc: &mut Value, defect: SkinDefect) -> Option<(usize, usize, usize)> {
    let m = tetrahedron(doc);
    let bytes = |v: &[f32]| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    let far = json!([0.0, -30.0, 0.0]);
    let j0 = add_node(doc, json!({"name": "SkinJoint0", "translation": far}), None);
    // A child of joint 0: the joints of a skin share a root (core glTF, SKIN_NO_COMMON_ROOT).
    let j1 = add_node(
        doc,
        json!({"name": "SkinJoint1", "translation": [0.0, 1.0, 0.0]}),
        Some(j0),
    );
    let second = if defect == SkinDefect::JointFive {
        5
    } else {
        1
    };
    let joints: Vec<u8> = [second, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0].to_vec();
    let w = if defect == SkinDefect::HalfWeights {
        0.5
    } else {
        1.0
    };
    let weights = bytes(&[w, 0.0, 0.0, 0.0].repeat(4));
    let ja = add_accessor(doc, &joints, 5121, 4, "VEC4");
    let wa = add_accessor(doc, &weights, 5126, 4, "VEC4");
    // Identity inverse bind matrices (column-major): joint 0 at (0, -30, 0) puts the
    // tetrahedron there at rest, joint 1 lifts vertex 0 by 1 m.
    let identity = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let mut ibm = identity.to_vec();
    if defect != SkinDefect::OneInverseBind {
        ibm.extend(identity);
    }
    let ia = add_accessor(doc, &bytes(&ibm), 5126, ibm.len() / 16, "MAT4");
    let attributes = &mut doc["meshes"][m]["primitives"][0]["attributes"];
    attributes["JOINTS_0"] = json!(ja);
    if defect != SkinDefect::NoWeights {
        attributes["WEIGHTS_0"] = json!(wa);
    }
    let skin = push_top(
        doc,
        "skins",
        json!({"joints": [j0, j1], "inverseBindMatrices": ia}),
    );
    let n = doc["nodes"].as_array()?.len();
    let geometry = if defect == SkinDefect::None {
        json!({"mesh": m, "convexHull": true})
    } else {
        json!({"node": n, "convexHull": true})
    };
    let collider = json!({"collider": {"geometry": geometry}});
    if defect == SkinDefect::SingularGeometry {
        let skinned = push_top(
            doc,
            "nodes",
            json!({"name": "Skinned", "mesh": m, "skin": skin}),
        );
        let g = push_top(
            doc,
            "nodes",
            json!({"name": "SingularGeometry", "scale": [1.0, 0.0, 1.0], "children": [skinned]}),
        );
        let c = add_node(
            doc,
            json!({"name": "SkinCollider", "translation": far,
                "extensions": {RIGID_BODIES: {"collider": {"geometry": {"node": g, "convexHull": true}}}}}),
            None,
        );
        return Some((m, skin, c));
    }
    let added = add_node(
        doc,
        json!({"name": "SkinCollider", "mesh": m, "skin": skin, "translation": far,
            "extensions": {RIGID_BODIES: collider}}),
        None,
    );
    (added == n).then_some((m, skin, n))
}
fn skin_attribute_missing(case: &mut Case) -> Option<String> {
    let (m, _, _) = skinned_collider(case.json_mut()?, SkinDefect::NoWeights)?;
    Some(format!("/meshes/{m}/primitives/0/attributes"))
}
fn skin_accessor_invalid(case: &mut Case) -> Option<String> {
    let (_, s, _) = skinned_collider(case.json_mut()?, SkinDefect::OneInverseBind)?;
    Some(format!("/skins/{s}/inverseBindMatrices"))
}
fn skin_joint_out_of_range(case: &mut Case) -> Option<String> {
    let (m, _, _) = skinned_collider(case.json_mut()?, SkinDefect::JointFive)?;
    Some(format!("/meshes/{m}/primitives/0/attributes/JOINTS_0"))
}
fn skin_weights_not_normalized(case: &mut Case) -> Option<String> {
    let (m, _, _) = skinned_collider(case.json_mut()?, SkinDefect::HalfWeights)?;
    Some(format!("/meshes/{m}/primitives/0/attributes/WEIGHTS_0"))
}
/// A skin under a geometry node whose world transform is singular: left unapplied.
fn geometry_deformed(case: &mut Case) -> Option<String> {
    let (_, _, c) = skinned_collider(case.json_mut()?, SkinDefect::SingularGeometry)?;
    Some(format!(
        "{}/collider/geometry/node",
        node_ext(c, RIGID_BODIES)
    ))
}
/// A morph target whose POSITION is a VEC2, weighted 0.5.
fn morph_target_invalid(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    let deltas: Vec<u8> = [0.0f32, 1.0]
        .repeat(4)
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    let t = add_accessor(doc, &deltas, 5126, 4, "VEC2");
    doc["meshes"][m]["primitives"][0]["targets"] = json!([{"POSITION": t}]);
    doc["meshes"][m]["weights"] = json!([0.5]);
    mesh_collider(doc, m, key)?;
    Some(format!("/meshes/{m}/primitives/0/targets/0/POSITION"))
}
/// A scale of zero on every axis of a collider node without motion or children: disabled
/// (information).
fn shape_disabled(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, RIGID_BODIES, "collider")
        .iter()
        .find(|&&n| {
            let node = &doc["nodes"][n];
            node["extensions"][RIGID_BODIES]["collider"]["geometry"]
                .get("shape")
                .is_some()
                && node["extensions"][RIGID_BODIES].get("motion").is_none()
                && node.get("children").is_none()
        })?;
    doc["nodes"][n]["scale"] = json!([0.0, 0.0, 0.0]);
    Some(format!("{}/collider", node_ext(n, RIGID_BODIES)))
}
/// A drive's `positionTarget` removed, its `stiffness` left: a gain without a target.
fn drive_dependency(case: &mut Case) -> Option<String> {
    drive_without(case, "positionTarget", "stiffness")
}
/// A drive's `stiffness` removed, its `positionTarget` left: a target without its gain
/// (a warning: the default gain 0 makes it harmless).
fn drive_target_without_gain(case: &mut Case) -> Option<String> {
    drive_without(case, "stiffness", "positionTarget")
}
/// The first drive with both `removed` and `kept` loses `removed`; the pointer of `kept`.
fn drive_without(case: &mut Case, removed: &str, kept: &str) -> Option<String> {
    let at = joints(case)?;
    let joints = case.json_mut()?.pointer_mut(&at)?.as_array_mut()?;
    for (j, joint) in joints.iter_mut().enumerate() {
        if let Some(drives) = joint.get_mut("drives").and_then(Value::as_array_mut) {
            for (d, drive) in drives.iter_mut().enumerate() {
                let o = drive.as_object_mut()?;
                if o.contains_key(kept) && o.remove(removed).is_some() {
                    return Some(format!("{at}/{j}/drives/{d}/{kept}"));
                }
            }
        }
    }
    None
}
/// The (valid) geometry of the first compound trigger's first member.
fn member_geometry(case: &Case) -> Option<Value> {
    let (n, _) = compound(case)?;
    let doc = case.json()?;
    let trigger = &doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"];
    let member = usize::try_from(trigger["nodes"][0].as_u64()?).ok()?;
    Some(doc["nodes"][member]["extensions"][RIGID_BODIES]["trigger"]["geometry"].clone())
}
/// A compound trigger given its member's geometry: the defect is only that both are given.
fn trigger_shape_and_nodes(case: &mut Case) -> Option<String> {
    let geometry = member_geometry(case)?;
    compound_with(case, "geometry", geometry)
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    let geometry = member_geometry(case)?;
    compound_member_outside(case, json!({"geometry": geometry}))
}
/// Both filter lists, one empty: the 2025 schema allows empty lists, not both.
fn filter_both_lists(case: &mut Case) -> Option<String> {
    filter_both_lists_with(case, json!([]))
}

/// A geometry that names a shape and a mesh (`khr-2026`).
fn geometry_ambiguous(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "shape")?;
    g["mesh"] = json!(0);
    Some(at)
}
/// A mesh geometry whose mesh index is past `meshes` (`khr-2026`).
fn geometry_mesh_out_of_range(case: &mut Case) -> Option<String> {
    let (at, g) = geometry(case, "mesh")?;
    g["mesh"] = json!(999);
    Some(format!("{at}/mesh"))
}
/// A node geometry, the 2025 form, added to a document that a mesh geometry dates `khr-2026`.
fn geometry_node_2025(case: &mut Case) -> Option<String> {
    geometry(case, "mesh")?;
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    mesh_collider(doc, m, "node")
}
/// A new static collider whose mesh geometry is a tetrahedron that its node draws with a sound
/// skin: read unskinned (information).
fn geometry_mesh_unskinned(case: &mut Case) -> Option<String> {
    let (_, _, c) = skinned_collider(case.json_mut()?, SkinDefect::None)?;
    Some(format!(
        "{}/collider/geometry/mesh",
        node_ext(c, RIGID_BODIES)
    ))
}

/// A mutator's name in each revision, `k25-...` and `k26-...`.
macro_rules! named {
    ($name:literal) => {
        (concat!("k25-", $name), concat!("k26-", $name))
    };
}

/// A row of [`BOTH`]: a [`Row`] with the mutator's name in each revision.
type RowOfBoth = (
    Code,
    (&'static str, &'static str),
    Option<&'static str>,
    Apply,
);

const DRIVE: Option<&str> = Some("joint.drive");

/// The mutators of both revisions.
const BOTH: &[RowOfBoth] = &[
    (
        Code::ExtType,
        named!("geometry-shape-string"),
        needs::SPHERE,
        ext_type,
    ),
    (
        Code::ExtRequired,
        named!("collider-without-geometry"),
        needs::COLLIDER,
        ext_required,
    ),
    (
        Code::IndexOutOfRange,
        named!("geometry-shape-999"),
        needs::SPHERE,
        index_out_of_range,
    ),
    (
        Code::NegativeMass,
        named!("mass-minus-one"),
        needs::BODY,
        mass_minus_one,
    ),
    (
        Code::ShapeParametersMismatch,
        named!("box-with-sphere-parameters"),
        needs::SPHERE,
        sphere_typed_box,
    ),
    (
        Code::MeshShapeNotTriangles,
        named!("mesh-lines"),
        None,
        mesh_not_triangles,
    ),
    (
        Code::MeshShapeEmpty,
        named!("mesh-two-vertices"),
        None,
        mesh_empty,
    ),
    (
        Code::LimitMinAboveMax,
        named!("min-above-max"),
        needs::JOINT,
        limit_min_above_max,
    ),
    (
        Code::AxisOutOfRange,
        named!("axis-3"),
        needs::JOINT,
        limit_axis_3,
    ),
    (
        Code::AxisDuplicate,
        named!("axis-twice"),
        needs::JOINT,
        draft::axis_duplicate,
    ),
    (
        Code::StiffnessNotPositive,
        named!("stiffness-negative"),
        needs::JOINT,
        limit_stiffness_minus_one,
    ),
    (
        Code::DampingNegative,
        named!("damping-minus-one"),
        needs::JOINT,
        limit_damping_minus_one,
    ),
    (
        Code::KhrInertiaOrientationNotUnit,
        named!("inertia-orientation-length-2"),
        needs::BODY,
        draft::inertia_orientation_not_unit,
    ),
    (
        Code::KhrLimitAxesBoth,
        named!("limit-both-axes"),
        Some("joint.limit.linear"),
        draft::limit_axes_both,
    ),
    (
        Code::KhrLimitAxesMissing,
        named!("limit-no-axes"),
        needs::JOINT,
        limit_without_axes,
    ),
    (
        Code::KhrJointNoMotion,
        named!("joint-between-static-nodes"),
        needs::JOINT,
        draft::joint_no_motion,
    ),
    (
        Code::KhrFilterBothLists,
        named!("filter-both-lists"),
        None,
        filter_both_lists,
    ),
    (
        Code::KhrTriggerShapeAndNodes,
        named!("compound-with-geometry"),
        needs::COMPOUND,
        trigger_shape_and_nodes,
    ),
    (
        Code::KhrTriggerEmpty,
        named!("trigger-empty"),
        None,
        trigger_empty,
    ),
    (
        Code::KhrTriggerNodeNotDescendant,
        named!("compound-member-outside"),
        needs::COMPOUND,
        trigger_node_not_descendant,
    ),
    (
        Code::KhrTriggerNodeNotTrigger,
        named!("compound-member-plain"),
        needs::COMPOUND,
        compound_member_plain,
    ),
    (
        Code::KhrGeometryEmpty,
        named!("geometry-empty"),
        needs::SPHERE,
        geometry_empty,
    ),
    (
        Code::KhrMorphTargetInvalid,
        named!("morph-target-vec2"),
        None,
        morph_target_invalid,
    ),
    (
        Code::KhrShapeDegenerate,
        named!("sphere-radius-zero"),
        needs::SPHERE,
        sphere_radius_zero,
    ),
    (
        Code::KhrShapeDisabled,
        named!("collider-scale-zero"),
        needs::SPHERE,
        shape_disabled,
    ),
    (
        Code::KhrMassZero,
        named!("mass-zero"),
        needs::BODY,
        mass_zero,
    ),
    (
        Code::KhrDriveDependency,
        named!("stiffness-without-position-target"),
        DRIVE,
        drive_dependency,
    ),
    (
        Code::KhrDriveTargetWithoutGain,
        named!("position-target-without-stiffness"),
        DRIVE,
        drive_target_without_gain,
    ),
];

/// Node geometry is the 2025 form: its codes are 2025's (in a 2026 document a node geometry is
/// read by the same rule, after KHR_GEOMETRY_NODE_2025).
const ONLY_2025: &[Row] = &[
    (
        Code::KhrGeometryShapeAndNode,
        "k25-geometry-shape-and-node",
        needs::SPHERE,
        geometry_shape_and_node,
    ),
    (
        Code::KhrGeometryNoMesh,
        "k25-geometry-no-mesh",
        None,
        geometry_no_mesh,
    ),
    (
        Code::KhrGeometryDeformed,
        "k25-skin-under-singular-geometry-node",
        None,
        geometry_deformed,
    ),
    (
        Code::KhrSkinAttributeMissing,
        "k25-skin-without-weights",
        None,
        skin_attribute_missing,
    ),
    (
        Code::KhrSkinAccessorInvalid,
        "k25-skin-one-inverse-bind-for-two-joints",
        None,
        skin_accessor_invalid,
    ),
    (
        Code::KhrSkinJointOutOfRange,
        "k25-skin-joint-5-of-2",
        None,
        skin_joint_out_of_range,
    ),
    (
        Code::KhrSkinWeightsNotNormalized,
        "k25-skin-weights-half",
        None,
        skin_weights_not_normalized,
    ),
];

const MESH_GEOMETRY: Option<&str> = Some("geometry.mesh");

const ONLY_2026: &[Row] = &[
    (
        Code::KhrGeometryAmbiguous,
        "k26-geometry-shape-and-mesh",
        needs::SPHERE,
        geometry_ambiguous,
    ),
    (
        Code::IndexOutOfRange,
        "k26-geometry-mesh-999",
        MESH_GEOMETRY,
        geometry_mesh_out_of_range,
    ),
    (
        Code::KhrGeometryNode2025,
        "k26-geometry-node-in-2026",
        MESH_GEOMETRY,
        geometry_node_2025,
    ),
    (
        Code::KhrGeometryMeshUnskinned,
        "k26-geometry-mesh-drawn-skinned",
        None,
        geometry_mesh_unskinned,
    ),
];

/// Every mutator of both revisions.
pub fn mutators() -> Vec<Mutator> {
    let mut v = Vec::new();
    for (p, only) in [(Profile::Khr2025, ONLY_2025), (Profile::Khr2026, ONLY_2026)] {
        let r2026 = p == Profile::Khr2026;
        let both: Vec<Row> = BOTH
            .iter()
            .map(|&(code, (n25, n26), needs, apply)| {
                (code, if r2026 { n26 } else { n25 }, needs, apply)
            })
            .collect();
        v.extend(of_rows(p, &both));
        v.extend(of_rows(p, only));
    }
    v
}
