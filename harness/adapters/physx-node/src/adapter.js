// The protocol's operations for PhysX: the kit's adapter (argument checks, load state, failure
// mapping) with PhysX's name, capabilities and world.

import { readFileSync } from 'node:fs';

import { Adapter as KitAdapter } from '../../kit/src/adapter.js';
import { CHECKS, FEATURES } from './capabilities.js';
import { World } from './world.js';

export { DEFAULT_CONFIG, PROTOCOL_VERSION, wireNumber } from '../../kit/src/adapter.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export class Adapter extends KitAdapter {
  constructor(runtime) {
    super(runtime, {
      name: 'physx-node',
      version: PACKAGE.version,
      features: FEATURES,
      checks: CHECKS,
      World,
      noConstraints: 'VRM constraints: PhysX has none',
    });
  }
}
