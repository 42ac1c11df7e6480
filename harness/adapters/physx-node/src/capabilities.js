// What the adapter declares in its handshake, in the generator's feature vocabulary. A tag
// matches an entry equal to it, or an entry ending in "." or "*" that is a prefix of it.
//
// Left out, because PhysX cannot express them exactly (a scene using them would be refused at
// load with `not_supported`, so the harness may skip it without a round trip):
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

import { supports } from '../../kit/src/capabilities.js';

/** The profiles declared: every profile the importer reads (the kit's scene.js), khr-2026 included. */
export { PROFILES } from '../../kit/src/capabilities.js';

export const FEATURES = [
  'body.',
  'buffer.',
  'collider.',
  'filter.',
  'geometry.node.self',
  'geometry.node.detached',
  'geometry.node.children',
  // khr-2026 mesh geometry: the mesh's own weights applied, never a skin (as the suite decides).
  'geometry.mesh.drawn',
  'geometry.mesh.only',
  'geometry.mesh.shared',
  'geometry.mesh.morphed',
  'geometry.mesh.skinned',
  'joint.between-bodies',
  'joint.to-world',
  'joint.enable-collision',
  'joint.shared-description',
  'joint.drive.',
  'joint.kind.fixed',
  'joint.kind.ball',
  'joint.kind.ball-open',
  'joint.kind.hinge',
  'joint.kind.slider',
  'joint.kind.cone',
  'joint.limit.linear.',
  'joint.limit.angular.1',
  'joint.limit.angular.2',
  'joint.limit.damping',
  'joint.limit.fixed',
  'joint.limit.open-max',
  'joint.limit.open-min',
  'joint.limit.range',
  'joint.limit.soft',
  'joint.limit.unbounded',
  'joint.no-limits',
  'joint.kind.free',
  'material.',
  'node.',
  'scene.',
  'shape.box.',
  'shape.sphere.',
  'shape.capsule.',
  'shape.cylinder.',
  'shape.convex',
  'shape.trimesh',
  'shape.mesh.cube',
  'shape.mesh.octahedron',
  'shape.mesh.tetrahedron',
  'shape.dating-cylinder',
  'shape.is-trigger.',
  'shape.plane.unbounded',
  'shape.plane.bounded',
  'shape.plane.single-sided',
  'trigger.',
  'omi.dialect.',
  'omi.constraint.linear.',
  'omi.constraint.angular.1',
  'omi.constraint.damping',
  'omi.constraint.limits-default',
  'omi.constraint.range',
  'omi.constraint.soft',
  'omi.joint.fixed',
  'omi.joint.pin',
  'omi.joint.pin-soft',
  'omi.joint.hinge',
  'omi.joint.slider',
  'omi.joint.rope',
  'omi.joint.shared-constraints',
  'omi.joint.node-a.',
  'omi.joint.node-b.',
];

/** Check families: no `validation` (the adapter does not speak the issue catalogue) and no
 * `constraints` (no VRM). */
export const CHECKS = ['interpretation', 'dynamics'];

/** Whether `feature` is declared (same rule as the harness's `supports_feature`). */
export function supportsFeature(feature) {
  return supports(FEATURES, feature);
}
