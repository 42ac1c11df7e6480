// The stdio protocol (harness/PROTOCOL.md): one JSON request per line on stdin, one JSON answer
// per line on stdout, in order. Requests are {"seq": N, "op": "<op>", ...params}; answers
// {"seq": N, "ok": result} or {"seq": N, "error": {"error": kind, "message": "..."}}.
// Non-finite numbers travel as the strings "Infinity", "-Infinity" and "NaN". stdout carries
// the protocol only; logging (Babylon's and Havok's included) goes to stderr.

import { createInterface } from 'node:readline';

import { BadRequest } from './errors.js';

const OPS = ['handshake', 'load', 'interpretation', 'configure', 'step', 'observe', 'apply', 'evaluate_constraints', 'unload', 'batch', 'shutdown'];
const BATCHABLE = ['configure', 'step', 'observe', 'apply'];
/** A longer line is refused unread (bad_request). */
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

async function batch(adapter, request) {
  const subs = request.requests;
  if (!Array.isArray(subs)) throw new BadRequest('batch needs a list of requests');
  for (const s of subs) {
    if (s === null || typeof s !== 'object' || !BATCHABLE.includes(s.op)) {
      throw new BadRequest(`only ${BATCHABLE.join(', ')} may be batched, not ${JSON.stringify(s?.op)}`);
    }
  }
  const results = [];
  for (const s of subs) results.push((await adapter[s.op](s)) ?? null);
  return results;
}

/** The answer to one request line (never throws). `stop` is set after `shutdown`. */
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
    const kind = error?.kind ?? 'failed';
    if (!error?.kind) process.stderr.write(`${error?.stack ?? error}\n`);
    return { message: { seq, error: { error: kind, message: String(error?.message ?? error) } } };
  }
}

/** Serve `adapter` on stdin/stdout until shutdown or end of input. */
export async function serve(adapter, input = process.stdin, output = process.stdout) {
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const { message, stop } = await answer(adapter, line);
    output.write(`${encode(message)}\n`);
    if (stop) break;
  }
  lines.close();
}
