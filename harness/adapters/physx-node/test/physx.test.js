// PhysX-specific pure parts: PhysX's own combine precedence, and what the handshake declares.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { pairMode } from '../../kit/src/rules.js';
import { supportsFeature } from '../src/capabilities.js';
import { physxPairMode } from '../src/physx-rules.js';

test('spec precedence against PhysX precedence', () => {
  // Spec: average > minimum > maximum > multiply; PhysX: maximum > multiply > minimum > average.
  assert.equal(pairMode('multiply', 'average'), 'average');
  assert.equal(physxPairMode('multiply', 'average'), 'multiply');
  assert.equal(pairMode('maximum', 'minimum'), 'minimum');
  assert.equal(physxPairMode('maximum', 'minimum'), 'maximum');
});

test('declared features follow the harness rule', () => {
  assert.ok(supportsFeature('shape.capsule.defaults'));
  assert.ok(supportsFeature('material.combine.average-minimum'));
  assert.ok(supportsFeature('joint.limit.angular.2'));
  assert.ok(!supportsFeature('joint.limit.angular.3'));
  assert.ok(!supportsFeature('vrm.aim'));
  assert.ok(!supportsFeature('omi.constraint.angular.2'));
});
