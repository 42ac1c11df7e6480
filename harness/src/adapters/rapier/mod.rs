//! A glTF-physics importer for rapier3d, served in process as an [`Implementation`].
//!
//! It reads the file with the reference reader (the parser) and maps the canonical scene to
//! Rapier as faithfully as Rapier allows; where Rapier cannot express a feature, loading fails
//! with [`ImplError::NotSupported`] and the capabilities leave the feature out, rather than
//! approximating silently. The two approximations (a cylinder or a capsule with two different
//! radii, as convex hulls) are said in the load notes. Module by module:
//! - [`world`]: the scene -> world mapping and handle bookkeeping;
//! - [`bodies`], [`shapes`], [`joints`]: each kind of object, and its read-back;
//! - [`hooks`]: filters [D-FILTER] and material combining [D-COMBINE] per contact pair;
//! - [`simulate`], [`observe`]: stepping, actions, and what is reported.

mod bodies;
mod convert;
mod hooks;
mod joints;
mod observe;
mod shapes;
mod simulate;
mod world;

use crate::implementation::{
    Action, Capabilities, CheckFamily, Handshake, ImplError, Implementation, Interpretation,
    LoadOutcome, LoadRequest, NodeTrs, PROTOCOL_VERSION, Profile, SimConfig, State,
};
use crate::mutant::Mutant;

/// The engine this adapter drives (the workspace pins rapier3d 0.36, f32, 3D).
pub const ENGINE: &str = "rapier3d 0.36 (f32)";

/// Feature tags (prefixes end with `.`) Rapier supports, in the generator's vocabulary.
///
/// Left out on purpose: tapered capsules and cylinders (`shape.capsule.tapered`,
/// `shape.cylinder.tapered`: parry3d has neither; the adapter still loads one, as a hull, when a
/// case does not say it has one), `joint.limit.angular.3` (Rapier couples at most 2 angular axes),
/// everything `vrm.` (Rapier has no VRM constraints), and khr-2025's bounded and double-sided
/// planes (`shape.plane.bounded`, `shape.plane.double-sided`: Rapier's half-space is unbounded
/// and single-sided). Some scenes under a declared tag are
/// still refused at load when Rapier cannot express the exact values (a non-uniformly scaled
/// sphere, a coupled linear minimum, joints mixing softness): see
/// [`shapes`] and [`joints`].
pub const FEATURES: &[&str] = &[
    "body.",
    "buffer.",
    "collider.",
    "filter.",
    "geometry.",
    "joint.between-bodies",
    "joint.drive.",
    "joint.enable-collision",
    "joint.kind.",
    "joint.limit.angular.1",
    "joint.limit.angular.2",
    "joint.limit.damping",
    "joint.limit.fixed",
    "joint.limit.linear.",
    "joint.limit.open-max",
    "joint.limit.open-min",
    "joint.limit.range",
    "joint.limit.soft",
    "joint.limit.unbounded",
    "joint.no-limits",
    "joint.shared-description",
    "joint.to-world",
    "material.",
    "node.",
    "omi.",
    "scene.",
    "shape.box.",
    "shape.capsule.defaults",
    "shape.capsule.explicit",
    "shape.convex",
    "shape.cylinder.defaults",
    "shape.cylinder.explicit",
    // An unused cylinder that only dates an omi-2024 document (its `radius` spelling).
    "shape.dating-cylinder",
    "shape.is-trigger.",
    "shape.mesh.",
    "shape.plane.single-sided",
    "shape.plane.unbounded",
    "shape.sphere.",
    "shape.trimesh",
    "trigger.",
];

/// The capabilities of the Rapier adapter.
pub fn capabilities() -> Capabilities {
    Capabilities {
        profiles: vec![
            Profile::Khr2024Draft,
            Profile::Khr2025,
            Profile::Khr2026,
            Profile::Omi2023,
            Profile::Omi2024,
            Profile::Omi2025,
        ],
        features: FEATURES.iter().map(|f| (*f).to_owned()).collect(),
        checks: vec![CheckFamily::Interpretation, CheckFamily::Dynamics],
        batch: false,
    }
}

/// Rapier, in process.
#[derive(Default)]
pub struct RapierImplementation {
    loaded: Option<world::LoadedWorld>,
    config: SimConfig,
    /// A seeded importer bug ([`crate::mutants`]); `None` unless `physics-cts mutants` asks.
    mutant: Option<Mutant>,
}

impl std::fmt::Debug for RapierImplementation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RapierImplementation")
            .field("loaded", &self.loaded.is_some())
            .field("config", &self.config)
            .field("mutant", &self.mutant)
            .finish()
    }
}

impl RapierImplementation {
    pub fn new() -> Self {
        Self::default()
    }

    /// Rapier with a seeded importer bug (`None`: as [`RapierImplementation::new`]).
    pub fn with_mutant(mutant: Option<Mutant>) -> Self {
        RapierImplementation {
            mutant,
            ..Self::default()
        }
    }

    fn loaded(&mut self) -> Result<&mut world::LoadedWorld, ImplError> {
        self.loaded
            .as_mut()
            .ok_or_else(|| ImplError::BadRequest("no scene is loaded".into()))
    }
}

impl Implementation for RapierImplementation {
    fn handshake(&mut self) -> Result<Handshake, ImplError> {
        Ok(Handshake {
            name: "rapier".into(),
            version: env!("CARGO_PKG_VERSION").into(),
            engine: ENGINE.into(),
            protocol_version: PROTOCOL_VERSION,
            capabilities: capabilities(),
        })
    }

    fn load(&mut self, request: &LoadRequest) -> Result<LoadOutcome, ImplError> {
        self.loaded = None;
        let scene = match super::read_scene(request, self.mutant)? {
            Ok(scene) => scene,
            Err(rejected) => return Ok(rejected),
        };
        let (loaded, notes) = world::build(&scene, self.config, self.mutant)?;
        self.loaded = Some(loaded);
        Ok(LoadOutcome::Loaded { notes })
    }

    fn interpretation(&mut self) -> Result<Interpretation, ImplError> {
        Ok(self.loaded()?.interpretation())
    }

    fn configure(&mut self, config: &SimConfig) -> Result<(), ImplError> {
        world::check_config(config)?;
        if let Some(loaded) = self.loaded.as_mut() {
            loaded.configure(*config)?;
        }
        self.config = *config;
        Ok(())
    }

    fn step(&mut self, steps: u32) -> Result<(), ImplError> {
        self.loaded()?.step(steps)
    }

    fn observe(&mut self) -> Result<State, ImplError> {
        Ok(self.loaded()?.state())
    }

    fn apply(&mut self, action: &Action) -> Result<(), ImplError> {
        self.loaded()?.apply(action)
    }

    fn evaluate_constraints(
        &mut self,
        _poses: &serde_json::Value,
    ) -> Result<Vec<NodeTrs>, ImplError> {
        Err(ImplError::NotSupported(
            "Rapier has no VRM node constraints".into(),
        ))
    }

    fn unload(&mut self) -> Result<(), ImplError> {
        self.loaded = None;
        Ok(())
    }
}
