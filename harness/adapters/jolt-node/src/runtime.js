// The Jolt module (jolt-physics, WebAssembly, loaded once per process). Physics systems are made
// per loaded scene (world.js); the module and its version live as long as the process.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import initJolt from 'jolt-physics/wasm-compat';

const require = createRequire(import.meta.url);

/** The exact version of the bound package, for the handshake. */
export function packageVersion() {
  const main = require.resolve('jolt-physics/wasm-compat');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', `file://${main}`), 'utf8'));
  return pkg.version;
}

export async function createRuntime() {
  const J = await initJolt();
  return { J, engine: `Jolt Physics (jolt-physics ${packageVersion()}, WebAssembly)` };
}
