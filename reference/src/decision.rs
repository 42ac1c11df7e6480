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
}

impl Serialize for Decision {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
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
}
