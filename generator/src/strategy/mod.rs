//! proptest strategies for VALID scenes of every seed profile.
//!
//! Concept modules (`transform`, `shape`, `body`, `material`, `filter`, `limit`, `drive`,
//! `joint`, `constraint`, `hierarchy`) generate small spec values; the profile modules (`khr`,
//! `omi`, `vrm`) assemble them into a scene spec and render it as glTF JSON spelled exactly as
//! the profile's seed spells it, with feature tags. Specs shrink well: a failing property
//! shrinks to a small scene, and the test prints its glTF text.

pub mod body;
pub mod common;
pub mod constraint;
pub mod drive;
pub mod filter;
pub mod forest;
pub mod hierarchy;
pub mod joint;
pub mod khr;
pub mod khr25;
pub mod limit;
pub mod material;
pub mod omi;
pub mod omi24;
mod rigid;
pub mod rigid_scene;
pub mod shape;
pub mod transform;
pub mod vrm;
pub mod vrm1;

pub use common::{Rendered, Tags, dec, dec3, tag};

use proptest::prelude::*;
use reference::profile::Profile;

/// A generated scene of any profile.
#[derive(Clone, Debug)]
pub enum SceneSpec {
    Khr(rigid_scene::KhrScene),
    Khr25(khr25::Khr25Scene),
    Omi(omi::OmiScene),
    Vrm(vrm::VrmScene),
    /// `omi-2024` or `omi-2025`.
    Omi24(omi24::Omi24Scene),
    Vrm1(vrm1::Vrm1Scene),
}

impl SceneSpec {
    pub fn profile(&self) -> Profile {
        match self {
            SceneSpec::Khr(_) => Profile::Khr2024Draft,
            SceneSpec::Khr25(s) => s.profile(),
            SceneSpec::Omi(_) => Profile::Omi2023,
            SceneSpec::Vrm(_) => Profile::VrmcConstraintsDraft,
            SceneSpec::Omi24(s) => s.profile,
            SceneSpec::Vrm1(_) => Profile::VrmcNodeConstraint10,
        }
    }

    /// Render with sibling files named after `stem`.
    pub fn render(&self, stem: &str) -> Rendered {
        let mut r = match self {
            SceneSpec::Khr(s) => khr::render(s, stem),
            SceneSpec::Khr25(s) => khr25::render(s, stem),
            SceneSpec::Omi(s) => omi::render(s, stem),
            SceneSpec::Vrm(s) => vrm::render(s, stem),
            SceneSpec::Omi24(s) => omi24::render(s, stem),
            SceneSpec::Vrm1(s) => vrm1::render(s, stem),
        };
        if r.built.json.get("buffers").is_some() {
            let mode = if r.built.siblings.is_empty() {
                "data-uri"
            } else {
                "sibling"
            };
            tag(&mut r.tags, &["buffer", mode]);
        }
        r
    }
}

/// Valid scenes of `profile`.
pub fn scene(profile: Profile) -> BoxedStrategy<SceneSpec> {
    match profile {
        Profile::Khr2024Draft => rigid_scene::scene().prop_map(SceneSpec::Khr).boxed(),
        Profile::Khr2025 | Profile::Khr2026 => {
            khr25::scene(profile).prop_map(SceneSpec::Khr25).boxed()
        }
        Profile::Omi2023 => omi::scene().prop_map(SceneSpec::Omi).boxed(),
        Profile::VrmcConstraintsDraft => vrm::scene().prop_map(SceneSpec::Vrm).boxed(),
        Profile::Omi2024 | Profile::Omi2025 => {
            omi24::scene(profile).prop_map(SceneSpec::Omi24).boxed()
        }
        Profile::VrmcNodeConstraint10 => vrm1::scene().prop_map(SceneSpec::Vrm1).boxed(),
    }
}

/// Larger valid scenes of `profile` (benchmarks): 4 to 10 groups, or 10 to 50 VRM nodes.
pub fn large_scene(profile: Profile) -> BoxedStrategy<SceneSpec> {
    match profile {
        Profile::Khr2024Draft => rigid_scene::scene_of(4..=10)
            .prop_map(SceneSpec::Khr)
            .boxed(),
        Profile::Khr2025 | Profile::Khr2026 => khr25::scene_of(profile, 4..=10)
            .prop_map(SceneSpec::Khr25)
            .boxed(),
        Profile::Omi2023 => omi::scene_of(4..=10).prop_map(SceneSpec::Omi).boxed(),
        Profile::VrmcConstraintsDraft => vrm::scene_of(10..=50).prop_map(SceneSpec::Vrm).boxed(),
        Profile::Omi2024 | Profile::Omi2025 => omi24::scene_of(profile, 4..=10)
            .prop_map(SceneSpec::Omi24)
            .boxed(),
        Profile::VrmcNodeConstraint10 => vrm1::scene_of(10..=50).prop_map(SceneSpec::Vrm1).boxed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::test_runner::{Config, TestError, TestRunner};

    fn runner() -> TestRunner {
        TestRunner::new(Config {
            cases: 512,
            max_shrink_iters: 20_000,
            failure_persistence: None,
            ..Config::default()
        })
    }

    /// Shrinking still reaches a minimal scene through the boxed value trees: a property that
    /// fails on any static group shrinks to one static group with one collider and nothing else
    /// that can go (no materials, filters or joints, one joint description).
    #[test]
    fn khr_failures_shrink_to_a_minimal_scene() {
        let result = runner().run(&rigid_scene::scene_of(1..=10), |s| {
            let has_static = s
                .groups
                .iter()
                .any(|g| matches!(g, rigid_scene::Group::Static { .. }));
            prop_assert!(!has_static);
            Ok(())
        });
        let Err(TestError::Fail(_, s)) = result else {
            panic!("the property must fail: {result:?}");
        };
        assert_eq!(s.groups.len(), 1, "{s:?}");
        let rigid_scene::Group::Static { colliders, .. } = &s.groups[0] else {
            panic!("not a static group: {s:?}");
        };
        assert_eq!(colliders.len(), 1, "{s:?}");
        assert!(s.materials.is_empty() && s.filters.is_empty() && s.joints.is_empty());
        assert_eq!(s.descs.len(), 1, "{s:?}");
    }

    /// The same for VRM scenes: a property that fails on any aim constraint shrinks to the
    /// fewest nodes (3) and one constraint, an aim.
    #[test]
    fn vrm_failures_shrink_to_a_minimal_scene() {
        let result = runner().run(&vrm::scene_of(3..=10), |s| {
            let has_aim = s
                .constraints
                .iter()
                .any(|c| c.spec.kind == constraint::DraftKind::Aim);
            prop_assert!(!has_aim);
            Ok(())
        });
        let Err(TestError::Fail(_, s)) = result else {
            panic!("the property must fail: {result:?}");
        };
        assert_eq!(s.nodes.len(), 3, "{s:?}");
        assert_eq!(s.constraints.len(), 1, "{s:?}");
        assert_eq!(s.constraints[0].spec.kind, constraint::DraftKind::Aim);
    }

    #[test]
    fn tag_joins_parts_and_keeps_one_copy() {
        let mut tags = Tags::new();
        tag(&mut tags, &["shape", "box", "explicit"]);
        tag(&mut tags, &["shape", "box", "explicit"]);
        tag(&mut tags, &["joint"]);
        // The reused buffer never leaks a previous, longer tag into a shorter one.
        tag(&mut tags, &["a", "b"]);
        let all: Vec<&str> = tags.iter().map(String::as_str).collect();
        assert_eq!(all, ["a.b", "joint", "shape.box.explicit"]);
    }
}
