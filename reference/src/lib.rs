//! # physics-cts reference
//!
//! The glTF physics specifications as code. It reads a document under one profile into the
//! canonical [`scene::Scene`], validates it against a catalogue of stable issue codes
//! ([`issue::Code`]), and (in later modules) computes what a conforming importer must end up
//! with. It is the only place where spec semantics live; the generator and the harness ask it.
//!
//! ```
//! let gltf = br#"{"asset":{"version":"2.0"},"nodes":[{}]}"#;
//! let reading = reference::read_bytes(gltf, None, None);
//! assert!(reading.profile.is_none());
//! assert!(!reading.has_errors());
//! ```

#[cfg(test)]
mod any_json;
pub mod case;
pub mod check_id;
pub mod constraints;
pub mod decision;
pub mod document;
pub mod expect;
pub mod ext;
pub mod feature;
pub mod issue;
pub mod khr;
pub mod math;
pub mod metrics;
pub mod omi;
pub mod omi24;
pub mod poses;
pub mod profile;
pub(crate) mod rigid;
pub mod scene;
pub mod tier;
pub mod vrm;
pub mod vrm1;

use std::path::Path;

use serde::Serialize;

use crate::document::Document;
use crate::issue::{Code, Issue, Issues, Severity};
use crate::profile::{KhrEvidence, Profile};
use crate::scene::Scene;

/// The result of reading one document.
#[derive(Clone, Debug, Serialize)]
pub struct Reading {
    /// The profile the document was read under; `None`: no physics or constraint extension.
    pub profile: Option<Profile>,
    /// The canonical scene; `None` when the core document could not be read, or no profile applies.
    #[serde(skip)]
    pub scene: Option<Scene>,
    /// Every issue found, in document order of discovery.
    pub issues: Vec<Issue>,
    /// Whether the document's content dated its revision within its family ([D-KHR-REVISION],
    /// [D-OMI-REVISION]); `false` when nothing did and the newest was taken, or when no
    /// physics or constraint family applies.
    #[serde(skip)]
    pub dated: bool,
}

impl Reading {
    pub fn has_errors(&self) -> bool {
        self.issues.iter().any(|i| i.severity == Severity::Error)
    }

    /// Codes of every issue of severity error.
    pub fn error_codes(&self) -> Vec<Code> {
        self.issues
            .iter()
            .filter(|i| i.severity == Severity::Error)
            .map(|i| i.code)
            .collect()
    }
}

/// Why a file could not be read at all (a usage or I/O problem, not a validation issue).
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// Read and validate the file at `path` (`.gltf` or `.glb`); relative buffer URIs resolve
/// against its folder. `forced` reads it under that profile instead of the detected one.
/// Only a regular file is read (`NOT_A_REGULAR_FILE`), and at most
/// [`document::MAX_FILE_SIZE`] bytes of it (`FILE_TOO_LARGE`), whatever length it reports.
pub fn read_path(path: &Path, forced: Option<Profile>) -> Result<Reading, ReadError> {
    use document::file::FileError;
    let io = |source| ReadError::Io {
        path: path.display().to_string(),
        source,
    };
    let refused = |issue: Issue| Reading {
        profile: None,
        scene: None,
        issues: vec![issue],
        dated: false,
    };
    // One open and one fstat (path lookups are a visible part of validating small files).
    let bytes = match document::file::read_regular(path, document::MAX_FILE_SIZE) {
        Ok(bytes) => bytes,
        Err(FileError::Io(e)) => return Err(io(e)),
        Err(FileError::NotRegular { kind }) => {
            return Ok(refused(
                Issue::new(Code::NotARegularFile, "")
                    .arg("path", path.display())
                    .arg("kind", kind),
            ));
        }
        Err(FileError::TooLarge { size, limit }) => {
            return Ok(refused(
                Issue::new(Code::FileTooLarge, "")
                    .arg("size", size)
                    .arg("limit", limit),
            ));
        }
    };
    Ok(read_bytes(&bytes, path.parent(), forced))
}

/// Read and validate a document held in memory. `base_dir` resolves relative buffer URIs
/// (`None`: only data URIs and GLB chunks are available).
pub fn read_bytes(bytes: &[u8], base_dir: Option<&Path>, forced: Option<Profile>) -> Reading {
    let mut issues = Issues::default();
    let doc = Document::load(bytes, base_dir, &mut issues);
    read_document(doc, forced, issues)
}

/// [`read_bytes`] of a `.gltf` document already parsed, read in place (no copy): `json` read as
/// the JSON text it stands for. A writer that has the value of the text it wrote need not parse
/// it again: with serde_json's `float_roundtrip`, parsing that text gives back the same value.
pub fn read_tree(
    json: &serde_json::Value,
    base_dir: Option<&Path>,
    forced: Option<Profile>,
) -> Reading {
    let mut issues = Issues::default();
    let doc = Document::from_tree(json, base_dir, &mut issues);
    read_document(doc, forced, issues)
}

fn read_document(
    doc: Option<Document<'_>>,
    forced: Option<Profile>,
    mut issues: Issues,
) -> Reading {
    let Some(doc) = doc else {
        return Reading {
            profile: None,
            scene: None,
            issues: issues.into_vec(),
            dated: false,
        };
    };
    doc.check_extensions(&mut issues);
    doc.check_layout(&mut issues);
    let (nodes, roots) = document::read_nodes(&doc, &mut issues);
    let keys = doc.extension_keys();
    // The revisions of a family share their keys: the content tells them apart
    // [D-KHR-REVISION], [D-OMI-REVISION].
    let mut detected = Profile::detect(keys.iter().copied());
    let mut undated = false;
    if let Some(family) = detected.filter(|p| p.is_khr()) {
        let evidence = khr::evidence(&doc, &keys);
        detected = Some(family.refine_khr(evidence));
        undated = evidence == KhrEvidence::default();
    }
    if detected == Some(Profile::Omi2023)
        && let Some(d) = omi24::detect(&doc)
    {
        detected = Some(d.profile);
        undated = !d.decided;
    }
    let profile = forced.or(detected);
    let Some(profile) = profile else {
        issues.push(Issue::new(Code::ProfileNone, ""));
        return Reading {
            profile: None,
            scene: None,
            issues: issues.into_vec(),
            dated: false,
        };
    };
    let mut others: Vec<&str> = Profile::ALL
        .into_iter()
        // Revisions of one family share keys: they are one profile family, not a mix.
        .filter(|p| p.extensions() != profile.extensions() && !(p.is_khr() && profile.is_khr()))
        .filter(|p| keys.iter().any(|k| Profile::of_extension(k) == Some(*p)))
        .map(Profile::id)
        .collect();
    others.dedup();
    if !others.is_empty() {
        issues.push(
            Issue::new(Code::ProfileMixed, "/extensionsUsed")
                .arg("others", others.join(", "))
                .arg("profile", profile),
        );
    }
    let mut scene = Scene::new(profile, nodes, roots);
    match profile {
        Profile::Khr2024Draft | Profile::Khr2025 | Profile::Khr2026 => {
            if let Some(revision) = khr::Revision::of(profile) {
                khr::read(&doc, revision, &mut scene, &mut issues);
            }
        }
        Profile::Omi2023 => omi::read(&doc, &mut scene, &mut issues),
        Profile::VrmcConstraintsDraft => vrm::read(&doc, &mut scene, &mut issues),
        Profile::Omi2024 | Profile::Omi2025 => {
            if let Some(convention) = omi24::Convention::of(profile) {
                omi24::read(&doc, &mut scene, convention, &mut issues);
            }
            if forced.is_none() && undated {
                omi24::detect::warn_ambiguous(&doc, &mut issues);
            }
        }
        Profile::VrmcNodeConstraint10 => vrm1::read(&doc, &mut scene, &mut issues),
    }
    scene.keep_default_scene();
    Reading {
        profile: Some(profile),
        scene: Some(scene),
        issues: issues.into_vec(),
        dated: !undated,
    }
}
