//! Contract test: the harness reads the reference's expected interpretation as the generator
//! writes it. Every valid validation case of the reference is evaluated, written as JSON and
//! read back as `reference::expect::Expectation` (the case format's type), which writes the
//! same JSON again.

use std::path::Path;

use reference::expect::Expectation;
use reference::poses::Poses;
use support::gltf_files;

mod support;

#[test]
fn every_expectation_of_the_reference_reads_back_as_written() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reference/tests/validation");
    let files = gltf_files(&root);
    let (mut read, mut with_bodies, mut with_joints, mut with_constraints) = (0, 0, 0, 0);
    for path in &files {
        let reading = reference::read_path(path, None).expect("readable");
        let Some(scene) = reading.scene.as_ref().filter(|_| !reading.has_errors()) else {
            continue;
        };
        let Ok(expectation) = reference::expect::evaluate(scene, &Poses::default()) else {
            continue;
        };
        let value = serde_json::to_value(&expectation).expect("serialises");
        let back: Expectation = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            serde_json::to_value(&back).expect("serialises"),
            value,
            "{}",
            path.display()
        );
        read += 1;
        with_bodies += usize::from(!back.bodies.is_empty());
        with_joints += usize::from(!back.joints.is_empty());
        with_constraints += usize::from(!back.constraints.is_empty());
    }
    eprintln!(
        "{read} expectations read ({with_bodies} with bodies, {with_joints} with joints, {with_constraints} with constraints)"
    );
    assert!(read > 20 && with_bodies > 5 && with_joints > 3 && with_constraints > 3);
}
