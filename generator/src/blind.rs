//! Generated cases of corpus/v2 ([`Edition::V2`]) for three blind spots of the generated
//! scenes (issue 37, item 6), each measuring an effect that one typical importer bug removes:
//!
//! - `khr25/gen/node-geometry/*`: node geometry whose one box part sits below the geometry node
//!   under offset, turned and non-uniformly scaled nodes (one or two levels down), so that a
//!   reader ignoring the transforms below the geometry node builds a unit box at the collider's
//!   origin instead. The part is placed 1.2 to 2 m aside (or right under the ball) and lifted
//!   0.5 to 1 m; a ball dropped from y = 3 over the part's centre comes to rest on its top at
//!   `top + r`. Under the bug the ball misses the unit box (its half-width 0.5 plus the ball's
//!   radius is under 1.2) and falls freely, about 18 m further in the 2 s run; right under the
//!   ball, the unit box's top (0.5) is at least 0.15 m below the part's (`P.y + sy / 2`, with
//!   `P.y >= 0.5`, `sy >= 0.3`): 3 times the allowed 0.05 m.
//! - `omi24/gen/inertia-zero/*`, `omi25/...`: the angular reach scenes ([`crate::reach`]: a
//!   ball on a hinge, pushed by impulses at its centre 0.5 to 1.5 m from the pivot or driven
//!   to an angle, or on a cone) with the ball's `inertiaDiagonal` written `[0, 0, 0]`
//!   ("computed by the engine" in OMI [D-OMI-INERTIA], where KHR reads three infinite
//!   moments): computed from its 0.2 m sphere centred on its centre of mass, it is the
//!   `0.4 m r²` the reach scene writes, so the ball turns to each bound (0.75 to 1.4 rad) or to
//!   the drive's target as there. A reader that takes the zeros as infinite moments cannot
//!   turn the ball at all (an initial spin would keep going, but no impulse or drive changes
//!   it): the limit's metric stays at 0, short of every bound by 0.75 rad or more. (A free
//!   spin cannot tell the readings apart: an infinite moment keeps an initial angular
//!   velocity.)
//! - `khr25/gen/compound-trigger/*`, `khr26/...`, `omi24/...`, `omi25/...`: a static compound
//!   trigger of 2 or 3 members (boxes and spheres on child nodes 1.5 m apart, at drawn heights)
//!   and a ball dropped through one drawn member: the compound trigger's node reports the ball
//!   (its collider node) entering and leaving; an engine that reports on the member node does
//!   not.
//! - `khr25/gen/kinematic-move/*`, `khr26/...`, `omi24/...`, `omi25/...`: a kinematic body (a
//!   sphere on a child node) moved by a `kinematic_pose` action before the first step to a
//!   drawn pose 0.5 to 2 m away: over 30 steps it moves there along the offset; an importer
//!   that ignores the action leaves it where it was (off by the whole offset).
//!
//! The draws are small integers (tenths of a metre, eighths of a turn) so that every number in
//! a file is short and the expected values follow by hand from them; nothing is simulated.

use nalgebra::{UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::case::{CheckKind, DynamicsCheck, TimedAction};
use reference::decision::Decision;
use reference::khr::{IMPLICIT_SHAPES, RIGID_BODIES};
use reference::profile::Profile;
use reference::scene::DofKind;
use serde_json::json;

use crate::case::Case;
use crate::handwritten::common::SETTLE_TOL;
use crate::mutate::json::add_mesh;
use crate::reach;
use crate::sample;
use crate::scenario;
use crate::scene_spelling::{cuboid, document, document_tags, node, shape_ref, sphere};
use crate::strategy::Tags;

/// Node-geometry scenes (khr-2025).
pub const NODE_GEOMETRY: u64 = 12;
/// Zero-inertia scenes per OMI revision.
pub const INERTIA_ZERO: u64 = 10;
/// Compound-trigger scenes per revision.
pub const COMPOUND_TRIGGER: u64 = 8;

/// Where the draws of these families start in the sampler's index space, far from the
/// generated scenes' and the reach scenes' (`1 << 40`).
const INDEX_BASE: u64 = 1 << 41;
/// Index-space offsets of the three families.
const GEOMETRY_SLOT: u64 = 0;
const INERTIA_SLOT: u64 = 1 << 20;
const TRIGGER_SLOT: u64 = 2 << 20;
const MOVE_SLOT: u64 = 3 << 20;
/// Kinematic-move cases per revision.
const KINEMATIC_MOVE: u64 = 6;

/// The revisions of the compound-trigger family.
pub const TRIGGER_PROFILES: [Profile; 4] = [
    Profile::Khr2025,
    Profile::Khr2026,
    Profile::Omi2024,
    Profile::Omi2025,
];

/// Every case of these families for the `profiles` of a plan.
pub fn cases(seed: u64, profiles: &[Profile]) -> Vec<Case> {
    let mut v = drawn(
        seed,
        profiles,
        &[Profile::Khr2025],
        (GEOMETRY_SLOT, NODE_GEOMETRY),
        "node-geometry",
        geometry_strategy(),
        node_geometry_case,
    );
    for (slot, p) in (0u64..).zip([Profile::Omi2024, Profile::Omi2025]) {
        if !profiles.contains(&p) {
            continue;
        }
        for k in 0..INERTIA_ZERO {
            let index = INDEX_BASE + INERTIA_SLOT + slot * INERTIA_ZERO + k;
            v.extend(inertia_zero_case(p, seed, index, k));
        }
    }
    v.extend(drawn(
        seed,
        profiles,
        &TRIGGER_PROFILES,
        (TRIGGER_SLOT, COMPOUND_TRIGGER),
        "compound-trigger",
        trigger_strategy(),
        compound_trigger_case,
    ));
    v.extend(drawn(
        seed,
        profiles,
        &TRIGGER_PROFILES,
        (MOVE_SLOT, KINEMATIC_MOVE),
        "kinematic-move",
        move_strategy(),
        kinematic_move_case,
    ));
    v
}

/// The `count` cases `<family>/gen/<name>/<k>` of each profile of `family_profiles` that a
/// plan's `profiles` has, drawn for `seed` from `strategy` at their own indices (from `slot`
/// on, `count` per profile) and written by `write`.
fn drawn<S: Strategy>(
    seed: u64,
    profiles: &[Profile],
    family_profiles: &[Profile],
    (slot, count): (u64, u64),
    name: &str,
    strategy: S,
    write: fn(Profile, u64, &str, &S::Value) -> Case,
) -> Vec<Case> {
    let mut v = Vec::new();
    for (nth, &p) in (0u64..).zip(family_profiles) {
        if !profiles.contains(&p) {
            continue;
        }
        for k in 0..count {
            let index = INDEX_BASE + slot + nth * count + k;
            if let Some(s) = sample::sample(&strategy, seed, index, 0) {
                let id = format!("{}/gen/{name}/{k:05}", p.family());
                v.push(write(p, seed, &id, &s));
            }
        }
    }
    v
}

/// Tenths as a number (`7` -> 0.7).
fn tenths(n: u8) -> f64 {
    f64::from(n) / 10.0
}

/// `x` rounded to 3 decimals (the numbers written in the file).
fn r3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0 + 0.0
}

/// The quarter turn `q` (0..4) about +y as `[x, y, z, w]`, written with 6 decimals.
fn quarter_turn(q: u8) -> [f64; 4] {
    let h = f64::from(q) * std::f64::consts::FRAC_PI_4;
    [0.0, r6(h.sin()), 0.0, r6(h.cos())]
}

fn r6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6 + 0.0
}

fn tags(list: &[&str], p: Profile) -> Tags {
    list.iter()
        .chain(document_tags(p))
        .map(|t| (*t).to_owned())
        .collect()
}

/// A displacement check of `node` along `direction` over the whole run, citing `decision`.
fn displacement(
    name: &str,
    node: usize,
    direction: [f64; 3],
    expected: f64,
    decision: Decision,
) -> DynamicsCheck {
    DynamicsCheck {
        decisions: vec![decision.into()],
        ..DynamicsCheck::new(
            name,
            CheckKind::Displacement {
                node,
                direction,
                expected,
                tolerance: SETTLE_TOL,
            },
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Node geometry (khr-2025).

/// A node-geometry scene, in tenths of a metre and eighths of a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct GeometrySpec {
    /// Direction of the part from the origin, in eighths of a turn about +y.
    pub direction: u8,
    /// Horizontal distance of the part (tenths; 0: right under the ball's drop line at x = z = 0).
    pub distance: u8,
    /// Height of the part's centre (tenths, 5..=10).
    pub up: u8,
    /// The part's scale (tenths): x and z 10..=16, y 3..=10.
    pub scale: [u8; 3],
    /// Quarter turns about +y of the part (or of the middle node when nested).
    pub turn: u8,
    /// The part under a middle node (two levels below the geometry node) rather than a child.
    pub nested: bool,
    /// The ball's radius (tenths, 2..=3).
    pub radius: u8,
}

/// Node-geometry scenes (see [`GeometrySpec`]).
pub fn geometry_strategy() -> impl Strategy<Value = GeometrySpec> {
    (
        0u8..8,
        prop_oneof![1 => Just(0u8), 4 => 12u8..=20],
        5u8..=10,
        (10u8..=16, 3u8..=10, 10u8..=16),
        0u8..4,
        any::<bool>(),
        2u8..=3,
    )
        .prop_map(
            |(direction, distance, up, (sx, sy, sz), turn, nested, radius)| GeometrySpec {
                direction,
                distance,
                up,
                scale: [sx, sy, sz],
                turn,
                nested,
                radius,
            },
        )
}

impl GeometrySpec {
    /// The part's centre in the geometry node's frame (= the collider's, = world).
    pub fn centre(&self) -> [f64; 3] {
        let a = f64::from(self.direction) * std::f64::consts::FRAC_PI_4;
        let d = tenths(self.distance);
        [r3(d * a.cos()), tenths(self.up), r3(d * a.sin())]
    }

    /// The world height of the part's top face (the unit cube scaled by `sy`, turned about y).
    pub fn top(&self) -> f64 {
        self.centre()[1] + tenths(self.scale[1]) / 2.0
    }
}

/// Where the ball is released.
const DROP_Y: f64 = 3.0;

/// The node-geometry scene `id` of `s` (khr-2025: `p` is that profile).
pub fn node_geometry_case(p: Profile, seed: u64, id: &str, s: &GeometrySpec) -> Case {
    let c = s.centre();
    let r = tenths(s.radius);
    let scale = s.scale.map(tenths);
    let q = quarter_turn(s.turn);
    let mut nodes = vec![
        json!({"name": "Ball", "translation": [c[0], DROP_Y, c[2]],
            "extensions": {RIGID_BODIES: {"motion": {"mass": 1.0},
                "collider": {"geometry": {"shape": 0}}}}}),
        json!({"name": "Ground",
            "extensions": {RIGID_BODIES:
                {"collider": {"geometry": {"node": 2, "convexHull": true}}}}}),
    ];
    let placement = if s.nested {
        // The middle node carries half the horizontal offset, the height and the turn; the
        // part the rest of the offset in the middle node's turned frame: R^-1 (c - m).
        let m = [r3(c[0] / 2.0), c[1], r3(c[2] / 2.0)];
        let rest = Vector3::new(c[0] - m[0], 0.0, c[2] - m[2]);
        let turn = UnitQuaternion::from_axis_angle(
            &Vector3::y_axis(),
            f64::from(s.turn) * std::f64::consts::FRAC_PI_2,
        );
        let local = turn.inverse() * rest;
        let local = [r3(local.x), 0.0, r3(local.z)].map(|x| if x == 0.0 { 0.0 } else { x });
        nodes.push(json!({"name": "PartsRoot", "children": [3]}));
        nodes.push(json!({"name": "Middle", "translation": m, "rotation": q, "children": [4]}));
        nodes.push(json!({"name": "Part", "translation": local, "scale": scale, "mesh": 0}));
        format!(
            "two levels below it: a middle node at {m:?} turned {} quarter turn(s) about y, and under it the part at {local:?} (in the turned frame) scaled {scale:?}",
            s.turn
        )
    } else {
        nodes.push(json!({"name": "PartsRoot", "children": [3]}));
        nodes.push(
            json!({"name": "Part", "translation": c, "rotation": q, "scale": scale, "mesh": 0}),
        );
        format!(
            "its child, at {c:?}, turned {} quarter turn(s) about y and scaled {scale:?}",
            s.turn
        )
    };
    let mut gltf = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [IMPLICIT_SHAPES, RIGID_BODIES],
        "extensions": {IMPLICIT_SHAPES: {"shapes": [sphere(r)]}},
        "nodes": nodes,
        "scenes": [{"nodes": [0, 1]}],
        "scene": 0
    });
    let (corners, triangles) = crate::handwritten::common::cuboid([-0.5; 3], [0.5; 3]);
    add_mesh(&mut gltf, &corners, &triangles);
    let settle = r6(s.top() + r - DROP_Y);
    let scenario = scenario::expectation(&reference::read_tree(&gltf, None, None)).map(|e| {
        let mut checks = scenario::checks(&e);
        checks.push(displacement(
            "ball-settles-on-part",
            0,
            [0.0, 1.0, 0.0],
            settle,
            Decision::GeometryNode,
        ));
        scenario::under_gravity(checks)
    });
    let description = format!(
        "Generated node-geometry scene: a static ground whose geometry (a convex hull) is node 2, out of the scene, with one unit-cube part {placement}; its top face is at y = {}. A {r} m ball released at y = {DROP_Y} over the part's centre comes to rest on it, moving {settle} m along y; a reader that ignores the transforms below the geometry node builds a unit cube at the origin, {}.",
        r6(s.top()),
        if s.distance == 0 {
            format!("whose top (0.5) is {} m lower", r6(s.top() - 0.5))
        } else {
            "which the ball misses, falling freely".to_owned()
        }
    );
    let mut features = tags(
        &[
            "geometry.node.offset",
            "shape.convex",
            "shape.sphere.explicit",
            "body.dynamic",
            "body.mass.explicit",
        ],
        p,
    );
    if s.nested {
        features.insert("geometry.node.nested".to_owned());
    }
    Case::scripted(
        p,
        seed,
        id.to_owned(),
        "geometry",
        description,
        "KHR_physics_rigid_bodies (glTF PR #2424) Geometry (node: the meshes of the node and its descendants)",
        features,
        &[Decision::GeometryNode],
        gltf,
        scenario,
    )
}

// ---------------------------------------------------------------------------------------------
// OMI inertiaDiagonal [0, 0, 0] (omi-2024, omi-2025).

/// The `k`th zero-inertia scene of `p`: the first draw of the reach scenes' strategy whose
/// limit is angular (a hinge, driven or pushed, or a cone: every one turns the ball), written
/// with `inertiaDiagonal` `[0, 0, 0]`.
/// The zero-inertia scene `id` of the angular reach scene `s` in `p` (omi-2024 or omi-2025).
pub fn inertia_zero_of(p: Profile, seed: u64, id: &str, s: &reach::ReachSpec) -> Case {
    reach::case_of(p, seed, id, s, true)
}

fn inertia_zero_case(p: Profile, seed: u64, index: u64, k: u64) -> Option<Case> {
    let s = (0..sample::ATTEMPTS)
        .filter_map(|attempt| sample::sample(&reach::spec_strategy(), seed, index, attempt))
        .find(|s| s.kind() == DofKind::Angular)?;
    let id = format!("{}/gen/inertia-zero/{k:05}", p.family());
    Some(inertia_zero_of(p, seed, &id, &s))
}

// ---------------------------------------------------------------------------------------------
// Compound triggers (khr-2025, khr-2026, omi-2024, omi-2025).

/// A compound trigger's scene.
#[derive(Clone, Debug, PartialEq)]
pub struct TriggerSpec {
    /// The trigger node's position (tenths): x and z -10..=10, y 5..=15.
    pub at: [i8; 3],
    /// Each member: a box (size, tenths 6..=10) or a sphere (radius, tenths 3..=5), and its
    /// height (tenths, -3..=3) and depth (z, tenths -3..=3) relative to the trigger node.
    pub members: Vec<(bool, u8, i8, i8)>,
    /// The member the ball falls through.
    pub through: usize,
    /// The ball's radius (tenths, 2..=3).
    pub radius: u8,
}

/// Compound-trigger scenes (see [`TriggerSpec`]).
pub fn trigger_strategy() -> impl Strategy<Value = TriggerSpec> {
    (
        (-10i8..=10, 5i8..=15, -10i8..=10),
        prop::collection::vec((any::<bool>(), 0u8..5, -3i8..=3, -3i8..=3), 2..=3),
        any::<prop::sample::Index>(),
        2u8..=3,
    )
        .prop_map(|((x, y, z), members, through, radius)| TriggerSpec {
            at: [x, y, z],
            through: through.index(members.len()),
            members: members
                .into_iter()
                .map(|(b, size, h, d)| (b, if b { 6 + size } else { 3 + size / 2 }, h, d))
                .collect(),
            radius,
        })
}

/// Spacing of the members along x, m: wider than any two members' half-widths (0.5 each) and
/// the ball's diameter.
const SPACING: f64 = 1.5;

/// The compound-trigger scene `id` of `s` in profile `p` (one of [`TRIGGER_PROFILES`]).
pub fn compound_trigger_case(p: Profile, seed: u64, id: &str, s: &TriggerSpec) -> Case {
    let n = s.members.len();
    let at = s.at.map(|v| f64::from(v) / 10.0);
    let member_at = |i: usize| -> [f64; 3] {
        let (_, _, h, d) = s.members[i];
        [
            r3((i as f64 - (n as f64 - 1.0) / 2.0) * SPACING),
            f64::from(h) / 10.0,
            f64::from(d) / 10.0,
        ]
    };
    // Shape 0: the ball; then one shape per member.
    let mut shapes = vec![sphere(tenths(s.radius))];
    let mut features = tags(
        &[
            "trigger.compound",
            "trigger.compound.events",
            "body.dynamic",
            "body.mass.explicit",
            "shape.sphere.explicit",
            "collider.child",
        ],
        p,
    );
    let member_nodes: Vec<usize> = (1..=n).collect();
    let mut gate = node(p, "Gate", at, json!({"trigger": {"nodes": member_nodes}}));
    gate["children"] = json!(member_nodes);
    let mut nodes = vec![gate];
    let mut what = Vec::new();
    for i in 0..n {
        let (is_box, size, _, _) = s.members[i];
        if is_box {
            let e = tenths(size);
            shapes.push(cuboid([e, e, e]));
            features.insert("shape.box.explicit".to_owned());
            what.push(format!("a {e} m box at {:?}", member_at(i)));
        } else {
            shapes.push(sphere(tenths(size)));
            what.push(format!("a {} m sphere at {:?}", tenths(size), member_at(i)));
        }
        nodes.push(node(
            p,
            &format!("Member{i}"),
            member_at(i),
            json!({"trigger": shape_ref(p, i + 1)}),
        ));
    }
    let m = member_at(s.through);
    let ball_at = [r3(at[0] + m[0]), r3(at[1] + m[1] + 3.0), r3(at[2] + m[2])];
    let ball = n + 1;
    let mut b = node(
        p,
        "Ball",
        ball_at,
        json!({"motion": crate::scene_spelling::motion(p, Some(1.0))}),
    );
    b["children"] = json!([ball + 1]);
    nodes.push(b);
    nodes.push(node(
        p,
        "BallShape",
        [0.0; 3],
        json!({"collider": shape_ref(p, 0)}),
    ));
    let gltf = document(p, shapes, nodes, None);
    let scenario = scenario::expectation(&reference::read_tree(&gltf, None, None)).map(|e| {
        let mut checks = scenario::checks(&e);
        checks.push(DynamicsCheck::new(
            "compound-trigger-enter-exit",
            CheckKind::TriggerEvents {
                trigger: 0,
                other: ball + 1,
                enter: true,
                exit: true,
            },
        ));
        scenario::under_gravity(checks)
    });
    let description = format!(
        "Generated compound-trigger scene: a static compound trigger (node 0, at {at:?}) made of {n} trigger members on its child nodes 1..={n} (relative to it: {}); a {} m ball released 3 m above member {} falls through it: the compound trigger's node reports the ball's collider (node {}) entering and leaving, not the member's node.",
        what.join(", "),
        tenths(s.radius),
        s.through + 1,
        ball + 1,
    );
    Case::scripted(
        p,
        seed,
        id.to_owned(),
        "dynamics",
        description,
        &crate::scene_spelling::spec(
            p,
            "Triggers (compound triggers)",
            "OMI_physics_body trigger (nodes)",
        ),
        features,
        &[],
        gltf,
        scenario,
    )
}

#[cfg(test)]
mod tests {
    use reference::omi::BODY;

    use super::*;
    use crate::case::Payload;

    fn all() -> Vec<Case> {
        cases(
            2,
            &[
                Profile::Khr2025,
                Profile::Khr2026,
                Profile::Omi2024,
                Profile::Omi2025,
            ],
        )
    }

    #[test]
    fn every_scene_reads_cleanly_and_has_its_scenario() {
        let cases = all();
        assert_eq!(
            cases.len() as u64,
            NODE_GEOMETRY + 2 * INERTIA_ZERO + 4 * COMPOUND_TRIGGER + 4 * KINEMATIC_MOVE
        );
        for c in &cases {
            crate::label::clean_reading(c);
            assert!(c.scenario.is_some(), "{}", c.id);
        }
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(all(), all());
    }

    #[test]
    fn node_geometry_part_is_where_the_spec_says() {
        let s = GeometrySpec {
            direction: 2,
            distance: 15,
            up: 6,
            scale: [12, 4, 10],
            turn: 1,
            nested: true,
            radius: 3,
        };
        // A quarter turn of direction: +z; the part's top at 0.6 + 0.2.
        assert_eq!(s.centre(), [0.0, 0.6, 1.5]);
        assert!((s.top() - 0.8).abs() < 1e-12);
        let c = node_geometry_case(Profile::Khr2025, 2, "khr25/gen/node-geometry/00000", &s);
        let Payload::Json(json) = &c.payload else {
            panic!("JSON")
        };
        let r = reference::read_tree(json, None, None);
        let scene = r.scene.expect("a scene");
        let ground = scene
            .colliders
            .iter()
            .find(|c| c.node == 1)
            .expect("ground");
        let reference::scene::Shape::Convex { mesh } = &scene.shapes[ground.shape] else {
            panic!("a hull: {:?}", scene.shapes)
        };
        let (lo, hi) = scene.meshes[mesh].positions.iter().fold(
            ([f64::MAX; 3], [f64::MIN; 3]),
            |(lo, hi), v| {
                (
                    [lo[0].min(v[0]), lo[1].min(v[1]), lo[2].min(v[2])],
                    [hi[0].max(v[0]), hi[1].max(v[1]), hi[2].max(v[2])],
                )
            },
        );
        // Scale x 1.2 turned a quarter about y lies along z.
        for (a, b) in lo.iter().zip([-0.5, 0.4, 0.9]) {
            assert!((a - b).abs() < 1e-5, "{lo:?}");
        }
        for (a, b) in hi.iter().zip([0.5, 0.8, 2.1]) {
            assert!((a - b).abs() < 1e-5, "{hi:?}");
        }
    }

    #[test]
    fn inertia_zero_scenes_are_angular_reach_scenes_with_a_zero_diagonal() {
        for c in all().iter().filter(|c| c.id.contains("/inertia-zero/")) {
            let Payload::Json(json) = &c.payload else {
                panic!("JSON")
            };
            assert_eq!(
                json["nodes"][0]["extensions"][BODY]["motion"]["inertiaDiagonal"],
                json!([0.0, 0.0, 0.0]),
                "{}",
                c.id
            );
            let r = reference::read_tree(json, None, None);
            let scene = r.scene.expect("a scene");
            assert_eq!(
                scene.bodies[0].inertia,
                reference::scene::Inertia::EngineComputes
            );
            assert!(c.features.contains("body.inertia-diagonal.zero"));
            let (reference::scene::LimitSet::Coupled(list)
            | reference::scene::LimitSet::PerAxis(list)) = &scene.joints[0].limits;
            assert!(
                list.iter()
                    .any(|l| l.kind == DofKind::Angular && l.max != Some(0.0)),
                "{}",
                c.id
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Kinematic moves (khr-2025, khr-2026, omi-2024, omi-2025: the compound triggers' revisions).

/// A kinematic body's move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveSpec {
    /// The body's position (tenths): x and z -10..=10, y 0..=10.
    pub at: [i8; 3],
    /// The offset it is moved by (tenths), 5 to 20 long along its largest component.
    pub by: [i8; 3],
    /// The sphere's radius (tenths, 2..=5).
    pub radius: u8,
}

/// Kinematic moves (see [`MoveSpec`]).
pub fn move_strategy() -> impl Strategy<Value = MoveSpec> {
    (
        (-10i8..=10, 0i8..=10, -10i8..=10),
        (0usize..3, 5i8..=20, any::<bool>(), -5i8..=5, -5i8..=5),
        2u8..=5,
    )
        .prop_map(|((x, y, z), (axis, length, negative, u, v), radius)| {
            let mut by = [0i8; 3];
            by[axis] = if negative { -length } else { length };
            by[(axis + 1) % 3] = u;
            by[(axis + 2) % 3] = v;
            MoveSpec {
                at: [x, y, z],
                by,
                radius,
            }
        })
}

/// Steps over which the move is measured: it takes one step, the body then rests there.
const MOVE_STEPS: u32 = 30;

/// The kinematic-move scene `id` of `s` in profile `p`.
pub fn kinematic_move_case(p: Profile, seed: u64, id: &str, s: &MoveSpec) -> Case {
    let at = s.at.map(tenths_signed);
    let by = s.by.map(tenths_signed);
    let target = [r3(at[0] + by[0]), r3(at[1] + by[1]), r3(at[2] + by[2])];
    let length = (by[0] * by[0] + by[1] * by[1] + by[2] * by[2]).sqrt();
    let direction = by.map(|c| c / length);
    let mut body = node(
        p,
        "Mover",
        at,
        json!({"motion": crate::scene_spelling::motion(p, None)}),
    );
    body["children"] = json!([1]);
    let nodes = vec![
        body,
        node(
            p,
            "MoverShape",
            [0.0; 3],
            json!({"collider": shape_ref(p, 0)}),
        ),
    ];
    let gltf = document(p, vec![sphere(tenths(s.radius))], nodes, None);
    let scenario = scenario::expectation(&reference::read_tree(&gltf, None, None)).map(|e| {
        let mut checks: Vec<DynamicsCheck> = scenario::checks(&e)
            .into_iter()
            .filter(|c| !c.kind.nodes().iter().any(|(n, _)| *n == 0))
            .collect();
        let mut moved = DynamicsCheck::new(
            "kinematic-pose-reached",
            CheckKind::Displacement {
                node: 0,
                direction,
                expected: length,
                tolerance: scenario::tol(1e-4, 1e-3),
            },
        );
        moved.to_step = Some(MOVE_STEPS);
        checks.push(moved);
        let mut run = scenario::under_gravity(checks);
        run.actions = Some(vec![TimedAction {
            step: 0,
            action: json!({"action": "kinematic_pose", "node": 0,
                "translation": target, "rotation": [0.0, 0.0, 0.0, 1.0]}),
        }]);
        run
    });
    Case::scripted(
        p,
        seed,
        id.to_owned(),
        "dynamics",
        format!(
            "Generated kinematic move: a kinematic body (node 0, a {} m sphere on node 1) at {at:?} is moved to {target:?} by a kinematic_pose action before the first step: over the first {MOVE_STEPS} steps it moves {length:.3} m along the offset (an importer that ignores the action leaves it where it was).",
            tenths(s.radius)
        ),
        &crate::scene_spelling::spec(
            p,
            "Motion (kinematic)",
            "OMI_physics_body Motion (kinematic)",
        ),
        tags(
            &[
                "body.kinematic",
                "body.kinematic.pose-action",
                "shape.sphere.explicit",
                "collider.child",
            ],
            p,
        ),
        &[],
        gltf,
        scenario,
    )
}

/// Tenths as a number, signed (`-7` -> -0.7).
fn tenths_signed(n: i8) -> f64 {
    f64::from(n) / 10.0
}
