//! The reference and the corpus writer rely on `serde_json::Map` iterating in sorted key order
//! (pointers of issues found while walking objects, canonical corpus text). serde_json keeps
//! insertion order instead when its `preserve_order` feature is on, and any crate of the build
//! can switch that feature on for everyone: this test fails then.

use serde_json::{Map, Value, json};

#[test]
fn maps_iterate_in_sorted_key_order() {
    let mut map = Map::new();
    map.insert("b".to_owned(), Value::from(1));
    map.insert("a".to_owned(), Value::from(2));
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["a", "b"],
        "serde_json's `preserve_order` feature is on (a dependency enabled it): maps must be sorted"
    );
    let parsed: Value = serde_json::from_str(r#"{"z": 0, "y": {"d": 1, "c": 2}}"#).expect("JSON");
    assert_eq!(
        serde_json::to_string(&parsed).expect("text"),
        r#"{"y":{"c":2,"d":1},"z":0}"#,
        "serde_json's `preserve_order` feature is on (a dependency enabled it): maps must be sorted"
    );
    assert_eq!(parsed, json!({"y": {"c": 2, "d": 1}, "z": 0}));
}
