//! `physics-cts fuzz` ([`physics_cts::fuzz`]): the reference finds nothing in its own
//! scenes, a seeded bug is found and shrunk to a case that fails with it and passes without it,
//! the same seed gives the same findings whatever `--jobs`, and the summaries' formats are
//! golden (`BLESS=1` rewrites them).

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use golden_file::assert_golden;
use physics_cts::bundled::mutated;
use physics_cts::fuzz::report::{Counts, Finding, FirstFinding, FuzzSummary, Shrinking};
use physics_cts::fuzz::shrink::Stop;
use physics_cts::fuzz::{self, Budget, Outcome, Quiet, SearchLimit, Settings};
use physics_cts::mutant::Mutant;
use physics_cts::runner::Options;
use physics_cts::status::Status;
use reference::profile::Profile;

mod golden_file;

fn settings(implementation: &str, mutant: Option<Mutant>, draws: u64, work: &Path) -> Settings {
    Settings {
        implementation: implementation.to_owned(),
        factory: mutated(implementation, mutant).expect("a bundled implementation"),
        control: mutant.and_then(|_| mutated(implementation, None)),
        profiles: Vec::new(),
        limit: SearchLimit {
            time: None,
            draws: Some(draws),
        },
        seed: 1,
        jobs: 1,
        shrink: Budget {
            steps: 400,
            time: Duration::from_secs(120),
        },
        runner: Options {
            restart_budget: 1000,
            ..Options::default()
        },
        work: work.to_path_buf(),
    }
}

/// The findings as (check, status, case id, shrunk size, shrink steps): everything but timings.
fn findings(o: &Outcome) -> Vec<(String, Status, String, usize, usize, u32)> {
    o.findings
        .iter()
        .map(|f| {
            let f = &f.finding;
            (
                f.check.clone(),
                f.status,
                f.case.clone(),
                f.shrinking.after.nodes,
                f.shrinking.after.extension_nodes,
                f.shrinking.steps,
            )
        })
        .collect()
}

/// The reference labels every scene, so run as an implementation it passes every one: a
/// search over several seeds and every profile finds nothing, and no candidate is one the
/// reference reads otherwise than the generator expects.
#[test]
fn the_reference_finds_nothing_in_its_own_scenes() {
    let dir = tempfile::tempdir().expect("tempdir");
    for seed in [1, 2, 3] {
        let mut s = settings("reference", None, 48, dir.path());
        s.seed = seed;
        let o = fuzz::fuzz(&s, &Quiet).expect("the search runs");
        assert_eq!(o.profiles.len(), Profile::ALL.len(), "every profile drawn");
        assert_eq!(o.counts.draws, 48);
        assert!(o.findings.is_empty(), "seed {seed}: {:?}", findings(&o));
        assert_eq!(
            o.counts.failed + o.counts.harness_errors + o.counts.disagreements,
            0
        );
        assert!(o.counts.passed > 30, "seed {seed}: {:?}", o.counts);
    }
}

/// Rapier with gravity 9.8 instead of 9.81: the search finds `dynamics.gravity` in a few
/// draws, shrinks it to a scene of at most 3 nodes carrying an extension, and the shrunk case
/// passes on the un-mutated Rapier; `run --corpus` on the finding's folder fails the check with
/// the bug's figure (9.8 m/s² measured against 9.81).
#[test]
fn a_seeded_bug_is_found_shrunk_and_passes_without_the_bug() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = settings(
        "rapier",
        Some(Mutant::Gravity98),
        40,
        &dir.path().join("work"),
    );
    let o = fuzz::fuzz(&s, &Quiet).expect("the search runs");
    let f = o
        .findings
        .iter()
        .find(|f| f.finding.check == "dynamics.gravity")
        .unwrap_or_else(|| panic!("gravity found: {:?}", findings(&o)));
    let sh = &f.finding.shrinking;
    assert!(sh.after.extension_nodes <= 3, "{sh:?}");
    assert!(
        sh.after.bytes < sh.before.bytes || sh.before.nodes <= 3,
        "{sh:?}"
    );
    assert!(!f.finding.flaky);
    assert_eq!(f.finding.without_mutant, Some(Status::Pass));
    assert!(
        f.finding.message.contains("-9.8000"),
        "{}",
        f.finding.message
    );
    // Every finding of a seeded bug is the bug's: the un-mutated Rapier passes each shrunk case
    // or fails it otherwise.
    for f in &o.findings {
        assert_ne!(f.finding.without_mutant, None);
    }
    // The finding written as the CLI writes it runs with `run --corpus`.
    let mut summary = FuzzSummary {
        implementation: "rapier".into(),
        mutant: Some("gravity-9-8".into()),
        seed: 1,
        profiles: Vec::new(),
        command: String::new(),
        counts: o.counts,
        search_s: 0.0,
        first: o.first,
        findings: o.findings.iter().map(|f| f.finding.clone()).collect(),
        disagreements: Vec::new(),
    };
    let cases: Vec<_> = o
        .findings
        .iter()
        .map(|f| (f.original.clone(), f.shrunk.clone()))
        .collect();
    let out = dir.path().join("out");
    fuzz::report::write(&out, &mut summary, &cases, &|d| d.display().to_string()).expect("written");
    let gravity = summary
        .findings
        .iter()
        .find(|f| f.check == "dynamics.gravity")
        .expect("gravity");
    let folder = out.join(&gravity.folder).join("case");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_physics-cts"))
            .args(["run", "--corpus"])
            .arg(&folder)
            .arg("--out")
            .arg(dir.path().join("run"))
            .args(extra)
            .output()
            .expect("physics-cts runs")
    };
    let clean = run(&["--impl", "rapier"]);
    assert_eq!(
        clean.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&clean.stdout)
    );
    let mutated = Command::new(env!("CARGO_BIN_EXE_physics-cts"))
        .args([
            "mutants",
            "--impl",
            "rapier",
            "--mutant",
            "gravity-9-8",
            "--corpus",
        ])
        .arg(&folder)
        .arg("--out")
        .arg(dir.path().join("mutants"))
        .output()
        .expect("physics-cts runs");
    let text = String::from_utf8_lossy(&mutated.stdout).into_owned()
        + &String::from_utf8_lossy(&mutated.stderr);
    assert!(text.contains("caught 1 of 1"), "{text}");
    assert!(out.join(&gravity.folder).join("finding.json").is_file());
    assert!(
        out.join(&gravity.folder)
            .join("original/manifest.json")
            .is_file()
    );
    assert!(out.join("summary.json").is_file() && out.join("summary.md").is_file());
}

/// The same seed gives the same findings, with one instance or two.
#[test]
fn the_same_seed_gives_the_same_findings_whatever_the_jobs() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut s = settings("rapier", Some(Mutant::OpenLimitSideAsZero), 24, dir.path());
    let one = fuzz::fuzz(&s, &Quiet).expect("runs");
    let again = fuzz::fuzz(&s, &Quiet).expect("runs");
    s.jobs = 2;
    let two = fuzz::fuzz(&s, &Quiet).expect("runs");
    assert!(
        !one.findings.is_empty(),
        "the seeded bug is found in 24 draws"
    );
    assert_eq!(findings(&one), findings(&again));
    assert_eq!(findings(&one), findings(&two));
    assert_eq!(one.counts, two.counts);
}

/// `summary.md` and `summary.json` of a fixed summary, byte for byte.
#[test]
fn summaries_are_golden() {
    let size = |nodes, extension_nodes, bytes| physics_cts::fuzz::report::Size {
        nodes,
        extension_nodes,
        bytes,
    };
    let finding = |check: &str, status, flaky, stop| Finding {
        check: check.to_owned(),
        status,
        measured: Some(0.5),
        recommended: Some(0.01),
        allowed: Some(0.02),
        message: format!("{check}: what was measured"),
        case: "khr25/fuzz/000042".to_owned(),
        profile: Some("khr-2025".to_owned()),
        valid: true,
        features: vec![
            "body.dynamic".to_owned(),
            "shape.sphere.defaults".to_owned(),
        ],
        seed: 7,
        draw: 42,
        shrinking: Shrinking {
            before: size(12, 8, 4000),
            after: size(2, 1, 600),
            steps: 120,
            kept: 30,
            stop,
        },
        flaky,
        without_mutant: Some(Status::Pass),
        folder: String::new(),
        repro: String::new(),
    };
    let mut summary = FuzzSummary {
        implementation: "rapier".to_owned(),
        mutant: Some("gravity-9-8".to_owned()),
        seed: 7,
        profiles: vec!["khr-2025".to_owned(), "omi-2024".to_owned()],
        command: "physics-cts fuzz --impl rapier --seed 7 --cases 100 --mutant gravity-9-8"
            .to_owned(),
        counts: Counts {
            draws: 100,
            passed: 80,
            failed: 5,
            not_supported: 12,
            skipped: 1,
            unscored: 1,
            harness_errors: 0,
            disagreements: 1,
        },
        search_s: 12.3456,
        first: Some(FirstFinding {
            draw: 3,
            after_s: 0.25,
        }),
        findings: vec![
            finding(
                "dynamics.gravity",
                Status::Fail,
                false,
                Some(Stop::Converged),
            ),
            finding("load", Status::Crash, true, None),
        ],
        disagreements: vec!["khr25/fuzz/000050: expected X, read Y".to_owned()],
    };
    for (i, f) in summary.findings.iter_mut().enumerate() {
        f.folder = format!("findings/{}", f.folder_name(i + 1));
        f.repro = format!(
            "physics-cts run --impl rapier --corpus out/{}/case",
            f.folder
        );
    }
    assert_golden("fuzz/summary.md", &summary.markdown());
    assert_golden("fuzz/summary.json", &summary.json());
}

/// Over stdio (`physics-cts serve rapier`) the search draws, runs and counts as in process.
#[test]
fn a_search_over_stdio_is_the_search_in_process() {
    let dir = tempfile::tempdir().expect("tempdir");
    let in_process = fuzz::fuzz(&settings("rapier", None, 16, dir.path()), &Quiet).expect("runs");
    let config = physics_cts::adapters::stdio::StdioConfig::new(
        std::ffi::OsString::from(env!("CARGO_BIN_EXE_physics-cts")),
        vec![
            std::ffi::OsString::from("serve"),
            std::ffi::OsString::from("rapier"),
        ],
    );
    let mut s = settings("rapier", None, 16, dir.path());
    s.factory = std::sync::Arc::new(move || {
        Box::new(physics_cts::adapters::stdio::StdioImplementation::new(
            config.clone(),
        )) as Box<dyn physics_cts::implementation::Implementation + Send>
    });
    let over_stdio = fuzz::fuzz(&s, &Quiet).expect("runs");
    assert_eq!(in_process.counts, over_stdio.counts);
    assert!(in_process.counts.passed > 0);
    assert_eq!(findings(&in_process), findings(&over_stdio));
}

/// A `findings` folder that is not an earlier search's (no `summary.json` beside it) is never
/// removed: writing refuses, and the folder's files stay.
#[test]
fn a_foreign_findings_folder_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mine = dir.path().join("findings/notes.txt");
    std::fs::create_dir_all(mine.parent().expect("parent")).expect("mkdir");
    std::fs::write(&mine, "mine").expect("write");
    let mut summary = FuzzSummary {
        implementation: "rapier".into(),
        mutant: None,
        seed: 1,
        profiles: Vec::new(),
        command: String::new(),
        counts: Counts::default(),
        search_s: 0.0,
        first: None,
        findings: Vec::new(),
        disagreements: Vec::new(),
    };
    let e = fuzz::report::write(dir.path(), &mut summary, &[], &|d| d.display().to_string())
        .expect_err("refused");
    assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read_to_string(&mine).expect("kept"), "mine");
}
