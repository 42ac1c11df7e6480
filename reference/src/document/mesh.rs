//! Triangles of a glTF mesh, read from its accessors, for mesh-based shapes (KHR `convex` /
//! `trimesh`, OMI `hull` / `trimesh`). Pure functions of the document: nothing is cached, so a
//! reader that uses one mesh for several shapes should read it once (e.g. into `Scene::meshes`).

use std::borrow::Cow;
use std::collections::HashSet;

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::mesh::Semantic;
use gltf_json::validation::Checked;
use serde_json::Value;

use crate::issue::{Code, Issue, Issues};
use crate::scene::{MeshId, TriangleMesh};

use super::Document;
use super::accessor::{read_component, read_uint};

/// glTF primitive mode TRIANGLES.
const TRIANGLES: u64 = 4;

impl Document<'_> {
    /// The triangles of mesh `mesh` (every TRIANGLES primitive, vertices appended in primitive
    /// order), or `None` when it has none. Issues: `MESH_SHAPE_NOT_TRIANGLES` at
    /// `/meshes/m/primitives/p/mode`, `MESH_INDEX_OUT_OF_RANGE` at `.../indices` (once per
    /// primitive; the triangles using it are dropped), `GLTF_VALUE` for a POSITION that is not
    /// VEC3 or not finite or indices that are not unsigned SCALAR, and `MESH_SHAPE_EMPTY` at
    /// `pointer` (the place that references the mesh) when no triangle is left. The caller
    /// checks that `mesh` is in range (a `None` without issue otherwise); missing or
    /// out-of-bounds data was reported when the document was loaded and just yields nothing.
    pub fn mesh_triangles(
        &self,
        mesh: MeshId,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<TriangleMesh> {
        self.mesh_parts(mesh, pointer, issues).map(|(m, _)| m)
    }

    /// [`Document::mesh_triangles`], with where each primitive's vertices went (for morph
    /// targets and skin attributes, which are per primitive).
    pub fn mesh_parts(
        &self,
        mesh: MeshId,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<(TriangleMesh, Vec<Part>)> {
        let typed = self.root.meshes.get(mesh)?;
        let mut out = TriangleMesh::default();
        let mut parts = Vec::new();
        for (p, primitive) in typed.primitives.iter().enumerate() {
            let at = format!("/meshes/{mesh}/primitives/{p}");
            // The JSON at `{at}/mode`, looked up without writing and parsing that pointer.
            let raw_mode = self
                .json
                .get("meshes")
                .and_then(|m| m.get(mesh))
                .and_then(|m| m.get("primitives"))
                .and_then(|list| list.get(p))
                .and_then(|p| p.get("mode"));
            let mode = raw_mode.map_or(Some(TRIANGLES), super::schema::integer);
            if mode != Some(TRIANGLES) {
                let shown = raw_mode.cloned().unwrap_or(Value::Null);
                issues.push(
                    Issue::new(Code::MeshShapeNotTriangles, format!("{at}/mode"))
                        .arg("mode", shown),
                );
                continue;
            }
            let Some(positions) = self.positions(primitive, &at, issues) else {
                continue;
            };
            let vertex_count = positions.len() as u64;
            let indices = match primitive.indices {
                Some(i) => match self.indices(i.value(), &at, issues) {
                    Some(indices) => indices,
                    None => continue,
                },
                None => Indices::Sequential(vertex_count),
            };
            let Ok(base) = u32::try_from(out.positions.len()) else {
                continue;
            };
            let triangles = &mut out.triangles;
            let bad = match &indices {
                Indices::Sequential(n) => push_triangles(
                    triangles,
                    base,
                    vertex_count,
                    (0..n / 3).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]),
                ),
                Indices::Packed(bytes, 1) => push_triangles(
                    triangles,
                    base,
                    vertex_count,
                    bytes.as_chunks::<3>().0.iter().map(|t| t.map(u64::from)),
                ),
                Indices::Packed(bytes, 2) => push_triangles(
                    triangles,
                    base,
                    vertex_count,
                    bytes.as_chunks::<6>().0.iter().map(|t| {
                        let i = |k: usize| u64::from(u16::from_le_bytes([t[k], t[k + 1]]));
                        [i(0), i(2), i(4)]
                    }),
                ),
                Indices::Packed(bytes, size) => push_triangles(
                    triangles,
                    base,
                    vertex_count,
                    bytes.chunks_exact(3 * size).map(|t| {
                        let i = |k: usize| read_uint(&t[k * size..(k + 1) * size]);
                        [i(0), i(1), i(2)]
                    }),
                ),
            };
            if let Some(bad) = bad {
                issues.push(
                    Issue::new(Code::MeshIndexOutOfRange, format!("{at}/indices"))
                        .arg("index", bad)
                        .arg("count", vertex_count),
                );
            }
            parts.push(Part {
                primitive: p,
                first: out.positions.len(),
                count: positions.len(),
            });
            if out.positions.is_empty() {
                out.positions = positions;
            } else {
                out.positions.extend(positions);
            }
        }
        if out.triangles.is_empty() {
            issues.push(Issue::new(Code::MeshShapeEmpty, pointer));
            return None;
        }
        Some((out, parts))
    }

    /// Number of primitives of mesh `mesh` (0 when out of range).
    pub fn mesh_primitive_count(&self, mesh: MeshId) -> usize {
        self.root.meshes.get(mesh).map_or(0, |m| m.primitives.len())
    }

    /// Vertex positions of one primitive; `None` when it has none (legal) or they are unusable.
    fn positions(
        &self,
        primitive: &gltf_json::mesh::Primitive,
        at: &str,
        issues: &mut Issues,
    ) -> Option<Vec<[f64; 3]>> {
        let accessor = primitive
            .attributes
            .get(&Checked::Valid(Semantic::Positions))?
            .value();
        let normalized = self.root.accessors.get(accessor)?.normalized;
        let pointer = format!("{at}/attributes/POSITION");
        let (bytes, kind, component) = self.needed(accessor, &pointer, issues)?;
        if kind != Type::Vec3 {
            issues.push(Issue::new(Code::GltfValue, pointer).arg(
                "detail",
                format!("the POSITION accessor is {kind:?}, not VEC3"),
            ));
            return None;
        }
        let size = component.size();
        let mut positions = Vec::with_capacity(bytes.len() / (3 * size));
        let not_finite = |k: usize| {
            Issue::new(Code::GltfValue, pointer.as_str()).arg(
                "detail",
                format!("vertex {k} of the POSITION accessor is not finite"),
            )
        };
        if component == ComponentType::F32 {
            // The usual layout, read without a per-component dispatch.
            for (k, vertex) in bytes.as_chunks::<12>().0.iter().enumerate() {
                let c = |i: usize| {
                    f64::from(f32::from_le_bytes([
                        vertex[i],
                        vertex[i + 1],
                        vertex[i + 2],
                        vertex[i + 3],
                    ]))
                };
                let v = [c(0), c(4), c(8)];
                if !v.iter().all(|x| x.is_finite()) {
                    issues.push(not_finite(k));
                    return None;
                }
                positions.push(v);
            }
            return Some(positions);
        }
        for (k, vertex) in bytes.chunks_exact(3 * size).enumerate() {
            // A chunk of 3 * size bytes is exactly 3 components: every slot is written.
            let mut v = [0.0; 3];
            for (slot, c) in v.iter_mut().zip(vertex.chunks_exact(size)) {
                *slot = read_component(c, component, normalized);
            }
            if !v.iter().all(|x| x.is_finite()) {
                issues.push(not_finite(k));
                return None;
            }
            positions.push(v);
        }
        Some(positions)
    }

    /// Vertex indices from accessor `accessor`; `None` when unusable.
    fn indices(&self, accessor: usize, at: &str, issues: &mut Issues) -> Option<Indices<'_>> {
        let (bytes, kind, component) = self.needed(accessor, &format!("{at}/indices"), issues)?;
        if kind != Type::Scalar
            || !matches!(
                component,
                ComponentType::U8 | ComponentType::U16 | ComponentType::U32
            )
        {
            issues.push(Issue::new(Code::GltfValue, format!("{at}/indices")).arg(
                "detail",
                format!(
                    "the indices accessor is {kind:?} of {component:?}, not an unsigned SCALAR"
                ),
            ));
            return None;
        }
        Some(Indices::Packed(bytes, component.size()))
    }
}

impl Document<'_> {
    /// [`Document::packed`] of an accessor a shape needs (referenced at `pointer`); when its
    /// data cannot be read, `ACCESSOR_DATA_UNAVAILABLE` there. The reason was reported when
    /// the document was loaded: as an error (a missing file, bounds) or, for a buffer with no
    /// data by the document's choice (no `uri`, an absolute URI) or an unknown type, as no
    /// error at all, since nothing needed the data until now. Either way a shape that needs
    /// it is an error of its own, so that what the loading found wrong with data no shape
    /// reads stops nothing physical (`eval`).
    fn needed(
        &self,
        accessor: usize,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<(Cow<'_, [u8]>, Type, ComponentType)> {
        let packed = self.packed(accessor);
        if packed.is_none() && accessor < self.root.accessors.len() {
            let reason = match self.buffer_without_data(accessor) {
                Some(buffer) => format!("buffer {buffer} holds no data"),
                None => "see the issues of the accessor, its buffer views and buffers".to_owned(),
            };
            issues.push(
                Issue::new(Code::AccessorDataUnavailable, pointer)
                    .arg("accessor", accessor)
                    .arg("reason", reason),
            );
        }
        packed
    }
}

/// The vertices one primitive gave a [`TriangleMesh`]: `count` positions from index `first`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    /// The primitive's index in its mesh.
    pub primitive: usize,
    pub first: usize,
    pub count: usize,
}

/// The vertex indices of a primitive.
enum Indices<'a> {
    /// `0..n` (a primitive without indices).
    Sequential(u64),
    /// Packed little-endian unsigned integers of the given size in bytes.
    Packed(Cow<'a, [u8]>, usize),
}

/// Append `triangles` (vertex indices), shifted by `base`, to `out`. A triangle with an index
/// not below `vertex_count` is dropped, and so is one whose shifted index does not fit a
/// `u32`; the first index out of range is returned.
fn push_triangles(
    out: &mut Vec<[u32; 3]>,
    base: u32,
    vertex_count: u64,
    triangles: impl Iterator<Item = [u64; 3]>,
) -> Option<u64> {
    let mut bad = None;
    out.reserve(triangles.size_hint().0);
    // Every index below `vertex_count`, shifted, fits a u32: no check per index then.
    let fits = u64::from(base) + vertex_count <= 1 << 32;
    let shifted = |i: u64| u32::try_from(i).ok().and_then(|i| i.checked_add(base));
    for triangle in triangles {
        if triangle.iter().any(|&i| i >= vertex_count) {
            bad = bad.or(triangle.into_iter().find(|&i| i >= vertex_count));
            continue;
        }
        if fits {
            // i < vertex_count, so i + base < 2^32.
            out.push(triangle.map(|i| i as u32 + base));
        } else if let [Some(a), Some(b), Some(c)] = triangle.map(shifted) {
            out.push([a, b, c]);
        }
    }
    bad
}

/// Number of distinct vertex positions (exact comparison; -0 equals 0), e.g. for hull limits.
pub fn distinct_vertex_count(mesh: &TriangleMesh) -> usize {
    let key = |v: &[f64; 3]| v.map(|x| if x == 0.0 { 0u64 } else { x.to_bits() });
    mesh.positions.iter().map(key).collect::<HashSet<_>>().len()
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::*;

    /// A document whose mesh 0 has one primitive over `positions` (f32 VEC3) with `indices`
    /// (u16, or none), plus `extra` primitive JSON appended.
    fn doc(
        positions: &[[f32; 3]],
        indices: Option<&[u16]>,
        mode: Option<u32>,
    ) -> Document<'static> {
        let mut data: Vec<u8> = positions
            .iter()
            .flatten()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let pos_len = data.len();
        let idx: Vec<u8> = indices
            .unwrap_or(&[])
            .iter()
            .flat_map(|i| i.to_le_bytes())
            .collect();
        data.extend(&idx);
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&data)
        );
        let mut primitive = serde_json::json!({"attributes": {"POSITION": 0}});
        if indices.is_some() {
            primitive["indices"] = 1.into();
        }
        if let Some(mode) = mode {
            primitive["mode"] = mode.into();
        }
        let json = serde_json::json!({
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": data.len(), "uri": uri}],
            "bufferViews": [
                {"buffer": 0, "byteLength": pos_len},
                {"buffer": 0, "byteOffset": pos_len, "byteLength": idx.len().max(1)}
            ],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": positions.len(), "type": "VEC3",
                 "min": [0, 0, 0], "max": [1, 1, 1]},
                {"bufferView": 1, "componentType": 5123, "count": indices.map_or(0, <[u16]>::len), "type": "SCALAR"}
            ],
            "meshes": [{"primitives": [primitive.clone(), primitive]}]
        });
        let mut issues = Issues::default();
        Document::load(json.to_string().as_bytes(), None, &mut issues).expect("loads")
    }

    const QUAD: [[f32; 3]; 4] = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];

    fn read(doc: &Document) -> (Option<TriangleMesh>, Vec<(Code, String)>) {
        let mut issues = Issues::default();
        let mesh = doc.mesh_triangles(0, "/ref", &mut issues);
        (
            mesh,
            issues.0.into_iter().map(|i| (i.code, i.pointer)).collect(),
        )
    }

    #[test]
    fn indexed_primitives_are_appended() {
        let doc = doc(&QUAD, Some(&[0, 1, 2, 0, 2, 3]), None);
        let (mesh, issues) = read(&doc);
        assert!(issues.is_empty(), "{issues:?}");
        let mesh = mesh.expect("triangles");
        // Two primitives of 4 vertices each: the second primitive's indices are shifted by 4.
        assert_eq!(mesh.positions.len(), 8);
        assert_eq!(mesh.triangles, [[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7]]);
        assert_eq!(mesh.positions[2], [1.0, 1.0, 0.0]);
        assert_eq!(distinct_vertex_count(&mesh), 4);
        assert_eq!(doc.mesh_primitive_count(0), 2);
        assert_eq!(doc.mesh_primitive_count(9), 0);
    }

    #[test]
    fn sequential_without_indices() {
        // 4 vertices, no indices: one triangle (0, 1, 2); vertex 3 is left over.
        let (mesh, issues) = read(&doc(&QUAD, None, Some(4)));
        assert!(issues.is_empty());
        assert_eq!(mesh.expect("triangles").triangles, [[0, 1, 2], [4, 5, 6]]);
    }

    #[test]
    fn index_out_of_range_drops_the_triangle() {
        let (mesh, issues) = read(&doc(&QUAD, Some(&[0, 1, 2, 0, 9, 3]), None));
        assert_eq!(
            issues,
            [
                (
                    Code::MeshIndexOutOfRange,
                    "/meshes/0/primitives/0/indices".to_owned()
                ),
                (
                    Code::MeshIndexOutOfRange,
                    "/meshes/0/primitives/1/indices".to_owned()
                )
            ]
        );
        assert_eq!(mesh.expect("triangles").triangles, [[0, 1, 2], [4, 5, 6]]);
    }

    #[test]
    fn not_triangles_and_empty() {
        let (mesh, issues) = read(&doc(&QUAD, Some(&[0, 1, 2, 3]), Some(1)));
        assert!(mesh.is_none());
        assert_eq!(
            issues,
            [
                (
                    Code::MeshShapeNotTriangles,
                    "/meshes/0/primitives/0/mode".to_owned()
                ),
                (
                    Code::MeshShapeNotTriangles,
                    "/meshes/0/primitives/1/mode".to_owned()
                ),
                (Code::MeshShapeEmpty, "/ref".to_owned())
            ]
        );
        let (mesh, issues) = read(&doc(&QUAD, Some(&[0, 1]), None));
        assert!(mesh.is_none());
        assert_eq!(issues, [(Code::MeshShapeEmpty, "/ref".to_owned())]);
    }

    #[test]
    fn non_finite_positions_are_rejected() {
        let (mesh, issues) = read(&doc(
            &[[0.0, 0.0, 0.0], [f32::NAN, 0.0, 0.0], [0.0, 1.0, 0.0]],
            None,
            None,
        ));
        assert!(mesh.is_none());
        assert_eq!(
            issues[0],
            (
                Code::GltfValue,
                "/meshes/0/primitives/0/attributes/POSITION".to_owned()
            )
        );
        assert_eq!(issues.last().map(|i| i.0), Some(Code::MeshShapeEmpty));
    }

    /// One primitive of a generated mesh: its positions, indices of 1, 2 or 4 bytes (or
    /// none), and the mode (`None`: the default, TRIANGLES).
    #[derive(Clone, Debug)]
    struct Primitive {
        positions: Positions,
        indices: Option<(usize, Vec<u32>)>,
        mode: Option<u32>,
    }

    /// Position components: f32, or integers of a component type (BYTE, UNSIGNED_BYTE, SHORT,
    /// UNSIGNED_SHORT), normalized or not, as KHR_mesh_quantization allows.
    #[derive(Clone, Debug)]
    enum Positions {
        F32(Vec<[f32; 3]>),
        Int {
            component: ComponentType,
            normalized: bool,
            values: Vec<[i32; 3]>,
        },
    }

    impl Positions {
        fn len(&self) -> usize {
            match self {
                Positions::F32(v) => v.len(),
                Positions::Int { values, .. } => values.len(),
            }
        }

        /// The positions the spec gives: floats as they are; integers as they are, or divided
        /// by the type's largest value when normalized (signed ones clamped at -1: glTF 2.0
        /// §3.11), worked out from the integers, not from their bytes.
        fn by_rule(&self) -> Vec<[f64; 3]> {
            match self {
                Positions::F32(v) => v.iter().map(|p| p.map(f64::from)).collect(),
                Positions::Int {
                    component,
                    normalized,
                    values,
                } => {
                    let scale = |x: i32| {
                        let x = f64::from(x);
                        match (normalized, component) {
                            (false, _) => x,
                            (true, ComponentType::I8) => (x / 127.0).max(-1.0),
                            (true, ComponentType::U8) => x / 255.0,
                            (true, ComponentType::I16) => (x / 32767.0).max(-1.0),
                            (true, _) => x / 65535.0,
                        }
                    };
                    values.iter().map(|p| p.map(scale)).collect()
                }
            }
        }

        /// The accessor's bytes (each vertex padded to a 4-byte stride, as vertex attributes
        /// must be), its component type, and its stride when not tightly packed.
        fn bytes(&self) -> (Vec<u8>, ComponentType, Option<usize>) {
            match self {
                Positions::F32(v) => (
                    v.iter().flatten().flat_map(|x| x.to_le_bytes()).collect(),
                    ComponentType::F32,
                    None,
                ),
                Positions::Int {
                    component, values, ..
                } => {
                    let size = component.size();
                    let stride = (3 * size).next_multiple_of(4);
                    let mut out = Vec::new();
                    for p in values {
                        for &x in p {
                            // The integer's own bytes, as its type holds it.
                            out.extend(&x.to_le_bytes()[..size]);
                        }
                        out.resize(out.len().next_multiple_of(stride), 0);
                    }
                    (out, *component, Some(stride))
                }
            }
        }
    }

    fn positions() -> impl proptest::strategy::Strategy<Value = Positions> {
        use proptest::prelude::*;
        // Rarely not finite: one such coordinate makes the whole primitive an issue.
        let coordinate = prop_oneof![
            200 => -10.0f32..10.0,
            1 => Just(f32::NAN),
            1 => Just(f32::INFINITY),
        ];
        let floats =
            prop::collection::vec([coordinate.clone(), coordinate.clone(), coordinate], 1..9)
                .prop_map(Positions::F32);
        let ints = (
            prop::sample::select(vec![
                ComponentType::I8,
                ComponentType::U8,
                ComponentType::I16,
                ComponentType::U16,
            ]),
            any::<bool>(),
            prop::collection::vec(any::<[i32; 3]>(), 1..9),
        )
            .prop_map(|(component, normalized, values)| {
                // Each integer cut to its type's range: the value the file holds.
                let cut = |x: i32| match component {
                    ComponentType::I8 => i32::from(x as i8),
                    ComponentType::U8 => i32::from(x as u8),
                    ComponentType::I16 => i32::from(x as i16),
                    _ => i32::from(x as u16),
                };
                Positions::Int {
                    component,
                    normalized,
                    values: values.into_iter().map(|p| p.map(cut)).collect(),
                }
            });
        prop_oneof![3 => floats, 1 => ints]
    }

    fn primitive() -> impl proptest::strategy::Strategy<Value = Primitive> {
        use proptest::prelude::*;
        (
            positions(),
            prop::option::weighted(
                0.8,
                (
                    prop::sample::select(vec![1usize, 2, 4]),
                    // Mostly vertex indices; sometimes large ones, whose upper bytes a 2- or
                    // 4-byte index keeps (cut to the index size, as the file holds them).
                    prop::collection::vec(prop_oneof![8 => 0u32..12, 1 => 250u32..70_000], 1..13),
                )
                    .prop_map(|(size, indices)| {
                        let mask = if size == 4 {
                            u32::MAX
                        } else {
                            (1 << (8 * size)) - 1
                        };
                        (size, indices.into_iter().map(|i| i & mask).collect())
                    }),
            ),
            prop::option::weighted(0.2, prop::sample::select(vec![4u32, 1, 0])),
        )
            .prop_map(|(positions, indices, mode)| Primitive {
                positions,
                indices,
                mode,
            })
    }

    /// A document whose mesh 0 has `primitives`, all data in one data-URI buffer.
    fn mesh_document(primitives: &[Primitive]) -> Document<'static> {
        use serde_json::json;
        let (mut data, mut views, mut accessors, mut prims) = (vec![], vec![], vec![], vec![]);
        for p in primitives {
            let at = data.len();
            let (bytes, component, stride) = p.positions.bytes();
            data.extend(bytes);
            let mut view = json!({"buffer": 0, "byteOffset": at, "byteLength": data.len() - at});
            if let Some(stride) = stride {
                view["byteStride"] = stride.into();
            }
            views.push(view);
            let mut accessor = json!({"bufferView": views.len() - 1,
                "componentType": component.as_gl_enum(),
                "count": p.positions.len(), "type": "VEC3"});
            if let Positions::Int {
                normalized: true, ..
            } = p.positions
            {
                accessor["normalized"] = true.into();
            }
            accessors.push(accessor);
            let mut prim = json!({"attributes": {"POSITION": accessors.len() - 1}});
            if let Some((size, indices)) = &p.indices {
                let at = data.len();
                for &i in indices {
                    data.extend(&i.to_le_bytes()[..*size]);
                }
                let component = match size {
                    1 => ComponentType::U8,
                    2 => ComponentType::U16,
                    _ => ComponentType::U32,
                }
                .as_gl_enum();
                views.push(json!({"buffer": 0, "byteOffset": at, "byteLength": data.len() - at}));
                accessors.push(
                    json!({"bufferView": views.len() - 1, "componentType": component,
                    "count": indices.len(), "type": "SCALAR"}),
                );
                prim["indices"] = (accessors.len() - 1).into();
            }
            if let Some(mode) = p.mode {
                prim["mode"] = mode.into();
            }
            prims.push(prim);
            // Keep the next view 4-byte aligned, as f32 data must be.
            data.resize(data.len().next_multiple_of(4), 0);
        }
        let uri = format!(
            "data:application/octet-stream;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(&data)
        );
        let json = json!({
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": data.len(), "uri": uri}],
            "bufferViews": views,
            "accessors": accessors,
            "meshes": [{"primitives": prims}]
        });
        let mut issues = Issues::default();
        Document::load(json.to_string().as_bytes(), None, &mut issues).expect("loads")
    }

    /// What the rules say mesh 0 of [`mesh_document`] gives, worked out from the primitives'
    /// own arrays: TRIANGLES primitives with finite positions (integer ones as the spec
    /// scales them), their vertices appended, each
    /// complete triple of indices a triangle unless an index is not below the primitive's
    /// vertex count (one issue per primitive), indices shifted by the vertices before them.
    fn triangles_by_rule(primitives: &[Primitive]) -> (Option<TriangleMesh>, Vec<(Code, String)>) {
        let mut issues = vec![];
        let mut mesh = TriangleMesh::default();
        for (p, prim) in primitives.iter().enumerate() {
            let at = format!("/meshes/0/primitives/{p}");
            if prim.mode.is_some_and(|m| m != 4) {
                issues.push((Code::MeshShapeNotTriangles, format!("{at}/mode")));
                continue;
            }
            let positions = prim.positions.by_rule();
            if !positions.iter().flatten().all(|x| x.is_finite()) {
                issues.push((Code::GltfValue, format!("{at}/attributes/POSITION")));
                continue;
            }
            let n = prim.positions.len() as u32;
            let indices = match &prim.indices {
                Some((_, i)) => i.clone(),
                None => (0..n).collect(),
            };
            let base = mesh.positions.len() as u32;
            let mut first_bad = None;
            for t in indices.chunks_exact(3) {
                match t.iter().find(|&&i| i >= n) {
                    Some(&i) => {
                        first_bad.get_or_insert(i);
                    }
                    None => mesh.triangles.push([t[0] + base, t[1] + base, t[2] + base]),
                }
            }
            if let Some(bad) = first_bad {
                // The message names the first index out of range and the vertex count.
                let message = Issue::new(Code::MeshIndexOutOfRange, "")
                    .arg("index", bad)
                    .arg("count", n)
                    .message;
                issues.push((
                    Code::MeshIndexOutOfRange,
                    format!("{at}/indices: {message}"),
                ));
            }
            mesh.positions.extend(positions);
        }
        if mesh.triangles.is_empty() {
            issues.push((Code::MeshShapeEmpty, "/ref".to_owned()));
            return (None, issues);
        }
        (Some(mesh), issues)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// The triangles and issues of generated meshes are what the rules give.
        #[test]
        fn triangles_follow_the_rules(
            primitives in proptest::collection::vec(primitive(), 1..4),
        ) {
            let mut issues = Issues::default();
            let mesh = mesh_document(&primitives).mesh_triangles(0, "/ref", &mut issues);
            // Out-of-range issues with their message (their arguments), the others by pointer.
            let issues: Vec<(Code, String)> = issues
                .0
                .into_iter()
                .map(|i| match i.code {
                    Code::MeshIndexOutOfRange => (i.code, format!("{}: {}", i.pointer, i.message)),
                    _ => (i.code, i.pointer),
                })
                .collect();
            proptest::prop_assert_eq!((mesh, issues), triangles_by_rule(&primitives));
        }
    }

    #[test]
    fn out_of_range_mesh_is_none_without_issue() {
        let doc = doc(&QUAD, None, None);
        let mut issues = Issues::default();
        assert!(doc.mesh_triangles(5, "/ref", &mut issues).is_none());
        assert!(issues.0.is_empty());
    }
}
