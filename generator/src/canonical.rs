//! Canonical JSON text, the layout of every corpus file: sorted keys (a `serde_json::Map`
//! without `preserve_order` is sorted), two-space indentation, numbers and strings as
//! serde_json writes them (shortest round-trip floats), a final newline. The same value always
//! gives the same bytes.
//!
//! A container whose one-line text (`, ` and `: ` separators) is at most 100 bytes stays on
//! one line, and so does an array of at most 16 scalars; any other container puts one member
//! per line. Small values on one line keep the corpus small and its diffs readable.

use serde::Serialize;
use serde_json::Value;

/// Containers whose one-line text is at most this long stay on one line.
const INLINE: usize = 100;
/// Arrays of at most this many scalars stay on one line whatever their length.
const SHORT_ARRAY: usize = 16;

/// The canonical text of `value`, with its final newline.
pub fn to_string(value: &Value) -> String {
    let mut out = Vec::with_capacity(4096);
    write_to(value, &mut out);
    // Every piece written is UTF-8: serde_json text and ASCII punctuation.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Append the canonical text of `value` (with its final newline) to `out`.
pub fn write_to(value: &Value, out: &mut Vec<u8>) {
    write(value, 0, out);
    out.push(b'\n');
}

/// The canonical text of a typed value: the text of its `serde_json::to_value`.
pub fn to_string_of<T: Serialize + ?Sized>(value: &T) -> Result<String, serde_json::Error> {
    Ok(to_string(&serde_json::to_value(value)?))
}

/// Write `value` at nesting level `indent`: on one line when it fits, else one member per line.
fn write(value: &Value, indent: usize, out: &mut Vec<u8>) {
    let start = out.len();
    let fits_anyway = match value {
        Value::Object(_) => false,
        Value::Array(items) => {
            items.len() <= SHORT_ARRAY && items.iter().all(|v| !v.is_array() && !v.is_object())
        }
        _ => true,
    };
    let end = if fits_anyway {
        usize::MAX
    } else {
        start + INLINE
    };
    if one_line(value, out, end) {
        return;
    }
    out.truncate(start);
    let (open, close) = if value.is_object() {
        (b'{', b'}')
    } else {
        (b'[', b']')
    };
    out.push(open);
    for (n, (key, member)) in members(value).enumerate() {
        if n > 0 {
            out.push(b',');
        }
        new_line(indent + 1, out);
        if let Some(key) = key {
            scalar(key, out);
            out.extend_from_slice(b": ");
        }
        write(member, indent + 1, out);
    }
    new_line(indent, out);
    out.push(close);
}

/// Append the one-line text of `value` to `out`; false as soon as `out` is longer than `end`
/// (the rest is not written: a large container is given up after about `INLINE` bytes).
fn one_line(value: &Value, out: &mut Vec<u8>, end: usize) -> bool {
    let (open, close) = match value {
        Value::Object(_) => (b'{', b'}'),
        Value::Array(_) => (b'[', b']'),
        _ => {
            scalar(value, out);
            return out.len() <= end;
        }
    };
    out.push(open);
    for (n, (key, member)) in members(value).enumerate() {
        if n > 0 {
            out.extend_from_slice(b", ");
        }
        if let Some(key) = key {
            scalar(key, out);
            out.extend_from_slice(b": ");
        }
        if !one_line(member, out, end) {
            return false;
        }
    }
    out.push(close);
    out.len() <= end
}

/// The members of a container in the order they are written (an object's keys sorted), with
/// their keys; none for a scalar.
fn members(value: &Value) -> impl Iterator<Item = (Option<&String>, &Value)> {
    let object = value.as_object().into_iter().flatten();
    let array = value.as_array().into_iter().flatten();
    object
        .map(|(k, v)| (Some(k), v))
        .chain(array.map(|v| (None, v)))
}

/// A scalar (or key) as serde_json writes it.
fn scalar<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Writing a string, number, boolean or null into a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, value);
}

fn new_line(indent: usize, out: &mut Vec<u8>) {
    out.push(b'\n');
    out.extend(std::iter::repeat_n(b' ', 2 * indent));
}

/// Round to `decimals` places, so generated numbers are short and exact in text
/// (e.g. `round(0.123456, 3) == 0.123`). Never returns `-0.0`.
pub fn round(x: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    let r = (x * factor).round() / factor;
    if r == 0.0 { 0.0 } else { r }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn small_containers_stay_on_one_line_with_keys_sorted() {
        let v = json!({"b": [1, 2.5, -3], "a": {"z": true, "c": null}, "e": [], "f": {}});
        assert_eq!(
            to_string(&v),
            "{\"a\": {\"c\": null, \"z\": true}, \"b\": [1, 2.5, -3], \"e\": [], \"f\": {}}\n"
        );
        let escaped = json!({"q\"": "line\nbreak\\", "\u{e9}": "\u{1}"});
        assert_eq!(
            to_string(&escaped),
            "{\"q\\\"\": \"line\\nbreak\\\\\", \"\u{e9}\": \"\\u0001\"}\n"
        );
    }

    #[test]
    fn numbers_are_written_as_serde_json_writes_them() {
        let v = json!([0.1, 1e-7, 1e21, -0.0, 2.0, 0.00004, -7, u64::MAX, i64::MIN]);
        assert_eq!(
            to_string(&v),
            "[0.1, 1e-7, 1e+21, -0.0, 2.0, 0.00004, -7, 18446744073709551615, -9223372036854775808]\n"
        );
        assert_eq!(to_string(&json!(1e15)), "1000000000000000.0\n");
        assert_eq!(to_string(&json!(1e16)), "1e+16\n");
    }

    #[test]
    fn a_line_of_100_bytes_stays_and_one_of_101_breaks() {
        // `{"k": "` and `"}` are 9 bytes around the string.
        let x91 = "x".repeat(91);
        let at_100 = to_string(&json!({ "k": x91 }));
        assert_eq!(at_100, format!("{{\"k\": \"{x91}\"}}\n"));
        assert_eq!(at_100.len(), 101);
        let x92 = "x".repeat(92);
        assert_eq!(
            to_string(&json!({ "k": x92 })),
            format!("{{\n  \"k\": \"{x92}\"\n}}\n")
        );
        // A scalar is never broken, however long.
        assert_eq!(to_string(&json!(x92)), format!("\"{x92}\"\n"));
    }

    #[test]
    fn sixteen_scalars_stay_on_one_line_and_seventeen_break() {
        // Ten bytes a word: 16 of them take 192 bytes on one line.
        let w = "\"abcdefgh\"";
        let sixteen = to_string(&json!(vec!["abcdefgh"; 16]));
        assert_eq!(sixteen, format!("[{}]\n", [w; 16].join(", ")));
        let seventeen = to_string(&json!(vec!["abcdefgh"; 17]));
        assert_eq!(seventeen, format!("[\n  {}\n]\n", [w; 17].join(",\n  ")));
        // Seventeen short scalars within 100 bytes: one line all the same.
        let numbers: Vec<u32> = (0..17).collect();
        assert_eq!(
            to_string(&json!(numbers)),
            "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]\n"
        );
        // Sixteen members of which one is a container: by length only.
        let mut mixed = vec![json!("abcdefgh"); 15];
        mixed.push(json!([]));
        assert!(to_string(&json!(mixed)).starts_with("[\n  \"abcdefgh\",\n"));
    }

    #[test]
    fn large_containers_put_one_member_per_line_at_each_level() {
        let y = "y".repeat(60);
        // Its first object is 81 bytes on one line, its last 102.
        let v = json!({
            "z": [{"name": y, "id": 1}, [1, 2], {"name": y, "extra": [true, false, null]}],
            "a": "short",
        });
        let want = format!(
            "{{
  \"a\": \"short\",
  \"z\": [
    {{\"id\": 1, \"name\": \"{y}\"}},
    [1, 2],
    {{
      \"extra\": [true, false, null],
      \"name\": \"{y}\"
    }}
  ]
}}
"
        );
        assert_eq!(to_string(&v), want);
    }

    #[test]
    fn typed_values_print_as_their_value() {
        #[derive(Serialize)]
        struct Record {
            name: &'static str,
            at: [f32; 2],
            gone: Option<u8>,
        }
        let pose = Record {
            name: "p",
            at: [0.5, 0.1],
            gone: None,
        };
        // `0.1f32` is the double 0.10000000149011612.
        assert_eq!(
            to_string_of(&pose).expect("serialisable"),
            "{\"at\": [0.5, 0.10000000149011612], \"gone\": null, \"name\": \"p\"}\n"
        );
        let mut by_vec = std::collections::BTreeMap::new();
        by_vec.insert(vec![1], 2);
        assert!(to_string_of(&by_vec).is_err(), "keys must be strings");
    }

    #[test]
    fn rounding_is_exact_in_text_and_unsigned_at_zero() {
        assert_eq!(round(0.123456, 3).to_string(), "0.123");
        assert_eq!(round(-1.25, 6), -1.25);
        assert_eq!(round(2.25, 0), 2.0);
        for zero in [round(-0.0001, 2), round(-0.0, 6), round(-1e-9, 6)] {
            assert!(zero == 0.0 && zero.is_sign_positive(), "{zero}");
        }
    }

    /// JSON values of every kind, nested, with strings that need escaping and containers
    /// around the 100-byte line limit.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            "[a-z\"\\\\\u{e9}\n]{0,40}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 20, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
                prop::collection::btree_map("[a-z\"]{1,12}", inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// The text reads back as the value it was written from.
        #[test]
        fn text_parses_back_to_the_same_value(v in any_json()) {
            let text = to_string(&v);
            let back: Value = serde_json::from_str(&text).expect("valid JSON");
            proptest::prop_assert_eq!(&back, &v);
            proptest::prop_assert!(text.ends_with('\n'));
        }
    }
}
