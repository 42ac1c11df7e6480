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

use proptest::prelude::*;
use reference::decision::Decision;
use reference::omi::{BODY, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Map, Value};

use super::body::MotionSpec;
use super::common::{Rendered, Tags, tag};
use super::hierarchy::{Placement, placement_tag};
use super::rigid::{BodySpelling, RigidDoc};
use super::rigid_scene::{BodyLeaf, KhrScene};
use super::shape::{Dialect, ShapeKind, ShapeSpec};
use crate::doc::DocBuilder;

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
        super::rigid_scene::scene_of(groups),
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

/// How restructured OMI writes a KHR-shaped scene, and whether the shapes dated it yet.
struct Omi24Spelling<'a> {
    profile: Profile,
    /// Which static groups carry an explicit static `motion`, by group index.
    static_motion: &'a [bool],
    /// A capsule or cylinder spelled with the revision's radius keys was written.
    dated: bool,
}

/// Write `{"type": "static"}` as the motion of `node`.
fn static_motion(doc: &mut DocBuilder, node: usize) {
    let mut m = Map::new();
    m.insert("type".into(), Value::from("static"));
    doc.node_extension_member(node, BODY, "motion", Value::from(m));
}

impl BodySpelling for Omi24Spelling<'_> {
    const BODIES: &'static str = BODY;
    const JOINTS: &'static str = JOINT;
    const ON_OWNER: bool = false;

    fn dialect(&self) -> Dialect {
        dialect(self.profile)
    }

    /// A `"shape": i` in the revision's spelling (never tapered here).
    fn shape_member(
        cx: &mut RigidDoc<Self>,
        _at: (usize, &str),
        s: &ShapeSpec,
        target: &mut Map<String, Value>,
    ) {
        s.tags(&mut cx.tags);
        if matches!(s.kind, ShapeKind::Capsule | ShapeKind::Cylinder) {
            cx.decisions.insert(Decision::OmiCapsuleRevision);
            cx.spelling.dated |= s.explicit;
        }
        let v = s.render(cx.spelling.dialect(), &mut cx.doc);
        let shape = cx.doc.push_root(SHAPE, "shapes", Value::from(v));
        target.insert("shape".into(), Value::from(shape));
    }

    fn collider_placed(cx: &mut RigidDoc<Self>, placement: Placement, _on_body: bool) {
        placement_tag(&mut cx.tags, "collider", placement);
    }

    fn motion(cx: &mut RigidDoc<Self>, node: usize, leaf: &BodyLeaf, _nested: bool) {
        cx.doc
            .node_extension_member(node, BODY, "motion", leaf.motion.render_omi());
        leaf.motion.omi_tags(&mut cx.tags);
        cx.decisions.insert(Decision::OmiInertia);
        if leaf.motion.linear_velocity.is_some() || leaf.motion.angular_velocity.is_some() {
            cx.decisions.insert(Decision::OmiVelocity);
        }
    }

    fn static_group(cx: &mut RigidDoc<Self>, group: usize, node: usize) {
        if cx
            .spelling
            .static_motion
            .get(group)
            .copied()
            .unwrap_or(false)
        {
            static_motion(&mut cx.doc, node);
            tag(&mut cx.tags, &["body", "static", "motion"]);
        } else {
            tag(&mut cx.tags, &["body", "static"]);
        }
    }

    /// Only a dynamic body: the joint node "must have a dynamic body ancestor".
    fn leads_joints(motion: &MotionSpec) -> bool {
        !motion.kinematic()
    }

    /// The world end is a static body of its own: OMI connects bodies only.
    fn world_end(cx: &mut RigidDoc<Self>, node: usize) {
        static_motion(&mut cx.doc, node);
    }

    /// The limits and drives as OMI writes them: a limit with neither bound limits nothing in
    /// OMI (`OMI_LIMIT_UNBOUNDED`) and is left out; a description left with nothing gets the
    /// open ball limit (3 linear axes, max 0).
    fn description(cx: &mut RigidDoc<Self>, desc: usize) -> Value {
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
        d.render((!limits.is_empty()).then_some(limits))
    }

    fn joint(cx: &mut RigidDoc<Self>, frame_a: usize, joint: Map<String, Value>, _desc: usize) {
        cx.doc.node_extension(frame_a, JOINT, joint);
        cx.decisions.insert(Decision::OmiJointFrames);
        cx.decisions.insert(Decision::OmiLimits);
    }

    /// A document without `radius` on a capsule or cylinder reads as omi-2025 (the revisions
    /// read it alike): an omi-2024 scene is dated by an unused cylinder in its spelling.
    fn finish(cx: &mut RigidDoc<Self>, _radii: &[f64]) {
        if cx.spelling.profile == Profile::Omi2024 && !cx.spelling.dated {
            let mut params = Map::new();
            params.insert("height".into(), Value::from(2.0));
            params.insert("radius".into(), Value::from(0.5));
            let mut shape = Map::new();
            shape.insert("type".into(), Value::from("cylinder"));
            shape.insert("cylinder".into(), Value::from(params));
            cx.doc.push_root(SHAPE, "shapes", Value::from(shape));
            tag(&mut cx.tags, &["shape", "dating-cylinder"]);
        }
    }
}

/// Render `scene` as a glTF document.
pub fn render(scene: &Omi24Scene, stem: &str) -> Rendered {
    let spelling = Omi24Spelling {
        profile: scene.profile,
        static_motion: &scene.static_motion,
        dated: false,
    };
    let mut rendered = super::rigid::render(&scene.spec, spelling, stem);
    rendered.summary = format!("{} ({})", rendered.summary, scene.profile);
    rendered
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
    super::body::universe_motion(tags, true);
    tag(tags, &["body", "static", "motion"]);
    if profile == Profile::Omi2024 {
        tag(tags, &["shape", "dating-cylinder"]);
    }
    super::rigid::universe(tags);
}
