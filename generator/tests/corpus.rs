//! The committed corpus `corpus/v1` is exactly what the generator writes for its recorded seed
//! and count, and it covers every feature tag and every issue code.
//!
//! Regenerate after an intended change (and bump the generator version when bytes change):
//! `cargo run -p physics-cts -- generate --seed 1 --count 1490 --out corpus/v1 --force`
//! (`--force` keeps `corpus/v1/known-failures/`, the hand-written known failures).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use generator::corpus::{self, Plan};
use generator::features;
use generator::mutate::EXEMPT;
use reference::issue::Code;

const SEED: u64 = 1;
const COUNT: usize = 1490;

fn committed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/v1")
}

fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).expect("readable folder") {
            let p = e.expect("entry").path();
            // The known failures of each implementation live beside the cases (tied to the
            // corpus by its hash) but are written by hand, not generated.
            if p.is_dir() && p == root.join("known-failures") {
                continue;
            }
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.file_name().is_some_and(|n| n != "README.md") {
                let rel = p.strip_prefix(root).expect("below root").to_path_buf();
                out.insert(rel, std::fs::read(&p).expect("readable file"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

fn plan() -> Plan {
    Plan {
        seed: SEED,
        count: COUNT,
        profiles: corpus::V1_PROFILES.to_vec(),
        handwritten: true,
    }
}

/// The expectation files of the cases the reference lists as its known failures on corpus/v1:
/// v1 is released and keeps the expectations it was certified with, so where the reference has
/// since been corrected (each entry says how), a regeneration differs from the committed file.
fn superseded() -> BTreeSet<PathBuf> {
    let path = committed().join("known-failures/reference.toml");
    let text = std::fs::read_to_string(&path).expect("the reference's known failures");
    let table: toml::Table = text.parse().expect("TOML");
    table["known"]
        .as_array()
        .expect("[[known]] entries")
        .iter()
        .map(|k| {
            let case = k["case"].as_str().expect("a case id");
            PathBuf::from(format!("{case}.expect.json"))
        })
        .collect()
}

#[test]
fn regenerating_gives_the_committed_bytes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = corpus::cases(&plan());
    corpus::write(dir.path(), SEED, &cases, &mut |_, _| {}).expect("written");
    let fresh = files(dir.path());
    let old = files(&committed());
    let missing: Vec<_> = fresh
        .keys()
        .filter(|k| !old.contains_key(*k))
        .take(10)
        .collect();
    let extra: Vec<_> = old
        .keys()
        .filter(|k| !fresh.contains_key(*k))
        .take(10)
        .collect();
    let superseded = superseded();
    let changed: BTreeSet<&PathBuf> = fresh
        .iter()
        .filter(|(k, v)| old.get(*k).is_some_and(|o| o != *v))
        .map(|(k, _)| k)
        .collect();
    // A listed case that regenerates unchanged is no longer a known failure: the list is stale.
    let unchanged: Vec<_> = superseded
        .iter()
        .filter(|p| !changed.contains(p))
        .take(10)
        .collect();
    assert!(
        unchanged.is_empty(),
        "known failures of the reference whose expectations regenerate unchanged: {unchanged:?}"
    );
    let differ: Vec<_> = changed
        .into_iter()
        .filter(|k| !superseded.contains(*k))
        .take(10)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && differ.is_empty(),
        "corpus/v1 differs from a regeneration (seed {SEED}, count {COUNT}):\n  not committed: {missing:?}\n  stale: {extra:?}\n  different bytes: {differ:?}\nregenerate with: cargo run -p physics-cts -- generate --seed {SEED} --count {COUNT} --out corpus/v1 --force"
    );
}

#[test]
fn corpus_covers_every_tag_and_code_within_budget() {
    let cases = corpus::cases(&plan());
    assert!(cases.len() >= 1500, "{} cases", cases.len());
    for p in corpus::V1_PROFILES {
        let seen: BTreeSet<&String> = cases
            .iter()
            .filter(|c| c.profile == Some(p) && c.valid())
            .flat_map(|c| &c.features)
            .collect();
        let missing: Vec<String> = features::universe(p)
            .into_iter()
            .filter(|t| !seen.contains(t))
            .collect();
        assert!(
            missing.is_empty(),
            "{p}: feature tags no valid case carries: {missing:?}"
        );
    }
    let codes: BTreeSet<Code> = cases
        .iter()
        .flat_map(|c| c.expected.iter().map(|e| e.code))
        .collect();
    // Codes of the profiles after v1 (omi-2024, omi-2025) are covered by their own corpus.
    let in_v1 = |c: &Code| corpus::V1_PROFILES.iter().any(|&p| c.scope().applies_to(p));
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| in_v1(c) && !codes.contains(c) && !EXEMPT.contains(c))
        .map(|c| c.id())
        .collect();
    assert!(missing.is_empty(), "codes no case expects: {missing:?}");
    let bytes: usize = files(&committed()).values().map(Vec::len).sum();
    assert!(
        bytes <= 25_000_000,
        "corpus/v1 holds {bytes} bytes, over 25 MB"
    );
}

#[test]
fn generation_is_deterministic() {
    let p = Plan {
        seed: 77,
        count: 40,
        profiles: Vec::new(),
        handwritten: false,
    };
    let a = corpus::cases(&p);
    let b = corpus::cases(&p);
    assert_eq!(a, b);
    let bytes: Vec<Vec<u8>> = a.iter().map(generator::case::Case::bytes).collect();
    assert_eq!(
        bytes,
        b.iter()
            .map(generator::case::Case::bytes)
            .collect::<Vec<_>>()
    );
}

/// The corpus of the restructured OMI profiles (`--profile omi-2024 --profile omi-2025`, the
/// size of a corpus/v2 share) carries every feature tag of both, and a case for every code that
/// has a mutator of either.
#[test]
fn an_omi_current_corpus_covers_its_tags_and_codes() {
    use reference::profile::Profile;
    let omi = [Profile::Omi2024, Profile::Omi2025];
    let cases = corpus::cases(&Plan {
        seed: 2,
        count: 600,
        profiles: omi.to_vec(),
        handwritten: true,
    });
    for p in omi {
        let seen: BTreeSet<&String> = cases
            .iter()
            .filter(|c| c.profile == Some(p) && c.valid())
            .flat_map(|c| &c.features)
            .collect();
        let missing: Vec<String> = features::universe(p)
            .into_iter()
            .filter(|t| !seen.contains(t))
            .collect();
        assert!(
            missing.is_empty(),
            "{p}: feature tags no valid case carries: {missing:?}"
        );
    }
    let codes: BTreeSet<Code> = cases
        .iter()
        .flat_map(|c| c.expected.iter().map(|e| e.code))
        .collect();
    let missing: Vec<&str> = generator::mutate::all()
        .iter()
        .filter(|m| omi.contains(&m.profile) && !codes.contains(&m.code))
        .map(|m| m.code.id())
        .collect();
    assert!(
        missing.is_empty(),
        "codes no omi-2024/omi-2025 case expects: {missing:?}"
    );
}
