//! A case's tier: how it is scored. Its own module because the issue catalogue gives each code
//! the tier of the cases that carry it, below the case format.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How a case is scored: required and optional cases are scored apart, informative ones are
/// shown, never scored (`reports/README.md`, "Scores and verdicts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    /// A MUST of the spec.
    Required,
    /// A SHOULD, or an optional feature.
    Optional,
    /// Depends on a decision the spec does not make: shown, never scored.
    Informative,
}

impl Tier {
    pub const ALL: [Tier; 3] = [Tier::Required, Tier::Optional, Tier::Informative];

    pub fn as_str(self) -> &'static str {
        match self {
            Tier::Required => "required",
            Tier::Optional => "optional",
            Tier::Informative => "informative",
        }
    }
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
