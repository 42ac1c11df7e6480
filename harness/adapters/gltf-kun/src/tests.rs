//! Hand-worked cases: small documents written here, imported by gltf_kun, and the interpretation
//! compared with figures worked out by hand from the OMI texts.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::*;

/// Write `doc` as a `.gltf` in a fresh folder of its own and return its path.
fn write(name: &str, doc: &Value) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "physics-cts-gltf-kun-test-{}-{name}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, doc.to_string()).expect("write");
    path
}

/// Import `doc` and return its interpretation and gltf_kun's notes.
fn read(name: &str, doc: &Value) -> (Value, Vec<String>) {
    let imported = import(&write(name, doc));
    let loaded = imported.result.expect("gltf_kun imports it");
    (interpretation(&loaded), imported.notes)
}

fn document(shapes: Value, nodes: Value) -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": shapes}},
        "nodes": nodes,
        "scene": 0,
        "scenes": [{"nodes": [0]}],
    })
}

fn close(got: &Value, want: &[f64]) {
    let got: Vec<f64> = got
        .as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{got:?} vs {want:?}");
    }
}

fn near(got: &Value, want: f64) {
    let g = got.as_f64().expect("a number");
    assert!((g - want).abs() < 1e-6, "{g} vs {want}");
}

#[test]
fn the_spec_example_is_one_dynamic_box() {
    // OMI_physics_body's own example: one node, dynamic, a 1 x 2 x 3 box.
    let doc = document(
        json!([{"type": "box", "box": {"size": [1, 2, 3]}}]),
        json!([{"name": "DynamicBox", "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}]),
    );
    let (i, notes) = read("example", &doc);
    assert!(notes.is_empty(), "{notes:?}");
    let bodies = i["bodies"].as_array().expect("bodies");
    assert_eq!(bodies.len(), 1);
    let b = &bodies[0];
    assert_eq!(b["node"], 0);
    assert_eq!(b["kind"], "dynamic");
    // The schema's default mass, 1 kg; no inertia given: left to the engine.
    assert_eq!(b["mass"], json!({"kind": "finite", "value": 1.0}));
    assert_eq!(b["inertia_diagonal"][0], json!({"kind": "unspecified"}));
    close(&b["center_of_mass"], &[0.0, 0.0, 0.0]);
    let c = &i["colliders"][0];
    assert_eq!(c["node"], 0);
    assert_eq!(c["body"], 0);
    assert_eq!(c["is_trigger"], false);
    assert_eq!(c["shape"], "box");
    close(&c["parameters"]["size"], &[1.0, 2.0, 3.0]);
    close(&c["translation"], &[0.0, 0.0, 0.0]);
    close(&c["rotation"], &[0.0, 0.0, 0.0, 1.0]);
    assert_eq!(i["pairs"], json!([]));
    assert_eq!(i["joints"], json!([]));
}

#[test]
fn motion_properties_are_read() {
    let doc = document(
        json!([{"type": "sphere", "sphere": {"radius": 0.25}}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "kinematic", "mass": 2.5, "linearVelocity": [1, 2, 3],
                       "angularVelocity": [0, 0.5, 0], "centerOfMass": [0.1, 0, -0.2]},
            "collider": {"shape": 0}}}}]),
    );
    let (i, _) = read("motion", &doc);
    let b = &i["bodies"][0];
    assert_eq!(b["kind"], "kinematic");
    near(&b["mass"]["value"], 2.5);
    close(&b["linear_velocity"], &[1.0, 2.0, 3.0]);
    close(&b["angular_velocity"], &[0.0, 0.5, 0.0]);
    close(&b["center_of_mass"], &[0.1, 0.0, -0.2]);
    near(&b["gravity_factor"], 1.0);
    near(&i["colliders"][0]["parameters"]["radius"], 0.25);
}

#[test]
fn the_inertia_diagonal_under_its_spec_key_is_not_read() {
    // The schema's key is `inertiaDiagonal`; gltf_kun 0.4.0 reads `inertialDiagonal`
    // (omi_physics_body/weight.rs:40), so a given diagonal is left to the engine.
    let doc = document(
        json!([{"type": "box", "box": {}}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "inertiaDiagonal": [1, 2, 3]},
            "collider": {"shape": 0}}}}]),
    );
    let (i, _) = read("inertia", &doc);
    assert_eq!(
        i["bodies"][0]["inertia_diagonal"][1],
        json!({"kind": "unspecified"})
    );
    // Under gltf_kun's own key it is read.
    let doc = document(
        json!([{"type": "box", "box": {}}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "inertialDiagonal": [1, 2, 3]},
            "collider": {"shape": 0}}}}]),
    );
    let (i, _) = read("inertial", &doc);
    assert_eq!(
        i["bodies"][0]["inertia_diagonal"][1],
        json!({"kind": "finite", "value": 2.0})
    );
}

#[test]
fn a_child_collider_is_placed_relative_to_its_body() {
    // Body at (1, 0, 0) turned 90 degrees about y; its child collider at local (0, 0, 2) with
    // a capsule of radius 0.5 and full height 3 (omi-2024): the cap centres are 3 - 2 * 0.5 = 2
    // apart. A static collider (no motion above it) at (0, -1, 0), scaled 2: a box of 2 x 2 x 2.
    let s = std::f64::consts::FRAC_1_SQRT_2;
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [
            {"type": "capsule", "capsule": {"radius": 0.5, "height": 3}},
            {"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [
            {"children": [1], "translation": [1, 0, 0], "rotation": [0, s, 0, s],
             "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
            {"translation": [0, 0, 2], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
            {"translation": [0, -1, 0], "scale": [2, 2, 2],
             "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}}
        ],
        "scene": 0,
        "scenes": [{"nodes": [0, 2]}],
    });
    let (i, _) = read("child", &doc);
    let colliders = i["colliders"].as_array().expect("colliders");
    assert_eq!(colliders.len(), 2);
    let capsule = &colliders[0];
    assert_eq!(capsule["node"], 1);
    assert_eq!(capsule["body"], 0);
    assert_eq!(capsule["shape"], "capsule");
    near(&capsule["parameters"]["height"], 2.0);
    near(&capsule["parameters"]["radius_top"], 0.5);
    near(&capsule["parameters"]["radius_bottom"], 0.5);
    close(&capsule["translation"], &[0.0, 0.0, 2.0]);
    close(&capsule["rotation"], &[0.0, 0.0, 0.0, 1.0]);
    let ground = &colliders[1];
    assert_eq!(ground["body"], Value::Null);
    close(&ground["parameters"]["size"], &[2.0, 2.0, 2.0]);
    close(&ground["translation"], &[0.0, -1.0, 0.0]);
    // One pair, body 0 against the static world: it collides.
    assert_eq!(i["pairs"], json!([{"a": 1, "b": 2, "collide": true}]));
}

#[test]
fn a_trigger_is_reported_and_makes_no_contact() {
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [
            {"type": "cylinder", "cylinder": {"radius": 1, "height": 0.5}},
            {"type": "sphere", "sphere": {}}]}},
        "nodes": [
            {"extensions": {"OMI_physics_body": {"trigger": {"shape": 0}}}},
            {"translation": [0, 3, 0],
             "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 1}}}}
        ],
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
    });
    let (i, _) = read("trigger", &doc);
    let t = &i["colliders"][0];
    assert_eq!(t["is_trigger"], true);
    assert_eq!(t["body"], Value::Null);
    assert_eq!(t["shape"], "cylinder");
    // A cylinder's height is its full height in both the file and the protocol.
    near(&t["parameters"]["height"], 0.5);
    near(&t["parameters"]["radius_top"], 1.0);
    // The sphere's default radius, 0.5.
    near(&i["colliders"][1]["parameters"]["radius"], 0.5);
    assert_eq!(i["pairs"], json!([{"a": 0, "b": 1, "collide": false}]));
}

#[test]
fn a_nested_body_keeps_its_own_colliders() {
    // A dynamic body under another: the inner collider belongs to the inner body (its nearest
    // ancestor with a motion), the outer one to the outer body.
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]}},
        "nodes": [
            {"children": [1, 2], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
            {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
            {"children": [3], "translation": [0, 2, 0],
             "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
            {"extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}
        ],
        "scene": 0,
        "scenes": [{"nodes": [0]}],
    });
    let (i, _) = read("nested", &doc);
    assert_eq!(i["bodies"].as_array().map(Vec::len), Some(2));
    assert_eq!(i["colliders"][0]["body"], 0);
    assert_eq!(i["colliders"][1]["body"], 2);
    close(&i["colliders"][1]["translation"], &[0.0, 0.0, 0.0]);
}

#[test]
fn only_the_default_scene_is_read() {
    // Two scenes; `scene` is 1, which holds node 1 only. Node 0 (scene 0) and node 2 (in no
    // scene) carry colliders that are not in the world.
    let shape = json!({"OMI_physics_body": {"collider": {"shape": 0}}});
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]}},
        "nodes": [{"extensions": shape}, {"extensions": shape}, {"extensions": shape}],
        "scene": 1,
        "scenes": [{"nodes": [0]}, {"nodes": [1]}],
    });
    let (i, _) = read("scenes", &doc);
    let nodes: Vec<&Value> = i["colliders"]
        .as_array()
        .expect("colliders")
        .iter()
        .map(|c| &c["node"])
        .collect();
    assert_eq!(nodes, [&json!(1)]);
}

#[test]
fn a_convex_shape_loses_every_shape_and_body() {
    // OMI_physics_shape's convex shape names a mesh (`"convex": {"mesh": 0}`); gltf_kun 0.4.0's
    // `Convex` is a unit variant (omi_physics_shape/physics_shape.rs:17), so the shape list
    // does not deserialize (import.rs:23), the extension import stops there, and
    // OMI_physics_body is never imported (extensions/mod.rs:65-66): no body, no collider.
    let doc = document(
        json!([{"type": "box", "box": {}}, {"type": "convex", "convex": {"mesh": 0}}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}]),
    );
    let (i, notes) = read("convex", &doc);
    assert_eq!(i["bodies"], json!([]));
    assert_eq!(i["colliders"], json!([]));
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Failed to import extensions")),
        "{notes:?}"
    );
}

#[test]
fn a_shape_without_its_sub_object_loses_every_shape_and_body() {
    // "If a key for the type is missing ... implementations should use the default value": a
    // 1 m box. gltf_kun finds no variant in the flattened shape (omi_physics_shape/json.rs:14-23)
    // and, as with a mesh shape, drops every shape and body.
    let doc = document(
        json!([{"type": "box"}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}]),
    );
    let (i, notes) = read("subobject", &doc);
    assert_eq!(i["colliders"], json!([]));
    assert!(notes.iter().any(|n| n.contains("no variant")), "{notes:?}");
}

#[test]
fn the_shape_type_is_not_read() {
    // `type` is skipped (omi_physics_shape/json.rs:12-13): with a box and a sphere sub-object,
    // the shape is the box whatever `type` says.
    let doc = document(
        json!([{"type": "sphere", "sphere": {"radius": 2}, "box": {"size": [1, 2, 3]}}]),
        json!([{"extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}]),
    );
    let (i, _) = read("type", &doc);
    assert_eq!(i["colliders"][0]["shape"], "box");
}

#[test]
fn a_missing_file_is_rejected() {
    let imported = import(Path::new("/nonexistent/physics-cts-gltf-kun.gltf"));
    assert!(imported.result.is_err());
}

#[test]
fn shapes_fold_the_world_scale_where_their_kind_survives() {
    use gltf_kun::extensions::omi_physics_shape::physics_shape::{
        CapsuleShape, Height, Radius, SphereShape,
    };
    let sphere = PhysicsShapeWeight::Sphere(SphereShape {
        radius: Radius(0.5),
    });
    let (kind, p) = shape_report(&sphere, DVec3::new(2.0, 2.0, 2.0));
    assert_eq!(kind, "sphere");
    near(&p["radius"], 1.0);
    // A sphere under (1, 2, 1) is an ellipsoid: the radius and the scale beside it.
    let (_, p) = shape_report(&sphere, DVec3::new(1.0, 2.0, 1.0));
    near(&p["radius"], 0.5);
    close(&p["scale"], &[1.0, 2.0, 1.0]);
    // A capsule of radius 0.4 and full height 1.6 (cap centres 0.8 apart) under 2: radius 0.8,
    // cap centres 1.6 apart.
    let capsule = PhysicsShapeWeight::Capsule(CapsuleShape {
        radius: Radius(0.4),
        height: Height(1.6),
    });
    let (_, p) = shape_report(&capsule, DVec3::new(2.0, 2.0, 2.0));
    near(&p["radius_top"], 0.8);
    near(&p["height"], 1.6);
}

mod protocol {
    use serde_json::{Value, json};

    use crate::protocol::Adapter;

    fn ask(a: &mut Adapter, request: Value) -> Value {
        let (line, _) = a.answer(&request.to_string());
        serde_json::from_str(&line).expect("an answer is JSON")
    }

    #[test]
    fn the_handshake_declares_omi_2024_interpretation_only() {
        let mut a = Adapter::default();
        let h = ask(
            &mut a,
            json!({"seq": 0, "op": "handshake", "protocol_version": 2}),
        );
        assert_eq!(h["seq"], 0);
        let caps = &h["ok"]["capabilities"];
        assert_eq!(caps["profiles"], json!(["omi-2024"]));
        assert_eq!(caps["checks"], json!(["interpretation"]));
        assert_eq!(h["ok"]["protocol_version"], 2);
        let wrong = ask(
            &mut a,
            json!({"seq": 1, "op": "handshake", "protocol_version": 1}),
        );
        assert_eq!(wrong["error"]["error"], "bad_request");
    }

    #[test]
    fn requests_outside_reading_are_refused_by_kind() {
        let mut a = Adapter::default();
        let r = ask(&mut a, json!({"seq": 3, "op": "step", "steps": 1}));
        assert_eq!(r["error"]["error"], "not_supported");
        let r = ask(&mut a, json!({"seq": 4, "op": "interpretation"}));
        assert_eq!(r["error"]["error"], "bad_request");
        let r = ask(&mut a, json!({"seq": 5, "op": "dance"}));
        assert_eq!(r["error"]["error"], "bad_request");
        let r = ask(
            &mut a,
            json!({"seq": 6, "op": "load", "path": "/x.gltf", "profile": "omi-2025"}),
        );
        assert_eq!(r["error"]["error"], "not_supported");
        let (line, _) = a.answer("not json");
        let r: Value = serde_json::from_str(&line).expect("json");
        assert_eq!(r["seq"], Value::Null);
        assert_eq!(r["error"]["error"], "bad_request");
        let (line, stop) = a.answer(r#"{"seq": 7, "op": "shutdown"}"#);
        assert!(stop);
        assert_eq!(line, r#"{"ok":null,"seq":7}"#);
    }

    #[test]
    fn a_file_gltf_kun_cannot_read_is_rejected() {
        let mut a = Adapter::default();
        let r = ask(
            &mut a,
            json!({"seq": 0, "op": "load", "path": "/nonexistent/a.gltf", "profile": "omi-2024"}),
        );
        assert_eq!(r["ok"]["outcome"], "rejected");
    }
}
