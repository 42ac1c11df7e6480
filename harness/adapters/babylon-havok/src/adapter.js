// The operations of the protocol over Babylon.js + Havok with the rigid-body loader: the kit's
// (harness/adapters/kit/src/adapter.js), but for the handshake's engine string and `load`, where
// the loader reads the file and its failures become rejections.

import { readFileSync } from 'node:fs';

import { CHECKS, FEATURES, PROFILES } from './capabilities.js';
import { Adapter as KitAdapter } from '../../kit/src/adapter.js';
import { World } from './world.js';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The kit's protocol operations over Babylon.js + Havok, which read the glTF file themselves. */
export class Adapter extends KitAdapter {
  /** `runtime`: see runtime.js; `loader`: {dir, version} of the loader in use. */
  constructor(runtime, loader) {
    super(runtime, {
      name: 'babylon-havok',
      version: PACKAGE.version,
      profiles: PROFILES,
      features: FEATURES,
      checks: CHECKS,
      World,
      noConstraints: 'VRM constraints: Babylon.js with this loader has none',
    });
    this.loader = loader;
  }

  handshake(params = {}) {
    const v = this.rt.versions;
    return {
      ...super.handshake(params),
      engine: `Babylon.js ${v.core} (loaders ${v.loaders}) + Havok (@babylonjs/havok ${v.havok}) + babylon-gltf-rigid-body-loader ${this.loader.version}`,
    };
  }

  async load(params) {
    const { path } = this.loadRequest(params);
    try {
      this.world = await World.load(this.rt, path, this.config);
    } catch (error) {
      if (error?.kind) throw error;
      // Babylon's message quotes the whole `data:` source: keep its end.
      let reason = String(error?.message ?? error);
      if (reason.startsWith('Unable to load from data:')) reason = `Unable to load: ${reason.slice(reason.lastIndexOf('\n: ') + 3)}`;
      return { outcome: 'rejected', reason: `Babylon's glTF loader: ${reason.slice(-500)}`, codes: [] };
    }
    return { outcome: 'loaded', notes: [] };
  }
}
