//! A direct parser for the JSON that documents are made of, straight into [`Value`]. Building
//! the tree through serde_json's tokenizer and serde's visitor calls was a third of a
//! validation; reading the bytes directly lets known keys be found before any UTF-8 check and
//! containers be allocated at their exact size (figures in BENCHMARKS.md, Validation
//! throughput).
//!
//! It only ever returns what serde_json would: on any input it is not sure of (a syntax error,
//! a control character or a surrogate escape in a string, an integer of 20 digits or more, a
//! float out of range, deep nesting, serde_json's raw-value token) it gives up, and
//! [`Value::from_slice`] parses the text with serde_json instead, for the same value or the
//! same error message. The tests compare the two on arbitrary and damaged text.

use std::borrow::Cow;

use super::keys::{self, Key};
use super::{Map, Number, RAW_VALUE_TOKEN, Value};

/// Nesting deeper than this goes to serde_json, which has the recursion limit (128) and its
/// error.
const MAX_DEPTH: usize = 100;

/// The value of the JSON text `bytes`, or `None` where serde_json must decide.
pub(super) fn value(bytes: &[u8]) -> Option<Value> {
    let mut p = Parser {
        bytes,
        at: 0,
        items: Vec::new(),
        entries: Vec::new(),
    };
    let v = p.value(0)?;
    p.skip_space();
    (p.at == bytes.len()).then_some(v)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The members of the open arrays, innermost last: a closed array takes its own off the
    /// top in one allocation of its exact size, instead of a `Vec` grown member by member.
    items: Vec<Value>,
    /// The same for the entries of the open objects.
    entries: Vec<(Key, Value)>,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// JSON whitespace, as serde_json skips it.
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, consumed.
    fn next_token(&mut self) -> Option<u8> {
        self.skip_space();
        let b = self.peek()?;
        self.at += 1;
        Some(b)
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        match self.next_token()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(|s| Value::String(s.into())),
            b't' => self.literal(b"rue", Value::Bool(true)),
            b'f' => self.literal(b"alse", Value::Bool(false)),
            b'n' => self.literal(b"ull", Value::Null),
            b'-' | b'0'..=b'9' => {
                self.at -= 1;
                self.number().map(Value::Number)
            }
            _ => None,
        }
    }

    fn literal(&mut self, rest: &[u8], v: Value) -> Option<Value> {
        let end = self.at + rest.len();
        (self.bytes.get(self.at..end)? == rest).then(|| {
            self.at = end;
            v
        })
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Some(Value::Array(Box::default()));
        }
        let base = self.items.len();
        loop {
            let item = self.value(depth)?;
            self.items.push(item);
            match self.next_token()? {
                b',' => {}
                // `split_off` allocates exactly the members: no reallocation to box them.
                b']' => return Some(Value::Array(self.items.split_off(base).into_boxed_slice())),
                _ => return None,
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Some(Value::Object(Map::default()));
        }
        let base = self.entries.len();
        loop {
            if self.next_token()? != b'"' {
                return None;
            }
            let key = self.key()?;
            // serde_json reads an object whose first key is this token as raw JSON text.
            if self.entries.len() == base && &*key == RAW_VALUE_TOKEN {
                return None;
            }
            if self.next_token()? != b':' {
                return None;
            }
            let value = self.value(depth)?;
            self.entries.push((key, value));
            match self.next_token()? {
                b',' => {}
                b'}' => {
                    let entries = self.entries.split_off(base);
                    return Some(Value::Object(Map::from_entries(entries)));
                }
                _ => return None,
            }
        }
    }

    /// The rest of an object key whose opening quote is consumed: a known name is found by
    /// its bytes, before any UTF-8 check.
    fn key(&mut self) -> Option<Key> {
        let start = self.at;
        let end = start + special(&self.bytes[start..])?;
        if self.bytes[end] == b'"'
            && let Some(key) = keys::known_bytes(&self.bytes[start..end])
        {
            self.at = end + 1;
            return Some(key);
        }
        Some(match self.string()? {
            Cow::Borrowed(text) => keys::key(text),
            Cow::Owned(text) => keys::key_of(text),
        })
    }

    /// The rest of a string whose opening quote is consumed: borrowed from the text when it
    /// has no escape.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.at;
        let end = start + special(&self.bytes[start..])?;
        if self.bytes[end] == b'"' {
            self.at = end + 1;
            return std::str::from_utf8(&self.bytes[start..end])
                .ok()
                .map(Cow::Borrowed);
        }
        let mut out = Vec::with_capacity(end - start + 16);
        out.extend_from_slice(&self.bytes[start..end]);
        self.at = end;
        loop {
            match self.peek()? {
                b'"' => {
                    self.at += 1;
                    // The escapes wrote whole characters: the text is UTF-8 exactly when the
                    // raw parts between them are.
                    return String::from_utf8(out).ok().map(Cow::Owned);
                }
                b'\\' => {
                    let escape = *self.bytes.get(self.at + 1)?;
                    self.at += 2;
                    let c = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return None,
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                _ => {
                    let from = self.at;
                    let n = special(&self.bytes[from..])?;
                    if n == 0 {
                        // A control character: serde_json's error.
                        return None;
                    }
                    out.extend_from_slice(&self.bytes[from..from + n]);
                    self.at = from + n;
                }
            }
        }
    }

    /// The character of `\uXXXX` (the `\u` consumed); surrogates (pairs or lone) go to
    /// serde_json.
    fn unicode_escape(&mut self) -> Option<char> {
        let hex = self.bytes.get(self.at..self.at + 4)?;
        let mut code = 0u32;
        for &h in hex {
            code = code * 16 + char::from(h).to_digit(16)?;
        }
        self.at += 4;
        char::from_u32(code)
    }

    /// A number, as serde_json reads it: an integer without fraction or exponent is a `u64`
    /// (negative: an `i64`, or a float for `-0` and below `i64::MIN`), anything else the
    /// correctly rounded float (serde_json's `float_roundtrip`, which the workspace enables).
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.at += 1;
        }
        let int_start = self.at;
        let digits = self.digits();
        // One leading zero at most, and at least one digit.
        if digits == 0 || (digits > 1 && self.bytes[int_start] == b'0') {
            return None;
        }
        let mut float = false;
        let mut fraction = 0..0;
        if self.peek() == Some(b'.') {
            self.at += 1;
            let from = self.at;
            if self.digits() == 0 {
                return None;
            }
            fraction = from..self.at;
            float = true;
        }
        let mut exponent = 0..0;
        if let Some(b'e' | b'E') = self.peek() {
            self.at += 1;
            let from = self.at;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            if self.digits() == 0 {
                return None;
            }
            exponent = from..self.at;
            float = true;
        }
        let decimal = |digits: &[u8]| {
            digits
                .iter()
                .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'))
        };
        if !float {
            // 19 digits cannot overflow a u64; longer integers go to serde_json.
            if digits > 19 {
                return None;
            }
            let significand = decimal(&self.bytes[int_start..int_start + digits]);
            if !negative {
                return Some(significand.into());
            }
            // serde_json's own arithmetic for negative integers.
            let neg = (significand as i64).wrapping_neg();
            return if neg >= 0 {
                Number::from_f64(-(significand as f64))
            } else {
                Some(neg.into())
            };
        }
        if let Some(f) = exact_float(
            &self.bytes[int_start..int_start + digits],
            &self.bytes[fraction],
            &self.bytes[exponent],
        ) {
            return Number::from_f64(if negative { -f } else { f });
        }
        let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
        Number::from_f64(text.parse().ok()?)
    }

    /// Skip ASCII digits; how many.
    fn digits(&mut self) -> usize {
        let n = self.bytes[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        self.at += n;
        n
    }
}

/// The float of a decimal `int.fraction e exponent` (ASCII digits; the exponent with its
/// sign) when it is one exact operation away: the digits form an integer below 2^53 and the
/// power of ten is at most 10^22, both exact in a double, so one multiplication or division
/// rounds correctly, as a full parse does (Clinger's fast path). `None`: parse the text.
fn exact_float(int: &[u8], fraction: &[u8], exponent: &[u8]) -> Option<f64> {
    const POW10: [f64; 23] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ];
    if int.len() + fraction.len() > 19 || exponent.len() > 4 {
        return None;
    }
    let mantissa = int
        .iter()
        .chain(fraction)
        .fold(0u64, |n, &d| n * 10 + u64::from(d - b'0'));
    if mantissa > 1 << 53 {
        return None;
    }
    let (sign, digits) = match exponent.split_first() {
        Some((b'-', rest)) => (-1, rest),
        Some((b'+', rest)) => (1, rest),
        _ => (1, exponent),
    };
    let written = digits
        .iter()
        .fold(0i64, |n, &d| n * 10 + i64::from(d - b'0'));
    let power = sign * written - fraction.len() as i64;
    let scale = *POW10.get(usize::try_from(power.unsigned_abs()).ok()?)?;
    let m = mantissa as f64;
    Some(if power >= 0 { m * scale } else { m / scale })
}

/// Where the first byte of `bytes` that does not stand for itself in a string is: the closing
/// quote, an escape or a control character (`None`: the text ends first). Eight bytes at a
/// time: data URIs make strings of megabytes.
fn special(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    // The high bit of each byte of `w` that is below `n` (exact for the lowest such byte:
    // borrows only run upwards).
    let below = |w: u64, n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS;
    let mut at = 0;
    while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
        let w = u64::from_le_bytes(*chunk);
        let hits = below(w ^ (ONES * u64::from(b'"')), 1)
            | below(w ^ (ONES * u64::from(b'\\')), 1)
            | below(w, 0x20);
        if hits != 0 {
            return Some(at + (hits.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    bytes[at..]
        .iter()
        .position(|&b| b < 0x20 || b == b'"' || b == b'\\')
        .map(|n| at + n)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// Hand-worked: 0.1 is 1 / 10 (one rounding, the nearest double to 0.1); 12.5e-1 is
    /// 125 / 100; 2^53 + 1 = 9007199254740993 has no exact double, so the text is parsed.
    #[test]
    fn exact_float_examples() {
        assert_eq!(super::exact_float(b"0", b"1", b""), Some(0.1));
        assert_eq!(super::exact_float(b"12", b"5", b"-1"), Some(1.25));
        assert_eq!(super::exact_float(b"3", b"", b"+22"), Some(3e22));
        assert_eq!(super::exact_float(b"3", b"", b"23"), None);
        assert_eq!(super::exact_float(b"9007199254740993", b"", b"0"), None);
        assert_eq!(
            super::exact_float(b"9007199254740992", b"", b"0"),
            Some(9007199254740992.0)
        );
    }

    /// The JSON text of a decimal from its integer digits, fraction digits and exponent
    /// (either of the last two may be empty).
    fn decimal_text(int: &str, fraction: &str, exponent: &str) -> String {
        let mut text = int.to_owned();
        if !fraction.is_empty() {
            text = format!("{text}.{fraction}");
        }
        if !exponent.is_empty() {
            text = format!("{text}e{exponent}");
        }
        text
    }

    /// For a decimal `int.fraction e exponent`: its text, the exact path's answer and the full
    /// parse's (as bits), and whether it lies within the exact path's bounds, worked out apart
    /// from `exact_float`: at most 19 digits and an exponent of at most 4 bytes of text (what
    /// it reads without overflow), its digits an integer of at most 2^53 and its power of ten
    /// at most 22 either way.
    fn exact_and_full(
        int: &str,
        fraction: &str,
        exponent: &str,
    ) -> (String, Option<u64>, u64, bool) {
        let text = decimal_text(int, fraction, exponent);
        let full: f64 = text.parse().expect("a decimal");
        let fast = super::exact_float(int.as_bytes(), fraction.as_bytes(), exponent.as_bytes());
        // At most 30 digits here: a u128 holds them.
        let digits: u128 = format!("{int}{fraction}").parse().expect("digits");
        let written: i64 = if exponent.is_empty() {
            0
        } else {
            exponent.parse().expect("exponent")
        };
        let power = written - fraction.len() as i64;
        let short_text = int.len() + fraction.len() <= 19 && exponent.len() <= 4;
        let in_bounds = short_text && digits <= 1 << 53 && power.abs() <= 22;
        (text, fast.map(f64::to_bits), full.to_bits(), in_bounds)
    }

    proptest! {
        /// The word-at-a-time scan finds what a byte-at-a-time one does, at every alignment
        /// and length, in text that is mostly plain with a few quotes, escapes, control
        /// characters and non-ASCII bytes.
        #[test]
        fn special_is_the_first_byte_that_ends_plain_text(
            bytes in prop::collection::vec(
                prop_oneof![8 => b'a'..=b'z', 1 => any::<u8>(), 1 => prop::sample::select(vec![b'"', b'\\', 0x1f, 0x20, 0x7f, 0x80, 0xa2, 0xdc])],
                0..40,
            ),
        ) {
            let naive = bytes.iter().position(|&b| b < 0x20 || b == b'"' || b == b'\\');
            prop_assert_eq!(super::special(&bytes), naive);
        }

        /// The exact path answers exactly for the decimals within its bounds, with what a
        /// full, correctly rounded parse of the text gives (same bits), and leaves the others
        /// to the full parse. Half the decimals are short (at most 15 digits, so below 2^53,
        /// and a power of ten of at most 22 either way): those are all within the bounds. Some
        /// are small values written long (20 to 22 digits with leading zeros, or a 5-byte
        /// exponent): outside the text bounds, so left to the full parse.
        #[test]
        fn exact_floats_are_correctly_rounded(
            (int, fraction, exponent, short) in prop_oneof![
                ("(0|[1-9][0-9]{0,17})", "[0-9]{0,12}", prop_oneof![Just(String::new()), "[+-]?[0-9]{1,3}"], Just(false)),
                ("(0|[1-9][0-9]{0,7})", "[0-9]{0,7}", prop_oneof![Just(String::new()), "[+-]?(1[0-5]|[0-9])"], Just(true)),
                ("0", prop_oneof!["0{18,20}[1-9]", "[0-9]{1,3}"], prop_oneof![Just(String::new()), "[+-]00[0-9]{2}"], Just(false)),
            ],
        ) {
            let (text, fast, full, in_bounds) = exact_and_full(&int, &fraction, &exponent);
            prop_assert!(in_bounds || !short, "{}", text);
            prop_assert_eq!(fast, in_bounds.then_some(full), "{}", text);
        }
    }
}
