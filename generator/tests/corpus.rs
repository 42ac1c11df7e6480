//! The committed corpora are exactly what the generator writes for their recorded seed, count
//! and profiles, and each covers every feature tag and issue code of its profiles within its
//! size budget:
//! - `corpus/v1` (released: certificates name it, so it never changes): the legacy profiles,
//!   `generate --seed 1 --count 1490 --out corpus/v1 --force`;
//! - `corpus/v2` (the living corpus of every profile):
//!   `generate --seed 2 --count 2400 --profile all --out corpus/v2 --force`.
//!
//! `--force` keeps `known-failures/`. Regenerate v2 after an intended change (and bump the
//! generator version when bytes change).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use generator::corpus;
use generator::features;
use generator::mutate::EXEMPT;
use generator::plan::{self, Edition, Plan};
use reference::issue::Code;
use reference::profile::Profile;

/// A committed corpus: its folder, its plan and its size budget.
struct Release {
    name: &'static str,
    plan: fn() -> Plan,
    /// Size budget in bytes.
    budget: usize,
}

const V1: Release = Release {
    name: "v1",
    plan: plan::v1,
    budget: 25_000_000,
};

const V2: Release = Release {
    name: "v2",
    plan: plan::v2,
    budget: 45_000_000,
};

impl Release {
    fn dir(&self) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/{}", self.name))
    }

    fn plan(&self) -> Plan {
        (self.plan)()
    }

    fn command(&self) -> String {
        let plan = self.plan();
        let profiles = if plan.profiles == Profile::ALL {
            " --profile all".to_owned()
        } else {
            String::new()
        };
        format!(
            "cargo run -p physics-cts -- generate --seed {} --count {}{profiles} --out corpus/{} --force",
            plan.seed, plan.count, self.name
        )
    }
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

/// The expectation files of the cases the reference lists as its known failures on a corpus:
/// v1 is released and keeps the expectations it was certified with, so where the reference has
/// since been corrected (each entry says how), a regeneration differs from the committed file.
fn superseded(release: &Release) -> BTreeSet<PathBuf> {
    let path = release.dir().join("known-failures/reference.toml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return BTreeSet::new();
    };
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

/// Regenerating `release` gives its committed bytes (but for the expectations the reference's
/// known failures there supersede).
fn regenerates(release: &Release) {
    let dir = tempfile::tempdir().expect("temp dir");
    let cases = corpus::cases(&release.plan());
    corpus::write(dir.path(), release.plan().seed, &cases, &mut |_, _| {}).expect("written");
    let fresh = files(dir.path());
    let old = files(&release.dir());
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
    let superseded = superseded(release);
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
        "corpus/{} differs from a regeneration:\n  not committed: {missing:?}\n  stale: {extra:?}\n  different bytes: {differ:?}\nregenerate with: {}",
        release.name,
        release.command()
    );
}

#[test]
fn regenerating_v1_gives_the_committed_bytes() {
    regenerates(&V1);
}

#[test]
fn regenerating_v2_gives_the_committed_bytes() {
    regenerates(&V2);
}

/// `release` carries every feature tag of its profiles in a valid case, expects every code of
/// its profiles (but the exempt ones) in some case, and keeps within its budget.
fn covers(release: &Release) {
    let plan = release.plan();
    let cases = corpus::cases(&plan);
    assert!(cases.len() >= plan.count, "{} cases", cases.len());
    for &p in &plan.profiles {
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
            "corpus/{}: {p}: feature tags no valid case carries: {missing:?}",
            release.name
        );
    }
    let codes: BTreeSet<Code> = cases
        .iter()
        .flat_map(|c| c.expected.iter().filter_map(|e| e.code.known()))
        .collect();
    let in_release = |c: &Code| plan.profiles.iter().any(|&p| c.scope().applies_to(p));
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| in_release(c) && !codes.contains(c) && !EXEMPT.contains(c))
        .map(|c| c.id())
        .collect();
    assert!(
        missing.is_empty(),
        "corpus/{}: codes no case expects: {missing:?}",
        release.name
    );
    let bytes: usize = files(&release.dir()).values().map(Vec::len).sum();
    assert!(
        bytes <= release.budget,
        "corpus/{} holds {bytes} bytes, over its budget of {}",
        release.name,
        release.budget
    );
}

#[test]
fn v1_covers_every_tag_and_code_within_budget() {
    covers(&V1);
}

#[test]
fn v2_covers_every_tag_and_code_within_budget() {
    covers(&V2);
}

#[test]
fn generation_is_deterministic() {
    let p = Plan {
        seed: 77,
        count: 40,
        profiles: Vec::new(),
        handwritten: false,
        edition: Edition::V2,
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
