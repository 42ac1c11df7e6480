//! Joint compositions: KHR joint descriptions built from limits and drives (the named kinds of
//! seed 002 plus random ones) and OMI joints built from constraints (the special cases of
//! seed 000 plus random ones).

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::common::{Tags, dec, tag};
use super::drive::{DriveSpec, drive};
use super::limit::{LimitSpec, OmiConstraintSpec, hard, limit, omi_constraint, omi_hard};

/// A KHR `physicsJoints` entry with the name of its composition.
#[derive(Clone, Debug, PartialEq)]
pub struct JointDescSpec {
    pub kind: &'static str,
    pub limits: Vec<LimitSpec>,
    pub drives: Vec<DriveSpec>,
}

fn other_two(axis: u8) -> Vec<u8> {
    (0..3).filter(|&a| a != axis).collect()
}

/// Named compositions: fixed, ball (3D linear 0), hinge (the hinged door of seed 002: 3D
/// linear 0, 1D angular swing, 2D angular 0), slider, cone, and random ones.
pub fn joint_desc() -> impl Strategy<Value = JointDescSpec> + Clone {
    let named = (0u8..=5, 0u8..=2, dec(-157, 0, 100.0), dec(0, 157, 100.0)).prop_map(
        |(kind, axis, lo, hi)| {
            let all = [0u8, 1, 2];
            let (kind, limits) = match kind {
                0 => (
                    "fixed",
                    vec![
                        hard(true, &all, None, Some(0.0)),
                        hard(false, &all, None, Some(0.0)),
                    ],
                ),
                1 => ("ball", vec![hard(true, &all, Some(0.0), Some(0.0))]),
                2 => (
                    "hinge",
                    vec![
                        hard(true, &all, None, Some(0.0)),
                        hard(false, &[axis], Some(lo), Some(hi)),
                        hard(false, &other_two(axis), Some(0.0), Some(0.0)),
                    ],
                ),
                3 => (
                    "slider",
                    vec![
                        hard(true, &[axis], Some(lo / 2.0), Some(hi / 2.0)),
                        hard(true, &other_two(axis), None, Some(0.0)),
                        hard(false, &all, None, Some(0.0)),
                    ],
                ),
                4 => (
                    "cone",
                    vec![
                        hard(true, &all, None, Some(0.0)),
                        hard(false, &other_two(axis), Some(0.0), Some(hi)),
                    ],
                ),
                _ => ("ball-open", vec![hard(true, &all, None, Some(0.0))]),
            };
            (kind, limits)
        },
    );
    let random = prop::collection::vec(limit(), 1..=4).prop_map(|l| ("generic", l));
    (
        prop_oneof![2 => named.boxed(), 1 => random.boxed()],
        prop::collection::vec(drive(), 0..=2),
    )
        .prop_map(|((kind, limits), drives)| JointDescSpec {
            kind,
            limits,
            drives,
        })
}

impl JointDescSpec {
    /// The `physicsJoints` entry: `limits` (none: left out) and the drives (if any).
    pub fn render(&self, limits: Option<Vec<Value>>) -> Value {
        let mut v = Map::new();
        if let Some(limits) = limits {
            v.insert("limits".into(), Value::Array(limits));
        }
        if !self.drives.is_empty() {
            let drives = self.drives.iter().map(|x| x.render()).collect();
            v.insert("drives".into(), Value::Array(drives));
        }
        Value::from(v)
    }

    pub fn tags(&self, tags: &mut Tags) {
        tag(tags, &["joint", "kind", self.kind]);
        for l in &self.limits {
            l.tags(tags);
        }
        for d in &self.drives {
            d.tags(tags);
        }
    }
}

/// An OMI joint: its constraints, with the special case it is.
#[derive(Clone, Debug, PartialEq)]
pub struct OmiJointSpec {
    pub kind: &'static str,
    pub constraints: Vec<OmiConstraintSpec>,
}

/// The special cases of seed 000 (fixed, pin, hinge, slider) and random joints.
pub fn omi_joint() -> impl Strategy<Value = OmiJointSpec> + Clone {
    let named = (
        0u8..=4,
        0u8..=2,
        dec(-157, -1, 100.0),
        dec(1, 157, 100.0),
        any::<bool>(),
    )
        .prop_map(|(kind, axis, lo, hi, with_angular)| {
            let all = [0u8, 1, 2];
            match kind {
                0 => OmiJointSpec {
                    kind: "fixed",
                    constraints: vec![omi_hard(&all, &all, None, None)],
                },
                1 => OmiJointSpec {
                    kind: "pin",
                    constraints: vec![omi_hard(&all, &[], None, None)],
                },
                2 => OmiJointSpec {
                    kind: "hinge",
                    constraints: vec![
                        omi_hard(&all, &other_two(axis), None, None),
                        omi_hard(&[], &[axis], Some(lo), Some(hi)),
                    ],
                },
                3 => {
                    // One linear axis with a range; optionally the rotation about it too.
                    let mut c = vec![
                        omi_hard(&[axis], &[], Some(lo / 2.0), Some(hi / 2.0)),
                        omi_hard(&other_two(axis), &[], None, None),
                    ];
                    if with_angular {
                        c.push(omi_hard(&[], &[axis], Some(lo), Some(hi)));
                        c.push(omi_hard(&[], &other_two(axis), None, None));
                    } else {
                        c.push(omi_hard(&[], &all, None, None));
                    }
                    OmiJointSpec {
                        kind: "slider",
                        constraints: c,
                    }
                }
                _ => OmiJointSpec {
                    kind: "pin-soft",
                    constraints: vec![OmiConstraintSpec {
                        stiffness: Some(0.3),
                        ..omi_hard(&all, &[], None, None)
                    }],
                },
            }
        });
    let random =
        prop::collection::vec(omi_constraint(), 1..=3).prop_map(|constraints| OmiJointSpec {
            kind: "generic",
            constraints,
        });
    prop_oneof![2 => named.boxed(), 1 => random.boxed()]
}

impl OmiJointSpec {
    pub fn tags(&self, tags: &mut Tags) {
        tag(tags, &["omi", "joint", self.kind]);
        for c in &self.constraints {
            c.tags(tags);
        }
    }
}

/// Every joint kind tag of a KHR description.
pub fn universe(tags: &mut Tags) {
    for k in [
        "fixed",
        "ball",
        "hinge",
        "slider",
        "cone",
        "ball-open",
        "generic",
    ] {
        tag(tags, &["joint", "kind", k]);
    }
}
