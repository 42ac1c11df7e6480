//! Known failures of one implementation: `harness/expectations/<impl>.toml`, a list of case
//! ids or globs, each with the reason (the engine's limitation or our decision). A listed case
//! that fails is an expected failure (reported, not failing); one that passes is reported as an
//! unexpected pass, so the file cannot rot.
//!
//! ```toml
//! [[known]]
//! case = "khr/gen/joint/00012"
//! reason = "Rapier couples at most two angular axes"
//! ```

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::glob;

/// One entry of an expectations file.
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
pub struct Expectations {
    #[serde(default)]
    pub known: Vec<KnownFailure>,
}

/// Why an expectations file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExpectationsError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Format { path: String, message: String },
}

impl Expectations {
    /// Parse the TOML text; every entry needs a non-empty case and reason.
    pub fn parse(text: &str) -> Result<Expectations, String> {
        let e: Expectations = toml::from_str(text).map_err(|e| e.to_string())?;
        if let Some(bad) = e
            .known
            .iter()
            .find(|k| k.case.trim().is_empty() || k.reason.trim().is_empty())
        {
            return Err(format!("entry {:?} needs a case and a reason", bad.case));
        }
        Ok(e)
    }

    /// The file of `implementation`'s known failures in `dir`: `<dir>/<implementation>.toml`.
    pub fn path(dir: &Path, implementation: &str) -> PathBuf {
        dir.join(format!("{implementation}.toml"))
    }

    /// Read [`Expectations::path`]; no file means no known failures.
    pub fn load(dir: &Path, implementation: &str) -> Result<Expectations, ExpectationsError> {
        let path = Expectations::path(dir, implementation);
        match std::fs::read_to_string(&path) {
            Ok(text) => Expectations::parse(&text).map_err(|message| ExpectationsError::Format {
                path: path.display().to_string(),
                message,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Expectations::default()),
            Err(source) => Err(ExpectationsError::Io {
                path: path.display().to_string(),
                source,
            }),
        }
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

    #[test]
    fn lookup_by_id_and_glob() {
        let e = Expectations::parse(TEXT).expect("parses");
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
        assert!(Expectations::parse("[[known]]\ncase = \"a\"\nreason = \" \"\n").is_err());
        assert!(Expectations::parse("[[known]]\ncase = \"a\"\n").is_err());
        assert!(
            Expectations::parse("[[known]]\ncase = \"a\"\nreason = \"r\"\nstatus = \"x\"\n")
                .is_err()
        );
        assert_eq!(
            Expectations::parse("").expect("empty is fine"),
            Expectations::default()
        );
    }

    #[test]
    fn a_missing_file_is_no_known_failures() {
        let e = Expectations::load(Path::new("/nonexistent-dir"), "nobody").expect("fine");
        assert!(e.known.is_empty());
    }
}
