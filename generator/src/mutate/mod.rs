//! One-defect mutators: each takes a valid case and introduces exactly ONE defect, returning
//! the catalogue code the reference must report and the JSON pointer where.
//!
//! Every catalogue code has at least one mutator (`FILE_TOO_LARGE` excepted: a 512 MiB file
//! does not belong in a corpus). File-level codes rewrite bytes (broken JSON, GLB), buffer codes
//! add buffers with bad URIs or lengths, and the rest edit the JSON at one place.

mod core;
mod file;
pub(crate) mod json;
mod khr;
mod khr25;
mod omi;
mod omi_current;
mod vrm;
mod vrm1;

use reference::issue::Code;
use reference::profile::Profile;

use crate::case::{Case, ExpectedIssue};

pub use json::*;

/// A mutator: edits a valid case in place and returns the pointer of the defect, or `None`
/// when the case has nothing it can break (the caller then tries another base case).
#[derive(Clone, Copy)]
pub struct Mutator {
    pub code: Code,
    /// Stable name, used in case ids.
    pub name: &'static str,
    /// The profile of the valid case it needs.
    pub profile: Profile,
    /// A feature-tag prefix the base case should carry (a hint for picking bases).
    pub needs: Option<&'static str>,
    /// Edits a copy of the valid case.
    pub apply: fn(&mut Case) -> Option<String>,
}

impl std::fmt::Debug for Mutator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mutator")
            .field("code", &self.code)
            .field("name", &self.name)
            .finish()
    }
}

impl Mutator {
    /// Apply to a copy of `base`: the mutated case expects exactly this mutator's issue.
    pub fn mutate(&self, base: &Case) -> Option<Case> {
        let mut case = base.clone();
        let pointer = (self.apply)(&mut case)?;
        case.expected = vec![ExpectedIssue::new(self.code, pointer)];
        case.area = "invalid".into();
        case.poses.clear();
        case.features
            .insert(format!("invalid.{}", self.code.id().to_ascii_lowercase()));
        case.description = format!(
            "One defect ({}): {} Base: {}",
            self.code.id(),
            self.code.rule(),
            base.description
        );
        case.spec = self.code.spec_reference().to_owned();
        // No profile applies when the core document cannot be read, or has no extension.
        if UNREADABLE.contains(&self.code) {
            case.profile = None;
        }
        Some(case)
    }
}

/// Every mutator, in catalogue order of their codes.
pub fn all() -> Vec<Mutator> {
    let mut v = Vec::new();
    v.extend(file::mutators());
    v.extend(core::mutators());
    v.extend(khr::mutators());
    v.extend(khr25::mutators());
    v.extend(omi::mutators());
    v.extend(omi_current::mutators());
    v.extend(vrm::mutators());
    v.extend(vrm1::mutators());
    let order = |c: Code| Code::ALL.iter().position(|x| *x == c).unwrap_or(usize::MAX);
    v.sort_by_key(|m| (order(m.code), m.name));
    v
}

/// The mutator the living corpus (`Edition::V2`) uses in place of `m` where a rule changed
/// after corpus/v1 was released (v1 keeps its cases): an unknown enum value is no longer an
/// error (issue 36), so GLTF_VALUE's defect is a child listed twice.
pub fn for_edition(m: &Mutator, edition: crate::edition::Edition) -> Mutator {
    match (edition, m.name) {
        (crate::edition::Edition::V2, "sampler-filter-unknown") => Mutator {
            name: "child-listed-twice",
            apply: core::child_listed_twice,
            ..*m
        },
        _ => *m,
    }
}

/// Codes after which the reference reads no profile.
const UNREADABLE: &[Code] = &[
    Code::JsonSyntax,
    Code::GlbHeader,
    Code::GlbChunk,
    Code::GltfSchema,
    Code::ProfileNone,
];

/// Codes no mutator produces on purpose: limits of the reader that need files no corpus
/// should hold (over 512 MiB, millions of JSON values) or that git cannot hold (a FIFO, a
/// device; a folder named by a URI is a case in `reference/tests/validation/core`).
///
/// The core codes of issue 36 are exempt too: their files are in
/// `reference/tests/validation/core` and `reference/tests/core-gltf`, since the frozen
/// corpus/v1 cannot gain a case and every code of scope `all` would need one there. Warnings
/// and infos (`GLB_EXTRA_DATA`, `GLTF_VALUE_NOT_IN_LIST`, `URI_NOT_RELATIVE`,
/// `DATA_URI_IN_GLB`, `BUFFER_NO_DATA`) are no one-defect invalid case anyway.
pub const EXEMPT: &[Code] = &[
    Code::FileTooLarge,
    Code::NotARegularFile,
    Code::DocumentTooLarge,
    Code::GlbExtraData,
    Code::GltfValueNotInList,
    Code::UriNotRelative,
    Code::DataUriInGlb,
    Code::BufferNoData,
    Code::AccessorDataUnavailable,
];
