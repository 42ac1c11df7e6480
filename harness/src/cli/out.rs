//! Standard output for the subcommands when its reader may go away first
//! (`physics-cts diff OLD NEW | head -1`). Rust ignores SIGPIPE, so `println!` panics when the
//! pipe is closed; here a closed pipe ends the command quietly with the status a program killed
//! by SIGPIPE has (128 + 13), after ending the implementation processes it started. Any other
//! write error is reported once and ends the command as an I/O problem.

use std::fmt;
use std::io::Write as _;

/// Exit status of a command whose standard output was closed by its reader (128 + SIGPIPE).
pub const EXIT_CLOSED_PIPE: u8 = 141;

/// Write `args` to standard output; a closed pipe or a failed write ends the process (see the
/// module doc). What the subcommands' `println!` and `print!` expand to.
pub fn print(args: fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        drop(out);
        end_on_write_error(&e);
    }
}

/// Whether `e` (or an error in its chain) is a write to a closed pipe.
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::BrokenPipe;
        }
        if let Some(json) = cause.downcast_ref::<serde_json::Error>() {
            return json.io_error_kind() == Some(std::io::ErrorKind::BrokenPipe);
        }
        false
    })
}

/// End the process after a failed write to standard output.
fn end_on_write_error(e: &std::io::Error) -> ! {
    crate::children::end_all();
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(i32::from(EXIT_CLOSED_PIPE));
    }
    // Stderr may be closed too: nothing more can be said then.
    let _ = writeln!(
        std::io::stderr(),
        "physics-cts: error: cannot write to standard output: {e}"
    );
    std::process::exit(i32::from(crate::exit::USAGE));
}
