// The Jolt adapter as the harness sees it: a child process driven by protocol lines over small
// inline scenes, each checked against values worked out by hand (not the adapter's own output).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { khrDoc, khrNode, nodeState, startAdapter, writeScene } from '../../kit/testkit/client.js';
import { supportsFeature } from '../src/capabilities.js';

let adapter;
let hello;
before(async () => {
  adapter = startAdapter(new URL('../src/main.js', import.meta.url));
  hello = await adapter.ok('handshake', { protocol_version: 2 });
});
after(async () => {
  const code = await adapter.close();
  assert.equal(code, 0, `the adapter exits cleanly at the end of input\n${adapter.stderr()}`);
  assert.deepEqual(adapter.stray, [], 'no unrequested output on stdout');
});

async function load(doc, { profile = 'khr-2024-draft', gravity = [0, -9.81, 0], dt = 1 / 60, substeps = 1 } = {}) {
  await adapter.ok('configure', { gravity, dt, substeps });
  const out = await adapter.ok('load', { path: writeScene(doc), profile });
  assert.equal(out.outcome, 'loaded', JSON.stringify(out));
  return out.notes;
}
const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a}, expected ${b} +- ${tol}`);
const SPHERE = { type: 'sphere', sphere: { radius: 0.5 } };

describe('handshake', () => {
  test('names Jolt, every profile the kit reads, and not what Jolt cannot hold', () => {
    assert.equal(hello.name, 'jolt-node');
    assert.match(hello.engine, /^Jolt Physics \(jolt-physics 1\.1\.0, WebAssembly\)$/);
    assert.deepEqual(hello.capabilities.profiles, ['khr-2024-draft', 'khr-2025', 'khr-2026', 'omi-2023', 'omi-2024', 'omi-2025']);
    assert.deepEqual(hello.capabilities.checks, ['interpretation', 'dynamics']);
    assert.ok(supportsFeature('shape.capsule.tapered'));
    assert.ok(!supportsFeature('joint.limit.angular.3'));
    assert.ok(!supportsFeature('shape.plane.double-sided'));
    assert.ok(!supportsFeature('vrm.aim'));
  });
});

describe('dynamics', () => {
  test('a falling sphere: 240 substeps of semi-implicit Euler', async () => {
    // x_n = g h^2 n (n + 1) / 2 = 9.81 / 57600 * 240 * 241 / 2 = 4.9254 m; v = g t = 9.81 m/s.
    await load(khrDoc({
      shapes: [SPHERE],
      nodes: [khrNode({ motion: { mass: 2 }, collider: { shape: 0 } }, { translation: [0, 10, 0] })],
    }), { substeps: 4 });
    await adapter.ok('step', { steps: 60 });
    const s = nodeState(await adapter.ok('observe'), 0);
    near(10 - s.translation[1], 4.9254, 0.01, 'fallen');
    near(s.linear_velocity[1], -9.81, 1e-3, 'v');
  });

  test('a gravity factor of 0.5 halves the fall (Jolt\'s own per-body factor)', async () => {
    await load(khrDoc({
      shapes: [SPHERE],
      nodes: [khrNode({ motion: { gravityFactor: 0.5 }, collider: { shape: 0 } }, { translation: [0, 10, 0] })],
    }));
    await adapter.ok('step', { steps: 60 });
    near(nodeState(await adapter.ok('observe'), 0).linear_velocity[1], -4.905, 1e-3, 'v');
  });

  test('a box sliding at 3 m/s stops after v^2 / (2 mu_d g) with the combined dynamic friction', async () => {
    // Box friction: dynamic 0.1, static 0.9 (multiply); ground 2 and 2 (no mode): the pair is
    // multiply, mu_d = 0.2, mu_s = 1.8. Stopping distance 9 / (2 * 0.2 * 9.81) = 2.294 m.
    await load(khrDoc({
      shapes: [{ type: 'box', box: { size: [20, 1, 20] } }, { type: 'box', box: { size: [0.5, 0.5, 0.5] } }],
      materials: [
        { staticFriction: 2, dynamicFriction: 2 },
        { staticFriction: 0.9, dynamicFriction: 0.1, frictionCombine: 'multiply' },
      ],
      nodes: [
        khrNode({ collider: { shape: 0, physicsMaterial: 0 } }, { translation: [0, -0.5, 0] }),
        khrNode({ motion: { mass: 1, linearVelocity: [3, 0, 0] }, collider: { shape: 1, physicsMaterial: 1 } }, { translation: [0, 0.25, 0] }),
      ],
    }));
    const pair = (await adapter.ok('interpretation')).pairs[0];
    near(pair.dynamic_friction, 0.2, 1e-12, 'combined dynamic friction');
    near(pair.static_friction, 1.8, 1e-12, 'combined static friction');
    await adapter.ok('step', { steps: 180 });
    const s = nodeState(await adapter.ok('observe'), 1);
    near(s.translation[0], 2.294, 0.12, 'sliding distance');
    near(s.linear_velocity[0], 0, 1e-3, 'at rest');
  });

  test('combine precedence is the spec\'s in the pair report', async () => {
    // average wins over multiply: (0.2 + 0.8) / 2 = 0.5; minimum over maximum for restitution.
    await load(khrDoc({
      shapes: [SPHERE],
      materials: [
        { staticFriction: 0.2, dynamicFriction: 0.2, restitution: 0.1, frictionCombine: 'multiply', restitutionCombine: 'maximum' },
        { staticFriction: 0.8, dynamicFriction: 0.8, restitution: 0.9, frictionCombine: 'average', restitutionCombine: 'minimum' },
      ],
      nodes: [
        khrNode({ collider: { shape: 0, physicsMaterial: 0 } }),
        khrNode({ motion: {}, collider: { shape: 0, physicsMaterial: 1 } }, { translation: [3, 0, 0] }),
      ],
    }), { gravity: [0, 0, 0] });
    const [p] = (await adapter.ok('interpretation')).pairs;
    assert.deepEqual([p.a, p.b], [0, 1]);
    near(p.static_friction, 0.5, 1e-12, 'friction');
    near(p.restitution, 0.1, 1e-12, 'restitution');
  });

  test('a filtered pair never touches, an unfiltered one does', async () => {
    await load(khrDoc({
      shapes: [{ type: 'box', box: { size: [10, 1, 10] } }, SPHERE],
      filters: [
        { collisionSystems: ['ground'] },
        { collisionSystems: ['ghost'], notCollideWithSystems: ['ground'] },
      ],
      nodes: [
        khrNode({ collider: { shape: 0, collisionFilter: 0 } }, { translation: [0, -0.5, 0] }),
        khrNode({ motion: {}, collider: { shape: 1, collisionFilter: 1 } }, { translation: [-2, 1, 0] }),
        khrNode({ motion: {}, collider: { shape: 1 } }, { translation: [2, 1, 0] }),
      ],
    }));
    let control = false;
    for (let i = 0; i < 12; i++) {
      await adapter.ok('step', { steps: 10 });
      const s = await adapter.ok('observe');
      assert.ok(!s.contacts.some(([a, b]) => a === 0 && b === 1), JSON.stringify(s.contacts));
      control ||= s.contacts.some(([a, b]) => a === 0 && b === 2);
    }
    const s = await adapter.ok('observe');
    assert.ok(control, 'the unfiltered sphere touched the ground');
    assert.ok(nodeState(s, 1).translation[1] < -2, 'the filtered sphere fell through');
    near(nodeState(s, 2).translation[1], 0.5, 0.02, 'the unfiltered sphere rests on the ground');
  });

  test('a trigger reports enter and exit, and never pushes', async () => {
    await load(khrDoc({
      shapes: [{ type: 'box', box: { size: [4, 0.2, 4] } }, SPHERE],
      nodes: [
        khrNode({ trigger: { shape: 0 } }),
        khrNode({ motion: {}, collider: { shape: 1 } }, { translation: [0, 2, 0] }),
      ],
    }), { substeps: 4 });
    const events = [];
    for (let i = 0; i < 12; i++) {
      await adapter.ok('step', { steps: 5 });
      events.push(...(await adapter.ok('observe')).trigger_events);
    }
    assert.deepEqual(events, [{ kind: 'enter', trigger: 0, other: 1 }, { kind: 'exit', trigger: 0, other: 1 }]);
    const s = await adapter.ok('observe');
    near(nodeState(s, 1).linear_velocity[1], -9.81, 1e-3, 'free fall');
    assert.deepEqual(s.contacts, []);
  });

  test('a trigger on a body never reports its own body\'s collider, nor a static one', async () => {
    // A body falling onto a ground box (node 2) from 3 m: its solid sphere (node 0, radius 0.5)
    // and a trigger sphere of radius 1 around it (node 1); a static trigger box (node 3) 2 m
    // tall around the ground's top. Events: the body's trigger meets the ground (at y < 1.5),
    // then the ground trigger meets the body's sphere (y < 1.0). Never the body's trigger with
    // its own sphere, nor the static trigger with the static ground.
    await load(khrDoc({
      shapes: [SPHERE, { type: 'sphere', sphere: { radius: 1 } }, { type: 'box', box: { size: [6, 1, 6] } }, { type: 'box', box: { size: [6, 2, 6] } }],
      nodes: [
        khrNode({ motion: {}, collider: { shape: 0 } }, { translation: [0, 3, 0], children: [1] }),
        khrNode({ trigger: { shape: 1 } }),
        khrNode({ collider: { shape: 2 } }, { translation: [0, -0.5, 0] }),
        khrNode({ trigger: { shape: 3 } }, { translation: [0, -0.5, 0] }),
      ],
    }));
    const events = [];
    for (let i = 0; i < 6; i++) {
      await adapter.ok('step', { steps: 10 });
      events.push(...(await adapter.ok('observe')).trigger_events);
    }
    assert.deepEqual(events.map((e) => [e.kind, e.trigger, e.other]), [['enter', 1, 2], ['enter', 3, 0]]);
  });
});

describe('shapes and mass', () => {
  test('a tapered cylinder is Jolt\'s exact frustum: mass pi h / 3 (R^2 + R r + r^2) at density 1', async () => {
    // h 2, R 1, r 0.5: pi * 2 / 3 * 1.75 = 3.66519 kg (a 48-segment hull would weigh 0.3% less).
    await load(khrDoc({
      shapes: [{ type: 'cylinder', cylinder: { height: 2, radiusTop: 0.5, radiusBottom: 1 } }],
      nodes: [khrNode({ motion: {}, collider: { shape: 0 } })],
    }), { gravity: [0, 0, 0] });
    const [b] = (await adapter.ok('interpretation')).bodies;
    near(b.mass.value, (Math.PI * 2 / 3) * 1.75, 1e-4, 'frustum mass');
    // Centre of mass below the middle: h (R^2 + 2 R r + 3 r^2) / (4 (R^2 + R r + r^2)) - h / 2
    // from the bottom face = 2 * 2.75 / 7 - 1 = -0.2143 m.
    near(b.center_of_mass[1], 2 * 2.75 / 7 - 1, 1e-4, 'frustum centre of mass');
  });

  test('a tapered capsule is Jolt\'s own shape, reported with both radii', async () => {
    await load(khrDoc({
      shapes: [{ type: 'capsule', capsule: { height: 1, radiusTop: 0.25, radiusBottom: 0.5 } }],
      nodes: [khrNode({ motion: {}, collider: { shape: 0 } })],
    }), { gravity: [0, 0, 0] });
    const c = (await adapter.ok('interpretation')).colliders[0];
    assert.equal(c.shape, 'capsule');
    assert.deepEqual(c.parameters, { height: 1, radius_top: 0.25, radius_bottom: 0.5 });
  });

  test('mass 0 and inertia components 0 are infinite; a given centre of mass is kept', async () => {
    await load(khrDoc({
      shapes: [SPHERE],
      nodes: [
        khrNode({ motion: { mass: 0 }, collider: { shape: 0 } }),
        khrNode({ motion: { mass: 3, inertiaDiagonal: [0, 2, 4], centerOfMass: [0.1, 0.2, 0.3] }, collider: { shape: 0 } }, { translation: [3, 0, 0] }),
      ],
    }), { gravity: [0, 0, 0] });
    const [a, b] = (await adapter.ok('interpretation')).bodies;
    assert.deepEqual(a.mass, { kind: 'infinite' });
    near(b.mass.value, 3, 1e-6, 'mass');
    assert.deepEqual(b.inertia_diagonal[0], { kind: 'infinite' });
    near(b.inertia_diagonal[1].value, 2, 1e-5, 'Iyy');
    near(b.inertia_diagonal[2].value, 4, 1e-5, 'Izz');
    b.center_of_mass.forEach((x, i) => near(x, [0.1, 0.2, 0.3][i], 1e-6, `com[${i}]`));
  });
});

describe('joints', () => {
  test('a linear drive reaches its target, an angular drive its velocity', async () => {
    // World-to-body joint, no gravity. Linear drive on Y to 0.3 (stiffness 400, damping 40,
    // acceleration mode: critically damped, omega 20 rad/s, settled after 1 s); angular drive
    // about Y at +2 rad/s (damping 50, acceleration mode).
    await load(khrDoc({
      shapes: [{ type: 'box', box: { size: [0.4, 0.4, 0.4] } }],
      joints: [{
        limits: [{ linearAxes: [0], min: 0, max: 0 }, { linearAxes: [2], min: 0, max: 0 }],
        drives: [
          { type: 'linear', mode: 'acceleration', axis: 1, positionTarget: 0.3, stiffness: 400, damping: 40 },
          { type: 'angular', mode: 'acceleration', axis: 1, velocityTarget: 2, damping: 50 },
        ],
      }],
      nodes: [
        khrNode({ joint: { connectedNode: 1, joint: 0 } }),
        khrNode({ motion: { mass: 1 }, collider: { shape: 0 } }),
      ],
    }), { gravity: [0, 0, 0], substeps: 2 });
    await adapter.ok('step', { steps: 60 });
    const s = nodeState(await adapter.ok('observe'), 1);
    near(s.translation[1], 0.3, 0.005, 'y');
    near(s.angular_velocity[1], 2, 0.02, 'w');
  });

  test('a hinge about Z stops near its limit of -0.5 rad', async () => {
    // A 1 kg ball of radius 0.4, 1 m out on +X, hinged at the origin about Z: it swings down
    // and stops at -0.5 rad. Jolt (10 velocity and 8 position steps, one substep of 1/60 s)
    // overshoots: its limits act once violated (measured -0.531 rad; -0.656 rad for a ball of
    // radius 0.1, whose inertia about its centre, 0.004 kg m^2, is small against the 1 m arm).
    await load(khrDoc({
      shapes: [{ type: 'sphere', sphere: { radius: 0.4 } }],
      joints: [{
        limits: [{ linearAxes: [0, 1, 2], max: 0 }, { angularAxes: [0, 1], max: 0 }, { angularAxes: [2], min: -0.5, max: 0.5 }],
      }],
      nodes: [
        khrNode({ joint: { connectedNode: 1, joint: 0 } }),
        khrNode({ motion: { mass: 1 } }, { children: [2] }),
        khrNode({ collider: { shape: 0 } }, { translation: [1, 0, 0] }),
      ],
    }));
    let lowest = 0;
    for (let i = 0; i < 24; i++) {
      await adapter.ok('step', { steps: 5 });
      const q = nodeState(await adapter.ok('observe'), 1).rotation;
      const angle = 2 * Math.atan2(q[2], q[3]);
      lowest = Math.min(lowest, angle);
    }
    assert.ok(lowest >= -0.55, `swung to ${lowest} rad`);
    assert.ok(lowest <= -0.45, `reached the limit: ${lowest} rad`);
  });

  test('a limit on the total rotation angle is refused at load', async () => {
    await adapter.ok('configure', { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 1 });
    const answer = await adapter.call('load', {
      profile: 'khr-2024-draft',
      path: writeScene(khrDoc({
        shapes: [SPHERE],
        joints: [{ limits: [{ angularAxes: [0, 1, 2], max: 1 }] }],
        nodes: [khrNode({ joint: { connectedNode: 1, joint: 0 } }), khrNode({ motion: {}, collider: { shape: 0 } })],
      })),
    });
    assert.equal(answer.error?.error, 'not_supported', JSON.stringify(answer));
  });
});
