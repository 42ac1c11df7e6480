//! The catalogue of feature tags: what a case's scene contains, as the `features` of its
//! manifest row say (`body.dynamic`, `shape.sphere.explicit`, `joint.limit.angular.1`...). The
//! generator writes them and an implementation's handshake declares the ones it supports, so a
//! case with an undeclared tag is `NOT_SUPPORTED`; reports score per tag. An invalid case is
//! tagged `invalid.<code>` with its defect's issue code ([`Code`], in lower case).
//! `reference/FEATURES.md` is generated from [`FeatureTag::ALL`], and a test fails when a tag of
//! a committed manifest is not here or a tag here is in no committed manifest.

use crate::issue::Code;

/// One feature tag and what a scene with it contains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FeatureTag {
    /// The tag, e.g. `joint.limit.angular.1`.
    pub id: &'static str,
    /// What a scene with the tag contains, in one line.
    pub meaning: &'static str,
}

macro_rules! feature_tags {
    ($($id:literal => $meaning:literal;)*) => {
        impl FeatureTag {
            /// Every tag of valid scenes, sorted (`invalid.<code>` tags come from [`Code::ALL`]).
            pub const ALL: &'static [FeatureTag] = &[$(FeatureTag { id: $id, meaning: $meaning },)*];
        }
    };
}

feature_tags! {
    "body.angular-velocity" => "A body with an initial angular velocity.";
    "body.center-of-mass" => "A body with an explicit centre of mass.";
    "body.dynamic" => "A dynamic body (moved by forces and contacts).";
    "body.dynamic.impulse-action" => "A dynamic body pushed by an impulse action of the scenario.";
    "body.gravity-factor" => "A body with a gravity factor.";
    "body.inertia-diagonal" => "A body with explicit principal moments of inertia (inertiaDiagonal).";
    "body.inertia-diagonal.zero" => "An OMI 2024/2025 body whose inertiaDiagonal is [0, 0, 0]: the inertia is left to the engine [D-OMI-INERTIA].";
    "body.inertia-orientation" => "A body with an explicit orientation of its principal axes of inertia.";
    "body.inertia-tensor" => "An OMI 2023 body with an explicit inertia tensor.";
    "body.kinematic" => "A kinematic body (moved by its velocity or poses, never by forces).";
    "body.kinematic-false-explicit" => "A KHR 2024 draft body that writes isKinematic false (the default) explicitly.";
    "body.kinematic.pose-action" => "A kinematic body moved to a target pose by a pose action of the scenario.";
    "body.linear-velocity" => "A body with an initial linear velocity.";
    "body.mass.computed" => "A KHR body without a mass: the engine computes it from its shapes.";
    "body.mass.default" => "An OMI body without a mass: the default of 1 applies.";
    "body.mass.explicit" => "A body with an explicit mass.";
    "body.mass.infinite" => "A KHR body of mass 0, read as infinite (it does not move).";
    "body.mass.zero" => "A khr-2025 or khr-2026 body of mass 0: a warning (KHR_MASS_ZERO), read as infinite.";
    "body.nested" => "A body on a node below another body's node.";
    "body.none" => "An OMI 2023 collider with no body above it: a static collider.";
    "body.omi.character" => "An OMI 2023 body of type character.";
    "body.omi.kinematic" => "An OMI 2023 body of type kinematic.";
    "body.omi.rigid" => "An OMI 2023 body of type rigid (dynamic).";
    "body.omi.static" => "An OMI 2023 body of type static.";
    "body.omi.trigger" => "An OMI 2023 body of type trigger.";
    "body.omi.vehicle" => "An OMI 2023 body of type vehicle.";
    "body.static" => "A static body (never moves).";
    "body.static.motion" => "An OMI 2024/2025 body whose motion is of type static.";
    "buffer.data-uri" => "Mesh data in a buffer given as a data URI.";
    "buffer.sibling" => "Mesh data in a .bin file beside the document.";
    "collider.child" => "A collider on a child node of its body.";
    "collider.compound" => "A body with several colliders.";
    "collider.descendant" => "A collider deeper below its body than a child.";
    "collider.filter" => "A collider with a collision filter.";
    "collider.material" => "A collider with a physics material.";
    "collider.no-material" => "A collider without a physics material (friction left to the engine).";
    "collider.on-body" => "A collider on its body's own node.";
    "collider.scale.negative" => "A khr-2025/khr-2026 collider under a negative node scale (acts by its absolute value).";
    "collider.scale.zero" => "A khr-2025/khr-2026 collider under a zero scale on all axes: disabled (KHR_SHAPE_DISABLED).";
    "filter.collide-with" => "A collision filter with a collideWithSystems list.";
    "filter.no-systems" => "A collision filter without collisionSystems (it belongs to no system).";
    "filter.not-collide-with" => "A collision filter with a notCollideWithSystems list.";
    "filter.systems-only" => "A collision filter with collisionSystems and neither list.";
    "geometry.mesh.drawn" => "A khr-2026 mesh geometry whose mesh the collider's node also draws.";
    "geometry.mesh.morphed" => "A khr-2026 mesh geometry with morph targets, weighted by the mesh's own weights.";
    "geometry.mesh.only" => "A khr-2026 mesh geometry whose mesh no node draws.";
    "geometry.mesh.shared" => "Two colliders whose geometries use one mesh.";
    "geometry.mesh.skinned" => "A khr-2026 mesh geometry with a skinned mesh, read at its bind pose (KHR_GEOMETRY_MESH_UNSKINNED).";
    "geometry.node.children" => "A khr-2025 node geometry whose meshes are on the geometry node's children, placed by their transforms.";
    "geometry.node.detached" => "A khr-2025 node geometry naming a node outside the scene.";
    "geometry.node.morphed" => "A khr-2025 node geometry with morph targets and node weights.";
    "geometry.node.nested" => "A khr-2025 node geometry whose mesh part is two levels below the geometry node, placed by both transforms.";
    "geometry.node.offset" => "A khr-2025 node geometry whose mesh part sits off the geometry node, placed by the transforms below it.";
    "geometry.node.self" => "A khr-2025 node geometry naming the collider's own node, which draws the mesh.";
    "geometry.node.skinned" => "A khr-2025 node geometry with a skinned mesh, deformed at rest.";
    "joint.between-bodies" => "A joint connecting two bodies.";
    "joint.drive.angular" => "An angular joint drive.";
    "joint.drive.linear" => "A linear joint drive.";
    "joint.drive.max-force" => "A joint drive with a maximum force.";
    "joint.drive.mode.acceleration" => "A joint drive in acceleration mode.";
    "joint.drive.mode.force" => "A joint drive in force mode.";
    "joint.drive.position-target" => "A joint drive with a position target.";
    "joint.drive.velocity-target" => "A joint drive with a velocity target.";
    "joint.enable-collision" => "A joint whose connected bodies still collide (enableCollision).";
    "joint.kind.ball" => "A ball joint: the three linear axes locked at 0.";
    "joint.kind.ball-open" => "A ball joint whose linear limit has only a maximum (0).";
    "joint.kind.cone" => "A cone joint: linear axes locked, a two-axis angular limit.";
    "joint.kind.fixed" => "A fixed joint: every linear and angular axis locked.";
    "joint.kind.free" => "A joint without limits (the bodies move freely; drives only).";
    "joint.kind.generic" => "A joint of one to four random limits.";
    "joint.kind.hinge" => "A hinge joint: linear axes locked, one angular axis limited, the other two locked.";
    "joint.kind.slider" => "A slider joint: one linear axis limited, the other two and the rotations locked.";
    "joint.limit.angular.1" => "A joint limit on one angular axis (a twist angle).";
    "joint.limit.angular.2" => "A joint limit on two angular axes (a cone).";
    "joint.limit.angular.3" => "A joint limit on three angular axes.";
    "joint.limit.damping" => "A joint limit with damping.";
    "joint.limit.fixed" => "A joint limit whose minimum equals its maximum.";
    "joint.limit.linear.1" => "A joint limit on one linear axis.";
    "joint.limit.linear.2" => "A joint limit on two linear axes (a distance from a line).";
    "joint.limit.linear.3" => "A joint limit on three linear axes (a distance from a point).";
    "joint.limit.open-max" => "A joint limit with a minimum and no maximum.";
    "joint.limit.open-min" => "A joint limit with a maximum and no minimum.";
    "joint.limit.range" => "A joint limit with a minimum below its maximum.";
    "joint.limit.soft" => "A soft joint limit (with stiffness).";
    "joint.limit.unbounded" => "A joint limit with neither minimum nor maximum.";
    "joint.no-limits" => "A joint description without limits.";
    "joint.shared-description" => "Two joints that share one joint description.";
    "joint.to-world" => "A joint that connects a body to the world rather than to a second body.";
    "material.combine.average-average" => "Two colliders in contact with friction combine modes average and average.";
    "material.combine.average-maximum" => "Two colliders in contact with friction combine modes average and maximum.";
    "material.combine.average-minimum" => "Two colliders in contact with friction combine modes average and minimum.";
    "material.combine.average-multiply" => "Two colliders in contact with friction combine modes average and multiply.";
    "material.combine.average-unset" => "Two colliders in contact with friction combine modes average and none.";
    "material.combine.maximum-maximum" => "Two colliders in contact with friction combine modes maximum and maximum.";
    "material.combine.maximum-multiply" => "Two colliders in contact with friction combine modes maximum and multiply.";
    "material.combine.maximum-unset" => "Two colliders in contact with friction combine modes maximum and none.";
    "material.combine.minimum-maximum" => "Two colliders in contact with friction combine modes minimum and maximum.";
    "material.combine.minimum-minimum" => "Two colliders in contact with friction combine modes minimum and minimum.";
    "material.combine.minimum-multiply" => "Two colliders in contact with friction combine modes minimum and multiply.";
    "material.combine.minimum-unset" => "Two colliders in contact with friction combine modes minimum and none.";
    "material.combine.multiply-multiply" => "Two colliders in contact with friction combine modes multiply and multiply.";
    "material.combine.multiply-unset" => "Two colliders in contact with friction combine modes multiply and none.";
    "material.combine.unset-unset" => "Two colliders in contact with friction combine modes none and none.";
    "material.defaults" => "A physics material that gives none of its values (the defaults apply).";
    "material.explicit" => "A physics material that gives its values.";
    "material.restitution-combine.average-average" => "Two colliders in contact with restitution combine modes average and average.";
    "material.restitution-combine.average-maximum" => "Two colliders in contact with restitution combine modes average and maximum.";
    "material.restitution-combine.average-minimum" => "Two colliders in contact with restitution combine modes average and minimum.";
    "material.restitution-combine.average-multiply" => "Two colliders in contact with restitution combine modes average and multiply.";
    "material.restitution-combine.average-unset" => "Two colliders in contact with restitution combine modes average and none.";
    "material.restitution-combine.maximum-maximum" => "Two colliders in contact with restitution combine modes maximum and maximum.";
    "material.restitution-combine.maximum-multiply" => "Two colliders in contact with restitution combine modes maximum and multiply.";
    "material.restitution-combine.maximum-unset" => "Two colliders in contact with restitution combine modes maximum and none.";
    "material.restitution-combine.minimum-maximum" => "Two colliders in contact with restitution combine modes minimum and maximum.";
    "material.restitution-combine.minimum-minimum" => "Two colliders in contact with restitution combine modes minimum and minimum.";
    "material.restitution-combine.minimum-multiply" => "Two colliders in contact with restitution combine modes minimum and multiply.";
    "material.restitution-combine.minimum-unset" => "Two colliders in contact with restitution combine modes minimum and none.";
    "material.restitution-combine.multiply-multiply" => "Two colliders in contact with restitution combine modes multiply and multiply.";
    "material.restitution-combine.multiply-unset" => "Two colliders in contact with restitution combine modes multiply and none.";
    "material.restitution-combine.unset-unset" => "Two colliders in contact with restitution combine modes none and none.";
    "node.matrix" => "A node transform written as a matrix instead of translation, rotation and scale.";
    "omi.constraint.angular.1" => "An OMI 2023 joint constraint on 1 angular axis.";
    "omi.constraint.angular.2" => "An OMI 2023 joint constraint on 2 angular axises.";
    "omi.constraint.angular.3" => "An OMI 2023 joint constraint on 3 angular axises.";
    "omi.constraint.damping" => "An OMI 2023 joint constraint with damping.";
    "omi.constraint.limits-default" => "An OMI 2023 joint constraint without lowerLimit and upperLimit (both 0).";
    "omi.constraint.linear.1" => "An OMI 2023 joint constraint on 1 linear axis.";
    "omi.constraint.linear.2" => "An OMI 2023 joint constraint on 2 linear axises.";
    "omi.constraint.linear.3" => "An OMI 2023 joint constraint on 3 linear axises.";
    "omi.constraint.range" => "An OMI 2023 joint constraint with a range between its limits.";
    "omi.constraint.soft" => "An OMI 2023 joint constraint with stiffness (soft).";
    "omi.dialect.omi-collider" => "An OMI 2023 document whose shapes are OMI_collider colliders.";
    "omi.dialect.omi-physics-shape" => "An OMI 2023 document whose shapes are OMI_physics_shape shapes.";
    "omi.joint.fixed" => "An OMI 2023 fixed joint: every linear and angular axis constrained.";
    "omi.joint.generic" => "An OMI 2023 joint of one to three random constraints.";
    "omi.joint.hinge" => "An OMI 2023 hinge: linear axes constrained, one angular axis with a range, the other two constrained.";
    "omi.joint.node-a.rigid" => "An OMI 2023 joint whose first node is a rigid body.";
    "omi.joint.node-a.vehicle" => "An OMI 2023 joint whose first node is a vehicle body.";
    "omi.joint.node-b.character" => "An OMI 2023 joint whose second node is a character body.";
    "omi.joint.node-b.kinematic" => "An OMI 2023 joint whose second node is a kinematic body.";
    "omi.joint.node-b.rigid" => "An OMI 2023 joint whose second node is a rigid body.";
    "omi.joint.node-b.static" => "An OMI 2023 joint whose second node is a static body.";
    "omi.joint.node-b.vehicle" => "An OMI 2023 joint whose second node is a vehicle body.";
    "omi.joint.pin" => "An OMI 2023 pin: the three linear axes constrained.";
    "omi.joint.pin-soft" => "An OMI 2023 pin whose constraint is soft (stiffness).";
    "omi.joint.rope" => "An OMI 2023 rope: rigid capsules pinned in a chain below a static anchor, sharing one constraint.";
    "omi.joint.shared-constraints" => "OMI 2023 joints that share a constraint of the document list.";
    "omi.joint.slider" => "An OMI 2023 slider: one linear axis with a range, the others constrained.";
    "omi.revision.differs" => "An OMI document whose reading differs between omi-2024 and omi-2025 (capsule sizes, tapered shapes).";
    "omi.revision.undated" => "An OMI document that nothing dates to omi-2024 or omi-2025: read as omi-2025, with OMI_CAPSULE_AMBIGUOUS.";
    "scene.non-default" => "Physics objects on nodes outside the default scene, which are left out [D-SCENE].";
    "shape.box.defaults" => "A box shape that leaves its sizes to the defaults.";
    "shape.box.explicit" => "A box shape with explicit sizes.";
    "shape.capsule.defaults" => "A capsule shape that leaves its sizes to the defaults.";
    "shape.capsule.explicit" => "A capsule shape with explicit sizes.";
    "shape.capsule.tapered" => "A capsule whose two radii differ.";
    "shape.convex" => "A convex hull shape.";
    "shape.cylinder.defaults" => "A cylinder shape that leaves its sizes to the defaults.";
    "shape.cylinder.explicit" => "A cylinder shape with explicit sizes.";
    "shape.cylinder.tapered" => "A cylinder whose two radii differ.";
    "shape.dating-cylinder" => "An OMI 2024/2025 cylinder written with the radius property of its revision, which dates the document.";
    "shape.is-trigger.false" => "An OMI_collider collider with isTrigger false.";
    "shape.is-trigger.true" => "An OMI_collider collider with isTrigger true.";
    "shape.mesh.cube" => "A mesh shape (convex or triangle mesh) of a cube.";
    "shape.mesh.octahedron" => "A mesh shape (convex or triangle mesh) of an octahedron.";
    "shape.mesh.tetrahedron" => "A mesh shape (convex or triangle mesh) of a tetrahedron.";
    "shape.plane.bounded" => "A khr-2025/khr-2026 plane shape with a size (sizeX, sizeZ).";
    "shape.plane.double-sided" => "A khr-2025/khr-2026 double-sided plane shape.";
    "shape.plane.single-sided" => "A khr-2025/khr-2026 single-sided plane shape.";
    "shape.plane.unbounded" => "A khr-2025/khr-2026 plane shape without a size (infinite).";
    "shape.sphere.defaults" => "A sphere shape that leaves its sizes to the defaults.";
    "shape.sphere.explicit" => "A sphere shape with explicit sizes.";
    "shape.trimesh" => "A triangle mesh shape.";
    "trigger.compound" => "A compound trigger: a trigger made of the shapes of other nodes.";
    "trigger.compound.descendant" => "A compound trigger with a member node deeper than a child.";
    "trigger.compound.events" => "A compound trigger whose enter and exit events the scenario checks.";
    "trigger.on-body" => "A trigger on a body's node or below it.";
    "trigger.simple" => "A trigger with its own shape.";
    "trigger.simple.filter" => "A trigger with a collision filter.";
    "vrm.aim" => "A VRMC_constraints draft aim constraint.";
    "vrm.aim.freeze.default" => "A draft aim constraint without freezeAxes.";
    "vrm.aim.freeze.ff" => "A draft aim constraint with freezeAxes [false, false] (nothing constrained).";
    "vrm.aim.freeze.ft" => "A draft aim constraint with freezeAxes [false, true] (constrained: pitch).";
    "vrm.aim.freeze.tf" => "A draft aim constraint with freezeAxes [true, false] (constrained: yaw).";
    "vrm.aim.freeze.tt" => "A draft aim constraint with freezeAxes [true, true] (constrained: yaw, pitch).";
    "vrm.aim.local-local" => "A draft aim constraint from a local-space source to a local-space destination.";
    "vrm.aim.local-model" => "A draft aim constraint from a local-space source to a model-space destination.";
    "vrm.aim.model-local" => "A draft aim constraint from a model-space source to a local-space destination.";
    "vrm.aim.model-model" => "A draft aim constraint from a model-space source to a model-space destination.";
    "vrm.aim.vectors.default" => "A draft aim constraint without aimVector and upVector (the defaults).";
    "vrm.aim.vectors.explicit" => "A draft aim constraint with an aimVector or an upVector.";
    "vrm.chain" => "A draft constraint whose source (or an ancestor of it) is constrained itself.";
    "vrm.constrained-parent" => "A draft constraint whose destination's parent is constrained.";
    "vrm.position" => "A VRMC_constraints draft position constraint.";
    "vrm.position.freeze.default" => "A draft position constraint without freezeAxes.";
    "vrm.position.freeze.fff" => "A draft position constraint with freezeAxes [false, false, false] (nothing constrained).";
    "vrm.position.freeze.fft" => "A draft position constraint with freezeAxes [false, false, true] (constrained: z).";
    "vrm.position.freeze.ftf" => "A draft position constraint with freezeAxes [false, true, false] (constrained: y).";
    "vrm.position.freeze.ftt" => "A draft position constraint with freezeAxes [false, true, true] (constrained: y, z).";
    "vrm.position.freeze.tff" => "A draft position constraint with freezeAxes [true, false, false] (constrained: x).";
    "vrm.position.freeze.tft" => "A draft position constraint with freezeAxes [true, false, true] (constrained: x, z).";
    "vrm.position.freeze.ttf" => "A draft position constraint with freezeAxes [true, true, false] (constrained: x, y).";
    "vrm.position.freeze.ttt" => "A draft position constraint with freezeAxes [true, true, true] (constrained: x, y, z).";
    "vrm.position.local-local" => "A draft position constraint from a local-space source to a local-space destination.";
    "vrm.position.local-model" => "A draft position constraint from a local-space source to a model-space destination.";
    "vrm.position.model-local" => "A draft position constraint from a model-space source to a local-space destination.";
    "vrm.position.model-model" => "A draft position constraint from a model-space source to a model-space destination.";
    "vrm.rotation" => "A VRMC_constraints draft rotation constraint.";
    "vrm.rotation.freeze.default" => "A draft rotation constraint without freezeAxes.";
    "vrm.rotation.freeze.fff" => "A draft rotation constraint with freezeAxes [false, false, false] (nothing constrained).";
    "vrm.rotation.freeze.fft" => "A draft rotation constraint with freezeAxes [false, false, true] (constrained: z).";
    "vrm.rotation.freeze.ftf" => "A draft rotation constraint with freezeAxes [false, true, false] (constrained: y).";
    "vrm.rotation.freeze.ftt" => "A draft rotation constraint with freezeAxes [false, true, true] (constrained: y, z).";
    "vrm.rotation.freeze.tff" => "A draft rotation constraint with freezeAxes [true, false, false] (constrained: x).";
    "vrm.rotation.freeze.tft" => "A draft rotation constraint with freezeAxes [true, false, true] (constrained: x, z).";
    "vrm.rotation.freeze.ttf" => "A draft rotation constraint with freezeAxes [true, true, false] (constrained: x, y).";
    "vrm.rotation.freeze.ttt" => "A draft rotation constraint with freezeAxes [true, true, true] (constrained: x, y, z).";
    "vrm.rotation.local-local" => "A draft rotation constraint from a local-space source to a local-space destination.";
    "vrm.rotation.local-model" => "A draft rotation constraint from a local-space source to a model-space destination.";
    "vrm.rotation.model-local" => "A draft rotation constraint from a model-space source to a local-space destination.";
    "vrm.rotation.model-model" => "A draft rotation constraint from a model-space source to a model-space destination.";
    "vrm.space.default" => "A draft constraint that leaves a space out (model space by default).";
    "vrm.weight.default" => "A draft constraint without a weight (1 by default).";
    "vrm.weight.one" => "A draft constraint of weight 1.";
    "vrm.weight.partial" => "A draft constraint of a weight between 0 and 1.";
    "vrm.weight.zero" => "A draft constraint of weight 0.";
    "vrm1.aim.negativex" => "A VRM 1.0 aim constraint with aimAxis NegativeX.";
    "vrm1.aim.negativey" => "A VRM 1.0 aim constraint with aimAxis NegativeY.";
    "vrm1.aim.negativez" => "A VRM 1.0 aim constraint with aimAxis NegativeZ.";
    "vrm1.aim.positivex" => "A VRM 1.0 aim constraint with aimAxis PositiveX.";
    "vrm1.aim.positivey" => "A VRM 1.0 aim constraint with aimAxis PositiveY.";
    "vrm1.aim.positivez" => "A VRM 1.0 aim constraint with aimAxis PositiveZ.";
    "vrm1.chain" => "A VRM 1.0 constraint whose source (or an ancestor of it) is constrained itself.";
    "vrm1.constrained-parent" => "A VRM 1.0 constraint whose destination's parent is constrained.";
    "vrm1.node-matrix" => "A VRM 1.0 case written with node matrices.";
    "vrm1.roll.x" => "A VRM 1.0 roll constraint about the X axis.";
    "vrm1.roll.y" => "A VRM 1.0 roll constraint about the Y axis.";
    "vrm1.roll.z" => "A VRM 1.0 roll constraint about the Z axis.";
    "vrm1.rotation" => "A VRMC_node_constraint 1.0 rotation constraint.";
    "vrm1.scale.non-uniform" => "A VRM 1.0 case with non-uniform node scales.";
    "vrm1.scale.shear" => "A VRM 1.0 aim whose parent's world matrix is sheared: informative [D-VRM1-SHEAR].";
    "vrm1.scale.uniform" => "A VRM 1.0 case with uniform node scales.";
    "vrm1.scene.non-default" => "A VRM 1.0 case with a copy of its nodes as scene 0 before the default scene: the copy's constraints are not evaluated [D-SCENE].";
    "vrm1.source-parent" => "A VRM 1.0 constraint whose source is its destination's parent.";
    "vrm1.weight.default" => "A VRM 1.0 constraint without a weight (1 by default).";
    "vrm1.weight.one" => "A VRM 1.0 constraint of weight 1.";
    "vrm1.weight.partial" => "A VRM 1.0 constraint of a weight between 0 and 1.";
    "vrm1.weight.zero" => "A VRM 1.0 constraint of weight 0.";
}

/// The prefix of an invalid case's tag, before its issue code in lower case.
pub const INVALID: &str = "invalid.";

impl FeatureTag {
    /// The area of a tag: its first segment (`shape`, `joint`, `vrm`...).
    pub fn area(self) -> &'static str {
        self.id.split('.').next().unwrap_or(self.id)
    }

    /// Whether `tag` is a tag of the catalogue: one of [`FeatureTag::ALL`], or `invalid.` and
    /// the lower-case id of an issue code.
    pub fn is_known(tag: &str) -> bool {
        FeatureTag::ALL.iter().any(|f| f.id == tag) || FeatureTag::invalid_code(tag).is_some()
    }

    /// The issue code of an `invalid.<code>` tag.
    pub fn invalid_code(tag: &str) -> Option<Code> {
        let code = tag.strip_prefix(INVALID)?;
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.id().to_ascii_lowercase() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_sorted_unique_and_not_invalid() {
        assert!(FeatureTag::ALL.windows(2).all(|w| w[0].id < w[1].id));
        assert!(FeatureTag::ALL.iter().all(|f| !f.id.starts_with(INVALID)));
    }

    #[test]
    fn invalid_tags_name_issue_codes_in_lower_case() {
        assert_eq!(
            FeatureTag::invalid_code("invalid.limit_min_above_max"),
            Some(Code::LimitMinAboveMax)
        );
        assert_eq!(
            FeatureTag::invalid_code("invalid.LIMIT_MIN_ABOVE_MAX"),
            None
        );
        assert_eq!(FeatureTag::invalid_code("invalid.no_such_code"), None);
        assert!(FeatureTag::is_known("body.dynamic"));
        assert!(!FeatureTag::is_known("body.flying"));
    }
}
