//! Buffer data: the GLB BIN chunk, `data:` URIs, and files beside the document. A URI never
//! reaches outside the document's folder (`URI_ESCAPES`), and files are read only from there.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::issue::{Code, Issue, Issues};

use super::MAX_FILE_SIZE;

/// Media types a buffer data URI may have (glTF 2.0 §3.6.1.1 and the `application/gltf-buffer`
/// type registered for glTF buffers).
const BUFFER_MEDIA_TYPES: &[&str] = &["application/octet-stream", "application/gltf-buffer"];

/// Base64 with or without padding (exporters differ; the data is what matters).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The data of every buffer, by index (`None`: unavailable, with an issue saying why).
pub fn load(
    root: &gltf_json::Root,
    base_dir: Option<&Path>,
    bin: Option<&[u8]>,
    issues: &mut Issues,
) -> Vec<Option<Vec<u8>>> {
    root.buffers
        .iter()
        .enumerate()
        .map(|(i, buffer)| {
            let data = match &buffer.uri {
                None => match bin {
                    Some(bin) if i == 0 => Ok(bin.to_vec()),
                    _ => Err(Issue::new(Code::BufferUnreadable, format!("/buffers/{i}"))
                        .arg("detail", "the buffer has no uri and no GLB BIN chunk")),
                },
                Some(uri) => read_uri(uri, base_dir, &format!("/buffers/{i}/uri")),
            };
            match data {
                Ok(data) => {
                    let expected = buffer.byte_length.0;
                    if (data.len() as u64) < expected {
                        issues.push(
                            Issue::new(Code::BufferTooShort, format!("/buffers/{i}/byteLength"))
                                .arg("actual", data.len())
                                .arg("expected", expected),
                        );
                    }
                    Some(data)
                }
                Err(issue) => {
                    issues.push(issue);
                    None
                }
            }
        })
        .collect()
}

/// Read the bytes a buffer URI names; the error is the issue to report at `pointer`.
fn read_uri(uri: &str, base_dir: Option<&Path>, pointer: &str) -> Result<Vec<u8>, Issue> {
    if uri.len() >= 5 && uri[..5].eq_ignore_ascii_case("data:") {
        return decode_data_uri(&uri[5..])
            .map_err(|detail| Issue::new(Code::DataUriInvalid, pointer).arg("detail", detail));
    }
    let unreadable =
        |detail: String| Issue::new(Code::BufferUnreadable, pointer).arg("detail", detail);
    let relative = match relative_path(uri) {
        Ok(p) => p,
        Err(UriProblem::Escapes) => {
            return Err(Issue::new(Code::UriEscapes, pointer).arg("uri", format!("{uri:?}")));
        }
        Err(UriProblem::Malformed(detail)) => return Err(unreadable(detail)),
    };
    let Some(base) = base_dir else {
        return Err(unreadable(format!(
            "{uri:?} is relative to the document's folder, and the document was read from memory"
        )));
    };
    let path = base.join(relative);
    let size = std::fs::metadata(&path)
        .map_err(|e| unreadable(format!("{}: {e}", path.display())))?
        .len();
    if size > MAX_FILE_SIZE {
        return Err(unreadable(format!(
            "{} is {size} bytes, over the limit of {MAX_FILE_SIZE}",
            path.display()
        )));
    }
    std::fs::read(&path).map_err(|e| unreadable(format!("{}: {e}", path.display())))
}

/// Decode the part of a data URI after `data:` (RFC 2397): `<media type>;base64,<data>`.
fn decode_data_uri(rest: &str) -> Result<Vec<u8>, String> {
    let (header, data) = rest
        .split_once(',')
        .ok_or_else(|| "no ',' separates the header from the data".to_owned())?;
    let Some(media_type) = header.strip_suffix(";base64") else {
        return Err(format!(
            "header {header:?} is not base64 (';base64' expected)"
        ));
    };
    if !BUFFER_MEDIA_TYPES
        .iter()
        .any(|t| t.eq_ignore_ascii_case(media_type))
    {
        return Err(format!(
            "media type {media_type:?} is not {}",
            BUFFER_MEDIA_TYPES.join(" or ")
        ));
    }
    BASE64.decode(data).map_err(|e| format!("base64: {e}"))
}

#[derive(Debug, PartialEq)]
enum UriProblem {
    /// A scheme other than `data:`, an absolute path, or a `..` segment.
    Escapes,
    /// Bad percent-encoding, not UTF-8 after decoding, or a NUL byte.
    Malformed(String),
}

/// The relative file path a URI reference names, percent-decoded, if it stays in the folder.
fn relative_path(uri: &str) -> Result<PathBuf, UriProblem> {
    let decoded = percent_decode(uri)?;
    for text in [uri, decoded.as_str()] {
        if has_scheme(text) || text.starts_with(['/', '\\']) {
            return Err(UriProblem::Escapes);
        }
        if text.split(['/', '\\']).any(|segment| segment == "..") {
            return Err(UriProblem::Escapes);
        }
    }
    if decoded.contains('\0') {
        return Err(UriProblem::Malformed(
            "the URI contains a NUL byte".to_owned(),
        ));
    }
    if decoded.is_empty() {
        return Err(UriProblem::Malformed("the URI is empty".to_owned()));
    }
    Ok(decoded
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".")
        .collect())
}

/// `scheme:` at the start (RFC 3986 §3.1); also catches Windows drive letters (`C:`).
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

fn percent_decode(uri: &str) -> Result<String, UriProblem> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    UriProblem::Malformed(format!("bad percent-encoding at byte {i}"))
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out)
        .map_err(|_| UriProblem::Malformed("the decoded URI is not UTF-8".to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths() {
        assert_eq!(relative_path("a.bin"), Ok(PathBuf::from("a.bin")));
        assert_eq!(
            relative_path("sub/a%20b.bin"),
            Ok(PathBuf::from("sub").join("a b.bin"))
        );
        assert_eq!(
            relative_path("./x/./y.bin"),
            Ok(PathBuf::from("x").join("y.bin"))
        );
        for escaping in [
            "../a.bin",
            "x/../../a.bin",
            "%2e%2e/a.bin",
            "x%2F..%2F..%2Fa.bin",
            "/etc/passwd",
            "\\\\server\\share",
            "C:\\a.bin",
            "file:///etc/passwd",
            "https://example.invalid/a.bin",
            "%2Fetc%2Fpasswd",
        ] {
            assert_eq!(
                relative_path(escaping),
                Err(UriProblem::Escapes),
                "{escaping}"
            );
        }
        assert!(matches!(
            relative_path("%zz"),
            Err(UriProblem::Malformed(_))
        ));
        assert!(matches!(
            relative_path("%ff"),
            Err(UriProblem::Malformed(_))
        ));
        assert!(matches!(
            relative_path("a%00"),
            Err(UriProblem::Malformed(_))
        ));
    }

    #[test]
    fn data_uris() {
        // "AQID" is base64 for the bytes 1, 2, 3.
        assert_eq!(
            decode_data_uri("application/octet-stream;base64,AQID"),
            Ok(vec![1, 2, 3])
        );
        assert_eq!(
            decode_data_uri("application/gltf-buffer;base64,AQI="),
            Ok(vec![1, 2])
        );
        assert_eq!(
            decode_data_uri("application/gltf-buffer;base64,AQI"),
            Ok(vec![1, 2])
        );
        assert_eq!(
            decode_data_uri("application/octet-stream;base64,"),
            Ok(vec![])
        );
        for bad in [
            "application/octet-stream,AQID",
            "text/plain;base64,AQID",
            "application/octet-stream;base64,A$ID",
            "application/octet-stream;base64",
        ] {
            assert!(decode_data_uri(bad).is_err(), "{bad}");
        }
    }
}
