//! The universe of feature tags each profile's strategies can emit, so the corpus can be
//! checked to cover every one of them.

use reference::profile::Profile;

use crate::strategy::{Tags, khr, khr25, omi, omi24, vrm, vrm1};

/// Every tag a valid generated scene of `profile` can carry.
pub fn universe(profile: Profile) -> Tags {
    let mut tags = Tags::new();
    match profile {
        Profile::Khr2024Draft => khr::universe(&mut tags),
        Profile::Khr2025 | Profile::Khr2026 => khr25::universe(profile, &mut tags),
        Profile::Omi2023 => omi::universe(&mut tags),
        Profile::VrmcConstraintsDraft => vrm::universe(&mut tags),
        Profile::Omi2024 | Profile::Omi2025 => omi24::universe(profile, &mut tags),
        Profile::VrmcNodeConstraint10 => vrm1::universe(&mut tags),
    }
    tags
}

/// The feature area of a tag: its first segment (`shape`, `joint`, `vrm`...).
pub fn area(tag: &str) -> &str {
    tag.split('.').next().unwrap_or(tag)
}
