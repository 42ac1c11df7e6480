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

/// Read the requested file with the reference reader (the parser every bundled adapter uses).
///
/// `Ok(Err(outcome))`: the file is invalid (errors in the catalogue) and is rejected with its
/// error codes; `Err`: the request itself is unusable (unknown profile, unreadable file).
pub(crate) fn read_scene(request: &LoadRequest) -> Result<Result<Scene, LoadOutcome>, ImplError> {
    let profile =
        Profile::from_str(&request.profile).map_err(|e| ImplError::BadRequest(e.to_string()))?;
    let reading = ::reference::read_path(&request.path, Some(profile))
        .map_err(|e| ImplError::BadRequest(e.to_string()))?;
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
