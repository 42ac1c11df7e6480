// Core glTF reading: the JSON (a .gltf or a .glb), its buffers (data URIs, sibling files, the
// GLB binary chunk), accessors, mesh triangles, and the node hierarchy with world matrices.
// Everything physics-specific is in `scene.js`; this module knows only glTF 2.0.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

import { Rejected } from './errors.js';
import { mat4Mul, qnormalize, trsToMat4 } from './math.js';

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;
const CHUNK_BIN = 0x004e4942;

const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const COMPONENT_TYPES = {
  5120: { size: 1, get: 'getInt8', norm: 127 },
  5121: { size: 1, get: 'getUint8', norm: 255 },
  5122: { size: 2, get: 'getInt16', norm: 32767 },
  5123: { size: 2, get: 'getUint16', norm: 65535 },
  5125: { size: 4, get: 'getUint32', norm: 0 },
  5126: { size: 4, get: 'getFloat32', norm: 0 },
};

/** A loaded glTF document: its JSON and a way to read its binary data. */
export class Document {
  constructor(json, dir, glbBin) {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) {
      throw new Rejected('the glTF JSON is not an object');
    }
    this.json = json;
    this.dir = dir;
    this.glbBin = glbBin;
    this.buffers = new Map();
    this.nodes = Array.isArray(json.nodes) ? json.nodes : [];
    this.#buildHierarchy();
  }

  /** Read a `.gltf` or `.glb` file. */
  static read(path) {
    let bytes;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new Rejected(`cannot read ${path}: ${error.message}`);
    }
    const dir = dirname(resolve(path));
    if (bytes.length >= 12 && bytes.readUInt32LE(0) === GLB_MAGIC) {
      const { json, bin } = parseGlb(bytes);
      return new Document(json, dir, bin);
    }
    let json;
    try {
      json = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      throw new Rejected(`the file is not JSON: ${error.message}`);
    }
    return new Document(json, dir, null);
  }

  /** The extension object `name` at the document root, or undefined. */
  rootExtension(name) {
    return this.json.extensions?.[name];
  }

  /** The extension object `name` on node `index`, or undefined. */
  nodeExtension(index, name) {
    return this.nodes[index]?.extensions?.[name];
  }

  #buildHierarchy() {
    const n = this.nodes.length;
    this.parent = new Array(n).fill(null);
    this.local = new Array(n);
    for (let i = 0; i < n; i++) {
      const node = this.nodes[i];
      if (node === null || typeof node !== 'object') throw new Rejected(`node ${i} is not an object`);
      this.local[i] = localMatrix(node, i);
      for (const child of node.children ?? []) {
        if (!Number.isInteger(child) || child < 0 || child >= n) {
          throw new Rejected(`node ${i} has a child ${child} out of range`);
        }
        if (this.parent[child] !== null) throw new Rejected(`node ${child} has two parents`);
        this.parent[child] = i;
      }
    }
    this.world = new Array(n);
    for (let i = 0; i < n; i++) this.#worldOf(i, 0);
    this.inScene = this.#defaultScene();
  }

  /** Per node, whether it is in the default scene: `scene`, else scene 0, else every parentless node. */
  #defaultScene() {
    const scenes = Array.isArray(this.json.scenes) ? this.json.scenes : [];
    const chosen = scenes[Number.isInteger(this.json.scene) ? this.json.scene : 0];
    const roots = Array.isArray(chosen?.nodes)
      ? chosen.nodes.filter((r) => Number.isInteger(r) && r >= 0 && r < this.nodes.length)
      : this.nodes.map((_, i) => i).filter((i) => this.parent[i] === null);
    const inScene = new Array(this.nodes.length).fill(false);
    const stack = [...roots];
    while (stack.length) {
      const i = stack.pop();
      if (inScene[i]) continue;
      inScene[i] = true;
      stack.push(...(this.nodes[i].children ?? []));
    }
    return inScene;
  }

  #worldOf(i, depth) {
    if (this.world[i]) return this.world[i];
    if (depth > this.nodes.length) throw new Rejected('the node hierarchy has a cycle');
    const p = this.parent[i];
    this.world[i] = p === null ? this.local[i] : mat4Mul(this.#worldOf(p, depth + 1), this.local[i]);
    return this.world[i];
  }

  /** Ancestors of node i, nearest first (i excluded). */
  *ancestors(i) {
    let p = this.parent[i];
    let guard = 0;
    while (p !== null && guard++ <= this.nodes.length) {
      yield p;
      p = this.parent[p];
    }
  }

  /** Whether node d is strictly below node a. */
  isDescendant(d, a) {
    for (const p of this.ancestors(d)) if (p === a) return true;
    return false;
  }

  buffer(index) {
    if (this.buffers.has(index)) return this.buffers.get(index);
    const def = this.json.buffers?.[index];
    if (!def) throw new Rejected(`buffer ${index} does not exist`);
    let data;
    if (def.uri === undefined) {
      if (index !== 0 || !this.glbBin) throw new Rejected(`buffer ${index} has no uri and no GLB chunk`);
      data = this.glbBin;
    } else if (typeof def.uri === 'string' && def.uri.startsWith('data:')) {
      const comma = def.uri.indexOf(',');
      if (comma < 0 || !def.uri.slice(0, comma).endsWith(';base64')) {
        throw new Rejected(`buffer ${index}: only base64 data URIs are read`);
      }
      data = Buffer.from(def.uri.slice(comma + 1), 'base64');
    } else if (typeof def.uri === 'string') {
      const path = resolve(this.dir, decodeURIComponent(def.uri));
      try {
        data = readFileSync(path);
      } catch (error) {
        throw new Rejected(`buffer ${index}: cannot read ${def.uri}: ${error.message}`);
      }
    } else {
      throw new Rejected(`buffer ${index}: uri is not a string`);
    }
    if (Number.isInteger(def.byteLength) && data.length < def.byteLength) {
      throw new Rejected(`buffer ${index} is shorter than its byteLength`);
    }
    this.buffers.set(index, data);
    return data;
  }

  /** Elements of accessor `index` as arrays of numbers (normalized integers as floats). */
  accessor(index) {
    const acc = this.json.accessors?.[index];
    if (!acc) throw new Rejected(`accessor ${index} does not exist`);
    const width = COMPONENTS[acc.type];
    const ct = COMPONENT_TYPES[acc.componentType];
    if (!width || !ct || !Number.isInteger(acc.count) || acc.count < 0) {
      throw new Rejected(`accessor ${index} has an unknown type`);
    }
    const out = [];
    if (acc.bufferView === undefined) {
      for (let i = 0; i < acc.count; i++) out.push(new Array(width).fill(0));
    } else {
      const view = this.json.bufferViews?.[acc.bufferView];
      if (!view) throw new Rejected(`accessor ${index}: bufferView ${acc.bufferView} does not exist`);
      const data = this.buffer(view.buffer);
      const stride = view.byteStride ?? width * ct.size;
      const start = (view.byteOffset ?? 0) + (acc.byteOffset ?? 0);
      const last = start + (acc.count > 0 ? (acc.count - 1) * stride + width * ct.size : 0);
      if (last > (view.byteOffset ?? 0) + view.byteLength || last > data.length) {
        throw new Rejected(`accessor ${index} reads past its bufferView`);
      }
      const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
      for (let i = 0; i < acc.count; i++) {
        const e = [];
        for (let c = 0; c < width; c++) {
          let v = dv[ct.get](start + i * stride + c * ct.size, true);
          if (acc.normalized && ct.norm) v = Math.max(v / ct.norm, -1);
          e.push(v);
        }
        out.push(e);
      }
    }
    if (acc.sparse) {
      const s = acc.sparse;
      const idx = this.#raw(s.indices, s.count, 1, s.indices.componentType);
      const val = this.#raw(s.values, s.count, width, acc.componentType, acc.normalized);
      for (let i = 0; i < s.count; i++) {
        if (idx[i][0] >= acc.count) throw new Rejected(`accessor ${index}: sparse index out of range`);
        out[idx[i][0]] = val[i];
      }
    }
    return out;
  }

  #raw(ref, count, width, componentType, normalized = false) {
    const ct = COMPONENT_TYPES[componentType];
    const view = this.json.bufferViews?.[ref?.bufferView];
    if (!ct || !view) throw new Rejected('a sparse accessor is malformed');
    const data = this.buffer(view.buffer);
    const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const start = (view.byteOffset ?? 0) + (ref.byteOffset ?? 0);
    const out = [];
    for (let i = 0; i < count; i++) {
      const e = [];
      for (let c = 0; c < width; c++) {
        const at = start + (i * width + c) * ct.size;
        if (at + ct.size > data.length) throw new Rejected('a sparse accessor reads past its buffer');
        let v = dv[ct.get](at, true);
        if (normalized && ct.norm) v = Math.max(v / ct.norm, -1);
        e.push(v);
      }
      out.push(e);
    }
    return out;
  }

  /**
   * Positions and triangles of every primitive of mesh `index`, in the mesh's frame.
   * Triangle strips and fans are unrolled; points and lines are refused (they have no triangles).
   * With `weights` (one per morph target), each primitive's POSITION is morphed: POSITION +
   * sum_i weights[i] * targets[i].POSITION (a target without POSITION, or a weight 0, adds
   * nothing; a primitive without targets is kept as it is). Skins are never applied here.
   */
  meshTriangles(index, weights = null) {
    const mesh = this.json.meshes?.[index];
    if (!mesh || !Array.isArray(mesh.primitives)) throw new Rejected(`mesh ${index} does not exist`);
    const positions = [];
    const triangles = [];
    for (const prim of mesh.primitives) {
      const pos = prim.attributes?.POSITION;
      if (pos === undefined) throw new Rejected(`mesh ${index} has a primitive without POSITION`);
      const base = positions.length;
      const points = this.accessor(pos);
      if (weights !== null) this.#morph(index, prim, points, weights);
      positions.push(...points.map((p) => [p[0], p[1], p[2]]));
      const ids = prim.indices === undefined
        ? points.map((_, i) => i)
        : this.accessor(prim.indices).map((e) => e[0]);
      for (const i of ids) {
        if (i >= points.length) throw new Rejected(`mesh ${index} has an index out of range`);
      }
      const mode = prim.mode ?? 4;
      if (mode === 4) {
        for (let i = 0; i + 2 < ids.length; i += 3) triangles.push([ids[i], ids[i + 1], ids[i + 2]].map((v) => v + base));
      } else if (mode === 5) {
        for (let i = 0; i + 2 < ids.length; i++) {
          const t = i % 2 === 0 ? [ids[i], ids[i + 1], ids[i + 2]] : [ids[i + 1], ids[i], ids[i + 2]];
          triangles.push(t.map((v) => v + base));
        }
      } else if (mode === 6) {
        for (let i = 1; i + 1 < ids.length; i++) triangles.push([ids[0], ids[i], ids[i + 1]].map((v) => v + base));
      } else {
        throw new Rejected(`mesh ${index} has a primitive of mode ${mode}, not triangles`);
      }
    }
    return { positions, triangles };
  }

  /** Add sum_i weights[i] * targets[i].POSITION of primitive `prim` of mesh `index` to `points`. */
  #morph(index, prim, points, weights) {
    const targets = prim.targets ?? [];
    if (targets.length === 0) return;
    if (targets.length !== weights.length) {
      throw new Rejected(`mesh ${index} has ${weights.length} morph weights for ${targets.length} targets`);
    }
    for (const [t, target] of targets.entries()) {
      if (weights[t] === 0 || target?.POSITION === undefined) continue;
      const deltas = this.accessor(target.POSITION);
      if (deltas.length !== points.length || deltas.some((d) => d.length !== 3)) {
        throw new Rejected(`mesh ${index}: morph target ${t} POSITION is not one VEC3 per vertex`);
      }
      points.forEach((p, i) => {
        for (let k = 0; k < 3; k++) p[k] += weights[t] * deltas[i][k];
      });
    }
  }
}

function parseGlb(bytes) {
  const length = bytes.readUInt32LE(8);
  if (length > bytes.length) throw new Rejected('the GLB is shorter than its header says');
  let offset = 12;
  let json;
  let bin = null;
  while (offset + 8 <= length) {
    const chunkLength = bytes.readUInt32LE(offset);
    const type = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    if (start + chunkLength > length) throw new Rejected('a GLB chunk runs past the file');
    const chunk = bytes.subarray(start, start + chunkLength);
    if (type === CHUNK_JSON && json === undefined) {
      try {
        json = JSON.parse(chunk.toString('utf8'));
      } catch (error) {
        throw new Rejected(`the GLB JSON chunk is not JSON: ${error.message}`);
      }
    } else if (type === CHUNK_BIN && bin === null) {
      bin = chunk;
    }
    offset = start + chunkLength + ((4 - (chunkLength % 4)) % 4);
  }
  if (json === undefined) throw new Rejected('the GLB has no JSON chunk');
  return { json, bin };
}

function numbers(value, length, what) {
  if (!Array.isArray(value) || value.length !== length || !value.every(Number.isFinite)) {
    throw new Rejected(`${what} must be ${length} finite numbers`);
  }
  return value;
}

function localMatrix(node, i) {
  if (node.matrix !== undefined) return numbers(node.matrix, 16, `node ${i} matrix`).slice();
  const t = node.translation === undefined ? [0, 0, 0] : numbers(node.translation, 3, `node ${i} translation`);
  const r = node.rotation === undefined ? [0, 0, 0, 1] : numbers(node.rotation, 4, `node ${i} rotation`);
  const s = node.scale === undefined ? [1, 1, 1] : numbers(node.scale, 3, `node ${i} scale`);
  return trsToMat4(t, qnormalize(r), s);
}
