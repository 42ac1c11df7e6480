//! The memory budget of reading a document.
//!
//! The file limit ([`super::MAX_FILE_SIZE`]) bounds the bytes, not the memory: the JSON tree
//! and the typed glTF document cost far more per value than the text does (`{}` is 3 bytes of
//! text and some hundreds of bytes as a typed node), so 15 MB of empty nodes once took 3 GB and
//! 60 MB aborted the process. The budget is therefore set per JSON value as well as per byte:
//!
//! - per input byte: the file is held once, the GLB BIN chunk once more, and the tree's
//!   strings at most once more (about 3 bytes of memory per byte of file at worst);
//! - per document: at most [`MAX_JSON_VALUES`] JSON values as [`count_values`] counts them. A
//!   document with more is refused before any tree is built (`DOCUMENT_TOO_LARGE`), after a
//!   byte scan that allocates nothing.
//!
//! The costliest value measured is an empty node (`{}`, counted as two values): one million of
//! them peaked at 561 MB read whole (`validate`, dev build), some 280 bytes per counted value,
//! so a document at the bound stays under about 300 MB besides its bytes. The bound is far
//! above any real physics asset (the largest seed sample holds 3,360 values; a scene of 50,000
//! nodes with a transform and a name each holds about 550,000). `harness/tests/hostile.rs`
//! checks documents at and over it against a 1 GiB cap.

/// The most JSON values a document may hold.
pub const MAX_JSON_VALUES: u64 = 1 << 20;

/// An upper bound on the number of JSON values in `text`, counting no further than `stop`:
/// every value but the root is either the first in its array or object (one per opening
/// bracket) or follows a comma, so the count is one plus the commas and opening brackets
/// outside strings. Exact for valid JSON without empty arrays or objects (each of those counts
/// one value too many); for invalid text it is just a number, and the parser says what is wrong.
pub fn count_values(text: &[u8], stop: u64) -> u64 {
    let mut count = 1u64;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b'[' | b'{' => {
                    count += 1;
                    if count > stop {
                        return count;
                    }
                }
                _ => {}
            }
        }
    }
    count
}

/// `Err(values counted)` when `text` holds more than [`MAX_JSON_VALUES`] values.
pub fn check(text: &[u8]) -> Result<(), u64> {
    let values = count_values(text, MAX_JSON_VALUES);
    if values > MAX_JSON_VALUES {
        Err(values)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts worked by hand: the root, each element and each member value.
    #[test]
    fn hand_counted_documents() {
        // One value: the number.
        assert_eq!(count_values(b"1", u64::MAX), 1);
        // The object, "a"'s array, its two numbers, "b"'s string: 5.
        assert_eq!(count_values(br#"{"a":[1,2],"b":"x"}"#, u64::MAX), 5);
        // Commas, brackets and escaped quotes inside strings are text, not structure: 2.
        assert_eq!(count_values(br#"{"k,[{":"a\",{[b"}"#, u64::MAX), 2);
        // An escaped backslash ends before the closing quote: the comma after it counts. The
        // array, two strings: 3.
        assert_eq!(count_values(br#"["\\",","]"#, u64::MAX), 3);
        // Empty containers count one too many each: the array and two empty objects are 3
        // values, counted 5 (1, the array's bracket, two objects' brackets, the comma).
        assert_eq!(count_values(b"[{},{}]", u64::MAX), 5);
    }

    #[test]
    fn counting_stops_past_the_bound() {
        let text = b"[0,0,0,0,0,0,0,0,0,0]";
        assert_eq!(count_values(text, u64::MAX), 11);
        assert_eq!(count_values(text, 3), 4);
    }

    proptest::proptest! {
        /// For any JSON without empty containers, the count is the number of values in its
        /// tree (counted on serde_json's tree, not by the scan).
        #[test]
        fn the_count_is_exact_without_empty_containers(value in json_value()) {
            let text = serde_json::to_vec(&value).expect("serialise");
            proptest::prop_assert_eq!(count_values(&text, u64::MAX), tree_count(&value));
        }
    }

    fn tree_count(v: &serde_json::Value) -> u64 {
        match v {
            serde_json::Value::Array(a) => 1 + a.iter().map(tree_count).sum::<u64>(),
            serde_json::Value::Object(o) => 1 + o.values().map(tree_count).sum::<u64>(),
            _ => 1,
        }
    }

    fn json_value() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::Bool),
            any::<i64>().prop_map(serde_json::Value::from),
            // Strings with the characters the scan must skip.
            "[a-z,\\[\\]{}\"\\\\:]{0,8}".prop_map(serde_json::Value::String),
        ];
        leaf.prop_recursive(4, 64, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..6).prop_map(serde_json::Value::Array),
                prop::collection::btree_map("[a-z,{\"]{0,4}", inner, 1..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}
