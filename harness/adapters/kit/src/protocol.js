// The stdio protocol: one JSON request per line on stdin, one JSON answer per line on stdout.
// Requests are {"seq": N, "op": "<op>", ...params}; answers {"seq": N, "ok": result} or
// {"seq": N, "error": {"error": "not_supported" | "failed" | "bad_request", "message": "..."}}.
// A `batch` request ({"seq": N, "op": "batch", "requests": [{"op": "step", "steps": 4}, ...]})
// runs scenario requests in order and answers the list of their results, or the error of the
// first that failed (the rest are not run); the handshake declares it.
// Non-finite numbers travel as the strings "Infinity", "-Infinity" and "NaN" (a BigInt as a
// number). stdout carries the protocol only; logging goes to stderr. An adapter's operations may
// answer synchronously (physx-node, jolt-node) or with a promise (three-vrm-node, babylon-havok):
// requests are answered one at a time, in order.

import { createInterface } from 'node:readline';

import { BadRequest } from './errors.js';

const OPS = ['handshake', 'load', 'interpretation', 'configure', 'step', 'observe', 'apply', 'evaluate_constraints', 'unload', 'batch', 'shutdown'];
/** The operations a batch may hold: those of a scenario's run. */
export const BATCH_OPS = ['configure', 'step', 'observe', 'apply'];
/** A longer line is refused unread (bad_request), so a runaway peer cannot exhaust memory. */
export const MAX_LINE = 16 * 1024 * 1024;

/** JSON text of a message, non-finite numbers spelled as strings. */
export function encode(message) {
  return JSON.stringify(message, (_key, value) => {
    if (typeof value === 'bigint') return Number(value);
    if (typeof value !== 'number' || Number.isFinite(value)) return value;
    if (Number.isNaN(value)) return 'NaN';
    return value > 0 ? 'Infinity' : '-Infinity';
  });
}

/** The answer to one request line (never rejects). `stop` is set after `shutdown`. */
export async function answer(adapter, line) {
  let seq = null;
  try {
    if (line.length > MAX_LINE) throw new BadRequest(`line of ${line.length} bytes exceeds ${MAX_LINE}`);
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      throw new BadRequest(`not JSON: ${error.message}`);
    }
    if (request === null || typeof request !== 'object' || Array.isArray(request)) throw new BadRequest('a request must be a JSON object');
    if (Number.isInteger(request.seq) && request.seq >= 0) seq = request.seq;
    else throw new BadRequest('a request needs a non-negative integer seq');
    const { op } = request;
    if (!OPS.includes(op)) throw new BadRequest(`unknown op ${JSON.stringify(op)}`);
    if (op === 'shutdown') {
      adapter.unload();
      return { message: { seq, ok: null }, stop: true };
    }
    const result = op === 'batch' ? await batch(adapter, request) : await adapter[op](request);
    return { message: { seq, ok: result ?? null } };
  } catch (error) {
    const kind = error?.kind && error.kind !== 'rejected' ? error.kind : 'failed';
    const fatal = error instanceof WebAssembly.RuntimeError;
    if (!error?.kind) process.stderr.write(`${error?.stack ?? error}\n`);
    return { message: { seq, error: { error: kind, message: String(error?.message ?? error) } }, fatal };
  }
}

/** The results of a batch's requests, each run as if it came alone. The whole list is checked
 * before any runs (a batch that cannot be read is refused whole); the first error thrown ends
 * it and becomes the batch's answer. */
export async function batch(adapter, request) {
  const { requests } = request;
  if (!Array.isArray(requests)) throw new BadRequest('batch needs an array of requests');
  requests.forEach((r, i) => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) throw new BadRequest(`batch request ${i}: not a JSON object`);
    if (!BATCH_OPS.includes(r.op)) throw new BadRequest(`batch request ${i}: ${JSON.stringify(r.op)} cannot be in a batch`);
  });
  const results = [];
  for (const r of requests) results.push((await adapter[r.op](r)) ?? null);
  return results;
}

/**
 * Serve `adapter` on stdin/stdout until shutdown or end of input. `exitOnTrap` (default true):
 * a WebAssembly trap ends the process (exit 70) after its answer, so the harness restarts a
 * clean one; an adapter whose engine survives its traps passes false.
 */
export async function serve(adapter, input = process.stdin, output = process.stdout, { exitOnTrap = true } = {}) {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const { message, stop, fatal } = await answer(adapter, line);
    output.write(`${encode(message)}\n`);
    if (stop) break;
    if (fatal && exitOnTrap) {
      // A trap inside the WebAssembly module leaves the engine in an unknown state: die, so the
      // harness restarts a clean process.
      process.stderr.write('the engine (WebAssembly) trapped; exiting\n');
      await new Promise((resolve) => output.write('', resolve));
      process.exit(70);
    }
  }
  lines.close();
}
