// The operations of the protocol (the `Implementation` trait of harness/src/implementation.rs)
// over one engine runtime: argument checks, the load state, and the mapping of failures. An
// engine adapter gives its name, version, engine string, declared profiles, features and check
// families, and its `World` class (constructor(runtime, scene, config) with `notes`,
// `interpretation()`, `configure(config)`, `step(n)`, `observe()`, `apply(action)`,
// `release()`). An engine that reads glTF itself overrides `load` (Babylon.js).

import { BadRequest, NotSupported, Rejected } from './errors.js';
import { Document } from './gltf.js';
import { PROFILES, readScene } from './scene.js';

export const PROTOCOL_VERSION = 2;

/** The default `SimConfig` of the harness. */
export const DEFAULT_CONFIG = Object.freeze({ gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 1 });

/** A number, or one of the protocol's spellings of a non-finite number. */
export function wireNumber(value, what) {
  if (typeof value === 'number') return value;
  if (value === 'Infinity') return Infinity;
  if (value === '-Infinity') return -Infinity;
  if (value === 'NaN') return NaN;
  throw new BadRequest(`${what} must be a number`);
}
function finite(value, what) {
  const v = wireNumber(value, what);
  if (!Number.isFinite(v)) throw new BadRequest(`${what} must be finite`);
  return v;
}
/** An array of `length` finite wire numbers, or a BadRequest naming `what`. */
export function vector(value, length, what) {
  if (!Array.isArray(value) || value.length !== length) throw new BadRequest(`${what} must be an array of ${length} numbers`);
  return value.map((v, i) => finite(v, `${what}[${i}]`));
}
function count(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new BadRequest(`${what} must be an integer in 0..2^32`);
  return value;
}

/** A handshake's `protocol_version`, when given, must be the one spoken here. */
export function checkProtocolVersion(params) {
  if (params.protocol_version !== undefined && params.protocol_version !== PROTOCOL_VERSION) {
    throw new BadRequest(`this implementation speaks protocol ${PROTOCOL_VERSION}, not ${JSON.stringify(params.protocol_version)}`);
  }
}

export class Adapter {
  /**
   * `engine`: { name, version, features, checks, World, noConstraints, profiles? } where
   * `noConstraints` is the message of `evaluate_constraints`'s not_supported and `profiles`
   * defaults to every profile the kit reads; `runtime.engine` is the engine string.
   */
  constructor(runtime, engine) {
    this.rt = runtime;
    this.engine = { profiles: PROFILES, ...engine };
    this.world = null;
    this.config = { ...DEFAULT_CONFIG };
  }

  handshake(params = {}) {
    checkProtocolVersion(params);
    return {
      name: this.engine.name,
      version: this.engine.version,
      engine: this.rt.engine,
      protocol_version: PROTOCOL_VERSION,
      // `batch`: protocol.js answers it (a scenario's requests in one round trip).
      capabilities: { profiles: this.engine.profiles, features: this.engine.features, checks: this.engine.checks, batch: true },
    };
  }

  /** A load request's checked `{path, profile}`, the scene loaded before released. */
  loadRequest(params) {
    this.unload();
    if (typeof params.path !== 'string') throw new BadRequest('load needs a string path');
    if (typeof params.profile !== 'string') throw new BadRequest('load needs a string profile');
    if (!this.engine.profiles.includes(params.profile)) throw new NotSupported(`profile ${params.profile}`);
    return params;
  }

  load(params) {
    const { path, profile } = this.loadRequest(params);
    let scene;
    try {
      scene = readScene(Document.read(path), profile);
    } catch (error) {
      if (error instanceof Rejected) return { outcome: 'rejected', reason: error.message, codes: [] };
      throw error;
    }
    this.world = new this.engine.World(this.rt, scene, this.config);
    return { outcome: 'loaded', notes: this.world.notes };
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
    const steps = count(params.steps, 'steps');
    this.loaded().step(steps);
    return null;
  }

  observe() {
    return this.loaded().observe();
  }

  apply(params) {
    // `{"action": {"action": "impulse", ...}}`, or the action's fields inline.
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
    throw new NotSupported(this.engine.noConstraints);
  }

  unload() {
    if (this.world) this.world.release();
    this.world = null;
    return null;
  }
}
