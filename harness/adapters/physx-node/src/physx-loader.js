// The one place that knows how physx-js-webidl is made to run under Node.
//
// The package is an Emscripten build for browsers only (`-sENVIRONMENT=web`): its factory throws
// when it sees Node (`process.versions.node`) and wants `window` (or a worker scope) to exist, and
// it would `fetch` the .wasm next to the .mjs. The shim, for the synchronous start of the factory
// only (where the environment is probed), hides `globalThis.process` and shows a stub `window`;
// it hands the wasm bytes over through `instantiateWasm`, so nothing is fetched. Both globals are
// restored before the first `await`, so the rest of the process never sees them.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Path of the package's module file (the .wasm sits beside it). */
function packageFile(name) {
  return require.resolve(`physx-js-webidl/${name}`);
}

/** The exact version of the bound package, for the handshake. */
export function packageVersion() {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8'));
  return pkg.version;
}

/** Load the PhysX module: resolves to the Emscripten module object (`PhysX.PxFoundation`...). */
export async function loadPhysX() {
  const { default: factory } = await import(packageFile('physx-js-webidl.mjs'));
  const wasm = readFileSync(packageFile('physx-js-webidl.wasm'));
  const moduleArg = {
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(wasm, imports).then(
        ({ instance, module }) => receive(instance, module),
        (error) => process.stderr.write(`physx wasm instantiation failed: ${error}\n`),
      );
      return {};
    },
    // Emscripten's own console output goes to stderr: stdout carries the protocol only.
    print: (text) => process.stderr.write(`[physx] ${text}\n`),
    printErr: (text) => process.stderr.write(`[physx] ${text}\n`),
  };
  const processDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'process');
  const hadWindow = Object.prototype.hasOwnProperty.call(globalThis, 'window');
  let pending;
  try {
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    if (!hadWindow) globalThis.window = {};
    pending = factory(moduleArg); // the environment probes run synchronously in here
  } finally {
    Object.defineProperty(globalThis, 'process', processDescriptor);
    if (!hadWindow) delete globalThis.window;
  }
  return pending;
}
