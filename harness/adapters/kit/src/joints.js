// From a joint's limits and drives to one six-degree-of-freedom joint that twists about one axis
// and bounds swings by a cone, as a plan (pure data, no engine): PhysX's D6 joint (physx-node)
// and Jolt's SixDOFConstraint (jolt-node) have this structure. `engine` names the engine in the
// messages of what the plan refuses. The text below speaks of PhysX, for which it was written;
// jolt-node/README.md says how Jolt takes each part.
//
// PhysX's D6 has three linear DOFs (per-axis limit pairs, or one distance limit over all
// limited linear axes) and three angular DOFs: twist about the joint frame's X axis and two
// swings, limited by a cone (or a pyramid). The spec's metrics [D-METRICS] map onto it exactly
// in these cases, and no others (everything else is `not_supported`):
// - 1 linear axis i, [min, max]: a linear limit pair on that axis (e_i . d, same metric).
// - 2 or 3 linear axes, max only: the distance limit over those axes (|d| in their span);
//   a minimum above 0 cannot be expressed (PhysX's distance limit is one-sided).
// - 1 angular axis i: the twist limit, after turning both joint frames so that axis i is the
//   frame's X (PhysX's twist is the twist of the swing-twist split, the spec's Tw_i).
// - 2 angular axes i, j: the circular swing cone about the remaining axis k, which must then be
//   the twist axis (the cone bounds the angle between the frames' k axes, the spec's metric).
// - 3 angular axes: only "locked" (max 0) or unbounded (max >= pi).
// - Locks (a hard [0, 0]) on single angular axes are exact when both swing axes are locked or
//   neither is: one locked swing with a free other swing would bound the swing angle, not the
//   spec's twist about that axis.
// OMI limits are per axis [D-OMI-PER-AXIS]: each listed axis is a 1-axis limit; a later
// constraint overrides an earlier one on the same axis.

import { NotSupported } from './errors.js';

/** An "unbounded" side of a linear limit pair (PhysX wants finite numbers). */
export const FAR = 1e30;
const PI = Math.PI;

const isHardZero = (l) => l.stiffness === null && l.min === 0 && l.max === 0;
const springOf = (l) => (l.stiffness === null ? null : { stiffness: l.stiffness, damping: l.damping });
/** A soft limit with zero stiffness and zero damping exerts nothing: it is no limit. */
const isInert = (l) => l.stiffness === 0 && l.damping === 0;

/** PhysX axis index (0 = X ...) of original joint-frame axis `a` when axis `t` is the twist axis. */
export function physxAxis(a, t) {
  return (a - t + 3) % 3;
}

/**
 * The rotation (quaternion [x, y, z, w]) applied on the right of both joint frames so that
 * original axis t becomes PhysX's X: a cyclic permutation of the axes (det +1).
 * t = 0: identity; t = 1: columns (Y, Z, X); t = 2: columns (Z, X, Y).
 */
export function twistFrameRotation(t) {
  // Rotation by 120 degrees about (1, 1, 1) maps X -> Y -> Z -> X: q = (1/2)(1, 1, 1, 1).
  if (t === 0) return [0, 0, 0, 1];
  if (t === 1) return [0.5, 0.5, 0.5, 0.5];
  return [-0.5, -0.5, -0.5, 0.5];
}

/** Per-axis view of OMI limits: the last limit naming an axis wins. */
function perAxis(limits) {
  const linear = [null, null, null];
  const angular = [null, null, null];
  for (const l of limits) {
    for (const a of l.axes) (l.kind === 'linear' ? linear : angular)[a] = { ...l, axes: [a] };
  }
  return [...linear, ...angular].filter((l) => l !== null);
}

/** Intersect range `r` (null: unconstrained) with [lo, hi] and a spring. */
function narrow(r, lo, hi, spring, what, engine) {
  if (r === null) return { lower: lo, upper: hi, spring };
  if (spring && r.spring) throw new NotSupported(`${what}: two soft limits on one ${engine} DOF`);
  return { lower: Math.max(r.lower, lo), upper: Math.min(r.upper, hi), spring: spring ?? r.spring };
}

/**
 * Plan the D6 joint for `joint` (the model of scene.js); `engine` names the engine in refusals.
 * Returns
 * { twistAxis, linear: [3 x motion], distance, angular: {twist, swing1, swing2}, cone, drives }
 * where a motion is {motion: 'free'|'locked'|'limited', lower, upper, spring}.
 */
export function planJoint(joint, { engine = 'the engine' } = {}) {
  const what = `joint at node ${joint.node}`;
  const limits = (joint.coupling === 'per-axis' ? perAxis(joint.limits) : joint.limits).filter((l) => !isInert(l));

  // 1. Which original axis must be PhysX's twist axis.
  const needs = new Set();
  const lockedAngular = new Set();
  for (const l of limits) {
    if (l.kind !== 'angular') continue;
    if (l.axes.length === 1) {
      if (isHardZero(l)) lockedAngular.add(l.axes[0]);
      else needs.add(l.axes[0]);
    } else if (l.axes.length === 2) {
      needs.add([0, 1, 2].find((a) => !l.axes.includes(a)));
    }
  }
  // Rotation about an axis is impossible when a hard lock holds it: a 1D [0, 0], a cone of 0
  // around another axis, or a total angle of 0. A drive about such an axis does nothing.
  const heldStill = new Set(lockedAngular);
  for (const l of limits) {
    if (l.kind !== 'angular' || l.axes.length < 2 || l.stiffness !== null || l.max !== 0) continue;
    for (const a of l.axes) heldStill.add(a);
  }
  for (const d of joint.drives) if (d.kind === 'angular' && !heldStill.has(d.axis)) needs.add(d.axis);
  if (needs.size > 1) {
    throw new NotSupported(`${what}: angular limits or drives about several axes (${[...needs].join(', ')}); ${engine} twists about one axis and bounds swings by a cone, which differs from the spec's per-axis twist`);
  }
  let t = 0;
  if (needs.size === 1) [t] = needs;
  // One lock: make it the twist lock (twist about that axis = 0, the spec's metric exactly).
  else if (lockedAngular.size === 1) [t] = lockedAngular;
  // Two locks: make the free axis the twist, both swings locked.
  else if (lockedAngular.size === 2) t = [0, 1, 2].find((a) => !lockedAngular.has(a));

  // 2. Linear DOFs.
  const linRange = [null, null, null];
  const linLocked = [false, false, false];
  let distance = null;
  const distanceAxes = new Set();
  for (const l of limits) {
    if (l.kind !== 'linear') continue;
    if (l.axes.length === 1) {
      const k = physxAxis(l.axes[0], t);
      if (isHardZero(l)) linLocked[k] = true;
      else if (l.min !== null || l.max !== null) {
        linRange[k] = narrow(linRange[k], l.min ?? -FAR, l.max ?? FAR, springOf(l), what, engine);
      }
      continue;
    }
    if (l.min !== null && l.min > 0) {
      throw new NotSupported(`${what}: a minimum distance on ${l.axes.length} coupled linear axes (${engine}'s distance limit has a maximum only)`);
    }
    if (l.max === null) continue; // distance >= min <= 0 always holds
    if (l.max === 0 && l.stiffness === null) {
      for (const a of l.axes) linLocked[physxAxis(a, t)] = true;
      continue;
    }
    if (distance !== null) throw new NotSupported(`${what}: two coupled linear limits (${engine} has one distance limit)`);
    distance = { extent: l.max, spring: springOf(l) };
    for (const a of l.axes) distanceAxes.add(physxAxis(a, t));
  }
  const linear = [0, 1, 2].map((k) => {
    if (linLocked[k]) return { motion: 'locked' };
    if (distanceAxes.has(k)) {
      if (linRange[k] !== null) throw new NotSupported(`${what}: a per-axis linear limit on an axis of a coupled (distance) limit`);
      return { motion: 'limited' };
    }
    const r = linRange[k];
    if (r === null) return { motion: 'free' };
    if (r.lower > r.upper) throw new NotSupported(`${what}: linear limits on one axis with an empty intersection`);
    if (distance !== null) throw new NotSupported(`${what}: per-axis linear limits together with a coupled (distance) limit`);
    return { motion: 'limited', ...r };
  });

  // 3. Angular DOFs: twist (original axis t), swing1 (t+1), swing2 (t+2).
  let twist = null;
  let twistLocked = false;
  const swingLocked = [false, false];
  let cone = null;
  for (const l of limits) {
    if (l.kind !== 'angular') continue;
    if (l.axes.length === 1) {
      const k = physxAxis(l.axes[0], t);
      if (isHardZero(l)) {
        if (k === 0) twistLocked = true;
        else swingLocked[k - 1] = true;
      } else {
        // k === 0 by the choice of t.
        twist = narrow(twist, l.min ?? -PI, l.max ?? PI, springOf(l), what, engine);
      }
    } else if (l.axes.length === 2) {
      if (l.min !== null && l.min > 0) throw new NotSupported(`${what}: a minimum cone angle (${engine}'s cone has a maximum only)`);
      if (l.max === null || l.max >= PI) continue;
      if (l.max === 0 && l.stiffness === null) { swingLocked[0] = swingLocked[1] = true; continue; }
      if (cone !== null) throw new NotSupported(`${what}: two cone limits`);
      cone = { angle: l.max, spring: springOf(l) };
    } else {
      if (l.min !== null && l.min > 0) throw new NotSupported(`${what}: a minimum total rotation angle`);
      if (l.max === null || l.max >= PI) continue;
      if (l.max === 0 && l.stiffness === null) { twistLocked = true; swingLocked[0] = swingLocked[1] = true; continue; }
      throw new NotSupported(`${what}: a limit on the total rotation angle (3 coupled angular axes) other than 0 or >= pi`);
    }
  }
  if (swingLocked[0] !== swingLocked[1]) {
    throw new NotSupported(`${what}: one swing axis locked while the other turns; ${engine} would bound the swing angle, not the spec's twist about that axis`);
  }
  let twistMotion;
  if (twistLocked) twistMotion = { motion: 'locked' };
  else if (twist === null) twistMotion = { motion: 'free' };
  else {
    if (twist.lower > twist.upper) throw new NotSupported(`${what}: angular limits on one axis with an empty intersection`);
    if (twist.lower <= -PI && twist.upper >= PI && twist.spring === null) twistMotion = { motion: 'free' };
    else twistMotion = { motion: 'limited', lower: Math.max(twist.lower, -PI), upper: Math.min(twist.upper, PI), spring: twist.spring };
  }
  const swing = swingLocked[0] ? { motion: 'locked' } : cone !== null ? { motion: 'limited' } : { motion: 'free' };

  // 4. Drives: PhysX has one drive per DOF. Several spec drives on one DOF add up:
  // sum_i k_i (p_i - x) + c_i (v_i - v) = K (p* - x) + C (v* - v) with K = sum k_i,
  // p* = sum k_i p_i / K, C = sum c_i, v* = sum c_i v_i / C. That is exact only when no drive
  // is force-limited (each clamps on its own) and all share one mode.
  const byDof = new Map();
  for (const d of joint.drives) {
    if (d.kind === 'angular' && heldStill.has(d.axis)) continue;
    const dof = d.kind === 'linear' ? ['x', 'y', 'z'][physxAxis(d.axis, t)] : 'twist';
    if (!byDof.has(dof)) byDof.set(dof, []);
    byDof.get(dof).push(d);
  }
  const drives = [];
  for (const [dof, list] of byDof) {
    if (list.length > 1 && (list.some((d) => d.maxForce !== null) || list.some((d) => d.mode !== list[0].mode))) {
      throw new NotSupported(`${what}: several drives on one degree of freedom with force limits or different modes (${engine} has one drive per degree of freedom)`);
    }
    const k = list.reduce((sum, d) => sum + d.stiffness, 0);
    const c = list.reduce((sum, d) => sum + d.damping, 0);
    drives.push({
      dof,
      stiffness: k,
      damping: c,
      forceLimit: list[0].maxForce,
      acceleration: list[0].mode === 'acceleration',
      position: k > 0 ? list.reduce((sum, d) => sum + d.stiffness * (d.positionTarget ?? 0), 0) / k : 0,
      velocity: c > 0 ? list.reduce((sum, d) => sum + d.damping * (d.velocityTarget ?? 0), 0) / c : 0,
    });
  }

  return {
    twistAxis: t,
    frameRotation: twistFrameRotation(t),
    linear,
    distance,
    angular: { twist: twistMotion, swing1: swing, swing2: { ...swing } },
    cone,
    drives,
  };
}
