// The adapter as the harness sees it: a child process driven by protocol lines over small
// inline scenes. Each case prints its wall time (load + steps + observations) as a diagnostic.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { khrDoc, khrNode, nodeState, startAdapter, writeScene } from '../../kit/testkit/client.js';

let adapter;
before(async () => {
  adapter = startAdapter(new URL('../src/main.js', import.meta.url));
  await adapter.ok('handshake', { protocol_version: 2 });
});
after(async () => {
  const code = await adapter.close();
  assert.equal(code, 0, `the adapter exits cleanly at the end of input\n${adapter.stderr()}`);
  assert.deepEqual(adapter.stray, [], 'no unrequested output on stdout');
});

/** Load a scene (a glTF object) and configure it; returns the load notes. */
async function load(doc, { profile = 'khr-2024-draft', gravity = [0, -9.81, 0], dt = 1 / 60, substeps = 1 } = {}) {
  await adapter.ok('configure', { gravity, dt, substeps });
  const out = await adapter.ok('load', { path: writeScene(doc), profile });
  assert.equal(out.outcome, 'loaded', JSON.stringify(out));
  return out.notes;
}

/** Run `f` and report its wall time in milliseconds as a test diagnostic. */
async function timed(t, f) {
  const start = performance.now();
  const result = await f();
  t.diagnostic(`wall time ${(performance.now() - start).toFixed(1)} ms`);
  return result;
}

const SPHERE = { type: 'sphere', sphere: { radius: 0.5 } };

describe('handshake', () => {
  test('names the engine, the profiles and what is not supported', async () => {
    const h = await adapter.ok('handshake', { protocol_version: 2 });
    assert.equal(h.name, 'physx-node');
    assert.equal(h.protocol_version, 2);
    assert.match(h.engine, /^PhysX 5\.6\.1 \(physx-js-webidl 2\.7\.3, WebAssembly\)$/);
    assert.deepEqual(h.capabilities.profiles, ['khr-2024-draft', 'khr-2025', 'khr-2026', 'omi-2023', 'omi-2024', 'omi-2025']);
    assert.deepEqual(h.capabilities.checks, ['interpretation', 'dynamics']);
    assert.equal(h.capabilities.batch, true);
    const f = h.capabilities.features;
    for (const tag of ['shape.box.', 'material.', 'filter.', 'trigger.', 'joint.limit.angular.1', 'joint.drive.']) assert.ok(f.includes(tag), tag);
    for (const tag of ['joint.limit.angular.3', 'joint.kind.generic', 'omi.constraint.angular.2', 'vrm.']) assert.ok(!f.includes(tag), tag);
    // khr-2025: planes as PhysX can hold them, node geometry without skins or morphs.
    const { supportsFeature } = await import('../src/capabilities.js');
    for (const tag of ['shape.plane.unbounded', 'shape.plane.bounded', 'shape.plane.single-sided', 'geometry.node.children', 'collider.scale.negative', 'body.mass.zero', 'joint.no-limits']) {
      assert.ok(supportsFeature(tag), tag);
    }
    for (const tag of ['shape.plane.double-sided', 'geometry.node.skinned', 'geometry.node.morphed', 'shape.mesh.skinned', 'geometry.skin', 'shape.morph-weights']) {
      assert.ok(!supportsFeature(tag), tag);
    }
  });

  test('refuses another protocol version', async () => {
    const answer = await adapter.call('handshake', { protocol_version: 1 });
    assert.equal(answer.error?.error, 'bad_request');
  });
});

describe('dynamics', () => {
  test('a falling sphere follows x = 1/2 g t^2 within 1%', async (t) => {
    // 240 substeps of h = 1/240 s: semi-implicit Euler gives x_n = g h^2 n (n + 1) / 2
    // = 9.81 / 57600 * 240 * 241 / 2 = 4.9254 m against 1/2 g t^2 = 4.905 m (+0.42%),
    // and v_n = g h n = 9.81 m/s exactly.
    await timed(t, async () => {
      await load(khrDoc({
        shapes: [SPHERE],
        nodes: [khrNode({ motion: { mass: 2 }, collider: { shape: 0 } }, { translation: [0, 10, 0] })],
      }), { substeps: 4 });
      await adapter.ok('step', { steps: 60 });
      const s = await adapter.ok('observe');
      assert.ok(Math.abs(s.time - 1) < 1e-12, `time ${s.time}`);
      const fallen = 10 - nodeState(s, 0).translation[1];
      const expected = 0.5 * 9.81 * 1 ** 2;
      assert.ok(Math.abs(fallen - expected) / expected < 0.01, `fell ${fallen} m, expected ${expected}`);
      assert.ok(Math.abs(nodeState(s, 0).linear_velocity[1] + 9.81) < 1e-3, `v ${nodeState(s, 0).linear_velocity}`);
    });
  });

  test('a static body never moves while a dynamic one lands on it', async (t) => {
    await timed(t, async () => {
      // OMI: a static body, turned 0.2 rad about Z, with a box 4 x 1 x 4 (top near y = 0) and
      // a rigid 0.5 m cube above it (the default friction 0.5 > tan 0.2 holds it on the slope).
      await load({
        asset: { version: '2.0' },
        extensionsUsed: ['OMI_physics_body', 'OMI_collider'],
        extensions: { OMI_collider: { colliders: [{ type: 'box', size: [4, 1, 4] }, { type: 'box', size: [0.5, 0.5, 0.5] }] } },
        nodes: [
          { translation: [0, -0.5, 0], rotation: [0, 0, 0.0998334, 0.9950042], children: [1], extensions: { OMI_physics_body: { type: 'static' } } },
          { extensions: { OMI_collider: { collider: 0 } } },
          { translation: [0, 2, 0], children: [3], extensions: { OMI_physics_body: { type: 'rigid', mass: 3 } } },
          { extensions: { OMI_collider: { collider: 1 } } },
        ],
        scene: 0,
        scenes: [{ nodes: [0, 2] }],
      }, { profile: 'omi-2023' });
      const before0 = nodeState(await adapter.ok('observe'), 0);
      let touched = false;
      for (let i = 0; i < 12; i++) {
        await adapter.ok('step', { steps: 10 });
        const s = await adapter.ok('observe');
        const ground = nodeState(s, 0);
        assert.deepEqual(ground.translation, before0.translation);
        assert.deepEqual(ground.rotation, before0.rotation);
        assert.deepEqual(ground.linear_velocity, [0, 0, 0]);
        touched ||= s.contacts.some(([a, b]) => a === 1 && b === 3);
      }
      assert.ok(touched, 'the cube reached the static box');
      const s = await adapter.ok('observe');
      assert.ok(nodeState(s, 2).translation[1] > 0.1, 'the cube rests on the box, not through it');
    });
  });

  test('a hinge stays within its limits', async (t) => {
    // World-to-body hinge about Z at the origin: 3 linear axes max 0 (pinned), angular X and Y
    // at 0 (a cone of 0 about Z) and a twist about Z in [-0.5, 0.5]. The body's centre is 1 m
    // along +X, so gravity swings it down (negative angle about Z) onto the lower limit.
    await timed(t, async () => {
      const notes = await load(khrDoc({
        shapes: [{ type: 'box', box: { size: [0.2, 0.2, 0.2] } }],
        joints: [{ limits: [
          { linearAxes: [0, 1, 2], max: 0 },
          { angularAxes: [0, 1], min: 0, max: 0 },
          { angularAxes: [2], min: -0.5, max: 0.5 },
        ] }],
        nodes: [
          khrNode({ joint: { connectedNode: 2, joint: 0 } }),
          khrNode({ motion: { mass: 1 }, collider: { shape: 0 } }, { translation: [1, 0, 0], children: [2] }),
          { translation: [-1, 0, 0] },
        ],
      }), { substeps: 2 });
      assert.deepEqual(notes, []);
      let lowest = 0;
      for (let i = 0; i < 24; i++) {
        await adapter.ok('step', { steps: 10 });
        const q = nodeState(await adapter.ok('observe'), 1).rotation;
        const angle = 2 * Math.atan2(q[2], q[3]); // twist about Z (q has no X, Y part)
        lowest = Math.min(lowest, angle);
        assert.ok(Math.abs(angle) <= 0.5 + 0.005, `angle ${angle} outside [-0.5, 0.5] (+0.005)`);
        assert.ok(Math.hypot(q[0], q[1]) < 1e-3, `rotation off the hinge axis: ${q}`);
      }
      assert.ok(lowest < -0.45, `the body reached its lower limit (lowest ${lowest})`);
    });
  });

  test('a filtered pair never reports contact (and an unfiltered one does)', async (t) => {
    await timed(t, async () => {
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
      const pairs = (await adapter.ok('interpretation')).pairs;
      assert.equal(pairs.find((p) => p.a === 0 && p.b === 1).collide, false);
      assert.equal(pairs.find((p) => p.a === 0 && p.b === 2).collide, true);
      let control = false;
      for (let i = 0; i < 12; i++) {
        await adapter.ok('step', { steps: 10 });
        const s = await adapter.ok('observe');
        assert.ok(!s.contacts.some(([a, b]) => a === 0 && b === 1), `filtered pair in contacts ${JSON.stringify(s.contacts)}`);
        control ||= s.contacts.some(([a, b]) => a === 0 && b === 2);
      }
      const s = await adapter.ok('observe');
      assert.ok(control, 'the unfiltered sphere touched the ground');
      assert.ok(nodeState(s, 1).translation[1] < -2, 'the filtered sphere fell through');
      assert.ok(nodeState(s, 2).translation[1] > 0.4, 'the unfiltered sphere rests on the ground');
    });
  });

  test('a trigger reports enter and exit, and never pushes', async (t) => {
    await timed(t, async () => {
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
      assert.deepEqual(events, [
        { kind: 'enter', trigger: 0, other: 1 },
        { kind: 'exit', trigger: 0, other: 1 },
      ]);
      // Free fall for 1 s: v = g t whatever the trigger did.
      const s = await adapter.ok('observe');
      assert.ok(Math.abs(nodeState(s, 1).linear_velocity[1] + 9.81) < 1e-3);
      assert.deepEqual(s.contacts, []);
    });
  });

  test('a compound trigger reports as its own node', async () => {
    await load(khrDoc({
      shapes: [{ type: 'box', box: { size: [4, 0.2, 4] } }, SPHERE],
      nodes: [
        khrNode({ trigger: { nodes: [1] } }, { children: [1] }),
        khrNode({ trigger: { shape: 0 } }),
        khrNode({ motion: {}, collider: { shape: 1 } }, { translation: [0, 2, 0] }),
      ],
    }));
    await adapter.ok('step', { steps: 60 });
    const events = (await adapter.ok('observe')).trigger_events;
    assert.deepEqual(events.map((e) => [e.kind, e.trigger, e.other]), [['enter', 0, 2], ['exit', 0, 2]]);
  });
});

describe('drives and actions', () => {
  test('drives reach their targets with the spec\'s signs', async (t) => {
    // World-to-body joint, frames at the body's origin, no gravity. Linear drive on Y to the
    // position target 0.3 (stiffness 400, damping 40, acceleration mode: critically damped,
    // omega = 20 rad/s); angular drive about Y at the velocity target +2 rad/s (damping 50,
    // acceleration mode). Everything else is free.
    await timed(t, async () => {
      await load(khrDoc({
        shapes: [{ type: 'box', box: { size: [0.4, 0.4, 0.4] } }],
        joints: [{
          limits: [{ linearAxes: [0, 2], max: 0 }],
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
      assert.ok(Math.abs(s.translation[1] - 0.3) < 0.005, `y ${s.translation[1]}`);
      assert.ok(Math.abs(s.angular_velocity[1] - 2) < 0.02, `w ${s.angular_velocity}`);
    });
  });

  test('kinematic velocity, kinematic pose and impulses', async () => {
    // Kinematic body turned 90 degrees about Z with local velocity +X: world +Y at 1 m/s.
    const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2];
    await load(khrDoc({
      shapes: [SPHERE],
      nodes: [
        khrNode({ motion: { isKinematic: true, linearVelocity: [1, 0, 0] }, collider: { shape: 0 } }, { rotation: q }),
        khrNode({ motion: { mass: 2 }, collider: { shape: 0 } }, { translation: [5, 0, 0] }),
        khrNode({ motion: { isKinematic: true }, collider: { shape: 0 } }, { translation: [-5, 0, 0] }),
      ],
    }), { gravity: [0, 0, 0] });
    // An impulse of 4 N s on 2 kg: 2 m/s along +Z.
    await adapter.ok('apply', { action: 'impulse', node: 1, impulse: [0, 0, 4] });
    await adapter.ok('apply', { action: 'kinematic_pose', node: 2, translation: [-5, 1, 0], rotation: [0, 0, 0, 1] });
    await adapter.ok('step', { steps: 60 });
    const s = await adapter.ok('observe');
    assert.ok(Math.abs(nodeState(s, 0).translation[1] - 1) < 1e-4, `${nodeState(s, 0).translation}`);
    assert.ok(Math.abs(nodeState(s, 1).linear_velocity[2] - 2) < 1e-4);
    assert.ok(Math.abs(nodeState(s, 1).translation[2] - 2) < 1e-3);
    assert.ok(Math.abs(nodeState(s, 2).translation[1] - 1) < 1e-6, `${nodeState(s, 2).translation}`);
    const refused = await adapter.call('apply', { action: 'impulse', node: 0, impulse: [1, 0, 0] });
    assert.equal(refused.error?.error, 'not_supported');
  });
});

describe('materials', () => {
  // Friction of box A: average 0.2; ground G: multiply 0.8; box B: minimum 0.2; ground H:
  // maximum 0.8. Spec [D-COMBINE]: A-G average -> (0.2 + 0.8) / 2 = 0.5 (PhysX alone would
  // take multiply -> 0.16); B-H minimum -> 0.2 (PhysX alone: maximum -> 0.8). Restitution
  // modes are unset everywhere: PhysX's average of 0 and 0 = 0.
  const doc = () => khrDoc({
    shapes: [{ type: 'box', box: { size: [20, 1, 2] } }, { type: 'box', box: { size: [0.5, 0.5, 0.5] } }],
    materials: [
      { staticFriction: 0.2, dynamicFriction: 0.2, frictionCombine: 'average' },
      { staticFriction: 0.8, dynamicFriction: 0.8, frictionCombine: 'multiply' },
      { staticFriction: 0.2, dynamicFriction: 0.2, frictionCombine: 'minimum' },
      { staticFriction: 0.8, dynamicFriction: 0.8, frictionCombine: 'maximum' },
    ],
    nodes: [
      khrNode({ collider: { shape: 0, physicsMaterial: 1 } }, { translation: [0, -0.5, 0] }),
      khrNode({ motion: { mass: 1, linearVelocity: [2, 0, 0] }, collider: { shape: 1, physicsMaterial: 0 } }, { translation: [0, 0.25, 0] }),
      khrNode({ collider: { shape: 0, physicsMaterial: 3 } }, { translation: [0, -0.5, 5] }),
      khrNode({ motion: { mass: 1, linearVelocity: [2, 0, 0] }, collider: { shape: 1, physicsMaterial: 2 } }, { translation: [0, 0.25, 5] }),
    ],
  });

  test('combine precedence is the spec\'s in the pair report', async () => {
    await load(doc());
    const pairs = (await adapter.ok('interpretation')).pairs;
    const pair = (a, b) => pairs.find((p) => p.a === a && p.b === b);
    const close = (x, y) => Math.abs(x - y) < 1e-6;
    assert.ok(close(pair(0, 1).static_friction, 0.5) && close(pair(0, 1).dynamic_friction, 0.5), JSON.stringify(pair(0, 1)));
    assert.ok(close(pair(2, 3).static_friction, 0.2) && close(pair(2, 3).dynamic_friction, 0.2), JSON.stringify(pair(2, 3)));
    // Cross pairs: A-H average 0.5; B-G minimum 0.2.
    assert.ok(close(pair(1, 2).dynamic_friction, 0.5), JSON.stringify(pair(1, 2)));
    assert.ok(close(pair(0, 3).dynamic_friction, 0.2), JSON.stringify(pair(0, 3)));
    assert.equal(pair(0, 1).restitution, 0);
  });

  test('pairs that never touch report the spec\'s combination too (regression)', async () => {
    // corpus khr/gen/body/00464, material/01204, trigger/00852: a pair PhysX never lets touch
    // (a trigger, a filtered pair, bodies joined without enableCollision) has no shape copy
    // with the pair's modes; it used to be read from the colliders' first copies, whose own
    // modes PhysX combines by its precedence. Materials: M friction minimum (dynamic 0.6),
    // restitution 0.6 multiply; X friction maximum (dynamic 1.0), restitution 0.5 without a
    // mode. Spec: minimum -> min(0.6, 1.0) = 0.6 (PhysX's precedence: maximum -> 1.0);
    // restitution multiply -> 0.6 * 0.5 = 0.3.
    const mats = [
      { staticFriction: 0.5, dynamicFriction: 0.6, restitution: 0.6, frictionCombine: 'minimum', restitutionCombine: 'multiply' },
      { staticFriction: 0.9, dynamicFriction: 1.0, restitution: 0.5, frictionCombine: 'maximum' },
    ];
    await load(khrDoc({
      shapes: [SPHERE],
      materials: mats,
      filters: [{ collisionSystems: ['a'], notCollideWithSystems: ['b'] }, { collisionSystems: ['b'] }],
      nodes: [
        khrNode({ motion: {}, collider: { shape: 0, physicsMaterial: 0 } }, { translation: [0, 0, 0] }),
        khrNode({ trigger: { shape: 0 } }, { translation: [5, 0, 0] }),
        khrNode({ motion: {}, collider: { shape: 0, physicsMaterial: 0, collisionFilter: 0 } }, { translation: [10, 0, 0] }),
        khrNode({ motion: {}, collider: { shape: 0, physicsMaterial: 1, collisionFilter: 1 } }, { translation: [15, 0, 0] }),
      ],
    }));
    const pairs = (await adapter.ok('interpretation')).pairs;
    const pair = (a, b) => pairs.find((p) => p.a === a && p.b === b);
    const close = (x, y) => Math.abs(x - y) < 1e-6;
    // The filtered pair 2-3 (2 refuses b): minimum friction, multiply restitution.
    assert.equal(pair(2, 3).collide, false);
    assert.ok(close(pair(2, 3).dynamic_friction, 0.6), JSON.stringify(pair(2, 3)));
    assert.ok(close(pair(2, 3).static_friction, 0.5), JSON.stringify(pair(2, 3)));
    assert.ok(close(pair(2, 3).restitution, 0.3), JSON.stringify(pair(2, 3)));
    // The pair 0-3 can touch (a shape copy exists): the same numbers.
    assert.ok(close(pair(0, 3).dynamic_friction, 0.6) && close(pair(0, 3).restitution, 0.3), JSON.stringify(pair(0, 3)));
    // The trigger (no material: 0.5, 0.5, 0, no modes) with X: friction maximum -> 1.0 (the
    // trigger's only copy has average modes: 0.75), restitution average -> 0.25.
    assert.ok(close(pair(1, 3).dynamic_friction, 1.0) && close(pair(1, 3).restitution, 0.25), JSON.stringify(pair(1, 3)));
  });

  test('PhysX slides with the spec\'s combined friction', async (t) => {
    // A box sliding at v0 = 2 m/s stops after v0^2 / (2 mu g): mu 0.5 -> 0.408 m (PhysX's own
    // multiply would give 0.16 -> 1.27 m); mu 0.2 -> 1.019 m (its maximum 0.8 -> 0.255 m).
    await timed(t, async () => {
      await load(doc(), { substeps: 4 });
      await adapter.ok('step', { steps: 120 });
      const s = await adapter.ok('observe');
      const a = nodeState(s, 1).translation[0];
      const b = nodeState(s, 3).translation[0];
      assert.ok(Math.abs(a - 0.408) < 0.05, `mu 0.5 slid ${a} m`);
      assert.ok(Math.abs(b - 1.019) < 0.1, `mu 0.2 slid ${b} m`);
    });
  });
});

describe('interpretation', () => {
  test('bodies, colliders and joint frames as PhysX holds them', async () => {
    // KHR: mass 0 is infinite; inertia diagonal (1, 0, 2) has an infinite Y moment; velocities
    // are local: the body is turned 90 degrees about Z, so local +X is world +Y.
    const s = Math.SQRT1_2;
    await load(khrDoc({
      shapes: [{ type: 'capsule', capsule: { height: 1, radiusTop: 0.25, radiusBottom: 0.25 } }],
      joints: [{ limits: [{ linearAxes: [0, 1, 2], max: 0 }] }],
      nodes: [
        khrNode({ motion: { mass: 0, inertiaDiagonal: [1, 0, 2], linearVelocity: [1, 0, 0] }, collider: { shape: 0 } }, { rotation: [0, 0, s, s], translation: [0, 3, 0] }),
        khrNode({ motion: { mass: 2, centerOfMass: [0, 0.1, 0] }, collider: { shape: 0 } }, { translation: [2, 0, 0], children: [2] }),
        khrNode({ joint: { connectedNode: 0, joint: 0 } }, { translation: [0, 0.5, 0] }),
      ],
    }), { gravity: [0, 0, 0] });
    const it = await adapter.ok('interpretation');
    const b0 = it.bodies.find((b) => b.node === 0);
    assert.deepEqual(b0.mass, { kind: 'infinite' });
    assert.equal(b0.inertia_diagonal[1].kind, 'infinite');
    assert.ok(Math.abs(b0.inertia_diagonal[0].value - 1) < 1e-6);
    assert.ok(Math.abs(b0.linear_velocity[1] - 1) < 1e-6 && Math.abs(b0.linear_velocity[0]) < 1e-6, `${b0.linear_velocity}`);
    const b1 = it.bodies.find((b) => b.node === 1);
    assert.ok(Math.abs(b1.mass.value - 2) < 1e-6);
    assert.ok(Math.abs(b1.center_of_mass[1] - 0.1) < 1e-6);
    // The capsule is reported along +Y with the cap-centre distance, whatever PhysX's X axis.
    const c0 = it.colliders.find((c) => c.node === 0);
    assert.equal(c0.shape, 'capsule');
    assert.ok(Math.abs(c0.parameters.height - 1) < 1e-6 && Math.abs(c0.parameters.radius_top - 0.25) < 1e-6);
    assert.ok(Math.abs(c0.rotation[3] - 1) < 1e-6, `local rotation ${c0.rotation}`);
    // Joint frames: A = node 2 relative to body 1 (0, 0.5, 0); B = node 0 relative to itself.
    const j = it.joints[0];
    assert.deepEqual(j.bodies, [1, 0]);
    assert.ok(j.frames[0].translation.every((x, i) => Math.abs(x - [0, 0.5, 0][i]) < 1e-6), JSON.stringify(j.frames));
    assert.ok(j.frames[1].translation.every((x) => Math.abs(x) < 1e-6), JSON.stringify(j.frames));
    // Protocol 2: the limits as read (an absent min is open, no stiffness is hard), no drives.
    assert.deepEqual(j.limits, [{ kind: 'linear', axes: [0, 1, 2], min: null, max: 0, stiffness: null, damping: 0 }]);
    assert.deepEqual(j.drives, []);
    assert.ok(it.bodies.every((b) => b.gravity_factor === 1), JSON.stringify(it.bodies));
  });

  test('limits, drives and gravity factors in canonical form', async () => {
    // KHR: a soft angular limit open below, a force-limited drive without a velocity target
    // (damping defaults to 0), and a gravity factor of 0.5.
    await load(khrDoc({
      shapes: [SPHERE],
      joints: [{
        limits: [{ angularAxes: [2], max: 0.5, stiffness: 10, damping: 2 }],
        drives: [{ type: 'angular', mode: 'force', axis: 2, maxForce: 4, positionTarget: 0.25, stiffness: 30 }],
      }],
      nodes: [
        khrNode({ motion: { gravityFactor: 0.5 }, collider: { shape: 0 }, joint: { connectedNode: 1, joint: 0 } }),
        { translation: [0, 1, 0] },
      ],
    }));
    const it = await adapter.ok('interpretation');
    assert.equal(it.bodies[0].gravity_factor, 0.5);
    assert.deepEqual(it.joints[0].limits, [{ kind: 'angular', axes: [2], min: null, max: 0.5, stiffness: 10, damping: 2 }]);
    assert.deepEqual(it.joints[0].drives, [{
      kind: 'angular', axis: 2, mode: 'force', max_force: 4, position_target: 0.25, velocity_target: null, stiffness: 30, damping: 0,
    }]);
  });
});

describe('not supported', () => {
  test('a limit on the total rotation angle is refused at load', async () => {
    await adapter.ok('configure', { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 1 });
    const answer = await adapter.call('load', { path: writeScene(khrDoc({
      shapes: [SPHERE],
      joints: [{ limits: [{ angularAxes: [0, 1, 2], max: 1 }] }],
      nodes: [khrNode({ motion: {}, collider: { shape: 0 }, joint: { connectedNode: 1, joint: 0 } }), { translation: [0, 1, 0] }],
    })), profile: 'khr-2024-draft' });
    assert.equal(answer.error?.error, 'not_supported', JSON.stringify(answer));
    // Nothing is left loaded.
    assert.equal((await adapter.call('observe')).error?.error, 'bad_request');
  });

  test('VRM constraints and profiles outside the capabilities', async () => {
    assert.equal((await adapter.call('evaluate_constraints', { poses: {} })).error?.error, 'not_supported');
    const vrm = await adapter.call('load', { path: writeScene({ asset: { version: '2.0' } }), profile: 'vrmc-constraints-draft' });
    assert.equal(vrm.error?.error, 'not_supported');
  });

  test('an unreadable file is rejected, not an error', async () => {
    const out = await adapter.ok('load', { path: '/nonexistent/scene.gltf', profile: 'khr-2024-draft' });
    assert.equal(out.outcome, 'rejected');
  });
});

describe('batch', () => {
  const FALLING = () => khrDoc({
    shapes: [SPHERE],
    nodes: [khrNode({ motion: { mass: 2 }, collider: { shape: 0 } }, { translation: [0, 10, 0] })],
  });
  const CONFIG = { gravity: [0, -9.81, 0], dt: 1 / 60, substeps: 1 };

  test('a batch answers what the same requests one by one answer', async () => {
    const requests = [
      { op: 'configure', ...CONFIG },
      { op: 'observe' },
      { op: 'step', steps: 30 },
      { op: 'apply', action: 'impulse', node: 0, impulse: [4, 0, 0] },
      { op: 'step', steps: 30 },
      { op: 'observe' },
    ];
    await load(FALLING());
    const batched = await adapter.ok('batch', { requests });
    await load(FALLING());
    const single = [];
    for (const { op, ...params } of requests) single.push(await adapter.ok(op, params));
    assert.deepEqual(batched, single);
    assert.deepEqual(batched.map((r) => r === null), [true, false, true, true, true, false]);
    // 60 steps of 1/60 s; the impulse of 4 N s on 2 kg gives 2 m/s along x.
    assert.ok(Math.abs(batched[5].time - 1) < 1e-12, `time ${batched[5].time}`);
    assert.ok(Math.abs(nodeState(batched[5], 0).linear_velocity[0] - 2) < 1e-6, JSON.stringify(batched[5]));
  });

  test('the first failing request is the answer and the rest are not run', async () => {
    await load(FALLING());
    const answer = await adapter.call('batch', { requests: [
      { op: 'step', steps: 1 },
      { op: 'observe' },
      { op: 'step', steps: -1 },
      { op: 'step', steps: 5 },
    ] });
    assert.equal(answer.error?.error, 'bad_request', JSON.stringify(answer));
    assert.match(answer.error.message, /steps/);
    // One step ran (1/60 s), not the last five.
    assert.ok(Math.abs((await adapter.ok('observe')).time - 1 / 60) < 1e-12);
  });

  test('a batch holding another operation is refused whole', async () => {
    await load(FALLING());
    for (const requests of [
      [{ op: 'step', steps: 2 }, { op: 'load', path: '/nowhere.gltf', profile: 'khr-2024-draft' }],
      [{ op: 'step', steps: 2 }, { op: 'batch', requests: [] }],
      [{ op: 'step', steps: 2 }, 'observe'],
      { op: 'step', steps: 2 },
    ]) {
      const answer = await adapter.call('batch', { requests });
      assert.equal(answer.error?.error, 'bad_request', JSON.stringify(answer));
    }
    assert.equal((await adapter.ok('observe')).time, 0, 'no step ran');
    assert.deepEqual(await adapter.ok('batch', { requests: [] }), []);
  });
});

describe('robustness', () => {
  test('garbage lines get bad_request and the adapter keeps serving', async () => {
    const cases = [
      ['garbage', null],
      ['[1, 2, 3]', null],
      ['{"op": "handshake"}', null],
      ['{"seq": 5}', 5],
      ['{"seq": 6, "op": "fly"}', 6],
      ['{"seq": 7, "op": "step", "steps": -1}', 7],
      ['{"seq": 8, "op": "configure", "gravity": [0, "NaN", 0], "dt": 0.01, "substeps": 1}', 8],
      ['{"seq": 9, "op": "step", "steps": 1}', 9],
      ['{"seq": 10, "op": "apply", "action": "teleport", "node": 0}', 10],
    ];
    await adapter.ok('unload');
    for (const [line, seq] of cases) {
      const answer = await adapter.raw(line);
      assert.equal(answer.seq, seq, line);
      assert.equal(answer.error?.error, 'bad_request', `${line}: ${JSON.stringify(answer)}`);
    }
    assert.equal((await adapter.ok('handshake', { protocol_version: 2 })).name, 'physx-node');
  });

  test('non-finite numbers travel as strings', async () => {
    // An infinite mass is reported through the enum, and infinite inertia moments too; a
    // configure with the string "Infinity" for dt is refused as not finite.
    const answer = await adapter.call('configure', { gravity: [0, 0, 0], dt: 'Infinity', substeps: 1 });
    assert.equal(answer.error?.error, 'bad_request');
    assert.match(answer.error.message, /finite/);
  });
});
