//! A canonical scene -> one Rapier world: bodies, colliders and triggers, joints, and the
//! bookkeeping that maps Rapier handles back to glTF nodes.
//!
//! Poses come from the reference's rest world matrices ([`Scene::rest_world`] and
//! [`reference::math::pose_of`]); a collider's pose relative to its body is
//! `body_pose^-1 * collider_pose`, and its scale is baked into the shape (see [`super::shapes`]).
//! Colliders get density 0 and the body gets its full mass properties (see [`super::bodies`]).
//! Static colliders (no body) and joint ends on the world are attached to one fixed ground
//! body at the origin, which is not reported as a body. Triggers are sensors with collision events;
//! they detect every body type except static against static.

use std::collections::{BTreeMap, HashMap};
use std::sync::mpsc::{Receiver, channel};

use nalgebra::{Isometry3, Matrix3, Matrix4};
use rapier3d::dynamics::{ImpulseJointHandle, RigidBody, RigidBodyBuilder, RigidBodyHandle};
use rapier3d::geometry::{
    ActiveCollisionTypes, ColliderBuilder, ColliderHandle, CollisionEvent, SharedShape,
};
use rapier3d::pipeline::{ActiveEvents, ActiveHooks, ChannelEventCollector, PhysicsWorld};
use rapier3d::prelude::MassProperties;

use ::reference::math::pose_of;
use ::reference::scene::{NodeId, Scene, Shape};

use super::hooks::{ColliderRule, Hooks};
use super::joints::{JointFrames, JointMasses};
use super::{bodies, convert, joints, shapes};
use crate::implementation::{DriveReport, ImplError, LimitReport, SimConfig, TriggerEvent};
use crate::mutant::Mutant;

/// One loaded scene in Rapier, with what is needed to answer the interface.
pub(super) struct LoadedWorld {
    pub world: PhysicsWorld,
    pub hooks: Hooks,
    pub collector: ChannelEventCollector,
    pub collision_events: Receiver<CollisionEvent>,
    /// Body node -> Rapier body.
    pub bodies: BTreeMap<NodeId, RigidBodyHandle>,
    pub body_nodes: HashMap<RigidBodyHandle, NodeId>,
    /// Collider (and trigger) node -> Rapier collider.
    pub colliders: BTreeMap<NodeId, ColliderHandle>,
    /// The node a trigger collider reports as: its own, or its compound trigger's.
    pub trigger_nodes: HashMap<ColliderHandle, NodeId>,
    /// Open overlaps (trigger node, other node) -> number of overlapping member colliders.
    pub overlaps: BTreeMap<(NodeId, NodeId), u32>,
    pub trigger_events: Vec<TriggerEvent>,
    /// Joint node -> Rapier joint.
    pub joints: BTreeMap<NodeId, ImpulseJointHandle>,
    /// Joint node -> the limits and drives the joint was built from, as the importer
    /// understood them (Rapier's motors and limits cannot be read back in canonical form).
    pub understood: BTreeMap<NodeId, (Vec<LimitReport>, Vec<DriveReport>)>,
    pub config: SimConfig,
    pub time: f64,
    /// Bodies with a force to remove when the current step call ends.
    pub forced: Vec<RigidBodyHandle>,
    /// Kinematic pose targets for the next step.
    pub kinematic_targets: Vec<(RigidBodyHandle, Isometry3<f64>)>,
    /// The seeded importer bug, if any ([`crate::mutants`]).
    pub mutant: Option<Mutant>,
}

/// Everything said about the load (approximations, skipped joints, solver settings).
pub(super) type Notes = Vec<String>;

/// Rapier's solver iterations per step (its TGS substeps; Rapier's default is 4). The scenario
/// fixes `dt` and `substeps`; the solver effort is the adapter's choice, said in the load notes.
/// Over corpus/v1, 8 instead of 4 brings 6 more generated joint scenes inside their limit
/// tolerances for about 15 % more CPU time; 16 gains no further case.
pub(super) const SOLVER_ITERATIONS: usize = 8;

/// Colliders that are triggers detect kinematic and dynamic bodies and static colliders, but
/// not static against static.
fn trigger_collision_types() -> ActiveCollisionTypes {
    ActiveCollisionTypes::all() & !ActiveCollisionTypes::FIXED_FIXED
}

/// A collider ready to insert.
struct PreparedCollider {
    node: NodeId,
    body: Option<usize>,
    shape: SharedShape,
    /// Relative to the body (world when static).
    pose: Isometry3<f64>,
    is_trigger: bool,
}

/// Build the world of `scene`.
pub(super) fn build(
    scene: &Scene,
    config: SimConfig,
    mutant: Option<Mutant>,
) -> Result<(LoadedWorld, Notes), ImplError> {
    let rest: Vec<Matrix4<f64>> = if mutant == Some(Mutant::NodeMatrixIgnored) {
        let locals: Vec<Matrix4<f64>> = scene
            .nodes
            .iter()
            .map(|n| {
                if n.from_matrix {
                    Matrix4::identity()
                } else {
                    n.rest.matrix()
                }
            })
            .collect();
        scene.world_from_locals(&locals)
    } else {
        scene.rest_world()
    };
    let poses: Vec<Isometry3<f64>> = rest.iter().map(pose_of).collect();
    let pose_at = |node: NodeId| {
        poses
            .get(node)
            .copied()
            .ok_or_else(|| ImplError::Failed(format!("node {node} does not exist")))
    };
    let mut notes = vec![format!(
        "rapier3d solver: {SOLVER_ITERATIONS} iterations per step (IntegrationParameters::num_solver_iterations)"
    )];

    // Shapes first: a body's mass properties need its colliders.
    let mut prepared = Vec::with_capacity(scene.colliders.len());
    let mut unit_mass = vec![MassProperties::default(); scene.bodies.len()];
    for c in &scene.colliders {
        let shape = scene.shapes.get(c.shape).ok_or_else(|| {
            ImplError::Failed(format!("collider {}: no shape {}", c.node, c.shape))
        })?;
        let world = rest
            .get(c.node)
            .ok_or_else(|| ImplError::Failed(format!("node {} does not exist", c.node)))?;
        if c.body.is_some() && matches!(shape, Shape::Plane { .. }) {
            // A half-space has no finite mass properties: Rapier cannot move one.
            return Err(ImplError::NotSupported("a plane on a moving body".into()));
        }
        let built = shapes::build(
            shape,
            &::reference::expect::colliders::stretch_of(scene.profile, world),
            &scene.meshes,
        )?;
        if let Some(a) = built.approximation {
            notes.push(format!("node {}: {a}", c.node));
        }
        let body_pose = match c.body {
            Some(b) => {
                let node = scene
                    .bodies
                    .get(b)
                    .ok_or_else(|| ImplError::Failed(format!("no body {b}")))?
                    .node;
                pose_at(node)?
            }
            None => Isometry3::identity(),
        };
        let pose = body_pose.inverse() * pose_at(c.node)?;
        if let (Some(b), false) = (c.body, c.is_trigger) {
            let at = convert::pose(&pose, "collider pose")?;
            unit_mass[b] += built.shape.mass_properties(1.0).transform_by(&at);
        }
        prepared.push(PreparedCollider {
            node: c.node,
            body: c.body,
            shape: built.shape,
            pose,
            is_trigger: c.is_trigger,
        });
    }

    let mut world = PhysicsWorld::new();
    world.gravity = convert::vector(&config.gravity.into(), "gravity")?;
    let mut body_handles = Vec::with_capacity(scene.bodies.len());
    let mut bodies_by_node = BTreeMap::new();
    let mut body_nodes = HashMap::new();
    for (b, mass) in scene.bodies.iter().zip(&unit_mass) {
        let rb = bodies::builder(b, &pose_at(b.node)?, mutant)?
            .additional_mass_properties(bodies::mass_properties(b, mass)?)
            .build();
        let h = world.bodies.insert(rb);
        body_handles.push(h);
        bodies_by_node.insert(b.node, h);
        body_nodes.insert(h, b.node);
    }

    let mut hooks = Hooks::default();
    let mut colliders = BTreeMap::new();
    let mut ground = None;
    for (p, c) in prepared.into_iter().zip(&scene.colliders) {
        let mut builder = ColliderBuilder::new(p.shape)
            .position(convert::pose(&p.pose, "collider pose")?)
            .density(0.0)
            .sensor(p.is_trigger)
            .active_hooks(
                ActiveHooks::FILTER_CONTACT_PAIRS
                    | ActiveHooks::FILTER_INTERSECTION_PAIR
                    | ActiveHooks::MODIFY_SOLVER_CONTACTS,
            )
            .user_data(p.node as u128);
        if p.is_trigger {
            builder = builder
                .active_events(ActiveEvents::COLLISION_EVENTS)
                .active_collision_types(trigger_collision_types());
        }
        let parent = match p.body.and_then(|b| body_handles.get(b)) {
            Some(&parent) => parent,
            None => *ground.get_or_insert_with(|| world.bodies.insert(ground_body())),
        };
        let handle = world
            .colliders
            .insert_with_parent(builder, parent, &mut world.bodies);
        colliders.insert(p.node, handle);
        hooks.rules.insert(
            handle,
            ColliderRule {
                node: p.node,
                is_trigger: p.is_trigger,
                material: c
                    .material
                    .and_then(|m| scene.materials.get(m))
                    .cloned()
                    .map(|mut m| {
                        if mutant == Some(Mutant::CombineModeIgnored) {
                            (m.friction_combine, m.restitution_combine) = (None, None);
                        }
                        m
                    }),
                filter: c.filter.and_then(|f| scene.filters.get(f)).cloned(),
            },
        );
    }
    for &h in &body_handles {
        if let Some(rb) = world.bodies.get_mut(h) {
            rb.recompute_mass_properties_from_colliders(&world.colliders);
        }
    }

    let mut trigger_nodes: HashMap<ColliderHandle, NodeId> = colliders
        .iter()
        .filter(|(_, h)| hooks.rules.get(h).is_some_and(|r| r.is_trigger))
        .map(|(&n, &h)| (h, n))
        .collect();
    for compound in &scene.compound_triggers {
        if mutant == Some(Mutant::CompoundTriggerWrongNode) {
            // Events stay on the member that overlaps.
            continue;
        }
        for member in &compound.members {
            if let Some(h) = colliders.get(member) {
                trigger_nodes.insert(*h, compound.node);
            }
        }
    }

    let mut joint_handles = BTreeMap::new();
    let mut understood = BTreeMap::new();
    for j in &scene.joints {
        let ends = [&j.a, &j.b];
        let handles: Vec<Option<RigidBodyHandle>> = ends
            .iter()
            .map(|e| e.body_node.and_then(|n| bodies_by_node.get(&n).copied()))
            .collect();
        if handles.iter().all(Option::is_none) {
            notes.push(format!(
                "joint on node {}: no end is on a body, not created",
                j.node
            ));
            continue;
        }
        if handles[0] == handles[1] {
            notes.push(format!(
                "joint on node {}: both ends on one body, not created",
                j.node
            ));
            continue;
        }
        let mut pair = [RigidBodyHandle::invalid(); 2];
        let mut local = [Isometry3::identity(); 2];
        for (i, (end, h)) in ends.iter().zip(&handles).enumerate() {
            pair[i] = match h {
                Some(h) => *h,
                None => *ground.get_or_insert_with(|| world.bodies.insert(ground_body())),
            };
            let body_pose = match end.body_node {
                Some(n) if h.is_some() => pose_at(n)?,
                _ => Isometry3::identity(),
            };
            local[i] = body_pose.inverse() * pose_at(end.frame)?;
        }
        let frames = JointFrames {
            local,
            world_rotation_a: pose_at(j.a.frame)?.rotation,
        };
        let masses = joint_masses(&world, pair);
        let data = joints::build(j, &frames, &masses, mutant)?;
        let h = world.impulse_joints.insert(pair[0], pair[1], data, true);
        joint_handles.insert(j.node, h);
        understood.insert(j.node, joints::understood(j, mutant));
    }

    let (collision_send, collision_events) = channel();
    let (force_send, _) = channel();
    let (tear_send, _) = channel();
    let mut loaded = LoadedWorld {
        world,
        hooks,
        collector: ChannelEventCollector::new(collision_send, force_send, tear_send),
        collision_events,
        bodies: bodies_by_node,
        body_nodes,
        colliders,
        trigger_nodes,
        overlaps: BTreeMap::new(),
        trigger_events: Vec::new(),
        joints: joint_handles,
        understood,
        config,
        time: 0.0,
        forced: Vec::new(),
        kinematic_targets: Vec::new(),
        mutant,
    };
    loaded.configure(config)?;
    Ok((loaded, notes))
}

/// The fixed body at the origin that carries static colliders and world joint ends, so that
/// Rapier's per-body rules hold for the static world as for one body: its colliders never
/// collide with each other, and a joint to the world without `enableCollision` disables
/// contacts between the joined body and static colliders.
fn ground_body() -> RigidBodyBuilder {
    RigidBodyBuilder::fixed().user_data(u128::MAX)
}

/// Refuse settings Rapier cannot step with.
pub(super) fn check_config(config: &SimConfig) -> Result<(), ImplError> {
    if !(config.dt.is_finite() && config.dt > 0.0) || config.substeps == 0 {
        return Err(ImplError::BadRequest(format!(
            "dt must be positive and substeps at least 1 (got dt {}, substeps {})",
            config.dt, config.substeps
        )));
    }
    convert::vector(&config.gravity.into(), "gravity").map(|_| ())
}

/// Inverse masses and world inverse inertias of two bodies (0 unless dynamic).
fn joint_masses(world: &PhysicsWorld, pair: [RigidBodyHandle; 2]) -> JointMasses {
    let one = |h: RigidBodyHandle| -> (f64, Matrix3<f64>) {
        let Some(rb) = world.bodies.get(h).filter(|rb| rb.is_dynamic()) else {
            return (0.0, Matrix3::zeros());
        };
        inverse_mass_and_inertia(rb)
    };
    let (m1, i1) = one(pair[0]);
    let (m2, i2) = one(pair[1]);
    JointMasses {
        inv_mass: [m1, m2],
        inv_inertia: [i1, i2],
    }
}

/// `1 / m` and the world inverse inertia tensor `R diag(1 / I) R^T` of a body.
fn inverse_mass_and_inertia(rb: &RigidBody) -> (f64, Matrix3<f64>) {
    let m = &rb.mass_properties().local_mprops;
    let r = convert::to_rotation(*rb.rotation() * m.principal_inertia_local_frame)
        .to_rotation_matrix()
        .into_inner();
    let d = Matrix3::from_diagonal(&convert::to_vector(m.inv_principal_inertia));
    (f64::from(m.inv_mass), r * d * r.transpose())
}

impl LoadedWorld {
    /// Apply simulation settings: each step of `dt` is `substeps` Rapier steps.
    pub(super) fn configure(&mut self, config: SimConfig) -> Result<(), ImplError> {
        check_config(&config)?;
        let mut gravity = nalgebra::Vector3::from(config.gravity);
        if self.mutant == Some(Mutant::Gravity98) {
            gravity *= 9.8 / 9.81;
        }
        self.world.gravity = convert::vector(&gravity, "gravity")?;
        self.world.integration_parameters.dt =
            convert::real(config.dt / f64::from(config.substeps), "dt")?;
        self.world.integration_parameters.num_solver_iterations = SOLVER_ITERATIONS;
        self.config = config;
        Ok(())
    }
}
