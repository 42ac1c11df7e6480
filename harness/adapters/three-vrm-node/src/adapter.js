// The protocol's operations over three.js and three-vrm. The adapter only loads, poses and
// reads back: three.js's GLTFLoader builds the nodes, the unmodified VRMNodeConstraintLoaderPlugin
// reads VRMC_node_constraint and captures the rest state, and the library's
// VRMNodeConstraintManager.update() evaluates the constraints. No constraint math lives here.

import './node-shim.js';

import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { VRMNodeConstraintLoaderPlugin } from '@pixiv/three-vrm-node-constraint';

import { PROTOCOL_VERSION, checkProtocolVersion, vector } from '../../kit/src/adapter.js';
import { BadRequest, NotSupported } from '../../kit/src/errors.js';

export const PROFILE = 'vrmc-node-constraint-1.0';

const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const version = (name) => JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')).version;

/** Parse a glTF file's bytes with GLTFLoader and the constraint plugin. */
export async function loadGltf(path) {
  const bytes = await readFile(path);
  const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMNodeConstraintLoaderPlugin(parser));
  const resourcePath = `${pathToFileURL(dirname(path)).href}/`;
  return loader.parseAsync(data, resourcePath);
}

export class Adapter {
  constructor() {
    this.loaded = null;
  }

  handshake(params = {}) {
    checkProtocolVersion(params);
    return {
      name: 'three-vrm-node',
      version: PACKAGE.version,
      engine: `three.js ${version('three')} GLTFLoader + @pixiv/three-vrm-node-constraint ${version('@pixiv/three-vrm-node-constraint')}`,
      protocol_version: PROTOCOL_VERSION,
      // Every feature of the profile: three-vrm reads all of VRMC_node_constraint 1.0.
      capabilities: { profiles: [PROFILE], features: ['vrm1.', 'buffer.'], checks: ['constraints'], batch: false },
    };
  }

  async load(params) {
    this.unload();
    if (typeof params.path !== 'string') throw new BadRequest('load needs a string path');
    if (params.profile !== PROFILE) throw new NotSupported(`profile ${params.profile}`);
    let gltf;
    try {
      gltf = await loadGltf(params.path);
    } catch (error) {
      return { outcome: 'rejected', reason: `GLTFLoader: ${error?.message ?? error}`, codes: [] };
    }
    const manager = gltf.userData.vrmNodeConstraintManager;
    if (!manager) return { outcome: 'rejected', reason: 'VRMC_node_constraint is not in extensionsUsed', codes: [] };
    const nodes = await gltf.parser.getDependencies('node');
    const rest = nodes.map((n) => ({ position: n.position.clone(), quaternion: n.quaternion.clone(), scale: n.scale.clone() }));
    const destinations = [...new Set([...manager.constraints].map((c) => nodes.indexOf(c.destination)))].sort((a, b) => a - b);
    this.loaded = { gltf, manager, nodes, rest, destinations };
    return { outcome: 'loaded', notes: [] };
  }

  scene() {
    if (!this.loaded) throw new BadRequest('no scene is loaded');
    return this.loaded;
  }

  /** Reset every node to its rest TRS, apply the pose's overrides, run the library's
   * constraint manager, and read back the local TRS of every constrained node. */
  evaluate_constraints(params) {
    const { manager, nodes, rest, destinations } = this.scene();
    const overrides = params.poses?.nodes ?? {};
    if (typeof overrides !== 'object' || Array.isArray(overrides)) throw new BadRequest('poses.nodes must be an object');
    nodes.forEach((n, i) => {
      n.position.copy(rest[i].position);
      n.quaternion.copy(rest[i].quaternion);
      n.scale.copy(rest[i].scale);
    });
    for (const [key, o] of Object.entries(overrides)) {
      const i = Number(key);
      if (!Number.isInteger(i) || i < 0 || i >= nodes.length) throw new BadRequest(`pose of node ${key}: no such node`);
      if (o.translation != null) nodes[i].position.fromArray(vector(o.translation, 3, 'translation'));
      if (o.rotation != null) nodes[i].quaternion.fromArray(vector(o.rotation, 4, 'rotation')).normalize();
      if (o.scale != null) nodes[i].scale.fromArray(vector(o.scale, 3, 'scale'));
    }
    manager.update();
    return destinations.map((i) => ({
      node: i,
      translation: nodes[i].position.toArray(),
      rotation: nodes[i].quaternion.toArray(),
      scale: nodes[i].scale.toArray(),
    }));
  }

  interpretation() {
    throw new NotSupported('three-vrm evaluates node constraints only');
  }
  configure() {
    throw new NotSupported('three-vrm evaluates node constraints only');
  }
  step() {
    throw new NotSupported('three-vrm evaluates node constraints only');
  }
  observe() {
    throw new NotSupported('three-vrm evaluates node constraints only');
  }
  apply() {
    throw new NotSupported('three-vrm evaluates node constraints only');
  }
  batch() {
    throw new NotSupported('batch is not declared');
  }

  unload() {
    this.loaded = null;
    return null;
  }
}
