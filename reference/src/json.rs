//! A compact JSON tree for reading documents: [`Value`] behaves exactly like
//! `serde_json::Value` (the crate builds without `preserve_order`, so objects iterate in sorted
//! key order, and a duplicate key keeps its last value), but an object is one sorted slice of
//! entries instead of a `BTreeMap` (whose leaf node is some 600 bytes even for two keys).
//! Parsing a scene into `serde_json::Value` was about 30% of a validation's CPU, with its drop
//! on top (perf, session 3; BENCHMARKS.md, Validation throughput).
//!
//! Everything serde sees is the same as with `serde_json::Value`: the tree is parsed by
//! serde_json's own tokenizer (same syntax errors, numbers kept as [`Number`] so `1.0` is not
//! an index), and `&Value` is a [`serde::Deserializer`] that mirrors serde_json's
//! `impl Deserializer for &Value` call for call (same visits, same `serde_json::Error`
//! messages), so typed reads (gltf-json's `Root`, the extension structs, serde_path_to_error)
//! give the same results and the same issue texts. The tests check both against serde_json.

use std::borrow::Cow;
use std::fmt;

use serde::de::{
    self, DeserializeSeed, EnumAccess, IntoDeserializer, MapAccess, SeqAccess, Unexpected,
    VariantAccess, Visitor,
};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer, forward_to_deserialize_any};
use serde_json::Error;
pub use serde_json::Number;

pub use hiding::Hiding;
use keys::Key;
pub(crate) use keys::{text_cmp, text_eq};

mod hiding;
mod keys;
mod parse;

/// The name serde_json gives `RawValue` (its `raw_value` feature, which gltf-json enables):
/// a newtype struct of this name, or an object whose first key is this, is a raw value.
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A JSON value (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(Box<str>),
    Array(Box<[Value]>),
    Object(Map),
}

/// A JSON object: its entries sorted by key (byte order, as `BTreeMap<String, _>`), keys unique.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Map {
    // A boxed slice: objects are built at their exact size (the parser's `split_off`, and
    // `Vec::into_boxed_slice` reallocates only when duplicate keys were dropped).
    entries: Box<[(Key, Value)]>,
}

static NULL: Value = Value::Null;

impl Map {
    /// A map of `entries` in any order; of duplicate keys the last one wins (as with
    /// `BTreeMap::insert` one after the other).
    fn from_entries(mut entries: Vec<(Key, Value)>) -> Map {
        if !entries.is_sorted_by(|a, b| text_cmp(a.0.as_bytes(), b.0.as_bytes()).is_lt()) {
            // Stable: duplicates stay in document order, and the last of each run is kept.
            entries.sort_by(|a, b| text_cmp(a.0.as_bytes(), b.0.as_bytes()));
            entries.dedup_by(|later, kept| {
                let duplicate = later.0 == kept.0;
                if duplicate {
                    std::mem::swap(&mut later.1, &mut kept.1);
                }
                duplicate
            });
        }
        Map {
            entries: entries.into_boxed_slice(),
        }
    }

    /// A map of `entries` with static keys, in any order (of duplicate keys the last one
    /// wins): a builder's map, whose keys need no copy and no lookup among the known names.
    pub fn from_static(entries: Vec<(Cow<'static, str>, Value)>) -> Map {
        Map::from_entries(entries)
    }

    /// The value of `key`.
    ///
    /// Inlined, the large-object search kept out of line: as a call, saving and restoring
    /// registers was a third of this function's instructions (callgrind of a generated case,
    /// session 8).
    #[inline]
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.index_of(key).map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutable.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.index_of(key).map(|i| &mut self.entries[i].1)
    }

    /// Where `key`'s entry is.
    #[inline]
    fn index_of(&self, key: &str) -> Option<usize> {
        // Most objects have a handful of keys: a linear scan there, whose comparisons mostly
        // stop at the length (16 rather than 8: 0.7% fewer instructions over the validate
        // bench's folder, whose root objects have 9 or 10 keys).
        if self.entries.len() <= 16 {
            self.entries
                .iter()
                .position(|(k, _)| keys::text_eq(k.as_bytes(), key.as_bytes()))
        } else {
            self.search(key)
        }
    }

    /// [`Map::index_of`] in a large object: a binary search.
    #[inline(never)]
    fn search(&self, key: &str) -> Option<usize> {
        self.entries
            .binary_search_by(|(k, _)| text_cmp(k.as_bytes(), key.as_bytes()))
            .ok()
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in sorted key order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &Value)> + '_ {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }

    /// Keys in sorted order.
    pub fn keys(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.entries.iter().map(|(k, _)| &**k)
    }

    /// Values in sorted key order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = &Value> + '_ {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a str, &'a Value);
    type IntoIter = std::iter::Map<
        std::slice::Iter<'a, (Key, Value)>,
        fn(&'a (Key, Value)) -> (&'a str, &'a Value),
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.entries.iter().map(|(k, v)| (&**k, v))
    }
}

/// What [`Value::get`] and `value[index]` accept: a key (objects) or a position (arrays).
pub trait Index {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value>;
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value>;
}

impl Index for str {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_object()?.get(self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        match value {
            Value::Object(map) => map.get_mut(self),
            _ => None,
        }
    }
}

impl Index for String {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(value)
    }
}

impl Index for usize {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        value.as_array()?.get(*self)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        match value {
            Value::Array(list) => list.get_mut(*self),
            _ => None,
        }
    }
}

impl<T: Index + ?Sized> Index for &T {
    fn index_into<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        (**self).index_into(value)
    }
    fn index_into_mut<'v>(&self, value: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(value)
    }
}

impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;

    /// As serde_json: `Null` when absent or when `self` is not a container.
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

impl Value {
    /// `self[index]` when present (a key of an object, a position in an array).
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    /// `self[index]`, mutable, when present.
    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    /// An unsigned integer (`1.0` is not one).
    pub fn as_u64(&self) -> Option<u64> {
        self.as_number()?.as_u64()
    }

    pub fn as_i64(&self) -> Option<i64> {
        self.as_number()?.as_i64()
    }

    /// Any number, as f64.
    pub fn as_f64(&self) -> Option<f64> {
        self.as_number()?.as_f64()
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn is_u64(&self) -> bool {
        self.as_number().is_some_and(Number::is_u64)
    }

    pub fn is_i64(&self) -> bool {
        self.as_number().is_some_and(Number::is_i64)
    }

    pub fn is_f64(&self) -> bool {
        self.as_number().is_some_and(Number::is_f64)
    }

    /// The value at JSON pointer `pointer` (RFC 6901), exactly as `serde_json::Value::pointer`.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        if pointer.is_empty() {
            return Some(self);
        }
        if !pointer.starts_with('/') {
            return None;
        }
        pointer
            .split('/')
            .skip(1)
            .map(|x| x.replace("~1", "/").replace("~0", "~"))
            .try_fold(self, |target, token| match target {
                Value::Object(map) => map.get(&token),
                Value::Array(list) => parse_index(&token).and_then(|x| list.get(x)),
                _ => None,
            })
    }

    /// Parse JSON text: the same value or error as `serde_json::from_slice` (the direct
    /// parser where it is sure, serde_json's tokenizer otherwise).
    pub fn from_slice(bytes: &[u8]) -> Result<Value, Error> {
        parse::value(bytes).map_or_else(|| serde_json::from_slice(bytes), Ok)
    }

    /// The same value as a `serde_json::Value`.
    pub fn to_serde(&self) -> serde_json::Value {
        match self {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(s.to_string()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(Value::to_serde).collect()),
            Value::Object(m) => serde_json::Value::Object(
                m.iter()
                    .map(|(k, v)| (k.to_owned(), v.to_serde()))
                    .collect(),
            ),
        }
    }

    #[cold]
    fn unexpected(&self) -> Unexpected<'_> {
        match self {
            Value::Null => Unexpected::Unit,
            Value::Bool(b) => Unexpected::Bool(*b),
            Value::Number(n) => unexpected_number(n),
            Value::String(s) => Unexpected::Str(s),
            Value::Array(_) => Unexpected::Seq,
            Value::Object(_) => Unexpected::Map,
        }
    }

    #[cold]
    fn invalid_type<E: de::Error>(&self, expected: &dyn de::Expected) -> E {
        E::invalid_type(self.unexpected(), expected)
    }
}

/// serde_json's array index in a pointer: no sign, no leading zero.
fn parse_index(s: &str) -> Option<usize> {
    if s.starts_with('+') || (s.starts_with('0') && s.len() != 1) {
        return None;
    }
    s.parse().ok()
}

fn unexpected_number(n: &Number) -> Unexpected<'static> {
    if let Some(u) = n.as_u64() {
        Unexpected::Unsigned(u)
    } else if let Some(i) = n.as_i64() {
        Unexpected::Signed(i)
    } else {
        Unexpected::Float(n.as_f64().unwrap_or(f64::NAN))
    }
}

impl From<serde_json::Value> for Value {
    fn from(value: serde_json::Value) -> Value {
        Value::from(&value)
    }
}

impl From<&serde_json::Value> for Value {
    /// The tree of a borrowed value (a writer keeps the value it wrote: no clone first).
    fn from(value: &serde_json::Value) -> Value {
        match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(s.as_str().into()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            // Already sorted and unique: from_entries only checks. Built at its exact size:
            // `collect` from a map's iterator starts at 4 entries, and an object of fewer then
            // paid a reallocation in `into_boxed_slice` (about 100 per generated case, 4% of
            // reading one: callgrind, session 8).
            serde_json::Value::Object(m) => {
                let mut entries = Vec::with_capacity(m.len());
                entries.extend(m.iter().map(|(k, v)| (keys::key(k), Value::from(v))));
                Value::Object(Map::from_entries(entries))
            }
        }
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Number(i.into())
    }
}

impl From<u64> for Value {
    fn from(u: u64) -> Value {
        Value::Number(u.into())
    }
}

impl From<f64> for Value {
    /// As serde_json: a non-finite number is `Null`.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.into())
    }
}

macro_rules! from_integer {
    ($($t:ty)*) => {$(
        impl From<$t> for Value {
            fn from(n: $t) -> Value {
                Value::Number(n.into())
            }
        }
    )*};
}

from_integer!(u8 u16 u32 usize i8 i16 i32 isize);

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s.into_boxed_str())
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    /// An array (as serde_json's).
    fn from(list: Vec<T>) -> Value {
        Value::Array(list.into_iter().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Value>> From<&[T]> for Value {
    fn from(list: &[T]) -> Value {
        Value::Array(list.iter().cloned().map(Into::into).collect())
    }
}

impl<T: Into<Value>, const N: usize> From<[T; N]> for Value {
    fn from(list: [T; N]) -> Value {
        Value::Array(list.into_iter().map(Into::into).collect())
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    /// An array (as serde_json's).
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}

impl From<Map> for Value {
    fn from(map: Map) -> Value {
        Value::Object(map)
    }
}

impl<K: AsRef<str>> FromIterator<(K, Value)> for Map {
    /// Of duplicate keys the last one wins.
    fn from_iter<T: IntoIterator<Item = (K, Value)>>(iter: T) -> Map {
        Map::from_entries(
            iter.into_iter()
                .map(|(k, v)| (keys::key(k.as_ref()), v))
                .collect(),
        )
    }
}

impl fmt::Display for Value {
    /// Compact JSON, as `serde_json::Value`'s `Display`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Number(n) => n.serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(a) => {
                let mut seq = serializer.serialize_seq(Some(a.len()))?;
                for v in a {
                    seq.serialize_element(v)?;
                }
                seq.end()
            }
            Value::Object(m) => {
                let mut map = serializer.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Building a tree: serde_json's `ValueVisitor`, with objects collected into a sorted slice.

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Value, E> {
        let de = de::value::I128Deserializer::<E>::new(value);
        Number::deserialize(de).map(Value::Number)
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Value, E> {
        let de = de::value::U128Deserializer::<E>::new(value);
        Number::deserialize(de).map(Value::Number)
    }

    fn visit_f64<E>(self, value: f64) -> Result<Value, E> {
        Ok(Number::from_f64(value).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.into()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value.into_boxed_str()))
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        Deserialize::deserialize(deserializer)
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<V: SeqAccess<'de>>(self, mut visitor: V) -> Result<Value, V::Error> {
        let mut vec = Vec::with_capacity(visitor.size_hint().unwrap_or(0).min(4096));
        while let Some(elem) = visitor.next_element()? {
            vec.push(elem);
        }
        Ok(Value::Array(vec.into_boxed_slice()))
    }

    fn visit_map<V: MapAccess<'de>>(self, mut visitor: V) -> Result<Value, V::Error> {
        match visitor.next_key_seed(KeyClassifier)? {
            // serde_json reads such an object as the JSON text held in its (string) value.
            Some(FirstKey::RawValue) => {
                let text: String = visitor.next_value_seed(RawText)?;
                serde_json::from_str(&text).map_err(de::Error::custom)
            }
            Some(FirstKey::Map(first)) => {
                let mut entries = Vec::with_capacity(visitor.size_hint().unwrap_or(4).min(4096));
                entries.push((first, visitor.next_value()?));
                while let Some(key) = visitor.next_key_seed(KeySeed)? {
                    entries.push((key, visitor.next_value()?));
                }
                Ok(Value::Object(Map::from_entries(entries)))
            }
            None => Ok(Value::Object(Map::default())),
        }
    }
}

/// The first key of an object (serde_json's `KeyClassifier`).
struct KeyClassifier;

enum FirstKey {
    Map(Key),
    RawValue,
}

impl<'de> DeserializeSeed<'de> for KeyClassifier {
    type Value = FirstKey;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FirstKey, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyClassifier {
    type Value = FirstKey;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("a string key")
    }

    fn visit_str<E>(self, s: &str) -> Result<FirstKey, E> {
        Ok(if s == RAW_VALUE_TOKEN {
            FirstKey::RawValue
        } else {
            FirstKey::Map(keys::key(s))
        })
    }

    fn visit_string<E>(self, s: String) -> Result<FirstKey, E> {
        Ok(if s == RAW_VALUE_TOKEN {
            FirstKey::RawValue
        } else {
            FirstKey::Map(keys::key_of(s))
        })
    }
}

/// A later key of an object (serde_json reads it as a `String`).
struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        String::deserialize(deserializer).map(keys::key_of)
    }
}

/// The value of a raw-value object (serde_json's `BoxedFromString`).
struct RawText;

impl<'de> DeserializeSeed<'de> for RawText {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for RawText {
    type Value = String;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("raw value")
    }

    fn visit_str<E>(self, s: &str) -> Result<String, E> {
        Ok(s.to_owned())
    }
}

// ---------------------------------------------------------------------------------------------
// Reading typed data from a tree: serde_json's `impl Deserializer for &Value`, line for line.

impl<'de> Deserializer<'de> for &'de Value {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_unit(),
            Value::Bool(v) => visitor.visit_bool(*v),
            Value::Number(n) => n.deserialize_any(visitor),
            Value::String(v) => visitor.visit_borrowed_str(v),
            Value::Array(v) => visit_array(v, visitor),
            Value::Object(v) => v.deserialize_any(visitor),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_i128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_u128<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_number(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Value::Object(value) => value.deserialize_enum(name, variants, visitor),
            Value::String(variant) => visitor.visit_enum(EnumRef {
                variant,
                value: None,
            }),
            other => Err(de::Error::invalid_type(
                other.unexpected(),
                &"string or map",
            )),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        if name == RAW_VALUE_TOKEN {
            return visitor.visit_map(OwnedRaw {
                raw_value: Some(self.to_string()),
            });
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Bool(v) => visitor.visit_bool(*v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::String(v) => visitor.visit_borrowed_str(v),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::String(v) => visitor.visit_borrowed_str(v),
            Value::Array(v) => visit_array(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Null => visitor.visit_unit(),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Array(v) => visit_array(v, visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Object(v) => v.deserialize_any(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Value::Array(v) => visit_array(v, visitor),
            Value::Object(v) => v.deserialize_any(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }
}

impl Value {
    fn deserialize_number<'de, V: Visitor<'de>>(&'de self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Value::Number(n) => n.deserialize_any(visitor),
            _ => Err(self.invalid_type(&visitor)),
        }
    }
}

fn visit_array<'de, V: Visitor<'de>>(array: &'de [Value], visitor: V) -> Result<V::Value, Error> {
    let len = array.len();
    let mut deserializer = SeqRef { iter: array.iter() };
    let seq = visitor.visit_seq(&mut deserializer)?;
    if deserializer.iter.len() == 0 {
        Ok(seq)
    } else {
        Err(de::Error::invalid_length(len, &"fewer elements in array"))
    }
}

impl<'de> Deserializer<'de> for &'de Map {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let len = self.len();
        let mut deserializer = MapRef {
            iter: self.entries.iter(),
            value: None,
        };
        let map = visitor.visit_map(&mut deserializer)?;
        if deserializer.iter.len() == 0 {
            Ok(map)
        } else {
            Err(de::Error::invalid_length(len, &"fewer elements in map"))
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let mut iter = self.entries.iter();
        let single = || de::Error::invalid_value(Unexpected::Map, &"map with a single key");
        let Some((variant, value)) = iter.next() else {
            return Err(single());
        };
        if iter.next().is_some() {
            return Err(single());
        }
        visitor.visit_enum(EnumRef {
            variant,
            value: Some(value),
        })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct identifier
    }
}

struct EnumRef<'de> {
    variant: &'de str,
    value: Option<&'de Value>,
}

impl<'de> EnumAccess<'de> for EnumRef<'de> {
    type Error = Error;
    type Variant = VariantRef<'de>;

    fn variant_seed<V: DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantRef<'de>), Error> {
        let variant = self.variant.into_deserializer();
        let visitor = VariantRef { value: self.value };
        seed.deserialize(variant).map(|v| (v, visitor))
    }
}

struct VariantRef<'de> {
    value: Option<&'de Value>,
}

impl<'de> VariantAccess<'de> for VariantRef<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.value {
            Some(value) => Deserialize::deserialize(value),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.value {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Array(v)) => {
                if v.is_empty() {
                    visitor.visit_unit()
                } else {
                    visit_array(v, visitor)
                }
            }
            Some(other) => Err(de::Error::invalid_type(
                other.unexpected(),
                &"tuple variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"tuple variant",
            )),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value {
            Some(Value::Object(v)) => v.deserialize_any(visitor),
            Some(other) => Err(de::Error::invalid_type(
                other.unexpected(),
                &"struct variant",
            )),
            None => Err(de::Error::invalid_type(
                Unexpected::UnitVariant,
                &"struct variant",
            )),
        }
    }
}

struct SeqRef<'de> {
    iter: std::slice::Iter<'de, Value>,
}

impl<'de> SeqAccess<'de> for SeqRef<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some(value) => seed.deserialize(value).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

struct MapRef<'de> {
    iter: std::slice::Iter<'de, (Key, Value)>,
    value: Option<&'de Value>,
}

impl<'de> MapAccess<'de> for MapRef<'de> {
    type Error = Error;

    fn next_key_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.iter.next() {
            Some((key, value)) => {
                self.value = Some(value);
                seed.deserialize(MapKey { key }).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<T::Value, Error> {
        match self.value.take() {
            Some(value) => seed.deserialize(value),
            None => Err(de::Error::custom("value is missing")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// An object key read as typed data (serde_json's `MapKeyDeserializer`): a string, or a
/// number or boolean written as a string.
struct MapKey<'de> {
    key: &'de str,
}

impl<'de> MapKey<'de> {
    /// A number in a key: the whole key must be one JSON number (serde_json's
    /// `deserialize_numeric_key`, whose parser this is).
    fn numeric<V: Visitor<'de>>(
        self,
        read: impl FnOnce(
            &mut serde_json::Deserializer<serde_json::de::StrRead<'de>>,
            V,
        ) -> Result<V::Value, Error>,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let not_numeric =
            || de::Error::custom("invalid value: expected key to be a number in quotes");
        if !matches!(self.key.as_bytes().first(), Some(b'0'..=b'9' | b'-')) {
            return Err(not_numeric());
        }
        let mut de = serde_json::Deserializer::from_str(self.key);
        let number = read(&mut de, visitor)?;
        // serde_json requires the number to end the key; `end` would also allow whitespace.
        let trailing_space = self
            .key
            .as_bytes()
            .last()
            .is_some_and(|b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'));
        if trailing_space || de.end().is_err() {
            return Err(not_numeric());
        }
        Ok(number)
    }
}

macro_rules! numeric_key {
    ($($method:ident)*) => {
        $(
            fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
                self.numeric(|de, v| de.$method(v), visitor)
            }
        )*
    };
}

impl<'de> Deserializer<'de> for MapKey<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(self.key)
    }

    numeric_key!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.key {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(de::Error::invalid_type(Unexpected::Str(self.key), &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        // Map keys cannot be null.
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        IntoDeserializer::<Error>::into_deserializer(Cow::Borrowed(self.key))
            .deserialize_enum(name, variants, visitor)
    }

    forward_to_deserialize_any! {
        char str string bytes byte_buf unit unit_struct seq tuple tuple_struct
        map struct identifier ignored_any
    }
}

/// A raw value's text handed to `RawValue`'s visitor (serde_json's `OwnedRawDeserializer`).
struct OwnedRaw {
    raw_value: Option<String>,
}

impl<'de> MapAccess<'de> for OwnedRaw {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if self.raw_value.is_none() {
            return Ok(None);
        }
        seed.deserialize(RawKey).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let text = self
            .raw_value
            .take()
            .ok_or_else(|| de::Error::custom("value is missing"))?;
        seed.deserialize(IntoDeserializer::<Error>::into_deserializer(text))
    }
}

struct RawKey;

impl<'de> Deserializer<'de> for RawKey {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_borrowed_str(RAW_VALUE_TOKEN)
    }

    forward_to_deserialize_any! {
        bool u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 f32 f64 char str string seq
        bytes byte_buf map struct option unit newtype_struct ignored_any
        unit_struct tuple_struct tuple enum identifier
    }
}

#[cfg(test)]
mod tests;
