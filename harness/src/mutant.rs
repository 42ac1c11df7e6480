//! The mutant switch: one seeded importer bug ([`Mutant`]) and the misreadings of the file that
//! the bundled adapters read it through. A leaf below the adapters, so that they can carry a
//! bug without knowing the measurement that asks for it (`crate::mutants`).

use serde::{Deserialize, Serialize};

use reference::scene::{DofKind, Limit, Scene};

use crate::implementation::Capabilities;

/// One seeded importer bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mutant {
    // Rapier (the misreadings of the file also the reference: see `implementations`).
    AngularLimitsInDegrees,
    OpenLimitSideAsZero,
    DriveMaxForceIgnored,
    GravityFactorIgnored,
    SoftLimitsHard,
    #[serde(rename = "gravity-9-8")]
    Gravity98,
    NodeMatrixIgnored,
    CombineModeIgnored,
    CompoundTriggerWrongNode,
    ImpulseAsForce,
    KinematicPoseIgnored,
    DefaultSceneIgnored,
    // The reference (VRM constraint outputs).
    VrmWeightIgnored,
    VrmQuaternionWxyz,
    VrmFileOrder,
    VrmRollAxisOffByOne,
    VrmFreezeInverted,
    VrmNodeMatrixIgnored,
    VrmScaleIgnored,
    VrmDefaultSceneIgnored,
    // Blind spots of the generated scenes (issue 37): Rapier and the reference.
    GeometryNodeTransformsIgnored,
    OmiZeroInertiaAsInfinite,
}

impl Mutant {
    /// Every mutant, Rapier's first, in the order reports list them.
    pub const ALL: &'static [Mutant] = &[
        Mutant::AngularLimitsInDegrees,
        Mutant::OpenLimitSideAsZero,
        Mutant::DriveMaxForceIgnored,
        Mutant::GravityFactorIgnored,
        Mutant::SoftLimitsHard,
        Mutant::Gravity98,
        Mutant::NodeMatrixIgnored,
        Mutant::CombineModeIgnored,
        Mutant::CompoundTriggerWrongNode,
        Mutant::ImpulseAsForce,
        Mutant::KinematicPoseIgnored,
        Mutant::DefaultSceneIgnored,
        Mutant::VrmWeightIgnored,
        Mutant::VrmQuaternionWxyz,
        Mutant::VrmFileOrder,
        Mutant::VrmRollAxisOffByOne,
        Mutant::VrmFreezeInverted,
        Mutant::VrmNodeMatrixIgnored,
        Mutant::VrmScaleIgnored,
        Mutant::VrmDefaultSceneIgnored,
        Mutant::GeometryNodeTransformsIgnored,
        Mutant::OmiZeroInertiaAsInfinite,
    ];

    /// The stable kebab-case id (`--mutant`, reports).
    pub fn id(self) -> &'static str {
        match self {
            Mutant::AngularLimitsInDegrees => "angular-limits-in-degrees",
            Mutant::OpenLimitSideAsZero => "open-limit-side-as-zero",
            Mutant::DriveMaxForceIgnored => "drive-max-force-ignored",
            Mutant::GravityFactorIgnored => "gravity-factor-ignored",
            Mutant::SoftLimitsHard => "soft-limits-hard",
            Mutant::Gravity98 => "gravity-9-8",
            Mutant::NodeMatrixIgnored => "node-matrix-ignored",
            Mutant::CombineModeIgnored => "combine-mode-ignored",
            Mutant::CompoundTriggerWrongNode => "compound-trigger-wrong-node",
            Mutant::ImpulseAsForce => "impulse-as-force",
            Mutant::KinematicPoseIgnored => "kinematic-pose-ignored",
            Mutant::DefaultSceneIgnored => "default-scene-ignored",
            Mutant::VrmWeightIgnored => "vrm-weight-ignored",
            Mutant::VrmQuaternionWxyz => "vrm-quaternion-wxyz",
            Mutant::VrmFileOrder => "vrm-file-order",
            Mutant::VrmRollAxisOffByOne => "vrm-roll-axis-off-by-one",
            Mutant::VrmFreezeInverted => "vrm-freeze-inverted",
            Mutant::VrmNodeMatrixIgnored => "vrm-node-matrix-ignored",
            Mutant::VrmScaleIgnored => "vrm-scale-ignored",
            Mutant::VrmDefaultSceneIgnored => "vrm-default-scene-ignored",
            Mutant::GeometryNodeTransformsIgnored => "geometry-node-transforms-ignored",
            Mutant::OmiZeroInertiaAsInfinite => "omi-zero-inertia-as-infinite",
        }
    }

    /// One line: what the importer gets wrong.
    pub fn description(self) -> &'static str {
        match self {
            Mutant::AngularLimitsInDegrees => {
                "angular limit bounds read as degrees (converted to radians again)"
            }
            Mutant::OpenLimitSideAsZero => {
                "an absent limit side (min or max) read as 0 when the other side is given"
            }
            Mutant::DriveMaxForceIgnored => "a drive's maxForce ignored (unlimited)",
            Mutant::GravityFactorIgnored => "a body's gravityFactor ignored (1)",
            Mutant::SoftLimitsHard => "soft limits (with stiffness) built as hard ones",
            Mutant::Gravity98 => "gravity 9.8 instead of the scenario's 9.81",
            Mutant::NodeMatrixIgnored => "a node's matrix ignored (identity) in world poses",
            Mutant::CombineModeIgnored => {
                "friction and restitution combine modes ignored (always average)"
            }
            Mutant::CompoundTriggerWrongNode => {
                "trigger events of a compound trigger reported on the member node"
            }
            Mutant::ImpulseAsForce => "an impulse applied as a force for one step",
            Mutant::KinematicPoseIgnored => "the kinematic_pose action ignored",
            Mutant::DefaultSceneIgnored => "the document's default scene ignored (scene 0 loaded)",
            Mutant::VrmWeightIgnored => "a constraint's weight ignored (1)",
            Mutant::VrmQuaternionWxyz => "output rotations written [w, x, y, z]",
            Mutant::VrmFileOrder => "constraints evaluated in file order, not dependency order",
            Mutant::VrmRollAxisOffByOne => "VRM 1.0 roll axis off by one (X->Y, Y->Z, Z->X)",
            Mutant::VrmFreezeInverted => "draft freezeAxes inverted (true read as free)",
            Mutant::VrmNodeMatrixIgnored => {
                "VRM: a node's matrix ignored (identity rest transform) in constraint evaluation"
            }
            Mutant::VrmScaleIgnored => "VRM: node scales ignored (read as 1)",
            Mutant::VrmDefaultSceneIgnored => {
                "VRM: the document's default scene ignored (scene 0's constraints evaluated)"
            }
            Mutant::GeometryNodeTransformsIgnored => {
                "khr-2025 node geometry: the transforms of the nodes below the geometry node ignored"
            }
            Mutant::OmiZeroInertiaAsInfinite => {
                "OMI inertiaDiagonal zeros read as infinite moments (KHR's meaning), not computed"
            }
        }
    }

    /// The bundled implementations the bug is seeded in: a misreading of the file that the
    /// interpretation shows is seeded in Rapier and in the reference ([`misread_scene`]).
    pub fn implementations(self) -> &'static [&'static str] {
        match self {
            Mutant::VrmWeightIgnored
            | Mutant::VrmQuaternionWxyz
            | Mutant::VrmFileOrder
            | Mutant::VrmRollAxisOffByOne
            | Mutant::VrmFreezeInverted
            | Mutant::VrmNodeMatrixIgnored
            | Mutant::VrmScaleIgnored
            | Mutant::VrmDefaultSceneIgnored => &["reference"],
            Mutant::AngularLimitsInDegrees
            | Mutant::OpenLimitSideAsZero
            | Mutant::DriveMaxForceIgnored
            | Mutant::GravityFactorIgnored
            | Mutant::SoftLimitsHard
            | Mutant::NodeMatrixIgnored
            | Mutant::CombineModeIgnored
            | Mutant::DefaultSceneIgnored
            | Mutant::GeometryNodeTransformsIgnored => &["rapier", "reference"],
            Mutant::Gravity98
            | Mutant::CompoundTriggerWrongNode
            | Mutant::ImpulseAsForce
            | Mutant::KinematicPoseIgnored
            // The interpretation leaves a computed inertia to the engine (reported unspecified,
            // never checked), so only a simulation shows this misreading.
            | Mutant::OmiZeroInertiaAsInfinite => &["rapier"],
        }
    }

    /// Whether the bug is seeded in `implementation`.
    pub fn seeded_in(self, implementation: &str) -> bool {
        self.implementations().contains(&implementation)
    }

    /// Feature tags of the cases that exercise the bug (a tag ending in `.` is a prefix), so a
    /// survivor's report says how many cases could have caught it. Empty: no tag names it.
    pub fn tags(self) -> &'static [&'static str] {
        match self {
            Mutant::AngularLimitsInDegrees => &["joint.limit.angular.", "omi.constraint.angular."],
            Mutant::OpenLimitSideAsZero => &["joint.limit.open-min", "joint.limit.open-max"],
            Mutant::DriveMaxForceIgnored => &["joint.drive.max-force"],
            Mutant::GravityFactorIgnored => &["body.gravity-factor"],
            Mutant::SoftLimitsHard => &["joint.limit.soft", "omi.constraint.soft"],
            Mutant::Gravity98 => &["body.dynamic"],
            Mutant::NodeMatrixIgnored => &["node.matrix"],
            Mutant::CombineModeIgnored => &["material.combine.", "material.restitution-combine."],
            Mutant::CompoundTriggerWrongNode => &["trigger.compound"],
            Mutant::ImpulseAsForce => &["body.dynamic.impulse-action"],
            Mutant::KinematicPoseIgnored => &["body.kinematic.pose-action"],
            Mutant::DefaultSceneIgnored => &["scene.non-default"],
            Mutant::VrmWeightIgnored => &[
                "vrm.weight.partial",
                "vrm.weight.zero",
                "vrm1.weight.partial",
                "vrm1.weight.zero",
            ],
            Mutant::VrmQuaternionWxyz => &["vrm.rotation", "vrm.aim", "vrm1."],
            Mutant::VrmFileOrder => &["vrm.chain", "vrm1.chain"],
            Mutant::VrmRollAxisOffByOne => &["vrm1.roll."],
            Mutant::VrmFreezeInverted => &[
                "vrm.position.freeze.",
                "vrm.rotation.freeze.",
                "vrm.aim.freeze.",
            ],
            Mutant::VrmNodeMatrixIgnored => &["vrm1.node-matrix"],
            Mutant::VrmScaleIgnored => &["vrm1.scale."],
            Mutant::VrmDefaultSceneIgnored => &["vrm1.scene.non-default"],
            Mutant::GeometryNodeTransformsIgnored => &["geometry.node."],
            Mutant::OmiZeroInertiaAsInfinite => &["body.inertia-diagonal.zero"],
        }
    }

    /// Whether a case with `features` exercises the bug (carries one of its [`Mutant::tags`]).
    pub fn exercised_by(self, features: &[String]) -> bool {
        let caps = Capabilities {
            features: self.tags().iter().map(|t| (*t).to_owned()).collect(),
            ..Capabilities::default()
        };
        features.iter().any(|f| caps.supports_feature(f))
    }

    /// The mutant of this id.
    pub fn from_id(id: &str) -> Option<Mutant> {
        Mutant::ALL.iter().copied().find(|m| m.id() == id)
    }

    /// The mutant of this id, or an error that lists the ids (`--mutant`).
    pub fn parse(id: &str) -> anyhow::Result<Mutant> {
        Mutant::from_id(id).ok_or_else(|| {
            let ids: Vec<&str> = Mutant::ALL.iter().map(|m| m.id()).collect();
            anyhow::anyhow!("unknown mutant {id:?}; mutants: {}", ids.join(", "))
        })
    }

    /// The mutants of one implementation, in [`Mutant::ALL`] order.
    pub fn of(implementation: &str) -> Vec<Mutant> {
        Mutant::ALL
            .iter()
            .copied()
            .filter(|m| m.seeded_in(implementation))
            .collect()
    }
}

/// A limit as read with a seeded importer bug: the same limit without one. `coupled`: the
/// joint's limits couple their axes (KHR, OMI 2024 on).
pub fn misread_limit(limit: &Limit, coupled: bool, mutant: Option<Mutant>) -> Limit {
    let mut l = limit.clone();
    if mutant == Some(Mutant::AngularLimitsInDegrees) && l.kind == DofKind::Angular {
        l.min = l.min.map(f64::to_radians);
        l.max = l.max.map(f64::to_radians);
    }
    if mutant == Some(Mutant::OpenLimitSideAsZero) && l.min.is_some() != l.max.is_some() {
        // A coupled distance has no lower side to leave open: its absent minimum is right.
        if !(coupled && l.kind == DofKind::Linear && l.axes.len() > 1) {
            l.min.get_or_insert(0.0);
        }
        l.max.get_or_insert(0.0);
    }
    if mutant == Some(Mutant::SoftLimitsHard) {
        l.stiffness = None;
    }
    l
}

/// The scene as an importer with a seeded bug reads it (unchanged for a bug that is not a
/// misreading of the file): the reference's way of carrying the interpretation bugs that
/// Rapier carries at the places it builds from.
pub fn misread_scene(scene: &mut Scene, mutant: Option<Mutant>) {
    let Some(m) = mutant else { return };
    match m {
        Mutant::AngularLimitsInDegrees | Mutant::OpenLimitSideAsZero | Mutant::SoftLimitsHard => {
            for j in &mut scene.joints {
                let coupled = matches!(j.limits, reference::scene::LimitSet::Coupled(_));
                let (reference::scene::LimitSet::Coupled(list)
                | reference::scene::LimitSet::PerAxis(list)) = &mut j.limits;
                for l in list.iter_mut() {
                    *l = misread_limit(l, coupled, mutant);
                }
            }
        }
        Mutant::DriveMaxForceIgnored => {
            for d in scene.joints.iter_mut().flat_map(|j| &mut j.drives) {
                d.max_force = None;
            }
        }
        Mutant::GravityFactorIgnored => {
            for b in &mut scene.bodies {
                b.gravity_factor = 1.0;
            }
        }
        Mutant::NodeMatrixIgnored => {
            for n in scene.nodes.iter_mut().filter(|n| n.from_matrix) {
                n.rest = reference::scene::Trs::default();
            }
        }
        Mutant::CombineModeIgnored => {
            for mat in &mut scene.materials {
                (mat.friction_combine, mat.restitution_combine) = (None, None);
            }
        }
        _ => {}
    }
}

impl std::fmt::Display for Mutant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for &m in Mutant::ALL {
            assert!(seen.insert(m.id()), "{m} twice");
            assert!(
                m.id()
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "{m}"
            );
            assert_eq!(Mutant::from_id(m.id()), Some(m));
            assert_eq!(
                serde_json::to_value(m).expect("serialises"),
                serde_json::Value::from(m.id())
            );
            assert!(!m.implementations().is_empty(), "{m}");
        }
        // 8 VRM bugs and 9 misreadings of the file; the misreadings and 5 bugs of simulation
        // (OMI zero inertia read as infinite shows in a simulation only).
        assert_eq!(Mutant::of("reference").len(), 17);
        assert_eq!(Mutant::of("rapier").len(), 14);
    }

    #[test]
    fn tags_match_as_capabilities_do() {
        let f = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(Mutant::AngularLimitsInDegrees.exercised_by(&f(&["joint.limit.angular.2"])));
        assert!(!Mutant::AngularLimitsInDegrees.exercised_by(&f(&["joint.limit.linear.1"])));
        assert!(Mutant::CompoundTriggerWrongNode.exercised_by(&f(&["trigger.compound"])));
        // `trigger.compound` is exact: its descendant variant is a different tag.
        assert!(!Mutant::CompoundTriggerWrongNode.exercised_by(&f(&["trigger.simple"])));
        assert!(!Mutant::NodeMatrixIgnored.exercised_by(&f(&["body.dynamic"])));
        assert!(Mutant::NodeMatrixIgnored.exercised_by(&f(&["node.matrix"])));
        assert!(Mutant::DefaultSceneIgnored.exercised_by(&f(&["scene.non-default"])));
        assert!(Mutant::VrmScaleIgnored.exercised_by(&f(&["vrm1.scale.non-uniform"])));
        assert!(!Mutant::VrmNodeMatrixIgnored.exercised_by(&f(&["node.matrix"])));
        assert!(Mutant::VrmDefaultSceneIgnored.exercised_by(&f(&["vrm1.scene.non-default"])));
    }
}
