//! Byte-level defects (JSON syntax, GLB container) and buffer defects (URIs, lengths, views,
//! accessors). Buffer defects add a buffer of their own, so they apply to any document.

use reference::issue::Code;
use reference::profile::Profile;
use serde_json::json;

use super::json::{into_bytes, push_top};
use super::mutator::Mutator;
use crate::case::Case;
use crate::doc::data_uri;

/// A GLB holding `json` (padded with spaces) and no BIN chunk.
pub fn glb(json: &[u8]) -> Vec<u8> {
    let mut chunk = json.to_vec();
    while !chunk.len().is_multiple_of(4) {
        chunk.push(b' ');
    }
    let total = 12 + 8 + chunk.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&u32::try_from(total).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(&u32::try_from(chunk.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&chunk);
    out
}

fn json_syntax(case: &mut Case) -> Option<String> {
    let text = case.bytes();
    // Cut the document in half: an unterminated object.
    let cut = text.len() / 2;
    into_bytes(case, text[..cut].to_vec(), "gltf");
    Some(String::new())
}

fn glb_header(case: &mut Case) -> Option<String> {
    if !case.siblings.is_empty() {
        return None;
    }
    let mut bytes = glb(&case.bytes());
    bytes[4] = 1; // version 1
    into_bytes(case, bytes, "glb");
    Some(String::new())
}

fn glb_chunk(case: &mut Case) -> Option<String> {
    if !case.siblings.is_empty() {
        return None;
    }
    let mut bytes = glb(&case.bytes());
    // The JSON chunk claims 64 bytes more than the file holds.
    let claimed = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) + 64;
    bytes[12..16].copy_from_slice(&claimed.to_le_bytes());
    into_bytes(case, bytes, "glb");
    Some(String::new())
}

fn add_buffer(case: &mut Case, buffer: serde_json::Value) -> Option<usize> {
    Some(push_top(case.json_mut()?, "buffers", buffer))
}

fn uri_escapes(case: &mut Case) -> Option<String> {
    let b = add_buffer(case, json!({"byteLength": 4, "uri": "../outside.bin"}))?;
    Some(format!("/buffers/{b}/uri"))
}

fn data_uri_invalid(case: &mut Case) -> Option<String> {
    let b = add_buffer(
        case,
        json!({"byteLength": 4, "uri": "data:application/octet-stream;base64,#not base64#"}),
    )?;
    Some(format!("/buffers/{b}/uri"))
}

fn buffer_unreadable(case: &mut Case) -> Option<String> {
    let uri = format!("{}-missing.bin", case.stem());
    let b = add_buffer(case, json!({"byteLength": 4, "uri": uri}))?;
    Some(format!("/buffers/{b}/uri"))
}

fn buffer_too_short(case: &mut Case) -> Option<String> {
    let b = add_buffer(case, json!({"byteLength": 16, "uri": data_uri(&[0; 8])}))?;
    Some(format!("/buffers/{b}/byteLength"))
}

fn buffer_view_bounds(case: &mut Case) -> Option<String> {
    let b = add_buffer(case, json!({"byteLength": 8, "uri": data_uri(&[0; 8])}))?;
    let v = push_top(
        case.json_mut()?,
        "bufferViews",
        json!({"buffer": b, "byteOffset": 4, "byteLength": 8}),
    );
    Some(format!("/bufferViews/{v}"))
}

fn accessor_bounds(case: &mut Case) -> Option<String> {
    let b = add_buffer(case, json!({"byteLength": 12, "uri": data_uri(&[0; 12])}))?;
    let doc = case.json_mut()?;
    let v = push_top(doc, "bufferViews", json!({"buffer": b, "byteLength": 12}));
    // Two VEC3 floats need 24 bytes; the view has 12.
    let a = push_top(
        doc,
        "accessors",
        json!({"bufferView": v, "componentType": 5126, "count": 2, "type": "VEC3",
        "min": [0.0, 0.0, 0.0], "max": [0.0, 0.0, 0.0]}),
    );
    Some(format!("/accessors/{a}"))
}

pub fn mutators() -> Vec<Mutator> {
    vec![
        Mutator::of_any_base(
            Code::JsonSyntax,
            "truncated",
            Profile::Khr2024Draft,
            json_syntax,
        ),
        Mutator::of_any_base(
            Code::GlbHeader,
            "glb-version-1",
            Profile::VrmcConstraintsDraft,
            glb_header,
        ),
        Mutator::of_any_base(
            Code::GlbChunk,
            "glb-chunk-overrun",
            Profile::VrmcConstraintsDraft,
            glb_chunk,
        ),
        Mutator::of_any_base(
            Code::UriEscapes,
            "uri-parent-folder",
            Profile::Omi2023,
            uri_escapes,
        ),
        Mutator::of_any_base(
            Code::DataUriInvalid,
            "data-uri-bad-base64",
            Profile::Khr2024Draft,
            data_uri_invalid,
        ),
        Mutator::of_any_base(
            Code::BufferUnreadable,
            "missing-bin",
            Profile::Omi2023,
            buffer_unreadable,
        ),
        Mutator::of_any_base(
            Code::BufferTooShort,
            "byte-length-too-long",
            Profile::Khr2024Draft,
            buffer_too_short,
        ),
        Mutator::of_any_base(
            Code::BufferViewBounds,
            "view-past-buffer",
            Profile::Omi2023,
            buffer_view_bounds,
        ),
        Mutator::of_any_base(
            Code::AccessorBounds,
            "accessor-past-view",
            Profile::Khr2024Draft,
            accessor_bounds,
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glb_layout() {
        // 3 bytes of JSON padded to 4: 12 header + 8 chunk header + 4 = 24 bytes.
        let g = glb(b"{ }");
        assert_eq!(g.len(), 24);
        assert_eq!(&g[..4], b"glTF");
        assert_eq!(u32::from_le_bytes([g[8], g[9], g[10], g[11]]), 24);
        assert_eq!(u32::from_le_bytes([g[12], g[13], g[14], g[15]]), 4);
        assert_eq!(&g[20..], b"{ } ");
    }
}
