//! Arbitrary JSON for the readers' robustness properties (test only): each reader draws the
//! words and keys its extensions use, so that some draws come close to valid objects.

use std::ops::Range;

use proptest::prelude::*;
use serde_json::Value;

/// JSON a few levels deep: null, booleans, `integers`, `numbers` and `words` as leaves, arrays
/// and objects (keys from `keys`) of at most `width` items.
pub(crate) fn any_json(
    (integers, numbers): (Range<i64>, Range<f64>),
    words: &'static [&'static str],
    keys: Vec<&'static str>,
    width: usize,
) -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        integers.prop_map(Value::from),
        numbers.prop_map(Value::from),
        prop::sample::select(words).prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, width as u32, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..width).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(keys.clone()).prop_map(str::to_owned),
                inner,
                0..width
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
