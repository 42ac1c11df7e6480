//! One generated case: a drawn scene made a valid case under the rules of `corpus/v1`, or a
//! valid case given one defect. Below the editions and the corpus writer, which both make them.

use reference::profile::Profile;

use crate::case::{Case, Payload, Tier};
use crate::features;
use crate::mutate::Mutator;
use crate::plan::Edition;
use crate::sample;
use crate::strategy::Rendered;

fn profile_tier(profile: Profile) -> Tier {
    match profile {
        // The VRM draft leaves the math open: everything depends on the D-VRM decisions
        // (under `Edition::V1`; `edition::rescore_draft` scores what does not rest on an open one).
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
        Profile::Khr2026 => {
            "KHR_physics_rigid_bodies, January-2026 revision (geometry names a mesh: Babylon.js loader 0.6.0, Blender exporter 0.3.0) + KHR_implicit_shapes"
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
        edition: Edition::V1,
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
