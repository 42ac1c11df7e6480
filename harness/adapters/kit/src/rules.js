// The spec's pair rules as small pure functions: material combining [D-COMBINE] and collision
// filtering [D-FILTER], [D-FILTER-EMPTY]. Each engine's `world.js` makes its
// engine follow them exactly.

/** Spec precedence: the first mode either side names wins (average > minimum > maximum > multiply). */
export const PRECEDENCE = ['average', 'minimum', 'maximum', 'multiply'];

/** The mode a pair uses, or null when neither side names one [D-COMBINE-DEFAULT]. */
export function pairMode(a, b) {
  return PRECEDENCE.find((m) => a === m || b === m) ?? null;
}

/** Combine two values under one mode. */
export function apply(mode, x, y) {
  switch (mode) {
    case 'average': return (x + y) / 2;
    case 'minimum': return Math.min(x, y);
    case 'maximum': return Math.max(x, y);
    case 'multiply': return x * y;
    default: throw new Error(`unknown combine mode ${mode}`);
  }
}

/**
 * Whether filter x admits y's systems (null: no filter). The seed: A collides with B if
 * A.systems ⊆ B.collideWith and A.systems ⊄ B.notCollideWith; an empty system list is a subset
 * of every collideWith list and counts as "not a subset" of a notCollideWith list.
 */
export function allows(x, y) {
  const systems = y?.systems ?? [];
  if (!x) return true;
  const subset = (list) => systems.every((s) => list.includes(s));
  const admitted = x.collideWith === null || subset(x.collideWith);
  const excluded = x.notCollideWith !== null && systems.length > 0 && subset(x.notCollideWith);
  return admitted && !excluded;
}

/** Both directions must allow a pair. */
export function filtersCollide(a, b) {
  return allows(a, b) && allows(b, a);
}
