//! The corpus writer: hand-written cases plus `count` generated ones for a seed, each written
//! as `<id>.gltf` (or `.glb`, plus sibling `.bin` files) and `<id>.expect.json`, and
//! `manifest.json` + `manifest.csv` over all of them. The same seed and generator version give
//! byte-identical output: canonical JSON, sorted manifests, no timestamps.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use reference::case::{CaseEntry, CatalogueId};
use reference::profile::Profile;
use serde::Serialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::canonical::{self, Tape};
use crate::case::{Case, Payload, Tier};
use crate::features;
use crate::handwritten;
use crate::label;
use crate::mutate::{self, Mutator};
use crate::sample;
use crate::scenario;
use crate::strategy::Rendered;

/// Every fourth generated case is invalid (one defect); the rest are valid.
pub const INVALID_EVERY: usize = 4;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub seed: u64,
    pub count: usize,
    /// Profiles to generate (when empty: [`V1_PROFILES`], so the default plan still gives
    /// corpus/v1; later profiles are named with `--profile`).
    pub profiles: Vec<Profile>,
    /// Include the hand-written cases.
    pub handwritten: bool,
}

impl Plan {
    fn profiles(&self) -> Vec<Profile> {
        if self.profiles.is_empty() {
            V1_PROFILES.to_vec()
        } else {
            self.profiles.clone()
        }
    }
}

/// The profiles of corpus/v1, generated when a plan names none.
pub const V1_PROFILES: [Profile; 3] = [
    Profile::Khr2024Draft,
    Profile::Omi2023,
    Profile::VrmcConstraintsDraft,
];

/// The plan of the released `corpus/v1` (the legacy profiles; it never changes).
pub fn v1() -> Plan {
    Plan {
        seed: 1,
        count: 1490,
        profiles: V1_PROFILES.to_vec(),
        handwritten: true,
    }
}

/// The plan of `corpus/v2`, the living corpus of every profile (300 generated cases each).
pub fn v2() -> Plan {
    Plan {
        seed: 2,
        count: 2100,
        profiles: Profile::ALL.to_vec(),
        handwritten: true,
    }
}

fn profile_tier(profile: Profile) -> Tier {
    match profile {
        // The VRM draft leaves the math open: everything depends on the D-VRM decisions.
        Profile::VrmcConstraintsDraft => Tier::Informative,
        _ => Tier::Required,
    }
}

/// The spec section a feature area comes from.
fn spec_of(profile: Profile) -> &'static str {
    match profile {
        Profile::Khr2024Draft => "seed 002 KHR_physics_rigid_bodies (+ KHR_collision_shapes)",
        Profile::Khr2025 => {
            "KHR_physics_rigid_bodies (glTF PR #2424) + KHR_implicit_shapes (PR #2370)"
        }
        Profile::Omi2023 => "seeds 000 OMI_physics_joint, 001 OMI_physics_body, 004 OMI_collider",
        Profile::VrmcConstraintsDraft => "seed 003 VRMC_constraints-1.0",
        Profile::Omi2024 => {
            "OMI_physics_body / _shape / _joint at omigroup/gltf-extensions 807ce4b (November 2024)"
        }
        Profile::Omi2025 => {
            "OMI_physics_body / _shape / _joint at omigroup/gltf-extensions df53422 (current main)"
        }
        Profile::VrmcNodeConstraint10 => "VRMC_node_constraint 1.0 (vrm-specification 3942748)",
    }
}

/// A valid generated case of `profile` for `(seed, index)`, carrying a tag that starts with
/// `wanted` when one can be found.
pub fn valid_case(profile: Profile, seed: u64, index: u64, id: &str, wanted: Option<&str>) -> Case {
    let stem = id.rsplit('/').next().unwrap_or(id);
    let (_, r) = sample::scene(profile, seed, index, stem, wanted);
    rendered_case(profile, seed, id, wanted, r)
}

/// The valid case `id` of a scene of `profile` drawn from `seed` and rendered as `r`
/// (`wanted`: the feature tag it was drawn for, which names its area).
pub fn rendered_case(
    profile: Profile,
    seed: u64,
    id: &str,
    wanted: Option<&str>,
    r: Rendered,
) -> Case {
    let area = wanted.map_or("scene", features::area).to_owned();
    Case {
        id: id.to_owned(),
        profile: Some(profile),
        area,
        description: format!("Generated valid {} scene: {}.", profile.id(), r.summary),
        spec: spec_of(profile).to_owned(),
        tier: profile_tier(profile),
        features: r.tags,
        decisions: r.decisions,
        payload: Payload::Json(r.built.json),
        siblings: r.built.siblings,
        expected: r.expected,
        poses: r.poses,
        seed: Some(seed),
        scenario: None,
    }
}

/// An invalid case: a valid base of the mutator's profile with its one defect.
pub fn invalid_case(m: &Mutator, seed: u64, index: u64, id: &str) -> Option<Case> {
    for retry in 0..16u64 {
        let base = valid_case(m.profile, seed, index + retry * 1_000_003, id, m.needs);
        // One defect on a base that draws no issue (khr-2025's zero mass and zero scale do).
        if !base.expected.is_empty() {
            continue;
        }
        if let Some(mut case) = m.mutate(&base) {
            case.tier = m.code.tier();
            return Some(case);
        }
    }
    None
}

/// The generated cases of a plan, in index order.
pub fn generated(plan: &Plan) -> Vec<Case> {
    let profiles = plan.profiles();
    let mutators: Vec<Mutator> = mutate::all()
        .into_iter()
        .filter(|m| profiles.contains(&m.profile))
        .collect();
    let universes: Vec<Vec<String>> = profiles
        .iter()
        .map(|p| features::universe(*p).into_iter().collect())
        .collect();
    let mut cases = Vec::with_capacity(plan.count);
    let (mut valid_n, mut invalid_n) = (0usize, 0usize);
    for i in 0..plan.count {
        let index = i as u64;
        if i % INVALID_EVERY == INVALID_EVERY - 1 && !mutators.is_empty() {
            let m = &mutators[invalid_n % mutators.len()];
            invalid_n += 1;
            let id = format!("{}/gen/invalid/{i:05}", m.profile.family());
            if let Some(c) = invalid_case(m, plan.seed, index, &id) {
                cases.push(c);
                continue;
            }
        }
        let p = valid_n % profiles.len();
        let universe = &universes[p];
        let wanted = &universe[(valid_n / profiles.len()) % universe.len()];
        valid_n += 1;
        let id = format!(
            "{}/gen/{}/{i:05}",
            profiles[p].family(),
            features::area(wanted)
        );
        cases.push(valid_case(profiles[p], plan.seed, index, &id, Some(wanted)));
    }
    cases
}

/// Every case of a plan: hand-written first, then generated.
pub fn cases(plan: &Plan) -> Vec<Case> {
    let mut v = if plan.handwritten {
        handwritten::all()
            .into_iter()
            .filter(|c| c.profile.is_none_or(|p| plan.profiles().contains(&p)))
            .collect()
    } else {
        Vec::new()
    };
    v.extend(generated(plan));
    v
}

/// Record `key` and `value` (floats rounded to `round` decimals when set) as a member of the
/// open object on `tape`; a value that cannot be serialised is `null`.
fn member<T: Serialize + ?Sized>(tape: &mut Tape, key: &str, value: &T, round: Option<i32>) {
    tape.member(key);
    if tape.push(value, round).is_err() {
        tape.push_value(&Value::Null);
    }
}

/// The canonical text of the `<id>.expect.json` document of a case, given the reference's
/// reading of it, recorded on `tape` (cleared first) from the typed values: the case's
/// metadata and expected issues, the expected interpretation at rest and the pose outputs
/// (numbers rounded to 6 decimals: 1 µm, 1 µrad), the tolerances and the dynamics scenario.
pub fn expect_text(case: &Case, reading: &reference::Reading, tape: &mut Tape) -> String {
    record_expect(case, reading, tape);
    tape.to_text()
}

/// Record the `<id>.expect.json` document of [`expect_text`] on `tape` (cleared first).
fn record_expect(case: &Case, reading: &reference::Reading, tape: &mut Tape) {
    // The expectation at rest is computed once: the interpretation, the tolerances and the
    // scenario all derive from it.
    let evaluated = label::evaluate(reading);
    let expectation = evaluated.as_ref().and_then(|r| r.as_ref().ok());
    tape.clear();
    let doc = tape.begin_object();
    member(tape, "id", &case.id, None);
    member(tape, "profile", &case.profile.map(|p| p.id()), None);
    member(tape, "area", &case.area, None);
    member(tape, "tier", &case.tier, None);
    member(tape, "valid", &case.valid(), None);
    member(tape, "description", &case.description, None);
    member(tape, "spec", &case.spec, None);
    member(tape, "features", &case.features, None);
    let decisions: Vec<&str> = case.decisions.iter().map(|d| d.id()).collect();
    member(tape, "decisions", &decisions, None);
    member(tape, "seed", &case.seed, None);
    let generator = format!("physics-cts-generator {}", crate::VERSION);
    member(tape, "generator", &generator, None);
    member(tape, "issues", &case.expected, None);
    match evaluated.as_ref() {
        Some(Ok(e)) => member(tape, "interpretation", e, Some(6)),
        other => member(
            tape,
            "interpretation",
            &label::interpretation_of(other),
            None,
        ),
    }
    member(
        tape,
        "poses",
        &label::pose_outputs_of(case, reading),
        Some(6),
    );
    member(tape, "tolerances", &scenario::tolerances(expectation), None);
    match &case.scenario {
        Some(s) => member(tape, "scenario", s, None),
        None => member(tape, "scenario", &scenario::scenario(expectation), None),
    }
    tape.end_object(doc);
}

/// What the corpus writes for one case besides its main file and siblings.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded<'e> {
    /// The canonical text of `<id>.expect.json`, UTF-8 (in the encoder's buffer, reused for
    /// the next case: a fresh buffer of 50 to 200 KB per case cost page faults; bytes, since
    /// checking the text as UTF-8 again cost about 1% of a case).
    pub expect: &'e [u8],
    /// SHA-256 of the main file, lowercase hex (the manifest's `sha256`).
    pub sha256: String,
    /// How the reference's reading differs from the case's expected issues, if it does.
    pub disagreement: Option<String>,
}

/// Encodes cases one after another ([`Encoder::encode`]), reusing its buffers.
#[derive(Debug, Default)]
pub struct Encoder {
    tape: Tape,
    /// Folders this encoder has made: a case's folder is made once, not once per case.
    folders: HashSet<PathBuf>,
    /// The text of the last case's `expect.json`.
    expect: Vec<u8>,
}

impl Encoder {
    /// Write the case's main file and siblings into `folder`, read them back with the
    /// reference, and make its expectation text: all the work of one case in [`write`] but
    /// the `.expect.json` file write and the manifest row.
    pub fn encode(&mut self, case: &Case, folder: &Path) -> std::io::Result<Encoded<'_>> {
        let bytes = case.bytes_with(&mut self.tape);
        if !self.folders.contains(folder) {
            std::fs::create_dir_all(folder)?;
            self.folders.insert(folder.to_path_buf());
        }
        let reading = label::read_written_in(case, &bytes, folder)?;
        record_expect(case, &reading, &mut self.tape);
        self.expect.clear();
        self.tape.write_to(&mut self.expect);
        Ok(Encoded {
            disagreement: label::disagreement(case, &reading),
            expect: &self.expect,
            sha256: hex(&Sha256::digest(&bytes)),
        })
    }
}

/// What writing a corpus found.
#[derive(Debug, Default)]
pub struct Report {
    pub written: usize,
    /// Cases the reference reads differently from what they expect (a bug somewhere).
    pub disagreements: Vec<String>,
}

/// Write `cases` into `dir` with their expectations and the manifests. `progress` is called
/// after each case with (done, total).
pub fn write(
    dir: &Path,
    seed: u64,
    cases: &[Case],
    progress: &mut dyn FnMut(usize, usize),
) -> std::io::Result<Report> {
    let mut report = Report::default();
    let mut rows = Vec::with_capacity(cases.len());
    let mut seen = BTreeSet::new();
    let mut encoder = Encoder::default();
    for (n, case) in cases.iter().enumerate() {
        if !seen.insert(case.id.clone()) {
            return Err(std::io::Error::other(format!(
                "duplicate case id {}",
                case.id
            )));
        }
        let folder = dir.join(case.folder());
        let encoded = encoder.encode(case, &folder)?;
        if let Some(d) = encoded.disagreement {
            report.disagreements.push(d);
        }
        std::fs::write(
            folder.join(format!("{}.expect.json", case.stem())),
            encoded.expect,
        )?;
        rows.push(CaseEntry {
            id: case.id.clone(),
            file: format!("{}/{}", case.folder(), case.file_name()),
            profile: case.profile.map(CatalogueId::Known),
            area: case.area.clone(),
            features: case.features.iter().cloned().collect(),
            tier: case.tier,
            valid: case.valid(),
            expected_codes: case
                .expected_codes()
                .into_iter()
                .map(CatalogueId::Known)
                .collect(),
            seed: case.seed,
            sha256: encoded.sha256,
        });
        report.written += 1;
        progress(n + 1, cases.len());
    }
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    let manifest = json!({
        "generator": {"name": "physics-cts-generator", "version": crate::VERSION},
        "seed": seed,
        "count": rows.len(),
        "cases": rows,
    });
    std::fs::write(dir.join("manifest.json"), canonical::to_string(&manifest))?;
    let mut csv = csv::WriterBuilder::new().from_writer(Vec::new());
    csv.write_record([
        "id",
        "profile",
        "area",
        "features",
        "tier",
        "valid",
        "expected_codes",
        "seed",
        "sha256",
    ])
    .map_err(std::io::Error::other)?;
    for r in &rows {
        let codes: Vec<&str> = r.expected_codes.iter().map(CatalogueId::id).collect();
        csv.write_record([
            r.id.as_str(),
            r.profile_id(),
            &r.area,
            &r.features.join(" "),
            r.tier.as_str(),
            if r.valid { "true" } else { "false" },
            &codes.join(" "),
            &r.seed.map_or_else(String::new, |s| s.to_string()),
            &r.sha256,
        ])
        .map_err(std::io::Error::other)?;
    }
    let bytes = csv
        .into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    std::fs::write(dir.join("manifest.csv"), bytes)?;
    Ok(report)
}

fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(char::from(DIGITS[usize::from(b >> 4)]));
        s.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    s
}

#[cfg(test)]
mod tests {
    use reference::profile::Profile;

    use super::*;

    /// The first implementation of the document (a `serde_json::Value` built with `json!`,
    /// floats rounded in the value, pose outputs from the poses' text; since session 9 the
    /// limits at a pose from the whole interpretation at that pose), kept as the oracle of
    /// [`expect_text`].
    mod oracle {
        use reference::Reading;
        use reference::constraints;
        use reference::issue::Severity;
        use reference::math::{array3, xyzw_positive_w};
        use reference::poses::Poses;
        use reference::scene::Scene;
        use serde_json::{Value, json};

        use crate::case::Case;
        use crate::label::{self, round_floats_in_place};
        use crate::scenario;

        pub fn expect_json(case: &Case, reading: &Reading) -> Value {
            let evaluated = label::evaluate(reading);
            let expectation = evaluated.as_ref().and_then(|r| r.as_ref().ok());
            json!({
                "id": case.id,
                "profile": case.profile.map(|p| p.id()),
                "area": case.area,
                "tier": case.tier.as_str(),
                "valid": case.valid(),
                "description": case.description,
                "spec": case.spec,
                "features": case.features,
                "decisions": case.decisions.iter().map(|d| d.id()).collect::<Vec<_>>(),
                "seed": case.seed,
                "generator": format!("physics-cts-generator {}", crate::VERSION),
                "issues": case.expected.iter().map(|e| json!({
                    "code": e.code.id(), "pointer": e.pointer, "severity": e.severity.as_str()
                })).collect::<Vec<_>>(),
                "interpretation": label::interpretation_of(evaluated.as_ref()),
                "poses": pose_outputs(case, reading),
                "tolerances": scenario::tolerances(expectation),
                "scenario": case.scenario.clone().or_else(|| scenario::scenario(expectation)),
            })
        }

        fn pose_outputs(case: &Case, reading: &Reading) -> Value {
            let has_errors = reading.issues.iter().any(|i| i.severity == Severity::Error);
            let outputs: Vec<Value> = case
                .poses
                .iter()
                .map(|p| {
                    let mut entry = json!({"name": p.name, "poses": p.poses});
                    if let Some(scene) = reading.scene.as_ref().filter(|_| !has_errors)
                        && let Ok(poses) = Poses::from_json(&p.poses.to_string(), scene.nodes.len())
                    {
                        // The limits of the interpretation at the pose: the same frame rule
                        // and metrics as `at_pose` (`joints::frames`), in a world of every
                        // node (`World::new`) instead of `World::of_nodes`; the rule and the
                        // metrics themselves are checked by hand in `reference/tests/expect.rs`.
                        if !scene.joints.is_empty()
                            && let Ok(e) = reference::expect::evaluate(scene, &poses)
                        {
                            entry["limits"] = joint_limits(&e);
                        }
                        if !scene.constraints.is_empty() {
                            entry["constraints"] = constraint_outputs(scene, &poses);
                        }
                    }
                    round_floats_in_place(&mut entry, 6);
                    entry
                })
                .collect();
            Value::Array(outputs)
        }

        fn joint_limits(e: &reference::expect::Expectation) -> Value {
            let limit = |l: &reference::expect::joints::LimitExpect| {
                json!({
                    "axes": l.axes, "index": l.index, "kind": l.kind, "max": l.max,
                    "metric": l.metric, "min": l.min, "violation": l.violation
                })
            };
            Value::Array(
                e.joints
                    .iter()
                    .enumerate()
                    .map(|(j, joint)| {
                        json!({
                            "joint": j, "node": joint.node,
                            "limits": joint.limits.iter().map(limit).collect::<Vec<_>>()
                        })
                    })
                    .collect(),
            )
        }

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
    }

    /// The document written from typed values is, byte for byte, the canonical text of the
    /// `Value` document: for generated scenes of every profile (small and large), one-defect
    /// cases, and every hand-written case (dynamics scenarios, VRM constraint errors, GLB and
    /// broken payloads), with one tape reused across all of them.
    #[test]
    fn typed_expectations_give_the_value_document_bytes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut cases = handwritten::all();
        for (k, profile) in Profile::ALL.into_iter().enumerate() {
            for index in 0..10u64 {
                cases.push(valid_case(
                    profile,
                    5,
                    index,
                    &format!("t/{k}/v{index}"),
                    None,
                ));
            }
            let large = crate::strategy::large_scene(profile);
            for index in 0..6u64 {
                if let Some(scene) = sample::sample(&large, 5, index, 0) {
                    let id = format!("t/{k}/l{index}");
                    cases.push(rendered_case(profile, 5, &id, None, scene.render("l")));
                }
            }
        }
        for (k, m) in mutate::all().into_iter().step_by(5).enumerate() {
            if let Some(c) = invalid_case(&m, 5, k as u64, &format!("t/m/i{k}")) {
                cases.push(c);
            }
        }
        let mut tape = Tape::new();
        let (mut interpreted, mut posed) = (0, 0);
        for case in &cases {
            let folder = dir.path().join(case.folder());
            let reading = label::read(case, &folder).expect("written");
            let want = canonical::to_string(&oracle::expect_json(case, &reading));
            let got = expect_text(case, &reading, &mut tape);
            assert_eq!(got, want, "{}", case.id);
            interpreted += usize::from(!want.contains("\"interpretation\": null"));
            posed += usize::from(!want.contains("\n  \"poses\": []"));
        }
        assert!(
            interpreted >= 60,
            "{interpreted} cases with an interpretation"
        );
        assert!(posed >= 10, "{posed} cases with pose outputs");
    }

    /// Encoding with one encoder for many cases gives what a fresh encoder gives.
    #[test]
    fn a_reused_encoder_encodes_as_a_fresh_one() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut encoder = Encoder::default();
        for index in 0..8u64 {
            let profile = Profile::ALL[index as usize % Profile::ALL.len()];
            let case = valid_case(profile, 9, index, &format!("t/e/{index}"), None);
            let folder = dir.path().join(case.folder());
            let reused = encoder.encode(&case, &folder).expect("encoded");
            let mut fresh = Encoder::default();
            assert_eq!(
                reused,
                fresh.encode(&case, &folder).expect("encoded"),
                "{}",
                case.id
            );
            assert!(reused.expect.ends_with(b"}\n"));
        }
    }
}
