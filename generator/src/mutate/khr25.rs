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
    add_accessor, add_mesh, add_node, limit_of, node_ext, nodes_with, of_type, push_root_ext,
    push_top,
};
use super::khr as draft;
use super::mutator::Mutator;
use crate::case::Case;

const SHAPES: &str = "/extensions/KHR_implicit_shapes/shapes";
const JOINTS: &str = "/extensions/KHR_physics_rigid_bodies/physicsJoints";

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

/// A limit stiffness below the 2025 schema's minimum of 0 (0 itself is allowed there).
fn stiffness_negative(case: &mut Case) -> Option<String> {
    let (at, l) = limit_of(case, JOINTS, |_| true)?;
    l["stiffness"] = json!(-1.0);
    Some(format!("{at}/stiffness"))
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
fn shape_parameters_mismatch(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["type"] = json!("box");
    Some(at)
}
fn mesh_not_triangles(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    let prims = doc["meshes"][m]["primitives"].as_array_mut()?;
    let mut lines = prims.first()?.clone();
    lines["mode"] = json!(1);
    prims.push(lines);
    mesh_collider(doc, m, key)?;
    Some(format!("/meshes/{m}/primitives/1/mode"))
}
fn mesh_empty(case: &mut Case) -> Option<String> {
    let key = mesh_key(case);
    let doc = case.json_mut()?;
    let m = tetrahedron(doc);
    // Two vertices and no index list: no triangle at all.
    let prim = doc["meshes"][m]["primitives"][0].as_object_mut()?;
    prim.remove("indices");
    let pos = usize::try_from(prim["attributes"]["POSITION"].as_u64()?).ok()?;
    doc["accessors"][pos]["count"] = json!(2);
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
fn shape_degenerate(case: &mut Case) -> Option<String> {
    let (at, s) = of_type(case, SHAPES, &["sphere"])?;
    s["sphere"]["radius"] = json!(0.0);
    Some(format!("{at}/sphere/radius"))
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
fn mass_zero(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, RIGID_BODIES, "motion").first()?;
    doc["nodes"][n]["extensions"][RIGID_BODIES]["motion"]["mass"] = json!(0.0);
    Some(format!("{}/motion/mass", node_ext(n, RIGID_BODIES)))
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
    let joints = case.json_mut()?.pointer_mut(JOINTS)?.as_array_mut()?;
    for (j, joint) in joints.iter_mut().enumerate() {
        if let Some(drives) = joint.get_mut("drives").and_then(Value::as_array_mut) {
            for (d, drive) in drives.iter_mut().enumerate() {
                let o = drive.as_object_mut()?;
                if o.contains_key(kept) && o.remove(removed).is_some() {
                    return Some(format!("{JOINTS}/{j}/drives/{d}/{kept}"));
                }
            }
        }
    }
    None
}
fn trigger_shape_and_nodes(case: &mut Case) -> Option<String> {
    let doc = case.json()?;
    let n = *nodes_with(doc, RIGID_BODIES, "trigger")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].is_array())?;
    // A member's own (valid) geometry: the defect is only that both are given.
    let member = usize::try_from(
        doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"][0].as_u64()?,
    )
    .ok()?;
    let geometry = doc["nodes"][member]["extensions"][RIGID_BODIES]["trigger"]["geometry"].clone();
    let doc = case.json_mut()?;
    doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["geometry"] = geometry;
    Some(format!("{}/trigger", node_ext(n, RIGID_BODIES)))
}
fn trigger_node_not_descendant(case: &mut Case) -> Option<String> {
    let doc = case.json()?;
    let n = *nodes_with(doc, RIGID_BODIES, "trigger")
        .iter()
        .find(|&&n| doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].is_array())?;
    let member = doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"][0].as_u64()?;
    let geometry =
        doc["nodes"][usize::try_from(member).ok()?]["extensions"][RIGID_BODIES]["trigger"]["geometry"]
            .clone();
    let doc = case.json_mut()?;
    let outside = add_node(
        doc,
        json!({"name": "OutsideTrigger", "translation": [0.0, -30.0, 0.0],
            "extensions": {RIGID_BODIES: {"trigger": {"geometry": geometry}}}}),
        None,
    );
    let nodes = doc["nodes"][n]["extensions"][RIGID_BODIES]["trigger"]["nodes"].as_array_mut()?;
    nodes.push(json!(outside));
    Some(format!(
        "{}/trigger/nodes/{}",
        node_ext(n, RIGID_BODIES),
        nodes.len() - 1
    ))
}
/// Both filter lists, empty: the 2025 schema allows empty lists, not both.
fn filter_both_lists(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let f = push_root_ext(
        doc,
        RIGID_BODIES,
        "collisionFilters",
        json!({"collisionSystems": ["A"], "collideWithSystems": [], "notCollideWithSystems": ["C"]}),
    );
    Some(format!("/extensions/{RIGID_BODIES}/collisionFilters/{f}"))
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

/// Every mutator of both revisions.
pub fn mutators() -> Vec<Mutator> {
    let mut v = of_revision(Profile::Khr2025);
    v.extend(of_revision(Profile::Khr2026));
    v
}

/// The mutators on bases of `p` (`khr-2025` or `khr-2026`).
fn of_revision(p: Profile) -> Vec<Mutator> {
    let r2026 = p == Profile::Khr2026;
    let m = |code, (name25, name26): (&'static str, &'static str), needs, apply| Mutator {
        code,
        name: if r2026 { name26 } else { name25 },
        profile: p,
        needs,
        apply,
    };
    let body = Some("body.");
    let joint = Some("joint.kind");
    let sphere = Some("shape.sphere");
    let collider = Some("collider.");
    let compound_t = Some("trigger.compound");
    let mut v = vec![
        m(
            Code::ExtType,
            named!("geometry-shape-string"),
            sphere,
            ext_type,
        ),
        m(
            Code::ExtRequired,
            named!("collider-without-geometry"),
            collider,
            ext_required,
        ),
        m(
            Code::IndexOutOfRange,
            named!("geometry-shape-999"),
            sphere,
            index_out_of_range,
        ),
        m(
            Code::NegativeMass,
            named!("mass-minus-one"),
            body,
            draft::negative_mass,
        ),
        m(
            Code::ShapeParametersMismatch,
            named!("box-with-sphere-parameters"),
            sphere,
            shape_parameters_mismatch,
        ),
        m(
            Code::MeshShapeNotTriangles,
            named!("mesh-lines"),
            None,
            mesh_not_triangles,
        ),
        m(
            Code::MeshShapeEmpty,
            named!("mesh-two-vertices"),
            None,
            mesh_empty,
        ),
        m(
            Code::LimitMinAboveMax,
            named!("min-above-max"),
            joint,
            draft::limit_min_above_max,
        ),
        m(
            Code::AxisOutOfRange,
            named!("axis-3"),
            joint,
            draft::axis_out_of_range,
        ),
        m(
            Code::AxisDuplicate,
            named!("axis-twice"),
            joint,
            draft::axis_duplicate,
        ),
        m(
            Code::StiffnessNotPositive,
            named!("stiffness-negative"),
            joint,
            stiffness_negative,
        ),
        m(
            Code::DampingNegative,
            named!("damping-minus-one"),
            joint,
            draft::damping_negative,
        ),
        m(
            Code::KhrInertiaOrientationNotUnit,
            named!("inertia-orientation-length-2"),
            body,
            draft::inertia_orientation_not_unit,
        ),
        m(
            Code::KhrLimitAxesBoth,
            named!("limit-both-axes"),
            Some("joint.limit.linear"),
            draft::limit_axes_both,
        ),
        m(
            Code::KhrLimitAxesMissing,
            named!("limit-no-axes"),
            joint,
            draft::limit_axes_missing,
        ),
        m(
            Code::KhrJointNoMotion,
            named!("joint-between-static-nodes"),
            joint,
            draft::joint_no_motion,
        ),
        m(
            Code::KhrFilterBothLists,
            named!("filter-both-lists"),
            None,
            filter_both_lists,
        ),
        m(
            Code::KhrTriggerShapeAndNodes,
            named!("compound-with-geometry"),
            compound_t,
            trigger_shape_and_nodes,
        ),
        m(
            Code::KhrTriggerEmpty,
            named!("trigger-empty"),
            None,
            draft::trigger_empty,
        ),
        m(
            Code::KhrTriggerNodeNotDescendant,
            named!("compound-member-outside"),
            compound_t,
            trigger_node_not_descendant,
        ),
        m(
            Code::KhrTriggerNodeNotTrigger,
            named!("compound-member-plain"),
            compound_t,
            draft::trigger_node_not_trigger,
        ),
        m(
            Code::KhrGeometryEmpty,
            named!("geometry-empty"),
            sphere,
            geometry_empty,
        ),
        m(
            Code::KhrMorphTargetInvalid,
            named!("morph-target-vec2"),
            None,
            morph_target_invalid,
        ),
        m(
            Code::KhrShapeDegenerate,
            named!("sphere-radius-zero"),
            sphere,
            shape_degenerate,
        ),
        m(
            Code::KhrShapeDisabled,
            named!("collider-scale-zero"),
            sphere,
            shape_disabled,
        ),
        m(Code::KhrMassZero, named!("mass-zero"), body, mass_zero),
        m(
            Code::KhrDriveDependency,
            named!("stiffness-without-position-target"),
            Some("joint.drive"),
            drive_dependency,
        ),
        m(
            Code::KhrDriveTargetWithoutGain,
            named!("position-target-without-stiffness"),
            Some("joint.drive"),
            drive_target_without_gain,
        ),
    ];
    if r2026 {
        v.extend([
            m(
                Code::KhrGeometryAmbiguous,
                named!("geometry-shape-and-mesh"),
                sphere,
                geometry_ambiguous,
            ),
            m(
                Code::IndexOutOfRange,
                named!("geometry-mesh-999"),
                Some("geometry.mesh"),
                geometry_mesh_out_of_range,
            ),
            m(
                Code::KhrGeometryNode2025,
                named!("geometry-node-in-2026"),
                Some("geometry.mesh"),
                geometry_node_2025,
            ),
            m(
                Code::KhrGeometryMeshUnskinned,
                named!("geometry-mesh-drawn-skinned"),
                None,
                geometry_mesh_unskinned,
            ),
        ]);
    } else {
        // Node geometry is the 2025 form: its codes are 2025's (in a 2026 document a node
        // geometry is read by the same rule, after KHR_GEOMETRY_NODE_2025).
        v.extend([
            m(
                Code::KhrGeometryShapeAndNode,
                named!("geometry-shape-and-node"),
                sphere,
                geometry_shape_and_node,
            ),
            m(
                Code::KhrGeometryNoMesh,
                named!("geometry-no-mesh"),
                None,
                geometry_no_mesh,
            ),
            m(
                Code::KhrGeometryDeformed,
                named!("skin-under-singular-geometry-node"),
                None,
                geometry_deformed,
            ),
            m(
                Code::KhrSkinAttributeMissing,
                named!("skin-without-weights"),
                None,
                skin_attribute_missing,
            ),
            m(
                Code::KhrSkinAccessorInvalid,
                named!("skin-one-inverse-bind-for-two-joints"),
                None,
                skin_accessor_invalid,
            ),
            m(
                Code::KhrSkinJointOutOfRange,
                named!("skin-joint-5-of-2"),
                None,
                skin_joint_out_of_range,
            ),
            m(
                Code::KhrSkinWeightsNotNormalized,
                named!("skin-weights-half"),
                None,
                skin_weights_not_normalized,
            ),
        ]);
    }
    v
}
