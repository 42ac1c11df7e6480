// The operations of the protocol (the `Implementation` trait of harness/src/implementation.rs)
// over Babylon.js + Havok with the rigid-body loader: argument checks, the load state, and the
// mapping of failures.

import { readFileSync } from 'node:fs';

import { CHECKS, FEATURES, PROFILES } from './capabilities.js';
import { BadRequest, NotSupported } from '../../kit/src/errors.js';
import { World } from './world.js';

export const PROTOCOL_VERSION = 2;
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/** The default `SimConfig` of the harness. */
export const DEFAULT_CONFIG = Object.freeze({ gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 1 });

function finite(value, what) {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new BadRequest(`${what} must be a finite number`);
  return value;
}
function vector(value, length, what) {
  if (!Array.isArray(value) || value.length !== length) throw new BadRequest(`${what} must be an array of ${length} numbers`);
  return value.map((v, i) => finite(v, `${what}[${i}]`));
}
function count(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new BadRequest(`${what} must be an integer in 0..2^32`);
  return value;
}

export class Adapter {
  /** `runtime`: see runtime.js; `loader`: {dir, version} of the loader in use. */
  constructor(runtime, loader) {
    this.rt = runtime;
    this.loader = loader;
    this.world = null;
    this.config = { ...DEFAULT_CONFIG };
  }

  handshake(params = {}) {
    if (params.protocol_version !== undefined && params.protocol_version !== PROTOCOL_VERSION) {
      throw new BadRequest(`this implementation speaks protocol ${PROTOCOL_VERSION}, not ${JSON.stringify(params.protocol_version)}`);
    }
    const v = this.rt.versions;
    return {
      name: 'babylon-havok',
      version: PACKAGE.version,
      engine: `Babylon.js ${v.core} (loaders ${v.loaders}) + Havok (@babylonjs/havok ${v.havok}) + babylon-gltf-rigid-body-loader ${this.loader.version}`,
      protocol_version: PROTOCOL_VERSION,
      capabilities: { profiles: PROFILES, features: FEATURES, checks: CHECKS, batch: true },
    };
  }

  async load(params) {
    this.unload();
    if (typeof params.path !== 'string') throw new BadRequest('load needs a string path');
    if (typeof params.profile !== 'string') throw new BadRequest('load needs a string profile');
    if (!PROFILES.includes(params.profile)) throw new NotSupported(`profile ${params.profile}`);
    try {
      this.world = await World.load(this.rt, params.path, this.config);
    } catch (error) {
      if (error?.kind) throw error;
      // Babylon's message quotes the whole `data:` source: keep its end.
      let reason = String(error?.message ?? error);
      if (reason.startsWith('Unable to load from data:')) reason = `Unable to load: ${reason.slice(reason.lastIndexOf('\n: ') + 3)}`;
      return { outcome: 'rejected', reason: `Babylon's glTF loader: ${reason.slice(-500)}`, codes: [] };
    }
    return { outcome: 'loaded', notes: [] };
  }

  loaded() {
    if (!this.world) throw new BadRequest('no scene is loaded');
    return this.world;
  }

  interpretation() {
    return this.loaded().interpretation();
  }

  configure(params) {
    const config = {
      gravity: vector(params.gravity, 3, 'gravity'),
      dt: finite(params.dt, 'dt'),
      substeps: count(params.substeps, 'substeps'),
    };
    if (!(config.dt > 0)) throw new BadRequest('dt must be positive');
    if (config.substeps < 1) throw new BadRequest('substeps must be at least 1');
    this.config = config;
    if (this.world) this.world.configure(config);
    return null;
  }

  step(params) {
    this.loaded().step(count(params.steps, 'steps'));
    return null;
  }

  observe() {
    return this.loaded().observe();
  }

  apply(params) {
    const action = typeof params.action === 'object' && params.action !== null ? params.action : params;
    const node = count(action.node, 'action.node');
    const world = this.loaded();
    switch (action.action) {
      case 'impulse':
        return world.apply({ action: 'impulse', node, impulse: vector(action.impulse, 3, 'impulse') }) ?? null;
      case 'force':
        return world.apply({ action: 'force', node, force: vector(action.force, 3, 'force') }) ?? null;
      case 'kinematic_pose':
        return world.apply({
          action: 'kinematic_pose',
          node,
          translation: vector(action.translation, 3, 'translation'),
          rotation: vector(action.rotation, 4, 'rotation'),
        }) ?? null;
      default:
        throw new BadRequest(`unknown action ${JSON.stringify(action.action)}`);
    }
  }

  evaluate_constraints() {
    throw new NotSupported('VRM constraints: Babylon.js with this loader has none');
  }

  unload() {
    if (this.world) this.world.release();
    this.world = null;
    return null;
  }
}
