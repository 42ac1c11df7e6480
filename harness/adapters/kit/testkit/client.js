// Test helpers: the adapter as a child process driven by protocol lines, and small glTF scenes
// written to a temporary folder.

import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const dir = mkdtempSync(join(tmpdir(), 'cts-adapter-test-'));
let files = 0;

/** Write a glTF JSON object to a temporary .gltf file; returns its path. */
export function writeScene(json) {
  const path = join(dir, `scene-${files++}.gltf`);
  writeFileSync(path, JSON.stringify(json));
  return path;
}

/** Start the adapter whose entry script is `main` (a path or file URL). `call(op, params)`
 * resolves to the parsed answer line. */
export function startAdapter(main) {
  const child = spawn(process.execPath, [main instanceof URL ? fileURLToPath(main) : main], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting = [];
  const stray = [];
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const next = waiting.shift();
    if (next) next(JSON.parse(line)); else stray.push(line);
  });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  let seq = 0;
  const raw = (line) => new Promise((resolve) => {
    waiting.push(resolve);
    child.stdin.write(`${line}\n`);
  });
  return {
    raw,
    call: (op, params = {}) => raw(JSON.stringify({ seq: ++seq, op, ...params })),
    /** Like call, but fails the test on an error answer; returns `ok`. */
    async ok(op, params = {}) {
      const answer = await this.call(op, params);
      if (!('ok' in answer)) throw new Error(`${op} failed: ${JSON.stringify(answer)}\n${stderr}`);
      return answer.ok;
    },
    stray,
    stderr: () => stderr,
    async close() {
      child.stdin.end();
      return exited;
    },
  };
}

/** A KHR document with shapes, nodes (scene roots = nodes without a parent) and root extras. */
export function khrDoc({ shapes = [], nodes = [], materials, filters, joints }) {
  const children = new Set(nodes.flatMap((n) => n.children ?? []));
  const root = {};
  if (materials) root.physicsMaterials = materials;
  if (filters) root.collisionFilters = filters;
  if (joints) root.physicsJoints = joints;
  return {
    asset: { version: '2.0' },
    extensionsUsed: ['KHR_physics_rigid_bodies', 'KHR_collision_shapes'],
    extensions: { KHR_collision_shapes: { shapes }, KHR_physics_rigid_bodies: root },
    nodes,
    scene: 0,
    scenes: [{ nodes: nodes.map((_, i) => i).filter((i) => !children.has(i)) }],
  };
}

/** A node with KHR_physics_rigid_bodies properties. */
export function khrNode(props, extra = {}) {
  return { ...extra, extensions: { KHR_physics_rigid_bodies: props } };
}

/** The state entry of `node` in an observation. */
export function nodeState(state, node) {
  const s = state.nodes.find((n) => n.node === node);
  if (!s) throw new Error(`node ${node} not in the state`);
  return s;
}
