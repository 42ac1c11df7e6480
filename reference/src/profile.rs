//! Profiles: one revision of one family of extensions, with its own names, defaults and rules.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

/// A spec revision the reference can read. Every profile reads into the one canonical
/// [`Scene`](crate::scene::Scene).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Profile {
    /// KHR_physics_rigid_bodies + KHR_collision_shapes, March 2024 draft (seed 002).
    Khr2024Draft,
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
}

/// Extension keys of each profile family, used for detection.
pub const KHR_EXTENSIONS: &[&str] = &["KHR_physics_rigid_bodies", "KHR_collision_shapes"];
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
    /// legacy `omi-2023` for them, and [`crate::omi::current::detect`] tells the revisions apart.
    pub const ALL: [Profile; 6] = [
        Profile::Khr2024Draft,
        Profile::Omi2023,
        Profile::VrmcConstraintsDraft,
        Profile::Omi2024,
        Profile::Omi2025,
        Profile::VrmcNodeConstraint10,
    ];

    /// The stable id used on the command line, in reports and in the corpus.
    pub fn id(self) -> &'static str {
        match self {
            Profile::Khr2024Draft => "khr-2024-draft",
            Profile::Omi2023 => "omi-2023",
            Profile::VrmcConstraintsDraft => "vrmc-constraints-draft",
            Profile::Omi2024 => "omi-2024",
            Profile::Omi2025 => "omi-2025",
            Profile::VrmcNodeConstraint10 => "vrmc-node-constraint-1.0",
        }
    }

    /// The short family name used in case ids (`khr/...`).
    pub fn family(self) -> &'static str {
        match self {
            Profile::Khr2024Draft => "khr",
            Profile::Omi2023 => "omi",
            Profile::VrmcConstraintsDraft => "vrm",
            Profile::Omi2024 => "omi24",
            Profile::Omi2025 => "omi25",
            Profile::VrmcNodeConstraint10 => "vrm1",
        }
    }

    /// The extension keys this profile reads.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Profile::Khr2024Draft => KHR_EXTENSIONS,
            Profile::Omi2023 | Profile::Omi2024 | Profile::Omi2025 => OMI_EXTENSIONS,
            Profile::VrmcConstraintsDraft => VRM_EXTENSIONS,
            Profile::VrmcNodeConstraint10 => VRM1_EXTENSIONS,
        }
    }

    /// Whether this is one of the restructured OMI revisions (`omi-2024`, `omi-2025`).
    pub fn is_omi_current(self) -> bool {
        matches!(self, Profile::Omi2024 | Profile::Omi2025)
    }

    /// The profile an extension key belongs to, if any (OMI keys: `omi-2023`, the first OMI
    /// profile; the document's structure picks the revision).
    pub fn of_extension(key: &str) -> Option<Profile> {
        Profile::ALL
            .into_iter()
            .find(|p| p.extensions().contains(&key))
    }

    /// The profile to read a document under, given every extension key it uses (document
    /// level and node level, in any order): the first family in [`Profile::ALL`] present.
    pub fn detect<'a>(keys: impl IntoIterator<Item = &'a str>) -> Option<Profile> {
        let present: Vec<Profile> = keys.into_iter().filter_map(Profile::of_extension).collect();
        Profile::ALL.into_iter().find(|p| present.contains(p))
    }
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

/// An unknown profile id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown profile {0:?}; known profiles: khr-2024-draft, omi-2023, vrmc-constraints-draft, omi-2024, omi-2025, vrmc-node-constraint-1.0"
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
}
