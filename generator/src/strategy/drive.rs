//! KHR joint drives (seed 002 Joints): linear or angular, force or acceleration mode.

use proptest::prelude::*;
use serde_json::Value;

use super::common::{Tags, dec, present, tag};

#[derive(Clone, Debug, PartialEq)]
pub struct DriveSpec {
    pub angular: bool,
    pub acceleration: bool,
    pub axis: u8,
    pub max_force: Option<f64>,
    pub position_target: Option<f64>,
    pub velocity_target: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
}

pub fn drive() -> impl Strategy<Value = DriveSpec> + Clone {
    (
        any::<bool>(),
        any::<bool>(),
        0u8..=2,
        prop::option::weighted(0.4, dec(1, 1000, 1.0)),
        prop::option::weighted(0.6, dec(-100, 100, 100.0)),
        prop::option::weighted(0.5, dec(-50, 50, 10.0)),
        prop::option::weighted(0.7, dec(0, 500, 1.0)),
        prop::option::weighted(0.7, dec(0, 100, 1.0)),
    )
        .prop_map(
            |(angular, acceleration, axis, mf, pt, vt, k, d)| DriveSpec {
                angular,
                acceleration,
                axis,
                max_force: mf,
                position_target: pt,
                velocity_target: vt,
                stiffness: k,
                damping: d,
            },
        )
}

impl DriveSpec {
    pub fn render(&self) -> Value {
        let mut m = present([
            ("maxForce", self.max_force.map(Value::from)),
            ("positionTarget", self.position_target.map(Value::from)),
            ("velocityTarget", self.velocity_target.map(Value::from)),
            ("stiffness", self.stiffness.map(Value::from)),
            ("damping", self.damping.map(Value::from)),
        ]);
        let kind = if self.angular { "angular" } else { "linear" };
        m.insert("type".into(), Value::from(kind));
        let mode = if self.acceleration {
            "acceleration"
        } else {
            "force"
        };
        m.insert("mode".into(), Value::from(mode));
        m.insert("axis".into(), Value::from(self.axis));
        Value::from(m)
    }

    pub fn tags(&self, tags: &mut Tags) {
        tag(
            tags,
            &[
                "joint",
                "drive",
                if self.angular { "angular" } else { "linear" },
            ],
        );
        tag(
            tags,
            &[
                "joint",
                "drive",
                "mode",
                if self.acceleration {
                    "acceleration"
                } else {
                    "force"
                },
            ],
        );
        for (name, present) in [
            ("max-force", self.max_force.is_some()),
            ("position-target", self.position_target.is_some()),
            ("velocity-target", self.velocity_target.is_some()),
        ] {
            if present {
                tag(tags, &["joint", "drive", name]);
            }
        }
    }
}

pub fn universe(tags: &mut Tags) {
    for t in [
        "linear",
        "angular",
        "max-force",
        "position-target",
        "velocity-target",
    ] {
        tag(tags, &["joint", "drive", t]);
    }
    tag(tags, &["joint", "drive", "mode", "force"]);
    tag(tags, &["joint", "drive", "mode", "acceleration"]);
}
