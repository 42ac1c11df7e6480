//! Core glTF defects (schema, indices, values, hierarchy, transforms), extension declarations,
//! and profile detection.

use reference::issue::Code;
use reference::omi::{COLLIDER, JOINT, SHAPE};
use reference::profile::Profile;
use reference::vrm::KEY;
use serde_json::{Value, json};

use super::json::{add_node, declare, node_ext, parent_of, push_top};
use super::mutator::Mutator;
use crate::case::Case;

fn gltf_schema(case: &mut Case) -> Option<String> {
    case.json_mut()?["nodes"][0]["translation"] = json!("up");
    Some("/nodes/0/translation".into())
}

fn gltf_index(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    let roots = doc["scenes"][0]["nodes"].as_array_mut()?;
    roots.push(json!(count + 7));
    Some(format!("/scenes/0/nodes/{}", roots.len() - 1))
}

/// An unknown sampler `magFilter`: corpus/v1's GLTF_VALUE defect, since issue 36 a warning
/// (GLTF_VALUE_NOT_IN_LIST, as the Khronos validator reads it); see [`child_listed_twice`].
fn gltf_value(case: &mut Case) -> Option<String> {
    let s = push_top(case.json_mut()?, "samplers", json!({"magFilter": 1234}));
    Some(format!("/samplers/{s}/magFilter"))
}

/// A node's first child listed once more among its children: the GLTF_VALUE defect of the
/// living corpus (an error still, where an unknown enum value is no longer one).
pub(super) fn child_listed_twice(case: &mut Case) -> Option<String> {
    let nodes = case.json_mut()?.get_mut("nodes")?.as_array_mut()?;
    let (p, children) = nodes.iter_mut().enumerate().find_map(|(p, n)| {
        let c = n.get_mut("children")?.as_array_mut()?;
        (!c.is_empty()).then_some((p, c))
    })?;
    let first = children.first()?.clone();
    children.push(first);
    Some(format!("/nodes/{p}/children/{}", children.len() - 1))
}

/// A root with a child gets that child as its parent too: root -> child -> root.
fn node_cycle(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let roots: Vec<u64> = doc["scenes"][0]["nodes"]
        .as_array()?
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    let (root, child) = roots.iter().find_map(|&r| {
        let c = doc["nodes"][usize::try_from(r).ok()?]["children"]
            .as_array()?
            .first()?
            .as_u64()?;
        Some((r, usize::try_from(c).ok()?))
    })?;
    let n = &mut doc["nodes"][child];
    if n.get("children").is_none() {
        n["children"] = json!([]);
    }
    let children = n["children"].as_array_mut()?;
    children.push(json!(root));
    Some(format!("/nodes/{child}/children/{}", children.len() - 1))
}

/// A new root node also lists an existing child node.
fn node_multiple_parents(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    let child = (0..count).find(|&n| parent_of(doc, n).is_some())?;
    let extra = add_node(
        doc,
        json!({"name": "SecondParent", "children": [child]}),
        None,
    );
    Some(format!("/nodes/{extra}/children/0"))
}

fn node_matrix_not_trs(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let last = doc["nodes"].as_array()?.len().checked_sub(1)?;
    let n = doc["nodes"][last].as_object_mut()?;
    for k in ["translation", "rotation", "scale"] {
        n.remove(k);
    }
    // Column-major with a shear: the y column has an x component.
    n.insert(
        "matrix".into(),
        json!([1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]),
    );
    Some(format!("/nodes/{last}/matrix"))
}

fn node_rotation_not_unit(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let last = doc["nodes"].as_array()?.len().checked_sub(1)?;
    doc["nodes"][last]["rotation"] = json!([0.0, 0.0, 0.0, 2.0]);
    Some(format!("/nodes/{last}/rotation"))
}

fn first_use(doc: &Value, ext: &str) -> Option<String> {
    if doc["extensions"].get(ext).is_some() {
        return Some(format!("/extensions/{ext}"));
    }
    let nodes = doc["nodes"].as_array()?;
    nodes
        .iter()
        .position(|n| n["extensions"].get(ext).is_some())
        .map(|i| node_ext(i, ext))
}

/// The extension stays in use but leaves `extensionsUsed`.
fn extension_not_declared(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let ext = KEY;
    let at = first_use(doc, ext)?;
    doc.as_object_mut()?.remove("extensionsUsed");
    Some(at)
}

fn extension_required_not_used(case: &mut Case) -> Option<String> {
    case.json_mut()?["extensionsRequired"] = json!([JOINT]);
    Some("/extensionsRequired/0".into())
}

/// OMI_collider scenes also declare OMI_physics_shape, which they never use.
fn extension_unused(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let unused = if doc["extensions"].get(COLLIDER).is_some() {
        SHAPE
    } else {
        COLLIDER
    };
    let used = doc["extensionsUsed"].as_array()?;
    if used.iter().any(|e| e == unused) {
        return None;
    }
    let i = declare(doc, unused);
    Some(format!("/extensionsUsed/{i}"))
}

fn extension_unknown(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    doc["asset"]["extensions"] = json!({"EXT_physics_cts_example": {}});
    let i = declare(doc, "EXT_physics_cts_example");
    Some(format!("/extensionsUsed/{i}"))
}

fn profile_none(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let o = doc.as_object_mut()?;
    o.remove("extensions");
    o.remove("extensionsUsed");
    for n in doc["nodes"].as_array_mut()? {
        if let Some(n) = n.as_object_mut() {
            n.remove("extensions");
        }
    }
    Some(String::new())
}

fn profile_mixed(case: &mut Case) -> Option<String> {
    let doc = case.json_mut()?;
    let at = add_node(
        doc,
        json!({"name": "OtherFamily", "translation": [0.0, -20.0, 0.0],
        "extensions": {KEY: {"position": {"source": 0}}}}),
        None,
    );
    let _ = at;
    declare(doc, KEY);
    Some("/extensionsUsed".into())
}

pub fn mutators() -> Vec<Mutator> {
    vec![
        Mutator::of_any_base(
            Code::GltfSchema,
            "translation-string",
            Profile::Omi2023,
            gltf_schema,
        ),
        Mutator::of_any_base(
            Code::GltfIndex,
            "scene-node-missing",
            Profile::Khr2024Draft,
            gltf_index,
        ),
        Mutator::of_any_base(
            Code::GltfValue,
            "sampler-filter-unknown",
            Profile::VrmcConstraintsDraft,
            gltf_value,
        ),
        Mutator {
            needs: Some("collider.child"),
            ..Mutator::of_any_base(
                Code::NodeCycle,
                "child-lists-root",
                Profile::Khr2024Draft,
                node_cycle,
            )
        },
        Mutator {
            needs: Some("collider.child"),
            ..Mutator::of_any_base(
                Code::NodeMultipleParents,
                "two-parents",
                Profile::Omi2023,
                node_multiple_parents,
            )
        },
        Mutator::of_any_base(
            Code::NodeMatrixNotTrs,
            "sheared-matrix",
            Profile::VrmcConstraintsDraft,
            node_matrix_not_trs,
        ),
        Mutator::of_any_base(
            Code::NodeRotationNotUnit,
            "rotation-length-2",
            Profile::VrmcConstraintsDraft,
            node_rotation_not_unit,
        ),
        Mutator::of_any_base(
            Code::ExtensionNotDeclared,
            "used-not-declared",
            Profile::VrmcConstraintsDraft,
            extension_not_declared,
        ),
        Mutator::of_any_base(
            Code::ExtensionRequiredNotUsed,
            "required-not-used",
            Profile::VrmcConstraintsDraft,
            extension_required_not_used,
        ),
        Mutator::of_any_base(
            Code::ExtensionUnused,
            "declared-not-used",
            Profile::Omi2023,
            extension_unused,
        ),
        Mutator::of_any_base(
            Code::ExtensionUnknown,
            "unknown-extension",
            Profile::Khr2024Draft,
            extension_unknown,
        ),
        Mutator::of_any_base(
            Code::ProfileNone,
            "no-physics",
            Profile::VrmcConstraintsDraft,
            profile_none,
        ),
        Mutator::of_any_base(
            Code::ProfileMixed,
            "khr-with-vrm",
            Profile::Khr2024Draft,
            profile_mixed,
        ),
    ]
}
