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

import { supports } from '../../kit/src/capabilities.js';

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

/** Check families: no `validation` (no issue catalogue) and no `constraints` (no VRM). */
export const CHECKS = ['interpretation', 'dynamics'];

/** Whether `feature` is declared. */
export function supportsFeature(feature) {
  return supports(FEATURES, feature);
}
