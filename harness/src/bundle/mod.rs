//! Self-certification bundles: the output folder of one `physics-cts run`, plus what makes it a
//! certificate anyone can check without trusting the sender.
//!
//! A bundle folder holds the reports of the run (`results.ndjson`, `summary.json`, ...), the
//! known-failure file the run used (`expectations.toml`, when there was one),
//! [`CERTIFICATE`] (who ran what: the implementation's handshake, the suite version, the corpus
//! hash and the digest of every case run, see [`Certificate`]) and [`INDEX`] (every other file
//! with its sha256 and size, see [`Index`]). [`verify`] checks a bundle against itself and
//! against a corpus folder. Nothing is signed: a bundle proves consistency, not authorship.

pub mod corpus;
pub mod verify;

use std::path::{Path, PathBuf};

use crate::results::ImplInfo;
use crate::text::sha256_hex;
use serde::{Deserialize, Serialize};

pub use corpus::{CaseDigest, CorpusError, FileDigest};
pub use verify::{BundleCode, Failure, verify};

/// The file listing every other file of the bundle.
pub const INDEX: &str = "bundle.json";
/// The file saying who ran what.
pub const CERTIFICATE: &str = "certificate.json";
/// The copy of the implementation's known-failure file, when the run had one.
pub const EXPECTATIONS: &str = "expectations.toml";
/// The format of [`INDEX`] and [`CERTIFICATE`]; a reader refuses any other.
pub const FORMAT: &str = "physics-cts-bundle/1";

/// The files every bundle lists: the certificate and every report of a run.
pub const REQUIRED: [&str; 7] = [
    CERTIFICATE,
    crate::report::NDJSON,
    crate::report::SUMMARY_JSON,
    crate::report::CSV,
    crate::report::JUNIT,
    crate::report::MARKDOWN,
    crate::report::HTML,
];

/// `bundle.json`: every file of the bundle but itself, sorted by path. Written in one canonical
/// form ([`Index::render`]) so that a reader can tell any edit of it, even one JSON would not
/// see (a changed space), from the original.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Index {
    pub format: String,
    pub files: Vec<FileEntry>,
}

/// One file of the bundle.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// Relative to the bundle folder, `/`-separated.
    pub path: String,
    /// Lowercase hex.
    pub sha256: String,
    pub size: u64,
}

impl Index {
    /// The canonical text: pretty JSON and a final newline.
    pub fn render(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// The suite that ran the cases.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    pub name: String,
    /// The crate version.
    pub version: String,
    /// `git describe --tags --always` of the source at build time, when git could tell.
    pub describe: Option<String>,
}

impl Suite {
    /// This build of the suite.
    pub fn current() -> Suite {
        Suite {
            name: "physics-cts".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            describe: option_env!("PHYSICS_CTS_GIT_DESCRIBE").map(str::to_owned),
        }
    }
}

/// The corpus a bundle claims to have run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CorpusClaim {
    /// The corpus folder relative to the bundle folder (absolute when no relative path leads
    /// there), so that `verify` finds it from any working folder ([`corpus_path`],
    /// [`recorded_corpus`]).
    pub path: String,
    /// [`corpus::corpus_hash`] of its manifest.
    pub hash: String,
    /// Cases in the manifest.
    pub manifest_cases: usize,
    /// The `--filter` of the run: the cases run are the manifest's cases it matches.
    pub filter: Option<String>,
}

/// The path a certificate records for the corpus `corpus` of the bundle `bundle` (both
/// existing folders): relative to the bundle, or absolute when they share no root. Both are
/// canonicalised first, so links and `..` in what the user typed do not matter.
pub fn corpus_path(bundle: &Path, corpus: &Path) -> std::io::Result<String> {
    let bundle = std::fs::canonicalize(bundle)?;
    let corpus = std::fs::canonicalize(corpus)?;
    let common = bundle
        .components()
        .zip(corpus.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return Ok(corpus.display().to_string());
    }
    let mut relative = PathBuf::new();
    for _ in bundle.components().skip(common) {
        relative.push("..");
    }
    relative.extend(corpus.components().skip(common));
    if relative.as_os_str().is_empty() {
        relative.push(".");
    }
    Ok(relative.display().to_string())
}

/// The corpus folder a certificate's `recorded` path names for the bundle at `bundle`:
/// relative to the bundle ([`corpus_path`]); a certificate written before paths were recorded
/// so kept the folder as given to `certify`, relative to where it ran, which is tried when the
/// bundle-relative folder does not exist.
pub fn recorded_corpus(bundle: &Path, recorded: &str) -> PathBuf {
    let recorded = Path::new(recorded);
    if recorded.is_absolute() {
        return recorded.to_path_buf();
    }
    let beside = bundle.join(recorded);
    if beside.is_dir() {
        beside
    } else {
        recorded.to_path_buf()
    }
}

/// `certificate.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Certificate {
    pub format: String,
    pub suite: Suite,
    /// Each implementation as its handshake declared it (name, version, engine, capabilities).
    pub implementations: Vec<ImplInfo>,
    pub corpus: CorpusClaim,
    /// The cases run, sorted by id, with the digest of their files.
    pub cases: Vec<CaseDigest>,
}

impl Certificate {
    /// Pretty JSON and a final newline.
    pub fn render(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
}

/// Why a bundle could not be written or read.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("cannot read or write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Corpus(#[from] CorpusError),
}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> BundleError + '_ {
    move |source| BundleError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Every file under `dir` as a `/`-separated relative path, sorted; `INDEX` at the top is left
/// out. Anything that is neither a file nor a folder (a symlink, a socket) is listed too, so
/// that a reader reports it rather than skips it.
pub fn list_files(dir: &Path) -> Result<Vec<String>, BundleError> {
    fn walk(root: &Path, rel: &str, out: &mut Vec<String>) -> Result<(), BundleError> {
        let here: PathBuf = if rel.is_empty() {
            root.to_path_buf()
        } else {
            root.join(rel)
        };
        let entries = std::fs::read_dir(&here).map_err(io_error(&here))?;
        for e in entries {
            let e = e.map_err(io_error(&here))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            let kind = e.file_type().map_err(io_error(&e.path()))?;
            if kind.is_dir() {
                walk(root, &path, out)?;
            } else {
                out.push(path);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    walk(dir, "", &mut out)?;
    out.retain(|p| p != INDEX);
    out.sort();
    Ok(out)
}

/// Write `bundle.json` for the files now in `dir` (every one of them).
pub fn write_index(dir: &Path) -> Result<Index, BundleError> {
    let mut files = Vec::new();
    for path in list_files(dir)? {
        let full = dir.join(&path);
        let bytes = std::fs::read(&full).map_err(io_error(&full))?;
        files.push(FileEntry {
            path,
            sha256: sha256_hex(&bytes),
            size: bytes.len() as u64,
        });
    }
    let index = Index {
        format: FORMAT.into(),
        files,
    };
    let path = dir.join(INDEX);
    std::fs::write(&path, index.render()).map_err(io_error(&path))?;
    Ok(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_lists_every_file_but_itself_sorted() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("sub")).expect("mkdir");
        std::fs::write(dir.path().join("b.txt"), "bb").expect("write");
        std::fs::write(dir.path().join("sub/a.txt"), "abc").expect("write");
        std::fs::write(dir.path().join("a.txt"), "").expect("write");
        let index = write_index(dir.path()).expect("index");
        let paths: Vec<&str> = index.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["a.txt", "b.txt", "sub/a.txt"]);
        assert_eq!(index.files[2].size, 3);
        assert_eq!(index.files[2].sha256, sha256_hex(b"abc"));
        // Written again, the index does not list itself.
        let again = write_index(dir.path()).expect("index");
        assert_eq!(again, index);
        let text = std::fs::read_to_string(dir.path().join(INDEX)).expect("read");
        assert_eq!(text, index.render());
    }
}
