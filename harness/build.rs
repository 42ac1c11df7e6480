//! Records `git describe` of the source at build time (the suite version a certification bundle
//! states); without git, or outside a repository, nothing is recorded.

use std::path::{Path, PathBuf};
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_owned();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    // Rerun when HEAD moves: HEAD itself, and the branch file it points to (when not packed).
    let mut watched = vec![git(&dir, &["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&dir, &["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&dir, &["rev-parse", "--git-path", &branch]));
    }
    for path in watched.into_iter().flatten() {
        let path = dir.join(path);
        if path.is_file() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
    if let Some(describe) = git(&dir, &["describe", "--tags", "--always"]) {
        println!("cargo:rustc-env=PHYSICS_CTS_GIT_DESCRIBE={describe}");
    }
}
