// The protocol's report shapes built from the kit's scene (harness/src/protocol/message.rs):
// what every engine answers alike, whatever engine objects its values come from.

const ZERO = [0, 0, 0];
const INFINITE = { kind: 'infinite' };

/** An observed node that does not move (a static actor or collider): where it stands. */
export function restingNode(node, pose) {
  return { node, translation: pose.p, rotation: pose.q, linear_velocity: ZERO, angular_velocity: ZERO };
}

/**
 * An observation: `nodes` sorted by node, `touching` the keys `"i,j"` of the collider pairs in
 * contact (reported once per node pair), the trigger `events` since the last observation.
 */
export function observation(time, nodes, touching, colliders, events) {
  nodes.sort((a, b) => a.node - b.node);
  const contacts = new Map();
  for (const key of touching) {
    const [i, j] = key.split(',').map(Number);
    const a = colliders[i].node, b = colliders[j].node;
    const pair = a < b ? [a, b] : [b, a];
    contacts.set(pair.join(','), pair);
  }
  return {
    time,
    nodes,
    contacts: [...contacts.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]),
    trigger_events: events,
  };
}

/** A static body as reported: it never moves, so its mass properties are infinite. */
export function staticBody(body) {
  return {
    node: body.node, kind: 'static', mass: INFINITE, center_of_mass: ZERO,
    inertia_diagonal: [INFINITE, INFINITE, INFINITE],
    inertia_orientation: [0, 0, 0, 1], linear_velocity: ZERO, angular_velocity: ZERO,
    gravity_factor: body.gravityFactor,
  };
}

/** A collider as reported, at `pose` in its body's frame (or the world's without a body). */
export function colliderReport(scene, c, pose, isTrigger, report) {
  return {
    node: c.node,
    body: c.body === null ? null : scene.bodies[c.body].node,
    is_trigger: isTrigger,
    shape: report.shape,
    parameters: report.parameters,
    translation: pose.p,
    rotation: pose.q,
  };
}

/**
 * Every pair of colliders on different bodies, nodes in order: whether they collide (neither is
 * a trigger and `allowed[i * n + j]` has bit 2) and `values(i, j)`, their combined
 * `{static_friction, dynamic_friction, restitution}`.
 */
export function pairReports(colliders, allowed, values) {
  const n = colliders.length;
  const pairs = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = colliders[i], b = colliders[j];
      if (a.body === b.body) continue;
      const [x, y] = a.node <= b.node ? [a, b] : [b, a];
      pairs.push({
        a: x.node,
        b: y.node,
        collide: !a.isTrigger && !b.isTrigger && (allowed[i * n + j] & 2) !== 0,
        ...values(i, j),
      });
    }
  }
  return pairs;
}

/** A joint as reported: its limits and drives as read, in canonical form (protocol 2). */
export function jointReport(joint, frames) {
  return {
    node: joint.node,
    bodies: [joint.a.body, joint.b.body],
    frames,
    limits: joint.limits.map((l) => ({
      kind: l.kind, axes: l.axes, min: l.min, max: l.max, stiffness: l.stiffness, damping: l.damping,
    })),
    drives: joint.drives.map((d) => ({
      kind: d.kind, axis: d.axis, mode: d.mode, max_force: d.maxForce,
      position_target: d.positionTarget, velocity_target: d.velocityTarget, stiffness: d.stiffness, damping: d.damping,
    })),
  };
}
