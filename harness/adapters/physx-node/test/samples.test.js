// The seed-era sample assets from the shared spec folder (not in the repository): each loads,
// or is refused with a reason; none makes the adapter fail. Skipped when the folder is absent.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { Adapter } from '../src/adapter.js';
import { createRuntime } from '../src/runtime.js';

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
