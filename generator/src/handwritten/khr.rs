//! Hand-written KHR cases: the control scene, the hinged door of seed 002, and an
//! everything-at-once scene built from the strategies' spec types.

use std::collections::BTreeSet;

use reference::decision::Decision;
use reference::issue::Code;
use reference::khr::{COLLISION_SHAPES, RIGID_BODIES};
use reference::profile::Profile;
use serde_json::json;

use super::common::case;
use crate::case::{Case, ExpectedIssue, Tier};
use crate::strategy::transform::quat;

const P: Profile = Profile::Khr2024Draft;

pub fn cases() -> Vec<Case> {
    vec![control(), hinged_door(), mass_zero(), everything()]
}

fn control() -> Case {
    case(
        "khr/control/falling-sphere",
        P,
        "control",
        "Control: the simplest valid scene, one dynamic body with a sphere collider on its own node.",
        "seed 002 Motions, Colliders",
        Tier::Required,
        &["body.dynamic", "shape.sphere.explicit", "collider.on-body"],
        &[],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLISION_SHAPES, RIGID_BODIES],
            "extensions": {COLLISION_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
            "nodes": [{"name": "Ball", "translation": [0.0, 2.0, 0.0],
                "extensions": {RIGID_BODIES: {"motion": {"mass": 1.0}, "collider": {"shape": 0}}}}],
            "scenes": [{"nodes": [0]}],
            "scene": 0
        }),
        vec![],
    )
}

/// Seed 002 Joints: "a hinged door can be constructed by locating the attachment frames at the
/// point where the physical hinge would be on each body, adding a 3D linear constraint with
/// zero maximum distance, a 1D angular constraint with min/max describing the swing of the
/// door around its vertical axis, and a 2D angular constraint with zero limits about the
/// remaining two axes." Swing: -90 to +90 degrees about y.
fn hinged_door() -> Case {
    let half_pi = std::f64::consts::FRAC_PI_2;
    let c = case(
        "khr/joint/limit-angular-1d/hinge-pm90",
        P,
        "joint",
        "The hinged door of seed 002: a door (box 1 x 2 x 0.1 m) hinged at its left edge to a static frame; 3D linear max 0, 1D angular about y in [-pi/2, pi/2], 2D angular about x and z fixed at 0. Poses open the door 45 degrees (within the limit) and 120 degrees (beyond it).",
        "seed 002 Joints (hinged door); Appendix: Constraint Limit Metrics",
        Tier::Required,
        &[
            "joint.kind.hinge",
            "joint.limit.linear.3",
            "joint.limit.angular.1",
            "joint.limit.angular.2",
            "joint.to-world",
            "shape.box.explicit",
            "body.static",
        ],
        &[
            Decision::Frames,
            Decision::Metrics,
            Decision::TwistSigned,
            Decision::LimitDefaults,
        ],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLISION_SHAPES, RIGID_BODIES],
            "extensions": {
                COLLISION_SHAPES: {"shapes": [
                    {"type": "box", "box": {"size": [1.0, 2.0, 0.1]}},
                    {"type": "box", "box": {"size": [0.1, 2.2, 0.2]}}
                ]},
                RIGID_BODIES: {
                    "physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.0}],
                    "physicsJoints": [{"limits": [
                        {"linearAxes": [0, 1, 2], "max": 0.0},
                        {"angularAxes": [1], "min": -half_pi, "max": half_pi},
                        {"angularAxes": [0, 2], "min": 0.0, "max": 0.0}
                    ]}]
                }
            },
            "nodes": [
                {"name": "Frame", "translation": [-0.6, 1.0, 0.0], "children": [1],
                    "extensions": {RIGID_BODIES: {"collider": {"shape": 1, "physicsMaterial": 0}}}},
                {"name": "FrameHinge", "translation": [0.1, 0.0, 0.0]},
                {"name": "Door", "translation": [0.0, 1.0, 0.0], "children": [3],
                    "extensions": {RIGID_BODIES: {"motion": {"mass": 10.0}, "collider": {"shape": 0, "physicsMaterial": 0}}}},
                {"name": "DoorHinge", "translation": [-0.5, 0.0, 0.0],
                    "extensions": {RIGID_BODIES: {"joint": {"connectedNode": 1, "joint": 0}}}}
            ],
            "scenes": [{"nodes": [0, 2]}],
            "scene": 0
        }),
        vec![],
    );
    // Opening the door rotates it about the hinge line x = -0.5 (door frame): the door's origin
    // moves to hinge + R(theta) (0.5, 0, 0) = (-0.5 + 0.5 cos theta, 1, -0.5 sin theta).
    let open = |deg: f64| {
        let t = deg.to_radians();
        json!({"2": {"translation": [-0.5 + 0.5 * t.cos(), 1.0, -0.5 * t.sin()], "rotation": quat([0.0, 1.0, 0.0], deg)}})
    };
    c.with_poses(&[("open-45", open(45.0)), ("open-120", open(120.0))])
}

fn mass_zero() -> Case {
    case(
        "khr/body/mass-zero-infinite",
        P,
        "body",
        "mass 0 and an inertia component of 0 mean infinite (seed 002 Motions): reported as information, the body is immovable by forces.",
        "seed 002 Motions",
        Tier::Required,
        &[
            "body.dynamic",
            "body.mass.infinite",
            "body.inertia-diagonal",
        ],
        &[Decision::MassZero],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLISION_SHAPES, RIGID_BODIES],
            "extensions": {COLLISION_SHAPES: {"shapes": [{"type": "box", "box": {}}]}},
            "nodes": [{"name": "Anvil", "translation": [0.0, 0.5, 0.0],
                "extensions": {RIGID_BODIES: {"motion": {"mass": 0.0, "inertiaDiagonal": [0.0, 1.0, 1.0]}, "collider": {"shape": 0}}}}],
            "scenes": [{"nodes": [0]}],
            "scene": 0
        }),
        vec![
            ExpectedIssue::new(
                Code::MassZeroInfinite,
                "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass",
            ),
            ExpectedIssue::new(
                Code::MassZeroInfinite,
                "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/inertiaDiagonal/0",
            ),
        ],
    )
}

fn everything() -> Case {
    use crate::strategy::body::MotionSpec;
    use crate::strategy::drive::DriveSpec;
    use crate::strategy::filter::{FilterSpec, ListKind};
    use crate::strategy::hierarchy::{Attached, Placement};
    use crate::strategy::joint::JointDescSpec;
    use crate::strategy::khr::render;
    use crate::strategy::limit::hard;
    use crate::strategy::material::MaterialSpec;
    use crate::strategy::rigid_scene::{
        BodyLeaf, ColliderUse, Group, JointUse, KhrScene, TriggerShape,
    };
    use crate::strategy::shape::{ShapeKind, ShapeSpec, Solid};
    let sh = |kind, explicit| ShapeSpec {
        kind,
        explicit,
        a: 0.4,
        b: 0.3,
        c: 0.2,
        solid: Solid::Octahedron,
    };
    fn at<T>(item: T, placement: Placement, offset: [f64; 3]) -> Attached<T> {
        Attached {
            item,
            placement,
            offset,
            rotation: None,
            mid_offset: [0.0, 0.2, 0.0],
            mid_rotation: Some(quat([0.0, 0.0, 1.0], 30.0)),
        }
    }
    let col = |kind, explicit, m, f| ColliderUse {
        shape: sh(kind, explicit),
        material: m,
        filter: f,
    };
    let motion = |k: Option<bool>| MotionSpec {
        is_kinematic: k,
        mass: Some(2.0),
        center_of_mass: Some([0.0, 0.1, 0.0]),
        inertia_diagonal: Some([0.5, 0.6, 0.7]),
        inertia_orientation: Some(quat([0.0, 1.0, 0.0], 45.0)),
        linear_velocity: Some([0.0, 0.0, 1.0]),
        angular_velocity: Some([0.0, 1.0, 0.0]),
        gravity_factor: Some(0.5),
    };
    let scene = KhrScene {
        groups: vec![
            Group::Body {
                main: BodyLeaf {
                    motion: motion(None),
                    rotation: Some(quat([1.0, 0.0, 0.0], 15.0)),
                    colliders: vec![
                        at(
                            col(ShapeKind::Sphere, false, Some(0), Some(0)),
                            Placement::OnNode,
                            [0.0; 3],
                        ),
                        at(
                            col(ShapeKind::Capsule, true, Some(1), None),
                            Placement::Child,
                            [0.5, 0.0, 0.0],
                        ),
                        at(
                            col(ShapeKind::Convex, true, Some(2), Some(1)),
                            Placement::Descendant,
                            [0.0, 0.0, 0.5],
                        ),
                    ],
                    trigger: Some(at(
                        TriggerShape {
                            shape: sh(ShapeKind::Box, true),
                            filter: Some(2),
                        },
                        Placement::Child,
                        [0.0, -0.5, 0.0],
                    )),
                },
                nested: Some(BodyLeaf {
                    motion: motion(Some(false)),
                    rotation: None,
                    colliders: vec![at(
                        col(ShapeKind::Cylinder, true, Some(3), None),
                        Placement::Child,
                        [0.0; 3],
                    )],
                    trigger: None,
                }),
            },
            Group::Body {
                main: BodyLeaf {
                    motion: motion(Some(true)),
                    rotation: None,
                    colliders: vec![at(
                        col(ShapeKind::Box, false, None, None),
                        Placement::OnNode,
                        [0.0; 3],
                    )],
                    trigger: None,
                },
                nested: None,
            },
            Group::Static {
                rotation: None,
                colliders: vec![
                    at(
                        col(ShapeKind::Trimesh, true, Some(0), None),
                        Placement::Child,
                        [0.0; 3],
                    ),
                    at(
                        col(ShapeKind::Cylinder, false, None, Some(0)),
                        Placement::Child,
                        [0.6, 0.0, 0.0],
                    ),
                    at(
                        col(ShapeKind::Capsule, false, None, None),
                        Placement::Child,
                        [-0.6, 0.0, 0.0],
                    ),
                ],
            },
            Group::SimpleTrigger(TriggerShape {
                shape: sh(ShapeKind::Sphere, true),
                filter: None,
            }),
            Group::CompoundTrigger(vec![
                at(sh(ShapeKind::Box, true), Placement::Child, [0.3, 0.0, 0.0]),
                at(
                    sh(ShapeKind::Sphere, true),
                    Placement::Descendant,
                    [0.0, 0.3, 0.0],
                ),
            ]),
        ],
        materials: vec![
            MaterialSpec {
                static_friction: Some(0.6),
                dynamic_friction: Some(0.5),
                restitution: Some(0.1),
                friction_combine: Some(0),
                restitution_combine: Some(1),
            },
            MaterialSpec {
                static_friction: Some(0.9),
                dynamic_friction: Some(0.8),
                restitution: None,
                friction_combine: Some(1),
                restitution_combine: Some(2),
            },
            MaterialSpec {
                static_friction: None,
                dynamic_friction: None,
                restitution: None,
                friction_combine: Some(2),
                restitution_combine: Some(3),
            },
            MaterialSpec {
                static_friction: Some(0.2),
                dynamic_friction: Some(0.1),
                restitution: Some(0.9),
                friction_combine: Some(3),
                restitution_combine: None,
            },
        ],
        filters: vec![
            FilterSpec {
                systems: Some(vec![0]),
                list: ListKind::CollideWith,
                list_systems: vec![0, 1],
            },
            FilterSpec {
                systems: Some(vec![1]),
                list: ListKind::NotCollideWith,
                list_systems: vec![2],
            },
            FilterSpec {
                systems: None,
                list: ListKind::None,
                list_systems: vec![],
            },
        ],
        descs: vec![
            JointDescSpec {
                kind: "hinge",
                limits: vec![
                    hard(true, &[0, 1, 2], None, Some(0.0)),
                    hard(false, &[1], Some(-1.0), Some(1.0)),
                    hard(false, &[0, 2], Some(0.0), Some(0.0)),
                ],
                drives: vec![DriveSpec {
                    angular: true,
                    acceleration: false,
                    axis: 1,
                    max_force: Some(100.0),
                    position_target: Some(0.5),
                    velocity_target: None,
                    stiffness: Some(50.0),
                    damping: Some(5.0),
                }],
            },
            JointDescSpec {
                kind: "slider",
                limits: vec![
                    hard(true, &[2], Some(-0.5), None),
                    hard(true, &[0, 1], None, Some(0.0)),
                    hard(false, &[0, 1, 2], None, Some(0.0)),
                ],
                drives: vec![DriveSpec {
                    angular: false,
                    acceleration: true,
                    axis: 2,
                    max_force: None,
                    position_target: None,
                    velocity_target: Some(0.5),
                    stiffness: None,
                    damping: Some(10.0),
                }],
            },
        ],
        joints: vec![
            JointUse {
                a: 0,
                b: Some(1),
                desc: 0,
                enable_collision: Some(true),
                rotation: None,
            },
            JointUse {
                a: 1,
                b: None,
                desc: 1,
                enable_collision: None,
                rotation: Some(quat([0.0, 0.0, 1.0], 90.0)),
            },
        ],
        buffer: crate::doc::BufferMode::Sibling,
    };
    let r = render(&scene, "all-features");
    let mut c = case(
        "khr/everything/all-features",
        P,
        "everything",
        &format!(
            "Everything at once: every shape type (defaults and explicit), dynamic, kinematic, static and nested bodies, colliders on the body, a child and a descendant, four materials with every combine mode, filters of each kind, a simple trigger on a body, a standalone trigger, a compound trigger, a hinge with an angular drive and a slider with a linear drive to the world. {}.",
            r.summary
        ),
        "seed 002 KHR_physics_rigid_bodies (+ KHR_collision_shapes)",
        Tier::Required,
        &[],
        &[],
        r.built.json,
        vec![],
    );
    c.features = r.tags;
    c.decisions = r.decisions.into_iter().collect::<BTreeSet<_>>();
    c.siblings = r.built.siblings;
    c.poses = r.poses;
    c
}
