//! Triangles of a glTF mesh, read from its accessors, for mesh-based shapes.

use crate::issue::Issues;
use crate::scene::{MeshId, TriangleMesh};

use super::Document;

impl Document {
    /// The triangles of mesh `mesh` (all primitives), or `None` with issues at `pointer` (the
    /// place that references the mesh) and inside `/meshes/...`.
    pub fn mesh_triangles(
        &self,
        _mesh: MeshId,
        _pointer: &str,
        _issues: &mut Issues,
    ) -> Option<TriangleMesh> {
        None // TODO(document helper): accessors, buffer views, buffers
    }
}
