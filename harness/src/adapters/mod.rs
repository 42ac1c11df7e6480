//! The bundled implementations, in process: Rapier (a glTF-physics importer for rapier3d) and
//! the reference evaluator served as an implementation of the kinematic checks. Both speak the
//! [`Implementation`](crate::implementation::Implementation) interface and compute no verdicts.

pub mod rapier;
pub mod reference;
pub(crate) mod scale;
pub mod stdio;

use std::str::FromStr;

use ::reference::issue::Severity;
use ::reference::profile::Profile;
use ::reference::scene::Scene;

use crate::implementation::{ImplError, LoadOutcome, LoadRequest};
use crate::mutants::Mutant;

/// Read the requested file with the reference reader (the parser every bundled adapter uses).
///
/// `Ok(Err(outcome))`: the file is invalid (errors in the catalogue) and is rejected with its
/// error codes; `Err`: the request itself is unusable (unknown profile, unreadable file).
/// With the seeded bug [`Mutant::DefaultSceneIgnored`], a `.gltf` is read as if its default
/// scene were scene 0.
pub(crate) fn read_scene(
    request: &LoadRequest,
    mutant: Option<Mutant>,
) -> Result<Result<Scene, LoadOutcome>, ImplError> {
    let profile =
        Profile::from_str(&request.profile).map_err(|e| ImplError::BadRequest(e.to_string()))?;
    let vrm = matches!(
        profile,
        Profile::VrmcConstraintsDraft | Profile::VrmcNodeConstraint10
    );
    let misread = (mutant == Some(Mutant::DefaultSceneIgnored)
        || (vrm && mutant == Some(Mutant::VrmDefaultSceneIgnored)))
    .then(|| scene_zero(&request.path))
    .flatten();
    let reading = match misread {
        Some(json) => ::reference::read_tree(&json, request.path.parent(), Some(profile)),
        None => ::reference::read_path(&request.path, Some(profile))
            .map_err(|e| ImplError::BadRequest(e.to_string()))?,
    };
    let errors: Vec<_> = reading
        .issues
        .iter()
        .filter(|i| i.severity == Severity::Error)
        .collect();
    if !errors.is_empty() {
        let mut codes: Vec<String> = errors.iter().map(|i| i.code.id().to_owned()).collect();
        codes.sort();
        codes.dedup();
        let first = errors
            .first()
            .map(|i| format!("{} at {:?}", i.code.id(), i.pointer))
            .unwrap_or_default();
        return Ok(Err(LoadOutcome::Rejected {
            reason: format!("{} validation error(s), first: {first}", errors.len()),
            codes,
        }));
    }
    match reading.scene {
        Some(scene) => Ok(Ok(scene)),
        None => Ok(Err(LoadOutcome::Rejected {
            reason: "no physics profile applies to this file".into(),
            codes: Vec::new(),
        })),
    }
}

/// The `.gltf` document at `path` with its default scene set to scene 0; `None` for a file
/// that does not read as JSON (a `.glb`, a broken file: read as it is).
fn scene_zero(path: &std::path::Path) -> Option<serde_json::Value> {
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    json.as_object_mut()?.insert("scene".into(), 0.into());
    Some(json)
}
