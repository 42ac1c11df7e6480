//! Declared extensions (glTF 2.0 §3.12): every `extensions` object anywhere in the document
//! against `extensionsUsed` and `extensionsRequired`.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_pointer, push_token};
use crate::profile::Profile;

use super::Document;

impl Document<'_> {
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
        walk(&self.json, &mut Vec::new(), &mut uses);
        uses
    }
}

/// One step of the path from the document root to a value.
#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// The JSON pointer of `path`.
fn pointer_of(path: &[Step<'_>]) -> String {
    use std::fmt::Write as _;
    let mut pointer = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                pointer.push('/');
                push_token(&mut pointer, key);
            }
            Step::Index(i) => {
                let _ = write!(pointer, "/{i}");
            }
        }
    }
    pointer
}

/// Depth is bounded by serde_json's recursion limit (128), so recursion is safe. The path is
/// kept as steps and written out only for a first use: most documents have a handful of uses
/// among thousands of values.
fn walk<'a>(value: &'a Value, path: &mut Vec<Step<'a>>, uses: &mut BTreeMap<String, String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                if !(child.is_object() || child.is_array()) {
                    continue;
                }
                if key == "extras" {
                    continue; // application data, not glTF properties
                }
                path.push(Step::Key(key));
                if key == "extensions"
                    && let Some(extensions) = child.as_object()
                {
                    for name in extensions.keys() {
                        if !uses.contains_key(name) {
                            uses.insert(name.to_owned(), push_pointer(&pointer_of(path), name));
                        }
                    }
                }
                walk(child, path, uses);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                if child.is_object() || child.is_array() {
                    path.push(Step::Index(i));
                    walk(child, path, uses);
                    path.pop();
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The walk as it was: the pointer written out at every step.
    fn walk_written(value: &Value, pointer: &mut String, uses: &mut BTreeMap<String, String>) {
        let len = pointer.len();
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if key == "extras" || !(child.is_object() || child.is_array()) {
                        continue;
                    }
                    pointer.push('/');
                    pointer.push_str(&crate::issue::escape_token(key));
                    if key == "extensions"
                        && let Some(extensions) = child.as_object()
                    {
                        for name in extensions.keys() {
                            if !uses.contains_key(name) {
                                uses.insert(name.to_owned(), push_pointer(pointer, name));
                            }
                        }
                    }
                    walk_written(child, pointer, uses);
                    pointer.truncate(len);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    if child.is_object() || child.is_array() {
                        pointer.push_str(&format!("/{i}"));
                        walk_written(child, pointer, uses);
                        pointer.truncate(len);
                    }
                }
            }
            _ => {}
        }
    }

    /// Any JSON value whose keys are often `extensions`, `extras`, or need escaping.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![Just(Value::Null), (0i64..3).prop_map(Value::from)];
        leaf.prop_recursive(5, 64, 5, |inner| {
            let key = prop::sample::select(vec![
                "extensions",
                "extras",
                "nodes",
                "a/b",
                "c~d",
                "E_x",
                "F_y",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
                prop::collection::btree_map(key.prop_map(str::to_owned), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1024))]
        /// Keeping the path as steps finds the same uses at the same pointers.
        #[test]
        fn step_walk_agrees_with_the_written_walk(value in any_json()) {
            let (mut steps, mut written) = (BTreeMap::new(), BTreeMap::new());
            walk(&value, &mut Vec::new(), &mut steps);
            walk_written(&value, &mut String::new(), &mut written);
            proptest::prop_assert_eq!(steps, written);
        }
    }

    #[test]
    fn first_uses_in_sorted_key_order() {
        let value = serde_json::json!({
            "nodes": [{"extensions": {"B_x": {}}}, {"a/b": {"extensions": {"A_x": {}, "B_x": {}}}}],
            "extras": {"extensions": {"C_x": {}}},
            "extensions": {"A_x": {"extensions": {"D~x": {}}}}
        });
        let mut uses = BTreeMap::new();
        walk(&value, &mut Vec::new(), &mut uses);
        let expected: BTreeMap<String, String> = [
            ("A_x", "/extensions/A_x"),
            ("B_x", "/nodes/0/extensions/B_x"),
            ("D~x", "/extensions/A_x/extensions/D~0x"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        assert_eq!(uses, expected);
    }
}
