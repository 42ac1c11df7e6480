//! JSON editing helpers shared by the mutators.

use serde_json::{Value, json};

use crate::case::{Case, Payload};
use crate::doc::data_uri;

/// `/nodes/{i}/extensions/{ext}`.
pub fn node_ext(i: usize, ext: &str) -> String {
    format!("/nodes/{i}/extensions/{ext}")
}

/// Indices of nodes whose `extensions[ext]` has `key` (any key when `key` is empty).
pub fn nodes_with(doc: &Value, ext: &str, key: &str) -> Vec<usize> {
    doc["nodes"]
        .as_array()
        .map(|nodes| {
            nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| {
                    let e = &n["extensions"][ext];
                    if key.is_empty() {
                        e.is_object()
                    } else {
                        !e[key].is_null()
                    }
                })
                .map(|(i, _)| i)
                .collect()
        })
        .unwrap_or_default()
}

/// The first node with `ext[key]`: the pointer of that member, and the member.
pub fn first_member<'a>(
    case: &'a mut Case,
    ext: &str,
    key: &str,
) -> Option<(String, &'a mut Value)> {
    let doc = case.json_mut()?;
    let n = *nodes_with(doc, ext, key).first()?;
    Some((
        format!("{}/{key}", node_ext(n, ext)),
        &mut doc["nodes"][n]["extensions"][ext][key],
    ))
}

/// Set `prop` of the first node's `ext[key]`; returns the pointer of `prop`.
pub fn set_member(
    case: &mut Case,
    ext: &str,
    key: &str,
    prop: &str,
    value: Value,
) -> Option<String> {
    let (at, obj) = first_member(case, ext, key)?;
    obj[prop] = value;
    Some(format!("{at}/{prop}"))
}

/// The first item of the array at `list` whose `type` is one of `types`: (pointer, item).
pub fn of_type<'a>(
    case: &'a mut Case,
    list: &str,
    types: &[&str],
) -> Option<(String, &'a mut Value)> {
    let items = case.json_mut()?.pointer_mut(list)?.as_array_mut()?;
    let (i, item) = items
        .iter_mut()
        .enumerate()
        .find(|(_, s)| types.iter().any(|t| s["type"] == *t))?;
    Some((format!("{list}/{i}"), item))
}

/// The first limit with `pred` of the joints at `joints`: (pointer, limit).
pub fn limit_of<'a>(
    case: &'a mut Case,
    joints: &str,
    pred: impl Fn(&Value) -> bool,
) -> Option<(String, &'a mut Value)> {
    let list = case.json_mut()?.pointer_mut(joints)?.as_array_mut()?;
    for (j, joint) in list.iter_mut().enumerate() {
        if let Some(limits) = joint.get_mut("limits").and_then(Value::as_array_mut)
            && let Some((l, v)) = limits.iter_mut().enumerate().find(|(_, v)| pred(v))
        {
            return Some((format!("{joints}/{j}/limits/{l}"), v));
        }
    }
    None
}

/// A new root node, below the scene, carrying the extension object `object` of `ext`.
pub fn add_constrained(case: &mut Case, ext: &str, object: Value) -> Option<usize> {
    let doc = case.json_mut()?;
    let node =
        json!({"name": "Extra", "translation": [0.0, -3.0, 0.0], "extensions": {ext: object}});
    Some(add_node(doc, node, None))
}

/// The first node with `ext`, the kind of its constraint (the first key of the object at
/// `within`, a pointer below the extension object) and the pointer of that kind's object.
pub fn first_constraint(case: &Case, ext: &str, within: &str) -> Option<(usize, String, String)> {
    let doc = case.json()?;
    let n = *nodes_with(doc, ext, "").first()?;
    let at = format!("{}{within}", node_ext(n, ext));
    let kind = doc.pointer(&at)?.as_object()?.keys().next()?.clone();
    Some((n, kind.clone(), format!("{at}/{kind}")))
}

/// Two new root nodes below the scene, each constrained by the other: their `ext` objects are
/// `a` and `b` of the other's index. Returns the first's index.
pub fn add_cycle(
    case: &mut Case,
    ext: &str,
    a: impl FnOnce(usize) -> Value,
    b: impl FnOnce(usize) -> Value,
) -> Option<usize> {
    let doc = case.json_mut()?;
    let count = doc["nodes"].as_array()?.len();
    let first = add_node(
        doc,
        json!({"name": "CycleA", "translation": [1.0, -3.0, 0.0], "extensions": {ext: a(count + 1)}}),
        None,
    );
    add_node(
        doc,
        json!({"name": "CycleB", "translation": [-1.0, -3.0, 0.0], "extensions": {ext: b(count)}}),
        None,
    );
    Some(first)
}

/// The member that lists a limit's axes.
pub fn axes_key(limit: &Value) -> &'static str {
    if limit.get("linearAxes").is_some() {
        "linearAxes"
    } else {
        "angularAxes"
    }
}

/// The node's parent, if any.
pub fn parent_of(doc: &Value, node: usize) -> Option<usize> {
    doc["nodes"].as_array()?.iter().position(|n| {
        n["children"]
            .as_array()
            .is_some_and(|c| c.iter().any(|x| x.as_u64() == Some(node as u64)))
    })
}

/// Append a node (a scene root when `parent` is `None`) and return its index.
pub fn add_node(doc: &mut Value, node: Value, parent: Option<usize>) -> usize {
    let index = doc["nodes"].as_array().map_or(0, Vec::len);
    if let Some(nodes) = doc["nodes"].as_array_mut() {
        nodes.push(node);
    }
    match parent {
        Some(p) => {
            let n = &mut doc["nodes"][p];
            if n.get("children").is_none() {
                n["children"] = json!([]);
            }
            if let Some(c) = n["children"].as_array_mut() {
                c.push(json!(index));
            }
        }
        None => {
            if let Some(roots) = doc["scenes"][0]["nodes"].as_array_mut() {
                roots.push(json!(index));
            }
        }
    }
    index
}

/// Add `ext` to `extensionsUsed` when missing; returns its index there.
pub fn declare(doc: &mut Value, ext: &str) -> usize {
    if doc.get("extensionsUsed").is_none() {
        doc["extensionsUsed"] = json!([]);
    }
    let used = doc["extensionsUsed"]
        .as_array_mut()
        .expect("array just ensured");
    if let Some(i) = used.iter().position(|e| e == ext) {
        return i;
    }
    used.push(json!(ext));
    used.len() - 1
}

/// Append `item` to the array at top-level key `key` (created when missing); returns its index.
pub fn push_top(doc: &mut Value, key: &str, item: Value) -> usize {
    if doc.get(key).is_none() {
        doc[key] = json!([]);
    }
    let a = doc[key].as_array_mut().expect("array just ensured");
    a.push(item);
    a.len() - 1
}

/// Append `item` to the document-level array `extensions[ext][array]`; returns its index.
pub fn push_root_ext(doc: &mut Value, ext: &str, array: &str, item: Value) -> usize {
    if doc.get("extensions").is_none() {
        doc["extensions"] = json!({});
    }
    if doc["extensions"].get(ext).is_none() {
        doc["extensions"][ext] = json!({});
    }
    let obj = &mut doc["extensions"][ext];
    if obj.get(array).is_none() {
        obj[array] = json!([]);
    }
    let a = obj[array].as_array_mut().expect("array just ensured");
    a.push(item);
    a.len() - 1
}

/// The bytes of buffer 0 (data URI or sibling file).
pub fn buffer0(case: &Case) -> Option<Vec<u8>> {
    let uri = case.json()?["buffers"][0]["uri"].as_str()?.to_owned();
    // The reader's rule for what a data URI is and how it decodes, as `set_buffer0` tests it.
    if reference::document::is_data_uri(&uri) {
        reference::document::data_uri_bytes(&uri).ok()
    } else {
        case.siblings.get(&uri).cloned()
    }
}

/// Replace the bytes of buffer 0, wherever they live.
pub fn set_buffer0(case: &mut Case, bytes: Vec<u8>) -> Option<()> {
    let uri = case.json()?["buffers"][0]["uri"].as_str()?.to_owned();
    if reference::document::is_data_uri(&uri) {
        let d = data_uri(&bytes);
        case.json_mut()?["buffers"][0]["uri"] = json!(d);
    } else {
        case.siblings.insert(uri, bytes);
    }
    Some(())
}

/// Turn a JSON case into raw bytes with the given file extension.
pub fn into_bytes(case: &mut Case, bytes: Vec<u8>, extension: &'static str) {
    case.payload = Payload::Bytes { bytes, extension };
}

/// Append an accessor of `count` elements of `kind` (`"VEC4"`...) and GL component type
/// `component` over `bytes` (own data-URI buffer and view); returns its index.
pub fn add_accessor(
    doc: &mut Value,
    bytes: &[u8],
    component: u32,
    count: usize,
    kind: &str,
) -> usize {
    let buffer = push_top(
        doc,
        "buffers",
        json!({"byteLength": bytes.len(), "uri": data_uri(bytes)}),
    );
    let view = push_top(
        doc,
        "bufferViews",
        json!({"buffer": buffer, "byteLength": bytes.len()}),
    );
    push_top(
        doc,
        "accessors",
        json!({"bufferView": view, "componentType": component, "count": count, "type": kind}),
    )
}

/// Append a triangle mesh (own data-URI buffer) to the document; returns the mesh index.
pub fn add_mesh(doc: &mut Value, positions: &[[f32; 3]], indices: &[u16]) -> usize {
    let mut bytes: Vec<u8> = positions
        .iter()
        .flatten()
        .flat_map(|c| c.to_le_bytes())
        .collect();
    let pos_len = bytes.len();
    bytes.extend(indices.iter().flat_map(|i| i.to_le_bytes()));
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            min[k] = min[k].min(p[k]);
            max[k] = max[k].max(p[k]);
        }
    }
    let buffer = push_top(
        doc,
        "buffers",
        json!({"byteLength": bytes.len(), "uri": data_uri(&bytes)}),
    );
    let v0 = push_top(
        doc,
        "bufferViews",
        json!({"buffer": buffer, "byteOffset": 0, "byteLength": pos_len, "target": 34962}),
    );
    let v1 = push_top(
        doc,
        "bufferViews",
        json!({"buffer": buffer, "byteOffset": pos_len, "byteLength": indices.len() * 2, "target": 34963}),
    );
    let a0 = push_top(
        doc,
        "accessors",
        json!({"bufferView": v0, "componentType": 5126, "count": positions.len(), "type": "VEC3",
        "min": min.map(f64::from), "max": max.map(f64::from)}),
    );
    let a1 = push_top(
        doc,
        "accessors",
        json!({"bufferView": v1, "componentType": 5123, "count": indices.len(), "type": "SCALAR"}),
    );
    push_top(
        doc,
        "meshes",
        json!({"primitives": [{"attributes": {"POSITION": a0}, "indices": a1, "mode": 4}]}),
    )
}

/// Append to mesh `m` a copy of its first primitive drawn as lines (the mesh still has
/// triangles, but not only triangles); the pointer of the copy's `mode`.
pub fn add_lines(doc: &mut Value, m: usize) -> Option<String> {
    let prims = doc["meshes"][m]["primitives"].as_array_mut()?;
    let mut lines = prims.first()?.clone();
    lines["mode"] = json!(1);
    prims.push(lines);
    Some(format!("/meshes/{m}/primitives/{}/mode", prims.len() - 1))
}

/// Leave mesh `m`'s first primitive two vertices and no index list: no triangle at all.
pub fn two_vertices(doc: &mut Value, m: usize) -> Option<()> {
    let prim = doc["meshes"][m]["primitives"][0].as_object_mut()?;
    prim.remove("indices");
    let pos = usize::try_from(prim["attributes"]["POSITION"].as_u64()?).ok()?;
    doc["accessors"][pos]["count"] = json!(2);
    Some(())
}
