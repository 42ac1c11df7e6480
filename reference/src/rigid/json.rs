//! Small JSON checks both readers make the same way.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::ext::{check_properties, parse};
use crate::issue::{Code, Issue, Issues, Severity, Token, push_pointer};

use super::Spelling;

impl Spelling {
    /// `value` as a JSON object, or `EXT_TYPE` at `pointer`. (serde would read a struct from an
    /// array too, so objects are checked before they are parsed.)
    pub fn object<'a>(
        &self,
        value: &'a Value,
        pointer: &str,
        issues: &mut Issues,
    ) -> Option<&'a Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            issues.push(
                Issue::new(Code::ExtType, pointer).arg("detail", self.expected("an object", value)),
            );
        }
        object
    }

    /// `value` at `pointer` as a `T`: an object (else `EXT_TYPE`) whose properties not in
    /// `known` are `EXT_UNEXPECTED_PROPERTY`, parsed.
    pub fn parse_object<T: DeserializeOwned>(
        &self,
        value: &Value,
        pointer: &str,
        known: &[&str],
        issues: &mut Issues,
    ) -> Option<T> {
        self.object(value, pointer, issues)?;
        check_properties(value, pointer, known, issues);
        parse(value, pointer, issues)
    }

    /// The array `object[key]` (at `pointer/key`). Absent: an empty list. Present but not an
    /// array: `EXT_TYPE` and `None`. Empty where the family wants an item: `EXT_ARRAY_LENGTH`
    /// and the empty list.
    pub fn array<'a>(
        &self,
        object: &'a Map<String, Value>,
        pointer: &str,
        key: &str,
        issues: &mut Issues,
    ) -> Option<(&'a [Value], String)> {
        let at = push_pointer(pointer, key);
        let Some(value) = object.get(key) else {
            return Some((&[], at));
        };
        let Some(list) = value.as_array() else {
            issues.push(
                Issue::new(Code::ExtType, &at).arg("detail", self.expected("an array", value)),
            );
            return None;
        };
        if list.is_empty() && self.min_one_item {
            issues.push(array_length(&at, 0, "at least 1"));
        }
        Some((list, at))
    }

    /// The detail of `EXT_TYPE` for `value` where `kind` was expected.
    fn expected(&self, kind: &str, value: &Value) -> String {
        if self.name_kind {
            format!("expected {kind}, found {}", json_kind(value))
        } else {
            format!("expected {kind}")
        }
    }
}

/// `EXT_ARRAY_LENGTH` for an array checked by hand.
pub fn array_length(pointer: &str, actual: usize, expected: &str) -> Issue {
    Issue::new(Code::ExtArrayLength, pointer)
        .arg("actual", actual)
        .arg("expected", expected)
}

/// `ENUM_UNKNOWN` for a value of an open enum.
pub fn enum_unknown(pointer: &str, value: &str, known: &[&str]) -> Issue {
    Issue::new(Code::EnumUnknown, pointer)
        .arg("value", format!("{value:?}"))
        .arg("known", known.join(", "))
}

/// Whether `value` respects its schema minimum of 0; otherwise push `VALUE_OUT_OF_RANGE` at
/// `pointer/key` and return false, so the caller can leave the value (or its object) out. The
/// pointer is written only for the issue (most values are valid).
pub fn non_negative(value: f64, pointer: &str, key: impl Token, issues: &mut Issues) -> bool {
    if value < 0.0 {
        issues.push(
            Issue::new(Code::ValueOutOfRange, push_pointer(pointer, key))
                .arg("value", value)
                .arg("range", "minimum 0"),
        );
        false
    } else {
        true
    }
}

/// Whether no error was pushed since `mark` (a length of `issues` taken earlier).
pub fn clean_since(issues: &Issues, mark: usize) -> bool {
    !issues.0[mark..]
        .iter()
        .any(|i| i.severity == Severity::Error)
}

/// A JSON value's kind, for messages.
fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
