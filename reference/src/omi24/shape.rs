//! Document-level `OMI_physics_shape.shapes` of omi-2024 and omi-2025 into `scene.shapes`
//! [D-OMI-CAPSULE-REVISION].
//!
//! Defaults: box size `[1, 1, 1]`, radii 0.5, cylinder height 2 (both revisions), capsule
//! height 2 (omi-2024: the full height, read as the cap-centre distance `h - 2 r`) or 1
//! (omi-2025: the cap-centre distance itself). A shape without its parameter object takes
//! every default (the texts: "if a key for the type is missing ... use the default value"; the
//! `default_box` example has none), except mesh shapes, whose default mesh `-1` "means invalid".

use std::collections::BTreeSet;

use nalgebra::Vector3;
use serde::Deserialize;

use crate::document::Document;
use crate::ext;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{MeshId, Scene, Shape};
use serde_json::Value;

use super::{Convention, SPELLING, Table, clean_since};
use crate::omi::shape::{
    Flavor, Kind, SUB_OBJECTS, ShapeJson, capsule, capsule_too_short, parameter_objects,
    resolve_mesh,
};
use crate::omi::{self, SHAPE};
use crate::rigid::array_length;

/// The default radius of spheres, capsules and cylinders.
pub const DEFAULT_RADIUS: f64 = 0.5;
/// The default box size.
pub const DEFAULT_SIZE: [f64; 3] = [1.0, 1.0, 1.0];
/// The default cylinder height (the full height, both revisions).
pub const DEFAULT_CYLINDER_HEIGHT: f64 = 2.0;

impl Convention {
    /// The default capsule `height` as written in this revision (omi-2024: full height 2;
    /// omi-2025: cap-centre distance 1).
    pub fn default_capsule_height(self) -> f64 {
        match self {
            Convention::Radius => 2.0,
            Convention::TopBottom => 1.0,
        }
    }

    /// The capsule or cylinder radius keys of this revision.
    pub fn radius_keys(self) -> &'static [&'static str] {
        match self {
            Convention::Radius => &["radius"],
            Convention::TopBottom => &["radiusBottom", "radiusTop"],
        }
    }

    /// The canonical capsule of written values (`None`: the default) under this revision,
    /// unchecked: `height` and `radius` are the omi-2024 keys, `bottom`/`top` the omi-2025 ones.
    pub fn capsule(
        self,
        height: Option<f64>,
        radius: Option<f64>,
        bottom: Option<f64>,
        top: Option<f64>,
    ) -> Shape {
        let height = height.unwrap_or(self.default_capsule_height());
        match self {
            Convention::Radius => capsule(height, radius.unwrap_or(DEFAULT_RADIUS)),
            Convention::TopBottom => Shape::Capsule {
                height,
                radius_bottom: bottom.unwrap_or(DEFAULT_RADIUS),
                radius_top: top.unwrap_or(DEFAULT_RADIUS),
            },
        }
    }
}

/// Parameters as written (absent: the default). Not omi-2023's: the radius keys differ by
/// revision, and a `size` of another length is a type error here (the 2023 reader keeps the
/// default size).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct Omi24Params {
    size: Option<[f64; 3]>,
    pub(super) radius: Option<f64>,
    pub(super) radius_bottom: Option<f64>,
    pub(super) radius_top: Option<f64>,
    pub(super) height: Option<f64>,
    mesh: Option<i64>,
}

/// Read every shape; the table maps file indices to `scene.shapes`.
pub(super) fn read(
    doc: &Document,
    scene: &mut Scene,
    convention: Convention,
    issues: &mut Issues,
) -> Table {
    let Some((value, pointer)) = doc.root_extension(SHAPE) else {
        return Table::empty();
    };
    let Some(root) = SPELLING.object(value, &pointer, issues) else {
        return Table::unknown();
    };
    ext::check_properties(value, &pointer, &["shapes"], issues);
    let at = push_pointer(&pointer, "shapes");
    let list = match root.get("shapes") {
        None => {
            issues.push(Issue::new(Code::ExtRequired, &pointer).arg("property", "shapes"));
            return Table::empty();
        }
        Some(Value::Array(list)) => list,
        Some(_) => {
            issues.push(Issue::new(Code::ExtType, &at).arg("detail", "expected an array"));
            return Table::unknown();
        }
    };
    if list.is_empty() {
        issues.push(array_length(&at, 0, "at least 1"));
    }
    let mut tried = BTreeSet::new();
    let ids = list
        .iter()
        .enumerate()
        .map(|(i, shape)| {
            let mark = issues.0.len();
            let built = read_shape(
                doc,
                scene,
                convention,
                shape,
                &push_pointer(&at, i),
                &mut tried,
                issues,
            )?;
            if !clean_since(issues, mark) {
                return None;
            }
            scene.shapes.push(built);
            Some(scene.shapes.len() - 1)
        })
        .collect();
    Table::new(ids)
}

/// One shape, checked; `None` when it cannot be built (an issue says why).
fn read_shape(
    doc: &Document,
    scene: &mut Scene,
    convention: Convention,
    value: &Value,
    pointer: &str,
    tried: &mut BTreeSet<MeshId>,
    issues: &mut Issues,
) -> Option<Shape> {
    SPELLING.object(value, pointer, issues)?;
    let mut known = vec!["type"];
    known.extend(SUB_OBJECTS);
    ext::check_properties(value, pointer, &known, issues);
    let kind = ext::parse::<ShapeJson>(value, pointer, issues)?.kind;
    let name = kind.name();
    let present = parameter_objects(value);
    if !present.is_empty() && present != [name] {
        let detail = if present.contains(&name) {
            format!("several parameter objects: {present:?}")
        } else {
            format!("found {present:?} instead of {name:?}")
        };
        issues.push(
            Issue::new(Code::ShapeParametersMismatch, pointer)
                .arg("type", format!("{name:?}"))
                .arg("detail", detail),
        );
        return None;
    }
    let (params, at) = match value.get(name) {
        Some(sub) => {
            let at = push_pointer(pointer, name);
            SPELLING.object(sub, &at, issues)?;
            check_parameters(kind, convention, sub, &at, issues);
            (ext::parse::<Omi24Params>(sub, &at, issues)?, at)
        }
        None => (Omi24Params::default(), pointer.to_owned()),
    };
    build(doc, scene, kind, convention, &params, &at, tried, issues)
}

/// `EXT_UNEXPECTED_PROPERTY` for keys outside the kind's parameters, `OMI_SHAPE_OTHER_REVISION`
/// for the other revision's radius keys on a capsule or cylinder.
fn check_parameters(
    kind: Kind,
    convention: Convention,
    sub: &Value,
    at: &str,
    issues: &mut Issues,
) {
    // omi-2023's keys (`radius`, `height`), with omi-2025's radius keys for round shapes.
    let mut known = kind.parameters().to_vec();
    if matches!(kind, Kind::Capsule | Kind::Cylinder) {
        let other = match convention {
            Convention::Radius => Convention::TopBottom,
            Convention::TopBottom => Convention::Radius,
        };
        for &key in other.radius_keys() {
            if sub.get(key).is_some() {
                issues.push(
                    Issue::new(Code::OmiShapeOtherRevision, push_pointer(at, key))
                        .arg("key", key)
                        .arg("other", other.profile())
                        .arg("profile", convention.profile()),
                );
            }
        }
        known.extend(Convention::TopBottom.radius_keys());
    }
    ext::check_properties(sub, at, &known, issues);
}

/// `VALUE_OUT_OF_RANGE` below 0, `SHAPE_DEGENERATE` at 0 (a radius or a box extent).
fn check_length(value: f64, pointer: String, what: &str, issues: &mut Issues) {
    omi::shape::check_length(value, pointer, (what, "minimum 0"), issues);
}

/// `VALUE_OUT_OF_RANGE` for a height that is not above 0 (the schemas' `exclusiveMinimum`).
fn check_height(value: f64, pointer: String, issues: &mut Issues) {
    if value <= 0.0 {
        issues.push(
            Issue::new(Code::ValueOutOfRange, pointer)
                .arg("value", value)
                .arg("range", "above 0"),
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn build(
    doc: &Document,
    scene: &mut Scene,
    kind: Kind,
    convention: Convention,
    p: &Omi24Params,
    at: &str,
    tried: &mut BTreeSet<MeshId>,
    issues: &mut Issues,
) -> Option<Shape> {
    let key = |k: &str| push_pointer(at, k);
    let shape = match kind {
        Kind::Box => {
            let size = p.size.unwrap_or(DEFAULT_SIZE);
            if let Some(&bad) = size.iter().find(|&&s| s < 0.0) {
                check_length(bad, key("size"), "box extent", issues);
            } else if size.contains(&0.0) {
                check_length(0.0, key("size"), "a box extent", issues);
            }
            Shape::Box {
                size: Vector3::from(size),
            }
        }
        Kind::Sphere => {
            let radius = p.radius.unwrap_or(DEFAULT_RADIUS);
            check_length(radius, key("radius"), "sphere radius", issues);
            Shape::Sphere { radius }
        }
        Kind::Capsule | Kind::Cylinder => {
            let default_height = if kind == Kind::Capsule {
                convention.default_capsule_height()
            } else {
                DEFAULT_CYLINDER_HEIGHT
            };
            let height = p.height.unwrap_or(default_height);
            check_height(height, key("height"), issues);
            let (bottom, top) = match convention {
                Convention::Radius => {
                    let r = p.radius.unwrap_or(DEFAULT_RADIUS);
                    check_length(r, key("radius"), &format!("{} radius", kind.name()), issues);
                    (r, r)
                }
                Convention::TopBottom => {
                    let b = p.radius_bottom.unwrap_or(DEFAULT_RADIUS);
                    let t = p.radius_top.unwrap_or(DEFAULT_RADIUS);
                    check_length(b, key("radiusBottom"), "radiusBottom", issues);
                    check_length(t, key("radiusTop"), "radiusTop", issues);
                    if b != t {
                        issues.push(
                            Issue::new(Code::OmiShapeTapered, at)
                                .arg("bottom", b)
                                .arg("top", t),
                        );
                    }
                    (b, t)
                }
            };
            if kind == Kind::Cylinder {
                Shape::Cylinder {
                    height,
                    radius_bottom: bottom,
                    radius_top: top,
                }
            } else {
                if convention == Convention::Radius
                    && height > 0.0
                    && bottom >= 0.0
                    && capsule_too_short(height, bottom)
                {
                    let culprit = if p.height.is_some() {
                        "height"
                    } else {
                        "radius"
                    };
                    issues.push(
                        Issue::new(Code::OmiCapsuleTooShort, key(culprit))
                            .arg("height", height)
                            .arg("radius", bottom),
                    );
                }
                convention.capsule(p.height, p.radius, p.radius_bottom, p.radius_top)
            }
        }
        Kind::Convex | Kind::Trimesh => {
            let mesh = mesh_of(doc, scene, kind, p.mesh, at, tried, issues)?;
            if kind == Kind::Convex {
                Shape::Convex { mesh }
            } else {
                Shape::Trimesh { mesh }
            }
        }
    };
    Some(shape)
}

/// Resolve and check a mesh shape's mesh, reading its triangles into `scene.meshes` once.
fn mesh_of(
    doc: &Document,
    scene: &mut Scene,
    kind: Kind,
    mesh: Option<i64>,
    at: &str,
    tried: &mut BTreeSet<MeshId>,
    issues: &mut Issues,
) -> Option<MeshId> {
    let pointer = push_pointer(at, "mesh");
    let Some(index) = mesh.filter(|&m| m != -1) else {
        let where_ = if mesh.is_some() { &pointer } else { at };
        issues.push(Issue::new(Code::OmiMeshMissing, where_).arg("type", kind.name()));
        return None;
    };
    let convex = (kind == Kind::Convex).then_some(Flavor::PhysicsShape);
    resolve_mesh(doc, (scene, tried), index, &pointer, convex, issues)
}
