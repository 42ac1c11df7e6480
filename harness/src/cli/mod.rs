//! The `physics-cts` command line. Each subcommand lives in its own module.
//!
//! Exit codes: 0 success, 1 the command ran and found failures (errors in a validated file,
//! failing cases), 2 a usage or I/O problem; 141 when the reader of standard output closed it
//! first ([`out`]).

/// `println!` for the subcommands (declared before them, so it shadows the standard one in
/// their text): a closed standard output ends the command quietly instead of panicking
/// ([`out::print`]).
macro_rules! println {
    () => {
        $crate::cli::out::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for the subcommands, as [`println!`] is.
macro_rules! print {
    ($($arg:tt)*) => {
        $crate::cli::out::print(format_args!($($arg)*))
    };
}

mod certify;
mod diff;
mod eval;
mod generate;
mod non_finite;
pub mod out;
pub mod run;
pub mod serve;
mod validate;
mod verify;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Conformance test suite for glTF physics.
#[derive(Debug, Parser)]
#[command(name = "physics-cts", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Validate glTF files (or folders of them) against the physics profiles.
    Validate(validate::Args),
    /// Run bundled implementations over a corpus and write reports.
    Run(run::Args),
    /// Compare two runs: fixed, broken, new crashes.
    Diff(diff::Args),
    /// Print the expected interpretation of a file (at given poses) as JSON.
    Eval(eval::Args),
    /// Write a corpus: hand-written cases plus generated ones for a seed.
    Generate(generate::Args),
    /// Speak the stdio protocol on stdin/stdout for a bundled implementation.
    Serve(serve::Args),
    /// Run one implementation like `run` and write a self-certification bundle.
    Certify(certify::Args),
    /// Check a bundle written by `certify`: complete, untampered, consistent, true to its corpus.
    Verify(verify::Args),
}

/// Exit code for a usage or I/O problem.
pub const EXIT_USAGE: u8 = 2;

/// Parse the command line and run the subcommand.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { EXIT_USAGE } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Run(args) => run::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Certify(args) => certify::run(args),
        Command::Verify(args) => verify::run(args),
    };
    // Every implementation process the command started ends with it, even one a worker thread
    // abandoned inside a call still holds.
    crate::children::end_all();
    match result {
        Ok(code) => code,
        Err(e) if out::is_closed_pipe(&e) => ExitCode::from(out::EXIT_CLOSED_PIPE),
        Err(e) => {
            eprintln!("physics-cts: error: {e:#}");
            ExitCode::from(EXIT_USAGE)
        }
    }
}
