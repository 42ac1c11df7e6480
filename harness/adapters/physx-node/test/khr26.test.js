// khr-2026 (KHR_physics_rigid_bodies, January 2026): a collider's or trigger's `geometry.mesh`,
// over the hand-written scene in fixtures/khr26-scene.gltf, and small refused scenes. Expected
// vertices are worked out by hand below and compared with the vertices PhysX holds, placed by
// PhysX's own shape pose (nothing of the adapter's geometry code is used to compute them).
//
// The fixture. Mesh 0 (OffsetBox) is the box [1, 2] x [0, 1] x [0, 0.5], offset from its origin
// and asymmetric, 12 triangles. Mesh 1 (MorphTetrahedron) is the tetrahedron (0,0,0), (1,0,0),
// (0,1,0), (0,0,1) with two morph targets (+1 x on vertex 1, +2 y on vertex 2) and mesh weights
// [0.5, 0.25]; node 4 draws it with node weights [1, 1] and skin 0 (joint node 5 at z = 7): those
// must not apply. Nodes:
//  0 Ground: unbounded plane (implicit shape 0);
//  1 HullBody: dynamic, mass 1, at (0, 5, 0); its child
//  2 HullCollider: translation (0.5, 0, 0), rotation 90 deg about z, scale (2, 3, 1), mesh 0 hull;
//  3 MorphBody: dynamic, mass 1, at (5, 3, 0), mesh 1 hull on the body node itself;
//  6 SharedHullMirrored: static at (10, 0, 0), scale (-1, 1, 1), mesh 0 hull;
//  7 SharedTrimesh: static at (-10, 0, 0), mesh 0 as a triangle mesh;
//  8 MeshTrigger: at (0, 0, 5), scale (1, 2, 1), mesh 0 hull as a trigger;
//  9 TriggerBall: dynamic sphere of radius 0.25 at (1.5, 4, 5.25), above the trigger;
// 10 NodeGeometry: static at (0, 0, -10), the 2025 form {node: 11, convexHull: true}; node 11
//    (out of the scene, at (100, 100, 100): its own transform does not count) draws mesh 0;
// 12 ZeroScaled: mesh 0 hull under scale (0, 0, 0): left out.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { Adapter } from '../src/adapter.js';
import { Document } from '../../kit/src/gltf.js';
import { createRuntime } from '../src/runtime.js';
import { khrNode, writeScene } from '../../kit/testkit/client.js';

const FIXTURE = new URL('../../kit/test/fixtures/khr26-scene.gltf', import.meta.url).pathname;
const FIXTURE25 = new URL('../../kit/test/fixtures/khr25-scene.gltf', import.meta.url).pathname;
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} expected ${b} (+-${tol})`);
const nearVec = (a, b, tol, what) => a.forEach((x, i) => near(x, b[i], tol, `${what}[${i}]`));
/** PhysX keeps f32 vertices and poses. */
const F32 = 1e-5;

/** The 8 corners of the box [x0, x1] x [y0, y1] x [z0, z1]. */
const corners = ([x0, x1], [y0, y1], [z0, z1]) => [x0, x1].flatMap((x) => [y0, y1].flatMap((y) => [z0, z1].map((z) => [x, y, z])));

/**
 * The world-space vertices PhysX holds for the collider at `node`: its convex or triangle mesh's
 * vertices (scale baked in) moved by the shape's global pose, as PhysX reports it.
 */
function worldVertices(adapter, node) {
  const world = adapter.world;
  const P = world.P;
  const ci = world.scene.colliders.findIndex((c) => c.node === node);
  assert.ok(ci >= 0, `no collider at node ${node}`);
  const { variants, holder } = world.shapeOf[ci];
  const shape = variants[0].shape;
  const geometry = shape.getGeometry();
  const mesh = world.shapeOf[ci].kind === 'convex'
    ? P.castObject(geometry, P.PxConvexMeshGeometry).convexMesh
    : P.castObject(geometry, P.PxTriangleMeshGeometry).triangleMesh;
  const pose = P.PxShapeExt.prototype.getGlobalPose(shape, holder.actor);
  const helpers = P.NativeArrayHelpers.prototype;
  const base = mesh.getVertices();
  const out = [];
  for (let i = 0; i < mesh.getNbVertices(); i++) {
    const w = pose.transform(helpers.getVec3At(base, i));
    out.push([w.x, w.y, w.z]);
  }
  return out;
}

/** `actual` and `expected` are the same set of points (any order), within `tol`. */
function samePoints(actual, expected, tol, what) {
  assert.equal(actual.length, expected.length, `${what}: ${JSON.stringify(actual)}`);
  const left = actual.slice();
  for (const e of expected) {
    const i = left.findIndex((a) => a.every((x, k) => Math.abs(x - e[k]) <= tol));
    assert.ok(i >= 0, `${what}: no vertex at ${JSON.stringify(e)} in ${JSON.stringify(actual)}`);
    left.splice(i, 1);
  }
}

let adapter;
before(async () => {
  adapter = new Adapter(await createRuntime());
});

describe('the khr-2026 fixture', () => {
  let loaded;
  let interpretation;
  before(() => {
    loaded = adapter.load({ path: FIXTURE, profile: 'khr-2026' });
    interpretation = adapter.interpretation();
  });
  const collider = (node) => interpretation.colliders.find((c) => c.node === node);

  test('loads every collider and trigger; the zero-scale one is left out with a note', () => {
    assert.equal(loaded.outcome, 'loaded');
    assert.deepEqual(interpretation.colliders.map((c) => c.node), [0, 2, 3, 6, 7, 8, 9, 10]);
    assert.ok(loaded.notes.some((n) => n.includes('node 12') && n.includes('zero scale')), JSON.stringify(loaded.notes));
  });

  test('a mesh geometry sits in its collider node\'s frame: rotated and non-uniformly scaled', () => {
    // HullCollider's local matrix is T(0.5, 0, 0) Rz(90) diag(2, 3, 1) under the body at
    // (0, 5, 0). A box vertex (x, y, z) is scaled to (2x, 3y, z), turned by Rz(90)
    // ((a, b, c) -> (-b, a, c)) to (-3y, 2x, z), moved to (0.5 - 3y, 5 + 2x, z):
    // x in {1, 2} -> y_world in {7, 9}; y in {0, 1} -> x_world in {0.5, -2.5}; z in {0, 0.5}.
    // (In the body's frame it would be [1, 2] x [5, 6] x [0, 0.5]; without the node's scale
    // [-0.5, 0.5] x [6, 7] x [0, 0.5]; scaled after the turn [-1.5, 0.5] x [8, 11] x [0, 0.5].)
    const hull = collider(2);
    assert.equal(hull.shape, 'convex');
    assert.equal(hull.body, 1);
    assert.equal(hull.parameters.vertex_count, 8);
    // The rigid part of the collider's pose relative to its body: T(0.5, 0, 0) Rz(90).
    nearVec(hull.translation, [0.5, 0, 0], 1e-12, 'translation');
    nearVec(hull.rotation, [0, 0, Math.SQRT1_2, Math.SQRT1_2], 1e-12, 'rotation');
    samePoints(worldVertices(adapter, 2), corners([-2.5, 0.5], [7, 9], [0, 0.5]), F32, 'hull');
  });

  test('a mesh geometry is morphed by the mesh\'s weights, never by a node\'s, and never skinned', () => {
    // Mesh weights [0.5, 0.25]: vertex 1 = (1, 0, 0) + 0.5 (1, 0, 0) = (1.5, 0, 0), vertex 2 =
    // (0, 1, 0) + 0.25 (0, 2, 0) = (0, 1.5, 0); at the body (5, 3, 0). Node 4's weights [1, 1]
    // would give (2, 0, 0) and (0, 3, 0); its skin (joint at z = 7) would move z.
    const tetra = collider(3);
    assert.equal(tetra.shape, 'convex');
    assert.equal(tetra.parameters.vertex_count, 4);
    samePoints(worldVertices(adapter, 3), [[5, 3, 0], [6.5, 3, 0], [5, 4.5, 0], [5, 3, 1]], F32, 'morphed tetrahedron');
  });

  test('one mesh shared by colliders: one model shape per mesh and convexHull, placed per collider', () => {
    const shapes = adapter.world.scene.colliders.map((c) => [c.node, c.shape]);
    const shapeAt = (node) => shapes.find(([n]) => n === node)[1];
    // Nodes 2, 6 and the trigger 8 use {mesh: 0, convexHull: true}: one shape; the triangle mesh
    // (7) and the 2025 node geometry (10) are others.
    assert.equal(shapeAt(6), shapeAt(2));
    assert.equal(shapeAt(8), shapeAt(2));
    assert.equal(new Set([shapeAt(2), shapeAt(7), shapeAt(10)]).size, 3);
    // The mirror (-1, 1, 1) acts by its absolute value: the box at x + 10, not mirrored
    // ([8, 9] on x if it were).
    samePoints(worldVertices(adapter, 6), corners([11, 12], [0, 1], [0, 0.5]), F32, 'mirrored hull');
    const mesh = collider(7);
    assert.equal(mesh.shape, 'trimesh');
    assert.deepEqual(mesh.parameters, { vertex_count: 8, triangle_count: 12 });
    samePoints(worldVertices(adapter, 7), corners([-9, -8], [0, 1], [0, 0.5]), F32, 'triangle mesh');
  });

  test('a node geometry in a khr-2026 document reads by the 2025 rule', () => {
    // Node 11's own translation (100, 100, 100) does not count: mesh 0 at NodeGeometry (0, 0, -10).
    assert.equal(collider(10).shape, 'convex');
    samePoints(worldVertices(adapter, 10), corners([1, 2], [0, 1], [-10, -9.5]), F32, 'node geometry');
  });

  test('a mesh trigger: under its node\'s scale, it reports the ball that falls into it', () => {
    const trigger = collider(8);
    assert.equal(trigger.is_trigger, true);
    assert.equal(trigger.shape, 'convex');
    // Scale (1, 2, 1) at (0, 0, 5): [1, 2] x [0, 2] x [5, 5.5].
    samePoints(worldVertices(adapter, 8), corners([1, 2], [0, 2], [5, 5.5]), F32, 'trigger');
    adapter.step({ steps: 180 });
    const state = adapter.observe();
    assert.deepEqual(state.trigger_events, [{ kind: 'enter', trigger: 8, other: 9 }]);
    const at = (node) => state.nodes.find((n) => n.node === node).translation;
    // The ball fell through the trigger onto the ground (r = 0.25); the hull body rests on the
    // lowest face of its box, 7 m below its origin; the tetrahedron on its base (local y = 0).
    near(at(9)[1], 0.25, 0.01, 'ball on the ground');
    near(at(1)[1], -2, 0.02, 'hull body on the ground');
    near(at(3)[1], 0, 0.02, 'tetrahedron on the ground');
  });

  test('the node geometry of the khr-2025 fixture reads the same under khr-2026', () => {
    const read = (profile) => {
      const out = adapter.load({ path: FIXTURE25, profile });
      assert.equal(out.outcome, 'loaded');
      return { notes: out.notes, interpretation: adapter.interpretation() };
    };
    assert.deepEqual(read('khr-2026'), read('khr-2025'));
  });
});

describe('khr-2026 mesh geometry in PhysX (the helpers and refusals: the kit\'s reading.test.js)', () => {
  /** The fixture with its JSON changed by `edit`, written to a temporary file. */
  const edited = (edit) => {
    const json = JSON.parse(readFileSync(FIXTURE, 'utf8'));
    edit(json);
    return writeScene(json);
  };


  test('a mesh of the khr-2026 geometry may be drawn by no node at all', () => {
    // A static mesh collider whose mesh no node draws (the geometry needs no node).
    const path = edited((j) => {
      j.nodes = [khrNode({ collider: { geometry: { mesh: 0 } } }, { translation: [0, 1, 0] })];
      j.scenes = [{ nodes: [0] }];
      delete j.skins;
    });
    const out = adapter.load({ path, profile: 'khr-2026' });
    assert.equal(out.outcome, 'loaded');
    samePoints(worldVertices(adapter, 0), corners([1, 2], [1, 2], [0, 0.5]), F32, 'undrawn mesh');
  });
});
