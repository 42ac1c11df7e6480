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
pub mod budget;
mod buffers;
mod extensions;
pub mod file;
pub mod glb;
mod hierarchy;
mod mesh;
mod schema;

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_token};

pub use accessor::MAX_ZERO_ACCESSOR_BYTES;
use buffers::Container;
pub use buffers::{Buffer, data_uri_bytes, is_data_uri, sibling_files};
pub use hierarchy::{MATRIX_TRS_TOLERANCE, ROTATION_UNIT_TOLERANCE, decompose, read_nodes};
pub use mesh::{Part, distinct_vertex_count};

/// Files above this size are not read (`FILE_TOO_LARGE`); external buffers above it are
/// `BUFFER_UNREADABLE`.
pub const MAX_FILE_SIZE: u64 = 512 * 1024 * 1024;

/// A parsed glTF document with its buffers resolved.
#[derive(Debug)]
pub struct Document<'j> {
    /// The core document, typed. Indices in it may be out of range (reported as `GLTF_INDEX`):
    /// look them up with `get`. Extension objects are read from `json`, not from here.
    pub root: gltf_json::Root,
    /// The same JSON, untyped: extension objects are read from here so pointers are exact.
    /// Borrowed when the caller keeps the tree ([`Document::from_tree`]).
    pub json: Cow<'j, Value>,
    /// Folder of the file, for relative buffer URIs; `None` for in-memory documents.
    pub base_dir: Option<PathBuf>,
    /// Buffer data by buffer index; `None` when unreadable (an issue says why). The data may
    /// be shorter than `byteLength` (`BUFFER_TOO_SHORT`). Files of at most
    /// 64 KiB (`buffers::READ_WHOLE_UP_TO`) are read at load, larger ones in ranges on use.
    pub buffers: Vec<Option<Buffer>>,
    /// Whether the document is a GLB (its buffer 0 without `uri` is the BIN chunk).
    glb: bool,
}

impl Document<'static> {
    /// Parse `bytes` (JSON, or GLB when they start with `glTF`), check the core schema, and
    /// load the buffers. Returns `None` when the core document cannot be read at all (GLB
    /// container, JSON syntax, schema mismatch); every problem found is pushed to `issues`.
    pub fn load(
        bytes: &[u8],
        base_dir: Option<&Path>,
        issues: &mut Issues,
    ) -> Option<Document<'static>> {
        let (json_bytes, container) = if glb::is_glb(bytes) {
            let chunks = glb::split(bytes, issues)?;
            (chunks.json, Container::Glb { bin: chunks.bin })
        } else {
            (bytes, Container::Json)
        };
        if let Err(values) = budget::check(json_bytes) {
            issues.push(
                Issue::new(Code::DocumentTooLarge, "")
                    .arg("values", values)
                    .arg("limit", budget::MAX_JSON_VALUES),
            );
            return None;
        }
        let json = match serde_json::from_slice(json_bytes) {
            Ok(v) => v,
            Err(e) => {
                issues.push(Issue::new(Code::JsonSyntax, "").arg("detail", e));
                return None;
            }
        };
        Document::from_container(json, base_dir, container, issues)
    }

    /// [`Document::load`] of JSON already parsed (`bin`: the GLB binary chunk; `Some` reads
    /// the document as a GLB's).
    pub fn from_json(
        json: Value,
        base_dir: Option<&Path>,
        bin: Option<&[u8]>,
        issues: &mut Issues,
    ) -> Option<Document<'static>> {
        let container = match bin {
            Some(bin) => Container::Glb { bin: Some(bin) },
            None => Container::Json,
        };
        Document::from_container(json, base_dir, container, issues)
    }

    /// [`Document::from_json`] of JSON from `container`.
    fn from_container(
        json: Value,
        base_dir: Option<&Path>,
        container: Container<'_>,
        issues: &mut Issues,
    ) -> Option<Document<'static>> {
        let root = schema::deserialize(&json, issues)?;
        Some(Document::checked(
            root,
            Cow::Owned(json),
            base_dir,
            container,
            issues,
        ))
    }
}

impl<'j> Document<'j> {
    /// [`Document::from_json`] of a tree the caller keeps: read in place, not copied.
    pub fn from_tree(
        json: &'j Value,
        base_dir: Option<&Path>,
        issues: &mut Issues,
    ) -> Option<Document<'j>> {
        let root = schema::deserialize(json, issues)?;
        Some(Document::checked(
            root,
            Cow::Borrowed(json),
            base_dir,
            Container::Json,
            issues,
        ))
    }

    /// The document of a typed read: the core schema checked and the buffers loaded.
    fn checked(
        root: gltf_json::Root,
        json: Cow<'j, Value>,
        base_dir: Option<&Path>,
        container: Container<'_>,
        issues: &mut Issues,
    ) -> Document<'j> {
        schema::validate(&root, &json, issues);
        let buffers = buffers::load(&root, base_dir, container, issues);
        Document {
            buffers,
            root,
            json,
            base_dir: base_dir.map(Path::to_path_buf),
            glb: matches!(container, Container::Glb { .. }),
        }
    }

    /// The buffer that accessor `a` reads (its view's, or a sparse part's) and that has no data
    /// by the document's own choice ([`buffers::has_no_data_by_design`]): what makes a shape
    /// that needs the accessor `ACCESSOR_DATA_UNAVAILABLE`.
    pub(crate) fn buffer_without_data(&self, a: usize) -> Option<usize> {
        let accessor = self.root.accessors.get(a)?;
        let sparse = accessor.sparse.as_ref();
        let views = accessor
            .buffer_view
            .into_iter()
            .chain(sparse.map(|s| s.indices.buffer_view))
            .chain(sparse.map(|s| s.values.buffer_view));
        views
            .filter_map(|v| self.root.buffer_views.get(v.value()))
            .map(|view| view.buffer.value())
            .find(|&b| {
                self.buffers.get(b).is_some_and(Option::is_none)
                    && self.root.buffers.get(b).is_some_and(|buffer| {
                        buffers::has_no_data_by_design(b, buffer.uri.as_deref(), self.glb)
                    })
            })
    }

    /// The extension object `key` at document level, with its pointer.
    pub fn root_extension(&self, key: &str) -> Option<(&Value, String)> {
        self.json
            .get("extensions")
            .and_then(|e| e.get(key))
            .map(|v| (v, crate::issue::push_pointer("/extensions", key)))
    }

    /// The extension object `key` on node `node`, with its pointer.
    pub fn node_extension(&self, node: usize, key: &str) -> Option<(&Value, String)> {
        self.node_extensions().get(node, key)
    }

    /// The node-level extension objects: for a reader that visits every node, the `nodes`
    /// array is looked up once instead of once per node and key.
    pub fn node_extensions(&self) -> NodeExtensions<'_> {
        NodeExtensions {
            nodes: self
                .json
                .get("nodes")
                .and_then(Value::as_array)
                .map_or(&[], Vec::as_slice),
        }
    }

    /// Number of nodes in the document.
    pub fn node_count(&self) -> usize {
        self.root.nodes.len()
    }
}

/// Whether `issue` says only that some buffer data cannot be read or lies out of bounds, not
/// that the document is ill-formed: whatever physical reads that data (a collider's mesh)
/// reports `ACCESSOR_DATA_UNAVAILABLE` of its own, so an error of this kind alone leaves the
/// physics and constraints readable (`eval` evaluates them).
pub fn only_unread_data(issue: &Issue) -> bool {
    match issue.code {
        Code::BufferUnreadable
        | Code::BufferTooShort
        | Code::BufferViewBounds
        | Code::AccessorBounds
        | Code::DataUriInvalid
        | Code::UriEscapes => true,
        Code::NotARegularFile => issue.pointer.starts_with("/buffers/"),
        _ => false,
    }
}

/// The extension objects of the document's nodes (see [`Document::node_extensions`]).
#[derive(Clone, Copy, Debug)]
pub struct NodeExtensions<'a> {
    nodes: &'a [Value],
}

impl<'a> NodeExtensions<'a> {
    /// The extension object `key` on node `node`.
    fn find(&self, node: usize, key: &str) -> Option<&'a Value> {
        self.nodes.get(node)?.get("extensions")?.get(key)
    }

    /// The extension object `key` on node `node`, with its pointer.
    pub fn get(&self, node: usize, key: &str) -> Option<(&'a Value, String)> {
        self.find(node, key).map(|v| {
            use crate::issue::Token as _;
            // Written without `write!`: the formatting machinery was most of this function.
            let mut pointer = String::with_capacity(32 + key.len());
            pointer.push_str("/nodes/");
            node.push_to(&mut pointer);
            pointer.push_str("/extensions/");
            push_token(&mut pointer, key);
            (v, pointer)
        })
    }

    /// Whether node `node` has the extension object `key`.
    pub fn contains(&self, node: usize, key: &str) -> bool {
        self.find(node, key).is_some()
    }
}

impl Document<'_> {
    /// Every extension key used in the document (document level and node level), sorted.
    pub fn extension_keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = Vec::new();
        if let Some(e) = self.json.get("extensions").and_then(Value::as_object) {
            keys.extend(e.keys().map(String::as_str));
        }
        if let Some(nodes) = self.json.get("nodes").and_then(Value::as_array) {
            for n in nodes {
                if let Some(e) = n.get("extensions").and_then(Value::as_object) {
                    keys.extend(e.keys().map(String::as_str));
                }
            }
        }
        keys.sort();
        keys.dedup();
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Extension pointers escape `~` and `/` in the key (RFC 6901: `~` as `~0`, `/` as `~1`).
    #[test]
    fn extension_pointers_escape_their_key() {
        let json = br#"{"asset":{"version":"2.0"},"extensions":{"a/b~c":{}},
            "nodes":[{},{"extensions":{"a/b~c":1,"K":2}}]}"#;
        let mut issues = Issues::default();
        let doc = Document::load(json, None, &mut issues).expect("a core document");
        let pointer = |found: Option<(&Value, String)>| found.map(|(_, p)| p);
        assert_eq!(
            pointer(doc.root_extension("a/b~c")).as_deref(),
            Some("/extensions/a~1b~0c")
        );
        assert_eq!(
            pointer(doc.node_extension(1, "a/b~c")).as_deref(),
            Some("/nodes/1/extensions/a~1b~0c")
        );
        assert_eq!(
            pointer(doc.node_extension(1, "K")).as_deref(),
            Some("/nodes/1/extensions/K")
        );
        assert_eq!(pointer(doc.node_extension(0, "K")), None);
        assert_eq!(pointer(doc.node_extension(2, "K")), None);
    }
}
