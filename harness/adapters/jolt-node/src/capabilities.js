// What the Jolt adapter declares in its handshake, in the generator's feature vocabulary (the
// harness's prefix rule: the kit's `supports`).
//
// Left out, as in physx-node, because Jolt's SixDOFConstraint has PhysX D6's structure (one
// twist axis, a swing cone or pyramid) and cannot express them exactly:
// - joint.limit.angular.3: a bound on the total rotation angle (only 0 and >= pi map);
// - joint.kind.generic / omi.joint.generic: random limit mixes;
// - omi.constraint.angular.2 / .3: per-axis twist bounds about several axes;
// - vrm.*: Jolt has no VRM constraints;
// - shape.plane.double-sided: Jolt's PlaneShape is a half-space, with no zero-thickness surface;
// - skinned or morphed node geometry (`geometry.node.skinned`, `.morphed`): rest positions only.
// Refused at load under declared tags (see README.md): soft angular limits (Jolt's SixDOF has
// limit springs on translation only), a distance from a line (2 coupled linear axes), what the
// kit's joint plan refuses, a triangle mesh on a dynamic body, a non-uniformly scaled sphere...

import { SIX_DOF_CHECKS, SIX_DOF_FEATURES, supports } from '../../kit/src/capabilities.js';

export { PROFILES } from '../../kit/src/capabilities.js';

/** What PhysX declares: the kit's list for engines with D6's joint structure. */
export const FEATURES = SIX_DOF_FEATURES;
export const CHECKS = SIX_DOF_CHECKS;

/** Whether `feature` is declared. */
export function supportsFeature(feature) {
  return supports(FEATURES, feature);
}
