//! Reader and rules of the KHR profiles, one reader with the revision as data ([`Revision`]):
//! `khr-2024-draft` (KHR_physics_rigid_bodies seed 002, March 2024 draft, with
//! KHR_collision_shapes), `khr-2025` (glTF PR #2424 with KHR_implicit_shapes, PR #2370) and
//! `khr-2026` (the January-2026 revision: a `geometry` names a `mesh` instead of a `node`,
//! [`GeometryForm::ShapeOrMesh`]; otherwise `khr-2025`), read into the canonical [`Scene`].
//! Each revision is its delta to the one before ([`Revision::R2026`] is three lines).
//!
//! What the 2025 revision changes in meaning (each part's module docs say how):
//! - colliders and triggers give a `geometry` (an implicit `shape`, or the meshes of a `node`
//!   and its descendants [D-GEOMETRY-NODE], with `convexHull`) instead of a `shape`;
//! - shapes: box, sphere, capsule, cylinder and plane from `KHR_implicit_shapes`; degenerate
//!   shapes are invalid (`KHR_SHAPE_DEGENERATE`); a collider whose world scale is zero on all axes
//!   is disabled [D-SHAPE-SCALE];
//! - a mass or inertia component of 0 is a warning, read as infinite [D-MASS-ZERO-SCHEMA];
//! - a joint description may hold no limit; drive targets and gains come in pairs;
//! - filter lists may be empty.
//!
//! Schema rules against the prose and the public samples (`khr-2025`, `khr-2026`)
//! [D-SCHEMA-HARMLESS]: a schema rule whose violation the same schema's defaults make harmless
//! is a warning with an open outcome; every other stays an error. Audited: a drive target without
//! its gain (default 0: the target has no effect) is `KHR_DRIVE_TARGET_WITHOUT_GAIN`, a warning;
//! a zero mass or inertia component is `KHR_MASS_ZERO`, a warning (the prose and samples read it
//! as infinite). Errors because no default makes the file mean anything: a gain without its target
//! (no default target), a required property missing (`EXT_REQUIRED`: a geometry, a shape type, a
//! drive's type, mode or axis), a value of the wrong JSON type, a negative size, mass, friction,
//! restitution, stiffness, damping or maxForce, an axis out of 0..=2 or repeated, a limit with
//! both or neither axis list, a filter with both lists, a trigger with both or neither of a
//! geometry and nodes, a geometry that names no shape or more than one, an index out of range, a
//! degenerate shape (the prose prohibits it), an inertia orientation far from unit length. The
//! public 2025 samples, and their rewrite into the 2026 form, raise none of them
//! (`tests/samples_2025.rs`).
//!
//! Reading order: the document-level arrays first (shapes, materials, filters, joint
//! descriptions), then every node's `motion` (so that owning bodies are known), then every
//! node's `collider`, `trigger` and `joint`.
//!
//! Mapping rules (see the module docs of each part for the details):
//! - Every object is read on its own: its issues carry exact pointers and never hide another
//!   object's issues.
//! - A document-level object (shape, material, filter, joint description) with any error is left
//!   out of the scene; a reference to it resolves to nothing without another issue (a collider on
//!   a left-out shape is dropped, a material or filter reference becomes `None`, a joint on a
//!   left-out description is dropped). Warnings (unknown open-enum values, unexpected properties)
//!   do not leave the object out. A node-level collider, trigger or joint with any error is
//!   dropped the same way.
//! - The presence of `motion` makes a node a body, whatever its values: ownership of colliders
//!   and joint frames never depends on whether a value is valid. An invalid motion value is read
//!   as absent.

mod bodies;
mod deform;
mod geometry;
mod joints;
mod materials;
mod shapes;
#[cfg(test)]
mod tests;

use serde_json::Value;

use crate::document::Document;
use crate::issue::{Code, Issues, push_pointer};
use crate::profile::{KhrEvidence, Profile};
use crate::rigid::joint::Description;
use crate::rigid::{
    JOINTS_ARRAY, NODES_ARRAY, Site, Spelling, Table, array_length, clean_since, enum_unknown,
    material, non_negative,
};
use crate::scene::{Scene, VelocitySpace};

/// The node-level and document-level key of the rigid-body extension.
pub const RIGID_BODIES: &str = "KHR_physics_rigid_bodies";
/// The document-level key of the shape extension (draft).
pub const COLLISION_SHAPES: &str = "KHR_collision_shapes";
/// The document-level key of the shape extension (2025).
pub const IMPLICIT_SHAPES: &str = "KHR_implicit_shapes";

/// A revision of KHR_physics_rigid_bodies as the one KHR reader sees it: every rule on which
/// the revisions differ, as data. Each revision is written as its delta to the one before it
/// ([`Revision::DRAFT_2024`], [`Revision::R2025`], [`Revision::R2026`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Revision {
    /// The profile this revision is read as.
    pub profile: Profile,
    /// The document-level shape extension.
    shape_extension: &'static str,
    /// Its shape types, each also the name of its parameter object.
    shape_types: &'static [&'static str],
    /// A shape without volume is prohibited (`KHR_SHAPE_DEGENERATE`, left out) rather than
    /// information (`SHAPE_DEGENERATE`).
    degenerate_prohibited: bool,
    /// What gives a collider's or simple trigger's shape.
    pub geometry: GeometryForm,
    /// The code of a zero mass or inertia component [D-MASS-ZERO-SCHEMA].
    mass_zero: Code,
    /// A joint description must hold a limit (`KHR_JOINT_NO_LIMITS`).
    limits_required: bool,
    /// A limit stiffness of 0 is refused (the draft wants it positive).
    zero_stiffness_refused: bool,
    /// A drive target and its gain come together (`KHR_DRIVE_DEPENDENCY`).
    drive_pairs: bool,
    /// An empty filter list is refused (`EXT_ARRAY_LENGTH`).
    empty_filter_lists_refused: bool,
    /// A shape whose world scale is zero on all axes is disabled, and a negative scale acts by
    /// its absolute value [D-SHAPE-SCALE].
    pub shape_scale_rules: bool,
}

/// What gives a collider's or simple trigger's shape in a revision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeometryForm {
    /// The draft: a `shape` index of the collider's own.
    Shape,
    /// `geometry` with exactly one of `shape` and `node` [D-GEOMETRY-NODE].
    ShapeOrNode,
    /// `geometry` with exactly one of `shape` and `mesh` [D-GEOMETRY-MESH]; a `node` of the
    /// previous revision is still read, with a warning [D-GEOMETRY-NODE-2026].
    ShapeOrMesh,
}

impl GeometryForm {
    /// Whether a collider or trigger gives its geometry (the draft's `shape`, else `geometry`).
    fn given(self, shape: bool, geometry: bool) -> bool {
        match self {
            GeometryForm::Shape => shape,
            GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => geometry,
        }
    }
}

impl Revision {
    /// The March 2024 draft with KHR_collision_shapes (`khr-2024-draft`).
    pub const DRAFT_2024: Revision = Revision {
        profile: Profile::Khr2024Draft,
        shape_extension: COLLISION_SHAPES,
        shape_types: &["sphere", "box", "capsule", "cylinder", "convex", "trimesh"],
        degenerate_prohibited: false,
        geometry: GeometryForm::Shape,
        mass_zero: Code::MassZeroInfinite,
        limits_required: true,
        zero_stiffness_refused: true,
        drive_pairs: false,
        empty_filter_lists_refused: true,
        shape_scale_rules: false,
    };

    /// PR #2424 with KHR_implicit_shapes (`khr-2025`): implicit shapes, a `geometry` naming a
    /// shape or a node, and the rules its schemas changed.
    pub const R2025: Revision = Revision {
        profile: Profile::Khr2025,
        shape_extension: IMPLICIT_SHAPES,
        shape_types: &["plane", "sphere", "box", "capsule", "cylinder"],
        degenerate_prohibited: true,
        geometry: GeometryForm::ShapeOrNode,
        mass_zero: Code::KhrMassZero,
        limits_required: false,
        zero_stiffness_refused: false,
        drive_pairs: true,
        empty_filter_lists_refused: false,
        shape_scale_rules: true,
    };

    /// The January-2026 revision (`khr-2026`): a `geometry` names a mesh instead of a node.
    pub const R2026: Revision = Revision {
        profile: Profile::Khr2026,
        geometry: GeometryForm::ShapeOrMesh,
        ..Revision::R2025
    };

    /// The revision a KHR profile reads; `None` for the other families.
    pub fn of(profile: Profile) -> Option<Revision> {
        [Revision::DRAFT_2024, Revision::R2025, Revision::R2026]
            .into_iter()
            .find(|r| r.profile == profile)
    }

    /// Whether a zero mass or inertia component is the warning of [D-MASS-ZERO-SCHEMA] (the
    /// schema's exclusive minimum against the prose), not the draft's information.
    pub fn zero_mass_is_a_warning(self) -> bool {
        self.mass_zero == Code::KhrMassZero
    }

    /// The property that gives a collider's or simple trigger's shape.
    fn shape_key(self) -> &'static str {
        match self.geometry {
            GeometryForm::Shape => "shape",
            GeometryForm::ShapeOrNode | GeometryForm::ShapeOrMesh => "geometry",
        }
    }
}

/// Read the extensions of `revision` from `doc` into `scene`, pushing every issue found.
pub fn read(doc: &Document, revision: Revision, scene: &mut Scene, issues: &mut Issues) {
    let shapes = shapes::read(doc, revision, scene, issues);
    let resources = read_resources(doc, revision, scene, issues);
    let nodes = bodies::read_bodies(doc, revision, scene, issues);
    let mut tables = Tables {
        revision,
        shapes,
        materials: resources.materials,
        filters: resources.filters,
        joints: resources.joints,
        geometry: geometry::Cache::default(),
    };
    for site in Site::all(doc, &nodes) {
        bodies::read_collider(site, &mut tables, scene, issues);
        bodies::read_trigger(site, &mut tables, scene, issues);
        joints::read_node_joint(site, &tables, scene, issues);
    }
    if revision.shape_scale_rules {
        geometry::disable_zero_scale(scene, issues);
    }
}

/// What dates a KHR document [D-KHR-REVISION], from its extension keys `keys` and the form of
/// its colliders' and triggers' shapes.
pub fn evidence(doc: &Document, keys: &[&str]) -> KhrEvidence {
    let implicit = keys.contains(&IMPLICIT_SHAPES);
    let mut evidence = KhrEvidence {
        draft: keys.contains(&COLLISION_SHAPES),
        ..KhrEvidence::default()
    };
    let extensions = doc.node_extensions();
    for node in 0..doc.node_count() {
        let Some(object) = extensions
            .get(node, RIGID_BODIES)
            .and_then(|(v, _)| v.as_object())
        else {
            continue;
        };
        for key in ["collider", "trigger"] {
            let Some(c) = object.get(key).and_then(Value::as_object) else {
                continue;
            };
            // A shape of the collider's own dates the draft, unless the document declares the
            // 2025 shape extension (then it is a mistake of a later revision, reported there).
            evidence.draft |= !implicit && c.contains_key("shape");
            if let Some(g) = c.get("geometry").and_then(Value::as_object) {
                evidence.mesh_geometry |= g.contains_key("mesh");
                evidence.node_geometry |= g.contains_key("node");
            }
        }
    }
    evidence
}

/// What the document-level `KHR_physics_rigid_bodies` object gave.
struct Resources {
    materials: Table,
    filters: Table,
    joints: Table<Description>,
}

/// Read `physicsMaterials`, `collisionFilters` and `physicsJoints`.
fn read_resources(
    doc: &Document,
    revision: Revision,
    scene: &mut Scene,
    issues: &mut Issues,
) -> Resources {
    let Some((value, pointer)) = doc.root_extension(RIGID_BODIES) else {
        return Resources {
            materials: Table::empty(),
            filters: Table::empty(),
            joints: Table::empty(),
        };
    };
    let Some(object) = SPELLING.object(value, &pointer, issues) else {
        return Resources {
            materials: Table::unknown(),
            filters: Table::unknown(),
            joints: Table::unknown(),
        };
    };
    crate::ext::check_properties(
        value,
        &pointer,
        &["physicsMaterials", "collisionFilters", "physicsJoints"],
        issues,
    );
    let materials = match SPELLING.array(object, &pointer, "physicsMaterials", issues) {
        Some((list, at)) => {
            material::read_materials((list, &at), &SPELLING, materials::combine, scene, issues)
        }
        None => Table::unknown(),
    };
    let filters = match SPELLING.array(object, &pointer, "collisionFilters", issues) {
        Some((list, at)) => material::read_filters(
            (list, &at),
            &SPELLING,
            revision.empty_filter_lists_refused,
            scene,
            issues,
        ),
        None => Table::unknown(),
    };
    let joints = match SPELLING.array(object, &pointer, "physicsJoints", issues) {
        Some((list, at)) => joints::read_descriptions(list, &at, revision, issues),
        None => Table::unknown(),
    };
    Resources {
        materials,
        filters,
        joints,
    }
}

/// Every document-level table a node-level object refers to.
struct Tables {
    revision: Revision,
    shapes: Table,
    materials: Table,
    filters: Table,
    joints: Table<Description>,
    /// Node geometries already read (2025), shared by the colliders that use them.
    geometry: geometry::Cache,
}

/// How KHR writes what [`crate::rigid`] reads.
const SPELLING: Spelling = Spelling {
    body: RIGID_BODIES,
    velocity_space: VelocitySpace::Local,
    name_kind: true,
    min_one_item: true,
    filter_both_lists: Code::KhrFilterBothLists,
    orientation_not_unit: Code::KhrInertiaOrientationNotUnit,
    trigger_shape_and_nodes: Code::KhrTriggerShapeAndNodes,
    trigger_empty: Code::KhrTriggerEmpty,
    member_not_descendant: Code::KhrTriggerNodeNotDescendant,
    member_not_trigger: Code::KhrTriggerNodeNotTrigger,
    member_duplicate: None,
};

/// Names of the arrays in `INDEX_OUT_OF_RANGE` messages.
const SHAPES_ARRAY: &str = "KHR_collision_shapes.shapes";
const IMPLICIT_SHAPES_ARRAY: &str = "KHR_implicit_shapes.shapes";
const MESHES_ARRAY: &str = "meshes";

/// [`crate::ext::check_index`] at `pointer/key`, a pointer written only for the issue.
fn check_index_at(
    index: usize,
    length: usize,
    array: &str,
    (pointer, key): (&str, &str),
    issues: &mut Issues,
) -> Option<usize> {
    let at = || push_pointer(pointer, key);
    crate::ext::check_index_with(index, length, array, at, issues)
}
