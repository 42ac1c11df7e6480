//! The core glTF document: bytes (`.gltf` JSON or `.glb`) to a checked [`Document`], its node
//! hierarchy, and the triangles of meshes that shapes use.
//!
//! [`Document::load`] reads the container ([`glb`]), the JSON (`JSON_SYNTAX`), the core schema
//! ([`schema`]) and the buffers ([`buffers`]); [`Document::check_extensions`] and
//! [`Document::check_layout`] check declared extensions and buffer/accessor bounds;
//! [`read_nodes`] builds the canonical hierarchy; [`Document::mesh_triangles`] reads meshes.
//! Nothing here panics or loops on any input: every index is looked up with `get`, sizes are
//! computed in `u128`, and the hierarchy walk is a union-find.

mod accessor;
mod buffers;
mod extensions;
pub mod glb;
mod hierarchy;
mod mesh;
mod schema;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::issue::{Code, Issue, Issues};

pub use accessor::MAX_ZERO_ACCESSOR_BYTES;
pub use hierarchy::{MATRIX_TRS_TOLERANCE, ROTATION_UNIT_TOLERANCE, decompose, read_nodes};
pub use mesh::distinct_vertex_count;

/// Files above this size are not read (`FILE_TOO_LARGE`); external buffers above it are
/// `BUFFER_UNREADABLE`.
pub const MAX_FILE_SIZE: u64 = 512 * 1024 * 1024;

/// A parsed glTF document with its buffers resolved.
#[derive(Debug)]
pub struct Document {
    /// The core document, typed. Indices in it may be out of range (reported as `GLTF_INDEX`):
    /// look them up with `get`. Its document-level and node-level extension maps are empty:
    /// extension objects are read from `json`.
    pub root: gltf_json::Root,
    /// The same JSON, untyped: extension objects are read from here so pointers are exact.
    pub json: Value,
    /// Folder of the file, for relative buffer URIs; `None` for in-memory documents.
    pub base_dir: Option<PathBuf>,
    /// Buffer data by buffer index; `None` when unreadable (an issue says why). The data may
    /// be shorter than `byteLength` (`BUFFER_TOO_SHORT`).
    pub buffers: Vec<Option<Vec<u8>>>,
}

impl Document {
    /// Parse `bytes` (JSON, or GLB when they start with `glTF`), check the core schema, and
    /// load the buffers. Returns `None` when the core document cannot be read at all (GLB
    /// container, JSON syntax, schema mismatch); every problem found is pushed to `issues`.
    pub fn load(bytes: &[u8], base_dir: Option<&Path>, issues: &mut Issues) -> Option<Document> {
        let (json_bytes, bin) = if glb::is_glb(bytes) {
            let chunks = glb::split(bytes, issues)?;
            (chunks.json, chunks.bin)
        } else {
            (bytes, None)
        };
        let json: Value = match serde_json::from_slice(json_bytes) {
            Ok(v) => v,
            Err(e) => {
                issues.push(Issue::new(Code::JsonSyntax, "").arg("detail", e));
                return None;
            }
        };
        Document::from_json(json, base_dir, bin, issues)
    }

    /// [`Document::load`] of JSON already parsed (`bin`: the GLB binary chunk, if any).
    pub fn from_json(
        mut json: Value,
        base_dir: Option<&Path>,
        bin: Option<&[u8]>,
        issues: &mut Issues,
    ) -> Option<Document> {
        let root = schema::deserialize(&mut json, issues)?;
        schema::validate(&root, &json, issues);
        let buffers = buffers::load(&root, base_dir, bin, issues);
        Some(Document {
            buffers,
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
