//! Valid `omi-2024` and `omi-2025` scenes: OMI_physics_body (`motion` / `collider` / `trigger`,
//! `physicsMaterials`, `collisionFilters`), OMI_physics_shape and OMI_physics_joint
//! (`physicsJoints`, `connectedNode`), spelled as the omigroup examples spell them.
//!
//! The restructured extensions have KHR's structure, so the scene spec is [`KhrScene`]'s; this
//! module renders it under OMI's keys and rules: a motion `type` (static bodies too), colliders
//! never on a body's own node (OMI recommends separate nodes), joints only from a dynamic body
//! (the joint node "must have a dynamic body ancestor"), joints to the world attached to a
//! static body (the connected node "must be a descendant of some kind of physics body"), and no
//! limit without a bound (useless in OMI). Shapes are spelled in the revision's convention and
//! never tapered here (tapered shapes are hand-written shape cases).

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::decision::Decision;
use reference::omi::{BODY, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Map, Value};

use super::body::MotionSpec;
use super::common::{Rendered, Tags, tag};
use super::hierarchy::{Attached, Placement, grid, placement_tag};
use super::khr::{BodyLeaf, ColliderUse, Group, KhrScene, TriggerShape};
use super::material::{MaterialSpec, pair_tags};
use super::shape::{Dialect, ShapeSpec};
use super::transform;
use crate::case::PoseSet;
use crate::doc::{DocBuilder, TrsSpec};

/// A restructured OMI scene: a KHR-shaped spec, the revision, and which static groups carry an
/// explicit `motion: {"type": "static"}` (by group index; the rest are bare colliders).
#[derive(Clone, Debug, PartialEq)]
pub struct Omi24Scene {
    pub spec: KhrScene,
    pub profile: Profile,
    pub static_motion: Vec<bool>,
}

/// Valid scenes of `profile` (`omi-2024` or `omi-2025`) with a number of groups in `groups`.
pub fn scene_of(
    profile: Profile,
    groups: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Omi24Scene> {
    (
        super::khr::scene_of(groups),
        prop::collection::vec(any::<bool>(), 10),
    )
        .prop_map(move |(spec, static_motion)| Omi24Scene {
            spec,
            profile,
            static_motion,
        })
}

/// Valid scenes of 1 or 2 groups (3, as KHR's, gave 6.4 MB for 300 cases; 2 keeps a
/// 300-case share of corpus/v2 under 5 MB).
pub fn scene(profile: Profile) -> impl Strategy<Value = Omi24Scene> {
    scene_of(profile, 1..=2)
}

/// The shape spelling of a revision.
pub fn dialect(profile: Profile) -> Dialect {
    if profile == Profile::Omi2024 {
        Dialect::OmiShape
    } else {
        Dialect::Omi2025
    }
}

fn pick(raw: Option<usize>, len: usize) -> Option<usize> {
    raw.filter(|_| len > 0).map(|i| i % len)
}

/// Bounding radius of a body leaf: its colliders and trigger, never on the body's own node.
fn leaf_radius(b: &BodyLeaf, d: Dialect) -> f64 {
    let colliders = b
        .colliders
        .iter()
        .map(|c| reach(c) + c.item.shape.bounding_radius(d));
    let trigger = b
        .trigger
        .iter()
        .map(|t| reach(t) + t.item.shape.bounding_radius(d));
    colliders.chain(trigger).fold(0.1, f64::max)
}

/// How far an attached item reaches (a node of its own even when the spec says `OnNode`).
fn reach<T>(a: &Attached<T>) -> f64 {
    let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    match a.placement {
        Placement::OnNode | Placement::Child => norm(a.offset),
        Placement::Descendant => norm(a.offset) + norm(a.mid_offset),
    }
}

fn nested_offset(main: &BodyLeaf, nested: &BodyLeaf, d: Dialect) -> [f64; 3] {
    [
        0.0,
        (leaf_radius(main, d) + leaf_radius(nested, d) + 0.5).ceil(),
        0.0,
    ]
}

fn group_radius(g: &Group, d: Dialect) -> f64 {
    match g {
        Group::Body { main, nested } => {
            let r = leaf_radius(main, d);
            nested
                .as_ref()
                .map_or(r, |n| nested_offset(main, n, d)[1] + leaf_radius(n, d))
        }
        Group::Static { colliders, .. } => colliders
            .iter()
            .map(|c| reach(c) + c.item.shape.bounding_radius(d))
            .fold(0.1, f64::max),
        Group::SimpleTrigger(t) => t.shape.bounding_radius(d),
        Group::CompoundTrigger(m) => m
            .iter()
            .map(|c| reach(c) + c.item.bounding_radius(d))
            .fold(0.1, f64::max),
    }
}

/// The OMI `motion` of a KHR motion spec: `isKinematic` becomes the `type`.
fn motion(m: &MotionSpec, kind: &str) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), Value::from(kind));
    let vec3 = [
        ("centerOfMass", m.center_of_mass),
        ("inertiaDiagonal", m.inertia_diagonal),
        ("linearVelocity", m.linear_velocity),
        ("angularVelocity", m.angular_velocity),
    ];
    if let Some(v) = m.mass {
        o.insert("mass".into(), Value::from(v));
    }
    for (k, v) in vec3 {
        if let Some(v) = v {
            o.insert(k.into(), Value::from(v));
        }
    }
    if let Some(v) = m.inertia_orientation {
        o.insert("inertiaOrientation".into(), Value::from(v));
    }
    if let Some(v) = m.gravity_factor {
        o.insert("gravityFactor".into(), Value::from(v));
    }
    Value::from(o)
}

fn motion_tags(m: &MotionSpec, tags: &mut Tags) {
    tag(
        tags,
        &[
            "body",
            if m.kinematic() {
                "kinematic"
            } else {
                "dynamic"
            },
        ],
    );
    tag(
        tags,
        &[
            "body",
            "mass",
            if m.mass.is_some() {
                "explicit"
            } else {
                "default"
            },
        ],
    );
    for (present, name) in [
        (m.center_of_mass.is_some(), "center-of-mass"),
        (m.inertia_diagonal.is_some(), "inertia-diagonal"),
        (m.inertia_orientation.is_some(), "inertia-orientation"),
        (m.linear_velocity.is_some(), "linear-velocity"),
        (m.angular_velocity.is_some(), "angular-velocity"),
        (m.gravity_factor.is_some(), "gravity-factor"),
    ] {
        if present {
            tag(tags, &["body", name]);
        }
    }
}

struct Ctx<'a> {
    scene: &'a KhrScene,
    dialect: Dialect,
    doc: DocBuilder,
    tags: Tags,
    decisions: BTreeSet<Decision>,
    used_materials: BTreeSet<usize>,
    /// A capsule or cylinder spelled with the revision's radius keys was written.
    dated: bool,
}

impl Ctx<'_> {
    fn shape(&mut self, s: &ShapeSpec) -> usize {
        s.tags(&mut self.tags);
        if matches!(
            s.kind,
            super::shape::ShapeKind::Capsule | super::shape::ShapeKind::Cylinder
        ) {
            self.decisions.insert(Decision::OmiCapsuleRevision);
            self.dated |= s.explicit;
        }
        let v = s.render(self.dialect, &mut self.doc);
        self.doc.push_root(SHAPE, "shapes", Value::from(v))
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

    /// A collider on its own node below `owner` (never on the owner itself).
    fn collider(&mut self, owner: usize, c: &Attached<ColliderUse>, name: std::fmt::Arguments) {
        let node = c.place(&mut self.doc, owner, false, name);
        placement_tag(&mut self.tags, "collider", c.effective(false));
        let shape = self.shape(&c.item.shape);
        let mut col = Map::new();
        col.insert("shape".into(), Value::from(shape));
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
            .node_extension_member(node, BODY, "collider", Value::from(col));
    }

    fn trigger(&mut self, node: usize, t: &TriggerShape) {
        let shape = self.shape(&t.shape);
        let mut trig = Map::new();
        trig.insert("shape".into(), Value::from(shape));
        if let Some(f) = self.filter(t.filter) {
            trig.insert("collisionFilter".into(), Value::from(f));
            tag(&mut self.tags, &["trigger", "simple", "filter"]);
        }
        tag(&mut self.tags, &["trigger", "simple"]);
        self.doc
            .node_extension_member(node, BODY, "trigger", Value::from(trig));
    }

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
        let kind = if leaf.motion.kinematic() {
            "kinematic"
        } else {
            "dynamic"
        };
        self.doc
            .node_extension_member(node, BODY, "motion", motion(&leaf.motion, kind));
        motion_tags(&leaf.motion, &mut self.tags);
        self.decisions.insert(Decision::OmiInertia);
        if leaf.motion.linear_velocity.is_some() || leaf.motion.angular_velocity.is_some() {
            self.decisions.insert(Decision::OmiVelocity);
        }
        if leaf.colliders.len() > 1 {
            tag(&mut self.tags, &["collider", "compound"]);
        }
        for (k, c) in leaf.colliders.iter().enumerate() {
            self.collider(node, c, format_args!("{name}Collider{k}"));
        }
        if let Some(t) = &leaf.trigger {
            let tnode = t.place(&mut self.doc, node, false, format_args!("{name}Trigger"));
            tag(&mut self.tags, &["trigger", "on-body"]);
            self.trigger(tnode, &t.item);
        }
        node
    }
}

/// A body group's node, world pose, radius, and whether it is dynamic.
type BodyAt = (usize, Isometry3<f64>, f64, bool);

/// Render `scene` as a glTF document.
pub fn render(scene: &Omi24Scene, stem: &str) -> Rendered {
    let spec = &scene.spec;
    let d = dialect(scene.profile);
    let mut cx = Ctx {
        scene: spec,
        dialect: d,
        doc: DocBuilder::new(stem, spec.buffer),
        tags: Tags::new(),
        decisions: BTreeSet::new(),
        used_materials: BTreeSet::new(),
        dated: false,
    };
    for m in &spec.materials {
        cx.doc.push_root(BODY, "physicsMaterials", m.render());
    }
    for f in &spec.filters {
        cx.doc.push_root(BODY, "collisionFilters", f.render());
    }
    let radii: Vec<f64> = spec.groups.iter().map(|g| group_radius(g, d)).collect();
    let cells = grid(&radii);
    let mut bodies: BTreeMap<usize, BodyAt> = BTreeMap::new();
    let mut counts = [0usize; 4];
    for (gi, (g, &cell)) in spec.groups.iter().zip(&cells).enumerate() {
        match g {
            Group::Body { main, nested } => {
                counts[0] += 1;
                let node = cx.body(main, &format!("Body{gi}"), cell, None);
                bodies.insert(
                    gi,
                    (
                        node,
                        transform::iso(cell, main.rotation),
                        radii[gi],
                        !main.motion.kinematic(),
                    ),
                );
                if let Some(n) = nested {
                    cx.body(
                        n,
                        &format!("Body{gi}Nested"),
                        nested_offset(main, n, d),
                        Some(node),
                    );
                    tag(&mut cx.tags, &["body", "nested"]);
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
                if scene.static_motion.get(gi).copied().unwrap_or(false) {
                    let mut m = Map::new();
                    m.insert("type".into(), Value::from("static"));
                    cx.doc
                        .node_extension_member(node, BODY, "motion", Value::from(m));
                    tag(&mut cx.tags, &["body", "static", "motion"]);
                } else {
                    tag(&mut cx.tags, &["body", "static"]);
                }
                for (k, c) in colliders.iter().enumerate() {
                    cx.collider(node, c, format_args!("{name}Collider{k}"));
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
                    let shape = cx.shape(&m.item);
                    let mut trigger = Map::new();
                    trigger.insert("shape".into(), Value::from(shape));
                    cx.doc
                        .node_extension_member(member, BODY, "trigger", Value::from(trigger));
                    nodes.push(member);
                }
                let mut trigger = Map::new();
                trigger.insert("nodes".into(), Value::from(nodes));
                cx.doc
                    .node_extension_member(node, BODY, "trigger", Value::from(trigger));
                tag(&mut cx.tags, &["trigger", "compound"]);
            }
        }
    }
    let used: Vec<&MaterialSpec> = cx
        .used_materials
        .iter()
        .map(|&m| &spec.materials[m])
        .collect();
    pair_tags(&used, &mut cx.tags);
    if used.len() > 1 {
        cx.decisions.insert(Decision::Combine);
    }
    let (poses, joints) = render_joints(&mut cx, &bodies);
    // A document without `radius` on a capsule or cylinder reads as omi-2025 (the revisions
    // read it alike): an omi-2024 scene is dated by an unused cylinder in its spelling.
    if scene.profile == Profile::Omi2024 && !cx.dated {
        let mut params = Map::new();
        params.insert("height".into(), Value::from(2.0));
        params.insert("radius".into(), Value::from(0.5));
        let mut shape = Map::new();
        shape.insert("type".into(), Value::from("cylinder"));
        shape.insert("cylinder".into(), Value::from(params));
        cx.doc.push_root(SHAPE, "shapes", Value::from(shape));
        tag(&mut cx.tags, &["shape", "dating-cylinder"]);
    }
    let summary = format!(
        "{} dynamic or kinematic bodies, {} static collider groups, {} simple and {} compound triggers, {} joints ({})",
        counts[0], counts[1], counts[2], counts[3], joints, scene.profile
    );
    Rendered {
        built: cx.doc.finish(),
        tags: cx.tags,
        decisions: cx.decisions,
        poses,
        summary,
        expected: Vec::new(),
    }
}

/// The limits and drives of a joint description as OMI writes them: a limit with neither
/// bound limits nothing in OMI (`OMI_LIMIT_UNBOUNDED`) and is left out; a description left
/// with nothing gets the open ball limit (3 linear axes, max 0).
fn settings(cx: &mut Ctx, desc: usize) -> Value {
    let d = &cx.scene.descs[desc];
    let mut limits: Vec<Value> = d
        .limits
        .iter()
        .filter(|l| l.min.is_some() || l.max.is_some())
        .map(|l| {
            l.tags(&mut cx.tags);
            l.render()
        })
        .collect();
    if limits.is_empty() && d.drives.is_empty() {
        let ball = super::limit::hard(true, &[0, 1, 2], None, Some(0.0));
        ball.tags(&mut cx.tags);
        limits.push(ball.render());
    }
    for x in &d.drives {
        x.tags(&mut cx.tags);
    }
    tag(&mut cx.tags, &["joint", "kind", d.kind]);
    let mut v = Map::new();
    if !limits.is_empty() {
        v.insert("limits".into(), Value::Array(limits));
    }
    if !d.drives.is_empty() {
        v.insert(
            "drives".into(),
            Value::Array(d.drives.iter().map(|x| x.render()).collect()),
        );
    }
    Value::from(v)
}

/// Joints from a dynamic body A to another body B or to a static world body, both frames at
/// the same world pose so every limit holds at rest.
fn render_joints(cx: &mut Ctx, bodies: &BTreeMap<usize, BodyAt>) -> (Vec<PoseSet>, usize) {
    let keys: Vec<usize> = bodies.keys().copied().collect();
    let dynamic: Vec<usize> = bodies
        .iter()
        .filter(|(_, b)| b.3)
        .map(|(&k, _)| k)
        .collect();
    if dynamic.is_empty() {
        return (Vec::new(), 0);
    }
    let mut used_descs: BTreeMap<usize, usize> = BTreeMap::new();
    let mut moved: BTreeSet<usize> = BTreeSet::new();
    for (j, ju) in cx.scene.joints.iter().enumerate() {
        let ga = dynamic[ju.a % dynamic.len()];
        let gb = ju.b.map(|b| keys[b % keys.len()]).filter(|&b| b != ga);
        let (node_a, world_a, radius_a, _) = bodies[&ga];
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
                let (node_b, world_b, _, _) = bodies[&b];
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
                // The world end is a static body of its own: OMI connects bodies only.
                let (t, r) = transform::parts(&pivot);
                moved.insert(node_a);
                tag(&mut cx.tags, &["joint", "to-world"]);
                let node = cx.doc.node(
                    format!("Joint{j}World"),
                    TrsSpec {
                        translation: Some(t),
                        rotation: r,
                        scale: None,
                    },
                    None,
                );
                let mut m = Map::new();
                m.insert("type".into(), Value::from("static"));
                cx.doc
                    .node_extension_member(node, BODY, "motion", Value::from(m));
                node
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
                let v = settings(cx, desc_index);
                let index = cx.doc.push_root(JOINT, "physicsJoints", v);
                used_descs.insert(desc_index, index);
                index
            }
        };
        let mut joint = Map::new();
        joint.insert("connectedNode".into(), Value::from(frame_b));
        joint.insert("joint".into(), Value::from(desc));
        if let Some(e) = ju.enable_collision {
            joint.insert("enableCollision".into(), Value::from(e));
            if e {
                tag(&mut cx.tags, &["joint", "enable-collision"]);
            }
        }
        cx.doc.node_extension(frame_a, JOINT, joint);
        cx.decisions.insert(Decision::OmiJointFrames);
        cx.decisions.insert(Decision::OmiLimits);
        cx.decisions.insert(Decision::Metrics);
        let d = &cx.scene.descs[desc_index];
        if d.limits.iter().any(|l| !l.linear && l.axes.len() == 1) {
            cx.decisions.insert(Decision::TwistSigned);
        }
    }
    let poses = if cx.scene.joints.is_empty() {
        Vec::new()
    } else {
        transform::shift_and_twist(
            bodies
                .values()
                .filter(|(node, _, _, _)| moved.contains(node))
                .map(|(node, world, _, _)| (*node, world.translation.vector, world.rotation)),
        )
    };
    (poses, cx.scene.joints.len())
}

/// Every tag a restructured OMI scene of `profile` can carry.
pub fn universe(profile: Profile, tags: &mut Tags) {
    super::shape::universe(tags);
    super::material::universe(tags);
    super::filter::universe(tags);
    super::limit::universe(tags);
    super::drive::universe(tags);
    tags.retain(|t| !t.starts_with("omi.") && t != "joint.limit.unbounded");
    for p in [Placement::Child, Placement::Descendant] {
        placement_tag(tags, "collider", p);
    }
    for t in [
        "body.dynamic",
        "body.kinematic",
        "body.mass.explicit",
        "body.mass.default",
        "body.center-of-mass",
        "body.inertia-diagonal",
        "body.inertia-orientation",
        "body.linear-velocity",
        "body.angular-velocity",
        "body.gravity-factor",
        "body.static",
        "body.static.motion",
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
    if profile == Profile::Omi2024 {
        tag(tags, &["shape", "dating-cylinder"]);
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
