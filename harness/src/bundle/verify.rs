//! Checking a bundle: complete (every listed file there, nothing else), untampered (sizes and
//! hashes), internally consistent (every result follows from its checks, every report is what
//! the results render to, every case run has one result per implementation) and true to the
//! corpus it names (hash, case selection and case files recomputed from the corpus folder).
//!
//! Every problem found is a [`Failure`] with a stable [`BundleCode`]; reading goes on after a failure
//! wherever what follows does not depend on it, and nothing in a bundle can make it panic.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use super::corpus::{self, CorpusError};
use super::{CERTIFICATE, Certificate, EXPECTATIONS, FORMAT, FileEntry, INDEX, Index, REQUIRED};
use crate::case::{Corpus, safe_path};
use crate::report::{self, ndjson};
use crate::results::{Run, Verdict};
use crate::text::{is_sha256_hex, sha256_hex};

/// What a failed check is about; the codes are stable (scripts match them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BundleCode {
    /// A file of the bundle cannot be parsed, or is not in its required form.
    Malformed,
    /// A listed or required file is absent.
    MissingFile,
    /// A file is in the folder but not listed.
    ExtraFile,
    /// A file's size is not the listed one.
    SizeMismatch,
    /// A file's sha256 is not the listed one.
    HashMismatch,
    /// A result does not follow from its own lines, or disagrees with the certificate.
    ResultsInconsistent,
    /// A case run has no result (or two), or a result names a case not run.
    CasesMismatch,
    /// `summary.json` is not what `results.ndjson` renders to.
    SummaryMismatch,
    /// Another report is not what `results.ndjson` renders to.
    ReportMismatch,
    /// The corpus folder is not the one the certificate names.
    CorpusMismatch,
}

impl BundleCode {
    pub const ALL: [BundleCode; 10] = [
        BundleCode::Malformed,
        BundleCode::MissingFile,
        BundleCode::ExtraFile,
        BundleCode::SizeMismatch,
        BundleCode::HashMismatch,
        BundleCode::ResultsInconsistent,
        BundleCode::CasesMismatch,
        BundleCode::SummaryMismatch,
        BundleCode::ReportMismatch,
        BundleCode::CorpusMismatch,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            BundleCode::Malformed => "BUNDLE_MALFORMED",
            BundleCode::MissingFile => "BUNDLE_MISSING_FILE",
            BundleCode::ExtraFile => "BUNDLE_EXTRA_FILE",
            BundleCode::SizeMismatch => "BUNDLE_SIZE_MISMATCH",
            BundleCode::HashMismatch => "BUNDLE_HASH_MISMATCH",
            BundleCode::ResultsInconsistent => "BUNDLE_RESULTS_INCONSISTENT",
            BundleCode::CasesMismatch => "BUNDLE_CASES_MISMATCH",
            BundleCode::SummaryMismatch => "BUNDLE_SUMMARY_MISMATCH",
            BundleCode::ReportMismatch => "BUNDLE_REPORT_MISMATCH",
            BundleCode::CorpusMismatch => "BUNDLE_CORPUS_MISMATCH",
        }
    }
}

impl fmt::Display for BundleCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One failed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub code: BundleCode,
    /// The bundle file (or corpus file) concerned.
    pub path: String,
    pub message: String,
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.code, self.path, self.message)
    }
}

/// Where the corpus to check against comes from.
#[derive(Clone, Copy, Debug)]
pub enum CorpusSource<'a> {
    /// The folder given.
    Given(&'a Path),
    /// The path the certificate records.
    Recorded,
}

/// What a verification found.
#[derive(Clone, Debug, Default)]
pub struct Verification {
    pub failures: Vec<Failure>,
    /// Files listed in the index.
    pub files: usize,
    /// Cases the certificate lists.
    pub cases: usize,
}

/// The corpus to check against cannot be read: a usage problem, not a verdict on the bundle.
#[derive(Debug, thiserror::Error)]
#[error("cannot check against the corpus {path}: {source}")]
pub struct CorpusUnavailable {
    pub path: String,
    #[source]
    pub source: CorpusError,
}

#[derive(Default)]
struct FailureList {
    failures: Vec<Failure>,
}

impl FailureList {
    fn fail(&mut self, code: BundleCode, path: &str, message: impl Into<String>) {
        self.failures.push(Failure {
            code,
            path: path.to_owned(),
            message: message.into(),
        });
    }
}

/// Verify the bundle in `dir` against `source`.
pub fn verify(dir: &Path, source: CorpusSource<'_>) -> Result<Verification, CorpusUnavailable> {
    let mut found = FailureList::default();
    let mut outcome = Verification::default();
    let Some(index) = read_index(dir, &mut found) else {
        outcome.failures = found.failures;
        return Ok(outcome);
    };
    outcome.files = index.files.len();
    // The contents of the listed files that match their listing.
    let files = check_files(dir, &index, &mut found);
    let certificate = files.get(CERTIFICATE).and_then(|bytes| {
        match serde_json::from_slice::<Certificate>(bytes) {
            Ok(c) if c.format == FORMAT => Some(c),
            Ok(c) => {
                found.fail(
                    BundleCode::Malformed,
                    CERTIFICATE,
                    format!("format {:?}, expected {FORMAT:?}", c.format),
                );
                None
            }
            Err(e) => {
                found.fail(BundleCode::Malformed, CERTIFICATE, e.to_string());
                None
            }
        }
    });
    let run = files
        .get(report::NDJSON)
        .and_then(|bytes| read_results(bytes, &mut found));
    if let Some(run) = &run {
        check_reports(run, &files, &mut found);
        check_known_failures(run, &files, &mut found);
    }
    if let Some(c) = &certificate {
        outcome.cases = c.cases.len();
        check_certificate(c, &mut found);
        if let Some(run) = &run {
            check_results(c, run, &mut found);
        }
    }
    let corpus_root = match (source, &certificate) {
        (CorpusSource::Given(p), _) => Some(p.to_path_buf()),
        (CorpusSource::Recorded, Some(c)) => Some(super::recorded_corpus(dir, &c.corpus.path)),
        (CorpusSource::Recorded, None) => None,
    };
    if let (Some(root), Some(c)) = (corpus_root, &certificate) {
        check_corpus(&root, c, run.as_ref(), &mut found)?;
    }
    outcome.failures = found.failures;
    Ok(outcome)
}

/// `bundle.json`, parsed and in canonical form; `None` when nothing further can be checked.
fn read_index(dir: &Path, found: &mut FailureList) -> Option<Index> {
    let bytes = match std::fs::read(dir.join(INDEX)) {
        Ok(b) => b,
        Err(e) => {
            found.fail(BundleCode::MissingFile, INDEX, e.to_string());
            return None;
        }
    };
    let index: Index = match serde_json::from_slice(&bytes) {
        Ok(i) => i,
        Err(e) => {
            found.fail(BundleCode::Malformed, INDEX, e.to_string());
            return None;
        }
    };
    if index.format != FORMAT {
        found.fail(
            BundleCode::Malformed,
            INDEX,
            format!("format {:?}, expected {FORMAT:?}", index.format),
        );
        return None;
    }
    if index.render().as_bytes() != bytes.as_slice() {
        found.fail(
            BundleCode::Malformed,
            INDEX,
            "not in the canonical form `certify` writes (edited by hand?)",
        );
    }
    let mut previous: Option<&str> = None;
    for f in &index.files {
        if !safe_path(&f.path) || f.path == INDEX {
            found.fail(
                BundleCode::Malformed,
                INDEX,
                format!("{:?} is not a relative path inside the bundle", f.path),
            );
        }
        if !is_sha256_hex(&f.sha256) {
            found.fail(
                BundleCode::Malformed,
                INDEX,
                format!("{}: {:?} is not a sha256", f.path, f.sha256),
            );
        }
        if previous.is_some_and(|p| p >= f.path.as_str()) {
            found.fail(
                BundleCode::Malformed,
                INDEX,
                format!("{:?} is out of order or listed twice", f.path),
            );
        }
        previous = Some(f.path.as_str());
    }
    Some(index)
}

/// Sizes and hashes of the listed files, the required files, and files not listed. Returns the
/// contents of the listed files that match their listing.
fn check_files(dir: &Path, index: &Index, found: &mut FailureList) -> BTreeMap<String, Vec<u8>> {
    let mut good = BTreeMap::new();
    for f in index.files.iter().filter(|f| safe_path(&f.path)) {
        match listed_bytes(dir, f) {
            Ok(bytes) => {
                good.insert(f.path.clone(), bytes);
            }
            Err((code, message)) => found.fail(code, &f.path, message),
        }
    }
    let listed: BTreeSet<&str> = index.files.iter().map(|f| f.path.as_str()).collect();
    for r in REQUIRED {
        if !listed.contains(r) {
            found.fail(BundleCode::MissingFile, r, "a bundle must list it");
        }
    }
    match super::list_files(dir) {
        Ok(present) => {
            for p in present {
                if !listed.contains(p.as_str()) {
                    found.fail(
                        BundleCode::ExtraFile,
                        &p,
                        "in the bundle folder but not listed",
                    );
                }
            }
        }
        Err(e) => found.fail(BundleCode::Malformed, ".", e.to_string()),
    }
    good
}

/// The bytes of a listed file, or why they are not the ones listed.
fn listed_bytes(dir: &Path, f: &FileEntry) -> Result<Vec<u8>, (BundleCode, String)> {
    let full = dir.join(&f.path);
    let missing = |e: std::io::Error| (BundleCode::MissingFile, e.to_string());
    let size = |n: u64| {
        let message = format!("{n} bytes, listed as {}", f.size);
        (BundleCode::SizeMismatch, message)
    };
    let meta = std::fs::symlink_metadata(&full).map_err(missing)?;
    if !meta.file_type().is_file() {
        return Err((BundleCode::Malformed, "not a regular file".into()));
    }
    // The size is compared before the file is read, so a huge planted file is not loaded.
    if meta.len() != f.size {
        return Err(size(meta.len()));
    }
    let bytes = std::fs::read(&full).map_err(missing)?;
    if bytes.len() as u64 != f.size {
        return Err(size(bytes.len() as u64));
    }
    let sha = sha256_hex(&bytes);
    if sha != f.sha256 {
        let message = format!("sha256 {sha}, listed as {}", f.sha256);
        return Err((BundleCode::HashMismatch, message));
    }
    Ok(bytes)
}

/// `results.ndjson`, strictly: complete lines, a header first, a footer last, every check
/// line followed by the case line it belongs to.
fn read_results(bytes: &[u8], found: &mut FailureList) -> Option<Run> {
    let path = report::NDJSON;
    let Ok(text) = std::str::from_utf8(bytes) else {
        found.fail(BundleCode::Malformed, path, "not UTF-8");
        return None;
    };
    let Some(body) = text.strip_suffix('\n') else {
        found.fail(BundleCode::Malformed, path, "does not end with a newline");
        return None;
    };
    let mut lines = Vec::new();
    for (n, line) in body.split('\n').enumerate() {
        match serde_json::from_str::<ndjson::Line>(line) {
            Ok(l) => lines.push(l),
            Err(e) => {
                found.fail(BundleCode::Malformed, path, format!("line {}: {e}", n + 1));
                return None;
            }
        }
    }
    let last = lines.len().saturating_sub(1);
    let mut pending: Option<(String, String)> = None;
    for (n, line) in lines.iter().enumerate() {
        let at = |what: &str| format!("line {}: {what}", n + 1);
        match line {
            ndjson::Line::Header { .. } if n != 0 => {
                found.fail(
                    BundleCode::Malformed,
                    path,
                    at("a header after the first line"),
                );
                return None;
            }
            ndjson::Line::Footer { .. } if n != last => {
                found.fail(
                    BundleCode::Malformed,
                    path,
                    at("a footer before the last line"),
                );
                return None;
            }
            _ if n == 0 && !matches!(line, ndjson::Line::Header { .. }) => {
                found.fail(
                    BundleCode::Malformed,
                    path,
                    at("the first line is not the header"),
                );
                return None;
            }
            _ if n == last && !matches!(line, ndjson::Line::Footer { .. }) => {
                found.fail(
                    BundleCode::Malformed,
                    path,
                    "no footer: the run did not finish",
                );
                return None;
            }
            ndjson::Line::Check {
                implementation,
                case,
                ..
            } => {
                let key = (implementation.clone(), case.clone());
                if pending.as_ref().is_some_and(|p| *p != key) {
                    found.fail(
                        BundleCode::ResultsInconsistent,
                        path,
                        at("a check line of another case than the one before it"),
                    );
                }
                pending = Some(key);
            }
            ndjson::Line::Case { result } => {
                let before = pending.take();
                if before.is_some_and(|p| p != (result.implementation.clone(), result.case.clone()))
                {
                    found.fail(
                        BundleCode::ResultsInconsistent,
                        path,
                        at("a case line after check lines of another case"),
                    );
                }
            }
            _ => {}
        }
    }
    if lines.len() < 2 {
        found.fail(BundleCode::Malformed, path, "no header and footer");
        return None;
    }
    let stated = match lines.last() {
        Some(ndjson::Line::Footer {
            cases, by_status, ..
        }) => Some((*cases, by_status.clone())),
        _ => None,
    };
    // The lines are parsed once: the run is assembled from them as `ndjson::read` does.
    let mut log = ndjson::Log::default();
    let mut pending = Vec::new();
    for line in lines {
        log.push(line, &mut pending);
    }
    let run = log.run;
    if let Some((cases, by_status)) = stated
        && ndjson::footer(&run)
            != (ndjson::Line::Footer {
                cases,
                by_status,
                duration_ms: run.duration_ms,
            })
    {
        found.fail(
            BundleCode::ResultsInconsistent,
            path,
            "the footer's counts are not those of the case lines",
        );
    }
    for r in &run.results {
        let status = crate::check::case_status(&r.checks);
        if r.status != status {
            found.fail(
                BundleCode::ResultsInconsistent,
                path,
                format!(
                    "{} {}: status {}, its checks give {status}",
                    r.implementation, r.case, r.status
                ),
            );
        }
        let verdict = Verdict::of(r.status, r.known_failure.is_some());
        if r.verdict != verdict {
            found.fail(
                BundleCode::ResultsInconsistent,
                path,
                format!(
                    "{} {}: verdict {}, its status gives {}",
                    r.implementation,
                    r.case,
                    r.verdict.as_str(),
                    verdict.as_str()
                ),
            );
        }
    }
    Some(run)
}

/// Every known failure a result carries is the reason the bundled [`EXPECTATIONS`] gives for
/// its case (none without the file): a result cannot be excused by an entry the run did not use.
fn check_known_failures(run: &Run, files: &BTreeMap<String, Vec<u8>>, found: &mut FailureList) {
    let expectations = match files.get(EXPECTATIONS) {
        None => crate::known_failures::KnownFailures::default(),
        Some(bytes) => {
            let parsed = std::str::from_utf8(bytes)
                .map_err(|e| e.to_string())
                .and_then(crate::known_failures::KnownFailures::parse);
            match parsed {
                Ok(e) => e,
                Err(e) => {
                    found.fail(BundleCode::Malformed, EXPECTATIONS, e);
                    return;
                }
            }
        }
    };
    for r in &run.results {
        let want = expectations.lookup(&r.case).map(|k| k.reason.as_str());
        if r.known_failure.as_deref() != want {
            found.fail(
                BundleCode::ResultsInconsistent,
                report::NDJSON,
                format!(
                    "{} {}: known failure {:?}, {EXPECTATIONS} gives {want:?}",
                    r.implementation, r.case, r.known_failure
                ),
            );
        }
    }
}

/// Every report is a pure function of the run: render each again and compare bytes.
fn check_reports(run: &Run, files: &BTreeMap<String, Vec<u8>>, found: &mut FailureList) {
    for (name, text) in report::summaries(run) {
        let Some(bytes) = files.get(name) else {
            continue;
        };
        let code = if name == report::SUMMARY_JSON {
            BundleCode::SummaryMismatch
        } else {
            BundleCode::ReportMismatch
        };
        match text {
            Ok(t) if t.as_bytes() == bytes.as_slice() => {}
            Ok(_) => found.fail(
                code,
                name,
                format!("not what {} renders to", report::NDJSON),
            ),
            Err(e) => found.fail(
                code,
                name,
                format!("the results cannot be rendered to it: {e}"),
            ),
        }
    }
}

/// The certificate's own invariants.
fn check_certificate(c: &Certificate, found: &mut FailureList) {
    if !is_sha256_hex(&c.corpus.hash) {
        found.fail(
            BundleCode::Malformed,
            CERTIFICATE,
            "the corpus hash is not a sha256",
        );
    }
    if c.implementations.is_empty() {
        found.fail(BundleCode::Malformed, CERTIFICATE, "no implementation");
    }
    if !c.cases.windows(2).all(|w| w[0].id < w[1].id) {
        found.fail(
            BundleCode::Malformed,
            CERTIFICATE,
            "cases are not sorted by id, or listed twice",
        );
    }
}

/// The results against the certificate: the same implementations, one result per case run
/// and implementation, no other.
fn check_results(c: &Certificate, run: &Run, found: &mut FailureList) {
    let path = report::NDJSON;
    if run.implementations != c.implementations {
        found.fail(
            BundleCode::ResultsInconsistent,
            path,
            "the header's implementations are not the certificate's",
        );
    }
    let cases: BTreeSet<&str> = c.cases.iter().map(|d| d.id.as_str()).collect();
    for imp in &c.implementations {
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for r in run.of(&imp.name) {
            *seen.entry(r.case.as_str()).or_default() += 1;
        }
        for id in &cases {
            match seen.get(id) {
                None => found.fail(
                    BundleCode::CasesMismatch,
                    path,
                    format!("{}: no result for the case {id}", imp.name),
                ),
                Some(n) if *n > 1 => found.fail(
                    BundleCode::CasesMismatch,
                    path,
                    format!("{}: {n} results for the case {id}", imp.name),
                ),
                Some(_) => {}
            }
        }
        for id in seen.keys().filter(|id| !cases.contains(*id)) {
            found.fail(
                BundleCode::CasesMismatch,
                path,
                format!(
                    "{}: a result for {id}, a case the certificate does not list",
                    imp.name
                ),
            );
        }
    }
    let names: BTreeSet<&str> = c.implementations.iter().map(|i| i.name.as_str()).collect();
    for r in &run.results {
        if !names.contains(r.implementation.as_str()) {
            found.fail(
                BundleCode::CasesMismatch,
                path,
                format!(
                    "a result of {}, an implementation not certified",
                    r.implementation
                ),
            );
        }
    }
}

/// The corpus folder against the certificate: the corpus hash, the cases the filter selects,
/// every case's files, and the case metadata copied into the results.
fn check_corpus(
    root: &Path,
    c: &Certificate,
    run: Option<&Run>,
    found: &mut FailureList,
) -> Result<(), CorpusUnavailable> {
    let shown = root.display().to_string();
    let unavailable = |source: CorpusError| CorpusUnavailable {
        path: shown.clone(),
        source,
    };
    let hashes = corpus::ManifestHashes::read(root).map_err(unavailable)?;
    let entries = Corpus::open(root).map_err(|e| {
        unavailable(CorpusError::Unreadable {
            path: shown.clone(),
            message: e.to_string(),
        })
    })?;
    let hash = hashes.corpus_hash();
    if hash != c.corpus.hash {
        found.fail(
            BundleCode::CorpusMismatch,
            &shown,
            format!(
                "corpus hash {hash}, the certificate's is {} ({} cases in the manifest, {} certified)",
                c.corpus.hash,
                hashes.0.len(),
                c.corpus.manifest_cases
            ),
        );
    }
    let selected = entries.filtered(c.corpus.filter.as_deref());
    let by_id: BTreeMap<&str, &crate::case::CaseEntry> =
        selected.iter().map(|e| (e.id.as_str(), *e)).collect();
    let certified: BTreeMap<&str, &corpus::CaseDigest> =
        c.cases.iter().map(|d| (d.id.as_str(), d)).collect();
    for id in by_id.keys().filter(|id| !certified.contains_key(*id)) {
        found.fail(
            BundleCode::CorpusMismatch,
            &shown,
            format!("the filter selects {id}, which the certificate does not list"),
        );
    }
    for (id, digest) in &certified {
        let Some(entry) = by_id.get(id) else {
            found.fail(
                BundleCode::CorpusMismatch,
                &shown,
                format!("the certificate lists {id}, which the corpus and filter do not select"),
            );
            continue;
        };
        let Some(sha) = hashes.0.get(*id) else {
            continue;
        };
        match corpus::case_digest(root, entry, sha) {
            Ok(d) if d == **digest => {}
            Ok(d) => {
                for (file, got) in d.files.iter().map(|f| (&f.path, &f.sha256)) {
                    let want = digest.files.iter().find(|f| &f.path == file);
                    if want.is_none_or(|w| &w.sha256 != got) {
                        found.fail(
                            BundleCode::CorpusMismatch,
                            &root.join(file).display().to_string(),
                            format!("not the file of {id} the certificate hashed"),
                        );
                    }
                }
                if d.files.len() != digest.files.len() {
                    found.fail(
                        BundleCode::CorpusMismatch,
                        &shown,
                        format!(
                            "{id} has {} files, the certificate {}",
                            d.files.len(),
                            digest.files.len()
                        ),
                    );
                }
            }
            Err(e) => found.fail(BundleCode::CorpusMismatch, &shown, e.to_string()),
        }
    }
    if let Some(run) = run {
        for r in &run.results {
            let Some(e) = by_id.get(r.case.as_str()) else {
                continue;
            };
            if r.tier != e.tier
                || r.profile != e.profile_label()
                || r.area != e.area
                || r.features != e.features
            {
                found.fail(
                    BundleCode::ResultsInconsistent,
                    report::NDJSON,
                    format!(
                        "{} {}: tier, profile, area or features are not the corpus's",
                        r.implementation, r.case
                    ),
                );
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_prefixed() {
        let names: BTreeSet<&str> = BundleCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), BundleCode::ALL.len());
        assert!(names.iter().all(|n| n.starts_with("BUNDLE_")));
    }

    #[test]
    fn only_plain_relative_paths_are_safe() {
        assert!(safe_path("results.ndjson"));
        assert!(safe_path("a/b.txt"));
        for bad in [
            "",
            "/etc/passwd",
            "../x",
            "a/../b",
            "a//b",
            "./a",
            "a\\b",
            "a/",
        ] {
            assert!(!safe_path(bad), "{bad}");
        }
    }

    #[test]
    fn a_folder_without_an_index_is_a_missing_file_not_a_panic() {
        let dir = tempfile::tempdir().expect("temp dir");
        let o = verify(dir.path(), CorpusSource::Recorded).expect("no corpus needed");
        assert_eq!(o.failures.len(), 1);
        assert_eq!(o.failures[0].code, BundleCode::MissingFile);
        std::fs::write(dir.path().join(INDEX), "{\"format\": 1}").expect("write");
        let o = verify(dir.path(), CorpusSource::Recorded).expect("no corpus needed");
        assert_eq!(o.failures[0].code, BundleCode::Malformed);
    }
}
