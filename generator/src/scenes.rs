//! A scene written with another scene before it ([`crate::plan::Edition::V2`]): the default
//! scene (`scene`) is then not the first, and a node outside it carries a collider.

use serde_json::{Value, json};

/// The feature tag of a case whose default scene is not the first.
pub const TAG: &str = "scene.non-default";

/// Whether `node` is a leaf whose extensions hold a collider (`collider`, `OMI_collider`) and
/// nothing that names another node (a joint, a compound trigger's `nodes`). Only a first pick:
/// `edition::with_another_scene` keeps the copy only if the reference reads the same bodies,
/// colliders, joints and issues with it.
fn copyable(node: &Value) -> bool {
    let Some(extensions) = node.get("extensions") else {
        return false;
    };
    node.get("children").is_none()
        && any_key(extensions, &|k| k.contains("collider"))
        && !any_key(extensions, &|k| {
            k.contains("joint") || k == "nodes" || k == "connectedNode"
        })
}

/// Whether a key of an object within `v`, at any depth, satisfies `f`.
fn any_key(v: &Value, f: &dyn Fn(&str) -> bool) -> bool {
    match v {
        Value::Object(members) => members.iter().any(|(k, v)| f(k) || any_key(v, f)),
        Value::Array(items) => items.iter().any(|v| any_key(v, f)),
        _ => false,
    }
}

/// `json` with a copy of its first [`copyable`] node appended, a first scene holding only the
/// copy, its own default scene second and the default; `None` without such a node or
/// without exactly one scene.
pub fn with_another_scene(json: &Value) -> Option<Value> {
    let scenes = json.get("scenes")?.as_array()?;
    if scenes.len() != 1 {
        return None;
    }
    let nodes = json.get("nodes")?.as_array()?;
    let mut copy = nodes.iter().find(|n| copyable(n))?.clone();
    if let Some(members) = copy.as_object_mut() {
        let name = members
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("Node");
        members.insert("name".into(), json!(format!("{name}InTheOtherScene")));
    }
    let mut out = json.clone();
    let index = nodes.len();
    out["nodes"].as_array_mut()?.push(copy);
    out["scenes"] = json!([{"nodes": [index]}, scenes[0]]);
    out["scene"] = json!(1);
    Some(out)
}

/// `json` with a copy of every node appended (its `children`, and the `source` of each
/// constraint under the extension `key`, moved to the copies), a first scene holding the
/// copies of the default scene's roots, its own scene second and the default; `None` without
/// nodes or without exactly one scene. The copies are a forest of their own: nothing in the
/// original names them.
pub fn with_another_forest(json: &Value, key: &str) -> Option<Value> {
    let scenes = json.get("scenes")?.as_array()?;
    if scenes.len() != 1 {
        return None;
    }
    let nodes = json.get("nodes")?.as_array()?;
    let n = nodes.len();
    if n == 0 {
        return None;
    }
    let moved = |v: &Value| -> Option<Value> { Some(json!(v.as_u64()? + n as u64)) };
    let mut copies = Vec::with_capacity(n);
    for node in nodes {
        let mut copy = node.clone();
        let members = copy.as_object_mut()?;
        let name = members
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("Node");
        members.insert("name".into(), json!(format!("{name}InTheOtherScene")));
        if let Some(children) = members.get_mut("children").and_then(Value::as_array_mut) {
            for c in children.iter_mut() {
                *c = moved(c)?;
            }
        }
        let constraint = members
            .get_mut("extensions")
            .and_then(|e| e.get_mut(key))
            .and_then(|e| e.get_mut("constraint"))
            .and_then(Value::as_object_mut);
        for body in constraint.into_iter().flat_map(|c| c.values_mut()) {
            if let Some(source) = body.get_mut("source") {
                *source = moved(source)?;
            }
        }
        copies.push(copy);
    }
    let roots: Vec<Value> = scenes[0]
        .get("nodes")?
        .as_array()?
        .iter()
        .map(moved)
        .collect::<Option<_>>()?;
    let mut out = json.clone();
    out["nodes"].as_array_mut()?.extend(copies);
    out["scenes"] = json!([{"nodes": roots}, scenes[0]]);
    out["scene"] = json!(1);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::omi::{COLLIDER, JOINT};

    #[test]
    fn a_forest_is_copied_whole_into_scene_zero() {
        let doc = json!({
            "nodes": [
                {"name": "Root", "children": [1]},
                {"name": "Aimed", "extensions": {"K": {"specVersion": "1.0",
                    "constraint": {"aim": {"source": 2, "aimAxis": "PositiveX"}}}}},
                {"name": "Target"}
            ],
            "scenes": [{"nodes": [0, 2]}],
            "scene": 0
        });
        let out = with_another_forest(&doc, "K").expect("one scene");
        assert_eq!(out["nodes"].as_array().map(Vec::len), Some(6));
        assert_eq!(out["nodes"][3]["name"], "RootInTheOtherScene");
        assert_eq!(out["nodes"][3]["children"], json!([4]));
        assert_eq!(
            out["nodes"][4]["extensions"]["K"]["constraint"]["aim"]["source"],
            5
        );
        // The originals are untouched.
        assert_eq!(out["nodes"][1], doc["nodes"][1]);
        assert_eq!(out["scenes"], json!([{"nodes": [3, 5]}, {"nodes": [0, 2]}]));
        assert_eq!(out["scene"], 1);
    }

    #[test]
    fn the_copy_is_alone_in_scene_zero_and_the_default_is_the_original() {
        let doc = json!({
            "nodes": [
                {"name": "Body", "children": [1], "extensions": {"X": {"motion": {}}}},
                {"name": "Shape", "extensions": {"X": {"collider": {"shape": 0}}}},
                {"name": "Joint", "extensions": {"X": {"joint": {"connectedNode": 1}}}}
            ],
            "scenes": [{"nodes": [0, 2]}],
            "scene": 0
        });
        let out = with_another_scene(&doc).expect("a copyable node");
        assert_eq!(out["nodes"].as_array().map(Vec::len), Some(4));
        assert_eq!(out["nodes"][3]["name"], "ShapeInTheOtherScene");
        assert_eq!(out["nodes"][3]["extensions"], doc["nodes"][1]["extensions"]);
        assert_eq!(out["scenes"], json!([{"nodes": [3]}, {"nodes": [0, 2]}]));
        assert_eq!(out["scene"], 1);
    }

    #[test]
    fn no_leaf_collider_or_several_scenes_changes_nothing() {
        let joint_only = json!({
            "nodes": [{"extensions": {"X": {"joint": {"connectedNode": 0}}}}],
            "scenes": [{"nodes": [0]}]
        });
        assert!(with_another_scene(&joint_only).is_none());
        let two = json!({
            "nodes": [{"extensions": {"X": {"collider": {}}}}],
            "scenes": [{"nodes": [0]}, {"nodes": []}]
        });
        assert!(with_another_scene(&two).is_none());
    }

    /// Keys decide, at any depth and in every profile's spelling; values do not.
    #[test]
    fn a_collider_beside_what_names_another_node_is_not_copied() {
        let leaf = |extensions: Value| json!({"extensions": extensions});
        for refused in [
            json!({"X": {"collider": {}, "joint": {"connectedNode": 0}}}),
            json!({COLLIDER: {}, JOINT: {}}),
            json!({"X": {"collider": {}, "trigger": {"nodes": [0]}}}),
            json!({"X": {"collider": {}}, "Y": [{"connectedNode": 0}]}),
            json!({"X": {"motion": {}}}),
        ] {
            assert!(!copyable(&leaf(refused.clone())), "{refused}");
        }
        for copied in [
            json!({COLLIDER: {"type": "sphere"}}),
            json!({"X": {"collider": {"geometry": {"shape": 0}}, "note": "no joint, no nodes"}}),
        ] {
            assert!(copyable(&leaf(copied.clone())), "{copied}");
        }
        let parent = json!({"children": [1], "extensions": {"X": {"collider": {}}}});
        assert!(!copyable(&parent));
    }
}
