//! A serde serializer that records a value on a [`Tape`], with the meaning
//! `serde_json::to_value` gives it (so the canonical text of a typed value is the canonical
//! text of its `Value`): `None` and unit are `null`, non-finite floats are `null`, `f32` is
//! written as the `f64` it converts to, a unit variant is its name, other variants are a
//! one-member object, map keys are strings (integers, booleans, characters and finite floats
//! spelled as `serde_json` spells them). Floats may be rounded on the way
//! ([`super::round`]), as `label::round_floats_in_place` rounds a `Value`.

use serde::ser::{self, Serialize};

use super::tape::Tape;
use super::{Error, Rounding};

/// Records values on `tape`, rounding floats when `round` is set.
#[derive(Debug)]
pub(super) struct Ser<'t> {
    pub tape: &'t mut Tape,
    pub round: Option<Rounding>,
}

impl Ser<'_> {
    fn float(&mut self, x: f64) -> Result<(), Error> {
        if !x.is_finite() {
            return self.null();
        }
        match self.round {
            // Zero, of either sign, rounds to `0.0` whenever `10^decimals` is a normal double
            // (the corpus rounds to 6; where it is subnormal the general path gives `0.0` too,
            // where infinite or zero `null`): about a third of an expectation's numbers,
            // written without the rounding arithmetic.
            Some(r) if x == 0.0 && r.factor.is_normal() => {
                self.tape.scalar(|t| t.extend_from_slice(b"0.0"));
            }
            Some(r) => {
                let parts = r.parts(x);
                // Rounding a finite number gives a finite number unless `x * 10^decimals`
                // overflows.
                if !parts.1.is_finite() {
                    return self.null();
                }
                self.tape.scalar(|t| r.write(parts, t));
            }
            None => self.tape.scalar(|t| super::write_f64(x, t)),
        }
        Ok(())
    }

    fn null(&mut self) -> Result<(), Error> {
        self.tape.scalar(|t| t.extend_from_slice(b"null"));
        Ok(())
    }

    fn u64(&mut self, v: u64) -> Result<(), Error> {
        self.tape.scalar(|t| super::write_u64(v, t));
        Ok(())
    }

    fn i64(&mut self, v: i64) -> Result<(), Error> {
        self.tape.scalar(|t| super::write_i64(v, t));
        Ok(())
    }
}

/// A container being recorded; `outer`: the one-member object around a variant's content.
#[derive(Debug)]
pub(super) struct Compound<'a, 't> {
    ser: &'a mut Ser<'t>,
    at: usize,
    outer: Option<usize>,
}

impl Compound<'_, '_> {
    fn end(self) -> Result<(), Error> {
        self.ser.tape.close(self.at);
        if let Some(outer) = self.outer {
            self.ser.tape.close(outer);
        }
        Ok(())
    }
}

impl<'a, 't> ser::Serializer for &'a mut Ser<'t> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, 't>;
    type SerializeTuple = Compound<'a, 't>;
    type SerializeTupleStruct = Compound<'a, 't>;
    type SerializeTupleVariant = Compound<'a, 't>;
    type SerializeMap = Compound<'a, 't>;
    type SerializeStruct = Compound<'a, 't>;
    type SerializeStructVariant = Compound<'a, 't>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        // Each a copy of a fixed length (no call to copy a variable length).
        if v {
            self.tape.scalar(|t| t.extend_from_slice(b"true"));
        } else {
            self.tape.scalar(|t| t.extend_from_slice(b"false"));
        }
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.i64(v)
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        if let Ok(v) = u64::try_from(v) {
            self.u64(v)
        } else if let Ok(v) = i64::try_from(v) {
            self.i64(v)
        } else {
            Err(Error("number out of range".into()))
        }
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.u64(v)
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        match u64::try_from(v) {
            Ok(v) => self.u64(v),
            Err(_) => Err(Error("number out of range".into())),
        }
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.float(f64::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.tape.scalar(|t| super::write_str(v, t));
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        let at = self.tape.open(false);
        for b in v {
            self.u64(u64::from(*b))?;
        }
        self.tape.close(at);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.null()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.null()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.null()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        let at = self.tape.open(true);
        self.tape.static_key(variant);
        value.serialize(&mut *self)?;
        self.tape.close(at);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 't>, Error> {
        let at = self.tape.open(false);
        Ok(Compound {
            ser: self,
            at,
            outer: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 't>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        let outer = self.tape.open(true);
        self.tape.static_key(variant);
        let at = self.tape.open(false);
        Ok(Compound {
            ser: self,
            at,
            outer: Some(outer),
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 't>, Error> {
        let at = self.tape.open(true);
        Ok(Compound {
            ser: self,
            at,
            outer: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 't>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 't>, Error> {
        let outer = self.tape.open(true);
        self.tape.static_key(variant);
        let at = self.tape.open(true);
        Ok(Compound {
            ser: self,
            at,
            outer: Some(outer),
        })
    }
}

impl ser::SerializeSeq for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTuple for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(KeySer(&mut *self.ser.tape))
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStruct for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.ser.tape.static_key(key);
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        self.ser.tape.static_key(key);
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<(), Error> {
        Compound::end(self)
    }
}

/// Records a map key: a string, or a scalar spelled as a string as `serde_json` spells it.
struct KeySer<'t>(&'t mut Tape);

fn not_a_key() -> Error {
    Error("key must be a string".into())
}

impl KeySer<'_> {
    fn text(self, write: impl FnOnce(&mut Vec<u8>)) -> Result<(), Error> {
        let mut buf = Vec::with_capacity(24);
        write(&mut buf);
        // Digits, signs, dots, exponents and `true`/`false`: ASCII.
        let key = std::str::from_utf8(&buf).map_err(|_| not_a_key())?;
        self.0.key(key);
        Ok(())
    }
}

impl ser::Serializer for KeySer<'_> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.0.key(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(i64::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.text(|b| super::write_i64(v, b))
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.0.key(&v.to_string());
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(u64::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.text(|b| super::write_u64(v, b))
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.0.key(&v.to_string());
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(not_a_key());
        }
        self.text(|b| super::write_f32(v, b))
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        if !v.is_finite() {
            return Err(not_a_key());
        }
        self.text(|b| super::write_f64(v, b))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.0.key(v.encode_utf8(&mut [0u8; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.0.key(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_none(self) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_unit(self) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.0.static_key(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Error> {
        Err(not_a_key())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Error> {
        Err(not_a_key())
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Error> {
        Err(not_a_key())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Error> {
        Err(not_a_key())
    }
    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStruct, Error> {
        Err(not_a_key())
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Error> {
        Err(not_a_key())
    }
}
