//! The documented decisions the reference takes where a spec is silent or contradicts itself.
//! Checks and reports cite them by id (see DESIGN: "Semantics the reference encodes").

use serde::{Serialize, Serializer};

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
    VrmAim = "D-VRM-AIM", "Aim: yaw about up (atan2), pitch about normalize(up x aim) (difference of asin angles), rotation from the rest aim state to the current one, weighted by slerp, applied on the left of the rest rotation; freezeAxes = [yaw, pitch].";
    VrmOrder = "D-VRM-ORDER", "A constraint runs after every constraint that moves its source, its source's ancestors, or (model-space destination) its parent. Source == destination, source below destination, source == destination's parent, and cycles are invalid.";
    VrmRange = "D-VRM-RANGE", "Weight outside [0, 1] is invalid; aimVector zero or parallel to upVector is invalid.";
    // khr-2025
    MassZeroSchema = "D-MASS-ZERO-SCHEMA", "khr-2025: the schema gives mass and inertiaDiagonal an exclusive minimum of 0, the prose reads 0 as infinite and the official samples write 0: a 0 is a warning (KHR_MASS_ZERO), not an error, and is read as infinite.";
    GeometryNode = "D-GEOMETRY-NODE", "khr-2025 node geometry: the meshes of the geometry node and of its descendants, each placed by its transform relative to the geometry node (the geometry node's own transform, and its place in or out of the scene, do not count), make one mesh in the collider node's local frame, under the collider node's world transform. Skins and morph weights are not applied (KHR_GEOMETRY_DEFORMED says so).";
    ShapeScale = "D-SHAPE-SCALE", "khr-2025: a collider or trigger whose world scale is zero on all three axes is disabled (left out); a negative scale acts by its absolute value.";
}

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
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
