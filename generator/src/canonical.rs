//! Canonical JSON text: sorted keys, two-space indentation, shortest round-trip floats, a final
//! newline. The same value always gives the same bytes, whatever serde_json features are on.

use serde_json::{Map, Value};

/// Pretty-print `value` with every object's keys sorted.
pub fn to_string(value: &Value) -> String {
    let mut out = Vec::with_capacity(4096);
    write_to(value, &mut out);
    // Every piece written is UTF-8 (serde_json text and ASCII punctuation).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Append the canonical text of `value` (with its final newline) to `out`.
pub fn write_to(value: &Value, out: &mut Vec<u8>) {
    write(value, 0, out);
    out.push(b'\n');
}

/// Containers whose one-line text is at most this long stay on one line.
const INLINE: usize = 100;

/// An object's members in key order (serde_json's default map is already sorted; a map that
/// keeps insertion order is sorted here).
fn members(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let mut v: Vec<(&String, &Value)> = map.iter().collect();
    if !v.is_sorted_by(|a, b| a.0 <= b.0) {
        v.sort_unstable_by(|a, b| a.0.cmp(b.0));
    }
    v
}

/// A scalar (or a key string) as serde_json writes it.
fn scalar<T: serde::Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Writing a string, number, bool or null into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

/// Append the one-line canonical text (sorted keys, `, ` and `: ` separators) of `value`,
/// giving up (returning false, `out` then holds a partial text) as soon as `out` is longer
/// than `limit` bytes: the caller only needs to know whether the whole text fits.
fn inline(value: &Value, out: &mut Vec<u8>, limit: usize) -> bool {
    match value {
        Value::Object(map) => {
            out.push(b'{');
            for (i, (key, item)) in members(map).into_iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                scalar(key.as_str(), out);
                out.extend_from_slice(b": ");
                if !inline(item, out, limit) {
                    return false;
                }
            }
            out.push(b'}');
        }
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.extend_from_slice(b", ");
                }
                if !inline(item, out, limit) {
                    return false;
                }
            }
            out.push(b']');
        }
        other => scalar(other, out),
    }
    out.len() <= limit
}

fn write(value: &Value, indent: usize, out: &mut Vec<u8>) {
    if value.is_object() || value.is_array() {
        let start = out.len();
        if inline(value, out, start + INLINE) {
            return;
        }
        out.truncate(start);
    }
    match value {
        Value::Object(map) if !map.is_empty() => {
            let members = members(map);
            out.extend_from_slice(b"{\n");
            for (i, (key, item)) in members.iter().enumerate() {
                pad(indent + 1, out);
                scalar(key.as_str(), out);
                out.extend_from_slice(b": ");
                write(item, indent + 1, out);
                if i + 1 < members.len() {
                    out.push(b',');
                }
                out.push(b'\n');
            }
            pad(indent, out);
            out.push(b'}');
        }
        Value::Array(items) if !items.is_empty() => {
            // Short arrays of scalars (vectors, quaternions, index lists) stay on one line.
            if items.len() <= 16 && items.iter().all(|v| !v.is_array() && !v.is_object()) {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.extend_from_slice(b", ");
                    }
                    scalar(item, out);
                }
                out.push(b']');
                return;
            }
            out.extend_from_slice(b"[\n");
            for (i, item) in items.iter().enumerate() {
                pad(indent + 1, out);
                write(item, indent + 1, out);
                if i + 1 < items.len() {
                    out.push(b',');
                }
                out.push(b'\n');
            }
            pad(indent, out);
            out.push(b']');
        }
        other => scalar(other, out),
    }
}

fn pad(indent: usize, out: &mut Vec<u8>) {
    for _ in 0..indent {
        out.extend_from_slice(b"  ");
    }
}

/// Round to `decimals` places, so generated numbers are short and exact in text
/// (e.g. `round(0.123456, 3) == 0.123`). Never returns `-0.0`.
pub fn round(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    let r = (x * f).round() / f;
    if r == 0.0 { 0.0 } else { r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_and_scalars_arrays_inline() {
        let v = json!({"b": [1, 2.5, -3], "a": {"z": true, "c": null}, "e": [], "f": {}});
        assert_eq!(
            to_string(&v),
            "{\"a\": {\"c\": null, \"z\": true}, \"b\": [1, 2.5, -3], \"e\": [], \"f\": {}}\n"
        );
        // Longer than 100 characters on one line: one member per line.
        let long = json!({"k": "x".repeat(60), "a": "y".repeat(40)});
        let text = to_string(&long);
        assert!(text.starts_with("{\n  \"a\": \"yyy"), "{text}");
    }

    #[test]
    fn text_parses_back_to_the_same_value() {
        let v = json!({"x": [{"k": 0.1}, [1, [2]]], "s": "a\"b"});
        let back: Value = serde_json::from_str(&to_string(&v)).expect("valid JSON");
        assert_eq!(back, v);
    }

    /// The first implementation (one full one-line text per container, no early stop), kept
    /// as the oracle of the faster writer: the bytes must never change.
    mod oracle {
        use serde_json::Value;

        fn inline(value: &Value, out: &mut String) {
            match value {
                Value::Object(map) => {
                    let mut keys: Vec<&String> = map.keys().collect();
                    keys.sort();
                    out.push('{');
                    for (i, key) in keys.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        out.push_str(&Value::String((*key).clone()).to_string());
                        out.push_str(": ");
                        inline(&map[key.as_str()], out);
                    }
                    out.push('}');
                }
                Value::Array(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        inline(item, out);
                    }
                    out.push(']');
                }
                other => out.push_str(&other.to_string()),
            }
        }

        fn write(value: &Value, indent: usize, out: &mut String) {
            if value.is_object() || value.is_array() {
                let mut one = String::new();
                inline(value, &mut one);
                if one.len() <= super::super::INLINE {
                    out.push_str(&one);
                    return;
                }
            }
            let pad = |n: usize, out: &mut String| out.push_str(&"  ".repeat(n));
            match value {
                Value::Object(map) if !map.is_empty() => {
                    let mut keys: Vec<&String> = map.keys().collect();
                    keys.sort();
                    out.push_str("{\n");
                    for (i, key) in keys.iter().enumerate() {
                        pad(indent + 1, out);
                        out.push_str(&Value::String((*key).clone()).to_string());
                        out.push_str(": ");
                        write(&map[key.as_str()], indent + 1, out);
                        if i + 1 < keys.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    pad(indent, out);
                    out.push('}');
                }
                Value::Array(items) if !items.is_empty() => {
                    if items.len() <= 16 && items.iter().all(|v| !v.is_array() && !v.is_object()) {
                        out.push('[');
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            out.push_str(&item.to_string());
                        }
                        out.push(']');
                        return;
                    }
                    out.push_str("[\n");
                    for (i, item) in items.iter().enumerate() {
                        pad(indent + 1, out);
                        write(item, indent + 1, out);
                        if i + 1 < items.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    pad(indent, out);
                    out.push(']');
                }
                other => out.push_str(&other.to_string()),
            }
        }

        pub fn to_string(value: &Value) -> String {
            let mut out = String::new();
            write(value, 0, &mut out);
            out.push('\n');
            out
        }
    }

    /// JSON values of every kind, nested, with strings that need escaping and containers
    /// around the 100-character line limit.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[a-z\"\\\\\u{e9}\n]{0,40}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 20, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,12}", inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #[test]
        fn the_fast_writer_gives_the_oracle_bytes(v in any_json()) {
            proptest::prop_assert_eq!(to_string(&v), oracle::to_string(&v));
        }
    }

    #[test]
    fn a_container_of_exactly_100_characters_stays_on_one_line() {
        // `{"k": ` is 6 characters, the string 91 x + 2 quotes = 93, `}` 1: 6 + 93 + 1 = 100.
        let fits = json!({"k": "x".repeat(91)});
        assert_eq!(to_string(&fits).len(), 101, "one line and a newline");
        let over = json!({"k": "x".repeat(92)});
        assert!(to_string(&over).starts_with("{\n  \"k\": "));
    }

    #[test]
    fn rounding_is_exact_in_text() {
        assert_eq!(round(0.123456, 3).to_string(), "0.123");
        assert_eq!(round(-0.0001, 2).to_string(), "0");
    }
}
