//! The catalogue documents beside `reference/ISSUE-CODES.md` are generated from the tables in
//! code: `DECISIONS.md` from [`Decision::ALL`]. Each test fails when the committed file differs
//! from what the table says (rewrite them with `BLESS=1`).

use std::path::Path;

use reference::decision::Decision;

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

/// One heading per decision, so that a citation can link to `DECISIONS.md#d-twist-signed`.
fn render_decisions() -> String {
    let mut out = format!(
        "# Semantic decisions\n\n\
         <!-- Generated from `reference::decision::Decision::ALL` by `reference/tests/catalogues.rs`;\n\
         \x20    do not edit: run `{BLESS}`. -->\n\n\
         Where a specification is silent or contradicts itself, the reference takes one documented\n\
         decision. Every value of the expected interpretation, every check and every issue code\n\
         that rests on one cites its id (`[D-...]` in the code and the documents, `decisions` in\n\
         `expect.json`, `eval`'s output and the reports). Ids are stable: a decision never changes\n\
         its id, and a test fails when a `[D-...]` cited anywhere in the repository is not below.\n\n\
         {} decisions.\n",
        Decision::ALL.len()
    );
    for d in Decision::ALL {
        out.push_str(&format!("\n## {}\n\n{}\n", d.id(), cell(d.text())));
    }
    out
}

#[test]
fn decisions_md_matches_the_catalogue() {
    compare_or_bless(
        "DECISIONS.md",
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
