// A Node module resolve hook (registered by src/register-hook.js, or `node --import
// ./src/register-hook.js`): the loader's TypeScript compiles to ES modules that keep
// extensionless specifiers (`./KHR_implicit_shapes`, `@babylonjs/core/Meshes/transformNode`),
// which Node's ESM resolver rejects. A specifier that fails to resolve is retried with `.js`,
// then with `/index.js`; nothing else changes, and no source is touched.

const RETRY = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (!RETRY.has(error?.code) || specifier.endsWith('.js') || specifier.startsWith('node:')) throw error;
    for (const suffix of ['.js', '/index.js']) {
      try {
        return await nextResolve(specifier + suffix, context);
      } catch {
        // try the next form
      }
    }
    throw error;
  }
}
