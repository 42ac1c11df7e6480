//! What the reference says about a case: its issues, its expected interpretation, and limit
//! metrics and constraint outputs at the case's poses. The corpus writer records these, so
//! a case never disagrees with the reference by construction.

use std::path::Path;

use reference::Reading;
use reference::expect::at_pose::{self, ConstraintOutputs, JointLimits};
use reference::expect::{self, ConstraintError, Expectation};
use reference::issue::Severity;
use reference::poses::Poses;
use serde::Serialize;
use serde_json::{Value, json};

use crate::case::{Case, ExpectedIssue, Payload};
use crate::plan::Edition;

/// Write the case's files into `dir` and read the main file with the reference.
pub fn read(case: &Case, dir: &Path) -> std::io::Result<Reading> {
    read_written(case, &case.bytes(), dir)
}

/// [`read`] for a case whose main file bytes (`case.bytes()`) are already at hand: they are
/// written with the siblings, and read as `reference::read_path` reads the file (relative
/// URIs against `dir`; too large a file goes through the path). A JSON payload is read from
/// the value its canonical text was written from, which parses back to that same value
/// (`canonical` tests), so the text is not parsed again.
pub fn read_written(case: &Case, bytes: &[u8], dir: &Path) -> std::io::Result<Reading> {
    std::fs::create_dir_all(dir)?;
    read_written_in(case, bytes, dir)
}

/// [`read_written`] into a folder that exists already (no `create_dir_all`, two system calls
/// fewer per case).
pub fn read_written_in(case: &Case, bytes: &[u8], dir: &Path) -> std::io::Result<Reading> {
    let path = dir.join(case.file_name());
    std::fs::write(&path, bytes)?;
    for (name, sibling) in &case.siblings {
        std::fs::write(dir.join(name), sibling)?;
    }
    let read = |forced| -> std::io::Result<Reading> {
        if u64::try_from(bytes.len()).unwrap_or(u64::MAX) > reference::document::MAX_FILE_SIZE {
            return reference::read_path(&path, forced).map_err(std::io::Error::other);
        }
        Ok(match &case.payload {
            Payload::Json(v) => reference::read_tree(v, Some(dir), forced),
            Payload::Bytes { .. } => reference::read_bytes(bytes, Some(dir), forced),
        })
    };
    under_case_profile(case.profile, read)
}

/// [`under_case_profile`] of a JSON document read in memory (no base folder).
pub fn read_case_tree(json: &Value, profile: Option<reference::profile::Profile>) -> Reading {
    let read = |forced| Ok::<_, std::convert::Infallible>(reference::read_tree(json, None, forced));
    match under_case_profile(profile, read) {
        Ok(r) => r,
        Err(never) => match never {},
    }
}

/// The reading of a hand-written or scripted case's JSON document, checked to be clean (no
/// issue at all) under the case's own profile: where every scene module's tests start.
#[cfg(test)]
pub(crate) fn clean_reading(c: &Case) -> Reading {
    let Payload::Json(json) = &c.payload else {
        panic!("{}: not JSON", c.id);
    };
    let r = read_case_tree(json, c.profile);
    assert_eq!(r.profile, c.profile, "{}", c.id);
    assert!(
        r.issues.iter().all(|i| i.severity != Severity::Error),
        "{}: {:?}",
        c.id,
        r.issues
    );
    assert!(r.issues.is_empty(), "{}: {:?}", c.id, r.issues);
    r
}

/// The reading of a case's document by `read` (given the profile to force): as detected, or,
/// when nothing dates the document within its family and the detected revision is not the
/// case's, under the case's `profile`, as the manifest tells implementations to
/// [D-KHR-REVISION]: an undated `khr-2025` case reads alike as `khr-2026`, and a legacy draft
/// case keeps the draft's rules.
pub fn under_case_profile<E>(
    profile: Option<reference::profile::Profile>,
    read: impl Fn(Option<reference::profile::Profile>) -> Result<Reading, E>,
) -> Result<Reading, E> {
    let detected = read(None)?;
    if !detected.dated && detected.profile != profile && profile.is_some() {
        return read(profile);
    }
    Ok(detected)
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

/// The reference's expected interpretation at rest of a readable case without errors
/// (`None` otherwise); `Err` when the VRM constraints cannot be evaluated.
pub fn evaluate(reading: &Reading) -> Option<Result<Expectation, ConstraintError>> {
    if has_errors(reading) {
        return None;
    }
    Some(expect::evaluate(reading.scene.as_ref()?, &Poses::default()))
}

/// The reference's expected interpretation at rest (`physics-cts eval`) of a readable case
/// without errors (`null` otherwise); numbers rounded to 6 decimals (1 µm, 1 µrad).
pub fn interpretation(reading: &Reading) -> Value {
    interpretation_of(evaluate(reading).as_ref())
}

/// [`interpretation`] of an evaluation already made by [`evaluate`].
pub fn interpretation_of(evaluated: Option<&Result<Expectation, ConstraintError>>) -> Value {
    match evaluated {
        None => Value::Null,
        Some(Ok(e)) => serde_json::to_value(e).map_or(Value::Null, |mut v| {
            round_floats_in_place(&mut v, 6);
            v
        }),
        Some(Err(e)) => json!({"error": e.to_string()}),
    }
}

/// Limit metrics and constraint outputs at one of a case's poses ([`pose_outputs`] rounds
/// its numbers to 6 decimals).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoseOutput<'a> {
    pub name: &'a str,
    /// The pose set as the case gives it.
    pub poses: &'a Value,
    /// Every joint's limit metrics (scenes with joints, read without errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits: Option<Vec<JointLimits>>,
    /// Outputs of the VRM constraints (scenes with constraints, read without errors).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraints: Option<ConstraintOutputs>,
}

/// Limit metrics and constraint outputs of the case's poses (`[]` for cases without poses).
pub fn pose_outputs_of<'a>(case: &'a Case, reading: &Reading) -> Vec<PoseOutput<'a>> {
    let scene = reading.scene.as_ref().filter(|_| !has_errors(reading));
    case.poses
        .iter()
        .map(|p| {
            let mut entry = PoseOutput {
                name: &p.name,
                poses: &p.poses,
                limits: None,
                constraints: None,
            };
            if let Some(scene) = scene
                && let Ok(poses) = Poses::from_value(&p.poses, scene.nodes.len())
            {
                // The world at the pose is undefined when the VRM constraints cannot be
                // evaluated: then no limits (the constraints entry says why).
                if !scene.joints.is_empty() {
                    entry.limits = at_pose::joint_limits(scene, &poses).ok();
                }
                if !scene.constraints.is_empty() {
                    let locals = poses.locals(scene);
                    entry.constraints = Some(at_pose::constraint_outputs(scene, &locals));
                }
            }
            entry
        })
        .collect()
}

/// [`pose_outputs_of`] as JSON, numbers rounded to 6 decimals (1 µm, 1 µrad) so the text does
/// not depend on the last bits of libm. Under [`Edition::V2`] the outputs are those of the
/// poses as written (rounded first): an aim constraint turns a pose's rounding error of 5e-7
/// into an output error above the 1e-5 a check recommends.
pub fn pose_outputs(case: &Case, reading: &Reading) -> Value {
    let written;
    let case = if case.edition == Edition::V2 {
        let mut c = case.clone();
        c.poses
            .iter_mut()
            .for_each(|p| round_floats_in_place(&mut p.poses, 6));
        written = c;
        &written
    } else {
        case
    };
    let mut v = serde_json::to_value(pose_outputs_of(case, reading)).unwrap_or(Value::Null);
    round_floats_in_place(&mut v, 6);
    v
}

fn has_errors(reading: &Reading) -> bool {
    reading.issues.iter().any(|i| i.severity == Severity::Error)
}

/// Round every float of `value` to `decimals` places, in place (integers stay as they are).
pub fn round_floats_in_place(value: &mut Value, decimals: i32) {
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(x) = n.as_f64() {
                *value = json!(crate::canonical::round(x, decimals));
            }
        }
        Value::Array(a) => a
            .iter_mut()
            .for_each(|v| round_floats_in_place(v, decimals)),
        Value::Object(o) => o
            .values_mut()
            .for_each(|v| round_floats_in_place(v, decimals)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::Matrix4;
    use reference::profile::Profile;
    use reference::scene::NodeId;

    use super::*;
    use crate::generate;

    /// 16 generated valid cases of every profile from `seed`, with the reference's reading.
    fn generated_readings(seed: u64, id: &str) -> Vec<(Case, Reading)> {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut out = Vec::new();
        for profile in Profile::ALL {
            for index in 0..16u64 {
                let case = generate::valid_case(profile, seed, index, id, None);
                let reading = read(&case, dir.path()).expect("written");
                out.push((case, reading));
            }
        }
        out
    }

    /// `Scene::world_of_nodes` (the walk behind `world_from_locals`, and so behind the world at
    /// a pose) gives the wanted nodes and their
    /// ancestors, and each is the product of its chain's local matrices from the root down
    /// (worked out here apart from the walk), bit for bit, at every pose of generated scenes of
    /// every profile; the wanted nodes in increasing order, and reversed (then a wanted node
    /// may already be computed as another's ancestor).
    #[test]
    fn world_of_nodes_is_the_product_of_the_chain() {
        let mut compared = 0;
        for (case, reading) in generated_readings(7, "t/worlds") {
            let Some(scene) = reading.scene.as_ref() else {
                continue;
            };
            for p in &case.poses {
                let poses = Poses::from_value(&p.poses, scene.nodes.len()).expect("poses");
                let locals = poses.locals(scene);
                let chain_product = |n: NodeId| {
                    let mut chain: Vec<NodeId> = scene.ancestors(n).collect();
                    chain.reverse();
                    chain.push(n);
                    chain
                        .iter()
                        .fold(Matrix4::identity(), |m, &c| m * locals[c].matrix())
                };
                let bits = |m: &Matrix4<f64>| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                let mut wanted: Vec<NodeId> = (0..scene.nodes.len()).step_by(3).collect();
                for _ in 0..2 {
                    let some = scene.world_of_nodes(|n| locals[n].matrix(), wanted.iter().copied());
                    for (n, w) in some.iter().enumerate() {
                        let needed = wanted.iter().any(|&x| x == n || scene.is_descendant(x, n));
                        assert_eq!(w.is_some(), needed, "{} node {n}", case.id);
                        if let Some(w) = w {
                            assert_eq!(bits(w), bits(&chain_product(n)), "{} node {n}", case.id);
                            compared += 1;
                        }
                    }
                    wanted.reverse();
                }
            }
        }
        assert!(compared > 200, "{compared} matrices compared");
    }

    /// Reading a case from the value its text was written from is reading the text: same
    /// issues, same interpretation, same pose outputs, for scenes of every profile (with
    /// data-URI and sibling buffers) and for a one-defect case of each profile.
    #[test]
    fn reading_the_value_is_reading_the_text() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut cases = Vec::new();
        for (k, profile) in Profile::ALL.into_iter().enumerate() {
            for index in 0..12u64 {
                let id = format!("t/{k}/c{index}");
                cases.push(generate::valid_case(profile, 3, index, &id, None));
            }
        }
        for (k, m) in crate::mutate::all().into_iter().step_by(7).enumerate() {
            if let Some(c) = generate::invalid_case(&m, 3, k as u64, &format!("t/m/c{k}")) {
                cases.push(c);
            }
        }
        let mut json_cases = 0;
        for case in &cases {
            let folder = dir.path().join(case.folder());
            let bytes = case.bytes();
            let fast = read_written(case, &bytes, &folder).expect("written");
            let slow = under_case_profile(case.profile, |forced| {
                Ok::<_, ()>(reference::read_bytes(&bytes, Some(&folder), forced))
            })
            .expect("a reading");
            json_cases += usize::from(case.json().is_some());
            assert_eq!(fast.issues, slow.issues, "{}", case.id);
            assert_eq!(fast.profile, slow.profile, "{}", case.id);
            assert_eq!(interpretation(&fast), interpretation(&slow), "{}", case.id);
            assert_eq!(
                pose_outputs(case, &fast),
                pose_outputs(case, &slow),
                "{}",
                case.id
            );
        }
        assert!(json_cases >= 36, "{json_cases} JSON cases");
    }
}
