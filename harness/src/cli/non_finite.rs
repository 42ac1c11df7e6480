//! JSON output that keeps non-finite numbers: serde_json writes an infinite or NaN `f64` as
//! `null`, which in `eval`'s output already means "not given". [`Marked`] serialises a value
//! with every non-finite number written as a string instead: `"Infinity"`, `"-Infinity"` or
//! `"NaN"` (the spellings of JavaScript's and Python's JSON extensions), everything else as
//! serde_json writes it.

use serde::ser::{
    Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant, SerializeTuple,
    SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

/// `value`, serialised with non-finite numbers as strings.
#[derive(Debug)]
pub struct Marked<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for Marked<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(Adapter(s))
    }
}

/// The string a non-finite number is written as.
pub fn spelling(v: f64) -> &'static str {
    if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// A serializer (or one of its compound parts) that passes everything on to the one it wraps,
/// non-finite numbers as strings.
struct Adapter<S>(S);

macro_rules! forward {
    ($($method:ident($ty:ty);)*) => {
        $(fn $method(self, v: $ty) -> Result<S::Ok, S::Error> {
            self.0.$method(v)
        })*
    };
}

impl<S: Serializer> Serializer for Adapter<S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Adapter<S::SerializeSeq>;
    type SerializeTuple = Adapter<S::SerializeTuple>;
    type SerializeTupleStruct = Adapter<S::SerializeTupleStruct>;
    type SerializeTupleVariant = Adapter<S::SerializeTupleVariant>;
    type SerializeMap = Adapter<S::SerializeMap>;
    type SerializeStruct = Adapter<S::SerializeStruct>;
    type SerializeStructVariant = Adapter<S::SerializeStructVariant>;

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
        self.0.serialize_seq(len).map(Adapter)
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        self.0.serialize_tuple(len).map(Adapter)
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        self.0.serialize_tuple_struct(name, len).map(Adapter)
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
            .map(Adapter)
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        self.0.serialize_map(len).map(Adapter)
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        self.0.serialize_struct(name, len).map(Adapter)
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
            .map(Adapter)
    }

    fn is_human_readable(&self) -> bool {
        self.0.is_human_readable()
    }
}

macro_rules! elements {
    ($($trait:ident, $method:ident;)*) => {
        $(impl<S: $trait> $trait for Adapter<S> {
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

impl<S: SerializeMap> SerializeMap for Adapter<S> {
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

impl<S: SerializeStruct> SerializeStruct for Adapter<S> {
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
}

impl<S: SerializeStructVariant> SerializeStructVariant for Adapter<S> {
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Serialize)]
    struct Probe {
        given: Option<f64>,
        absent: Option<f64>,
        list: Vec<f64>,
        pair: (f32, f64),
        map: std::collections::BTreeMap<String, f64>,
    }

    /// Non-finite numbers at every depth become their spellings; finite numbers and `null`
    /// (not given) are as serde_json writes them.
    #[test]
    fn non_finite_numbers_are_strings_and_null_stays_not_given() {
        let probe = Probe {
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
        let plain = Probe {
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
}
