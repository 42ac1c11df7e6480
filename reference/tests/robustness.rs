//! Bad input never panics, never hangs, and always yields issues with codes and pointers.
//!
//! - arbitrary bytes (bare, and behind a GLB header) into `read_bytes`;
//! - valid scenes mutated at random (a subtree replaced by a random JSON value, keys deleted,
//!   nodes duplicated, cycles added, indices bent), as `.gltf` and as `.glb`;
//! - huge arrays and deep nesting finish quickly with the right code;
//! - `FILE_TOO_LARGE` on a sparse file over the limit;
//! - the committed GLB validation cases are exactly what [`glb_cases`] builds
//!   (`PHYSICS_CTS_BLESS=1 cargo test -p physics-cts-reference --test robustness` rewrites them).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use reference::document::glb;
use reference::issue::Code;
use serde_json::{Value, json};

/// Valid scenes to mutate: core only, a KHR mesh shape with its data, a hierarchy, a profile mix.
const BASES: &[&str] = &[
    include_str!("validation/core/plain.gltf"),
    include_str!("validation/core/mesh-not-triangles.gltf"),
    include_str!("validation/core/node-matrix-valid.gltf"),
    include_str!("validation/core/profile-mixed.gltf"),
    include_str!("validation/core/accessor-bounds.gltf"),
];

/// Every invariant a reading must keep, whatever the input.
fn check_reading(bytes: &[u8]) -> Result<(), TestCaseError> {
    let reading = reference::read_bytes(bytes, None, None);
    for issue in &reading.issues {
        prop_assert!(
            issue.pointer.is_empty() || issue.pointer.starts_with('/'),
            "{} has pointer {:?}",
            issue.code,
            issue.pointer
        );
        prop_assert_eq!(issue.severity, issue.code.severity());
        prop_assert!(!issue.message.is_empty());
    }
    prop_assert!(
        reading.scene.is_some() || reading.profile.is_none(),
        "a profile without a scene"
    );
    Ok(())
}

/// A reading's issues as (code, pointer).
fn code_pointers(reading: &reference::Reading) -> Vec<(Code, &str)> {
    reading
        .issues
        .iter()
        .map(|i| (i.code, i.pointer.as_str()))
        .collect()
}

fn glb_header(len: u32) -> Vec<u8> {
    let mut h = b"glTF".to_vec();
    h.extend_from_slice(&2u32.to_le_bytes());
    h.extend_from_slice(&len.to_le_bytes());
    h
}

/// Random JSON: numbers at the edges of every range, short strings, nested arrays and objects.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        prop_oneof![
            Just(json!(-1)),
            Just(json!(0)),
            Just(json!(1)),
            Just(json!(2)),
            Just(json!(4)),
            Just(json!(4_294_967_296u64)),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!(1e300)),
            Just(json!(-0.0)),
            Just(json!(0.5)),
        ],
        any::<i64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z0-9_:/.%~ ]{0,12}".prop_map(Value::from),
        Just(json!("data:application/octet-stream;base64,AAAA")),
        Just(json!("../x.bin")),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("nodes".to_owned()),
                    Just("children".to_owned()),
                    Just("extensions".to_owned()),
                    Just("mesh".to_owned()),
                    Just("matrix".to_owned()),
                    "[a-zA-Z]{1,8}",
                ],
                inner,
                0..4
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// One edit of a document. `path` picks a subtree: at each level, child `k % len`.
#[derive(Clone, Debug)]
enum JsonEdit {
    Replace { path: Vec<usize>, value: Value },
    DeleteKey { path: Vec<usize> },
    DuplicateNode { node: usize },
    AddCycle { a: usize, b: usize },
    SetIndex { path: Vec<usize>, index: u64 },
}

fn any_mutation() -> impl Strategy<Value = JsonEdit> {
    let path = prop::collection::vec(any::<usize>(), 0..6);
    prop_oneof![
        (path.clone(), any_json()).prop_map(|(path, value)| JsonEdit::Replace { path, value }),
        path.clone().prop_map(|path| JsonEdit::DeleteKey { path }),
        any::<usize>().prop_map(|node| JsonEdit::DuplicateNode { node }),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| JsonEdit::AddCycle { a, b }),
        (path, 0u64..8).prop_map(|(path, index)| JsonEdit::SetIndex { path, index }),
    ]
}

/// The subtree `path` leads to (stopping at a leaf), and its parent with the key/index used.
fn descend<'a>(value: &'a mut Value, path: &[usize]) -> &'a mut Value {
    let Some((&k, rest)) = path.split_first() else {
        return value;
    };
    let has_children = match value {
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => !o.is_empty(),
        _ => false,
    };
    if !has_children {
        return value;
    }
    match value {
        Value::Array(a) => {
            let len = a.len();
            descend(&mut a[k % len], rest)
        }
        Value::Object(o) => {
            let len = o.len();
            let key = o.keys().nth(k % len).cloned().unwrap_or_default();
            descend(o.get_mut(&key).expect("key exists"), rest)
        }
        _ => value,
    }
}

fn apply(doc: &mut Value, mutation: &JsonEdit) {
    match mutation {
        JsonEdit::Replace { path, value } => *descend(doc, path) = value.clone(),
        JsonEdit::DeleteKey { path } => {
            let (last, parent) = path.split_last().map_or((0, &[][..]), |(l, p)| (*l, p));
            match descend(doc, parent) {
                Value::Object(o) if !o.is_empty() => {
                    let key = o.keys().nth(last % o.len()).cloned().unwrap_or_default();
                    o.remove(&key);
                }
                Value::Array(a) if !a.is_empty() => {
                    let len = a.len();
                    a.remove(last % len);
                }
                _ => {}
            }
        }
        JsonEdit::DuplicateNode { node } => {
            if let Some(nodes) = doc.get_mut("nodes").and_then(Value::as_array_mut)
                && !nodes.is_empty()
            {
                let copy = nodes[node % nodes.len()].clone();
                nodes.push(copy);
            }
        }
        JsonEdit::AddCycle { a, b } => {
            if let Some(nodes) = doc.get_mut("nodes").and_then(Value::as_array_mut)
                && !nodes.is_empty()
            {
                let (a, b) = (a % nodes.len(), b % nodes.len());
                for (from, to) in [(a, b), (b, a)] {
                    if let Some(node) = nodes[from].as_object_mut() {
                        let children = node.entry("children").or_insert_with(|| json!([]));
                        if let Some(c) = children.as_array_mut() {
                            c.push(json!(to));
                        }
                    }
                }
            }
        }
        JsonEdit::SetIndex { path, index } => *descend(doc, path) = json!(index),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check_reading(&bytes)?;
    }

    #[test]
    fn arbitrary_bytes_behind_a_glb_header_never_panic(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        exact_length in any::<bool>(),
        claimed in any::<u32>(),
    ) {
        let len = if exact_length { (12 + bytes.len()) as u32 } else { claimed };
        let mut glb = glb_header(len);
        glb.extend_from_slice(&bytes);
        check_reading(&glb)?;
    }

    #[test]
    fn json_chunk_of_arbitrary_bytes_never_panics(
        json in prop::collection::vec(any::<u8>(), 0..200),
        bin in prop::option::of(prop::collection::vec(any::<u8>(), 0..64)),
    ) {
        check_reading(&glb::build(&json, bin.as_deref()))?;
    }

    #[test]
    fn mutated_scenes_never_panic(
        base in 0..BASES.len(),
        mutations in prop::collection::vec(any_mutation(), 1..5),
        as_glb in any::<bool>(),
    ) {
        let mut doc: Value = serde_json::from_str(BASES[base]).expect("base parses");
        for m in &mutations {
            apply(&mut doc, m);
        }
        let text = serde_json::to_vec(&doc).expect("serialises");
        let bytes = if as_glb { glb::build(&text, Some(&[0; 64])) } else { text };
        check_reading(&bytes)?;
    }
}

/// The mutations do what they say, so the property above is not vacuous.
#[test]
fn mutations_reach_the_checks() {
    let codes = |doc: &Value| -> Vec<Code> {
        reference::read_bytes(&serde_json::to_vec(doc).expect("json"), None, None)
            .issues
            .iter()
            .map(|i| i.code)
            .collect()
    };
    let base: Value = serde_json::from_str(BASES[2]).expect("base");
    let edited = |edit: JsonEdit| {
        let mut doc = base.clone();
        apply(&mut doc, &edit);
        doc
    };
    let cycle = edited(JsonEdit::AddCycle { a: 0, b: 1 });
    assert!(codes(&cycle).contains(&Code::NodeCycle), "{cycle}");
    let dup = edited(JsonEdit::DuplicateNode { node: 0 });
    assert_eq!(dup["nodes"].as_array().map(Vec::len), Some(3));
    let replaced = edited(JsonEdit::Replace {
        path: vec![],
        value: json!(7),
    });
    assert_eq!(codes(&replaced), [Code::GltfSchema]);
    // Keys in sorted order: asset, nodes, scene, scenes; delete "asset".
    let deleted = edited(JsonEdit::DeleteKey { path: vec![0] });
    assert_eq!(codes(&deleted), [Code::GltfSchema]);
    // nodes -> node 1 -> its first key ("matrix") becomes the index 3.
    let index = edited(JsonEdit::SetIndex {
        path: vec![1, 1, 0],
        index: 3,
    });
    assert_eq!(index["nodes"][1]["matrix"], json!(3), "{index}");
}

fn codes_and_time(bytes: &[u8]) -> (Vec<(Code, String)>, Duration) {
    let start = Instant::now();
    let reading = reference::read_bytes(bytes, None, None);
    let elapsed = start.elapsed();
    let issues = reading
        .issues
        .into_iter()
        .map(|i| (i.code, i.pointer))
        .collect();
    (issues, elapsed)
}

/// Generous for a loaded debug build; a quadratic walk over half a million elements takes
/// hours.
const QUICK: Duration = Duration::from_secs(60);

/// As many nodes as the value budget allows (an empty node counts two values: its brackets
/// and the comma before the next; `document::budget`).
#[test]
fn half_a_million_nodes_finish_quickly() {
    let nodes = vec!["{}"; 500_000].join(",");
    let text = format!(r#"{{"asset":{{"version":"2.0"}},"nodes":[{nodes}]}}"#);
    let (issues, elapsed) = codes_and_time(text.as_bytes());
    assert_eq!(issues, [(Code::ProfileNone, String::new())]);
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[test]
fn a_million_numbers_where_nodes_belong_is_a_schema_error() {
    let nodes = vec!["0"; 1_000_000].join(",");
    let text = format!(r#"{{"asset":{{"version":"2.0"}},"nodes":[{nodes}]}}"#);
    let (issues, elapsed) = codes_and_time(text.as_bytes());
    assert_eq!(issues, [(Code::GltfSchema, "/nodes/0".to_owned())]);
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[test]
fn a_chain_of_200k_nodes_with_a_cycle_finishes_quickly() {
    // Node i's child is i + 1; the last node's child is node 0, closing the cycle.
    let n = 200_000;
    let nodes: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"children":[{}]}}"#, (i + 1) % n))
        .collect();
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"nodes":[{}]}}"#,
        nodes.join(",")
    );
    let (issues, elapsed) = codes_and_time(text.as_bytes());
    assert_eq!(
        issues,
        [
            (Code::NodeCycle, format!("/nodes/{}/children/0", n - 1)),
            (Code::ProfileNone, String::new())
        ]
    );
    assert!(elapsed < QUICK, "{elapsed:?}");
}

#[test]
fn ten_thousand_deep_nesting_is_a_syntax_error() {
    let depth = 10_000;
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"extras":{}{}}}"#,
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let (issues, elapsed) = codes_and_time(text.as_bytes());
    assert_eq!(issues, [(Code::JsonSyntax, String::new())]);
    assert!(elapsed < QUICK, "{elapsed:?}");
    // The same inside an extension object and behind a GLB header.
    let text = format!(
        r#"{{"asset":{{"version":"2.0"}},"extensions":{{"KHR_collision_shapes":{}}}}}"#,
        r#"{"a":"#.repeat(depth) + "0" + &"}".repeat(depth)
    );
    let (issues, _) = codes_and_time(&glb::build(text.as_bytes(), None));
    assert_eq!(issues, [(Code::JsonSyntax, String::new())]);
}

#[test]
fn json_syntax_detail_has_line_and_column() {
    let reading = reference::read_bytes(b"{\"asset\":\n  {\"version\": NaN}}", None, None);
    assert_eq!(reading.issues.len(), 1);
    let message = &reading.issues[0].message;
    assert!(message.contains("line 2 column"), "{message}");
}

/// A scratch folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "physics-cts-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A source that never ends or never answers (a device, a FIFO) is not a regular file: it is
/// refused before a byte is read. (`document::file`'s tests show the bounded read ending on
/// `/dev/zero` too, for a regular file that grows while it is read.)
#[cfg(target_os = "linux")]
#[test]
fn an_endless_source_is_not_read() {
    let reading = reference::read_path(std::path::Path::new("/dev/zero"), None).expect("opens");
    assert_eq!(code_pointers(&reading), [(Code::NotARegularFile, "")]);
    assert_eq!(
        reading.issues[0].message,
        "/dev/zero is a character device, not a regular file"
    );
    assert!(reading.scene.is_none());
}

/// DOCUMENT_TOO_LARGE is asserted here, not by a validation case (a case file would hold
/// millions of values): `tests/validation.rs` exempts it from its coverage test naming this
/// test. One value over the budget is refused before the tree is built; at the budget, read.
#[test]
fn a_document_over_the_value_budget_is_not_parsed() {
    use reference::document::budget::MAX_JSON_VALUES;
    let limit = usize::try_from(MAX_JSON_VALUES).expect("usize");
    // `[0,0,...]`: the array and its numbers, `n + 1` values.
    let array = |n: usize| {
        let mut text = String::with_capacity(2 * n + 2);
        text.push('[');
        for i in 0..n {
            if i > 0 {
                text.push(',');
            }
            text.push('0');
        }
        text.push(']');
        text
    };
    let over = reference::read_bytes(array(limit).as_bytes(), None, None);
    assert_eq!(code_pointers(&over), [(Code::DocumentTooLarge, "")]);
    assert!(
        over.issues[0]
            .message
            .contains(&format!("over the limit of {MAX_JSON_VALUES}")),
        "{}",
        over.issues[0].message
    );
    // At the budget the text is parsed: an array is not a glTF object (the schema says so).
    let at = reference::read_bytes(array(limit - 1).as_bytes(), None, None);
    let codes: Vec<Code> = at.issues.iter().map(|i| i.code).collect();
    assert!(!codes.contains(&Code::DocumentTooLarge), "{codes:?}");
    assert!(!codes.is_empty());
}

/// FILE_TOO_LARGE is asserted here, not by a validation case (a case file would be 512 MiB):
/// `tests/validation.rs` exempts it from its coverage test naming this test.
#[test]
fn file_too_large_is_not_read() {
    let dir = TempDir::new("too-large");
    let path = dir.0.join("huge.gltf");
    let file = std::fs::File::create(&path).expect("create");
    // Sparse: no disk space is used, and read_path must not read it.
    file.set_len(reference::document::MAX_FILE_SIZE + 1)
        .expect("set_len");
    let reading = reference::read_path(&path, None).expect("metadata readable");
    assert_eq!(code_pointers(&reading), [(Code::FileTooLarge, "")]);
    assert!(reading.issues[0].message.contains("536870913"));
    drop(file);
    let small = dir.0.join("small.gltf");
    std::fs::write(&small, br#"{"asset":{"version":"2.0"}}"#).expect("write");
    let reading = reference::read_path(&small, None).expect("readable");
    assert_eq!(reading.error_codes(), []);
}

#[test]
fn external_buffers_resolve_against_the_file_and_never_escape() {
    let dir = TempDir::new("uris");
    let inner = dir.0.join("inner");
    std::fs::create_dir_all(inner.join("sub")).expect("dirs");
    std::fs::write(dir.0.join("secret.bin"), [7u8; 8]).expect("write");
    std::fs::write(inner.join("sub").join("data file.bin"), [1u8; 8]).expect("write");
    let gltf = json!({
        "asset": {"version": "2.0"},
        "buffers": [
            {"byteLength": 8, "uri": "sub/data%20file.bin"},
            {"byteLength": 8, "uri": "../secret.bin"},
            {"byteLength": 8, "uri": "sub/../../secret.bin"},
            {"byteLength": 16, "uri": "sub/data%20file.bin"}
        ]
    });
    let path = inner.join("scene.gltf");
    std::fs::write(&path, gltf.to_string()).expect("write");
    let reading = reference::read_path(&path, None).expect("readable");
    assert_eq!(
        code_pointers(&reading),
        [
            (Code::UriEscapes, "/buffers/1/uri"),
            (Code::UriEscapes, "/buffers/2/uri"),
            (Code::BufferTooShort, "/buffers/3/byteLength"),
            (Code::ProfileNone, "")
        ]
    );
    // In memory there is no folder: the relative buffer is unreadable.
    let reading = reference::read_bytes(gltf.to_string().as_bytes(), None, None);
    assert!(
        reading
            .issues
            .iter()
            .any(|i| i.code == Code::BufferUnreadable && i.pointer == "/buffers/0/uri")
    );
}

// ----- GLB validation cases ------------------------------------------------------------------

/// A small core document whose buffer 0 is the BIN chunk: 3 VEC3 float positions (36 bytes).
fn glb_document() -> (Vec<u8>, Vec<u8>) {
    let positions: Vec<u8> = [[0.0f32, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
        .iter()
        .flatten()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let json = json!({
        "asset": {"version": "2.0", "extras": {"description": "buffer 0 is the GLB BIN chunk"}},
        "buffers": [{"byteLength": 36}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    (json.to_string().into_bytes(), positions)
}

fn set_total_length(glb: &mut [u8]) {
    let total = glb.len() as u32;
    glb[8..12].copy_from_slice(&total.to_le_bytes());
}

/// One GLB case: name, bytes, expected (code, pointer) list.
type GlbCase = (&'static str, Vec<u8>, Vec<(&'static str, &'static str)>);

fn glb_cases() -> Vec<GlbCase> {
    let (json, bin) = glb_document();
    let valid = glb::build(&json, Some(&bin));
    let none = ("PROFILE_NONE", "");
    let mut cases = vec![("glb-valid", valid.clone(), vec![none])];

    let mut unknown = valid.clone();
    unknown.extend_from_slice(&8u32.to_le_bytes());
    unknown.extend_from_slice(b"XTRA");
    unknown.extend_from_slice(&[0xAB; 8]);
    set_total_length(&mut unknown);
    cases.push(("glb-unknown-chunk-ignored", unknown, vec![none]));

    let mut wrong_length = valid.clone();
    let claimed = valid.len() as u32 + 4;
    wrong_length[8..12].copy_from_slice(&claimed.to_le_bytes());
    cases.push((
        "glb-header-wrong-length",
        wrong_length,
        vec![("GLB_HEADER", "")],
    ));

    let mut version = valid.clone();
    version[4] = 1;
    cases.push(("glb-header-version-1", version, vec![("GLB_HEADER", "")]));

    let mut past_end = valid.clone();
    past_end[12..16].copy_from_slice(&10_000u32.to_le_bytes());
    cases.push(("glb-chunk-past-end", past_end, vec![("GLB_CHUNK", "")]));

    let mut first_bin = valid.clone();
    first_bin[16..20].copy_from_slice(b"BIN\0");
    cases.push((
        "glb-chunk-first-not-json",
        first_bin,
        vec![("GLB_CHUNK", "")],
    ));

    // The JSON chunk's length is not a multiple of 4 (no padding); the JSON is still read.
    let text = br#"{"asset":{"version":"2.0"}}"#; // 27 bytes
    let mut unaligned = b"glTF".to_vec();
    unaligned.extend_from_slice(&2u32.to_le_bytes());
    unaligned.extend_from_slice(&0u32.to_le_bytes());
    unaligned.extend_from_slice(&(text.len() as u32).to_le_bytes());
    unaligned.extend_from_slice(b"JSON");
    unaligned.extend_from_slice(text);
    set_total_length(&mut unaligned);
    cases.push((
        "glb-chunk-unaligned",
        unaligned,
        vec![("GLB_CHUNK", ""), none],
    ));

    // The BIN chunk holds 12 bytes; buffer 0 says 36.
    let short = glb::build(&json, Some(&bin[..12]));
    cases.push((
        "glb-bin-too-short",
        short,
        vec![("BUFFER_TOO_SHORT", "/buffers/0/byteLength"), none],
    ));

    // No BIN chunk for a buffer without uri.
    let no_bin = glb::build(&json, None);
    cases.push((
        "glb-bin-missing",
        no_bin,
        vec![("BUFFER_UNREADABLE", "/buffers/0"), none],
    ));
    cases
}

fn core_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/validation/core")
}

#[test]
fn glb_cases_are_committed() {
    let bless = std::env::var_os("PHYSICS_CTS_BLESS").is_some();
    let mut stale = Vec::new();
    for (name, bytes, issues) in glb_cases() {
        let expect = json!({
            "profile": null,
            "issues": issues.iter().map(|(c, p)| json!({"code": c, "pointer": p})).collect::<Vec<_>>()
        });
        let expect = serde_json::to_string_pretty(&expect).expect("json") + "\n";
        let glb_path = core_dir().join(format!("{name}.glb"));
        let expect_path = core_dir().join(format!("{name}.expect.json"));
        if bless {
            std::fs::write(&glb_path, &bytes).expect("write glb");
            std::fs::write(&expect_path, &expect).expect("write expectation");
        }
        if std::fs::read(&glb_path).ok().as_deref() != Some(&bytes[..])
            || std::fs::read_to_string(&expect_path).ok().as_deref() != Some(expect.as_str())
        {
            stale.push(name);
        }
    }
    assert!(
        stale.is_empty(),
        "GLB cases differ from what this test builds: {stale:?}; rerun with PHYSICS_CTS_BLESS=1"
    );
}
