//! A small glTF document builder: nodes with TRS, one scene, meshes with real accessors (in one
//! buffer, inline as a data URI or in a sibling `.bin`), document- and node-level extension
//! objects, and `extensionsUsed` computed from what is actually used.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use serde_json::{Map, Value, json};

/// Where mesh data lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferMode {
    /// `data:application/octet-stream;base64,...` inside the document.
    DataUri,
    /// A sibling file `<stem>.bin`.
    Sibling,
}

/// A node's local transform as written in the file (omitted parts are not written).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Trs {
    pub translation: Option<[f64; 3]>,
    pub rotation: Option<[f64; 4]>,
    pub scale: Option<[f64; 3]>,
}

impl Trs {
    pub fn at(translation: [f64; 3]) -> Trs {
        Trs {
            translation: Some(translation),
            ..Trs::default()
        }
    }
}

/// Triangles to store as a glTF mesh (one TRIANGLES primitive, indexed).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshData {
    pub positions: Vec<[f32; 3]>,
    pub indices: Vec<u32>,
}

/// A finished document and its sibling files.
#[derive(Clone, Debug, PartialEq)]
pub struct Built {
    pub json: Value,
    pub siblings: BTreeMap<String, Vec<u8>>,
}

/// A data URI holding `bytes` (the generator's one spelling of an inline buffer).
pub fn data_uri(bytes: &[u8]) -> String {
    format!(
        "data:application/octet-stream;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

/// Builds one glTF document.
#[derive(Clone, Debug)]
pub struct DocBuilder {
    nodes: Vec<Map<String, Value>>,
    parents: Vec<Option<usize>>,
    meshes: Vec<Value>,
    accessors: Vec<Value>,
    views: Vec<Value>,
    bin: Vec<u8>,
    root_extensions: BTreeMap<String, Map<String, Value>>,
    used: BTreeSet<String>,
    buffer_mode: BufferMode,
    stem: String,
}

impl DocBuilder {
    /// `stem` names the sibling `.bin` (`<stem>.bin`) when `buffer_mode` is `Sibling`.
    pub fn new(stem: &str, buffer_mode: BufferMode) -> DocBuilder {
        DocBuilder {
            nodes: Vec::new(),
            parents: Vec::new(),
            meshes: Vec::new(),
            accessors: Vec::new(),
            views: Vec::new(),
            bin: Vec::new(),
            root_extensions: BTreeMap::new(),
            used: BTreeSet::new(),
            buffer_mode,
            stem: stem.to_owned(),
        }
    }

    /// Add a node under `parent` (or as a scene root) and return its index (a name formatted
    /// for it is moved in, not copied).
    pub fn node(&mut self, name: impl Into<String>, trs: Trs, parent: Option<usize>) -> usize {
        let mut n = Map::new();
        n.insert("name".into(), Value::String(name.into()));
        if let Some(t) = trs.translation {
            n.insert("translation".into(), Value::from(&t[..]));
        }
        if let Some(r) = trs.rotation {
            n.insert("rotation".into(), Value::from(&r[..]));
        }
        if let Some(s) = trs.scale {
            n.insert("scale".into(), Value::from(&s[..]));
        }
        let index = self.nodes.len();
        self.nodes.push(n);
        self.parents.push(parent);
        if let Some(p) = parent {
            let node = &mut self.nodes[p];
            match node.get_mut("children") {
                Some(Value::Array(c)) => c.push(Value::from(index)),
                Some(_) => {}
                None => {
                    node.insert("children".into(), Value::Array(vec![Value::from(index)]));
                }
            }
        }
        index
    }

    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    pub fn parent(&self, node: usize) -> Option<usize> {
        self.parents.get(node).copied().flatten()
    }

    /// Set a plain property of a node (e.g. `mesh`).
    pub fn set_node_property(&mut self, node: usize, key: &str, value: Value) {
        self.nodes[node].insert(key.into(), value);
    }

    /// Set the node-level extension object `key` of `node` (merging object members).
    pub fn node_extension(&mut self, node: usize, key: &str, value: Value) {
        self.mark_used(key);
        let Some(exts) = extensions_of(&mut self.nodes[node]) else {
            return;
        };
        match (exts.get_mut(key), value) {
            (Some(Value::Object(existing)), Value::Object(add)) => existing.extend(add),
            (_, value) => {
                exts.insert(key.to_owned(), value);
            }
        }
    }

    /// Set member `member` of the node-level extension object `ext` of `node`: what
    /// `node_extension(node, ext, {member: value})` does, without building and merging a map.
    pub fn node_extension_member(&mut self, node: usize, ext: &str, member: &str, value: Value) {
        self.mark_used(ext);
        let Some(exts) = extensions_of(&mut self.nodes[node]) else {
            return;
        };
        match exts.get_mut(ext) {
            Some(Value::Object(existing)) => {
                existing.insert(member.to_owned(), value);
            }
            _ => {
                let mut object = Map::new();
                object.insert(member.to_owned(), value);
                exts.insert(ext.to_owned(), Value::Object(object));
            }
        }
    }

    /// Append `item` to the document-level array `ext.array` and return its index.
    pub fn push_root(&mut self, ext: &str, array: &str, item: Value) -> usize {
        self.mark_used(ext);
        // Look up before inserting: the names are allocated once per document, not per item.
        if !self.root_extensions.contains_key(ext) {
            self.root_extensions.insert(ext.to_owned(), Map::new());
        }
        let Some(obj) = self.root_extensions.get_mut(ext) else {
            return 0;
        };
        if !obj.contains_key(array) {
            obj.insert(array.to_owned(), Value::Array(Vec::new()));
        }
        let Some(list) = obj.get_mut(array) else {
            return 0;
        };
        match list {
            Value::Array(items) => {
                items.push(item);
                items.len() - 1
            }
            _ => 0,
        }
    }

    /// Record `ext` in `extensionsUsed` (allocating its name only the first time).
    fn mark_used(&mut self, ext: &str) {
        if !self.used.contains(ext) {
            self.used.insert(ext.to_owned());
        }
    }

    /// Number of items in document-level array `ext.array`.
    pub fn root_len(&self, ext: &str, array: &str) -> usize {
        self.root_extensions
            .get(ext)
            .and_then(|o| o.get(array))
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    }

    /// Add a triangle mesh with real accessors and return its mesh index.
    pub fn mesh(&mut self, data: &MeshData) -> usize {
        let positions = self.accessor_vec3(&data.positions);
        let indices = self.accessor_indices(&data.indices, data.positions.len());
        self.meshes.push(json!({
            "primitives": [{"attributes": {"POSITION": positions}, "indices": indices, "mode": 4}]
        }));
        self.meshes.len() - 1
    }

    fn view(&mut self, bytes: &[u8], target: u32) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views.push(json!({
            "buffer": 0, "byteOffset": offset, "byteLength": bytes.len(), "target": target
        }));
        self.views.len() - 1
    }

    fn accessor_vec3(&mut self, points: &[[f32; 3]]) -> usize {
        let mut bytes = Vec::with_capacity(points.len() * 12);
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for p in points {
            for k in 0..3 {
                bytes.extend_from_slice(&p[k].to_le_bytes());
                min[k] = min[k].min(p[k]);
                max[k] = max[k].max(p[k]);
            }
        }
        let view = self.view(&bytes, 34962);
        let exact = |v: [f32; 3]| v.map(f64::from);
        self.accessors.push(json!({
            "bufferView": view, "componentType": 5126, "count": points.len(), "type": "VEC3",
            "min": exact(min), "max": exact(max)
        }));
        self.accessors.len() - 1
    }

    fn accessor_indices(&mut self, indices: &[u32], vertex_count: usize) -> usize {
        let (component, bytes): (u32, Vec<u8>) = if vertex_count <= usize::from(u16::MAX) {
            let mut b: Vec<u8> = Vec::with_capacity(indices.len() * 2);
            for &i in indices {
                b.extend_from_slice(&u16::try_from(i).unwrap_or(u16::MAX).to_le_bytes());
            }
            (5123, b)
        } else {
            (5125, indices.iter().flat_map(|i| i.to_le_bytes()).collect())
        };
        let view = self.view(&bytes, 34963);
        self.accessors.push(json!({
            "bufferView": view, "componentType": component, "count": indices.len(), "type": "SCALAR"
        }));
        self.accessors.len() - 1
    }

    /// Finish: scene 0 holds every root node; `extensionsUsed` lists every extension used.
    pub fn finish(self) -> Built {
        let mut doc = Map::new();
        doc.insert(
            "asset".into(),
            json!({"version": "2.0", "generator": "physics-cts-generator"}),
        );
        let roots: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| self.parents[n].is_none())
            .collect();
        doc.insert("scene".into(), Value::from(0));
        let mut scene = Map::new();
        scene.insert("nodes".into(), Value::from(roots));
        doc.insert("scenes".into(), Value::Array(vec![Value::Object(scene)]));
        doc.insert(
            "nodes".into(),
            Value::Array(self.nodes.into_iter().map(Value::Object).collect()),
        );
        let mut siblings = BTreeMap::new();
        if !self.meshes.is_empty() {
            let mut bin = self.bin;
            while !bin.len().is_multiple_of(4) {
                bin.push(0);
            }
            let byte_length = bin.len();
            let uri = match self.buffer_mode {
                BufferMode::DataUri => data_uri(&bin),
                BufferMode::Sibling => {
                    let name = format!("{}.bin", self.stem);
                    siblings.insert(name.clone(), std::mem::take(&mut bin));
                    name
                }
            };
            doc.insert(
                "buffers".into(),
                json!([{"byteLength": byte_length, "uri": uri}]),
            );
            doc.insert("bufferViews".into(), Value::Array(self.views));
            doc.insert("accessors".into(), Value::Array(self.accessors));
            doc.insert("meshes".into(), Value::Array(self.meshes));
        }
        if !self.root_extensions.is_empty() {
            doc.insert(
                "extensions".into(),
                Value::Object(
                    self.root_extensions
                        .into_iter()
                        .map(|(k, v)| (k, Value::Object(v)))
                        .collect(),
                ),
            );
        }
        if !self.used.is_empty() {
            doc.insert(
                "extensionsUsed".into(),
                self.used.into_iter().map(Value::String).collect(),
            );
        }
        Built {
            json: Value::Object(doc),
            siblings,
        }
    }
}

/// The `extensions` object of a node, created when missing (`None`: set to a non-object).
fn extensions_of(node: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    if !node.contains_key("extensions") {
        node.insert("extensions".into(), Value::Object(Map::new()));
    }
    match node.get_mut("extensions") {
        Some(Value::Object(exts)) => Some(exts),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetra() -> MeshData {
        MeshData {
            positions: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [0.0, 1.0, 0.0],
                [0.0, 0.0, 1.0],
            ],
            indices: vec![0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
        }
    }

    #[test]
    fn mesh_layout_is_aligned_and_sized() {
        let mut b = DocBuilder::new("x", BufferMode::Sibling);
        let n = b.node("a", Trs::default(), None);
        let m = b.mesh(&tetra());
        b.set_node_property(n, "mesh", json!(m));
        let built = b.finish();
        // 4 vertices * 12 bytes = 48, then 12 u16 indices = 24 bytes: 72 in all.
        assert_eq!(built.json["buffers"][0]["byteLength"], 72);
        assert_eq!(built.json["buffers"][0]["uri"], "x.bin");
        assert_eq!(built.siblings["x.bin"].len(), 72);
        assert_eq!(built.json["bufferViews"][1]["byteOffset"], 48);
        assert_eq!(built.json["accessors"][0]["max"], json!([1.0, 1.0, 1.0]));
        assert_eq!(built.json["accessors"][1]["componentType"], 5123);
    }

    #[test]
    fn children_and_extensions_accumulate() {
        let mut b = DocBuilder::new("x", BufferMode::DataUri);
        let root = b.node("r", Trs::default(), None);
        b.node("a", Trs::default(), Some(root));
        b.node("b", Trs::default(), Some(root));
        b.node_extension(root, "E", json!({"x": 1}));
        b.node_extension(root, "E", json!({"y": 2}));
        b.node_extension(root, "F", json!(true));
        // A member is what a one-member object merges: into an object, over a non-object.
        b.node_extension_member(root, "E", "z", json!(3));
        b.node_extension_member(root, "F", "w", json!(4));
        b.node_extension_member(1, "G", "v", json!(5));
        let built = b.finish();
        assert_eq!(built.json["nodes"][0]["children"], json!([1, 2]));
        assert_eq!(
            built.json["nodes"][0]["extensions"],
            json!({"E": {"x": 1, "y": 2, "z": 3}, "F": {"w": 4}})
        );
        assert_eq!(built.json["nodes"][1]["extensions"], json!({"G": {"v": 5}}));
        assert_eq!(built.json["extensionsUsed"], json!(["E", "F", "G"]));
    }

    #[test]
    fn extensions_used_lists_what_is_used_sorted() {
        let mut b = DocBuilder::new("x", BufferMode::DataUri);
        let n = b.node("a", Trs::default(), None);
        let c = b.node("c", Trs::at([0.0, 1.0, 0.0]), Some(n));
        b.node_extension(c, "OMI_collider", json!({"collider": 0}));
        b.push_root("OMI_collider", "colliders", json!({"type": "sphere"}));
        b.node_extension(n, "OMI_physics_body", json!({"type": "rigid"}));
        let built = b.finish();
        assert_eq!(
            built.json["extensionsUsed"],
            json!(["OMI_collider", "OMI_physics_body"])
        );
        assert_eq!(built.json["scenes"][0]["nodes"], json!([0]));
        assert_eq!(built.json["nodes"][0]["children"], json!([1]));
        assert!(built.siblings.is_empty());
    }
}
