//! JSON values with non-finite numbers: the protocol writes `NaN`, `+inf` and `-inf` as the
//! strings `"NaN"`, `"Infinity"` and `"-Infinity"` (plain JSON has no such numbers, and
//! `serde_json` would silently write `null`).
//!
//! [`to_value`] is a serializer into [`Value`] that writes those strings where a float is
//! non-finite; [`from_value`] is a deserializer over [`Value`] that reads them back wherever a
//! float is expected. The three strings are reserved: a string field that is exactly one of
//! them still reads as a string when the type asks for a string, but in a place the type does
//! not describe (a free-form `serde_json::Value`, or inside an internally tagged enum, which
//! serde buffers untyped) it reads as the number (a free-form value then holds `null`, as JSON
//! cannot hold it).

use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use serde_json::{Map, Number, Value};

/// The spelling of a non-finite number on the wire.
pub const NAN: &str = "NaN";
pub const INFINITY: &str = "Infinity";
pub const NEG_INFINITY: &str = "-Infinity";

/// Why a message could not be converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

impl de::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// The wire value of a float.
pub fn float(v: f64) -> Value {
    match Number::from_f64(v) {
        Some(n) => Value::Number(n),
        None if v.is_nan() => Value::String(NAN.into()),
        None if v > 0.0 => Value::String(INFINITY.into()),
        None => Value::String(NEG_INFINITY.into()),
    }
}

/// The float a reserved string stands for.
pub fn non_finite(s: &str) -> Option<f64> {
    match s {
        NAN => Some(f64::NAN),
        INFINITY => Some(f64::INFINITY),
        NEG_INFINITY => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// Serialize `value` into a JSON value, non-finite floats as the reserved strings.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value, Error> {
    value.serialize(ValueSerializer)
}

/// Deserialize a `T` from a JSON value, reading the reserved strings as non-finite floats.
pub fn from_value<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(ValueDeserializer(value))
}

// ---------------------------------------------------------------------------------------------
// Serializer

struct ValueSerializer;

/// A sequence, tuple or tuple struct under construction.
struct SeqBuilder(Vec<Value>);
/// A `{"variant": [...]}` under construction.
struct TupleVariantBuilder(&'static str, Vec<Value>);
/// A map or struct under construction.
struct MapBuilder {
    map: Map<String, Value>,
    key: Option<String>,
}
/// A `{"variant": {...}}` under construction.
struct StructVariantBuilder(&'static str, Map<String, Value>);

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = TupleVariantBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = StructVariantBuilder;

    fn serialize_bool(self, v: bool) -> Result<Value, Error> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value, Error> {
        Ok(Value::from(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Value, Error> {
        Ok(float(f64::from(v)))
    }
    fn serialize_f64(self, v: f64) -> Result<Value, Error> {
        Ok(float(v))
    }
    fn serialize_char(self, v: char) -> Result<Value, Error> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value, Error> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value, Error> {
        Ok(Value::Array(v.iter().map(|b| Value::from(*b)).collect()))
    }
    fn serialize_none(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value, Error> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value, Error> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value, Error> {
        let mut map = Map::new();
        map.insert(variant.to_owned(), value.serialize(self)?);
        Ok(Value::Object(map))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, Error> {
        Ok(SeqBuilder(Vec::with_capacity(len.unwrap_or(0))))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, Error> {
        Ok(SeqBuilder(Vec::with_capacity(len)))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqBuilder, Error> {
        Ok(SeqBuilder(Vec::with_capacity(len)))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<TupleVariantBuilder, Error> {
        Ok(TupleVariantBuilder(variant, Vec::with_capacity(len)))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapBuilder, Error> {
        Ok(MapBuilder {
            map: Map::new(),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapBuilder, Error> {
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<StructVariantBuilder, Error> {
        Ok(StructVariantBuilder(variant, Map::new()))
    }
}

impl ser::SerializeSeq for SeqBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.0.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for SeqBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value, Error> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for TupleVariantBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.1.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        let mut map = Map::new();
        map.insert(self.0.to_owned(), Value::Array(self.1));
        Ok(Value::Object(map))
    }
}

/// A map key: strings as they are, numbers and booleans as their text (as `serde_json` does).
fn key_of(value: Value) -> Result<String, Error> {
    match value {
        Value::String(s) => Ok(s),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(b.to_string()),
        other => Err(Error(format!("a map key must be a string, not {other}"))),
    }
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key = Some(key_of(key.serialize(ValueSerializer)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error("a map value without a key".into()))?;
        self.map.insert(key, value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.map
            .insert(key.to_owned(), value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStructVariant for StructVariantBuilder {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.1
            .insert(key.to_owned(), value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value, Error> {
        let mut map = Map::new();
        map.insert(self.0.to_owned(), Value::Object(self.1));
        Ok(Value::Object(map))
    }
}

// ---------------------------------------------------------------------------------------------
// Deserializer

struct ValueDeserializer(Value);

impl ValueDeserializer {
    fn unexpected(&self) -> de::Unexpected<'_> {
        match &self.0 {
            Value::Null => de::Unexpected::Unit,
            Value::Bool(b) => de::Unexpected::Bool(*b),
            Value::Number(n) => match n.as_f64() {
                Some(f) => de::Unexpected::Float(f),
                None => de::Unexpected::Other("number"),
            },
            Value::String(s) => de::Unexpected::Str(s),
            Value::Array(_) => de::Unexpected::Seq,
            Value::Object(_) => de::Unexpected::Map,
        }
    }
}

fn visit_number<'de, V: Visitor<'de>>(n: &Number, visitor: V) -> Result<V::Value, Error> {
    if let Some(u) = n.as_u64() {
        visitor.visit_u64(u)
    } else if let Some(i) = n.as_i64() {
        visitor.visit_i64(i)
    } else if let Some(f) = n.as_f64() {
        visitor.visit_f64(f)
    } else {
        Err(Error(format!("number {n} is out of range")))
    }
}

struct SeqAccess(std::vec::IntoIter<Value>);

impl<'de> de::SeqAccess<'de> for SeqAccess {
    type Error = Error;
    fn next_element_seed<T: de::DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        match self.0.next() {
            Some(v) => seed.deserialize(ValueDeserializer(v)).map(Some),
            None => Ok(None),
        }
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct MapAccess {
    iter: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> de::MapAccess<'de> for MapAccess {
    type Error = Error;
    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        match self.iter.next() {
            Some((k, v)) => {
                self.value = Some(v);
                let key: de::value::StringDeserializer<Error> = k.into_deserializer();
                seed.deserialize(key).map(Some)
            }
            None => Ok(None),
        }
    }
    fn next_value_seed<V: de::DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = self
            .value
            .take()
            .ok_or_else(|| Error("a map value without a key".into()))?;
        seed.deserialize(ValueDeserializer(value))
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.iter.len())
    }
}

/// `{"variant": content}` or `"variant"` for an externally tagged enum.
struct EnumAccess {
    variant: String,
    content: Option<Value>,
}

impl<'de> de::EnumAccess<'de> for EnumAccess {
    type Error = Error;
    type Variant = VariantAccess;
    fn variant_seed<V: de::DeserializeSeed<'de>>(
        self,
        seed: V,
    ) -> Result<(V::Value, VariantAccess), Error> {
        let key: de::value::StringDeserializer<Error> = self.variant.into_deserializer();
        Ok((seed.deserialize(key)?, VariantAccess(self.content)))
    }
}

struct VariantAccess(Option<Value>);

impl<'de> de::VariantAccess<'de> for VariantAccess {
    type Error = Error;
    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            None | Some(Value::Null) => Ok(()),
            Some(_) => Err(Error("a unit variant carries no content".into())),
        }
    }
    fn newtype_variant_seed<T: de::DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.0 {
            Some(v) => seed.deserialize(ValueDeserializer(v)),
            None => Err(Error("a newtype variant needs content".into())),
        }
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Some(Value::Array(a)) => visitor.visit_seq(SeqAccess(a.into_iter())),
            _ => Err(Error("a tuple variant needs an array".into())),
        }
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Some(Value::Object(m)) => visitor.visit_map(MapAccess {
                iter: m.into_iter(),
                value: None,
            }),
            _ => Err(Error("a struct variant needs an object".into())),
        }
    }
}

impl<'de> de::Deserializer<'de> for ValueDeserializer {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => visit_number(&n, visitor),
            // Untyped: a reserved string is read as the number it stands for (see the module).
            Value::String(s) => match non_finite(&s) {
                Some(f) => visitor.visit_f64(f),
                None => visitor.visit_string(s),
            },
            Value::Array(a) => visitor.visit_seq(SeqAccess(a.into_iter())),
            Value::Object(m) => visitor.visit_map(MapAccess {
                iter: m.into_iter(),
                value: None,
            }),
        }
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.0 {
            Value::Number(n) => match n.as_f64() {
                Some(f) => visitor.visit_f64(f),
                None => Err(Error(format!("number {n} is out of range"))),
            },
            Value::String(s) => match non_finite(s) {
                Some(f) => visitor.visit_f64(f),
                None => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
            },
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(s) => visitor.visit_string(s),
            _ => Err(de::Error::invalid_type(self.unexpected(), &visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(ValueDeserializer(other)),
        }
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
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(variant) => visitor.visit_enum(EnumAccess {
                variant,
                content: None,
            }),
            Value::Object(m) if m.len() == 1 => {
                let Some((variant, content)) = m.into_iter().next() else {
                    return Err(Error("an enum needs one key".into()));
                };
                visitor.visit_enum(EnumAccess {
                    variant,
                    content: Some(content),
                })
            }
            other => Err(de::Error::invalid_type(
                ValueDeserializer(other).unexpected(),
                &"a string or an object with one key",
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 char bytes byte_buf unit unit_struct
        seq tuple tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{Action, MassReport, NodeState, State};

    #[test]
    fn non_finite_floats_are_strings_both_ways() {
        let state = State {
            time: f64::INFINITY,
            nodes: vec![NodeState {
                node: 3,
                translation: [f64::NAN, f64::NEG_INFINITY, 1.5],
                rotation: [0.0, 0.0, 0.0, 1.0],
                linear_velocity: [0.0; 3],
                angular_velocity: [-0.0, 1e300, -2.5e-7],
            }],
            ..State::default()
        };
        let v = to_value(&state).expect("serialises");
        assert_eq!(v["time"], "Infinity");
        assert_eq!(v["nodes"][0]["translation"][0], "NaN");
        assert_eq!(v["nodes"][0]["translation"][1], "-Infinity");
        assert_eq!(v["nodes"][0]["translation"][2], 1.5);
        let back: State = from_value(v).expect("parses");
        assert_eq!(back.time, f64::INFINITY);
        let t = back.nodes[0].translation;
        assert!(t[0].is_nan());
        assert_eq!(t[1], f64::NEG_INFINITY);
        assert_eq!(
            back.nodes[0].angular_velocity,
            state.nodes[0].angular_velocity
        );
    }

    #[test]
    fn tagged_enums_carry_non_finite_floats() {
        // Internally tagged: serde buffers the fields untyped, the reserved strings still work.
        let a = Action::Impulse {
            node: 1,
            impulse: [f64::INFINITY, 0.0, -1.0],
        };
        let v = to_value(&a).expect("serialises");
        assert_eq!(v["action"], "impulse");
        assert_eq!(v["impulse"][0], "Infinity");
        assert_eq!(from_value::<Action>(v).expect("parses"), a);
        // Adjacently tagged, content before the tag (buffered too).
        let m: MassReport =
            from_value(serde_json::json!({"value": "Infinity", "kind": "finite"})).expect("parses");
        assert_eq!(m, MassReport::Finite(f64::INFINITY));
    }

    #[test]
    fn matches_serde_json_on_finite_messages() {
        let a = Action::KinematicPose {
            node: 2,
            translation: [1.0, -2.0, 3.25],
            rotation: [0.0, 0.6, 0.0, 0.8],
        };
        assert_eq!(
            to_value(&a).expect("serialises"),
            serde_json::to_value(&a).expect("serialises")
        );
    }

    #[test]
    fn type_errors_are_errors() {
        let e = from_value::<State>(serde_json::json!({"time": "soon", "nodes": [],
            "contacts": [], "trigger_events": []}));
        assert!(e.is_err());
        let e = from_value::<State>(serde_json::json!({"time": 1.0}));
        assert!(e.expect_err("missing fields").0.contains("missing field"));
        // A string field equal to a reserved word is still a string where the type says so.
        let s: String = from_value(Value::String("NaN".into())).expect("a string");
        assert_eq!(s, "NaN");
    }

    proptest::proptest! {
        #[test]
        fn any_float_round_trips(bits in proptest::num::u64::ANY) {
            let f = f64::from_bits(bits);
            let back: f64 = from_value(to_value(&f).expect("serialises")).expect("parses");
            proptest::prop_assert!(back.to_bits() == f.to_bits() || (f.is_nan() && back.is_nan()));
        }
    }
}
