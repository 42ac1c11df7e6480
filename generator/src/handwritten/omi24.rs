//! Hand-written `omi-2024` / `omi-2025` shape cases: capsules whose two readings differ, each
//! saying what a reader of the other revision gets wrong, and the tapered shapes (which only
//! omi-2025 can write). Sizes worked by hand: omi-2024 capsule `height` is the full height
//! (cap-centre distance `h - 2 r`), omi-2025 capsule `height` is the cap-centre distance (full
//! height `h + rb + rt`); a reader ignores the other revision's radius keys and uses 0.5.

use reference::decision::Decision;
use reference::issue::Code;
use reference::omi::{BODY, SHAPE};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::case;
use crate::case::{Case, ExpectedIssue, Tier};

const SHAPES: &str = "/extensions/OMI_physics_shape/shapes";

pub fn cases() -> Vec<Case> {
    vec![
        capsule_2024(),
        capsule_2025(),
        capsule_undated(),
        tapered("capsule"),
        tapered("cylinder"),
    ]
}

/// A dynamic body 1 m above a static floor, its collider shape 1 (`shape`) on a child node.
fn scene(shape: Value) -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [BODY, SHAPE],
        "extensions": {SHAPE: {"shapes": [
            {"type": "box", "box": {"size": [4.0, 0.2, 4.0]}},
            shape
        ]}},
        "nodes": [
            {"name": "Floor", "extensions": {BODY: {"collider": {"shape": 0}}}},
            {"name": "Body", "translation": [0.0, 2.0, 0.0], "children": [2],
                "extensions": {BODY: {"motion": {"type": "dynamic"}}}},
            {"name": "BodyShape", "extensions": {BODY: {"collider": {"shape": 1}}}}
        ],
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}]
    })
}

const DECISIONS: &[Decision] = &[Decision::OmiRevision, Decision::OmiCapsuleRevision];

fn capsule_2024() -> Case {
    case(
        "omi24/shape/capsule-full-height",
        Profile::Omi2024,
        "shape",
        "An omi-2024 capsule {height 1.5, radius 0.25}: full height 1.5, cap-centre distance 1. \
         A reader of omi-2025 gets it wrong: it ignores radius (0.5 by default) and reads 1.5 as \
         the cap-centre distance, a capsule of full height 2.5 and radius 0.5.",
        "OMI_physics_shape 807ce4b Capsule",
        Tier::Required,
        &["shape.capsule.explicit", "omi.revision.differs"],
        DECISIONS,
        scene(json!({"type": "capsule", "capsule": {"height": 1.5, "radius": 0.25}})),
        vec![],
    )
}

fn capsule_2025() -> Case {
    case(
        "omi25/shape/capsule-mid-height",
        Profile::Omi2025,
        "shape",
        "An omi-2025 capsule {height 1, radiusBottom 0.25, radiusTop 0.25}: cap-centre distance 1, \
         full height 1.5. A reader of omi-2024 gets it wrong: it ignores the radius keys (0.5 by \
         default) and reads 1 as the full height, a sphere of radius 0.5 (cap-centre distance 0).",
        "OMI_physics_shape df53422 Capsule",
        Tier::Required,
        &["shape.capsule.explicit", "omi.revision.differs"],
        DECISIONS,
        scene(
            json!({"type": "capsule", "capsule": {"height": 1.0, "radiusBottom": 0.25, "radiusTop": 0.25}}),
        ),
        vec![],
    )
}

fn capsule_undated() -> Case {
    case(
        "omi25/shape/capsule-height-only",
        Profile::Omi2025,
        "shape",
        "A capsule {height 2} with no radius key: nothing dates the document, so it is read as \
         omi-2025 (cap-centre distance 2, full height 3) and warned; a reader of omi-2024 reads \
         full height 2, cap-centre distance 1.",
        "physics-cts [D-OMI-REVISION]",
        Tier::Informative,
        &["shape.capsule.explicit", "omi.revision.undated"],
        DECISIONS,
        scene(json!({"type": "capsule", "capsule": {"height": 2.0}})),
        vec![ExpectedIssue::new(
            Code::OmiCapsuleAmbiguous,
            format!("{SHAPES}/1/capsule/height"),
        )],
    )
}

fn tapered(kind: &str) -> Case {
    case(
        &format!("omi25/shape/{kind}-tapered"),
        Profile::Omi2025,
        "shape",
        &format!(
            "A tapered omi-2025 {kind} {{height 1, radiusBottom 0.25, radiusTop 0.5}}: legal, \
             with the recommendation that the radii be equal (a warning). A reader of omi-2024 \
             gets it wrong: it ignores both radius keys and builds a regular {kind} of radius 0.5."
        ),
        &format!("OMI_physics_shape df53422 {kind}"),
        Tier::Optional,
        &[&format!("shape.{kind}.tapered"), "omi.revision.differs"],
        DECISIONS,
        scene(json!({"type": kind, kind: {"height": 1.0, "radiusBottom": 0.25, "radiusTop": 0.5}})),
        vec![ExpectedIssue::new(
            Code::OmiShapeTapered,
            format!("{SHAPES}/1/{kind}"),
        )],
    )
}
