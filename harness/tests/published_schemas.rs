//! Valid means valid everywhere (issue 22): every valid case of today's revisions in corpus/v2
//! passes the published JSON Schemas of its revision, unless one of its expected issues leaves
//! the outcome open (`Code::leaves_outcome_open`: the schema refuses what the prose or the
//! official samples accept, and both readings score as conformant). The schemas are public
//! files kept in `../shared/specs`, which a clone does not have: without them the test says so
//! and checks nothing. The legacy profiles are checked against the seed-era schemas, which are
//! partly broken: a file that is not JSON (the seed's joint drive schema) is left out, and what
//! the seed-era OMI schemas refuse against their own prose is counted apart, error by error, as
//! a documented defect.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jsonschema::error::ValidationErrorKind;
use jsonschema::{Retrieve, Uri, ValidationError, Validator};
use reference::issue::Code;
use serde_json::{Value, json};

/// Where a schema named by its file name is retrieved from.
const BASE: &str = "https://schemas.invalid/";

/// Published schemas by file name: every `$ref` names a file of the same folders.
#[derive(Clone, Debug)]
struct Schemas(BTreeMap<String, Value>);

impl Schemas {
    fn read(dirs: &[PathBuf]) -> Schemas {
        let mut map = BTreeMap::new();
        for dir in dirs {
            let entries =
                std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for e in entries {
                let path = e.expect("an entry").path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                if !name.ends_with(".json") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("readable");
                // A published folder may hold a file that is not JSON; nothing refers to it.
                if let Ok(v) = serde_json::from_str(&text) {
                    map.insert(name.to_owned(), v);
                }
            }
        }
        Schemas(map)
    }

    /// A validator of the schema `name`.
    fn validator(&self, name: &str) -> Validator {
        assert!(self.0.contains_key(name), "no published schema {name}");
        jsonschema::options()
            .with_retriever(self.clone())
            .build(&json!({"$ref": format!("{BASE}{name}")}))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
    }
}

impl Retrieve for Schemas {
    fn retrieve(
        &self,
        uri: &Uri<String>,
    ) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        let name = uri.path().as_str().rsplit('/').next().unwrap_or_default();
        self.0
            .get(name)
            .cloned()
            .ok_or_else(|| format!("no published schema {name}").into())
    }
}

/// One extension of a revision: its document-level and node-level schemas.
struct Extension {
    key: &'static str,
    document: Option<&'static str>,
    node: Option<&'static str>,
}

/// The folders of one revision's schemas (below `../shared/specs`), its extensions, and the
/// defects of those schemas.
struct SchemaRevision {
    family: &'static str,
    folders: Vec<&'static str>,
    extensions: Vec<Extension>,
    defects: Vec<Defect>,
}

/// A published schema's documented defect: it refuses, in the extension `key`, what its own
/// prose writes, so no reader holds a valid file to it.
struct Defect {
    key: &'static str,
    /// Whether an error is this defect: its kind, and the instance it is about (checked against
    /// the revision's schemas where the defect says what would make it pass).
    matches: fn(&ValidationError, &Schemas) -> bool,
    why: &'static str,
}

/// The seed-era OMI schemas' defects, each with why it is one (what the schema refuses against
/// its own prose).
fn omi_2023_defects() -> Vec<Defect> {
    vec![
        Defect {
            key: "OMI_physics_joint",
            matches: |e, _| matches!(e.kind(), ValidationErrorKind::Required { property } if property == "type"),
            why: "joint_constraint.schema.json requires a `type` that neither it nor the prose defines",
        },
        Defect {
            key: "OMI_collider",
            matches: |e, _| {
                matches!(e.kind(), ValidationErrorKind::OneOfMultipleValid { .. })
                    && matches!(
                        e.instance().get("type").and_then(Value::as_str),
                        Some("capsule" | "cylinder" | "hull" | "trimesh")
                    )
            },
            why: "collider.schema.json is draft-04, which has no `const`: its shape branches differ only in their required fields, so a capsule or a cylinder (radius, height) meets the sphere's, the capsule's and the cylinder's, a hull or a trimesh (mesh) both of theirs",
        },
        Defect {
            key: "OMI_collider",
            matches: |e, schemas| {
                matches!(e.kind(), ValidationErrorKind::OneOfNotValid { .. })
                    && with_prose_defaults(e.instance()).is_some_and(|c| {
                        !schemas
                            .validator("collider.schema.json")
                            .iter_errors(&c)
                            .any(|e| matches!(e.kind(), ValidationErrorKind::OneOfNotValid { .. }))
                    })
            },
            why: "collider.schema.json requires a shape's size, radius and height, which seed 004's prose defaults ([1, 1, 1], 0.5, 2): with the defaults written, the collider meets a branch",
        },
    ]
}

/// An OMI_collider collider with the sizes seed 004's prose defaults written in, or `None`
/// when its type has none or it leaves none out.
fn with_prose_defaults(collider: &Value) -> Option<Value> {
    use reference::omi::{DEFAULT_HEIGHT, DEFAULT_RADIUS, DEFAULT_SIZE};
    let defaults: &[(&str, Value)] = match collider.get("type")?.as_str()? {
        "box" => &[("size", json!(DEFAULT_SIZE))],
        "sphere" => &[("radius", json!(DEFAULT_RADIUS))],
        "capsule" | "cylinder" => &[
            ("radius", json!(DEFAULT_RADIUS)),
            ("height", json!(DEFAULT_HEIGHT)),
        ],
        _ => return None,
    };
    let mut filled = collider.as_object()?.clone();
    let mut any = false;
    for (key, value) in defaults {
        if !filled.contains_key(*key) {
            filled.insert((*key).to_owned(), value.clone());
            any = true;
        }
    }
    any.then_some(Value::Object(filled))
}

const CORE: &str = "schemas/glTF-2.0-core/2026-07-17_77b44be7";

fn revisions() -> Vec<SchemaRevision> {
    let omi = |family, dir: &'static str| {
        let folders = match dir {
            "omi-2024" => vec![
                CORE,
                "texts/omi-2024/OMI_physics_body.schema",
                "texts/omi-2024/OMI_physics_shape.schema",
                "texts/omi-2024/OMI_physics_joint.schema",
            ],
            _ => vec![
                CORE,
                "texts/omi-2025/OMI_physics_body.schema",
                "texts/omi-2025/OMI_physics_shape.schema",
                "texts/omi-2025/OMI_physics_joint.schema",
            ],
        };
        SchemaRevision {
            family,
            folders,
            defects: Vec::new(),
            extensions: vec![
                Extension {
                    key: "OMI_physics_body",
                    document: Some("glTF.OMI_physics_body.schema.json"),
                    node: Some("node.OMI_physics_body.schema.json"),
                },
                Extension {
                    key: "OMI_physics_shape",
                    document: Some("glTF.OMI_physics_shape.schema.json"),
                    node: None,
                },
                Extension {
                    key: "OMI_physics_joint",
                    document: Some("glTF.OMI_physics_joint.schema.json"),
                    node: Some("node.OMI_physics_joint.schema.json"),
                },
            ],
        }
    };
    // The rigid bodies' schemas of a KHR revision, beside those of its shapes.
    let khr = |family, bodies: &'static str, shapes: (&'static str, Extension)| SchemaRevision {
        family,
        defects: Vec::new(),
        folders: vec![CORE, bodies, shapes.0],
        extensions: vec![
            Extension {
                key: "KHR_physics_rigid_bodies",
                document: Some("glTF.KHR_physics_rigid_bodies.schema.json"),
                node: Some("node.KHR_physics_rigid_bodies.schema.json"),
            },
            shapes.1,
        ],
    };
    let shapes_2025 = (
        "schemas/KHR_implicit_shapes/2025-10-22_61c188ee",
        Extension {
            key: "KHR_implicit_shapes",
            document: Some("glTF.KHR_implicit_shapes.schema.json"),
            node: None,
        },
    );
    let shapes_seed = (
        "schemas/KHR_collision_shapes/2023-08-26_37ebdb68",
        Extension {
            key: "KHR_collision_shapes",
            document: Some("glTF.KHR_collision_shapes.schema.json"),
            node: None,
        },
    );
    vec![
        khr(
            "khr25",
            "schemas/KHR_physics_rigid_bodies/2025-07-09_35cc5dd4",
            shapes_2025,
        ),
        omi("omi24", "omi-2024"),
        omi("omi25", "omi-2025"),
        // The seed-era revisions: the schemas the seeds were written against (the seed-era
        // schema folders of the shared specs; the KHR one as repaired by its two next commits, JSON syntax
        // and a file name).
        khr(
            "khr",
            "schemas/KHR_physics_rigid_bodies/2024-04-17_97466cbb",
            shapes_seed,
        ),
        SchemaRevision {
            family: "omi",
            defects: omi_2023_defects(),
            folders: vec![
                CORE,
                "schemas/OMI_physics_body/2023-06-04_a17ea6c4",
                "schemas/OMI_collider/2023-06-04_a17ea6c4",
                "schemas/OMI_physics_joint/2023-06-04_a17ea6c4",
            ],
            extensions: vec![
                Extension {
                    key: "OMI_physics_body",
                    document: None,
                    node: Some("node.OMI_physics_body.schema.json"),
                },
                Extension {
                    key: "OMI_collider",
                    document: Some("glTF.OMI_collider.schema.json"),
                    node: Some("node.OMI_collider.schema.json"),
                },
                Extension {
                    key: "OMI_physics_joint",
                    document: Some("glTF.OMI_physics_joint.schema.json"),
                    node: Some("node.OMI_physics_joint.schema.json"),
                },
            ],
        },
        SchemaRevision {
            family: "vrm",
            defects: Vec::new(),
            folders: vec![
                CORE,
                "schemas/VRMC_constraints-1.0_draft/2021-03-18_40b716aa",
            ],
            extensions: vec![Extension {
                key: "VRMC_constraints",
                document: None,
                node: Some("VRMC_constraints.schema.json"),
            }],
        },
        SchemaRevision {
            family: "vrm1",
            defects: Vec::new(),
            folders: vec![CORE, "texts/vrmc-node-constraint-1.0/schema"],
            extensions: vec![Extension {
                key: "VRMC_node_constraint",
                document: None,
                node: Some("VRMC_node_constraint.schema.json"),
            }],
        },
    ]
}

/// Every schema error of the revision's extensions in `doc`, for people, with the index of
/// the revision's defect it is, if it is one.
fn errors(
    doc: &Value,
    revision: &SchemaRevision,
    schemas: &Schemas,
    checks: &[(&Extension, Option<Validator>, Option<Validator>)],
) -> Vec<(String, Option<usize>)> {
    let mut out = Vec::new();
    let mut add = |key: &str, at: String, e: ValidationError| {
        let defect = revision
            .defects
            .iter()
            .position(|d| d.key == key && (d.matches)(&e, schemas));
        out.push((format!("{at}{key}: {e}"), defect));
    };
    for (ext, document, node) in checks {
        if let (Some(v), Some(x)) = (document, doc.pointer(&format!("/extensions/{}", ext.key))) {
            v.iter_errors(x)
                .for_each(|e| add(ext.key, String::new(), e));
        }
        let nodes = doc.get("nodes").and_then(Value::as_array);
        for (i, n) in nodes.into_iter().flatten().enumerate() {
            if let (Some(v), Some(x)) = (node, n.pointer(&format!("/extensions/{}", ext.key))) {
                v.iter_errors(x)
                    .for_each(|e| add(ext.key, format!("node {i} "), e));
            }
        }
    }
    out
}

/// The published schemas' folder (`../shared/specs`), when it is there; says so when not.
fn specs() -> Option<PathBuf> {
    let specs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/specs");
    if !specs.is_dir() {
        eprintln!(
            "skipped: {} is absent (the published schemas)",
            specs.display()
        );
        return None;
    }
    Some(specs)
}

/// The collider defects match only what they document: a shape without a size the prose
/// defaults, or with the fields of several branches; not a size of the wrong type.
#[test]
fn the_collider_defects_match_only_what_they_document() {
    let Some(specs) = specs() else { return };
    let omi = revisions()
        .into_iter()
        .find(|r| r.family == "omi")
        .expect("the omi-2023 revision");
    let folders: Vec<PathBuf> = omi.folders.iter().map(|f| specs.join(f)).collect();
    let schemas = Schemas::read(&folders);
    let collider = schemas.validator("collider.schema.json");
    let which = |c: Value| -> Vec<Option<usize>> {
        collider
            .iter_errors(&c)
            .map(|e| {
                omi.defects
                    .iter()
                    .position(|d| d.key == "OMI_collider" && (d.matches)(&e, &schemas))
            })
            .collect()
    };
    assert_eq!(which(json!({"type": "box", "size": [1, 2, 3]})), []);
    assert_eq!(which(json!({"type": "sphere"})), [Some(2)]);
    // Without `const`, a capsule with a radius alone meets the sphere's branch.
    assert_eq!(which(json!({"type": "capsule", "radius": 0.5})), []);
    assert_eq!(which(json!({"type": "cylinder", "height": 1})), [Some(2)]);
    assert_eq!(
        which(json!({"type": "cylinder", "radius": 0.5, "height": 1})),
        [Some(1)]
    );
    assert_eq!(which(json!({"type": "hull", "mesh": 0})), [Some(1)]);
    assert_eq!(which(json!({"type": "sphere", "radius": "big"})), [None]);
    assert_eq!(which(json!({"type": "box", "size": 1})), [None]);
}

#[test]
fn valid_cases_pass_their_revisions_published_schemas_or_leave_the_outcome_open() {
    let Some(specs) = specs() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let corpus = root.join("corpus/v2");
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(corpus.join("manifest.json")).expect("corpus/v2 manifest"),
    )
    .expect("JSON");
    let rows = manifest["cases"].as_array().expect("cases");
    for revision in revisions() {
        let folders: Vec<PathBuf> = revision.folders.iter().map(|f| specs.join(f)).collect();
        let schemas = Schemas::read(&folders);
        let checks: Vec<_> = revision
            .extensions
            .iter()
            .map(|e| {
                (
                    e,
                    e.document.map(|n| schemas.validator(n)),
                    e.node.map(|n| schemas.validator(n)),
                )
            })
            .collect();
        // Each schema refuses what is not even an object: the check can fail.
        for (ext, document, node) in &checks {
            for v in [document, node].into_iter().flatten() {
                assert!(
                    !v.is_valid(&json!(5)),
                    "{}: a schema accepting anything",
                    ext.key
                );
            }
        }
        let (mut checked, mut open) = (0, 0);
        let mut defective = vec![0; revision.defects.len()];
        let mut wrong = Vec::new();
        for row in rows {
            let id = row["id"].as_str().unwrap_or_default();
            let file = row["file"].as_str().unwrap_or_default();
            let family = id.split('/').next().unwrap_or_default();
            if family != revision.family || row["valid"] != true || !file.ends_with(".gltf") {
                continue;
            }
            let doc: Value =
                serde_json::from_str(&std::fs::read_to_string(corpus.join(file)).expect("case"))
                    .expect("JSON");
            checked += 1;
            let found = errors(&doc, &revision, &schemas, &checks);
            let mut seen = vec![false; revision.defects.len()];
            found
                .iter()
                .filter_map(|e| e.1)
                .for_each(|d| seen[d] = true);
            let found: Vec<String> = found
                .into_iter()
                .filter(|e| e.1.is_none())
                .map(|e| e.0)
                .collect();
            for (n, s) in defective.iter_mut().zip(seen) {
                *n += usize::from(s);
            }
            if found.is_empty() {
                continue;
            }
            let leaves_open = row["expected_codes"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|c| {
                    Code::ALL
                        .iter()
                        .any(|k| Some(k.id()) == c.as_str() && k.leaves_outcome_open())
                });
            if leaves_open {
                open += 1;
            } else {
                wrong.push(format!("{id}: {}", found.join(" | ")));
            }
        }
        eprintln!(
            "{}: {checked} valid cases, {open} outside the schema with an open outcome",
            revision.family
        );
        for (d, n) in revision.defects.iter().zip(&defective) {
            eprintln!("  {n} refused by a schema defect: {}", d.why);
            // A defect no case meets is not known to be one: its exemption goes.
            assert!(
                *n > 0,
                "{}: no case meets the defect {:?}",
                revision.family,
                d.why
            );
        }
        assert!(
            checked > 200,
            "{}: only {checked} valid cases",
            revision.family
        );
        assert!(
            wrong.is_empty(),
            "{}: valid cases the published schema refuses, with no open outcome:\n{}",
            revision.family,
            wrong.join("\n")
        );
    }
}
