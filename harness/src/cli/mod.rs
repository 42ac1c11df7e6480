//! The `physics-cts` command line. Each subcommand lives in its own module.
//!
//! Exit codes: [`crate::exit`] (one table, printed in the README).

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
mod fuzz;
mod generate;
mod merge;
pub mod mutants;
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
    Validate(validate::ValidateArgs),
    /// Run bundled implementations over a corpus and write reports.
    Run(run::RunArgs),
    /// Compare two runs: fixed, broken, new crashes.
    Diff(diff::DiffArgs),
    /// Join the reports of a run split with `run --shard K/N` into one run's reports.
    Merge(merge::MergeArgs),
    /// Print the expected interpretation of a file (at given poses) as JSON.
    Eval(eval::EvalArgs),
    /// Write a corpus: hand-written cases plus generated ones for a seed.
    Generate(generate::GenerateArgs),
    /// Speak the stdio protocol on stdin/stdout for a bundled implementation.
    Serve(serve::ServeArgs),
    /// Run one implementation like `run` and write a self-certification bundle.
    Certify(certify::CertifyArgs),
    /// Check a bundle written by `certify`: complete, untampered, consistent, true to its corpus.
    Verify(verify::VerifyArgs),
    /// The suite's own mutation score: run bundled implementations with seeded importer bugs,
    /// one at a time, and report which the corpus catches.
    Mutants(mutants::MutantsArgs),
    /// Search an implementation live with generated scenes; shrink each kind of failure to a
    /// small case folder that `run --corpus` reads.
    Fuzz(fuzz::FuzzArgs),
}

/// An error and its causes for people: `: `-joined, a cause whose text an earlier part already
/// says left out (an I/O error wrapped with its own text would print twice), OS error numbers
/// dropped.
pub fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => crate::text::os_error(io),
            None => cause.to_string(),
        };
        if out.contains(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

/// The exit code of a command's error: its own when it has one, else [`crate::exit::USAGE`].
pub fn code_of(e: &anyhow::Error) -> u8 {
    if let Some(c) = e.downcast_ref::<crate::exit::Coded>() {
        return c.code;
    }
    if let Some(crate::known_failures::KnownFailuresError::OtherCorpus { .. }) = e.downcast_ref() {
        return crate::exit::KNOWN_FAILURES_OF_ANOTHER_CORPUS;
    }
    if e.downcast_ref::<crate::external::Unavailable>().is_some() {
        return crate::exit::UNAVAILABLE;
    }
    crate::exit::USAGE
}

/// Parse the command line and run the subcommand.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                crate::exit::USAGE
            } else {
                0
            });
        }
    };
    let result = match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Run(args) => run::run(args),
        Command::Diff(args) => diff::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Certify(args) => certify::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Mutants(args) => mutants::run(args),
        Command::Fuzz(args) => fuzz::run(args),
    };
    // Every implementation process the command started ends with it, even one a worker thread
    // abandoned inside a call still holds.
    crate::children::end_all();
    match result {
        Ok(code) => code,
        Err(e) if out::is_closed_pipe(&e) => ExitCode::from(out::EXIT_CLOSED_PIPE),
        Err(e) => {
            eprintln!("physics-cts: error: {}", message(&e));
            ExitCode::from(code_of(&e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cause_already_said_is_not_repeated() {
        let io = std::io::Error::from_raw_os_error(2);
        let said = format!("cannot read x.toml: {}", crate::text::os_error(&io));
        let e = anyhow::Error::new(io).context(said.clone());
        assert_eq!(message(&e), said);
        assert!(!message(&e).contains("os error"), "{}", message(&e));
        let e = anyhow::anyhow!("inner").context("outer");
        assert_eq!(message(&e), "outer: inner");
    }
}
