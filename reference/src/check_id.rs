//! The catalogue of check ids: the `check` of every result the harness writes (`results.csv`,
//! `results.ndjson`, the HTML report), by kind. A kind is an id without the indices of the
//! objects it is about ([`kind`]: `dynamics.joint-10-limit-0` is of kind
//! `dynamics.joint-limit`), as the fuzzer's symptoms name them; `<pose>` stands for a pose name
//! of the case. `reference/CHECKS.md` is generated from [`CheckId::ALL`], and a test fails when
//! a kind in a committed report is not here.

/// One kind of check id and what a result of it says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckId {
    /// The kind, e.g. `interpretation.bodies.mass` or `constraints.<pose>.rotation`.
    pub id: &'static str,
    /// What passes, in one line.
    pub meaning: &'static str,
}

macro_rules! check_ids {
    ($($id:literal => $meaning:literal;)*) => {
        impl CheckId {
            /// Every kind, in the order a case's checks run.
            pub const ALL: &'static [CheckId] = &[$(CheckId { id: $id, meaning: $meaning },)*];
        }
    };
}

check_ids! {
    // Before and around the calls.
    "capabilities" => "The gate before any call: the implementation's handshake declares the case's profile and feature tags (else NOT_SUPPORTED), a profile applies, and an invalid case goes only to an implementation that takes part in validation (else SKIP).";
    "handshake" => "Building the implementation and its handshake succeed, and a restarted implementation gives the same handshake as its first.";
    "case" => "The case's files read and the case ran to its end: a harness error for unreadable case data, a crash when the worker died, a timeout at the case's deadline, NOTRUN when the restart budget is spent.";
    "unload" => "The implementation unloads the case without crashing.";
    // Validation.
    "load" => "A valid case's file loads (where the texts leave open whether a file with one of its issues is accepted or refused, refusing it passes too).";
    "validation.reject" => "An invalid case's file is refused, with the expected error codes when the implementation names codes.";
    // Interpretation: what the implementation built, against the reference's expectation.
    "interpretation" => "The interpretation call itself: SKIP when the case carries no expected interpretation, else the call's failure.";
    "interpretation.bodies.set" => "The implementation reports exactly the expected bodies, by node.";
    "interpretation.bodies.kind" => "Each body is static, kinematic or dynamic as expected.";
    "interpretation.bodies.mass" => "Each body's mass (finite, infinite, or left to the engine) is the expected one.";
    "interpretation.bodies.center_of_mass" => "Each body's centre of mass is the expected one.";
    "interpretation.bodies.inertia" => "Each body's inertia (principal moments and their orientation) is the expected one, where the expectation gives one.";
    "interpretation.bodies.velocity" => "Each body's initial linear and angular velocities (world space) are the expected ones.";
    "interpretation.bodies.gravity_factor" => "Each body's gravity factor is the expected one.";
    "interpretation.colliders.set" => "The implementation reports exactly the expected colliders, by node.";
    "interpretation.colliders.owner" => "Each collider belongs to the expected body (or to none: static).";
    "interpretation.colliders.shape" => "Each collider's shape is of the expected kind.";
    "interpretation.colliders.shape_size" => "Each collider's shape has the expected size (scale folded in).";
    "interpretation.colliders.translation" => "Each collider sits at the expected world position.";
    "interpretation.colliders.rotation" => "Each collider has the expected world rotation.";
    "interpretation.pairs.contact" => "Each pair of colliders collides, overlaps (a trigger) or neither, as the filters, triggers and joints say.";
    "interpretation.pairs.friction" => "Each colliding pair's combined friction is the expected one.";
    "interpretation.pairs.restitution" => "Each colliding pair's combined restitution is the expected one.";
    "interpretation.joints.set" => "The implementation reports exactly the expected joints, by node.";
    "interpretation.joints.bodies" => "Each joint connects the expected two bodies (or a body and the world).";
    "interpretation.joints.frames.translation" => "Each joint's two attachment frames are at the expected positions.";
    "interpretation.joints.frames.rotation" => "Each joint's two attachment frames have the expected rotations.";
    "interpretation.joints.limits" => "Each joint's limits (axes, bounds, stiffness, damping) are the expected ones.";
    "interpretation.joints.drives" => "Each joint's drives (axis, mode, targets, gains, maximum force) are the expected ones.";
    // VRM constraints, per pose of the case.
    "constraints" => "The constraints family: SKIP when the implementation does not take part in it, NOTRUN after an earlier call crashed.";
    "constraints.<pose>" => "Evaluating the constraints at the pose: the call's failure.";
    "constraints.<pose>.nodes" => "At the pose, every constrained node is reported.";
    "constraints.<pose>.translation" => "At the pose, the worst constrained node's translation (and scale) is the expected one.";
    "constraints.<pose>.rotation" => "At the pose, the worst constrained node's rotation is the expected one.";
    // Dynamics: the scenario's checks, each `dynamics.<name>` as the case names it.
    "dynamics" => "The simulation call: SKIP when the implementation does not take part in dynamics, NOTRUN after an earlier call crashed, else the call's failure.";
    "dynamics.static-still.translation" => "Static bodies and colliders never move.";
    "dynamics.static-still.rotation" => "Static bodies and colliders never turn.";
    "dynamics.no-contact" => "The pairs that must not collide (filters, triggers, joints without enableCollision) never touch.";
    "dynamics.gravity" => "A free dynamic body falls with gravity times its gravity factor.";
    "dynamics.kinematic" => "A kinematic body keeps its velocity.";
    "dynamics.joint-limit" => "A joint limit holds over the run (hard limits) or after it settles (soft ones).";
    "dynamics.hard-limit-holds" => "A hard limit holds while a body is pushed against it.";
    "dynamics.soft-limit-overshoot" => "A body pushed into a soft limit overshoots it by the amount its stiffness and damping predict.";
    "dynamics.soft-limit-returns" => "A body that overshot a soft limit comes back within it.";
    "dynamics.reach-max" => "A body pushed along a limited degree of freedom gets to the limit's maximum (a bound read too tight or too loose fails).";
    "dynamics.reach-min" => "A body pushed along a limited degree of freedom gets to the limit's minimum.";
    "dynamics.reach-open-min" => "A body pushed past a limit's open minimum side travels on to where it is expected (a side read as 0 would stop it).";
    "dynamics.sinks-to-floor" => "A body held up by a position drive whose maximum force is below its weight gives way and sinks to the floor a limit sets.";
    "dynamics.drive-target" => "A joint drive holds its position target.";
    "dynamics.drive-rest" => "A joint drive comes to rest where its target, gains and load predict.";
    "dynamics.drive-velocity" => "A joint drive moves its body at its velocity target.";
    "dynamics.bounce-apex" => "A dropped ball bounces to the height its combined restitution predicts.";
    "dynamics.approach-velocity" => "A ball launched at a surface approaches it at the launch speed.";
    "dynamics.rebound-velocity" => "A ball rebounds at the launch speed times the pair's combined restitution.";
    "dynamics.slide-distance" => "A sliding box stops after the distance its combined friction predicts.";
    "dynamics.sliding-deceleration" => "A sliding box decelerates at its combined friction times gravity.";
    "dynamics.falls-through" => "A ball whose collision filter excludes the ground falls through it at gravity.";
    "dynamics.trigger-enter-exit" => "A trigger reports the enter and the exit of a body falling through it.";
    "dynamics.trigger-never-pushes" => "A body falling through a trigger keeps falling at gravity: the trigger never pushes.";
    "dynamics.compound-trigger-enter-exit" => "A compound trigger reports, on its own node, the enter and the exit of a body passing through its members.";
    "dynamics.impulse-velocity" => "An impulse action gives a body the velocity impulse over mass.";
    "dynamics.kinematic-pose-reached" => "A kinematic body driven by a pose action gets to the target pose.";
    "dynamics.ball-settles-on-part" => "A ball dropped on a node geometry settles on the top of the part the geometry's node transforms put under it.";
    "dynamics.ball-settles-on-the-mesh" => "A ball dropped on a mesh geometry settles on the mesh's top, where the geometry places it.";
    "dynamics.ball-settles-on-deformed-top" => "A ball dropped on a morphed or skinned node geometry settles on the deformed top.";
}

impl CheckId {
    /// The catalogue entry of a check id or kind, if any: exact, or with `<pose>` standing for
    /// one pose name (no dots).
    pub fn of(check: &str) -> Option<&'static CheckId> {
        let kind = kind(check);
        CheckId::ALL.iter().find(|c| matches(c.id, &kind))
    }
}

/// Whether `kind` is an id of the `pattern`, `<pose>` matching one dot-free name.
fn matches(pattern: &str, kind: &str) -> bool {
    match pattern.split_once("<pose>") {
        None => pattern == kind,
        Some((head, tail)) => kind
            .strip_prefix(head)
            .and_then(|rest| rest.strip_suffix(tail))
            .is_some_and(|pose| !pose.is_empty() && !pose.contains('.')),
    }
}

/// A check's kind: its id without the indices of the objects it is about, which change as a
/// scene changes (`dynamics.joint-10-limit-0` is of kind `dynamics.joint-limit`): every
/// `-`-separated part after the first that is all digits is dropped, the rule the harness's
/// fuzzer names its symptoms by.
pub fn kind(check: &str) -> String {
    let mut out = String::with_capacity(check.len());
    for (i, part) in check.split('-').enumerate() {
        if i > 0 && !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        if i > 0 {
            out.push('-');
        }
        out.push_str(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fuzzer's own examples.
    #[test]
    fn a_kind_drops_object_indices_only() {
        assert_eq!(kind("dynamics.joint-10-limit-0"), "dynamics.joint-limit");
        assert_eq!(kind("dynamics.gravity-3"), "dynamics.gravity");
        assert_eq!(kind("dynamics.gravity-9-8"), "dynamics.gravity");
        assert_eq!(
            kind("interpretation.bodies.center_of_mass"),
            "interpretation.bodies.center_of_mass"
        );
        assert_eq!(
            kind("dynamics.soft-limit-returns"),
            "dynamics.soft-limit-returns"
        );
    }

    #[test]
    fn ids_are_unique_and_poses_match_one_name() {
        for (i, c) in CheckId::ALL.iter().enumerate() {
            assert!(CheckId::ALL[..i].iter().all(|d| d.id != c.id), "{}", c.id);
        }
        let of = |check| CheckId::of(check).map(|c| c.id);
        assert_eq!(
            of("constraints.twist-30-swing-30.rotation"),
            Some("constraints.<pose>.rotation")
        );
        assert_eq!(of("constraints.turned"), Some("constraints.<pose>"));
        assert_eq!(of("constraints..nodes"), None);
        assert_eq!(
            of("dynamics.ball-2-settles-on-the-mesh"),
            Some("dynamics.ball-settles-on-the-mesh")
        );
        assert_eq!(of("dynamics.joint-4-limit-1"), Some("dynamics.joint-limit"));
        assert_eq!(of("dynamics.unknown"), None);
    }
}
