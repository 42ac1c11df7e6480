//! The catalogue of validation issue codes and the [`Issue`] every check reports.
//!
//! One enum, [`Code`], holds every code the reference can emit. Each code carries its stable
//! string id, its severity (glTF-Validator conventions: a broken rule is an error, an unknown
//! value of an open enum or an unexpected property is a warning, a degenerate but legal
//! construct is information), the profiles it applies to, the spec sentence it enforces, and a
//! message template whose `{name}` placeholders are filled from [`Issue::arg`].

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::profile::Profile;
use crate::tier::Tier;

/// How bad an issue is. Ordered from most to least severe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Which profiles a code applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Core glTF structure or generic extension-object rules: every profile.
    All,
    /// Only the listed profiles.
    Only(&'static [Profile]),
}

impl Scope {
    pub fn applies_to(self, profile: Profile) -> bool {
        match self {
            Scope::All => true,
            Scope::Only(list) => list.contains(&profile),
        }
    }

    /// Profile ids joined with `, ` (or `all`), for tables.
    pub fn describe(self) -> String {
        match self {
            Scope::All => "all".to_owned(),
            Scope::Only(list) => list.iter().map(|p| p.id()).collect::<Vec<_>>().join(", "),
        }
    }
}

const KHR: Scope = Scope::Only(&[Profile::Khr2024Draft]);
const OMI: Scope = Scope::Only(&[Profile::Omi2023]);
const VRM: Scope = Scope::Only(&[Profile::VrmcConstraintsDraft]);
const PHYSICS: Scope = Scope::Only(&[
    Profile::Khr2024Draft,
    Profile::Omi2023,
    Profile::Omi2024,
    Profile::Omi2025,
]);
/// The physics profiles whose limit stiffness must be positive (OMI 2024/2025: negative means
/// infinitely stiff).
const KHR_OMI23: Scope = Scope::Only(&[
    Profile::Khr2024Draft,
    Profile::Khr2025,
    Profile::Khr2026,
    Profile::Omi2023,
]);
/// Every OMI revision.
const OMI_ALL: Scope = Scope::Only(&[Profile::Omi2023, Profile::Omi2024, Profile::Omi2025]);
/// The OMI revisions with a full-height capsule.
const OMI_23_24: Scope = Scope::Only(&[Profile::Omi2023, Profile::Omi2024]);
/// The restructured OMI revisions (omigroup/gltf-extensions 807ce4b and df53422).
const OMI_24_25: Scope = Scope::Only(&[Profile::Omi2024, Profile::Omi2025]);
/// The OMI revision with `radiusTop`/`radiusBottom`.
const OMI_2025: Scope = Scope::Only(&[Profile::Omi2025]);
const VRM1: Scope = Scope::Only(&[Profile::VrmcNodeConstraint10]);
/// Every KHR revision.
const KHR_ALL: Scope = Scope::Only(&[Profile::Khr2024Draft, Profile::Khr2025, Profile::Khr2026]);
/// The KHR revisions with KHR_implicit_shapes and a `geometry`: `khr-2025` and `khr-2026`.
const KHR25: Scope = Scope::Only(&[Profile::Khr2025, Profile::Khr2026]);
/// `khr-2025` only: its node geometry as the one form (in a `khr-2026` document a node
/// geometry is read by the same rules, after `KHR_GEOMETRY_NODE_2025`).
const KHR25_ONLY: Scope = Scope::Only(&[Profile::Khr2025]);
/// `khr-2026` only: its mesh geometry.
const KHR26: Scope = Scope::Only(&[Profile::Khr2026]);
/// Every physics profile: rules they all share.
const PHYSICS_ALL: Scope = Scope::Only(&[
    Profile::Khr2024Draft,
    Profile::Khr2025,
    Profile::Khr2026,
    Profile::Omi2023,
    Profile::Omi2024,
    Profile::Omi2025,
]);
const ALL: Scope = Scope::All;

macro_rules! catalogue {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $id:literal, $severity:ident, $scope:expr, $spec:literal, $rule:literal, $template:literal;
    )*) => {
        /// Every validation issue code. The string id ([`Code::id`]) is stable: it never changes
        /// meaning, and a retired code is never reused.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in catalogue order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable string id, e.g. `KHR_LIMIT_AXES_MISSING`.
            pub fn id(self) -> &'static str {
                match self { $(Code::$variant => $id,)* }
            }

            pub fn severity(self) -> Severity {
                match self { $(Code::$variant => Severity::$severity,)* }
            }

            pub fn scope(self) -> Scope {
                match self { $(Code::$variant => $scope,)* }
            }

            /// Where the rule comes from: a seed file and section, a schema, or a design decision.
            pub fn spec_reference(self) -> &'static str {
                match self { $(Code::$variant => $spec,)* }
            }

            /// The spec sentence (or decision) the code enforces.
            pub fn rule(self) -> &'static str {
                match self { $(Code::$variant => $rule,)* }
            }

            /// The message template; `{name}` placeholders are filled by [`Issue::arg`].
            pub fn template(self) -> &'static str {
                match self { $(Code::$variant => $template,)* }
            }
        }
    };
}

catalogue! {
    // ----- files, JSON and GLB --------------------------------------------------------------
    // Core codes follow glTF 2.0 and the Khronos glTF-Validator: an error only where glTF 2.0
    // calls the file invalid and the validator reports an error too (the code named after
    // "glTF-Validator" in each reference), a warning where the validator warns.
    /// The bytes are not JSON (truncated, `NaN`, numbers out of range, nesting too deep...).
    JsonSyntax = "JSON_SYNTAX", Error, ALL, "glTF 2.0 §3.1 (JSON encoding)",
        "A glTF JSON document must be valid JSON (RFC 8259).", "invalid JSON: {detail}";
    /// A file over the size limit is not read at all.
    FileTooLarge = "FILE_TOO_LARGE", Error, ALL, "physics-cts limit",
        "Files larger than the validator's limit are not read.", "file is {size} bytes, over the limit of {limit}";
    /// The document or a buffer's file is a FIFO, a device, a socket or a folder: it is not
    /// read (a device or a FIFO may never end, or never answer).
    NotARegularFile = "NOT_A_REGULAR_FILE", Error, ALL, "physics-cts limit",
        "Documents and buffer files are read only from regular files.", "{path} is {kind}, not a regular file";
    /// The JSON holds more values than the reader's memory budget allows: not parsed.
    DocumentTooLarge = "DOCUMENT_TOO_LARGE", Error, ALL, "physics-cts limit",
        "A document's JSON may hold at most the validator's limit of values (its memory budget).", "the JSON holds at least {values} values, over the limit of {limit}";
    /// GLB header: magic, version, or a total length longer than the file.
    GlbHeader = "GLB_HEADER", Error, ALL, "glTF 2.0 §4.4.2 (GLB header)",
        "A GLB starts with magic 'glTF', version 2, and the total length of the file.", "invalid GLB header: {detail}";
    /// GLB chunk lengths, types or alignment wrong.
    GlbChunk = "GLB_CHUNK", Error, ALL, "glTF 2.0 §4.4.3 (GLB chunks)",
        "GLB chunks must fit in the file, be 4-byte aligned, and start with one JSON chunk.", "invalid GLB chunk: {detail}";
    /// Bytes after the length the GLB header gives: not read. A file that ends early is
    /// `GLB_HEADER`.
    GlbExtraData = "GLB_EXTRA_DATA", Warning, ALL, "glTF 2.0 §4.4.2 (GLB header: length is the total length of the Binary glTF)",
        "Bytes after the GLB's declared length are not part of it and are ignored.", "{extra} bytes after the GLB's length of {length} are ignored";

    // ----- core glTF structure ----------------------------------------------------------------
    /// The core document does not match the glTF 2.0 schema (wrong type, missing property).
    /// What the schema allows is read as it allows it: `scene.nodes` and a channel target's
    /// `node` may be absent, and `1.0` is an integer.
    GltfSchema = "GLTF_SCHEMA", Error, ALL, "glTF 2.0 JSON schema",
        "The document must match the glTF 2.0 JSON schema.", "{detail}";
    /// A core index (node, mesh, accessor, buffer view, buffer, scene...) is out of range.
    GltfIndex = "GLTF_INDEX", Error, ALL, "glTF 2.0 §3.7 (indices)",
        "Every index must refer to an existing element of its array.", "index {index} is out of range";
    /// A core value is invalid: a number out of its schema range (a byteStride outside 4..252),
    /// a duplicate child, a sparse count over the accessor's count, a POSITION that is not VEC3
    /// or not finite. A value outside an enum is `GLTF_VALUE_NOT_IN_LIST`.
    GltfValue = "GLTF_VALUE", Error, ALL, "glTF 2.0 JSON schema",
        "Core property values must be within the ranges and rules the schema and the specification give (a value outside an enum is GLTF_VALUE_NOT_IN_LIST).", "invalid value: {detail}";
    /// A value outside the list a core enum gives (a componentType, a sampler filter, a
    /// primitive mode...). What reads the value reads nothing from it: a shape whose mesh
    /// needs it gets its own error.
    GltfValueNotInList = "GLTF_VALUE_NOT_IN_LIST", Warning, ALL, "glTF 2.0 JSON schema (enum)",
        "A core enum property should take one of its listed values; an unknown one is ignored.", "value {value} is not among the values glTF 2.0 lists";
    /// A node is its own ancestor.
    NodeCycle = "NODE_CYCLE", Error, ALL, "glTF 2.0 §3.5.1 (nodes and hierarchy)",
        "The node hierarchy must be a set of disjoint strict trees: no node may be its own ancestor.", "node {node} is its own ancestor";
    /// A node is the child of more than one node.
    NodeMultipleParents = "NODE_MULTIPLE_PARENTS", Error, ALL, "glTF 2.0 §3.5.1 (nodes and hierarchy)",
        "No node may be a direct descendant of more than one node.", "node {node} has more than one parent";
    /// A node's matrix cannot be decomposed into translation, rotation and scale.
    NodeMatrixNotTrs = "NODE_MATRIX_NOT_TRS", Error, ALL, "glTF 2.0 §3.5.2 (transformations)",
        "A node matrix must be decomposable to TRS: no skew or projection.", "node matrix is not decomposable to TRS: {detail}";
    /// A node rotation is not a unit quaternion.
    NodeRotationNotUnit = "NODE_ROTATION_NOT_UNIT", Error, ALL, "glTF 2.0 §3.5.2 (transformations)",
        "rotation is a unit quaternion.", "rotation has length {length}, not 1";
    /// An extension is used but missing from `extensionsUsed`.
    ExtensionNotDeclared = "EXTENSION_NOT_DECLARED", Error, ALL, "glTF 2.0 §3.12 (extensions)",
        "All extensions used in a glTF asset must be listed in the top-level extensionsUsed array.", "extension {extension} is used but not in extensionsUsed";
    /// `extensionsRequired` names an extension missing from `extensionsUsed`.
    ExtensionRequiredNotUsed = "EXTENSION_REQUIRED_NOT_USED", Error, ALL, "glTF 2.0 §3.12 (extensions)",
        "All glTF extensions required to load and/or render an asset must be listed in extensionsUsed.", "extension {extension} is required but not in extensionsUsed";
    /// `extensionsUsed` names an extension the document never uses.
    ExtensionUnused = "EXTENSION_UNUSED", Info, ALL, "glTF-Validator UNUSED_EXTENSION convention",
        "An extension listed in extensionsUsed should appear somewhere in the asset.", "extension {extension} is declared but not used";
    /// An extension no profile of this suite reads.
    ExtensionUnknown = "EXTENSION_UNKNOWN", Info, ALL, "glTF-Validator UNSUPPORTED_EXTENSION convention",
        "Extensions outside the suite's profiles are not validated.", "extension {extension} is not validated by this suite";
    /// A buffer URI leaves the folder of the file through `..` (or a symbolic link, or an
    /// escaped `/`): not read. An absolute URI is `URI_NOT_RELATIVE`.
    UriEscapes = "URI_ESCAPES", Error, ALL, "physics-cts security rule",
        "A buffer URI may not reach outside the folder of the glTF file (no '..', no absolute path, no scheme other than data:).", "URI {uri} escapes the asset's folder";
    /// A buffer URI with a scheme (`https:`, `file:`) or an absolute path: legal, but this
    /// reader does not fetch it. Nothing is read from the buffer; a shape that needs its data
    /// gets `ACCESSOR_DATA_UNAVAILABLE`.
    UriNotRelative = "URI_NOT_RELATIVE", Warning, ALL, "glTF 2.0 URIs (relative paths are relative to the asset)",
        "A buffer URI should be a relative reference (or a data URI); absolute URIs are not fetched.", "URI {uri} is not relative: not fetched";
    /// A `data:` URI does not decode.
    DataUriInvalid = "DATA_URI_INVALID", Error, ALL, "RFC 2397; glTF 2.0 §3.6.1.1",
        "A data URI must be a valid base64 data URI.", "data URI does not decode: {detail}";
    /// A `data:` URI buffer in a GLB: legal and read, but the GLB's BIN chunk is the place
    /// for binary data.
    DataUriInGlb = "DATA_URI_IN_GLB", Warning, ALL, "glTF 2.0 GLB-stored buffer",
        "A GLB should hold its binary data in the BIN chunk, not in data URIs.", "a data URI buffer in a GLB";
    /// A buffer's data cannot be read: its file is missing or unreadable, or it is the GLB
    /// buffer (buffer 0, no `uri`) of a GLB without a BIN chunk.
    BufferUnreadable = "BUFFER_UNREADABLE", Error, ALL, "glTF 2.0 §3.6.1 (buffers)",
        "Buffer data referenced by uri must be available.", "buffer data cannot be read: {detail}";
    /// A buffer without `uri` that is not the GLB BIN chunk: legal (an extension may provide
    /// the data, or nothing reads it), but it has no data here. A shape that needs its data
    /// gets `ACCESSOR_DATA_UNAVAILABLE`.
    BufferNoData = "BUFFER_NO_DATA", Info, ALL, "glTF 2.0 §3.6.1 (buffers: uri is optional)",
        "A buffer without uri that is not the GLB-stored buffer has no data of its own.", "buffer has no uri and is not the GLB BIN chunk: it holds no data";
    /// A buffer holds fewer bytes than its `byteLength`.
    BufferTooShort = "BUFFER_TOO_SHORT", Error, ALL, "glTF 2.0 §3.6.1 (buffers)",
        "byteLength is the length of the buffer in bytes.", "buffer holds {actual} bytes, byteLength says {expected}";
    /// A buffer view does not fit in its buffer.
    BufferViewBounds = "BUFFER_VIEW_BOUNDS", Error, ALL, "glTF 2.0 §3.6.2 (buffer views)",
        "A buffer view must lie within its buffer.", "buffer view ends at byte {end}, buffer has {length}";
    /// An accessor does not fit in its buffer view. Its bytes are counted as glTF 2.0 lays
    /// them out: `byteStride` (or the element size) between elements, matrix columns of 1- and
    /// 2-byte components padded to 4 bytes, and the last element without its trailing padding.
    AccessorBounds = "ACCESSOR_BOUNDS", Error, ALL, "glTF 2.0 §3.6.2.4 (accessors)",
        "An accessor must lie within its buffer view.", "accessor needs bytes up to {end}, buffer view has {length}";
    /// A collider, trigger or constraint needs an accessor whose data cannot be read: its
    /// buffer holds no data here (no `uri`, an absolute URI this reader does not fetch), or
    /// an error at load time said why (a missing file, bounds, an unknown type).
    AccessorDataUnavailable = "ACCESSOR_DATA_UNAVAILABLE", Error, ALL, "glTF 2.0 §3.6.2 (accessors read buffer data); the physics extensions read mesh data",
        "Data a collider, trigger or constraint reads must be available.", "accessor {accessor} is needed here, but its data cannot be read: {reason}";
    /// A vertex index points past the end of the vertex data.
    MeshIndexOutOfRange = "MESH_INDEX_OUT_OF_RANGE", Error, ALL, "glTF 2.0 §3.7.2.1 (indices)",
        "Each vertex index must be less than the number of vertices.", "vertex index {index} >= vertex count {count}";

    // ----- generic extension-object rules -----------------------------------------------------
    /// A property of an extension object has the wrong JSON type.
    ExtType = "EXT_TYPE", Error, ALL, "extension JSON schemas",
        "Extension properties must have the types their schema gives.", "{detail}";
    /// A required property of an extension object is missing.
    ExtRequired = "EXT_REQUIRED", Error, ALL, "extension JSON schemas",
        "Required properties must be present.", "required property {property} is missing";
    /// An array has the wrong number of elements.
    ExtArrayLength = "EXT_ARRAY_LENGTH", Error, ALL, "extension JSON schemas",
        "Arrays must have the number of elements their schema gives.", "array has {actual} elements, expected {expected}";
    /// An extension object has a property its schema does not define.
    ExtUnexpectedProperty = "EXT_UNEXPECTED_PROPERTY", Warning, ALL, "glTF-Validator UNEXPECTED_PROPERTY convention",
        "Properties outside the schema are ignored.", "unexpected property {property}";
    /// A value of an open enum (any string allowed) that no revision defines.
    EnumUnknown = "ENUM_UNKNOWN", Warning, ALL, "glTF-Validator convention for open enums",
        "An unknown value of an open enum is ignored.", "unknown value {value}; known values are {known}";
    /// A value outside a closed enum.
    EnumInvalid = "ENUM_INVALID", Error, ALL, "extension JSON schemas",
        "A closed enum property must take one of its listed values.", "invalid value {value}; allowed values are {known}";
    /// An index into an extension array (shapes, materials, filters, joints, nodes, meshes, sources) is out of range.
    IndexOutOfRange = "INDEX_OUT_OF_RANGE", Error, ALL, "extension schemas (glTFid)",
        "Each index must refer to an existing element of the array it names.", "index {index} is out of range for {array} (length {length})";
    /// A number below its schema minimum (sizes, friction, restitution, maxForce, drive stiffness...).
    ValueOutOfRange = "VALUE_OUT_OF_RANGE", Error, ALL, "extension JSON schemas (minimum)",
        "Numbers must respect their schema's minimum and maximum.", "value {value} is out of range: {range}";
    /// Mass below zero.
    NegativeMass = "NEGATIVE_MASS", Error, PHYSICS_ALL, "seed 002 Motions; seed 001 Mass",
        "The mass of a body cannot be negative (KHR: minimum 0, where 0 means infinite).", "mass {value} is negative";
    /// A zero mass or inertia component, which KHR reads as infinite.
    MassZeroInfinite = "MASS_ZERO_INFINITE", Info, KHR, "seed 002 Motions",
        "A value of zero in mass or any component of inertiaDiagonal should be understood to represent a value of infinity.", "{property} is 0: infinite";
    /// A shape with a zero extent: legal, but it has no volume.
    ShapeDegenerate = "SHAPE_DEGENERATE", Info, PHYSICS, "KHR_collision_shapes / OMI_collider schemas (minimum 0)",
        "A shape of zero size is legal but encloses no volume.", "shape is degenerate: {detail}";
    /// A shape's `type` and its parameter object disagree (none, several, or the wrong one).
    ShapeParametersMismatch = "SHAPE_PARAMETERS_MISMATCH", Error, PHYSICS_ALL, "KHR_collision_shapes shape schema (oneOf); seed 001 example",
        "A shape must hold exactly one parameter object, the one its type names.", "shape type {type} does not match its parameters: {detail}";
    /// A mesh used as a collision shape has a primitive that is not triangles.
    MeshShapeNotTriangles = "MESH_SHAPE_NOT_TRIANGLES", Error, PHYSICS_ALL, "seed 004 Hull/Trimesh; KHR_collision_shapes trimesh",
        "The glTF mesh used by a mesh shape MUST be a trimesh.", "primitive mode {mode} is not TRIANGLES (4)";
    /// A mesh shape has no triangle at all.
    MeshShapeEmpty = "MESH_SHAPE_EMPTY", Error, PHYSICS_ALL, "seed 004 Hull/Trimesh",
        "Valid hulls and trimesh shapes must contain at least one triangle.", "mesh has no triangle";
    /// A mesh shape's mesh has more than one primitive.
    MeshShapeMultiplePrimitives = "MESH_SHAPE_MULTIPLE_PRIMITIVES", Warning, OMI_ALL, "seed 004 Hull/Trimesh",
        "The mesh should be made of only one glTF mesh primitive.", "mesh has {count} primitives";
    /// A hull with more than 255 points.
    HullTooManyPoints = "HULL_TOO_MANY_POINTS", Warning, OMI, "seed 004 Hull",
        "The final hull shape should have no more than 255 points in total.", "hull has {count} points";
    /// A hull with fewer than four points has no volume.
    HullFewPoints = "HULL_FEW_POINTS", Info, OMI_ALL, "seed 004 Hull",
        "Hulls are recommended to have at least four points so that they have 3D volume.", "hull has {count} points";
    /// A limit whose minimum exceeds its maximum.
    LimitMinAboveMax = "LIMIT_MIN_ABOVE_MAX", Error, PHYSICS_ALL, "seed 002 Joints; seed 000 Lower/Upper Limit",
        "The lower limit must be less than or equal to the upper limit, otherwise the constraint is invalid.", "minimum {min} is greater than maximum {max}";
    /// An axis index outside 0..=2.
    AxisOutOfRange = "AXIS_OUT_OF_RANGE", Error, PHYSICS_ALL, "seed 002 Joints; seed 000 Linear/Angular Axes",
        "Axis indices must be in the range 0 to 2.", "axis {axis} is not 0, 1 or 2";
    /// An axis listed twice in one limit.
    AxisDuplicate = "AXIS_DUPLICATE", Error, PHYSICS_ALL, "KHR joint_limit schema (uniqueItems)",
        "An axis may be listed only once per limit.", "axis {axis} is listed more than once";
    /// A limit stiffness that is zero or negative.
    StiffnessNotPositive = "STIFFNESS_NOT_POSITIVE", Error, KHR_OMI23, "seed 000 Stiffness; seed 002 Joints",
        "Limit stiffness must be positive (omit it for a hard limit).", "stiffness {value} is not positive";
    /// A damping below zero.
    DampingNegative = "DAMPING_NEGATIVE", Error, PHYSICS_ALL, "seed 000 Damping; KHR joint_limit/joint_drive schemas",
        "Damping must be non-negative.", "damping {value} is negative";

    // ----- KHR_physics_rigid_bodies + KHR_collision_shapes (seed 002) -------------------------
    /// `inertiaOrientation` is not a unit quaternion.
    KhrInertiaOrientationNotUnit = "KHR_INERTIA_ORIENTATION_NOT_UNIT", Error, KHR_ALL, "seed 002 Motions",
        "inertiaOrientation is the quaternion rotating from inertia major axis space to body space.", "inertiaOrientation has length {length}, not 1";
    /// A limit with both `linearAxes` and `angularAxes`.
    KhrLimitAxesBoth = "KHR_LIMIT_AXES_BOTH", Error, KHR_ALL, "seed 002 Joints",
        "Each limit must provide either linearAxes or angularAxes.", "limit has both linearAxes and angularAxes";
    /// A limit with neither `linearAxes` nor `angularAxes`.
    KhrLimitAxesMissing = "KHR_LIMIT_AXES_MISSING", Error, KHR_ALL, "seed 002 Joints",
        "Each limit must provide either linearAxes or angularAxes.", "limit has neither linearAxes nor angularAxes";
    /// A physics joint description without limits.
    KhrJointNoLimits = "KHR_JOINT_NO_LIMITS", Error, KHR, "seed 002 Joints",
        "A joint description must contain one or more joint_limit objects.", "joint description has no limit";
    /// A joint neither of whose frames belongs to a body with motion.
    KhrJointNoMotion = "KHR_JOINT_NO_MOTION", Warning, KHR_ALL, "seed 002 Joints",
        "In order for the joint to have any effect on the simulation, at least one of the pair of nodes or its ancestors should have motion properties.", "neither node {node} nor connected node {connected} is part of a body with motion";
    /// Both `collideWithSystems` and `notCollideWithSystems` on one filter.
    KhrFilterBothLists = "KHR_FILTER_BOTH_LISTS", Error, KHR_ALL, "seed 002 Collision Filtering; collision_filter schema (not required both)",
        "Only one of collideWithSystems and notCollideWithSystems should be specified per object.", "filter gives both collideWithSystems and notCollideWithSystems";
    /// A trigger with both `shape` and `nodes`, or `nodes` with a `collisionFilter`.
    KhrTriggerShapeAndNodes = "KHR_TRIGGER_SHAPE_AND_NODES", Error, KHR_ALL, "seed 002 Triggers; trigger schema (anyOf)",
        "A trigger is either a single shape (with an optional filter) or a compound of nodes (without a filter).", "trigger gives {detail}";
    /// A trigger with neither `shape` nor `nodes`.
    KhrTriggerEmpty = "KHR_TRIGGER_EMPTY", Error, KHR_ALL, "seed 002 Triggers; trigger schema (anyOf)",
        "A trigger must specify a shape or a set of nodes.", "trigger has neither shape nor nodes";
    /// A compound trigger member that is not a descendant of the trigger node.
    KhrTriggerNodeNotDescendant = "KHR_TRIGGER_NODE_NOT_DESCENDANT", Error, KHR_ALL, "seed 002 Triggers",
        "The nodes in this array must be descendent nodes.", "node {node} is not a descendant of the compound trigger's node";
    /// A compound trigger member without a `trigger` property.
    KhrTriggerNodeNotTrigger = "KHR_TRIGGER_NODE_NOT_TRIGGER", Error, KHR_ALL, "seed 002 Triggers",
        "The nodes in this array must have trigger properties.", "node {node} has no trigger";

    // ----- KHR_physics_rigid_bodies (PR #2424) + KHR_implicit_shapes (PR #2370): khr-2025 ------
    // ----- and its January-2026 revision (geometry names a mesh): khr-2026 --------------------
    /// A `geometry` with both `shape` and `node` (`khr-2025`).
    KhrGeometryShapeAndNode = "KHR_GEOMETRY_SHAPE_AND_NODE", Error, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; geometry schema (oneOf)",
        "Exactly one of shape or node should be provided.", "geometry gives both shape and node";
    /// A `geometry` with no shape: neither `shape` nor `node` (`khr-2025`), nor `mesh` (`khr-2026`).
    KhrGeometryEmpty = "KHR_GEOMETRY_EMPTY", Error, KHR25, "KHR_physics_rigid_bodies Geometry; geometry schema (oneOf)",
        "Exactly one of shape or node (2026: mesh) should be provided.", "geometry gives neither shape nor {other}";
    /// A `khr-2026` `geometry` with more than one of `shape`, `mesh` and `node`.
    KhrGeometryAmbiguous = "KHR_GEOMETRY_AMBIGUOUS", Error, KHR26, "KHR_physics_rigid_bodies Geometry (January 2026: Babylon.js loader 0.6.0, Blender exporter 0.3.0); physics-cts [D-GEOMETRY-MESH]",
        "A geometry gives exactly one of shape or mesh.", "geometry gives {given}: exactly one of shape and mesh is read";
    /// A `node` geometry in a `khr-2026` document: the previous revision's form, read by its
    /// rule [D-GEOMETRY-NODE-2026].
    KhrGeometryNode2025 = "KHR_GEOMETRY_NODE_2025", Warning, KHR26, "KHR_physics_rigid_bodies Geometry (January 2026); physics-cts [D-GEOMETRY-NODE-2026]",
        "Since January 2026 a geometry names a mesh; a node geometry is the 2025 form.", "a node geometry is the khr-2025 form (2026 names a mesh): read by the 2025 rule";
    /// A `khr-2026` mesh geometry whose mesh some node draws with a skin: the geometry is the
    /// mesh at its bind pose [D-GEOMETRY-MESH].
    KhrGeometryMeshUnskinned = "KHR_GEOMETRY_MESH_UNSKINNED", Info, KHR26, "KHR_physics_rigid_bodies Geometry (January 2026); physics-cts [D-GEOMETRY-MESH]",
        "A mesh geometry has no node, so no skin: its vertices are the mesh's as stored.", "mesh {mesh} is drawn skinned by node {node}; as a geometry it is read unskinned (its bind pose)";
    /// A node geometry whose node and descendants carry no mesh: there is nothing to collide with.
    KhrGeometryNoMesh = "KHR_GEOMETRY_NO_MESH", Warning, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry",
        "The geometry should be determined by the mesh properties on the referenced node, including any child nodes.", "node {node} and its descendants have no mesh: the geometry is empty";
    /// A skinned node geometry whose geometry node's rest world transform is singular: the
    /// skin cannot be brought into its frame and is not applied [D-GEOMETRY-NODE].
    KhrGeometryDeformed = "KHR_GEOMETRY_DEFORMED", Warning, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; DESIGN.md [D-GEOMETRY-NODE]",
        "Implementations should include any mesh deformation due to use of the skin or weights properties.", "node {node} has a skin, but the geometry node's rest world transform is singular: the reference reads its mesh unskinned";
    /// A primitive of a skinned node geometry without JOINTS_0 or WEIGHTS_0.
    KhrSkinAttributeMissing = "KHR_SKIN_ATTRIBUTE_MISSING", Error, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; glTF 2.0 §3.7.3.3 (skinned mesh attributes)",
        "A skinned mesh primitive must have JOINTS_0 and WEIGHTS_0 attributes.", "the primitive of skinned node {node} has no {attribute}: its mesh is left out of the geometry";
    /// A skin accessor of the wrong type or count: JOINTS_n (VEC4 of unsigned byte or short),
    /// WEIGHTS_n (VEC4 of float or normalized unsigned byte or short), one element per vertex;
    /// inverseBindMatrices (MAT4 of float) with fewer elements than joints.
    KhrSkinAccessorInvalid = "KHR_SKIN_ACCESSOR_INVALID", Error, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; glTF 2.0 §3.7.3.3, skin schema (inverseBindMatrices)",
        "JOINTS_n and WEIGHTS_n are VEC4 per vertex; inverseBindMatrices holds a float MAT4 for every joint.", "{detail}: the skinned mesh is left out of the geometry";
    /// A JOINTS_n value not below the number of the skin's joints.
    KhrSkinJointOutOfRange = "KHR_SKIN_JOINT_OUT_OF_RANGE", Error, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; glTF 2.0 §3.7.3.3 (joint indices)",
        "The values of JOINTS_n are indices into the skin's joints.", "vertex {vertex} names joint {joint}, the skin has {count}: the skinned mesh is left out of the geometry";
    /// Skin weights of a vertex whose sum is off 1 by more than 1e-3 [D-GEOMETRY-NODE].
    KhrSkinWeightsNotNormalized = "KHR_SKIN_WEIGHTS_NOT_NORMALIZED", Warning, KHR25_ONLY, "KHR_physics_rigid_bodies Geometry; glTF 2.0 §3.7.3.3 (weights sum to one)",
        "The linear sum of a vertex's joint weights should be 1.", "the weights of vertex {vertex} sum to {sum}: divided by their sum";
    /// A morph target of a morphed node geometry whose POSITION is not a VEC3 per vertex, or
    /// morph weights whose number is not the number of targets.
    KhrMorphTargetInvalid = "KHR_MORPH_TARGET_INVALID", Error, KHR25, "KHR_physics_rigid_bodies Geometry; glTF 2.0 §3.7.2.2 (morph targets)",
        "Morph target attributes have the base attribute's type and count; there is one weight per target.", "{detail}: the morphed mesh is left out of the geometry";
    /// A degenerate implicit shape (a zero size, radius or height; both radii of a capsule or cylinder 0).
    KhrShapeDegenerate = "KHR_SHAPE_DEGENERATE", Error, KHR25, "KHR_implicit_shapes Shapes; shape schemas (exclusiveMinimum)",
        "Degenerate shapes are prohibited.", "shape is degenerate: {detail}";
    /// A shape on a node whose world scale is zero on all three axes: disabled.
    KhrShapeDisabled = "KHR_SHAPE_DISABLED", Info, KHR25, "KHR_physics_rigid_bodies Geometry",
        "A shape referenced by a node whose scale is zero on all three axes should be considered disabled.", "node {node} has zero scale: its {what} is disabled";
    /// A mass or inertia component of 0: the schema says invalid, the prose infinite [D-MASS-ZERO-SCHEMA].
    KhrMassZero = "KHR_MASS_ZERO", Warning, KHR25, "KHR_physics_rigid_bodies Motions; motion schema (exclusiveMinimum); DESIGN.md [D-MASS-ZERO-SCHEMA]",
        "A value of zero in mass or any of the components of inertiaDiagonal should be understood to represent a value of infinity.", "{property} is 0: below the schema's exclusive minimum, read as infinite";
    /// A drive gain without its target (the schema's dependencies): nothing says what to reach.
    KhrDriveDependency = "KHR_DRIVE_DEPENDENCY", Error, KHR25, "joint.drive schema (dependencies)",
        "positionTarget and stiffness come together, velocityTarget and damping come together.", "{property} is given without {needs}";
    /// A drive target without its gain: the schema's dependencies say invalid, but its own
    /// default gain of 0 makes the target harmless (it has no effect) [D-SCHEMA-HARMLESS].
    KhrDriveTargetWithoutGain = "KHR_DRIVE_TARGET_WITHOUT_GAIN", Warning, KHR25, "joint.drive schema (dependencies; stiffness and damping default 0); physics-cts [D-SCHEMA-HARMLESS]",
        "A target without its gain is read with the schema's default gain of 0: the target has no effect.", "{property} is given without {needs}: read with {needs} 0, the target has no effect";

    // ----- OMI_physics_body / OMI_physics_shape / OMI_collider / OMI_physics_joint ------------
    /// An OMI_collider capsule shorter than its diameter.
    OmiCapsuleTooShort = "OMI_CAPSULE_TOO_SHORT", Error, OMI_23_24, "seed 004 Capsule",
        "The height of the capsule must be at least twice as much as the radius.", "capsule height {height} is less than twice the radius {radius}";
    /// A hull or trimesh without a mesh.
    OmiMeshMissing = "OMI_MESH_MISSING", Error, OMI_ALL, "seed 004 Hull/Trimesh",
        "Hulls and trimesh shapes are defined with a mesh property with an index of a mesh.", "{type} shape has no mesh";
    /// A trimesh used as a trigger.
    OmiTriggerTrimesh = "OMI_TRIGGER_TRIMESH", Warning, OMI_ALL, "seed 004 Trimesh",
        "Trimesh shapes will not work reliably with isTrigger.", "trimesh shape is a trigger";
    /// A collider node with a scale.
    OmiColliderScaled = "OMI_COLLIDER_SCALED", Warning, OMI_ALL, "seed 004 Collider Types",
        "It is discouraged to scale collider nodes since this can cause problems in some physics engines.", "collider node has scale {scale}";
    /// A body without any shape below it.
    OmiBodyWithoutShapes = "OMI_BODY_WITHOUT_SHAPES", Warning, OMI, "seed 001 Overview",
        "Each glTF node with OMI_physics_body should have one or many OMI_physics_shape glTF node descendants.", "body has no shape";
    /// A non-symmetric `inertiaTensor`.
    OmiInertiaNotSymmetric = "OMI_INERTIA_NOT_SYMMETRIC", Error, OMI, "seed 001 Inertia Tensor",
        "The inertia tensor matrix is a symmetric matrix.", "inertiaTensor is not symmetric: [{i}] = {a}, [{j}] = {b}";
    /// A joint node without constraints.
    OmiJointNoConstraints = "OMI_JOINT_NO_CONSTRAINTS", Error, OMI, "seed 000 Overview",
        "Each physics joint node must reference one or more joint constraints.", "joint node references no constraint";
    /// A joint constraint constraining no axis.
    OmiConstraintNoAxes = "OMI_CONSTRAINT_NO_AXES", Warning, OMI, "seed 000 Joint Constraint Property Summary",
        "A joint constraint should define at least one linear axis or one angular axis.", "constraint constrains no axis";
    /// `nodeA` or `nodeB` is not a physics body.
    OmiJointNotBody = "OMI_JOINT_NOT_BODY", Error, OMI, "seed 000 Node A and Node B",
        "A connected node cannot be null, cannot be a non-body.", "node {node} is not an OMI_physics_body";
    /// `nodeA` or `nodeB` is a trigger body.
    OmiJointTriggerBody = "OMI_JOINT_TRIGGER_BODY", Error, OMI, "seed 000 Node A and Node B",
        "A connected node cannot be a trigger body.", "node {node} is a trigger body";
    /// `nodeA == nodeB`.
    OmiJointSameBody = "OMI_JOINT_SAME_BODY", Error, OMI, "seed 000 Node A and Node B",
        "Each of these properties defines one of two bodies used by the joint.", "nodeA and nodeB are both node {node}";
    /// Neither connected body is rigid or vehicle.
    OmiJointNoRigidBody = "OMI_JOINT_NO_RIGID_BODY", Error, OMI, "seed 000 Node A and Node B",
        "At least one of the connected nodes must be a physics body using rigid body physics (rigid or vehicle).", "neither {a} nor {b} is rigid or vehicle";
    /// A joint node that also carries a mesh, camera, light, collider or body.
    OmiJointNodeNotAlone = "OMI_JOINT_NODE_NOT_ALONE", Warning, OMI, "seed 000 Overview",
        "A joint should be on its own glTF node, it should not be on the same node as a mesh, camera, light, collider, physics body.", "joint node also has {what}";

    // ----- OMI_physics_body / _shape / _joint, omi-2024 and omi-2025 (issue 20) ---------------
    /// A capsule or cylinder key of the other revision (`radius` under omi-2025, `radiusTop` or
    /// `radiusBottom` under omi-2024): ignored, the default is used.
    OmiShapeOtherRevision = "OMI_SHAPE_OTHER_REVISION", Warning, OMI_24_25, "OMI_physics_shape 807ce4b / df53422 Property Summary",
        "Capsules and cylinders have radius (omi-2024) or radiusBottom and radiusTop (omi-2025), not both conventions.", "{key} is an {other} key, ignored under {profile}";
    /// A capsule whose size depends on the revision, in a document nothing else dates.
    OmiCapsuleAmbiguous = "OMI_CAPSULE_AMBIGUOUS", Warning, OMI_24_25, "physics-cts [D-OMI-REVISION]",
        "A capsule with height but no radius key reads differently under omi-2024 (full height) and omi-2025 (cap-centre distance); it is read as omi-2025.", "capsule read as omi-2025: {reading_2025}; as omi-2024 it would be {reading_2024}";
    /// A tapered capsule or cylinder.
    OmiShapeTapered = "OMI_SHAPE_TAPERED", Warning, OMI_2025, "OMI_physics_shape df53422 Capsule/Cylinder",
        "The radiusBottom and radiusTop properties are recommended to be set to the same value.", "radiusBottom {bottom} differs from radiusTop {top}: a tapered shape";
    /// `motion.mass` is 0, which the texts give no meaning.
    OmiMassZero = "OMI_MASS_ZERO", Warning, OMI_24_25, "physics-cts [D-OMI-INERTIA]",
        "The mass of this physics body in kilograms (default 1); 0 has no meaning in OMI and is left to the engine.", "mass is 0: left to the engine";
    /// An `inertiaDiagonal` with some, not all, components zero.
    OmiInertiaPartlyZero = "OMI_INERTIA_PARTLY_ZERO", Warning, OMI_24_25, "OMI_physics_body motion schema (inertiaDiagonal); physics-cts [D-OMI-INERTIA]",
        "If zero or not specified, the inertia should be calculated automatically.", "inertiaDiagonal {value} is partly zero: the engine computes the whole inertia";
    /// `inertiaOrientation` is not a unit quaternion.
    OmiInertiaOrientationNotUnit = "OMI_INERTIA_ORIENTATION_NOT_UNIT", Error, OMI_24_25, "OMI_physics_body motion schema (inertiaOrientation)",
        "The inertia orientation as a Quaternion.", "inertiaOrientation has length {length}, not 1";
    /// A collider without a shape (absent or -1).
    OmiColliderShapeMissing = "OMI_COLLIDER_SHAPE_MISSING", Warning, OMI_24_25, "OMI_physics_body collider schema (shape default -1)",
        "If a node has the collider property defined, it is a solid collider node: it needs a shape.", "collider has no shape: ignored";
    /// A trigger with neither `shape` nor `nodes`: the schema's anyOf, broken by the examples
    /// (`two_boxes`, `indirect_children` write `trigger: {}` above their trigger shapes), so a
    /// warning: it adds nothing [D-OMI-EXAMPLES].
    OmiTriggerEmpty = "OMI_TRIGGER_EMPTY", Warning, OMI_24_25, "OMI_physics_body trigger schema (anyOf); physics-cts [D-OMI-EXAMPLES]",
        "A trigger gives a shape or, for a compound trigger, nodes; one with neither adds nothing.", "trigger has neither shape nor nodes: it adds nothing";
    /// A trigger with both `shape` and `nodes`, or `nodes` with a `collisionFilter`.
    OmiTriggerShapeAndNodes = "OMI_TRIGGER_SHAPE_AND_NODES", Error, OMI_24_25, "OMI_physics_body trigger schema (anyOf)",
        "A trigger is either a shape (with an optional filter) or a compound of nodes (without a filter).", "trigger gives {detail}";
    /// A compound trigger lists a node twice.
    OmiTriggerNodeDuplicate = "OMI_TRIGGER_NODE_DUPLICATE", Error, OMI_24_25, "OMI_physics_body trigger schema (uniqueItems)",
        "The nodes of a compound trigger are unique.", "node {node} is listed more than once";
    /// A compound trigger member that is not a descendant of the trigger node.
    OmiTriggerNodeNotDescendant = "OMI_TRIGGER_NODE_NOT_DESCENDANT", Error, OMI_24_25, "OMI_physics_body trigger schema (nodes)",
        "For compound triggers, the set of descendant glTF nodes with a trigger property.", "node {node} is not a descendant of the compound trigger's node";
    /// A compound trigger member without a `trigger` property.
    OmiTriggerNodeNotTrigger = "OMI_TRIGGER_NODE_NOT_TRIGGER", Error, OMI_24_25, "OMI_physics_body trigger schema (nodes)",
        "For compound triggers, the set of descendant glTF nodes with a trigger property.", "node {node} has no trigger";
    /// A filter with both `collideWithSystems` and `notCollideWithSystems`.
    OmiFilterBothLists = "OMI_FILTER_BOTH_LISTS", Error, OMI_24_25, "OMI_physics_body collision_filter schema (not required both)",
        "A collision filter gives collideWithSystems or notCollideWithSystems, not both.", "filter gives both collideWithSystems and notCollideWithSystems";
    /// Motion, collider or trigger share one node.
    OmiBodySameNode = "OMI_BODY_SAME_NODE", Info, OMI_24_25, "OMI_physics_body Property Summary",
        "Each of these properties are recommended to be defined on separate nodes.", "{properties} share one node";
    /// A joint node without a dynamic body ancestor, whose connected node is in a dynamic body:
    /// the text's must, broken by the examples (`pendulum_balls`, `rope_railing`,
    /// `swing_and_slide` hang joints from a static body), so a warning [D-OMI-EXAMPLES].
    OmiJointNoDynamicAncestor = "OMI_JOINT_NO_DYNAMIC_ANCESTOR", Warning, OMI_24_25, "OMI_physics_joint Overview; physics-cts [D-OMI-EXAMPLES]",
        "The joint node must have a dynamic body ancestor node (OMI_physics_body motion type dynamic) for the joint to function.", "joint node {node} has no dynamic body ancestor (its connected node's body is dynamic)";
    /// A joint neither of whose ends is in a dynamic body.
    OmiJointNoDynamicBody = "OMI_JOINT_NO_DYNAMIC_BODY", Error, OMI_24_25, "OMI_physics_joint Overview",
        "A joint constrains the relative motion of dynamic bodies, or a dynamic body to a non-dynamic body: one end must be in a dynamic body.", "neither joint node {node} nor connected node {connected} is in a dynamic body";
    /// `motion` without its required `type` (the `triggers` example writes `motion: {mass: 1}`).
    OmiMotionTypeMissing = "OMI_MOTION_TYPE_MISSING", Warning, OMI_24_25, "OMI_physics_body motion schema (required type); physics-cts [D-OMI-EXAMPLES]",
        "The motion type is required; a node with motion is driven by physics, so a motion without a type is read as dynamic.", "motion has no type: read as dynamic";
    /// A joint on a node that also carries a mesh, camera, light, body or shape.
    OmiJointNodeShared = "OMI_JOINT_NODE_SHARED", Error, OMI_24_25, "OMI_physics_joint Overview",
        "A joint must be on its own glTF node, it should not be on the same node as a mesh, camera, light, physics body, physics shape, etc.", "joint node also has {what}";
    /// `connectedNode` is not part of any physics body.
    OmiJointConnectedNoBody = "OMI_JOINT_CONNECTED_NO_BODY", Error, OMI_24_25, "OMI_physics_joint Connected Node",
        "The connected node must be a descendant of some kind of physics body node (OMI_physics_body motion of any type).", "connected node {node} is not part of a body with motion";
    /// Both frames of a joint belong to one body.
    OmiJointConnectedSameBody = "OMI_JOINT_CONNECTED_SAME_BODY", Warning, OMI_24_25, "OMI_physics_joint Overview",
        "A joint node is a descendant of one physics body that references another glTF node, joining them together.", "joint node and connected node {node} both belong to body node {body}: the joint has no effect";
    /// A joint settings object with neither limits nor drives.
    OmiJointSettingsEmpty = "OMI_JOINT_SETTINGS_EMPTY", Warning, OMI_24_25, "OMI_physics_joint Joint Settings",
        "At least one array should have contents, or the joint settings object is useless within this extension.", "joint settings have no limit and no drive";
    /// A limit with neither linear nor angular axes.
    OmiLimitNoAxes = "OMI_LIMIT_NO_AXES", Error, OMI_24_25, "OMI_physics_joint Linear Axes / Angular Axes",
        "At least one of linearAxes or angularAxes must be set to a valid non-empty value. If both are empty or not present, the joint limit is invalid.", "limit has no linear and no angular axis";
    /// A limit with neither `min` nor `max`.
    OmiLimitUnbounded = "OMI_LIMIT_UNBOUNDED", Warning, OMI_24_25, "OMI_physics_joint Joint Limits",
        "At least one of the min or max must be set, or the limit is useless within this extension.", "limit has neither min nor max: it limits nothing";
    /// A negative limit stiffness or drive `maxForce`, which the text reads as infinite.
    OmiNegativeSentinel = "OMI_NEGATIVE_SENTINEL", Info, OMI_24_25, "OMI_physics_joint Stiffness / Max Force (the schemas say minimum 0)",
        "If not specified or negative, the limit should be infinitely stiff; the drive is not force-limited.", "{property} {value} is negative: read as {reading}";

    // ----- VRMC_constraints-1.0 (seed 003) ------------------------------------------------------
    /// The legacy key `VRMC_constraints` was read.
    VrmLegacyKey = "VRM_LEGACY_KEY", Warning, VRM, "seed 003 glTF Schema Updates",
        "A constraint is described by adding a VRMC_constraints-1.0 extension to a node.", "key {key} read as VRMC_constraints-1.0";
    /// A space written in upper case.
    VrmSpaceUppercase = "VRM_SPACE_UPPERCASE", Warning, VRM, "seed 003 sourceSpace/destinationSpace",
        "Allowed values: local, model.", "space {value} read as {lower}";
    /// A constraint object with none of position, rotation, aim.
    VrmNoConstraint = "VRM_NO_CONSTRAINT", Error, VRM, "seed 003 constraints",
        "You must specify one of them.", "constraint has none of position, rotation, aim";
    /// More than one of position, rotation, aim on one node.
    VrmMultipleConstraints = "VRM_MULTIPLE_CONSTRAINTS", Error, VRM, "seed 003 constraints",
        "You must specify one of them and cannot specify more than one.", "constraint has {kinds}";
    /// The source is the destination.
    VrmSourceIsDestination = "VRM_SOURCE_IS_DESTINATION", Error, VRM, "seed 003 Sources",
        "The source must not be the destination itself.", "source {source} is the destination";
    /// The source is the destination's parent.
    VrmSourceIsParent = "VRM_SOURCE_IS_PARENT", Error, VRM, "seed 003 Sources",
        "The source must not be a parent of the destination.", "source {source} is the destination's parent";
    /// The source is a descendant of the destination.
    VrmSourceBelowDestination = "VRM_SOURCE_BELOW_DESTINATION", Error, VRM, "DESIGN.md [D-VRM-ORDER]",
        "A source below the destination moves with the constraint's output: invalid.", "source {source} is a descendant of the destination";
    /// Constraints depend on each other in a cycle.
    VrmCycle = "VRM_CYCLE", Error, VRM, "seed 003 Sources",
        "The source must not make a circular dependency between two or more constraints.", "constraints form a cycle through nodes {nodes}";
    /// A weight outside [0, 1].
    VrmWeightRange = "VRM_WEIGHT_RANGE", Error, VRM, "DESIGN.md [D-VRM-RANGE]",
        "Weight must be within [0, 1].", "weight {value} is outside [0, 1]";
    /// A zero-length aim vector.
    VrmAimZero = "VRM_AIM_ZERO", Error, VRM, "DESIGN.md [D-VRM-RANGE]",
        "aimVector must not be zero.", "aimVector is zero";
    /// An aim vector parallel to the up vector (or a zero up vector).
    VrmAimParallelUp = "VRM_AIM_PARALLEL_UP", Error, VRM, "DESIGN.md [D-VRM-RANGE]",
        "aimVector must not be parallel to upVector.", "aimVector {aim} is parallel to upVector {up}";

    // ----- VRMC_node_constraint 1.0 --------------------------------------------------------------
    /// `specVersion` absent.
    Vrm1SpecVersionMissing = "VRM1_SPEC_VERSION_MISSING", Error, VRM1, "VRMC_node_constraint 1.0 specVersion",
        "specVersion: Required: Yes.", "specVersion is missing; the constraint is not read";
    /// `specVersion` "1.0-beta": read as 1.0 [D-VRM1-SPEC-VERSION].
    Vrm1SpecVersionBeta = "VRM1_SPEC_VERSION_BETA", Warning, VRM1, "VRMC_node_constraint 1.0 specVersion",
        "The value will be \"1.0\".", "specVersion \"1.0-beta\" read as \"1.0\"";
    /// `specVersion` neither "1.0" nor "1.0-beta" [D-VRM1-SPEC-VERSION].
    Vrm1SpecVersionUnknown = "VRM1_SPEC_VERSION_UNKNOWN", Error, VRM1, "VRMC_node_constraint 1.0 specVersion",
        "The value will be \"1.0\".", "specVersion {value} is not 1.0; the constraint is not read";
    /// A constraint object with none of roll, aim, rotation.
    Vrm1NoConstraint = "VRM1_NO_CONSTRAINT", Error, VRM1, "VRMC_node_constraint 1.0 constraint",
        "It MUST have one of either roll, aim, or rotation.", "constraint has none of roll, aim, rotation";
    /// More than one of roll, aim, rotation.
    Vrm1MultipleConstraints = "VRM1_MULTIPLE_CONSTRAINTS", Error, VRM1, "VRMC_node_constraint 1.0 constraint",
        "It MUST have one of either roll, aim, or rotation (schema: oneOf).", "constraint has {kinds}";
    /// The source is the destination.
    Vrm1SourceIsDestination = "VRM1_SOURCE_IS_DESTINATION", Error, VRM1, "VRMC_node_constraint 1.0 Sources",
        "The source must not be the destination itself.", "source {source} is the destination";
    /// Constraints depend on each other in a cycle (a source below its destination included).
    Vrm1Cycle = "VRM1_CYCLE", Error, VRM1, "VRMC_node_constraint 1.0 Sources",
        "The source must not make a circular dependency between two or more constraints.", "constraints form a circular dependency through nodes {nodes}";
    /// A weight outside [0, 1].
    Vrm1WeightRange = "VRM1_WEIGHT_RANGE", Error, VRM1, "VRMC_node_constraint 1.0 Weight",
        "Weight is a number in the range of [0.0 - 1.0].", "weight {value} is outside [0, 1]";

    // ----- profiles -----------------------------------------------------------------------------
    /// The document uses no extension of any profile.
    ProfileNone = "PROFILE_NONE", Info, ALL, "physics-cts profiles",
        "A document without physics or constraint extensions is validated as core glTF only.", "no physics or constraint extension found";
    /// Extensions of more than one profile family; only one is read.
    ProfileMixed = "PROFILE_MIXED", Warning, ALL, "physics-cts profiles",
        "A document is read under one profile; extensions of other profile families are ignored.", "extensions of {others} are ignored under profile {profile}";
}

/// Codes whose rule is the suite's own (a resource limit, a security rule, a profile rule, or
/// a documented decision where the spec is silent), not a spec's MUST or SHOULD.
const SUITE_RULES: [Code; 12] = [
    Code::FileTooLarge,
    Code::NotARegularFile,
    Code::DocumentTooLarge,
    Code::UriEscapes,
    Code::OmiCapsuleAmbiguous,
    Code::OmiMassZero,
    Code::VrmSourceBelowDestination,
    Code::VrmWeightRange,
    Code::VrmAimZero,
    Code::VrmAimParallelUp,
    Code::ProfileNone,
    Code::ProfileMixed,
];

impl Code {
    /// For a core code, the Khronos glTF-Validator's codes for the same rule and their
    /// severity, or why there is none (`""` for extension and profile codes). A core code is an
    /// error only where the validator reports an error too, and a warning where it warns.
    pub fn gltf_validator(self) -> &'static str {
        match self {
            Code::JsonSyntax => "INVALID_JSON (error)",
            Code::FileTooLarge | Code::NotARegularFile | Code::DocumentTooLarge => {
                "none: a limit of this reader"
            }
            Code::GlbHeader => {
                "GLB_INVALID_MAGIC, GLB_INVALID_VERSION, GLB_LENGTH_TOO_SMALL, GLB_LENGTH_MISMATCH, GLB_UNEXPECTED_END_OF_HEADER (errors)"
            }
            Code::GlbChunk => {
                "GLB_CHUNK_TOO_BIG, GLB_CHUNK_LENGTH_UNALIGNED, GLB_UNEXPECTED_FIRST_CHUNK, GLB_UNEXPECTED_BIN_CHUNK, GLB_UNEXPECTED_END_OF_CHUNK_HEADER (errors)"
            }
            Code::GlbExtraData => "GLB_EXTRA_DATA (warning)",
            Code::GltfSchema => {
                "TYPE_MISMATCH, ARRAY_TYPE_MISMATCH, UNDEFINED_PROPERTY, INVALID_INDEX, NODE_MATRIX_TRS (errors)"
            }
            Code::GltfIndex => "UNRESOLVED_REFERENCE (error)",
            Code::GltfValue => {
                "VALUE_NOT_IN_RANGE, DUPLICATE_ELEMENTS, ACCESSOR_SPARSE_COUNT_OUT_OF_RANGE, ACCESSOR_INVALID_FLOAT (errors)"
            }
            Code::GltfValueNotInList => "VALUE_NOT_IN_LIST (warning)",
            Code::NodeCycle => "NODE_LOOP (error)",
            Code::NodeMultipleParents => "NODE_PARENT_OVERRIDE (error)",
            Code::NodeMatrixNotTrs => "NODE_MATRIX_NON_TRS (error)",
            Code::NodeRotationNotUnit => "ROTATION_NON_UNIT (error)",
            Code::ExtensionNotDeclared => "UNDECLARED_EXTENSION (error)",
            Code::ExtensionRequiredNotUsed => "UNUSED_EXTENSION_REQUIRED (error)",
            Code::ExtensionUnused => {
                "none: the validator says nothing of a declared extension never used"
            }
            Code::ExtensionUnknown => "UNSUPPORTED_EXTENSION (information)",
            Code::UriEscapes => {
                "none: this reader's security rule for `..` and links out of the folder (the validator reads such a file, IO_ERROR when it is missing); an absolute URI is URI_NOT_RELATIVE"
            }
            Code::UriNotRelative => "NON_RELATIVE_URI (warning)",
            Code::DataUriInvalid => "INVALID_URI, BUFFER_DATA_URI_MIME_TYPE_INVALID (errors)",
            Code::DataUriInGlb => "DATA_URI_GLB (warning)",
            Code::BufferUnreadable => "IO_ERROR, BUFFER_MISSING_GLB_DATA (errors)",
            Code::BufferNoData => "none: the validator says nothing of a buffer without uri",
            Code::BufferTooShort => "BUFFER_BYTE_LENGTH_MISMATCH (error)",
            Code::BufferViewBounds => "BUFFER_VIEW_TOO_LONG (error)",
            Code::AccessorBounds => "ACCESSOR_TOO_LONG (error)",
            Code::AccessorDataUnavailable => {
                "none: the validator does not read the physics extensions that need the data"
            }
            Code::MeshIndexOutOfRange => "ACCESSOR_INDEX_OOB (error)",
            _ => "",
        }
    }

    /// Look a code up by its stable id.
    pub fn from_id(id: &str) -> Option<Code> {
        Code::ALL.iter().copied().find(|c| c.id() == id)
    }

    /// Whether the rule is the suite's own rather than a spec's.
    pub fn is_suite_rule(self) -> bool {
        SUITE_RULES.contains(&self)
    }

    /// Whether the texts leave open if a reader accepts a file with this issue (with a
    /// warning) or refuses it: a value outside a schema's enum, a property the schema does not
    /// define, and the warnings where the published schema refuses what the prose or the
    /// official samples write (a KHR mass of 0 [D-MASS-ZERO-SCHEMA]; an OMI collider without a
    /// shape, a trigger with neither shape nor nodes, a motion without a type
    /// [D-OMI-EXAMPLES]), or its own defaults make harmless (a KHR drive target without its
    /// gain [D-SCHEMA-HARMLESS]). A reader applying the schema refuses the file, the reference
    /// accepts it: either conforms.
    pub fn leaves_outcome_open(self) -> bool {
        matches!(
            self,
            Code::EnumUnknown
                | Code::ExtUnexpectedProperty
                | Code::KhrMassZero
                | Code::KhrDriveTargetWithoutGain
                | Code::OmiColliderShapeMissing
                | Code::OmiTriggerEmpty
                | Code::OmiMotionTypeMissing
        )
    }

    /// The tier of a case whose expectation rests on this code: a suite rule is informative
    /// (the spec does not require it), a warning or info optional (a SHOULD), an error
    /// required (a MUST).
    pub fn tier(self) -> Tier {
        if self.is_suite_rule() {
            Tier::Informative
        } else if self.severity() != Severity::Error {
            Tier::Optional
        } else {
            Tier::Required
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl Serialize for Code {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Code {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Code::from_id(&id)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown issue code {id:?}")))
    }
}

/// One finding: a code, where (a JSON pointer into the document, RFC 6901) and a message.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Issue {
    pub code: Code,
    pub severity: Severity,
    pub pointer: String,
    pub message: String,
}

impl Issue {
    /// An issue whose message is the code's template; fill placeholders with [`Issue::arg`].
    pub fn new(code: Code, pointer: impl Into<String>) -> Issue {
        Issue {
            code,
            severity: code.severity(),
            pointer: pointer.into(),
            message: code.template().to_owned(),
        }
    }

    /// Replace the placeholder `{name}` in the message with `value`.
    #[must_use]
    pub fn arg(mut self, name: &str, value: impl fmt::Display) -> Issue {
        let placeholder = format!("{{{name}}}");
        self.message = self.message.replace(&placeholder, &value.to_string());
        self
    }
}

/// Escape one reference token for a JSON pointer (RFC 6901: `~` -> `~0`, `/` -> `~1`).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Append a reference token (a key or an index) to a JSON pointer. Pointers are built for
/// every element a reader visits, so this allocates once and escapes only when needed.
pub fn push_pointer(pointer: &str, token: impl Token) -> String {
    let mut out = String::with_capacity(pointer.len() + 16);
    out.push_str(pointer);
    out.push('/');
    token.push_to(&mut out);
    out
}

/// Append `token` to a JSON pointer as a reference token, escaped when it needs it (RFC 6901:
/// `~` as `~0`, `/` as `~1`); the usual token needs none and is copied as it is.
pub fn push_token(pointer: &mut String, token: &str) {
    if token.bytes().any(|b| matches!(b, b'~' | b'/')) {
        pointer.push_str(&escape_token(token));
    } else {
        pointer.push_str(token);
    }
}

/// A reference token of a JSON pointer: a key or an array index.
pub trait Token {
    /// Append the token's text to `out`, escaped as a reference token.
    fn push_to(&self, out: &mut String);
}

impl Token for str {
    fn push_to(&self, out: &mut String) {
        push_token(out, self);
    }
}

impl Token for String {
    fn push_to(&self, out: &mut String) {
        push_token(out, self);
    }
}

impl Token for usize {
    fn push_to(&self, out: &mut String) {
        // Decimal digits, last first.
        let mut digits = [0u8; 20];
        let mut n = *self;
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        out.extend(digits[at..].iter().map(|&d| char::from(d)));
    }
}

impl<T: Token + ?Sized> Token for &T {
    fn push_to(&self, out: &mut String) {
        (**self).push_to(out);
    }
}

/// Issues collected while reading one document.
#[derive(Clone, Debug, Default)]
pub struct Issues(pub Vec<Issue>);

impl Issues {
    pub fn push(&mut self, issue: Issue) {
        self.0.push(issue);
    }

    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|i| i.severity == Severity::Error)
    }

    pub fn into_vec(self) -> Vec<Issue> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suite's own rules are the codes whose spec reference names the suite (its limits,
    /// its decisions, `reference/DESIGN.md`), and tiers follow: those informative, the rest
    /// by severity.
    #[test]
    fn tiers_come_from_the_catalogue() {
        for code in Code::ALL {
            let spec = code.spec_reference();
            let suite = spec.starts_with("DESIGN.md") || spec.starts_with("physics-cts");
            assert_eq!(code.is_suite_rule(), suite, "{code}");
        }
        assert_eq!(Code::VrmWeightRange.tier(), Tier::Informative);
        assert!(Code::EnumUnknown.leaves_outcome_open());
        assert!(Code::ExtUnexpectedProperty.leaves_outcome_open());
        assert!(Code::KhrMassZero.leaves_outcome_open());
        assert!(Code::OmiMotionTypeMissing.leaves_outcome_open());
        assert!(!Code::ExtensionUnknown.leaves_outcome_open());
        assert!(!Code::OmiJointNoDynamicAncestor.leaves_outcome_open());
        assert!(!Code::NodeCycle.leaves_outcome_open());
        assert_eq!(Code::ProfileMixed.tier(), Tier::Informative);
        assert_eq!(Code::KhrShapeDegenerate.tier(), Tier::Required);
        let warning = Code::ALL
            .iter()
            .find(|c| c.severity() == Severity::Warning && !c.is_suite_rule())
            .expect("a spec warning");
        assert_eq!(warning.tier(), Tier::Optional);
    }

    #[test]
    fn ids_are_unique_screaming_snake_case() {
        let mut seen = std::collections::BTreeSet::new();
        for code in Code::ALL {
            assert!(seen.insert(code.id()), "duplicate id {}", code.id());
            assert!(
                code.id()
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
                "{}",
                code.id()
            );
            assert_eq!(Code::from_id(code.id()), Some(*code));
        }
    }

    #[test]
    fn arg_fills_placeholders() {
        let issue = Issue::new(Code::LimitMinAboveMax, "/x")
            .arg("min", 2)
            .arg("max", 1);
        assert_eq!(issue.message, "minimum 2 is greater than maximum 1");
        assert_eq!(issue.severity, Severity::Error);
    }

    #[test]
    fn pointer_tokens_are_escaped() {
        assert_eq!(push_pointer("/a", "b/c~d"), "/a/b~1c~0d");
        assert_eq!(push_pointer("/a", "~1"), "/a/~01");
        assert_eq!(push_pointer("", 7), "/7");
        assert_eq!(push_pointer("/nodes", "plain"), "/nodes/plain");
        assert_eq!(push_pointer("/n", String::from("a/b")), "/n/a~1b");
    }

    /// Indices are written as decimal text, as `Display` writes them.
    #[test]
    fn pointer_indices_are_decimal() {
        for i in [0, 9, 10, 99, 100, 1234567, usize::MAX].iter() {
            assert_eq!(push_pointer("/x", *i), format!("/x/{i}"));
            assert_eq!(push_pointer("/x", i), format!("/x/{i}"));
        }
        assert_eq!(push_pointer("", 0), "/0");
        assert_eq!(push_pointer("", usize::MAX), "/18446744073709551615");
    }
}
