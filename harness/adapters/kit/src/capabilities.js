// Capability helpers shared by the engine adapters. Each adapter lists its own feature tags (in
// the generator's vocabulary) and check families; the profiles are those the importer reads.

export { PROFILES } from './scene.js';

/**
 * Whether `feature` is declared by `features` (the harness's `supports_feature` rule): a tag
 * matches an entry equal to it, or an entry ending in "." or "*" that is a prefix of it.
 */
export function supports(features, feature) {
  return features.some((f) => f === feature
    || (f.endsWith('*') && feature.startsWith(f.slice(0, -1)))
    || (f.endsWith('.') && feature.startsWith(f)));
}

/**
 * What an engine whose joints have PhysX D6's structure (one twist axis, a swing cone or
 * pyramid, per-axis translation) declares when it reads through this kit: PhysX and Jolt.
 * Left out, as neither can express them exactly: a bound on the total rotation angle
 * (`joint.limit.angular.3`), random limit mixes (`joint.kind.generic`, `omi.joint.generic`),
 * per-axis twist bounds about several axes (`omi.constraint.angular.2`, `.3`), VRM, a
 * double-sided plane (both engines' planes are half-spaces), and skinned or morphed node
 * geometry (rest positions only; khr-2026 mesh geometry, morphed by the mesh's weights and
 * never skinned, is declared). Shape and geometry tags are therefore listed one by one, not by
 * a prefix that would also claim such tags.
 */
export const SIX_DOF_FEATURES = [
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

/** Check families: no `validation` (the adapters do not speak the issue catalogue) and no
 * `constraints` (no VRM). */
export const SIX_DOF_CHECKS = ['interpretation', 'dynamics'];
