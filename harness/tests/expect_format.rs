//! Contract test: the harness reads the reference's expected interpretation as the generator
//! writes it (`reference::expect::Expectation` as JSON). Every valid validation case of the
//! reference is evaluated and read back through the harness's lenient view.

use std::path::Path;

use physics_cts::case::ExpectedInterpretation;
use physics_cts::implementation::NodeTrs;
use reference::poses::Poses;

fn gltf_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            gltf_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "gltf" || x == "glb") {
            out.push(p);
        }
    }
}

#[test]
fn every_expectation_of_the_reference_reads_in_the_harness() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../reference/tests/validation");
    let mut files = Vec::new();
    gltf_files(&root, &mut files);
    files.sort();
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
        let view: ExpectedInterpretation = serde_json::from_value(value.clone())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(view.bodies.len(), expectation.bodies.len());
        assert_eq!(view.colliders.len(), expectation.colliders.len());
        assert_eq!(view.pairs.len(), expectation.pairs.len());
        assert_eq!(view.joints.len(), expectation.joints.len());
        for (v, e) in view.joints.iter().zip(&expectation.joints) {
            assert_eq!(v.limits.len(), e.limits.len(), "{}", path.display());
            assert_eq!(v.drives.len(), e.drives.len(), "{}", path.display());
        }
        let constrained: Vec<NodeTrs> = serde_json::from_value(value["constraints"].clone())
            .unwrap_or_else(|e| panic!("{}: constraints: {e}", path.display()));
        read += 1;
        with_bodies += usize::from(!view.bodies.is_empty());
        with_joints += usize::from(!view.joints.is_empty());
        with_constraints += usize::from(!constrained.is_empty());
    }
    eprintln!(
        "{read} expectations read ({with_bodies} with bodies, {with_joints} with joints, {with_constraints} with constraints)"
    );
    assert!(read > 20 && with_bodies > 5 && with_joints > 3 && with_constraints > 3);
}
