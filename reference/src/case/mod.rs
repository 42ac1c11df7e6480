//! The case format: the files the generator writes for every corpus case (`manifest.json` and
//! `<id>.expect.json` with its dynamics scenario), defined once. The generator writes them
//! with these types and the harness reads them with the same types.
//!
//! Reading is lenient where a corpus written by a newer generator may say more: unknown keys
//! are ignored, optional parts may be missing, and catalogue ids this build does not know (an
//! issue code, a decision, a profile of a later release) are kept as written
//! ([`CatalogueId::Unknown`]) so they are still reported, instead of failing the case.

pub mod scenario;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::decision::Decision;
use crate::expect::Expectation;
use crate::expect::at_pose::{ConstraintOutputs, JointLimits};
use crate::issue::{Code, Severity};
use crate::profile::Profile;

pub use crate::tier::Tier;
pub use scenario::{CheckKind, DynamicsCheck, Scenario, Side, SimConfig, TimedAction, Tolerance};

/// A catalogue whose entries have stable string ids (issue codes, decisions, profiles).
pub trait Catalogued: Copy {
    fn catalogue_id(self) -> &'static str;
    fn from_catalogue_id(id: &str) -> Option<Self>;
}

impl Catalogued for Code {
    fn catalogue_id(self) -> &'static str {
        self.id()
    }
    fn from_catalogue_id(id: &str) -> Option<Self> {
        Code::from_id(id)
    }
}

impl Catalogued for Decision {
    fn catalogue_id(self) -> &'static str {
        self.id()
    }
    fn from_catalogue_id(id: &str) -> Option<Self> {
        Decision::from_id(id)
    }
}

impl Catalogued for Profile {
    fn catalogue_id(self) -> &'static str {
        self.id()
    }
    fn from_catalogue_id(id: &str) -> Option<Self> {
        id.parse().ok()
    }
}

/// A catalogue id as a case file gives it: an entry this build knows, or the text of one it
/// does not (written by a newer generator), kept so that reports show it as written.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CatalogueId<T> {
    Known(T),
    Unknown(String),
}

impl<T: Catalogued> CatalogueId<T> {
    /// The id as written.
    pub fn id(&self) -> &str {
        match self {
            CatalogueId::Known(t) => t.catalogue_id(),
            CatalogueId::Unknown(s) => s,
        }
    }

    pub fn known(&self) -> Option<T> {
        match self {
            CatalogueId::Known(t) => Some(*t),
            CatalogueId::Unknown(_) => None,
        }
    }

    fn of(id: &str) -> CatalogueId<T> {
        T::from_catalogue_id(id).map_or_else(|| CatalogueId::Unknown(id.to_owned()), Self::Known)
    }
}

impl<T: Catalogued> From<&str> for CatalogueId<T> {
    fn from(id: &str) -> Self {
        CatalogueId::of(id)
    }
}

impl<T> From<T> for CatalogueId<T> {
    fn from(t: T) -> Self {
        CatalogueId::Known(t)
    }
}

impl<T: Catalogued> fmt::Display for CatalogueId<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl<T: Catalogued> Serialize for CatalogueId<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de, T: Catalogued> Deserialize<'de> for CatalogueId<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(CatalogueId::of(&id))
    }
}

/// One issue the reference reports for a case: a catalogue code at a JSON pointer, with the
/// code's severity (written out so a reader that does not know the code still knows it).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ExpectedIssue {
    pub code: CatalogueId<Code>,
    #[serde(default)]
    pub pointer: String,
    pub severity: Severity,
}

impl ExpectedIssue {
    pub fn new(code: Code, pointer: impl Into<String>) -> ExpectedIssue {
        ExpectedIssue {
            code: CatalogueId::Known(code),
            pointer: pointer.into(),
            severity: code.severity(),
        }
    }
}

/// One row of `manifest.json`: enough to list, filter and name a case without opening it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaseEntry {
    /// Stable id `family/area/.../name`.
    pub id: String,
    /// The main file, relative to the corpus root.
    pub file: String,
    /// The profile the case is read under; `None` (written `""`) when no profile applies.
    #[serde(default, with = "profile_or_empty")]
    pub profile: Option<CatalogueId<Profile>>,
    #[serde(default)]
    pub area: String,
    #[serde(default)]
    pub features: Vec<String>,
    pub tier: Tier,
    pub valid: bool,
    /// Codes of every expected issue, sorted, each once.
    #[serde(default)]
    pub expected_codes: Vec<CatalogueId<Code>>,
    /// The seed a generated case came from; `None` for hand-written cases.
    #[serde(default)]
    pub seed: Option<u64>,
    /// SHA-256 of the main file, lowercase hex.
    #[serde(default)]
    pub sha256: String,
}

impl CaseEntry {
    /// The profile id, empty when no profile applies.
    pub fn profile_id(&self) -> &str {
        self.profile.as_ref().map_or("", CatalogueId::id)
    }

    /// The profile id, or `none` for a case no profile applies to (used in trial names).
    pub fn profile_label(&self) -> &str {
        self.profile.as_ref().map_or("none", CatalogueId::id)
    }

    /// The `<stem>.expect.json` next to the main file, relative to the corpus root.
    pub fn expect_file(&self) -> String {
        let stem = self
            .file
            .rsplit_once('.')
            .map_or(self.file.as_str(), |(s, _)| s);
        format!("{stem}.expect.json")
    }
}

/// A manifest's profile: its id, or `""` when none applies.
mod profile_or_empty {
    use super::*;

    pub fn serialize<S: Serializer>(
        p: &Option<CatalogueId<Profile>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.as_ref().map_or("", CatalogueId::id))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<CatalogueId<Profile>>, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok((!id.is_empty()).then(|| CatalogueId::of(&id)))
    }
}

/// The reference's outputs at one named pose of a case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoseOutputs {
    pub name: String,
    /// Local TRS overrides in the `POSES.json` format (`reference::poses`), sent as is to the
    /// implementation.
    pub poses: Value,
    /// Every joint's limit metrics at the pose (scenes with joints, read without errors).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Vec<JointLimits>>,
    /// Local TRS of every VRM-constrained node after evaluation at the pose (scenes with
    /// constraints, read without errors), or why the reference could not evaluate them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constraints: Option<ConstraintOutputs>,
}

impl PoseOutputs {
    /// Whether the pose has VRM constraint outputs to compare (or says why it has none).
    pub fn has_constraints(&self) -> bool {
        match &self.constraints {
            Some(ConstraintOutputs::Nodes(nodes)) => !nodes.is_empty(),
            Some(ConstraintOutputs::Error { .. }) => true,
            None => false,
        }
    }
}

/// `<id>.expect.json`: the case's metadata, the issues the reference reports, its expected
/// interpretation at rest, its outputs at named poses, the tolerance classes and the dynamics
/// scenario (`A`: what an action of the scenario is, see [`Scenario`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "A: Deserialize<'de>", serialize = "A: Serialize"))]
pub struct ExpectFile<A = Value> {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub profile: Option<CatalogueId<Profile>>,
    #[serde(default)]
    pub area: String,
    #[serde(default)]
    pub tier: Option<Tier>,
    #[serde(default)]
    pub valid: bool,
    #[serde(default)]
    pub description: String,
    /// Where the rule or feature is specified.
    #[serde(default)]
    pub spec: String,
    #[serde(default)]
    pub features: Vec<String>,
    /// The decisions the case rests on.
    #[serde(default)]
    pub decisions: Vec<CatalogueId<Decision>>,
    #[serde(default)]
    pub seed: Option<u64>,
    /// The generator and its version.
    #[serde(default)]
    pub generator: String,
    #[serde(default)]
    pub issues: Vec<ExpectedIssue>,
    /// `None`: the case has no expected interpretation (an invalid case).
    #[serde(default)]
    pub interpretation: Option<Expectation>,
    #[serde(default)]
    pub poses: Vec<PoseOutputs>,
    /// Tolerance classes by name (`length`, `angle`, `scalar`); `None` for a case without an
    /// interpretation.
    #[serde(default)]
    pub tolerances: Option<BTreeMap<String, Tolerance>>,
    #[serde(default)]
    pub scenario: Option<Scenario<A>>,
}
