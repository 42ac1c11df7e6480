//! Golden files: an output compared byte for byte with its file under `tests/golden/`, which
//! `BLESS=1` rewrites (check the output first).

use std::path::Path;

/// `actual` is `tests/golden/<rel>`; with `BLESS` set, it becomes it.
pub fn assert_golden(rel: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(rel);
    if std::env::var_os("BLESS").is_some() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, actual).expect("bless");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1 to create it)", path.display()));
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{rel} differs from the golden file at line {}:\n  golden: {:?}\n  actual: {:?}\n(BLESS=1 to update)",
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}
