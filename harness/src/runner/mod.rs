//! The runner: one case at a time through the
//! [`Implementation`](crate::implementation::Implementation) interface.
//!
//! Per case: the capability gate first (`NOT_SUPPORTED` / `SKIP` without a call), then the
//! calls on a worker thread that owns the implementation, each inside `catch_unwind` (a panic
//! is a `CRASH` with its message, and the worker builds a fresh implementation), under a
//! deadline per case (`TIMEOUT`: the worker is abandoned and a new one is started, its
//! handshake replayed). [`ImplError`](crate::implementation::ImplError)s map to statuses:
//! `NotSupported` -> `NOT_SUPPORTED`, `Failed` -> `ERROR`, `BadRequest` (we asked wrongly) ->
//! `HARNESS_ERROR`. A restart budget turns the rest of the run into `NOTRUN`.
//!
//! [`resume_matrix`] runs each implementation with `Options::jobs` instances in parallel (each
//! with its own worker, its own restart budget, taking the next case when free) and keeps the
//! results of an interrupted run; results come back in entry order whatever the completion
//! order. Each instance keeps two cases queued on its worker, so the worker goes from one case
//! to the next without waiting for the instance to wake up, and the instance reads the next
//! case's expectation file while the worker runs: the harness's reading overlaps the
//! implementation's work.

mod families;
mod instance;
mod matrix;
mod worker;

pub use families::{gate, schedule};
pub use instance::{ImplRunner, Options, PreparedCase};
pub use matrix::{Entrant, resume_matrix, run_matrix};
