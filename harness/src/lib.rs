//! # physics-cts
//!
//! The conformance suite's harness and CLI: it runs implementations of glTF physics over the
//! corpus, compares what they report with the reference, and writes reports.

pub mod adapters;
pub mod bundle;
pub mod bundled;
pub mod case;
pub mod check;
pub mod children;
pub mod cli;
pub mod exit;
pub mod external;
pub mod fuzz;
pub mod glob;
pub mod implementation;
pub mod known_failures;
pub mod mutant;
pub mod mutants;
pub mod protocol;
pub mod report;
pub mod results;
pub mod runner;
pub mod score;
pub mod status;
pub mod text;
pub mod tolerance;
