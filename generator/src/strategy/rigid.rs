//! Rendering a rigid-body scene ([`KhrScene`]) for the two families that share its structure:
//! KHR ([`super::khr`]: `khr-2024-draft`, `khr-2025`, `khr-2026`) and restructured OMI
//! ([`super::omi24`]: `omi-2024`, `omi-2025`). One walk over the groups and joints writes what
//! the families write alike; a [`BodySpelling`] writes the rest under its own keys and rules.

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use reference::decision::Decision;
use serde_json::{Map, Value};

use super::body::MotionSpec;
use super::common::{Rendered, Tags, tag};
use super::hierarchy::{self, Attached, Placement, frame_node, grid};
use super::material::{MaterialSpec, pair_tags};
use super::rigid_scene::{BodyLeaf, ColliderUse, Group, KhrScene, TriggerShape};
use super::shape::{Dialect, ShapeSpec};
use super::transform;
use crate::case::{ExpectedIssue, PoseSet};
use crate::doc::{DocBuilder, TrsSpec};

/// What a family writes its own way.
pub trait BodySpelling: Sized {
    /// The extension of motions, colliders, triggers, materials and filters.
    const BODIES: &'static str;
    /// The extension of joint descriptions.
    const JOINTS: &'static str;
    /// Whether a collider may sit on its owner's own node (OMI recommends separate nodes).
    const ON_OWNER: bool;

    /// The shape spelling (it sizes the groups).
    fn dialect(&self) -> Dialect;

    /// Write the shape `s` of the `member` (`collider` or `trigger`) on `node` into `target`.
    fn shape_member(
        cx: &mut RigidDoc<Self>,
        at: (usize, &str),
        s: &ShapeSpec,
        target: &mut Map<String, Value>,
    );

    /// Tag a collider placed at `placement` below a body (`on_body`) or a static node.
    fn collider_placed(cx: &mut RigidDoc<Self>, placement: Placement, on_body: bool);

    /// Write the `motion` of `leaf` on `node` (`nested`: below another body).
    fn motion(cx: &mut RigidDoc<Self>, node: usize, leaf: &BodyLeaf, nested: bool);

    /// Mark `node`, the root of static group `group`.
    fn static_group(cx: &mut RigidDoc<Self>, group: usize, node: usize);

    /// Whether a joint may start from a body of `motion`.
    fn leads_joints(_motion: &MotionSpec) -> bool {
        true
    }

    /// Mark `node`, the root node a joint to the world connects to.
    fn world_end(_cx: &mut RigidDoc<Self>, _node: usize) {}

    /// The `physicsJoints` entry of the scene's description `desc`, at its first use.
    fn description(cx: &mut RigidDoc<Self>, desc: usize) -> Value;

    /// Write `joint` (connected node, description, collision) on `frame_a`; `desc` is the
    /// scene's description it uses.
    fn joint(cx: &mut RigidDoc<Self>, frame_a: usize, joint: Map<String, Value>, desc: usize);

    /// Write what follows the groups and joints; `radii` are the groups' bounding radii.
    fn finish(cx: &mut RigidDoc<Self>, radii: &[f64]);
}

/// A rigid-body scene being written, with what it exercised so far.
pub struct RigidDoc<'a, S> {
    pub scene: &'a KhrScene,
    pub spelling: S,
    pub doc: DocBuilder,
    pub tags: Tags,
    pub decisions: BTreeSet<Decision>,
    /// Issues a valid scene draws on purpose (khr-2025's zero mass).
    pub expected: Vec<ExpectedIssue>,
    used_materials: BTreeSet<usize>,
}

/// A body group's main body: its node, world pose, bounding radius, and whether a joint may
/// start from it.
#[derive(Clone, Copy)]
struct BodyAt {
    node: usize,
    world: Isometry3<f64>,
    radius: f64,
    leads: bool,
}

/// How far the parts of a group reach, so that the grid keeps the groups apart.
struct GroupExtent {
    dialect: Dialect,
    on_owner: bool,
}

impl GroupExtent {
    /// How far `shape`, attached as `a`, reaches from its owner's origin.
    fn of<T>(&self, a: &Attached<T>, shape: &ShapeSpec) -> f64 {
        a.reach(self.on_owner) + shape.bounding_radius(self.dialect)
    }

    fn leaf(&self, b: &BodyLeaf) -> f64 {
        let colliders = b.colliders.iter().map(|c| self.of(c, &c.item.shape));
        let trigger = b.trigger.iter().map(|t| self.of(t, &t.item.shape));
        colliders.chain(trigger).fold(0.1, f64::max)
    }

    fn nested_offset(&self, main: &BodyLeaf, nested: &BodyLeaf) -> [f64; 3] {
        hierarchy::nested_offset(self.leaf(main), self.leaf(nested))
    }

    fn group(&self, g: &Group) -> f64 {
        match g {
            Group::Body { main, nested } => {
                let r = self.leaf(main);
                nested
                    .as_ref()
                    .map_or(r, |n| self.nested_offset(main, n)[1] + self.leaf(n))
            }
            Group::Static { colliders, .. } => colliders
                .iter()
                .map(|c| self.of(c, &c.item.shape))
                .fold(0.1, f64::max),
            Group::SimpleTrigger(t) => t.shape.bounding_radius(self.dialect),
            Group::CompoundTrigger(m) => m.iter().map(|c| self.of(c, &c.item)).fold(0.1, f64::max),
        }
    }
}

/// A raw index taken modulo `len`; `None` when there is nothing to index.
fn pick(raw: Option<usize>, len: usize) -> Option<usize> {
    raw.filter(|_| len > 0).map(|i| i % len)
}

/// Render `scene` as `spelling` spells it.
pub fn render<S: BodySpelling>(scene: &KhrScene, spelling: S, stem: &str) -> Rendered {
    let extent = GroupExtent {
        dialect: spelling.dialect(),
        on_owner: S::ON_OWNER,
    };
    let mut cx = RigidDoc {
        scene,
        spelling,
        doc: DocBuilder::new(stem, scene.buffer),
        tags: Tags::new(),
        decisions: BTreeSet::new(),
        expected: Vec::new(),
        used_materials: BTreeSet::new(),
    };
    for m in &scene.materials {
        cx.doc.push_root(S::BODIES, "physicsMaterials", m.render());
    }
    for f in &scene.filters {
        cx.doc.push_root(S::BODIES, "collisionFilters", f.render());
    }
    let radii: Vec<f64> = scene.groups.iter().map(|g| extent.group(g)).collect();
    let cells = grid(&radii);
    let mut bodies: BTreeMap<usize, BodyAt> = BTreeMap::new();
    let mut counts = [0usize; 4];
    for (gi, (g, &cell)) in scene.groups.iter().zip(&cells).enumerate() {
        match g {
            Group::Body { main, nested } => {
                counts[0] += 1;
                let node = cx.body(main, &format!("Body{gi}"), cell, None);
                let world = transform::iso(cell, main.rotation);
                let leads = S::leads_joints(&main.motion);
                let radius = radii[gi];
                bodies.insert(
                    gi,
                    BodyAt {
                        node,
                        world,
                        radius,
                        leads,
                    },
                );
                if let Some(n) = nested {
                    let offset = extent.nested_offset(main, n);
                    cx.body(n, &format!("Body{gi}Nested"), offset, Some(node));
                    tag(&mut cx.tags, &["body", "nested"]);
                }
            }
            Group::Static {
                rotation,
                colliders,
            } => {
                counts[1] += 1;
                let name = format!("Static{gi}");
                let trs = TrsSpec {
                    rotation: *rotation,
                    ..TrsSpec::at(cell)
                };
                let node = cx.doc.node(&name, trs, None);
                S::static_group(&mut cx, gi, node);
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
                    S::shape_member(&mut cx, (member, "trigger"), &m.item, &mut trigger);
                    let trigger = Value::from(trigger);
                    cx.doc
                        .node_extension_member(member, S::BODIES, "trigger", trigger);
                    nodes.push(member);
                }
                let mut trigger = Map::new();
                trigger.insert("nodes".into(), Value::from(nodes));
                cx.doc
                    .node_extension_member(node, S::BODIES, "trigger", Value::from(trigger));
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
    let (poses, joints) = cx.joints(&bodies);
    S::finish(&mut cx, &radii);
    let summary = format!(
        "{} dynamic or kinematic bodies, {} static collider groups, {} simple and {} compound triggers, {} joints",
        counts[0], counts[1], counts[2], counts[3], joints
    );
    let plain = Rendered::plain(cx.doc.finish(), cx.tags, cx.decisions, poses, summary);
    Rendered {
        expected: cx.expected,
        ..plain
    }
}

impl<S: BodySpelling> RigidDoc<'_, S> {
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

    /// A collider below `owner` (on `owner` itself when it is the `first` and the family
    /// allows it), of a body (`on_body`) or a static group.
    fn collider(
        &mut self,
        owner: usize,
        first: bool,
        c: &Attached<ColliderUse>,
        name: std::fmt::Arguments,
        on_body: bool,
    ) {
        let free = S::ON_OWNER && first;
        let node = c.place(&mut self.doc, owner, free, name);
        S::collider_placed(self, c.effective(free), on_body);
        let mut col = Map::new();
        S::shape_member(self, (node, "collider"), &c.item.shape, &mut col);
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
            .node_extension_member(node, S::BODIES, "collider", Value::from(col));
    }

    fn trigger(&mut self, node: usize, t: &TriggerShape) {
        let mut trig = Map::new();
        S::shape_member(self, (node, "trigger"), &t.shape, &mut trig);
        if let Some(f) = self.filter(t.filter) {
            trig.insert("collisionFilter".into(), Value::from(f));
            tag(&mut self.tags, &["trigger", "simple", "filter"]);
        }
        tag(&mut self.tags, &["trigger", "simple"]);
        self.doc
            .node_extension_member(node, S::BODIES, "trigger", Value::from(trig));
    }

    /// Render a body below `parent`; returns its node.
    fn body(&mut self, leaf: &BodyLeaf, name: &str, t: [f64; 3], parent: Option<usize>) -> usize {
        let trs = TrsSpec {
            rotation: leaf.rotation,
            ..TrsSpec::at(t)
        };
        let node = self.doc.node(name, trs, parent);
        S::motion(self, node, leaf, parent.is_some());
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

    /// Joints from a body A that may lead one to another body B or to the world: frame A a
    /// child of body A, frame B a child of body B or a root node, both at the same world
    /// pose, so every limit holds at rest. Returns the poses and the joint count.
    fn joints(&mut self, bodies: &BTreeMap<usize, BodyAt>) -> (Vec<PoseSet>, usize) {
        let scene = self.scene;
        let keys: Vec<usize> = bodies.keys().copied().collect();
        let leads: Vec<usize> = bodies
            .iter()
            .filter(|(_, b)| b.leads)
            .map(|(&k, _)| k)
            .collect();
        if leads.is_empty() {
            return (Vec::new(), 0);
        }
        let mut used_descs: BTreeMap<usize, usize> = BTreeMap::new();
        let mut moved: BTreeSet<usize> = BTreeSet::new();
        for (j, ju) in scene.joints.iter().enumerate() {
            let a = bodies[&leads[ju.a % leads.len()]];
            let b =
                ju.b.map(|b| bodies[&keys[b % keys.len()]])
                    .filter(|b| b.node != a.node);
            let pivot_t = match b {
                Some(b) => (a.world.translation.vector + b.world.translation.vector) / 2.0,
                None => a.world.translation.vector + Vector3::new(0.0, a.radius + 0.5, 0.0),
            };
            let pivot = Isometry3::from_parts(
                Translation3::from(pivot_t),
                ju.rotation
                    .map(transform::unit)
                    .unwrap_or_else(UnitQuaternion::identity),
            );
            let frame_b = match b {
                Some(b) => {
                    moved.insert(b.node);
                    tag(&mut self.tags, &["joint", "between-bodies"]);
                    let parent = Some((b.node, b.world));
                    frame_node(&mut self.doc, format!("Joint{j}B"), &pivot, parent)
                }
                None => {
                    moved.insert(a.node);
                    tag(&mut self.tags, &["joint", "to-world"]);
                    let node = frame_node(&mut self.doc, format!("Joint{j}World"), &pivot, None);
                    S::world_end(self, node);
                    node
                }
            };
            let parent = Some((a.node, a.world));
            let frame_a = frame_node(&mut self.doc, format!("Joint{j}A"), &pivot, parent);
            let desc_index = ju.desc % scene.descs.len();
            let desc = match used_descs.get(&desc_index) {
                Some(&d) => {
                    tag(&mut self.tags, &["joint", "shared-description"]);
                    d
                }
                None => {
                    let v = S::description(self, desc_index);
                    let index = self.doc.push_root(S::JOINTS, "physicsJoints", v);
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
                    tag(&mut self.tags, &["joint", "enable-collision"]);
                }
            }
            S::joint(self, frame_a, joint, desc_index);
            self.decisions.insert(Decision::Metrics);
            let d = &scene.descs[desc_index];
            if d.limits.iter().any(|l| !l.linear && l.axes.len() == 1) {
                self.decisions.insert(Decision::TwistSigned);
            }
        }
        let poses = if scene.joints.is_empty() {
            Vec::new()
        } else {
            // Two poses moving the joints' second bodies: a shift and a twist of their world pose.
            transform::shift_and_twist(
                bodies
                    .values()
                    .filter(|b| moved.contains(&b.node))
                    .map(|b| (b.node, b.world.translation.vector, b.world.rotation)),
            )
        };
        (poses, scene.joints.len())
    }
}

/// The tags every rigid-body scene can carry, whatever its family.
pub fn universe(tags: &mut Tags) {
    super::joint::universe(tags);
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
}
