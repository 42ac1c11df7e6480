//! One corpus case: a glTF document (or raw bytes), its sibling files, and what the reference
//! expects of it.

use std::collections::{BTreeMap, BTreeSet};

use reference::case::Scenario;
use reference::decision::Decision;
use reference::issue::{Code, Severity};
use reference::profile::Profile;
use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::canonical;
use crate::plan::Edition;

pub use reference::case::{ExpectedIssue, Tier};

/// The main file of a case.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    /// A `.gltf` JSON document (written canonically).
    Json(Value),
    /// Raw bytes: broken JSON (`.gltf`) or a GLB (`.glb`).
    Bytes {
        bytes: Vec<u8>,
        extension: &'static str,
    },
}

/// A named pose (local TRS overrides in the `POSES.json` format of `reference::poses`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PoseSet {
    pub name: String,
    /// `{"nodes": {"<index>": {"translation": [...], "rotation": [...]}}}`
    pub poses: Value,
}

impl PoseSet {
    /// The pose set `name` of `{"nodes": nodes}`.
    pub fn of_nodes(name: &str, nodes: Map<String, Value>) -> PoseSet {
        let mut poses = Map::new();
        poses.insert("nodes".into(), Value::Object(nodes));
        PoseSet {
            name: name.to_owned(),
            poses: Value::Object(poses),
        }
    }
}

/// A case of the corpus.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Stable path `family/area/name`, e.g. `khr/joint/limit-angular-1d/hinge-pm90`.
    pub id: String,
    /// The profile the document is read under (`None`: none applies, e.g. `PROFILE_NONE`).
    pub profile: Option<Profile>,
    /// Feature area (`shape`, `joint`, `invalid`...).
    pub area: String,
    pub description: String,
    /// Where the rule or feature is specified (seed file and section).
    pub spec: String,
    pub tier: Tier,
    pub features: BTreeSet<String>,
    pub decisions: BTreeSet<Decision>,
    pub payload: Payload,
    /// Files next to the main file (sibling `.bin` buffers), by file name.
    pub siblings: BTreeMap<String, Vec<u8>>,
    /// Every issue the reference must report, over all severities.
    pub expected: Vec<ExpectedIssue>,
    /// Poses at which limit metrics and constraint outputs are recorded.
    pub poses: Vec<PoseSet>,
    /// The seed a generated case came from; `None` for hand-written cases.
    pub seed: Option<u64>,
    /// An explicit dynamics scenario (hand-written dynamics scenes); `None`: the one
    /// `scenario::scenario` derives from the scene.
    pub scenario: Option<Scenario>,
    /// The rules the derived scenario follows.
    pub edition: Edition,
}

impl Case {
    /// A valid, required case of the living corpus, drawn from `seed` by a module that writes
    /// its scenes and their scenarios itself (the reach and blind scenes).
    #[allow(clippy::too_many_arguments)]
    pub fn scripted(
        p: Profile,
        seed: u64,
        id: String,
        area: &str,
        description: String,
        spec: &str,
        features: BTreeSet<String>,
        decisions: &[Decision],
        gltf: Value,
        scenario: Option<Scenario>,
    ) -> Case {
        Case {
            id,
            profile: Some(p),
            area: area.to_owned(),
            description,
            spec: spec.to_owned(),
            tier: Tier::Required,
            features,
            decisions: decisions.iter().copied().collect(),
            payload: Payload::Json(gltf),
            siblings: Default::default(),
            expected: Vec::new(),
            poses: Vec::new(),
            seed: Some(seed),
            scenario,
            edition: Edition::V2,
        }
    }

    /// The case with the named poses `poses`: each the nodes it moves (by index) and their
    /// local TRS.
    pub fn with_poses(mut self, poses: &[(&str, Value)]) -> Case {
        self.poses = poses
            .iter()
            .map(|(name, nodes)| PoseSet {
                name: (*name).to_owned(),
                poses: json!({ "nodes": nodes }),
            })
            .collect();
        self
    }

    /// Last segment of the id: the file stem.
    pub fn stem(&self) -> &str {
        self.id.rsplit('/').next().unwrap_or(&self.id)
    }

    /// Folder of the case relative to the corpus root.
    pub fn folder(&self) -> &str {
        self.id.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
    }

    pub fn extension(&self) -> &'static str {
        match &self.payload {
            Payload::Json(_) => "gltf",
            Payload::Bytes { extension, .. } => extension,
        }
    }

    /// The main file name, `<stem>.gltf` or `<stem>.glb`.
    pub fn file_name(&self) -> String {
        format!("{}.{}", self.stem(), self.extension())
    }

    /// The JSON document, when the payload is JSON.
    pub fn json(&self) -> Option<&Value> {
        match &self.payload {
            Payload::Json(v) => Some(v),
            Payload::Bytes { .. } => None,
        }
    }

    pub fn json_mut(&mut self) -> Option<&mut Value> {
        match &mut self.payload {
            Payload::Json(v) => Some(v),
            Payload::Bytes { .. } => None,
        }
    }

    /// Valid: the reference reports no error for it.
    pub fn valid(&self) -> bool {
        !self.expected.iter().any(|e| e.severity == Severity::Error)
    }

    /// Expected codes, sorted and deduplicated.
    pub fn expected_codes(&self) -> Vec<Code> {
        let set: BTreeSet<Code> = self
            .expected
            .iter()
            .filter_map(|e| e.code.known())
            .collect();
        set.into_iter().collect()
    }

    /// The bytes of the main file.
    pub fn bytes(&self) -> Vec<u8> {
        match &self.payload {
            Payload::Json(v) => canonical::to_string(v).into_bytes(),
            Payload::Bytes { bytes, .. } => bytes.clone(),
        }
    }

    /// The document as text, for failure messages (lossy for binary payloads).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes()).into_owned()
    }
}
