//! `physics-cts diff OLD NEW`: what changed between two runs (report folders or their
//! `results.ndjson`): fixed, broken, new crashes. Exit 1 when something broke or crashes now;
//! an input that is not a run log, or two runs of different corpora, are refused with their own
//! exit codes (a diff against garbage would list every case as removed and pass).

use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::exit::{self, Coded};
use crate::report::{self, diff::Diff, ndjson};

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    /// The earlier run: a report folder or its results.ndjson.
    pub old: PathBuf,
    /// The later run.
    pub new: PathBuf,
}

/// Read the run log at `path` (a report folder or the log itself); not a log is
/// [`exit::NOT_A_RUN`].
pub fn read(path: &Path) -> anyhow::Result<ndjson::Log> {
    let file = if path.is_dir() {
        path.join(report::NDJSON)
    } else {
        path.to_path_buf()
    };
    let not_a_run = |why: String| Coded::new(exit::NOT_A_RUN, format!("{}: {why}", file.display()));
    let f = std::fs::File::open(&file).map_err(|e| {
        not_a_run(format!(
            "cannot open the run log ({})",
            crate::text::os_error(&e)
        ))
    })?;
    let log = ndjson::read_log(BufReader::new(f))
        .map_err(|e| not_a_run(format!("not a run log: {e}")))?;
    if !log.header {
        return Err(not_a_run(
            "not a run log: no header line (an empty file, or not a results.ndjson)".into(),
        )
        .into());
    }
    Ok(log)
}

/// The corpus of a log, as far as it says: the hash of the selected cases and the filter
/// (logs of older versions say nothing).
fn corpus_of(log: &ndjson::Log) -> Option<(&str, Option<&str>)> {
    log.key
        .as_ref()
        .map(|k| (k.corpus_sha256.as_str(), k.filter.as_deref()))
}

/// Refuse two runs of different corpora ([`exit::OTHER_CORPUS`]): a case id names another scene
/// in another corpus. The whole corpus's hash decides when both logs carry it; logs of older
/// versions carry only the hash of the selected cases, comparable when the filters are equal.
pub fn same_corpus(old: &ndjson::Log, new: &ndjson::Log) -> Result<(), Coded> {
    let whole = |l: &ndjson::Log| l.key.as_ref().and_then(|k| k.corpus_hash.clone());
    if let (Some(a), Some(b)) = (whole(old), whole(new)) {
        return if a == b {
            Ok(())
        } else {
            Err(Coded::new(
                exit::OTHER_CORPUS,
                format!(
                    "the runs are of different corpora (corpus hash {a} in the old run, {b} in the new): case ids name other scenes"
                ),
            ))
        };
    }
    match (corpus_of(old), corpus_of(new)) {
        (Some((a, fa)), Some((b, fb))) if fa == fb && a != b => Err(Coded::new(
            exit::OTHER_CORPUS,
            format!(
                "the runs are of different corpora (corpus sha256 {a} in the old run, {b} in the new, both with filter {})",
                fa.map_or_else(|| "none".to_owned(), |f| format!("{f:?}"))
            ),
        )),
        (Some(_), Some(_)) => Ok(()),
        _ => {
            eprintln!(
                "physics-cts: warning: a log without a run key (an older version's): cannot tell whether the runs share a corpus"
            );
            Ok(())
        }
    }
}

pub fn run(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let (old, new) = (read(&args.old)?, read(&args.new)?);
    same_corpus(&old, &new)?;
    let d = Diff::of(&old.run, &new.run);
    print!("{}", d.render());
    Ok(if d.regressed() {
        ExitCode::from(exit::FAILURES)
    } else {
        ExitCode::SUCCESS
    })
}
