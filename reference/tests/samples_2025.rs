//! Every public sample of the 2025 glTF_Physics revision
//! (`shared/specs/current-samples/glTF_Physics_2025-10/`, `.gltf` and `.glb`) reads with zero
//! errors: as `khr-2025` when a node geometry dates it, else as the newest revision, which reads
//! it alike [D-KHR-REVISION]. Each `.gltf`, rewritten into the January-2026 form the way the
//! editor's Blender exporter 0.3.0 now writes it (a collider's `geometry.node` naming the
//! exporter's identity `physicsMeshDataNode` becomes `geometry.mesh` naming that node's mesh),
//! reads as `khr-2026` with zero errors and the same bodies, colliders and joints. Skipped, with
//! a message, where the samples are absent (a user's clone does not have them).

mod common;

use reference::profile::Profile;

/// The samples folder, under `shared/`.
const SAMPLES: &str = "specs/current-samples/glTF_Physics_2025-10";

#[test]
fn every_2025_sample_reads_without_errors_dated_by_its_geometry() {
    let Some(root) = common::files::shared_or_skip(SAMPLES) else {
        return;
    };
    let found = common::files::files_under(&root, &["gltf", "glb"]);
    assert!(found.len() >= 16, "{} sample files", found.len());
    let mut failures = Vec::new();
    for file in &found {
        let reading = reference::read_path(file, None).expect("readable");
        let errors = common::files::errors(&reading);
        let dated = reading.dated;
        let revision = if dated {
            Profile::Khr2025
        } else {
            Profile::Khr2026
        };
        if reading.profile != Some(revision) || !errors.is_empty() {
            failures.push(format!(
                "{}: profile {:?}, errors {errors:?}",
                file.display(),
                reading.profile.map(Profile::id)
            ));
        }
        // Every sample has colliders, and the reader keeps them.
        let scene = reading.scene.as_ref().expect("a scene");
        if scene.colliders.is_empty() {
            failures.push(format!("{}: no collider read", file.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `doc` with every collider and trigger `geometry.node` that names an exporter's mesh-data
/// node (identity transform, a mesh, no children, skin or weights) rewritten as
/// `geometry.mesh`, as the Blender exporter 0.3.0 writes it; the count rewritten. The data
/// nodes are kept (they are outside the scene), so node indices do not move.
fn rewrite_to_2026(doc: &mut serde_json::Value) -> usize {
    let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
    let data_mesh = |n: &serde_json::Value| {
        let identity = n.get("matrix").is_none()
            && n.get("translation")
                .is_none_or(|t| t.as_array().is_some_and(|a| a.iter().all(|x| x == 0.0)))
            && n.get("rotation")
                .is_none_or(|r| r == &serde_json::json!([0, 0, 0, 1]))
            && n.get("scale")
                .is_none_or(|s| s == &serde_json::json!([1, 1, 1]));
        let alone = ["children", "skin", "weights"]
            .iter()
            .all(|k| n.get(k).is_none());
        n.get("mesh").filter(|_| identity && alone).cloned()
    };
    let mut count = 0;
    for node in doc["nodes"].as_array_mut().into_iter().flatten() {
        let Some(ext) = node.pointer_mut("/extensions/KHR_physics_rigid_bodies") else {
            continue;
        };
        for key in ["collider", "trigger"] {
            let Some(g) = ext.get_mut(key).and_then(|c| c.get_mut("geometry")) else {
                continue;
            };
            let Some(source) = g.get("node").and_then(serde_json::Value::as_u64) else {
                continue;
            };
            let mesh = nodes.get(source as usize).and_then(data_mesh);
            let o = g.as_object_mut().expect("geometry is an object");
            let mesh = mesh.unwrap_or_else(|| panic!("geometry node {source} is not a data node"));
            o.remove("node");
            o.insert("mesh".into(), mesh);
            count += 1;
        }
    }
    count
}

/// What `eval` compares: the expected bodies, colliders and joints, as JSON.
fn interpretation(reading: &reference::Reading) -> serde_json::Value {
    let e =
        reference::expect::evaluate(reading.scene.as_ref().expect("scene"), &Default::default())
            .expect("evaluates");
    let scene = reading.scene.as_ref().expect("scene");
    let mut v = serde_json::to_value(&e).expect("json");
    // The decisions cited differ by design (D-GEOMETRY-NODE against D-GEOMETRY-MESH), and so
    // may the ids of the meshes behind the shapes: a mesh shape is compared by its vertices and
    // triangles in the collider's frame, the rest as it is.
    for c in v["colliders"].as_array_mut().into_iter().flatten() {
        c.as_object_mut().map(|o| o.remove("decisions"));
        if let Some(shape) = c.get_mut("shape").and_then(|s| s.as_object_mut())
            && let Some(id) = shape.remove("mesh").and_then(|m| m.as_u64())
        {
            let mesh = &scene.meshes[&(id as usize)];
            shape.insert("positions".into(), serde_json::json!(mesh.positions));
            shape.insert("triangles".into(), serde_json::json!(mesh.triangles));
        }
    }
    serde_json::json!({"bodies": v["bodies"], "colliders": v["colliders"], "joints": v["joints"]})
}

#[test]
fn every_2025_sample_rewritten_as_the_exporter_now_writes_it_reads_the_same_as_khr_2026() {
    let Some(root) = common::files::shared_or_skip(SAMPLES) else {
        return;
    };
    let found = common::files::files_under(&root, &["gltf"]);
    let mut rewritten_files = 0;
    let mut failures = Vec::new();
    for file in &found {
        let text = std::fs::read(file).expect("readable");
        let mut doc: serde_json::Value = serde_json::from_slice(&text).expect("json");
        let original = reference::read_path(file, None).expect("readable");
        let rewritten = rewrite_to_2026(&mut doc);
        if rewritten == 0 {
            continue;
        }
        rewritten_files += 1;
        let bytes = serde_json::to_vec(&doc).expect("json");
        let reading = reference::read_bytes(&bytes, file.parent(), None);
        let errors = common::files::errors(&reading);
        if reading.profile != Some(Profile::Khr2026) || !errors.is_empty() {
            failures.push(format!(
                "{}: profile {:?}, errors {errors:?}",
                file.display(),
                reading.profile.map(Profile::id)
            ));
            continue;
        }
        if interpretation(&reading) != interpretation(&original) {
            failures.push(format!("{}: another interpretation", file.display()));
        }
    }
    assert!(
        rewritten_files >= 6,
        "{rewritten_files} samples with node geometry"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
