// PhysX's own material combine rule, for reading back what PhysX will do (the spec's rules are
// the kit's rules.js).

/**
 * PhysX's own rule, for reading back what it will do: the pair uses the mode with the larger
 * enum value (eAVERAGE 0 < eMIN 1 < eMULTIPLY 2 < eMAX 3), so its precedence is
 * maximum > multiply > minimum > average, which differs from the spec's.
 */
export const PHYSX_ORDER = ['average', 'minimum', 'multiply', 'maximum'];
export function physxPairMode(a, b) {
  return PHYSX_ORDER[Math.max(PHYSX_ORDER.indexOf(a), PHYSX_ORDER.indexOf(b))];
}

