#!/usr/bin/env node
// physics-cts adapter for Jolt Physics (jolt-physics, WebAssembly): speaks the harness's stdio
// protocol (see ../README.md). Usage: node src/main.js
import { serve } from '../../kit/src/protocol.js';
import { Adapter } from './adapter.js';
import { createRuntime } from './runtime.js';

try {
  const runtime = await createRuntime();
  await serve(new Adapter(runtime));
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
} catch (error) {
  process.stderr.write(`jolt-node adapter failed: ${error?.stack ?? error}\n`);
  process.exit(1);
}
