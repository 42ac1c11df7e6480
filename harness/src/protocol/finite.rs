//! Non-finite numbers as JSON strings: `"NaN"`, `"Infinity"` and `"-Infinity"` (the spellings
//! of JavaScript's and Python's JSON extensions). Plain JSON has no such numbers and serde_json
//! would silently write `null`, which in a protocol message or in `eval`'s output means "not
//! given".
//!
//! Used as `#[serde(with = "finite")]` on the float fields of the protocol's messages
//! (`f64`, `[f64; N]`, and `Option`s of them), with `#[schemars(with = "finite::Number")]` (or
//! [`Vec3`], [`Quat`]) so their schemas say "a number or one of the three strings". [`Marked`]
//! writes any serialisable value that way, for the types that are not ours (`eval` prints the
//! reference's expectation with it).

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

/// The spelling of a non-finite number.
pub const NAN: &str = "NaN";
pub const INFINITY: &str = "Infinity";
pub const NEG_INFINITY: &str = "-Infinity";

/// The string a non-finite number is written as.
pub fn spelling(v: f64) -> &'static str {
    if v.is_nan() {
        NAN
    } else if v > 0.0 {
        INFINITY
    } else {
        NEG_INFINITY
    }
}

/// The number a reserved string stands for.
pub fn parse(s: &str) -> Option<f64> {
    match s {
        NAN => Some(f64::NAN),
        INFINITY => Some(f64::INFINITY),
        NEG_INFINITY => Some(f64::NEG_INFINITY),
        _ => None,
    }
}

/// `with` half: `value` with every non-finite number written as its string.
pub fn serialize<T: Serialize + ?Sized, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    Marked(value).serialize(s)
}

/// `with` half: a float (or an array or `Option` of floats) that may be a reserved string.
pub fn deserialize<'de, T: Floats, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
    T::Wire::deserialize(d).map(T::from_wire)
}

/// The float shapes [`deserialize`] reads, each through a wire form of [`Number`]s.
pub trait Floats: Sized {
    type Wire: DeserializeOwned;
    fn from_wire(wire: Self::Wire) -> Self;
}

impl Floats for f64 {
    type Wire = Number;
    fn from_wire(wire: Number) -> f64 {
        wire.0
    }
}

impl Floats for [f64; 3] {
    type Wire = Vec3;
    fn from_wire(wire: Vec3) -> Self {
        wire.map(|n| n.0)
    }
}

impl Floats for [f64; 4] {
    type Wire = Quat;
    fn from_wire(wire: Quat) -> Self {
        wire.map(|n| n.0)
    }
}

impl<T: Floats> Floats for Option<T> {
    type Wire = Option<T::Wire>;
    fn from_wire(wire: Self::Wire) -> Self {
        wire.map(T::from_wire)
    }
}

/// A number on the wire: a JSON number or one of the reserved strings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number(pub f64);

/// Three numbers (a vector).
pub type Vec3 = [Number; 3];
/// Four numbers (a quaternion `[x, y, z, w]`).
pub type Quat = [Number; 4];

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Number, D::Error> {
        struct NumberVisitor;
        impl Visitor<'_> for NumberVisitor {
            type Value = Number;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    "a number or one of {NAN:?}, {INFINITY:?}, {NEG_INFINITY:?}"
                )
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Number, E> {
                Ok(Number(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
                parse(v)
                    .map(Number)
                    .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        d.deserialize_any(NumberVisitor)
    }
}

impl JsonSchema for Number {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "number".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A number; non-finite values as the strings NaN, Infinity, -Infinity.",
            "oneOf": [{"type": "number"}, {"enum": [NAN, INFINITY, NEG_INFINITY]}]
        })
    }
}

/// `value`, serialised with non-finite numbers as strings and everything else as the
/// serializer writes it.
#[derive(Debug)]
pub struct Marked<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for Marked<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(MarkedSerializer(s))
    }
}

/// A serializer (or one of its compound parts) that passes everything on to the one it wraps,
/// non-finite numbers as strings.
struct MarkedSerializer<S>(S);

macro_rules! forward {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            self.0.$method(v)
        })*
    };
}

impl<S: Serializer> Serializer for MarkedSerializer<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = MarkedSerializer<S::SerializeSeq>;
    type SerializeTuple = MarkedSerializer<S::SerializeTuple>;
    type SerializeTupleStruct = MarkedSerializer<S::SerializeTupleStruct>;
    type SerializeTupleVariant = MarkedSerializer<S::SerializeTupleVariant>;
    type SerializeMap = MarkedSerializer<S::SerializeMap>;
    type SerializeStruct = MarkedSerializer<S::SerializeStruct>;
    type SerializeStructVariant = MarkedSerializer<S::SerializeStructVariant>;

    forward! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
        serialize_unit_struct(&'static str);
    }

    fn serialize_f32(self, v: f32) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.0.serialize_f32(v)
        } else {
            self.0.serialize_str(spelling(f64::from(v)))
        }
    }

    fn serialize_f64(self, v: f64) -> Result<S::Ok, S::Error> {
        if v.is_finite() {
            self.0.serialize_f64(v)
        } else {
            self.0.serialize_str(spelling(v))
        }
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_none()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Result<S::Ok, S::Error> {
        self.0.serialize_some(&Marked(v))
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0.serialize_newtype_struct(name, &Marked(v))
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        v: &T,
    ) -> Result<S::Ok, S::Error> {
        self.0
            .serialize_newtype_variant(name, index, variant, &Marked(v))
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        self.0.serialize_seq(len).map(MarkedSerializer)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(MarkedSerializer)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0
            .serialize_tuple_struct(name, len)
            .map(MarkedSerializer)
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        self.0
            .serialize_tuple_variant(name, index, variant, len)
            .map(MarkedSerializer)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(MarkedSerializer)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(MarkedSerializer)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        self.0
            .serialize_struct_variant(name, index, variant, len)
            .map(MarkedSerializer)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! elements {
    ($($trait:ident, $method:ident;)*) => {
        $(impl<S: $trait> $trait for MarkedSerializer<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), S::Error> {
                self.0.$method(&Marked(v))
            }

            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        })*
    };
}

elements! {
    SerializeSeq, serialize_element;
    SerializeTuple, serialize_element;
    SerializeTupleStruct, serialize_field;
    SerializeTupleVariant, serialize_field;
}

impl<S: SerializeMap> SerializeMap for MarkedSerializer<S> {
    type Ok = S::Ok;
    type Error = S::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), S::Error> {
        self.0.serialize_key(&Marked(k))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), S::Error> {
        self.0.serialize_value(&Marked(v))
    }

    fn end(self) -> Result<S::Ok, S::Error> {
        self.0.end()
    }
}

macro_rules! fields {
    ($($trait:ident;)*) => {
        $(impl<S: $trait> $trait for MarkedSerializer<S> {
            type Ok = S::Ok;
            type Error = S::Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), S::Error> {
                self.0.serialize_field(key, &Marked(v))
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), S::Error> {
                self.0.skip_field(key)
            }

            fn end(self) -> Result<S::Ok, S::Error> {
                self.0.end()
            }
        })*
    };
}

fields! {
    SerializeStruct;
    SerializeStructVariant;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::{Action, MassReport, NodeState, State};

    #[derive(serde::Serialize)]
    struct FiniteSample {
        given: Option<f64>,
        absent: Option<f64>,
        list: Vec<f64>,
        pair: (f32, f64),
        map: std::collections::BTreeMap<String, f64>,
    }

    /// Non-finite numbers at every depth become their spellings; finite numbers and `null`
    /// (not given) are as serde_json writes them.
    #[test]
    fn marked_writes_non_finite_numbers_as_strings_and_null_stays_not_given() {
        let probe = FiniteSample {
            given: Some(f64::INFINITY),
            absent: None,
            list: vec![1.5, f64::NEG_INFINITY, f64::NAN],
            pair: (f32::INFINITY, 0.25),
            map: [("m".to_owned(), f64::NAN)].into_iter().collect(),
        };
        let text = serde_json::to_string(&Marked(&probe)).expect("serialise");
        assert_eq!(
            text,
            r#"{"given":"Infinity","absent":null,"list":[1.5,"-Infinity","NaN"],"pair":["Infinity",0.25],"map":{"m":"NaN"}}"#
        );
        // Without a non-finite number, the same text as serde_json's.
        let plain = FiniteSample {
            given: Some(2.0),
            absent: None,
            list: vec![1.0],
            pair: (0.5, 1e300),
            map: Default::default(),
        };
        assert_eq!(
            serde_json::to_string(&Marked(&plain)).expect("serialise"),
            serde_json::to_string(&plain).expect("serialise")
        );
    }

    #[test]
    fn message_floats_are_strings_both_ways() {
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
        let v = serde_json::to_value(&state).expect("serialises");
        assert_eq!(v["time"], "Infinity");
        assert_eq!(v["nodes"][0]["translation"][0], "NaN");
        assert_eq!(v["nodes"][0]["translation"][1], "-Infinity");
        assert_eq!(v["nodes"][0]["translation"][2], 1.5);
        // From a value and straight from the text alike.
        for back in [
            serde_json::from_value::<State>(v.clone()).expect("parses"),
            serde_json::from_str::<State>(&v.to_string()).expect("parses"),
        ] {
            assert_eq!(back.time, f64::INFINITY);
            let t = back.nodes[0].translation;
            assert!(t[0].is_nan());
            assert_eq!(t[1], f64::NEG_INFINITY);
            assert_eq!(
                back.nodes[0].angular_velocity,
                state.nodes[0].angular_velocity
            );
        }
    }

    #[test]
    fn tagged_enums_carry_non_finite_floats() {
        // Internally tagged: serde buffers the fields untyped, the reserved strings still work.
        let a = Action::Impulse {
            node: 1,
            impulse: [f64::INFINITY, 0.0, -1.0],
        };
        let v = serde_json::to_value(&a).expect("serialises");
        assert_eq!(v["action"], "impulse");
        assert_eq!(v["impulse"][0], "Infinity");
        assert_eq!(serde_json::from_value::<Action>(v).expect("parses"), a);
        // Adjacently tagged, content before the tag (buffered too).
        let m: MassReport =
            serde_json::from_str(r#"{"value": "Infinity", "kind": "finite"}"#).expect("parses");
        assert_eq!(m, MassReport::Finite(f64::INFINITY));
        assert_eq!(
            serde_json::to_string(&MassReport::Finite(f64::NAN)).expect("serialises"),
            r#"{"kind":"finite","value":"NaN"}"#
        );
    }

    #[test]
    fn other_strings_and_types_are_errors() {
        let e = serde_json::from_str::<State>(
            r#"{"time": "soon", "nodes": [], "contacts": [], "trigger_events": []}"#,
        )
        .expect_err("not a number");
        assert!(
            e.to_string().contains(r#"invalid value: string "soon""#),
            "{e}"
        );
        for text in [r#""nan""#, "null", "[1]", "true"] {
            assert!(serde_json::from_str::<Number>(text).is_err(), "{text}");
        }
        let e = serde_json::from_str::<State>(r#"{"time": 1.0}"#).expect_err("missing fields");
        assert!(e.to_string().contains("missing field"), "{e}");
    }

    proptest::proptest! {
        #[test]
        fn any_float_round_trips(bits in proptest::num::u64::ANY) {
            let f = f64::from_bits(bits);
            let text = serde_json::to_string(&Marked(&f)).expect("serialises");
            let back = serde_json::from_str::<Number>(&text).expect("parses").0;
            proptest::prop_assert!(back.to_bits() == f.to_bits() || (f.is_nan() && back.is_nan()));
        }
    }
}
