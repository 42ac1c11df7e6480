//! The core glTF document: bytes (`.gltf` JSON or `.glb`) to a checked [`Document`], its node
//! hierarchy, and the triangles of meshes that shapes use.

mod hierarchy;
mod mesh;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::issue::{Code, Issue, Issues};

pub use hierarchy::read_nodes;

/// Files above this size are not read (`FILE_TOO_LARGE`).
pub const MAX_FILE_SIZE: u64 = 512 * 1024 * 1024;

/// A parsed glTF document with its buffers resolved.
#[derive(Debug)]
pub struct Document {
    /// The core document, typed.
    pub root: gltf_json::Root,
    /// The same JSON, untyped: extension objects are read from here so pointers are exact.
    pub json: Value,
    /// Folder of the file, for relative buffer URIs; `None` for in-memory documents.
    pub base_dir: Option<PathBuf>,
    /// Buffer data by buffer index; `None` when unreadable (an issue says why).
    pub buffers: Vec<Option<Vec<u8>>>,
}

impl Document {
    /// Parse `bytes` (JSON or GLB). Returns `None` when the core document cannot be read at all;
    /// every problem found is pushed to `issues`.
    pub fn load(bytes: &[u8], base_dir: Option<&Path>, issues: &mut Issues) -> Option<Document> {
        let json: Value = match serde_json::from_slice(bytes) {
            Ok(v) => v,
            Err(e) => {
                issues.push(Issue::new(Code::JsonSyntax, "").arg("detail", e));
                return None;
            }
        };
        let root: gltf_json::Root = match serde_path_to_error::deserialize(&json) {
            Ok(r) => r,
            Err(e) => {
                let pointer = crate::document::path_to_pointer(e.path());
                issues.push(Issue::new(Code::GltfSchema, pointer).arg("detail", e.into_inner()));
                return None;
            }
        };
        Some(Document {
            buffers: Vec::new(),
            root,
            json,
            base_dir: base_dir.map(Path::to_path_buf),
        })
    }

    /// The extension object `key` at document level, with its pointer.
    pub fn root_extension(&self, key: &str) -> Option<(&Value, String)> {
        self.json
            .get("extensions")
            .and_then(|e| e.get(key))
            .map(|v| {
                (
                    v,
                    format!("/extensions/{}", crate::issue::escape_token(key)),
                )
            })
    }

    /// The extension object `key` on node `node`, with its pointer.
    pub fn node_extension(&self, node: usize, key: &str) -> Option<(&Value, String)> {
        self.json
            .get("nodes")
            .and_then(|n| n.get(node))
            .and_then(|n| n.get("extensions"))
            .and_then(|e| e.get(key))
            .map(|v| {
                (
                    v,
                    format!(
                        "/nodes/{node}/extensions/{}",
                        crate::issue::escape_token(key)
                    ),
                )
            })
    }

    /// Number of nodes in the document.
    pub fn node_count(&self) -> usize {
        self.root.nodes.len()
    }
}

/// A serde_path_to_error path as a JSON pointer.
pub(crate) fn path_to_pointer(path: &serde_path_to_error::Path) -> String {
    let mut pointer = String::new();
    for segment in path.iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => {
                pointer = crate::issue::push_pointer(&pointer, index)
            }
            serde_path_to_error::Segment::Map { key } => {
                pointer = crate::issue::push_pointer(&pointer, key)
            }
            serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown => {}
        }
    }
    pointer
}

impl Document {
    /// Every extension key used in the document (document level and node level), sorted.
    pub fn extension_keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = Vec::new();
        if let Some(e) = self.json.get("extensions").and_then(Value::as_object) {
            keys.extend(e.keys().cloned());
        }
        if let Some(nodes) = self.json.get("nodes").and_then(Value::as_array) {
            for n in nodes {
                if let Some(e) = n.get("extensions").and_then(Value::as_object) {
                    keys.extend(e.keys().cloned());
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }
}
