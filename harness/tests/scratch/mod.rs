//! A fresh folder per test below cargo's per-target temporary folder: a failed test leaves its
//! files there to look at, and the next run starts clean.

use std::path::PathBuf;

/// The empty folder `name` of this test crate.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(env!("CARGO_CRATE_NAME"))
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
