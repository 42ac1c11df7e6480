// The seed-era sample assets from the shared spec folder (not in the repository): each loads,
// or is refused with a reason; none makes the adapter fail. Skipped when the folder is absent.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { test } from 'node:test';

import { Adapter } from '../src/adapter.js';
import { Document } from '../../kit/src/gltf.js';
import { createRuntime } from '../src/runtime.js';
import { readScene } from '../../kit/src/scene.js';
import { writeScene } from '../../kit/testkit/client.js';

const ROOT = '/work/shared/specs/samples';

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(gltf|glb)$/.test(name) ? [path] : [];
  });
}

test('seed-era samples load or are refused with a reason', { skip: !existsSync(ROOT) && `${ROOT} is absent` }, async (t) => {
  const adapter = new Adapter(await createRuntime());
  const outcomes = {};
  for (const path of files(ROOT)) {
    const profile = path.includes('omigroup') ? 'omi-2023' : 'khr-2024-draft';
    let outcome;
    try {
      const out = adapter.load({ path, profile });
      if (out.outcome === 'loaded') {
        adapter.interpretation();
        adapter.step({ steps: 30 });
        const state = adapter.observe();
        for (const n of state.nodes) assert.ok(n.translation.every(Number.isFinite), `${path}: node ${n.node} left the finite world`);
      }
      outcome = out.outcome;
    } catch (error) {
      assert.equal(error.kind, 'not_supported', `${path}: ${error.stack}`);
      outcome = `not_supported`;
      t.diagnostic(`${path.slice(ROOT.length + 1)}: ${error.message}`);
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  t.diagnostic(JSON.stringify(outcomes));
  assert.ok(outcomes.loaded > 0);
  adapter.unload();
});

// The public samples of the 2025 revision (glTF_Physics 2025-10), beside the workspace: valid
// files, so none may be rejected; each loads and steps, or is refused as not supported.
const CURRENT = new URL('../../../../../shared/specs/current-samples/glTF_Physics_2025-10', import.meta.url).pathname;

test('khr-2025 public samples load or are not supported, never rejected', { skip: !existsSync(CURRENT) && `${CURRENT} is absent` }, async (t) => {
  const adapter = new Adapter(await createRuntime());
  const outcomes = {};
  for (const path of files(CURRENT)) {
    let outcome;
    try {
      const out = adapter.load({ path, profile: 'khr-2025' });
      assert.equal(out.outcome, 'loaded', `${path}: ${out.reason}`);
      adapter.interpretation();
      adapter.step({ steps: 30 });
      for (const n of adapter.observe().nodes) assert.ok(n.translation.every(Number.isFinite), `${path}: node ${n.node} left the finite world`);
      outcome = 'loaded';
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      assert.equal(error.kind, 'not_supported', `${path}: ${error.stack}`);
      outcome = 'not_supported';
      t.diagnostic(`${path.slice(CURRENT.length + 1)}: ${error.message}`);
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  t.diagnostic(JSON.stringify(outcomes));
  assert.ok(outcomes.loaded > 0);
  adapter.unload();
});

// The same samples in the khr-2026 form: each `.gltf`'s `geometry: {node: N, convexHull}` becomes
// `{mesh: nodes[N].mesh, convexHull}`. The samples' geometry nodes (physicsMeshDataNode) have an
// identity transform, one mesh, no children, no skin and no weights (checked), so the rewritten
// file means the same. It is written to a temporary folder, its buffers pointed at the originals,
// and read under khr-2026 as the original under khr-2025: the same colliders with the same
// triangles, and the same load outcome and interpretation (or the same refusal).
const IDENTITY = { translation: [0, 0, 0], rotation: [0, 0, 0, 1], scale: [1, 1, 1] };

/** `json` with its node geometries turned into mesh geometries; returns the number rewritten. */
function toMeshGeometry(json, path) {
  let rewritten = 0;
  for (const [i, node] of (json.nodes ?? []).entries()) {
    const e = node.extensions?.KHR_physics_rigid_bodies;
    for (const o of [e?.collider, e?.trigger]) {
      const g = o?.geometry;
      if (g?.node === undefined) continue;
      const source = json.nodes[g.node];
      const at = `${path}: nodes[${i}] geometry node ${g.node}`;
      assert.ok(Number.isInteger(source.mesh), `${at} has no mesh`);
      assert.ok(!source.children?.length && source.skin === undefined && source.weights === undefined
        && source.matrix === undefined, `${at} has children, a skin, weights or a matrix`);
      for (const [k, v] of Object.entries(IDENTITY)) {
        assert.ok(source[k] === undefined || source[k].every((x, c) => x === v[c]), `${at}: ${k} is not the identity`);
      }
      o.geometry = { mesh: source.mesh, ...(g.convexHull === undefined ? {} : { convexHull: g.convexHull }) };
      rewritten++;
    }
  }
  for (const b of json.buffers ?? []) {
    if (typeof b.uri === 'string' && !b.uri.startsWith('data:')) b.uri = encodeURI(resolve(dirname(path), decodeURIComponent(b.uri)));
  }
  return rewritten;
}

/**
 * The colliders of the model read from `path` in `profile`, each with its shape's content, -0 read
 * as 0 (node geometry places its vertices by a matrix, the identity here, which turns a stored
 * -0 into 0; mesh geometry keeps it).
 */
function model(path, profile) {
  const scene = readScene(Document.read(path), profile);
  return JSON.parse(JSON.stringify(scene.colliders.map((c) => {
    const { source, ...shape } = scene.shapes[c.shape];
    return { ...c, shape };
  })));
}

test('khr-2025 public samples rewritten to mesh geometry read the same under khr-2026', { skip: !existsSync(CURRENT) && `${CURRENT} is absent` }, async (t) => {
  const adapter = new Adapter(await createRuntime());
  const read = (path, profile) => {
    try {
      const out = adapter.load({ path, profile });
      return out.outcome === 'loaded' ? { ...out, interpretation: adapter.interpretation() } : out;
    } catch (error) {
      if (error.kind === undefined) throw error;
      return { error: error.kind, message: error.message };
    }
  };
  let files2026 = 0;
  let geometries = 0;
  for (const path of files(CURRENT).filter((p) => p.endsWith('.gltf'))) {
    const json = JSON.parse(readFileSync(path, 'utf8'));
    const rewritten = toMeshGeometry(json, path);
    const copy = writeScene(json);
    assert.ok(!JSON.stringify(json).includes('"geometry":{"node"'), `${path}: a node geometry is left`);
    const before = model(path, 'khr-2025');
    const after = model(copy, 'khr-2026');
    assert.equal(after.length, before.length, `${path}: collider count`);
    assert.deepEqual(after, before, `${path}: colliders and their shapes`);
    const original = read(path, 'khr-2025');
    assert.deepEqual(read(copy, 'khr-2026'), original, `${path}: load outcome and interpretation`);
    t.diagnostic(`${path.slice(CURRENT.length + 1)}: ${rewritten} geometries rewritten, ${before.length} colliders, ${original.outcome ?? original.error}`);
    if (rewritten > 0) files2026++;
    geometries += rewritten;
  }
  t.diagnostic(`${geometries} node geometries in ${files2026} files read the same as mesh geometries`);
  assert.ok(geometries > 0);
  adapter.unload();
});
