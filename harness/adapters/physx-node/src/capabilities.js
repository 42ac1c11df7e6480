// What the adapter declares in its handshake, in the generator's feature vocabulary. A tag
// matches an entry equal to it, or an entry ending in "." or "*" that is a prefix of it.
//
// The kit's SIX_DOF_FEATURES: left out, because PhysX cannot express them exactly (a scene using
// them would be refused at load with `not_supported`, so the harness may skip it without a round
// trip):
// - joint.limit.angular.3: a bound on the total rotation angle (only 0 and >= pi map to D6);
// - joint.kind.generic / omi.joint.generic: random limit mixes, often outside what D6 holds;
// - omi.constraint.angular.2 / .3: per-axis twist bounds about several axes (D6 twists about
//   one axis and bounds swings with a cone or pyramid, a different metric);
// - vrm.*: PhysX has no VRM constraints;
// - shape.plane.double-sided (khr-2025): a PhysX plane is a half-space and PhysX has no
//   zero-thickness surface; a box would put the two faces off the plane;
// - skinned or morphed node geometry (`geometry.node.skinned`, `.morphed`): the adapter reads
//   rest positions only (khr-2026 mesh geometry, morphed by the mesh's weights and never
//   skinned, is declared). Shape and geometry tags are therefore listed one by one, not by a prefix
//   that would also claim such tags.
// Declared approximations (see README.md): a bounded single-sided plane is a thin box whose top
// face is the plane; tapered capsules and cylinders are 48-segment convex hulls.
// Some scenes under a declared tag are still refused at load when the exact values cannot be
// expressed (a coupled linear minimum distance, a non-uniformly scaled sphere, a triangle mesh
// on a dynamic body...): see README.md.

import { SIX_DOF_CHECKS, SIX_DOF_FEATURES, supports } from '../../kit/src/capabilities.js';

/** The profiles declared: every profile the importer reads (the kit's scene.js), khr-2026 included. */
export { PROFILES } from '../../kit/src/capabilities.js';

export const FEATURES = SIX_DOF_FEATURES;
export const CHECKS = SIX_DOF_CHECKS;

/** Whether `feature` is declared (same rule as the harness's `supports_feature`). */
export function supportsFeature(feature) {
  return supports(FEATURES, feature);
}
