//! `physics-cts run` and `diff` as processes, on the outcomes that must not look like success:
//! a run that scored nothing (exit 4), a console summary that shows every status and says how
//! many failures it left out, known failures tied to their corpus (found in it, named
//! explicitly, refused for another corpus: exit 7), the default output folder (git-ignored),
//! and `diff` refusing what is not a run (exit 5) or a run of another corpus (exit 6). The
//! implementation is the misbehaving stdio fake (`tests/fakes/misbehave.py`): the stem of a
//! case's file picks its behaviour.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use misbehave::{python, report, script};
use physics_cts::exit;
use scratch::scratch;

mod misbehave;
mod scratch;

const BIN: &str = env!("CARGO_BIN_EXE_physics-cts");

/// A fresh folder `name` and the path of its corpus in it, when python3 runs here.
fn folder(name: &str) -> Option<(PathBuf, PathBuf)> {
    python()?;
    let dir = scratch(name);
    let corpus = dir.join("corpus");
    Some((dir, corpus))
}

/// A corpus of one required case per stem.
fn write_corpus(dir: &Path, stems: &[&str]) {
    misbehave::write_corpus(dir, stems, |_| "required");
}

fn run(cwd: &Path, corpus: &Path, extra: &[&str]) -> Output {
    Command::new(BIN)
        .current_dir(cwd)
        .args(["run", "--impl", "stdio", "--corpus"])
        .arg(corpus)
        .args(extra)
        .arg("--")
        .arg("python3")
        .arg(script())
        .output()
        .expect("runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn corpus_hash(corpus: &Path) -> String {
    physics_cts::known_failures::corpus_hash(corpus).expect("hash")
}

#[test]
fn a_run_that_scored_nothing_is_its_own_error() {
    let Some((dir, corpus)) = folder("nothing") else {
        return;
    };
    write_corpus(&corpus, &["refuse", "refuse", "refuse"]);
    let o = run(&dir, &corpus, &["--out", "out"]);
    assert_eq!(
        o.status.code(),
        Some(i32::from(exit::NOTHING_SCORED)),
        "{o:?}"
    );
    let err = text(&o.stderr);
    assert!(err.contains("no case was scored"), "{err}");
    // Every status is counted, zeros included.
    let out = text(&o.stdout);
    assert!(out.contains("NOT_SUPPORTED 3"), "{out}");
    for s in physics_cts::status::Status::ALL {
        assert!(out.contains(&format!("{s} ")), "{s} missing in\n{out}");
    }
    assert!(out.contains("stdio: no known failures"), "{out}");
}

#[test]
fn the_failure_list_says_how_many_it_left_out() {
    let Some((dir, corpus)) = folder("many-failures") else {
        return;
    };
    write_corpus(&corpus, &["fail"; 23]);
    let o = run(&dir, &corpus, &["--out", "out"]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let out = text(&o.stdout);
    assert_eq!(out.matches(" [failed] ").count(), 20, "{out}");
    assert!(out.contains("... and 3 more"), "{out}");
}

#[test]
fn known_failures_are_found_in_the_corpus_and_tied_to_it() {
    let Some((dir, corpus)) = folder("known") else {
        return;
    };
    write_corpus(&corpus, &["ok", "fail"]);
    let hash = corpus_hash(&corpus);
    let known = corpus.join("known-failures");
    std::fs::create_dir_all(&known).expect("mkdir");
    let entry = "[[known]]\ncase = \"k/c01/fail\"\nreason = \"the fake fails it\"\n";

    // Found relative to the corpus (run from another folder): the failure is expected.
    std::fs::write(
        known.join("stdio.toml"),
        format!("corpus = \"{hash}\"\n{entry}"),
    )
    .expect("write");
    let o = run(&dir, &corpus, &["--out", "out"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("stdio: 1 known failure(s) from"), "{out}");

    // A file of another corpus is refused with its own code, saying both hashes.
    let other = "0".repeat(64);
    std::fs::write(
        known.join("stdio.toml"),
        format!("corpus = \"{other}\"\n{entry}"),
    )
    .expect("write");
    let o = run(&dir, &corpus, &["--out", "out"]);
    assert_eq!(
        o.status.code(),
        Some(i32::from(exit::KNOWN_FAILURES_OF_ANOTHER_CORPUS)),
        "{o:?}"
    );
    let err = text(&o.stderr);
    assert!(err.contains(&other) && err.contains(&hash), "{err}");

    // A file without the corpus line is refused, and says the line to add.
    std::fs::write(known.join("stdio.toml"), entry).expect("write");
    let o = run(&dir, &corpus, &["--out", "out"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains(&format!("corpus = \"{hash}\"")));

    // An explicit file wins; a missing explicit file is an error.
    let mine = dir.join("mine.toml");
    std::fs::write(&mine, format!("corpus = \"{hash}\"\n{entry}")).expect("write");
    let o = run(
        &dir,
        &corpus,
        &["--out", "out", "--known-failures", "mine.toml"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = run(
        &dir,
        &corpus,
        &["--out", "out", "--known-failures", "nowhere.toml"],
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("nowhere.toml does not exist"));
    assert!(!text(&o.stderr).contains("os error"), "{}", text(&o.stderr));
}

#[test]
fn the_default_output_is_an_ignored_folder() {
    let Some((dir, corpus)) = folder("default-out") else {
        return;
    };
    write_corpus(&corpus, &["ok"]);
    let o = run(&dir, &corpus, &[]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{o:?}");
    assert!(dir.join("reports/latest/stdio/report.html").is_file());
    assert!(!dir.join("reports/stdio").exists(), "baselines untouched");
    assert!(text(&o.stdout).contains("reports written to reports/latest/stdio"));

    // In the repository, that folder is git-ignored: the README's first command leaves
    // `git status` clean.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    if !root.join(".git").exists() {
        println!("not a git checkout: the .gitignore check is skipped");
        return;
    }
    for path in [
        "reports/latest/rapier/report.html",
        "reports/latest/interop/results.ndjson",
    ] {
        match Command::new("git")
            .current_dir(&root)
            .args(["check-ignore", "-q", "--no-index", path])
            .status()
        {
            Ok(s) => assert!(s.success(), "{path} is not git-ignored"),
            Err(_) => println!("git is not available: the .gitignore check is skipped"),
        }
    }
    // The committed baselines are not ignored: `--out reports/rapier` rewrites tracked files.
    if let Ok(s) = Command::new("git")
        .current_dir(&root)
        .args([
            "check-ignore",
            "-q",
            "--no-index",
            "reports/rapier/report.html",
        ])
        .status()
    {
        assert_eq!(s.code(), Some(1), "reports/rapier must stay tracked");
    }
}

#[test]
fn diff_refuses_what_is_not_a_run_and_runs_of_other_corpora() {
    let Some((dir, _)) = folder("diff") else {
        return;
    };
    let (a, b) = (dir.join("a"), dir.join("b"));
    write_corpus(&a, &["ok", "fail"]);
    write_corpus(&b, &["ok", "fail", "ok"]);
    run(&dir, &a, &["--out", "ra"]);
    run(&dir, &a, &["--out", "ra2"]);
    run(&dir, &b, &["--out", "rb"]);
    let diff = |old: &str, new: &str| {
        Command::new(BIN)
            .current_dir(&dir)
            .args(["diff", old, new])
            .output()
            .expect("runs")
    };
    let same = diff("ra", "ra2");
    assert_eq!(same.status.code(), Some(0), "{same:?}");
    assert!(text(&same.stdout).contains("removed: 0"));

    std::fs::write(dir.join("empty.ndjson"), "").expect("write");
    std::fs::write(dir.join("garbage.ndjson"), "hello\nworld\n").expect("write");
    for bad in ["empty.ndjson", "garbage.ndjson", "nowhere"] {
        let o = diff("ra", bad);
        assert_eq!(
            o.status.code(),
            Some(i32::from(exit::NOT_A_RUN)),
            "{bad}: {o:?}"
        );
        assert!(o.stdout.is_empty(), "{bad}: nothing is compared");
        assert!(text(&o.stderr).contains(bad), "{bad}: {}", text(&o.stderr));
    }
    let other = diff("ra", "rb");
    assert_eq!(
        other.status.code(),
        Some(i32::from(exit::OTHER_CORPUS)),
        "{other:?}"
    );
    assert!(text(&other.stderr).contains("different corpora"));
}

#[test]
fn a_filtered_run_has_no_notes_about_unmatched_known_failures() {
    let Some((dir, corpus)) = folder("filtered-notes") else {
        return;
    };
    write_corpus(&corpus, &["ok", "fail", "ok"]);
    let hash = corpus_hash(&corpus);
    std::fs::create_dir_all(corpus.join("known-failures")).expect("mkdir");
    std::fs::write(
        corpus.join("known-failures/stdio.toml"),
        format!("corpus = \"{hash}\"\n[[known]]\ncase = \"k/c01/fail\"\nreason = \"r\"\n[[known]]\ncase = \"k/gone\"\nreason = \"stale\"\n"),
    )
    .expect("write");
    let o = run(&dir, &corpus, &["--out", "out", "--filter", "k/c00/*"]);
    assert!(!text(&o.stderr).contains("note:"), "{}", text(&o.stderr));
    // Unfiltered, the stale entry is worth its note.
    let o = run(&dir, &corpus, &["--out", "out"]);
    let err = text(&o.stderr);
    assert_eq!(err.matches("note:").count(), 1, "{err}");
    assert!(err.contains("\"k/gone\""), "{err}");
}

#[test]
fn shards_merge_into_the_reports_of_one_run() {
    let Some((dir, corpus)) = folder("shards") else {
        return;
    };
    write_corpus(&corpus, &["ok", "fail", "ok", "refuse", "ok"]);
    let whole = run(&dir, &corpus, &["--out", "whole"]);
    assert_eq!(whole.status.code(), Some(1), "{whole:?}");
    for k in ["1/2", "2/2"] {
        let o = run(
            &dir,
            &corpus,
            &["--out", &format!("s{}", &k[..1]), "--shard", k],
        );
        assert!(matches!(o.status.code(), Some(0 | 1)), "{k}: {o:?}");
    }
    let merge = |args: &[&str]| {
        Command::new(BIN)
            .current_dir(&dir)
            .arg("merge")
            .args(args)
            .output()
            .expect("runs")
    };
    let m = merge(&["--out", "merged", "s2", "s1"]);
    assert_eq!(
        m.status.code(),
        Some(1),
        "the merged run fails like the whole: {m:?}"
    );
    for name in [
        "results.ndjson",
        "summary.json",
        "results.csv",
        "junit.xml",
        "summary.md",
        "report.html",
    ] {
        assert_eq!(
            report(&dir.join("merged"), name),
            report(&dir.join("whole"), name),
            "{name}"
        );
    }
    // A missing shard, a shard given twice, a run that is not a shard: refused.
    assert_eq!(merge(&["--out", "m2", "s1"]).status.code(), Some(2));
    assert_eq!(merge(&["--out", "m2", "s1", "s1"]).status.code(), Some(2));
    assert_eq!(
        merge(&["--out", "m2", "s1", "whole"]).status.code(),
        Some(i32::from(exit::NOT_A_RUN))
    );
    // A shard of another corpus.
    let other = dir.join("other");
    write_corpus(&other, &["ok", "ok"]);
    run(&dir, &other, &["--out", "o2", "--shard", "2/2"]);
    let o = merge(&["--out", "m2", "s1", "o2"]);
    assert_eq!(
        o.status.code(),
        Some(i32::from(exit::OTHER_CORPUS)),
        "{o:?}"
    );
}
