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

fn layout(accessor: &gltf_json::Accessor) -> Option<(usize, ComponentType)> {
    match (accessor.type_, accessor.component_type) {
        (Checked::Valid(kind), Checked::Valid(c)) => Some((element_size(kind, c.0), c.0)),
        _ => None,
    }
}

/// The byte a layout needs up to: `offset + stride * (count - 1) + size` (0 for no element).
fn end_of(offset: u64, stride: u64, count: u64, size: u64) -> u128 {
    if count == 0 {
        return u128::from(offset);
    }
    u128::from(offset) + u128::from(stride) * u128::from(count - 1) + u128::from(size)
}

impl Document {
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
            let Some((size, _)) = layout(accessor) else {
                continue;
            };
            let count = accessor.count.0;
            let bounds = |pointer: String, end: u128, length: u64| {
                (end > u128::from(length)).then(|| {
                    Issue::new(Code::AccessorBounds, pointer)
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
                        size as u64,
                    );
                    issues
                        .0
                        .extend(bounds(format!("/accessors/{a}"), end, view.byte_length.0));
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
                    format!("/accessors/{a}/sparse/indices"),
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
                    format!("/accessors/{a}/sparse/values"),
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

    /// The bytes of buffer view `view` that are actually available (within the view and the
    /// buffer data), or `None`.
    fn view_bytes(&self, view: usize) -> Option<Cow<'_, [u8]>> {
        let view = self.root.buffer_views.get(view)?;
        let data = self.buffers.get(view.buffer.value())?.as_ref()?;
        let start = usize::try_from(view.byte_offset.map_or(0, |o| o.0)).ok()?;
        let end = start.checked_add(usize::try_from(view.byte_length.0).ok()?)?;
        data.range(start, end)
    }

    /// Elements of accessor `a`, tightly packed (`count * element size` bytes), sparse values
    /// applied, with the component type. `None` when the data is not available; every reason
    /// is reported once by [`Document::check_layout`] or while loading buffers.
    pub(crate) fn packed(&self, a: usize) -> Option<(Vec<u8>, Type, ComponentType)> {
        let accessor = self.root.accessors.get(a)?;
        let (size, component) = layout(accessor)?;
        let Checked::Valid(kind) = accessor.type_ else {
            return None;
        };
        let count = usize::try_from(accessor.count.0).ok()?;
        let mut out = match accessor.buffer_view {
            Some(v) => {
                let bytes = self.view_bytes(v.value())?;
                let stride = self
                    .root
                    .buffer_views
                    .get(v.value())
                    .and_then(|view| view.byte_stride)
                    .map_or(size, |s| s.0);
                let offset = usize::try_from(accessor.byte_offset.map_or(0, |o| o.0)).ok()?;
                if end_of(offset as u64, stride as u64, count as u64, size as u64)
                    > bytes.len() as u128
                {
                    return None;
                }
                let mut out = Vec::with_capacity(count * size);
                for i in 0..count {
                    let at = offset + i * stride;
                    out.extend_from_slice(bytes.get(at..at + size)?);
                }
                out
            }
            None => {
                if u128::from(accessor.count.0) * size as u128 > MAX_ZERO_ACCESSOR_BYTES {
                    return None;
                }
                vec![0; count * size]
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
            for k in 0..n {
                let at = index_offset.checked_add(k.checked_mul(c)?)?;
                let target = read_uint(indices.get(at..at.checked_add(c)?)?);
                let target = usize::try_from(target).ok()?;
                let from = value_offset.checked_add(k.checked_mul(size)?)?;
                let value = values.get(from..from.checked_add(size)?)?;
                out.get_mut(target * size..(target + 1) * size)?
                    .copy_from_slice(value);
            }
        }
        Some((out, kind, component))
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

    #[test]
    fn layout_end() {
        // offset 4, stride 16, 3 elements of 12 bytes: 4 + 16 * 2 + 12 = 48.
        assert_eq!(end_of(4, 16, 3, 12), 48);
        assert_eq!(end_of(4, 16, 0, 12), 4);
        // u64::MAX + u64::MAX * (u64::MAX - 1) + 12 = u64::MAX^2 + 12: no overflow in u128.
        let max = u128::from(u64::MAX);
        assert_eq!(end_of(u64::MAX, u64::MAX, u64::MAX, 12), max * max + 12);
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
