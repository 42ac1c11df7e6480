//! Known failures of one implementation over one corpus: `<corpus>/known-failures/<impl>.toml`
//! (or a file named with `--known-failures`), the corpus hash it was written for and a list of
//! case ids or globs, each with the reason (the engine's limitation or our decision). A listed
//! case that fails is an expected failure (reported, not failing); one that passes is reported
//! as an unexpected pass, so the file cannot rot.
//!
//! ```toml
//! corpus = "<the corpus hash, 64 hex digits>"
//!
//! [[known]]
//! case = "khr/gen/joint/00012"
//! reason = "Rapier couples at most two angular axes"
//! ```
//!
//! Case ids mean something only in the corpus they come from (a generated id names another
//! scene in another corpus), so a file records the corpus hash (the one certificates carry,
//! [`crate::bundle::corpus`]) and a file of another corpus is refused.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::glob;

/// The folder of the known-failure files inside a corpus folder.
pub const DIR: &str = "known-failures";

/// Where known-failure files were found before they moved into the corpus: still read, with a
/// deprecation warning, for one release.
pub const DEPRECATED_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/expectations");

/// The hash a known-failure file records for the corpus at `root`: the corpus hash of
/// [`crate::bundle::corpus`] (from the manifest's per-case sha256), or, for a hand-made manifest
/// without them, the sha256 of `manifest.json` itself.
pub fn corpus_hash(root: &Path) -> Result<String, crate::bundle::corpus::CorpusError> {
    use crate::bundle::corpus::{CorpusError, ManifestHashes};
    match ManifestHashes::read(root) {
        Ok(h) => Ok(h.corpus_hash()),
        Err(CorpusError::NoSha256 { .. }) => {
            let path = root.join("manifest.json");
            let bytes = std::fs::read(&path).map_err(|e| CorpusError::Unreadable {
                path: path.display().to_string(),
                message: crate::text::os_error(&e),
            })?;
            Ok(crate::text::sha256_hex(&bytes))
        }
        Err(e) => Err(e),
    }
}

/// One entry of a known-failure file.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailure {
    /// A case id or a glob over ids (`*`, `?`).
    pub case: String,
    pub reason: String,
}

/// The known failures of one implementation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KnownFailures {
    /// The corpus hash the case ids refer to (absent only in files of the deprecated location).
    #[serde(default)]
    pub corpus: Option<String>,
    #[serde(default)]
    pub known: Vec<KnownFailure>,
}

/// Why a known-failure file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum KnownFailuresError {
    #[error(
        "cannot read the known-failure file {path}: {}",
        crate::text::os_error(source)
    )]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the known-failure file {path} does not exist")]
    Missing { path: String },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
    #[error(
        "{path} does not say which corpus it is for: add the line `corpus = \"{corpus}\"` (the hash of the corpus its case ids come from)"
    )]
    NoCorpus { path: String, corpus: String },
    #[error(
        "{path} lists the known failures of another corpus (its corpus hash is {file}, this corpus's is {corpus}): case ids name other scenes there"
    )]
    OtherCorpus {
        path: String,
        file: String,
        corpus: String,
    },
}

/// Where the known failures of a run came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KnownFailuresSource {
    /// `<corpus>/known-failures/<impl>.toml`.
    Corpus(PathBuf),
    /// Named with `--known-failures`.
    Explicit(PathBuf),
    /// The deprecated location, [`DEPRECATED_DIR`] (or a folder given with `--expectations`).
    Deprecated(PathBuf),
    /// No file: no known failures.
    None,
}

impl KnownFailuresSource {
    /// The file read, if any.
    pub fn path(&self) -> Option<&Path> {
        match self {
            KnownFailuresSource::Corpus(p)
            | KnownFailuresSource::Explicit(p)
            | KnownFailuresSource::Deprecated(p) => Some(p),
            KnownFailuresSource::None => None,
        }
    }
}

/// A known-failure file as found for one implementation and corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub failures: KnownFailures,
    pub source: KnownFailuresSource,
}

impl Found {
    /// One line for the run's summary: where the known failures came from, or that there are
    /// none.
    pub fn describe(&self, implementation: &str) -> String {
        match self.source.path() {
            Some(p) => format!(
                "{implementation}: {} known failure(s) from {}",
                self.failures.known.len(),
                p.display()
            ),
            None => format!("{implementation}: no known failures"),
        }
    }
}

/// Said once per file read from a deprecated location.
fn deprecation_warning(old: &Path, new: &Path, corpus_hash: &str) {
    eprintln!(
        "physics-cts: warning: {} is a deprecated location of known failures (read for one more release): move it to {} and add the line `corpus = \"{corpus_hash}\"`",
        old.display(),
        new.display()
    );
}

impl KnownFailures {
    /// Parse the TOML text; every entry needs a non-empty case and reason, and `corpus` (when
    /// given) is a sha256 in hex.
    pub fn parse(text: &str) -> Result<KnownFailures, String> {
        let k: KnownFailures = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(bad) = k
            .known
            .iter()
            .find(|k| k.case.trim().is_empty() || k.reason.trim().is_empty())
        {
            return Err(format!("entry {:?} needs a case and a reason", bad.case));
        }
        if let Some(c) = &k.corpus
            && !(c.len() == 64 && c.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return Err(format!(
                "corpus = {c:?} is not a corpus hash (64 hex digits)"
            ));
        }
        Ok(k)
    }

    /// The file of `implementation`'s known failures in `dir`: `<dir>/<implementation>.toml`.
    pub fn path(dir: &Path, implementation: &str) -> PathBuf {
        dir.join(format!("{implementation}.toml"))
    }

    /// Read and parse the file at `path`; `Ok(None)` when there is none.
    fn read(path: &Path) -> Result<Option<KnownFailures>, KnownFailuresError> {
        match std::fs::read_to_string(path) {
            Ok(text) => KnownFailures::parse(&text).map(Some).map_err(|message| {
                KnownFailuresError::Format {
                    path: path.display().to_string(),
                    message,
                }
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(KnownFailuresError::Io {
                path: path.display().to_string(),
                source,
            }),
        }
    }

    /// The known failures of `implementation` over the corpus at `corpus_root` whose hash is
    /// `corpus_hash`: the explicit file when one is given (it must exist), else
    /// `<corpus>/known-failures/<impl>.toml`, else (deprecated, with a warning on stderr) the
    /// file in `deprecated_dir`, else none. A file must record `corpus_hash`, except in the
    /// deprecated location, where a missing hash is tolerated.
    pub fn find(
        corpus_root: &Path,
        corpus_hash: &str,
        implementation: &str,
        explicit: Option<&Path>,
        deprecated_dir: &Path,
    ) -> Result<Found, KnownFailuresError> {
        let (failures, source) = if let Some(path) = explicit {
            let path = if path.is_dir() {
                KnownFailures::path(path, implementation)
            } else {
                path.to_path_buf()
            };
            match KnownFailures::read(&path)? {
                Some(f) => (f, KnownFailuresSource::Explicit(path)),
                None => {
                    return Err(KnownFailuresError::Missing {
                        path: path.display().to_string(),
                    });
                }
            }
        } else {
            let in_corpus = KnownFailures::path(&corpus_root.join(DIR), implementation);
            let old = KnownFailures::path(deprecated_dir, implementation);
            if let Some(f) = KnownFailures::read(&in_corpus)? {
                (f, KnownFailuresSource::Corpus(in_corpus))
            } else if let Some(f) = KnownFailures::read(&old)? {
                deprecation_warning(&old, &in_corpus, corpus_hash);
                (f, KnownFailuresSource::Deprecated(old))
            } else {
                (KnownFailures::default(), KnownFailuresSource::None)
            }
        };
        if let Some(path) = source.path() {
            match &failures.corpus {
                Some(h) if h != corpus_hash => {
                    return Err(KnownFailuresError::OtherCorpus {
                        path: path.display().to_string(),
                        file: h.clone(),
                        corpus: corpus_hash.to_owned(),
                    });
                }
                None if !matches!(source, KnownFailuresSource::Deprecated(_)) => {
                    return Err(KnownFailuresError::NoCorpus {
                        path: path.display().to_string(),
                        corpus: corpus_hash.to_owned(),
                    });
                }
                _ => {}
            }
        }
        Ok(Found { failures, source })
    }

    /// The known failures in a folder named with the deprecated `--expectations DIR`, as that
    /// option read them: `<dir>/<impl>.toml`, none when it is missing, no corpus hash needed
    /// (one it records is still checked).
    pub fn from_deprecated_dir(
        dir: &Path,
        corpus_root: &Path,
        corpus_hash: &str,
        implementation: &str,
    ) -> Result<Found, KnownFailuresError> {
        let path = KnownFailures::path(dir, implementation);
        let Some(failures) = KnownFailures::read(&path)? else {
            return Ok(Found {
                failures: KnownFailures::default(),
                source: KnownFailuresSource::None,
            });
        };
        deprecation_warning(
            &path,
            &KnownFailures::path(&corpus_root.join(DIR), implementation),
            corpus_hash,
        );
        if let Some(h) = failures.corpus.as_ref().filter(|h| *h != corpus_hash) {
            return Err(KnownFailuresError::OtherCorpus {
                path: path.display().to_string(),
                file: h.clone(),
                corpus: corpus_hash.to_owned(),
            });
        }
        Ok(Found {
            failures,
            source: KnownFailuresSource::Deprecated(path),
        })
    }

    /// The first entry matching the case id.
    pub fn lookup(&self, case: &str) -> Option<&KnownFailure> {
        self.known.iter().find(|k| glob::matches(&k.case, case))
    }

    /// Entries that match none of `ids` (stale lines, or a corpus filter excluded them).
    pub fn unused<'a>(&'a self, ids: &[&str]) -> Vec<&'a KnownFailure> {
        self.known
            .iter()
            .filter(|k| !ids.iter().any(|id| glob::matches(&k.case, id)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"
[[known]]
case = "khr/gen/joint/00012"
reason = "Rapier couples at most two angular axes"

[[known]]
case = "omi/*/cylinder-*"
reason = "tapered cylinders are convex hulls"
"#;

    const HASH_A: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    const HASH_B: &str = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    #[test]
    fn lookup_by_id_and_glob() {
        let e = KnownFailures::parse(TEXT).expect("parses");
        assert_eq!(
            e.lookup("khr/gen/joint/00012").map(|k| k.reason.as_str()),
            Some("Rapier couples at most two angular axes")
        );
        assert!(e.lookup("khr/gen/joint/000123").is_none());
        assert!(e.lookup("omi/shape/cylinder-tapered").is_some());
        assert!(e.lookup("khr/shape/cylinder-tapered").is_none());
        let unused = e.unused(&["khr/gen/joint/00012"]);
        assert_eq!(unused.len(), 1);
        assert_eq!(unused[0].case, "omi/*/cylinder-*");
    }

    #[test]
    fn entries_need_a_reason_and_known_keys() {
        assert!(KnownFailures::parse("[[known]]\ncase = \"a\"\nreason = \" \"\n").is_err());
        assert!(KnownFailures::parse("[[known]]\ncase = \"a\"\n").is_err());
        assert!(
            KnownFailures::parse("[[known]]\ncase = \"a\"\nreason = \"r\"\nstatus = \"x\"\n")
                .is_err()
        );
        assert!(KnownFailures::parse("corpus = \"abc\"\n").is_err());
        assert_eq!(
            KnownFailures::parse("").expect("empty is fine"),
            KnownFailures::default()
        );
    }

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("physics-cts-known-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join(DIR)).expect("scratch dir");
        d
    }

    #[test]
    fn no_file_anywhere_is_no_known_failures() {
        let d = scratch("none");
        let f = KnownFailures::find(&d, HASH_A, "nobody", None, &d.join("old")).expect("fine");
        assert!(f.failures.known.is_empty());
        assert_eq!(f.source, KnownFailuresSource::None);
        assert_eq!(f.describe("nobody"), "nobody: no known failures");
    }

    #[test]
    fn the_corpus_file_is_found_and_must_be_of_this_corpus() {
        let d = scratch("corpus");
        let file = d.join(DIR).join("x.toml");
        std::fs::write(&file, format!("corpus = \"{HASH_A}\"\n{TEXT}")).expect("write");
        let f = KnownFailures::find(&d, HASH_A, "x", None, &d.join("old")).expect("found");
        assert_eq!(f.source, KnownFailuresSource::Corpus(file.clone()));
        assert_eq!(f.failures.known.len(), 2);
        let e = KnownFailures::find(&d, HASH_B, "x", None, &d.join("old")).expect_err("other");
        assert!(matches!(e, KnownFailuresError::OtherCorpus { .. }), "{e}");
        std::fs::write(&file, TEXT).expect("write");
        let e = KnownFailures::find(&d, HASH_A, "x", None, &d.join("old")).expect_err("no hash");
        assert!(matches!(e, KnownFailuresError::NoCorpus { .. }), "{e}");
        assert!(e.to_string().contains(HASH_A), "{e}");
    }

    #[test]
    fn an_explicit_file_must_exist_and_wins() {
        let d = scratch("explicit");
        std::fs::write(
            d.join(DIR).join("x.toml"),
            format!("corpus = \"{HASH_A}\"\n"),
        )
        .expect("write");
        let mine = d.join("mine.toml");
        let e =
            KnownFailures::find(&d, HASH_A, "x", Some(&mine), &d.join("old")).expect_err("missing");
        assert!(matches!(e, KnownFailuresError::Missing { .. }), "{e}");
        std::fs::write(&mine, format!("corpus = \"{HASH_A}\"\n{TEXT}")).expect("write");
        let f = KnownFailures::find(&d, HASH_A, "x", Some(&mine), &d.join("old")).expect("found");
        assert_eq!(f.source, KnownFailuresSource::Explicit(mine));
        assert_eq!(f.failures.known.len(), 2);
    }

    #[test]
    fn the_deprecated_location_is_read_without_a_hash() {
        let d = scratch("deprecated");
        let old = d.join("old");
        std::fs::create_dir_all(&old).expect("old dir");
        std::fs::write(old.join("x.toml"), TEXT).expect("write");
        let f = KnownFailures::find(&d, HASH_A, "x", None, &old).expect("found");
        assert_eq!(
            f.source,
            KnownFailuresSource::Deprecated(old.join("x.toml"))
        );
        assert_eq!(f.failures.known.len(), 2);
        // `--expectations DIR` reads its folder before the corpus's file, as it did.
        std::fs::write(
            d.join(DIR).join("x.toml"),
            format!("corpus = \"{HASH_A}\"\n"),
        )
        .expect("write");
        let f = KnownFailures::from_deprecated_dir(&old, &d, HASH_A, "x").expect("found");
        assert_eq!(f.failures.known.len(), 2);
        let none = KnownFailures::from_deprecated_dir(&old, &d, HASH_A, "y").expect("none");
        assert_eq!(none.source, KnownFailuresSource::None);
        // A hash it records is still checked.
        std::fs::write(old.join("x.toml"), format!("corpus = \"{HASH_B}\"\n{TEXT}"))
            .expect("write");
        std::fs::remove_file(d.join(DIR).join("x.toml")).expect("remove");
        assert!(KnownFailures::find(&d, HASH_A, "x", None, &old).is_err());
        assert!(KnownFailures::from_deprecated_dir(&old, &d, HASH_A, "x").is_err());
    }
}
