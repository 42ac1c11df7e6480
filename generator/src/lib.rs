//! # physics-cts generator
//!
//! Valid glTF physics scenes by construction (proptest strategies, one module per concept and
//! one per profile), one-defect mutators that each break exactly one rule of the catalogue,
//! hand-written cases, and the corpus writer that labels every case with the reference's own
//! expectations, so a case never disagrees with the reference by construction.
//!
//! Everything is deterministic: a case is a pure function of (generator version, seed, index).

pub mod blind;
pub mod canonical;
pub mod case;
pub mod corpus;
pub mod doc;
pub mod draw;
pub mod edition;
pub mod features;
pub mod generate;
pub mod handwritten;
pub mod label;
pub mod matrices;
pub mod mutate;
pub mod plan;
pub mod reach;
pub mod sample;
pub mod scenario;
pub mod scene_spelling;
pub mod scenes;
pub mod strategy;

/// The generator version recorded in every manifest; bump it whenever output bytes change.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
