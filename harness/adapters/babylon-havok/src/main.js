#!/usr/bin/env node
// physics-cts adapter for Babylon.js + Havok with the unmodified babylon-gltf-rigid-body-loader:
// speaks the harness's stdio protocol (see ../README.md).
// Usage: node src/main.js [--loader PATH]
// Exit code 3 (and a message on stderr) when node_modules or the loader folder is missing.
import { Unavailable, checkInstalled, compileLoader, loaderDir, loaderSources, loaderVersion } from './setup.js';

export const EXIT_UNAVAILABLE = 3;

let build;
let dir;
try {
  checkInstalled();
  dir = loaderDir();
  loaderSources(dir);
  build = compileLoader(dir);
} catch (error) {
  if (error instanceof Unavailable) {
    process.stderr.write(`${error.message}\n`);
    process.exit(EXIT_UNAVAILABLE);
  }
  process.stderr.write(`babylon-havok adapter failed: ${error?.stack ?? error}\n`);
  process.exit(1);
}

try {
  await import('./register-hook.js');
  const { createRuntime } = await import('./runtime.js');
  const { Adapter } = await import('./adapter.js');
  const { serve } = await import('../../kit/src/protocol.js');
  const runtime = await createRuntime(build);
  // As before the kit: a WebAssembly trap answers its request as an error and the process goes on.
  await serve(new Adapter(runtime, { dir, version: loaderVersion(dir) }), process.stdin, process.stdout, { exitOnTrap: false });
  await new Promise((resolve) => process.stdout.write('', resolve));
  process.exit(0);
} catch (error) {
  process.stderr.write(`babylon-havok adapter failed: ${error?.stack ?? error}\n`);
  process.exit(1);
}
