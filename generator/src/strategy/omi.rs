//! Valid `omi-2023` scenes: OMI_physics_body with shapes from OMI_collider (seed 004) or
//! OMI_physics_shape (seed 001), and OMI_physics_joint (seed 000) joints, including the named
//! special cases and rope chains.

use std::collections::BTreeSet;

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::decision::Decision;
use reference::omi::{BODY, COLLIDER, JOINT, SHAPE};
use serde_json::{Map, Value};

use super::body::{OmiBodySpec, OmiType, omi_body};
use super::common::{Rendered, Tags, dec, tag};
use super::hierarchy::{self, Attached, Placement, attached, frame_node, grid, placement_tag};
use super::joint::{OmiJointSpec, omi_joint};
use super::limit::OmiConstraintSpec;
use super::shape::{Dialect, ShapeKind, ShapeSpec, shape};
use super::transform;
use crate::case::PoseSet;
use crate::doc::{BufferMode, DocBuilder, TrsSpec};

/// A shape on a node; `is_trigger` is written only in the OMI_collider dialect.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeUse {
    pub shape: ShapeSpec,
    pub is_trigger: Option<bool>,
}

/// An OMI_physics_body with the shapes attached to it.
#[derive(Clone, Debug, PartialEq)]
pub struct OmiBodyLeaf {
    pub body: OmiBodySpec,
    pub rotation: Option<[f64; 4]>,
    pub shapes: Vec<Attached<ShapeUse>>,
}

#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum OmiGroup {
    Body {
        main: OmiBodyLeaf,
        nested: Option<OmiBodyLeaf>,
    },
    /// Shapes with no body above them: static solids.
    Bodiless(Vec<Attached<ShapeUse>>),
    /// A static anchor and rigid segments linked by pin joints that share one constraint.
    Rope {
        segments: usize,
        radius: f64,
        length: f64,
        soft: bool,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct OmiJointUse {
    pub a: usize,
    pub b: usize,
    pub joint: OmiJointSpec,
    pub rotation: Option<[f64; 4]>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct OmiScene {
    pub dialect: Dialect,
    pub groups: Vec<OmiGroup>,
    pub joints: Vec<OmiJointUse>,
    pub buffer: BufferMode,
}

fn shape_use(kinds: Vec<ShapeKind>, triggers: bool) -> impl Strategy<Value = ShapeUse> + Clone {
    (shape(kinds), prop::option::weighted(0.3, any::<bool>())).prop_map(move |(shape, t)| {
        ShapeUse {
            shape,
            is_trigger: if triggers { t } else { t.map(|_| false) },
        }
    })
}

fn leaf(kinds: Vec<OmiType>) -> impl Strategy<Value = OmiBodyLeaf> + Clone {
    (
        omi_body(kinds),
        transform::maybe_rotation(),
        prop::collection::vec(attached(shape_use(ShapeKind::moving(), false)), 1..=2),
    )
        .prop_map(|(body, rotation, shapes)| {
            // Static bodies may use trimesh shapes: swap a convex for one, sometimes.
            OmiBodyLeaf {
                body,
                rotation,
                shapes,
            }
        })
        .boxed()
}

fn group() -> impl Strategy<Value = OmiGroup> + Clone {
    prop_oneof![
        6 => (leaf(OmiType::ALL.to_vec()), prop::option::weighted(0.2, leaf(vec![OmiType::Rigid, OmiType::Trigger, OmiType::Vehicle])))
            .prop_map(|(main, nested)| OmiGroup::Body { main, nested }).boxed(),
        2 => prop::collection::vec(attached(shape_use(ShapeKind::ALL.to_vec(), true)), 1..=2)
            .prop_map(|shapes| OmiGroup::Bodiless(
                shapes.into_iter().map(|mut s| {
                    // Trimesh shapes do not work reliably as triggers (seed 004): never both.
                    if s.item.shape.kind == ShapeKind::Trimesh { s.item.is_trigger = None; }
                    s
                }).collect())).boxed(),
        1 => (2usize..=4, dec(3, 8, 100.0), dec(3, 6, 10.0), any::<bool>())
            .prop_map(|(segments, radius, length, soft)| OmiGroup::Rope { segments, radius, length, soft }).boxed(),
    ]
}

fn joint_use() -> impl Strategy<Value = OmiJointUse> + Clone {
    (
        0usize..8,
        0usize..8,
        omi_joint(),
        transform::maybe_rotation(),
    )
        .prop_map(|(a, b, joint, rotation)| OmiJointUse {
            a,
            b,
            joint,
            rotation,
        })
}

pub fn scene() -> impl Strategy<Value = OmiScene> {
    scene_of(1..=3)
}

/// Valid OMI scenes with a number of groups in `groups`.
pub fn scene_of(groups: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = OmiScene> {
    (
        prop::sample::select(vec![Dialect::OmiCollider, Dialect::OmiShape]),
        prop::collection::vec(group(), groups),
        prop::collection::vec(joint_use(), 0..=3),
        prop::sample::select(vec![BufferMode::DataUri, BufferMode::Sibling]),
    )
        .prop_map(|(dialect, groups, joints, buffer)| OmiScene {
            dialect,
            groups,
            joints,
            buffer,
        })
}

fn shapes_radius(shapes: &[Attached<ShapeUse>], d: Dialect) -> f64 {
    shapes
        .iter()
        .map(|s| s.reach(true) + s.item.shape.bounding_radius(d))
        .fold(0.1, f64::max)
}

fn nested_offset(main: &OmiBodyLeaf, nested: &OmiBodyLeaf, d: Dialect) -> [f64; 3] {
    hierarchy::nested_offset(
        shapes_radius(&main.shapes, d),
        shapes_radius(&nested.shapes, d),
    )
}

/// Segment pitch of a rope: capsule full height plus a 0.1 m gap.
fn rope_pitch(radius: f64, length: f64) -> f64 {
    length + 2.0 * radius + 0.1
}

fn group_radius(g: &OmiGroup, d: Dialect) -> f64 {
    match g {
        OmiGroup::Body { main, nested } => {
            let r = shapes_radius(&main.shapes, d);
            nested.as_ref().map_or(r, |n| {
                nested_offset(main, n, d)[1] + shapes_radius(&n.shapes, d)
            })
        }
        OmiGroup::Bodiless(shapes) => shapes_radius(shapes, d),
        #[allow(clippy::cast_precision_loss)]
        OmiGroup::Rope {
            segments,
            radius,
            length,
            ..
        } => (*segments as f64 + 1.0) * rope_pitch(*radius, *length),
    }
}

/// A body the joints may connect: its node, local and world poses, and type.
#[derive(Clone, Copy)]
struct BodyRef {
    node: usize,
    local: Isometry3<f64>,
    world: Isometry3<f64>,
    kind: OmiType,
}

/// An `omi-2023` scene being written, with what it exercised so far.
struct OmiDoc<'a> {
    scene: &'a OmiScene,
    doc: DocBuilder,
    tags: Tags,
    decisions: BTreeSet<Decision>,
    /// Constraints written so far, with their document index.
    constraints: Vec<(OmiConstraintSpec, usize)>,
}

impl OmiDoc<'_> {
    fn shape_ext(&self) -> (&'static str, &'static str, &'static str) {
        match self.scene.dialect {
            Dialect::OmiCollider => (COLLIDER, "colliders", "collider"),
            _ => (SHAPE, "shapes", "shape"),
        }
    }

    fn shape(
        &mut self,
        owner: usize,
        free: bool,
        s: &Attached<ShapeUse>,
        name: std::fmt::Arguments,
        in_body: bool,
    ) {
        let node = s.place(&mut self.doc, owner, free, name);
        if in_body {
            placement_tag(&mut self.tags, "collider", s.effective(free));
            if s.effective(free) != Placement::OnNode {
                self.decisions.insert(Decision::Frames);
            }
        }
        s.item.shape.tags(&mut self.tags);
        if s.item.shape.kind == ShapeKind::Capsule {
            self.decisions.insert(Decision::Capsule);
        }
        let mut v = s.item.shape.render(self.scene.dialect, &mut self.doc);
        if self.scene.dialect == Dialect::OmiCollider
            && let Some(t) = s.item.is_trigger
        {
            v.insert("isTrigger".into(), Value::from(t));
            tag(
                &mut self.tags,
                &["shape", "is-trigger", if t { "true" } else { "false" }],
            );
        }
        let (ext, array, key) = self.shape_ext();
        let index = self.doc.push_root(ext, array, Value::from(v));
        self.doc
            .node_extension_member(node, ext, key, Value::from(index));
    }

    fn body(
        &mut self,
        leaf: &OmiBodyLeaf,
        name: &str,
        t: [f64; 3],
        parent: Option<usize>,
    ) -> usize {
        let node = self.doc.node(
            name,
            TrsSpec {
                rotation: leaf.rotation,
                ..TrsSpec::at(t)
            },
            parent,
        );
        self.doc.node_extension(node, BODY, leaf.body.render());
        leaf.body.tags(&mut self.tags);
        if leaf.body.mass.is_none() {
            self.decisions.insert(Decision::MassZero);
        }
        if leaf.body.linear_velocity.is_some() || leaf.body.angular_velocity.is_some() {
            self.decisions.insert(Decision::OmiVelocity);
        }
        if leaf.shapes.len() > 1 {
            tag(&mut self.tags, &["collider", "compound"]);
        }
        for (k, s) in leaf.shapes.iter().enumerate() {
            self.shape(node, k == 0, s, format_args!("{name}Shape{k}"), true);
        }
        node
    }

    /// Add a joint node at world pose `pivot` under `parent` (world pose `parent_world`).
    fn joint(
        &mut self,
        name: String,
        parent: Option<(usize, Isometry3<f64>)>,
        pivot: &Isometry3<f64>,
        a: usize,
        b: usize,
        j: &OmiJointSpec,
    ) {
        let node = frame_node(&mut self.doc, name, pivot, parent);
        let indices: Vec<usize> = j.constraints.iter().map(|c| self.constraint(c)).collect();
        j.tags(&mut self.tags);
        let mut joint = Map::new();
        joint.insert("constraints".into(), Value::from(indices));
        joint.insert("nodeA".into(), Value::from(a));
        joint.insert("nodeB".into(), Value::from(b));
        self.doc.node_extension(node, JOINT, joint);
        self.decisions.insert(Decision::OmiPerAxis);
        self.decisions.insert(Decision::Frames);
        if j.constraints.iter().any(|c| {
            c.lower.is_none() || c.upper.is_none() || c.stiffness.is_none() || c.damping.is_none()
        }) {
            self.decisions.insert(Decision::LimitDefaults);
        }
    }

    /// Document-level constraint index; identical constraints are written once and shared.
    fn constraint(&mut self, c: &OmiConstraintSpec) -> usize {
        if let Some(&(_, i)) = self.constraints.iter().find(|(w, _)| w.renders_as(c)) {
            tag(&mut self.tags, &["omi", "joint", "shared-constraints"]);
            return i;
        }
        let i = self.doc.push_root(JOINT, "constraints", c.render());
        self.constraints.push((c.clone(), i));
        i
    }
}

pub fn render(scene: &OmiScene, stem: &str) -> Rendered {
    let d = scene.dialect;
    let mut cx = OmiDoc {
        scene,
        doc: DocBuilder::new(stem, scene.buffer),
        tags: Tags::new(),
        decisions: BTreeSet::new(),
        constraints: Vec::new(),
    };
    tag(
        &mut cx.tags,
        &[
            "omi",
            "dialect",
            if d == Dialect::OmiCollider {
                "omi-collider"
            } else {
                "omi-physics-shape"
            },
        ],
    );
    let radii: Vec<f64> = scene.groups.iter().map(|g| group_radius(g, d)).collect();
    let cells = grid(&radii);
    let mut bodies: Vec<BodyRef> = Vec::new();
    let mut moved: BTreeSet<usize> = BTreeSet::new();
    let mut joint_count = 0;
    for (gi, (g, &cell)) in scene.groups.iter().zip(&cells).enumerate() {
        match g {
            OmiGroup::Body { main, nested } => {
                let node = cx.body(main, &format!("Body{gi}"), cell, None);
                let world = transform::iso(cell, main.rotation);
                bodies.push(BodyRef {
                    node,
                    local: world,
                    world,
                    kind: main.body.kind,
                });
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
            OmiGroup::Bodiless(shapes) => {
                let node = cx.doc.node(format!("Static{gi}"), TrsSpec::at(cell), None);
                tag(&mut cx.tags, &["body", "none"]);
                for (k, s) in shapes.iter().enumerate() {
                    cx.shape(node, k == 0, s, format_args!("Static{gi}Shape{k}"), false);
                }
            }
            OmiGroup::Rope {
                segments,
                radius,
                length,
                soft,
            } => {
                joint_count += rope(
                    &mut cx, gi, cell, *segments, *radius, *length, *soft, &mut moved,
                );
            }
        }
    }
    // Joints between groups: nodeA rigid or vehicle, nodeB any other non-trigger body.
    let rigid: Vec<BodyRef> = bodies
        .iter()
        .copied()
        .filter(|b| b.kind.is_rigid())
        .collect();
    let solid: Vec<BodyRef> = bodies
        .iter()
        .copied()
        .filter(|b| b.kind != OmiType::Trigger)
        .collect();
    for (j, ju) in scene.joints.iter().enumerate() {
        if rigid.is_empty() || solid.len() < 2 {
            break;
        }
        let a = rigid[ju.a % rigid.len()];
        let others: Vec<&BodyRef> = solid.iter().filter(|b| b.node != a.node).collect();
        let b = *others[ju.b % others.len()];
        let t = (a.world.translation.vector + b.world.translation.vector) / 2.0;
        let pivot = Isometry3::from_parts(
            Translation3::from(t),
            ju.rotation
                .map(transform::unit)
                .unwrap_or_else(UnitQuaternion::identity),
        );
        tags_for_pair(&mut cx.tags, a.kind, b.kind);
        cx.joint(format!("Joint{j}"), None, &pivot, a.node, b.node, &ju.joint);
        moved.insert(b.node);
        joint_count += 1;
    }
    let poses = if joint_count == 0 {
        Vec::new()
    } else {
        poses(&moved, &bodies)
    };
    let summary = format!(
        "{} bodies, {} joints, shapes from {}",
        bodies.len(),
        joint_count,
        if d == Dialect::OmiCollider {
            COLLIDER
        } else {
            SHAPE
        }
    );
    Rendered::plain(cx.doc.finish(), cx.tags, cx.decisions, poses, summary)
}

fn tags_for_pair(tags: &mut Tags, a: OmiType, b: OmiType) {
    tags.insert(format!("omi.joint.node-b.{}", b.name()));
    tags.insert(format!("omi.joint.node-a.{}", a.name()));
}

/// A rope: a static anchor and `segments` rigid capsules below it, each pinned to the one above
/// by a joint halfway between them; every joint shares one constraint. Returns the joint count.
#[allow(clippy::too_many_arguments)]
fn rope(
    cx: &mut OmiDoc,
    gi: usize,
    cell: [f64; 3],
    segments: usize,
    radius: f64,
    length: f64,
    soft: bool,
    moved: &mut BTreeSet<usize>,
) -> usize {
    let pitch = rope_pitch(radius, length);
    #[allow(clippy::cast_precision_loss)]
    let top = [cell[0], cell[1] + segments as f64 * pitch / 2.0, cell[2]];
    let root = cx.doc.node(format!("Rope{gi}"), TrsSpec::at(top), None);
    let root_world = transform::iso(top, None);
    let anchor_shape = ShapeSpec {
        kind: ShapeKind::Box,
        explicit: true,
        a: 0.5,
        b: 0.1,
        c: 0.5,
        solid: super::shape::Solid::Cube,
    };
    let anchor_leaf = rope_part(OmiType::Static, None, anchor_shape);
    let mut above = cx.body(
        &anchor_leaf,
        &format!("Rope{gi}Anchor"),
        [0.0, 0.0, 0.0],
        Some(root),
    );
    let capsule = ShapeSpec {
        kind: ShapeKind::Capsule,
        explicit: true,
        a: length,
        b: radius,
        c: radius,
        solid: super::shape::Solid::Cube,
    };
    let pin = OmiJointSpec {
        kind: "pin",
        constraints: vec![OmiConstraintSpec {
            stiffness: soft.then_some(0.3),
            ..super::limit::omi_hard(&[0, 1, 2], &[], None, None)
        }],
    };
    for k in 0..segments {
        #[allow(clippy::cast_precision_loss)]
        let y = -(k as f64 + 1.0) * pitch;
        let seg = rope_part(OmiType::Rigid, Some(0.5), capsule.clone());
        let node = cx.body(
            &seg,
            &format!("Rope{gi}Segment{k}"),
            [0.0, y, 0.0],
            Some(root),
        );
        let pivot = transform::iso([top[0], top[1] + y + pitch / 2.0, top[2]], None);
        cx.joint(
            format!("Rope{gi}Pin{k}"),
            Some((root, root_world)),
            &pivot,
            node,
            above,
            &pin,
        );
        moved.insert(node);
        above = node;
    }
    tag(&mut cx.tags, &["omi", "joint", "rope"]);
    segments
}

/// A rope's body of `kind` and `mass` with its one `shape` on a child node at its origin.
fn rope_part(kind: OmiType, mass: Option<f64>, shape: ShapeSpec) -> OmiBodyLeaf {
    let body = OmiBodySpec {
        kind,
        mass,
        linear_velocity: None,
        angular_velocity: None,
        center_of_mass: None,
        inertia_tensor: None,
    };
    let shape = Attached {
        item: ShapeUse {
            shape,
            is_trigger: None,
        },
        placement: Placement::Child,
        offset: [0.0; 3],
        rotation: None,
        mid_offset: [0.0; 3],
        mid_rotation: None,
    };
    OmiBodyLeaf {
        body,
        rotation: None,
        shapes: vec![shape],
    }
}

/// A shift and a twist of every moved node's local pose (identity for a node without a body).
fn poses(moved: &BTreeSet<usize>, bodies: &[BodyRef]) -> Vec<PoseSet> {
    transform::shift_and_twist(moved.iter().map(
        |&node| match bodies.iter().find(|b| b.node == node) {
            Some(b) => (node, b.local.translation.vector, b.local.rotation),
            None => (node, Vector3::zeros(), UnitQuaternion::identity()),
        },
    ))
}

pub fn universe(tags: &mut Tags) {
    super::shape::universe(tags);
    super::body::universe_omi(tags);
    super::hierarchy::universe(tags, "collider");
    let mut l = Tags::new();
    super::limit::universe(&mut l);
    tags.extend(l.into_iter().filter(|t| t.starts_with("omi.")));
    for k in [
        "fixed",
        "pin",
        "hinge",
        "slider",
        "pin-soft",
        "generic",
        "rope",
        "shared-constraints",
    ] {
        tag(tags, &["omi", "joint", k]);
    }
    for k in OmiType::ALL {
        if k != OmiType::Trigger {
            tags.insert(format!("omi.joint.node-b.{}", k.name()));
        }
    }
    tags.insert("omi.joint.node-a.rigid".into());
    tags.insert("omi.joint.node-a.vehicle".into());
    for t in [
        "body.nested",
        "body.none",
        "collider.compound",
        "shape.is-trigger.true",
        "shape.is-trigger.false",
        "omi.dialect.omi-collider",
        "omi.dialect.omi-physics-shape",
        "buffer.data-uri",
        "buffer.sibling",
    ] {
        tags.insert(t.to_owned());
    }
}
