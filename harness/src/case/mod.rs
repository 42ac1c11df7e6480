//! A corpus case as the harness reads it: the manifest row (cheap: listing never opens more
//! than `manifest.json`) and the full `<id>.expect.json`, both in the case format of
//! `reference::case` (issues, the reference's expected interpretation, outputs at named poses,
//! tolerance classes and the dynamics scenario).
//!
//! Everything is read leniently (unknown keys ignored, missing optional parts absent, catalogue
//! ids this build does not know kept as written) so a corpus written by a newer generator still
//! runs; a part that is present but malformed makes the case a `HARNESS_ERROR`, never a panic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use reference::case::scenario::NodeRole;
use reference::case::{CatalogueId, ExpectFile};
use reference::decision::Decision;
use reference::expect::Expectation;
use reference::issue::Severity;
use serde::Deserialize;

use crate::implementation::Action;

pub use reference::case::{CaseEntry, ExpectedIssue, PoseOutputs, Scenario, Tier, Tolerance};

/// A case as the harness loaded it: its manifest row and its expectation file.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadedCase {
    pub entry: CaseEntry,
    /// Absolute (or corpus-joined) path of the main file.
    pub path: PathBuf,
    pub description: String,
    pub decisions: Vec<CatalogueId<Decision>>,
    pub issues: Vec<ExpectedIssue>,
    /// `None`: the case carries no expected interpretation (an invalid case, or a corpus
    /// written before the reference computed one).
    pub interpretation: Option<Expectation>,
    pub poses: Vec<PoseOutputs>,
    /// Tolerance classes by name (`length`, `angle`, `scalar`), data of the case.
    pub tolerances: BTreeMap<String, Tolerance>,
    pub scenario: Option<Scenario<Action>>,
}

/// Every node a check names is one the interpretation describes (a body or a collider; a
/// joint for limit and drive checks): a check of a node the document does not have, or that
/// has no physics, cannot say anything about the engine, and is the case's error.
fn known_nodes(scenario: &Scenario<Action>, want: &Expectation) -> Result<(), String> {
    for check in &scenario.checks {
        for (node, role) in check.kind.nodes() {
            let known = match role {
                NodeRole::Object => {
                    want.body(node).is_some() || want.colliders.iter().any(|c| c.node == node)
                }
                NodeRole::Joint => want.joint(node).is_some(),
                NodeRole::Trigger => {
                    want.colliders.iter().any(|c| c.node == node && c.trigger)
                        || want.compound_triggers.iter().any(|t| t.node == node)
                }
            };
            if !known {
                let what = match role {
                    NodeRole::Object => "a body or a collider",
                    NodeRole::Joint => "a joint",
                    NodeRole::Trigger => "a trigger or a compound trigger",
                };
                return Err(format!(
                    "check {:?} names node {node}, which is not {what} of the case",
                    check.name
                ));
            }
        }
    }
    Ok(())
}

/// Why a corpus or a case cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum CaseError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

fn read_text(path: &Path) -> Result<String, CaseError> {
    let bytes = read_file(path).map_err(|source| CaseError::Io {
        path: path.display().to_string(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|_| CaseError::Io {
        path: path.display().to_string(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "stream did not contain valid UTF-8",
        ),
    })
}

/// The bytes of the corpus file at `path`, read as the reference reads documents
/// (`reference::document::file`): a regular file only (a FIFO or a device would block or never
/// end), at most `reference::document::MAX_FILE_SIZE` bytes. Errors keep their `io` kind (a
/// missing file is `NotFound`); a file that is not regular is `InvalidInput`, one too large
/// `FileTooLarge`.
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use reference::document::file::{FileError, read_regular};
    read_regular(path, reference::document::MAX_FILE_SIZE).map_err(|e| match e {
        FileError::Io(e) => e,
        e @ FileError::NotRegular { .. } => {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, e.to_string())
        }
        e @ FileError::TooLarge { .. } => {
            std::io::Error::new(std::io::ErrorKind::FileTooLarge, e.to_string())
        }
    })
}

impl LoadedCase {
    /// Read the expectation file of `entry` under the corpus `root`.
    pub fn load(root: &Path, entry: &CaseEntry) -> Result<LoadedCase, CaseError> {
        let expect_path = root.join(entry.expect_file());
        let bytes = read_file(&expect_path).map_err(|source| CaseError::Io {
            path: expect_path.display().to_string(),
            source,
        })?;
        LoadedCase::from_slice(root, entry, &bytes).map_err(|message| CaseError::Format {
            path: expect_path.display().to_string(),
            message,
        })
    }

    /// Parse an expectation file's text (the path is only used to locate the main file).
    pub fn from_json(root: &Path, entry: &CaseEntry, text: &str) -> Result<LoadedCase, String> {
        LoadedCase::from_slice(root, entry, text.as_bytes())
    }

    /// Parse an expectation file's bytes. The plain parser runs first (the corpus is
    /// well-formed, and tracking the path costs as much as the parse); only a file that fails
    /// is parsed again to say where.
    pub fn from_slice(root: &Path, entry: &CaseEntry, bytes: &[u8]) -> Result<LoadedCase, String> {
        let file: ExpectFile<Action> = match serde_json::from_slice(bytes) {
            Ok(f) => f,
            Err(plain) => {
                let de = &mut serde_json::Deserializer::from_slice(bytes);
                return Err(
                    match serde_path_to_error::deserialize::<_, ExpectFile<Action>>(de) {
                        Err(e) => format!("at {}: {}", e.path(), e.inner()),
                        Ok(_) => plain.to_string(),
                    },
                );
            }
        };
        let mut tolerances = BTreeMap::new();
        for (name, t) in file.tolerances.unwrap_or_default() {
            let t = t
                .validated()
                .map_err(|e| format!("tolerance class {name:?}: {e}"))?;
            tolerances.insert(name, t);
        }
        if let Some(s) = &file.scenario {
            s.validate().map_err(|e| format!("scenario: {e}"))?;
            if let Some(want) = &file.interpretation {
                known_nodes(s, want).map_err(|e| format!("scenario: {e}"))?;
            }
        }
        Ok(LoadedCase {
            entry: entry.clone(),
            path: root.join(&entry.file),
            description: file.description,
            decisions: file.decisions,
            issues: file.issues,
            interpretation: file.interpretation,
            poses: file.poses,
            tolerances,
            scenario: file.scenario,
        })
    }

    pub fn id(&self) -> &str {
        &self.entry.id
    }

    /// The first expected issue whose code leaves open whether a reader accepts or refuses
    /// the file ([`reference::issue::Code::leaves_outcome_open`]).
    pub fn open_outcome(&self) -> Option<&str> {
        self.issues
            .iter()
            .find(|i| i.code.known().is_some_and(|c| c.leaves_outcome_open()))
            .map(|i| i.code.id())
    }

    /// Codes of the expected issues of severity error, sorted and deduplicated.
    pub fn error_codes(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self
            .issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .map(|i| i.code.id())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

/// The cases of a corpus folder, in manifest order (sorted by id).
#[derive(Clone, Debug, PartialEq)]
pub struct Corpus {
    pub root: PathBuf,
    pub entries: Vec<CaseEntry>,
}

#[derive(Debug, Deserialize)]
struct Manifest {
    cases: Vec<CaseEntry>,
}

impl Corpus {
    /// Read `<root>/manifest.json`.
    pub fn open(root: &Path) -> Result<Corpus, CaseError> {
        let path = root.join("manifest.json");
        let text = read_text(&path)?;
        let de = &mut serde_json::Deserializer::from_str(&text);
        let manifest: Manifest =
            serde_path_to_error::deserialize(de).map_err(|e| CaseError::Format {
                path: path.display().to_string(),
                message: format!("at {}: {}", e.path(), e.inner()),
            })?;
        let mut entries = manifest.cases;
        // Every path the manifest names stays inside the corpus folder (the runner hands it to
        // the implementation), and ids are unique (results are keyed by id).
        let bad = |message: String| CaseError::Format {
            path: path.display().to_string(),
            message,
        };
        if let Some(e) = entries.iter().find(|e| !safe_path(&e.file)) {
            return Err(bad(format!(
                "case {:?}: file {:?} is not a relative path inside the corpus",
                e.id, e.file
            )));
        }
        entries.sort_by(|a, b| a.id.cmp(&b.id));
        if let Some(w) = entries.windows(2).find(|w| w[0].id == w[1].id) {
            return Err(bad(format!("case id {:?} is listed twice", w[0].id)));
        }
        Ok(Corpus {
            root: root.to_path_buf(),
            entries,
        })
    }

    /// SHA-256 (hex) of `manifest.json` and of the expectation file of each of `entries`,
    /// with its id: what a resumed run must find unchanged (a regenerated expectation
    /// changes it even when the glTF files, hashed in the manifest, do not). A missing
    /// expectation file is hashed as absent, so it fails when the case runs, not here; any other
    /// read error (permissions, a folder) is reported.
    pub fn fingerprint(&self, entries: &[&CaseEntry]) -> Result<String, CaseError> {
        use sha2::{Digest, Sha256};
        let path = self.root.join("manifest.json");
        let manifest = read_file(&path).map_err(|source| CaseError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let mut h = Sha256::new();
        h.update((manifest.len() as u64).to_le_bytes());
        h.update(&manifest);
        for e in entries {
            h.update((e.id.len() as u64).to_le_bytes());
            h.update(e.id.as_bytes());
            match read_file(&self.root.join(e.expect_file())) {
                Ok(bytes) => {
                    h.update((bytes.len() as u64).to_le_bytes());
                    h.update(&bytes);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    h.update(u64::MAX.to_le_bytes());
                }
                Err(source) => {
                    return Err(CaseError::Io {
                        path: self.root.join(e.expect_file()).display().to_string(),
                        source,
                    });
                }
            }
        }
        Ok(format!("{:x}", h.finalize()))
    }

    /// The entries whose id matches `filter` (a glob, or a plain substring).
    pub fn filtered(&self, filter: Option<&str>) -> Vec<&CaseEntry> {
        self.entries
            .iter()
            .filter(|e| filter.is_none_or(|f| crate::glob::matches_or_contains(f, &e.id)))
            .collect()
    }
}

/// A relative path of `/`-separated names, none empty, `.` or `..`, without backslashes: it
/// cannot leave the folder it is joined to.
pub fn safe_path(p: &str) -> bool {
    !p.is_empty()
        && !p.contains('\\')
        && p.split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> CaseEntry {
        CaseEntry {
            id: "khr/joint/hinge".into(),
            file: "khr/joint/hinge.gltf".into(),
            profile: Some(CatalogueId::Known(
                reference::profile::Profile::Khr2024Draft,
            )),
            area: "joint".into(),
            features: vec!["joint.limit.angular.1".into()],
            tier: Tier::Required,
            valid: true,
            expected_codes: Vec::new(),
            seed: None,
            sha256: String::new(),
        }
    }

    /// The case of [`entry`] in the corpus `/c` with the expectation file `text`.
    fn read(text: &str) -> Result<LoadedCase, String> {
        LoadedCase::from_json(Path::new("/c"), &entry(), text)
    }

    #[test]
    fn expect_file_sits_next_to_the_main_file() {
        assert_eq!(entry().expect_file(), "khr/joint/hinge.expect.json");
        let glb = CaseEntry {
            file: "core/x.glb".into(),
            ..entry()
        };
        assert_eq!(glb.expect_file(), "core/x.expect.json");
    }

    #[test]
    fn a_minimal_expectation_file_reads_with_everything_optional_absent() {
        let case = read(r#"{"interpretation": null, "tolerances": null, "scenario": null}"#)
            .expect("reads");
        assert!(case.interpretation.is_none());
        assert!(case.scenario.is_none());
        assert!(case.tolerances.is_empty());
        assert_eq!(case.path, Path::new("/c/khr/joint/hinge.gltf"));
    }

    #[test]
    fn malformed_parts_are_errors_with_their_path() {
        let err = read(r#"{"tolerances": {"length": {"recommended": 1, "allowed": "x"}}}"#)
            .expect_err("malformed");
        assert!(err.contains("tolerances.length.allowed"), "{err}");
        let err = read(r#"{"tolerances": {"length": {"recommended": 1, "allowed": 0.5}}}"#)
            .expect_err("inverted");
        assert!(err.contains("larger than the allowed"), "{err}");
    }

    /// A check naming a node the interpretation does not describe is the case's error (a
    /// HARNESS_ERROR when the case runs), not the engine's failure.
    #[test]
    fn a_check_of_an_unknown_node_is_a_case_error() {
        let file = |node: usize| {
            format!(
                r#"{{"interpretation": {{"profile": "khr-2024-draft", "bodies": [], "colliders": [
                       {{"index": 0, "node": 0, "body_node": null, "trigger": false, "decisions": [],
                         "pose": {{"translation": [0, 0, 0], "rotation": [0, 0, 0, 1]}}}}]}},
                    "scenario": {{"config": {{"gravity": [0, 0, 0], "dt": 0.01, "substeps": 1}},
                      "steps": 1,
                      "checks": [{{"name": "s", "kind": "still", "nodes": [{node}],
                        "length": {{"recommended": 0, "allowed": 0}},
                        "angle": {{"recommended": 0, "allowed": 0}}}}]}}}}"#
            )
        };
        read(&file(0)).expect("node 0 is a collider");
        let err = read(&file(7)).expect_err("no node 7");
        assert!(err.contains("names node 7"), "{err}");
    }

    #[test]
    fn the_fingerprint_changes_with_an_expectation_file_and_the_selection() {
        let dir =
            std::env::temp_dir().join(format!("physics-cts-fingerprint-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("khr/joint")).expect("mkdir");
        let other = CaseEntry {
            id: "khr/joint/slider".into(),
            file: "khr/joint/slider.gltf".into(),
            ..entry()
        };
        std::fs::write(
            dir.join("manifest.json"),
            serde_json::json!({"cases": [entry(), other.clone()]}).to_string(),
        )
        .expect("write");
        std::fs::write(dir.join("khr/joint/hinge.expect.json"), "{}").expect("write");
        std::fs::write(dir.join("khr/joint/slider.expect.json"), "{}").expect("write");
        let corpus = Corpus::open(&dir).expect("opens");
        let all: Vec<&CaseEntry> = corpus.entries.iter().collect();
        let a = corpus.fingerprint(&all).expect("hashes");
        assert_eq!(a.len(), 64);
        assert_eq!(corpus.fingerprint(&all).expect("hashes"), a, "stable");
        assert_ne!(
            corpus.fingerprint(&all[..1]).expect("hashes"),
            a,
            "selection"
        );
        std::fs::write(dir.join("khr/joint/slider.expect.json"), "{ }").expect("write");
        assert_ne!(corpus.fingerprint(&all).expect("hashes"), a, "content");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_manifest_naming_paths_outside_the_corpus_or_an_id_twice_is_refused() {
        let dir = std::env::temp_dir().join(format!("physics-cts-escape-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("mkdir");
        let open_with = |cases: Vec<CaseEntry>| {
            std::fs::write(
                dir.join("manifest.json"),
                serde_json::json!({ "cases": cases }).to_string(),
            )
            .expect("write");
            Corpus::open(&dir)
        };
        for file in ["../x.gltf", "/etc/x.gltf", "a/./b.gltf", "a\\b.gltf", ""] {
            let escaping = CaseEntry {
                file: file.into(),
                ..entry()
            };
            assert!(open_with(vec![escaping]).is_err(), "{file:?}");
        }
        assert!(open_with(vec![entry(), entry()]).is_err(), "duplicate id");
        assert!(open_with(vec![entry()]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn error_codes_keep_errors_only() {
        let case = read(
            r#"{"issues": [
                {"code": "B", "pointer": "/x", "severity": "error"},
                {"code": "A", "pointer": "/y", "severity": "error"},
                {"code": "B", "pointer": "/z", "severity": "error"},
                {"code": "W", "pointer": "/w", "severity": "warning"}]}"#,
        )
        .expect("reads");
        assert_eq!(case.error_codes(), vec!["A", "B"]);
    }

    /// A newer corpus cites decisions and codes this build does not know: the case still
    /// reads, and they are reported as written.
    #[test]
    fn unknown_catalogue_ids_are_kept_as_written() {
        let case = read(
            r#"{"decisions": ["D-FRAMES", "D-NEWER"],
                "issues": [{"code": "NEWER_CODE", "pointer": "/x", "severity": "error"}]}"#,
        )
        .expect("reads");
        let ids: Vec<&str> = case.decisions.iter().map(CatalogueId::id).collect();
        assert_eq!(ids, vec!["D-FRAMES", "D-NEWER"]);
        assert_eq!(case.decisions[0], CatalogueId::Known(Decision::Frames));
        assert_eq!(case.error_codes(), vec!["NEWER_CODE"]);
    }
}
