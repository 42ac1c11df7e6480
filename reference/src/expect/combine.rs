//! How two colliders' material values combine [D-COMBINE], as small pure functions.
//!
//! The seed: "If either uses average, average; else if either uses minimum, the smallest; else if
//! either uses maximum, the largest; else if either uses multiply, the product." It names no
//! default mode and no default material [D-COMBINE-DEFAULT]: then there is no expected value.

use serde::{Deserialize, Serialize};

use crate::decision::{Decision, DecisionSet};
use crate::scene::{Combine, Material};

/// The modes in precedence order: the first one either side names wins.
pub const PRECEDENCE: [Combine; 4] = [
    Combine::Average,
    Combine::Minimum,
    Combine::Maximum,
    Combine::Multiply,
];

/// The mode a pair uses: the first of [`PRECEDENCE`] that either side names, `None` when neither
/// names one [D-COMBINE-DEFAULT]. Symmetric by construction.
pub fn mode(a: Option<Combine>, b: Option<Combine>) -> Option<Combine> {
    PRECEDENCE
        .into_iter()
        .find(|m| a == Some(*m) || b == Some(*m))
}

/// Combine two values under one mode.
pub fn apply(mode: Combine, x: f64, y: f64) -> f64 {
    match mode {
        Combine::Average => (x + y) / 2.0,
        Combine::Minimum => x.min(y),
        Combine::Maximum => x.max(y),
        Combine::Multiply => x * y,
    }
}

/// Combine two values whose sides name `a` and `b`: `None` when neither names a mode.
pub fn combine(a: Option<Combine>, x: f64, b: Option<Combine>, y: f64) -> Option<f64> {
    mode(a, b).map(|m| apply(m, x, y))
}

/// One combined value with the mode that produced it; both `None` when the spec gives no value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Combined {
    pub mode: Option<Combine>,
    pub value: Option<f64>,
}

/// Combined friction (static and dynamic share the friction mode).
/// Fields in key order, the order serde writes them: the generator's canonical writer then
/// has no member to sort (and `physics-cts eval` prints them in that order).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Friction {
    #[serde(rename = "dynamic")]
    pub dynamic_friction: Option<f64>,
    pub mode: Option<Combine>,
    #[serde(rename = "static")]
    pub static_friction: Option<f64>,
}

/// What two colliders' materials give: friction, restitution, and the decisions they rest on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MaterialPair {
    pub friction: Friction,
    pub restitution: Combined,
    pub decisions: DecisionSet,
}

/// Combine two colliders' materials. A side without a material has implementation-defined
/// values, so the result is `None` [D-COMBINE-DEFAULT]; so is a quantity whose mode neither
/// side names.
pub fn materials(a: Option<&Material>, b: Option<&Material>) -> MaterialPair {
    let (Some(a), Some(b)) = (a, b) else {
        return MaterialPair {
            friction: Friction {
                mode: None,
                static_friction: None,
                dynamic_friction: None,
            },
            restitution: Combined {
                mode: None,
                value: None,
            },
            decisions: [Decision::CombineDefault].into_iter().collect(),
        };
    };
    let friction_mode = mode(a.friction_combine, b.friction_combine);
    let restitution_mode = mode(a.restitution_combine, b.restitution_combine);
    let mut decisions: DecisionSet = [Decision::Combine].into_iter().collect();
    if friction_mode.is_none() || restitution_mode.is_none() {
        decisions.insert(Decision::CombineDefault);
    }
    MaterialPair {
        friction: Friction {
            mode: friction_mode,
            static_friction: friction_mode.map(|m| apply(m, a.static_friction, b.static_friction)),
            dynamic_friction: friction_mode
                .map(|m| apply(m, a.dynamic_friction, b.dynamic_friction)),
        },
        restitution: Combined {
            mode: restitution_mode,
            value: restitution_mode.map(|m| apply(m, a.restitution, b.restitution)),
        },
        decisions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Combine::{Average as Avg, Maximum as Max, Minimum as Min, Multiply as Mul};
    use proptest::prelude::*;

    /// Every ordered pair of (named or unnamed) modes and the mode the pair must use, worked by
    /// hand from the seed's "if either uses ... else if either uses ..." list.
    #[test]
    fn mode_table() {
        let table: &[(Option<Combine>, Option<Combine>, Option<Combine>)] = &[
            (None, None, None),
            (None, Some(Avg), Some(Avg)),
            (None, Some(Min), Some(Min)),
            (None, Some(Max), Some(Max)),
            (None, Some(Mul), Some(Mul)),
            (Some(Avg), Some(Avg), Some(Avg)),
            (Some(Avg), Some(Min), Some(Avg)),
            (Some(Avg), Some(Max), Some(Avg)),
            (Some(Avg), Some(Mul), Some(Avg)),
            (Some(Min), Some(Min), Some(Min)),
            (Some(Min), Some(Max), Some(Min)),
            (Some(Min), Some(Mul), Some(Min)),
            (Some(Max), Some(Max), Some(Max)),
            (Some(Max), Some(Mul), Some(Max)),
            (Some(Mul), Some(Mul), Some(Mul)),
        ];
        for &(a, b, want) in table {
            assert_eq!(mode(a, b), want, "{a:?} with {b:?}");
            assert_eq!(mode(b, a), want, "{b:?} with {a:?}");
        }
    }

    /// x = 0.2, y = 0.8 under each mode: average (0.2 + 0.8) / 2 = 0.5, minimum 0.2,
    /// maximum 0.8, multiply 0.2 * 0.8 = 0.16.
    #[test]
    fn values_table() {
        assert!((apply(Avg, 0.2, 0.8) - 0.5).abs() < 1e-15);
        assert_eq!(apply(Min, 0.2, 0.8), 0.2);
        assert_eq!(apply(Max, 0.2, 0.8), 0.8);
        assert!((apply(Mul, 0.2, 0.8) - 0.16).abs() < 1e-15);
        // Minimum named on one side, maximum on the other: minimum wins -> 0.2.
        assert_eq!(combine(Some(Max), 0.2, Some(Min), 0.8), Some(0.2));
        assert_eq!(combine(None, 0.2, None, 0.8), None);
    }

    fn material(sf: f64, df: f64, r: f64, fc: Option<Combine>, rc: Option<Combine>) -> Material {
        Material {
            static_friction: sf,
            dynamic_friction: df,
            restitution: r,
            friction_combine: fc,
            restitution_combine: rc,
        }
    }

    /// Friction: a names multiply, b maximum -> maximum: static max(0.6, 0.4) = 0.6, dynamic
    /// max(0.5, 0.3) = 0.5. Restitution: only a names average -> (0.2 + 0.6) / 2 = 0.4.
    #[test]
    fn materials_combine_each_quantity_with_its_own_mode() {
        let a = material(0.6, 0.5, 0.2, Some(Mul), Some(Avg));
        let b = material(0.4, 0.3, 0.6, Some(Max), None);
        let p = materials(Some(&a), Some(&b));
        assert_eq!(p.friction.mode, Some(Max));
        assert_eq!(p.friction.static_friction, Some(0.6));
        assert_eq!(p.friction.dynamic_friction, Some(0.5));
        assert_eq!(p.restitution.mode, Some(Avg));
        assert!((p.restitution.value.expect("named") - 0.4).abs() < 1e-15);
        assert_eq!(
            p.decisions.iter().collect::<Vec<_>>(),
            vec![Decision::Combine]
        );
    }

    #[test]
    fn missing_material_or_mode_gives_no_value() {
        let a = material(0.6, 0.5, 0.2, Some(Mul), None);
        let p = materials(Some(&a), None);
        assert_eq!(p.friction.static_friction, None);
        assert_eq!(p.restitution.value, None);
        assert_eq!(
            p.decisions.iter().collect::<Vec<_>>(),
            vec![Decision::CombineDefault]
        );
        let b = material(0.1, 0.1, 0.1, None, None);
        let p = materials(Some(&a), Some(&b));
        // Friction: multiply named by a -> 0.6 * 0.1 = 0.06; restitution: no mode.
        assert!((p.friction.static_friction.expect("named") - 0.06).abs() < 1e-15);
        assert_eq!(
            p.restitution,
            Combined {
                mode: None,
                value: None
            }
        );
        assert_eq!(
            p.decisions.iter().collect::<Vec<_>>(),
            vec![Decision::Combine, Decision::CombineDefault]
        );
    }

    fn any_mode() -> impl Strategy<Value = Option<Combine>> {
        prop::option::of(prop::sample::select(PRECEDENCE.to_vec()))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn combine_is_symmetric(a in any_mode(), b in any_mode(), x in 0.0..10.0f64, y in 0.0..10.0f64) {
            prop_assert_eq!(combine(a, x, b, y), combine(b, y, a, x));
        }

        #[test]
        fn average_min_max_stay_within_the_inputs(
            m in prop::sample::select(vec![Avg, Min, Max]), x in -10.0..10.0f64, y in -10.0..10.0f64,
        ) {
            let v = apply(m, x, y);
            prop_assert!(x.min(y) <= v && v <= x.max(y), "{:?}({}, {}) = {}", m, x, y, v);
        }

        #[test]
        fn the_mode_is_one_a_side_named(a in any_mode(), b in any_mode()) {
            match mode(a, b) {
                None => prop_assert!(a.is_none() && b.is_none()),
                Some(m) => {
                    prop_assert!(a == Some(m) || b == Some(m));
                    // No side names a mode of higher precedence.
                    let rank = |c: Combine| PRECEDENCE.iter().position(|p| *p == c);
                    for side in [a, b].into_iter().flatten() {
                        prop_assert!(rank(m) <= rank(side));
                    }
                }
            }
        }
    }
}
