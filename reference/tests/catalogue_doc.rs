//! `reference/ISSUE-CODES.md` is generated from [`Code::ALL`]: this test fails when the committed
//! file differs from what the catalogue says (rewrite it with `BLESS=1`).

use std::path::Path;

use reference::issue::{Code, Severity};

/// The Markdown table of every code, in catalogue order.
fn render() -> String {
    let mut out = String::from(
        "# Issue codes\n\n\
         <!-- Generated from `reference::issue::Code::ALL` by `reference/tests/catalogue_doc.rs`;\n\
         \x20    do not edit: run `BLESS=1 cargo test -p physics-cts-reference --test catalogue_doc`. -->\n\n\
         Every issue `physics-cts validate` can report. Ids are stable: a code never changes meaning\n\
         and a retired id is never reused. Severities follow the glTF-Validator conventions: an\n\
         **error** breaks a rule of a specification (the file is invalid), a **warning** is legal but\n\
         likely a mistake or ignored content, an **info** is a degenerate but legal construct worth\n\
         knowing about. A core-glTF code is an error only where glTF 2.0 calls the file invalid and\n\
         the Khronos glTF-Validator reports an error too, a warning where the validator warns: the\n\
         last column names the validator's codes for the same rule. A spec reference to one of the\n\
         suite's own decisions (`DESIGN.md [D-...]`) links to it in [DESIGN.md](DESIGN.md).\n\n",
    );
    let count = |s: Severity| Code::ALL.iter().filter(|c| c.severity() == s).count();
    out.push_str(&format!(
        "{} codes: {} errors, {} warnings, {} infos.\n\n",
        Code::ALL.len(),
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    ));
    out.push_str("| code | severity | profile(s) | rule | spec reference | glTF-Validator |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- |\n");
    for code in Code::ALL {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} | {} |\n",
            code.id(),
            code.severity(),
            cell(&code.scope().describe()),
            cell(code.rule()),
            cell(&spec_reference(code.spec_reference())),
            cell(code.gltf_validator()),
        ));
    }
    out
}

/// A spec reference with each decision it cites (`DESIGN.md [D-...]`, as the catalogue and so
/// every generated case's `spec` field writes it) as a link to its heading in `DESIGN.md`.
fn spec_reference(spec: &str) -> String {
    const LABEL: &str = "DESIGN.md [D-";
    let mut out = String::new();
    let mut rest = spec;
    while let Some(at) = rest.find(LABEL) {
        let id_at = at + LABEL.len() - "D-".len();
        let Some(len) = rest[id_at..].find(']') else {
            break;
        };
        let id = &rest[id_at..id_at + len];
        out.push_str(&rest[..at]);
        out.push_str(&format!("[{id}](DESIGN.md#{})", id.to_ascii_lowercase()));
        rest = &rest[id_at + len + 1..];
    }
    out.push_str(rest);
    out
}

/// A table cell: `|` would end the cell, a line break the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

#[test]
fn issue_codes_md_matches_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("ISSUE-CODES.md");
    let expected = render();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, &expected).expect("write ISSUE-CODES.md");
        return;
    }
    let actual = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        actual == expected,
        "{} is out of date with reference::issue::Code::ALL; regenerate it with \
         `BLESS=1 cargo test -p physics-cts-reference --test catalogue_doc`",
        path.display()
    );
}

#[test]
fn every_code_has_one_row_with_its_severity() {
    let table = render();
    for code in Code::ALL {
        let prefix = format!("| `{}` | {} |", code.id(), code.severity());
        assert_eq!(
            table.lines().filter(|l| l.starts_with(&prefix)).count(),
            1,
            "{}",
            code.id()
        );
    }
    let rows = table.lines().filter(|l| l.starts_with("| `")).count();
    assert_eq!(rows, Code::ALL.len());
}

#[test]
fn decision_labels_link_into_design_md() {
    assert_eq!(
        spec_reference("KHR Motions; DESIGN.md [D-MASS-ZERO-SCHEMA]"),
        "KHR Motions; [D-MASS-ZERO-SCHEMA](DESIGN.md#d-mass-zero-schema)"
    );
    assert_eq!(spec_reference("physics-cts limits"), "physics-cts limits");
}

#[test]
fn cells_escape_pipes_and_line_breaks() {
    assert_eq!(cell("a | b\nc"), "a \\| b c");
}
