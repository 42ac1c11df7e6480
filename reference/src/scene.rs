//! The canonical scene model: what every profile reads into.
//!
//! It keeps what differs in meaning between profiles (coupled KHR limits against per-axis OMI
//! limits, KHR's zero-means-infinite mass, capsule conventions), and forgets what differs only in
//! spelling. Indices are positions in the vectors of [`Scene`]; node ids are glTF node indices.
//! All numbers are `f64` and SI; quaternions are unit quaternions.

use std::collections::{BTreeMap, BTreeSet};

use nalgebra::{Matrix3, Matrix4, Translation3, UnitQuaternion, Vector3};
use serde::{Deserialize, Serialize};

use crate::profile::Profile;

/// A glTF node index.
pub type NodeId = usize;
/// Position in [`Scene::bodies`].
pub type BodyId = usize;
/// Position in [`Scene::shapes`].
pub type ShapeId = usize;
/// Position in [`Scene::materials`].
pub type MaterialId = usize;
/// Position in [`Scene::filters`].
pub type FilterId = usize;
/// A glTF mesh index.
pub type MeshId = usize;

/// A node's local transform as translation, rotation, scale (a matrix node is decomposed).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trs {
    pub translation: Vector3<f64>,
    pub rotation: UnitQuaternion<f64>,
    pub scale: Vector3<f64>,
}

impl Default for Trs {
    fn default() -> Self {
        Trs {
            translation: Vector3::zeros(),
            rotation: UnitQuaternion::identity(),
            scale: Vector3::new(1.0, 1.0, 1.0),
        }
    }
}

impl Trs {
    /// The 4x4 matrix T * R * S.
    pub fn matrix(&self) -> Matrix4<f64> {
        Translation3::from(self.translation).to_homogeneous()
            * self.rotation.to_homogeneous()
            * Matrix4::new_nonuniform_scaling(&self.scale)
    }
}

/// One node of the glTF hierarchy (after the forest check: at most one parent, no cycle).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Node {
    pub name: Option<String>,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// The rest pose: the TRS given in the file.
    pub rest: Trs,
    /// The node was given a `matrix` rather than TRS.
    pub from_matrix: bool,
    pub mesh: Option<MeshId>,
    pub has_camera: bool,
    /// Non-physics extensions on the node (e.g. `KHR_lights_punctual`).
    pub other_extensions: Vec<String>,
    /// The node is in the default scene (or in any scene when there is no default).
    pub in_scene: bool,
}

/// How a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum BodyKind {
    Static,
    Kinematic,
    Dynamic,
}

impl BodyKind {
    /// The serialised name (`static`, `kinematic`, `dynamic`), also the protocol's.
    pub fn name(self) -> &'static str {
        match self {
            BodyKind::Static => "static",
            BodyKind::Kinematic => "kinematic",
            BodyKind::Dynamic => "dynamic",
        }
    }
}

/// The body type an OMI file gave, recorded where the mapping to [`BodyKind`] loses information
/// (`character` -> kinematic, `vehicle` -> dynamic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OmiBodyType {
    Static,
    Kinematic,
    Character,
    Rigid,
    Vehicle,
    Trigger,
}

/// A scalar mass property as the file gives it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "value")]
pub enum MassValue {
    /// Not given: the engine computes it from the shapes.
    EngineComputes,
    /// KHR `0` [D-MASS-ZERO].
    Infinite,
    Finite(f64),
}

/// Inertia as the file gives it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Inertia {
    /// Not given (or OMI's all-zero tensor): the engine computes it.
    EngineComputes,
    /// KHR: principal moments (each possibly infinite) and the rotation from the principal
    /// axes to the body frame. The tensor is `R diag(d) R^T`.
    Principal {
        diagonal: [MassValue; 3],
        orientation: UnitQuaternion<f64>,
    },
    /// OMI: the full 3x3 tensor, row-major in the file.
    Tensor { tensor: Matrix3<f64> },
}

/// In which space a body's initial velocities are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum VelocitySpace {
    /// The body's local frame (KHR).
    Local,
    /// World space (OMI, decision [D-OMI-VELOCITY]).
    World,
}

/// A rigid body: a node with KHR `motion` or an OMI body that is not a trigger.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Body {
    pub node: NodeId,
    pub kind: BodyKind,
    /// OMI only: the type written in the file.
    pub omi_type: Option<OmiBodyType>,
    pub mass: MassValue,
    /// In the body's local frame; `None`: the engine computes it.
    pub center_of_mass: Option<Vector3<f64>>,
    pub inertia: Inertia,
    pub linear_velocity: Vector3<f64>,
    pub angular_velocity: Vector3<f64>,
    pub velocity_space: VelocitySpace,
    /// KHR `gravityFactor` (schema default 1).
    pub gravity_factor: f64,
}

/// A collision shape with the profile's defaults resolved [D-CAPSULE].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Shape {
    Sphere {
        radius: f64,
    },
    /// Full extents along x, y, z.
    Box {
        size: Vector3<f64>,
    },
    /// Along local +Y. `height` is the distance between the centres of the two caps (KHR
    /// convention); OMI's full height `h` is read as `h - 2 r`.
    Capsule {
        height: f64,
        radius_bottom: f64,
        radius_top: f64,
    },
    /// Along local +Y, `height` the full height.
    Cylinder {
        height: f64,
        radius_bottom: f64,
        radius_top: f64,
    },
    /// The convex hull of a mesh's vertices (KHR `convex`, OMI `hull`).
    Convex {
        mesh: MeshId,
    },
    /// The triangles of a mesh.
    Trimesh {
        mesh: MeshId,
    },
    /// KHR_implicit_shapes plane through the origin with normal +Y; `None` sizes: unbounded
    /// along that axis. Single-sided: the half-space below is solid. Fields in key order.
    Plane {
        double_sided: bool,
        size_x: Option<f64>,
        size_z: Option<f64>,
    },
}

/// Shorthands of the readers' unit tables.
#[cfg(test)]
impl Shape {
    pub(crate) fn cuboid(x: f64, y: f64, z: f64) -> Shape {
        Shape::Box {
            size: Vector3::new(x, y, z),
        }
    }

    pub(crate) fn capsule(height: f64, radius_bottom: f64, radius_top: f64) -> Shape {
        Shape::Capsule {
            height,
            radius_bottom,
            radius_top,
        }
    }

    pub(crate) fn cylinder(height: f64, radius_bottom: f64, radius_top: f64) -> Shape {
        Shape::Cylinder {
            height,
            radius_bottom,
            radius_top,
        }
    }
}

/// Triangles read from a glTF mesh's accessors (all primitives, in the mesh's local frame).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TriangleMesh {
    pub positions: Vec<[f64; 3]>,
    pub triangles: Vec<[u32; 3]>,
}

/// How two material values combine [D-COMBINE].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    Average,
    Minimum,
    Maximum,
    Multiply,
}

/// A physics material (KHR `physicsMaterials`), schema defaults resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Material {
    pub static_friction: f64,
    pub dynamic_friction: f64,
    pub restitution: f64,
    pub friction_combine: Option<Combine>,
    pub restitution_combine: Option<Combine>,
}

/// A collision filter (KHR `collisionFilters`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Filter {
    pub collision_systems: Vec<String>,
    pub collide_with_systems: Option<Vec<String>>,
    pub not_collide_with_systems: Option<Vec<String>>,
}

/// A collider or a simple trigger: a shape on a node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Collider {
    pub node: NodeId,
    pub shape: ShapeId,
    pub material: Option<MaterialId>,
    pub filter: Option<FilterId>,
    pub is_trigger: bool,
    /// The owning body [D-FRAMES]: nearest ancestor-or-self body; `None` is static world.
    pub body: Option<BodyId>,
}

/// A KHR compound trigger: a node whose `trigger.nodes` lists descendant trigger nodes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CompoundTrigger {
    pub node: NodeId,
    pub members: Vec<NodeId>,
}

/// Linear (translation) or angular (rotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DofKind {
    Linear,
    Angular,
}

impl DofKind {
    /// The serialised name (`linear`, `angular`).
    pub fn name(self) -> &'static str {
        match self {
            DofKind::Linear => "linear",
            DofKind::Angular => "angular",
        }
    }
}

/// One limit on the relative motion of a joint's two frames.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Limit {
    pub kind: DofKind,
    /// Distinct axis indices in 0..=2, in file order.
    pub axes: Vec<u8>,
    /// `None`: unbounded on that side (KHR). OMI's missing bounds are 0 [D-LIMIT-DEFAULTS].
    pub min: Option<f64>,
    pub max: Option<f64>,
    /// `None`: infinitely stiff, a hard limit.
    pub stiffness: Option<f64>,
    /// KHR default 0, OMI default 1 [D-LIMIT-DEFAULTS].
    pub damping: f64,
}

impl Limit {
    /// A hard limit (no spring) without damping on `axes` within `[min, max]`.
    pub fn hard(kind: DofKind, axes: &[u8], min: Option<f64>, max: Option<f64>) -> Limit {
        Limit {
            kind,
            axes: axes.to_vec(),
            min,
            max,
            stiffness: None,
            damping: 0.0,
        }
    }
}

/// A joint's limits, which keep their profile's meaning [D-OMI-PER-AXIS].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "coupling", content = "limits")]
pub enum LimitSet {
    /// KHR: the axes of one limit are coupled (2 linear = distance from a line, 3 linear =
    /// distance from a point, 2 angular = cone, 3 angular = total angle).
    Coupled(Vec<Limit>),
    /// OMI: each listed axis is limited on its own (3 linear axes = a box). Later constraints
    /// override earlier ones on the same axis.
    PerAxis(Vec<Limit>),
}

impl LimitSet {
    pub fn limits(&self) -> &[Limit] {
        match self {
            LimitSet::Coupled(l) | LimitSet::PerAxis(l) => l,
        }
    }
}

/// Drive mode (KHR).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum DriveMode {
    Force,
    Acceleration,
}

impl DriveMode {
    /// The name KHR gives the mode in a drive's `mode` (also its serialised form).
    pub const fn name(self) -> &'static str {
        match self {
            DriveMode::Force => "force",
            DriveMode::Acceleration => "acceleration",
        }
    }

    /// The mode a drive's `mode` names.
    pub fn from_name(name: &str) -> Option<DriveMode> {
        [DriveMode::Force, DriveMode::Acceleration]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// A KHR joint drive: a damped spring on one degree of freedom.
/// Fields in key order, the order serde writes them (the expectation's joints hold drives).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Drive {
    pub axis: u8,
    pub damping: f64,
    pub kind: DofKind,
    /// `None`: not force-limited.
    pub max_force: Option<f64>,
    pub mode: DriveMode,
    pub position_target: Option<f64>,
    pub stiffness: f64,
    pub velocity_target: Option<f64>,
}

/// One end of a joint: a frame node and the body it is attached to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Attachment {
    /// The node whose world pose is the attachment frame (KHR: the joint node or
    /// `connectedNode`; OMI: the joint node for both ends).
    pub frame: NodeId,
    /// The body node the frame moves with; `None`: the world (static).
    pub body_node: Option<NodeId>,
}

/// A joint between two attachment frames [D-FRAMES].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Joint {
    /// The node that carries the joint extension.
    pub node: NodeId,
    pub a: Attachment,
    pub b: Attachment,
    pub limits: LimitSet,
    pub drives: Vec<Drive>,
    /// KHR `enableCollision` (default false); OMI: joined bodies do not collide.
    pub enable_collision: bool,
    /// Index of the shared description (KHR `physicsJoints`), if any.
    pub description: Option<usize>,
}

/// A VRM constraint space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Space {
    Local,
    Model,
}

/// What a VRM constraint drives.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum ConstraintKind {
    /// `freeze_axes[i]`: axis i IS constrained [D-VRM-REST].
    Position {
        freeze_axes: [bool; 3],
    },
    Rotation {
        freeze_axes: [bool; 3],
    },
    /// `freeze_axes`: [yaw, pitch].
    Aim {
        aim_vector: Vector3<f64>,
        up_vector: Vector3<f64>,
        freeze_axes: [bool; 2],
    },
    /// VRMC_node_constraint 1.0 roll [D-VRM1-ROLL]: `roll_axis` a unit axis (X, Y or Z) of the
    /// destination's rest frame. Read with local source and destination spaces (it reads the
    /// source's local rotation only). The 1.0 rotation constraint is `Rotation` with every axis
    /// constrained and local spaces, which is exactly its pseudocode.
    Roll {
        roll_axis: Vector3<f64>,
    },
    /// VRMC_node_constraint 1.0 aim [D-VRM1-AIM]: `aim_axis` a signed unit axis of the
    /// destination. Read with model spaces (it reads world positions and the parent's world
    /// rotation).
    AimAxis {
        aim_axis: Vector3<f64>,
    },
}

/// A VRM node constraint on `node` (the destination).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NodeConstraint {
    pub node: NodeId,
    pub source: NodeId,
    pub source_space: Space,
    pub destination_space: Space,
    pub weight: f64,
    pub kind: ConstraintKind,
}

/// Everything a profile reader produced from one document.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Scene {
    pub profile: Profile,
    pub nodes: Vec<Node>,
    /// Root nodes of the default scene (or of every scene when none is the default).
    pub roots: Vec<NodeId>,
    pub bodies: Vec<Body>,
    pub shapes: Vec<Shape>,
    pub materials: Vec<Material>,
    pub filters: Vec<Filter>,
    pub colliders: Vec<Collider>,
    pub compound_triggers: Vec<CompoundTrigger>,
    pub joints: Vec<Joint>,
    pub constraints: Vec<NodeConstraint>,
    /// Triangles of every mesh a shape uses, by mesh id: a glTF mesh index, or an id past every
    /// glTF mesh index: [`Scene::merged_mesh_id`] (a node geometry that merges or deforms its
    /// meshes [D-GEOMETRY-NODE]), [`Scene::morphed_mesh_id`] (a morphed mesh geometry
    /// [D-GEOMETRY-MESH]).
    pub meshes: BTreeMap<MeshId, TriangleMesh>,
    /// The mesh shapes read from a node geometry [D-GEOMETRY-NODE] (the others came from a
    /// draft or OMI mesh shape, or a `khr-2026` mesh geometry [D-GEOMETRY-MESH]).
    pub node_geometry: BTreeSet<ShapeId>,
}

impl Scene {
    /// An empty scene over a node hierarchy.
    pub fn new(profile: Profile, nodes: Vec<Node>, roots: Vec<NodeId>) -> Scene {
        Scene {
            profile,
            nodes,
            roots,
            bodies: Vec::new(),
            shapes: Vec::new(),
            materials: Vec::new(),
            filters: Vec::new(),
            colliders: Vec::new(),
            compound_triggers: Vec::new(),
            joints: Vec::new(),
            constraints: Vec::new(),
            meshes: BTreeMap::new(),
            node_geometry: BTreeSet::new(),
        }
    }

    /// Leave out the bodies, colliders, triggers and joints of nodes outside the default scene
    /// [D-SCENE] (a joint also when one of its frames, or their bodies, is outside it), and the
    /// node constraints on nodes outside it; body ids are renumbered in order.
    pub fn keep_default_scene(&mut self) {
        let in_scene: Vec<bool> = self.nodes.iter().map(|n| n.in_scene).collect();
        let kept = |n: NodeId| in_scene.get(n).copied().unwrap_or(false);
        let mut renumbered = Vec::with_capacity(self.bodies.len());
        let mut bodies = Vec::with_capacity(self.bodies.len());
        for b in std::mem::take(&mut self.bodies) {
            renumbered.push(kept(b.node).then_some(bodies.len()));
            if kept(b.node) {
                bodies.push(b);
            }
        }
        self.bodies = bodies;
        self.colliders.retain(|c| kept(c.node));
        for c in &mut self.colliders {
            c.body = c.body.and_then(|b| renumbered.get(b).copied().flatten());
        }
        self.compound_triggers.retain(|t| kept(t.node));
        self.joints.retain(|j| {
            kept(j.node)
                && [&j.a, &j.b]
                    .iter()
                    .all(|a| kept(a.frame) && a.body_node.is_none_or(kept))
        });
        self.constraints.retain(|c| kept(c.node));
    }

    /// A scene over nodes given as `(parent, rest transform)`, in the scene (no name, mesh or
    /// extension): children and roots follow from the parents. For tests and benches: readers
    /// check the hierarchy, this does not. A parent index out of range is kept as given, with
    /// no child link; world transforms treat it as the world.
    pub fn from_parents(profile: Profile, nodes: &[(Option<NodeId>, Trs)]) -> Scene {
        let mut list: Vec<Node> = nodes
            .iter()
            .map(|&(parent, rest)| Node {
                name: None,
                parent,
                children: Vec::new(),
                rest,
                from_matrix: false,
                mesh: None,
                has_camera: false,
                other_extensions: Vec::new(),
                in_scene: true,
            })
            .collect();
        let mut roots = Vec::new();
        for (i, &(parent, _)) in nodes.iter().enumerate() {
            match parent {
                Some(p) => {
                    if let Some(node) = list.get_mut(p) {
                        node.children.push(i);
                    }
                }
                None => roots.push(i),
            }
        }
        Scene::new(profile, list, roots)
    }

    /// A chain of nodes at the given local transforms, each the parent of the next.
    pub fn chain(profile: Profile, locals: &[Trs]) -> Scene {
        let nodes: Vec<(Option<NodeId>, Trs)> = locals
            .iter()
            .enumerate()
            .map(|(i, t)| (i.checked_sub(1), *t))
            .collect();
        Scene::from_parents(profile, &nodes)
    }

    /// The mesh id of the merged meshes of geometry node `node` in a document of `mesh_count`
    /// meshes: past every glTF mesh index, so the two never collide.
    pub fn merged_mesh_id(mesh_count: usize, node: NodeId) -> MeshId {
        mesh_count + node
    }

    /// The mesh id of glTF mesh `mesh` morphed by its own weights, as a `khr-2026` mesh
    /// geometry [D-GEOMETRY-MESH], in a document of `mesh_count` meshes and `node_count` nodes:
    /// past every glTF mesh index and every [`Scene::merged_mesh_id`].
    pub fn morphed_mesh_id(mesh_count: usize, node_count: usize, mesh: MeshId) -> MeshId {
        mesh_count + node_count + mesh
    }

    /// Ancestors of `node`, nearest first (the node itself excluded).
    /// At most `nodes.len()` items, so a parent cycle that escaped the forest check never hangs.
    pub fn ancestors(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.nodes.get(node).and_then(|n| n.parent), move |&p| {
            self.nodes.get(p).and_then(|n| n.parent)
        })
        .take(self.nodes.len())
    }

    /// Whether `descendant` is strictly below `ancestor`.
    pub fn is_descendant(&self, descendant: NodeId, ancestor: NodeId) -> bool {
        self.ancestors(descendant).any(|a| a == ancestor)
    }

    /// The body whose node is `node`, if any.
    pub fn body_at(&self, node: NodeId) -> Option<BodyId> {
        self.bodies.iter().position(|b| b.node == node)
    }

    /// The body a node moves with: the nearest ancestor-or-self body [D-FRAMES].
    pub fn owning_body(&self, node: NodeId) -> Option<BodyId> {
        std::iter::once(node)
            .chain(self.ancestors(node))
            .find_map(|n| self.body_at(n))
    }

    /// Model (scene-root-relative = world) matrix of every node at rest.
    pub fn rest_world(&self) -> Vec<Matrix4<f64>> {
        let locals: Vec<Matrix4<f64>> = self.nodes.iter().map(|n| n.rest.matrix()).collect();
        self.world_from_locals(&locals)
    }

    /// World matrices from per-node local matrices (parents before children is not required).
    pub fn world_from_locals(&self, locals: &[Matrix4<f64>]) -> Vec<Matrix4<f64>> {
        self.world_of_nodes(|n| locals[n], 0..self.nodes.len())
            .into_iter()
            .map(|m| m.unwrap_or_else(Matrix4::identity))
            .collect()
    }

    /// World matrices of the nodes `wanted` and of their ancestors (`None` for the other
    /// nodes), each its parent's world matrix times its local matrix `local(n)`, from the root
    /// down; `local` is asked only for those nodes. The one walk of the hierarchy
    /// ([`Scene::world_from_locals`] asks for every node).
    pub fn world_of_nodes(
        &self,
        local: impl Fn(NodeId) -> Matrix4<f64>,
        wanted: impl IntoIterator<Item = NodeId>,
    ) -> Vec<Option<Matrix4<f64>>> {
        let mut world: Vec<Option<Matrix4<f64>>> = vec![None; self.nodes.len()];
        // One walk buffer for every node, not one allocation each.
        let mut chain = Vec::new();
        for start in wanted.into_iter().filter(|&n| n < self.nodes.len()) {
            // Walk up to the first computed ancestor, then down again.
            chain.clear();
            chain.push(start);
            while let Some(parent) = chain
                .last()
                .and_then(|&n| self.nodes[n].parent)
                .filter(|&p| world.get(p).is_some_and(Option::is_none))
            {
                if chain.len() > self.nodes.len() {
                    break; // cannot happen after the forest check; never loop forever
                }
                chain.push(parent);
            }
            for &n in chain.iter().rev() {
                if world[n].is_some() {
                    continue;
                }
                let parent = self.nodes[n]
                    .parent
                    .and_then(|p| world.get(p).copied().flatten())
                    .unwrap_or_else(Matrix4::identity);
                world[n] = Some(parent * local(n));
            }
        }
        world
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn from_parents_links_children_and_roots() {
        let t = Trs::default();
        // 0 and 3 are roots; 1 and 2 are children of 0; 4 names a parent that does not exist.
        let s = Scene::from_parents(
            Profile::Khr2024Draft,
            &[
                (None, t),
                (Some(0), t),
                (Some(0), t),
                (None, t),
                (Some(9), t),
            ],
        );
        assert_eq!(s.roots, vec![0, 3]);
        assert_eq!(s.nodes[0].children, vec![1, 2]);
        assert!(s.nodes[3].children.is_empty());
        assert_eq!(s.nodes[4].parent, Some(9));
        // A missing parent counts as the world: node 4's world transform is its own.
        let moved = Trs {
            translation: Vector3::new(1.0, 2.0, 3.0),
            ..t
        };
        let mut s = s;
        s.nodes[4].rest = moved;
        assert_eq!(s.rest_world()[4], moved.matrix());
        let c = Scene::chain(Profile::Khr2024Draft, &[t, t, t]);
        assert_eq!(c.roots, vec![0]);
        assert_eq!(
            c.nodes
                .iter()
                .map(|n| n.children.clone())
                .collect::<Vec<_>>(),
            vec![vec![1], vec![2], vec![]]
        );
    }
}
