// The kit's reading, without an engine: the khr-2025 and khr-2026 geometry helpers and the
// scene reader's refusals, on the hand-written fixtures (test/fixtures) and hand-worked values.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { Rejected } from '../src/errors.js';
import { Document } from '../src/gltf.js';
import { closestRotation, colliderWorld, meshGeometry, nodeMesh, zeroScale } from '../src/khr-geometry.js';
import { trsToMat4 } from '../src/math.js';
import { readScene } from '../src/scene.js';
import { writeScene } from '../testkit/client.js';

const FIXTURE = new URL('./fixtures/khr25-scene.gltf', import.meta.url).pathname;
const FIXTURE26 = new URL('./fixtures/khr26-scene.gltf', import.meta.url).pathname;
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} expected ${b} (+-${tol})`);

describe('khr-2025 geometry helpers', () => {
  test('nodeMesh merges the meshes below a node, by their transforms relative to it', () => {
    const doc = Document.read(FIXTURE);
    const { positions, triangles } = nodeMesh(doc, 7);
    assert.equal(triangles.length, 8);
    // Depth first, children in order: Part0 (x - 2) then Part1 (x + 2).
    assert.deepEqual(positions, [[-2, 0, 0], [-1, 0, 0], [-2, 1, 0], [-2, 0, 1], [2, 0, 0], [3, 0, 0], [2, 1, 0], [2, 0, 1]]);
    assert.deepEqual(triangles[4], [4, 6, 5]);
  });

  test('zero scale on all axes, and only then', () => {
    assert.equal(zeroScale(trsToMat4([1, 2, 3], [0, 0, 0, 1], [0, 0, 0])), true);
    assert.equal(zeroScale(trsToMat4([0, 0, 0], [0, 0, 0, 1], [0, 1, 0])), false);
  });

  test('a mirroring matrix is simulated by the absolute value of its scale', () => {
    // T(10, 5, 0) diag(-1, 2, 1): the closest rotation from the identity is the identity (the
    // first Müller step has axis e1 x -e1 + e2 x e2 + e3 x e3 = 0), so T diag(1, 2, 1).
    const m = trsToMat4([10, 5, 0], [0, 0, 0, 1], [-1, 2, 1]);
    assert.deepEqual(closestRotation([[-1, 0, 0], [0, 2, 0], [0, 0, 1]]), [[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    assert.deepEqual(colliderWorld(m, { type: 'box' }), trsToMat4([10, 5, 0], [0, 0, 0, 1], [1, 2, 1]));
    // A proper matrix is kept as it is.
    const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
    const proper = trsToMat4([1, 0, 0], q, [2, 3, 4]);
    assert.equal(colliderWorld(proper, { type: 'box' }), proper);
    // Rz(90 deg) diag(2, 3, 4): the closed form gives Rz(90 deg) = [[0, -1, 0], [1, 0, 0], [0, 0, 1]].
    const r = closestRotation([[0, -3, 0], [2, 0, 0], [0, 0, 4]]);
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]].forEach((row, i) => row.forEach((v, k) => near(r[i][k], v, 1e-15, `R[${i}][${k}]`)));
  });
});

describe('khr-2026 mesh geometry', () => {
  test('meshGeometry morphs by the mesh\'s weights; meshTriangles alone reads POSITION as stored', () => {
    const doc = Document.read(FIXTURE26);
    const morphed = meshGeometry(doc, 1);
    assert.deepEqual(morphed.positions, [[0, 0, 0], [1.5, 0, 0], [0, 1.5, 0], [0, 0, 1]]);
    assert.deepEqual(morphed.triangles, [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]);
    assert.deepEqual(doc.meshTriangles(1).positions, [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    // Mesh 0 has no weights and no targets: as stored.
    assert.deepEqual(meshGeometry(doc, 0).positions, doc.meshTriangles(0).positions);
  });


  /** The khr-2026 fixture with its JSON changed by `edit`, written to a temporary file. */
  const edited = (edit) => {
    const json = JSON.parse(readFileSync(FIXTURE26, 'utf8'));
    edit(json);
    return writeScene(json);
  };
  const rejected = (path, profile, pattern) => {
    assert.throws(() => readScene(Document.read(path), profile), (e) => e instanceof Rejected && pattern.test(e.message));
  };

  test('khr-2025 does not read `mesh`; khr-2026 wants exactly one of shape, node, mesh', () => {
    rejected(FIXTURE26, 'khr-2025', /geometry needs exactly one of shape, node$/);
    rejected(edited((j) => { j.nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry.node = 11; }), 'khr-2026',
      /geometry needs exactly one of shape, node, mesh$/);
    rejected(edited((j) => { j.nodes[2].extensions.KHR_physics_rigid_bodies.collider.geometry.mesh = 2; }), 'khr-2026',
      /geometry\.mesh 2 is out of range/);
  });

  test('mesh weights that do not match the targets are refused', () => {
    rejected(edited((j) => { j.meshes[1].weights = [0.5]; }), 'khr-2026', /1 morph weights for 2 targets/);
  });
});
