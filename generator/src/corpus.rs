//! The corpus writer: hand-written cases plus `count` generated ones for a seed, each written
//! as `<id>.gltf` (or `.glb`, plus sibling `.bin` files) and `<id>.expect.json`, and
//! `manifest.json` + `manifest.csv` over all of them. The same seed and generator version give
//! byte-identical output: canonical JSON, sorted manifests, no timestamps.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use reference::case::{CaseEntry, CatalogueId, ExpectFile};
use reference::profile::Profile;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::canonical;
use crate::case::Case;
use crate::edition;
use crate::features;
use crate::generate;
use crate::handwritten;
use crate::label;
use crate::mutate::{self, Mutator};
pub use crate::plan::{Edition, Plan};
use crate::reach;
use crate::scenario;

/// Every fourth generated case is invalid (one defect); the rest are valid.
pub const INVALID_EVERY: usize = 4;

/// The corpus wave a profile joined in: a revision added after a corpus was first generated
/// is generated after the others, so their cases keep their ids and bytes.
fn wave(profile: Profile) -> usize {
    match profile {
        Profile::Khr2026 => 1,
        _ => 0,
    }
}

/// The generated cases of a plan, in index order: the plan's profiles wave by wave
/// ([`wave`]), each wave taking a share of `count` in proportion to its number of profiles
/// (the last the rest), its ids continuing the index.
pub fn generated(plan: &Plan) -> Vec<Case> {
    let profiles = plan.profiles();
    let mut waves: Vec<Vec<Profile>> = Vec::new();
    for p in &profiles {
        let w = wave(*p);
        if waves.len() <= w {
            waves.resize(w + 1, Vec::new());
        }
        waves[w].push(*p);
    }
    waves.retain(|w| !w.is_empty());
    let mut cases = Vec::with_capacity(plan.count);
    let mut start = 0;
    for (k, wave) in waves.iter().enumerate() {
        let end = if k + 1 == waves.len() {
            plan.count
        } else {
            start + plan.count * wave.len() / profiles.len()
        };
        cases.extend(generated_wave(plan, wave, start..end));
        start = end;
    }
    cases
}

/// The generated cases of one wave of profiles, at indices `range`.
fn generated_wave(plan: &Plan, profiles: &[Profile], range: std::ops::Range<usize>) -> Vec<Case> {
    let mutators: Vec<Mutator> = mutate::all()
        .into_iter()
        .filter(|m| profiles.contains(&m.profile))
        .collect();
    let universes: Vec<Vec<String>> = profiles
        .iter()
        .map(|p| features::universe(*p).into_iter().collect())
        .collect();
    let mut cases = Vec::with_capacity(range.len());
    let (mut valid_n, mut invalid_n) = (0usize, 0usize);
    for i in range {
        let index = i as u64;
        if i % INVALID_EVERY == INVALID_EVERY - 1 && !mutators.is_empty() {
            let m = &mutate::for_edition(&mutators[invalid_n % mutators.len()], plan.edition);
            invalid_n += 1;
            let id = format!("{}/gen/invalid/{i:05}", m.profile.family());
            if let Some(c) = generate::invalid_case(m, plan.seed, index, &id) {
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
        cases.push(match plan.edition {
            Edition::V1 => generate::valid_case(profiles[p], plan.seed, index, &id, Some(wanted)),
            Edition::V2 => edition::valid_case(profiles[p], plan.seed, index, &id, wanted, valid_n),
        });
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
    if plan.edition == Edition::V2 {
        v.extend(reach::cases(plan.seed, &plan.profiles()));
        v.extend(crate::blind::cases(plan.seed, &plan.profiles()));
        v.iter_mut().for_each(edition::rescore_draft);
    }
    v
}

/// The canonical text of the `<id>.expect.json` document of a case ([`ExpectFile`]), given
/// the reference's reading of it. The interpretation and the pose outputs are written with
/// their numbers rounded to 6 decimals (1 µm, 1 µrad), and an interpretation the reference
/// could not evaluate as `{"error": ...}`.
pub fn expect_text(case: &Case, reading: &reference::Reading) -> String {
    // The expectation at rest is computed once: the interpretation, the tolerances and the
    // scenario all derive from it.
    let evaluated = label::evaluate(reading);
    let expectation = evaluated.as_ref().and_then(|r| r.as_ref().ok());
    let file: ExpectFile = ExpectFile {
        id: case.id.clone(),
        profile: case.profile.map(CatalogueId::Known),
        area: case.area.clone(),
        tier: Some(case.tier),
        valid: case.valid(),
        description: case.description.clone(),
        spec: case.spec.clone(),
        features: case.features.iter().cloned().collect(),
        decisions: case
            .decisions
            .iter()
            .copied()
            .map(CatalogueId::Known)
            .collect(),
        seed: case.seed,
        generator: format!("physics-cts-generator {}", crate::VERSION),
        issues: case.expected.clone(),
        // Both written below as values, their numbers rounded.
        interpretation: None,
        poses: Vec::new(),
        tolerances: scenario::tolerances(expectation),
        scenario: case
            .scenario
            .clone()
            .or_else(|| scenario::scenario(expectation, case.edition)),
    };
    // Every member is a string, a number, a typed value or a `Value`: serialising cannot fail.
    let mut doc = serde_json::to_value(&file).unwrap_or_default();
    doc["interpretation"] = label::interpretation_of(evaluated.as_ref());
    doc["poses"] = label::pose_outputs(case, reading);
    canonical::to_string(&doc)
}

/// What the corpus writes for one case besides its main file and siblings.
#[derive(Clone, Debug, PartialEq)]
pub struct Encoded {
    /// The canonical text of `<id>.expect.json`.
    pub expect: String,
    /// SHA-256 of the main file, lowercase hex (the manifest's `sha256`).
    pub sha256: String,
    /// How the reference's reading differs from the case's expected issues, if it does.
    pub disagreement: Option<String>,
}

/// Encodes cases one after another ([`Encoder::encode`]).
#[derive(Debug, Default)]
pub struct Encoder {
    /// Folders this encoder has made: a case's folder is made once, not once per case.
    folders: HashSet<PathBuf>,
}

impl Encoder {
    /// Write the case's main file and siblings into `folder`, read them back with the
    /// reference, and make its expectation text: all the work of one case in [`write`] but
    /// the `.expect.json` file write and the manifest row.
    pub fn encode(&mut self, case: &Case, folder: &Path) -> std::io::Result<Encoded> {
        let bytes = case.bytes();
        if !self.folders.contains(folder) {
            std::fs::create_dir_all(folder)?;
            self.folders.insert(folder.to_path_buf());
        }
        let reading = label::read_written_in(case, &bytes, folder)?;
        Ok(Encoded {
            expect: expect_text(case, &reading),
            disagreement: label::disagreement(case, &reading),
            sha256: format!("{:x}", Sha256::digest(&bytes)),
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
