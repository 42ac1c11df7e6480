//! The mutator type, apart from the list of every mutator (`mutate::all`), so that the profile
//! modules that make mutators need not import the module that lists them.

use reference::issue::Code;
use reference::profile::Profile;

use crate::case::{Case, ExpectedIssue};

/// A mutator: edits a valid case in place and returns the pointer of the defect, or `None`
/// when the case has nothing it can break (the caller then tries another base case).
#[derive(Clone, Copy)]
pub struct Mutator {
    pub code: Code,
    /// Stable name, used in case ids.
    pub name: &'static str,
    /// The profile of the valid case it needs.
    pub profile: Profile,
    /// A feature-tag prefix the base case should carry (a hint for picking bases).
    pub needs: Option<&'static str>,
    /// Edits a copy of the valid case.
    pub apply: Apply,
}

/// An edit of a valid case: the pointer of its one defect, or `None` when the case has nothing
/// it can break.
pub type Apply = fn(&mut Case) -> Option<String>;

/// A row of a profile's table of mutators: code, name, the feature tag its base needs, the edit.
pub type Row = (Code, &'static str, Option<&'static str>, Apply);

/// The feature tags (prefixes) the bases of many profiles' mutators need.
pub mod needs {
    pub const BODY: Option<&str> = Some("body.");
    pub const COLLIDER: Option<&str> = Some("collider.");
    pub const JOINT: Option<&str> = Some("joint.kind");
    pub const SPHERE: Option<&str> = Some("shape.sphere");
    pub const COMPOUND: Option<&str> = Some("trigger.compound");
}

/// The mutators of `rows`, on bases of `profile`.
pub fn of_rows(profile: Profile, rows: &[Row]) -> Vec<Mutator> {
    rows.iter()
        .map(|&(code, name, needs, apply)| Mutator {
            needs,
            ..Mutator::of_any_base(code, name, profile, apply)
        })
        .collect()
}

impl std::fmt::Debug for Mutator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mutator")
            .field("code", &self.code)
            .field("name", &self.name)
            .finish()
    }
}

impl Mutator {
    /// A mutator whose base may be any valid case of `profile`.
    pub fn of_any_base(code: Code, name: &'static str, profile: Profile, apply: Apply) -> Mutator {
        Mutator {
            code,
            name,
            profile,
            needs: None,
            apply,
        }
    }

    /// Apply to a copy of `base`: the mutated case expects exactly this mutator's issue.
    pub fn mutate(&self, base: &Case) -> Option<Case> {
        let mut case = base.clone();
        let pointer = (self.apply)(&mut case)?;
        case.expected = vec![ExpectedIssue::new(self.code, pointer)];
        case.area = "invalid".into();
        case.poses.clear();
        case.features
            .insert(format!("invalid.{}", self.code.id().to_ascii_lowercase()));
        case.description = format!(
            "One defect ({}): {} Base: {}",
            self.code.id(),
            self.code.rule(),
            base.description
        );
        case.spec = self.code.spec_reference().to_owned();
        // No profile applies when the core document cannot be read, or has no extension.
        if UNREADABLE.contains(&self.code) {
            case.profile = None;
        }
        Some(case)
    }
}

/// Codes after which the reference reads no profile.
const UNREADABLE: &[Code] = &[
    Code::JsonSyntax,
    Code::GlbHeader,
    Code::GlbChunk,
    Code::GltfSchema,
    Code::ProfileNone,
];
