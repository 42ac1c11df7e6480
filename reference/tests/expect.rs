//! The expected interpretation on hand-worked scenes (arithmetic in the comments), built
//! directly as canonical scenes and read from glTF JSON, plus properties of frames and pairs.

mod common;

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

use nalgebra::{Isometry3, Matrix3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::decision::Decision;
use reference::expect::{self, Expectation, ScaledShape, bodies::InertiaExpect};
use reference::poses::{PoseOverride, Poses};
use reference::profile::Profile;
use reference::scene::*;

// ----- scene-building helpers ------------------------------------------------------------------

fn rz(angle: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::from_axis_angle(&Vector3::z_axis(), angle)
}

fn v(x: f64, y: f64, z: f64) -> Vector3<f64> {
    Vector3::new(x, y, z)
}

/// A node as `(parent, translation, rotation, uniform scale)`.
type NodeSpec = (Option<NodeId>, Vector3<f64>, UnitQuaternion<f64>, f64);

/// A scene of `profile` over `nodes`.
fn scene(profile: Profile, nodes: &[NodeSpec]) -> Scene {
    let nodes: Vec<(Option<NodeId>, Trs)> = nodes
        .iter()
        .map(|&(parent, t, r, s)| {
            let rest = Trs {
                translation: t,
                rotation: r,
                scale: v(s, s, s),
            };
            (parent, rest)
        })
        .collect();
    Scene::from_parents(profile, &nodes)
}

fn body(node: NodeId, kind: BodyKind) -> Body {
    Body {
        node,
        kind,
        omi_type: None,
        mass: MassValue::EngineComputes,
        center_of_mass: None,
        inertia: Inertia::EngineComputes,
        linear_velocity: Vector3::zeros(),
        angular_velocity: Vector3::zeros(),
        velocity_space: VelocitySpace::Local,
        gravity_factor: 1.0,
    }
}

fn collider(node: NodeId, body: Option<BodyId>, shape: ShapeId) -> Collider {
    Collider {
        node,
        shape,
        material: None,
        filter: None,
        is_trigger: false,
        body,
    }
}

fn close3(a: &Vector3<f64>, b: &Vector3<f64>) -> bool {
    (a - b).norm() < 1e-9
}

/// Asserts that `p` stands at `t`.
#[track_caller]
fn assert_at(p: &Isometry3<f64>, t: Vector3<f64>) {
    assert!(close3(&p.translation.vector, &t), "{p:?} is not at {t:?}");
}

fn close_pose(a: &Isometry3<f64>, b: &Isometry3<f64>) -> bool {
    close3(&a.translation.vector, &b.translation.vector) && a.rotation.angle_to(&b.rotation) < 1e-9
}

fn pose(t: Vector3<f64>, r: UnitQuaternion<f64>) -> Isometry3<f64> {
    Isometry3::from_parts(Translation3::from(t), r)
}

/// Node `node` moved to `t` (and nothing else).
fn translate(node: NodeId, t: Vector3<f64>) -> Poses {
    override_one(
        node,
        PoseOverride {
            translation: Some(t),
            ..PoseOverride::default()
        },
    )
}

/// Node `node` turned to `r` (and nothing else).
fn turn(node: NodeId, r: UnitQuaternion<f64>) -> Poses {
    override_one(
        node,
        PoseOverride {
            rotation: Some(r),
            ..PoseOverride::default()
        },
    )
}

fn override_one(node: NodeId, o: PoseOverride) -> Poses {
    let mut p = Poses::default();
    p.nodes.insert(node, o);
    p
}

fn eval(s: &Scene, poses: &Poses) -> Expectation {
    expect::evaluate(s, poses).expect("evaluates")
}

// ----- a KHR hinge scene, by hand ----------------------------------------------------------------

/// Nodes:
/// - 0 body A (kinematic) at (0, 2, 0), rotated Rz(90): local x is world +y.
/// - 1 child of 0 at local (1, 0, 0): the joint node (frame A). World: (0, 2, 0) + Rz90 (1, 0, 0)
///   = (0, 3, 0), rotation Rz(90).
/// - 2 body B (dynamic, KHR mass 0) at (1, 3, 0).
/// - 3 child of 2 at local (-1, 0, 0): connectedNode (frame B). World (0, 3, 0), identity.
/// - 4 a static ground collider at (0, -1, 0).
/// - 5 child of 2 at local (0, 0, 2): a trigger on body B.
///
/// Joint limits (coupled, KHR): linear [0, 1, 2] max 0 (a point), angular [2] in [-pi/4, pi/4].
fn khr_hinge() -> Scene {
    let mut s = scene(
        Profile::Khr2024Draft,
        &[
            (None, v(0.0, 2.0, 0.0), rz(FRAC_PI_2), 1.0),
            (Some(0), v(1.0, 0.0, 0.0), UnitQuaternion::identity(), 1.0),
            (None, v(1.0, 3.0, 0.0), UnitQuaternion::identity(), 1.0),
            (Some(2), v(-1.0, 0.0, 0.0), UnitQuaternion::identity(), 1.0),
            (None, v(0.0, -1.0, 0.0), UnitQuaternion::identity(), 1.0),
            (Some(2), v(0.0, 0.0, 2.0), UnitQuaternion::identity(), 1.0),
        ],
    );
    let mut a = body(0, BodyKind::Kinematic);
    a.linear_velocity = v(1.0, 0.0, 0.0);
    a.angular_velocity = v(0.0, 0.0, 1.0);
    let mut b = body(2, BodyKind::Dynamic);
    b.mass = MassValue::Infinite;
    b.inertia = Inertia::Principal {
        diagonal: [1.0, 2.0, 3.0].map(MassValue::Finite),
        orientation: rz(FRAC_PI_2),
    };
    s.bodies = vec![a, b];
    s.shapes = vec![
        Shape::Sphere { radius: 0.5 },
        Shape::Box {
            size: v(1.0, 1.0, 1.0),
        },
    ];
    s.materials = vec![
        Material {
            static_friction: 0.6,
            dynamic_friction: 0.5,
            restitution: 0.1,
            friction_combine: Some(Combine::Average),
            restitution_combine: None,
        },
        Material {
            static_friction: 0.2,
            dynamic_friction: 0.1,
            restitution: 0.9,
            friction_combine: Some(Combine::Multiply),
            restitution_combine: Some(Combine::Maximum),
        },
    ];
    s.filters = vec![
        Filter {
            collision_systems: vec!["a".into()],
            collide_with_systems: None,
            not_collide_with_systems: Some(vec!["b".into()]),
        },
        Filter {
            collision_systems: vec!["b".into()],
            collide_with_systems: None,
            not_collide_with_systems: None,
        },
    ];
    let mut c0 = collider(0, Some(0), 0);
    c0.material = Some(0);
    c0.filter = Some(0);
    let mut c1 = collider(2, Some(1), 1);
    c1.material = Some(1);
    c1.filter = Some(1);
    let c2 = collider(4, None, 1);
    let mut c3 = collider(5, Some(1), 0);
    c3.is_trigger = true;
    s.colliders = vec![c0, c1, c2, c3];
    s.joints = vec![Joint {
        node: 1,
        a: Attachment {
            frame: 1,
            body_node: Some(0),
        },
        b: Attachment {
            frame: 3,
            body_node: Some(2),
        },
        limits: LimitSet::Coupled(vec![
            Limit::hard(DofKind::Linear, &[0, 1, 2], None, Some(0.0)),
            Limit::hard(DofKind::Angular, &[2], Some(-FRAC_PI_4), Some(FRAC_PI_4)),
        ]),
        drives: vec![Drive {
            kind: DofKind::Angular,
            mode: DriveMode::Acceleration,
            axis: 2,
            max_force: None,
            position_target: Some(0.0),
            velocity_target: None,
            stiffness: 10.0,
            damping: 1.0,
        }],
        enable_collision: false,
        description: Some(0),
    }];
    s
}

#[test]
fn khr_bodies_velocities_and_mass() {
    let e = eval(&khr_hinge(), &Poses::default());
    assert_eq!(e.profile, Profile::Khr2024Draft);
    let a = &e.bodies[0];
    assert_eq!(a.kind, BodyKind::Kinematic);
    assert!(close_pose(&a.pose, &pose(v(0.0, 2.0, 0.0), rz(FRAC_PI_2))));
    // Local (1, 0, 0) rotated by Rz(90) is world (0, 1, 0); the z spin stays (0, 0, 1).
    assert!(close3(&a.linear_velocity, &v(0.0, 1.0, 0.0)));
    assert!(close3(&a.angular_velocity, &v(0.0, 0.0, 1.0)));
    assert_eq!(a.inverse_mass, None);
    assert_eq!(a.inertia, InertiaExpect::EngineComputes);
    let b = &e.bodies[1];
    // KHR mass 0 is infinite [D-MASS-ZERO]: inverse mass 0.
    assert_eq!(b.mass, MassValue::Infinite);
    assert_eq!(b.inverse_mass, Some(0.0));
    assert!(b.decisions.contains(&Decision::MassZero));
    // diag(1, 2, 3) under Rz(90): R diag(1, 2, 3) R^T = diag(2, 1, 3).
    let InertiaExpect::Given { tensor, .. } = &b.inertia else {
        panic!("given inertia")
    };
    let t = tensor.expect("finite");
    assert!((t - Matrix3::from_diagonal(&v(2.0, 1.0, 3.0))).abs().max() < 1e-12);
}

#[test]
fn khr_colliders_belong_to_bodies() {
    let e = eval(&khr_hinge(), &Poses::default());
    let c = &e.colliders;
    assert_eq!(c.len(), 4);
    assert_eq!((c[0].body, c[0].body_node), (Some(0), Some(0)));
    assert!(close_pose(&c[0].pose, &Isometry3::identity()));
    // The static ground: relative to the world, i.e. its world pose (0, -1, 0).
    assert_eq!(c[2].body, None);
    assert_at(&c[2].pose, v(0.0, -1.0, 0.0));
    // The trigger at local (0, 0, 2) of body B.
    assert!(c[3].trigger);
    assert_at(&c[3].pose, v(0.0, 0.0, 2.0));
    assert_eq!(
        c[3].shape,
        Some(ScaledShape {
            shape: Shape::Sphere { radius: 0.5 },
            unabsorbed: None,
        })
    );
}

#[test]
fn khr_pairs_combine_and_filter() {
    let e = eval(&khr_hinge(), &Poses::default());
    let ids: Vec<[usize; 2]> = e.pairs.iter().map(|p| p.colliders).collect();
    // (1, 3) share body B and are skipped.
    assert_eq!(ids, vec![[0, 1], [0, 2], [0, 3], [1, 2], [2, 3]]);
    let p01 = &e.pairs[0];
    // Friction: a average, b multiply -> average: static (0.6 + 0.2) / 2 = 0.4, dynamic
    // (0.5 + 0.1) / 2 = 0.3. Restitution: only b names maximum -> max(0.1, 0.9) = 0.9.
    assert_eq!(p01.friction.mode, Some(Combine::Average));
    assert!((p01.friction.static_friction.expect("value") - 0.4).abs() < 1e-12);
    assert!((p01.friction.dynamic_friction.expect("value") - 0.3).abs() < 1e-12);
    assert_eq!(p01.restitution.value, Some(0.9));
    // Filters: c1's systems {b} are all in c0's notCollideWith {b}: allows(0, 1) fails;
    // c1 has no lists: allows(1, 0) holds. No collision either way.
    assert!(!p01.allows_ab && p01.allows_ba && !p01.collide && !p01.contact);
    // The hinge joins bodies A and B without enableCollision.
    assert_eq!(p01.joined_by, Some(1));
    // The ground has no material: no combined value [D-COMBINE-DEFAULT]; no filter: it belongs
    // to no system and c0's notCollideWith does not exclude it [D-FILTER-EMPTY].
    let p02 = &e.pairs[1];
    assert_eq!(p02.friction.static_friction, None);
    assert_eq!(p02.restitution.value, None);
    assert!(p02.decisions.contains(Decision::CombineDefault));
    assert!(p02.decisions.contains(Decision::FilterEmpty));
    assert!(p02.collide && p02.contact && !p02.overlap);
    // Body A against the trigger: overlap, never contact.
    let p03 = &e.pairs[2];
    assert!(p03.trigger && p03.collide && p03.overlap && !p03.contact);
    for d in [
        Decision::Combine,
        Decision::CombineDefault,
        Decision::Filter,
    ] {
        assert!(e.decisions.contains(&d), "{d:?}");
    }
}

#[test]
fn khr_joint_at_rest_and_at_poses() {
    let s = khr_hinge();
    let e = eval(&s, &Poses::default());
    let j = &e.joints[0];
    assert_eq!(j.bodies, [Some(0), Some(1)]);
    assert_eq!(j.coupling, expect::joints::Coupling::Coupled);
    // Frame A: (1, 0, 0) in body A; world (0, 3, 0) with Rz(90). Frame B: (-1, 0, 0) in body B;
    // world (0, 3, 0), identity.
    assert!(close_pose(
        &j.frames[0].relative,
        &pose(v(1.0, 0.0, 0.0), UnitQuaternion::identity())
    ));
    assert!(close_pose(
        &j.frames[0].world,
        &pose(v(0.0, 3.0, 0.0), rz(FRAC_PI_2))
    ));
    assert!(close_pose(
        &j.frames[1].relative,
        &pose(v(-1.0, 0.0, 0.0), UnitQuaternion::identity())
    ));
    assert!(close_pose(
        &j.frames[1].world,
        &pose(v(0.0, 3.0, 0.0), UnitQuaternion::identity())
    ));
    // Point limit: |d| = 0, satisfied. Twist of q_a* q_b = Rz(-90) about z: -pi/2, below the
    // minimum -pi/4 by pi/4: violation metric - min = -pi/2 + pi/4 = -pi/4 (signed).
    assert!(j.limits[0].metric.abs() < 1e-9 && j.limits[0].violation.abs() < 1e-9);
    assert!(
        (j.limits[1].metric + FRAC_PI_2).abs() < 1e-9,
        "{}",
        j.limits[1].metric
    );
    assert!((j.limits[1].violation + FRAC_PI_4).abs() < 1e-9);
    assert_eq!(j.drives.len(), 1);
    assert!(j.decisions.contains(&Decision::TwistSigned));

    // Body B moved up by 0.5: frame B follows its node to (0, 3.5, 0); |d| = 0.5 over max 0.
    let e = eval(&s, &translate(2, v(1.0, 3.5, 0.0)));
    let j = &e.joints[0];
    assert_at(&j.frames[1].world, v(0.0, 3.5, 0.0));
    assert!((j.limits[0].metric - 0.5).abs() < 1e-9);
    assert!((j.limits[0].violation - 0.5).abs() < 1e-9);
    // The node poses show the same move; the rest pose does not change.
    let n3 = e.nodes.iter().find(|n| n.node == 3).expect("node 3");
    assert_at(&n3.posed, v(0.0, 3.5, 0.0));
    assert_at(&n3.rest, v(0.0, 3.0, 0.0));
}

/// A KHR frame is its node: moving the connected node itself (not its body) moves frame B.
#[test]
fn khr_frame_follows_its_node_not_its_body() {
    let s = khr_hinge();
    let e = eval(&s, &translate(3, v(-1.0, 0.25, 0.0)));
    // Node 3 local (-1, 0.25, 0) under body B at (1, 3, 0): world (0, 3.25, 0).
    assert_at(&e.joints[0].frames[1].world, v(0.0, 3.25, 0.0));
}

// ----- OMI: the joint node between two bodies ----------------------------------------------------

/// Body A (node 0) at the origin, body B (node 1) at (2, 0, 0), joint node 2 at (1, 0, 0).
/// One per-axis constraint: linear axis 0 in [-0.5, 0.5].
fn omi_joint() -> Scene {
    let mut s = scene(
        Profile::Omi2023,
        &[
            (None, Vector3::zeros(), UnitQuaternion::identity(), 1.0),
            (None, v(2.0, 0.0, 0.0), rz(FRAC_PI_2), 1.0),
            (None, v(1.0, 0.0, 0.0), UnitQuaternion::identity(), 1.0),
        ],
    );
    let mut a = body(0, BodyKind::Dynamic);
    a.omi_type = Some(OmiBodyType::Rigid);
    a.mass = MassValue::Finite(1.0);
    a.velocity_space = VelocitySpace::World;
    a.linear_velocity = v(1.0, 0.0, 0.0);
    let mut b = body(1, BodyKind::Dynamic);
    b.omi_type = Some(OmiBodyType::Vehicle);
    b.velocity_space = VelocitySpace::World;
    b.linear_velocity = v(1.0, 0.0, 0.0);
    s.bodies = vec![a, b];
    s.joints = vec![Joint {
        node: 2,
        a: Attachment {
            frame: 2,
            body_node: Some(0),
        },
        b: Attachment {
            frame: 2,
            body_node: Some(1),
        },
        limits: LimitSet::PerAxis(vec![Limit {
            damping: 1.0,
            ..Limit::hard(DofKind::Linear, &[0], Some(-0.5), Some(0.5))
        }]),
        drives: Vec::new(),
        enable_collision: false,
        description: None,
    }];
    s
}

#[test]
fn omi_velocities_are_world_space() {
    let e = eval(&omi_joint(), &Poses::default());
    // Body B is rotated Rz(90) but its OMI velocity is world already [D-OMI-VELOCITY].
    assert!(close3(&e.bodies[1].linear_velocity, &v(1.0, 0.0, 0.0)));
    assert_eq!(e.bodies[1].omi_type, Some(OmiBodyType::Vehicle));
    assert!(e.bodies[1].decisions.contains(&Decision::OmiVelocity));
}

#[test]
fn omi_frames_are_carried_by_their_bodies() {
    let s = omi_joint();
    let e = eval(&s, &Poses::default());
    let j = &e.joints[0];
    assert_eq!(j.coupling, expect::joints::Coupling::PerAxis);
    // At rest both frames are the joint node's world pose (1, 0, 0).
    assert_at(&j.frames[0].world, v(1.0, 0.0, 0.0));
    assert_at(&j.frames[1].world, v(1.0, 0.0, 0.0));
    // Relative to body B (at (2, 0, 0) rotated Rz(90)): Rz(-90) (1 - 2, 0, 0) = (0, 1, 0),
    // rotation Rz(-90).
    assert!(close_pose(
        &j.frames[1].relative,
        &pose(v(0.0, 1.0, 0.0), rz(-FRAC_PI_2))
    ));
    assert!(j.limits[0].violation.abs() < 1e-12);
    // Body B moves to (3, 0, 0): frame B = (3, 0, 0) + Rz(90) (0, 1, 0) = (2, 0, 0); frame A
    // stays (1, 0, 0). d along frame A's x: 1, over the maximum 0.5 by 0.5. (A KHR reading of
    // the same nodes would keep both frames on the joint node: metric 0.)
    let e = eval(&s, &translate(1, v(3.0, 0.0, 0.0)));
    let j = &e.joints[0];
    assert_at(&j.frames[0].world, v(1.0, 0.0, 0.0));
    assert_at(&j.frames[1].world, v(2.0, 0.0, 0.0));
    assert!((j.limits[0].metric - 1.0).abs() < 1e-9);
    assert!((j.limits[0].violation - 0.5).abs() < 1e-9);
    assert_eq!(j.limits[0].damping, 1.0);
    assert!(j.decisions.contains(&Decision::OmiPerAxis));
}

/// OMI: a later constraint on the same axis overrides an earlier one. Constraints [x in
/// [-0.5, 0.5], x and y in [-2, 2]]: axis x of the first is overridden, axis y is not limited by
/// the first at all. Body B at (3, 0, 0): d = (1, 0, 0) -> metric 1 on x (violates only the
/// overridden [-0.5, 0.5]: violation 0.5; within [-2, 2]: 0), 0 on y.
#[test]
fn omi_later_constraint_overrides_an_earlier_one_on_the_same_axis() {
    let mut s = omi_joint();
    if let LimitSet::PerAxis(list) = &mut s.joints[0].limits {
        list.push(Limit::hard(DofKind::Linear, &[0, 1], Some(-2.0), Some(2.0)));
    }
    let e = eval(&s, &translate(1, v(3.0, 0.0, 0.0)));
    let l = &e.joints[0].limits;
    let summary: Vec<(usize, Vec<u8>, bool)> = l
        .iter()
        .map(|l| (l.index, l.axes.clone(), l.overridden))
        .collect();
    assert_eq!(
        summary,
        vec![(0, vec![0], true), (1, vec![0], false), (1, vec![1], false)]
    );
    assert!((l[0].violation - 0.5).abs() < 1e-9);
    assert!((l[1].metric - 1.0).abs() < 1e-9 && l[1].violation == 0.0);
    assert!(l[2].metric.abs() < 1e-9);
}

// ----- scale -------------------------------------------------------------------------------------

/// A body scaled by 2 with a collider child at local (1, 0, 0): the collider sits 2 m from the
/// body origin in world space, so its pose relative to the (rigid) body frame is (2, 0, 0).
#[test]
fn scaled_body_gives_scaled_offsets() {
    let mut s = scene(
        Profile::Khr2024Draft,
        &[
            (None, v(0.0, 0.0, 0.0), UnitQuaternion::identity(), 2.0),
            (Some(0), v(1.0, 0.0, 0.0), UnitQuaternion::identity(), 1.0),
        ],
    );
    let mut b = body(0, BodyKind::Dynamic);
    b.center_of_mass = Some(v(0.0, 1.0, 0.0));
    s.bodies = vec![b];
    s.shapes = vec![Shape::Sphere { radius: 1.0 }];
    s.colliders = vec![collider(1, Some(0), 0)];
    let e = eval(&s, &Poses::default());
    assert_at(&e.colliders[0].pose, v(2.0, 0.0, 0.0));
    // The local centre of mass (0, 1, 0) is (0, 2, 0) in world space under scale 2.
    assert!(close3(
        &e.bodies[0].center_of_mass_world.expect("given"),
        &v(0.0, 2.0, 0.0)
    ));
}

// ----- VRM constraints ---------------------------------------------------------------------------

/// Source node 0 and destination node 1 (rest (0, 1, 0), identity), a local-to-local rotation
/// constraint on every axis with weight 0.5. Source turned Rz(90): delta S0^-1 S = Rz(90),
/// slerp(I, Rz(90), 0.5) = Rz(45), destination q0 * delta = Rz(45) [D-VRM-ROTATION].
#[test]
fn constrained_nodes_report_their_local_trs_at_the_poses() {
    let mut s = scene(
        Profile::VrmcConstraintsDraft,
        &[
            (None, Vector3::zeros(), UnitQuaternion::identity(), 1.0),
            (None, v(0.0, 1.0, 0.0), UnitQuaternion::identity(), 1.0),
        ],
    );
    s.constraints = vec![NodeConstraint {
        node: 1,
        source: 0,
        source_space: Space::Local,
        destination_space: Space::Local,
        weight: 0.5,
        kind: ConstraintKind::Rotation {
            freeze_axes: [true; 3],
        },
    }];
    let e = eval(&s, &turn(0, rz(FRAC_PI_2)));
    assert_eq!(e.constraints.len(), 1);
    let c = &e.constraints[0];
    assert_eq!(c.node, 1);
    assert!(
        c.rotation.angle_to(&rz(FRAC_PI_4)) < 1e-9,
        "{:?}",
        c.rotation
    );
    assert!(close3(&c.translation, &v(0.0, 1.0, 0.0)));
    assert!(close3(&c.scale, &v(1.0, 1.0, 1.0)));
    // The node's posed world pose carries the evaluated rotation; its rest pose does not.
    let n1 = e.nodes.iter().find(|n| n.node == 1).expect("node 1");
    assert!(n1.posed.rotation.angle_to(&rz(FRAC_PI_4)) < 1e-9);
    assert!(n1.rest.rotation.angle() < 1e-12);
    assert!(e.decisions.contains(&Decision::VrmRotation));
}

// ----- the JSON form -----------------------------------------------------------------------------

#[test]
fn json_uses_plain_arrays_and_positive_w() {
    let e = eval(&khr_hinge(), &Poses::default());
    let j = serde_json::to_value(&e).expect("serialisable");
    assert_eq!(j["profile"], "khr-2024-draft");
    let rot = j["bodies"][0]["pose"]["rotation"]
        .as_array()
        .expect("array");
    assert_eq!(rot.len(), 4);
    assert!(rot[3].as_f64().expect("w") >= 0.0);
    assert_eq!(j["bodies"][1]["mass"]["kind"], "infinite");
    let limit = &j["joints"][0]["limits"][1];
    assert_eq!(limit["kind"], "angular");
    assert_eq!(limit["axes"], serde_json::json!([2]));
    assert!(j["pairs"][1]["friction"]["static"].is_null());
    assert!(
        j["decisions"]
            .as_array()
            .expect("array")
            .contains(&serde_json::json!("D-COMBINE"))
    );
}

// ----- through the readers -----------------------------------------------------------------------

/// The KHR hinge of [`khr_hinge`] without materials and filters, as glTF. Node 0 is given as a
/// matrix: T(0, 2, 0) Rz(90) in column-major order.
const KHR_HINGE: &str = r#"{
  "asset": {"version": "2.0"},
  "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_collision_shapes"],
  "extensions": {
    "KHR_collision_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
    "KHR_physics_rigid_bodies": {
      "physicsMaterials": [{"staticFriction": 0.6, "dynamicFriction": 0.5, "restitution": 0.1, "frictionCombine": "average"},
                           {"staticFriction": 0.2, "dynamicFriction": 0.1, "restitution": 0.9, "frictionCombine": "multiply", "restitutionCombine": "maximum"}],
      "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "max": 0},
                                    {"angularAxes": [2], "min": -0.7853981633974483, "max": 0.7853981633974483}]}]
    }
  },
  "scene": 0,
  "scenes": [{"nodes": [0, 2]}],
  "nodes": [
    {"matrix": [0,1,0,0, -1,0,0,0, 0,0,1,0, 0,2,0,1], "children": [1],
     "extensions": {"KHR_physics_rigid_bodies": {"motion": {"isKinematic": true, "linearVelocity": [1, 0, 0]},
                                                 "collider": {"shape": 0, "physicsMaterial": 0}}}},
    {"translation": [1, 0, 0],
     "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 3, "joint": 0}}}},
    {"translation": [1, 3, 0], "children": [3],
     "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 0},
                                                 "collider": {"shape": 0, "physicsMaterial": 1}}}},
    {"translation": [-1, 0, 0]}
  ]
}"#;

#[test]
fn khr_hinge_read_from_gltf() {
    let s = read_scene(KHR_HINGE);
    let e = eval(&s, &translate(2, v(1.0, 3.5, 0.0)));
    assert_eq!(e.bodies.len(), 2);
    // Matrix node 0: T(0, 2, 0) Rz(90); local velocity (1, 0, 0) -> world (0, 1, 0).
    assert!(close_pose(
        &e.bodies[0].pose,
        &pose(v(0.0, 2.0, 0.0), rz(FRAC_PI_2))
    ));
    assert!(close3(&e.bodies[0].linear_velocity, &v(0.0, 1.0, 0.0)));
    assert_eq!(e.bodies[1].mass, MassValue::Infinite);
    // One pair (the two colliders): average friction 0.4, maximum restitution 0.9; joined.
    assert_eq!(e.pairs.len(), 1);
    assert!((e.pairs[0].friction.static_friction.expect("value") - 0.4).abs() < 1e-12);
    assert_eq!(e.pairs[0].restitution.value, Some(0.9));
    assert_eq!(e.pairs[0].joined_by, Some(1));
    assert!(!e.pairs[0].contact);
    // Limits at the poses: |d| = 0.5 over max 0; twist -pi/2 below -pi/4.
    let j = &e.joints[0];
    assert!((j.limits[0].metric - 0.5).abs() < 1e-9);
    assert!((j.limits[1].metric + FRAC_PI_2).abs() < 1e-9);
}

/// Limit metrics at a pose (`at_pose::joint_limits`, what the corpus records for a case's
/// poses) are the interpretation's at that pose. KHR frames are their nodes' world poses: with
/// body B moved to (1, 3.5, 0), |d| = 0.5 and twist -pi/2 (violation -pi/2 - (-pi/4) = -pi/4);
/// with frame B (node 3) turned Rz(90) in its body the twist is gone: frame A is Rz(90) in the
/// world, frame B now Rz(90) too, and B stays at (0, 3, 0), so every metric and violation is 0.
#[test]
fn khr_hinge_limits_at_poses() {
    let s = read_scene(KHR_HINGE);
    let moved = translate(2, v(1.0, 3.5, 0.0));
    let at = limits_at(&s, &moved);
    assert_eq!(
        (at.len(), at[0].joint, at[0].node, at[0].limits.len()),
        (1, 0, 1, 2)
    );
    assert!((at[0].limits[0].metric - 0.5).abs() < 1e-9);
    assert!((at[0].limits[1].metric + FRAC_PI_2).abs() < 1e-9);
    assert!((at[0].limits[1].violation + FRAC_PI_4).abs() < 1e-9);
    let interpreted = &eval(&s, &moved).joints[0].limits;
    for (a, e) in at[0].limits.iter().zip(interpreted) {
        assert_eq!((a.metric, a.violation), (e.metric, e.violation));
    }
    let at = limits_at(&s, &turn(3, rz(FRAC_PI_2)));
    assert_eq!(at[0].limits.len(), 2);
    for l in &at[0].limits {
        assert!(l.metric.abs() < 1e-9 && l.violation.abs() < 1e-9, "{l:?}");
    }
}

/// The scene of a glTF text that reads without errors.
fn read_scene(gltf: &str) -> Scene {
    let reading = reference::read_bytes(gltf.as_bytes(), None, None);
    assert!(!reading.has_errors(), "{:#?}", reading.issues);
    reading.scene.expect("scene")
}

/// The limit metrics at `poses`, as the corpus records them.
fn limits_at(s: &Scene, poses: &Poses) -> Vec<reference::expect::at_pose::JointLimits> {
    reference::expect::at_pose::joint_limits(s, poses).expect("a world")
}

/// The OMI joint of [`omi_joint`] as glTF (OMI_physics_body + OMI_physics_joint).
const OMI_JOINT: &str = r#"{
  "asset": {"version": "2.0"},
  "extensionsUsed": ["OMI_physics_body", "OMI_physics_joint"],
  "extensions": {"OMI_physics_joint": {"constraints": [{"linearAxes": [0], "lowerLimit": -0.5, "upperLimit": 0.5}]}},
  "scene": 0,
  "scenes": [{"nodes": [0, 1, 2]}],
  "nodes": [
    {"extensions": {"OMI_physics_body": {"type": "rigid", "linearVelocity": [1, 0, 0]}}},
    {"translation": [2, 0, 0], "rotation": [0, 0, 0.7071067811865476, 0.7071067811865476],
     "extensions": {"OMI_physics_body": {"type": "vehicle", "linearVelocity": [1, 0, 0]}}},
    {"translation": [1, 0, 0], "extensions": {"OMI_physics_joint": {"constraints": [0], "nodeA": 0, "nodeB": 1}}}
  ]
}"#;

#[test]
fn omi_joint_read_from_gltf() {
    let s = read_scene(OMI_JOINT);
    let e = eval(&s, &translate(1, v(3.0, 0.0, 0.0)));
    assert_eq!(e.profile, Profile::Omi2023);
    assert!(close3(&e.bodies[1].linear_velocity, &v(1.0, 0.0, 0.0)));
    assert_eq!(e.bodies[0].mass, MassValue::Finite(1.0));
    let j = &e.joints[0];
    assert_eq!(j.bodies, [Some(0), Some(1)]);
    assert_at(&j.frames[1].world, v(2.0, 0.0, 0.0));
    assert!((j.limits[0].metric - 1.0).abs() < 1e-9);
    assert!((j.limits[0].violation - 0.5).abs() < 1e-9);
}

/// OMI frames at a pose are carried by their bodies from rest ([D-FRAMES]): both are the joint
/// node (1, 0, 0) at rest; body B moved from (2, 0, 0) to (3, 0, 0) carries frame B to
/// (2, 0, 0), so d = 1 along A's x: metric 1, violation 1 - 0.5 = 0.5, the interpretation's.
/// (The joint node itself does not move: its own pose would give 0.)
#[test]
fn omi_joint_limits_at_poses() {
    let s = read_scene(OMI_JOINT);
    let moved = translate(1, v(3.0, 0.0, 0.0));
    let at = limits_at(&s, &moved);
    assert_eq!(
        (at.len(), at[0].joint, at[0].node, at[0].limits.len()),
        (1, 0, 2, 1)
    );
    assert!((at[0].limits[0].metric - 1.0).abs() < 1e-9);
    assert!((at[0].limits[0].violation - 0.5).abs() < 1e-9);
    let interpreted = &eval(&s, &moved).joints[0].limits[0];
    assert_eq!(
        (at[0].limits[0].metric, at[0].limits[0].violation),
        (interpreted.metric, interpreted.violation)
    );
    let rest = limits_at(&s, &Poses::default());
    assert!(rest[0].limits[0].metric.abs() < 1e-9);
}

// ----- README --------------------------------------------------------------------------------

/// The README's decisions section holds the generated table, so code and docs agree.
#[test]
fn readme_lists_every_decision() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let Ok(readme) = std::fs::read_to_string(path) else {
        panic!("README.md not found at {path}");
    };
    let table = expect::decisions_markdown();
    assert!(
        readme.contains(&table),
        "README.md's decisions section is out of date; replace its table with:\n{table}"
    );
}

// ----- properties --------------------------------------------------------------------------------

fn any_rotation() -> impl Strategy<Value = UnitQuaternion<f64>> {
    (-3.0..3.0f64, -3.0..3.0f64, -3.0..3.0f64)
        .prop_map(|(x, y, z)| UnitQuaternion::from_scaled_axis(v(x, y, z)))
}

fn any_translation() -> impl Strategy<Value = Vector3<f64>> {
    (-5.0..5.0f64, -5.0..5.0f64, -5.0..5.0f64).prop_map(|(x, y, z)| v(x, y, z))
}

/// Apply the rigid motion `g` to every root of the scene (all posed roots have scale 1).
fn move_roots(s: &Scene, base: &Poses, g: &Isometry3<f64>) -> Poses {
    let locals = base.locals(s);
    let mut p = base.clone();
    for &r in &s.roots {
        let moved = g * pose(locals[r].translation, locals[r].rotation);
        p.nodes.insert(
            r,
            PoseOverride {
                translation: Some(moved.translation.vector),
                rotation: Some(moved.rotation),
                scale: None,
            },
        );
    }
    p
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Moving the whole scene rigidly changes no limit metric, under both frame rules.
    #[test]
    fn limit_metrics_ignore_a_global_rigid_motion(
        t in any_translation(), r in any_rotation(), bt in any_translation(), br in any_rotation(),
    ) {
        let g = pose(t, r);
        for s in [khr_hinge(), omi_joint()] {
            let b = if s.profile == Profile::Omi2023 { 1 } else { 2 };
            let mut base = translate(b, bt);
            base.nodes.get_mut(&b).expect("set").rotation = Some(br);
            let before = eval(&s, &base);
            let after = eval(&s, &move_roots(&s, &base, &g));
            for (x, y) in before.joints[0].limits.iter().zip(&after.joints[0].limits) {
                prop_assert!((x.metric - y.metric).abs() < 1e-6, "{} vs {}", x.metric, y.metric);
            }
        }
    }

    /// OMI frames: at any poses, each frame is its body's world pose times the frame's rest pose
    /// relative to that body; with no poses both frames are the joint node.
    #[test]
    fn omi_frames_ride_on_their_bodies(ta in any_translation(), ra in any_rotation(), tb in any_translation(), rb in any_rotation()) {
        let s = omi_joint();
        let rest = eval(&s, &Poses::default());
        let joint_rest = rest.nodes[2].rest;
        for f in &rest.joints[0].frames {
            prop_assert!(close_pose(&f.world, &joint_rest));
        }
        let mut poses = Poses::default();
        poses.nodes.insert(0, PoseOverride { translation: Some(ta), rotation: Some(ra), scale: None });
        poses.nodes.insert(1, PoseOverride { translation: Some(tb), rotation: Some(rb), scale: None });
        let e = eval(&s, &poses);
        let j = &e.joints[0];
        prop_assert!(close_pose(&j.frames[0].world, &(pose(ta, ra) * j.frames[0].relative)));
        prop_assert!(close_pose(&j.frames[1].world, &(pose(tb, rb) * j.frames[1].relative)));
    }

    /// Reversing the collider list gives the same verdict and values for every pair.
    #[test]
    fn pairs_do_not_depend_on_collider_order(flip_trigger in any::<bool>()) {
        let mut s = khr_hinge();
        s.colliders[3].is_trigger = flip_trigger;
        let forward = eval(&s, &Poses::default());
        s.colliders.reverse();
        let n = s.colliders.len();
        let backward = eval(&s, &Poses::default());
        for p in &forward.pairs {
            let [a, b] = p.colliders;
            let q = backward.pairs.iter().find(|q| q.colliders == [n - 1 - b, n - 1 - a]).expect("same pair");
            prop_assert_eq!(p.collide, q.collide);
            prop_assert_eq!(p.allows_ab, q.allows_ba);
            prop_assert_eq!(p.contact, q.contact);
            prop_assert_eq!(p.overlap, q.overlap);
            prop_assert_eq!(p.friction, q.friction);
            prop_assert_eq!(p.restitution, q.restitution);
        }
        prop_assert_eq!(forward.pairs.len(), backward.pairs.len());
    }
}
