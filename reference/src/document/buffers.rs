//! Buffer data: the GLB BIN chunk, `data:` URIs, and files beside the document. A URI never
//! reaches outside the document's folder (`URI_ESCAPES`), and files are read only from there.
//!
//! A buffer whose data this reader does not have, though glTF 2.0 allows it (no `uri` and not
//! the GLB-stored buffer: `BUFFER_NO_DATA`; an absolute URI, not fetched: `URI_NOT_RELATIVE`), is
//! no error by itself: it becomes one (`ACCESSOR_DATA_UNAVAILABLE`) only when a shape reads it.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};

use crate::issue::{Code, Issue, Issues};

use super::MAX_FILE_SIZE;
use super::file::{self, FileError};

/// Media types a buffer data URI may have (glTF 2.0 §3.6.1.1 and the `application/gltf-buffer`
/// type registered for glTF buffers).
const BUFFER_MEDIA_TYPES: &[&str] = &["application/octet-stream", "application/gltf-buffer"];

/// Base64 with or without padding (exporters differ; the data is what matters).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// Regular files up to this size are read whole when the document is loaded; larger ones are
/// read in ranges on use. A range read costs an open, a seek, a read and a close (1-3 µs each
/// on a VM): for a file of a few hundred bytes, as generated cases have, one open and one read
/// at load are cheaper than one range read per accessor. 64 KiB is far below the render data of
/// the seed samples (megabytes), whose ranges stay lazy, and small enough to hold in memory.
const READ_WHOLE_UP_TO: u64 = 64 * 1024;

/// The data of one buffer.
///
/// A large regular file beside the document is checked when the document is loaded (it exists,
/// it opens, its length) but only the byte ranges readers ask for are read, when they ask: most
/// of a `.bin` file is render data (meshes no shape uses, images), and reading it whole was most
/// of the cost of validating a document that has one. A small one is read whole at load
/// ([`READ_WHOLE_UP_TO`]): its bytes are those of the load (a change after it is not seen);
/// a failed read is its `BUFFER_UNREADABLE` then, and fewer bytes read than `byteLength` its
/// `BUFFER_TOO_SHORT`. Every issue is decided at load time, as when files were read whole.
#[derive(Debug)]
pub struct Buffer {
    data: Data,
}

#[derive(Debug)]
enum Data {
    /// In memory: a data URI, the GLB BIN chunk, a small regular file ([`READ_WHOLE_UP_TO`]),
    /// or a file that is not a regular file.
    Bytes(Vec<u8>),
    /// A regular file of `len` bytes (its length when it was opened).
    File { path: PathBuf, len: u64 },
}

impl Buffer {
    /// Length of the data in bytes.
    pub fn len(&self) -> u64 {
        match &self.data {
            Data::Bytes(bytes) => bytes.len() as u64,
            Data::File { len, .. } => *len,
        }
    }

    /// Whether the data is held in memory (not read in ranges on use).
    #[cfg(test)]
    pub(super) fn in_memory(&self) -> bool {
        matches!(self.data, Data::Bytes(_))
    }

    /// Whether the data is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes `start..end` of the data; `None` when the range is not within the data (or,
    /// for a file, when it can no longer be read: it was changed or removed after the load).
    pub fn range(&self, start: usize, end: usize) -> Option<Cow<'_, [u8]>> {
        match &self.data {
            Data::Bytes(bytes) => bytes.get(start..end).map(Cow::Borrowed),
            Data::File { path, len } => {
                if start > end || end as u64 > *len {
                    return None;
                }
                read_range(path, start as u64, end - start).map(Cow::Owned)
            }
        }
    }
}

/// `count` bytes of the file at `path` from offset `start`; `None` if fewer are there.
fn read_range(path: &Path, start: u64, count: usize) -> Option<Vec<u8>> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    // Opened as at load: a file replaced by a FIFO since then does not block the read.
    let (mut file, _) = file::open_regular(path).ok()?;
    file.seek(SeekFrom::Start(start)).ok()?;
    // Read into spare capacity: a zeroed buffer would write every byte twice.
    let mut bytes = Vec::with_capacity(count);
    file.take(count as u64).read_to_end(&mut bytes).ok()?;
    (bytes.len() == count).then_some(bytes)
}

/// Where the document came from: its buffers' data depends on it.
#[derive(Clone, Copy, Debug)]
pub enum Container<'a> {
    /// A `.gltf` JSON text (or a tree in memory): every buffer's data is its `uri`'s.
    Json,
    /// A GLB: buffer 0 without `uri` is its BIN chunk (`None`: the GLB has none).
    Glb { bin: Option<&'a [u8]> },
}

/// The data of every buffer, by index (`None`: unavailable, with an issue saying why).
pub fn load(
    root: &gltf_json::Root,
    base_dir: Option<&Path>,
    container: Container<'_>,
    issues: &mut Issues,
) -> Vec<Option<Buffer>> {
    load_reading_whole_up_to(root, base_dir, container, issues, READ_WHOLE_UP_TO)
}

/// Whether buffer `i` (`uri` its URI) has no data by the document's own choice, not by a
/// fault: no `uri` and not the GLB-stored buffer, or an absolute URI that is not fetched.
/// Nothing is an error until something needs that data.
pub fn has_no_data_by_design(i: usize, uri: Option<&str>, glb: bool) -> bool {
    match uri {
        None => !(glb && i == 0),
        Some(uri) => !is_data_uri(uri) && relative_path(uri) == Err(UriProblem::NotRelative),
    }
}

/// [`load`], reading regular files of at most `whole` bytes at once (tests vary the bound).
pub(super) fn load_reading_whole_up_to(
    root: &gltf_json::Root,
    base_dir: Option<&Path>,
    container: Container<'_>,
    issues: &mut Issues,
    whole: u64,
) -> Vec<Option<Buffer>> {
    root.buffers
        .iter()
        .enumerate()
        .map(|(i, buffer)| {
            let data = match (&buffer.uri, container) {
                (None, Container::Glb { bin: Some(bin) }) if i == 0 => {
                    Ok(Data::Bytes(bin.to_vec()))
                }
                // The GLB-stored buffer of a GLB without a BIN chunk: the Khronos validator's
                // BUFFER_MISSING_GLB_DATA, an error.
                (None, Container::Glb { bin: None }) if i == 0 => {
                    Err(
                        Issue::new(Code::BufferUnreadable, format!("/buffers/{i}")).arg(
                            "detail",
                            "the GLB-stored buffer, but the GLB has no BIN chunk",
                        ),
                    )
                }
                (None, _) => Err(Issue::new(Code::BufferNoData, format!("/buffers/{i}"))),
                (Some(uri), container) => {
                    let pointer = format!("/buffers/{i}/uri");
                    if matches!(container, Container::Glb { .. }) && is_data_uri(uri) {
                        issues.push(Issue::new(Code::DataUriInGlb, pointer.as_str()));
                    }
                    open_uri(uri, base_dir, &pointer, whole)
                }
            };
            match data {
                Ok(data) => {
                    let data = Buffer { data };
                    let expected = buffer.byte_length.0;
                    if data.len() < expected {
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

/// The data a buffer URI names: decoded (data URI), a regular file of more than `whole` bytes
/// checked to open (read in ranges on use), or read now (a smaller one). The error is the
/// issue to report at `pointer`.
fn open_uri(uri: &str, base_dir: Option<&Path>, pointer: &str, whole: u64) -> Result<Data, Issue> {
    if is_data_uri(uri) {
        return read_uri(uri, base_dir, pointer).map(Data::Bytes);
    }
    let path = file_path(uri, base_dir, pointer)?;
    let (file, len) = file::open_regular(&path).map_err(|e| file_issue(&path, pointer, e))?;
    if len > MAX_FILE_SIZE || len == 0 {
        // Over the limit, or an empty length (which pseudo-files such as /proc's report
        // whatever they hold): read with the bound, as the eager read does.
        return file::read_bounded(file, len, MAX_FILE_SIZE)
            .map(Data::Bytes)
            .map_err(|e| file_issue(&path, pointer, e));
    }
    if len <= whole {
        // Its length when it was looked at, as a file read in ranges has: one read call.
        use std::io::Read as _;
        let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
        file.take(len)
            .read_to_end(&mut bytes)
            .map_err(|e| file_issue(&path, pointer, e.into()))?;
        return Ok(Data::Bytes(bytes));
    }
    Ok(Data::File { path, len })
}

/// The issue of a buffer file that was not read.
fn file_issue(path: &Path, pointer: &str, e: FileError) -> Issue {
    match e {
        FileError::Io(e) => Issue::new(Code::BufferUnreadable, pointer)
            .arg("detail", format!("{}: {e}", path.display())),
        FileError::NotRegular { kind } => Issue::new(Code::NotARegularFile, pointer)
            .arg("path", path.display())
            .arg("kind", kind),
        FileError::TooLarge { size, limit } => Issue::new(Code::BufferUnreadable, pointer).arg(
            "detail",
            format!(
                "{} is {size} bytes, over the limit of {limit}",
                path.display()
            ),
        ),
    }
}

/// The path of the file a (non-data) buffer URI names, beside the document. A URI whose path
/// goes through a symbolic link resolving outside the document's folder escapes it, as `..`
/// does (`URI_ESCAPES`).
fn file_path(uri: &str, base_dir: Option<&Path>, pointer: &str) -> Result<PathBuf, Issue> {
    let unreadable =
        |detail: String| Issue::new(Code::BufferUnreadable, pointer).arg("detail", detail);
    let escapes = || Issue::new(Code::UriEscapes, pointer).arg("uri", format!("{uri:?}"));
    let relative = match relative_path(uri) {
        Ok(p) => p,
        Err(UriProblem::Escapes) => return Err(escapes()),
        Err(UriProblem::NotRelative) => {
            return Err(Issue::new(Code::UriNotRelative, pointer).arg("uri", format!("{uri:?}")));
        }
        Err(UriProblem::Malformed(detail)) => return Err(unreadable(detail)),
    };
    let Some(base) = base_dir else {
        return Err(unreadable(format!(
            "{uri:?} is relative to the document's folder, and the document was read from memory"
        )));
    };
    let path = base.join(&relative);
    if links_outside(base, &relative) {
        return Err(escapes());
    }
    Ok(path)
}

/// Whether `base/relative` goes through a symbolic link and resolves outside `base`. Only the
/// components of `relative` are looked at (one `lstat` each, the usual case): the folder the
/// document is in may itself be reached through links. A path that cannot be resolved (a
/// missing file, a dangling link) is left to the open, which says why.
fn links_outside(base: &Path, relative: &Path) -> bool {
    let mut here = base.to_path_buf();
    let mut linked = false;
    for component in relative.components() {
        here.push(component);
        match std::fs::symlink_metadata(&here) {
            Ok(meta) if meta.file_type().is_symlink() => {
                linked = true;
                break;
            }
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    if !linked {
        return false;
    }
    let (Ok(base), Ok(target)) = (
        std::fs::canonicalize(base),
        std::fs::canonicalize(base.join(relative)),
    ) else {
        return false;
    };
    !target.starts_with(base)
}

/// Read the bytes a buffer URI names; the error is the issue to report at `pointer`. The
/// eager read: what [`open_uri`] and [`Buffer::range`] together must agree with.
fn read_uri(uri: &str, base_dir: Option<&Path>, pointer: &str) -> Result<Vec<u8>, Issue> {
    if is_data_uri(uri) {
        return data_uri_bytes(uri)
            .map_err(|detail| Issue::new(Code::DataUriInvalid, pointer).arg("detail", detail));
    }
    let path = file_path(uri, base_dir, pointer)?;
    file::read_regular(&path, MAX_FILE_SIZE).map_err(|e| file_issue(&path, pointer, e))
}

/// The bytes a buffer data URI holds (`uri` must be one: [`is_data_uri`]), decoded as the
/// reader decodes them; the error says why they cannot be.
pub fn data_uri_bytes(uri: &str) -> Result<Vec<u8>, String> {
    if !is_data_uri(uri) {
        return Err(format!("{uri:?} is not a data URI"));
    }
    // `data:` is ASCII: byte 5 starts a character.
    decode_data_uri(&uri[5..])
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
    /// Not a relative reference as written: a scheme other than `data:` (`https:`, `file:`, a
    /// drive letter) or an absolute path. Legal glTF (the Khronos validator warns,
    /// NON_RELATIVE_URI); this reader does not fetch it.
    NotRelative,
    /// A `..` segment, or an absolute path or scheme that only percent-decoding reveals.
    Escapes,
    /// Bad percent-encoding, not UTF-8 after decoding, or a NUL byte.
    Malformed(String),
}

/// The files beside a document (`.gltf` text or GLB bytes) that its buffers and images name:
/// relative URIs that stay in its folder, percent-decoded as the reader decodes them, in
/// document order without repeats. What a copy or a digest of the document must take along;
/// data URIs, escaping or malformed URIs and unreadable documents name no file.
pub fn sibling_files(document: &[u8]) -> Vec<PathBuf> {
    let json = if super::glb::is_glb(document) {
        match super::glb::split(document, &mut Issues::default()) {
            Some(chunks) => chunks.json,
            None => return Vec::new(),
        }
    } else {
        document
    };
    // Over the memory budget the reader refuses the document: it names no file either.
    if super::budget::check(json).is_err() {
        return Vec::new();
    }
    let Ok(json) = serde_json::from_slice::<serde_json::Value>(json) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = Vec::new();
    for list in ["buffers", "images"] {
        let uris = json[list].as_array().into_iter().flatten();
        for uri in uris.filter_map(|item| item["uri"].as_str()) {
            if let (false, Ok(path)) = (is_data_uri(uri), relative_path(uri))
                && !out.contains(&path)
            {
                out.push(path);
            }
        }
    }
    out
}

/// Whether `uri` is a `data:` URI (scheme compared without case; bytes, so a URI starting with
/// a multi-byte character is simply not one).
pub fn is_data_uri(uri: &str) -> bool {
    uri.as_bytes()
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"data:"))
}

/// The relative file path a URI reference names, percent-decoded, if it stays in the folder.
fn relative_path(uri: &str) -> Result<PathBuf, UriProblem> {
    if has_scheme(uri) || uri.starts_with(['/', '\\']) {
        return Err(UriProblem::NotRelative);
    }
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

    /// The loading as it was before files were read on first use: every file read at once.
    fn load_eager(
        root: &gltf_json::Root,
        base_dir: Option<&Path>,
        issues: &mut Issues,
    ) -> Vec<Option<Vec<u8>>> {
        root.buffers
            .iter()
            .enumerate()
            .map(|(i, buffer)| {
                let uri = buffer.uri.as_deref().unwrap_or("");
                match read_uri(uri, base_dir, &format!("/buffers/{i}/uri")) {
                    Ok(data) => {
                        let expected = buffer.byte_length.0;
                        if (data.len() as u64) < expected {
                            issues.push(
                                Issue::new(
                                    Code::BufferTooShort,
                                    format!("/buffers/{i}/byteLength"),
                                )
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

    /// The bytes of a data URI, whatever the case of its scheme (as the reader reads it): AQID
    /// is the bytes 1, 2, 3; a file name is no data URI; a bad media type or base64 says why.
    #[test]
    fn data_uri_bytes_decode_as_the_reader_does() {
        assert_eq!(
            data_uri_bytes("data:application/octet-stream;base64,AQID"),
            Ok(vec![1, 2, 3])
        );
        assert_eq!(
            data_uri_bytes("DATA:application/gltf-buffer;base64,AQID"),
            Ok(vec![1, 2, 3])
        );
        assert!(data_uri_bytes("b.bin").is_err());
        assert!(data_uri_bytes("data:text/plain;base64,AQID").is_err());
        assert!(data_uri_bytes("data:application/octet-stream;base64,A*").is_err());
    }

    /// A folder holding `a.bin` (`len` bytes), an empty `e.bin`, a folder `d` and `s/b.bin`.
    fn folder(len: usize) -> PathBuf {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "physics-cts-buffers-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(dir.join("d")).expect("create a temporary folder");
        std::fs::create_dir_all(dir.join("s")).expect("create a temporary folder");
        let data: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(dir.join("a.bin"), &data).expect("write a.bin");
        std::fs::write(dir.join("e.bin"), b"").expect("write e.bin");
        std::fs::write(dir.join("s").join("b.bin"), &data[..len / 2]).expect("write s/b.bin");
        dir
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Opening files and reading them on first use, or reading them whole at load up to
        /// a bound, gives the issues (codes, pointers, messages) and the bytes the eager read
        /// gives.
        #[test]
        fn lazy_files_agree_with_the_eager_read(
            len in 0usize..64,
            buffers in proptest::collection::vec(
                (
                    proptest::sample::select(vec![
                        "a.bin", "e.bin", "d", "m.bin", "s/b.bin", "s%2Fb.bin", "./a.bin",
                        "../a.bin", "%zz", "data:application/octet-stream;base64,AQID",
                        "data:text/plain;base64,AQID",
                    ]),
                    0u64..80,
                ),
                0..5,
            ),
            from_memory in proptest::bool::weighted(0.1),
            // Every file lazy (0), every file whole (the real bound), or some of each.
            whole in proptest::prop_oneof![
                proptest::strategy::Just(0u64),
                proptest::strategy::Just(READ_WHOLE_UP_TO),
                0u64..80,
            ],
        ) {
            let dir = folder(len);
            let json = serde_json::json!({
                "asset": {"version": "2.0"},
                "buffers": buffers
                    .iter()
                    .map(|(uri, byte_length)| serde_json::json!({"uri": uri, "byteLength": byte_length}))
                    .collect::<Vec<_>>(),
            });
            let root: gltf_json::Root = serde_json::from_value(json).expect("a core document");
            let base = (!from_memory).then_some(dir.as_path());
            let (mut lazy_issues, mut eager_issues) = (Issues::default(), Issues::default());
            let lazy = load_reading_whole_up_to(&root, base, Container::Json, &mut lazy_issues, whole);
            let eager = load_eager(&root, base, &mut eager_issues);
            let listed = |i: Issues| -> Vec<(Code, String, String)> {
                i.0.into_iter().map(|i| (i.code, i.pointer, i.message)).collect()
            };
            // Read at load: a data URI, and a non-empty regular file exactly when it is not
            // above the bound.
            for ((uri, _), b) in buffers.iter().zip(&lazy) {
                if let Some(b) = b {
                    let in_memory = matches!(b.data, Data::Bytes(_));
                    let file = !uri.starts_with("data:");
                    proptest::prop_assert_eq!(in_memory, !file || b.len() <= whole, "{}", uri);
                }
            }
            let all_bytes = |b: &Buffer| {
                let len = usize::try_from(b.len()).expect("a small file");
                b.range(0, len).expect("still readable").into_owned()
            };
            let lazy_bytes: Vec<Option<Vec<u8>>> =
                lazy.iter().map(|b| b.as_ref().map(all_bytes)).collect();
            // Every range, in range or not, reads what the eager data holds there.
            for (b, e) in lazy.iter().zip(&eager) {
                if let (Some(b), Some(e)) = (b, e) {
                    for start in 0..=e.len() + 1 {
                        for end in [start.saturating_sub(1), start, start + 1, e.len(), e.len() + 1] {
                            proptest::prop_assert_eq!(
                                b.range(start, end).map(Cow::into_owned),
                                e.get(start..end).map(<[u8]>::to_vec)
                            );
                        }
                    }
                }
            }
            let _ = std::fs::remove_dir_all(&dir);
            proptest::prop_assert_eq!(listed(lazy_issues), listed(eager_issues));
            proptest::prop_assert_eq!(lazy_bytes, eager);
        }
    }

    /// A document whose one buffer is the file `name` beside it, declared `byte_length` long,
    /// loaded with the real bound: the buffer and the issues.
    fn load_one(dir: &Path, name: &str, byte_length: usize) -> (Option<Buffer>, Issues) {
        let json = serde_json::json!({
            "asset": {"version": "2.0"},
            "buffers": [{"uri": name, "byteLength": byte_length}],
        });
        let root: gltf_json::Root = serde_json::from_value(json).expect("a core document");
        let mut issues = Issues::default();
        let mut buffers = load(&root, Some(dir), Container::Json, &mut issues);
        (buffers.pop().flatten(), issues)
    }

    /// A small file is read whole at load: its ranges are what it held, a range past its end
    /// is `None`, and removing the file afterwards changes nothing.
    #[test]
    fn a_small_file_is_read_whole_at_load() {
        let dir = folder(40);
        let data: Vec<u8> = (0..40).map(|i| (i * 7 % 251) as u8).collect();
        let (buffer, issues) = load_one(&dir, "a.bin", 40);
        let buffer = buffer.expect("a readable file");
        assert!(issues.0.is_empty(), "{:?}", issues.0);
        assert!(matches!(buffer.data, Data::Bytes(_)));
        std::fs::remove_dir_all(&dir).expect("remove the folder");
        assert_eq!(buffer.len(), 40);
        assert_eq!(buffer.range(0, 40).as_deref(), Some(&data[..]));
        assert_eq!(buffer.range(8, 12).as_deref(), Some(&data[8..12]));
        assert_eq!(buffer.range(36, 41), None);
        assert_eq!(buffer.range(40, 41), None);
        assert_eq!(buffer.range(41, 41), None);
        assert_eq!(buffer.range(12, 8), None);
    }

    /// A small file shorter than its `byteLength` is `BUFFER_TOO_SHORT` (actual 40, expected
    /// 48) and has no bytes past its end.
    #[test]
    fn a_small_file_shorter_than_its_byte_length_is_too_short() {
        let dir = folder(40);
        let (buffer, issues) = load_one(&dir, "a.bin", 48);
        let _ = std::fs::remove_dir_all(&dir);
        let buffer = buffer.expect("a readable file");
        assert!(matches!(buffer.data, Data::Bytes(_)), "read whole at load");
        let got: Vec<_> = issues
            .0
            .iter()
            .map(|i| (i.code, i.pointer.as_str(), i.message.as_str()))
            .collect();
        assert_eq!(got.len(), 1);
        assert_eq!(
            (got[0].0, got[0].1),
            (Code::BufferTooShort, "/buffers/0/byteLength")
        );
        assert!(
            got[0].2.contains("40") && got[0].2.contains("48"),
            "{}",
            got[0].2
        );
        assert_eq!(buffer.len(), 40);
        assert_eq!(buffer.range(40, 48), None);
        assert!(buffer.range(32, 40).is_some());
    }

    /// The bound is inclusive: a file of `READ_WHOLE_UP_TO` bytes is read whole, one byte more
    /// is read in ranges on use, so that its ranges are gone once it is removed after the load.
    #[test]
    fn a_file_over_the_bound_is_read_in_ranges_on_use() {
        let at = usize::try_from(READ_WHOLE_UP_TO).expect("64 KiB fits");
        for (len, whole) in [(at, true), (at + 1, false)] {
            let dir = folder(len);
            let (buffer, issues) = load_one(&dir, "a.bin", len);
            let buffer = buffer.expect("a readable file");
            assert!(issues.0.is_empty(), "{:?}", issues.0);
            assert_eq!(matches!(buffer.data, Data::Bytes(_)), whole, "{len}");
            assert_eq!(buffer.len(), len as u64);
            let want: Vec<u8> = (len - 3..len).map(|i| (i * 7 % 251) as u8).collect();
            assert_eq!(buffer.range(len - 3, len).as_deref(), Some(&want[..]));
            assert_eq!(buffer.range(len - 3, len + 1), None);
            std::fs::remove_dir_all(&dir).expect("remove the folder");
            // Read at load, the bytes stay; read on use, the file is gone.
            assert_eq!(buffer.range(len - 3, len).is_some(), whole, "{len}");
        }
    }

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
        for absolute in [
            "/etc/passwd",
            "\\\\server\\share",
            "C:\\a.bin",
            "file:///etc/passwd",
            "https://example.invalid/a.bin",
        ] {
            assert_eq!(
                relative_path(absolute),
                Err(UriProblem::NotRelative),
                "{absolute}"
            );
        }
        for escaping in [
            "../a.bin",
            "x/../../a.bin",
            "%2e%2e/a.bin",
            "x%2F..%2F..%2Fa.bin",
            "%2Fetc%2Fpasswd",
            "a/%2F..%2Fb",
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

    #[test]
    fn sibling_files_are_the_named_files_in_the_folder() {
        let doc = br#"{"buffers": [{"uri": "data:application/octet-stream;base64,AAAA"},
                                   {"uri": "a%20b.bin"}, {"uri": "../up.bin"},
                                   {"uri": "sub/./c.bin"}, {"uri": "a%20b.bin"},
                                   {"uri": "/abs.bin"}, {"uri": "http://x/y.bin"}, {}],
                       "images": [{"uri": "tex.png"}, {"bufferView": 0}, {"uri": "%zz"}]}"#;
        let want: Vec<PathBuf> = ["a b.bin", "sub/c.bin", "tex.png"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(super::sibling_files(doc), want);
        // The same JSON in a GLB; a document that does not parse names nothing.
        let glb = crate::document::glb::build(doc, None);
        assert_eq!(super::sibling_files(&glb), want);
        assert!(super::sibling_files(b"{\"buffers\": [").is_empty());
        assert!(super::sibling_files(b"glTF\x02\x00\x00\x00").is_empty());
    }

    #[test]
    fn a_uri_starting_with_a_multibyte_character_is_a_file_not_a_panic() {
        assert!(super::is_data_uri("DATA:,x") && super::is_data_uri("data:"));
        assert!(!super::is_data_uri("dat") && !super::is_data_uri("abcdé.bin"));
        assert!(!super::is_data_uri("éééé"));
        // Byte 5 of "abcdé.bin" is inside "é": the scheme test must not slice the string there.
        let dir = folder(0);
        let doc = r#"{"asset": {"version": "2.0"},
                      "buffers": [{"uri": "abcdé.bin", "byteLength": 4}]}"#;
        let reading = crate::read_bytes(doc.as_bytes(), Some(&dir), None);
        let got: Vec<_> = reading
            .issues
            .iter()
            .filter(|i| i.pointer.starts_with("/buffers"))
            .map(|i| (i.code, i.pointer.as_str()))
            .collect();
        assert_eq!(got, [(Code::BufferUnreadable, "/buffers/0/uri")]);
        assert_eq!(
            super::sibling_files(doc.as_bytes()),
            [PathBuf::from("abcdé.bin")]
        );
    }
}
