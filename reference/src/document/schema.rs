//! The core document against the glTF 2.0 schema: typed deserialisation with gltf-json
//! (`GLTF_SCHEMA` at the failing pointer), then gltf-json's own `Validate` pass mapped to
//! `GLTF_INDEX` / `GLTF_VALUE` / `GLTF_VALUE_NOT_IN_LIST` / `GLTF_SCHEMA`, minus what glTF
//! allows but gltf-json flags.
//!
//! gltf-json's types are stricter than the glTF 2.0 JSON Schema in a few places: they require
//! `scene.nodes` and `animation.channel.target.node` (both optional in the schema; a
//! `KHR_animation_pointer` channel has no node) and refuse an integer written as `1.0` (an
//! integer in JSON Schema's sense). A document that the typed read refuses is read again from
//! a normalised copy ([`lenient`]) before anything is reported: what the schema allows is
//! never an error.

use gltf_json::validation::{Error as ValidationError, Validate};
use serde_json::Value;

use crate::issue::{Code, Issue, Issues, escape_token, push_pointer};

/// Deserialise the core document; a mismatch is `GLTF_SCHEMA` at the pointer of the failure.
pub fn deserialize(json: &Value, issues: &mut Issues) -> Option<gltf_json::Root> {
    // Path tracking costs a fifth of a whole validation: take it only to locate an error.
    if let Ok(root) = <gltf_json::Root as serde::Deserialize>::deserialize(json) {
        return Some(root);
    }
    // The copy is made only for a document the typed read refused (never for the usual one).
    let normalised = lenient(json);
    match serde_path_to_error::deserialize::<_, gltf_json::Root>(&normalised) {
        Ok(root) => Some(root),
        Err(e) => {
            let pointer = path_to_pointer(e.path());
            issues.push(Issue::new(Code::GltfSchema, pointer).arg("detail", e.into_inner()));
            None
        }
    }
}

/// A copy of the document that gltf-json's types accept wherever the glTF 2.0 schema does:
/// every integer-valued number written with a fraction or exponent (`1.0`, `1e0`) made an
/// integer, a missing `scene.nodes` made `[]`, and a channel target without `node` given the
/// placeholder node 0 (typed animations are never read, and gltf-json's validation does not
/// look at channel targets: the placeholder is never reported).
pub(crate) fn lenient(json: &Value) -> Value {
    let mut copy = json.clone();
    integers(&mut copy);
    if let Some(scenes) = copy.get_mut("scenes").and_then(Value::as_array_mut) {
        for scene in scenes.iter_mut().filter_map(Value::as_object_mut) {
            scene
                .entry("nodes")
                .or_insert_with(|| Value::Array(Vec::new()));
        }
    }
    if let Some(animations) = copy.get_mut("animations").and_then(Value::as_array_mut) {
        for animation in animations {
            let channels = animation.get_mut("channels").and_then(Value::as_array_mut);
            for channel in channels.into_iter().flatten() {
                if let Some(target) = channel.get_mut("target").and_then(Value::as_object_mut) {
                    target.entry("node").or_insert(Value::from(0u64));
                }
            }
        }
    }
    copy
}

/// JSON Schema's `integer` is any number with a zero fractional part: `1.0` is one. Numbers
/// beyond 2^53 are left as they are (not exactly integers in an f64 reading anyway).
fn integers(value: &mut Value) {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() <= EXACT
            {
                *value = if f >= 0.0 {
                    Value::from(f as u64)
                } else {
                    Value::from(f as i64)
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(integers),
        Value::Object(map) => map.values_mut().for_each(integers),
        _ => {}
    }
}

/// A serde_path_to_error path as a JSON pointer.
pub(crate) fn path_to_pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => pointer = push_pointer(&pointer, index),
            serde_path_to_error::Segment::Map { key } => pointer = push_pointer(&pointer, key),
            serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown => {}
        }
    }
    pointer
}

/// Run gltf-json's validation and the few schema rules it does not check (buffer
/// `byteLength` required, `matrix` exclusive with TRS), pushing issues at JSON pointers.
pub fn validate(root: &gltf_json::Root, json: &Value, issues: &mut Issues) {
    // gltf-json's primitive hook indexes `root.accessors[POSITION]` without a bounds check and
    // would panic on an out-of-range POSITION: report those here and validate a copy without them.
    let mut bad_positions = Vec::new();
    for (m, mesh) in root.meshes.iter().enumerate() {
        for (p, primitive) in mesh.primitives.iter().enumerate() {
            let position =
                gltf_json::validation::Checked::Valid(gltf_json::mesh::Semantic::Positions);
            if let Some(index) = primitive.attributes.get(&position)
                && index.value() >= root.accessors.len()
            {
                bad_positions.push((m, p));
            }
        }
    }
    let mut report = |path: &dyn Fn() -> gltf_json::Path, error: ValidationError| {
        if let Some(issue) = map_error(&path().0, error, json) {
            issues.push(issue);
        }
    };
    if bad_positions.is_empty() {
        root.validate(root, gltf_json::Path::new, &mut report);
    } else {
        let mut copy = root.clone();
        for &(m, p) in &bad_positions {
            copy.meshes[m].primitives[p]
                .attributes
                .remove(&gltf_json::validation::Checked::Valid(
                    gltf_json::mesh::Semantic::Positions,
                ));
        }
        copy.validate(&copy, gltf_json::Path::new, &mut report);
        for (m, p) in bad_positions {
            let pointer = format!("/meshes/{m}/primitives/{p}/attributes/POSITION");
            issues.push(index_issue(json, pointer));
        }
    }
    extra_rules(json, issues);
}

fn index_issue(json: &Value, pointer: String) -> Issue {
    let index = json.pointer(&pointer).cloned().unwrap_or(Value::Null);
    Issue::new(Code::GltfIndex, pointer).arg("index", index)
}

/// One gltf-json validation error as an issue, or `None` when glTF allows what it flags.
fn map_error(path: &str, error: ValidationError, json: &Value) -> Option<Issue> {
    let tokens = gltf_path_tokens(path);
    let pointer = pointer_of(&tokens);
    let last = |s: &str| tokens.last().map(String::as_str) == Some(s);
    let second_last = |s: &str| tokens.len() >= 2 && tokens[tokens.len() - 2] == s;
    match error {
        // Extensions are this crate's business (EXTENSION_* checks); glTF allows any.
        ValidationError::Unsupported => None,
        // A primitive without POSITION is legal (glTF 2.0 §3.7.2.1: "when positions are not
        // specified, client implementations SHOULD skip primitive's rendering").
        ValidationError::Missing if last("POSITION") && second_last("attributes") => None,
        // texture.source is optional in the schema (an extension may provide the image).
        ValidationError::Missing
            if last("source") && tokens.first().map(String::as_str) == Some("textures") =>
        {
            None
        }
        // An accessor without bufferView is legal: it is all zeros (glTF 2.0 §3.6.2.3).
        ValidationError::Missing
            if last("bufferView") && tokens.first().map(String::as_str) == Some("accessors") =>
        {
            None
        }
        // The POSITION accessor's min/max: point at the accessor, not through the primitive.
        ValidationError::Missing | ValidationError::Invalid
            if (last("min") || last("max"))
                && tokens.len() >= 2
                && tokens[tokens.len() - 2] == "POSITION" =>
        {
            let primitive = json.pointer(&pointer_of(&tokens[..tokens.len() - 2]))?;
            let accessor = integer(primitive.get("POSITION")?)?;
            let at = format!("/accessors/{accessor}/{}", tokens[tokens.len() - 1]);
            Some(if error == ValidationError::Missing {
                Issue::new(Code::GltfSchema, at)
                    .arg("detail", "the POSITION accessor must have min and max")
            } else {
                Issue::new(Code::GltfValue, at).arg(
                    "detail",
                    "the POSITION accessor's min and max must be 3 numbers",
                )
            })
        }
        ValidationError::IndexOutOfBounds => Some(index_issue(json, pointer)),
        // A value outside a core enum: the Khronos validator's VALUE_NOT_IN_LIST, a warning.
        ValidationError::Invalid
            if tokens
                .last()
                .is_some_and(|t| ENUM_PROPERTIES.contains(&t.as_str())) =>
        {
            let value = json
                .pointer(&pointer)
                .map(Value::to_string)
                .unwrap_or_default();
            Some(Issue::new(Code::GltfValueNotInList, pointer).arg("value", value))
        }
        ValidationError::Missing => {
            Some(Issue::new(Code::GltfSchema, pointer).arg("detail", "required data is missing"))
        }
        ValidationError::Invalid => {
            let value = json
                .pointer(&pointer)
                .map(Value::to_string)
                .unwrap_or_default();
            Some(Issue::new(Code::GltfValue, pointer).arg("detail", value))
        }
        ValidationError::Oversize => Some(
            Issue::new(Code::GltfValue, pointer).arg("detail", "size exceeds the system's limits"),
        ),
    }
}

/// The core properties whose values gltf-json reads as enums (`Checked`): a value outside the
/// list is `GLTF_VALUE_NOT_IN_LIST`. Attribute semantics are keys, not values, and stay
/// `GLTF_VALUE`.
const ENUM_PROPERTIES: &[&str] = &[
    "componentType",
    "type",
    "mode",
    "target",
    "magFilter",
    "minFilter",
    "wrapS",
    "wrapT",
    "alphaMode",
    "path",
    "interpolation",
];

/// A glTF id or other integer as the JSON Schema reads it: `3` and `3.0` are both 3.
pub(crate) fn integer(value: &Value) -> Option<u64> {
    value.as_u64().or_else(|| {
        let f = value.as_f64()?;
        (f.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&f)).then_some(f as u64)
    })
}

/// Schema rules gltf-json's types do not enforce.
fn extra_rules(json: &Value, issues: &mut Issues) {
    // gltf-json's validation does not look at channel targets: their node is checked here.
    let nodes = json
        .get("nodes")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let animations = json.get("animations").and_then(Value::as_array);
    for (a, animation) in animations.into_iter().flatten().enumerate() {
        let channels = animation.get("channels").and_then(Value::as_array);
        for (c, channel) in channels.into_iter().flatten().enumerate() {
            let node = channel.get("target").and_then(|t| t.get("node"));
            if let Some(node) = node
                && integer(node).is_none_or(|n| n >= nodes as u64)
            {
                let pointer = format!("/animations/{a}/channels/{c}/target/node");
                issues.push(index_issue(json, pointer));
            }
        }
    }
    if let Some(buffers) = json.get("buffers").and_then(Value::as_array) {
        for (i, b) in buffers.iter().enumerate() {
            if b.get("byteLength").is_none() {
                issues.push(
                    Issue::new(Code::GltfSchema, format!("/buffers/{i}"))
                        .arg("detail", "missing field `byteLength`"),
                );
            }
        }
    }
    if let Some(nodes) = json.get("nodes").and_then(Value::as_array) {
        for (i, n) in nodes.iter().enumerate() {
            // The matrix first: most nodes have none, and then TRS is not looked up.
            let trs = || {
                ["translation", "rotation", "scale"]
                    .iter()
                    .any(|k| n.get(k).is_some())
            };
            if n.get("matrix").is_some() && trs() {
                issues.push(
                    Issue::new(Code::GltfSchema, format!("/nodes/{i}/matrix")).arg(
                        "detail",
                        "a node with matrix must not have translation, rotation or scale",
                    ),
                );
            }
        }
    }
}

/// Tokens of a gltf-json path: `meshes[0].primitives[1].attributes["POSITION"] = "x"` ->
/// `meshes, 0, primitives, 1, attributes, POSITION` (the ` = ...` value suffix is dropped).
/// Field names are already the JSON names (gltf-json camel-cases them).
fn gltf_path_tokens(path: &str) -> Vec<String> {
    let mut tokens = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        if rest.starts_with(" = ") {
            break;
        } else if let Some(r) = rest.strip_prefix("[\"") {
            let end = r.find("\"]").unwrap_or(r.len());
            tokens.push(r[..end].to_owned());
            rest = r.get(end + 2..).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix('[') {
            let end = r.find(']').unwrap_or(r.len());
            tokens.push(r[..end].to_owned());
            rest = r.get(end + 1..).unwrap_or("");
        } else if let Some(r) = rest.strip_prefix('.') {
            rest = r;
        } else {
            let end = rest.find(['.', '[', ' ']).unwrap_or(rest.len());
            // The flattened map of unknown extensions is a field named `others` in gltf-json;
            // it has no JSON key of its own.
            if &rest[..end] != "others" {
                tokens.push(rest[..end].to_owned());
            }
            rest = &rest[end..];
        }
    }
    tokens
}

fn pointer_of(tokens: &[String]) -> String {
    tokens
        .iter()
        .map(|t| format!("/{}", escape_token(t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gltf_paths_become_pointers() {
        let cases = [
            ("", ""),
            ("scene", "/scene"),
            ("nodes[3].children[1]", "/nodes/3/children/1"),
            (
                "meshes[0].primitives[1].attributes[\"POSITION\"]",
                "/meshes/0/primitives/1/attributes/POSITION",
            ),
            ("extensionsRequired[2] = \"KHR_x\"", "/extensionsRequired/2"),
            ("a[\"b/c\"].d", "/a/b~1c/d"),
            ("nodes[0].extensions.others[\"X\"]", "/nodes/0/extensions/X"),
            ("a[\"others\"]", "/a/others"),
        ];
        for (path, pointer) in cases {
            assert_eq!(pointer_of(&gltf_path_tokens(path)), pointer, "{path}");
        }
    }

    fn issues_of(json: &str) -> Vec<(Code, String)> {
        let value: Value = serde_json::from_str(json).expect("json");
        let mut issues = Issues::default();
        let root = deserialize(&value, &mut issues).expect("schema");
        validate(&root, &value, &mut issues);
        issues.0.into_iter().map(|i| (i.code, i.pointer)).collect()
    }

    #[test]
    fn out_of_range_position_does_not_panic() {
        let found = issues_of(
            r#"{"asset":{"version":"2.0"},"meshes":[{"primitives":[{"attributes":{"POSITION":5}}]}]}"#,
        );
        assert_eq!(
            found,
            [(
                Code::GltfIndex,
                "/meshes/0/primitives/0/attributes/POSITION".to_owned()
            )]
        );
    }

    #[test]
    fn legal_omissions_are_not_flagged() {
        let found = issues_of(
            r#"{"asset":{"version":"2.0"},"extensionsUsed":["X_y"],"extensionsRequired":["X_y"],
                "accessors":[{"count":1,"componentType":5126,"type":"SCALAR"}],
                "meshes":[{"primitives":[{"attributes":{"NORMAL":0}}]}],
                "textures":[{"extensions":{"X_y":{}}}]}"#,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn position_min_max_point_at_the_accessor() {
        let found = issues_of(
            r#"{"asset":{"version":"2.0"},
                "accessors":[{"count":1,"componentType":5126,"type":"VEC3"}],
                "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}]}"#,
        );
        assert_eq!(
            found,
            [
                (Code::GltfSchema, "/accessors/0/min".to_owned()),
                (Code::GltfSchema, "/accessors/0/max".to_owned())
            ]
        );
    }

    #[test]
    fn indices_and_values() {
        let found = issues_of(
            r#"{"asset":{"version":"2.0"},"scene":2,"nodes":[{"children":[4]}],
                "accessors":[{"count":1,"componentType":9999,"type":"SCALAR"}]}"#,
        );
        let mut found = found;
        found.sort();
        assert_eq!(
            found,
            [
                (Code::GltfIndex, "/nodes/0/children/0".to_owned()),
                (Code::GltfIndex, "/scene".to_owned()),
                (
                    Code::GltfValueNotInList,
                    "/accessors/0/componentType".to_owned()
                ),
            ]
        );
    }

    /// What the glTF 2.0 schema allows and gltf-json's types refuse is read, with no issue:
    /// a scene without `nodes`, a channel target without `node` (a `KHR_animation_pointer`
    /// channel, whose path `pointer` gltf-json does not check), integers written
    /// `1.0` and `1e0`.
    #[test]
    fn what_the_schema_allows_is_read() {
        let found = issues_of(
            r#"{"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],
                "scene":0.0,"scenes":[{}],"nodes":[{"children":[1.0]},{"mesh":0}],
                "meshes":[{"primitives":[{"attributes":{"POSITION":0e0},"mode":4.0}]}],
                "accessors":[{"count":1.0,"componentType":5126.0,"type":"VEC3",
                              "min":[0,0,0],"max":[1.0,1,1]}],
                "animations":[{"channels":[{"sampler":0,"target":{"path":"pointer",
                    "extensions":{"KHR_animation_pointer":{"pointer":"/nodes/0/translation"}}}}],
                    "samplers":[{"input":0,"output":0}]}]}"#,
        );
        assert!(found.is_empty(), "{found:?}");
    }

    /// `1.5` is no integer: the typed read of the normalised copy still refuses it, at its
    /// pointer.
    #[test]
    fn what_the_schema_refuses_is_still_refused() {
        let value: Value =
            serde_json::from_str(r#"{"asset":{"version":"2.0"},"scene":1.5}"#).expect("json");
        let mut issues = Issues::default();
        assert!(deserialize(&value, &mut issues).is_none());
        let found: Vec<_> = issues
            .0
            .iter()
            .map(|i| (i.code, i.pointer.as_str()))
            .collect();
        assert_eq!(found, [(Code::GltfSchema, "/scene")]);
    }
}
