//! The bundled implementations, in process: Rapier (a glTF-physics importer for rapier3d) and
//! the reference evaluator served as an implementation of the kinematic checks. Both speak the
//! [`Implementation`](crate::implementation::Implementation) interface and compute no verdicts.

pub mod rapier;
pub mod reference;
pub(crate) mod scale;
pub mod stdio;

use ::reference::issue::Severity;
use ::reference::profile::Profile;
use ::reference::scene::Scene;

use crate::implementation::{ImplError, LoadOutcome, LoadRequest};
use crate::mutant::Mutant;

/// Read the requested file with the reference reader (the parser every bundled adapter uses).
///
/// `Ok(Err(outcome))`: the file is invalid (errors in the catalogue) and is rejected with its
/// error codes; `Err`: the request itself is unusable (an unreadable file).
/// With the seeded bug [`Mutant::DefaultSceneIgnored`], a `.gltf` is read as if its default
/// scene were scene 0.
pub(crate) fn read_scene(
    request: &LoadRequest,
    mutant: Option<Mutant>,
) -> Result<Result<Scene, LoadOutcome>, ImplError> {
    let profile = request.profile;
    let vrm = matches!(
        profile,
        Profile::VrmcConstraintsDraft | Profile::VrmcNodeConstraint10
    );
    let misread = match mutant {
        Some(Mutant::DefaultSceneIgnored) => scene_zero(&request.path),
        Some(Mutant::VrmDefaultSceneIgnored) if vrm => scene_zero(&request.path),
        Some(Mutant::GeometryNodeTransformsIgnored) => geometry_parts_unplaced(&request.path),
        _ => None,
    };
    let mut reading = match misread {
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
    if mutant == Some(Mutant::OmiZeroInertiaAsInfinite)
        && !profile.is_khr()
        && let Some(scene) = reading.scene.as_mut()
    {
        zero_inertia_infinite(&request.path, scene);
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

/// The `.gltf` document at `path` with every node below a KHR collider's or trigger's
/// geometry node stripped of its transform (the [`Mutant::GeometryNodeTransformsIgnored`]
/// misreading: each part's mesh placed at the geometry node's origin); `None` for a file that
/// does not read as JSON or has no node geometry.
fn geometry_parts_unplaced(path: &std::path::Path) -> Option<serde_json::Value> {
    let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let nodes = json.get("nodes")?.as_array()?;
    let geometry_node = |n: &serde_json::Value, member: &str| {
        n.pointer(&format!(
            "/extensions/KHR_physics_rigid_bodies/{member}/geometry/node"
        ))
        .and_then(serde_json::Value::as_u64)
    };
    let mut stack: Vec<u64> = nodes
        .iter()
        .flat_map(|n| [geometry_node(n, "collider"), geometry_node(n, "trigger")])
        .flatten()
        .collect();
    if stack.is_empty() {
        return None;
    }
    let mut below = std::collections::BTreeSet::new();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(i) = stack.pop() {
        if !seen.insert(i) {
            continue;
        }
        let children = nodes
            .get(usize::try_from(i).ok()?)
            .and_then(|n| n.get("children"))
            .and_then(serde_json::Value::as_array)
            .map(|c| c.iter().filter_map(serde_json::Value::as_u64).collect())
            .unwrap_or_else(Vec::new);
        for c in children {
            below.insert(c);
            stack.push(c);
        }
    }
    let nodes = json.get_mut("nodes")?.as_array_mut()?;
    for i in below {
        if let Some(n) = nodes
            .get_mut(usize::try_from(i).ok()?)
            .and_then(serde_json::Value::as_object_mut)
        {
            for key in ["translation", "rotation", "scale", "matrix"] {
                n.remove(key);
            }
        }
    }
    Some(json)
}

/// The [`Mutant::OmiZeroInertiaAsInfinite`] misreading: each body whose node's OMI motion
/// writes an `inertiaDiagonal` with a zero gets that diagonal as principal moments, its zeros
/// infinite (as KHR reads them), instead of an inertia the engine computes.
fn zero_inertia_infinite(path: &std::path::Path, scene: &mut Scene) {
    use ::reference::scene::{Inertia, MassValue};
    let Some(json) = std::fs::read(path)
        .ok()
        .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
    else {
        return;
    };
    for body in &mut scene.bodies {
        let diagonal = json
            .pointer(&format!(
                "/nodes/{}/extensions/OMI_physics_body/motion/inertiaDiagonal",
                body.node
            ))
            .and_then(serde_json::Value::as_array)
            .map(|d| {
                d.iter()
                    .filter_map(serde_json::Value::as_f64)
                    .collect::<Vec<_>>()
            });
        let Some(d) = diagonal.filter(|d| d.len() == 3 && d.contains(&0.0)) else {
            continue;
        };
        body.inertia = Inertia::Principal {
            diagonal: [d[0], d[1], d[2]].map(|v| {
                if v == 0.0 {
                    MassValue::Infinite
                } else {
                    MassValue::Finite(v)
                }
            }),
            orientation: nalgebra::UnitQuaternion::identity(),
        };
    }
}
