//! Which OMI revision a document is written in [D-OMI-REVISION].
//!
//! The restructured extensions share their keys with `omi-2023`, so the structure decides: a
//! node-level `OMI_physics_body` with `motion`, `collider` or `trigger`, a document-level
//! `physicsJoints`, a joint node with `connectedNode`, or a capsule/cylinder with `radiusTop` or
//! `radiusBottom` selects the restructured family. Within it, `radius` on a capsule or cylinder
//! selects `omi-2024`, `radiusTop`/`radiusBottom` `omi-2025` (both: `omi-2025`, the current
//! text, and the shape reader reports the other keys). Nothing decides: `omi-2025`, and every
//! capsule whose size the two readings disagree on (one with an explicit `height`) gets
//! `OMI_CAPSULE_AMBIGUOUS` naming both sizes. A capsule without `height` has the same size under
//! both (full height 2, cap-centre distance 1, radius 0.5), so it gets no warning.

use crate::document::Document;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::profile::Profile;
use crate::scene::Shape;
use serde_json::Value;

use super::Convention;
use crate::omi::{BODY, JOINT, SHAPE};

/// The revision a document is read under, and whether its keys decided it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection {
    pub profile: Profile,
    /// `false`: nothing in the document dates it; read as `omi-2025`.
    pub decided: bool,
}

/// The restructured OMI revision of `doc`, or `None` when it has none of the restructured
/// structure (it is then `omi-2023`).
pub fn detect(doc: &Document) -> Option<Detection> {
    let mut radius = false;
    let mut top_bottom = false;
    for (_, _, params) in round_shapes(doc) {
        radius |= params.get("radius").is_some();
        top_bottom |= params.get("radiusTop").is_some() || params.get("radiusBottom").is_some();
    }
    if !(top_bottom || restructured(doc)) {
        return None;
    }
    Some(match (radius, top_bottom) {
        (_, true) => Detection {
            profile: Profile::Omi2025,
            decided: true,
        },
        (true, false) => Detection {
            profile: Profile::Omi2024,
            decided: true,
        },
        (false, false) => Detection {
            profile: Profile::Omi2025,
            decided: false,
        },
    })
}

/// Whether `doc` has any structure only the restructured extensions define.
fn restructured(doc: &Document) -> bool {
    let extensions = doc.node_extensions();
    let has = |v: &Value, keys: &[&str]| keys.iter().any(|k| v.get(k).is_some());
    let nodes = (0..doc.node_count()).any(|n| {
        extensions
            .get(n, BODY)
            .is_some_and(|(v, _)| has(v, &["motion", "collider", "trigger"]))
            || extensions.get(n, JOINT).is_some_and(|(v, _)| {
                // A legacy joint node (`nodeA`/`nodeB`) with a stray `connectedNode` stays legacy.
                has(v, &["connectedNode"]) && !has(v, &["nodeA", "nodeB"])
            })
    });
    nodes
        || doc
            .root_extension(JOINT)
            .is_some_and(|(v, _)| has(v, &["physicsJoints"]))
}

/// Every capsule and cylinder parameter object of `OMI_physics_shape.shapes`, with its pointer
/// and kind.
fn round_shapes<'a>(doc: &'a Document) -> Vec<(String, &'static str, &'a Value)> {
    let Some((root, pointer)) = doc.root_extension(SHAPE) else {
        return Vec::new();
    };
    let Some(shapes) = root.get("shapes").and_then(Value::as_array) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, shape) in shapes.iter().enumerate() {
        for kind in ["capsule", "cylinder"] {
            if shape.get("type").and_then(Value::as_str) == Some(kind)
                && let Some(params) = shape.get(kind).filter(|p| p.is_object())
            {
                let at = push_pointer(&push_pointer(&push_pointer(&pointer, "shapes"), i), kind);
                out.push((at, kind, params));
            }
        }
    }
    out
}

/// The size of a canonical capsule in words.
fn describe(shape: &Shape) -> String {
    match shape {
        Shape::Capsule {
            height,
            radius_bottom,
            radius_top,
        } => format!(
            "cap-centre distance {height}, full height {}, radius {radius_bottom}",
            height + radius_bottom + radius_top
        ),
        other => format!("{other:?}"),
    }
}

/// `OMI_CAPSULE_AMBIGUOUS` on every capsule with a numeric `height` (and no radius key, else
/// the document would have been dated) of a document read as `omi-2025` because nothing
/// decided.
pub fn warn_ambiguous(doc: &Document, issues: &mut Issues) {
    for (at, kind, params) in round_shapes(doc) {
        let Some(height) = params.get("height").and_then(Value::as_f64) else {
            continue;
        };
        if kind != "capsule" {
            continue;
        }
        let as_2025 = Convention::TopBottom.capsule(Some(height), None, None, None);
        let as_2024 = Convention::Radius.capsule(Some(height), None, None, None);
        if as_2025 == as_2024 {
            continue;
        }
        issues.push(
            Issue::new(Code::OmiCapsuleAmbiguous, push_pointer(&at, "height"))
                .arg("reading_2025", describe(&as_2025))
                .arg("reading_2024", describe(&as_2024)),
        );
    }
}
