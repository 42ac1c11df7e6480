//! Shapes from `OMI_collider` (seed 004: flat colliders with `type`, `isTrigger`, `size`,
//! `radius`, `height`, `mesh`) and from `OMI_physics_shape` (2023-06-22 schema: `type` plus the
//! one parameter sub-object it names), and the colliders nodes make of them.
//!
//! Both revisions share the defaults size `[1, 1, 1]`, radius 0.5, height 2 and the full-height
//! capsule convention [D-CAPSULE], read as the canonical cap-centre distance `h - 2 r`.

use std::collections::BTreeSet;

use nalgebra::Vector3;
use serde::Deserialize;
use serde_json::Value;

use crate::document::Document;
use crate::ext;
use crate::issue::{Code, Issue, Issues, push_pointer};
use crate::scene::{Collider, MeshId, OmiBodyType, Scene, Shape, ShapeId, TriangleMesh};

use super::body::BodyState;
use super::{COLLIDER, SHAPE, document_array, fixed, parse_object};

/// The defaults of seed 004's `OMI_collider` (and of the 2023 `OMI_physics_shape`): box size,
/// radius, and full height.
pub const DEFAULT_SIZE: [f64; 3] = [1.0, 1.0, 1.0];
pub const DEFAULT_RADIUS: f64 = 0.5;
pub const DEFAULT_HEIGHT: f64 = 2.0;
/// Seed 004: "The final hull shape should have no more than 255 points in total" (dropped by
/// `OMI_physics_shape`, whose 2023-06-22 revision "removed the vertex limit").
pub(super) const HULL_MAX_POINTS: usize = 255;
/// Seed 004: "Hulls are recommended to have at least four points".
pub(super) const HULL_MIN_POINTS: usize = 4;
/// Relative tolerance of `height >= 2 radius`: files written from `f32` give `2 r` and `h`
/// rounded separately, so an exact comparison would reject capsules that are spheres.
pub(super) const CAPSULE_TOLERANCE: f64 = 1e-9;
/// A node scale within this of 1 is not a scale (matrix decomposition noise).
const SCALE_TOLERANCE: f64 = 1e-6;

/// The shape families both extensions share, and the `type` values of `OMI_physics_shape` (all
/// its revisions).
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Kind {
    Box,
    Sphere,
    Capsule,
    Cylinder,
    Convex,
    Trimesh,
}

impl Kind {
    /// The parameter properties valid for this kind (omi-2023's, the radius keys of later
    /// revisions aside).
    pub(crate) fn parameters(self) -> &'static [&'static str] {
        match self {
            Kind::Box => &["size"],
            Kind::Sphere => &["radius"],
            Kind::Capsule | Kind::Cylinder => &["radius", "height"],
            Kind::Convex | Kind::Trimesh => &["mesh"],
        }
    }

    /// The `OMI_physics_shape` type name, which names its parameter object too.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Box => "box",
            Kind::Sphere => "sphere",
            Kind::Capsule => "capsule",
            Kind::Cylinder => "cylinder",
            Kind::Convex => "convex",
            Kind::Trimesh => "trimesh",
        }
    }
}

/// Which extension a shape definition came from: the rules differ slightly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// `OMI_collider`: mesh `-1` (the default) means none; hulls have at most 255 points.
    Collider,
    /// `OMI_physics_shape`: `mesh` is a plain glTF id; no hull point limit.
    PhysicsShape,
}

#[derive(Deserialize, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ColliderType {
    Box,
    Sphere,
    Capsule,
    Cylinder,
    Hull,
    Trimesh,
}

impl ColliderType {
    fn kind(self) -> Kind {
        match self {
            ColliderType::Box => Kind::Box,
            ColliderType::Sphere => Kind::Sphere,
            ColliderType::Capsule => Kind::Capsule,
            ColliderType::Cylinder => Kind::Cylinder,
            ColliderType::Hull => Kind::Convex,
            ColliderType::Trimesh => Kind::Trimesh,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ColliderType::Box => "box",
            ColliderType::Sphere => "sphere",
            ColliderType::Capsule => "capsule",
            ColliderType::Cylinder => "cylinder",
            ColliderType::Hull => "hull",
            ColliderType::Trimesh => "trimesh",
        }
    }
}

/// The sub-object names of `OMI_physics_shape`, which equal its type names.
pub(crate) const SUB_OBJECTS: [&str; 6] =
    ["box", "sphere", "capsule", "cylinder", "convex", "trimesh"];

/// The parameter objects an `OMI_physics_shape` shape holds, in [`SUB_OBJECTS`] order.
pub(crate) fn parameter_objects(shape: &Value) -> Vec<&'static str> {
    SUB_OBJECTS
        .into_iter()
        .filter(|&s| shape.get(s).is_some())
        .collect()
}

/// Shape parameters as written (absent: the default).
#[derive(Deserialize, Default)]
struct Params {
    size: Option<Vec<f64>>,
    radius: Option<f64>,
    height: Option<f64>,
    /// Signed: `OMI_collider` writes `-1` for "no mesh".
    mesh: Option<i64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FlatColliderJson {
    #[serde(rename = "type")]
    kind: ColliderType,
    #[serde(default)]
    is_trigger: bool,
    size: Option<Vec<f64>>,
    radius: Option<f64>,
    height: Option<f64>,
    mesh: Option<i64>,
}

/// An `OMI_physics_shape` shape as far as all revisions read it alike: its type.
#[derive(Deserialize)]
pub(crate) struct ShapeJson {
    #[serde(rename = "type")]
    pub(crate) kind: Kind,
}

#[derive(Deserialize)]
struct NodeCollider {
    collider: usize,
}

#[derive(Deserialize)]
struct NodeShape {
    shape: usize,
}

/// One readable document-level shape definition.
#[derive(Clone, Copy, Debug)]
pub(super) struct Definition {
    shape: ShapeId,
    /// `OMI_collider.isTrigger` (always false for `OMI_physics_shape`).
    is_trigger: bool,
    trimesh: bool,
}

/// Document-level definitions by index; `None` where the definition could not be read.
#[derive(Debug, Default)]
pub(super) struct Definitions {
    colliders: Vec<Option<Definition>>,
    shapes: Vec<Option<Definition>>,
}

/// What building a shape needs besides its parameters.
struct Builder<'a> {
    doc: &'a Document<'a>,
    scene: &'a mut Scene,
    issues: &'a mut Issues,
    /// Meshes whose triangles were already asked for (once each, so issues are not repeated).
    tried: BTreeSet<MeshId>,
}

/// Read `OMI_collider.colliders` and `OMI_physics_shape.shapes` into `scene.shapes`.
pub(super) fn read_definitions(
    doc: &Document,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Definitions {
    let colliders = document_array(doc, COLLIDER, "colliders", issues);
    let shapes = document_array(doc, SHAPE, "shapes", issues);
    let mut b = Builder {
        doc,
        scene,
        issues,
        tried: BTreeSet::new(),
    };
    Definitions {
        colliders: colliders
            .into_iter()
            .map(|(value, pointer)| read_collider(value, &pointer, &mut b))
            .collect(),
        shapes: shapes
            .into_iter()
            .map(|(value, pointer)| read_shape(value, &pointer, &mut b))
            .collect(),
    }
}

fn read_collider(value: &Value, pointer: &str, b: &mut Builder<'_>) -> Option<Definition> {
    let json = parse_object::<FlatColliderJson>(value, pointer, b.issues);
    let mut known = vec!["type", "isTrigger"];
    match &json {
        Some(j) => known.extend(j.kind.kind().parameters()),
        None => known.extend(["size", "radius", "height", "mesh"]),
    }
    ext::check_properties(value, pointer, &known, b.issues);
    let json = json?;
    let kind = json.kind.kind();
    if kind == Kind::Trimesh && json.is_trigger {
        b.issues.push(Issue::new(
            Code::OmiTriggerTrimesh,
            push_pointer(pointer, "isTrigger"),
        ));
    }
    let params = Params {
        size: json.size,
        radius: json.radius,
        height: json.height,
        mesh: json.mesh,
    };
    let shape = build(
        kind,
        json.kind.name(),
        &params,
        pointer,
        Flavor::Collider,
        b,
    )?;
    Some(Definition {
        shape,
        is_trigger: json.is_trigger,
        trimesh: kind == Kind::Trimesh,
    })
}

fn read_shape(value: &Value, pointer: &str, b: &mut Builder<'_>) -> Option<Definition> {
    let mut known = vec!["type"];
    known.extend(SUB_OBJECTS);
    ext::check_properties(value, pointer, &known, b.issues);
    let kind = parse_object::<ShapeJson>(value, pointer, b.issues)?.kind;
    let name = kind.name();
    // One issue per shape, at the shape, as the KHR reader does.
    let present = parameter_objects(value);
    if present != [name] {
        let detail = if present.is_empty() {
            format!("no parameter object (expected {name:?})")
        } else if !present.contains(&name) {
            format!("found {present:?} instead of {name:?}")
        } else {
            format!("several parameter objects: {present:?}")
        };
        b.issues.push(
            Issue::new(Code::ShapeParametersMismatch, pointer)
                .arg("type", format!("{name:?}"))
                .arg("detail", detail),
        );
    }
    let (params, at) = match value.get(name) {
        Some(sub) => {
            let at = push_pointer(pointer, name);
            ext::check_properties(sub, &at, kind.parameters(), b.issues);
            (parse_object::<Params>(sub, &at, b.issues)?, at)
        }
        // Every parameter of the implicit shapes has a default: build from those. Mesh shapes
        // have no default mesh: no shape (the mismatch already says why).
        None if matches!(kind, Kind::Convex | Kind::Trimesh) => return None,
        None => (Params::default(), pointer.to_owned()),
    };
    let shape = build(kind, name, &params, &at, Flavor::PhysicsShape, b)?;
    Some(Definition {
        shape,
        is_trigger: false,
        trimesh: kind == Kind::Trimesh,
    })
}

/// How omi-2023's `VALUE_OUT_OF_RANGE` states the range of a length (omi-2024's says
/// "minimum 0").
const LENGTH_RANGE: &str = ">= 0";

/// `VALUE_OUT_OF_RANGE` (with the revision's wording of `range`) for a negative length,
/// `SHAPE_DEGENERATE` for a zero one. Returns whether the value is non-negative.
pub(crate) fn check_length(
    value: f64,
    pointer: String,
    (what, range): (&str, &str),
    issues: &mut Issues,
) -> bool {
    if value < 0.0 {
        issues.push(
            Issue::new(Code::ValueOutOfRange, pointer)
                .arg("value", value)
                .arg("range", range),
        );
        false
    } else {
        if value == 0.0 {
            issues.push(
                Issue::new(Code::ShapeDegenerate, pointer).arg("detail", format!("{what} is 0")),
            );
        }
        true
    }
}

/// Whether a full-height capsule is shorter than its diameter (beyond the tolerance).
pub(crate) fn capsule_too_short(height: f64, radius: f64) -> bool {
    height < 2.0 * radius * (1.0 - CAPSULE_TOLERANCE)
}

/// The canonical capsule of a full-height OMI capsule [D-CAPSULE]: the cap-centre distance
/// `h - 2 r` (clamped at 0 for a capsule that is too short, an error reported elsewhere).
pub(crate) fn capsule(height: f64, radius: f64) -> Shape {
    Shape::Capsule {
        height: (height - 2.0 * radius).max(0.0),
        radius_top: radius,
        radius_bottom: radius,
    }
}

/// Check the parameters (at `at`: the collider, or the `OMI_physics_shape` sub-object) and push
/// the canonical shape.
fn build(
    kind: Kind,
    name: &str,
    p: &Params,
    at: &str,
    flavor: Flavor,
    b: &mut Builder<'_>,
) -> Option<ShapeId> {
    let issues = &mut *b.issues;
    let radius = p.radius.unwrap_or(DEFAULT_RADIUS);
    let height = p.height.unwrap_or(DEFAULT_HEIGHT);
    let shape = match kind {
        Kind::Box => {
            let size = p
                .size
                .as_deref()
                .and_then(|s| fixed::<3>(s, &push_pointer(at, "size"), issues))
                .unwrap_or(DEFAULT_SIZE);
            let pointer = push_pointer(at, "size");
            if let Some(&bad) = size.iter().find(|&&s| s < 0.0) {
                issues.push(
                    Issue::new(Code::ValueOutOfRange, pointer)
                        .arg("value", bad)
                        .arg("range", ">= 0"),
                );
            } else if size.contains(&0.0) {
                issues.push(
                    Issue::new(Code::ShapeDegenerate, pointer)
                        .arg("detail", format!("box size {size:?} has a zero extent")),
                );
            }
            Shape::Box {
                size: Vector3::from(size),
            }
        }
        Kind::Sphere => {
            check_length(
                radius,
                push_pointer(at, "radius"),
                ("sphere radius", LENGTH_RANGE),
                issues,
            );
            Shape::Sphere { radius }
        }
        Kind::Capsule => {
            let radius_ok = check_length(
                radius,
                push_pointer(at, "radius"),
                ("capsule radius", LENGTH_RANGE),
                issues,
            );
            let height_ok = if height < 0.0 {
                check_length(
                    height,
                    push_pointer(at, "height"),
                    ("capsule height", LENGTH_RANGE),
                    issues,
                )
            } else {
                true // a zero height is "too short" (below), not degenerate on its own
            };
            if radius_ok && height_ok && capsule_too_short(height, radius) {
                // At the height when written; else the (written) radius outgrew the default.
                let culprit = if p.height.is_some() {
                    "height"
                } else {
                    "radius"
                };
                issues.push(
                    Issue::new(Code::OmiCapsuleTooShort, push_pointer(at, culprit))
                        .arg("height", height)
                        .arg("radius", radius),
                );
            }
            capsule(height, radius)
        }
        Kind::Cylinder => {
            check_length(
                radius,
                push_pointer(at, "radius"),
                ("cylinder radius", LENGTH_RANGE),
                issues,
            );
            check_length(
                height,
                push_pointer(at, "height"),
                ("cylinder height", LENGTH_RANGE),
                issues,
            );
            Shape::Cylinder {
                height,
                radius_top: radius,
                radius_bottom: radius,
            }
        }
        Kind::Convex | Kind::Trimesh => {
            let mesh = mesh_of(kind, name, p.mesh, at, flavor, b)?;
            if kind == Kind::Convex {
                Shape::Convex { mesh }
            } else {
                Shape::Trimesh { mesh }
            }
        }
    };
    b.scene.shapes.push(shape);
    Some(b.scene.shapes.len() - 1)
}

/// Resolve and check the mesh of a hull/convex or trimesh shape, reading its triangles into
/// `scene.meshes` (once per mesh). `None` when there is no usable mesh index.
fn mesh_of(
    kind: Kind,
    name: &str,
    mesh: Option<i64>,
    at: &str,
    flavor: Flavor,
    b: &mut Builder<'_>,
) -> Option<MeshId> {
    let pointer = push_pointer(at, "mesh");
    let index = match mesh {
        None => None,
        Some(-1) if flavor == Flavor::Collider => None,
        Some(m) => Some(m),
    };
    let Some(index) = index else {
        b.issues
            .push(Issue::new(Code::OmiMeshMissing, at).arg("type", name));
        return None;
    };
    let convex = (kind == Kind::Convex).then_some(flavor);
    let (doc, scene, tried) = (b.doc, &mut *b.scene, &mut b.tried);
    resolve_mesh(doc, (scene, tried), index, &pointer, convex, b.issues)
}

/// Resolve mesh `index` of a mesh shape (`pointer` at its `mesh`), reading the mesh's
/// triangles into `scene.meshes` once (`tried`); for a hull (`convex`, its extension) check its
/// point count too. `None` when the index is out of range.
pub(crate) fn resolve_mesh(
    doc: &Document,
    (scene, tried): (&mut Scene, &mut BTreeSet<MeshId>),
    index: i64,
    pointer: &str,
    convex: Option<Flavor>,
    issues: &mut Issues,
) -> Option<MeshId> {
    let count = doc.root.meshes.len();
    let Some(mesh) = usize::try_from(index).ok().filter(|&m| m < count) else {
        issues.push(
            Issue::new(Code::IndexOutOfRange, pointer)
                .arg("index", index)
                .arg("array", "meshes")
                .arg("length", count),
        );
        return None;
    };
    let primitives = doc.root.meshes[mesh].primitives.len();
    if primitives > 1 {
        issues
            .push(Issue::new(Code::MeshShapeMultiplePrimitives, pointer).arg("count", primitives));
    }
    if tried.insert(mesh)
        && let Some(triangles) = doc.mesh_triangles(mesh, pointer, issues)
    {
        scene.meshes.insert(mesh, triangles);
    }
    if let Some(flavor) = convex
        && let Some(triangles) = scene.meshes.get(&mesh)
        && let Some(issue) = hull_points(triangles, pointer, flavor)
    {
        issues.push(issue);
    }
    Some(mesh)
}

/// `HULL_FEW_POINTS` (< 4 distinct points) or, for `OMI_collider` only, `HULL_TOO_MANY_POINTS`
/// (> 255). A mesh without triangles is left to the mesh reader (`MESH_SHAPE_EMPTY`).
pub(crate) fn hull_points(mesh: &TriangleMesh, pointer: &str, flavor: Flavor) -> Option<Issue> {
    if mesh.triangles.is_empty() {
        return None;
    }
    let points = distinct_points(mesh);
    if points < HULL_MIN_POINTS {
        Some(Issue::new(Code::HullFewPoints, pointer).arg("count", points))
    } else if points > HULL_MAX_POINTS && flavor == Flavor::Collider {
        Some(Issue::new(Code::HullTooManyPoints, pointer).arg("count", points))
    } else {
        None
    }
}

/// Distinct vertex positions used by the mesh's triangles: the most points its hull can have.
/// (`-0.0` and `0.0` are the same point.)
pub(super) fn distinct_points(mesh: &TriangleMesh) -> usize {
    let mut points = BTreeSet::new();
    for triangle in &mesh.triangles {
        for &i in triangle {
            if let Some(p) = usize::try_from(i).ok().and_then(|i| mesh.positions.get(i)) {
                points.insert(p.map(|c| (c + 0.0).to_bits()));
            }
        }
    }
    points.len()
}

/// Colliders on nodes: node `OMI_collider {collider}` and `OMI_physics_shape {shape}`.
pub(super) fn read_nodes(
    doc: &Document,
    scene: &mut Scene,
    definitions: &Definitions,
    bodies: &[BodyState],
    issues: &mut Issues,
) {
    let extensions = doc.node_extensions();
    for node in 0..scene.nodes.len() {
        let mut any = false;
        for key in [COLLIDER, SHAPE] {
            let Some((value, pointer)) = extensions.get(node, key) else {
                continue;
            };
            any = true;
            let (property, list, array) = if key == COLLIDER {
                ("collider", &definitions.colliders, "OMI_collider colliders")
            } else {
                ("shape", &definitions.shapes, "OMI_physics_shape shapes")
            };
            ext::check_properties(value, &pointer, &[property], issues);
            let index = if key == COLLIDER {
                parse_object::<NodeCollider>(value, &pointer, issues).map(|n| n.collider)
            } else {
                parse_object::<NodeShape>(value, &pointer, issues).map(|n| n.shape)
            };
            let Some(index) = index.and_then(|i| {
                ext::check_index(
                    i,
                    list.len(),
                    array,
                    &push_pointer(&pointer, property),
                    issues,
                )
            }) else {
                continue;
            };
            let Some(definition) = list[index] else {
                continue; // unreadable definition, already reported
            };
            let in_trigger_body = nearest_body_state(scene, bodies, node)
                == Some(BodyState::Typed(OmiBodyType::Trigger));
            if definition.trimesh && in_trigger_body && !definition.is_trigger {
                issues.push(Issue::new(Code::OmiTriggerTrimesh, &pointer));
            }
            let body = scene.owning_body(node);
            scene.colliders.push(Collider {
                node,
                shape: definition.shape,
                material: None,
                filter: None,
                is_trigger: definition.is_trigger || in_trigger_body,
                body,
            });
        }
        if any {
            check_scale(doc, scene, node, issues);
        }
    }
}

/// The OMI body state of the nearest ancestor-or-self node with `OMI_physics_body`.
fn nearest_body_state(scene: &Scene, bodies: &[BodyState], node: usize) -> Option<BodyState> {
    std::iter::once(node)
        .chain(scene.ancestors(node))
        .take(scene.nodes.len())
        .filter_map(|n| bodies.get(n).copied())
        .find(|s| *s != BodyState::Absent)
}

/// `OMI_COLLIDER_SCALED` (seed 004: "it is discouraged to scale collider nodes"; omi24 too:
/// "it is discouraged to scale physics shape nodes").
pub(crate) fn check_scale(doc: &Document, scene: &Scene, node: usize, issues: &mut Issues) {
    let Some(n) = scene.nodes.get(node) else {
        return;
    };
    let scale = n.rest.scale;
    if scale.iter().all(|s| (s - 1.0).abs() <= SCALE_TOLERANCE) {
        return;
    }
    let has_matrix = doc
        .json
        .get("nodes")
        .and_then(|nodes| nodes.get(node))
        .is_some_and(|n| n.get("matrix").is_some());
    let property = if has_matrix { "matrix" } else { "scale" };
    issues.push(
        Issue::new(Code::OmiColliderScaled, format!("/nodes/{node}/{property}"))
            .arg("scale", format!("[{}, {}, {}]", scale.x, scale.y, scale.z)),
    );
}
