//! Joint limits: KHR `joint_limit` (coupled axes, open-ended sides, soft limits) and OMI joint
//! constraints (per axis, `lowerLimit`/`upperLimit` defaulting to 0).
//!
//! Every generated limit holds at rest (frames aligned: distance 0, relative rotation identity):
//! one-axis limits have `min <= 0 <= max`; coupled metrics are never negative, so their `min`
//! is 0 or omitted.

use proptest::prelude::*;
use serde_json::Value;

use super::common::{Tags, dec, present, tag};

/// A KHR joint limit.
#[derive(Clone, Debug, PartialEq)]
pub struct LimitSpec {
    pub linear: bool,
    /// Distinct axes in file order.
    pub axes: Vec<u8>,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
}

fn axes() -> impl Strategy<Value = Vec<u8>> + Clone {
    prop::sample::subsequence(vec![0u8, 1, 2], 1..=3).prop_shuffle()
}

/// A random KHR limit that holds at rest.
pub fn limit() -> impl Strategy<Value = LimitSpec> + Clone {
    (
        any::<bool>(),
        axes(),
        prop::option::weighted(0.7, dec(-100, 0, 100.0)),
        prop::option::weighted(0.8, dec(0, 150, 100.0)),
        prop::option::weighted(0.25, dec(1, 1000, 1.0)),
        prop::option::weighted(0.25, dec(0, 100, 10.0)),
    )
        .prop_map(|(linear, axes, min, max, stiffness, damping)| {
            // Coupled metrics (2 or 3 axes) are distances or unsigned angles: min 0 or none.
            let min = if axes.len() > 1 {
                min.map(|_| 0.0)
            } else {
                min
            };
            LimitSpec {
                linear,
                axes,
                min,
                max,
                stiffness,
                damping,
            }
        })
}

/// A hard limit `[min, max]` on `axes`.
pub fn hard(linear: bool, axes: &[u8], min: Option<f64>, max: Option<f64>) -> LimitSpec {
    LimitSpec {
        linear,
        axes: axes.to_vec(),
        min,
        max,
        stiffness: None,
        damping: None,
    }
}

impl LimitSpec {
    pub fn render(&self) -> Value {
        let mut m = present([
            ("min", self.min.map(Value::from)),
            ("max", self.max.map(Value::from)),
            ("stiffness", self.stiffness.map(Value::from)),
            ("damping", self.damping.map(Value::from)),
        ]);
        let key = if self.linear {
            "linearAxes"
        } else {
            "angularAxes"
        };
        m.insert(key.into(), Value::from(&self.axes[..]));
        Value::from(m)
    }

    pub fn tags(&self, tags: &mut Tags) {
        let kind = if self.linear { "linear" } else { "angular" };
        tags.insert(format!("joint.limit.{kind}.{}", self.axes.len()));
        match (self.min, self.max) {
            (None, None) => tag(tags, &["joint", "limit", "unbounded"]),
            (None, Some(_)) => tag(tags, &["joint", "limit", "open-min"]),
            (Some(_), None) => tag(tags, &["joint", "limit", "open-max"]),
            (Some(a), Some(b)) if a == b => tag(tags, &["joint", "limit", "fixed"]),
            (Some(_), Some(_)) => tag(tags, &["joint", "limit", "range"]),
        }
        if self.stiffness.is_some() {
            tag(tags, &["joint", "limit", "soft"]);
        }
        if self.damping.is_some() {
            tag(tags, &["joint", "limit", "damping"]);
        }
    }
}

/// An OMI joint constraint (seed 000). Axis lists are never both empty.
#[derive(Clone, Debug, PartialEq)]
pub struct OmiConstraintSpec {
    pub linear_axes: Vec<u8>,
    pub angular_axes: Vec<u8>,
    pub lower: Option<f64>,
    pub upper: Option<f64>,
    pub stiffness: Option<f64>,
    pub damping: Option<f64>,
}

/// A random OMI constraint with `lower <= upper` (each defaulting to 0).
pub fn omi_constraint() -> impl Strategy<Value = OmiConstraintSpec> + Clone {
    (
        prop::sample::subsequence(vec![0u8, 1, 2], 0..=3),
        prop::sample::subsequence(vec![0u8, 1, 2], 0..=3),
        prop::option::weighted(0.6, dec(-100, 0, 100.0)),
        prop::option::weighted(0.6, dec(0, 100, 100.0)),
        prop::option::weighted(0.3, dec(1, 100, 10.0)),
        prop::option::weighted(0.3, dec(0, 20, 10.0)),
    )
        .prop_map(
            |(lin, ang, lower, upper, stiffness, damping)| OmiConstraintSpec {
                linear_axes: if lin.is_empty() && ang.is_empty() {
                    vec![0, 1, 2]
                } else {
                    lin
                },
                angular_axes: ang,
                lower,
                upper,
                stiffness,
                damping,
            },
        )
}

/// A hard OMI constraint.
pub fn omi_hard(
    linear: &[u8],
    angular: &[u8],
    lower: Option<f64>,
    upper: Option<f64>,
) -> OmiConstraintSpec {
    OmiConstraintSpec {
        linear_axes: linear.to_vec(),
        angular_axes: angular.to_vec(),
        lower,
        upper,
        stiffness: None,
        damping: None,
    }
}

impl OmiConstraintSpec {
    pub fn render(&self) -> Value {
        let axes = |a: &[u8]| (!a.is_empty()).then(|| Value::from(a));
        Value::from(present([
            ("linearAxes", axes(&self.linear_axes)),
            ("angularAxes", axes(&self.angular_axes)),
            ("lowerLimit", self.lower.map(Value::from)),
            ("upperLimit", self.upper.map(Value::from)),
            ("stiffness", self.stiffness.map(Value::from)),
            ("damping", self.damping.map(Value::from)),
        ]))
    }

    /// Renders to the same JSON as `other`: same axes, and numbers of the same bits (distinct
    /// finite floats have distinct texts, `0.0` and `-0.0` included; every non-finite one is
    /// `null`).
    pub fn renders_as(&self, other: &OmiConstraintSpec) -> bool {
        let bits = |v: Option<f64>| v.map(|x| x.is_finite().then_some(x.to_bits()));
        self.linear_axes == other.linear_axes
            && self.angular_axes == other.angular_axes
            && bits(self.lower) == bits(other.lower)
            && bits(self.upper) == bits(other.upper)
            && bits(self.stiffness) == bits(other.stiffness)
            && bits(self.damping) == bits(other.damping)
    }

    pub fn tags(&self, tags: &mut Tags) {
        if !self.linear_axes.is_empty() {
            tags.insert(format!("omi.constraint.linear.{}", self.linear_axes.len()));
        }
        if !self.angular_axes.is_empty() {
            tags.insert(format!(
                "omi.constraint.angular.{}",
                self.angular_axes.len()
            ));
        }
        if self.lower.is_none() && self.upper.is_none() {
            tag(tags, &["omi", "constraint", "limits-default"]);
        } else if self.lower != self.upper {
            tag(tags, &["omi", "constraint", "range"]);
        }
        if self.stiffness.is_some() {
            tag(tags, &["omi", "constraint", "soft"]);
        }
        if self.damping.is_some() {
            tag(tags, &["omi", "constraint", "damping"]);
        }
    }
}

pub fn universe(tags: &mut Tags) {
    for kind in ["linear", "angular"] {
        for n in 1..=3 {
            tags.insert(format!("joint.limit.{kind}.{n}"));
            tags.insert(format!("omi.constraint.{kind}.{n}"));
        }
    }
    for t in [
        "unbounded",
        "open-min",
        "open-max",
        "fixed",
        "range",
        "soft",
        "damping",
    ] {
        tag(tags, &["joint", "limit", t]);
    }
    for t in ["limits-default", "range", "soft", "damping"] {
        tag(tags, &["omi", "constraint", t]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `0.0` and `-0.0` are equal numbers with different texts: not shared.
    #[test]
    fn signed_zeros_render_apart_and_non_finite_numbers_alike() {
        let a = omi_hard(&[0], &[], Some(0.0), Some(1.0));
        let b = omi_hard(&[0], &[], Some(-0.0), Some(1.0));
        assert_ne!(a.render().to_string(), b.render().to_string());
        assert!(!a.renders_as(&b));
        assert!(a.renders_as(&omi_hard(&[0], &[], Some(0.0), Some(1.0))));
        // Every non-finite number is `null`: NaN and infinity render alike.
        let nan = omi_hard(&[0], &[], Some(f64::NAN), Some(1.0));
        let inf = omi_hard(&[0], &[], Some(f64::INFINITY), Some(1.0));
        assert_eq!(nan.render().to_string(), inf.render().to_string());
        assert!(nan.renders_as(&inf));
        assert!(!nan.renders_as(&a));
    }

    proptest! {
        #[test]
        fn limits_hold_at_rest(l in limit()) {
            prop_assert!(l.min.is_none_or(|m| m <= 0.0));
            prop_assert!(l.max.is_none_or(|m| m >= 0.0));
            if l.axes.len() > 1 {
                prop_assert!(l.min.is_none_or(|m| m == 0.0));
            }
            let mut seen = l.axes.clone();
            seen.sort_unstable();
            seen.dedup();
            prop_assert_eq!(seen.len(), l.axes.len());
        }

        /// Constraints are shared when they render alike: `renders_as` is equality of the text.
        #[test]
        fn renders_as_is_equality_of_the_text(
            a in omi_constraint(),
            b in omi_constraint(),
            mix in 0u8..64,
        ) {
            // Mix fields of `b` into `a`, so that equal pairs are common.
            let pick = |bit: u8, x: Option<f64>, y: Option<f64>| if mix & (1 << bit) != 0 { y } else { x };
            let c = OmiConstraintSpec {
                linear_axes: if mix & 16 != 0 { b.linear_axes.clone() } else { a.linear_axes.clone() },
                angular_axes: if mix & 32 != 0 { b.angular_axes.clone() } else { a.angular_axes.clone() },
                lower: pick(0, a.lower, b.lower),
                upper: pick(1, a.upper, b.upper),
                stiffness: pick(2, a.stiffness, b.stiffness),
                damping: pick(3, a.damping, b.damping),
            };
            for (x, y) in [(&a, &b), (&a, &c), (&b, &c), (&a, &a)] {
                let (text_x, text_y) = (x.render().to_string(), y.render().to_string());
                prop_assert_eq!(x.renders_as(y), text_x == text_y);
            }
        }

        #[test]
        fn omi_constraints_constrain_something(c in omi_constraint()) {
            prop_assert!(!c.linear_axes.is_empty() || !c.angular_axes.is_empty());
            prop_assert!(c.lower.unwrap_or(0.0) <= c.upper.unwrap_or(0.0));
        }
    }
}
