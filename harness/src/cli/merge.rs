//! `physics-cts merge --out DIR SHARD...`: join the reports of a run split across machines
//! (`run --shard K/N` on each) into the reports one run writes (timings aside). The shards
//! must be every part 1..N of one run: the same corpus, implementations, command and filter,
//! each finished; anything else is refused with its own exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use super::diff;
use crate::exit::{self, Coded};
use crate::report::{self, ndjson};
use crate::results::Run;

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The merged reports' folder.
    #[arg(long)]
    pub out: PathBuf,
    /// The shards' report folders (or their results.ndjson), in any order.
    #[arg(required = true)]
    pub shards: Vec<PathBuf>,
}

/// The key and shard `K/N` of a log, or why it is not a shard.
fn shard_of(
    path: &std::path::Path,
    log: &ndjson::Log,
) -> Result<(ndjson::RunKey, usize, usize), Coded> {
    let not = |why: &str| Coded::new(exit::NOT_A_RUN, format!("{}: {why}", path.display()));
    let key = log
        .key
        .clone()
        .ok_or_else(|| not("the log has no run key (written by an older version)"))?;
    let shard = key
        .shard
        .as_deref()
        .ok_or_else(|| not("not a shard (run without --shard K/N)"))?;
    let parsed = super::run::Shard::parse(shard).map_err(|e| not(&e))?;
    if !log.finished {
        return Err(not(
            "the shard's run did not finish (no footer): resume it first",
        ));
    }
    Ok((key, parsed.k, parsed.n))
}

/// Join finished shard logs into one run, sorted as one run sorts its results (implementation
/// order, then case id); the shards must be parts 1..N of one run.
pub fn merge(logs: &[(PathBuf, ndjson::Log)]) -> Result<(Run, ndjson::RunKey), Coded> {
    let mut parts = Vec::new();
    for (path, log) in logs {
        parts.push((path, log, shard_of(path, log)?));
    }
    let Some((first_path, first, (key, _, n))) = parts.first().cloned() else {
        return Err(Coded::new(exit::USAGE, "merge needs at least one shard"));
    };
    let one_run = ndjson::RunKey {
        shard: None,
        ..key.clone()
    };
    let mut seen = vec![false; n];
    for (path, _, (k2, k, n2)) in &parts {
        let theirs = ndjson::RunKey {
            shard: None,
            ..k2.clone()
        };
        if *n2 != n || theirs != one_run {
            let why = one_run
                .mismatch(&theirs)
                .unwrap_or_else(|| format!("split in {n2} parts, not {n}"));
            return Err(Coded::new(
                exit::OTHER_CORPUS,
                format!(
                    "{} and {} are not shards of one run: {why}",
                    first_path.display(),
                    path.display()
                ),
            ));
        }
        if std::mem::replace(&mut seen[*k - 1], true) {
            return Err(Coded::new(
                exit::USAGE,
                format!("shard {k}/{n} is given twice ({})", path.display()),
            ));
        }
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| !**s)
        .map(|(i, _)| format!("{}/{n}", i + 1))
        .collect();
    if !missing.is_empty() {
        return Err(Coded::new(
            exit::USAGE,
            format!("shard(s) {} missing", missing.join(", ")),
        ));
    }
    let order: Vec<&str> = first
        .run
        .implementations
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    let mut results: Vec<_> = parts
        .iter()
        .flat_map(|(_, l, _)| l.run.results.iter().cloned())
        .collect();
    results.sort_by(|a, b| {
        let rank = |name: &str| order.iter().position(|o| *o == name);
        (rank(&a.implementation), &a.case).cmp(&(rank(&b.implementation), &b.case))
    });
    let run = Run {
        suite: first.run.suite.clone(),
        corpus: first.run.corpus.clone(),
        implementations: first.run.implementations.clone(),
        results,
        duration_ms: parts.iter().map(|(_, l, _)| l.run.duration_ms).sum(),
    };
    Ok((run, one_run))
}

pub fn run(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let mut logs = Vec::new();
    for p in &args.shards {
        logs.push((p.clone(), diff::read(p)?));
    }
    let (run, key) = merge(&logs)?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let mut w = ndjson::Writer::new(Vec::new());
    let mut lines = vec![ndjson::keyed_header(
        &run.suite,
        &run.corpus,
        &run.implementations,
        Some(key),
    )];
    for r in &run.results {
        lines.extend(ndjson::case_lines(r));
    }
    lines.push(ndjson::footer(&run));
    for l in &lines {
        w.line(l)?;
    }
    let log = args.out.join(report::NDJSON);
    std::fs::write(&log, w.into_inner()).with_context(|| format!("writing {}", log.display()))?;
    report::write_summaries(&args.out, &run)
        .with_context(|| format!("writing reports into {}", args.out.display()))?;
    let done = super::run::Done {
        run,
        out: args.out.clone(),
        known_failures: Vec::new(),
    };
    Ok(super::run::conclude(&done))
}
