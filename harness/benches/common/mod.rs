//! What several benches share.

use std::ffi::OsString;

/// The `physics-cts` binary a bench runs: `PHYSICS_CTS_BIN` when set (the release build users
/// run, or a copy when the target folder is shared), else the bench build's own.
pub fn binary() -> OsString {
    std::env::var_os("PHYSICS_CTS_BIN").unwrap_or_else(|| env!("CARGO_BIN_EXE_physics-cts").into())
}
