// The adapter end to end over three-vrm: load a small file, pose, evaluate, compare with values
// worked by hand; and the protocol loop and the Node shim.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';

import { Adapter, PROFILE } from '../src/adapter.js';
import { fileFetch } from '../src/node-shim.js';
import { serve } from '../../kit/src/protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'three-vrm-node-'));
const deg = (a) => (a * Math.PI) / 180;
/** [x, y, z, w] of a rotation by `a` degrees about a unit axis. */
const rot = (axis, a) => [...axis.map((v) => v * Math.sin(deg(a) / 2)), Math.cos(deg(a) / 2)];

function write(name, nodes, roots) {
  const path = join(dir, name);
  const doc = { asset: { version: '2.0' }, extensionsUsed: ['VRMC_node_constraint'], scene: 0, scenes: [{ nodes: roots }], nodes };
  writeFileSync(path, JSON.stringify(doc));
  return path;
}
const ext = (constraint) => ({ VRMC_node_constraint: { specVersion: '1.0', constraint } });

function close(got, want, eps = 1e-12) {
  const sign = Math.sign(got[3] || 1) * Math.sign(want[3] || 1);
  got.forEach((g, i) => assert.ok(Math.abs(g * sign - want[i]) < eps, `got ${got}, want ${want}`));
}

test('rotation at weight 0.5 and a chain run in dependency order', async () => {
  // Node 1 copies node 2 (weight 1), node 2 copies node 0 (weight 0.5); node 0 posed rz(60):
  // node 2 = rz(30), node 1 = rz(30) (file order would leave node 1 at rest).
  const path = write('chain.gltf', [
    { name: 'a' },
    { name: 'c', extensions: ext({ rotation: { source: 2 } }) },
    { name: 'b', extensions: ext({ rotation: { source: 0, weight: 0.5 } }) },
  ], [0, 1, 2]);
  const a = new Adapter();
  assert.deepEqual(await a.load({ path, profile: PROFILE }), { outcome: 'loaded', notes: [] });
  const out = a.evaluate_constraints({ poses: { nodes: { 0: { rotation: rot([0, 0, 1], 60) } } } });
  assert.deepEqual(out.map((n) => n.node), [1, 2]);
  close(out[0].rotation, rot([0, 0, 1], 30));
  close(out[1].rotation, rot([0, 0, 1], 30));
  // Poses do not accumulate: the next evaluation starts from rest.
  const again = a.evaluate_constraints({ poses: { nodes: {} } });
  close(again[0].rotation, [0, 0, 0, 1]);
});

test('roll keeps the twist and drops the swing', async () => {
  // Source posed rz(90) rx(60): roll about X is rx(60) (fromTo(x, y) = rz(90) removed).
  const path = write('roll.gltf', [
    { name: 'src' },
    { name: 'dst', extensions: ext({ roll: { source: 0, rollAxis: 'X' } }) },
  ], [0, 1]);
  const a = new Adapter();
  await a.load({ path, profile: PROFILE });
  // rz(90) rx(60) = (c45 c30, c45 s30, s45 s30, s45 c30) as (w, x, y, z).
  const r = Math.SQRT1_2;
  const c30 = Math.cos(deg(30));
  const s30 = Math.sin(deg(30));
  const out = a.evaluate_constraints({ poses: { nodes: { 0: { rotation: [r * s30, r * s30, r * c30, r * c30] } } } });
  close(out[0].rotation, rot([1, 0, 0], 60));
});

test('aim with the source behind the destination', async () => {
  // Aim +Z at a source at (1, 0, -1): 135 deg about +Y.
  const path = write('aim.gltf', [
    { name: 'src', translation: [1, 0, -1] },
    { name: 'dst', extensions: ext({ aim: { source: 0, aimAxis: 'PositiveZ' } }) },
  ], [0, 1]);
  const a = new Adapter();
  await a.load({ path, profile: PROFILE });
  close(a.evaluate_constraints({ poses: { nodes: {} } })[0].rotation, rot([0, 1, 0], 135));
});

test('other profiles and physics operations are not supported; bad poses are bad requests', async () => {
  const a = new Adapter();
  await assert.rejects(a.load({ path: '/nonexistent.gltf', profile: 'khr-2024-draft' }), { kind: 'not_supported' });
  assert.throws(() => a.step({ steps: 1 }), { kind: 'not_supported' });
  assert.throws(() => a.evaluate_constraints({ poses: { nodes: {} } }), { kind: 'bad_request' });
  const path = write('one.gltf', [{ name: 'a' }, { name: 'b', extensions: ext({ rotation: { source: 0 } }) }], [0, 1]);
  await a.load({ path, profile: PROFILE });
  assert.throws(() => a.evaluate_constraints({ poses: { nodes: { 7: { rotation: [0, 0, 0, 1] } } } }), { kind: 'bad_request' });
  assert.throws(() => a.evaluate_constraints({ poses: { nodes: { 0: { rotation: [0, 0, 1] } } } }), { kind: 'bad_request' });
});

test('an unreadable file is rejected, not a crash', async () => {
  const path = join(dir, 'broken.gltf');
  writeFileSync(path, '{"asset": ');
  const a = new Adapter();
  const outcome = await a.load({ path, profile: PROFILE });
  assert.equal(outcome.outcome, 'rejected');
});

test('the protocol loop answers in order, one line each', async () => {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines = [];
  output.on('data', (d) => lines.push(...String(d).split('\n').filter(Boolean)));
  const done = serve(new Adapter(), input, output);
  input.write('{"seq": 0, "op": "handshake", "protocol_version": 2}\n');
  input.write('not json\n');
  input.end('{"seq": 2, "op": "observe"}\n');
  await done;
  const answers = lines.map((l) => JSON.parse(l));
  assert.equal(answers[0].ok.capabilities.profiles[0], PROFILE);
  assert.equal(answers[1].error.error, 'bad_request');
  assert.equal(answers[2].error.error, 'not_supported');
});

test('the shim serves file: URLs from disk and nothing else', async () => {
  const path = join(dir, 'bytes.bin');
  writeFileSync(path, Buffer.from([1, 2, 3]));
  const res = await fileFetch(pathToFileURL(path).href);
  assert.deepEqual([...new Uint8Array(await res.arrayBuffer())], [1, 2, 3]);
  assert.equal((await fileFetch(pathToFileURL(join(dir, 'missing.bin')).href)).status, 404);
  const data = await fileFetch('data:application/octet-stream;base64,AQID');
  assert.deepEqual([...new Uint8Array(await data.arrayBuffer())], [1, 2, 3]);
});
