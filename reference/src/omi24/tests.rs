//! Hand-worked tables of the two readings, and detection.
//!
//! Oracles are worked by hand from the texts, not computed by the code under test:
//! omi-2024 capsule: full height `h` (default 2), radius `r` (default 0.5): cap-centre distance
//! `h - 2 r`; omi-2025 capsule: cap-centre distance `h` (default 1), radii default 0.5; cylinder:
//! full height `h` (default 2) in both.

use nalgebra::{UnitQuaternion, Vector3};

use crate::issue::{Code, Issues};
use crate::profile::Profile;
use crate::scene::{Inertia, MassValue, Shape};
use crate::{Reading, read_bytes};

use super::Convention;
use super::body::inertia_of;

/// A document with one dynamic body whose collider is shape 0 of `shapes` (JSON text).
fn with_shapes(shapes: &str) -> String {
    format!(
        r#"{{"asset":{{"version":"2.0"}},
        "extensionsUsed":["OMI_physics_body","OMI_physics_shape"],
        "extensions":{{"OMI_physics_shape":{{"shapes":[{shapes}]}}}},
        "nodes":[{{"extensions":{{"OMI_physics_body":{{"motion":{{"type":"dynamic"}},"collider":{{"shape":0}}}}}}}}],
        "scenes":[{{"nodes":[0]}}],"scene":0}}"#
    )
}

fn read(text: &str, forced: Option<Profile>) -> Reading {
    read_bytes(text.as_bytes(), None, forced)
}

/// The capsule table: each row is a shape as written, the canonical shape (cap-centre
/// distance, bottom radius, top radius) under omi-2024 and under omi-2025.
#[test]
fn capsule_and_cylinder_sizes_under_both_readings() {
    let rows: &[(&str, Shape, Shape)] = &[
        // Defaults: 2024 full height 2 - 2 * 0.5 = 1; 2025 distance 1. The same capsule.
        (
            r#"{"type":"capsule"}"#,
            Shape::capsule(1.0, 0.5, 0.5),
            Shape::capsule(1.0, 0.5, 0.5),
        ),
        (
            r#"{"type":"capsule","capsule":{}}"#,
            Shape::capsule(1.0, 0.5, 0.5),
            Shape::capsule(1.0, 0.5, 0.5),
        ),
        // Height only: 2024 2 - 1 = 1... with h = 3: 3 - 1 = 2; 2025: 3.
        (
            r#"{"type":"capsule","capsule":{"height":3}}"#,
            Shape::capsule(2.0, 0.5, 0.5),
            Shape::capsule(3.0, 0.5, 0.5),
        ),
        // The Godot joint examples: h 0.5, r 0.05. 2024: 0.5 - 0.1 = 0.4. 2025 ignores
        // `radius` (another revision's key): distance 0.5, radii 0.5.
        (
            r#"{"type":"capsule","capsule":{"height":0.5,"radius":0.05}}"#,
            Shape::capsule(0.4, 0.05, 0.05),
            Shape::capsule(0.5, 0.5, 0.5),
        ),
        // The 2025 example capsule: 2025 distance 1, radii 0.5 (full height 2). 2024 ignores
        // the radius keys: full height 1 with radius 0.5 is exactly a sphere: distance 0.
        (
            r#"{"type":"capsule","capsule":{"height":1,"radiusBottom":0.5,"radiusTop":0.5}}"#,
            Shape::capsule(0.0, 0.5, 0.5),
            Shape::capsule(1.0, 0.5, 0.5),
        ),
        // A tapered 2025 capsule: distance 2, bottom 0.25, top 0.75 (full height 3).
        (
            r#"{"type":"capsule","capsule":{"height":2,"radiusBottom":0.25,"radiusTop":0.75}}"#,
            Shape::capsule(1.0, 0.5, 0.5),
            Shape::capsule(2.0, 0.25, 0.75),
        ),
        // Cylinders: full height in both; default 2.
        (
            r#"{"type":"cylinder"}"#,
            Shape::cylinder(2.0, 0.5, 0.5),
            Shape::cylinder(2.0, 0.5, 0.5),
        ),
        (
            r#"{"type":"cylinder","cylinder":{"height":3,"radius":0.25}}"#,
            Shape::cylinder(3.0, 0.25, 0.25),
            Shape::cylinder(3.0, 0.5, 0.5),
        ),
        (
            r#"{"type":"cylinder","cylinder":{"height":3,"radiusBottom":0.25,"radiusTop":0.5}}"#,
            Shape::cylinder(3.0, 0.5, 0.5),
            Shape::cylinder(3.0, 0.25, 0.5),
        ),
    ];
    for (written, as_2024, as_2025) in rows {
        for (profile, want) in [(Profile::Omi2024, as_2024), (Profile::Omi2025, as_2025)] {
            let r = read(&with_shapes(written), Some(profile));
            let scene = r.scene.as_ref().expect("scene");
            assert_eq!(
                scene.shapes.first(),
                Some(want),
                "{written} under {profile}"
            );
        }
    }
}

/// Inertia: OMI's zero (or absent) diagonal is "computed by the engine"; KHR reads the same
/// zeros as infinite moments.
#[test]
fn inertia_computed_against_khr_infinite() {
    let omi = |d: [f64; 3]| {
        let mut issues = Issues::default();
        let inertia = inertia_of(d, None, "/p", &mut issues);
        (inertia, issues.0.iter().map(|i| i.code).collect::<Vec<_>>())
    };
    assert_eq!(omi([0.0, 0.0, 0.0]), (Inertia::EngineComputes, vec![]));
    assert_eq!(
        omi([0.0, 1.0, 1.0]),
        (Inertia::EngineComputes, vec![Code::OmiInertiaPartlyZero])
    );
    assert_eq!(
        omi([1.0, 2.0, 3.0]),
        (
            Inertia::Principal {
                diagonal: [1.0, 2.0, 3.0].map(MassValue::Finite),
                orientation: UnitQuaternion::identity(),
            },
            vec![]
        )
    );
    // The same zero diagonal in a KHR document: three infinite moments.
    let khr = r#"{"asset":{"version":"2.0"},
        "extensionsUsed":["KHR_physics_rigid_bodies"],
        "nodes":[{"extensions":{"KHR_physics_rigid_bodies":{"motion":{"inertiaDiagonal":[0,0,0]}}}}]}"#;
    let r = read(khr, None);
    let body = &r.scene.as_ref().expect("scene").bodies[0];
    let Inertia::Principal { diagonal, .. } = body.inertia else {
        panic!("principal inertia: {:?}", body.inertia)
    };
    assert_eq!(diagonal, [MassValue::Infinite; 3]);
    // And in an OMI document: computed, mass default 1.
    let omi_doc = r#"{"asset":{"version":"2.0"},
        "extensionsUsed":["OMI_physics_body"],
        "nodes":[{"extensions":{"OMI_physics_body":{"motion":{"type":"dynamic","inertiaDiagonal":[0,0,0]}}}}]}"#;
    let r = read(omi_doc, None);
    assert_eq!(r.profile, Some(Profile::Omi2025));
    let body = &r.scene.as_ref().expect("scene").bodies[0];
    assert_eq!(body.inertia, Inertia::EngineComputes);
    assert_eq!(body.mass, MassValue::Finite(1.0));
    assert_eq!(body.linear_velocity, Vector3::zeros());
}

#[test]
fn detection_reads_the_radius_keys() {
    use Profile::{Omi2024, Omi2025};
    let cases: &[(&str, Profile)] = &[
        (r#"{"type":"capsule","capsule":{"radius":0.5}}"#, Omi2024),
        (
            r#"{"type":"cylinder","cylinder":{"radiusTop":0.5}}"#,
            Omi2025,
        ),
        (r#"{"type":"capsule","capsule":{"height":1}}"#, Omi2025),
        (r#"{"type":"box"}"#, Omi2025),
    ];
    for (shape, want) in cases {
        let r = read(&with_shapes(shape), None);
        assert_eq!(r.profile, Some(*want), "{shape}");
    }
}

/// Undated capsule `height: 3`: read as omi-2025 (distance 3, full height 4) with a warning
/// naming the omi-2024 reading (full height 3, distance 2). Forced: no warning.
#[test]
fn an_undated_capsule_is_warned_with_both_sizes() {
    let text = with_shapes(r#"{"type":"capsule","capsule":{"height":3}}"#);
    let r = read(&text, None);
    let warned: Vec<_> = r
        .issues
        .iter()
        .filter(|i| i.code == Code::OmiCapsuleAmbiguous)
        .collect();
    assert_eq!(warned.len(), 1);
    assert_eq!(
        warned[0].pointer,
        "/extensions/OMI_physics_shape/shapes/0/capsule/height"
    );
    assert!(
        warned[0]
            .message
            .contains("cap-centre distance 3, full height 4")
    );
    assert!(
        warned[0]
            .message
            .contains("cap-centre distance 2, full height 3")
    );
    let forced = read(&text, Some(Profile::Omi2025));
    assert!(
        forced
            .issues
            .iter()
            .all(|i| i.code != Code::OmiCapsuleAmbiguous)
    );
    // A default capsule has one size under both readings: no warning.
    let r = read(&with_shapes(r#"{"type":"capsule"}"#), None);
    assert!(r.issues.iter().all(|i| i.code != Code::OmiCapsuleAmbiguous));
}

#[test]
fn legacy_documents_stay_omi_2023() {
    let legacy = r#"{"asset":{"version":"2.0"},
        "extensionsUsed":["OMI_physics_body","OMI_collider"],
        "extensions":{"OMI_collider":{"colliders":[{"type":"sphere","radius":0.5}]}},
        "nodes":[{"extensions":{"OMI_physics_body":{"type":"rigid"},"OMI_collider":{"collider":0}}}]}"#;
    assert_eq!(read(legacy, None).profile, Some(Profile::Omi2023));
}

#[test]
fn conventions_name_their_profiles() {
    for p in [Profile::Omi2024, Profile::Omi2025] {
        assert_eq!(Convention::of(p).map(Convention::profile), Some(p));
    }
    assert_eq!(Convention::of(Profile::Omi2023), None);
}
