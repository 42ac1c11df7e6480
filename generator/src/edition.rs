//! The generation rules of a corpus edition. `corpus/v1` keeps the rules it was released with
//! ([`Edition::V1`]), so that it regenerates byte for byte; the living corpus (`corpus/v2`,
//! [`Edition::V2`]) gets stronger cases: scored VRM draft outputs, node matrices, another
//! scene before the default one, tapered shapes only where a case is about shapes, and
//! tighter free-fall checks (`scenario::FALL_TOLERANCE`).

use std::collections::BTreeSet;

use reference::decision::Decision;
use reference::profile::Profile;
use reference::scene::{Scene, Shape};
use serde_json::Value;

use crate::case::{Case, Payload, Tier};
use crate::features;
use crate::generate;
use crate::matrices;
use crate::plan::Edition;
use crate::scenes;

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
    /// The node scales a VRM 1.0 case gets (physics profiles ignore it).
    pub scale: Scaling,
}

impl Framing {
    /// The framing of the `valid_n`th valid generated case: every `MATRIX_EVERY`th written
    /// with matrices, every `SCENES_EVERY`th with another scene, and the scalings in turn.
    pub fn nth(valid_n: usize) -> Framing {
        Framing {
            matrices: valid_n.is_multiple_of(MATRIX_EVERY),
            another_scene: valid_n.is_multiple_of(SCENES_EVERY),
            scale: Scaling::ALL[valid_n % Scaling::ALL.len()],
        }
    }
}

/// The node scales of a VRM 1.0 case under [`Edition::V2`] ([`scaled`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scaling {
    /// Unit scales, as drawn.
    #[default]
    None,
    /// A uniform scale on every node (world rotations stay the products of local ones).
    Uniform,
    /// A non-uniform scale on every leaf and every node whose children are all leaves: no node
    /// with a non-uniform scale is above the parent of another, so no aim's parent is sheared.
    NonUniformLow,
    /// A non-uniform scale on every node with children: an aim whose parent is below a scaled
    /// node and a rotated one has a sheared parent [D-VRM1-SHEAR].
    NonUniformHigh,
}

impl Scaling {
    /// Every scaling, in the order [`Framing::nth`] takes them.
    pub const ALL: [Scaling; 4] = [
        Scaling::None,
        Scaling::Uniform,
        Scaling::NonUniformLow,
        Scaling::NonUniformHigh,
    ];
}

/// A valid generated case under [`Edition::V2`]: its tapered shapes tagged
/// (`shape.capsule.tapered`...) so an engine that lacks them gets `NOT_SUPPORTED`, and written
/// as `framing` says (where the reference reads the written form the same way).
pub fn framed(mut case: Case, framing: Framing) -> Case {
    for kind in tapered_kinds(&case) {
        case.features.insert(format!("shape.{kind}.tapered"));
    }
    case.edition = Edition::V2;
    let vrm1 = case.profile == Some(Profile::VrmcNodeConstraint10);
    if vrm1 && framing.scale != Scaling::None {
        case = scaled(case, framing.scale);
    }
    if framing.matrices {
        case = written_as_matrices(case);
    }
    if framing.another_scene {
        case = if vrm1 {
            with_another_forest(case)
        } else {
            with_another_scene(case)
        };
    }
    if vrm1 {
        rescore_shear(&mut case);
    }
    case
}

/// The feature tags of a VRM 1.0 case's framing under [`Edition::V2`] (under `vrm1.`, the
/// profile's own area, which a VRM implementation declares).
pub mod vrm1_tags {
    pub const MATRIX: &str = "vrm1.node-matrix";
    pub const SCENE: &str = "vrm1.scene.non-default";
    pub const UNIFORM: &str = "vrm1.scale.uniform";
    pub const NON_UNIFORM: &str = "vrm1.scale.non-uniform";
    pub const SHEAR: &str = "vrm1.scale.shear";
}

/// The non-uniform scales given in turn (by node index): each far from 1 on every axis and
/// from the others, so a reader that drops a scale or swaps two axes misplaces a node.
const NON_UNIFORM: [[f64; 3]; 3] = [[2.0, 0.5, 1.25], [0.5, 1.5, 2.0], [1.5, 2.0, 0.5]];
/// The uniform scales given in turn (by node index).
const UNIFORM: [f64; 3] = [2.0, 0.5, 1.5];

/// A VRM 1.0 `case` with scales on its nodes as `scaling` says; unchanged when a pose of the
/// scaled scene is not well conditioned (`vrm1::poses_well_conditioned`) or no node changes.
/// The scales change the world positions an aim reads (its source and destination), and a
/// destination's own scale is reported beside its output rotation.
fn scaled(mut case: Case, scaling: Scaling) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    let mut out = json.clone();
    let Some(nodes) = out.get_mut("nodes").and_then(|n| n.as_array_mut()) else {
        return case;
    };
    let children: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            n.get("children")
                .and_then(serde_json::Value::as_array)
                .map(|c| {
                    c.iter()
                        .filter_map(|i| i.as_u64().and_then(|i| usize::try_from(i).ok()))
                        .collect()
                })
                .unwrap_or_default()
        })
        .collect();
    let leaf = |i: usize| children[i].is_empty();
    let mut changed = false;
    for (i, node) in nodes.iter_mut().enumerate() {
        let scale = match scaling {
            Scaling::None => None,
            Scaling::Uniform => Some([UNIFORM[i % 3]; 3]),
            Scaling::NonUniformLow => children[i]
                .iter()
                .all(|&c| c < children.len() && leaf(c))
                .then_some(NON_UNIFORM[i % 3]),
            Scaling::NonUniformHigh => (!leaf(i)).then_some(NON_UNIFORM[i % 3]),
        };
        if let (Some(scale), Some(members)) = (scale, node.as_object_mut()) {
            members.insert("scale".into(), serde_json::json!(scale));
            changed = true;
        }
    }
    if !changed || !crate::strategy::vrm1::poses_well_conditioned(&out, &case.poses) {
        return case;
    }
    case.payload = Payload::Json(out);
    let (tag, what) = match scaling {
        Scaling::Uniform => (vrm1_tags::UNIFORM, "uniform scales on every node"),
        Scaling::NonUniformLow => (
            vrm1_tags::NON_UNIFORM,
            "non-uniform scales on its leaves and the nodes whose children are all leaves",
        ),
        _ => (
            vrm1_tags::NON_UNIFORM,
            "non-uniform scales on the nodes with children",
        ),
    };
    case.features.insert(tag.to_owned());
    case.description.push_str(&format!(" Nodes carry {what}."));
    case
}

/// A VRM 1.0 case whose outputs reach an aim under a sheared parent at one of its poses
/// [D-VRM1-SHEAR]: informative, citing the decision and tagged. Others are left as they are.
fn rescore_shear(case: &mut Case) {
    if !case.valid() {
        return;
    }
    let Some(open) = open_decisions(case, Profile::VrmcNodeConstraint10) else {
        return;
    };
    if open.contains(&Decision::Vrm1Shear) {
        case.tier = Tier::Informative;
        case.decisions.insert(Decision::Vrm1Shear);
        case.features.insert(vrm1_tags::SHEAR.to_owned());
        case.description.push_str(
            " An aim's parent is sheared (a non-uniform scale above a rotated node): it has no \
             world rotation, so the case is informative.",
        );
    }
}

/// A VRM 1.0 `case` with a copy of its whole node forest as a first scene, its own scene
/// second and the default (`"scene": 1`): the copy's constraints are outside the default
/// scene, so they are not evaluated [D-SCENE]; an importer that loads scene 0 evaluates only
/// the copy and reports none of the case's outputs. Unchanged when the reference would read
/// other constraints or issues.
fn with_another_forest(case: Case) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    let Some(written) = scenes::with_another_forest(json, reference::vrm1::KEY) else {
        return case;
    };
    let constraints = |s: &Scene| {
        s.constraints
            .iter()
            .map(|c| (c.node, c.source))
            .collect::<Vec<_>>()
    };
    second_scene(
        case,
        written,
        constraints,
        vrm1_tags::SCENE,
        "its nodes and constraints",
    )
}

/// `case` with its document `written` again with a copy of `copied` in a first scene and the
/// default scene second, when the reference reads the same issues and the same `objects` of
/// the scene from both; else `case` unchanged.
fn second_scene<T: PartialEq>(
    mut case: Case,
    written: Value,
    objects: impl Fn(&Scene) -> T,
    tag: &str,
    copied: &str,
) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    let read = |doc: &Value| {
        let r = reference::read_tree(doc, None, case.profile);
        let issues: Vec<(reference::issue::Code, String)> = r
            .issues
            .iter()
            .map(|i| (i.code, i.pointer.clone()))
            .collect();
        (issues, r.scene.as_ref().map(&objects))
    };
    if read(json) != read(&written) {
        return case;
    }
    case.payload = Payload::Json(written);
    case.features.insert(tag.to_owned());
    case.decisions.insert(Decision::DefaultScene);
    case.description.push_str(&format!(
        " A first scene holds a copy of {copied}; the default scene is the second."
    ));
    case
}

/// A VRM draft case under [`Edition::V2`]: its outputs follow the D-VRM decisions, which
/// follow the draft's public implementation, so a valid case that [`Edition::V1`] left
/// informative is scored `required` unless it reaches a decision the draft leaves open
/// ([`open_decisions`], which it then cites). A case with a warning stays optional.
pub fn rescore_draft(case: &mut Case) {
    if case.profile != Some(Profile::VrmcConstraintsDraft)
        || !case.valid()
        || case.tier != Tier::Informative
    {
        return;
    }
    match open_decisions(case, Profile::VrmcConstraintsDraft) {
        Some(open) if open.is_empty() => case.tier = Tier::Required,
        Some(open) => case.decisions.extend(open),
        None => {}
    }
}

/// The decisions left open that a valid VRM case's outputs reach at one of its poses, read
/// under `profile` ([`reference::constraints::Evaluator::open_decisions`]); `None` when the
/// scene cannot be evaluated.
pub fn open_decisions(case: &Case, profile: Profile) -> Option<BTreeSet<Decision>> {
    let Payload::Json(json) = &case.payload else {
        return None;
    };
    let reading = reference::read_tree(json, None, Some(profile));
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
    let mut case = generate::valid_case(profile, seed, index, id, Some(wanted));
    for retry in 1..=ISOLATION_REDRAWS {
        if !rare_outside_area(&case, wanted) {
            break;
        }
        case = generate::valid_case(profile, seed, index + retry * 1_000_003, id, Some(wanted));
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
fn with_another_scene(case: Case) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    if !case.profile.is_some_and(Profile::is_physics) {
        return case;
    }
    let Some(written) = scenes::with_another_scene(json) else {
        return case;
    };
    let objects = |s: &Scene| {
        (
            s.bodies.iter().map(|b| b.node).collect::<Vec<_>>(),
            s.colliders.iter().map(|c| c.node).collect::<Vec<_>>(),
            s.joints.len(),
        )
    };
    second_scene(case, written, objects, scenes::TAG, "one of its colliders")
}

/// Under [`Edition::V2`], every `MATRIX_EVERY`th valid generated case of a physics profile
/// writes its nodes' transforms as matrices.
const MATRIX_EVERY: usize = 5;

/// `case` with its nodes' transforms written as matrices ([`matrices`]), but for the nodes
/// its poses move (a pose overrides TRS members); unchanged for the VRM draft, or when the
/// reference would read other issues from the matrices (a pointer naming `scale`, a matrix
/// that does not decompose).
fn written_as_matrices(mut case: Case) -> Case {
    let Payload::Json(json) = &case.payload else {
        return case;
    };
    let vrm1 = case.profile == Some(Profile::VrmcNodeConstraint10);
    let physics = case.profile.is_some_and(Profile::is_physics) || vrm1;
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
    case.features.insert(
        if vrm1 {
            vrm1_tags::MATRIX
        } else {
            matrices::TAG
        }
        .to_owned(),
    );
    case.description
        .push_str(" Node transforms are written as matrices.");
    case
}

#[cfg(test)]
mod tests {
    use super::*;

    /// VRM 1.0 cases under each scaling: low non-uniform scales never shear an aim's parent, so
    /// those cases stay required; high ones do in some, which are then informative, cite
    /// [D-VRM1-SHEAR] and carry its tag; a scaled case carries its scaling's tag.
    #[test]
    fn vrm1_scalings_are_tagged_and_only_sheared_aims_are_informative() {
        let profile = Profile::VrmcNodeConstraint10;
        let mut sheared = 0;
        for scale in Scaling::ALL {
            for index in 0..40u64 {
                let id = format!("vrm1/gen/vrm1/{index:05}");
                let base = generate::valid_case(profile, 2, index, &id, None);
                let case = framed(
                    base.clone(),
                    Framing {
                        scale,
                        ..Framing::default()
                    },
                );
                let shear = case.features.contains(vrm1_tags::SHEAR);
                assert_eq!(shear, case.decisions.contains(&Decision::Vrm1Shear), "{id}");
                if shear {
                    sheared += 1;
                    assert_eq!(scale, Scaling::NonUniformHigh, "{id}");
                    assert_eq!(case.tier, Tier::Informative, "{id}");
                } else {
                    assert_eq!(case.tier, base.tier, "{id}");
                }
                let tag = match scale {
                    Scaling::None => None,
                    Scaling::Uniform => Some(vrm1_tags::UNIFORM),
                    _ => Some(vrm1_tags::NON_UNIFORM),
                };
                if let Some(tag) = tag
                    && case.payload != base.payload
                {
                    assert!(case.features.contains(tag), "{id}");
                }
                if scale == Scaling::None {
                    assert_eq!(case.payload, base.payload, "{id}");
                }
            }
        }
        assert!(sheared > 0);
    }

    /// The copied forest keeps the reading of the default scene: the same constraints, on the
    /// same nodes, and no more.
    #[test]
    fn a_vrm1_case_with_another_forest_reads_the_same_constraints() {
        let profile = Profile::VrmcNodeConstraint10;
        let base = generate::valid_case(profile, 2, 7, "vrm1/gen/vrm1/00007", None);
        let case = framed(
            base.clone(),
            Framing {
                another_scene: true,
                ..Framing::default()
            },
        );
        assert!(case.features.contains(vrm1_tags::SCENE));
        let constraints = |c: &Case| {
            let Payload::Json(json) = &c.payload else {
                panic!("json")
            };
            reference::read_tree(json, None, Some(profile))
                .scene
                .expect("scene")
                .constraints
        };
        assert_eq!(constraints(&case), constraints(&base));
        let Payload::Json(json) = &case.payload else {
            panic!("json")
        };
        assert_eq!(json["scene"], 1);
    }
}
