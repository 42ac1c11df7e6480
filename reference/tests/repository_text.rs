//! What the repository's own text files may cite: every `[D-...]` is a decision of the
//! catalogue (`reference/DECISIONS.md`), and no Markdown or Rust file sends a reader to a design
//! document the repository does not hold.

use std::path::{Path, PathBuf};
use std::process::Command;

use reference::decision::Decision;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The repository's tracked files (`git ls-files`); outside a git checkout (a source archive),
/// every file below the root but build outputs, installed packages and `.git`.
fn files() -> Vec<PathBuf> {
    let root = root();
    let listed = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["ls-files", "-z"])
        .output()
        .ok()
        .filter(|o| o.status.success());
    if let Some(out) = listed {
        return out
            .stdout
            .split(|&b| b == 0)
            .filter(|p| !p.is_empty())
            .map(|p| root.join(String::from_utf8_lossy(p).as_ref()))
            .collect();
    }
    let mut out = Vec::new();
    let mut todo = vec![root];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir").flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if path.is_dir() {
                if !matches!(name.to_str(), Some("target" | "node_modules" | ".git")) {
                    todo.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out
}

/// The text of every listed file that is UTF-8 (binary buffers and GLBs are not).
fn texts() -> impl Iterator<Item = (PathBuf, String)> {
    files().into_iter().filter_map(|p| {
        let text = String::from_utf8(std::fs::read(&p).ok()?).ok()?;
        Some((p, text))
    })
}

/// Every `[D-...]` id in `text` (the bracketed citation form of the code and the documents).
fn cited(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("[D-") {
        let rest = &text[at + 1..];
        let len = rest
            .bytes()
            .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'-')
            .count();
        if rest.as_bytes().get(len) == Some(&b']') {
            out.push(&rest[..len]);
        }
    }
    out
}

#[test]
fn every_cited_decision_is_in_the_catalogue() {
    let mut unknown = Vec::new();
    let mut seen = 0;
    for (path, text) in texts() {
        for id in cited(&text) {
            seen += 1;
            if Decision::from_id(id).is_none() {
                unknown.push(format!("{}: [{id}]", path.display()));
            }
        }
    }
    assert!(
        seen > 0,
        "no decision cited anywhere: the scan read nothing"
    );
    unknown.sort();
    unknown.dedup();
    assert!(
        unknown.is_empty(),
        "decision ids cited but not in reference::decision::Decision::ALL (add them there; ids \
         are stable, never renamed):\n{}",
        unknown.join("\n")
    );
}

#[test]
fn citations_are_found_in_brackets_only() {
    assert_eq!(
        cited("[D-TWIST-SIGNED], D-FRAMES, [D-VRM1-AIM] and [D-X y]"),
        ["D-TWIST-SIGNED", "D-VRM1-AIM"]
    );
}

/// The names of design documents that were never part of the repository (built here so this
/// file does not name them).
fn external_documents() -> [String; 2] {
    [
        ["DESIGN", ".md"].concat(),
        ["CONFORMANCE", "-PRACTICE"].concat(),
    ]
}

/// Where a Rust or Markdown file names a document the repository does not hold. The one form
/// allowed is the label of a decision reference in the issue catalogue's data, in Rust code
/// (not comments): `"... <doc> [D-...]"`, and the test that reads that label. Generated cases
/// carry it in their `spec` field, so changing it would change the corpus; its id resolves in
/// `reference/DECISIONS.md`, and `reference/ISSUE-CODES.md` renders it as a link there.
fn external_references(text: &str, rust: bool) -> Vec<usize> {
    let [design, practice] = external_documents();
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.contains(&practice) {
            out.push(n + 1);
        }
        let code = rust && !line.trim_start().starts_with("//");
        for (at, _) in line.match_indices(&design) {
            let before = line[..at].chars().next_back();
            let after = &line[at + design.len()..];
            let label =
                after.starts_with(" [D-") || (before == Some('"') && after.starts_with('"'));
            if !(code && label) {
                out.push(n + 1);
            }
        }
    }
    out.dedup();
    out
}

#[test]
fn no_file_sends_a_reader_to_a_document_the_repository_lacks() {
    let mut found = Vec::new();
    for (path, text) in texts() {
        let ext = path.extension().and_then(|e| e.to_str());
        if !matches!(ext, Some("rs" | "md")) {
            continue;
        }
        for line in external_references(&text, ext == Some("rs")) {
            found.push(format!("{}:{line}", path.display()));
        }
    }
    assert!(
        found.is_empty(),
        "these lines name a design document that is not in the repository; say the thing \
         itself, cite a decision of reference/DECISIONS.md, or point to a file of the \
         repository:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_catalogue_label_in_code_is_the_only_form_allowed() {
    let [design, practice] = external_documents();
    let ok = format!(
        "    X = \"Geometry; {design} [D-VRM-RANGE]\",\n    spec.starts_with(\"{design}\")"
    );
    assert!(external_references(&ok, true).is_empty());
    assert_eq!(external_references(&ok, false), [1, 2]);
    let bad = format!(
        "//! see {design}\n/// ({design} [D-FRAMES])\n{practice} \"Results\"\n\"see {design}\""
    );
    assert_eq!(external_references(&bad, true), [1, 2, 3, 4]);
}
