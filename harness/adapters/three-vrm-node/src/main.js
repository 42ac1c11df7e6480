#!/usr/bin/env node
// physics-cts adapter for three-vrm's node constraints (three.js GLTFLoader with the unmodified
// @pixiv/three-vrm-node-constraint plugin): speaks the harness's stdio protocol (see
// ../README.md). Usage: node src/main.js
import { Adapter } from './adapter.js';
import { serve } from '../../kit/src/protocol.js';

try {
  await serve(new Adapter(), process.stdin, process.stdout, { exitOnTrap: false });
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
} catch (error) {
  process.stderr.write(`three-vrm-node adapter failed: ${error?.stack ?? error}\n`);
  process.exit(1);
}
