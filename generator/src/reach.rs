//! Generated reach scenes of corpus/v2 ([`Edition::V2`]): a dynamic ball on a joint to the
//! world, every degree of freedom locked but those one limit bounds: one axis bounded on one or
//! both sides, or a coupled limit (the distance from a line or from the pivot, a cone angle)
//! bounded above. Without gravity, impulses at the ball's centre push it to a closed side and
//! then to the other: a `reach` check is that the extreme of the limit's metric gets to the
//! bound, so a bound read too tight (angles as degrees, a side 1% in) fails as surely as one
//! read too loose; past an open side the ball travels on to where it is expected, short of
//! which a side read as 0 stops it. Some one-axis scenes drive the free degree of freedom to a
//! position target instead, in either drive mode, and check that it gets there and stays.
//!
//! The frames, the body's rotation, its mass, the arm of a hinge and the bounds are drawn; the
//! impulses follow by hand-worked mechanics (below), and the expected values are the bounds
//! themselves (or, past an open side, the travel at constant speed): nothing is simulated.
//!
//! - Slider on axis `i` of the joint frame (world direction `e`): the metric is
//!   `e · (t_b - t_a)` with frame A on the ball and frame B fixed, so the ball moving by `x`
//!   along `e` changes the metric by `-x`; an impulse `-m v e` raises it at `v`.
//! - Hinge about `e`, the ball's centre at `arm * u` from the pivot (`u` the frame's next axis):
//!   the twist of `q_a* q_b` is minus the ball's angle about `e`, and the ball's centre moves
//!   along `e × u` when the ball turns positively. About the pivot the ball's inertia is
//!   `I = I_c + m arm²`; an impulse `J` at its centre along `-(e × u)` turns it at
//!   `J arm / I` the negative way, raising the metric at that rate.
//! - A coupled limit's metric grows whichever way the ball leaves the pivot: within a plane or
//!   in space the ball is pushed along a diagonal at the rate; a cone (the ball on an arm along
//!   the cone's axis, its twist locked) swings it off the axis like a hinge.

use nalgebra::{Isometry3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use reference::case::{
    CheckKind, DynamicsCheck, Scenario, Side, SimConfig, TimedAction, Tolerance,
};
use reference::decision::Decision;
use reference::profile::Profile;
use reference::scene::DofKind;
use serde_json::{Value, json};

use crate::case::Case;
use crate::sample;
use crate::scenario::{self, DT};
use crate::scene_spelling::{
    document, document_tags, joint_node, node, shape_ref, spec, sphere, world_frame,
    world_frame_tags,
};
use crate::strategy::drive::DriveSpec;
use crate::strategy::limit::LimitSpec;
use crate::strategy::{Tags, dec, tag, transform};

/// The profiles whose joints are written alike (`crate::current`).
pub const PROFILES: [Profile; 4] = [
    Profile::Khr2024Draft,
    Profile::Khr2025,
    Profile::Omi2024,
    Profile::Omi2025,
];

/// The tags of a ball with an explicit mass, inertia and centre of mass, its sphere collider
/// on a child node, on a joint to the world (here and in `handwritten::reach`).
pub const BALL_TAGS: [&str; 7] = [
    "joint.to-world",
    "body.dynamic",
    "body.mass.explicit",
    "body.inertia-diagonal",
    "body.center-of-mass",
    "shape.sphere.explicit",
    "collider.child",
];

/// Scenes per profile.
pub const PER_PROFILE: u64 = 24;

/// Where the draws of this family start in the sampler's index space, far from the indices of
/// the generated scenes (`corpus::generated`), whose streams they would otherwise repeat.
const INDEX_BASE: u64 = 1 << 40;

/// The ball's radius, m, and its inertia about its centre per kg (a solid sphere, 2/5 r²).
const RADIUS: f64 = 0.2;
const INERTIA_PER_KG: f64 = 0.4 * RADIUS * RADIUS;

/// Steps of a push to a closed side: 0.6 s of travel, then 0.4 s at rest against it.
const PUSH: u32 = 60;
/// Seconds the travel to a closed side takes.
const TRAVEL_TIME: f64 = 0.6;
/// Steps of the travel past an open side, at constant speed.
const OPEN: u32 = 45;
/// Steps of a drive scene, and the step from which its target must hold (2 s: a critically
/// damped drive of natural frequency [`DRIVE_OMEGA`] is then within 2e-6 of its travel).
const DRIVE_STEPS: u32 = 180;
const DRIVE_HOLD: u32 = 120;
const DRIVE_OMEGA: f64 = 8.0;

/// A hard limit row stops the ball within the solver's slop (over corpus/v2, Rapier within
/// 3.1e-5 of the bound, PhysX 4e-6): 1e-3 recommended and 2e-3 allowed, which a bound of at
/// least 0.75 read 1% off misses by almost four times (7.5e-3).
const REACH: Tolerance = Tolerance {
    recommended: 0.001,
    allowed: 0.002,
};
/// Free travel past an open side loses what the engine's solver takes (PhysX's, projecting
/// the velocity onto the joint each step, loses `(w dt)^2 / 2` of the speed a step: 0.05 rad
/// of a 2.13 rad travel at 2.84 rad/s, the fastest scenes drawn): 0.02 recommended, 0.05
/// allowed; a side read as 0 stops the ball at least 0.3 short.
const TRAVEL: Tolerance = Tolerance {
    recommended: 0.02,
    allowed: 0.05,
};

/// How close a drive holds its position target. A slider settles within 5e-4 m (Rapier and
/// PhysX), so 1e-3 recommended and 2e-3 allowed, which a target of at least 0.5 m read 1% off
/// misses. A hinge settles 3e-3 rad off its target in Rapier and up to 7e-3 in PhysX, so
/// 4e-3 and 8e-3: an angular target 1% off passes there; what the check catches is a target
/// misread in its unit, sign or axis, or a drive too soft to get there.
fn drive_tolerance(kind: DofKind) -> Tolerance {
    match kind {
        DofKind::Linear => Tolerance {
            recommended: 0.001,
            allowed: 0.002,
        },
        DofKind::Angular => Tolerance {
            recommended: 0.004,
            allowed: 0.008,
        },
    }
}

/// One reach scene, before it is written in a profile.
#[derive(Clone, Debug, PartialEq)]
pub struct ReachSpec {
    /// The free axis of the joint frame, or with a limit coupling two axes, the other one.
    pub axis: u8,
    /// What the limit bounds, linear or angular, and how the ball moves against it.
    pub bounds: Bounds,
    /// The ball's mass, kg.
    pub mass: f64,
    /// Distance of the ball's centre from a hinge's axis, m (a slider's frame is at the centre).
    pub arm: f64,
    /// The ball's world translation and rotation.
    pub at: [f64; 3],
    pub rotation: Option<[f64; 4]>,
    /// The joint frames' world rotation (both frames coincide at rest).
    pub frame: Option<[f64; 4]>,
}

/// What a reach scene's limit bounds, and how the ball moves against it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bounds {
    /// `axis` alone. The ball is pushed to the first side and then to the other, or past 0 by
    /// `past` when that side is open; or a drive on the axis moves it instead.
    OneAxis {
        kind: DofKind,
        sides: Sides,
        past: f64,
        drive: Option<DriveTarget>,
    },
    /// The two axes other than `axis`, bounded above (the metric is never negative): the
    /// distance from the line along `axis` (linear) or the cone angle of `axis` (angular). The
    /// ball is pushed out to `max`.
    TwoAxes { kind: DofKind, max: f64 },
    /// The three axes, bounded above: the distance from the pivot, so linear (a bound on the
    /// total rotation is not one engines agree on). The ball is pushed out to `max`.
    ThreeAxes { max: f64 },
}

/// A one-axis limit's sides, `min < 0 < max`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sides {
    /// Both sides, `first` the one the ball is pushed to first.
    Both { min: f64, max: f64, first: Side },
    /// The minimum only, pushed to first.
    Min(f64),
    /// The maximum only, pushed to first.
    Max(f64),
}

impl Sides {
    fn min(self) -> Option<f64> {
        match self {
            Sides::Both { min, .. } | Sides::Min(min) => Some(min),
            Sides::Max(_) => None,
        }
    }

    fn max(self) -> Option<f64> {
        match self {
            Sides::Both { max, .. } | Sides::Max(max) => Some(max),
            Sides::Min(_) => None,
        }
    }

    fn bound(self, side: Side) -> Option<f64> {
        match side {
            Side::Min => self.min(),
            Side::Max => self.max(),
        }
    }

    /// The side the ball is pushed to first, and its bound.
    fn first(self) -> (Side, f64) {
        match self {
            Sides::Both {
                first: Side::Min,
                min,
                ..
            }
            | Sides::Min(min) => (Side::Min, min),
            Sides::Both {
                first: Side::Max,
                max,
                ..
            }
            | Sides::Max(max) => (Side::Max, max),
        }
    }
}

/// A position drive on the free axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DriveTarget {
    pub acceleration: bool,
    pub position: f64,
}

/// A bound's magnitude: 0.75 to 1.4 (m or rad: within the twist's range with room to travel).
fn magnitude() -> impl Strategy<Value = f64> + Clone {
    dec(75, 140, 100.0)
}

/// A one-axis limit's sides. Which of both is pushed to first is drawn later (with the frames:
/// the order of the draws is the corpus's), so here it is the maximum.
fn sides() -> impl Strategy<Value = Sides> {
    prop_oneof![
        (magnitude(), magnitude()).prop_map(|(a, b)| Sides::Both {
            min: -a,
            max: b,
            first: Side::Max
        }),
        magnitude().prop_map(Sides::Max),
        magnitude().prop_map(|a| Sides::Min(-a)),
    ]
}

/// A reach scene: bounds of 0.75 to 1.4, targets of 0.5 to 0.65, masses of 0.5 to 5 kg, arms of
/// 0.5 to 1.5 m, positions within 5 m of the origin, rotations from `transform::rotation`.
pub fn spec_strategy() -> impl Strategy<Value = ReachSpec> {
    let target =
        (any::<bool>(), dec(50, 65, 100.0), any::<bool>()).prop_map(|(a, m, neg)| DriveTarget {
            acceleration: a,
            position: if neg { -m } else { m },
        });
    (
        (
            any::<bool>(),
            0u8..=2,
            sides(),
            dec(50, 500, 100.0),
            dec(50, 150, 100.0),
        ),
        (
            prop::array::uniform3(dec(-50, 50, 10.0)),
            transform::maybe_rotation(),
            transform::maybe_rotation(),
            any::<bool>(),
            dec(30, 80, 100.0),
            prop::option::weighted(1.0 / 3.0, target),
            (
                prop_oneof![3 => Just(1u8), 1 => Just(2u8), 1 => Just(3u8)],
                magnitude(),
            ),
        ),
    )
        .prop_map(
            |(
                (angular, axis, sides, mass, arm),
                (at, rotation, frame, min_first, past, drive, (coupled, reach)),
            )| {
                let sides = match sides {
                    Sides::Both { min, max, .. } if min_first => Sides::Both {
                        min,
                        max,
                        first: Side::Min,
                    },
                    one => one,
                };
                let kind = if angular {
                    DofKind::Angular
                } else {
                    DofKind::Linear
                };
                let bounds = match coupled {
                    1 => Bounds::OneAxis {
                        kind,
                        sides,
                        past,
                        drive,
                    },
                    3 if !angular => Bounds::ThreeAxes { max: reach },
                    _ => Bounds::TwoAxes { kind, max: reach },
                };
                ReachSpec {
                    axis,
                    bounds,
                    mass,
                    arm,
                    at,
                    rotation,
                    frame,
                }
            },
        )
}

/// The reach cases of a plan's profiles, [`PER_PROFILE`] each.
pub fn cases(seed: u64, profiles: &[Profile]) -> Vec<Case> {
    (0u64..)
        .zip(PROFILES)
        .filter(|(_, p)| profiles.contains(p))
        .flat_map(|(slot, p)| {
            (0..PER_PROFILE).filter_map(move |k| {
                let index = INDEX_BASE + slot * PER_PROFILE + k;
                let s = sample::sample(&spec_strategy(), seed, index, 0)?;
                let id = format!("{}/gen/reach/{k:05}", p.family());
                Some(case(p, seed, &id, &s))
            })
        })
        .collect()
}

/// What a scene does and checks beyond the generic checks of its scene.
struct ReachScenario {
    actions: Vec<TimedAction>,
    checks: Vec<DynamicsCheck>,
    steps: u32,
    /// What happens, for the description.
    happens: String,
}

impl ReachSpec {
    /// Whether the limit is linear or angular.
    pub fn kind(&self) -> DofKind {
        match self.bounds {
            Bounds::OneAxis { kind, .. } | Bounds::TwoAxes { kind, .. } => kind,
            Bounds::ThreeAxes { .. } => DofKind::Linear,
        }
    }

    /// The world direction of the free axis, `e`.
    fn axis_world(&self) -> Vector3<f64> {
        self.frame_axis(0)
    }

    fn frame_rotation(&self) -> UnitQuaternion<f64> {
        self.frame.map(transform::unit).unwrap_or_default()
    }

    /// Axis `k` of the joint frame, `axis` plus `k` (mod 3), in world space.
    fn frame_axis(&self, k: u8) -> Vector3<f64> {
        self.frame_rotation() * Vector3::ith(usize::from((self.axis + k) % 3), 1.0)
    }

    /// `u`: from a hinge's pivot to the ball's centre at rest: the frame's next axis, or for a
    /// cone, its own axis.
    fn arm_world(&self) -> Vector3<f64> {
        self.frame_axis(if self.is_one_axis() { 1 } else { 0 })
    }

    fn is_one_axis(&self) -> bool {
        matches!(self.bounds, Bounds::OneAxis { .. })
    }

    /// The axes the limit bounds (see [`Bounds`]).
    fn limit_axes(&self) -> Vec<u8> {
        match self.bounds {
            Bounds::OneAxis { .. } => vec![self.axis],
            Bounds::TwoAxes { .. } => (0..3).filter(|a| *a != self.axis).collect(),
            Bounds::ThreeAxes { .. } => vec![0, 1, 2],
        }
    }

    /// The limit's minimum and maximum.
    fn sides(&self) -> (Option<f64>, Option<f64>) {
        match self.bounds {
            Bounds::OneAxis { sides, .. } => (sides.min(), sides.max()),
            Bounds::TwoAxes { max, .. } | Bounds::ThreeAxes { max } => (None, Some(max)),
        }
    }

    /// The drive of a drive scene.
    fn drive(&self) -> Option<DriveTarget> {
        match self.bounds {
            Bounds::OneAxis { drive, .. } => drive,
            Bounds::TwoAxes { .. } | Bounds::ThreeAxes { .. } => None,
        }
    }

    /// The hinge's arm: none in a drive scene, whose ball turns about its centre, so that its
    /// inertia about the axis is the same for every reading of a drive's effective mass
    /// (about the pivot, or about the centre of mass as a constraint row sees it).
    fn arm(&self) -> f64 {
        match (self.kind(), self.drive()) {
            (DofKind::Angular, None) => self.arm,
            _ => 0.0,
        }
    }

    /// The ball's inertia about the free degree of freedom: its mass (slider) or its moment
    /// of inertia about the hinge's axis, `I_c + m arm²`.
    fn inertia(&self) -> f64 {
        match self.kind() {
            DofKind::Linear => self.mass,
            DofKind::Angular => self.mass * (INERTIA_PER_KG + self.arm() * self.arm()),
        }
    }

    /// The world position of the joint frames at rest.
    fn pivot(&self) -> Vector3<f64> {
        Vector3::from(self.at) - self.arm() * self.arm_world()
    }

    /// The impulse at the ball's centre that makes the metric change at `rate` (m/s or rad/s,
    /// signed), the ball at rest where the metric is `metric`: see the module doc (a hinge's
    /// ball has turned by `-metric` about `e`, and its arm with it).
    ///
    /// A coupled limit's metric grows whichever way the ball leaves its rest: a linear one is
    /// pushed along the diagonal of its plane (2 axes) or of its frame (3), at `rate`; a cone
    /// swings the ball off its axis `e` along the frame's next axis, turning it at `rate`.
    pub fn impulse(&self, rate: f64, metric: f64) -> [f64; 3] {
        let e = self.axis_world();
        let j = match self.bounds {
            Bounds::OneAxis {
                kind: DofKind::Linear,
                ..
            } => -self.mass * rate * e,
            Bounds::TwoAxes {
                kind: DofKind::Linear,
                ..
            } => self.mass * rate * (self.frame_axis(1) + self.frame_axis(2)).normalize(),
            Bounds::ThreeAxes { .. } => {
                self.mass * rate * (e + self.frame_axis(1) + self.frame_axis(2)).normalize()
            }
            Bounds::TwoAxes {
                kind: DofKind::Angular,
                ..
            } => (rate * self.inertia() / self.arm()) * self.frame_axis(1),
            Bounds::OneAxis {
                kind: DofKind::Angular,
                ..
            } => {
                let turned =
                    UnitQuaternion::from_axis_angle(&nalgebra::Unit::new_normalize(e), -metric);
                let tangent = e.cross(&(turned * self.arm_world()));
                -(rate * self.inertia() / self.arm()) * tangent
            }
        };
        [j.x, j.y, j.z]
    }

    /// The limit (first) and the locks of every other degree of freedom.
    fn limits(&self) -> Vec<LimitSpec> {
        let limit = |linear: bool, axes: Vec<u8>, min: Option<f64>, max: Option<f64>| LimitSpec {
            linear,
            axes,
            min,
            max,
            stiffness: None,
            damping: None,
        };
        let others: Vec<u8> = (0..3).filter(|a| *a != self.axis).collect();
        let linear = self.kind() == DofKind::Linear;
        let (min, max) = self.sides();
        let mut all = vec![limit(linear, self.limit_axes(), min, max)];
        let no_rotation = [
            limit(false, vec![0, 1], None, Some(0.0)),
            limit(false, vec![2], Some(0.0), Some(0.0)),
        ];
        match self.bounds {
            Bounds::OneAxis {
                kind: DofKind::Linear,
                ..
            } => {
                all.push(limit(true, others, None, Some(0.0)));
                all.extend(no_rotation);
            }
            Bounds::TwoAxes {
                kind: DofKind::Linear,
                ..
            } => {
                all.push(limit(true, vec![self.axis], Some(0.0), Some(0.0)));
                all.extend(no_rotation);
            }
            Bounds::ThreeAxes { .. } => all.extend(no_rotation),
            Bounds::OneAxis {
                kind: DofKind::Angular,
                ..
            } => {
                all.push(limit(true, vec![0, 1, 2], None, Some(0.0)));
                all.push(limit(false, others, None, Some(0.0)));
            }
            Bounds::TwoAxes {
                kind: DofKind::Angular,
                ..
            } => {
                all.push(limit(true, vec![0, 1, 2], None, Some(0.0)));
                all.push(limit(false, vec![self.axis], Some(0.0), Some(0.0)));
            }
        }
        all
    }

    /// The drive of a drive scene: critically damped at [`DRIVE_OMEGA`] for the ball's inertia
    /// about the free axis (force mode) or per unit of it (acceleration mode).
    fn drive_spec(&self, t: DriveTarget) -> DriveSpec {
        let inertia = self.inertia();
        let scale = if t.acceleration { 1.0 } else { inertia };
        let round = |x: f64| (x * 1000.0).round() / 1000.0;
        DriveSpec {
            angular: self.kind() == DofKind::Angular,
            acceleration: t.acceleration,
            axis: self.axis,
            max_force: None,
            position_target: Some(t.position),
            velocity_target: Some(0.0),
            stiffness: Some(round(scale * DRIVE_OMEGA * DRIVE_OMEGA)),
            damping: Some(round(scale * 2.0 * DRIVE_OMEGA)),
        }
    }

    /// The drive of a drive scene reaching its target and holding it.
    fn driven(&self, t: DriveTarget) -> ReachScenario {
        let d = self.drive_spec(t);
        ReachScenario {
            actions: Vec::new(),
            checks: vec![DynamicsCheck {
                from_step: DRIVE_HOLD,
                ..DynamicsCheck::new(
                    "drive-target",
                    CheckKind::Drive {
                        joint: 1,
                        drive: 0,
                        target: t.position,
                        tolerance: drive_tolerance(self.kind()),
                    },
                )
            }],
            steps: DRIVE_STEPS,
            happens: format!(
                "driven ({} mode, stiffness {}, damping {}: critically damped) to its position target {}, reached and held from step {DRIVE_HOLD}",
                if t.acceleration {
                    "acceleration"
                } else {
                    "force"
                },
                d.stiffness.unwrap_or_default(),
                d.damping.unwrap_or_default(),
                t.position
            ),
        }
    }

    /// The push of a coupled limit out to its maximum `b`, and its check.
    fn push_out(&self, b: f64) -> ReachScenario {
        ReachScenario {
            actions: vec![TimedAction {
                step: 0,
                action: json!({"action": "impulse", "node": 0, "impulse": self.impulse(b / TRAVEL_TIME, 0.0)}),
            }],
            checks: vec![reach_check("reach-max", Side::Max, b, (0, PUSH), REACH)],
            steps: PUSH,
            happens: format!("pushed by an impulse out to its maximum {b}"),
        }
    }

    /// The pushes of a one-axis limit to one side and then the other (or past 0 by `past`
    /// when that side is open), and their checks.
    fn pushes(&self, sides: Sides, past: f64) -> ReachScenario {
        let (first, b1) = sides.first();
        let second = match first {
            Side::Min => Side::Max,
            Side::Max => Side::Min,
        };
        let sign = |s: Side| if s == Side::Max { 1.0 } else { -1.0 };
        let v1 = b1 / TRAVEL_TIME;
        let (b2, travel, speed, tolerance, phrase) = match sides.bound(second) {
            Some(b2) => (
                b2,
                PUSH,
                (b2 - b1) / TRAVEL_TIME,
                REACH,
                format!("back to its {} {b2}", second.name()),
            ),
            None => {
                let to = sign(second) * past;
                (
                    to,
                    OPEN,
                    (to - b1) / (f64::from(OPEN) * DT),
                    TRAVEL,
                    format!(
                        "back past 0 at constant speed to {to} after {OPEN} steps, its {} absent (read as 0 it would stop the ball at 0)",
                        second.name()
                    ),
                )
            }
        };
        let impulse = |step: u32, rate: f64, metric: f64| TimedAction {
            step,
            action: json!({"action": "impulse", "node": 0, "impulse": self.impulse(rate, metric)}),
        };
        let steps = PUSH + travel;
        ReachScenario {
            actions: vec![impulse(0, v1, 0.0), impulse(PUSH, speed, b1)],
            checks: vec![
                reach_check(
                    &format!("reach-{}", first.name()),
                    first,
                    b1,
                    (0, PUSH),
                    REACH,
                ),
                reach_check(
                    &format!("reach-{}", second.name()),
                    second,
                    b2,
                    (PUSH, steps),
                    tolerance,
                ),
            ],
            steps,
            happens: format!(
                "pushed by an impulse to its {} {b1} and then by another {phrase}",
                first.name()
            ),
        }
    }
}

/// A check that the limit's metric reaches `expected` on `side` over `window`.
fn reach_check(
    name: &str,
    side: Side,
    expected: f64,
    window: (u32, u32),
    tolerance: Tolerance,
) -> DynamicsCheck {
    DynamicsCheck {
        from_step: window.0,
        to_step: Some(window.1),
        ..DynamicsCheck::new(
            name,
            CheckKind::Reach {
                joint: 1,
                limit: 0,
                side,
                expected,
                tolerance,
            },
        )
    }
}

/// The case of `s` in profile `p`.
pub fn case(p: Profile, seed: u64, id: &str, s: &ReachSpec) -> Case {
    case_of(p, seed, id, s, false)
}

/// A reach case whose ball writes `inertiaDiagonal` `[0, 0, 0]` (`zero_inertia`, for OMI:
/// computed by the engine [D-OMI-INERTIA], here from the sphere centred on the centre of mass:
/// the same `0.4 m r²` the explicit diagonal writes, so the expected values are unchanged) or
/// its explicit diagonal.
pub fn case_of(p: Profile, seed: u64, id: &str, s: &ReachSpec, zero_inertia: bool) -> Case {
    let limits = s.limits();
    let mut tags = Tags::new();
    limits.iter().for_each(|l| l.tags(&mut tags));
    let mut joint = json!({"limits": limits.iter().map(LimitSpec::render).collect::<Vec<_>>()});
    if let Some(d) = s.drive().map(|t| s.drive_spec(t)) {
        d.tags(&mut tags);
        joint["drives"] = json!([d.render()]);
    }
    let body = transform::iso(s.at, s.rotation);
    let pivot = Isometry3::from_parts(Translation3::from(s.pivot()), s.frame_rotation());
    let (t, r) = transform::parts(&transform::relative(&body, &pivot));
    let mut ball = node(p, "Ball", s.at, json!({"motion": motion(p, s.mass)}));
    if zero_inertia {
        ball["extensions"][crate::scene_spelling::body_extension(p)]["motion"]["inertiaDiagonal"] =
            json!([0.0, 0.0, 0.0]);
        tag(&mut tags, &["body", "inertia-diagonal", "zero"]);
    }
    if let Some(q) = s.rotation {
        ball["rotation"] = json!(q);
    }
    ball["children"] = json!([1, 2]);
    let mut frame_a = joint_node(p, "Joint", t, 3);
    if let Some(q) = r {
        frame_a["rotation"] = json!(q);
    }
    let shape = node(
        p,
        "BallShape",
        [0.0; 3],
        json!({"collider": shape_ref(p, 0)}),
    );
    let pv = s.pivot();
    let mut frame_b = world_frame(p);
    frame_b["translation"] = json!([pv.x, pv.y, pv.z]);
    if let Some(q) = s.frame {
        frame_b["rotation"] = json!(q);
    }
    let gltf = document(
        p,
        vec![sphere(RADIUS)],
        vec![ball, frame_a, shape, frame_b],
        Some(joint),
    );
    let k = |n: u8| (s.axis + n) % 3;
    let what = match s.bounds {
        Bounds::OneAxis {
            kind: DofKind::Linear,
            ..
        } => format!("a slider along axis {} of its frame", s.axis),
        Bounds::TwoAxes {
            kind: DofKind::Linear,
            ..
        } => format!(
            "a joint free in the plane of axes {} and {} of its frame (a linear limit on the distance from the line along axis {})",
            k(1),
            k(2),
            s.axis
        ),
        Bounds::ThreeAxes { .. } => {
            "a joint free to move the ball any way (a linear limit on the distance between the frames)".to_owned()
        }
        Bounds::TwoAxes {
            kind: DofKind::Angular,
            ..
        } => format!(
            "a ball joint {} m from its centre, twist about axis {} of its frame locked (an angular limit on the cone angle of that axis)",
            s.arm(),
            s.axis
        ),
        Bounds::OneAxis {
            kind: DofKind::Angular,
            ..
        } if s.arm() == 0.0 => {
            format!(
                "a hinge about axis {} of its frame through its centre",
                s.axis
            )
        }
        Bounds::OneAxis {
            kind: DofKind::Angular,
            ..
        } => format!(
            "a hinge about axis {} of its frame, {} m from its centre",
            s.axis,
            s.arm()
        ),
    };
    let run = match s.bounds {
        Bounds::OneAxis { drive: Some(t), .. } => s.driven(t),
        Bounds::OneAxis {
            sides,
            past,
            drive: None,
            ..
        } => s.pushes(sides, past),
        Bounds::TwoAxes { max, .. } | Bounds::ThreeAxes { max } => s.push_out(max),
    };
    let (min, max) = s.sides();
    let sides = format!(
        "[{}, {}]",
        min.map_or("open".to_owned(), |m| m.to_string()),
        max.map_or("open".to_owned(), |m| m.to_string())
    );
    let description = format!(
        "Generated reach scene: a {} kg ball{} on {what} (the joint on the ball, its connected frame on the world; {} limit {sides} on axes {:?}, every other degree of freedom locked), without gravity, {}.",
        s.mass,
        if zero_inertia {
            " with inertiaDiagonal [0, 0, 0] (OMI: computed by the engine, here 0.4 m r² from its sphere; a reader taking the zeros as infinite moments, KHR's meaning, never turns it, so it never gets to its bound)"
        } else {
            ""
        },
        if s.kind() == DofKind::Linear {
            "linear"
        } else {
            "angular"
        },
        s.limit_axes(),
        run.happens,
    );
    let profile_tags = [document_tags(p), world_frame_tags(p)];
    for t in BALL_TAGS.iter().chain(profile_tags.into_iter().flatten()) {
        tags.insert((*t).to_owned());
    }
    if !run.actions.is_empty() {
        tag(&mut tags, &["body", "dynamic", "impulse-action"]);
    }
    let reading = reference::read_tree(&gltf, None, None);
    let scenario = scenario::expectation(&reading).map(|e| {
        let mut all = scenario::checks(&e);
        all.extend(run.checks);
        Scenario {
            config: SimConfig {
                gravity: [0.0; 3],
                dt: DT,
                substeps: 1,
            },
            steps: run.steps,
            observe_every: 1,
            actions: (!run.actions.is_empty()).then_some(run.actions),
            checks: all,
        }
    });
    let mut decisions = vec![Decision::Frames, Decision::Metrics];
    if zero_inertia {
        decisions.push(Decision::OmiInertia);
    }
    if s.kind() == DofKind::Angular {
        decisions.push(Decision::TwistSigned);
    }
    Case::scripted(
        p,
        seed,
        id.to_owned(),
        "dynamics",
        description,
        &spec(
            p,
            "Joints (limits, drives)",
            "OMI_physics_joint Joint Limits and Drives",
        ),
        tags,
        &decisions,
        gltf,
        scenario,
    )
}

/// The ball's motion: its mass, an explicit inertia (a solid sphere's) and centre of mass, so
/// nothing is left to the engine.
fn motion(p: Profile, mass: f64) -> Value {
    let i = (mass * INERTIA_PER_KG * 1e6).round() / 1e6;
    let mut m =
        json!({"mass": mass, "inertiaDiagonal": [i, i, i], "centerOfMass": [0.0, 0.0, 0.0]});
    if !p.is_khr() {
        m["type"] = json!("dynamic");
    }
    m
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point3, Unit};
    use reference::metrics;

    use super::*;

    /// A spec with nothing drawn: a hinge about z (axis 2) of 1 kg on a 1 m arm along x, as
    /// the hand-written hinge of `handwritten::reach`.
    fn hinge() -> ReachSpec {
        driven_hinge(None)
    }

    /// The same hinge with a drive instead of the pushes.
    fn driven_hinge(drive: Option<DriveTarget>) -> ReachSpec {
        ReachSpec {
            axis: 2,
            bounds: Bounds::OneAxis {
                kind: DofKind::Angular,
                sides: Sides::Both {
                    min: -0.6,
                    max: 0.9,
                    first: Side::Max,
                },
                past: 0.5,
                drive,
            },
            mass: 1.0,
            arm: 1.0,
            at: [1.0, 0.0, 0.0],
            rotation: None,
            frame: None,
        }
    }

    #[test]
    fn the_hand_worked_impulses() {
        let close = |a: [f64; 3], b: [f64; 3]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12);
        // About the pivot I = 0.016 + 1 * 1^2 = 1.016: 1 rad/s of metric is the ball turning
        // at -1 rad/s, its centre moving along -y: J = 1.016 N s along -y.
        let h = hinge();
        assert_eq!(h.pivot(), Vector3::zeros());
        assert!(close(h.impulse(1.0, 0.0), [0.0, -1.016, 0.0]));
        // At a metric of 0.9 the ball is at -0.9 rad; back at 2 rad/s: along the tangent of
        // increasing angle there, (sin 0.9, cos 0.9), 2 * 1.016 N s.
        let back = h.impulse(-2.0, 0.9);
        assert!(
            close(back, [0.9f64.sin(), 0.9f64.cos(), 0.0].map(|x| x * 2.032)),
            "{back:?}"
        );
        // A 2 kg slider on x at 0.5 m/s: 1 N s along -x.
        let s = ReachSpec {
            axis: 0,
            mass: 2.0,
            bounds: Bounds::OneAxis {
                kind: DofKind::Linear,
                sides: Sides::Both {
                    min: -0.6,
                    max: 0.9,
                    first: Side::Max,
                },
                past: 0.5,
                drive: None,
            },
            ..hinge()
        };
        assert!(close(s.impulse(0.5, 0.0), [-1.0, 0.0, 0.0]));
        // A drive scene's hinge turns about the ball's centre: I = 0.016 m.
        let target = DriveTarget {
            acceleration: false,
            position: 0.5,
        };
        let d = driven_hinge(Some(target));
        assert_eq!(d.pivot(), Vector3::new(1.0, 0.0, 0.0));
        assert!((d.inertia() - 0.016).abs() < 1e-15);
        // Critically damped at 8 rad/s: k = I * 64, c = I * 16 (force mode).
        let spec = d.drive_spec(target);
        assert_eq!((spec.stiffness, spec.damping), (Some(1.024), Some(0.256)));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

        /// The impulse's direction, checked against the reference's metric rather than the
        /// mechanics above: moving the ball along it (a slider, a plane, a distance) or turning
        /// it about the pivot (whose centre then moves along the impulse) raises the metric at
        /// the rate asked. A one-axis hinge is checked anywhere in its travel, a coupled limit
        /// from rest.
        #[test]
        fn an_impulse_raises_the_metric(s in spec_strategy(), at in -1.0f64..1.0, rate in 0.5f64..3.0) {
            let mut s = s;
            if let Bounds::OneAxis { drive, .. } = &mut s.bounds {
                *drive = None;
            }
            let at = if s.is_one_axis() { at } else { 0.0 };
            let pivot = Isometry3::from_parts(Translation3::from(s.pivot()), s.frame_rotation());
            let axes = s.limit_axes();
            let j = Vector3::from(s.impulse(rate, at));
            let dt = 1e-6;
            match s.kind() {
                DofKind::Linear => {
                    // The ball's velocity J / m moves frame A with it.
                    let moved = Translation3::from(j / s.mass * dt) * pivot;
                    let m = metrics::linear_metric(&axes, &moved, &pivot);
                    prop_assert!((m / dt - rate).abs() < 1e-6, "{m}");
                }
                DofKind::Angular => {
                    // The ball at metric `at` (a hinge turned by -at about e through the
                    // pivot), then turned on by rate * dt about the axis from its arm to J.
                    let about = |axis: Vector3<f64>, angle: f64| {
                        let r = UnitQuaternion::from_axis_angle(&Unit::new_normalize(axis), angle);
                        Translation3::from(s.pivot()) * r * Translation3::from(-s.pivot())
                    };
                    let from = about(s.axis_world(), -at);
                    let centre = |m: &Isometry3<f64>| m.transform_point(&s.at.into());
                    let arm = centre(&from) - Point3::from(s.pivot());
                    let to = about(arm.cross(&j), rate * dt) * from;
                    let moved = (centre(&to) - centre(&from)) / dt;
                    prop_assert!((moved.normalize() - j.normalize()).norm() < 1e-5);
                    // |J| = I w / arm: the centre's speed is w * arm.
                    prop_assert!((j.norm() * s.arm / s.inertia() - rate).abs() < 1e-9);
                    let m0 = metrics::angular_metric(&axes, &(from * pivot), &pivot);
                    let m1 = metrics::angular_metric(&axes, &(to * pivot), &pivot);
                    prop_assert!((m0 - at).abs() < 1e-9, "{m0}");
                    prop_assert!(((m1 - m0) / dt - rate).abs() < 1e-4, "{m0} {m1}");
                }
            }
        }
    }

    #[test]
    fn every_case_reads_cleanly_with_its_checks() {
        let cases = cases(2, &Profile::ALL);
        assert_eq!(cases.len(), PROFILES.len() * PER_PROFILE as usize);
        let ids: std::collections::BTreeSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), cases.len(), "ids are unique");
        let (mut pushes, mut coupled, mut drives) = (0, 0, 0);
        for c in &cases {
            let r = crate::label::clean_reading(c);
            let e = scenario::expectation(&r).expect("an expectation");
            // The free limit comes first, every other degree of freedom is locked.
            assert!(e.joints[0].limits.len() >= 3, "{}", c.id);
            let s = c.scenario.as_ref().expect("a scenario");
            assert!(s.validate().is_ok(), "{}", c.id);
            let reach: Vec<&DynamicsCheck> = s
                .checks
                .iter()
                .filter(|k| matches!(k.kind, CheckKind::Reach { .. }))
                .collect();
            if c.features.contains("joint.drive.position-target") {
                drives += 1;
                assert!(reach.is_empty() && s.actions().is_empty(), "{}", c.id);
            } else if e.joints[0].limits[0].axes.len() > 1 {
                coupled += 1;
                assert_eq!(reach.len(), 1, "{}: one check, of the maximum", c.id);
                assert_eq!(s.actions().len(), 1, "{}", c.id);
            } else {
                pushes += 1;
                assert_eq!(reach.len(), 2, "{}: one check per side", c.id);
                assert_eq!(s.actions().len(), 2, "{}", c.id);
            }
        }
        assert!(
            pushes > drives && drives > 0 && coupled > 0,
            "{pushes} {coupled} {drives}"
        );
        // The same seed gives the same cases; another seed others.
        assert_eq!(cases, super::cases(2, &Profile::ALL));
        assert_ne!(cases[0].payload, super::cases(3, &Profile::ALL)[0].payload);
    }

    /// What `Bounds` leaves to its builder: a one-axis limit's sides straddle 0 and its first
    /// side is a given one, a coupled limit's maximum is positive (three coupled axes are linear
    /// by the type, asserted still). And the draws reach every shape: both sides with either first, one side of
    /// either kind, a drive, two and three coupled axes of each kind they allow.
    #[test]
    fn the_strategy_draws_every_shape_of_bounds_and_only_sound_ones() {
        let mut seen = std::collections::BTreeSet::new();
        for index in 0..2000 {
            let s = sample::sample(&spec_strategy(), 7, index, 0).expect("a spec");
            let angular = s.kind() == DofKind::Angular;
            let shape = match s.bounds {
                Bounds::OneAxis {
                    sides, past, drive, ..
                } => {
                    let (min, max) = (sides.min(), sides.max());
                    assert!(
                        min.is_none_or(|m| m < 0.0) && max.is_none_or(|m| m > 0.0),
                        "{s:?}"
                    );
                    let (first, bound) = sides.first();
                    assert_eq!(sides.bound(first), Some(bound), "{s:?}");
                    assert!(past > 0.0, "{s:?}");
                    match (sides, drive) {
                        (_, Some(_)) => "drive".to_owned(),
                        (Sides::Both { first, .. }, None) => {
                            format!("both, {} first", first.name())
                        }
                        (Sides::Min(_), None) => "min only".to_owned(),
                        (Sides::Max(_), None) => "max only".to_owned(),
                    }
                }
                Bounds::TwoAxes { max, .. } => {
                    assert!(max > 0.0, "{s:?}");
                    format!("two axes, angular {angular}")
                }
                Bounds::ThreeAxes { max } => {
                    assert!(max > 0.0 && !angular, "{s:?}");
                    "three axes".to_owned()
                }
            };
            seen.insert(shape);
        }
        let want = [
            "both, max first",
            "both, min first",
            "drive",
            "max only",
            "min only",
            "three axes",
            "two axes, angular false",
            "two axes, angular true",
        ];
        assert_eq!(seen, want.iter().map(|s| (*s).to_owned()).collect());
    }

    #[test]
    fn only_the_plan_s_profiles_get_cases() {
        assert!(cases(2, &[Profile::Omi2023, Profile::VrmcConstraintsDraft]).is_empty());
        let one = cases(2, &[Profile::Khr2025]);
        assert_eq!(one.len(), PER_PROFILE as usize);
        assert!(one.iter().all(|c| c.id.starts_with("khr25/gen/reach/")));
    }
}
