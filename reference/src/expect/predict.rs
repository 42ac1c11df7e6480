//! Analytic predictions for dynamics scenes: textbook formulas applied to values the rest of
//! `expect` derives from the spec (combined restitution and friction, drive modes, stiffness,
//! targets). They are ideal continuous-time results; a scene's tolerances account for the
//! discretisation of the engine that simulates it.
//!
//! Sign and unit conventions follow the seed: a drive's or limit's degree of freedom is the
//! signed position of frame B in frame A [D-METRICS]; stiffness is N/m (N m/rad), damping
//! N s/m (N m s/rad); `force` drives apply `k (target - x) + c (v_target - v)`, `acceleration`
//! drives the same scaled by the effective mass of the degree of freedom (seed 002 Joints).

use crate::scene::DriveMode;

/// Speed (m/s) after falling `drop` metres from rest under gravity `g` (m/s²): `sqrt(2 g h)`.
pub fn impact_speed(drop: f64, g: f64) -> f64 {
    (2.0 * g * drop).sqrt()
}

/// Height (above the surface it bounced on) that a body dropped from rest `drop` metres above
/// the surface reaches after its first bounce, with coefficient of restitution `e`: it leaves at
/// `e v` with `v = sqrt(2 g h)` and rises `(e v)² / (2 g) = e² h`, whatever `g`.
pub fn bounce_apex(drop: f64, restitution: f64) -> f64 {
    restitution * restitution * drop
}

/// Distance (m) a body sliding at `speed` on a level surface travels until Coulomb friction
/// with coefficient `friction` stops it: deceleration `mu g`, distance `v² / (2 mu g)`.
/// `None` without friction (it never stops) or with a non-positive `g`.
pub fn sliding_distance(speed: f64, friction: f64, g: f64) -> Option<f64> {
    (friction > 0.0 && g > 0.0).then(|| speed * speed / (2.0 * friction * g))
}

/// Time (s) the slide of [`sliding_distance`] lasts: `v / (mu g)`.
pub fn sliding_time(speed: f64, friction: f64, g: f64) -> Option<f64> {
    (friction > 0.0 && g > 0.0).then(|| speed / (friction * g))
}

/// A damped spring on one degree of freedom: `x'' + 2 zeta omega x' + omega² x = 0` around its
/// equilibrium.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Oscillator {
    /// Natural angular frequency, rad/s.
    pub omega: f64,
    /// Damping ratio (1: critical).
    pub zeta: f64,
}

impl Oscillator {
    /// The spring of a drive (or of a soft limit: [`Oscillator::soft_limit`]) of stiffness `k` and
    /// damping `c` on a degree of freedom of effective mass (or moment) `m`:
    /// force mode `omega = sqrt(k / m)`, `zeta = c / (2 sqrt(k m))`; acceleration mode (the
    /// force scaled by `m`) `omega = sqrt(k)`, `zeta = c / (2 sqrt(k))`, whatever `m`.
    /// `None` without a spring (`k <= 0`) or mass (`m <= 0`), or with non-finite inputs.
    pub fn new(stiffness: f64, damping: f64, mass: f64, mode: DriveMode) -> Option<Oscillator> {
        let finite = stiffness.is_finite() && damping.is_finite() && mass.is_finite();
        if !finite || stiffness <= 0.0 || mass <= 0.0 || damping < 0.0 {
            return None;
        }
        let m = match mode {
            DriveMode::Force => mass,
            DriveMode::Acceleration => 1.0,
        };
        Some(Oscillator {
            omega: (stiffness / m).sqrt(),
            zeta: damping / (2.0 * (stiffness * m).sqrt()),
        })
    }

    /// The two real roots of the characteristic polynomial (overdamped only).
    fn roots(&self) -> (f64, f64) {
        let s = (self.zeta * self.zeta - 1.0).sqrt();
        (-self.omega * (self.zeta - s), -self.omega * (self.zeta + s))
    }

    /// The spring of a soft limit (`stiffness` set) on a degree of freedom of effective mass
    /// (or moment) `m`: its stiffness and damping are a spring's and a damper's constants, a
    /// force per unit of violation and of its rate, so it is the `Force` mode spring. `None`
    /// for a hard limit, or as [`Oscillator::new`].
    pub fn soft_limit(stiffness: Option<f64>, damping: f64, mass: f64) -> Option<Oscillator> {
        Oscillator::new(stiffness?, damping, mass, DriveMode::Force)
    }

    /// Where a spring released at rest 1 away from its equilibrium is after `t` seconds (the
    /// remaining fraction of a step toward a target):
    /// underdamped `e^(-zeta omega t) (cos wd t + zeta / sqrt(1 - zeta²) sin wd t)`,
    /// critical `(1 + omega t) e^(-omega t)`, overdamped `(r2 e^(r1 t) - r1 e^(r2 t)) / (r2 - r1)`.
    pub fn step_remaining(&self, t: f64) -> f64 {
        let (w, z) = (self.omega, self.zeta);
        if (z - 1.0).abs() < 1e-9 {
            (1.0 + w * t) * (-w * t).exp()
        } else if z < 1.0 {
            let s = (1.0 - z * z).sqrt();
            let wd = w * s;
            (-z * w * t).exp() * ((wd * t).cos() + z / s * (wd * t).sin())
        } else {
            let (r1, r2) = self.roots();
            (r2 * (r1 * t).exp() - r1 * (r2 * t).exp()) / (r2 - r1)
        }
    }

    /// A bound on `|step_remaining(t')|` for every `t' >= t >= 0`: the envelope
    /// `e^(-zeta omega t) / sqrt(1 - zeta²)` when underdamped; the response itself otherwise
    /// (it decreases monotonically to 0 from 1).
    pub fn step_bound(&self, t: f64) -> f64 {
        if self.zeta < 1.0 - 1e-9 {
            (-self.zeta * self.omega * t).exp() / (1.0 - self.zeta * self.zeta).sqrt()
        } else {
            self.step_remaining(t)
        }
    }

    /// The largest excursion from equilibrium of a spring that starts at its equilibrium with
    /// speed `v` (a body arriving at a soft limit): `x(t) = (v / wd) e^(-zeta omega t) sin(wd t)`
    /// peaks at `t_p = acos(zeta) / wd` with `x_p = (v / omega) e^(-zeta omega t_p)`; critical
    /// damping gives `v / (omega e)`; overdamped `x_p = -v e^(r1 t_p) / r2` at
    /// `t_p = ln(r2 / r1) / (r1 - r2)`.
    pub fn overshoot(&self, v: f64) -> f64 {
        let (w, z) = (self.omega, self.zeta);
        if (z - 1.0).abs() < 1e-9 {
            v / (w * std::f64::consts::E)
        } else if z < 1.0 {
            let wd = w * (1.0 - z * z).sqrt();
            let tp = z.acos() / wd;
            v / w * (-z * w * tp).exp()
        } else {
            let (r1, r2) = self.roots();
            let tp = (r2 / r1).ln() / (r1 - r2);
            -v * (r1 * tp).exp() / r2
        }
    }
}

/// The spring and the damper of a KHR drive, whose force is `k (x* - x) + c (v* - v)` (seed
/// 002). A drive "drives to either a target position, velocity, or both": without
/// `positionTarget` there is no spring term (`k = 0`, whatever `stiffness` says), and without
/// `velocityTarget` the damper still acts, toward zero relative velocity (`v* = 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveTerms {
    pub stiffness: f64,
    pub position: f64,
    pub damping: f64,
    pub velocity: f64,
}

impl DriveTerms {
    pub fn of(
        stiffness: f64,
        damping: f64,
        position_target: Option<f64>,
        velocity_target: Option<f64>,
    ) -> DriveTerms {
        let (stiffness, position) = match position_target {
            Some(x) => (stiffness, x),
            None => (0.0, 0.0),
        };
        DriveTerms {
            stiffness,
            position,
            damping,
            velocity: velocity_target.unwrap_or(0.0),
        }
    }

    /// No spring term and no damper: the drive exerts no force, whatever the motion. Exact
    /// zeros: the coefficients are authored values, not computed ones.
    pub fn exert_nothing(&self) -> bool {
        self.stiffness == 0.0 && self.damping == 0.0
    }

    /// Two drives on one degree of freedom as one: their forces add up,
    /// `k1 (x1 - x) + c1 (v1 - v) + k2 (x2 - x) + c2 (v2 - v) = K (X - x) + C (V - v)` with
    /// `K = k1 + k2`, `X = (k1 x1 + k2 x2) / K`, `C = c1 + c2`, `V = (c1 v1 + c2 v2) / C`
    /// (a target is 0 when its weights sum to 0: that term is absent).
    #[must_use]
    pub fn combined_with(self, other: DriveTerms) -> DriveTerms {
        let weighted = |a: f64, wa: f64, b: f64, wb: f64| {
            if wa + wb > 0.0 {
                (a * wa + b * wb) / (wa + wb)
            } else {
                0.0
            }
        };
        DriveTerms {
            stiffness: self.stiffness + other.stiffness,
            position: weighted(
                self.position,
                self.stiffness,
                other.position,
                other.stiffness,
            ),
            damping: self.damping + other.damping,
            velocity: weighted(self.velocity, self.damping, other.velocity, other.damping),
        }
    }
}

/// The resting position of a drive's degree of freedom under a constant external generalised
/// force `load` (N, or N m; e.g. `-m g` on a vertical slider), where the spring force
/// `k (x_target - x)` (scaled by the effective mass `m` in acceleration mode) balances it:
/// force mode `x = target + load / k`, acceleration mode `x = target + load / (m k)`.
/// `None` without a spring or mass.
pub fn drive_rest(
    target: f64,
    load: f64,
    stiffness: f64,
    mass: f64,
    mode: DriveMode,
) -> Option<f64> {
    if !(stiffness > 0.0 && mass > 0.0) {
        return None;
    }
    Some(match mode {
        DriveMode::Force => target + load / stiffness,
        DriveMode::Acceleration => target + load / (mass * stiffness),
    })
}

/// The velocity a pure velocity drive (no position term) holds against a constant load: the
/// damping force `c (v_target - v)` (scaled by `m` in acceleration mode) balances it:
/// force mode `v = v_target + load / c`, acceleration `v = v_target + load / (m c)`.
pub fn drive_velocity(
    target: f64,
    load: f64,
    damping: f64,
    mass: f64,
    mode: DriveMode,
) -> Option<f64> {
    drive_rest(target, load, damping, mass, mode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const G: f64 = 9.81;

    /// Two drives on one degree of freedom: k 20 to 0.5 and k 10 to 2.0 give k 30 to
    /// (20 * 0.5 + 10 * 2.0) / 30 = 1.0; c 3 to 0 and c 1 to 4 give c 4 to (0 + 4) / 4 = 1.0.
    /// Without any spring the position stays 0 (no term), whatever the targets.
    #[test]
    fn drives_on_one_axis_add_up() {
        let a = DriveTerms::of(20.0, 3.0, Some(0.5), None);
        let b = DriveTerms::of(10.0, 1.0, Some(2.0), Some(4.0));
        assert_eq!(
            a.combined_with(b),
            DriveTerms {
                stiffness: 30.0,
                position: 1.0,
                damping: 4.0,
                velocity: 1.0,
            }
        );
        let springless = DriveTerms::of(5.0, 2.0, None, Some(3.0));
        let sum = springless.combined_with(DriveTerms::of(7.0, 0.0, None, None));
        assert_eq!((sum.stiffness, sum.position), (0.0, 0.0));
        assert_eq!((sum.damping, sum.velocity), (2.0, 3.0));
    }

    /// Absent targets: a velocity-only drive (stiffness 390, no position target, as in
    /// khr/gen/body/01304) has no spring; with damping 0 it exerts nothing. A position-only
    /// drive keeps its damper, toward rest.
    #[test]
    fn drive_terms_of_absent_targets() {
        let velocity_only = DriveTerms::of(390.0, 0.0, None, Some(-0.9));
        assert_eq!(
            velocity_only,
            DriveTerms {
                stiffness: 0.0,
                position: 0.0,
                damping: 0.0,
                velocity: -0.9
            }
        );
        assert!(velocity_only.exert_nothing());
        let position_only = DriveTerms::of(10.0, 4.0, Some(1.5), None);
        assert_eq!(
            position_only,
            DriveTerms {
                stiffness: 10.0,
                position: 1.5,
                damping: 4.0,
                velocity: 0.0
            }
        );
        assert!(!position_only.exert_nothing());
        assert!(!DriveTerms::of(0.0, 2.0, None, Some(1.0)).exert_nothing());
    }

    /// The soft limit of the `soft-return` scenes: k = 100, c = 20 on 1 kg gives
    /// omega = sqrt(100 / 1) = 10, zeta = 20 / (2 sqrt(100 * 1)) = 1 (critical); on 2 kg
    /// omega = sqrt(50) = 7.071, zeta = 20 / (2 sqrt(200)) = 0.7071, whatever an acceleration
    /// drive would give (omega 10, zeta 1 on any mass). A hard limit has no spring.
    #[test]
    fn a_soft_limit_is_a_force_spring() {
        let o = Oscillator::soft_limit(Some(100.0), 20.0, 1.0).expect("spring");
        assert!((o.omega - 10.0).abs() < 1e-12 && (o.zeta - 1.0).abs() < 1e-12);
        let o = Oscillator::soft_limit(Some(100.0), 20.0, 2.0).expect("spring");
        assert!((o.omega - 50f64.sqrt()).abs() < 1e-12);
        assert!((o.zeta - 0.5f64.sqrt()).abs() < 1e-12);
        assert_eq!(Oscillator::soft_limit(None, 20.0, 1.0), None);
    }

    /// Dropped 1 m with e = 0.6: v = sqrt(2 * 9.81 * 1) = 4.4294 m/s, leaves at 2.6577 m/s,
    /// rises 2.6577² / 19.62 = 0.36 m = 0.6² * 1.
    #[test]
    fn bounce_by_hand() {
        let v = impact_speed(1.0, G);
        assert!((v - 4.429_446_918).abs() < 1e-8);
        let rise = (0.6 * v).powi(2) / (2.0 * G);
        assert!((rise - 0.36).abs() < 1e-12);
        assert!((bounce_apex(1.0, 0.6) - rise).abs() < 1e-12);
        assert_eq!(bounce_apex(1.0, 0.0), 0.0);
    }

    /// 3 m/s with mu = 0.3: a = 2.943 m/s², stops after 3 / 2.943 = 1.0194 s and
    /// 9 / 5.886 = 1.5291 m.
    #[test]
    fn slide_by_hand() {
        let s = sliding_distance(3.0, 0.3, G).expect("friction");
        assert!((s - 1.529_051_987).abs() < 1e-8);
        let t = sliding_time(3.0, 0.3, G).expect("friction");
        assert!((t - 1.019_367_992).abs() < 1e-8);
        // Distance is the mean speed (v / 2) times the time.
        assert!((s - 1.5 * t).abs() < 1e-12);
        assert_eq!(sliding_distance(3.0, 0.0, G), None);
    }

    /// Force mode, k = 400, c = 80 on 4 kg: omega = sqrt(100) = 10, zeta = 80 / (2 * 40) = 1.
    /// Acceleration mode, k = 100, c = 20 on any mass: omega = 10, zeta = 20 / 20 = 1. The same
    /// acceleration drive read as a force drive on 4 kg: omega = 5, zeta = 20 / (2 * 20) = 0.5.
    #[test]
    fn oscillators_by_hand() {
        let f = Oscillator::new(400.0, 80.0, 4.0, DriveMode::Force).expect("spring");
        assert!((f.omega - 10.0).abs() < 1e-12 && (f.zeta - 1.0).abs() < 1e-12);
        let a = Oscillator::new(100.0, 20.0, 25.0, DriveMode::Acceleration).expect("spring");
        assert!((a.omega - 10.0).abs() < 1e-12 && (a.zeta - 1.0).abs() < 1e-12);
        let wrong = Oscillator::new(100.0, 20.0, 4.0, DriveMode::Force).expect("spring");
        assert!((wrong.omega - 5.0).abs() < 1e-12 && (wrong.zeta - 0.5).abs() < 1e-12);
        assert_eq!(Oscillator::new(0.0, 1.0, 1.0, DriveMode::Force), None);
        assert_eq!(Oscillator::new(1.0, 1.0, 0.0, DriveMode::Force), None);
        assert_eq!(Oscillator::new(f64::NAN, 1.0, 1.0, DriveMode::Force), None);
    }

    /// Critical, omega = 10: after 1 s, (1 + 10) e^-10 = 4.994e-4 of the step remains.
    /// Underdamped omega = 5, zeta = 0.5 at t = 1: wd = 4.3301,
    /// e^-2.5 (cos 4.3301 + 0.57735 sin 4.3301) = 0.082085 * (-0.37302 - 0.53568) = -0.074591.
    #[test]
    fn step_responses_by_hand() {
        let c = Oscillator {
            omega: 10.0,
            zeta: 1.0,
        };
        assert!((c.step_remaining(1.0) - 11.0 * (-10.0f64).exp()).abs() < 1e-15);
        let u = Oscillator {
            omega: 5.0,
            zeta: 0.5,
        };
        assert!(
            (u.step_remaining(1.0) + 0.074_591).abs() < 1e-5,
            "{}",
            u.step_remaining(1.0)
        );
        // Overdamped omega = 10, zeta = 1.25: r1 = -5, r2 = -20;
        // x(0.1) = (-20 e^-0.5 + 5 e^-2) / -15 = (-12.1306 + 0.6767) / -15 = 0.763596.
        let o = Oscillator {
            omega: 10.0,
            zeta: 1.25,
        };
        assert!(
            (o.step_remaining(0.1) - 0.763_596).abs() < 1e-6,
            "{}",
            o.step_remaining(0.1)
        );
    }

    /// v = 2 m/s into k = 100, c = 20 on 1 kg (omega 10, critical): 2 / (10 e) = 0.073576 m.
    /// Undamped (zeta 0): v / omega = 0.2, the energy bound m v² / 2 = k x² / 2.
    #[test]
    fn overshoot_by_hand() {
        let c = Oscillator::new(100.0, 20.0, 1.0, DriveMode::Force).expect("spring");
        assert!((c.overshoot(2.0) - 0.073_575_888).abs() < 1e-8);
        let u = Oscillator::new(100.0, 0.0, 1.0, DriveMode::Force).expect("spring");
        assert!((u.overshoot(2.0) - 0.2).abs() < 1e-12);
    }

    /// Vertical slider, 4 kg, load -4 * 9.81 = -39.24 N, target 0.5:
    /// force mode k = 400: 0.5 - 39.24 / 400 = 0.4019; acceleration mode k = 100:
    /// 0.5 - 39.24 / (4 * 100) = 0.4019; the acceleration drive read in force mode:
    /// 0.5 - 39.24 / 100 = 0.1076.
    #[test]
    fn drive_rest_by_hand() {
        let load = -4.0 * G;
        let f = drive_rest(0.5, load, 400.0, 4.0, DriveMode::Force).expect("spring");
        let a = drive_rest(0.5, load, 100.0, 4.0, DriveMode::Acceleration).expect("spring");
        let wrong = drive_rest(0.5, load, 100.0, 4.0, DriveMode::Force).expect("spring");
        assert!((f - 0.4019).abs() < 1e-12 && (a - 0.4019).abs() < 1e-12);
        assert!((wrong - 0.1076).abs() < 1e-12);
        assert_eq!(drive_rest(0.5, load, 0.0, 4.0, DriveMode::Force), None);
        // A velocity drive with no load holds its target.
        assert_eq!(
            drive_velocity(1.0, 0.0, 5.0, 2.0, DriveMode::Force),
            Some(1.0)
        );
    }

    /// Simulate `x'' = -2 zeta omega x' - omega² x` with a small semi-implicit Euler step.
    fn simulate(o: Oscillator, x0: f64, v0: f64, until: f64) -> Vec<(f64, f64)> {
        let dt = 1e-5;
        let (mut x, mut v, mut t) = (x0, v0, 0.0);
        let mut out = vec![(0.0, x)];
        while t < until {
            v += (-2.0 * o.zeta * o.omega * v - o.omega * o.omega * x) * dt;
            x += v * dt;
            t += dt;
            out.push((t, x));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// The closed forms agree with a fine numerical integration, and the bound bounds.
        #[test]
        fn closed_forms_match_integration(omega in 1.0..20.0f64, zeta in 0.05..3.0f64, v in 0.1..5.0f64) {
            let o = Oscillator { omega, zeta };
            let step = simulate(o, 1.0, 0.0, 1.0);
            for &(t, x) in step.iter().step_by(5_000) {
                prop_assert!((o.step_remaining(t) - x).abs() < 2e-3, "t {} closed {} sim {}", t, o.step_remaining(t), x);
                prop_assert!(x.abs() <= o.step_bound(t) + 2e-3);
            }
            let hit = simulate(o, 0.0, v, 3.0);
            let peak = hit.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            prop_assert!((o.overshoot(v) - peak).abs() < 1e-3 * (1.0 + peak), "closed {} sim {}", o.overshoot(v), peak);
        }

        /// Continuity across critical damping and monotonicity of the slide.
        #[test]
        fn continuity_and_monotonicity(omega in 1.0..20.0f64, v in 0.1..5.0f64, mu in 0.05..1.0f64, t in 0.0..2.0f64) {
            let below = Oscillator { omega, zeta: 1.0 - 1e-6 };
            let at = Oscillator { omega, zeta: 1.0 };
            let above = Oscillator { omega, zeta: 1.0 + 1e-6 };
            prop_assert!((below.overshoot(v) - at.overshoot(v)).abs() < 1e-4);
            prop_assert!((above.overshoot(v) - at.overshoot(v)).abs() < 1e-4);
            prop_assert!((below.step_remaining(t) - at.step_remaining(t)).abs() < 1e-4);
            prop_assert!((above.step_remaining(t) - at.step_remaining(t)).abs() < 1e-4);
            let s = sliding_distance(v, mu, G).expect("friction");
            prop_assert!(sliding_distance(v, mu * 1.1, G).expect("friction") < s);
            prop_assert!(bounce_apex(1.0, mu.min(1.0)) <= 1.0);
        }
    }
}
