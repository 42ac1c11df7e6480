//! A small glTF document builder: nodes with TRS, one scene, meshes with real accessors (in one
//! buffer, inline as a data URI or in a sibling `.bin`), document- and node-level extension
//! objects, and `extensionsUsed` computed from what is actually used.

use std::collections::BTreeMap;

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
pub struct TrsSpec {
    pub translation: Option<[f64; 3]>,
    pub rotation: Option<[f64; 4]>,
    pub scale: Option<[f64; 3]>,
}

impl TrsSpec {
    pub fn at(translation: [f64; 3]) -> TrsSpec {
        TrsSpec {
            translation: Some(translation),
            ..TrsSpec::default()
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
    nodes: Vec<NodeDraft>,
    meshes: Vec<Value>,
    skins: Vec<Value>,
    accessors: Vec<Value>,
    views: Vec<Value>,
    bin: Vec<u8>,
    /// Document-level extension objects by name (first use first).
    root_extensions: Vec<(&'static str, Arrays)>,
    /// Every extension used, in first-use order (sorted when finished).
    used: Vec<&'static str>,
    buffer_mode: BufferMode,
    stem: String,
}

/// The arrays of a document-level extension object, by name (first use first).
type Arrays = Vec<(&'static str, Vec<Value>)>;

/// A node being built: its own members, its children, and its extension objects by name.
#[derive(Clone, Debug, Default)]
struct NodeDraft {
    members: Map<String, Value>,
    parent: Option<usize>,
    /// A root left out of the scene (a khr-2025 geometry node may lie outside the scene).
    detached: bool,
    children: Vec<usize>,
    extensions: Vec<(&'static str, Map<String, Value>)>,
}

impl NodeDraft {
    /// The extension object `key`, created empty when missing.
    fn extension(&mut self, key: &'static str) -> &mut Map<String, Value> {
        let at = match self.extensions.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                self.extensions.push((key, Map::new()));
                self.extensions.len() - 1
            }
        };
        &mut self.extensions[at].1
    }

    fn finish(self) -> Value {
        let mut members = self.members;
        if !self.children.is_empty() {
            members.insert("children".into(), Value::from(self.children));
        }
        if !self.extensions.is_empty() {
            let mut extensions = Map::new();
            for (k, v) in self.extensions {
                extensions.insert(k.into(), Value::from(v));
            }
            members.insert("extensions".into(), Value::from(extensions));
        }
        Value::from(members)
    }
}

impl DocBuilder {
    /// `stem` names the sibling `.bin` (`<stem>.bin`) when `buffer_mode` is `Sibling`.
    pub fn new(stem: &str, buffer_mode: BufferMode) -> DocBuilder {
        DocBuilder {
            nodes: Vec::new(),
            meshes: Vec::new(),
            skins: Vec::new(),
            accessors: Vec::new(),
            views: Vec::new(),
            bin: Vec::new(),
            root_extensions: Vec::new(),
            used: Vec::new(),
            buffer_mode,
            stem: stem.to_owned(),
        }
    }

    /// Add a node under `parent` (or as a scene root) and return its index.
    pub fn node(&mut self, name: impl Into<String>, trs: TrsSpec, parent: Option<usize>) -> usize {
        let mut members = Map::new();
        members.insert("name".into(), Value::from(name.into()));
        if let Some(t) = trs.translation {
            members.insert("translation".into(), Value::from(t));
        }
        if let Some(r) = trs.rotation {
            members.insert("rotation".into(), Value::from(r));
        }
        if let Some(s) = trs.scale {
            members.insert("scale".into(), Value::from(s));
        }
        let index = self.nodes.len();
        self.nodes.push(NodeDraft {
            members,
            parent,
            ..NodeDraft::default()
        });
        if let Some(p) = parent {
            self.nodes[p].children.push(index);
        }
        index
    }

    /// Add a root node that is not in the scene, and return its index.
    pub fn detached_node(&mut self, name: impl Into<String>, trs: TrsSpec) -> usize {
        let index = self.node(name, trs, None);
        self.nodes[index].detached = true;
        index
    }

    /// Set a core member of `node` (e.g. `mesh`).
    pub fn node_member(&mut self, node: usize, key: &'static str, value: Value) {
        self.nodes[node].members.insert(key.into(), value);
    }

    /// Set the members of `value` in the node-level extension object `key` of `node`
    /// (created when missing).
    pub fn node_extension(&mut self, node: usize, key: &'static str, value: Map<String, Value>) {
        self.mark_used(key);
        self.nodes[node].extension(key).extend(value);
    }

    /// Set member `member` of the node-level extension object `ext` of `node`: what
    /// `node_extension(node, ext, {member: value})` does, without building an object.
    pub fn node_extension_member(
        &mut self,
        node: usize,
        ext: &'static str,
        member: &'static str,
        value: Value,
    ) {
        self.mark_used(ext);
        self.nodes[node].extension(ext).insert(member.into(), value);
    }

    /// Append `item` to the document-level array `ext.array` and return its index.
    pub fn push_root(&mut self, ext: &'static str, array: &'static str, item: Value) -> usize {
        self.mark_used(ext);
        let arrays = match self.root_extensions.iter().position(|(k, _)| *k == ext) {
            Some(at) => &mut self.root_extensions[at].1,
            None => {
                self.root_extensions.push((ext, Vec::new()));
                &mut self.root_extensions.last_mut().expect("just pushed").1
            }
        };
        let items = match arrays.iter().position(|(k, _)| *k == array) {
            Some(at) => &mut arrays[at].1,
            None => {
                arrays.push((array, Vec::new()));
                &mut arrays.last_mut().expect("just pushed").1
            }
        };
        items.push(item);
        items.len() - 1
    }

    /// Record `ext` in `extensionsUsed`.
    fn mark_used(&mut self, ext: &'static str) {
        if !self.used.contains(&ext) {
            self.used.push(ext);
        }
    }

    /// Add a triangle mesh with real accessors and return its mesh index.
    pub fn mesh(&mut self, data: &MeshData) -> usize {
        let positions = self.accessor_vec3(&data.positions);
        let indices = self.accessor_indices(&data.indices, data.positions.len());
        let attributes = json!({"POSITION": positions});
        let primitive = json!({"attributes": attributes, "indices": indices, "mode": 4_u32});
        self.meshes.push(json!({"primitives": [primitive]}));
        self.meshes.len() - 1
    }

    /// `data` stored at half size with one morph target whose deltas are the full positions,
    /// and a default weight of 0: at weight 0.5 (the node's, which wins) the mesh is `data`
    /// exactly (0.5 p + 0.5 p; halving is exact in binary floats) [D-GEOMETRY-NODE].
    pub fn morphed_mesh(&mut self, data: &MeshData) -> usize {
        let half: Vec<[f32; 3]> = data.positions.iter().map(|p| p.map(|c| c * 0.5)).collect();
        let mesh = self.mesh(&MeshData {
            positions: half,
            indices: data.indices.clone(),
        });
        let target = self.accessor_vec3(&data.positions);
        if let Some(m) = self.meshes.get_mut(mesh) {
            *m = json!({"primitives": [{"attributes": {"POSITION": target - 2}, "indices": target - 1, "mode": 4_u32, "targets": [{"POSITION": target}]}], "weights": [0.0]});
        }
        mesh
    }

    /// Give mesh `mesh` the default morph weights `weights`.
    pub fn mesh_weights(&mut self, mesh: usize, weights: &[f64]) {
        if let Some(m) = self.meshes.get_mut(mesh) {
            m["weights"] = json!(weights);
        }
    }

    /// `data` stored at `stored` times its size, every vertex weighted 1 to joint 0 (JOINTS_0
    /// unsigned bytes, WEIGHTS_0 floats): at half size, under a skin whose one joint has scale 2
    /// at rest (identity inverse bind matrix) it is `data` exactly [D-GEOMETRY-NODE].
    pub fn skinned_mesh(&mut self, data: &MeshData, stored: f32) -> usize {
        let half: Vec<[f32; 3]> = data
            .positions
            .iter()
            .map(|p| p.map(|c| c * stored))
            .collect();
        let n = half.len();
        let mesh = self.mesh(&MeshData {
            positions: half,
            indices: data.indices.clone(),
        });
        let joints = self.view(&vec![0u8; 4 * n], 34962);
        self.accessors.push(
            json!({"bufferView": joints, "componentType": 5121_u32, "count": n, "type": "VEC4"}),
        );
        let one: Vec<u8> = [1.0f32, 0.0, 0.0, 0.0]
            .repeat(n)
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        let weights = self.view(&one, 34962);
        self.accessors.push(
            json!({"bufferView": weights, "componentType": 5126_u32, "count": n, "type": "VEC4"}),
        );
        let a = self.accessors.len();
        self.meshes[mesh] = json!({"primitives": [{"attributes": {"JOINTS_0": a - 2, "POSITION": a - 4, "WEIGHTS_0": a - 1}, "indices": a - 3, "mode": 4_u32}]});
        mesh
    }

    /// A skin over `joints` without inverse bind matrices (identity); returns its index.
    pub fn skin(&mut self, joints: &[usize]) -> usize {
        self.skins.push(json!({"joints": joints.to_vec()}));
        self.skins.len() - 1
    }

    fn view(&mut self, bytes: &[u8], target: u32) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views.push(json!({"buffer": 0_u32, "byteOffset": offset, "byteLength": bytes.len(), "target": target}));
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
        let exact = |v: [f32; 3]| Value::from(v.map(f64::from));
        self.accessors.push(json!({"bufferView": view, "componentType": 5126_u32, "count": points.len(), "type": "VEC3", "min": exact(min), "max": exact(max)}));
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
        self.accessors.push(json!({"bufferView": view, "componentType": component, "count": indices.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    /// Finish: scene 0 holds every root node; `extensionsUsed` lists every extension used.
    pub fn finish(self) -> Built {
        let mut doc = Map::new();
        doc.insert(
            "asset".into(),
            json!({"generator": "physics-cts-generator", "version": "2.0"}),
        );
        let roots: Vec<usize> = (0..self.nodes.len())
            .filter(|&n| self.nodes[n].parent.is_none() && !self.nodes[n].detached)
            .collect();
        doc.insert("scene".into(), Value::from(0_u32));
        doc.insert("scenes".into(), Value::from([json!({"nodes": roots})]));
        doc.insert(
            "nodes".into(),
            self.nodes.into_iter().map(NodeDraft::finish).collect(),
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
            let buffer = json!({"byteLength": byte_length, "uri": uri});
            doc.insert("buffers".into(), Value::from([buffer]));
            doc.insert("bufferViews".into(), Value::from(self.views));
            doc.insert("accessors".into(), Value::from(self.accessors));
            doc.insert("meshes".into(), Value::from(self.meshes));
        }
        if !self.skins.is_empty() {
            doc.insert("skins".into(), Value::from(self.skins));
        }
        if !self.root_extensions.is_empty() {
            let mut extensions = Map::new();
            for (ext, arrays) in self.root_extensions {
                let mut object = Map::new();
                for (name, items) in arrays {
                    object.insert(name.into(), Value::from(items));
                }
                extensions.insert(ext.into(), Value::from(object));
            }
            doc.insert("extensions".into(), Value::from(extensions));
        }
        if !self.used.is_empty() {
            let mut used = self.used;
            used.sort_unstable();
            doc.insert("extensionsUsed".into(), Value::from(used));
        }
        Built {
            json: Value::from(doc),
            siblings,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::omi::{BODY, COLLIDER, JOINT};
    use serde_json::json;

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
        b.node("a", TrsSpec::default(), None);
        assert_eq!(b.mesh(&tetra()), 0);
        let built = b.finish();
        // 4 vertices * 12 bytes = 48, then 12 u16 indices = 24 bytes: 72 in all.
        assert_eq!(built.json["buffers"][0]["byteLength"], json!(72));
        assert_eq!(built.json["buffers"][0]["uri"], json!("x.bin"));
        assert_eq!(built.siblings["x.bin"].len(), 72);
        assert_eq!(built.json["bufferViews"][1]["byteOffset"], json!(48));
        assert_eq!(built.json["accessors"][0]["max"], json!([1.0, 1.0, 1.0]));
        assert_eq!(built.json["accessors"][1]["componentType"], json!(5123));
        assert_eq!(
            built.json["meshes"],
            json!([{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 4}]}])
        );
    }

    #[test]
    fn children_and_extensions_accumulate() {
        let mut b = DocBuilder::new("x", BufferMode::DataUri);
        let root = b.node("r", TrsSpec::default(), None);
        b.node("a", TrsSpec::default(), Some(root));
        b.node("b", TrsSpec::default(), Some(root));
        b.node_extension(root, "E", Map::from_iter([("x".into(), Value::from(1))]));
        b.node_extension(
            root,
            "E",
            Map::from_iter([("y".into(), Value::from(2)), ("x".into(), Value::from(6))]),
        );
        // A member is what a one-member object merges.
        b.node_extension_member(root, "E", "z", Value::from(3));
        b.node_extension_member(root, "F", "w", Value::from(4));
        b.node_extension_member(1, "G", "v", Value::from(5));
        let built = b.finish();
        assert_eq!(built.json["nodes"][0]["children"], json!([1, 2]));
        assert_eq!(
            built.json["nodes"][0]["extensions"],
            json!({"E": {"x": 6, "y": 2, "z": 3}, "F": {"w": 4}})
        );
        assert_eq!(built.json["nodes"][1]["extensions"], json!({"G": {"v": 5}}));
        assert_eq!(built.json["nodes"][2].get("extensions"), None);
        assert_eq!(built.json["extensionsUsed"], json!(["E", "F", "G"]));
    }

    #[test]
    fn extensions_used_lists_what_is_used_sorted() {
        let mut b = DocBuilder::new("x", BufferMode::DataUri);
        let n = b.node("a", TrsSpec::default(), None);
        let c = b.node("c", TrsSpec::at([0.0, 1.0, 0.0]), Some(n));
        b.node_extension(
            c,
            BODY,
            Map::from_iter([("collider".into(), Value::from(0))]),
        );
        b.push_root(COLLIDER, "colliders", json!({"type": "sphere"}));
        let second = b.push_root(COLLIDER, "colliders", json!({"type": "box"}));
        assert_eq!(second, 1);
        assert_eq!(b.push_root(JOINT, "constraints", json!({})), 0);
        assert_eq!(b.push_root(COLLIDER, "shapes", json!(2)), 0);
        b.node_extension(
            n,
            BODY,
            Map::from_iter([("type".into(), Value::from("rigid"))]),
        );
        let built = b.finish();
        assert_eq!(built.json["extensionsUsed"], json!([COLLIDER, BODY, JOINT]));
        assert_eq!(
            built.json["extensions"],
            json!({
                COLLIDER: {"colliders": [{"type": "sphere"}, {"type": "box"}], "shapes": [2]},
                JOINT: {"constraints": [{}]}
            })
        );
        assert_eq!(built.json["scenes"][0]["nodes"], json!([0]));
        assert_eq!(built.json["nodes"][0]["children"], json!([1]));
        assert_eq!(
            built.json["nodes"][1]["translation"],
            json!([0.0, 1.0, 0.0])
        );
        assert!(built.siblings.is_empty());
    }

    /// Numbers are what serde_json's `json!` makes of them: a non-finite one `null`, an
    /// integer an integer, `-0.0` itself.
    #[test]
    fn numbers_are_those_of_serde_json() {
        let mut b = DocBuilder::new("x", BufferMode::DataUri);
        let trs = TrsSpec {
            translation: Some([f64::NAN, f64::INFINITY, -0.0]),
            rotation: None,
            scale: Some([1.0, 2.5, -3.0]),
        };
        let n = b.node("a", trs, None);
        b.node_extension_member(n, "E", "count", Value::from(3_usize));
        let built = b.finish();
        assert_eq!(
            built.json["nodes"][0],
            json!({
                "name": "a",
                "translation": [null, null, -0.0],
                "scale": [1.0, 2.5, -3.0],
                "extensions": {"E": {"count": 3}}
            })
        );
        assert_eq!(
            crate::canonical::to_string(&built.json["nodes"][0]["translation"]),
            "[null, null, -0.0]\n"
        );
    }
}
