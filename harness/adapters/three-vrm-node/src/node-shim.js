// The one Node shim of this adapter (keep it small): three.js's FileLoader fetches a glTF's
// external buffers with `fetch(new Request(url))`, and Node's fetch has no `file:` scheme. This
// wraps the global fetch so a `file:` URL answers with the file's bytes; every other URL (the
// `data:` URIs of embedded buffers included) goes to Node's own fetch unchanged. Nothing of
// three.js or three-vrm is patched.

import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const nodeFetch = globalThis.fetch;

export async function fileFetch(input, init) {
  const url = typeof input === 'string' ? input : input.url;
  if (!url.startsWith('file:')) return nodeFetch(input, init);
  try {
    const bytes = await readFile(fileURLToPath(url));
    return new Response(bytes, { status: 200, statusText: 'OK' });
  } catch (error) {
    return new Response(null, { status: 404, statusText: String(error.code ?? error.message) });
  }
}

if (globalThis.fetch !== fileFetch) globalThis.fetch = fileFetch;

// stdout carries the protocol only: three.js's console.log/console.info go to stderr.
console.log = (...args) => console.error(...args);
console.info = (...args) => console.error(...args);
