//! The stdio protocol: the [`Implementation`](crate::implementation::Implementation) interface
//! as newline-delimited JSON over a child process's stdin/stdout (specified in
//! `harness/PROTOCOL.md`, one JSON Schema per message in `harness/protocol/`).
//!
//! - [`framing`]: lines with a size limit, so memory stays bounded whatever the peer writes;
//! - [`finite`]: non-finite numbers as the strings `"NaN"`, `"Infinity"`, `"-Infinity"`;
//! - [`message`]: the request and answer envelopes, one op per interface method;
//! - [`serve`]: the implementation side (used by `physics-cts serve`).
//!
//! The harness side is [`crate::adapters::stdio`].

pub mod finite;
pub mod framing;
pub mod message;
pub mod pipe;
pub mod schema;
pub mod serve;

pub use crate::implementation::PROTOCOL_VERSION;
pub use message::{Answer, Call, Malformed, NumberedCall, Op};

/// Default limit of one line in either direction: 16 MiB (a large interpretation of a big
/// trimesh scene fits; a runaway writer does not exhaust memory).
pub const MAX_LINE_BYTES: usize = 16 << 20;
