//! Profiles: one revision of one family of extensions, with its own names, defaults and rules.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A spec revision the reference can read. Every profile reads into the one canonical
/// [`Scene`](crate::scene::Scene).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// KHR_physics_rigid_bodies + KHR_collision_shapes, March 2024 draft (seed 002).
    Khr2024Draft,
    /// KHR_physics_rigid_bodies (glTF PR #2424) + KHR_implicit_shapes (PR #2370), the revision
    /// today's implementations read: colliders and triggers give a `geometry`.
    Khr2025,
    /// OMI_physics_body + OMI_physics_shape / OMI_collider + OMI_physics_joint, mid-2023 (seeds 000, 001, 004).
    Omi2023,
    /// VRMC_constraints-1.0 draft, November 2020 (seed 003).
    VrmcConstraintsDraft,
    /// OMI_physics_body (motion/collider/trigger) + OMI_physics_shape + OMI_physics_joint
    /// (physicsJoints, connectedNode) at omigroup/gltf-extensions 807ce4b, November 2024:
    /// capsules and cylinders have one `radius`, a capsule's `height` is its full height.
    Omi2024,
    /// The same extensions at df53422 (current main): capsules and cylinders have
    /// `radiusTop`/`radiusBottom`, a capsule's `height` is the distance between its cap centres.
    Omi2025,
    /// VRMC_node_constraint 1.0, ratified (vrm-specification 3942748): roll, aim, rotation.
    VrmcNodeConstraint10,
    /// KHR_physics_rigid_bodies as revised in January 2026 (the editor's Blender exporter 0.3.0
    /// and Babylon.js loader 0.6.0): a collider's or trigger's `geometry` names a `mesh` instead
    /// of a `node`; everything else reads as `khr-2025`.
    Khr2026,
}

/// Extension keys of each profile family, used for detection.
pub const KHR_EXTENSIONS: &[&str] = &["KHR_physics_rigid_bodies", "KHR_collision_shapes"];
/// Extension keys of the `khr-2025` and `khr-2026` profiles. The rigid-body key is shared with
/// the draft: the document's content tells the revisions apart ([`Profile::refine_khr`]).
pub const KHR_2025_EXTENSIONS: &[&str] = &["KHR_physics_rigid_bodies", "KHR_implicit_shapes"];
pub const OMI_EXTENSIONS: &[&str] = &[
    "OMI_physics_body",
    "OMI_physics_shape",
    "OMI_collider",
    "OMI_physics_joint",
];
/// `VRMC_constraints` is the legacy key, accepted with a warning.
pub const VRM_EXTENSIONS: &[&str] = &["VRMC_constraints-1.0", "VRMC_constraints"];
/// The ratified VRM 1.0 node constraint key.
pub const VRM1_EXTENSIONS: &[&str] = &["VRMC_node_constraint"];

impl Profile {
    /// Detection order: when a document mixes families, the first one present wins.
    /// The OMI revisions share their extension keys: [`Profile::of_extension`] names the
    /// legacy `omi-2023` for them, and [`crate::omi24::detect`] tells the revisions apart.
    /// A revision added later comes last, so that the cases generated for the others keep
    /// their seeds.
    pub const ALL: [Profile; 8] = [
        Profile::Khr2024Draft,
        Profile::Khr2025,
        Profile::Omi2023,
        Profile::VrmcConstraintsDraft,
        Profile::Omi2024,
        Profile::Omi2025,
        Profile::VrmcNodeConstraint10,
        Profile::Khr2026,
    ];

    /// The stable id used on the command line, in reports and in the corpus.
    pub fn id(self) -> &'static str {
        match self {
            Profile::Khr2024Draft => "khr-2024-draft",
            Profile::Khr2025 => "khr-2025",
            Profile::Omi2023 => "omi-2023",
            Profile::VrmcConstraintsDraft => "vrmc-constraints-draft",
            Profile::Omi2024 => "omi-2024",
            Profile::Omi2025 => "omi-2025",
            Profile::VrmcNodeConstraint10 => "vrmc-node-constraint-1.0",
            Profile::Khr2026 => "khr-2026",
        }
    }

    /// The short family name used in case ids (`khr/...`).
    pub fn family(self) -> &'static str {
        match self {
            Profile::Khr2024Draft => "khr",
            Profile::Khr2025 => "khr25",
            Profile::Omi2023 => "omi",
            Profile::VrmcConstraintsDraft => "vrm",
            Profile::Omi2024 => "omi24",
            Profile::Omi2025 => "omi25",
            Profile::VrmcNodeConstraint10 => "vrm1",
            Profile::Khr2026 => "khr26",
        }
    }

    /// The extension keys this profile reads.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Profile::Khr2024Draft => KHR_EXTENSIONS,
            Profile::Khr2025 | Profile::Khr2026 => KHR_2025_EXTENSIONS,
            Profile::Omi2023 | Profile::Omi2024 | Profile::Omi2025 => OMI_EXTENSIONS,
            Profile::VrmcConstraintsDraft => VRM_EXTENSIONS,
            Profile::VrmcNodeConstraint10 => VRM1_EXTENSIONS,
        }
    }

    /// Whether the profile describes physics (KHR or OMI), not VRM node constraints.
    pub fn is_physics(self) -> bool {
        !matches!(
            self,
            Profile::VrmcConstraintsDraft | Profile::VrmcNodeConstraint10
        )
    }

    /// Whether this is one of the restructured OMI revisions (`omi-2024`, `omi-2025`).
    pub fn is_omi24(self) -> bool {
        matches!(self, Profile::Omi2024 | Profile::Omi2025)
    }

    /// The profile an extension key belongs to, if any: of keys several revisions share, the
    /// first revision in [`Profile::ALL`] (the KHR draft, `omi-2023`); the document's content
    /// picks the revision.
    pub fn of_extension(key: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.extensions().contains(&key))
    }

    /// Whether the profile is a revision of KHR_physics_rigid_bodies (one family: a document
    /// read under one revision does not mix families because it uses the shared key).
    pub fn is_khr(self) -> bool {
        matches!(
            self,
            Profile::Khr2024Draft | Profile::Khr2025 | Profile::Khr2026
        )
    }

    /// The profile to read a document under, given every extension key it uses (document
    /// level and node level, in any order): the first family in [`Profile::ALL`] present. Within
    /// KHR, this is only the family (the draft, the first KHR revision); [`Profile::refine_khr`]
    /// dates the document by its content.
    pub fn detect<'a>(keys: impl IntoIterator<Item = &'a str>) -> Option<Profile> {
        let present: Vec<Profile> = keys.into_iter().filter_map(Profile::of_extension).collect();
        Profile::ALL.into_iter().find(|p| present.contains(p))
    }

    /// The KHR revision of a document of the KHR family, by evidence [D-KHR-REVISION]: a
    /// draft-only key (`KHR_collision_shapes`, a collider's or trigger's own `shape`) means the
    /// 2024 draft, a `geometry.mesh` `khr-2026`, a `geometry.node` `khr-2025`; a document that
    /// nothing dates reads the same under 2025 and 2026 and is read as the newest. Other
    /// profiles are returned as they are.
    pub fn refine_khr(self, evidence: KhrEvidence) -> Profile {
        if !self.is_khr() {
            return self;
        }
        if evidence.draft {
            Profile::Khr2024Draft
        } else if evidence.mesh_geometry || !evidence.node_geometry {
            Profile::Khr2026
        } else {
            Profile::Khr2025
        }
    }
}

/// What dates a KHR document ([`Profile::refine_khr`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KhrEvidence {
    /// A key only the 2024 draft has: `KHR_collision_shapes` (without `KHR_implicit_shapes`),
    /// or a collider or trigger that gives a `shape` of its own instead of a `geometry`.
    pub draft: bool,
    /// A collider or trigger `geometry` with a `mesh` (the January-2026 revision).
    pub mesh_geometry: bool,
    /// A collider or trigger `geometry` with a `node` (the 2025 revision).
    pub node_geometry: bool,
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Profile {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Profile {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}

/// The protocol's schemas list the ids, so an implementation sees the profiles it may declare.
impl schemars::JsonSchema for Profile {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Profile".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "enum": Profile::ALL.map(Profile::id) })
    }
}

/// An unknown profile id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown profile {0:?}; known profiles: khr-2024-draft, khr-2025, omi-2023, vrmc-constraints-draft, omi-2024, omi-2025, vrmc-node-constraint-1.0, khr-2026"
)]
pub struct UnknownProfile(pub String);

impl FromStr for Profile {
    type Err = UnknownProfile;

    fn from_str(s: &str) -> Result<Profile, UnknownProfile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.id() == s)
            .ok_or_else(|| UnknownProfile(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for p in Profile::ALL {
            assert_eq!(p.id().parse::<Profile>(), Ok(p));
        }
        assert!("khr".parse::<Profile>().is_err());
    }

    #[test]
    fn physics_profiles_are_the_khr_and_omi_ones() {
        for p in Profile::ALL {
            let family = p.family();
            assert_eq!(
                p.is_physics(),
                p.is_khr() || family.starts_with("omi"),
                "{family}"
            );
            assert_eq!(!p.is_physics(), family.starts_with("vrm"), "{family}");
        }
    }

    #[test]
    fn detection_prefers_khr_then_omi_then_vrm() {
        assert_eq!(Profile::detect(["KHR_lights_punctual"]), None);
        assert_eq!(
            Profile::detect(["VRMC_constraints", "OMI_collider"]),
            Some(Profile::Omi2023)
        );
        assert_eq!(
            Profile::detect(["OMI_collider", "KHR_collision_shapes"]),
            Some(Profile::Khr2024Draft)
        );
        assert_eq!(
            Profile::detect(["VRMC_constraints-1.0"]),
            Some(Profile::VrmcConstraintsDraft)
        );
        assert_eq!(
            Profile::detect(["VRMC_node_constraint"]),
            Some(Profile::VrmcNodeConstraint10)
        );
        assert_eq!(
            Profile::detect(["VRMC_node_constraint", "VRMC_constraints-1.0"]),
            Some(Profile::VrmcConstraintsDraft)
        );
    }

    #[test]
    fn every_khr_key_names_the_family_before_omi_and_vrm() {
        let rb = "KHR_physics_rigid_bodies";
        for keys in [
            &[rb, "KHR_implicit_shapes"][..],
            &[rb, "KHR_collision_shapes"],
            &[rb],
            &[
                "OMI_collider",
                "KHR_implicit_shapes",
                "VRMC_constraints-1.0",
            ],
        ] {
            assert!(Profile::detect(keys.iter().copied()).is_some_and(Profile::is_khr));
        }
    }

    /// [D-KHR-REVISION], case by case: the evidence and the revision it means.
    #[test]
    fn khr_revision_by_evidence_newest_when_undated() {
        let family = Profile::Khr2024Draft;
        let with = |draft, mesh_geometry, node_geometry| KhrEvidence {
            draft,
            mesh_geometry,
            node_geometry,
        };
        // Nothing dates it (shapes only, or bodies and joints alone): the newest.
        assert_eq!(
            family.refine_khr(with(false, false, false)),
            Profile::Khr2026
        );
        assert_eq!(
            family.refine_khr(with(false, true, false)),
            Profile::Khr2026
        );
        assert_eq!(
            family.refine_khr(with(false, false, true)),
            Profile::Khr2025
        );
        // Both forms: the newer evidence wins (its node geometries are read by the 2025 rule).
        assert_eq!(family.refine_khr(with(false, true, true)), Profile::Khr2026);
        // A draft-only key wins over any geometry.
        assert_eq!(
            family.refine_khr(with(true, true, true)),
            Profile::Khr2024Draft
        );
        assert_eq!(
            family.refine_khr(with(true, false, false)),
            Profile::Khr2024Draft
        );
        // Another family is left alone.
        assert_eq!(
            Profile::Omi2023.refine_khr(with(false, true, false)),
            Profile::Omi2023
        );
    }
}
