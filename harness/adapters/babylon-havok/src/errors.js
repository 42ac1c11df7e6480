// The three ways a request can fail, as the protocol names them (`ImplError` in the harness).

/** The request is outside what the loader (or Babylon/Havok) builds. */
export class NotSupported extends Error {
  constructor(message) { super(message); this.kind = 'not_supported'; }
}

/** The adapter, Babylon or Havok failed in its own way (the `ERROR` status). */
export class Failed extends Error {
  constructor(message) { super(message); this.kind = 'failed'; }
}

/** The request is malformed or arrives in the wrong state (e.g. `step` before `load`). */
export class BadRequest extends Error {
  constructor(message) { super(message); this.kind = 'bad_request'; }
}
