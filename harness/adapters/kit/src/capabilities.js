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
