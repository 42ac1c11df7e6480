//! The catalogue documents beside `reference/ISSUE-CODES.md` are generated from the tables in
//! code: `DESIGN.md` (the suite's design decisions) from [`Decision::ALL`], `FEATURES.md` from [`FeatureTag::ALL`],
//! `CHECKS.md` from [`CheckId::ALL`]. Each test
//! fails when the committed file differs from what the table says (rewrite them with `BLESS=1`);
//! the tables are checked against what the committed reports hold.

use std::path::Path;

use reference::check_id::{self, CheckId};
use reference::decision::Decision;
use reference::feature::{self, FeatureTag};
use reference::issue::Code;

const BLESS: &str = "BLESS=1 cargo test -p physics-cts-reference --test catalogues";

/// Compare the committed `reference/<name>` with `expected`, or write it under `BLESS`.
fn compare_or_bless(name: &str, expected: &str, table: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, expected).unwrap_or_else(|e| panic!("write {name}: {e}"));
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "{} is out of date with {table}; regenerate it with `{BLESS}`",
        path.display()
    );
}

/// A table cell or a paragraph: `|` would end a cell, a line break a row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// One heading per decision, so that a citation can link to `DESIGN.md#d-twist-signed`.
fn render_decisions() -> String {
    let mut out = format!(
        "# Design decisions\n\n\
         <!-- Generated from `reference::decision::Decision::ALL` by `reference/tests/catalogues.rs`;\n\
         \x20    do not edit: run `{BLESS}`. -->\n\n\
         Where a specification is silent or contradicts itself, the reference takes one documented\n\
         decision. Every value of the expected interpretation, every check and every issue code\n\
         that rests on one cites its id (`[D-...]` in the code and the documents, `decisions` in\n\
         `expect.json`, `eval`'s output and the reports). Ids are stable: a decision never changes\n\
         its id, and a test fails when a `[D-...]` cited anywhere in the repository is not below.\n\
         Generated cases cite one in their `spec` field as `DESIGN.md [D-...]`.\n\n\
         {} decisions.\n",
        Decision::ALL.len()
    );
    for d in Decision::ALL {
        out.push_str(&format!("\n## {}\n\n{}\n", d.id(), cell(d.text())));
    }
    out
}

#[test]
fn design_md_matches_the_catalogue() {
    compare_or_bless(
        "DESIGN.md",
        &render_decisions(),
        "reference::decision::Decision::ALL",
    );
}

#[test]
fn every_decision_has_one_heading() {
    let doc = render_decisions();
    for d in Decision::ALL {
        let heading = format!("## {}", d.id());
        assert_eq!(
            doc.lines().filter(|l| *l == heading).count(),
            1,
            "{heading}"
        );
    }
}

/// The table of check kinds, in the order a case's checks run.
fn render_checks() -> String {
    let mut out = format!(
        "# Check ids\n\n\
         <!-- Generated from `reference::check_id::CheckId::ALL` by `reference/tests/catalogues.rs`;\n\
         \x20    do not edit: run `{BLESS}`. -->\n\n\
         The `check` of every result the harness writes (`results.csv`, `results.ndjson`, the HTML\n\
         report), by kind: an id without the indices of the objects it is about (every `-`-separated\n\
         part after the first that is all digits is dropped, so `dynamics.joint-10-limit-0` is of kind\n\
         `dynamics.joint-limit`), as the fuzzer names its symptoms. `<pose>` stands for a pose name\n\
         of the case; a `dynamics.<name>` check is a scenario check the case names. A family's bare\n\
         name (`interpretation`, `constraints`, `dynamics`) carries a SKIP, a NOTRUN or the failure of\n\
         its call. A test fails when a committed report holds a kind that is not below.\n\n\
         {} kinds.\n\n\
         | check | passes when |\n\
         | --- | --- |\n",
        CheckId::ALL.len()
    );
    for c in CheckId::ALL {
        out.push_str(&format!("| `{}` | {} |\n", c.id, cell(c.meaning)));
    }
    out
}

#[test]
fn checks_md_matches_the_catalogue() {
    compare_or_bless(
        "CHECKS.md",
        &render_checks(),
        "reference::check_id::CheckId::ALL",
    );
}

/// The fields of one CSV line (RFC 4180: quoted fields may hold commas and doubled quotes).
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().expect("a field").push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => out.last_mut().expect("a field").push(c),
        }
    }
    out
}

#[test]
fn every_check_kind_of_the_committed_reports_is_in_the_catalogue() {
    let reports = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reports");
    let mut files = 0;
    let mut unknown = std::collections::BTreeSet::new();
    for dir in std::fs::read_dir(&reports).expect("reports/").flatten() {
        let Ok(text) = std::fs::read_to_string(dir.path().join("results.csv")) else {
            continue;
        };
        files += 1;
        let mut lines = text.lines();
        let header = csv_fields(lines.next().expect("a header"));
        let at = header
            .iter()
            .position(|h| h == "check")
            .expect("a check column");
        for line in lines {
            let check = &csv_fields(line)[at];
            if CheckId::of(check).is_none() {
                unknown.insert(check_id::kind(check));
            }
        }
    }
    assert!(files > 0, "no reports/*/results.csv read");
    assert!(
        unknown.is_empty(),
        "check kinds in reports/*/results.csv without an entry in reference::check_id: {unknown:?}"
    );
}

#[test]
fn csv_fields_keep_quoted_commas() {
    assert_eq!(csv_fields(r#"a,"b, ""c""",,d"#), ["a", "b, \"c\"", "", "d"]);
}

/// The tags by area, then the rule of invalid cases' tags.
fn render_features() -> String {
    let mut out = format!(
        "# Feature tags\n\n\
         <!-- Generated from `reference::feature::FeatureTag::ALL` by `reference/tests/catalogues.rs`;\n\
         \x20    do not edit: run `{BLESS}`. -->\n\n\
         What a case's scene contains, as the `features` of its row in `manifest.json` say. The\n\
         generator writes them; an implementation's handshake declares the tags it supports, and a\n\
         case with a tag it does not declare is `NOT_SUPPORTED` without a call; reports score per\n\
         tag. A test fails when a tag of `corpus/v1` or `corpus/v2` is not here, or a tag here is in\n\
         neither.\n\n\
         {} tags of valid scenes, and one `invalid.<code>` tag per invalid case.\n",
        FeatureTag::ALL.len()
    );
    let mut area = "";
    for f in FeatureTag::ALL {
        if f.area() != area {
            area = f.area();
            out.push_str(&format!(
                "\n## {area}\n\n| tag | the scene has |\n| --- | --- |\n"
            ));
        }
        out.push_str(&format!("| `{}` | {} |\n", f.id, cell(f.meaning)));
    }
    out.push_str(
        "\n## invalid\n\n\
         An invalid case (one defect in a valid scene) is tagged `invalid.` and the id of the issue\n\
         code its defect raises, in lower case: `invalid.limit_min_above_max` is a case whose\n\
         defect is `LIMIT_MIN_ABOVE_MAX`. The codes are in [ISSUE-CODES.md](ISSUE-CODES.md).\n",
    );
    out
}

#[test]
fn features_md_matches_the_catalogue() {
    compare_or_bless(
        "FEATURES.md",
        &render_features(),
        "reference::feature::FeatureTag::ALL",
    );
}

/// Every tag of the committed manifests, with one case carrying it.
fn manifest_tags() -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    for corpus in ["v1", "v2"] {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../corpus/{corpus}/manifest.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let manifest: serde_json::Value = serde_json::from_str(&text).expect("manifest JSON");
        for case in manifest["cases"].as_array().expect("cases") {
            for tag in case["features"].as_array().into_iter().flatten() {
                let tag = tag.as_str().expect("a tag").to_owned();
                out.entry(tag)
                    .or_insert_with(|| format!("{corpus}: {}", case["id"]));
            }
        }
    }
    out
}

#[test]
fn the_catalogue_holds_every_tag_of_the_committed_manifests_and_no_other() {
    let tags = manifest_tags();
    let unknown: Vec<String> = tags
        .iter()
        .filter(|(t, _)| !FeatureTag::is_known(t))
        .map(|(t, case)| format!("{t} ({case})"))
        .collect();
    assert!(
        unknown.is_empty(),
        "tags in corpus/*/manifest.json without an entry in reference::feature (add them, with \
         what a scene with the tag contains): {unknown:?}"
    );
    let dead: Vec<&str> = FeatureTag::ALL
        .iter()
        .map(|f| f.id)
        .filter(|t| !tags.contains_key(*t))
        .collect();
    assert!(
        dead.is_empty(),
        "tags in reference::feature that no committed manifest carries: {dead:?}"
    );
}

#[test]
fn every_invalid_tag_names_an_issue_code() {
    let invalid = manifest_tags()
        .into_keys()
        .filter(|t| t.starts_with(feature::INVALID))
        .map(|t| FeatureTag::invalid_code(&t).map(Code::id).ok_or(t))
        .collect::<Vec<_>>();
    assert!(
        !invalid.is_empty(),
        "no invalid case in the committed manifests"
    );
    let unknown: Vec<&String> = invalid.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        unknown.is_empty(),
        "invalid tags naming no issue code: {unknown:?}"
    );
}
