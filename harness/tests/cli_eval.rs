//! `physics-cts eval` run as a process: the JSON it prints for a small KHR hinge, and its exit
//! codes (0 printed, 1 validation errors, 2 unreadable file or bad poses).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_physics-cts");

/// Body A (node 0, static: no motion) holds the joint node 1 at (0, 1, 0); body B (node 2,
/// dynamic, mass 2) at (0, 1, 0) is the connected node. One coupled limit: angular axis 0 (a
/// hinge about x) in [-pi/2, pi/2], plus a point limit (linear [0, 1, 2], max 0).
const HINGE: &str = r#"{
  "asset": {"version": "2.0"},
  "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_collision_shapes"],
  "extensions": {
    "KHR_collision_shapes": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]},
    "KHR_physics_rigid_bodies": {
      "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "max": 0},
                                    {"angularAxes": [0], "min": -1.5707963267948966, "max": 1.5707963267948966}]}]
    }
  },
  "scene": 0,
  "scenes": [{"nodes": [0, 2]}],
  "nodes": [
    {"children": [1], "extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0}}}},
    {"translation": [0, 1, 0], "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 2, "joint": 0}}}},
    {"translation": [0, 1, 0],
     "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2}, "collider": {"shape": 0}}}}
  ]
}"#;

/// Body B turned 120 degrees about x: q = (sin 60, 0, 0, cos 60) = (0.8660254, 0, 0, 0.5).
const POSES: &str = r#"{"nodes": {"2": {"rotation": [0.8660254037844386, 0, 0, 0.5]}}}"#;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_eval");
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

/// `physics-cts eval FILE FLAGS`.
fn run(file: &Path, flags: &[&str]) -> Output {
    Command::new(BIN)
        .arg("eval")
        .arg(file)
        .args(flags)
        .output()
        .expect("runs")
}

/// A written file's path as a flag's value.
fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exit code")
}

#[test]
fn prints_the_expected_interpretation_of_a_hinge() {
    let file = write("hinge.gltf", HINGE);
    let poses = write("hinge.poses.json", POSES);
    let out = run(&file, &["--poses", arg(&poses), "--format", "json"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(j["profile"], "khr-2024-draft");
    assert_eq!(j["bodies"].as_array().expect("bodies").len(), 1);
    assert_eq!(j["bodies"][0]["node"], 2);
    assert_eq!(j["bodies"][0]["mass"]["value"], 2.0);
    // Two colliders: the static one on node 0 and body B's; one pair, joined by the hinge.
    assert_eq!(j["colliders"].as_array().expect("colliders").len(), 2);
    assert!(j["colliders"][0]["body"].is_null());
    let pair = &j["pairs"][0];
    assert_eq!(pair["colliders"], serde_json::json!([0, 1]));
    assert_eq!(pair["joined_by"], 1);
    assert_eq!(pair["contact"], false);
    assert!(pair["friction"]["static"].is_null());
    let joint = &j["joints"][0];
    assert_eq!(joint["node"], 1);
    assert_eq!(joint["bodies"], serde_json::json!([null, 0]));
    assert_eq!(joint["coupling"], "coupled");
    // Frame B turned 120 degrees about x, frame A not: twist 2pi/3 over the maximum pi/2 by
    // pi/6; the frames stay at the same point (0, 1, 0): point metric 0.
    let limits = joint["limits"].as_array().expect("limits");
    assert_eq!(limits.len(), 2);
    assert_eq!(limits[1]["kind"], "angular");
    assert_eq!(limits[1]["axes"], serde_json::json!([0]));
    let metric = limits[1]["metric"].as_f64().expect("metric");
    let violation = limits[1]["violation"].as_f64().expect("violation");
    assert!(
        (metric - 2.0 * std::f64::consts::FRAC_PI_3).abs() < 1e-9,
        "{metric}"
    );
    assert!(
        (violation - std::f64::consts::FRAC_PI_6).abs() < 1e-9,
        "{violation}"
    );
    assert!(limits[0]["metric"].as_f64().expect("metric").abs() < 1e-9);
    assert!(limits[0]["min"].is_null());
    let rotation = joint["frames"][1]["world"]["rotation"]
        .as_array()
        .expect("quaternion");
    assert!((rotation[0].as_f64().expect("x") - 0.8660254037844386).abs() < 1e-9);
    assert!(j["constraints"].as_array().expect("constraints").is_empty());
    let decisions = j["decisions"].as_array().expect("decisions");
    for id in [
        "D-FRAMES",
        "D-METRICS",
        "D-TWIST-SIGNED",
        "D-COMBINE-DEFAULT",
        "D-FILTER",
    ] {
        assert!(
            decisions.contains(&Value::from(id)),
            "{id} missing from {decisions:?}"
        );
    }
}

#[test]
fn validation_errors_exit_1() {
    let file = write(
        "truncated.gltf",
        r#"{"asset": {"version": "2.0"}, "nodes": ["#,
    );
    let out = run(&file, &[]);
    assert_eq!(code(&out), 1);
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("JSON_SYNTAX"));
}

#[test]
fn unreadable_file_or_bad_poses_exit_2() {
    let missing = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli_eval/does-not-exist.gltf");
    let out = run(&missing, &[]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));

    let file = write("hinge-for-poses.gltf", HINGE);
    for (name, poses, says) in [
        (
            "unknown-node.json",
            r#"{"nodes": {"7": {}}}"#,
            "does not exist",
        ),
        ("not-json.json", "{", "not valid JSON"),
        (
            "zero.json",
            r#"{"nodes": {"2": {"rotation": [0, 0, 0, 0]}}}"#,
            "zero quaternion",
        ),
    ] {
        let poses = write(name, poses);
        let out = run(&file, &["--poses", arg(&poses)]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(code(&out), 2, "{name}: {stderr}");
        assert!(stderr.contains(says), "{name}: {stderr}");
    }
    let out = run(&file, &["--poses", arg(&missing)]);
    assert_eq!(code(&out), 2);
    let out = run(&file, &["--format", "yaml"]);
    assert_eq!(code(&out), 2);
    let out = run(&file, &["--profile", "khr"]);
    assert_eq!(code(&out), 2);
    // A plain glTF without physics or constraints: nothing to evaluate.
    let plain = write(
        "plain.gltf",
        r#"{"asset": {"version": "2.0"}, "nodes": [{}]}"#,
    );
    let out = run(&plain, &[]);
    assert_eq!(code(&out), 2);
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing to evaluate"));
}

/// `--profile` forces the profile the file is read under; the output says which.
#[test]
fn profile_flag_is_honoured() {
    let file = write("hinge-forced.gltf", HINGE);
    let out = run(&file, &["--profile", "khr-2024-draft"]);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let j: Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(j["profile"], "khr-2024-draft");
}

/// A VRM 1.0 rotation constraint (node 1 follows node 0) beside a mesh (node 2) whose buffer
/// `body.bin` is not there; `{COLLIDER}` is replaced by a member of node 2's extensions.
const MESH_WITHOUT_BIN: &str = r#"{
  "asset": {"version": "2.0"},
  "extensionsUsed": ["VRMC_node_constraint"{USED}],
  "buffers": [{"uri": "body.bin", "byteLength": 36}],
  "bufferViews": [{"buffer": 0, "byteLength": 36}],
  "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                 "min": [0, 0, 0], "max": [1, 1, 0]}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
  "nodes": [
    {"name": "Source", "rotation": [0, 0, 0.7071067811865476, 0.7071067811865476]},
    {"name": "Follower", "extensions": {"VRMC_node_constraint": {"specVersion": "1.0",
      "constraint": {"rotation": {"source": 0, "weight": 1.0}}}}},
    {"name": "Body", "mesh": 0{COLLIDER}}
  ],
  "scene": 0,
  "scenes": [{"nodes": [0, 1, 2]}]
}"#;

/// A mesh's buffer left out is an error nothing physical depends on: eval still evaluates the
/// constraints (issue 36); the same buffer under a collider's mesh geometry stops it.
#[test]
fn a_missing_buffer_stops_eval_only_when_a_shape_reads_it() {
    let constraints = MESH_WITHOUT_BIN
        .replace("{USED}", "")
        .replace("{COLLIDER}", "");
    let file = write("mesh-without-bin.gltf", &constraints);
    let out = run(&file, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 0, "{stderr}");
    assert!(stderr.contains("BUFFER_UNREADABLE"), "{stderr}");
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(json.to_string().contains("\"constraints\""), "{json}");

    let collider = MESH_WITHOUT_BIN
        .replace("{USED}", r#", "KHR_physics_rigid_bodies""#)
        .replace(
            "{COLLIDER}",
            r#", "extensions": {"KHR_physics_rigid_bodies": {"collider": {"geometry": {"mesh": 0}}}}"#,
        );
    let file = write("collider-without-bin.gltf", &collider);
    let out = run(&file, &["--profile", "khr-2026"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(code(&out), 1, "{stderr}");
    assert!(stderr.contains("ACCESSOR_DATA_UNAVAILABLE"), "{stderr}");
}
