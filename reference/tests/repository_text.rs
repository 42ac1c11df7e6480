//! What the repository's own text files may cite: every `[D-...]` is a decision of the
//! catalogue (`reference/DESIGN.md`), and every Markdown document a file names is in the
//! repository.

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

/// Every Markdown document a text names (`README.md`, `../harness/PROTOCOL.md`), outside links
/// to the web: a name is a run of path characters ending in `.md`.
fn documents_named(text: &str) -> Vec<&str> {
    let is_path = |c: char| c.is_ascii_alphanumeric() || "_-./".contains(c);
    let mut out = Vec::new();
    for (end, _) in text.match_indices(".md") {
        let end = end + ".md".len();
        if text[end..].starts_with(|c: char| c.is_ascii_alphanumeric()) {
            continue;
        }
        let start = text[..end - 3]
            .rfind(|c: char| !is_path(c))
            .map_or(0, |at| at + 1);
        let name = &text[start..end];
        let web = text[..start].ends_with("://") || text[..start].ends_with(':');
        if name.len() > 3 && !name.ends_with("/.md") && !web {
            out.push(name);
        }
    }
    out
}

/// Whether `name` is a tracked file: a path ending as `name` does, its `./` and `../` aside.
fn resolves(name: &str, tracked: &[String]) -> bool {
    let mut rest = name.trim_start_matches('/');
    while let Some(r) = rest.strip_prefix("../").or_else(|| rest.strip_prefix("./")) {
        rest = r;
    }
    tracked
        .iter()
        .any(|t| t == rest || t.ends_with(&format!("/{rest}")))
}

#[test]
fn every_document_a_file_names_is_in_the_repository() {
    let root = root().canonicalize().expect("root");
    let tracked: Vec<String> = files()
        .iter()
        .filter_map(|p| {
            p.canonicalize()
                .ok()?
                .strip_prefix(&root)
                .ok()
                .map(|p| p.display().to_string())
        })
        .collect();
    let mut missing = Vec::new();
    let mut seen = 0;
    for (path, text) in texts() {
        for name in documents_named(&text) {
            seen += 1;
            if !resolves(name, &tracked) {
                missing.push(format!("{}: {name}", path.display()));
            }
        }
    }
    assert!(
        seen > 0,
        "no document named anywhere: the scan read nothing"
    );
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "these files name a document the repository does not hold; say the thing itself, cite \
         a decision of reference/DESIGN.md, or name a file of the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn document_names_are_read_as_paths() {
    let text = "see [P](../harness/PROTOCOL.md#ops), README.md, https://x.org/a.md, \
                DESIGN.md [D-FRAMES] and mdbook.mdx";
    assert_eq!(
        documents_named(text),
        ["../harness/PROTOCOL.md", "README.md", "DESIGN.md"]
    );
    let tracked = ["reference/DESIGN.md".to_owned(), "README.md".to_owned()];
    assert!(resolves("DESIGN.md", &tracked) && resolves("../../README.md", &tracked));
    // built here, so that the scan of this file does not read them as names
    let [absent, elsewhere] = ["PRACTICE", "harness/README"].map(|n| format!("{n}.{}", "md"));
    assert!(!resolves(&absent, &tracked) && !resolves(&elsewhere, &tracked));
}
