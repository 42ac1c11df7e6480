// What the adapter declares in its handshake, in the generator's feature vocabulary (see
// README.md for each choice and the loader lines behind it). A tag matches an entry equal to
// it, or an entry ending in "." or "*" that is a prefix of it.
//
// Not declared, because the loader does not build them (a case needing one is NOT_SUPPORTED
// without a request):
// - trigger.*, shape.is-trigger.*: no triggers (KHR_rigid_bodies.ts:349, "Also handle
//   triggers, once exposed"; `extData.trigger` is never read);
// - geometry.node.* (the 2025 form `geometry: {node}`): the loader reads `geometry.shape` and
//   `geometry.mesh` only (KHR_rigid_bodies.ts:364-368): such a collider gets no shape at all;
// - shape.plane.*: KHR_implicit_shapes has no plane in this loader (_constructPhysicsShape,
//   KHR_rigid_bodies.ts:196-258 builds sphere, box, cylinder, capsule only);
// - shape.capsule.tapered / shape.cylinder.tapered: built as convex hulls of a generated mesh
//   (KHR_rigid_bodies.ts:215-237, 249-257), not as the tapered shape;
// - vrm.*, omi.*: other extensions.
// Mesh shapes (shape.convex, shape.trimesh, shape.mesh.*) and geometry.mesh.* are declared: the
// loader builds them from `geometry.mesh` (the khr-2026 form, KHR_rigid_bodies.ts:367-368,
// 263-283); in khr-2025 files they come with `geometry.node.*`, which is not declared, so those
// cases stay NOT_SUPPORTED.

export const PROFILES = ['khr-2025', 'khr-2026'];

export const FEATURES = [
  'body.',
  'buffer.',
  'collider.',
  'filter.',
  'geometry.mesh.',
  'joint.',
  'material.',
  'node.',
  'scene.',
  'shape.box.',
  'shape.sphere.',
  'shape.capsule.defaults',
  'shape.capsule.explicit',
  'shape.cylinder.defaults',
  'shape.cylinder.explicit',
  'shape.convex',
  'shape.trimesh',
  'shape.mesh.',
];

/** No `validation` (the loader rejects nothing the catalogue names), no `constraints` (VRM). */
export const CHECKS = ['interpretation', 'dynamics'];

/** Whether `feature` is declared (same rule as the harness's `supports_feature`). */
export function supportsFeature(feature) {
  return FEATURES.some((f) => f === feature
    || (f.endsWith('*') && feature.startsWith(f.slice(0, -1)))
    || (f.endsWith('.') && feature.startsWith(f)));
}
