//! Rigid body properties: KHR `motion` and OMI_physics_body.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::common::{Tags, dec, dec3, present, tag};
use super::transform;

/// KHR `motion` (seed 002 Motions). `None` fields are omitted.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionSpec {
    pub is_kinematic: Option<bool>,
    /// Positive when given: a zero mass means infinite (an info issue), so valid scenes avoid it.
    pub mass: Option<f64>,
    pub center_of_mass: Option<[f64; 3]>,
    pub inertia_diagonal: Option<[f64; 3]>,
    pub inertia_orientation: Option<[f64; 4]>,
    pub linear_velocity: Option<[f64; 3]>,
    pub angular_velocity: Option<[f64; 3]>,
    pub gravity_factor: Option<f64>,
}

pub fn motion() -> impl Strategy<Value = MotionSpec> + Clone {
    (
        prop::option::weighted(0.4, any::<bool>()),
        prop::option::weighted(0.5, dec(1, 50, 10.0)),
        prop::option::weighted(0.3, dec3(-2, 2, 10.0)),
        prop::option::weighted(0.3, dec3(1, 20, 10.0)),
        prop::option::weighted(0.2, transform::rotation()),
        prop::option::weighted(0.3, dec3(-10, 10, 10.0)),
        prop::option::weighted(0.3, dec3(-10, 10, 10.0)),
        prop::option::weighted(0.2, prop::sample::select(vec![0.0, 0.5, 1.0, 2.0])),
    )
        .prop_map(|(k, mass, com, diag, orient, lin, ang, g)| MotionSpec {
            is_kinematic: k,
            mass,
            center_of_mass: com,
            inertia_diagonal: diag,
            inertia_orientation: orient,
            linear_velocity: lin,
            angular_velocity: ang,
            gravity_factor: g,
        })
        .boxed()
}

impl MotionSpec {
    pub fn kinematic(&self) -> bool {
        self.is_kinematic == Some(true)
    }

    /// The properties both families spell alike (all but KHR's `isKinematic`, OMI's `type`).
    fn properties(&self) -> Map<String, Value> {
        present([
            ("mass", self.mass.map(Value::from)),
            ("centerOfMass", self.center_of_mass.map(Value::from)),
            ("inertiaDiagonal", self.inertia_diagonal.map(Value::from)),
            (
                "inertiaOrientation",
                self.inertia_orientation.map(Value::from),
            ),
            ("linearVelocity", self.linear_velocity.map(Value::from)),
            ("angularVelocity", self.angular_velocity.map(Value::from)),
            ("gravityFactor", self.gravity_factor.map(Value::from)),
        ])
    }

    /// KHR's `motion`.
    pub fn render(&self) -> Value {
        let mut m = self.properties();
        if let Some(v) = self.is_kinematic {
            m.insert("isKinematic".into(), Value::from(v));
        }
        Value::from(m)
    }

    /// Restructured OMI's `motion`: `isKinematic` becomes the `type`.
    pub fn render_omi(&self) -> Value {
        let mut m = self.properties();
        let kind = if self.kinematic() {
            "kinematic"
        } else {
            "dynamic"
        };
        m.insert("type".into(), Value::from(kind));
        Value::from(m)
    }

    /// KHR's tags: a mass left out is computed.
    pub fn tags(&self, tags: &mut Tags) {
        self.tags_with(tags, "computed");
        if self.is_kinematic == Some(false) {
            tag(tags, &["body", "kinematic-false-explicit"]);
        }
    }

    /// Restructured OMI's tags: a mass left out is OMI's default.
    pub fn omi_tags(&self, tags: &mut Tags) {
        self.tags_with(tags, "default");
    }

    fn tags_with(&self, tags: &mut Tags, mass_omitted: &str) {
        let kind = if self.kinematic() {
            "kinematic"
        } else {
            "dynamic"
        };
        tag(tags, &["body", kind]);
        let mass = if self.mass.is_some() {
            "explicit"
        } else {
            mass_omitted
        };
        tag(tags, &["body", "mass", mass]);
        for (present, name) in [
            (self.center_of_mass.is_some(), "center-of-mass"),
            (self.inertia_diagonal.is_some(), "inertia-diagonal"),
            (self.inertia_orientation.is_some(), "inertia-orientation"),
            (self.linear_velocity.is_some(), "linear-velocity"),
            (self.angular_velocity.is_some(), "angular-velocity"),
            (self.gravity_factor.is_some(), "gravity-factor"),
        ] {
            if present {
                tag(tags, &["body", name]);
            }
        }
    }
}

/// OMI_physics_body `type` (seed 001).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OmiType {
    Static,
    Kinematic,
    Character,
    Rigid,
    Vehicle,
    Trigger,
}

impl OmiType {
    pub const ALL: [OmiType; 6] = [
        OmiType::Static,
        OmiType::Kinematic,
        OmiType::Character,
        OmiType::Rigid,
        OmiType::Vehicle,
        OmiType::Trigger,
    ];

    pub fn name(self) -> &'static str {
        match self {
            OmiType::Static => "static",
            OmiType::Kinematic => "kinematic",
            OmiType::Character => "character",
            OmiType::Rigid => "rigid",
            OmiType::Vehicle => "vehicle",
            OmiType::Trigger => "trigger",
        }
    }

    /// Rigid body physics: what a joint needs on at least one side.
    pub fn is_rigid(self) -> bool {
        matches!(self, OmiType::Rigid | OmiType::Vehicle)
    }
}

/// OMI_physics_body. `None` fields are omitted.
#[derive(Clone, Debug, PartialEq)]
pub struct OmiBodySpec {
    pub kind: OmiType,
    pub mass: Option<f64>,
    pub linear_velocity: Option<[f64; 3]>,
    pub angular_velocity: Option<[f64; 3]>,
    pub center_of_mass: Option<[f64; 3]>,
    /// Row-major, symmetric and positive definite (diagonal >= 1, couplings <= 0.2).
    pub inertia_tensor: Option<[f64; 9]>,
}

pub fn omi_body(kinds: Vec<OmiType>) -> impl Strategy<Value = OmiBodySpec> + Clone {
    (
        prop::sample::select(kinds),
        prop::option::weighted(0.5, dec(1, 50, 10.0)),
        prop::option::weighted(0.3, dec3(-10, 10, 10.0)),
        prop::option::weighted(0.3, dec3(-10, 10, 10.0)),
        prop::option::weighted(0.2, dec3(-2, 2, 10.0)),
        prop::option::weighted(0.3, (dec3(10, 30, 10.0), dec3(-2, 2, 10.0))),
    )
        .prop_map(|(kind, mass, lin, ang, com, inertia)| OmiBodySpec {
            kind,
            mass,
            linear_velocity: lin,
            angular_velocity: ang,
            center_of_mass: com,
            inertia_tensor: inertia
                .map(|(d, o)| [d[0], o[0], o[1], o[0], d[1], o[2], o[1], o[2], d[2]]),
        })
        .boxed()
}

impl OmiBodySpec {
    pub fn render(&self) -> Map<String, Value> {
        let mut m = present([
            ("mass", self.mass.map(Value::from)),
            ("linearVelocity", self.linear_velocity.map(Value::from)),
            ("angularVelocity", self.angular_velocity.map(Value::from)),
            ("centerOfMass", self.center_of_mass.map(Value::from)),
            ("inertiaTensor", self.inertia_tensor.map(Value::from)),
        ]);
        m.insert("type".into(), Value::from(self.kind.name()));
        m
    }

    pub fn tags(&self, tags: &mut Tags) {
        tag(tags, &["body", "omi", self.kind.name()]);
        tag(
            tags,
            &[
                "body",
                "mass",
                if self.mass.is_some() {
                    "explicit"
                } else {
                    "default"
                },
            ],
        );
        if self.linear_velocity.is_some() {
            tag(tags, &["body", "linear-velocity"]);
        }
        if self.angular_velocity.is_some() {
            tag(tags, &["body", "angular-velocity"]);
        }
        if self.center_of_mass.is_some() {
            tag(tags, &["body", "center-of-mass"]);
        }
        if self.inertia_tensor.is_some() {
            tag(tags, &["body", "inertia-tensor"]);
        }
    }
}

/// Every tag of a motion, as KHR (`omi` false) or restructured OMI (`omi` true) tags it.
pub fn universe_motion(tags: &mut Tags, omi: bool) {
    for t in [
        "dynamic",
        "kinematic",
        "center-of-mass",
        "inertia-diagonal",
        "inertia-orientation",
        "linear-velocity",
        "angular-velocity",
        "gravity-factor",
    ] {
        tag(tags, &["body", t]);
    }
    tag(tags, &["body", "mass", "explicit"]);
    if omi {
        tag(tags, &["body", "mass", "default"]);
    } else {
        tag(tags, &["body", "mass", "computed"]);
        tag(tags, &["body", "kinematic-false-explicit"]);
    }
}

pub fn universe_omi(tags: &mut Tags) {
    for k in OmiType::ALL {
        tag(tags, &["body", "omi", k.name()]);
    }
    for t in [
        "linear-velocity",
        "angular-velocity",
        "center-of-mass",
        "inertia-tensor",
    ] {
        tag(tags, &["body", t]);
    }
    tag(tags, &["body", "mass", "explicit"]);
    tag(tags, &["body", "mass", "default"]);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    proptest! {
        #[test]
        fn omi_inertia_is_symmetric(b in omi_body(OmiType::ALL.to_vec())) {
            if let Some(t) = b.inertia_tensor {
                prop_assert_eq!(t[1], t[3]);
                prop_assert_eq!(t[2], t[6]);
                prop_assert_eq!(t[5], t[7]);
            }
        }
    }

    #[test]
    fn motion_renders_seed_names() {
        let m = MotionSpec {
            is_kinematic: Some(true),
            mass: Some(2.0),
            center_of_mass: None,
            inertia_diagonal: Some([1.0, 2.0, 3.0]),
            inertia_orientation: None,
            linear_velocity: None,
            angular_velocity: Some([0.0, 1.0, 0.0]),
            gravity_factor: None,
        };
        assert_eq!(
            m.render(),
            json!({"isKinematic": true, "mass": 2.0, "inertiaDiagonal": [1.0, 2.0, 3.0], "angularVelocity": [0.0, 1.0, 0.0]})
        );
    }
}
