//! Every valid scene the strategies generate reads with zero issues of any severity, under the
//! profile it was generated for. A failure shrinks to a minimal scene and prints its glTF.

use generator::strategy;
use proptest::prelude::*;
use reference::profile::Profile;

/// Read a rendered scene (writing sibling files to a temp folder) and describe any issue.
fn check(scene: &strategy::SceneSpec) -> Result<(), TestCaseError> {
    let r = scene.render("case");
    let dir = tempfile::tempdir().expect("temp dir");
    let text = generator::canonical::to_string(&r.built.json);
    for (name, bytes) in &r.built.siblings {
        std::fs::write(dir.path().join(name), bytes).expect("write sibling");
    }
    let reading = reference::read_bytes(text.as_bytes(), Some(dir.path()), None);
    prop_assert_eq!(
        reading.profile,
        Some(scene.profile()),
        "profile detection\n{}",
        text
    );
    let issues: Vec<String> = reading
        .issues
        .iter()
        .map(|i| {
            format!(
                "{} {} at {:?}: {}",
                i.severity, i.code, i.pointer, i.message
            )
        })
        .collect();
    prop_assert!(
        issues.is_empty(),
        "a valid generated scene has issues:\n  {}\nminimal scene:\n{}",
        issues.join("\n  "),
        text
    );
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn khr_scenes_are_valid(scene in strategy::scene(Profile::Khr2024Draft)) {
        check(&scene)?;
    }

    #[test]
    fn omi_scenes_are_valid(scene in strategy::scene(Profile::Omi2023)) {
        check(&scene)?;
    }

    #[test]
    fn vrm_scenes_are_valid(scene in strategy::scene(Profile::VrmcConstraintsDraft)) {
        check(&scene)?;
    }

    #[test]
    fn omi_2024_scenes_are_valid(scene in strategy::scene(Profile::Omi2024)) {
        check(&scene)?;
    }

    #[test]
    fn omi_2025_scenes_are_valid(scene in strategy::scene(Profile::Omi2025)) {
        check(&scene)?;
    }

    /// Every tag a scene carries belongs to its profile's declared universe.
    #[test]
    fn tags_are_in_the_universe(p in prop::sample::select(Profile::ALL.to_vec()), i in 0u64..1000) {
        let (_, r) = generator::sample::scene(p, 99, i, "x", None);
        let universe = generator::features::universe(p);
        let stray: Vec<&String> = r.tags.iter().filter(|t| !universe.contains(*t)).collect();
        prop_assert!(stray.is_empty(), "tags outside the universe of {}: {:?}", p, stray);
    }
}

/// Hand-written cases read exactly as they expect.
#[test]
fn handwritten_cases_read_as_expected() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut failures = Vec::new();
    for case in generator::handwritten::all() {
        let folder = dir.path().join(case.folder());
        let reading = generator::label::read(&case, &folder).expect("readable");
        if let Some(d) = generator::label::disagreement(&case, &reading) {
            failures.push(d);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
