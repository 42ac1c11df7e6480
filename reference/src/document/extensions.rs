//! Declared extensions (glTF 2.0 §3.12): every `extensions` object anywhere in the document
//! against `extensionsUsed` and `extensionsRequired`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::profile::Profile;

use super::Document;

impl Document {
    /// `EXTENSION_NOT_DECLARED` (once per extension, at its first use), then for each entry of
    /// `extensionsRequired` missing from `extensionsUsed` `EXTENSION_REQUIRED_NOT_USED`, and for
    /// each entry of `extensionsUsed` `EXTENSION_UNUSED` (never used) and `EXTENSION_UNKNOWN`
    /// (no profile reads it).
    pub fn check_extensions(&self, issues: &mut Issues) {
        let used = self.extension_uses();
        let strings = |key: &str| -> Vec<(usize, &str)> {
            self.json
                .get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .enumerate()
                        .filter_map(|(i, v)| v.as_str().map(|s| (i, s)))
                        .collect()
                })
                .unwrap_or_default()
        };
        let declared = strings("extensionsUsed");
        let is_declared = |name: &str| declared.iter().any(|(_, d)| *d == name);
        for (name, pointer) in &used {
            if !is_declared(name) {
                issues.push(
                    Issue::new(Code::ExtensionNotDeclared, pointer.as_str()).arg("extension", name),
                );
            }
        }
        for (i, name) in strings("extensionsRequired") {
            if !is_declared(name) {
                issues.push(
                    Issue::new(
                        Code::ExtensionRequiredNotUsed,
                        format!("/extensionsRequired/{i}"),
                    )
                    .arg("extension", name),
                );
            }
        }
        for (i, name) in declared {
            let pointer = format!("/extensionsUsed/{i}");
            if !used.contains_key(name) {
                issues.push(
                    Issue::new(Code::ExtensionUnused, pointer.as_str()).arg("extension", name),
                );
            }
            if Profile::of_extension(name).is_none() {
                issues.push(Issue::new(Code::ExtensionUnknown, pointer).arg("extension", name));
            }
        }
    }

    /// Every extension used anywhere (keys of any `extensions` object, except inside `extras`),
    /// with the pointer of its first use in document order (object keys in sorted order).
    pub fn extension_uses(&self) -> BTreeMap<String, String> {
        let mut uses = BTreeMap::new();
        walk(&self.json, &mut String::new(), &mut uses);
        uses
    }
}

/// Depth is bounded by serde_json's recursion limit (128), so recursion is safe. `pointer` is
/// one buffer grown and truncated on the way, so only first uses allocate.
fn walk(value: &Value, pointer: &mut String, uses: &mut BTreeMap<String, String>) {
    let len = pointer.len();
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if key == "extras" {
                    continue; // application data, not glTF properties
                }
                if !(child.is_object() || child.is_array()) {
                    continue;
                }
                pointer.push('/');
                pointer.push_str(&crate::issue::escape_token(key));
                if key == "extensions"
                    && let Some(extensions) = child.as_object()
                {
                    for name in extensions.keys() {
                        if !uses.contains_key(name) {
                            uses.insert(name.clone(), push_pointer(pointer, name));
                        }
                    }
                }
                walk(child, pointer, uses);
                pointer.truncate(len);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                if child.is_object() || child.is_array() {
                    use std::fmt::Write as _;
                    let _ = write!(pointer, "/{i}");
                    walk(child, pointer, uses);
                    pointer.truncate(len);
                }
            }
        }
        _ => {}
    }
}
