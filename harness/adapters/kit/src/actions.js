// The harness's actions (`Action` in harness/src/protocol/message.rs) on an engine's world.

import { NotSupported } from './errors.js';
import { qnormalize } from './math.js';

/**
 * Apply `action` to the body of `holds` (the world's `{body}` records) at its node: an impulse
 * through the engine's `impulse(hold, vector)`, now; a force into `world.heldForces` and a
 * kinematic pose into `world.pendingPoses`, which the world's `step` applies.
 */
export function applyAction(world, holds, action, impulse) {
  const hold = [...holds].find((h) => h.body.node === action.node);
  if (!hold) throw new NotSupported(`node ${action.node} is not a body`);
  const kind = hold.body.kind;
  switch (action.action) {
    case 'impulse':
      if (kind !== 'dynamic') throw new NotSupported(`an impulse on the ${kind} body at node ${action.node}`);
      impulse(hold, action.impulse);
      return;
    case 'force': {
      if (kind !== 'dynamic') throw new NotSupported(`a force on the ${kind} body at node ${action.node}`);
      const f = world.heldForces.get(action.node) ?? [0, 0, 0];
      world.heldForces.set(action.node, f.map((x, i) => x + action.force[i]));
      return;
    }
    case 'kinematic_pose':
      if (kind !== 'kinematic') throw new NotSupported(`a kinematic pose for the ${kind} body at node ${action.node}`);
      world.pendingPoses.set(action.node, { p: action.translation, q: qnormalize(action.rotation) });
      return;
    default:
      throw new NotSupported(`action ${action.action}`);
  }
}
