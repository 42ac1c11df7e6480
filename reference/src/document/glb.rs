//! The GLB container (glTF 2.0 §4.4): a 12-byte header, then chunks of `length, type, data`.
//! The first chunk must be JSON; a BIN chunk may follow; chunks of other types are ignored.

use crate::issue::{Code, Issue, Issues};

/// `glTF` in little-endian.
pub const MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;
const HEADER_LEN: usize = 12;
const CHUNK_HEADER_LEN: usize = 8;

/// The chunks of a GLB that matter: the JSON text and the optional BIN payload.
#[derive(Debug)]
pub struct Chunks<'a> {
    pub json: &'a [u8],
    pub bin: Option<&'a [u8]>,
}

/// Whether `bytes` claim to be a GLB (they start with the magic).
pub fn is_glb(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Split a GLB into its chunks. Any header problem (`GLB_HEADER`) or chunk problem that leaves
/// no usable JSON chunk (`GLB_CHUNK`) returns `None`; every issue has the pointer `""`.
pub fn split<'a>(bytes: &'a [u8], issues: &mut Issues) -> Option<Chunks<'a>> {
    let header = |detail: String| Issue::new(Code::GlbHeader, "").arg("detail", detail);
    let chunk = |detail: String| Issue::new(Code::GlbChunk, "").arg("detail", detail);
    let (Some(version), Some(length)) = (u32_at(bytes, 4), u32_at(bytes, 8)) else {
        issues.push(header(format!(
            "{} bytes, a GLB header needs {HEADER_LEN}",
            bytes.len()
        )));
        return None;
    };
    if version != 2 {
        issues.push(header(format!("version {version}, expected 2")));
        return None;
    }
    // A file longer than its declared length holds the GLB and then bytes that are not part of
    // it: a warning, as the Khronos validator gives (GLB_EXTRA_DATA); the GLB is read. One
    // shorter than the length, or a length shorter than the header, is broken.
    let declared = usize::try_from(length).unwrap_or(usize::MAX);
    if declared < HEADER_LEN || declared > bytes.len() {
        issues.push(header(format!(
            "header length {length} but the file has {} bytes",
            bytes.len()
        )));
        return None;
    }
    if declared < bytes.len() {
        issues.push(
            Issue::new(Code::GlbExtraData, "")
                .arg("extra", bytes.len() - declared)
                .arg("length", length),
        );
    }
    let bytes = &bytes[..declared];
    let mut json = None;
    let mut bin = None;
    let mut at = HEADER_LEN;
    let mut index = 0usize;
    while at < bytes.len() {
        let (Some(len), Some(kind)) = (u32_at(bytes, at), u32_at(bytes, at + 4)) else {
            issues.push(chunk(format!(
                "chunk {index} at byte {at}: {} bytes left, a chunk header needs {CHUNK_HEADER_LEN}",
                bytes.len() - at
            )));
            break;
        };
        let start = at + CHUNK_HEADER_LEN;
        let Some(data) = usize::try_from(len)
            .ok()
            .and_then(|len| start.checked_add(len))
            .and_then(|end| bytes.get(start..end))
        else {
            issues.push(chunk(format!(
                "chunk {index} at byte {at}: length {len} runs past the end of the file ({} bytes)",
                bytes.len()
            )));
            break;
        };
        match (index, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => {
                issues.push(chunk(format!(
                    "the first chunk has type 0x{kind:08X}, expected JSON (0x{CHUNK_JSON:08X})"
                )));
                return None;
            }
            (1, CHUNK_BIN) => bin = Some(data),
            (_, CHUNK_JSON | CHUNK_BIN) => issues.push(chunk(format!(
                "chunk {index} has type 0x{kind:08X}: only the first chunk may be JSON and only the second BIN"
            ))),
            _ => {} // unknown chunk types are ignored (§4.4.3.1)
        }
        if len % 4 != 0 {
            // The data is still used; the next chunk would start unaligned, so stop here.
            issues.push(chunk(format!(
                "chunk {index} at byte {at}: length {len} is not a multiple of 4"
            )));
            break;
        }
        at = start + data.len();
        index += 1;
    }
    match json {
        Some(json) => Some(Chunks { json, bin }),
        None => {
            if index == 0 && !issues.has_errors() {
                issues.push(chunk(
                    "the file has no chunk; a JSON chunk is required".to_owned(),
                ));
            }
            None
        }
    }
}

/// Build a GLB from a JSON text and an optional BIN payload, padding both to 4 bytes (JSON with
/// spaces, BIN with zeros). Used by tests and tools to write well-formed GLBs.
pub fn build(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: u32, data: &[u8], pad: u8) {
        let padded = data.len().div_ceil(4) * 4;
        out.extend_from_slice(&(padded as u32).to_le_bytes());
        out.extend_from_slice(&kind.to_le_bytes());
        out.extend_from_slice(data);
        out.resize(out.len() + padded - data.len(), pad);
    }
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    chunk(&mut out, CHUNK_JSON, json, b' ');
    if let Some(bin) = bin {
        chunk(&mut out, CHUNK_BIN, bin, 0);
    }
    let total = out.len() as u32;
    out[8..12].copy_from_slice(&total.to_le_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(issues: &Issues) -> Vec<Code> {
        issues.0.iter().map(|i| i.code).collect()
    }

    #[test]
    fn round_trip() {
        let glb = build(br#"{"a":1}"#, Some(&[1, 2, 3]));
        // 12 header + 8 + 8 (7 bytes of JSON padded) + 8 + 4 (3 bytes padded) = 40
        assert_eq!(glb.len(), 40);
        let mut issues = Issues::default();
        let chunks = split(&glb, &mut issues).expect("valid");
        assert_eq!(chunks.json, br#"{"a":1} "#);
        assert_eq!(chunks.bin, Some(&[1u8, 2, 3, 0][..]));
        assert!(issues.0.is_empty());
    }

    #[test]
    fn header_errors() {
        let mut glb = build(b"{}  ", None);
        glb[4] = 1;
        let mut issues = Issues::default();
        assert!(split(&glb, &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbHeader]);

        let mut issues = Issues::default();
        assert!(split(b"glTF\x02\0\0", &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbHeader]);

        let mut glb = build(b"{}  ", None);
        glb.truncate(glb.len() - 1);
        let mut issues = Issues::default();
        assert!(split(&glb, &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbHeader]);

        // A declared length shorter than the header itself.
        let mut glb = build(b"{}  ", None);
        glb[8..12].copy_from_slice(&8u32.to_le_bytes());
        let mut issues = Issues::default();
        assert!(split(&glb, &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbHeader]);
    }

    /// Bytes after the declared length are a warning, and not read: a 1-byte tail after a
    /// 24-byte GLB (12 header + 8 chunk header + 4 JSON) leaves the JSON `{}  ` as it was.
    #[test]
    fn extra_data_after_the_length_is_a_warning() {
        let mut glb = build(b"{}  ", None);
        glb.push(0x7f);
        let mut issues = Issues::default();
        let chunks = split(&glb, &mut issues).expect("the GLB is read");
        assert_eq!(chunks.json, b"{}  ");
        assert_eq!(codes(&issues), [Code::GlbExtraData]);
        assert!(
            issues.0[0]
                .message
                .contains("1 bytes after the GLB's length of 24")
        );
    }

    #[test]
    fn chunk_errors() {
        // JSON chunk length past the end.
        let mut glb = build(b"{}  ", None);
        glb[12] = 200;
        let mut issues = Issues::default();
        assert!(split(&glb, &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbChunk]);

        // First chunk is BIN.
        let mut glb = build(b"{}  ", None);
        glb[16..20].copy_from_slice(&CHUNK_BIN.to_le_bytes());
        let mut issues = Issues::default();
        assert!(split(&glb, &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbChunk]);

        // No chunk at all: a bare 12-byte header.
        let mut issues = Issues::default();
        assert!(split(b"glTF\x02\0\0\0\x0c\0\0\0", &mut issues).is_none());
        assert_eq!(codes(&issues), [Code::GlbChunk]);

        // Unaligned JSON chunk: reported, and the JSON is still used.
        let mut glb = build(b"{}  ", None);
        glb[12..16].copy_from_slice(&2u32.to_le_bytes());
        glb.truncate(22);
        glb[8..12].copy_from_slice(&22u32.to_le_bytes());
        let mut issues = Issues::default();
        assert_eq!(split(&glb, &mut issues).map(|c| c.json), Some(&b"{}"[..]));
        assert_eq!(codes(&issues), [Code::GlbChunk]);
    }

    #[test]
    fn unknown_chunks_are_ignored() {
        let mut glb = build(b"{}  ", None);
        glb.extend_from_slice(&4u32.to_le_bytes());
        glb.extend_from_slice(&0x1234_5678u32.to_le_bytes());
        glb.extend_from_slice(&[9, 9, 9, 9]);
        let total = glb.len() as u32;
        glb[8..12].copy_from_slice(&total.to_le_bytes());
        let mut issues = Issues::default();
        let chunks = split(&glb, &mut issues).expect("valid");
        assert!(chunks.bin.is_none());
        assert!(issues.0.is_empty());
    }
}
