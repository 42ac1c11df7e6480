#!/usr/bin/env node
// physics-cts adapter for PhysX 5 (physx-js-webidl, WebAssembly): speaks the harness's stdio
// protocol (see ../README.md). Usage: node src/main.js
import { Adapter } from './adapter.js';
import { serve } from '../../kit/src/protocol.js';
import { createRuntime } from './runtime.js';

try {
  const runtime = await createRuntime();
  await serve(new Adapter(runtime));
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
} catch (error) {
  process.stderr.write(`physx-node adapter failed: ${error?.stack ?? error}\n`);
  process.exit(1);
}
