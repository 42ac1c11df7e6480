//! Canonical JSON text: sorted keys, two-space indentation, shortest round-trip floats, a final
//! newline. The same value always gives the same bytes, whatever serde_json features are on.
//!
//! Layout: a container whose one-line text (`, ` and `: ` separators) is at most 100 bytes
//! stays on one line, and so does an array of at most 16 scalars; any other container puts
//! one member per line, indented by two spaces per level.
//!
//! Values are recorded on a [`Tape`] first, in one-line form (each scalar formatted once, each
//! container's one-line length known when it closes, the containers that stay on one line
//! finished then), then written in one pass. Typed values go on the
//! tape straight through serde ([`Tape::push`]) with the meaning `serde_json::to_value` gives
//! them, floats optionally rounded on the way: no `Value` is built for them.

mod ser;
mod tape;

use serde::Serialize;
use serde_json::Value;
use serde_json::ser::Formatter;

pub use tape::Tape;

/// Containers whose one-line text is at most this long stay on one line.
const INLINE: usize = 100;
/// Arrays of at most this many scalars stay on one line whatever their length.
const SHORT_ARRAY: usize = 16;

/// Why a typed value has no canonical text (its `Serialize` failed, or a map key is not a
/// string or a scalar). A boxed `str` (16 bytes, not a `String`'s 24): every serializer call
/// returns a `Result<(), Error>`, which then comes back in two registers, not through memory.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(Box<str>);

impl serde::ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Error {
        Error(msg.to_string().into_boxed_str())
    }
}

/// Pretty-print `value` with every object's keys sorted.
pub fn to_string(value: &Value) -> String {
    let mut out = Vec::with_capacity(4096);
    write_to(value, &mut out);
    text(out)
}

/// Append the canonical text of `value` (with its final newline) to `out`.
pub fn write_to(value: &Value, out: &mut Vec<u8>) {
    let mut tape = Tape::new();
    tape.push_value(value);
    tape.write_to(out);
}

/// The canonical text of a typed value: the text of `serde_json::to_value(value)`.
pub fn to_string_of<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    let mut tape = Tape::new();
    tape.push(value, None)?;
    Ok(tape.to_text())
}

impl Tape {
    /// Record `value` as `serde_json::to_value` would make it, every float rounded to `round`
    /// decimals ([`round`]) when set, as `label::round_floats_in_place` rounds a `Value`.
    /// On error nothing is recorded.
    pub fn push<T: Serialize + ?Sized>(
        &mut self,
        value: &T,
        round: Option<i32>,
    ) -> Result<(), Error> {
        let mark = self.mark();
        let round = round.map(Rounding::new);
        let result = value.serialize(&mut ser::Ser { tape: self, round });
        if result.is_err() {
            self.rewind(mark);
        }
        result
    }

    /// Record a JSON value.
    pub fn push_value(&mut self, value: &Value) {
        self.value(value);
    }

    /// Open an object on the tape: record members with [`Tape::key`] and a value each, then
    /// [`Tape::end_object`] with the returned handle. Members may come in any key order.
    pub fn begin_object(&mut self) -> ObjectStart {
        ObjectStart(self.open(true))
    }

    /// Record the key of the next member of the open object.
    pub fn member(&mut self, key: &str) {
        self.key(key);
    }

    /// Close an object opened by [`Tape::begin_object`] (after any object opened in it).
    pub fn end_object(&mut self, object: ObjectStart) {
        self.close(object.0);
    }

    /// The bytes of [`Tape::to_text`] (not checked as UTF-8 again: every piece is).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.text_size_hint());
        self.write_to(&mut out);
        out
    }

    /// The canonical text of the recorded value, with its final newline.
    pub fn to_text(&self) -> String {
        text(self.to_bytes())
    }
}

/// An object opened on a [`Tape`].
#[derive(Debug)]
#[must_use = "an object must be closed with Tape::end_object"]
pub struct ObjectStart(usize);

/// Every piece written is UTF-8 (serde_json text and ASCII punctuation).
fn text(out: Vec<u8>) -> String {
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// A string as serde_json writes it (quoted, escaped). serde_json escapes only quotes,
/// backslashes and the control characters below 0x20: a string without them is written as is.
fn write_str(s: &str, out: &mut Vec<u8>) {
    if plain(s) {
        out.reserve(s.len() + 2);
        out.push(b'"');
        push_short(out, s.as_bytes());
        out.push(b'"');
    } else {
        // Writing a string into a Vec cannot fail.
        let _ = serde_json::to_writer(&mut *out, s);
    }
}

/// Append `bytes` to `out`. Keys and names are short: for 4 to 16 bytes, two fixed copies
/// (the first and the last 8 or 4 bytes, overlapping), for fewer bytes a push each, instead
/// of a call to copy a variable length.
fn push_short(out: &mut Vec<u8>, bytes: &[u8]) {
    let n = bytes.len();
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>())
        && n <= 16
    {
        out.extend_from_slice(head);
        out.truncate(out.len() + n - 16);
        out.extend_from_slice(tail);
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>())
        && n < 8
    {
        out.extend_from_slice(head);
        out.truncate(out.len() + n - 8);
        out.extend_from_slice(tail);
    } else if n < 4 {
        for &b in bytes {
            out.push(b);
        }
    } else {
        out.extend_from_slice(bytes);
    }
}

/// A string serde_json writes as it is, between quotes: no byte below 0x20, no quote, no
/// backslash. Eight bytes at a time (keys and names are mostly 5 to 20 bytes long).
fn plain(s: &str) -> bool {
    let bytes = s.as_bytes();
    let (chunks, tail) = bytes.as_chunks::<8>();
    if !chunks.iter().all(|c| plain8(u64::from_le_bytes(*c))) {
        return false;
    }
    if tail.is_empty() {
        return true;
    }
    // The tail: within the last 8 bytes (overlapping the last chunk), or for a string of 4 to
    // 7 bytes its first and last 4 (overlapping), one test each instead of one per byte.
    if let Some(last) = bytes.last_chunk::<8>() {
        return plain8(u64::from_le_bytes(*last));
    }
    if let (Some(head), Some(end)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let x = u64::from(u32::from_le_bytes(*head)) | u64::from(u32::from_le_bytes(*end)) << 32;
        return plain8(x);
    }
    tail.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\')
}

/// No byte of `x` is below 0x20, a quote or a backslash.
fn plain8(x: u64) -> bool {
    below8(x, 0x20) | equal8(x, b'"') | equal8(x, b'\\') == 0
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// The high bit of the bytes of `x` below `n <= 0x80`: `(x - n * 0x01..) & !x & 0x80..` (a
/// borrow can flag a byte above a flagged one, never below: the lowest flag, and whether there
/// is one, are exact).
fn below8(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH
}

/// The high bit of the bytes of `x` equal to `c` (exact as [`below8`]: the bytes of
/// `x ^ c..` below 1).
fn equal8(x: u64, c: u8) -> u64 {
    below8(x ^ (ONES * u64::from(c)), 1)
}

/// A number as serde_json writes it: `Number::serialize` writes a non-negative integer as
/// `u64`, a negative one as `i64`, a float as `f64` (`null` if it were not finite); written
/// here without going through a serializer.
fn write_number(n: &serde_json::Number, out: &mut Vec<u8>) {
    if let Some(u) = n.as_u64() {
        write_u64(u, out);
    } else if let Some(i) = n.as_i64() {
        write_i64(i, out);
    } else {
        match n.as_f64() {
            Some(x) if x.is_finite() => write_f64(x, out),
            _ => write_null(out),
        }
    }
}

// Each a copy of a fixed length (no call to copy a variable length).
fn write_bool(b: bool, out: &mut Vec<u8>) {
    if b {
        out.extend_from_slice(b"true");
    } else {
        out.extend_from_slice(b"false");
    }
}

fn write_null(out: &mut Vec<u8>) {
    out.extend_from_slice(b"null");
}

/// Write a finite `x` as serde_json writes it. A nonzero double of a whole number of
/// millionths below 10^9 in magnitude (`0.05`, `-1.25`: most numbers a scene is made of) is
/// written from the digits of that number ([`write_millionths`], whose reasoning holds for any such `x`: it is the
/// correctly rounded quotient `n / 10^6`); any other through serde_json's formatter.
fn write_f64(x: f64, out: &mut Vec<u8>) {
    let n = (x * 1e6).round();
    if x != 0.0 && n / 1e6 == x && write_millionths(n, x, out) {
        return;
    }
    // Writing into a Vec cannot fail; callers pass finite numbers (others are `null`).
    let _ = serde_json::ser::CompactFormatter.write_f64(out, x);
}

fn write_f32(x: f32, out: &mut Vec<u8>) {
    let _ = serde_json::ser::CompactFormatter.write_f32(out, x);
}

/// The decimal digits of `x`, as serde_json writes them. Most integers written are indices
/// and counts below 100: those are one or two bytes pushed, not a formatter call and a copy.
fn write_u64(x: u64, out: &mut Vec<u8>) {
    if x < 10 {
        out.push(b'0' + x as u8);
    } else if x < 100 {
        out.extend_from_slice(&[b'0' + (x / 10) as u8, b'0' + (x % 10) as u8]);
    } else {
        let _ = serde_json::ser::CompactFormatter.write_u64(out, x);
    }
}

fn write_i64(x: i64, out: &mut Vec<u8>) {
    let _ = serde_json::ser::CompactFormatter.write_i64(out, x);
}

/// [`round`] with the factor `10^decimals` computed once (the same bits as `round`).
#[derive(Clone, Copy, Debug)]
struct Rounding {
    factor: f64,
    decimals: i32,
}

impl Rounding {
    fn new(decimals: i32) -> Rounding {
        Rounding {
            factor: 10f64.powi(decimals),
            decimals,
        }
    }

    fn apply(self, x: f64) -> f64 {
        self.parts(x).1
    }

    /// `(n, r)`: the whole number of units `n = round(x * 10^decimals)` and the rounded value
    /// `r = n / 10^decimals` ([`round`]'s result).
    fn parts(self, x: f64) -> (f64, f64) {
        let n = (x * self.factor).round();
        let r = n / self.factor;
        (n, if r == 0.0 { 0.0 } else { r })
    }

    /// Write the rounded value `r` of [`Rounding::parts`] `(n, r)` as serde_json writes it.
    fn write(self, (n, r): (f64, f64), out: &mut Vec<u8>) {
        if !(self.decimals == 6 && write_millionths(n, r, out)) {
            write_f64(r, out);
        }
    }
}

/// Write `r = n / 10^6` (`n` a whole number) as serde_json writes it, from the digits of `n`,
/// when `|n| < 10^15`; returns false (nothing written) otherwise.
///
/// Why the digits of `n` are the ones serde_json writes: it writes the shortest decimal that
/// reads back as `r`. The decimal `n * 10^-6` reads back as `r` (`r` is the correctly rounded
/// quotient of two exact doubles), and with `|n| < 10^15` it has at most 15 significant
/// digits; two different decimals of at most 15 significant digits never read back as the
/// same double (`f64::DIGITS` is 15), so no decimal as short or shorter reads back as `r`.
/// The layout is serde_json's (ryu's): a whole number ends in `.0`, a number below 10^-5 in
/// magnitude is written `de-6` (here: `|n| < 10`), any other as a plain decimal, e.g.
/// `n = -1_250_000` gives `-1.25`, `n = 40` gives `0.00004`, `n = 7` gives `7e-6`.
fn write_millionths(n: f64, r: f64, out: &mut Vec<u8>) -> bool {
    const UNIT: u64 = 1_000_000;
    if n.is_nan() || n.abs() >= 1e15 {
        return false;
    }
    if r == 0.0 {
        out.extend_from_slice(b"0.0");
        return true;
    }
    // Exact: `n` is a whole number below 2^53 in magnitude.
    let m = (n as i64).unsigned_abs();
    if r < 0.0 {
        out.push(b'-');
    }
    if m < 10 {
        out.push(b'0' + m as u8);
        out.extend_from_slice(b"e-6");
        return true;
    }
    let (whole, mut frac) = (m / UNIT, m % UNIT);
    if whole < 10 {
        out.push(b'0' + whole as u8);
    } else {
        write_u64(whole, out);
    }
    // The point and six digits with leading zeros (two at a time), trailing zeros dropped
    // (`.0` for a whole number); appended with one fixed 8-byte copy, then the length cut
    // back.
    let mut buf = *b".0000000";
    let len = if frac == 0 {
        2
    } else {
        for k in [2, 1, 0] {
            let pair = (frac % 100) as usize;
            frac /= 100;
            buf[1 + 2 * k..3 + 2 * k].copy_from_slice(&PAIRS[2 * pair..2 * pair + 2]);
        }
        // The last digit that is not `0`: the highest byte of the six digits (bytes 1 to 6,
        // little-endian) that differs from `0`; `frac` was not 0, so there is one.
        let digits =
            (u64::from_le_bytes(buf) ^ u64::from_le_bytes(*b"00000000")) & 0x00ff_ffff_ffff_ff00;
        (63 - digits.leading_zeros() as usize) / 8 + 1
    };
    let at = out.len();
    out.extend_from_slice(&buf);
    out.truncate(at + len);
    true
}

/// `00`, `01`, ... `99`: two decimal digits at a time.
const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Round to `decimals` places, so generated numbers are short and exact in text
/// (e.g. `round(0.123456, 3) == 0.123`). Never returns `-0.0`.
pub fn round(x: f64, decimals: i32) -> f64 {
    Rounding::new(decimals).apply(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_and_scalars_arrays_inline() {
        let v = json!({"b": [1, 2.5, -3], "a": {"z": true, "c": null}, "e": [], "f": {}});
        assert_eq!(
            to_string(&v),
            "{\"a\": {\"c\": null, \"z\": true}, \"b\": [1, 2.5, -3], \"e\": [], \"f\": {}}\n"
        );
        // Longer than 100 characters on one line: one member per line.
        let long = json!({"k": "x".repeat(60), "a": "y".repeat(40)});
        let text = to_string(&long);
        assert!(text.starts_with("{\n  \"a\": \"yyy"), "{text}");
    }

    #[test]
    fn text_parses_back_to_the_same_value() {
        let v = json!({"x": [{"k": 0.1}, [1, [2]]], "s": "a\"b"});
        let back: Value = serde_json::from_str(&to_string(&v)).expect("valid JSON");
        assert_eq!(back, v);
    }

    /// The first implementation (one full one-line text per container, no early stop), kept
    /// as the oracle of the faster writer: the bytes must never change.
    mod oracle {
        use serde_json::Value;

        fn inline(value: &Value, out: &mut String) {
            match value {
                Value::Object(map) => {
                    let mut keys: Vec<&String> = map.keys().collect();
                    keys.sort();
                    out.push('{');
                    for (i, key) in keys.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        out.push_str(&Value::String((*key).clone()).to_string());
                        out.push_str(": ");
                        inline(&map[key.as_str()], out);
                    }
                    out.push('}');
                }
                Value::Array(items) => {
                    out.push('[');
                    for (i, item) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        inline(item, out);
                    }
                    out.push(']');
                }
                other => out.push_str(&other.to_string()),
            }
        }

        fn write(value: &Value, indent: usize, out: &mut String) {
            if value.is_object() || value.is_array() {
                let mut one = String::new();
                inline(value, &mut one);
                if one.len() <= super::super::INLINE {
                    out.push_str(&one);
                    return;
                }
            }
            let pad = |n: usize, out: &mut String| out.push_str(&"  ".repeat(n));
            match value {
                Value::Object(map) if !map.is_empty() => {
                    let mut keys: Vec<&String> = map.keys().collect();
                    keys.sort();
                    out.push_str("{\n");
                    for (i, key) in keys.iter().enumerate() {
                        pad(indent + 1, out);
                        out.push_str(&Value::String((*key).clone()).to_string());
                        out.push_str(": ");
                        write(&map[key.as_str()], indent + 1, out);
                        if i + 1 < keys.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    pad(indent, out);
                    out.push('}');
                }
                Value::Array(items) if !items.is_empty() => {
                    if items.len() <= 16 && items.iter().all(|v| !v.is_array() && !v.is_object()) {
                        out.push('[');
                        for (i, item) in items.iter().enumerate() {
                            if i > 0 {
                                out.push_str(", ");
                            }
                            out.push_str(&item.to_string());
                        }
                        out.push(']');
                        return;
                    }
                    out.push_str("[\n");
                    for (i, item) in items.iter().enumerate() {
                        pad(indent + 1, out);
                        write(item, indent + 1, out);
                        if i + 1 < items.len() {
                            out.push(',');
                        }
                        out.push('\n');
                    }
                    pad(indent, out);
                    out.push(']');
                }
                other => out.push_str(&other.to_string()),
            }
        }

        pub fn to_string(value: &Value) -> String {
            let mut out = String::new();
            write(value, 0, &mut out);
            out.push('\n');
            out
        }
    }

    /// JSON values of every kind, nested, with strings that need escaping and containers
    /// around the 100-character line limit.
    fn any_json() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(Value::from),
            "[a-z\"\\\\\u{e9}\n]{0,40}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 64, 20, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..20).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,12}", inner, 0..8)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]
        /// Members recorded one by one in any order, keys repeated (the last value kept, as in
        /// a `serde_json::Map`), sharing their first 8 bytes, or with escapes; values of every
        /// size, in an object alone and after a long member of an array: the oracle's bytes.
        #[test]
        fn members_in_any_order_give_the_oracle_bytes(
            members in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        "[a-c]{1,2}",
                        "prefix__[a-c]{0,2}",
                        "[a\"\\\\\n\u{e9}]{1,9}",
                    ],
                    any_json(),
                ),
                0..10,
            ),
        ) {
            let mut want = serde_json::Map::new();
            for (k, v) in &members {
                want.insert(k.clone(), v.clone());
            }
            let want = Value::Object(want);
            let record = |tape: &mut Tape| {
                let doc = tape.begin_object();
                for (k, v) in &members {
                    tape.member(k);
                    tape.push_value(v);
                }
                tape.end_object(doc);
            };
            let mut tape = Tape::new();
            record(&mut tape);
            proptest::prop_assert_eq!(tape.to_text(), oracle::to_string(&want));
            let mut tape = Tape::new();
            let outer = tape.open(false);
            tape.push_value(&Value::from("o".repeat(120)));
            record(&mut tape);
            tape.close(outer);
            let wrapped = serde_json::json!(["o".repeat(120), want]);
            proptest::prop_assert_eq!(tape.to_text(), oracle::to_string(&wrapped));
        }
    }

    proptest::proptest! {
        #[test]
        fn the_fast_writer_gives_the_oracle_bytes(v in any_json()) {
            proptest::prop_assert_eq!(to_string(&v), oracle::to_string(&v));
            // A tape reused after `clear` (as the corpus writer reuses one): nothing of the
            // value before, long and expanded, is left in its buffers.
            let mut tape = Tape::new();
            tape.push_value(&serde_json::json!({"b": [1, {"a": "x".repeat(120)}], "\u{e9}": [[]]}));
            tape.clear();
            tape.push_value(&v);
            proptest::prop_assert_eq!(tape.to_bytes(), oracle::to_string(&v).into_bytes());
        }
    }

    proptest::proptest! {
        /// Appending a short text by fixed copies appends exactly that text, at every length
        /// (0 to 40 bytes), after any text.
        #[test]
        fn push_short_appends_the_bytes(before in "[a-z]{0,20}", bytes in "[ -~]{0,40}") {
            let mut out = before.clone().into_bytes();
            push_short(&mut out, bytes.as_bytes());
            proptest::prop_assert_eq!(out, format!("{before}{bytes}").into_bytes());
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Every kind of number (any `u64`, any `i64`, any finite double), booleans and null
        /// are written as serde_json writes them.
        #[test]
        fn scalars_are_written_as_serde_json_writes_them(
            u in proptest::prelude::any::<u64>(),
            i in proptest::prelude::any::<i64>(),
            bits in proptest::prelude::any::<u64>(),
            b in proptest::prelude::any::<bool>(),
        ) {
            let mut values = vec![Value::from(u), Value::from(i), Value::from(b), Value::Null];
            values.extend(serde_json::Number::from_f64(f64::from_bits(bits)).map(Value::Number));
            values.push(Value::from(-0.0));
            for v in values {
                let mut fast = Vec::new();
                match &v {
                    Value::Number(n) => write_number(n, &mut fast),
                    Value::Bool(b) => write_bool(*b, &mut fast),
                    _ => write_null(&mut fast),
                }
                let slow = serde_json::to_vec(&v).expect("serialisable");
                proptest::prop_assert_eq!(fast, slow, "{:?}", v);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Decimals of 0 to 9 places and up to 17 digits (whole millionths and not, near the
        /// 10^15 limit of the digit path and past it, below 10^-5), and both zeros, are written
        /// as serde_json writes them.
        #[test]
        fn decimals_are_written_as_serde_json_writes_them(
            digits in -99_999_999_999_999_999_i64..=99_999_999_999_999_999,
            small in -2_000_i64..=2_000,
            places in 0..=9_i32,
        ) {
            for k in [digits, small, digits / 100, digits / 10_000] {
                let x = k as f64 / 10f64.powi(places);
                for x in [x, -x, 0.0, -0.0] {
                    let mut fast = Vec::new();
                    write_f64(x, &mut fast);
                    let slow = serde_json::to_vec(&x).expect("serialisable");
                    proptest::prop_assert_eq!(fast, slow, "{:?}", x);
                }
            }
        }
    }

    #[test]
    fn integers_are_written_as_serde_json_writes_them_at_every_digit_count() {
        let mut samples: Vec<i128> = vec![0, u64::MAX.into(), i64::MIN.into(), i64::MAX.into()];
        samples.extend(-1000..=1000);
        for k in 0..20u32 {
            let p = 10i128.pow(k);
            samples.extend([p - 1, p, p + 1, -p + 1, -p, -p - 1]);
        }
        for n in samples {
            let mut fast = Vec::new();
            let slow = if let Ok(u) = u64::try_from(n) {
                write_u64(u, &mut fast);
                serde_json::to_vec(&u)
            } else if let Ok(i) = i64::try_from(n) {
                write_i64(i, &mut fast);
                serde_json::to_vec(&i)
            } else {
                continue;
            };
            assert_eq!(fast, slow.expect("serialisable"), "{n}");
            assert_eq!(String::from_utf8_lossy(&fast), n.to_string());
        }
    }

    /// The bytes of the rounded-float writer, and those of the path it replaces: round, then
    /// serde_json's formatting of the rounded value.
    fn rounded_both_ways(x: f64) -> (Vec<u8>, Vec<u8>) {
        let r = Rounding::new(6);
        let mut fast = Vec::new();
        r.write(r.parts(x), &mut fast);
        // The replaced path, worked out apart from `Rounding`.
        let old_round = (x * 1e6).round() / 1e6;
        let mut old = Vec::new();
        write_f64(if old_round == 0.0 { 0.0 } else { old_round }, &mut old);
        (fast, old)
    }

    #[test]
    fn rounded_floats_are_written_as_serde_json_writes_them_worked_examples() {
        // n = round(x * 10^6): -1_250_000 -> "-1.25"; 40 -> "0.00004" (10^-5 <= |r|: plain);
        // 7 -> "7e-6" (below 10^-5: serde_json's exponent form); 3_000_000 -> "3.0".
        for (x, text) in [
            (-1.25, "-1.25"),
            (0.00004, "0.00004"),
            (0.000007, "7e-6"),
            (-0.000001, "-1e-6"),
            (3.0, "3.0"),
            (-0.0, "0.0"),
            (0.0000004, "0.0"),
            (-0.0000004, "0.0"),
            (123456.7890123, "123456.789012"),
            (0.1 + 0.2, "0.3"),
        ] {
            let (fast, old) = rounded_both_ways(x);
            assert_eq!(String::from_utf8_lossy(&fast), text, "{x}");
            assert_eq!(fast, old, "{x}");
        }
    }

    #[test]
    fn rounded_floats_are_written_as_serde_json_writes_them_near_zero_and_near_the_limit() {
        // Every n in -10^6..=10^6 (every six-digit fraction, all exponent and leading-zero
        // forms), and around 10^15 units, where the writer hands over to serde_json's
        // formatting.
        let near_limit = (-2000i64..=2000).flat_map(|d| [1e15 + d as f64, -1e15 + d as f64]);
        for n in (-1_000_000i64..=1_000_000)
            .map(|n| n as f64)
            .chain(near_limit)
        {
            let x = n / 1e6;
            let (fast, old) = rounded_both_ways(x);
            assert_eq!(fast, old, "n = {n}, x = {x}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Any finite double (every magnitude, huge ones past 10^15 units and ones whose
        /// `x * 10^6` overflows included), and doubles of the magnitudes of positions,
        /// quaternions and masses.
        #[test]
        fn rounded_floats_are_written_as_serde_json_writes_them(
            bits in proptest::prelude::any::<u64>(),
            small in -1e4f64..1e4,
            unit in -1f64..1.0,
        ) {
            for x in [f64::from_bits(bits), small, unit] {
                // Skipped where the scaled value overflows (worked out apart from `round`).
                if !x.is_finite() || !(x * 1e6).is_finite() {
                    continue;
                }
                let (fast, old) = rounded_both_ways(x);
                proptest::prop_assert_eq!(fast, old, "{}", x);
            }
        }
    }

    /// Containers nested deeper than the fixed indentation copies reach (16 levels), every one
    /// written one member per line, and empty ones among them: the oracle's bytes.
    #[test]
    fn deep_nesting_gives_the_oracle_bytes() {
        let mut v = json!({"leaf": "x".repeat(120), "empty": {}, "none": []});
        for depth in 0..24 {
            v = if depth % 2 == 0 {
                json!({"level": depth, "next": v, "pad": "y".repeat(90)})
            } else {
                json!([depth, v, "z".repeat(90)])
            };
        }
        assert_eq!(to_string(&v), oracle::to_string(&v));
        assert!(to_string(&v).contains(&format!("\n{}\"leaf\"", "  ".repeat(25))));
    }

    /// A serializer call's result fits in two registers (an `Error` is a boxed `str`).
    #[test]
    fn a_serializer_result_is_16_bytes() {
        assert_eq!(std::mem::size_of::<Result<(), Error>>(), 16);
        let e = <Error as serde::ser::Error>::custom("no key");
        assert_eq!(e.to_string(), "no key");
    }

    /// Spans are small (`u32` positions): a case's tapes have thousands.
    #[test]
    fn a_tape_span_is_12_bytes() {
        assert_eq!(std::mem::size_of::<super::tape::Span>(), 12);
    }

    #[test]
    fn a_container_of_exactly_100_characters_stays_on_one_line() {
        // `{"k": ` is 6 characters, the string 91 x + 2 quotes = 93, `}` 1: 6 + 93 + 1 = 100.
        let fits = json!({"k": "x".repeat(91)});
        assert_eq!(to_string(&fits).len(), 101, "one line and a newline");
        let over = json!({"k": "x".repeat(92)});
        assert!(to_string(&over).starts_with("{\n  \"k\": "));
    }

    /// Members recorded out of key order and repeated (the last value kept), through every
    /// way a container can close: on one line only once a repeated member is dropped (at
    /// exactly 100 characters) or not (101), and written one member per line with members
    /// that are themselves written one member per line, in place, moved by the key order, or
    /// dropped with their repeated key. The oracle's bytes, and the layout meant.
    #[test]
    fn out_of_order_and_repeated_members_give_the_oracle_bytes() {
        let long = |c: &str| Value::from(c.repeat(120));
        // `{"a": 1, "b": "<s>"}` is 1 + 6 + 2 + 5 + (len + 2) + 1 = 17 + len characters.
        let s83 = Value::from("s".repeat(83));
        let s84 = Value::from("s".repeat(84));
        let cases: Vec<(Vec<(&str, Value)>, usize)> = vec![
            // Recorded 110 characters long, 100 once the first "b" is dropped: one line.
            (
                vec![("b", json!("xxxxxx")), ("a", json!(1)), ("b", s83.clone())],
                1,
            ),
            (
                vec![("b", json!("xxxxxx")), ("a", json!(1)), ("b", s84.clone())],
                4,
            ),
            // In key order but for a repeat: still sorted and de-duplicated.
            (vec![("a", json!(1)), ("b", s83.clone()), ("b", s83)], 1),
            (
                vec![("a", json!(1)), ("b", s84.clone()), ("a", json!(2))],
                4,
            ),
            // Written one member per line, members that are too, a repeated key whose first
            // value (dropped) has members written one member per line.
            (
                vec![
                    ("z", json!([{"k": long("a")}, 1, [long("b")]])),
                    ("m", json!({"q": {"r": long("c")}, "p": [1, 2]})),
                    ("z", json!([1, {"k": long("d")}, [2, 3], [[long("e")]]])),
                    ("a", json!({"y": long("f"), "x": {}})),
                    ("b", s84),
                ],
                23,
            ),
            // A dropped first value written one member per line: the kept object fits on one
            // line all the same.
            (vec![("a", json!({"k": long("a")})), ("a", json!(1))], 1),
            (
                vec![
                    ("b", json!([long("a"), {"k": long("b")}])),
                    ("a", json!(1)),
                    ("b", json!(2)),
                ],
                1,
            ),
        ];
        for (members, lines) in cases {
            let mut tape = Tape::new();
            let doc = tape.begin_object();
            let mut want = serde_json::Map::new();
            for (k, v) in &members {
                tape.member(k);
                tape.push_value(v);
                want.insert((*k).to_owned(), v.clone());
            }
            tape.end_object(doc);
            let text = tape.to_text();
            let want = Value::Object(want);
            assert_eq!(text, oracle::to_string(&want), "{want}");
            assert_eq!(text.lines().count(), lines, "{text}");
            // The same object inside an array, after a member: its text is indented.
            let mut tape = Tape::new();
            let outer = tape.open(false);
            tape.push_value(&long("o"));
            let doc = tape.begin_object();
            for (k, v) in &members {
                tape.member(k);
                tape.push_value(v);
            }
            tape.end_object(doc);
            tape.close(outer);
            let wrapped = json!([long("o"), want]);
            assert_eq!(tape.to_text(), oracle::to_string(&wrapped));
        }
    }

    /// A one-line object inside a one-line array, though a repeated key's dropped value was
    /// written one member per line: `[{"b": 2}, 3]`.
    #[test]
    fn a_dropped_value_does_not_expand_its_containers() {
        let mut tape = Tape::new();
        let outer = tape.open(false);
        let doc = tape.begin_object();
        tape.member("b");
        tape.push_value(&json!({"k": "x".repeat(120)}));
        tape.member("b");
        tape.push_value(&json!(2));
        tape.end_object(doc);
        tape.push_value(&json!(3));
        tape.close(outer);
        assert_eq!(tape.to_text(), "[{\"b\": 2}, 3]\n");
    }

    /// A typed value with every serde shape: fields out of key order, options, every kind of
    /// enum variant, `f32`, non-finite floats, maps with integer keys, a flattened map that
    /// repeats a field's key, bytes, characters and strings that need escaping.
    mod typed {
        use std::collections::BTreeMap;

        use serde::Serialize;

        #[derive(Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Kind {
            Unit,
            Newtype(f64),
            Tuple(i8, f32),
            Struct { zeta: u64, alpha: Option<i64> },
        }

        #[derive(Serialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        pub enum Tagged {
            Sphere { radius: f64 },
            Box { size: [f64; 3] },
        }

        #[derive(Serialize)]
        pub struct Inner {
            pub z: f64,
            pub a: Vec<f32>,
            #[serde(flatten)]
            pub shape: Tagged,
            #[serde(flatten)]
            pub extra: BTreeMap<String, i32>,
        }

        #[derive(Serialize)]
        pub struct Outer {
            pub zulu: Vec<Kind>,
            pub mike: Option<Inner>,
            pub alpha: String,
            #[serde(with = "serde_bytes_as_seq")]
            pub bytes: Vec<u8>,
            pub letter: char,
            pub by_index: BTreeMap<u32, f64>,
            pub nothing: (),
            pub pair: (bool, i128),
            pub names: Names,
        }

        /// Field names whose `, "key": ` text the key cache does not keep (one needs an
        /// escape, one is over 24 bytes), and fields declared in key order but for two that
        /// share their first 8 bytes (cached and not): only the whole keys tell the order.
        #[derive(Serialize)]
        pub struct Names {
            pub a_field_name_longer_than_24_bytes: f64,
            pub position_z: f64,
            pub position_a: Vec<f32>,
            pub position_long_name_over_24_b: u8,
            pub position_long_name_over_24_a: i8,
            #[serde(rename = "q\"uote")]
            pub quote: bool,
            #[serde(rename = "q\"uoted_z")]
            pub quote_z: f64,
            #[serde(rename = "q\"uoted_a")]
            pub quote_a: Option<f64>,
        }

        mod serde_bytes_as_seq {
            pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(v)
            }
        }
    }

    fn outer(x: f64, y: f32, n: usize, s: String) -> typed::Outer {
        use typed::*;
        let mut extra = std::collections::BTreeMap::new();
        extra.insert("z".to_owned(), 7); // repeats the field `z`: the last value wins
        extra.insert("b".to_owned(), -1);
        Outer {
            zulu: vec![
                Kind::Unit,
                Kind::Newtype(x),
                Kind::Tuple(-3, y),
                Kind::Struct {
                    zeta: n as u64,
                    alpha: None,
                },
                Kind::Newtype(f64::NAN),
                Kind::Newtype(f64::INFINITY),
            ],
            mike: Some(Inner {
                z: x * 3.0,
                a: vec![y; n % 20],
                shape: if n.is_multiple_of(2) {
                    Tagged::Sphere { radius: x }
                } else {
                    Tagged::Box { size: [x, -x, 0.5] }
                },
                extra,
            }),
            alpha: s.clone(),
            bytes: s.bytes().take(n).collect(),
            letter: s.chars().next().unwrap_or('"'),
            by_index: (0..n as u32)
                .map(|k| (k * 7 % 5, f64::from(k) * x))
                .collect(),
            nothing: (),
            pair: (n.is_multiple_of(3), -(n as i128)),
            names: Names {
                a_field_name_longer_than_24_bytes: x / 7.0,
                position_z: -x,
                position_a: vec![y; n % 12],
                position_long_name_over_24_b: n as u8,
                position_long_name_over_24_a: -(n as i8),
                quote: n.is_multiple_of(2),
                quote_z: x * 1e-3,
                quote_a: n.is_multiple_of(3).then_some(x),
            },
        }
    }

    proptest::proptest! {
        /// A value recorded through serde gives the text of the same value recorded directly.
        #[test]
        fn serde_recording_of_a_value_is_its_direct_recording(v in any_json()) {
            proptest::prop_assert_eq!(to_string_of(&v).expect("a Value serialises"), to_string(&v));
        }

        /// A typed value gives the text of its `serde_json::to_value` (the oracle's bytes), and
        /// with rounding to 3 or 6 decimals the text of that value with its floats rounded in
        /// place.
        #[test]
        fn typed_values_give_the_text_of_their_value(
            x in -1e4f64..1e4, y in -1e3f32..1e3, n in 0usize..40, s in "[a-z\"\\\\\u{e9}\n]{0,30}",
        ) {
            let o = outer(x, y, n, s);
            let value = serde_json::to_value(&o).expect("serialisable");
            let text = to_string_of(&o).expect("serialisable");
            proptest::prop_assert_eq!(&text, &to_string(&value));
            proptest::prop_assert_eq!(&text, &oracle::to_string(&value));
            // 3 decimals go through `write_f64` of the rounded value, 6 through
            // `write_millionths`.
            for decimals in [3, 6] {
                let mut tape = Tape::new();
                tape.push(&o, Some(decimals)).expect("serialisable");
                let rounded = std_rounded(&value, decimals);
                proptest::prop_assert_eq!(tape.to_text(), oracle::to_string(&rounded), "{}", decimals);
            }
        }
    }

    /// `value` with every float rounded to `decimals` places by `f64::round` (a zero without
    /// its sign), apart from the code under test: the rounded text's oracle.
    fn std_rounded(value: &Value, decimals: i32) -> Value {
        match value {
            Value::Number(n) if n.is_f64() => {
                let factor = 10f64.powi(decimals);
                let r = n
                    .as_f64()
                    .map_or(f64::NAN, |x| (x * factor).round() / factor);
                serde_json::json!(if r == 0.0 { 0.0 } else { r })
            }
            Value::Array(a) => Value::Array(a.iter().map(|v| std_rounded(v, decimals)).collect()),
            Value::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), std_rounded(v, decimals)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// Zero of either sign, and what rounds to zero, is written `0.0` (the serializer writes a
    /// zero without rounding it), but where `10^decimals` is infinite or zero: there rounding
    /// gives NaN, written `null`, zero or not.
    #[test]
    fn rounded_zeros_are_unsigned() {
        for decimals in [309, 400, -400] {
            let mut tape = Tape::new();
            tape.push(&[0.0, 1.5], Some(decimals))
                .expect("serialisable");
            assert_eq!(tape.to_text(), "[null, null]\n", "{decimals}");
        }
        for (decimals, last) in [(0, "2.0"), (3, "2.25"), (6, "2.25")] {
            let mut tape = Tape::new();
            tape.push(&[0.0, -0.0, 1e-9, -1e-9, 2.25], Some(decimals))
                .expect("serialisable");
            assert_eq!(
                tape.to_text(),
                format!("[0.0, 0.0, 0.0, 0.0, {last}]\n"),
                "{decimals}"
            );
        }
    }

    #[test]
    fn a_failed_value_leaves_nothing_on_the_tape() {
        struct Fails;
        impl serde::Serialize for Fails {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                use serde::ser::{Error, SerializeStruct};
                let mut st = s.serialize_struct("Fails", 2)?;
                st.serialize_field("b", &1)?;
                Err(S::Error::custom("no"))
            }
        }
        let mut tape = Tape::new();
        let doc = tape.begin_object();
        tape.member("k");
        assert!(tape.push(&Fails, None).is_err());
        tape.push_value(&Value::Null);
        tape.member("a");
        assert!(tape.push(&[1.5, 2.0], None).is_ok());
        tape.end_object(doc);
        assert_eq!(tape.to_text(), "{\"a\": [1.5, 2.0], \"k\": null}\n");
        // Maps keyed by something that is not a string or a scalar have no text.
        let mut bad = std::collections::BTreeMap::new();
        bad.insert(vec![1], 2);
        assert!(to_string_of(&bad).is_err());
    }

    /// At every length up to 40 and every position, one byte that needs an escape makes a
    /// string not plain (whichever of the chunk, overlapping tail or 4-byte tests sees it),
    /// and the bytes next to the forbidden ones (0x20, 0x21, 0x23, 0x5b, 0x5d, 0x7f, UTF-8
    /// continuation bytes) do not.
    #[test]
    fn plain_sees_every_byte_at_every_length() {
        for len in 0..=40 {
            let filler = "a".repeat(len);
            assert!(plain(&filler), "{len}");
            for at in 0..len {
                for bad in ['\u{0}', '\u{1f}', '"', '\\'] {
                    let mut s = filler.clone();
                    s.replace_range(at..=at, bad.encode_utf8(&mut [0; 4]));
                    assert!(!plain(&s), "{s:?}");
                }
                for good in [' ', '!', '#', '[', ']', '\u{7f}'] {
                    let mut s = filler.clone();
                    s.replace_range(at..=at, good.encode_utf8(&mut [0; 4]));
                    assert!(plain(&s), "{s:?}");
                }
            }
            let accents = "\u{e9}".repeat(len);
            assert!(plain(&accents), "{accents:?}");
        }
    }

    proptest::proptest! {
        /// The eight-bytes-at-a-time test of plain strings is the byte-by-byte one.
        #[test]
        fn plain_is_the_bytewise_test(s in "[ -~\u{0}-\u{1f}\u{7f}-\u{10ffff}]{0,40}") {
            let bytewise = s.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\');
            proptest::prop_assert_eq!(plain(&s), bytewise);
        }
    }

    #[test]
    fn plain_strings_by_hand() {
        // Each forbidden byte at each position of a 9-byte string (one chunk and a tail).
        for bad in [0u8, 0x1f, b'"', b'\\'] {
            for at in 0..9 {
                let mut b = *b"abcdefghi";
                b[at] = bad;
                let s = std::str::from_utf8(&b).expect("ASCII");
                assert!(!plain(s), "{s:?}");
            }
        }
        // Neighbours of the forbidden bytes, and UTF-8 (bytes >= 0x80), are plain.
        assert!(plain(" !#[]^~\u{7f}\u{e9}\u{10ffff} !#[]"));
        assert!(plain(""));
    }

    /// Records its value twice (inside a one-member array, and as it is) in an object whose
    /// keys come out of order, then fails with that object and an array in it still open.
    struct FailsAfter<'a>(&'a Value);

    impl serde::Serialize for FailsAfter<'_> {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeStruct;
            let mut st = s.serialize_struct("FailsAfter", 3)?;
            st.serialize_field("z", &[self.0])?;
            st.serialize_field("a", self.0)?;
            st.serialize_field("m", &FailsInArray)?;
            st.end()
        }
    }

    /// An array whose second element fails.
    struct FailsInArray;

    impl serde::Serialize for FailsInArray {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::{Error, SerializeSeq};
            let mut seq = s.serialize_seq(None)?;
            seq.serialize_element(&1)?;
            Err(S::Error::custom("fails"))
        }
    }

    proptest::proptest! {
        /// Members recorded one by one into an open object, in any key order, some after a
        /// value that failed half-way (leaving containers open, long or short, in order or
        /// not): the text is the text of the object of the members, as if the failures had
        /// never been tried (the open object's state is restored, not only its bytes).
        #[test]
        fn failed_members_leave_the_open_object_as_it_was(
            members in proptest::collection::vec(("[a-z]{1,10}", any_json(), proptest::bool::ANY), 0..10),
        ) {
            let mut tape = Tape::new();
            let doc = tape.begin_object();
            let mut want = serde_json::Map::new();
            for (key, value, fails) in &members {
                tape.member(key);
                if *fails {
                    proptest::prop_assert!(tape.push(&FailsAfter(value), None).is_err());
                }
                tape.push_value(value);
                want.insert(key.clone(), value.clone());
            }
            tape.end_object(doc);
            proptest::prop_assert_eq!(tape.to_text(), oracle::to_string(&Value::Object(want)));
        }
    }

    #[test]
    fn rounding_is_exact_in_text() {
        assert_eq!(round(0.123456, 3).to_string(), "0.123");
        assert_eq!(round(-0.0001, 2).to_string(), "0");
    }
}
