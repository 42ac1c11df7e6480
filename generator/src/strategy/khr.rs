//! Valid `khr-2024-draft` scenes: KHR_physics_rigid_bodies + KHR_collision_shapes, spelled as
//! seed 002 and the seed-era samples spell them. The same scenes render as `khr-2025` (with
//! what [`super::khr25`] adds) through [`render_2025`]: one renderer, the revision a parameter.

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::decision::Decision;
use serde_json::{Map, Value};

use super::body::{MotionSpec, motion};
use super::common::{Rendered, Tags, tag};
use super::filter::{FilterSpec, filter};
use super::hierarchy::{Attached, Placement, attached, grid, placement_tag};
use super::joint::{JointDescSpec, joint_desc};
use super::khr25::{Extras2025, GeometryMode};
use super::material::{MaterialSpec, material, pair_tags};
use super::shape::{Dialect, ShapeKind, ShapeSpec, shape, solid_mesh};
use super::transform;
use crate::case::{ExpectedIssue, PoseSet};
use crate::doc::{BufferMode, DocBuilder, MeshData, TrsSpec};
use reference::issue::Code;
use reference::khr::{COLLISION_SHAPES, IMPLICIT_SHAPES, RIGID_BODIES};

/// A collider: a shape with an optional material and filter (raw indices, taken modulo the
/// number of materials / filters; `None` or no materials: omitted).
#[derive(Clone, Debug, PartialEq)]
pub struct ColliderUse {
    pub shape: ShapeSpec,
    pub material: Option<usize>,
    pub filter: Option<usize>,
}

/// A simple trigger: a shape with an optional filter.
#[derive(Clone, Debug, PartialEq)]
pub struct TriggerShape {
    pub shape: ShapeSpec,
    pub filter: Option<usize>,
}

/// A rigid body with `motion`, its colliders and maybe a trigger attached to it.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyLeaf {
    pub motion: MotionSpec,
    pub rotation: Option<[f64; 4]>,
    pub colliders: Vec<Attached<ColliderUse>>,
    pub trigger: Option<Attached<TriggerShape>>,
}

/// One independent group, placed in its own grid cell.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum Group {
    /// A body, maybe with an independent body nested below it.
    Body {
        main: BodyLeaf,
        nested: Option<BodyLeaf>,
    },
    /// Colliders without any `motion` above them: static.
    Static {
        rotation: Option<[f64; 4]>,
        colliders: Vec<Attached<ColliderUse>>,
    },
    SimpleTrigger(TriggerShape),
    /// A compound trigger whose members are descendants with their own `trigger.shape`.
    CompoundTrigger(Vec<Attached<ShapeSpec>>),
}

/// A joint between two body groups (raw indices) or a body and the world.
#[derive(Clone, Debug, PartialEq)]
pub struct JointUse {
    pub a: usize,
    pub b: Option<usize>,
    pub desc: usize,
    pub enable_collision: Option<bool>,
    pub rotation: Option<[f64; 4]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct KhrScene {
    pub groups: Vec<Group>,
    pub materials: Vec<MaterialSpec>,
    pub filters: Vec<FilterSpec>,
    pub descs: Vec<JointDescSpec>,
    pub joints: Vec<JointUse>,
    pub buffer: BufferMode,
}

fn collider(kinds: Vec<ShapeKind>) -> impl Strategy<Value = ColliderUse> + Clone {
    (
        shape(kinds),
        prop::option::weighted(0.7, 0usize..8),
        prop::option::weighted(0.4, 0usize..8),
    )
        .prop_map(|(shape, material, filter)| ColliderUse {
            shape,
            material,
            filter,
        })
}

fn trigger_shape() -> impl Strategy<Value = TriggerShape> + Clone {
    (
        shape(vec![
            ShapeKind::Sphere,
            ShapeKind::Box,
            ShapeKind::Capsule,
            ShapeKind::Cylinder,
            ShapeKind::Convex,
        ]),
        prop::option::weighted(0.4, 0usize..8),
    )
        .prop_map(|(shape, filter)| TriggerShape { shape, filter })
}

/// Shapes a moving body may use: trimesh is for static geometry only (seed 002 Colliders).
fn dynamic_kinds() -> Vec<ShapeKind> {
    ShapeKind::ALL
        .into_iter()
        .filter(|k| *k != ShapeKind::Trimesh)
        .collect()
}

fn body_leaf() -> impl Strategy<Value = BodyLeaf> + Clone {
    (
        motion(),
        transform::maybe_rotation(),
        prop::collection::vec(attached(collider(dynamic_kinds())), 1..=2),
        prop::option::weighted(0.2, attached(trigger_shape())),
    )
        .prop_map(|(motion, rotation, colliders, trigger)| BodyLeaf {
            motion,
            rotation,
            colliders,
            trigger,
        })
        .boxed()
}

fn group() -> impl Strategy<Value = Group> + Clone {
    prop_oneof![
        5 => (body_leaf(), prop::option::weighted(0.2, body_leaf()))
            .prop_map(|(main, nested)| Group::Body { main, nested }).boxed(),
        2 => (transform::maybe_rotation(), prop::collection::vec(attached(collider(ShapeKind::ALL.to_vec())), 1..=2))
            .prop_map(|(rotation, colliders)| Group::Static { rotation, colliders }).boxed(),
        1 => trigger_shape().prop_map(Group::SimpleTrigger).boxed(),
        1 => prop::collection::vec(
                attached(shape(vec![ShapeKind::Sphere, ShapeKind::Box, ShapeKind::Capsule])), 1..=2)
            .prop_map(Group::CompoundTrigger).boxed(),
    ]
}

fn joint_use() -> impl Strategy<Value = JointUse> + Clone {
    (
        0usize..8,
        prop::option::weighted(0.7, 0usize..8),
        0usize..4,
        prop::option::weighted(0.3, any::<bool>()),
        transform::maybe_rotation(),
    )
        .prop_map(|(a, b, desc, enable_collision, rotation)| JointUse {
            a,
            b,
            desc,
            enable_collision,
            rotation,
        })
}

/// Valid KHR scenes of 1 to 3 groups (small enough for a corpus case; see `scene_of`).
pub fn scene() -> impl Strategy<Value = KhrScene> {
    scene_of(1..=3)
}

/// Valid KHR scenes with a number of groups in `groups`.
pub fn scene_of(groups: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = KhrScene> {
    (
        prop::collection::vec(group(), groups),
        prop::collection::vec(material(), 0..=4),
        prop::collection::vec(filter(), 0..=3),
        prop::collection::vec(joint_desc(), 1..=3),
        prop::collection::vec(joint_use(), 0..=3),
        prop::sample::select(vec![BufferMode::DataUri, BufferMode::Sibling]),
    )
        .prop_map(
            |(groups, materials, filters, descs, joints, buffer)| KhrScene {
                groups,
                materials,
                filters,
                descs,
                joints,
                buffer,
            },
        )
}

fn pick(raw: Option<usize>, len: usize) -> Option<usize> {
    raw.filter(|_| len > 0).map(|i| i % len)
}

fn leaf_radius(b: &BodyLeaf) -> f64 {
    let colliders = b
        .colliders
        .iter()
        .map(|c| c.reach() + c.item.shape.bounding_radius(Dialect::Khr));
    let trigger = b
        .trigger
        .iter()
        .map(|t| t.reach() + t.item.shape.bounding_radius(Dialect::Khr));
    colliders.chain(trigger).fold(0.1, f64::max)
}

/// Where the nested body sits in its parent's frame: above every part of the parent.
fn nested_offset(main: &BodyLeaf, nested: &BodyLeaf) -> [f64; 3] {
    [
        0.0,
        (leaf_radius(main) + leaf_radius(nested) + 0.5).ceil(),
        0.0,
    ]
}

fn group_radius(g: &Group) -> f64 {
    match g {
        Group::Body { main, nested } => {
            let r = leaf_radius(main);
            nested
                .as_ref()
                .map_or(r, |n| nested_offset(main, n)[1] + leaf_radius(n))
        }
        Group::Static { colliders, .. } => colliders
            .iter()
            .map(|c| c.reach() + c.item.shape.bounding_radius(Dialect::Khr))
            .fold(0.1, f64::max),
        Group::SimpleTrigger(t) => t.shape.bounding_radius(Dialect::Khr),
        Group::CompoundTrigger(m) => m
            .iter()
            .map(|c| c.reach() + c.item.bounding_radius(Dialect::Khr))
            .fold(0.1, f64::max),
    }
}

struct Ctx<'a> {
    scene: &'a KhrScene,
    /// `Some`: render as `khr-2025`.
    r2025: Option<&'a Extras2025>,
    doc: DocBuilder,
    tags: Tags,
    decisions: BTreeSet<Decision>,
    used_materials: BTreeSet<usize>,
    /// Issues a valid 2025 scene draws on purpose.
    expected: Vec<ExpectedIssue>,
    /// The glTF mesh written for each mesh data (2026 mesh geometry), so that colliders on
    /// the same data share one mesh.
    meshes: Vec<(MeshData, usize)>,
}

impl Ctx<'_> {
    fn shape(&mut self, s: &ShapeSpec) -> usize {
        s.tags(&mut self.tags);
        let v = s.render(Dialect::Khr, &mut self.doc);
        self.doc
            .push_root(COLLISION_SHAPES, "shapes", Value::from(v))
    }

    /// A skin joint named `name` under `parent` whose scale 2 doubles what it skins at rest.
    fn doubling_joint(&mut self, name: String, parent: usize) -> usize {
        let twice = TrsSpec {
            translation: None,
            rotation: None,
            scale: Some([2.0, 2.0, 2.0]),
        };
        self.doc.node(name, twice, Some(parent))
    }

    /// The glTF mesh of `data`, written once: colliders on the same data share it.
    fn shared_mesh(&mut self, data: &MeshData) -> usize {
        if let Some((_, mesh)) = self.meshes.iter().find(|(d, _)| d == data) {
            tag(&mut self.tags, &["geometry", "mesh", "shared"]);
            return *mesh;
        }
        let mesh = self.doc.mesh(data);
        self.meshes.push((data.clone(), mesh));
        mesh
    }

    /// The shape reference of the `member` (`collider` or `trigger`) on `node`: the draft's
    /// `"shape": i`, or 2025's and 2026's `"geometry": {...}` (mesh kinds as node geometry
    /// [D-GEOMETRY-NODE] or mesh geometry [D-GEOMETRY-MESH]).
    fn shape_member(
        &mut self,
        (node, member): (usize, &str),
        s: &ShapeSpec,
        target: &mut Map<String, Value>,
    ) {
        let Some(extras) = self.r2025 else {
            let shape = self.shape(s);
            target.insert("shape".into(), Value::from(shape));
            return;
        };
        let mut geometry = Map::new();
        if s.kind.is_mesh() {
            s.tags(&mut self.tags);
            let convex = s.kind == ShapeKind::Convex;
            let data = solid_mesh(s.solid, s.a);
            let source = match extras.geometry {
                GeometryMode::Morphed => {
                    // The solid stored at half size, morphed back to full size by the node's
                    // weight 0.5 (the mesh's default weight is 0).
                    let g = self
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let mesh = self.doc.morphed_mesh(&data);
                    self.doc.node_member(g, "mesh", Value::from(mesh));
                    self.doc.node_member(g, "weights", Value::from([0.5]));
                    tag(&mut self.tags, &["geometry", "node", "morphed"]);
                    g
                }
                GeometryMode::Skinned => {
                    // The solid stored at half size, skinned back to full size by a joint of
                    // scale 2 beside it under the geometry node.
                    let g = self
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let joint = self.doubling_joint(format!("Geometry{node}Joint"), g);
                    let skinned = self.doc.node(
                        format!("Geometry{node}Skinned"),
                        TrsSpec::default(),
                        Some(g),
                    );
                    let mesh = self.doc.skinned_mesh(&data, 0.5);
                    let skin = self.doc.skin(&[joint]);
                    self.doc.node_member(skinned, "mesh", Value::from(mesh));
                    self.doc.node_member(skinned, "skin", Value::from(skin));
                    tag(&mut self.tags, &["geometry", "node", "skinned"]);
                    g
                }
                GeometryMode::MeshDrawn => {
                    // As the Blender exporter 0.3.0 writes: the collider's node draws the mesh
                    // its geometry names.
                    let mesh = self.shared_mesh(&data);
                    self.doc.node_member(node, "mesh", Value::from(mesh));
                    tag(&mut self.tags, &["geometry", "mesh", "drawn"]);
                    mesh
                }
                GeometryMode::MeshOnly => {
                    let mesh = self.shared_mesh(&data);
                    tag(&mut self.tags, &["geometry", "mesh", "only"]);
                    mesh
                }
                GeometryMode::MeshMorphed => {
                    // The solid stored at half size, morphed back to full size by the mesh's
                    // own weight 0.5: no node gives a mesh geometry weights [D-GEOMETRY-MESH].
                    let mesh = self.doc.morphed_mesh(&data);
                    self.doc.mesh_weights(mesh, &[0.5]);
                    tag(&mut self.tags, &["geometry", "mesh", "morphed"]);
                    mesh
                }
                GeometryMode::MeshSkinned => {
                    // The solid as stored (its bind pose), drawn by a node outside the scene
                    // with a skin whose joint doubles it: a mesh geometry is read unskinned
                    // [D-GEOMETRY-MESH] (an information issue says so).
                    let drawn = self
                        .doc
                        .detached_node(format!("Drawn{node}"), TrsSpec::default());
                    let joint = self.doubling_joint(format!("Drawn{node}Joint"), drawn);
                    let mesh = self.doc.skinned_mesh(&data, 1.0);
                    let skin = self.doc.skin(&[joint]);
                    self.doc.node_member(drawn, "mesh", Value::from(mesh));
                    self.doc.node_member(drawn, "skin", Value::from(skin));
                    self.expected.push(ExpectedIssue::new(
                        Code::KhrGeometryMeshUnskinned,
                        format!("/nodes/{node}/extensions/{RIGID_BODIES}/{member}/geometry/mesh"),
                    ));
                    tag(&mut self.tags, &["geometry", "mesh", "skinned"]);
                    mesh
                }
                GeometryMode::SelfNode => {
                    let mesh = self.doc.mesh(&data);
                    self.doc.node_member(node, "mesh", Value::from(mesh));
                    tag(&mut self.tags, &["geometry", "node", "self"]);
                    node
                }
                GeometryMode::Detached => {
                    let mesh = self.doc.mesh(&data);
                    let g = self
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    self.doc.node_member(g, "mesh", Value::from(mesh));
                    tag(&mut self.tags, &["geometry", "node", "detached"]);
                    g
                }
                GeometryMode::Children => {
                    let mesh = self.doc.mesh(&data);
                    // Two children: the solid turned a quarter about +Y, and the solid at half
                    // size; both inside the solid's bounding sphere.
                    let g = self
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let turned = TrsSpec {
                        translation: None,
                        rotation: Some([
                            0.0,
                            std::f64::consts::FRAC_1_SQRT_2,
                            0.0,
                            std::f64::consts::FRAC_1_SQRT_2,
                        ]),
                        scale: None,
                    };
                    let c0 = self
                        .doc
                        .node(format!("Geometry{node}Part0"), turned, Some(g));
                    self.doc.node_member(c0, "mesh", Value::from(mesh));
                    let half = TrsSpec {
                        translation: None,
                        rotation: None,
                        scale: Some([0.5, 0.5, 0.5]),
                    };
                    let c1 = self.doc.node(format!("Geometry{node}Part1"), half, Some(g));
                    self.doc.node_member(c1, "mesh", Value::from(mesh));
                    tag(&mut self.tags, &["geometry", "node", "children"]);
                    g
                }
            };
            let key = if extras.geometry.names_a_mesh() {
                self.decisions.insert(Decision::GeometryMesh);
                "mesh"
            } else {
                self.decisions.insert(Decision::GeometryNode);
                "node"
            };
            geometry.insert("convexHull".into(), Value::from(convex));
            geometry.insert(key.into(), Value::from(source));
        } else {
            s.tags(&mut self.tags);
            if s.explicit
                && matches!(s.kind, ShapeKind::Capsule | ShapeKind::Cylinder)
                && s.b != s.c
            {
                tag(&mut self.tags, &["shape", s.kind.tag(), "tapered"]);
            }
            let v = s.render(Dialect::Khr, &mut self.doc);
            let shape = self
                .doc
                .push_root(IMPLICIT_SHAPES, "shapes", Value::from(v));
            geometry.insert("shape".into(), Value::from(shape));
        }
        target.insert("geometry".into(), Value::from(geometry));
    }

    fn filter(&mut self, raw: Option<usize>) -> Option<usize> {
        let f = pick(raw, self.scene.filters.len());
        if let Some(f) = f {
            self.scene.filters[f].tags(&mut self.tags);
            self.decisions.insert(Decision::Filter);
            if self.scene.filters[f].systems.is_none() {
                self.decisions.insert(Decision::FilterEmpty);
            }
        }
        f
    }

    fn collider(
        &mut self,
        owner: usize,
        free: bool,
        c: &Attached<ColliderUse>,
        name: std::fmt::Arguments,
        body: bool,
    ) {
        let node = c.place(&mut self.doc, owner, free, name);
        let placement = c.effective(free);
        if body {
            placement_tag(&mut self.tags, "collider", placement);
            if placement != Placement::OnNode {
                self.decisions.insert(Decision::Frames);
            }
        }
        let mut col = Map::new();
        self.shape_member((node, "collider"), &c.item.shape, &mut col);
        match pick(c.item.material, self.scene.materials.len()) {
            Some(m) => {
                self.scene.materials[m].tags(&mut self.tags);
                self.used_materials.insert(m);
                col.insert("physicsMaterial".into(), Value::from(m));
                tag(&mut self.tags, &["collider", "material"]);
            }
            None => {
                tag(&mut self.tags, &["collider", "no-material"]);
                self.decisions.insert(Decision::CombineDefault);
            }
        }
        if let Some(f) = self.filter(c.item.filter) {
            col.insert("collisionFilter".into(), Value::from(f));
            tag(&mut self.tags, &["collider", "filter"]);
        }
        self.doc
            .node_extension_member(node, RIGID_BODIES, "collider", Value::from(col));
    }

    fn trigger(&mut self, node: usize, t: &TriggerShape) {
        let mut trig = Map::new();
        self.shape_member((node, "trigger"), &t.shape, &mut trig);
        if let Some(f) = self.filter(t.filter) {
            trig.insert("collisionFilter".into(), Value::from(f));
            tag(&mut self.tags, &["trigger", "simple", "filter"]);
        }
        tag(&mut self.tags, &["trigger", "simple"]);
        self.doc
            .node_extension_member(node, RIGID_BODIES, "trigger", Value::from(trig));
    }

    /// Render a body below `parent`; returns its node.
    fn body(&mut self, leaf: &BodyLeaf, name: &str, t: [f64; 3], parent: Option<usize>) -> usize {
        let node = self.doc.node(
            name,
            TrsSpec {
                translation: Some(t),
                rotation: leaf.rotation,
                scale: None,
            },
            parent,
        );
        self.doc
            .node_extension_member(node, RIGID_BODIES, "motion", leaf.motion.render());
        if self.r2025.is_some() && leaf.motion.mass == Some(0.0) {
            // [D-MASS-ZERO-SCHEMA]: a warning, read as infinite.
            self.expected.push(ExpectedIssue::new(
                Code::KhrMassZero,
                format!("/nodes/{node}/extensions/{RIGID_BODIES}/motion/mass"),
            ));
        }
        leaf.motion.tags(&mut self.tags);
        if leaf.colliders.len() > 1 {
            tag(&mut self.tags, &["collider", "compound"]);
        }
        for (k, c) in leaf.colliders.iter().enumerate() {
            self.collider(node, k == 0, c, format_args!("{name}Collider{k}"), true);
        }
        if let Some(t) = &leaf.trigger {
            // A trigger never shares the body's node (which may carry a collider).
            let tnode = t.place(&mut self.doc, node, false, format_args!("{name}Trigger"));
            tag(&mut self.tags, &["trigger", "on-body"]);
            self.trigger(tnode, &t.item);
        }
        node
    }
}

/// Render `scene` as a `khr-2024-draft` glTF document.
pub fn render(scene: &KhrScene, stem: &str) -> Rendered {
    render_revision(scene, None, stem)
}

/// Render `scene` as a `khr-2025` glTF document with `extras`.
pub fn render_2025(scene: &KhrScene, extras: &Extras2025, stem: &str) -> Rendered {
    render_revision(scene, Some(extras), stem)
}

fn render_revision(scene: &KhrScene, r2025: Option<&Extras2025>, stem: &str) -> Rendered {
    let mut cx = Ctx {
        scene,
        r2025,
        doc: DocBuilder::new(stem, scene.buffer),
        tags: Tags::new(),
        decisions: BTreeSet::new(),
        used_materials: BTreeSet::new(),
        expected: Vec::new(),
        meshes: Vec::new(),
    };
    for m in &scene.materials {
        cx.doc
            .push_root(RIGID_BODIES, "physicsMaterials", m.render());
    }
    for f in &scene.filters {
        cx.doc
            .push_root(RIGID_BODIES, "collisionFilters", f.render());
    }
    let radii: Vec<f64> = scene.groups.iter().map(group_radius).collect();
    let cells = grid(&radii);
    // World pose and node of every main body, by group index.
    let mut bodies: BTreeMap<usize, (usize, Isometry3<f64>, f64)> = BTreeMap::new();
    let mut counts = [0usize; 4];
    for (gi, (g, &cell)) in scene.groups.iter().zip(&cells).enumerate() {
        match g {
            Group::Body { main, nested } => {
                counts[0] += 1;
                let node = cx.body(main, &format!("Body{gi}"), cell, None);
                bodies.insert(gi, (node, transform::iso(cell, main.rotation), radii[gi]));
                if let Some(n) = nested {
                    cx.body(
                        n,
                        &format!("Body{gi}Nested"),
                        nested_offset(main, n),
                        Some(node),
                    );
                    tag(&mut cx.tags, &["body", "nested"]);
                    cx.decisions.insert(Decision::Frames);
                }
            }
            Group::Static {
                rotation,
                colliders,
            } => {
                counts[1] += 1;
                let name = format!("Static{gi}");
                let node = cx.doc.node(
                    &name,
                    TrsSpec {
                        translation: Some(cell),
                        rotation: *rotation,
                        scale: None,
                    },
                    None,
                );
                tag(&mut cx.tags, &["body", "static"]);
                for (k, c) in colliders.iter().enumerate() {
                    cx.collider(node, k == 0, c, format_args!("{name}Collider{k}"), false);
                }
            }
            Group::SimpleTrigger(t) => {
                counts[2] += 1;
                let node = cx.doc.node(format!("Trigger{gi}"), TrsSpec::at(cell), None);
                cx.trigger(node, t);
            }
            Group::CompoundTrigger(members) => {
                counts[3] += 1;
                let name = format!("CompoundTrigger{gi}");
                let node = cx.doc.node(&name, TrsSpec::at(cell), None);
                let mut nodes = Vec::new();
                for (k, m) in members.iter().enumerate() {
                    let member = m.place(&mut cx.doc, node, false, format_args!("{name}Part{k}"));
                    if m.effective(false) == Placement::Descendant {
                        tag(&mut cx.tags, &["trigger", "compound", "descendant"]);
                    }
                    let mut trigger = Map::new();
                    cx.shape_member((member, "trigger"), &m.item, &mut trigger);
                    cx.doc.node_extension_member(
                        member,
                        RIGID_BODIES,
                        "trigger",
                        Value::from(trigger),
                    );
                    nodes.push(member);
                }
                let mut trigger = Map::new();
                trigger.insert("nodes".into(), Value::from(nodes));
                cx.doc
                    .node_extension_member(node, RIGID_BODIES, "trigger", Value::from(trigger));
                tag(&mut cx.tags, &["trigger", "compound"]);
            }
        }
    }
    let used: Vec<&MaterialSpec> = cx
        .used_materials
        .iter()
        .map(|&m| &scene.materials[m])
        .collect();
    pair_tags(&used, &mut cx.tags);
    if used.len() > 1 {
        cx.decisions.insert(Decision::Combine);
    }
    let poses = joints(&mut cx, &bodies);
    if let Some(extras) = r2025 {
        let below = -(radii.iter().fold(0.0_f64, |m, r| m.max(*r)) + 1.0).ceil();
        let disabled = super::khr25::render_extras(
            extras,
            &mut cx.doc,
            &mut cx.tags,
            &mut cx.decisions,
            below,
        );
        cx.expected.extend(disabled);
    }
    let summary = format!(
        "{} dynamic or kinematic bodies, {} static collider groups, {} simple and {} compound triggers, {} joints",
        counts[0], counts[1], counts[2], counts[3], poses.1
    );
    Rendered {
        built: cx.doc.finish(),
        tags: cx.tags,
        decisions: cx.decisions,
        poses: poses.0,
        summary,
        expected: cx.expected,
    }
}

/// Joint frames: frame A a child of body A, frame B a child of body B (or a plain root node,
/// the world), both at the same world pose, so every limit holds at rest.
fn joints(
    cx: &mut Ctx,
    bodies: &BTreeMap<usize, (usize, Isometry3<f64>, f64)>,
) -> (Vec<PoseSet>, usize) {
    let keys: Vec<usize> = bodies.keys().copied().collect();
    if keys.is_empty() {
        return (Vec::new(), 0);
    }
    let mut used_descs: BTreeMap<usize, usize> = BTreeMap::new();
    let mut moved: BTreeSet<usize> = BTreeSet::new();
    for (j, ju) in cx.scene.joints.iter().enumerate() {
        let ga = keys[ju.a % keys.len()];
        let gb = ju.b.map(|b| keys[b % keys.len()]).filter(|&b| b != ga);
        let (node_a, world_a, radius_a) = bodies[&ga];
        let pivot_t = match gb {
            Some(b) => (world_a.translation.vector + bodies[&b].1.translation.vector) / 2.0,
            None => world_a.translation.vector + Vector3::new(0.0, radius_a + 0.5, 0.0),
        };
        let pivot = Isometry3::from_parts(
            Translation3::from(pivot_t),
            ju.rotation
                .map(transform::unit)
                .unwrap_or_else(UnitQuaternion::identity),
        );
        let frame_b = match gb {
            Some(b) => {
                let (node_b, world_b, _) = bodies[&b];
                let (t, r) = transform::parts(&transform::relative(&world_b, &pivot));
                moved.insert(node_b);
                tag(&mut cx.tags, &["joint", "between-bodies"]);
                cx.doc.node(
                    format!("Joint{j}B"),
                    TrsSpec {
                        translation: Some(t),
                        rotation: r,
                        scale: None,
                    },
                    Some(node_b),
                )
            }
            None => {
                let (t, r) = transform::parts(&pivot);
                moved.insert(node_a);
                tag(&mut cx.tags, &["joint", "to-world"]);
                cx.doc.node(
                    format!("Joint{j}World"),
                    TrsSpec {
                        translation: Some(t),
                        rotation: r,
                        scale: None,
                    },
                    None,
                )
            }
        };
        let (t, r) = transform::parts(&transform::relative(&world_a, &pivot));
        let frame_a = cx.doc.node(
            format!("Joint{j}A"),
            TrsSpec {
                translation: Some(t),
                rotation: r,
                scale: None,
            },
            Some(node_a),
        );
        let desc_index = ju.desc % cx.scene.descs.len();
        let desc = match used_descs.get(&desc_index) {
            Some(&d) => {
                tag(&mut cx.tags, &["joint", "shared-description"]);
                d
            }
            None => {
                let d = &cx.scene.descs[desc_index];
                let mut v = Map::new();
                // 2025: a description may hold no limit (the draft requires one).
                if cx.r2025.is_some() && d.limits.is_empty() {
                    tag(&mut cx.tags, &["joint", "no-limits"]);
                } else {
                    v.insert(
                        "limits".into(),
                        Value::Array(d.limits.iter().map(|l| l.render()).collect()),
                    );
                }
                if !d.drives.is_empty() {
                    v.insert(
                        "drives".into(),
                        Value::Array(d.drives.iter().map(|x| x.render()).collect()),
                    );
                }
                let index = cx
                    .doc
                    .push_root(RIGID_BODIES, "physicsJoints", Value::from(v));
                used_descs.insert(desc_index, index);
                index
            }
        };
        cx.scene.descs[desc_index].tags(&mut cx.tags);
        let mut joint = Map::new();
        joint.insert("connectedNode".into(), Value::from(frame_b));
        joint.insert("joint".into(), Value::from(desc));
        if let Some(e) = ju.enable_collision {
            joint.insert("enableCollision".into(), Value::from(e));
            if e {
                tag(&mut cx.tags, &["joint", "enable-collision"]);
            }
        }
        cx.doc
            .node_extension_member(frame_a, RIGID_BODIES, "joint", Value::from(joint));
        cx.decisions.insert(Decision::Frames);
        cx.decisions.insert(Decision::Metrics);
        let d = &cx.scene.descs[desc_index];
        if d.limits.iter().any(|l| !l.linear && l.axes.len() == 1) {
            cx.decisions.insert(Decision::TwistSigned);
        }
        if d.limits
            .iter()
            .any(|l| l.min.is_none() || l.max.is_none() || l.stiffness.is_none())
        {
            cx.decisions.insert(Decision::LimitDefaults);
        }
    }
    let poses = if cx.scene.joints.is_empty() {
        Vec::new()
    } else {
        // Two poses moving the joints' second bodies: a shift and a twist of their world pose.
        transform::shift_and_twist(
            bodies
                .values()
                .filter(|(node, _, _)| moved.contains(node))
                .map(|(node, world, _)| (*node, world.translation.vector, world.rotation)),
        )
    };
    (poses, cx.scene.joints.len())
}

/// Every tag a KHR scene can carry.
pub fn universe(tags: &mut Tags) {
    super::shape::universe(tags);
    super::body::universe_khr(tags);
    super::material::universe(tags);
    super::filter::universe(tags);
    super::limit::universe(tags);
    super::drive::universe(tags);
    super::hierarchy::universe(tags, "collider");
    tags.retain(|t| !t.starts_with("omi."));
    for t in [
        "body.static",
        "body.nested",
        "collider.compound",
        "collider.material",
        "collider.no-material",
        "collider.filter",
        "trigger.simple",
        "trigger.simple.filter",
        "trigger.on-body",
        "trigger.compound",
        "trigger.compound.descendant",
        "joint.between-bodies",
        "joint.to-world",
        "joint.enable-collision",
        "joint.shared-description",
        "buffer.data-uri",
        "buffer.sibling",
    ] {
        tags.insert(t.to_owned());
    }
    for k in [
        "fixed",
        "ball",
        "hinge",
        "slider",
        "cone",
        "ball-open",
        "generic",
    ] {
        tag(tags, &["joint", "kind", k]);
    }
}
