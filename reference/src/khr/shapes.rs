//! `KHR_collision_shapes.shapes[]` -> canonical [`Shape`]s with the schema defaults resolved
//! (KHR_collision_shapes 2023-08-26 schemas, the seed's companion).
//!
//! - `type` is an open enum: an unknown type is `ENUM_UNKNOWN` (a warning) and the shape is left
//!   out; its own parameter object (the property named like the type) is not reported as
//!   unexpected, since a later revision defines it.
//! - A known type must come with exactly its own parameter object (the schema's `oneOf`); the
//!   trimesh branch of that `oneOf` names a property `mesh` but requires `trimesh`, and the
//!   samples write `"trimesh": {"mesh": N}`, which is what is read.
//! - Defaults: sphere radius 0.5; box size [1, 1, 1]; capsule height 0.5 (between the cap
//!   centres) and radii 0.25; cylinder height 0.5 and radii 0.25 [D-CAPSULE].
//! - Negative sizes are `VALUE_OUT_OF_RANGE`; a shape without volume is `SHAPE_DEGENERATE`
//!   (information): a zero sphere radius, a zero box extent, a capsule whose radii are both 0, a
//!   cylinder of height 0 or whose radii are both 0. A cone (one radius 0) has volume.
//!
//! `khr-2025` (`KHR_implicit_shapes.shapes[]`, schemas 2025-10-22): the types are plane, sphere,
//! box, capsule and cylinder (no mesh types: meshes come through a collider's `geometry.node`).
//! A plane has `sizeX`, `sizeZ` (absent: unbounded along that axis) and `doubleSided` (default
//! false). Degenerate shapes are prohibited: a zero radius, box extent, height or plane size, and
//! a capsule or cylinder whose radii are both 0, are `KHR_SHAPE_DEGENERATE` (an error, at the
//! property, or at the parameter object for the radii) and leave the shape out.

use std::collections::btree_map::Entry;

use nalgebra::Vector3;
use serde::Deserialize;
use serde_json::{Map, Value};

use crate::document::Document;
use crate::ext::{check_index, check_properties, parse};
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{Scene, Shape};

use super::{MESHES_ARRAY, Revision, SPELLING, Table, clean_since, enum_unknown, non_negative};

/// The most shape types a revision has.
const MAX_TYPES: usize = 6;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PlaneParams {
    size_x: Option<f64>,
    size_z: Option<f64>,
    double_sided: Option<bool>,
}

#[derive(Deserialize)]
struct Header {
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Sphere {
    radius: Option<f64>,
}

#[derive(Deserialize)]
struct BoxParams {
    size: Option<[f64; 3]>,
}

/// Capsule and cylinder parameters (same names, same defaults).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Round {
    height: Option<f64>,
    radius_top: Option<f64>,
    radius_bottom: Option<f64>,
}

/// Convex and trimesh parameters.
#[derive(Deserialize)]
struct MeshParams {
    mesh: Option<usize>,
}

/// Read every shape into `scene.shapes`; the table maps file indices to canonical ids.
pub(super) fn read(
    doc: &Document,
    revision: Revision,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Table {
    let Some((value, pointer)) = doc.root_extension(revision.shape_extension) else {
        return Table::empty();
    };
    let Some(root) = SPELLING.object(value, &pointer, issues) else {
        return Table::unknown();
    };
    check_properties(value, &pointer, &["shapes"], issues);
    if !root.contains_key("shapes") {
        issues.push(Issue::new(Code::ExtRequired, &pointer).arg("property", "shapes"));
        return Table::empty();
    }
    let Some((list, at)) = SPELLING.array(root, &pointer, "shapes", issues) else {
        return Table::unknown();
    };
    let mut ids = Vec::with_capacity(list.len());
    for (index, shape) in list.iter().enumerate() {
        let shape_pointer = push_pointer(&at, index);
        let id = read_shape(doc, revision, shape, &shape_pointer, scene, issues).map(|s| {
            scene.shapes.push(s);
            scene.shapes.len() - 1
        });
        ids.push(id);
    }
    Table::new(ids)
}

/// One shape, or `None` when it is left out (an issue says why).
fn read_shape(
    doc: &Document,
    revision: Revision,
    value: &Value,
    pointer: &str,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<Shape> {
    let types = revision.shape_types;
    let object = SPELLING.object(value, pointer, issues)?;
    let header: Option<Header> = parse(value, pointer, issues);
    let kind = header.and_then(|h| h.kind);
    // "type", the types, and an unknown type (a later revision's parameter object).
    let mut known = [""; MAX_TYPES + 2];
    known[0] = "type";
    known[1..=types.len()].copy_from_slice(types);
    let mut count = 1 + types.len();
    if let Some(k) = kind.as_deref().filter(|k| !types.contains(k)) {
        known[count] = k;
        count += 1;
    }
    check_properties(value, pointer, &known[..count], issues);
    let Some(kind) = kind else {
        if object.get("type").is_none() {
            issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", "type"));
        }
        return None;
    };
    if !types.contains(&kind.as_str()) {
        issues.push(enum_unknown(&push_pointer(pointer, "type"), &kind, types));
        return None;
    }
    let mark = issues.0.len();
    check_parameters(object, types, &kind, pointer, issues);
    let params = object.get(kind.as_str())?;
    let params_pointer = push_pointer(pointer, &kind);
    let shape = read_parameters(doc, &kind, params, &params_pointer, scene, issues)?;
    if !clean_since(issues, mark) {
        return None;
    }
    if !revision.degenerate_prohibited {
        if let Some(detail) = degenerate(&shape) {
            issues.push(Issue::new(Code::ShapeDegenerate, &params_pointer).arg("detail", detail));
        }
    } else if let Some((token, detail)) = prohibited(&shape) {
        let at = match token {
            None => params_pointer.clone(),
            Some((key, None)) => push_pointer(&params_pointer, key),
            Some((key, Some(i))) => push_pointer(&push_pointer(&params_pointer, key), i),
        };
        issues.push(Issue::new(Code::KhrShapeDegenerate, at).arg("detail", detail));
        return None;
    }
    Some(shape)
}

/// `SHAPE_PARAMETERS_MISMATCH` unless the object holds exactly the parameter object its type
/// names.
fn check_parameters(
    object: &Map<String, Value>,
    types: &[&str],
    kind: &str,
    pointer: &str,
    issues: &mut Issues,
) {
    let present: Vec<&str> = types
        .iter()
        .copied()
        .filter(|t| object.contains_key(*t))
        .collect();
    if present == [kind] {
        return;
    }
    let detail = if present.is_empty() {
        format!("no parameter object (expected {kind:?})")
    } else if !present.contains(&kind) {
        format!("found {} instead of {kind:?}", quoted(&present))
    } else {
        format!("several parameter objects: {}", quoted(&present))
    };
    issues.push(
        Issue::new(Code::ShapeParametersMismatch, pointer)
            .arg("type", format!("{kind:?}"))
            .arg("detail", detail),
    );
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The parameter object of a known type, defaults resolved; `None` on any error.
fn read_parameters(
    doc: &Document,
    kind: &str,
    value: &Value,
    pointer: &str,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Option<Shape> {
    SPELLING.object(value, pointer, issues)?;
    let at = |key: &str| push_pointer(pointer, key);
    match kind {
        "sphere" => {
            check_properties(value, pointer, &["radius"], issues);
            let p: Sphere = parse(value, pointer, issues)?;
            let radius = p.radius.unwrap_or(0.5);
            non_negative(radius, pointer, "radius", issues).then_some(Shape::Sphere { radius })
        }
        "box" => {
            check_properties(value, pointer, &["size"], issues);
            let p: BoxParams = parse(value, pointer, issues)?;
            let size = p.size.unwrap_or([1.0; 3]);
            let mut ok = true;
            if size.iter().any(|&s| s < 0.0) {
                let size_pointer = at("size");
                for (i, s) in size.iter().enumerate() {
                    ok &= non_negative(*s, &size_pointer, i, issues);
                }
            }
            ok.then(|| Shape::Box {
                size: Vector3::from(size),
            })
        }
        "plane" => {
            check_properties(value, pointer, &["sizeX", "sizeZ", "doubleSided"], issues);
            let p: PlaneParams = parse(value, pointer, issues)?;
            let ok = [("sizeX", p.size_x), ("sizeZ", p.size_z)]
                .iter()
                .all(|&(key, v)| v.is_none_or(|v| non_negative(v, pointer, key, issues)));
            ok.then_some(Shape::Plane {
                double_sided: p.double_sided.unwrap_or(false),
                size_x: p.size_x,
                size_z: p.size_z,
            })
        }
        "capsule" | "cylinder" => {
            check_properties(
                value,
                pointer,
                &["height", "radiusTop", "radiusBottom"],
                issues,
            );
            let p: Round = parse(value, pointer, issues)?;
            let height = p.height.unwrap_or(0.5);
            let radius_top = p.radius_top.unwrap_or(0.25);
            let radius_bottom = p.radius_bottom.unwrap_or(0.25);
            let ok = [
                non_negative(height, pointer, "height", issues),
                non_negative(radius_top, pointer, "radiusTop", issues),
                non_negative(radius_bottom, pointer, "radiusBottom", issues),
            ]
            .iter()
            .all(|&v| v);
            if !ok {
                return None;
            }
            Some(if kind == "capsule" {
                Shape::Capsule {
                    height,
                    radius_top,
                    radius_bottom,
                }
            } else {
                Shape::Cylinder {
                    height,
                    radius_top,
                    radius_bottom,
                }
            })
        }
        _ => {
            // convex, trimesh
            check_properties(value, pointer, &["mesh"], issues);
            let p: MeshParams = parse(value, pointer, issues)?;
            let Some(mesh) = p.mesh else {
                issues.push(Issue::new(Code::ExtRequired, pointer).arg("property", "mesh"));
                return None;
            };
            let mesh_pointer = at("mesh");
            check_index(
                mesh,
                doc.root.meshes.len(),
                MESHES_ARRAY,
                &mesh_pointer,
                issues,
            )?;
            // Mesh content problems are the document's to report; the shape stays, and a
            // consumer finds the triangles in `scene.meshes` when they could be read.
            if let Entry::Vacant(slot) = scene.meshes.entry(mesh)
                && let Some(triangles) = doc.mesh_triangles(mesh, &mesh_pointer, issues)
            {
                slot.insert(triangles);
            }
            Some(if kind == "convex" {
                Shape::Convex { mesh }
            } else {
                Shape::Trimesh { mesh }
            })
        }
    }
}

/// Where below a shape's parameter object a defect is: a property and, for an array, an index
/// (`None`: the object itself).
type Place = Option<(&'static str, Option<usize>)>;

/// Why a shape is degenerate under KHR_implicit_shapes, and the property that makes it so.
fn prohibited(shape: &Shape) -> Option<(Place, &'static str)> {
    let key = |k: &'static str| Some((k, None));
    match shape {
        Shape::Sphere { radius } if *radius == 0.0 => Some((key("radius"), "radius is 0")),
        Shape::Box { size } => size
            .iter()
            .position(|s| *s == 0.0)
            .map(|i| (Some(("size", Some(i))), "size has a zero extent")),
        Shape::Capsule { height, .. } | Shape::Cylinder { height, .. } if *height == 0.0 => {
            Some((key("height"), "height is 0"))
        }
        Shape::Capsule {
            radius_top,
            radius_bottom,
            ..
        }
        | Shape::Cylinder {
            radius_top,
            radius_bottom,
            ..
        } if *radius_top == 0.0 && *radius_bottom == 0.0 => Some((None, "both radii are 0")),
        Shape::Plane { size_x, .. } if *size_x == Some(0.0) => Some((key("sizeX"), "sizeX is 0")),
        Shape::Plane { size_z, .. } if *size_z == Some(0.0) => Some((key("sizeZ"), "sizeZ is 0")),
        _ => None,
    }
}

/// Why a valid shape encloses no volume, if it does not.
fn degenerate(shape: &Shape) -> Option<&'static str> {
    match shape {
        Shape::Sphere { radius } if *radius == 0.0 => Some("radius is 0"),
        Shape::Box { size } if size.iter().any(|s| *s == 0.0) => Some("size has a zero extent"),
        Shape::Capsule {
            radius_top,
            radius_bottom,
            ..
        } if *radius_top == 0.0 && *radius_bottom == 0.0 => Some("both radii are 0"),
        Shape::Cylinder { height, .. } if *height == 0.0 => Some("height is 0"),
        Shape::Cylinder {
            radius_top,
            radius_bottom,
            ..
        } if *radius_top == 0.0 && *radius_bottom == 0.0 => Some("both radii are 0"),
        _ => None,
    }
}
