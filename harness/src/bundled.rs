//! The implementations shipped with the suite that run in process, by the name `--impl` and the
//! trial names use. Those in another process known by name (`physx`) are in [`crate::external`].

use std::sync::Arc;

use crate::adapters::rapier::RapierImplementation;
use crate::adapters::reference::ReferenceImplementation;
use crate::implementation::{Factory, Implementation};
use crate::mutant::Mutant;

/// Every bundled implementation's name, in the order matrices show them.
pub fn names() -> Vec<&'static str> {
    vec!["rapier", "reference"]
}

/// A factory for the named implementation.
pub fn factory(name: &str) -> Option<Factory> {
    mutated(name, None)
}

/// A factory of the bundled `implementation` with `mutant` active (`None`: un-mutated); `None`
/// for an unknown implementation, or a mutant not seeded in it.
pub fn mutated(implementation: &str, mutant: Option<Mutant>) -> Option<Factory> {
    if mutant.is_some_and(|m| !m.seeded_in(implementation)) {
        return None;
    }
    match implementation {
        "rapier" => Some(Arc::new(move || {
            Box::new(RapierImplementation::with_mutant(mutant)) as Box<dyn Implementation + Send>
        })),
        "reference" => Some(Arc::new(move || {
            Box::new(ReferenceImplementation::with_mutant(mutant)) as Box<dyn Implementation + Send>
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_a_factory_whose_handshake_names_it() {
        assert!(!names().is_empty());
        for name in names() {
            let factory = factory(name).expect("registered");
            let h = factory().handshake().expect("handshake");
            assert!(!h.capabilities.profiles.is_empty(), "{name}");
        }
        assert!(factory("nobody").is_none());
    }
}
