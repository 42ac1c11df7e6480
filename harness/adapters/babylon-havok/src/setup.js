// What the adapter needs before it can start, and the one-time compilation of the loader.
//
// - The pinned npm packages (`npm ci` in this folder).
// - The loader's folder (babylon-gltf-rigid-body-loader 0.6.0, TypeScript sources, not on npm):
//   `--loader PATH`, else env PHYSICS_CTS_BABYLON_LOADER, else
//   `<repository>/../shared/vendor/babylon-gltf-rigid-body-loader-0.6.0` when it exists.
// - Its sources compiled, unmodified, with the pinned `tsc` into `build/loader/<key>/` (git-ignored;
//   `<key>` hashes the sources, the folder and the TypeScript version, so an edit recompiles).
//   The compiled modules keep extensionless imports; src/resolve-hook.js resolves them.
//
// Missing pieces are reported as `Unavailable` (src/main.js exits with code 3, the harness's
// "not installed here" convention).

import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ADAPTER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(ADAPTER_DIR, '../../..');
export const LOADER_ENV = 'PHYSICS_CTS_BABYLON_LOADER';
export const LOADER_NAME = 'babylon-gltf-rigid-body-loader-0.6.0';
export const DEFAULT_LOADER = resolve(REPO_DIR, '../shared/vendor', LOADER_NAME);
/** The packages `npm ci` installs, each checked by its package.json. */
export const PACKAGES = ['@babylonjs/core', '@babylonjs/loaders', '@babylonjs/havok', 'babylonjs-gltf2interface', 'typescript'];

/** Something the adapter needs is not here: the message says how to get it. */
export class Unavailable extends Error {}

/** The loader folder named by `args` (`--loader PATH` or `--loader=PATH`), the env, or the default. */
export function loaderDir(args = process.argv.slice(2), env = process.env) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--loader' && i + 1 < args.length) return resolve(args[i + 1]);
    if (args[i].startsWith('--loader=')) return resolve(args[i].slice('--loader='.length));
  }
  if (env[LOADER_ENV]) return resolve(env[LOADER_ENV]);
  return DEFAULT_LOADER;
}

/** Throws `Unavailable` unless the npm packages are installed. */
export function checkInstalled() {
  const missing = PACKAGES.filter((p) => !existsSync(join(ADAPTER_DIR, 'node_modules', p, 'package.json')));
  if (missing.length) {
    throw new Unavailable(`babylon: ${missing.join(', ')} not installed: run \`npm ci\` in ${ADAPTER_DIR}`);
  }
}

/** The loader's TypeScript sources (`src/*.ts`), or `Unavailable`. */
export function loaderSources(dir) {
  const src = join(dir, 'src');
  const files = existsSync(src) ? readdirSync(src).filter((f) => f.endsWith('.ts')).sort() : [];
  if (!files.includes('KHR_rigid_bodies.ts') || !files.includes('KHR_implicit_shapes.ts')) {
    throw new Unavailable(
      `babylon: no ${LOADER_NAME} at ${dir} (its src/KHR_rigid_bodies.ts is missing): pass --loader PATH, `
      + `or set ${LOADER_ENV} to the folder of the loader's TypeScript sources (packages/loader of `
      + 'github.com/eoineoineoin/glTF_Physics_Babylon at a920d07; npm does not serve it)',
    );
  }
  return files.map((f) => join(src, f));
}

export function packageVersion(name) {
  return JSON.parse(readFileSync(join(ADAPTER_DIR, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** The loader's own package.json version (for the handshake). */
export function loaderVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * Compile the loader (once per content): returns the folder of its compiled modules. A
 * concurrent process may compile too; each writes into its own temporary folder and renames it
 * into place, so a reader never sees a half-written build.
 */
export function compileLoader(dir, { log = (m) => process.stderr.write(`${m}\n`) } = {}) {
  checkInstalled();
  const sources = loaderSources(dir);
  const hash = createHash('sha256');
  hash.update(`${dir}\0${packageVersion('typescript')}\0`);
  for (const f of sources) hash.update(`${f}\0`).update(readFileSync(f)).update('\0');
  const key = hash.digest('hex').slice(0, 16);
  const out = join(ADAPTER_DIR, 'build', 'loader', key);
  if (existsSync(join(out, 'KHR_rigid_bodies.js'))) return out;
  const tmp = `${out}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  // The loader's own tsconfig extends its repository's root one (not shipped): the options the
  // vendor README gives, with ES2020 modules and bundler resolution; bare `@babylonjs/*` imports
  // are type-checked against this adapter's pinned packages.
  const tsconfig = {
    compilerOptions: {
      target: 'ES2020',
      module: 'ESNext',
      moduleResolution: 'bundler',
      skipLibCheck: true,
      strict: true,
      lib: ['dom', 'es2020'],
      types: [],
      rootDir: join(dir, 'src'),
      outDir: tmp,
      baseUrl: ADAPTER_DIR,
      paths: {
        '@babylonjs/*': ['node_modules/@babylonjs/*'],
        'babylonjs-gltf2interface': ['node_modules/babylonjs-gltf2interface'],
      },
    },
    files: sources,
  };
  const config = join(tmp, 'tsconfig.json');
  writeFileSync(config, JSON.stringify(tsconfig, null, 2));
  log(`babylon: compiling ${dir} with typescript ${packageVersion('typescript')} into ${out}`);
  try {
    execFileSync(process.execPath, [join(ADAPTER_DIR, 'node_modules/typescript/bin/tsc'), '-p', config], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    const text = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim();
    throw new Error(`tsc failed on ${dir}: ${text || error.message}`);
  }
  try {
    renameSync(tmp, out);
  } catch (error) {
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(out, 'KHR_rigid_bodies.js'))) throw error;
  }
  return out;
}
