//! What to generate: a plan of seed, count and profiles, and the edition whose rules its cases
//! follow. A leaf, so that the case format and every layer above can name an edition.

use reference::profile::Profile;

/// The generation rules a plan follows. A released corpus keeps the rules it was made with,
/// so that it regenerates byte for byte, while the living corpus gets stronger cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edition {
    /// `corpus/v1`'s rules: every VRM draft output is informative.
    V1,
    /// The living corpus (what it adds: [`crate::edition`]).
    #[default]
    V2,
}

impl Edition {
    /// The edition named `v1` or `v2`.
    pub fn parse(name: &str) -> Option<Edition> {
        match name {
            "v1" => Some(Edition::V1),
            "v2" => Some(Edition::V2),
            _ => None,
        }
    }
}

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
    /// The rules the cases follow.
    pub edition: Edition,
}

impl Plan {
    pub(crate) fn profiles(&self) -> Vec<Profile> {
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
        edition: Edition::V1,
    }
}

/// The plan of `corpus/v2`, the living corpus of every profile (300 generated cases each).
pub fn v2() -> Plan {
    Plan {
        seed: 2,
        count: 2400,
        profiles: Profile::ALL.to_vec(),
        handwritten: true,
        edition: Edition::V2,
    }
}
