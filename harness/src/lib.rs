//! # physics-cts
//!
//! The conformance suite's harness and CLI: it runs implementations of glTF physics over the
//! corpus, compares what they report with the reference, and writes reports.

pub mod adapters;
pub mod cli;
pub mod implementation;
pub mod protocol;
