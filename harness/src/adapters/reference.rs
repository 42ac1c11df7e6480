//! The reference evaluator served as an implementation of the checks that need no simulation:
//! validation (its reader rejects an invalid file with the catalogue's error codes), the
//! interpretation after load ([`reference::expect`]) and VRM constraint outputs
//! ([`reference::constraints`]). It does not simulate.
//!
//! Every one of these checks compares the reference with itself as it was when the corpus was
//! generated, so the reference passes them by construction: the self-test is evidence that the
//! corpus files, their expectations and the harness's checks agree (no drift), not conformance
//! evidence about an engine (`reports/README.md`, "The reference implementation"). Only a seeded
//! bug of `physics-cts mutants` makes it differ: it misreads the scene before evaluating it
//! ([`crate::mutant::misread_scene`]).
//!
//! Its reports are the reference's expectation in the interface's vocabulary, so a check that
//! compares an implementation with the reference passes on it by construction; values the spec
//! leaves to the engine (a mass, centre of mass or inertia the file omits) are
//! [`MassReport::Unspecified`] / `None`. Shapes are reported as the expectation gives them: as
//! simulated, the collider node's world scale applied ([`super::scale::parameters`]).

use ::reference::expect::at_pose::{self, ConstraintOutputs};
use ::reference::expect::bodies::InertiaExpect;
use ::reference::expect::{self, Expectation};
use ::reference::math::xyzw_positive_w;
use ::reference::poses::Poses;
use ::reference::profile::Profile;
use ::reference::scene::{ConstraintKind, MassValue, Scene, Trs};
use nalgebra::{Isometry3, Matrix3, UnitQuaternion, Vector3};

use super::scale;
use crate::implementation::{
    Action, BodyReport, Capabilities, CheckFamily, ColliderReport, DriveReport, Handshake,
    ImplError, Implementation, Interpretation, JointReport, LimitReport, LoadOutcome, LoadRequest,
    MassReport, NodeTrs, PROTOCOL_VERSION, PairReport, Pose, SimConfig, State,
};
use crate::mutant::Mutant;

/// The reference, in process.
#[derive(Debug, Default)]
pub struct ReferenceImplementation {
    scene: Option<Scene>,
    /// A seeded importer bug ([`crate::mutants`]); `None` unless `physics-cts mutants` asks.
    mutant: Option<Mutant>,
}

impl ReferenceImplementation {
    pub fn new() -> Self {
        Self::default()
    }

    /// The reference with a seeded bug (`None`: as [`ReferenceImplementation::new`]).
    pub fn with_mutant(mutant: Option<Mutant>) -> Self {
        ReferenceImplementation {
            scene: None,
            mutant,
        }
    }

    fn scene(&self) -> Result<&Scene, ImplError> {
        self.scene
            .as_ref()
            .ok_or_else(|| ImplError::BadRequest("no scene is loaded".into()))
    }
}

/// The capabilities of the reference: every profile and feature, every check family but
/// dynamics.
pub fn capabilities() -> Capabilities {
    Capabilities {
        profiles: Profile::ALL.to_vec(),
        features: vec!["*".into()],
        checks: vec![
            CheckFamily::Validation,
            CheckFamily::Interpretation,
            CheckFamily::Constraints,
        ],
        batch: false,
    }
}

fn mass(v: MassValue) -> MassReport {
    match v {
        MassValue::EngineComputes => MassReport::Unspecified,
        MassValue::Infinite => MassReport::Infinite,
        MassValue::Finite(m) => MassReport::Finite(m),
    }
}

fn pose(p: &Isometry3<f64>) -> Pose {
    Pose {
        translation: p.translation.vector.into(),
        rotation: xyzw_positive_w(&p.rotation),
    }
}

/// Principal moments and their orientation of a given inertia.
fn principal(inertia: &InertiaExpect) -> ([MassReport; 3], [f64; 4]) {
    let unspecified = [MassReport::Unspecified; 3];
    let identity = [0.0, 0.0, 0.0, 1.0];
    match inertia {
        InertiaExpect::EngineComputes => (unspecified, identity),
        InertiaExpect::Given {
            principal: Some(p), ..
        } => (p.moments.map(mass), xyzw_positive_w(&p.orientation)),
        InertiaExpect::Given {
            tensor: Some(t), ..
        } => {
            // An OMI tensor: its eigen decomposition, with a proper rotation.
            let eigen = t.symmetric_eigen();
            let mut vectors: Matrix3<f64> = eigen.eigenvectors;
            let mut values = eigen.eigenvalues;
            if vectors.determinant() < 0.0 {
                vectors.swap_columns(1, 2);
                values.swap_rows(1, 2);
            }
            let r = UnitQuaternion::from_matrix(&vectors);
            (
                [0, 1, 2].map(|i| MassReport::Finite(values[i])),
                xyzw_positive_w(&r),
            )
        }
        InertiaExpect::Given { .. } => (unspecified, identity),
    }
}

/// The expectation in the interface's vocabulary.
fn interpretation(scene: &Scene, e: &Expectation) -> Interpretation {
    let bodies = e
        .bodies
        .iter()
        .map(|b| {
            let (inertia_diagonal, inertia_orientation) = principal(&b.inertia);
            BodyReport {
                node: b.node,
                kind: b.kind,
                mass: mass(b.mass),
                center_of_mass: b.center_of_mass.map(Into::into),
                inertia_diagonal,
                inertia_orientation,
                linear_velocity: b.linear_velocity.into(),
                angular_velocity: b.angular_velocity.into(),
                gravity_factor: b.gravity_factor,
            }
        })
        .collect();
    let colliders = e
        .colliders
        .iter()
        .filter_map(|c| {
            let (shape, parameters) = scale::parameters(c.shape.as_ref()?, &scene.meshes);
            let p = pose(&c.pose);
            Some(ColliderReport {
                node: c.node,
                body: c.body_node,
                is_trigger: c.trigger,
                shape,
                parameters,
                translation: p.translation,
                rotation: p.rotation,
            })
        })
        .collect();
    let pairs = e
        .pairs
        .iter()
        .map(|p| {
            let (a, b) = (p.nodes[0].min(p.nodes[1]), p.nodes[0].max(p.nodes[1]));
            PairReport {
                a,
                b,
                collide: p.contact,
                static_friction: p.friction.static_friction,
                dynamic_friction: p.friction.dynamic_friction,
                restitution: p.restitution.value,
            }
        })
        .collect();
    let joints = e
        .joints
        .iter()
        .map(|j| JointReport {
            node: j.node,
            bodies: [j.frames[0].body_node, j.frames[1].body_node],
            frames: [pose(&j.frames[0].relative), pose(&j.frames[1].relative)],
            limits: j
                .limits
                .iter()
                .map(|l| LimitReport::from(&l.limit()))
                .collect(),
            drives: j.drives.iter().map(DriveReport::from).collect(),
        })
        .collect();
    Interpretation {
        bodies,
        colliders,
        pairs,
        joints,
    }
}

/// The constraints as read with a seeded importer bug ([`crate::mutants`]); unchanged without.
fn misread_constraints(scene: &mut Scene, mutant: Option<Mutant>) {
    let draft = scene.profile == Profile::VrmcConstraintsDraft;
    let vrm = draft || scene.profile == Profile::VrmcNodeConstraint10;
    if vrm && mutant == Some(Mutant::VrmNodeMatrixIgnored) {
        for n in scene.nodes.iter_mut().filter(|n| n.from_matrix) {
            n.rest = Trs::default();
        }
    }
    if vrm && mutant == Some(Mutant::VrmScaleIgnored) {
        for n in &mut scene.nodes {
            n.rest.scale = Vector3::new(1.0, 1.0, 1.0);
        }
    }
    for c in &mut scene.constraints {
        if mutant == Some(Mutant::VrmWeightIgnored) {
            c.weight = 1.0;
        }
        match &mut c.kind {
            ConstraintKind::Roll { roll_axis } if mutant == Some(Mutant::VrmRollAxisOffByOne) => {
                // X -> Y, Y -> Z, Z -> X.
                *roll_axis = Vector3::new(roll_axis.z, roll_axis.x, roll_axis.y);
            }
            ConstraintKind::Position { freeze_axes } | ConstraintKind::Rotation { freeze_axes }
                if draft && mutant == Some(Mutant::VrmFreezeInverted) =>
            {
                *freeze_axes = freeze_axes.map(|f| !f);
            }
            ConstraintKind::Aim { freeze_axes, .. }
                if draft && mutant == Some(Mutant::VrmFreezeInverted) =>
            {
                *freeze_axes = freeze_axes.map(|f| !f);
            }
            _ => {}
        }
    }
}

/// The constraint outputs with each constraint applied once, in file order, on the poses the
/// earlier ones left (the [`Mutant::VrmFileOrder`] bug), in the format of
/// [`at_pose::constraint_outputs`].
fn in_file_order(
    scene: &Scene,
    mut locals: Vec<Trs>,
) -> Result<Vec<at_pose::ConstrainedOutput>, ImplError> {
    for c in &scene.constraints {
        let one = Scene {
            constraints: vec![c.clone()],
            ..scene.clone()
        };
        let out = ::reference::constraints::evaluate(&one, &locals)
            .map_err(|e| ImplError::Failed(e.to_string()))?;
        if let (Some(slot), Some(t)) = (locals.get_mut(c.node), out.get(c.node)) {
            *slot = *t;
        }
    }
    Ok(scene
        .constraints
        .iter()
        .filter_map(|c| {
            let t = locals.get(c.node)?;
            Some(at_pose::ConstrainedOutput {
                node: c.node,
                translation: t.translation.into(),
                rotation: xyzw_positive_w(&t.rotation),
                scale: t.scale.into(),
            })
        })
        .collect())
}

fn no_simulation() -> ImplError {
    ImplError::NotSupported("the reference does not simulate".into())
}

impl Implementation for ReferenceImplementation {
    fn handshake(&mut self) -> Result<Handshake, ImplError> {
        Ok(Handshake {
            name: "reference".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            engine: "physics-cts reference evaluator".into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: capabilities(),
        })
    }

    fn load(&mut self, request: &LoadRequest) -> Result<LoadOutcome, ImplError> {
        self.scene = None;
        match super::read_scene(request, self.mutant)? {
            Ok(mut scene) => {
                crate::mutant::misread_scene(&mut scene, self.mutant);
                misread_constraints(&mut scene, self.mutant);
                self.scene = Some(scene);
                Ok(LoadOutcome::Loaded { notes: Vec::new() })
            }
            Err(rejected) => Ok(rejected),
        }
    }

    fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
        let scene = self.scene()?;
        let e = expect::evaluate(scene, &Poses::default())
            .map_err(|err| ImplError::Failed(err.to_string()))?;
        Ok(interpretation(scene, &e))
    }

    fn configure(&mut self, _config: &SimConfig) -> Result<(), ImplError> {
        Err(no_simulation())
    }

    fn step(&mut self, _steps: u32) -> Result<(), ImplError> {
        Err(no_simulation())
    }

    fn observe(&mut self) -> Result<State, ImplError> {
        Err(no_simulation())
    }

    fn apply(&mut self, _action: &Action) -> Result<(), ImplError> {
        Err(no_simulation())
    }

    fn evaluate_constraints(
        &mut self,
        poses: &serde_json::Value,
    ) -> Result<Vec<NodeTrs>, ImplError> {
        let scene = self.scene()?;
        let poses = Poses::from_value(poses, scene.nodes.len())
            .map_err(|e| ImplError::BadRequest(e.to_string()))?;
        // The outputs the corpus records, one per constrained node, by node.
        let outputs = if self.mutant == Some(Mutant::VrmFileOrder) {
            in_file_order(scene, poses.locals(scene))?
        } else {
            match at_pose::constraint_outputs(scene, &poses.locals(scene)) {
                ConstraintOutputs::Nodes(outputs) => outputs,
                ConstraintOutputs::Error { error } => return Err(ImplError::Failed(error)),
            }
        };
        let mut nodes: Vec<NodeTrs> = outputs
            .into_iter()
            .map(|o| NodeTrs {
                node: o.node,
                translation: o.translation,
                rotation: if self.mutant == Some(Mutant::VrmQuaternionWxyz) {
                    let [x, y, z, w] = o.rotation;
                    [w, x, y, z]
                } else {
                    o.rotation
                },
                scale: o.scale,
            })
            .collect();
        nodes.sort_by_key(|n| n.node);
        nodes.dedup_by_key(|n| n.node);
        Ok(nodes)
    }

    fn unload(&mut self) -> Result<(), ImplError> {
        self.scene = None;
        Ok(())
    }
}
