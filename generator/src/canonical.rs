//! Canonical JSON text: sorted keys, two-space indentation, shortest round-trip floats, a final
//! newline. The same value always gives the same bytes, whatever serde_json features are on.

use serde_json::Value;

/// Pretty-print `value` with every object's keys sorted.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write(value, 0, &mut out);
    out.push('\n');
    out
}

/// Containers whose one-line text is at most this long stay on one line.
const INLINE: usize = 100;

/// One-line canonical text (sorted keys, `, ` and `: ` separators).
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
        if one.len() <= INLINE {
            out.push_str(&one);
            return;
        }
    }
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
            // Short arrays of scalars (vectors, quaternions, index lists) stay on one line.
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

fn pad(indent: usize, out: &mut String) {
    for _ in 0..indent {
        out.push_str("  ");
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

    #[test]
    fn rounding_is_exact_in_text() {
        assert_eq!(round(0.123456, 3).to_string(), "0.123");
        assert_eq!(round(-0.0001, 2).to_string(), "0");
    }
}
