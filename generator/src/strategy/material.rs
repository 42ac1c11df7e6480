//! KHR physics materials (seed 002 Physics Materials), with every combine mode or none.

use proptest::prelude::*;
use serde_json::Value;

use super::common::{Tags, dec, present, tag};

/// Combine modes as spelled in the file; `None` in a spec means the property is omitted.
pub const COMBINES: [&str; 4] = ["average", "minimum", "maximum", "multiply"];

#[derive(Clone, Debug, PartialEq)]
pub struct MaterialSpec {
    pub static_friction: Option<f64>,
    pub dynamic_friction: Option<f64>,
    pub restitution: Option<f64>,
    /// Index into [`COMBINES`].
    pub friction_combine: Option<usize>,
    pub restitution_combine: Option<usize>,
}

pub fn material() -> impl Strategy<Value = MaterialSpec> + Clone {
    (
        prop::option::weighted(0.7, dec(0, 10, 10.0)),
        prop::option::weighted(0.7, dec(0, 10, 10.0)),
        prop::option::weighted(0.7, dec(0, 10, 10.0)),
        prop::option::weighted(0.8, 0..COMBINES.len()),
        prop::option::weighted(0.8, 0..COMBINES.len()),
    )
        .prop_map(|(s, d, r, fc, rc)| MaterialSpec {
            static_friction: s,
            dynamic_friction: d,
            restitution: r,
            friction_combine: fc,
            restitution_combine: rc,
        })
}

impl MaterialSpec {
    pub fn render(&self) -> Value {
        let combine = |c: Option<usize>| c.map(|i| Value::from(COMBINES[i]));
        Value::from(present([
            ("staticFriction", self.static_friction.map(Value::from)),
            ("dynamicFriction", self.dynamic_friction.map(Value::from)),
            ("restitution", self.restitution.map(Value::from)),
            ("frictionCombine", combine(self.friction_combine)),
            ("restitutionCombine", combine(self.restitution_combine)),
        ]))
    }

    pub fn tags(&self, tags: &mut Tags) {
        let all_omitted = self.static_friction.is_none()
            && self.dynamic_friction.is_none()
            && self.restitution.is_none();
        tag(
            tags,
            &[
                "material",
                if all_omitted { "defaults" } else { "explicit" },
            ],
        );
    }
}

fn combine_name(c: Option<usize>) -> &'static str {
    c.map_or("unset", |i| COMBINES[i])
}

/// `material.combine.<a>-<b>` (friction) and `material.restitution-combine.<a>-<b>` for every
/// pair of distinct materials used in one scene, the two modes in catalogue order.
pub fn pair_tags(used: &[&MaterialSpec], tags: &mut Tags) {
    let order = |c: Option<usize>| c.map_or(COMBINES.len(), |i| i);
    for (i, a) in used.iter().enumerate() {
        for b in &used[i + 1..] {
            for (kind, x, y) in [
                ("combine", a.friction_combine, b.friction_combine),
                (
                    "restitution-combine",
                    a.restitution_combine,
                    b.restitution_combine,
                ),
            ] {
                let (x, y) = if order(x) <= order(y) { (x, y) } else { (y, x) };
                tags.insert(format!(
                    "material.{kind}.{}-{}",
                    combine_name(x),
                    combine_name(y)
                ));
            }
        }
    }
}

pub fn universe(tags: &mut Tags) {
    tag(tags, &["material", "defaults"]);
    tag(tags, &["material", "explicit"]);
    let modes: Vec<Option<usize>> = (0..COMBINES.len()).map(Some).chain([None]).collect();
    for (i, x) in modes.iter().enumerate() {
        for y in &modes[i..] {
            tags.insert(format!(
                "material.combine.{}-{}",
                combine_name(*x),
                combine_name(*y)
            ));
            tags.insert(format!(
                "material.restitution-combine.{}-{}",
                combine_name(*x),
                combine_name(*y)
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_are_ordered_and_cover_all_fifteen() {
        let mut u = Tags::new();
        universe(&mut u);
        // 5 modes (4 + unset): 5 * 6 / 2 = 15 unordered pairs, per property, plus 2 tags.
        assert_eq!(u.len(), 15 * 2 + 2);
        let m = |c| MaterialSpec {
            static_friction: None,
            dynamic_friction: None,
            restitution: None,
            friction_combine: c,
            restitution_combine: None,
        };
        let (a, b) = (m(Some(3)), m(Some(0)));
        let mut t = Tags::new();
        pair_tags(&[&a, &b], &mut t);
        assert!(t.contains("material.combine.average-multiply"), "{t:?}");
        assert!(
            t.contains("material.restitution-combine.unset-unset"),
            "{t:?}"
        );
        assert!(t.is_subset(&u));
    }
}
