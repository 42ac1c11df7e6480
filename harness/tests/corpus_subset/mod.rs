//! A small corpus copied out of a generated one (`tests/cli_certify.rs`,
//! `tests/readme_examples.rs`): tests that run whole commands on real cases stay quick.

use std::path::Path;

use serde_json::Value;

/// Copy the cases `ids` of the corpus `from` into `to`: their manifest rows (the manifest's
/// `count` fixed), documents, expectation files and buffers. The number of cases copied.
pub fn copy_cases(from: &Path, to: &Path, ids: &[&str]) -> usize {
    let text = std::fs::read_to_string(from.join("manifest.json")).expect("manifest");
    let mut manifest: Value = serde_json::from_str(&text).expect("json");
    let rows: Vec<Value> = manifest["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|r| ids.contains(&r["id"].as_str().unwrap_or("")))
        .cloned()
        .collect();
    for r in &rows {
        let file = r["file"].as_str().expect("file");
        let stem = file.rsplit_once('.').expect("extension").0;
        for rel in [
            file.to_owned(),
            format!("{stem}.expect.json"),
            format!("{stem}.bin"),
        ] {
            if from.join(&rel).exists() {
                let copy = to.join(&rel);
                std::fs::create_dir_all(copy.parent().expect("parent")).expect("mkdir");
                std::fs::copy(from.join(&rel), &copy).expect("copy");
            }
        }
    }
    let copied = rows.len();
    manifest["count"] = copied.into();
    manifest["cases"] = Value::Array(rows);
    std::fs::create_dir_all(to).expect("mkdir");
    std::fs::write(to.join("manifest.json"), manifest.to_string()).expect("manifest");
    copied
}
