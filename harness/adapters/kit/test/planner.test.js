// The pure parts of the kit, without an engine: the joint planner (written for PhysX's D6, also
// Jolt's SixDOF), the pair rules, the math helpers, the feature rule, the default scene.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FAR, physxAxis, planJoint, twistFrameRotation } from '../src/joints.js';
import { mat3ToQ, qrDecompose, qrotate, qToMat3, symmetricEigen } from '../src/math.js';
import { allows, apply, filtersCollide, pairMode } from '../src/rules.js';
import { supports } from '../src/capabilities.js';

const hard = (kind, axes, min, max) => ({ kind, axes, min, max, stiffness: null, damping: 0 });
const joint = (limits, drives = [], coupling = 'coupled') => ({ node: 7, coupling, limits, drives });
const drive = (kind, axis, extra = {}) => ({
  kind, axis, mode: 'force', maxForce: null, positionTarget: null, velocityTarget: null, stiffness: 0, damping: 0, ...extra,
});
const close = (a, b, eps = 1e-12) => a.every((x, i) => Math.abs(x - b[i]) < eps);

describe('joint planner', () => {
  test('a hinge about Y twists about PhysX X after turning the frames', () => {
    // Pinned (3 linear, max 0), cone of 0 about Y (angular X, Z), twist about Y in [-1, 0.5].
    const p = planJoint(joint([
      hard('linear', [0, 1, 2], null, 0),
      hard('angular', [0, 2], 0, 0),
      hard('angular', [1], -1, 0.5),
    ]));
    assert.equal(p.twistAxis, 1);
    assert.deepEqual(p.linear.map((m) => m.motion), ['locked', 'locked', 'locked']);
    assert.deepEqual(p.angular.twist, { motion: 'limited', lower: -1, upper: 0.5, spring: null });
    assert.equal(p.angular.swing1.motion, 'locked');
    assert.equal(p.angular.swing2.motion, 'locked');
    // The frame turn maps PhysX X onto the original Y and PhysX Y onto the original Z.
    assert.ok(close(qrotate(p.frameRotation, [1, 0, 0]), [0, 1, 0]));
    assert.ok(close(qrotate(p.frameRotation, [0, 1, 0]), [0, 0, 1]));
  });

  test('frame turns and axis indices agree for every twist axis', () => {
    for (const t of [0, 1, 2]) {
      const q = twistFrameRotation(t);
      for (const a of [0, 1, 2]) {
        const e = [0, 0, 0];
        e[physxAxis(a, t)] = 1;
        const original = [0, 0, 0];
        original[a] = 1;
        assert.ok(close(qrotate(q, e), original), `t ${t} axis ${a}`);
      }
    }
  });

  test('a slider: per-axis pair on its axis, distance locks on the others', () => {
    const p = planJoint(joint([
      hard('linear', [2], -0.25, 0.75),
      hard('linear', [0, 1], null, 0),
      hard('angular', [0, 1, 2], null, 0),
    ]));
    assert.equal(p.twistAxis, 0);
    assert.deepEqual(p.linear[2], { motion: 'limited', lower: -0.25, upper: 0.75, spring: null });
    assert.equal(p.linear[0].motion, 'locked');
    assert.equal(p.linear[1].motion, 'locked');
    assert.equal(p.distance, null);
    assert.deepEqual(Object.values(p.angular).map((m) => m.motion), ['locked', 'locked', 'locked']);
  });

  test('coupled linear limits become one distance limit', () => {
    const p = planJoint(joint([hard('linear', [0, 2], 0, 0.3)]));
    assert.deepEqual(p.distance, { extent: 0.3, spring: null });
    assert.deepEqual(p.linear.map((m) => m.motion), ['limited', 'free', 'limited']);
    assert.throws(() => planJoint(joint([hard('linear', [0, 1, 2], 0.1, 0.3)])), { kind: 'not_supported' });
    assert.throws(() => planJoint(joint([hard('linear', [0, 1], null, 1), hard('linear', [1, 2], null, 2)])), { kind: 'not_supported' });
  });

  test('a cone about Z with a twist about Z', () => {
    const p = planJoint(joint([hard('angular', [0, 1], 0, 0.7), { ...hard('angular', [2], -0.2, 0.2), stiffness: 50, damping: 2 }]));
    assert.equal(p.twistAxis, 2);
    assert.deepEqual(p.cone, { angle: 0.7, spring: null });
    assert.equal(p.angular.swing1.motion, 'limited');
    assert.deepEqual(p.angular.twist, { motion: 'limited', lower: -0.2, upper: 0.2, spring: { stiffness: 50, damping: 2 } });
    assert.throws(() => planJoint(joint([hard('angular', [0, 1], 0.1, 0.7)])), { kind: 'not_supported' });
  });

  test('what PhysX cannot hold is refused', () => {
    const refuse = (limits, drives = []) => assert.throws(() => planJoint(joint(limits, drives)), { kind: 'not_supported' });
    refuse([hard('angular', [0], -1, 1), hard('angular', [1], -1, 1)]); // two twist axes
    refuse([hard('angular', [0, 1, 2], null, 1)]); // total angle
    refuse([hard('angular', [0], -1, 1)], [drive('angular', 2)]); // drive about a free swing axis
    refuse([hard('angular', [0], -1, 1), hard('angular', [1], 0, 0)]); // a twist and one swing lock
  });

  test('a single angular lock is a twist lock about that axis', () => {
    const p = planJoint(joint([hard('angular', [1], 0, 0)]));
    assert.equal(p.twistAxis, 1);
    assert.deepEqual(Object.values(p.angular).map((m) => m.motion), ['locked', 'free', 'free']);
  });

  test('locks pick the free axis as twist; drives about held axes are dropped', () => {
    const p = planJoint(joint([hard('angular', [0], 0, 0), hard('angular', [1], 0, 0)], [drive('angular', 0, { stiffness: 5 })]));
    assert.equal(p.twistAxis, 2);
    assert.equal(p.angular.twist.motion, 'free');
    assert.deepEqual(p.drives, []);
  });

  test('drives on one DOF add up into one spring', () => {
    // k1 = 2 at p1 = 1 and k2 = 6 at p2 = -1: K = 8, p* = (2 - 6) / 8 = -0.5;
    // c1 = 1 at v1 = 4, c2 = 3 at v2 = 0: C = 4, v* = 4 / 4 = 1.
    const p = planJoint(joint([], [
      drive('linear', 1, { stiffness: 2, positionTarget: 1, damping: 1, velocityTarget: 4 }),
      drive('linear', 1, { stiffness: 6, positionTarget: -1, damping: 3, velocityTarget: 0 }),
    ]));
    assert.deepEqual(p.drives, [{ dof: 'y', stiffness: 8, damping: 4, forceLimit: null, acceleration: false, position: -0.5, velocity: 1 }]);
    assert.throws(() => planJoint(joint([], [drive('linear', 1), drive('linear', 1, { mode: 'acceleration' })])), { kind: 'not_supported' });
  });

  test('OMI limits are per axis and the later constraint wins', () => {
    // linear [0, 1, 2] in [-1, 1] is a box; a later [1] in [0, 0] locks Y.
    const limits = [
      { kind: 'linear', axes: [0, 1, 2], min: -1, max: 1, stiffness: null, damping: 1 },
      { kind: 'linear', axes: [1], min: 0, max: 0, stiffness: null, damping: 1 },
    ];
    const p = planJoint(joint(limits, [], 'per-axis'));
    assert.equal(p.distance, null);
    assert.deepEqual(p.linear.map((m) => m.motion), ['limited', 'locked', 'limited']);
    assert.equal(p.linear[0].lower, -1);
  });

  test('open sides of a linear limit are far away', () => {
    const p = planJoint(joint([hard('linear', [0], null, 2)]));
    assert.deepEqual(p.linear[0], { motion: 'limited', lower: -FAR, upper: 2, spring: null });
  });
});

describe('pair rules', () => {
  test('spec precedence: average > minimum > maximum > multiply', () => {
    assert.equal(pairMode('multiply', 'average'), 'average');
    assert.equal(pairMode('maximum', 'minimum'), 'minimum');
    assert.equal(pairMode('multiply', 'maximum'), 'maximum');
    assert.equal(pairMode(null, 'maximum'), 'maximum');
    assert.equal(pairMode(null, null), null);
    assert.equal(apply('average', 0.2, 0.8), 0.5);
    assert.ok(Math.abs(apply('multiply', 0.2, 0.8) - 0.16) < 1e-15);
  });

  test('filters: both directions, subset formula, empty systems', () => {
    const player = { systems: ['player'], collideWith: null, notCollideWith: null };
    const ghost = { systems: ['ghost'], collideWith: null, notCollideWith: ['player'] };
    const picky = { systems: ['a', 'b'], collideWith: ['player'], notCollideWith: null };
    assert.equal(allows(ghost, player), false);
    assert.equal(allows(player, ghost), true);
    assert.equal(filtersCollide(player, ghost), false); // one direction is enough to refuse
    assert.equal(allows(picky, player), true);
    assert.equal(allows(player, picky), true);
    assert.equal(allows(picky, ghost), false);
    // No filter: no system; admitted by collideWith lists, never excluded by notCollideWith.
    assert.equal(allows(picky, null), true);
    assert.equal(allows(ghost, null), true);
    // Two systems: excluded only when all of them are listed (subset).
    const half = { systems: [], collideWith: null, notCollideWith: ['a'] };
    assert.equal(allows(half, picky), true);
    assert.equal(allows({ ...half, notCollideWith: ['a', 'b', 'c'] }, picky), false);
    // 40 distinct systems: nothing is squeezed into 32 bits.
    const many = Array.from({ length: 40 }, (_, i) => `s${i}`);
    const last = { systems: ['s39'], collideWith: null, notCollideWith: null };
    assert.equal(allows({ systems: [], collideWith: many.slice(0, 39), notCollideWith: null }, last), false);
    assert.equal(allows({ systems: [], collideWith: many, notCollideWith: null }, last), true);
  });
});

describe('math', () => {
  test('QR split keeps rotation and scale apart, mirrors flip the last axis', () => {
    // L = R_z(90deg) * diag(2, 3, 4): columns (0, 2, 0), (-3, 0, 0), (0, 0, 4).
    const split = qrDecompose([[0, -3, 0], [2, 0, 0], [0, 0, 4]]);
    assert.ok(close(split.upper.flat(), [2, 0, 0, 0, 3, 0, 0, 0, 4]));
    assert.ok(close(mat3ToQ(split.rotation), [0, 0, Math.SQRT1_2, Math.SQRT1_2]));
    const mirror = qrDecompose([[1, 0, 0], [0, 1, 0], [0, 0, -1]]);
    assert.equal(mirror.upper[2][2], -1);
    assert.equal(qrDecompose([[0, 0, 0], [0, 1, 0], [0, 0, 1]]), null);
  });

  test('symmetric eigen-decomposition rebuilds the tensor', () => {
    const a = [[2, 1, 0], [1, 2, 0], [0, 0, 5]]; // eigenvalues 1, 3, 5
    const { values, vectors } = symmetricEigen(a);
    assert.deepEqual(values.map((v) => Math.round(v * 1e9) / 1e9).sort(), [1, 3, 5]);
    const r = vectors;
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      const v = r[i][0] * values[0] * r[j][0] + r[i][1] * values[1] * r[j][1] + r[i][2] * values[2] * r[j][2];
      assert.ok(Math.abs(v - a[i][j]) < 1e-9);
    }
    const q = mat3ToQ(vectors);
    assert.ok(close(qToMat3(q).flat(), vectors.flat(), 1e-9));
  });
});

test('feature prefixes follow the harness rule', () => {
  const features = ['shape.', 'material.*', 'joint.limit.angular.2'];
  assert.ok(supports(features, 'shape.capsule.defaults'));
  assert.ok(supports(features, 'material.combine.average-minimum'));
  assert.ok(supports(features, 'joint.limit.angular.2'));
  assert.ok(!supports(features, 'joint.limit.angular.3'));
  assert.ok(!supports(features, 'shapes'));
  assert.ok(!supports(features, 'vrm.aim'));
});

test('only the default scene is simulated [D-SCENE]', async () => {
  const { Document } = await import('../src/gltf.js');
  const { readScene } = await import('../src/scene.js');
  // Scene 0 holds the decoy ball (node 0); the default scene 1 holds the real one (node 1).
  const ball = (mass) => ({ extensions: { KHR_physics_rigid_bodies: { motion: { mass }, collider: { geometry: { shape: 0 } } } } });
  const json = {
    asset: { version: '2.0' },
    extensionsUsed: ['KHR_implicit_shapes', 'KHR_physics_rigid_bodies'],
    extensions: { KHR_implicit_shapes: { shapes: [{ type: 'sphere', sphere: { radius: 0.5 } }] } },
    nodes: [ball(1), ball(2)],
    scenes: [{ nodes: [0] }, { nodes: [1] }],
    scene: 1,
  };
  const scene = readScene(new Document(json, '.', null), 'khr-2025');
  assert.deepEqual(scene.bodies.map((b) => b.node), [1]);
  assert.deepEqual(scene.colliders.map((c) => [c.node, c.body]), [[1, 0]]);
  const zero = readScene(new Document({ ...json, scene: 0 }, '.', null), 'khr-2025');
  assert.deepEqual(zero.bodies.map((b) => b.node), [0]);
});
