//! Reading extension objects with serde, turning every serde error into an issue with a JSON
//! pointer. Each extension object (one node's, one shape, one limit...) is read on its own, so
//! one bad object never hides the issues of the others.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::issue::{Code, Issue, Issues, push_pointer};

/// Properties every glTF property may carry besides its schema's own.
const ALWAYS_ALLOWED: &[&str] = &["extensions", "extras", "name"];

/// Deserialize `value` (found at `pointer`) into `T`. On failure, push one issue at the path of
/// the failure (`EXT_REQUIRED`, `ENUM_INVALID`, `EXT_ARRAY_LENGTH` or `EXT_TYPE`) and return
/// `None`.
pub fn parse<T: DeserializeOwned>(value: &Value, pointer: &str, issues: &mut Issues) -> Option<T> {
    // Path tracking costs as much as the read itself: take it only to locate an error. Both
    // reads see the same calls on the same value, so they succeed or fail together.
    if let Ok(v) = T::deserialize(value) {
        return Some(v);
    }
    parse_tracked(value, pointer, issues)
}

/// [`parse`] with path tracking from the start: the reference the fast path must agree with.
pub(crate) fn parse_tracked<T: DeserializeOwned>(
    value: &Value,
    pointer: &str,
    issues: &mut Issues,
) -> Option<T> {
    match serde_path_to_error::deserialize::<_, T>(value) {
        Ok(v) => Some(v),
        Err(err) => {
            let mut at = pointer.to_owned();
            for segment in err.path().iter() {
                match segment {
                    serde_path_to_error::Segment::Seq { index } => at = push_pointer(&at, index),
                    serde_path_to_error::Segment::Map { key } => at = push_pointer(&at, key),
                    serde_path_to_error::Segment::Enum { .. }
                    | serde_path_to_error::Segment::Unknown => {}
                }
            }
            issues.push(classify(&err.into_inner().to_string(), &at));
            None
        }
    }
}

/// Map a serde error message to the catalogue.
fn classify(message: &str, pointer: &str) -> Issue {
    if let Some(rest) = message.strip_prefix("missing field `") {
        let property = rest.split('`').next().unwrap_or(rest);
        return Issue::new(Code::ExtRequired, pointer).arg("property", property);
    }
    if let Some(rest) = message.strip_prefix("unknown variant `") {
        let value = rest.split('`').next().unwrap_or(rest);
        let known = rest
            .split_once("expected ")
            .map(|(_, k)| k.replace('`', ""))
            .unwrap_or_default();
        return Issue::new(Code::EnumInvalid, pointer)
            .arg("value", format!("{value:?}"))
            .arg("known", known);
    }
    // serde_json reads a struct from an array too; an array where an object belongs is a type
    // error, not a length error.
    if let Some(rest) = message
        .strip_prefix("invalid length ")
        .filter(|r| !r.contains("expected struct"))
    {
        let actual = rest.split(',').next().unwrap_or(rest);
        let expected = rest
            .split_once("expected ")
            .map(|(_, e)| e.to_owned())
            .unwrap_or_default();
        return Issue::new(Code::ExtArrayLength, pointer)
            .arg("actual", actual)
            .arg("expected", expected);
    }
    Issue::new(Code::ExtType, pointer).arg("detail", message)
}

/// `value` as an object; otherwise `EXT_TYPE` ("expected an object") at `pointer` and `None`.
pub fn object<'a>(
    value: &'a Value,
    pointer: &str,
    issues: &mut Issues,
) -> Option<&'a serde_json::Map<String, Value>> {
    let object = value.as_object();
    if object.is_none() {
        issues.push(Issue::new(Code::ExtType, pointer).arg("detail", "expected an object"));
    }
    object
}

/// Warn (`EXT_UNEXPECTED_PROPERTY`) about every property of the object at `pointer` that is not
/// in `known` (nor `extensions`, `extras`, `name`). A non-object is left to [`parse`].
pub fn check_properties(value: &Value, pointer: &str, known: &[&str], issues: &mut Issues) {
    let Some(object) = value.as_object() else {
        return;
    };
    for key in object.keys() {
        let listed = |list: &[&str]| list.contains(&key.as_str());
        if !listed(known) && !listed(ALWAYS_ALLOWED) {
            issues.push(
                Issue::new(Code::ExtUnexpectedProperty, push_pointer(pointer, key))
                    .arg("property", key),
            );
        }
    }
}

/// `Some(index)` when `index < length`; otherwise push `INDEX_OUT_OF_RANGE` at `pointer`.
pub fn check_index(
    index: usize,
    length: usize,
    array: &str,
    pointer: &str,
    issues: &mut Issues,
) -> Option<usize> {
    check_index_with(index, length, array, || pointer.to_owned(), issues)
}

/// [`check_index`] with the pointer written by `pointer` only for the issue (a reader resolves
/// several references per object, and almost all are in range).
pub fn check_index_with(
    index: usize,
    length: usize,
    array: &str,
    pointer: impl FnOnce() -> String,
    issues: &mut Issues,
) -> Option<usize> {
    if index < length {
        Some(index)
    } else {
        issues.push(
            Issue::new(Code::IndexOutOfRange, pointer())
                .arg("index", index)
                .arg("array", array)
                .arg("length", length),
        );
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Sample {
        shape: usize,
        size: Option<[f64; 3]>,
        mode: Option<Mode>,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "lowercase")]
    enum Mode {
        Force,
    }

    /// The shapes extension readers use: defaults, a list, a nested struct, a renamed field.
    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Nested {
        #[serde(rename = "type")]
        kind: Option<String>,
        nodes: Option<Vec<usize>>,
        #[serde(default)]
        inner: Option<Sample>,
        gravity_factor: Option<f64>,
    }

    /// Any JSON value, biased towards the keys and value kinds the sample types read.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            (-3i64..5).prop_map(Value::from),
            (-1e3f64..1e3).prop_map(Value::from),
            prop::sample::select(vec!["force", "torque", "", "box"]).prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            let key = prop::sample::select(vec![
                "shape",
                "size",
                "mode",
                "type",
                "nodes",
                "inner",
                "gravityFactor",
                "other",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::from),
                prop::collection::btree_map(key.prop_map(str::to_owned), inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// What `f` gives on `value`: the result and every issue (code, pointer, message).
    fn outcome<T>(
        f: fn(&Value, &str, &mut Issues) -> Option<T>,
        value: &Value,
    ) -> (Option<T>, Vec<(Code, String, String)>) {
        let mut issues = Issues::default();
        let result = f(value, "/e/0", &mut issues);
        let found = issues
            .0
            .into_iter()
            .map(|i| (i.code, i.pointer, i.message))
            .collect();
        (result, found)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// The untracked first try never changes what `parse` gives: same value, same issues.
        #[test]
        fn fast_parse_agrees_with_tracked_parse(value in any_json()) {
            proptest::prop_assert_eq!(
                outcome(parse::<Sample>, &value),
                outcome(parse_tracked::<Sample>, &value)
            );
            proptest::prop_assert_eq!(
                outcome(parse::<Nested>, &value),
                outcome(parse_tracked::<Nested>, &value)
            );
        }
    }

    fn one(value: Value) -> Issue {
        let mut issues = Issues::default();
        assert!(parse::<Sample>(&value, "/x", &mut issues).is_none());
        assert_eq!(issues.0.len(), 1);
        issues.0.remove(0)
    }

    #[test]
    fn errors_are_classified_with_pointers() {
        let i = one(json!({}));
        assert_eq!((i.code, i.pointer.as_str()), (Code::ExtRequired, "/x"));
        assert_eq!(i.message, "required property shape is missing");
        let i = one(json!({"shape": "a"}));
        assert_eq!((i.code, i.pointer.as_str()), (Code::ExtType, "/x/shape"));
        let i = one(json!({"shape": 0, "size": [1, 2]}));
        assert_eq!(
            (i.code, i.pointer.as_str()),
            (Code::ExtArrayLength, "/x/size")
        );
        let i = one(json!({"shape": 0, "size": [1, 2, 3, 4]}));
        assert_eq!(
            (i.code, i.pointer.as_str()),
            (Code::ExtArrayLength, "/x/size")
        );
        let i = one(json!({"shape": 0, "size": [1, "b", 3]}));
        assert_eq!((i.code, i.pointer.as_str()), (Code::ExtType, "/x/size/1"));
        let i = one(json!({"shape": 0, "mode": "torque"}));
        assert_eq!((i.code, i.pointer.as_str()), (Code::EnumInvalid, "/x/mode"));
        let i = one(json!({"shape": -1}));
        assert_eq!((i.code, i.pointer.as_str()), (Code::ExtType, "/x/shape"));
        let i = one(json!([1]));
        assert_eq!((i.code, i.pointer.as_str()), (Code::ExtType, "/x"));
    }

    #[test]
    fn unexpected_properties_are_warned() {
        let mut issues = Issues::default();
        check_properties(
            &json!({"shape": 0, "extras": {}, "bogus": 1}),
            "/x",
            &["shape"],
            &mut issues,
        );
        assert_eq!(issues.0.len(), 1);
        assert_eq!(issues.0[0].code, Code::ExtUnexpectedProperty);
        assert_eq!(issues.0[0].pointer, "/x/bogus");
    }
}
