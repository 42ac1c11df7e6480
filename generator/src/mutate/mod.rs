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
mod mutator;
mod omi;
mod omi24;
mod physics;
mod vrm;
mod vrm1;

use reference::issue::Code;

use crate::plan::Edition;

pub use json::*;
pub use mutator::Mutator;

/// Every mutator, in catalogue order of their codes.
pub fn all() -> Vec<Mutator> {
    let mut v = Vec::new();
    v.extend(file::mutators());
    v.extend(core::mutators());
    v.extend(khr::mutators());
    v.extend(khr25::mutators());
    v.extend(omi::mutators());
    v.extend(omi24::mutators());
    v.extend(vrm::mutators());
    v.extend(vrm1::mutators());
    let order = |c: Code| Code::ALL.iter().position(|x| *x == c).unwrap_or(usize::MAX);
    v.sort_by_key(|m| (order(m.code), m.name));
    v
}

/// The mutator the living corpus (`Edition::V2`) uses in place of `m` where a rule changed
/// after corpus/v1 was released (v1 keeps its cases): an unknown enum value is no longer an
/// error (issue 36), so GLTF_VALUE's defect is a child listed twice.
pub fn for_edition(m: &Mutator, edition: Edition) -> Mutator {
    match (edition, m.name) {
        (Edition::V2, "sampler-filter-unknown") => Mutator {
            name: "child-listed-twice",
            apply: core::child_listed_twice,
            ..*m
        },
        _ => *m,
    }
}

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
