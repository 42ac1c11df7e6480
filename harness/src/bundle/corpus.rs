//! What a bundle says about the corpus it ran: the corpus hash, and the digest of every case run.
//!
//! **The corpus hash** is the sha256 of the text made of one line `<id>\t<sha256>\n` per
//! manifest entry, sorted by id (byte order), where `<sha256>` is the entry's own `sha256` field
//! (of its main file) as written in `manifest.json`. It names the corpus by its cases, whatever
//! the formatting of the manifest or its other fields; two corpora with the same cases and
//! documents have the same hash.
//!
//! The manifest hashes the main documents only, so each **case digest** adds the sha256 of
//! every file of the case as found in the folder: the main document (which must match the
//! manifest), the expectation file (what the verdicts rest on: a loosened tolerance changes it)
//! and the files its buffers and images name beside it (`reference::document::sibling_files`),
//! those that are there.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::case::{CaseEntry, Corpus};
use crate::text::{is_sha256_hex, sha256_hex};

/// One file of a case, relative to the corpus root.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDigest {
    pub path: String,
    pub sha256: String,
}

/// The files of one case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseDigest {
    pub id: String,
    /// Main document, expectation file, then the files its buffers and images name, if there.
    pub files: Vec<FileDigest>,
}

/// Why a corpus cannot be digested.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("cannot read {path}: {message}")]
    Unreadable { path: String, message: String },
    #[error("{path}: manifest entry {id:?} has no valid sha256 (64 lowercase hex digits)")]
    NoSha256 { path: String, id: String },
    #[error("{path}: manifest lists the case {id:?} twice")]
    Duplicate { path: String, id: String },
    #[error("{path}: the file's sha256 {found} is not the manifest's {manifest}")]
    DiffersFromManifest {
        path: String,
        found: String,
        manifest: String,
    },
}

/// The manifest's `sha256` of every case, by id (only these fields are read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestHashes(pub BTreeMap<String, String>);

#[derive(Deserialize)]
struct Row {
    id: String,
    #[serde(default)]
    sha256: Option<String>,
}

#[derive(Deserialize)]
struct ManifestRows {
    cases: Vec<Row>,
}

impl ManifestHashes {
    /// Read `<root>/manifest.json`.
    pub fn read(root: &Path) -> Result<ManifestHashes, CorpusError> {
        let path = root.join("manifest.json");
        let shown = path.display().to_string();
        let bytes = crate::case::read_file(&path).map_err(|e| CorpusError::Unreadable {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        let manifest: ManifestRows =
            serde_json::from_slice(&bytes).map_err(|e| CorpusError::Unreadable {
                path: shown.clone(),
                message: e.to_string(),
            })?;
        let mut map = BTreeMap::new();
        for row in manifest.cases {
            let Some(sha) = row.sha256.filter(|s| is_sha256_hex(s)) else {
                return Err(CorpusError::NoSha256 {
                    path: shown,
                    id: row.id,
                });
            };
            if map.insert(row.id.clone(), sha).is_some() {
                return Err(CorpusError::Duplicate {
                    path: shown,
                    id: row.id,
                });
            }
        }
        Ok(ManifestHashes(map))
    }

    /// The corpus hash (see the module doc).
    pub fn corpus_hash(&self) -> String {
        corpus_hash(self.0.iter().map(|(id, sha)| (id.as_str(), sha.as_str())))
    }
}

/// The corpus hash of `(id, sha256)` entries, in any order.
pub fn corpus_hash<'a>(entries: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let mut entries: Vec<(&str, &str)> = entries.into_iter().collect();
    entries.sort_unstable();
    let mut text = String::new();
    for (id, sha) in entries {
        text.push_str(id);
        text.push('\t');
        text.push_str(sha);
        text.push('\n');
    }
    sha256_hex(text.as_bytes())
}

/// The files of `entry` under `root`, hashed; the main document must match `manifest_sha256`.
pub fn case_digest(
    root: &Path,
    entry: &CaseEntry,
    manifest_sha256: &str,
) -> Result<CaseDigest, CorpusError> {
    let read = |rel: &str| {
        let path = root.join(rel);
        crate::case::read_file(&path).map_err(|e| (path, e))
    };
    let unreadable = |(path, e): (std::path::PathBuf, std::io::Error)| CorpusError::Unreadable {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let main = read(&entry.file).map_err(unreadable)?;
    let expect = entry.expect_file();
    let mut files = vec![
        FileDigest {
            path: entry.file.clone(),
            sha256: sha256_hex(&main),
        },
        FileDigest {
            sha256: sha256_hex(&read(&expect).map_err(unreadable)?),
            path: expect,
        },
    ];
    // The files the document's buffers and images name, beside it; a named file that is not
    // there is the case's own business (an invalid case may name a missing buffer).
    let folder = entry.file.rsplit_once('/').map_or("", |(folder, _)| folder);
    for sibling in reference::document::sibling_files(&main) {
        let parts: Vec<_> = sibling.iter().map(|p| p.to_string_lossy()).collect();
        let rel = if folder.is_empty() {
            parts.join("/")
        } else {
            format!("{folder}/{}", parts.join("/"))
        };
        match read(&rel) {
            Ok(bytes) => files.push(FileDigest {
                path: rel,
                sha256: sha256_hex(&bytes),
            }),
            Err((_, e)) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(problem) => return Err(unreadable(problem)),
        }
    }
    if files[0].sha256 != manifest_sha256 {
        return Err(CorpusError::DiffersFromManifest {
            path: root.join(&entry.file).display().to_string(),
            found: files[0].sha256.clone(),
            manifest: manifest_sha256.to_owned(),
        });
    }
    Ok(CaseDigest {
        id: entry.id.clone(),
        files,
    })
}

/// What a corpus folder says of a run: its hash, its size, and the digests of the cases
/// `filter` selects (the same selection as `physics-cts run`), sorted by id.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusDigest {
    pub hash: String,
    pub manifest_cases: usize,
    pub cases: Vec<CaseDigest>,
}

/// Digest the corpus at `root` for a run with `filter`.
pub fn digest(root: &Path, filter: Option<&str>) -> Result<CorpusDigest, CorpusError> {
    let corpus = Corpus::open(root).map_err(|e| CorpusError::Unreadable {
        path: root.display().to_string(),
        message: e.to_string(),
    })?;
    let hashes = ManifestHashes::read(root)?;
    let mut cases = Vec::new();
    for entry in corpus.filtered(filter) {
        let sha = hashes
            .0
            .get(&entry.id)
            .ok_or_else(|| CorpusError::NoSha256 {
                path: root.join("manifest.json").display().to_string(),
                id: entry.id.clone(),
            })?;
        cases.push(case_digest(root, entry, sha)?);
    }
    cases.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(CorpusDigest {
        hash: hashes.corpus_hash(),
        manifest_cases: hashes.0.len(),
        cases,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    #[test]
    fn corpus_hash_of_a_hand_made_manifest() {
        // No case: the sha256 of the empty text.
        assert_eq!(
            corpus_hash([]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // Two cases given out of order hash the text "k/a\t<A>\nk/b\t<B>\n" (2 x (3 + 1 + 64 + 1) = 138 bytes):
        // `printf 'k/a\t%s\nk/b\t%s\n' $A $B | sha256sum`.
        let h = corpus_hash([("k/b", B), ("k/a", A)]);
        assert_eq!(h, KNOWN_AB);
        assert_eq!(h, corpus_hash([("k/a", A), ("k/b", B)]));
        // Any change of an id or a hash changes it.
        assert_ne!(h, corpus_hash([("k/a", B), ("k/b", A)]));
        assert_ne!(h, corpus_hash([("k/a", A), ("k/c", B)]));
        assert_ne!(h, corpus_hash([("k/a", A)]));
    }

    const KNOWN_AB: &str = "60c8238c0fff68bede69876fb40ecead842491c437a62c8d8ce2d2cc76498b3c";

    fn write(root: &Path, rel: &str, text: &str) {
        let path = root.join(rel);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).expect("mkdir");
        }
        std::fs::write(path, text).expect("write");
    }

    fn manifest(rows: &[(&str, &str, &str)]) -> String {
        let cases: Vec<serde_json::Value> = rows
            .iter()
            .map(|(id, file, sha)| {
                serde_json::json!({"id": id, "file": file, "tier": "required", "valid": true,
                                   "sha256": sha})
            })
            .collect();
        serde_json::json!({ "cases": cases }).to_string()
    }

    #[test]
    fn a_digest_covers_main_expectation_and_the_files_the_document_names() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path();
        // The document names its buffer (percent-encoded), an image outside the folder, a
        // data URI and a missing file; `one.bin` is there but named by nothing.
        let doc = r#"{"buffers": [{"uri": "one%20data.bin", "byteLength": 3},
                                  {"uri": "data:application/octet-stream;base64,AAAA"},
                                  {"uri": "gone.bin"}],
                      "images": [{"uri": "../../outside.png"}, {"uri": "one%20data.bin"}]}"#;
        write(root, "k/x/one.gltf", doc);
        write(root, "k/x/one.expect.json", "{\"e\":1}");
        write(root, "k/x/one data.bin", "BIN");
        write(root, "k/x/one.bin", "NOT NAMED");
        write(root, "outside.png", "PNG");
        write(root, "k/x/two.gltf", "[]");
        write(root, "k/x/two.expect.json", "{}");
        let one = sha256_hex(doc.as_bytes());
        let two = sha256_hex(b"[]");
        write(
            root,
            "manifest.json",
            &manifest(&[
                ("k/x/two", "k/x/two.gltf", &two),
                ("k/x/one", "k/x/one.gltf", &one),
            ]),
        );
        let d = digest(root, None).expect("digest");
        assert_eq!(d.manifest_cases, 2);
        assert_eq!(
            d.hash,
            corpus_hash([("k/x/one", &*one), ("k/x/two", &*two)])
        );
        let paths: Vec<&str> = d.cases[0].files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            ["k/x/one.gltf", "k/x/one.expect.json", "k/x/one data.bin"]
        );
        assert_eq!(d.cases[0].files[2].sha256, sha256_hex(b"BIN"));
        assert_eq!(d.cases[1].files.len(), 2);
        // The filter selects as `run` does; the hash still names the whole corpus.
        let only = digest(root, Some("two")).expect("digest");
        assert_eq!(only.cases.len(), 1);
        assert_eq!(only.hash, d.hash);
        // A document that is not what the manifest says is refused.
        write(root, "k/x/two.gltf", "[ ]");
        assert!(matches!(
            digest(root, None),
            Err(CorpusError::DiffersFromManifest { .. })
        ));
        // A missing expectation file too.
        write(root, "k/x/two.gltf", "[]");
        std::fs::remove_file(root.join("k/x/two.expect.json")).expect("rm");
        assert!(matches!(
            digest(root, None),
            Err(CorpusError::Unreadable { .. })
        ));
    }

    #[test]
    fn manifests_without_hashes_or_with_duplicates_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let read = |text: &str| {
            write(dir.path(), "manifest.json", text);
            ManifestHashes::read(dir.path())
        };
        let no_hash = manifest(&[("k/a", "k/a.gltf", "ABC")]);
        assert!(matches!(read(&no_hash), Err(CorpusError::NoSha256 { .. })));
        let twice = manifest(&[("k/a", "k/a.gltf", A), ("k/a", "k/a.gltf", B)]);
        assert!(matches!(read(&twice), Err(CorpusError::Duplicate { .. })));
        assert!(matches!(read("{"), Err(CorpusError::Unreadable { .. })));
    }
}
