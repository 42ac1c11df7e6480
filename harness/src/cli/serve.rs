//! `physics-cts serve NAME`: speak the stdio protocol on stdin/stdout for a bundled
//! implementation, so it can be run like any external one (`physics-cts run --impl stdio --
//! physics-cts serve rapier`) and compared line by line with its in-process run.

use std::io::{BufReader, BufWriter};
use std::process::ExitCode;

use anyhow::bail;

use crate::implementation::Implementation;
use crate::protocol::MAX_LINE_BYTES;
use crate::protocol::pipe::Polled;
use crate::protocol::serve::{Echo, ServeOptions, serve};

#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// The implementation to serve: a bundled one, or `echo` (answers every call with empty
    /// results; for measuring the transport).
    pub implementation: String,
    /// Longest request line accepted, in bytes.
    #[arg(long, default_value_t = MAX_LINE_BYTES)]
    pub max_line: usize,
    /// Neither declare nor answer the optional `batch` operation, so the harness makes one
    /// request per call (to measure what batching saves, or to test that path).
    #[arg(long)]
    pub no_batch: bool,
}

/// The implementations `serve` knows.
pub fn names() -> Vec<&'static str> {
    let mut names = crate::bundled::names();
    names.push("echo");
    names
}

/// A bundled implementation by its name (the registry of `run --impl`), or `echo`.
fn build(name: &str) -> Option<Box<dyn Implementation>> {
    if name == "echo" {
        return Some(Box::new(Echo::default()));
    }
    crate::bundled::factory(name).map(|make| make() as Box<dyn Implementation>)
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let Some(mut imp) = build(&args.implementation) else {
        bail!(
            "unknown implementation {:?}; served: {}",
            args.implementation,
            names().join(", ")
        );
    };
    // A pipe from the harness is polled briefly before blocking: no wake-up per request.
    let input = BufReader::new(Polled::new(std::io::stdin().lock()));
    let output = BufWriter::new(std::io::stdout().lock());
    let options = ServeOptions {
        max_line: args.max_line,
        batch: !args.no_batch,
    };
    serve(imp.as_mut(), input, output, options)?;
    Ok(ExitCode::SUCCESS)
}
