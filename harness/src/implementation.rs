//! The interface every implementation under test speaks: in process (Rapier, the reference) or,
//! with the same messages as JSON lines, over stdio. An implementation never sees expectations:
//! it loads a glTF file, simulates, and reports observables; the harness computes verdicts with
//! the reference.
//!
//! Units are SI, quaternions `[x, y, z, w]`, poses in world space unless a field says local.
//! Nodes are named by glTF node index, so every report is comparable with the reference.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::protocol::finite;

/// Linear or angular (`linear`, `angular`), and a drive's mode (`force`, `acceleration`):
/// the reference's canonical enums, whose serde form is the protocol's.
pub use reference::scene::{DofKind, DriveMode};

/// A profile (`khr-2024-draft`, ...) and a body's kind (`static`, `kinematic`, `dynamic`): the
/// reference's enums, serialised as their ids.
pub use reference::{profile::Profile, scene::BodyKind};

/// A string enum of the protocol: each variant's wire name, given once, is its serde spelling
/// and its text in messages, so an unknown string is a malformed answer naming the allowed
/// ones, not a failed check.
macro_rules! wire_enum {
    ($(#[$doc:meta])* $name:ident { $($variant:ident = $id:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
        pub enum $name { $(#[serde(rename = $id)] $variant,)* }

        impl $name {
            /// The wire name.
            pub const fn name(self) -> &'static str {
                match self { $($name::$variant => $id,)* }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

wire_enum! {
    /// A family of checks an implementation takes part in (the harness's vocabulary).
    CheckFamily {
        Validation = "validation",
        Interpretation = "interpretation",
        Dynamics = "dynamics",
        Constraints = "constraints",
    }
}

wire_enum! {
    /// The type of shape an engine built: the spec's, a compound of several parts, or another
    /// the protocol has no name for.
    ReportedShape {
        Sphere = "sphere",
        Box = "box",
        Capsule = "capsule",
        Cylinder = "cylinder",
        Convex = "convex",
        Trimesh = "trimesh",
        Plane = "plane",
        Compound = "compound",
        Other = "other",
    }
}

impl From<&reference::scene::Shape> for ReportedShape {
    /// The type a shape of the reference's scene is built as.
    fn from(shape: &reference::scene::Shape) -> ReportedShape {
        use reference::scene::Shape;
        match shape {
            Shape::Sphere { .. } => ReportedShape::Sphere,
            Shape::Box { .. } => ReportedShape::Box,
            Shape::Capsule { .. } => ReportedShape::Capsule,
            Shape::Cylinder { .. } => ReportedShape::Cylinder,
            Shape::Convex { .. } => ReportedShape::Convex,
            Shape::Trimesh { .. } => ReportedShape::Trimesh,
            Shape::Plane { .. } => ReportedShape::Plane,
        }
    }
}

wire_enum! {
    /// A trigger event: an overlap began or ended.
    TriggerEventKind {
        Enter = "enter",
        Exit = "exit",
    }
}

/// Version of the messages below; a change that breaks an adapter bumps it. 2: a body reports
/// its `gravity_factor`, a joint its `limits` and `drives` (`PROTOCOL.md`, "Versions").
pub const PROTOCOL_VERSION: u32 = 2;

/// What an implementation says about itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Handshake {
    /// The implementation's name.
    pub name: String,
    /// The implementation's own version.
    pub version: String,
    /// The engine and its version, e.g. `rapier3d 0.36.1`.
    pub engine: String,
    /// The protocol version the implementation speaks (`PROTOCOL_VERSION`).
    #[schemars(range(min = 1))]
    pub protocol_version: u32,
    /// What the implementation supports.
    pub capabilities: Capabilities,
}

/// Profiles and feature tags an implementation supports. A case needing a feature outside
/// these is `NOT_SUPPORTED` without a round trip; a declared feature that fails is a `FAIL`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Capabilities {
    /// Profile ids (`khr-2024-draft`, ...). An id this harness does not know is skipped, not
    /// refused: an implementation written for a later revision still runs every case it knows.
    #[serde(deserialize_with = "known_profiles")]
    pub profiles: Vec<Profile>,
    /// Feature tags as the corpus writes them. A tag matches a declared entry equal to it or
    /// a declared prefix ending in `.` or `*` (`joint.limit.` covers `joint.limit.linear.1`).
    pub features: Vec<String>,
    /// Check families the implementation takes part in.
    pub checks: Vec<CheckFamily>,
    /// Over stdio: the implementation answers the `batch` operation (a scenario's requests in
    /// one round trip, see [`Implementation::simulate`]). Absent on the wire when false, so a
    /// handshake without it reads and writes as before; in process it means nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub batch: bool,
}

impl Capabilities {
    /// Whether `feature` is declared (exactly or by a prefix ending in `.` or `*`).
    pub fn supports_feature(&self, feature: &str) -> bool {
        self.features.iter().any(|f| {
            f == feature
                || f.strip_suffix('*').is_some_and(|p| feature.starts_with(p))
                || (f.ends_with('.') && feature.starts_with(f.as_str()))
        })
    }
}

/// The declared profiles this harness knows, in order; the others are no case of this corpus.
fn known_profiles<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Profile>, D::Error> {
    let ids = Vec::<std::borrow::Cow<'de, str>>::deserialize(d)?;
    Ok(ids.iter().filter_map(|id| id.parse().ok()).collect())
}

/// Load a scene from a file the implementation reads itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LoadRequest {
    /// Absolute path of the `.gltf` / `.glb`.
    pub path: PathBuf,
    /// The profile the case is written in.
    pub profile: Profile,
}

/// What loading did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum LoadOutcome {
    /// The scene is loaded and can be simulated.
    Loaded {
        /// Anything the implementation wants to say (ignored features, approximations).
        #[serde(default)]
        notes: Vec<String>,
    },
    /// The implementation refused the file as invalid.
    Rejected {
        /// Why, for people.
        reason: String,
        /// Validation codes, if the implementation speaks the catalogue.
        #[serde(default)]
        codes: Vec<String>,
    },
}

/// Simulation settings, sent after a load (the case format's, `reference::case`).
pub use reference::case::SimConfig;

/// A mass property as an engine holds it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum MassReport {
    /// Infinite (an immovable axis or body).
    Infinite,
    /// A finite value, kg or kg m^2.
    Finite(
        #[serde(with = "finite")]
        #[schemars(with = "finite::Number")]
        f64,
    ),
    /// Not given by the file and not computed by this implementation (the reference, which
    /// leaves engine-computed values to the engine). An engine reports what it computed.
    Unspecified,
}

impl std::fmt::Display for MassReport {
    /// For people: `2.5`, `infinite`, `unspecified` (not `Finite(2.5)`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MassReport::Infinite => f.write_str("infinite"),
            MassReport::Finite(x) => f.write_str(&crate::text::number(*x)),
            MassReport::Unspecified => f.write_str("unspecified"),
        }
    }
}

/// A body after load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct BodyReport {
    /// The body's node.
    pub node: usize,
    pub kind: BodyKind,
    /// The body's mass.
    pub mass: MassReport,
    /// Centre of mass in the body's local frame (`None`: unspecified, as for [`MassReport`]).
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Vec3>")]
    pub center_of_mass: Option<[f64; 3]>,
    /// Principal moments of inertia, each possibly infinite.
    pub inertia_diagonal: [MassReport; 3],
    /// The rotation from the principal axes to the body frame.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Quat")]
    pub inertia_orientation: [f64; 4],
    /// Initial linear velocity, m/s, world space.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub linear_velocity: [f64; 3],
    /// Initial angular velocity, rad/s, world space.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub angular_velocity: [f64; 3],
    /// The factor the implementation applies to gravity for this body (KHR `gravityFactor`,
    /// 1 when the file gives none or the profile has none).
    #[serde(with = "finite")]
    #[schemars(with = "finite::Number")]
    pub gravity_factor: f64,
}

/// A collider or trigger after load.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ColliderReport {
    /// The collider's node.
    pub node: usize,
    /// The node of the body it moves with; `None`: static world.
    pub body: Option<usize>,
    pub is_trigger: bool,
    pub shape: ReportedShape,
    /// Shape parameters as simulated, in world units (the collider node's world scale
    /// applied), in the canonical convention of the reference (`radius`, `size`, `height` =
    /// distance between capsule cap centres, `radius_top`, `radius_bottom`, `vertex_count`,
    /// `triangle_count`). An engine reports the shape it built (a convex hull reports its
    /// hull's vertices).
    pub parameters: serde_json::Map<String, serde_json::Value>,
    /// Translation relative to the body (world when static).
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub translation: [f64; 3],
    /// Rotation relative to the body (world when static).
    #[serde(with = "finite")]
    #[schemars(with = "finite::Quat")]
    pub rotation: [f64; 4],
}

/// What an implementation will do when two colliders touch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct PairReport {
    /// The first collider node (`a < b`).
    pub a: usize,
    /// The second collider node.
    pub b: usize,
    /// Whether contacts between them are generated.
    pub collide: bool,
    /// The combined static friction, if the implementation reports it.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub static_friction: Option<f64>,
    /// The combined dynamic friction, if the implementation reports it.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub dynamic_friction: Option<f64>,
    /// The combined restitution, if the implementation reports it.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub restitution: Option<f64>,
}

/// A joint after load: its bodies and both attachment frames relative to their bodies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct JointReport {
    /// The node carrying the joint.
    pub node: usize,
    /// The nodes of the two bodies (`null`: the static world).
    pub bodies: [Option<usize>; 2],
    /// Each attachment frame relative to its body.
    pub frames: [Pose; 2],
    /// The limits as read, in the file's order (the joint description's for KHR, the listed
    /// constraints' for OMI), every one of them: those a later one overrides too.
    pub limits: Vec<LimitReport>,
    /// The drives as read, in the file's order.
    pub drives: Vec<DriveReport>,
}

/// One joint limit in the reference's canonical form: SI units and radians, the profile's
/// defaults applied (an OMI side the file omits is 0, a KHR one is absent). For OMI's per-axis
/// limits, one entry per axis or one per constraint listing its axes read the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct LimitReport {
    /// `linear` or `angular`.
    pub kind: DofKind,
    /// The limited axes of the joint frame, 0 (x), 1 (y), 2 (z), in file order.
    pub axes: Vec<u8>,
    /// The lower bound, m or rad; `null`: open below.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub min: Option<f64>,
    /// The upper bound, m or rad; `null`: open above.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub max: Option<f64>,
    /// The spring stiffness of a soft limit, N/m or N m/rad; `null`: a hard limit.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub stiffness: Option<f64>,
    /// The damping, N s/m or N m s/rad.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Number")]
    pub damping: f64,
}

/// One joint drive in the reference's canonical form (SI units and radians).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct DriveReport {
    /// `linear` or `angular`.
    pub kind: DofKind,
    /// The driven axis of the joint frame, 0 (x), 1 (y) or 2 (z).
    #[schemars(range(max = 2))]
    pub axis: u8,
    /// `force` or `acceleration`.
    pub mode: DriveMode,
    /// The largest force (torque) the drive exerts; `null`: unlimited.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub max_force: Option<f64>,
    /// `null`: no position target (no spring term).
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub position_target: Option<f64>,
    /// `null`: no velocity target.
    #[serde(default, with = "finite")]
    #[schemars(with = "Option<finite::Number>")]
    pub velocity_target: Option<f64>,
    /// The spring stiffness.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Number")]
    pub stiffness: f64,
    /// The damping.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Number")]
    pub damping: f64,
}

impl From<&reference::scene::Drive> for DriveReport {
    /// A drive of the reference's scene, as an implementation that read it right reports it.
    fn from(d: &reference::scene::Drive) -> DriveReport {
        DriveReport {
            kind: d.kind,
            axis: d.axis,
            mode: d.mode,
            max_force: d.max_force,
            position_target: d.position_target,
            velocity_target: d.velocity_target,
            stiffness: d.stiffness,
            damping: d.damping,
        }
    }
}

impl From<&reference::scene::Limit> for LimitReport {
    /// A limit of the reference's scene, as an implementation that read it right reports it.
    fn from(l: &reference::scene::Limit) -> LimitReport {
        LimitReport {
            kind: l.kind,
            axes: l.axes.clone(),
            min: l.min,
            max: l.max,
            stiffness: l.stiffness,
            damping: l.damping,
        }
    }
}

/// A rigid pose.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Pose {
    /// Translation.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub translation: [f64; 3],
    /// Rotation.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Quat")]
    pub rotation: [f64; 4],
}

/// What the implementation ended up with after load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct Interpretation {
    /// Every rigid body.
    pub bodies: Vec<BodyReport>,
    /// Every collider and trigger.
    pub colliders: Vec<ColliderReport>,
    /// Every pair of colliders the implementation can tell about.
    pub pairs: Vec<PairReport>,
    /// Every joint.
    pub joints: Vec<JointReport>,
}

/// A node's world pose and velocity at the current time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NodeState {
    /// The node.
    pub node: usize,
    /// World translation, m.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub translation: [f64; 3],
    /// World rotation.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Quat")]
    pub rotation: [f64; 4],
    /// Linear velocity, m/s, world space.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub linear_velocity: [f64; 3],
    /// Angular velocity, rad/s, world space.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub angular_velocity: [f64; 3],
}

/// A trigger overlap event since the previous step call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct TriggerEvent {
    pub kind: TriggerEventKind,
    /// The trigger's node (a simple trigger, or the compound trigger's node).
    pub trigger: usize,
    /// The other collider's node.
    pub other: usize,
}

/// Observables after some steps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct State {
    /// Simulated time in seconds.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Number")]
    pub time: f64,
    /// Every body node and every static collider node.
    pub nodes: Vec<NodeState>,
    /// Collider node pairs `[a, b]` (a < b) with at least one active contact point.
    pub contacts: Vec<[usize; 2]>,
    /// Trigger events since the previous observation.
    pub trigger_events: Vec<TriggerEvent>,
}

/// Something the harness does to the world between steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// An impulse (N s) at the body's centre of mass.
    Impulse {
        /// The body's node.
        node: usize,
        /// The impulse, world space.
        #[serde(with = "finite")]
        #[schemars(with = "finite::Vec3")]
        impulse: [f64; 3],
    },
    /// A force (N) held until the next step call ends.
    Force {
        /// The body's node.
        node: usize,
        /// The force, world space.
        #[serde(with = "finite")]
        #[schemars(with = "finite::Vec3")]
        force: [f64; 3],
    },
    /// Move a kinematic body to a world pose at the end of the next step.
    KinematicPose {
        /// The body's node.
        node: usize,
        /// The target world translation.
        #[serde(with = "finite")]
        #[schemars(with = "finite::Vec3")]
        translation: [f64; 3],
        /// The target world rotation.
        #[serde(with = "finite")]
        #[schemars(with = "finite::Quat")]
        rotation: [f64; 4],
    },
}

/// Local TRS of one node, the output of constraint evaluation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct NodeTrs {
    /// The constrained node.
    pub node: usize,
    /// Local translation.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub translation: [f64; 3],
    /// Local rotation.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Quat")]
    pub rotation: [f64; 4],
    /// Local scale.
    #[serde(with = "finite")]
    #[schemars(with = "finite::Vec3")]
    pub scale: [f64; 3],
}

/// Why an implementation could not do what it was asked. On the wire only the first three
/// (the schema lists no other); the rest are the harness's.
#[derive(Clone, Debug, PartialEq, thiserror::Error, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "error", content = "message", rename_all = "snake_case")]
#[schemars(deny_unknown_fields)]
pub enum ImplError {
    /// The request is outside what the implementation supports.
    #[error("not supported: {0}")]
    NotSupported(String),
    /// The implementation failed in its own way (the `ERROR` status).
    #[error("implementation error: {0}")]
    Failed(String),
    /// A request arrived in the wrong state (e.g. step before load).
    #[error("bad request: {0}")]
    BadRequest(String),
    /// Harness-side, never sent by an implementation: no answer within the deadline (`TIMEOUT`).
    #[schemars(skip)]
    #[error("timeout: {0}")]
    Timeout(String),
    /// Harness-side: the implementation's process died (`CRASH`); the message has its exit
    /// status and the tail of its stderr.
    #[schemars(skip)]
    #[error("crashed: {0}")]
    Crashed(String),
    /// Harness-side: the implementation broke the protocol (`HARNESS_ERROR`).
    #[schemars(skip)]
    #[error("protocol violation: {0}")]
    Protocol(String),
    /// Harness-side: the implementation is no longer started (restart budget spent; `NOTRUN`).
    #[schemars(skip)]
    #[error("not run: {0}")]
    NotRun(String),
}

/// One request of a scenario's run after `configure`, in the order of
/// [`crate::runner::schedule`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Request<'a> {
    Apply(&'a Action),
    Step(u32),
    /// Observe; the argument is the number of steps taken so far.
    Observe(u32),
}

/// [`Implementation::simulate`] with one call per request: the default, and the fallback of an
/// implementation that cannot batch.
pub fn simulate_each<I: Implementation + ?Sized>(
    imp: &mut I,
    config: &SimConfig,
    requests: &[Request<'_>],
) -> Result<Vec<State>, ImplError> {
    imp.configure(config)?;
    let observing = requests
        .iter()
        .filter(|r| matches!(r, Request::Observe(_)))
        .count();
    let mut states = Vec::with_capacity(observing);
    for r in requests {
        match *r {
            Request::Apply(a) => imp.apply(a)?,
            Request::Step(n) => imp.step(n)?,
            Request::Observe(_) => states.push(imp.observe()?),
        }
    }
    Ok(states)
}

/// Builds a fresh implementation (at start, and after a crash or a timeout).
pub type Factory = std::sync::Arc<dyn Fn() -> Box<dyn Implementation + Send> + Send + Sync>;

/// One implementation under test. Every call may fail with [`ImplError`]; a panic is caught by
/// the runner and becomes `CRASH`.
pub trait Implementation {
    fn handshake(&mut self) -> Result<Handshake, ImplError>;
    /// Load a scene, replacing any loaded one.
    fn load(&mut self, request: &LoadRequest) -> Result<LoadOutcome, ImplError>;
    /// What the implementation made of the loaded scene.
    fn interpretation(&mut self) -> Result<Interpretation, ImplError>;
    fn configure(&mut self, config: &SimConfig) -> Result<(), ImplError>;
    /// Advance `steps` steps of `config.dt`.
    fn step(&mut self, steps: u32) -> Result<(), ImplError>;
    fn observe(&mut self) -> Result<State, ImplError>;
    fn apply(&mut self, action: &Action) -> Result<(), ImplError>;
    /// VRM: local TRS of every constrained node with the given local pose overrides (the
    /// `POSES.json` format of the reference) applied to the loaded scene.
    fn evaluate_constraints(
        &mut self,
        poses: &serde_json::Value,
    ) -> Result<Vec<NodeTrs>, ImplError>;
    fn unload(&mut self) -> Result<(), ImplError>;

    /// Run a scenario in one call: `configure`, then `requests` in order; the states of the
    /// `Observe` requests, in order. The first error ends it and is returned (the requests
    /// after it are not made). The default makes one call per request ([`simulate_each`]); an
    /// implementation behind a process overrides it to save the round trips.
    fn simulate(
        &mut self,
        config: &SimConfig,
        requests: &[Request<'_>],
    ) -> Result<Vec<State>, ImplError> {
        simulate_each(self, config, requests)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages show masses for people, not Rust debug text (`Finite(1.0000000149)`).
    #[test]
    fn masses_display_for_people() {
        use crate::check::interpretation::mass_text;
        use reference::scene::MassValue;
        assert_eq!(MassReport::Finite(f64::from(0.1f32)).to_string(), "0.1");
        assert_eq!(MassReport::Infinite.to_string(), "infinite");
        assert_eq!(MassReport::Unspecified.to_string(), "unspecified");
        assert_eq!(mass_text(MassValue::Finite(2.5)), "2.5");
        assert_eq!(mass_text(MassValue::EngineComputes), "engine-computed");
        assert_eq!(mass_text(MassValue::Infinite), "infinite");
    }

    /// A profile id of a later revision is skipped (the harness has none of its cases); a check
    /// family it does not know is still a violation.
    #[test]
    fn a_handshake_skips_profiles_this_harness_does_not_know() {
        let caps = |profiles: &str| {
            serde_json::from_str::<Capabilities>(&format!(
                r#"{{"profiles": {profiles}, "features": [], "checks": ["validation"]}}"#
            ))
        };
        let read = caps(r#"["khr-2099", "khr-2025", "omi-2024"]"#).expect("later ids skipped");
        assert_eq!(read.profiles, [Profile::Khr2025, Profile::Omi2024]);
        assert!(caps(r#"["khr-2025", 7]"#).is_err(), "an id is a string");
        let checks = r#"{"profiles": [], "features": [], "checks": ["physics"]}"#;
        assert!(serde_json::from_str::<Capabilities>(checks).is_err());
    }

    #[test]
    fn feature_prefixes() {
        let c = Capabilities {
            features: vec!["joint.limit.".into(), "shape.*".into(), "material".into()],
            ..Capabilities::default()
        };
        assert!(c.supports_feature("joint.limit.linear.1"));
        assert!(c.supports_feature("shape.box"));
        assert!(c.supports_feature("material"));
        assert!(!c.supports_feature("material.combine.average"));
        assert!(!c.supports_feature("joint.drive.force"));
    }

    /// Records every call; a `step` of 13 fails.
    #[derive(Default)]
    struct Recorder(Vec<String>);

    impl Implementation for Recorder {
        fn handshake(&mut self) -> Result<Handshake, ImplError> {
            Err(ImplError::NotSupported("not here".into()))
        }
        fn load(&mut self, _: &LoadRequest) -> Result<LoadOutcome, ImplError> {
            Ok(LoadOutcome::Loaded { notes: Vec::new() })
        }
        fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
            Ok(Interpretation::default())
        }
        fn configure(&mut self, config: &SimConfig) -> Result<(), ImplError> {
            self.0.push(format!("configure {}", config.dt));
            Ok(())
        }
        fn step(&mut self, steps: u32) -> Result<(), ImplError> {
            self.0.push(format!("step {steps}"));
            if steps == 13 {
                return Err(ImplError::Failed("unlucky".into()));
            }
            Ok(())
        }
        fn observe(&mut self) -> Result<State, ImplError> {
            self.0.push("observe".into());
            Ok(State {
                time: self.0.len() as f64,
                ..State::default()
            })
        }
        fn apply(&mut self, _: &Action) -> Result<(), ImplError> {
            self.0.push("apply".into());
            Ok(())
        }
        fn evaluate_constraints(
            &mut self,
            _: &serde_json::Value,
        ) -> Result<Vec<NodeTrs>, ImplError> {
            Ok(Vec::new())
        }
        fn unload(&mut self) -> Result<(), ImplError> {
            Ok(())
        }
    }

    /// The default `simulate`: configure, then each request in order, the observed states in
    /// order; the first error ends it.
    #[test]
    fn simulate_makes_each_call_in_order_and_stops_at_the_first_error() {
        let force = Action::Force {
            node: 1,
            force: [0.0, 1.0, 0.0],
        };
        let config = SimConfig {
            dt: 0.5,
            ..SimConfig::default()
        };
        let mut imp = Recorder::default();
        let requests = [
            Request::Observe(0),
            Request::Apply(&force),
            Request::Step(2),
            Request::Observe(2),
        ];
        let states = imp.simulate(&config, &requests).expect("runs");
        assert_eq!(
            imp.0,
            ["configure 0.5", "observe", "apply", "step 2", "observe"]
        );
        // Each state's time is the number of calls made when it was observed: 2, then 5.
        let times: Vec<f64> = states.iter().map(|s| s.time).collect();
        assert_eq!(times, [2.0, 5.0]);

        let mut imp = Recorder::default();
        let requests = [Request::Step(1), Request::Step(13), Request::Observe(14)];
        let e = imp.simulate(&config, &requests).expect_err("step 13 fails");
        assert_eq!(e, ImplError::Failed("unlucky".into()));
        assert_eq!(imp.0, ["configure 0.5", "step 1", "step 13"]);
    }

    #[test]
    fn messages_round_trip_as_json() {
        let outcome = LoadOutcome::Rejected {
            reason: "bad".into(),
            codes: vec!["NODE_CYCLE".into()],
        };
        let text = serde_json::to_string(&outcome).expect("serialises");
        assert_eq!(
            text,
            r#"{"outcome":"rejected","reason":"bad","codes":["NODE_CYCLE"]}"#
        );
        assert_eq!(
            serde_json::from_str::<LoadOutcome>(&text).expect("parses"),
            outcome
        );
        let err = ImplError::NotSupported("3 angular axes".into());
        let text = serde_json::to_string(&err).expect("serialises");
        assert_eq!(
            text,
            r#"{"error":"not_supported","message":"3 angular axes"}"#
        );
    }
}
