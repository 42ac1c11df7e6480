//! A case an engine cannot run is a case it is not scored on: in the committed baselines of
//! Rapier and PhysX over corpus/v2, under 10% of the cases answered `NOT_SUPPORTED` are blocked
//! only by features outside the case's own area (the corpus draws rare features only where
//! they are the subject, `generator::edition`). `reports/README.md` gives the shares per
//! profile.

use std::collections::BTreeMap;
use std::path::Path;

use generator::features;

/// (profile → (NOT_SUPPORTED cases, those blocked only by another area's features)) of a
/// baseline's `results.csv`.
fn shares(implementation: &str) -> BTreeMap<String, (usize, usize)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../reports")
        .join(implementation)
        .join("results.csv");
    let mut reader = csv::Reader::from_path(&path).expect("the committed baseline");
    let headers = reader.headers().expect("headers").clone();
    let col = |name: &str| headers.iter().position(|h| h == name).expect(name);
    let (profile, area, check, status, message) = (
        col("profile"),
        col("area"),
        col("check"),
        col("status"),
        col("message"),
    );
    let mut out: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for row in reader.records() {
        let row = row.expect("a row");
        let Some(missing) = row[message].strip_prefix("features not declared:") else {
            continue;
        };
        if &row[check] != "capabilities" || &row[status] != "NOT_SUPPORTED" {
            continue;
        }
        let only_other = missing
            .split_whitespace()
            .all(|tag| features::area(tag) != &row[area]);
        let e = out.entry(row[profile].to_owned()).or_default();
        e.0 += 1;
        e.1 += usize::from(only_other);
    }
    out
}

#[test]
fn under_a_tenth_of_not_supported_cases_are_blocked_by_another_area() {
    for implementation in ["rapier", "physx"] {
        let per = shares(implementation);
        let (all, other) = per.values().fold((0, 0), |(a, o), (x, y)| (a + x, o + y));
        for (profile, (n, o)) in &per {
            println!("{implementation} {profile}: {o} of {n}");
        }
        assert!(all > 0, "{implementation}: some case is NOT_SUPPORTED");
        assert!(
            other * 10 < all,
            "{implementation}: {other} of {all} NOT_SUPPORTED cases are blocked only by another area's features: {per:?}"
        );
    }
}
