//! Buffer views and accessors: the layout checks (`BUFFER_VIEW_BOUNDS`, `ACCESSOR_BOUNDS`), and
//! reading an accessor's elements. All arithmetic is in `u128`, so no declared size overflows.

use std::borrow::Cow;

use gltf_json::accessor::{ComponentType, Type};
use gltf_json::validation::Checked;

use crate::issue::{Code, Issue, Issues};

use super::Document;

/// An accessor without a buffer view is all zeros (plus sparse values). Such an accessor is
/// not backed by file data, so its size is capped to keep a tiny file from allocating gigabytes.
pub const MAX_ZERO_ACCESSOR_BYTES: u128 = 16 * 1024 * 1024;

/// Size in bytes of one element, with the column padding of small-component matrices
/// (glTF 2.0 §3.6.2.4: each matrix column starts on a 4-byte boundary).
pub fn element_size(kind: Type, component: ComponentType) -> usize {
    let c = component.size();
    match kind {
        Type::Mat2 if c < 4 => 2 * 4,
        Type::Mat3 if c < 4 => 3 * (3 * c).div_ceil(4) * 4,
        Type::Mat4 if c < 4 => 4 * 4 * c,
        _ => kind.multiplicity() * c,
    }
}

/// Bytes one element actually occupies: [`element_size`] without the padding after its last
/// matrix column. glTF 2.0 pads every column of a small-component matrix to 4 bytes, but
/// nothing follows the last element's last column: a view may end right after it (as the
/// Khronos validator counts an accessor's length). A MAT2 of bytes: column 0 at bytes 0..2,
/// its padding 2..4, column 1 at 4..6: 6 bytes, not 8.
pub fn element_extent(kind: Type, component: ComponentType) -> usize {
    let c = component.size();
    let columns = match kind {
        Type::Mat2 => 2,
        Type::Mat3 => 3,
        Type::Mat4 => 4,
        _ => return element_size(kind, component),
    };
    let column = columns * c;
    (columns - 1) * column.div_ceil(4) * 4 + column
}

/// An accessor's element size and component type ([`element_size`]).
fn layout(accessor: &gltf_json::Accessor) -> Option<(usize, ComponentType)> {
    match (accessor.type_, accessor.component_type) {
        (Checked::Valid(kind), Checked::Valid(c)) => Some((element_size(kind, c.0), c.0)),
        _ => None,
    }
}

/// The bytes of the last element of `accessor` ([`element_extent`]).
fn extent(accessor: &gltf_json::Accessor) -> Option<usize> {
    match (accessor.type_, accessor.component_type) {
        (Checked::Valid(kind), Checked::Valid(c)) => Some(element_extent(kind, c.0)),
        _ => None,
    }
}

/// The byte a layout needs up to: `offset + stride * (count - 1) + last`, where `last` is the
/// bytes the last element occupies (`offset` for no element).
fn end_of(offset: u64, stride: u64, count: u64, last: u64) -> u128 {
    if count == 0 {
        return u128::from(offset);
    }
    u128::from(offset) + u128::from(stride) * u128::from(count - 1) + u128::from(last)
}

impl Document<'_> {
    /// Check that every buffer view lies within its buffer's `byteLength` and every accessor
    /// (and its sparse parts) within its buffer view. Out-of-range indices are left to the
    /// schema check (`GLTF_INDEX`).
    pub fn check_layout(&self, issues: &mut Issues) {
        let root = &self.root;
        for (v, view) in root.buffer_views.iter().enumerate() {
            let Some(buffer) = root.buffers.get(view.buffer.value()) else {
                continue;
            };
            let end =
                u128::from(view.byte_offset.map_or(0, |o| o.0)) + u128::from(view.byte_length.0);
            if end > u128::from(buffer.byte_length.0) {
                issues.push(
                    Issue::new(Code::BufferViewBounds, format!("/bufferViews/{v}"))
                        .arg("end", end)
                        .arg("length", buffer.byte_length.0),
                );
            }
        }
        for (a, accessor) in root.accessors.iter().enumerate() {
            let (Some((size, _)), Some(last)) = (layout(accessor), extent(accessor)) else {
                continue;
            };
            let count = accessor.count.0;
            // The pointer is written only for an issue: most accessors fit.
            let bounds = |pointer: &dyn Fn() -> String, end: u128, length: u64| {
                (end > u128::from(length)).then(|| {
                    Issue::new(Code::AccessorBounds, pointer())
                        .arg("end", end)
                        .arg("length", length)
                })
            };
            match accessor
                .buffer_view
                .and_then(|v| root.buffer_views.get(v.value()))
            {
                Some(view) => {
                    let stride = view.byte_stride.map_or(size, |s| s.0) as u64;
                    let end = end_of(
                        accessor.byte_offset.map_or(0, |o| o.0),
                        stride,
                        count,
                        last as u64,
                    );
                    issues.0.extend(bounds(
                        &|| format!("/accessors/{a}"),
                        end,
                        view.byte_length.0,
                    ));
                }
                None if accessor.buffer_view.is_none() => {
                    let bytes = u128::from(count) * size as u128;
                    if bytes > MAX_ZERO_ACCESSOR_BYTES {
                        issues.push(Issue::new(Code::GltfValue, format!("/accessors/{a}/count")).arg(
                            "detail",
                            format!(
                                "an accessor without bufferView of {bytes} bytes is over this reader's limit of {MAX_ZERO_ACCESSOR_BYTES}"
                            ),
                        ));
                    }
                }
                None => {} // bufferView out of range: GLTF_INDEX
            }
            let Some(sparse) = &accessor.sparse else {
                continue;
            };
            let indices = &sparse.indices;
            if let (Some(view), Checked::Valid(c)) = (
                root.buffer_views.get(indices.buffer_view.value()),
                indices.component_type,
            ) {
                let c = c.0.size() as u64;
                let end = end_of(indices.byte_offset.0, c, sparse.count.0, c);
                issues.0.extend(bounds(
                    &|| format!("/accessors/{a}/sparse/indices"),
                    end,
                    view.byte_length.0,
                ));
            }
            if let Some(view) = root.buffer_views.get(sparse.values.buffer_view.value()) {
                let end = end_of(
                    sparse.values.byte_offset.0,
                    size as u64,
                    sparse.count.0,
                    size as u64,
                );
                issues.0.extend(bounds(
                    &|| format!("/accessors/{a}/sparse/values"),
                    end,
                    view.byte_length.0,
                ));
            }
            if sparse.count.0 > count {
                issues.push(
                    Issue::new(Code::GltfValue, format!("/accessors/{a}/sparse/count")).arg(
                        "detail",
                        format!(
                            "sparse count {} is over the accessor's count {count}",
                            sparse.count.0
                        ),
                    ),
                );
            }
        }
    }

    /// The data of buffer view `view`, where the view starts in it and its length, when the
    /// whole view lies within the data that is actually available.
    fn view_span(&self, view: usize) -> Option<(&super::Buffer, usize, usize)> {
        let view = self.root.buffer_views.get(view)?;
        let data = self.buffers.get(view.buffer.value())?.as_ref()?;
        let start = usize::try_from(view.byte_offset.map_or(0, |o| o.0)).ok()?;
        let len = usize::try_from(view.byte_length.0).ok()?;
        (start.checked_add(len)? as u64 <= data.len()).then_some((data, start, len))
    }

    /// The bytes of buffer view `view` that are actually available (within the view and the
    /// buffer data), or `None`.
    fn view_bytes(&self, view: usize) -> Option<Cow<'_, [u8]>> {
        let (data, start, len) = self.view_span(view)?;
        data.range(start, start + len)
    }

    /// Elements of accessor `a`, tightly packed (`count * element size` bytes), sparse values
    /// applied, with the component type. `None` when the data is not available; every reason
    /// is reported once by [`Document::check_layout`] or while loading buffers.
    ///
    /// Only the accessor's own bytes are read from a file, and tightly packed elements without
    /// sparse values are borrowed (from memory) or read once (from a file), not copied one by
    /// one: a mesh shape's accessors were most of the cost of validating the samples that have
    /// large meshes.
    pub(crate) fn packed(&self, a: usize) -> Option<(Cow<'_, [u8]>, Type, ComponentType)> {
        let accessor = self.root.accessors.get(a)?;
        let (size, component) = layout(accessor)?;
        let last = extent(accessor)?;
        let Checked::Valid(kind) = accessor.type_ else {
            return None;
        };
        let count = usize::try_from(accessor.count.0).ok()?;
        let mut out = match accessor.buffer_view {
            Some(v) => {
                let (data, start, len) = self.view_span(v.value())?;
                let stride = self
                    .root
                    .buffer_views
                    .get(v.value())
                    .and_then(|view| view.byte_stride)
                    .map_or(size, |s| s.0);
                let offset = usize::try_from(accessor.byte_offset.map_or(0, |o| o.0)).ok()?;
                let end = end_of(offset as u64, stride as u64, count as u64, last as u64);
                if end > len as u128 {
                    return None;
                }
                // Within the view, so `end <= len` fits a usize, and `offset <= end`.
                let span = data.range(start + offset, start + end as usize)?;
                if (stride == size || count <= 1) && last == size {
                    span // exactly `count * size` bytes
                } else {
                    // Elements one by one, each without its trailing padding (zeros instead: the
                    // last element's is not in the view, and padding is no data).
                    let mut out = Vec::with_capacity(count * size);
                    for i in 0..count {
                        let at = i * stride;
                        out.extend_from_slice(span.get(at..at + last)?);
                        out.resize(out.len() + size - last, 0);
                    }
                    Cow::Owned(out)
                }
            }
            None => {
                if u128::from(accessor.count.0) * size as u128 > MAX_ZERO_ACCESSOR_BYTES {
                    return None;
                }
                Cow::Owned(vec![0; count * size])
            }
        };
        if let Some(sparse) = &accessor.sparse {
            let n = usize::try_from(sparse.count.0).ok()?;
            let Checked::Valid(index_type) = sparse.indices.component_type else {
                return None;
            };
            let c = index_type.0.size();
            let indices = self.view_bytes(sparse.indices.buffer_view.value())?;
            let index_offset = usize::try_from(sparse.indices.byte_offset.0).ok()?;
            let values = self.view_bytes(sparse.values.buffer_view.value())?;
            let value_offset = usize::try_from(sparse.values.byte_offset.0).ok()?;
            let dest = out.to_mut();
            for k in 0..n {
                let at = index_offset.checked_add(k.checked_mul(c)?)?;
                let target = read_uint(indices.get(at..at.checked_add(c)?)?);
                let target = usize::try_from(target).ok()?;
                let from = value_offset.checked_add(k.checked_mul(size)?)?;
                let value = values.get(from..from.checked_add(size)?)?;
                dest.get_mut(target * size..(target + 1) * size)?
                    .copy_from_slice(value);
            }
        }
        Some((out, kind, component))
    }
}

impl Document<'_> {
    /// Every component of accessor `a` as a number ([`read_component`]: integers normalised
    /// when the accessor says so), element after element, sparse values applied; with the
    /// accessor's type, component type and `normalized` flag. `None` when the data is not
    /// available (reported elsewhere) or the type is a matrix of small components (whose
    /// columns are padded: no deformation accessor may be one).
    pub(crate) fn accessor_numbers(
        &self,
        a: usize,
    ) -> Option<(Vec<f64>, Type, ComponentType, bool)> {
        let normalized = self.root.accessors.get(a)?.normalized;
        let (bytes, kind, component) = self.packed(a)?;
        let c = component.size();
        if element_size(kind, component) != kind.multiplicity() * c {
            return None;
        }
        let numbers = bytes
            .chunks_exact(c)
            .map(|x| read_component(x, component, normalized))
            .collect();
        Some((numbers, kind, component, normalized))
    }
}

/// A little-endian unsigned integer of 1, 2 or 4 bytes.
pub(crate) fn read_uint(bytes: &[u8]) -> u64 {
    match *bytes {
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        _ => 0,
    }
}

/// One component as a number: floats as they are, integers normalised to [-1, 1] / [0, 1] when
/// `normalized` (glTF 2.0 §3.11, KHR_mesh_quantization), otherwise as integers.
pub(crate) fn read_component(bytes: &[u8], component: ComponentType, normalized: bool) -> f64 {
    let raw = match (component, bytes) {
        (ComponentType::F32, &[a, b, c, d]) => return f64::from(f32::from_le_bytes([a, b, c, d])),
        (ComponentType::I8, &[a]) => f64::from(a as i8),
        (ComponentType::I16, &[a, b]) => f64::from(i16::from_le_bytes([a, b])),
        _ => read_uint(bytes) as f64,
    };
    if !normalized {
        return raw;
    }
    match component {
        ComponentType::I8 => (raw / 127.0).max(-1.0),
        ComponentType::U8 => raw / 255.0,
        ComponentType::I16 => (raw / 32767.0).max(-1.0),
        ComponentType::U16 => raw / 65535.0,
        ComponentType::U32 => raw / 4_294_967_295.0,
        ComponentType::F32 => raw,
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn element_sizes() {
        // VEC3 float: 3 * 4 = 12. MAT2 u8: 2 columns of 2 bytes, each padded to 4 = 8.
        // MAT3 u16: 3 columns of 6 bytes padded to 8 = 24. MAT4 f32: 64.
        assert_eq!(element_size(Type::Vec3, ComponentType::F32), 12);
        assert_eq!(element_size(Type::Mat2, ComponentType::U8), 8);
        assert_eq!(element_size(Type::Mat3, ComponentType::U8), 12);
        assert_eq!(element_size(Type::Mat3, ComponentType::I16), 24);
        assert_eq!(element_size(Type::Mat4, ComponentType::F32), 64);
        assert_eq!(element_size(Type::Scalar, ComponentType::U16), 2);
    }

    /// Every matrix type and component size, worked by hand from glTF 2.0's rule that each
    /// column of a matrix of 1- or 2-byte components starts on a 4-byte boundary: (element
    /// size with padding, bytes of the last element without its trailing padding).
    #[test]
    fn matrix_element_bytes_by_hand() {
        use ComponentType::{F32, I8, I16, U8, U16, U32};
        let cases = [
            // MAT2, 1 byte: columns of 2 bytes padded to 4: 4 + 4 = 8; the last one ends at
            // 4 + 2 = 6.
            (Type::Mat2, I8, 8, 6),
            (Type::Mat2, U8, 8, 6),
            // MAT2, 2 bytes: columns of 4 bytes, no padding: 8 and 8.
            (Type::Mat2, I16, 8, 8),
            (Type::Mat2, U16, 8, 8),
            // MAT2, 4 bytes: columns of 8: 16 and 16.
            (Type::Mat2, U32, 16, 16),
            (Type::Mat2, F32, 16, 16),
            // MAT3, 1 byte: columns of 3 padded to 4: 12; the last ends at 4 + 4 + 3 = 11.
            (Type::Mat3, I8, 12, 11),
            (Type::Mat3, U8, 12, 11),
            // MAT3, 2 bytes: columns of 6 padded to 8: 24; the last ends at 8 + 8 + 6 = 22.
            (Type::Mat3, I16, 24, 22),
            (Type::Mat3, U16, 24, 22),
            // MAT3, 4 bytes: columns of 12: 36 and 36.
            (Type::Mat3, U32, 36, 36),
            (Type::Mat3, F32, 36, 36),
            // MAT4: columns of 4, 8, 16 bytes, all multiples of 4: no padding.
            (Type::Mat4, I8, 16, 16),
            (Type::Mat4, U8, 16, 16),
            (Type::Mat4, I16, 32, 32),
            (Type::Mat4, U16, 32, 32),
            (Type::Mat4, U32, 64, 64),
            (Type::Mat4, F32, 64, 64),
            // Vectors have no padding: VEC3 of bytes is 3 and 3.
            (Type::Vec3, U8, 3, 3),
        ];
        for (kind, component, size, extent) in cases {
            assert_eq!(
                element_size(kind, component),
                size,
                "{kind:?} {component:?}"
            );
            assert_eq!(
                element_extent(kind, component),
                extent,
                "{kind:?} {component:?}"
            );
        }
    }

    /// `ACCESSOR_BOUNDS` by glTF 2.0's layout, with the byte counts worked by hand: each
    /// accessor over a view exactly as long as it needs (no issue), then one byte shorter (the
    /// issue, at the accessor).
    #[test]
    fn accessor_bounds_by_hand() {
        // (type, componentType, count, byteStride, bytes needed)
        let cases: [(&str, u32, u64, Option<u64>, u64); 9] = [
            // MAT2 of bytes, 2 elements packed: 8 + 6 = 14.
            ("MAT2", 5121, 2, None, 14),
            // MAT2 of shorts, 1 element: 8.
            ("MAT2", 5123, 1, None, 8),
            // MAT3 of bytes, 3 elements packed: 12 * 2 + 11 = 35.
            ("MAT3", 5120, 3, None, 35),
            // MAT3 of shorts, 2 elements: 24 + 22 = 46.
            ("MAT3", 5122, 2, None, 46),
            // MAT3 of floats, 1 element: 36.
            ("MAT3", 5126, 1, None, 36),
            // MAT4 of bytes, 2 elements: 16 + 16 = 32.
            ("MAT4", 5121, 2, None, 32),
            // MAT2 of shorts, 2 elements, byteStride 12: 12 + 8 = 20.
            ("MAT2", 5122, 2, Some(12), 20),
            // VEC3 of bytes, 3 elements, byteStride 4: 4 * 2 + 3 = 11 (no padding after the
            // last element).
            ("VEC3", 5121, 3, Some(4), 11),
            // MAT3 of bytes, 2 elements, byteStride 16: 16 + 11 = 27.
            ("MAT3", 5121, 2, Some(16), 27),
        ];
        for (kind, component, count, stride, needed) in cases {
            for (length, fits) in [(needed, true), (needed - 1, false)] {
                let mut view = serde_json::json!({"buffer": 0, "byteLength": length});
                if let Some(stride) = stride {
                    view["byteStride"] = stride.into();
                }
                let json = serde_json::json!({
                    "asset": {"version": "2.0"},
                    "buffers": [{"byteLength": 64}],
                    "bufferViews": [view],
                    "accessors": [{"bufferView": 0, "componentType": component, "count": count,
                                   "type": kind}],
                });
                let mut issues = Issues::default();
                let doc = Document::from_json(json, None, None, &mut issues).expect("a document");
                let mut found = Issues::default();
                doc.check_layout(&mut found);
                let codes: Vec<(Code, &str)> = found
                    .0
                    .iter()
                    .map(|i| (i.code, i.pointer.as_str()))
                    .collect();
                let want: &[(Code, &str)] = if fits {
                    &[]
                } else {
                    &[(Code::AccessorBounds, "/accessors/0")]
                };
                assert_eq!(codes, want, "{kind} {component} x{count} in {length} bytes");
            }
        }
    }

    #[test]
    fn layout_end() {
        // offset 4, stride 16, 3 elements of 12 bytes: 4 + 16 * 2 + 12 = 48.
        assert_eq!(end_of(4, 16, 3, 12), 48);
        assert_eq!(end_of(4, 16, 0, 12), 4);
        // u64::MAX + u64::MAX * (u64::MAX - 1) + 12 = u64::MAX^2 + 12: no overflow in u128.
        let max = u128::from(u64::MAX);
        assert_eq!(end_of(u64::MAX, u64::MAX, u64::MAX, 12), max * max + 12);
    }

    /// An accessor's elements read straight from the buffer bytes, as the glTF 2.0 spec lays
    /// them out (§3.6.2): the view within the data, each element at `offset + i * stride`
    /// within the view, then each sparse value at its index. `None` where anything is outside.
    fn elements_by_spec(data: &[u8], case: &Layout) -> Option<Vec<u8>> {
        let view = |v: (usize, usize)| data.get(v.0..v.0.checked_add(v.1)?);
        let bytes = view(case.view)?;
        let size = element_size(case.kind, case.component);
        let stride = case.stride.unwrap_or(size);
        if case.offset > bytes.len() {
            return None;
        }
        // Each element without its trailing column padding (read as zeros): the last one's
        // need not be in the view.
        let last = element_extent(case.kind, case.component);
        let mut out = Vec::new();
        for i in 0..case.count {
            let at = case.offset + i * stride;
            out.extend_from_slice(bytes.get(at..at + last)?);
            out.resize(out.len() + size - last, 0);
        }
        if let Some(sparse) = &case.sparse {
            let indices = view(sparse.indices_view)?;
            let values = view(sparse.values_view)?;
            let c = sparse.index_size;
            for k in 0..sparse.count {
                let at = sparse.indices_offset + k * c;
                let target = match indices.get(at..at + c)? {
                    [a] => usize::from(*a),
                    [a, b] => usize::from(u16::from_le_bytes([*a, *b])),
                    [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]) as usize,
                    _ => return None,
                };
                let from = sparse.values_offset + k * size;
                let value = values.get(from..from + size)?;
                out.get_mut(target * size..(target + 1) * size)?
                    .copy_from_slice(value);
            }
        }
        Some(out)
    }

    /// One accessor over views of one buffer (view 0 its elements, 1 and 2 sparse parts).
    #[derive(Debug, Clone)]
    struct Layout {
        kind: Type,
        component: ComponentType,
        /// (byteOffset, byteLength) of view 0.
        view: (usize, usize),
        stride: Option<usize>,
        offset: usize,
        count: usize,
        sparse: Option<Sparse>,
    }

    #[derive(Debug, Clone)]
    struct Sparse {
        count: usize,
        index_size: usize,
        indices_view: (usize, usize),
        indices_offset: usize,
        values_view: (usize, usize),
        values_offset: usize,
    }

    /// A layout, and whether its view 0 was sized to hold its elements (3 times in 4: drawn
    /// freely, most layouts run past their data, and the test would mostly compare `None`s).
    fn layout_strategy() -> impl proptest::strategy::Strategy<Value = (Layout, bool)> {
        use proptest::prelude::*;
        let kind = prop::sample::select(vec![
            Type::Scalar,
            Type::Vec2,
            Type::Vec3,
            Type::Vec4,
            Type::Mat2,
            Type::Mat3,
        ]);
        let component = prop::sample::select(vec![
            ComponentType::I8,
            ComponentType::U8,
            ComponentType::I16,
            ComponentType::U16,
            ComponentType::U32,
            ComponentType::F32,
        ]);
        let view = (0usize..40, 0usize..160);
        let sparse = (
            0usize..4,
            prop::sample::select(vec![1usize, 2, 4]),
            (0usize..40, 0usize..24),
            0usize..8,
            (0usize..120, 0usize..100),
            0usize..8,
        )
            .prop_map(|(count, index_size, iv, io, vv, vo)| Sparse {
                count,
                index_size,
                indices_view: iv,
                indices_offset: io,
                values_view: vv,
                values_offset: vo,
            });
        (
            kind,
            component,
            view,
            prop::option::of(1usize..40),
            0usize..24,
            0usize..12,
            prop::option::weighted(0.5, sparse),
            (prop::bool::weighted(0.75), 0usize..8),
        )
            .prop_map(
                |(kind, component, view, stride, offset, count, sparse, (fits, slack))| {
                    let mut layout = Layout {
                        kind,
                        component,
                        view,
                        stride,
                        offset,
                        count,
                        sparse,
                    };
                    if fits {
                        let size = element_size(kind, component);
                        let last = element_extent(kind, component);
                        let span = count
                            .checked_sub(1)
                            .map_or(0, |n| n * stride.unwrap_or(size) + last);
                        layout.view.1 = offset + span + slack;
                    }
                    (layout, fits)
                },
            )
    }

    /// A document with the `case` accessor over a buffer holding `data`, in a data URI or in
    /// a `.bin` file beside the document, read in ranges (loaded with a bound of 0 bytes to
    /// read whole: these files are small).
    fn document(data: &[u8], case: &Layout, in_file: bool) -> (Document<'static>, Option<PathBuf>) {
        use base64::Engine as _;
        let view = |(offset, length): (usize, usize), stride: Option<usize>| {
            let mut v =
                serde_json::json!({"buffer": 0, "byteOffset": offset, "byteLength": length});
            if let Some(s) = stride {
                v["byteStride"] = s.into();
            }
            v
        };
        let mut views = vec![view(case.view, case.stride)];
        let mut accessor = serde_json::json!({
            "bufferView": 0,
            "byteOffset": case.offset,
            "componentType": case.component.as_gl_enum(),
            "count": case.count,
            "type": serde_json::to_value(case.kind).expect("a type name"),
        });
        if let Some(s) = &case.sparse {
            views.push(view(s.indices_view, None));
            views.push(view(s.values_view, None));
            let index_type = match s.index_size {
                1 => ComponentType::U8,
                2 => ComponentType::U16,
                _ => ComponentType::U32,
            }
            .as_gl_enum();
            accessor["sparse"] = serde_json::json!({
                "count": s.count,
                "indices": {"bufferView": 1, "byteOffset": s.indices_offset, "componentType": index_type},
                "values": {"bufferView": 2, "byteOffset": s.values_offset},
            });
        }
        let dir = in_file.then(|| {
            use std::sync::atomic::{AtomicUsize, Ordering};
            static NEXT: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "physics-cts-accessor-{}-{}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed)
            ));
            std::fs::create_dir_all(&dir).expect("create a temporary folder");
            std::fs::write(dir.join("b.bin"), data).expect("write b.bin");
            dir
        });
        let uri = if in_file {
            "b.bin".to_owned()
        } else {
            format!(
                "data:application/octet-stream;base64,{}",
                base64::engine::general_purpose::STANDARD.encode(data)
            )
        };
        let json = serde_json::json!({
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": data.len(), "uri": uri}],
            "bufferViews": views,
            "accessors": [accessor],
        });
        let mut issues = Issues::default();
        let mut doc = Document::load(json.to_string().as_bytes(), dir.as_deref(), &mut issues)
            .expect("a document that loads");
        if in_file {
            doc.buffers = super::super::buffers::load_reading_whole_up_to(
                &doc.root,
                dir.as_deref(),
                super::super::buffers::Container::Json,
                &mut issues,
                0,
            );
            assert!(doc.buffers[0].as_ref().is_some_and(|b| !b.in_memory()));
        }
        (doc, dir)
    }

    /// Sparse values over tightly packed elements (borrowed from memory, or read from a file):
    /// three u16 elements 1, 2, 3 at bytes 0..6; sparse indices (u8) at byte 6: [2]; values
    /// (u16) at bytes 8..10: 9. Element 2 becomes 9: 1, 2, 9.
    #[test]
    fn sparse_values_replace_packed_elements() {
        let data = [1, 0, 2, 0, 3, 0, 2, 0, 9, 0];
        let case = Layout {
            kind: Type::Scalar,
            component: ComponentType::U16,
            view: (0, 6),
            stride: None,
            offset: 0,
            count: 3,
            sparse: Some(Sparse {
                count: 1,
                index_size: 1,
                indices_view: (6, 1),
                indices_offset: 0,
                values_view: (8, 2),
                values_offset: 0,
            }),
        };
        for in_file in [false, true] {
            let (doc, dir) = document(&data, &case, in_file);
            let got = doc.packed(0).map(|(bytes, _, _)| bytes.into_owned());
            if let Some(dir) = dir {
                let _ = std::fs::remove_dir_all(dir);
            }
            assert_eq!(got, Some(vec![1, 0, 2, 0, 9, 0]), "in file: {in_file}");
            assert_eq!(elements_by_spec(&data, &case), got);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// `packed` (which borrows or reads only the accessor's bytes when it can) gives the
        /// bytes the spec's layout gives, from memory and from a file, strided or not, with or
        /// without sparse values, and `None` exactly where the layout leaves the data.
        #[test]
        fn packed_is_the_spec_layout(
            len in 40usize..220,
            (case, fits) in layout_strategy(),
            targets in proptest::collection::vec(0usize..12, 4),
            in_file in proptest::bool::ANY,
        ) {
            // A layout sized to its elements gets a buffer that holds every view.
            let end = |(offset, length): (usize, usize)| offset + length;
            let len = match (&case.sparse, fits) {
                (_, false) => len,
                (None, true) => len.max(end(case.view)),
                (Some(s), true) => len
                    .max(end(case.view))
                    .max(end(s.indices_view))
                    .max(end(s.values_view)),
            };
            let mut data: Vec<u8> = (0..len).map(|i| (i * 37 % 256) as u8).collect();
            // Sparse indices that point at elements (all but the last of them below the
            // count): arbitrary bytes rarely do.
            if let Some(s) = &case.sparse {
                for (k, &t) in targets.iter().enumerate().take(s.count) {
                    let t = if k + 1 < targets.len() { t % case.count.max(1) } else { t };
                    let at = s.indices_view.0 + s.indices_offset + k * s.index_size;
                    let bytes = (t as u32).to_le_bytes();
                    if let Some(slot) = data.get_mut(at..at + s.index_size) {
                        slot.copy_from_slice(&bytes[..s.index_size]);
                    }
                }
            }
            let (doc, dir) = document(&data, &case, in_file);
            let got = doc.packed(0).map(|(bytes, kind, component)| {
                assert_eq!((kind, component), (case.kind, case.component));
                bytes.into_owned()
            });
            if let Some(dir) = dir {
                let _ = std::fs::remove_dir_all(dir);
            }
            proptest::prop_assert_eq!(got, elements_by_spec(&data, &case));
        }
    }

    #[test]
    fn components() {
        assert_eq!(
            read_component(&1.5f32.to_le_bytes(), ComponentType::F32, false),
            1.5
        );
        assert_eq!(read_component(&[0x81], ComponentType::I8, true), -1.0); // -127 / 127
        assert_eq!(read_component(&[0x80], ComponentType::I8, true), -1.0); // -128 clamps
        assert_eq!(read_component(&[255], ComponentType::U8, true), 1.0);
        assert_eq!(
            read_component(&[0xff, 0xff], ComponentType::I16, false),
            -1.0
        );
        assert_eq!(
            read_component(&[0x34, 0x12], ComponentType::U16, false),
            4660.0
        );
    }
}
