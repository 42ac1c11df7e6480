//! What the reference says about a case: its issues, its expected interpretation, and limit
//! metrics and constraint outputs at the case's poses. The corpus writer records these, so
//! a case never disagrees with the reference by construction.

use std::path::Path;

use nalgebra::Matrix4;
use reference::Reading;
use reference::constraints;
use reference::issue::Severity;
use reference::math::{array3, pose_of, xyzw_positive_w};
use reference::metrics;
use reference::poses::Poses;
use reference::scene::Scene;
use serde_json::{Value, json};

use crate::case::{Case, ExpectedIssue};

/// Write the case's files into `dir` and read the main file with the reference.
pub fn read(case: &Case, dir: &Path) -> std::io::Result<Reading> {
    case.write_files(dir)?;
    reference::read_path(&dir.join(case.file_name()), None).map_err(std::io::Error::other)
}

/// The reference's issues as (code, pointer), sorted.
pub fn issues(reading: &Reading) -> Vec<ExpectedIssue> {
    let mut v: Vec<ExpectedIssue> = reading
        .issues
        .iter()
        .map(|i| ExpectedIssue::new(i.code, i.pointer.clone()))
        .collect();
    v.sort();
    v
}

/// How the reference's reading differs from what the case expects (empty: they agree).
pub fn disagreement(case: &Case, reading: &Reading) -> Option<String> {
    let mut want = case.expected.clone();
    want.sort();
    let got = issues(reading);
    let profile_ok = reading.profile == case.profile;
    if want == got && profile_ok {
        return None;
    }
    let show = |v: &[ExpectedIssue]| {
        v.iter()
            .map(|e| format!("{} at {:?}", e.code, e.pointer))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let messages: Vec<String> = reading
        .issues
        .iter()
        .map(|i| format!("{} {}: {}", i.severity, i.code, i.message))
        .collect();
    Some(format!(
        "{}: profile expected {:?} got {:?}; expected [{}], reference reported [{}]; messages: {:?}",
        case.id,
        case.profile.map(|p| p.id()),
        reading.profile.map(|p| p.id()),
        show(&want),
        show(&got),
        messages
    ))
}

/// The reference's expected interpretation at rest (`physics-cts eval`) of a readable case
/// without errors (`null` otherwise); numbers rounded to 6 decimals (1 µm, 1 µrad).
pub fn interpretation(reading: &Reading) -> Value {
    if reading.issues.iter().any(|i| i.severity == Severity::Error) {
        return Value::Null;
    }
    let Some(scene) = &reading.scene else {
        return Value::Null;
    };
    match reference::expect::evaluate(scene, &Poses::default()) {
        Ok(e) => serde_json::to_value(&e).map_or(Value::Null, |v| round_floats(&v, 6)),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// Limit metrics and constraint outputs of the case's poses (`[]` for cases without poses).
/// Numbers are rounded to 6 decimals (1 µm, 1 µrad) so the text does not depend on the last bits of libm.
pub fn pose_outputs(case: &Case, reading: &Reading) -> Value {
    let outputs: Vec<Value> = case
        .poses
        .iter()
        .map(|p| {
            let mut entry = json!({"name": p.name, "poses": p.poses});
            if let Some(scene) = reading.scene.as_ref().filter(|_| !has_errors(reading))
                && let Ok(poses) = Poses::from_json(&p.poses.to_string(), scene.nodes.len())
            {
                let locals: Vec<Matrix4<f64>> =
                    poses.locals(scene).iter().map(|t| t.matrix()).collect();
                let world = scene.world_from_locals(&locals);
                if !scene.joints.is_empty() {
                    entry["limits"] = joint_limits(scene, &world);
                }
                if !scene.constraints.is_empty() {
                    entry["constraints"] = constraint_outputs(scene, &poses);
                }
            }
            round_floats(&entry, 6)
        })
        .collect();
    Value::Array(outputs)
}

fn has_errors(reading: &Reading) -> bool {
    reading.issues.iter().any(|i| i.severity == Severity::Error)
}

/// Every joint's limit metrics at the given world matrices [D-METRICS].
fn joint_limits(scene: &Scene, world: &[Matrix4<f64>]) -> Value {
    let frame = |n: usize| world.get(n).map(pose_of);
    Value::Array(
        scene
            .joints
            .iter()
            .enumerate()
            .filter_map(|(j, joint)| {
                let (a, b) = (frame(joint.a.frame)?, frame(joint.b.frame)?);
                Some(json!({"joint": j, "node": joint.node, "limits": metrics::evaluate(&joint.limits, &a, &b)}))
            })
            .collect(),
    )
}

/// Local TRS of every constrained node after evaluating the VRM constraints at `poses`
/// ([D-VRM-*]); `{"error": ...}` when the reference cannot evaluate them.
fn constraint_outputs(scene: &Scene, poses: &Poses) -> Value {
    match constraints::evaluate(scene, &poses.locals(scene)) {
        Ok(out) => Value::Array(
            scene
                .constraints
                .iter()
                .filter_map(|c| {
                    let t = out.get(c.node)?;
                    Some(json!({
                        "node": c.node,
                        "translation": array3(&t.translation),
                        "rotation": xyzw_positive_w(&t.rotation),
                        "scale": array3(&t.scale),
                    }))
                })
                .collect(),
        ),
        Err(e) => json!({"error": e.to_string()}),
    }
}

/// `value` with every float rounded to `decimals` places.
pub fn round_floats(value: &Value, decimals: i32) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .map(|x| json!(crate::canonical::round(x, decimals)))
            .unwrap_or_else(|| value.clone()),
        Value::Array(a) => Value::Array(a.iter().map(|v| round_floats(v, decimals)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), round_floats(v, decimals)))
                .collect(),
        ),
        other => other.clone(),
    }
}
