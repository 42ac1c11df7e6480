//! The generation rules of a corpus edition. `corpus/v1` keeps the rules it was released with
//! ([`Edition::V1`]), so that it regenerates byte for byte; the living corpus (`corpus/v2`,
//! [`Edition::V2`]) gets stronger cases: scored VRM draft outputs, node matrices, another
//! scene before the default one, tapered shapes only where a case is about shapes, and
//! tighter free-fall checks (`scenario::FALL_TOLERANCE`).

use std::collections::BTreeSet;

use reference::decision::Decision;
use reference::profile::Profile;
use reference::scene::Shape;

use crate::case::{Case, Payload, Tier};
use crate::corpus;
use crate::features;
use crate::matrices;
use crate::scenes;

/// The generation rules a plan follows. A released corpus keeps the rules it was made with,
/// so that it regenerates byte for byte, while the living corpus gets stronger cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Edition {
    /// `corpus/v1`'s rules: every VRM draft output is informative.
    V1,
    /// The living corpus (see the module doc).
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

/// The `valid_n`th valid generated case `id` of `profile` under [`Edition::V2`]: isolated
/// (`isolated_case`), and framed ([`framed`]) as [`Framing::nth`] says.
pub fn valid_case(
    profile: Profile,
    seed: u64,
    index: u64,
    id: &str,
    wanted: &str,
    valid_n: usize,
) -> Case {
    framed(
        isolated_case(profile, seed, index, id, wanted),
        Framing::nth(valid_n),
    )
}

/// How a valid scene is written beyond its own content under [`Edition::V2`]: its transforms
/// as matrices, another scene before its own. Neither changes what the scene means.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Framing {
    pub matrices: bool,
    pub another_scene: bool,
}

impl Framing {
    /// The framing of the `valid_n`th valid generated case: every `MATRIX_EVERY`th written
    /// with matrices, every `SCENES_EVERY`th with another scene.
    pub fn nth(valid_n: usize) -> Framing {
        Framing {
            matrices: valid_n.is_multiple_of(MATRIX_EVERY),
            another_scene: valid_n.is_multiple_of(SCENES_EVERY),
        }
    }
}

/// A valid generated case under [`Edition::V2`]: its tapered shapes tagged
/// (`shape.capsule.tapered`...) so an engine that lacks them gets `NOT_SUPPORTED`, and written
/// as `framing` says (where the reference reads the written form the same way).
pub fn framed(mut case: Case, framing: Framing) -> Case {
    for kind in tapered_kinds(&case) {
        case.features.insert(format!("shape.{kind}.tapered"));
    }
    case.edition = Edition::V2;
    if framing.matrices {
        case = written_as_matrices(case);
    }
    if framing.another_scene {
        case = with_another_scene(case);
    }
    case
}

/// A VRM draft case under [`Edition::V2`]: its outputs follow the D-VRM decisions, which
/// follow the draft's public implementation, so a valid case that [`Edition::V1`] left
/// informative is scored `required` unless it reaches a decision the draft leaves open
/// ([`open_draft_decisions`], which it then cites). A case with a warning stays optional.
pub fn rescore_draft(case: &mut Case) {
    if case.profile != Some(Profile::VrmcConstraintsDraft)
        || !case.valid()
        || case.tier != Tier::Informative
    {
        return;
    }
    match open_draft_decisions(case) {
        Some(open) if open.is_empty() => case.tier = Tier::Required,
        Some(open) => case.decisions.extend(open),
        None => {}
    }
}

/// The decisions the draft leaves open that a valid VRM draft case's outputs reach at one of
/// its poses ([`reference::constraints::Evaluator::open_decisions`]); `None` when the scene
/// cannot be evaluated.
pub fn open_draft_decisions(case: &Case) -> Option<BTreeSet<Decision>> {
    let Payload::Json(json) = &case.payload else {
        return None;
    };
    let reading = reference::read_tree(json, None, Some(Profile::VrmcConstraintsDraft));
    let scene = reading.scene.as_ref()?;
    let evaluator = reference::constraints::Evaluator::new(scene).ok()?;
    let mut open = BTreeSet::new();
    for p in &case.poses {
        let poses = reference::poses::Poses::from_value(&p.poses, scene.nodes.len()).ok()?;
        open.extend(evaluator.open_decisions(&poses.locals(scene)).ok()?);
    }
    Some(open)
}

/// The kinds (`capsule`, `cylinder`) of the tapered shapes a case's colliders use (top and
/// bottom radii differ): shapes some engines lack (Rapier, PhysX approximate them by hulls).
fn tapered_kinds(case: &Case) -> BTreeSet<&'static str> {
    let Payload::Json(json) = &case.payload else {
        return BTreeSet::new();
    };
    let reading = reference::read_tree(json, None, case.profile);
    let Some(scene) = reading.scene else {
        return BTreeSet::new();
    };
    scene
        .colliders
        .iter()
        .filter_map(|c| match scene.shapes.get(c.shape)? {
            Shape::Capsule {
                radius_bottom,
                radius_top,
                ..
            } if radius_bottom != radius_top => Some("capsule"),
            Shape::Cylinder {
                radius_bottom,
                radius_top,
                ..
            } if radius_bottom != radius_top => Some("cylinder"),
            _ => None,
        })
        .collect()
}

/// Redraws of a valid case whose rare features are incidental, before it keeps them.
const ISOLATION_REDRAWS: u64 = 16;

/// Feature tags (prefixes) of what engines commonly do not build: Rapier and PhysX have no
/// three-axis angular limit, Rapier no bounded or double-sided plane, PhysX no generic joint
/// nor a node geometry it could deform, and tapered shapes ([`tapered_kinds`]) are hulls in
/// both. A case carries one only in the area it tests, so that an engine lacking it loses only
/// that area's cases to `NOT_SUPPORTED`.
const RARE: &[&str] = &[
    "joint.limit.angular.3",
    "joint.kind.generic",
    "shape.plane.",
    "geometry.node.morphed",
    "geometry.node.skinned",
    "omi.constraint.angular.2",
    "omi.constraint.angular.3",
    "omi.joint.generic",
];

/// Whether `case` carries a rare feature outside the area of `wanted`.
fn rare_outside_area(case: &Case, wanted: &str) -> bool {
    let area = features::area(wanted);
    (area != "shape" && !tapered_kinds(case).is_empty())
        || case
            .features
            .iter()
            .any(|t| features::area(t) != area && RARE.iter().any(|rare| t.starts_with(rare)))
}

/// The valid case `id` under [`Edition::V2`]: a case tests its own area, so a rare feature
/// ([`RARE`], tapered shapes) appears only in its own area's cases (else the scene is drawn
/// again).
fn isolated_case(profile: Profile, seed: u64, index: u64, id: &str, wanted: &str) -> Case {
    let mut case = corpus::valid_case(profile, seed, index, id, Some(wanted));
    for retry in 1..=ISOLATION_REDRAWS {
        if !rare_outside_area(&case, wanted) {
            break;
        }
        case = corpus::valid_case(profile, seed, index + retry * 1_000_003, id, Some(wanted));
    }
    case
}

/// Under [`Edition::V2`], every `SCENES_EVERY`th valid generated case of a physics profile
/// gets another scene before its own, which stays the default (a number prime to the count of
/// profiles, which take turns, so that every profile gets some).
const SCENES_EVERY: usize = 6;

/// `case` with a first scene (scene 0) holding a copy of one of its collider nodes, its own
/// scene second and the default (`"scene": 1`): the copy is outside the default scene, so it
/// is not simulated [D-SCENE]; an importer that loads scene 0 gets only the copy, one that
/// simulates every node gets one collider too many. Unchanged for a VRM profile, without a
/// leaf node carrying a collider, or when the reference would read it otherwise.
fn with_another_scene(mut case: Case) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    if !case.profile.is_some_and(Profile::is_physics) {
        return case;
    }
    let Some(written) = scenes::with_another_scene(json) else {
        return case;
    };
    let read = |doc: &serde_json::Value| {
        let r = reference::read_tree(doc, None, case.profile);
        let issues: Vec<(reference::issue::Code, String)> = r
            .issues
            .iter()
            .map(|i| (i.code, i.pointer.clone()))
            .collect();
        let objects = r.scene.map(|s| {
            (
                s.bodies.iter().map(|b| b.node).collect::<Vec<_>>(),
                s.colliders.iter().map(|c| c.node).collect::<Vec<_>>(),
                s.joints.len(),
            )
        });
        (issues, objects)
    };
    if read(json) != read(&written) {
        return case;
    }
    case.payload = Payload::Json(written);
    case.features.insert(scenes::TAG.to_owned());
    case.decisions.insert(Decision::DefaultScene);
    case.description.push_str(
        " A first scene holds a copy of one of its colliders; the default scene is the second.",
    );
    case
}

/// Under [`Edition::V2`], every `MATRIX_EVERY`th valid generated case of a physics profile
/// writes its nodes' transforms as matrices.
const MATRIX_EVERY: usize = 5;

/// `case` with its nodes' transforms written as matrices ([`matrices`]), but for the nodes
/// its poses move (a pose overrides TRS members); unchanged for a VRM profile, or when the
/// reference would read other issues from the matrices (a pointer naming `scale`, a matrix
/// that does not decompose).
fn written_as_matrices(mut case: Case) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    let physics = case.profile.is_some_and(Profile::is_physics);
    let keep: BTreeSet<usize> = case
        .poses
        .iter()
        .filter_map(|p| p.poses.get("nodes")?.as_object())
        .flat_map(|nodes| nodes.keys().filter_map(|k| k.parse().ok()))
        .collect();
    let Some(written) = matrices::written_as_matrices(json, &keep).filter(|_| physics) else {
        return case;
    };
    let issues = |doc: &serde_json::Value| -> Vec<(reference::issue::Code, String)> {
        reference::read_tree(doc, None, case.profile)
            .issues
            .into_iter()
            .map(|i| (i.code, i.pointer))
            .collect()
    };
    if issues(json) != issues(&written) {
        return case;
    }
    case.payload = Payload::Json(written);
    case.features.insert(matrices::TAG.to_owned());
    case.description
        .push_str(" Node transforms are written as matrices.");
    case
}
