// Errors that map to the protocol's error kinds.

export class BadRequest extends Error {
  get kind() {
    return 'bad_request';
  }
}

export class NotSupported extends Error {
  get kind() {
    return 'not_supported';
  }
}
