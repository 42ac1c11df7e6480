// khr-2025 (KHR_physics_rigid_bodies PR #2424 + KHR_implicit_shapes PR #2370): the hand-written
// scene in fixtures/khr25-scene.gltf read and built, small refused scenes (the geometry
// helpers' own tests are the kit's, ../../kit/test/reading.test.js).
//
// The fixture: an unbounded single-sided plane at y = 0 (node 0); a 4 x 4 plane at (20, 1, 0)
// (node 1); unit-mass spheres of radius 0.5 dropped on the ground (2), on the bounded plane (3)
// and beside it at x = 23, past its edge at x = 22 (4); node 7, outside the scene and translated
// by (100, 100, 100), holds two children with a unit tetrahedron each, at x = -2 and x = +2,
// used as a convex hull by a dynamic body (5) and as a triangle mesh by a static collider (6); a
// box under scale [-1, 2, 1] (10); a sphere under scale [0, 0, 0] (11); a kinematic anchor (12)
// and a body joined to it by a description without limits, enableCollision true (13), whose
// inertia diagonal [0, 0.1, 0] is infinite about x and z; a dynamic body of mass 0 (14).

import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { Adapter } from '../src/adapter.js';
import { createRuntime } from '../src/runtime.js';
import { khrNode, writeScene } from '../../kit/testkit/client.js';

const FIXTURE = new URL('../../kit/test/fixtures/khr25-scene.gltf', import.meta.url).pathname;
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} expected ${b} (+-${tol})`);
const nearVec = (a, b, tol, what) => a.forEach((x, i) => near(x, b[i], tol, `${what}[${i}]`));
/** Angle (rad) of a unit quaternion [x, y, z, w] away from the identity. */
const angle = (q) => 2 * Math.acos(Math.min(1, Math.abs(q[3])));

let adapter;
before(async () => {
  adapter = new Adapter(await createRuntime());
});

describe('the khr-2025 fixture', () => {
  let loaded;
  let interpretation;
  before(() => {
    loaded = adapter.load({ path: FIXTURE, profile: 'khr-2025' });
    interpretation = adapter.interpretation();
  });
  const collider = (node) => interpretation.colliders.find((c) => c.node === node);
  const body = (node) => interpretation.bodies.find((b) => b.node === node);

  test('loads; the zero-scale collider is left out with a note', () => {
    assert.equal(loaded.outcome, 'loaded');
    assert.deepEqual(interpretation.colliders.map((c) => c.node), [0, 1, 2, 3, 4, 5, 6, 10, 12, 13, 14]);
    assert.ok(loaded.notes.some((n) => n.includes('node 11') && n.includes('zero scale')), JSON.stringify(loaded.notes));
  });

  test('planes: an unbounded one and a bounded one, reported in the plane frame', () => {
    const ground = collider(0);
    assert.equal(ground.shape, 'plane');
    assert.deepEqual(ground.parameters, {});
    nearVec(ground.translation, [0, 0, 0], 1e-12, 'ground translation');
    near(angle(ground.rotation), 0, 1e-9, 'ground rotation');
    const deck = collider(1);
    assert.equal(deck.shape, 'plane');
    assert.deepEqual(deck.parameters, { size_x: 4, size_z: 4 });
    // The box below it is offset by half its depth; the report undoes that (f32 poses).
    nearVec(deck.translation, [20, 1, 0], 1e-6, 'deck translation');
    near(angle(deck.rotation), 0, 1e-9, 'deck rotation');
  });

  test('node geometry: the children of the geometry node, placed relative to it', () => {
    // Convex hull of the tetrahedra {(0,0,0), (1,0,0), (0,1,0), (0,0,1)} moved by -2 and +2
    // along x: (-1, 0, 0) and (2, 0, 0) lie on the edge from (-2, 0, 0) to (3, 0, 0), so the
    // hull keeps 6 of the 8 points.
    const hull = collider(5);
    assert.equal(hull.shape, 'convex');
    assert.equal(hull.parameters.vertex_count, 6);
    assert.equal(hull.body, 5);
    // The triangle mesh keeps both tetrahedra: 8 vertices, 8 triangles; the geometry node's
    // own translation (100, 100, 100) does not count: the mesh is at its collider node.
    const mesh = collider(6);
    assert.equal(mesh.shape, 'trimesh');
    assert.deepEqual(mesh.parameters, { vertex_count: 8, triangle_count: 8 });
    nearVec(mesh.translation, [-20, 0.5, 0], 1e-12, 'mesh translation');
  });

  test('a negative scale acts by its absolute value', () => {
    // Box size 0.5 under [-1, 2, 1]: [0.5, 1, 0.5], unrotated (the reference's closest rotation
    // of diag(-1, 2, 1) from the identity is the identity).
    const box = collider(10);
    assert.equal(box.shape, 'box');
    nearVec(box.parameters.size, [0.5, 1, 0.5], 1e-12, 'size');
    nearVec(box.translation, [10, 5, 0], 1e-12, 'translation');
    near(angle(box.rotation), 0, 1e-9, 'rotation');
  });

  test('mass and inertia components of 0 are infinite', () => {
    assert.deepEqual(body(14).mass, { kind: 'infinite' });
    const d = body(13).inertia_diagonal;
    assert.deepEqual([d[0].kind, d[2].kind], ['infinite', 'infinite']);
    near(d[1].value, 0.1, 1e-6, 'inertia y');
  });

  test('a joint without limits, enableCollision true: its bodies may touch', () => {
    assert.deepEqual(interpretation.joints.map((j) => [j.node, j.bodies]), [[13, [13, 12]]]);
    assert.equal(interpretation.pairs.find((p) => p.a === 12 && p.b === 13).collide, true);
  });

  test('spheres rest on the planes (and past the bounded one\'s edge, on the ground)', () => {
    adapter.step({ steps: 120 });
    const state = adapter.observe();
    const at = (node) => state.nodes.find((n) => n.node === node).translation;
    near(at(2)[1], 0.5, 0.01, 'ball on the ground');
    near(at(3)[1], 1.5, 0.01, 'ball on the deck');
    near(at(4)[1], 0.5, 0.01, 'ball beside the deck');
    near(at(4)[0], 23, 0.01, 'ball beside the deck, x');
    // The tetrahedra's bases are at y = 0 of the hull body: it rests with its origin on y = 0.
    near(at(5)[1], 0, 0.02, 'hull on the ground');
  });
});

/** A khr-2025 document with implicit shapes and nodes (scene roots: nodes without a parent). */
function doc25({ shapes = [], nodes = [], joints, filters }) {
  const children = new Set(nodes.flatMap((n) => n.children ?? []));
  const root = {};
  if (joints) root.physicsJoints = joints;
  if (filters) root.collisionFilters = filters;
  return {
    asset: { version: '2.0' },
    extensionsUsed: ['KHR_physics_rigid_bodies', 'KHR_implicit_shapes'],
    extensions: { KHR_implicit_shapes: { shapes }, KHR_physics_rigid_bodies: root },
    nodes,
    scene: 0,
    scenes: [{ nodes: nodes.map((_, i) => i).filter((i) => !children.has(i)) }],
  };
}
const SPHERE = { type: 'sphere', sphere: { radius: 0.5 } };

describe('khr-2025 scenes PhysX cannot hold, or that are invalid', () => {
  const load = (d) => adapter.load({ path: writeScene(d), profile: 'khr-2025' });
  const notSupported = (d, pattern) => assert.throws(() => load(d), (e) => e.kind === 'not_supported' && pattern.test(e.message));
  const rejected = (d, pattern) => {
    const out = load(d);
    assert.equal(out.outcome, 'rejected');
    assert.match(out.reason, pattern);
  };

  test('a double-sided plane is not supported', () => {
    notSupported(doc25({
      shapes: [{ type: 'plane', plane: { doubleSided: true } }],
      nodes: [khrNode({ collider: { geometry: { shape: 0 } } })],
    }), /double-sided plane/);
  });

  test('a plane on a body is not supported', () => {
    notSupported(doc25({
      shapes: [{ type: 'plane', plane: {} }],
      nodes: [khrNode({ motion: {}, collider: { geometry: { shape: 0 } } })],
    }), /plane on a body/);
  });

  test('degenerate shapes, a geometry with both shape and node, drive targets without gains, filtered compound triggers are refused', () => {
    rejected(doc25({ shapes: [{ type: 'sphere', sphere: { radius: 0 } }], nodes: [khrNode({ collider: { geometry: { shape: 0 } } })] }), /radius is 0/);
    rejected(doc25({ shapes: [SPHERE], nodes: [khrNode({ collider: { geometry: { shape: 0, node: 0 } } })] }), /exactly one of shape, node/);
    rejected(doc25({
      shapes: [SPHERE],
      joints: [{ drives: [{ type: 'linear', mode: 'force', axis: 0, positionTarget: 1 }] }],
      nodes: [khrNode({ motion: {}, collider: { geometry: { shape: 0 } }, joint: { connectedNode: 1, joint: 0 } }), { translation: [0, 1, 0] }],
    }), /positionTarget and stiffness come together/);
    rejected(doc25({
      shapes: [SPHERE],
      filters: [{ collisionSystems: ['a'] }],
      nodes: [khrNode({ trigger: { nodes: [1], collisionFilter: 0 } }, { children: [1] }), khrNode({ trigger: { geometry: { shape: 0 } } })],
    }), /compound trigger may not have a collisionFilter/);
  });

  test('the draft still reads `shape`, not `geometry`', () => {
    const out = adapter.load({
      path: writeScene({ ...doc25({ nodes: [khrNode({ collider: { geometry: { shape: 0 } } })] }), extensionsUsed: ['KHR_physics_rigid_bodies'] }),
      profile: 'khr-2024-draft',
    });
    assert.equal(out.outcome, 'rejected');
  });
});
