//! `physics-cts certify` and `physics-cts verify` as processes: the reference implementation
//! certified on a small corpus (four cases of corpus/v1 copied out, three of them run through a
//! filter) verifies; every kind of tampering is caught with its code; and (proptest) flipping
//! any byte of any bundled file is detected.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use corpus_subset::copy_cases;
use physics_cts::bundle::verify::{CorpusSource, verify};
use physics_cts::bundle::{self, BundleCode, INDEX};
use proptest::prelude::*;
use scratch::scratch;
use serde_json::Value;

mod corpus_subset;
mod scratch;

const BIN: &str = env!("CARGO_BIN_EXE_physics-cts");

/// Three control cases (run) and one body case the filter leaves out.
const CASES: [&str; 4] = [
    "khr/control/falling-sphere",
    "omi/control/seed-004-box-collider",
    "vrm/control/seed-003-position",
    "khr/body/mass-zero-infinite",
];
const FILTER: &str = "*/control/*";

/// A corpus of `ids` copied out of corpus/v1.
fn small_corpus(name: &str, ids: &[&str]) -> Option<PathBuf> {
    let v1 = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1");
    if !v1.join("manifest.json").is_file() {
        eprintln!("cli_certify: no corpus/v1: skipped");
        return None;
    }
    let dir = scratch(name);
    let copied = copy_cases(&v1, &dir, ids);
    assert_eq!(copied, ids.len(), "every case is in corpus/v1");
    // The reference's known failures (none), tied to this corpus as `run` requires.
    let hash = physics_cts::bundle::corpus::ManifestHashes::read(&dir)
        .expect("hashes")
        .corpus_hash();
    let known = dir.join(physics_cts::known_failures::DIR);
    std::fs::create_dir_all(&known).expect("mkdir");
    std::fs::write(
        known.join("reference.toml"),
        format!("# none\ncorpus = \"{hash}\"\n"),
    )
    .expect("known failures");
    Some(dir)
}

fn physics_cts(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("runs")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The corpus and the pristine bundle, made once for every test of this file.
struct Fixture {
    corpus: PathBuf,
    bundle: PathBuf,
}

fn fixture() -> Option<&'static Fixture> {
    static FIXTURE: OnceLock<Option<Fixture>> = OnceLock::new();
    FIXTURE
        .get_or_init(|| {
            let corpus = small_corpus("corpus", &CASES)?;
            let bundle = scratch("pristine").join("bundle");
            let o = physics_cts(&[
                "certify",
                "--impl",
                "reference",
                "--corpus",
                corpus.to_str()?,
                "--filter",
                FILTER,
                "--out",
                bundle.to_str()?,
            ]);
            assert!(
                matches!(code(&o), 0 | 1),
                "certify ran: {}\n{}",
                stdout(&o),
                String::from_utf8_lossy(&o.stderr)
            );
            Some(Fixture { corpus, bundle })
        })
        .as_ref()
}

/// A fresh copy of the pristine bundle to tamper with.
fn copy_bundle(f: &Fixture, name: &str) -> PathBuf {
    let to = scratch(name);
    for p in bundle::list_files(&f.bundle).expect("list") {
        std::fs::copy(f.bundle.join(&p), to.join(&p)).expect("copy");
    }
    std::fs::copy(f.bundle.join(INDEX), to.join(INDEX)).expect("copy");
    to
}

fn verify_cli(dir: &Path, corpus: &Path) -> Output {
    physics_cts(&[
        "verify",
        dir.to_str().expect("utf-8"),
        "--corpus",
        corpus.to_str().expect("utf-8"),
    ])
}

/// The codes `verify` printed (first word of each failure line).
fn printed_codes(o: &Output) -> Vec<String> {
    stdout(o)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.starts_with("BUNDLE_"))
        .map(str::to_owned)
        .collect()
}

fn assert_caught(o: &Output, want: BundleCode) {
    assert_eq!(code(o), 1, "{}", stdout(o));
    let codes = printed_codes(o);
    assert!(
        codes.iter().any(|c| c == want.as_str()),
        "expected {want}, got {codes:?}\n{}",
        stdout(o)
    );
}

/// Rewrite the lines of `results.ndjson` with `edit`.
fn edit_results(dir: &Path, edit: impl Fn(&mut Value)) {
    let path = dir.join("results.ndjson");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut out = String::new();
    for line in text.lines() {
        let mut v: Value = serde_json::from_str(line).expect("json line");
        edit(&mut v);
        out.push_str(&v.to_string());
        out.push('\n');
    }
    std::fs::write(&path, out).expect("write");
}

/// The certificate records the corpus relative to the bundle: `verify` finds it from any
/// working folder (it once recorded the path as typed, relative to where certify ran).
#[test]
fn the_recorded_corpus_is_found_from_another_folder() {
    let Some(f) = fixture() else { return };
    let cert: Value = serde_json::from_slice(
        &std::fs::read(f.bundle.join("certificate.json")).expect("certificate"),
    )
    .expect("json");
    let recorded = cert["corpus"]["path"].as_str().expect("a corpus path");
    assert!(Path::new(recorded).is_relative(), "{recorded}");
    assert_eq!(
        std::fs::canonicalize(f.bundle.join(recorded)).expect("the recorded folder"),
        std::fs::canonicalize(&f.corpus).expect("the corpus")
    );
    let o = Command::new(BIN)
        .current_dir("/")
        .args(["verify", f.bundle.to_str().expect("utf-8")])
        .output()
        .expect("runs");
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn a_fresh_bundle_verifies_and_says_what_ran() {
    let Some(f) = fixture() else { return };
    let o = verify_cli(&f.bundle, &f.corpus);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("valid bundle"), "{}", stdout(&o));
    // Without --corpus, the recorded path is used.
    let o = physics_cts(&["verify", f.bundle.to_str().expect("utf-8")]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));

    let cert: Value = serde_json::from_slice(
        &std::fs::read(f.bundle.join("certificate.json")).expect("certificate"),
    )
    .expect("json");
    assert_eq!(cert["format"], "physics-cts-bundle/1");
    assert_eq!(cert["suite"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(cert["implementations"][0]["name"], "reference");
    assert!(cert["implementations"][0]["capabilities"]["profiles"].is_array());
    assert_eq!(cert["corpus"]["filter"], FILTER);
    assert_eq!(cert["corpus"]["manifest_cases"], 4);
    let ids: Vec<&str> = cert["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter_map(|c| c["id"].as_str())
        .collect();
    assert_eq!(ids, &CASES[..3], "the filter's three cases, sorted");
    // The corpus hash is the documented one, recomputed here from the manifest rows.
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(f.corpus.join("manifest.json")).expect("manifest"))
            .expect("json");
    let rows: Vec<(&str, &str)> = manifest["cases"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap_or(""),
                r["sha256"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        cert["corpus"]["hash"],
        bundle::corpus::corpus_hash(rows.iter().copied())
    );
    // The same from its definition, without the crate's function: sha256 of the sorted
    // `id TAB sha256 LF` lines of the manifest.
    let mut sorted = rows.clone();
    sorted.sort_unstable();
    let text: String = sorted
        .iter()
        .map(|(id, sha)| format!("{id}\t{sha}\n"))
        .collect();
    let digest = <sha2::Sha256 as sha2::Digest>::digest(text.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(cert["corpus"]["hash"], hex.as_str());

    // The index lists every report, the certificate and the known-failure file.
    let index: Value =
        serde_json::from_slice(&std::fs::read(f.bundle.join(INDEX)).expect("index")).expect("json");
    let listed: Vec<&str> = index["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|e| e["path"].as_str())
        .collect();
    for r in bundle::REQUIRED {
        assert!(listed.contains(&r), "{r} listed in {listed:?}");
    }
}

#[test]
fn an_edited_result_is_caught() {
    let Some(f) = fixture() else { return };
    let dir = copy_bundle(f, "edited-result");
    // Turn every failing case into a pass in its case line.
    let flip = |v: &mut Value| {
        if v["type"] == "case" {
            v["status"] = if v["status"] == "PASS" {
                "FAIL"
            } else {
                "PASS"
            }
            .into();
        }
    };
    edit_results(&dir, flip);
    assert_caught(&verify_cli(&dir, &f.corpus), BundleCode::HashMismatch);
    // Re-indexed, as a forger would: the status no longer follows from the checks, and the
    // reports are no longer what the results render to.
    bundle::write_index(&dir).expect("index");
    let o = verify_cli(&dir, &f.corpus);
    assert_caught(&o, BundleCode::ResultsInconsistent);
    assert_caught(&o, BundleCode::SummaryMismatch);
    assert!(!printed_codes(&o).contains(&BundleCode::HashMismatch.as_str().to_owned()));
}

/// What a forger does to a copy of the bundle.
type Tampering = fn(&Path);

/// A bundle tampered with is caught with its code, whether or not it was re-indexed as a
/// forger would; a row is `(name, tampering, re-indexed, code)`.
#[test]
fn every_tampering_is_caught_with_its_code() {
    use BundleCode::{ExtraFile, HashMismatch, Malformed, MissingFile, ResultsInconsistent};
    let Some(f) = fixture() else { return };
    let delete_junit = |dir: &Path| std::fs::remove_file(dir.join("junit.xml")).expect("rm");
    let rows: [(&str, Tampering, bool, BundleCode); 7] = [
        // A footer whose counts are not those of the case lines: the footer is compared with
        // the one the case lines give.
        (
            "footer-counts",
            |dir| {
                edit_results(dir, |v| {
                    if v["type"] == "footer" {
                        let cases = v["cases"].as_u64().expect("footer cases");
                        v["cases"] = (cases + 1).into();
                    }
                });
            },
            true,
            ResultsInconsistent,
        ),
        (
            "forged-summary",
            |dir| {
                let path = dir.join("summary.json");
                let text = std::fs::read_to_string(&path).expect("read");
                let forged = text.replacen("\"passed\": ", "\"passed\": 9", 1);
                std::fs::write(&path, forged).expect("write");
            },
            true,
            BundleCode::SummaryMismatch,
        ),
        ("deleted-file", delete_junit, false, MissingFile),
        // Dropped from the index too: still missing, as a required report.
        ("deleted-file", delete_junit, true, MissingFile),
        (
            "added-file",
            |dir| {
                std::fs::create_dir_all(dir.join("more")).expect("mkdir");
                std::fs::write(dir.join("more/results.ndjson"), "{}\n").expect("write");
            },
            false,
            ExtraFile,
        ),
        (
            "changed-byte",
            |dir| {
                let path = dir.join("report.html");
                let mut bytes = std::fs::read(&path).expect("read");
                let mid = bytes.len() / 2;
                bytes[mid] ^= 0x01;
                std::fs::write(&path, bytes).expect("write");
            },
            false,
            HashMismatch,
        ),
        (
            "cut-log",
            |dir| {
                let path = dir.join("results.ndjson");
                let text = std::fs::read_to_string(&path).expect("read");
                let cut: Vec<&str> = text.lines().collect();
                let kept = cut[..cut.len() - 1].join("\n") + "\n";
                std::fs::write(&path, kept).expect("write");
            },
            true,
            Malformed,
        ),
    ];
    for (name, tamper, reindexed, want) in rows {
        let dir = copy_bundle(f, &format!("{name}-{reindexed}"));
        tamper(&dir);
        if reindexed {
            bundle::write_index(&dir).expect("index");
        }
        let o = verify_cli(&dir, &f.corpus);
        let codes = printed_codes(&o);
        assert_eq!(code(&o), 1, "{name}: {}", stdout(&o));
        let row = format!("{name}, re-indexed {reindexed}: expected {want}, got {codes:?}");
        assert!(codes.iter().any(|c| c == want.as_str()), "{row}");
        if reindexed {
            assert!(!codes.iter().any(|c| c == HashMismatch.as_str()), "{row}");
        }
    }
}

#[test]
fn a_dropped_case_is_caught_when_everything_is_rewritten() {
    let Some(f) = fixture() else { return };
    let dir = copy_bundle(f, "dropped-case");
    // Remove one case's lines and re-render every report from the shorter log, and re-index:
    // only the certificate's case list still tells.
    let path = dir.join("results.ndjson");
    let text = std::fs::read_to_string(&path).expect("read");
    let kept: String = text
        .lines()
        .filter(|l| !l.contains(CASES[0]))
        .map(|l| format!("{l}\n"))
        .collect();
    let run = physics_cts::report::ndjson::read(kept.as_bytes()).expect("log");
    std::fs::write(&path, physics_cts::report::ndjson::render(&run)).expect("write");
    physics_cts::report::write_summaries(&dir, &run).expect("reports");
    bundle::write_index(&dir).expect("index");
    let o = verify_cli(&dir, &f.corpus);
    assert_caught(&o, BundleCode::CasesMismatch);
}

/// A forger who excuses a case with a known failure the run did not use, and re-renders every
/// report from that log and re-indexes, is caught: the reason is not the bundled
/// `expectations.toml`'s (the reference runs with none).
#[test]
fn a_forged_known_failure_is_caught_when_everything_is_rewritten() {
    let Some(f) = fixture() else { return };
    let dir = copy_bundle(f, "forged-known-failure");
    let path = dir.join("results.ndjson");
    let text = std::fs::read_to_string(&path).expect("read");
    let mut run = physics_cts::report::ndjson::read(text.as_bytes()).expect("log");
    let r = &mut run.results[0];
    r.known_failure = Some("forged excuse".into());
    r.verdict = physics_cts::results::Verdict::of(r.status, true);
    std::fs::write(&path, physics_cts::report::ndjson::render(&run)).expect("write");
    physics_cts::report::write_summaries(&dir, &run).expect("reports");
    bundle::write_index(&dir).expect("index");
    let o = verify_cli(&dir, &f.corpus);
    assert_caught(&o, BundleCode::ResultsInconsistent);
    assert!(stdout(&o).contains("forged excuse"), "{}", stdout(&o));
}

#[test]
fn another_corpus_is_caught() {
    let Some(f) = fixture() else { return };
    // The same cases, one expectation file loosened by a byte.
    let Some(other) = small_corpus("other-expect", &CASES) else {
        return;
    };
    let expect = other.join("khr/control/falling-sphere.expect.json");
    let text = std::fs::read_to_string(&expect).expect("read");
    std::fs::write(&expect, text.replacen('1', "2", 1)).expect("write");
    assert_caught(&verify_cli(&f.bundle, &other), BundleCode::CorpusMismatch);
    // One case fewer in the manifest: another corpus hash.
    let Some(fewer) = small_corpus("other-fewer", &CASES[..3]) else {
        return;
    };
    assert_caught(&verify_cli(&f.bundle, &fewer), BundleCode::CorpusMismatch);
}

#[test]
fn usage_problems_exit_2_and_garbage_is_malformed() {
    let Some(f) = fixture() else { return };
    let o = physics_cts(&["verify", "/nonexistent/bundle"]);
    assert_eq!(code(&o), 2);
    let o = verify_cli(&f.bundle, Path::new("/nonexistent/corpus"));
    assert_eq!(code(&o), 2);
    // certify refuses a folder that is not empty, and a matrix.
    let o = physics_cts(&[
        "certify",
        "--impl",
        "reference",
        "--corpus",
        f.corpus.to_str().expect("utf-8"),
        "--out",
        f.bundle.to_str().expect("utf-8"),
    ]);
    assert_eq!(code(&o), 2);
    let o = physics_cts(&[
        "certify",
        "--impl",
        "reference",
        "--impl",
        "rapier",
        "--out",
        "x",
    ]);
    assert_eq!(code(&o), 2);

    let dir = copy_bundle(f, "garbage-index");
    std::fs::write(
        dir.join(INDEX),
        "{\"format\": \"physics-cts-bundle/1\", \"files\": [",
    )
    .expect("write");
    assert_caught(&verify_cli(&dir, &f.corpus), BundleCode::Malformed);
    std::fs::write(dir.join(INDEX), [0xffu8, 0xfe, 0x00]).expect("write");
    assert_caught(&verify_cli(&dir, &f.corpus), BundleCode::Malformed);
    let empty = scratch("empty-bundle");
    assert_caught(&verify_cli(&empty, &f.corpus), BundleCode::MissingFile);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Flipping any bits of any byte of any file of the bundle (the index included) makes
    /// verification fail; the untouched bundle verifies.
    #[test]
    fn any_flipped_byte_is_detected(file in any::<prop::sample::Index>(),
                                    at in any::<prop::sample::Index>(),
                                    mask in 1u8..=255) {
        let Some(f) = fixture() else { return Ok(()) };
        let dir = copy_bundle(f, "flipped");
        let mut files = bundle::list_files(&dir).expect("list");
        files.push(INDEX.to_owned());
        let path = dir.join(file.get(&files));
        let mut bytes = std::fs::read(&path).expect("read");
        prop_assume!(!bytes.is_empty());
        let i = at.index(bytes.len());
        bytes[i] ^= mask;
        std::fs::write(&path, &bytes).expect("write");
        let outcome = verify(&dir, CorpusSource::Given(&f.corpus)).expect("corpus readable");
        prop_assert!(!outcome.failures.is_empty(), "{} byte {i} ^ {mask:#x} undetected", path.display());
        bytes[i] ^= mask;
        std::fs::write(&path, &bytes).expect("write");
        let outcome = verify(&dir, CorpusSource::Given(&f.corpus)).expect("corpus readable");
        prop_assert!(outcome.failures.is_empty(), "{:?}", outcome.failures);
    }
}

/// `certify --help` lists only what certify accepts: the options it shares with `run` and its
/// own required `--out`; not `run`'s `--resume` or `--shard`.
#[test]
fn certify_help_lists_only_what_it_accepts() {
    let o = physics_cts(&["certify", "--help"]);
    assert_eq!(code(&o), 0);
    let help = stdout(&o);
    for shared in [
        "--impl",
        "--corpus",
        "--filter",
        "--known-failures",
        "--timeout",
        "--jobs",
        "--out",
    ] {
        assert!(help.contains(shared), "{shared} missing:\n{help}");
    }
    for refused in ["--resume", "--shard", "--expectations"] {
        assert!(!help.contains(refused), "{refused} listed:\n{help}");
    }
    // And `run` has them (but the deprecated one).
    let run_help = stdout(&physics_cts(&["run", "--help"]));
    assert!(
        run_help.contains("--resume") && run_help.contains("--shard"),
        "{run_help}"
    );
    assert!(!run_help.contains("--expectations"), "{run_help}");
}
