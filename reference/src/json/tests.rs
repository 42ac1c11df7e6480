//! The compact tree against `serde_json::Value`: same parse (and parse errors), same answers
//! from every accessor the readers use, same typed reads (values and error messages).

use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;

use proptest::prelude::*;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::{Map, Value};

/// A JSON text tree whose objects may repeat keys (which no `Value` can hold).
#[derive(Clone, Debug)]
enum Text {
    Leaf(String),
    Array(Vec<Text>),
    Object(Vec<(String, Text)>),
}

impl Text {
    fn write(&self, out: &mut String) {
        match self {
            Text::Leaf(s) => out.push_str(s),
            Text::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Text::Object(entries) => {
                out.push('{');
                for (i, (k, v)) in entries.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&serde_json::to_string(k).expect("a key serialises"));
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

/// Number tokens readers tell apart: integers and floats, signs, zero, the u64 / i64 limits
/// and beyond, exponents.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "-0",
            "1",
            "1.0",
            "-1",
            "-1.0",
            "0.5",
            "1e3",
            "1E-3",
            "-0.0",
            "255",
            "256",
            "65536",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "1e400",
            "123456789012345678901234567890",
            "0.1",
            "2.5e-308",
        ])
        .prop_map(str::to_owned),
        any::<i64>().prop_map(|i| i.to_string()),
        any::<u64>().prop_map(|u| u.to_string()),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
    ]
}

/// Keys that readers look up, that collide, that need escaping, plus serde_json's raw-value
/// token and number- and bool-like keys.
fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "a",
            "b",
            "ab",
            "B",
            "",
            "extensions",
            "type",
            "shape",
            "size",
            "1",
            "-2",
            "01",
            "1 ",
            "true",
            "a/b~c",
            "é",
            "$serde_json::private::RawValue",
        ])
        .prop_map(str::to_owned),
        "[a-c]{1,3}",
        any::<String>(),
    ]
}

fn text() -> impl Strategy<Value = Text> {
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number(),
        any::<String>().prop_map(|s| serde_json::to_string(&s).expect("a string serialises")),
        prop::sample::select(vec![
            r#""force""#,
            r#""box""#,
            r#""\u00e9\n""#,
            r#""{\"x\":1}""#,
            r#""[1,2]""#
        ])
        .prop_map(str::to_owned),
    ]
    .prop_map(Text::Leaf);
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Text::Array),
            prop::collection::vec((key(), inner), 0..6).prop_map(Text::Object),
        ]
    })
}

/// A JSON text, sometimes cut short or with a stray byte (to compare syntax errors too).
fn document() -> impl Strategy<Value = Vec<u8>> {
    (text(), 0u8..8, any::<prop::sample::Index>()).prop_map(|(t, damage, at)| {
        let mut s = String::new();
        t.write(&mut s);
        let mut bytes = s.into_bytes();
        match damage {
            0 => bytes.truncate(at.index(bytes.len() + 1)),
            1 => bytes.insert(at.index(bytes.len() + 1), b'x'),
            _ => {}
        }
        bytes
    })
}

/// Both parses, as comparable results (a parse error as its message).
fn parse_both(bytes: &[u8]) -> (Result<Value, String>, Result<serde_json::Value, String>) {
    (
        Value::from_slice(bytes).map_err(|e| e.to_string()),
        serde_json::from_slice(bytes).map_err(|e| e.to_string()),
    )
}

/// Every accessor readers use gives the same answer on `ours` as on `theirs`, recursively.
fn same_answers(ours: &Value, theirs: &serde_json::Value) -> Result<(), TestCaseError> {
    prop_assert_eq!(ours.is_null(), theirs.is_null());
    prop_assert_eq!(ours.is_boolean(), theirs.is_boolean());
    prop_assert_eq!(ours.is_number(), theirs.is_number());
    prop_assert_eq!(ours.is_string(), theirs.is_string());
    prop_assert_eq!(ours.is_array(), theirs.is_array());
    prop_assert_eq!(ours.is_object(), theirs.is_object());
    prop_assert_eq!(ours.is_u64(), theirs.is_u64());
    prop_assert_eq!(ours.is_i64(), theirs.is_i64());
    prop_assert_eq!(ours.is_f64(), theirs.is_f64());
    prop_assert_eq!(ours.as_bool(), theirs.as_bool());
    prop_assert_eq!(ours.as_u64(), theirs.as_u64());
    prop_assert_eq!(ours.as_i64(), theirs.as_i64());
    prop_assert_eq!(
        ours.as_f64().map(f64::to_bits),
        theirs.as_f64().map(f64::to_bits)
    );
    prop_assert_eq!(ours.as_str(), theirs.as_str());
    prop_assert_eq!(ours.as_number(), theirs.as_number());
    prop_assert_eq!(ours.to_string(), theirs.to_string());
    prop_assert_eq!(&ours.to_serde(), theirs);
    prop_assert_eq!(&Value::from(theirs.clone()), ours);
    prop_assert_eq!(&Value::from(theirs), ours);
    for k in ["a", "b", "extensions", "", "1", "zz"] {
        prop_assert_eq!(ours.get(k).map(Value::to_serde), theirs.get(k).cloned());
        prop_assert_eq!(ours[k].to_serde(), theirs[k].clone());
    }
    for i in [0usize, 1, 5] {
        prop_assert_eq!(ours.get(i).map(Value::to_serde), theirs.get(i).cloned());
        prop_assert_eq!(ours[i].to_serde(), theirs[i].clone());
    }
    prop_assert_eq!(
        ours.as_array().map(<[Value]>::len),
        theirs.as_array().map(Vec::len)
    );
    match (ours.as_object(), theirs.as_object()) {
        (Some(o), Some(t)) => {
            prop_assert_eq!(o.len(), t.len());
            prop_assert_eq!(o.is_empty(), t.is_empty());
            prop_assert!(o.keys().eq(t.keys().map(String::as_str)), "keys in order");
            for ((ok, ov), (tk, tv)) in o.iter().zip(t) {
                prop_assert_eq!(ok, tk.as_str());
                prop_assert!(o.contains_key(tk));
                prop_assert_eq!(o.get(tk).map(Value::to_serde), Some(tv.clone()));
                same_answers(ov, tv)?;
            }
            for k in ["a", "zz", "$serde_json::private::RawValue"] {
                prop_assert_eq!(o.contains_key(k), t.contains_key(k));
            }
        }
        (None, None) => {}
        _ => prop_assert!(false, "object on one side only"),
    }
    if let (Some(o), Some(t)) = (ours.as_array(), theirs.as_array()) {
        for (ov, tv) in o.iter().zip(t) {
            same_answers(ov, tv)?;
        }
    }
    Ok(())
}

/// Every JSON pointer to a value of `theirs`, plus a few that must miss.
fn pointers(theirs: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match theirs {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                pointers(v, crate::issue::push_pointer(&at, k), out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, v) in a.iter().enumerate() {
                pointers(v, format!("{at}/{i}"), out);
            }
            out.push(format!("{at}/01"));
            out.push(format!("{at}/+0"));
        }
        _ => {}
    }
    out.push(format!("{at}/x"));
    out.push(at);
}

/// `T` read from our tree and from serde_json's: same value or same error message, with and
/// without serde_path_to_error (same path too).
fn same_read<T: DeserializeOwned + Debug>(
    ours: &Value,
    theirs: &serde_json::Value,
) -> Result<(), TestCaseError> {
    let shown = |r: Result<T, serde_json::Error>| match r {
        Ok(v) => Ok(format!("{v:?}")),
        Err(e) => Err(e.to_string()),
    };
    prop_assert_eq!(shown(T::deserialize(ours)), shown(T::deserialize(theirs)));
    let tracked = |r: Result<T, serde_path_to_error::Error<serde_json::Error>>| match r {
        Ok(v) => Ok(format!("{v:?}")),
        Err(e) => Err((e.path().to_string(), e.into_inner().to_string())),
    };
    prop_assert_eq!(
        tracked(serde_path_to_error::deserialize(ours)),
        tracked(serde_path_to_error::deserialize(theirs))
    );
    Ok(())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
struct Fields {
    a: Option<u32>,
    b: Option<Vec<f64>>,
    #[serde(rename = "type")]
    kind: Option<Kind>,
    size: Option<[f32; 3]>,
    shape: Option<i8>,
    #[serde(default)]
    extensions: BTreeMap<String, serde_json::Value>,
    #[serde(flatten)]
    others: BTreeMap<String, serde_json::Value>,
}

#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)]
enum Kind {
    Force,
    Box,
    A(u8),
    B { x: Option<bool> },
    Ab(i64, u32),
}

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Newtype(Option<String>);

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Unit;

#[derive(Debug, Deserialize)]
#[allow(dead_code)]
struct Raw {
    a: Option<Box<serde_json::value::RawValue>>,
}

/// Every typed read readers and their dependencies make, and the odd ones serde allows.
fn same_reads(ours: &Value, theirs: &serde_json::Value) -> Result<(), TestCaseError> {
    same_read::<serde_json::Value>(ours, theirs)?;
    same_read::<Value>(ours, theirs)?;
    same_read::<Fields>(ours, theirs)?;
    same_read::<Vec<Fields>>(ours, theirs)?;
    same_read::<Kind>(ours, theirs)?;
    same_read::<Option<Kind>>(ours, theirs)?;
    same_read::<Newtype>(ours, theirs)?;
    same_read::<Unit>(ours, theirs)?;
    same_read::<()>(ours, theirs)?;
    same_read::<Raw>(ours, theirs)?;
    same_read::<Box<serde_json::value::RawValue>>(ours, theirs)?;
    same_read::<bool>(ours, theirs)?;
    same_read::<u8>(ours, theirs)?;
    same_read::<usize>(ours, theirs)?;
    same_read::<i64>(ours, theirs)?;
    same_read::<u128>(ours, theirs)?;
    same_read::<f32>(ours, theirs)?;
    same_read::<f64>(ours, theirs)?;
    same_read::<char>(ours, theirs)?;
    same_read::<String>(ours, theirs)?;
    same_read::<Vec<u8>>(ours, theirs)?;
    same_read::<(u8, String)>(ours, theirs)?;
    same_read::<[Option<f64>; 2]>(ours, theirs)?;
    same_read::<BTreeMap<u32, serde_json::Value>>(ours, theirs)?;
    same_read::<BTreeMap<i8, u8>>(ours, theirs)?;
    same_read::<HashMap<u64, ()>>(ours, theirs)?;
    same_read::<HashMap<bool, Option<u8>>>(ours, theirs)?;
    same_read::<BTreeMap<Kind, serde_json::Value>>(ours, theirs)?;
    same_read::<BTreeMap<Option<String>, Value>>(ours, theirs)?;
    same_read::<BTreeMap<char, serde::de::IgnoredAny>>(ours, theirs)?;
    same_read::<gltf_json::Root>(ours, theirs)?;
    same_read::<gltf_json::Node>(ours, theirs)?;
    same_read::<gltf_json::mesh::Primitive>(ours, theirs)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Parsing gives the same value (or the same syntax error) as serde_json, and every
    /// accessor, pointer and typed read then agrees, at every level of the tree.
    #[test]
    fn agrees_with_serde_json(bytes in document()) {
        match parse_both(&bytes) {
            (Ok(ours), Ok(theirs)) => {
                same_answers(&ours, &theirs)?;
                let mut all = Vec::new();
                pointers(&theirs, String::new(), &mut all);
                for p in all.iter().map(String::as_str).chain(["x", "/", "//"]) {
                    prop_assert_eq!(ours.pointer(p).map(Value::to_serde), theirs.pointer(p).cloned(), "{}", p);
                }
                same_reads(&ours, &theirs)?;
                if let (Some(o), Some(t)) = (ours.as_object(), theirs.as_object()) {
                    for ((_, ov), (_, tv)) in o.iter().zip(t) {
                        same_reads(ov, tv)?;
                    }
                }
                if let (Some(o), Some(t)) = (ours.as_array(), theirs.as_array()) {
                    for (ov, tv) in o.iter().zip(t) {
                        same_reads(ov, tv)?;
                    }
                }
            }
            (ours, theirs) => prop_assert_eq!(ours.map(|_| ()), theirs.map(|_| ())),
        }
    }

    /// Documents shaped like glTF (what the readers actually see) read into the same typed
    /// root, or fail at the same place with the same message.
    #[test]
    fn gltf_roots_agree(nodes in prop::collection::vec(text(), 0..4), mesh in text()) {
        let mut s = String::from(r#"{"asset":{"version":"2.0"},"nodes":["#);
        for (i, n) in nodes.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            n.write(&mut s);
        }
        s.push_str(r#"],"meshes":[{"primitives":[{"attributes":"#);
        mesh.write(&mut s);
        s.push_str("}]}]}");
        let (ours, theirs) = parse_both(s.as_bytes());
        // Both parse or neither does (a leaf may be a number out of range).
        prop_assert_eq!(ours.is_ok(), theirs.is_ok(), "{}", s);
        if let (Ok(ours), Ok(theirs)) = (ours, theirs) {
            same_read::<gltf_json::Root>(&ours, &theirs)?;
        }
    }
}

/// Duplicate keys: the last value wins, in place of the first (serde_json's `BTreeMap::insert`).
#[test]
fn duplicate_keys_keep_the_last_value() {
    let v = Value::from_slice(br#"{"b":1,"a":2,"b":3,"a":{"x":4},"c":5}"#).expect("json");
    assert_eq!(v["b"].as_u64(), Some(3));
    assert_eq!(v["a"]["x"].as_u64(), Some(4));
    let keys: Vec<&str> = v.as_object().expect("object").keys().collect();
    assert_eq!(keys, ["a", "b", "c"]);
    assert_eq!(v.to_string(), r#"{"a":{"x":4},"b":3,"c":5}"#);
}

/// Big integers: u64::MAX is still an unsigned integer, one more is a float (as serde_json).
#[test]
fn big_integers() {
    let v =
        Value::from_slice(b"[18446744073709551615, 18446744073709551616, -9223372036854775808]")
            .expect("json");
    assert_eq!(v[0].as_u64(), Some(u64::MAX));
    assert_eq!(v[1].as_u64(), None);
    assert_eq!(v[1].as_f64(), Some(18_446_744_073_709_551_616.0));
    assert_eq!(v[2].as_i64(), Some(i64::MIN));
    assert_eq!(v[2].as_u64(), None);
}

/// `-0` and `-0.0` are floats, not indices; `1.0` is not the index 1; `1` is.
#[test]
fn zero_and_integral_floats() {
    let v = Value::from_slice(b"[-0, -0.0, 1.0, 1]").expect("json");
    for i in 0..3 {
        assert_eq!(v[i].as_u64(), None, "{i}");
    }
    assert_eq!(v[0].as_f64().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!(v[3].as_u64(), Some(1));
    assert_eq!(v.to_string(), "[-0.0,-0.0,1.0,1]");
    let err = usize::deserialize(&v[2]).expect_err("1.0 is not an index");
    assert_eq!(
        err.to_string(),
        "invalid type: floating point `1.0`, expected usize"
    );
}

/// An object of more than 8 keys is searched by bisection: every key is found, others not.
#[test]
fn large_objects_find_every_key() {
    let map: Map = (0..40)
        .rev()
        .map(|i| (format!("k{i:02}"), Value::from(i as u64)))
        .collect();
    for i in 0..40u64 {
        assert_eq!(
            map.get(&format!("k{i:02}")).and_then(Value::as_u64),
            Some(i)
        );
    }
    assert_eq!(map.get("k40"), None);
    // Mutable lookups find the same entries, by scan (small maps) and by bisection.
    let mut small: Map = [("b", Value::from(1u64)), ("a", Value::from(2u64))]
        .into_iter()
        .collect();
    *small.get_mut("b").expect("b") = Value::Null;
    assert_eq!(small.get("b"), Some(&Value::Null));
    assert!(small.get_mut("c").is_none());
    let mut large = map.clone();
    for i in 0..40u64 {
        *large.get_mut(&format!("k{i:02}")).expect("present") = Value::from(i + 100);
    }
    assert!(
        large
            .values()
            .zip(0..)
            .all(|(v, i)| v.as_u64() == Some(i + 100))
    );
    assert!(large.get_mut("k40").is_none());
    assert_eq!(map.get(""), None);
    assert_eq!(map.keys().next(), Some("k00"));
}

/// The conversion from serde_json keeps every value (what a hand-written or mutated case's tree
/// relies on).
#[test]
fn from_serde_json_keeps_the_value() {
    let theirs = serde_json::json!({"z": [1, -2, 0.5, "s", null, true], "a": {"b": {}}});
    let ours = Value::from(&theirs);
    assert_eq!(ours.to_serde(), theirs);
    assert_eq!(ours.to_string(), theirs.to_string());
    assert_eq!(Value::from(theirs.clone()), ours);
}

/// The tree built through serde_json's tokenizer and serde's visitor (the path `from_slice`
/// falls back to).
fn through_serde(bytes: &[u8]) -> Result<Value, String> {
    serde_json::from_slice::<Value>(bytes).map_err(|e| e.to_string())
}

/// The direct parser's value is serde_json's, number kinds and float bits included (`-0.0`
/// equals `0.0` under `==`, not in text).
fn same_as_serde(bytes: &[u8], direct: &Value) -> Result<(), TestCaseError> {
    let serde = through_serde(bytes);
    prop_assert_eq!(serde.as_ref(), Ok(direct));
    if let Ok(serde) = serde {
        prop_assert_eq!(serde.to_string(), direct.to_string());
    }
    // And serde_json's own tree: the two paths above share the map building (key order,
    // repeated keys, interning), which this comparison does not.
    let theirs = serde_json::from_slice::<serde_json::Value>(bytes).map_err(|e| e.to_string());
    prop_assert_eq!(Ok(direct.to_serde()), theirs);
    Ok(())
}

/// A JSON text tree whose leaves are all things the direct parser reads itself: no integer of
/// 20 digits or more, no float out of range, no raw-value token as a first key, strings as
/// serde_json writes them (control characters escaped, no surrogate escapes).
fn plain_text() -> impl Strategy<Value = Text> {
    let number = prop_oneof![
        prop::sample::select(vec![
            "0",
            "-0",
            "-0.0",
            "1.0",
            "1E+2",
            "1e-400",
            "-1e-400",
            "5e-324",
            "1.7976931348623157e308",
            "2.2250738585072011e-308",
            "9999999999999999999",
            "-9999999999999999999",
            "-9223372036854775808",
            "-9223372036854775809",
            "0.30000000000000004",
            "123456789012345678901234567890.5",
            // Long and halfway decimals: the full parse, not the exact path, decides these.
            "9007199254740993",
            "9007199254740993.0",
            "0.1000000000000000055511151231257827021181583404541015625",
            "2.2250738585072011e-308",
            "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
            "1.00000000000000011102230246251565404236316680908203125",
            "1.000000000000000111022302462515654042363166809082031250000000001",
            "1.0000000000000001110223024625156540423631668090820312499999999",
        ])
        .prop_map(str::to_owned),
        any::<i64>().prop_map(|i| i.to_string()),
        (0..10_000_000_000_000_000_000u64).prop_map(|u| u.to_string()),
        // 17 to 45 significant digits, with halfway-like tails.
        ("[1-9][0-9]{16,40}", prop::sample::select(vec!["", "5", "50000001", "49999999"]), -30i32..30)
            .prop_map(|(digits, tail, e)| format!("{}.{}{tail}e{e}", &digits[..1], &digits[1..])),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:e}")),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| format!("{f:?}")),
    ];
    let leaf = prop_oneof![
        Just("null".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        number,
        any::<String>().prop_map(|s| serde_json::to_string(&s).expect("a string serialises")),
        Just(r#""\u00e9\/\b\f\n\r\t\"\\ \uFFFF \u0000""#.to_owned()),
    ]
    .prop_map(Text::Leaf);
    leaf.prop_recursive(5, 64, 6, |inner| {
        let key = key().prop_filter("not the raw-value token", |k| {
            k != "$serde_json::private::RawValue"
        });
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Text::Array),
            prop::collection::vec((key, inner), 0..6).prop_map(Text::Object),
        ]
    })
}

/// `text` with JSON whitespace of `pad` (cycled) put after every structural character.
fn spaced(text: &str, pad: &[&str]) -> String {
    let mut out = String::new();
    let mut in_string = false;
    let mut escaped = false;
    let mut n = 0;
    for c in text.chars() {
        out.push(c);
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        } else if matches!(c, '[' | ']' | '{' | '}' | ',' | ':') && !pad.is_empty() {
            out.push_str(pad[n % pad.len()]);
            n += 1;
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Whatever the direct parser returns (on text, damaged text and raw bytes) is exactly
    /// what serde_json makes of it; where it gives up (most raw bytes), `from_slice` is
    /// serde_json's answer: the same value, or an error with the same message.
    #[test]
    fn direct_parser_returns_only_what_serde_json_reads(
        bytes in prop_oneof![document(), prop::collection::vec(any::<u8>(), 0..64)],
    ) {
        match super::parse::value(&bytes) {
            Some(direct) => same_as_serde(&bytes, &direct)?,
            None => {
                // Against serde_json's own tree: the fallback is serde_json's tokenizer
                // building our `Value` (the same call as `through_serde`), so only this tree,
                // built apart, can tell it wrong.
                let ours = Value::from_slice(&bytes).map_err(|e| e.to_string());
                let theirs = serde_json::from_slice::<serde_json::Value>(&bytes).map_err(|e| e.to_string());
                prop_assert_eq!(ours.map(|v| v.to_serde()), theirs);
            }
        }
    }

    /// On the JSON documents are made of (any whitespace included) the direct parser does not
    /// give up, and reads the same value as serde_json.
    #[test]
    fn direct_parser_reads_plain_json(
        text in plain_text(),
        pad in prop::collection::vec(prop::sample::select(vec!["", " ", "\n  ", "\t", "\r\n"]), 0..4),
    ) {
        let mut s = String::new();
        text.write(&mut s);
        let s = format!(" {}\n", spaced(&s, &pad));
        let direct = super::parse::value(s.as_bytes());
        prop_assert!(direct.is_some(), "gave up on {}", s);
        if let Some(direct) = direct {
            same_as_serde(s.as_bytes(), &direct)?;
        }
    }
}

/// What the direct parser leaves to serde_json, each for its reason; `from_slice` gives
/// serde_json's value or error for all of them.
#[test]
fn direct_parser_gives_up_where_serde_json_decides() {
    let deep = format!("{}{}", "[".repeat(101), "]".repeat(101));
    let cases: [&[u8]; 21] = [
        b"",
        b"  ",
        br#""\ud83d\ude00""#,
        br#""\ud800""#,
        b"1e400",
        b"-1e400",
        b"18446744073709551615",
        b"12345678901234567890",
        b"[1,]",
        b"{\"a\":1,}",
        br#"{"$serde_json::private::RawValue":"[1]"}"#,
        deep.as_bytes(),
        b"\"a\x01b\"",
        b"01",
        b"-",
        b"1.",
        b".5",
        b"tru",
        b"[1] x",
        b"\"\\x\"",
        b"\"\xff\"",
    ];
    for bytes in cases {
        let shown = String::from_utf8_lossy(bytes);
        assert_eq!(super::parse::value(bytes), None, "{shown}");
        // serde_json decides: its own value or error message.
        assert_eq!(
            Value::from_slice(bytes).map_err(|e| e.to_string()),
            serde_json::from_slice::<serde_json::Value>(bytes)
                .map(|v| Value::from(&v))
                .map_err(|e| e.to_string()),
            "{shown}"
        );
    }
    // serde_json reads some of them: a surrogate pair, big integers as floats, the raw value.
    assert_eq!(
        Value::from_slice(br#""\ud83d\ude00""#).ok(),
        Some(Value::from("\u{1f600}"))
    );
    assert_eq!(
        Value::from_slice(b"18446744073709551615")
            .ok()
            .and_then(|v| v.as_u64()),
        Some(u64::MAX)
    );
    assert_eq!(
        Value::from_slice(br#"{"$serde_json::private::RawValue":"[1]"}"#).ok(),
        Value::from_slice(b"[1]").ok()
    );
}

/// Hand-worked numbers: serde_json's kinds (an integer is a `u64`, a negative one an `i64`,
/// `-0` and integers below `i64::MIN` are floats) and correctly rounded floats.
#[test]
fn direct_parser_numbers() {
    let v = super::parse::value(
        b"[0, -0, 9999999999999999999, -9223372036854775808, -9223372036854775809, 1E+2, 0.1, 1e-400]",
    )
    .expect("plain JSON");
    assert_eq!(v[0].as_u64(), Some(0));
    assert_eq!(v[1].as_f64().map(f64::to_bits), Some((-0.0f64).to_bits()));
    assert_eq!(v[2].as_u64(), Some(9_999_999_999_999_999_999));
    assert_eq!(v[3].as_i64(), Some(i64::MIN));
    // 9223372036854775809 = 2^63 + 1 rounds to 2^63 as a float.
    assert_eq!(v[4].as_i64(), None);
    assert_eq!(v[4].as_f64(), Some(-9_223_372_036_854_775_808.0));
    assert_eq!(v[5].as_f64(), Some(100.0));
    assert_eq!(v[5].as_u64(), None);
    assert_eq!(v[6].as_f64(), Some(0.1));
    assert_eq!(v[7].as_f64(), Some(0.0));
    assert_eq!(
        v.to_string(),
        "[0,-0.0,9999999999999999999,-9223372036854775808,-9.223372036854776e+18,100.0,0.1,0.0]"
    );
}

/// Escapes and raw UTF-8 in strings and keys; a repeated key keeps its last value.
#[test]
fn direct_parser_strings() {
    let v = super::parse::value(
        "{\"k\\u00e9y\" : \"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u0041é\", \"a\": 1, \"a\": 2}"
            .as_bytes(),
    )
    .expect("plain JSON");
    assert_eq!(v["kéy"].as_str(), Some("a\"b\\c/d\u{8}\u{c}\n\r\tAé"));
    assert_eq!(v["a"].as_u64(), Some(2));
    assert_eq!(v.as_object().map(Map::len), Some(2));
}
