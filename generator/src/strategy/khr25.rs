//! Valid `khr-2025` and `khr-2026` scenes: a draft scene ([`super::khr`]) made valid under the
//! 2025 revision (drive targets with their gains) plus what the revision adds ([`Extras2025`]):
//! planes, zero and negative scale, a zero (infinite) mass, descriptions without limits, and
//! mesh shapes as the revision writes them: `khr-2025` node geometry (on the collider's node, on
//! a node outside the scene, merged from child meshes, morphed or skinned at rest), `khr-2026`
//! mesh geometry (the mesh the collider's node draws, a mesh no node draws, one mesh shared by
//! colliders of the same data, morphed by the mesh's weights, drawn skinned but read unskinned).
//! `khr-2026` is this one strategy with the 2026 geometry modes: its delta.
//!
//! Tapered capsules and cylinders and single-sided or bounded planes are tagged as features
//! (`shape.capsule.tapered`, `shape.plane.single-sided`...), so an engine that lacks them can
//! declare so and get NOT_SUPPORTED rather than failures in unrelated areas; untapered
//! capsules and cylinders are the default (a tapered draw is rarer).

use std::collections::BTreeSet;

use proptest::prelude::*;
use reference::decision::Decision;
use reference::profile::Profile;

use super::common::{Rendered, Tags, tag};
use super::rigid_scene::{Group, KhrScene, scene_of as draft_scene_of};
use super::shape::ShapeSpec;
use crate::case::ExpectedIssue;
use crate::doc::{DocBuilder, TrsSpec};
use reference::issue::Code;
use reference::khr::{IMPLICIT_SHAPES, RIGID_BODIES};
use serde_json::{Map, Value};

/// How mesh shapes are written: as `geometry.node` (`khr-2025`) or `geometry.mesh` (`khr-2026`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeometryMode {
    /// The collider's own node carries the mesh.
    SelfNode,
    /// A node outside the scene carries the mesh (as the public samples do).
    Detached,
    /// A node outside the scene whose two children carry the mesh (merged geometry).
    Children,
    /// A node outside the scene carrying the mesh at half size with a morph target that
    /// brings it back at the node's weight 0.5 [D-GEOMETRY-NODE].
    Morphed,
    /// A node outside the scene whose child carries the mesh at half size, skinned to a joint
    /// of scale 2 (its other child) [D-GEOMETRY-NODE].
    Skinned,
    /// `khr-2026`: the collider's node draws the mesh its geometry names (the Blender exporter's
    /// form); colliders on the same data share the mesh.
    MeshDrawn,
    /// `khr-2026`: a mesh no node draws; colliders on the same data share it.
    MeshOnly,
    /// `khr-2026`: the mesh stored at half size with a morph target that brings it back at the
    /// mesh's own weight 0.5 [D-GEOMETRY-MESH].
    MeshMorphed,
    /// `khr-2026`: the mesh as stored, drawn by a node whose skin doubles it; read unskinned
    /// [D-GEOMETRY-MESH].
    MeshSkinned,
}

impl GeometryMode {
    /// The modes of a revision: node geometry for `khr-2025`, mesh geometry for `khr-2026`.
    pub fn of(profile: Profile) -> Vec<GeometryMode> {
        if profile == Profile::Khr2026 {
            vec![
                GeometryMode::MeshDrawn,
                GeometryMode::MeshOnly,
                GeometryMode::MeshMorphed,
                GeometryMode::MeshSkinned,
            ]
        } else {
            vec![
                GeometryMode::SelfNode,
                GeometryMode::Detached,
                GeometryMode::Children,
                GeometryMode::Morphed,
                GeometryMode::Skinned,
            ]
        }
    }

    /// Whether the geometry names a mesh (`khr-2026`) rather than a node.
    pub fn names_a_mesh(self) -> bool {
        matches!(
            self,
            GeometryMode::MeshDrawn
                | GeometryMode::MeshOnly
                | GeometryMode::MeshMorphed
                | GeometryMode::MeshSkinned
        )
    }
}

/// A plane shape: bounded when `size` is given.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaneSpec {
    pub size: Option<(f64, f64)>,
    pub double_sided: bool,
}

/// A static collider on a node of unusual scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScaleMode {
    /// `[-1, 2, 1]` on a box: the absolute value acts.
    Negative,
    /// `[0, 0, 0]` on a sphere: disabled.
    Zero,
}

/// What a `khr-2025` scene adds to a draft scene.
#[derive(Clone, Debug, PartialEq)]
pub struct Extras2025 {
    pub geometry: GeometryMode,
    pub tapered: bool,
    pub plane: Option<PlaneSpec>,
    pub scaled: Option<ScaleMode>,
    /// The first body's mass is 0 (infinite, a warning) when there is a body.
    pub mass_zero: bool,
    /// The first joint description has no limit.
    pub free_joint: bool,
}

/// A `khr-2025` or `khr-2026` scene (the revision follows from its geometry mode).
#[derive(Clone, Debug, PartialEq)]
pub struct Khr25Scene {
    pub base: KhrScene,
    pub extras: Extras2025,
}

impl Khr25Scene {
    /// The revision the scene is written in.
    pub fn profile(&self) -> Profile {
        if self.extras.geometry.names_a_mesh() {
            Profile::Khr2026
        } else {
            Profile::Khr2025
        }
    }
}

fn plane() -> impl Strategy<Value = PlaneSpec> + Clone {
    (
        prop::option::weighted(
            0.5,
            (
                super::common::dec(5, 40, 1.0),
                super::common::dec(5, 40, 1.0),
            ),
        ),
        any::<bool>(),
    )
        .prop_map(|(size, double_sided)| PlaneSpec { size, double_sided })
}

fn extras(profile: Profile) -> impl Strategy<Value = Extras2025> + Clone {
    (
        prop::sample::select(GeometryMode::of(profile)),
        prop::bool::weighted(0.2),
        prop::option::weighted(0.3, plane()),
        prop::option::weighted(
            0.3,
            prop::sample::select(vec![ScaleMode::Negative, ScaleMode::Zero]),
        ),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.2),
    )
        .prop_map(
            |(geometry, tapered, plane, scaled, mass_zero, free_joint)| Extras2025 {
                geometry,
                tapered,
                plane,
                scaled,
                mass_zero,
                free_joint,
            },
        )
}

/// Valid scenes of `profile` (`khr-2025` or `khr-2026`) of 1 to 3 groups.
pub fn scene(profile: Profile) -> impl Strategy<Value = Khr25Scene> {
    scene_of(profile, 1..=3)
}

/// Valid scenes of `profile` (`khr-2025` or `khr-2026`) with a number of groups in `groups`.
pub fn scene_of(
    profile: Profile,
    groups: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Khr25Scene> {
    (draft_scene_of(groups), extras(profile)).prop_map(|(base, extras)| normalise(base, extras))
}

/// Make a draft scene valid under 2025 and apply the extras that change the base.
fn normalise(mut base: KhrScene, mut extras: Extras2025) -> Khr25Scene {
    for d in &mut base.descs {
        for drive in &mut d.drives {
            // The schema's dependencies: a target comes with its gain and a gain with its target.
            drive.stiffness = drive
                .position_target
                .map(|_| drive.stiffness.unwrap_or(50.0));
            drive.damping = drive.velocity_target.map(|_| drive.damping.unwrap_or(5.0));
        }
    }
    if extras.free_joint
        && let Some(first) = base.descs.first_mut()
    {
        first.kind = "free";
        first.limits.clear();
    }
    if !extras.tapered {
        let untaper = |s: &mut ShapeSpec| s.c = s.b;
        for g in &mut base.groups {
            match g {
                Group::Body { main, nested } => {
                    for leaf in std::iter::once(main).chain(nested.as_mut()) {
                        leaf.colliders
                            .iter_mut()
                            .for_each(|c| untaper(&mut c.item.shape));
                        if let Some(t) = &mut leaf.trigger {
                            untaper(&mut t.item.shape);
                        }
                    }
                }
                Group::Static { colliders, .. } => {
                    colliders
                        .iter_mut()
                        .for_each(|c| untaper(&mut c.item.shape));
                }
                Group::SimpleTrigger(t) => untaper(&mut t.shape),
                Group::CompoundTrigger(members) => {
                    members.iter_mut().for_each(|m| untaper(&mut m.item));
                }
            }
        }
    }
    let first_body = base.groups.iter_mut().find_map(|g| match g {
        Group::Body { main, .. } => Some(main),
        _ => None,
    });
    match first_body {
        Some(main) if extras.mass_zero => main.motion.mass = Some(0.0),
        _ => extras.mass_zero = false,
    }
    Khr25Scene { base, extras }
}

/// Render a `khr-2025` scene.
pub fn render(scene: &Khr25Scene, stem: &str) -> Rendered {
    super::khr::render_2025(&scene.base, &scene.extras, stem)
}

/// Write the extras that add nodes: the plane `below` every group (at `y = below`), the
/// scaled collider above them; tag what the base scene's extras changed. Returns the issues
/// they draw on purpose (a zero-scale collider is disabled: information).
pub(super) fn render_extras(
    extras: &Extras2025,
    doc: &mut DocBuilder,
    tags: &mut Tags,
    decisions: &mut BTreeSet<Decision>,
    below: f64,
) -> Vec<ExpectedIssue> {
    let mut expected = Vec::new();
    if let Some(p) = &extras.plane {
        let mut params = Map::new();
        if let Some((x, z)) = p.size {
            params.insert("sizeX".into(), Value::from(x));
            params.insert("sizeZ".into(), Value::from(z));
            tag(tags, &["shape", "plane", "bounded"]);
        } else {
            tag(tags, &["shape", "plane", "unbounded"]);
        }
        if p.double_sided {
            params.insert("doubleSided".into(), Value::from(true));
            tag(tags, &["shape", "plane", "double-sided"]);
        } else {
            tag(tags, &["shape", "plane", "single-sided"]);
        }
        let node = doc.node("Ground", TrsSpec::at([0.0, below, 0.0]), None);
        collider_on(doc, node, "plane", params);
    }
    if let Some(mode) = extras.scaled {
        let (scale, kind, params) = match mode {
            ScaleMode::Negative => {
                let mut p = Map::new();
                p.insert("size".into(), Value::from([0.5, 0.5, 0.5]));
                tag(tags, &["collider", "scale", "negative"]);
                decisions.insert(Decision::ColliderScale);
                ([-1.0, 2.0, 1.0], "box", p)
            }
            ScaleMode::Zero => {
                let mut p = Map::new();
                p.insert("radius".into(), Value::from(0.5));
                tag(tags, &["collider", "scale", "zero"]);
                ([0.0, 0.0, 0.0], "sphere", p)
            }
        };
        decisions.insert(Decision::ShapeScale);
        let node = doc.node(
            "Scaled",
            TrsSpec {
                translation: Some([0.0, 2.0 - below, 0.0]),
                rotation: None,
                scale: Some(scale),
            },
            None,
        );
        collider_on(doc, node, kind, params);
        if mode == ScaleMode::Zero {
            expected.push(ExpectedIssue::new(
                Code::KhrShapeDisabled,
                format!("/nodes/{node}/extensions/{RIGID_BODIES}/collider"),
            ));
        }
    }
    if extras.mass_zero {
        tag(tags, &["body", "mass", "zero"]);
        decisions.insert(Decision::MassZeroSchema);
    }
    expected
}

/// A static collider on `node` whose implicit shape is `kind` with `params`.
fn collider_on(doc: &mut DocBuilder, node: usize, kind: &'static str, params: Map<String, Value>) {
    let mut shape = Map::new();
    shape.insert("type".into(), Value::from(kind));
    shape.insert(kind.into(), Value::from(params));
    let index = doc.push_root(IMPLICIT_SHAPES, "shapes", Value::from(shape));
    let mut geometry = Map::new();
    geometry.insert("shape".into(), Value::from(index));
    let mut collider = Map::new();
    collider.insert("geometry".into(), Value::from(geometry));
    doc.node_extension_member(node, RIGID_BODIES, "collider", Value::from(collider));
}

/// Every tag a scene of `profile` (`khr-2025` or `khr-2026`) can carry.
pub fn universe(profile: Profile, tags: &mut Tags) {
    super::khr::universe(tags);
    let geometry: &[&str] = if profile == Profile::Khr2026 {
        &[
            "geometry.mesh.drawn",
            "geometry.mesh.only",
            "geometry.mesh.shared",
            "geometry.mesh.morphed",
            "geometry.mesh.skinned",
        ]
    } else {
        &[
            "geometry.node.self",
            "geometry.node.detached",
            "geometry.node.children",
            "geometry.node.morphed",
            "geometry.node.skinned",
        ]
    };
    tags.extend(geometry.iter().map(|t| (*t).to_owned()));
    for t in [
        "shape.plane.bounded",
        "shape.plane.unbounded",
        "shape.plane.single-sided",
        "shape.plane.double-sided",
        "shape.capsule.tapered",
        "shape.cylinder.tapered",
        "collider.scale.negative",
        "collider.scale.zero",
        "body.mass.zero",
        "joint.no-limits",
        "joint.kind.free",
    ] {
        tags.insert(t.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::sample;

    /// The positions of every mesh collider's mesh, collider by collider.
    fn collider_meshes(s: &Khr25Scene) -> Vec<Vec<[f64; 3]>> {
        let r = render(s, "s");
        let json = crate::canonical::to_string(&r.built.json);
        let reading = reference::read_bytes(json.as_bytes(), None, None);
        assert!(!reading.has_errors(), "{:?}", reading.issues);
        let scene = reading.scene.expect("scene");
        scene
            .colliders
            .iter()
            .filter_map(|c| match &scene.shapes[c.shape] {
                reference::scene::Shape::Convex { mesh }
                | reference::scene::Shape::Trimesh { mesh } => {
                    Some(scene.meshes[mesh].positions.clone())
                }
                _ => None,
            })
            .collect()
    }

    /// The mesh collider solids of scenes drawn from `profile`'s strategy (seed `seed`) in
    /// geometry mode `plain`, against the same scenes in each mode of `deformed`: equal within
    /// 1e-9 [D-GEOMETRY-NODE], [D-GEOMETRY-MESH].
    fn same_solids(profile: Profile, seed: u64, plain: GeometryMode, deformed: &[GeometryMode]) {
        let strategy = scene(profile);
        let mut compared = 0;
        for index in 0..48 {
            let mut s = sample(&strategy, seed, index, 0).expect("a scene");
            s.base.buffer = crate::doc::BufferMode::DataUri;
            s.extras.geometry = plain;
            let want = collider_meshes(&s);
            if want.is_empty() {
                continue;
            }
            for &mode in deformed {
                s.extras.geometry = mode;
                let got = collider_meshes(&s);
                assert_eq!(got.len(), want.len(), "{index} {mode:?}");
                for (a, b) in want.iter().zip(&got) {
                    assert_eq!(a.len(), b.len());
                    for (p, q) in a.iter().zip(b) {
                        for k in 0..3 {
                            assert!((p[k] - q[k]).abs() < 1e-9, "{index} {mode:?}: {p:?} {q:?}");
                        }
                    }
                }
                compared += 1;
            }
        }
        assert!(compared > 0, "no scene with a mesh collider");
    }

    /// A morphed or skinned node geometry is the solid a plain detached one gives: the half-size
    /// mesh brought back by the morph weight 0.5 or the joint of scale 2 [D-GEOMETRY-NODE].
    #[test]
    fn morphed_and_skinned_geometry_is_the_plain_solid() {
        let deformed = [GeometryMode::Morphed, GeometryMode::Skinned];
        same_solids(Profile::Khr2025, 7, GeometryMode::Detached, &deformed);
    }

    /// A `khr-2026` mesh geometry is the solid whatever draws it: morphed back by the mesh's
    /// weight 0.5, and read unskinned (its bind pose) though a skin doubles it where it is
    /// drawn [D-GEOMETRY-MESH]. A reader that skins it gets twice the size and fails this.
    #[test]
    fn mesh_geometry_is_the_plain_solid_morphed_or_drawn_skinned() {
        let deformed = [
            GeometryMode::MeshDrawn,
            GeometryMode::MeshMorphed,
            GeometryMode::MeshSkinned,
        ];
        same_solids(Profile::Khr2026, 7, GeometryMode::MeshOnly, &deformed);
    }

    /// Every drawn scene reads under its revision without an error and with exactly the
    /// issues it expects, and its drives keep the schema's dependencies. The document dates
    /// itself when it has a mesh collider; otherwise nothing dates it and it is read as the
    /// newest, `khr-2026` [D-KHR-REVISION].
    #[test]
    fn scenes_are_valid_under_their_revision() {
        for profile in [Profile::Khr2025, Profile::Khr2026] {
            let strategy = scene(profile);
            let mut dated = 0;
            for index in 0..48 {
                let mut s = sample(&strategy, 3, index, 0).expect("a scene");
                s.base.buffer = crate::doc::BufferMode::DataUri;
                assert_eq!(s.profile(), profile);
                for d in s.base.descs.iter().flat_map(|d| &d.drives) {
                    assert_eq!(d.position_target.is_some(), d.stiffness.is_some());
                    assert_eq!(d.velocity_target.is_some(), d.damping.is_some());
                }
                let r = render(&s, "s");
                let json = crate::canonical::to_string(&r.built.json);
                let detected = reference::read_bytes(json.as_bytes(), None, None);
                if detected.dated {
                    dated += 1;
                    assert_eq!(detected.profile, Some(profile), "{index}");
                } else {
                    assert_eq!(detected.profile, Some(Profile::Khr2026), "{index}");
                }
                let reading = reference::read_bytes(json.as_bytes(), None, Some(profile));
                assert!(
                    !reading.has_errors(),
                    "{index}: {:?}\n{json}",
                    reading.issues
                );
                let mut want: Vec<(String, String)> = r
                    .expected
                    .iter()
                    .map(|e| (e.code.id().to_owned(), e.pointer.clone()))
                    .collect();
                let mut got: Vec<(String, String)> = reading
                    .issues
                    .iter()
                    .map(|i| (i.code.id().to_owned(), i.pointer.clone()))
                    .collect();
                want.sort();
                got.sort();
                assert_eq!(want, got, "{index}\n{json}");
            }
            assert!(dated > 0, "{profile}: no scene with a mesh collider");
        }
    }
}
