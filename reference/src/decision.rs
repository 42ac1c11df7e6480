//! The documented decisions the reference takes where a spec is silent or contradicts itself.
//! Checks and reports cite them by id; `reference/DESIGN.md` is generated from [`Decision::ALL`]
//! (`reference/tests/catalogues.rs`), and every `[D-...]` cited in the repository must be one.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! decisions {
    ($($variant:ident = $id:literal, $text:literal;)*) => {
        /// A semantic decision with a stable id.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Decision { $($variant,)* }

        impl Decision {
            pub const ALL: &'static [Decision] = &[$(Decision::$variant,)*];

            /// The stable id, e.g. `D-TWIST-SIGNED`.
            pub fn id(self) -> &'static str {
                match self { $(Decision::$variant => $id,)* }
            }

            /// Look a decision up by its stable id.
            pub fn from_id(id: &str) -> Option<Decision> {
                match id { $($id => Some(Decision::$variant),)* _ => None }
            }

            /// What the reference does.
            pub fn text(self) -> &'static str {
                match self { $(Decision::$variant => $text,)* }
            }
        }
    };
}

decisions! {
    OmiPerAxis = "D-OMI-PER-AXIS", "OMI joint limits are per axis (three linear axes with [-1, 1] is a box); KHR limits are coupled (distance from a point or a line, a cone).";
    MassZero = "D-MASS-ZERO", "KHR mass 0 and an inertia component of 0 mean infinite; OMI mass defaults to 1.";
    Capsule = "D-CAPSULE", "OMI_collider capsule height is the full height (>= 2 radius); the canonical capsule height is the distance between the cap centres (KHR).";
    ColliderScale = "D-COLLIDER-SCALE", "A collider inherits its node's whole world transform, scale included (OMI_collider discourages scaling collider nodes, it does not ignore the scale): the expected shape is the one simulated, the scale folded into its parameters where the shape keeps its kind (uniform for spheres and capsules, axis-aligned for boxes, equal x and z for cylinders, any for meshes), else given beside them.";
    LimitDefaults = "D-LIMIT-DEFAULTS", "Missing KHR min/max: unbounded on that side. Missing OMI lowerLimit/upperLimit: 0. Missing stiffness: infinite (hard). Damping default: KHR 0, OMI 1.";
    Frames = "D-FRAMES", "World transforms come from the default scene. A KHR joint's frame A is the joint node, frame B connectedNode, each relative to its nearest ancestor-or-self with motion. Colliders belong to their nearest ancestor-or-self with motion (else static). An OMI joint node's world pose is the attachment point in both bodies.";
    Metrics = "D-METRICS", "Limit metrics follow the KHR appendix: d = t_b - t_a, axes are the columns of frame A's world rotation.";
    TwistSigned = "D-TWIST-SIGNED", "The 1-axis angular metric is the signed twist angle of q_a* q_b about the axis, in (-pi, pi].";
    Combine = "D-COMBINE", "Combine precedence when two colliders differ: average, then minimum, then maximum, then multiply.";
    CombineDefault = "D-COMBINE-DEFAULT", "The spec names no default combine mode or material: a collider without a material has implementation-defined friction; checks that need a value give one.";
    Filter = "D-FILTER", "A collides with B only if allows(A, B) and allows(B, A) (the seed's subset formula, both directions).";
    FilterEmpty = "D-FILTER-EMPTY", "A collider with no filter, or a filter without collisionSystems, belongs to no system: never excluded by notCollideWithSystems, admitted by collideWithSystems.";
    StaticVelocity = "D-STATIC-VELOCITY", "A static body never moves: its expected initial velocities are zero whatever the file gives (seed 001: non-moving bodies ignore them).";
    StaticMass = "D-STATIC-MASS", "A static body never moves, so its mass, centre of mass and inertia have no observable effect: they are left to the engine (seed 001 maps static bodies to engine types without mass, e.g. Godot StaticBody3D).";
    OmiVelocity = "D-OMI-VELOCITY", "OMI initial velocities are read in world space (the seed names no space); KHR velocities are in the body's local space.";
    ProfileOne = "D-PROFILE-ONE", "A document is read under one profile (KHR, then OMI, then VRM); extensions of other families are reported and ignored.";
    VrmRest = "D-VRM-REST", "VRM constraints are relative to the rest pose; model space is relative to the scene root; freezeAxes[i] == true means axis i is constrained.";
    VrmPosition = "D-VRM-POSITION", "Position: delta of the source from rest, unconstrained components zeroed, times weight, mapped through the inverse parent model matrix for a model-space destination, added to the rest translation.";
    VrmRotation = "D-VRM-ROTATION", "Rotation: source delta S0^-1 S (local) or S S0^-1 (model), frozen by zeroing rotation-vector components, slerp(I, delta, weight), applied as q0 * delta (local) or P^-1 delta P q0 (model).";
    VrmAim = "D-VRM-AIM", "Aim: yaw about up (atan2), pitch about the fixed axis normalize(up x aim) (difference of asin angles); both constrained: the rotation from the rest aim state to the current one; freezeAxes = [yaw, pitch]. Local destination: slerp(I, delta, weight) q0. Model destination: the target's model rotation is delta times the destination's rest model rotation (local target P^-1 delta P0 q0, so the destination keeps aiming when its parent turns), slerped from the rest rotation q0 by weight.";
    VrmOrder = "D-VRM-ORDER", "A constraint runs after every constraint that moves its source, its source's ancestors, or (model-space destination) its parent. Source == destination, source below destination, source == destination's parent, and cycles are invalid.";
    VrmRange = "D-VRM-RANGE", "Weight outside [0, 1] is invalid; aimVector zero or parallel to upVector is invalid.";
    OmiRevision = "D-OMI-REVISION", "OMI documents with motion/collider/trigger objects, physicsJoints or connectedNode are omi-2024 or omi-2025 (else omi-2023): radius on a capsule or cylinder selects omi-2024, radiusTop/radiusBottom omi-2025; a document nothing dates is read as omi-2025 (the current text), with OMI_CAPSULE_AMBIGUOUS on each capsule whose size the two readings disagree on.";
    OmiCapsuleRevision = "D-OMI-CAPSULE-REVISION", "omi-2024 capsule height is the full height (default 2, cap-centre distance h - 2r); omi-2025 capsule height is the cap-centre distance (default 1). Cylinder height is the full height in both (default 2). Radii default 0.5.";
    OmiInertia = "D-OMI-INERTIA", "OMI 2024/2025 mass defaults to 1; a mass of 0 and an inertiaDiagonal that is absent, all zero or partly zero leave the inertia to the engine (KHR reads 0 as infinite); a non-zero diagonal is rotated by inertiaOrientation.";
    OmiLimits = "D-OMI-LIMITS", "OMI 2024/2025 limits couple their axes as KHR's do (the schema: 2 linear axes keep a distance from a line, 3 from a point, 2 angular a cone); a limit with linear and angular axes is two limits; min/max default to -inf/+inf, a missing or negative stiffness is a hard limit, damping defaults to 0; a drive's missing or negative maxForce is unlimited.";
    OmiExamples = "D-OMI-EXAMPLES", "Where the OMI 2024/2025 examples break a rule of the schemas or texts, the rule is a warning and the examples' reading is taken: a motion without type is dynamic, a trigger with neither shape nor nodes adds nothing, a joint hung from a non-dynamic body works when its connected node's body is dynamic.";
    OmiJointFrames = "D-OMI-JOINT-FRAMES", "An OMI 2024/2025 joint's frame A is the joint node, frame B connectedNode, each moving with its nearest ancestor-or-self body with motion (KHR's rule); connected bodies do not collide unless enableCollision.";
    // ----- VRMC_node_constraint 1.0 (issue 21) -----
    VrmFreezeRotvec = "D-VRM-FREEZE-ROTVEC", "Draft frozen rotation axes are taken on the shortest-path rotation vector (the quaternion's sign chosen with w >= 0), so q and -q give the same result; the draft's public implementation depends on the quaternion's sign.";
    Vrm1Roll = "D-VRM1-ROLL", "VRM 1.0 roll follows the text's pseudocode: the source's local delta from rest, moved to the destination's rest frame (dstRest^-1 srcRest delta srcRest^-1 dstRest), its swing about the roll axis removed (fromTo(axis, delta axis)^-1 delta), slerped from the rest rotation by weight.";
    Vrm1Aim = "D-VRM1-AIM", "VRM 1.0 aim follows the text's pseudocode: the smallest rotation from the aim axis under the parent's current world rotation times the rest rotation to the world direction from the destination to the source, moved into the parent frame (P^-1 fromTo P q0), slerped from the rest rotation by weight; world is the scene root; a source at the destination's position leaves the rest rotation.";
    Vrm1Rotation = "D-VRM1-ROTATION", "VRM 1.0 rotation follows the text's pseudocode (local-local): slerp(q0, q0 S0^-1 S, weight).";
    Vrm1FromTo = "D-VRM1-FROM-TO", "The smallest rotation between opposite directions is a half turn about an axis the text leaves open; the reference takes three.js's choice (setFromUnitVectors): (-a.y, a.x, 0) when |a.x| > |a.z|, else (0, -a.z, a.y). Cases that reach it are informative.";
    Vrm1Order = "D-VRM1-ORDER", "VRM 1.0 update order: a constraint runs after the constraints on its source and the source's ancestors, and (aim) on its destination's ancestors, as the text's updateConstraint does with three-vrm's dependencies; a source below its destination is a circular dependency (the constraint depends on itself).";
    Vrm1SpecVersion = "D-VRM1-SPEC-VERSION", "specVersion \"1.0\" is read; \"1.0-beta\" is read with a warning (as three-vrm does); any other value or none is an error and the constraint is not read.";
    // khr-2025
    MassZeroSchema = "D-MASS-ZERO-SCHEMA", "khr-2025: the schema gives mass and inertiaDiagonal an exclusive minimum of 0, the prose reads 0 as infinite and the official samples write 0: a 0 is a warning (KHR_MASS_ZERO), not an error, and is read as infinite.";
    GeometryNode = "D-GEOMETRY-NODE", "khr-2025 node geometry: the meshes of the geometry node and of its descendants, each placed by its transform relative to the geometry node (the geometry node's own transform, and its place in or out of the scene, do not count), make one mesh in the collider node's local frame, under the collider node's world transform. Deformation at rest, in glTF's order: morph targets first (each target's POSITION deltas times its weight, the node's weights winning over the mesh's, missing weights 0), then the skin: glTF ignores a skinned mesh node's transform, so each vertex goes to world space as sum_i w_i (J_i IB_i) v over every JOINTS_n/WEIGHTS_n set (J_i: joint i's rest world transform, from the document's TRS whatever the joint's place in or out of the scene; IB_i: its inverse bind matrix, identity without the accessor) and is brought into the geometry node's frame by the inverse of the geometry node's rest world transform, so that a skinned mesh sits in the geometry where it is drawn relative to the geometry node, as an unskinned one does. Weights whose sum is off 1 by more than 1e-3 are divided by their sum (KHR_SKIN_WEIGHTS_NOT_NORMALIZED); a vertex whose weights sum to 0 keeps its mesh node's rest world transform. A skin is left unapplied (KHR_GEOMETRY_DEFORMED) only when the geometry node's rest world transform is singular; a primitive with bad skin or morph data (KHR_SKIN_*, KHR_MORPH_TARGET_INVALID) leaves its mesh out of the geometry.";
    ShapeScale = "D-SHAPE-SCALE", "khr-2025: a collider or trigger whose world scale is zero on all three axes is disabled (left out); a negative scale acts by its absolute value.";
    // issue 22
    DefaultScene = "D-SCENE", "Only the nodes of the default scene (`scene`, else scene 0, else every parentless node) are simulated: a body, collider, trigger or joint on a node outside it is validated but left out, as a glTF viewer leaves out what it does not show; so is a VRM node constraint on a node outside it (its source may be anywhere).";
    // khr-2026 (issue 33)
    KhrRevision = "D-KHR-REVISION", "A KHR_physics_rigid_bodies document is dated by evidence: KHR_collision_shapes, or a collider's or trigger's own shape without KHR_implicit_shapes, means the 2024 draft; a geometry.mesh khr-2026; a geometry.node khr-2025. A document nothing dates (shapes only, or bodies and joints without colliders) reads the same under 2025 and 2026 and is read as the newest, khr-2026.";
    GeometryMesh = "D-GEOMETRY-MESH", "khr-2026 mesh geometry: the mesh's triangle primitives in the collider's (or trigger's) own node frame, under that node's world transform and the scale rules of D-SHAPE-SCALE; primitives without POSITION are skipped. No node carries the geometry, so node weights and skins never apply: morph targets are weighted by the mesh's own weights (missing: 0), and a skinned mesh is read at its bind pose, as stored (KHR_GEOMETRY_MESH_UNSKINNED, information). Bad data in the mesh (a non-triangle primitive, no triangle at all, bad morph targets) leaves out every collider and trigger on it.";
    SchemaHarmless = "D-SCHEMA-HARMLESS", "khr-2025 and khr-2026: where a published schema forbids what its own defaults make harmless and the editor's files or loader accept it, the reference warns instead of refusing (an open outcome, like KHR_MASS_ZERO): a drive target without its gain reads with the default gain of 0 (KHR_DRIVE_TARGET_WITHOUT_GAIN). A gain without a target stays an error: the schema gives no target to reach.";
    GeometryNode2026 = "D-GEOMETRY-NODE-2026", "A node geometry in a khr-2026 document is the 2025 form: it is read by the 2025 rule (D-GEOMETRY-NODE) with a warning (KHR_GEOMETRY_NODE_2025), as the erhe engine does, rather than refused; a geometry that gives more than one of shape, mesh and node is an error (KHR_GEOMETRY_AMBIGUOUS).";
    // issue 37
    Vrm1Shear = "D-VRM1-SHEAR", "VRM 1.0 aim under a sheared parent: a non-uniform scale above a rotated node makes the parent's world matrix sheared, and a sheared matrix has no rotation, while the text's pseudocode needs the parent's world rotation. The reference takes the closest rotation to the matrix with its columns normalised (the polar decomposition, which leaves out the scale and the shear and is the same whichever axis comes first); three.js reads the rotation off the normalised columns as if they were orthogonal (Matrix4.decompose, as three-vrm does), which gives another rotation, not always of unit length: 0.03 to 1.6 rad away in generated cases. The outcome is open: cases whose aim reaches a sheared parent are informative. A non-uniform scale that shears no aim's parent (on a leaf, on the parent itself, or with no rotated node below it) leaves every world rotation defined, and such cases stay required.";
}

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Decision {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Decision::from_id(&id)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown decision id {id:?}")))
    }
}

/// A set of decisions, listed (and serialised, as a sequence of ids) in catalogue order. A
/// bit per decision: the pairs of a scene cite a few hundred sets of two or three decisions,
/// and a set costs no allocation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DecisionSet(u64);

// A bit per decision.
const _: () = assert!(Decision::ALL.len() <= 64);

impl DecisionSet {
    pub const EMPTY: DecisionSet = DecisionSet(0);

    pub fn contains(self, d: Decision) -> bool {
        self.0 & (1 << d as u32) != 0
    }

    pub fn insert(&mut self, d: Decision) {
        self.0 |= 1 << d as u32;
    }

    /// The decisions of both sets.
    pub fn union(self, other: DecisionSet) -> DecisionSet {
        DecisionSet(self.0 | other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// The decisions, in catalogue order.
    pub fn iter(self) -> impl Iterator<Item = Decision> {
        Decision::ALL
            .iter()
            .copied()
            .filter(move |&d| self.contains(d))
    }
}

impl FromIterator<Decision> for DecisionSet {
    fn from_iter<I: IntoIterator<Item = Decision>>(iter: I) -> DecisionSet {
        let mut set = DecisionSet::EMPTY;
        set.extend(iter);
        set
    }
}

impl Extend<Decision> for DecisionSet {
    fn extend<I: IntoIterator<Item = Decision>>(&mut self, iter: I) {
        for d in iter {
            self.insert(d);
        }
    }
}

impl Serialize for DecisionSet {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for DecisionSet {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<Decision>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `ALL` is in catalogue order, the order of `Ord`, and a decision's discriminant is its
    /// position in it (the expectation's union of decisions is a table indexed so).
    #[test]
    fn all_is_indexed_by_discriminant_in_order() {
        for (i, &d) in Decision::ALL.iter().enumerate() {
            assert_eq!(d as usize, i, "{}", d.id());
        }
        assert!(Decision::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    proptest::proptest! {
        /// A set lists what was put in it, sorted and without repeats, and serialises as that
        /// list of decisions does.
        #[test]
        fn a_set_is_the_sorted_list_without_repeats(
            picks in proptest::collection::vec(0..Decision::ALL.len(), 0..12),
        ) {
            let list: Vec<Decision> = picks.iter().map(|&i| Decision::ALL[i]).collect();
            let set: DecisionSet = list.iter().copied().collect();
            let mut want = list.clone();
            want.sort();
            want.dedup();
            proptest::prop_assert_eq!(set.iter().collect::<Vec<_>>(), want.clone());
            proptest::prop_assert_eq!(set.len(), want.len());
            proptest::prop_assert_eq!(set.is_empty(), want.is_empty());
            for &d in Decision::ALL {
                proptest::prop_assert_eq!(set.contains(d), want.contains(&d));
            }
            let (half, rest) = list.split_at(list.len() / 2);
            let union = half.iter().copied().collect::<DecisionSet>()
                .union(rest.iter().copied().collect());
            proptest::prop_assert_eq!(union, set);
            proptest::prop_assert_eq!(
                serde_json::to_string(&set).expect("text"),
                serde_json::to_string(&want).expect("text")
            );
        }
    }

    /// Hand-worked: `D-FILTER-EMPTY` inserted before `D-COMBINE` and `D-FILTER` (twice) lists
    /// in catalogue order, once each.
    #[test]
    fn a_set_lists_in_catalogue_order() {
        let mut set = DecisionSet::EMPTY;
        for d in [
            Decision::FilterEmpty,
            Decision::Combine,
            Decision::Filter,
            Decision::Filter,
        ] {
            set.insert(d);
        }
        assert_eq!(
            serde_json::to_string(&set).expect("text"),
            r#"["D-COMBINE","D-FILTER","D-FILTER-EMPTY"]"#
        );
    }
}
