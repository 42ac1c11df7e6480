// The shared adapter kit (see ../README.md): used by physx-node and jolt-node.
// The three ways a request can fail, as the protocol names them (`ImplError` in the harness).

/** The request is outside what the adapter (or its engine) can express exactly. */
export class NotSupported extends Error {
  constructor(message) { super(message); this.kind = 'not_supported'; }
}

/** The adapter or its engine failed in its own way (the `ERROR` status). */
export class Failed extends Error {
  constructor(message) { super(message); this.kind = 'failed'; }
}

/** The request is malformed or arrives in the wrong state (e.g. `step` before `load`). */
export class BadRequest extends Error {
  constructor(message) { super(message); this.kind = 'bad_request'; }
}

/** The file is not a readable glTF: loading answers `rejected`, not an error. */
export class Rejected extends Error {
  constructor(message) { super(message); this.kind = 'rejected'; }
}
