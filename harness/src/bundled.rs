//! The implementations shipped with the suite that run in process, by the name `--impl` and the
//! trial names use. Those in another process known by name (`physx`) are in [`crate::external`].

use std::sync::Arc;

use crate::adapters::rapier::RapierImplementation;
use crate::adapters::reference::ReferenceImplementation;
use crate::implementation::Implementation;
use crate::runner::Factory;

/// Every bundled implementation's name, in the order matrices show them.
pub fn names() -> Vec<&'static str> {
    REGISTRY.iter().map(|(n, _)| *n).collect()
}

/// A factory for the named implementation.
pub fn factory(name: &str) -> Option<Factory> {
    REGISTRY
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, make)| make())
}

type Entry = (&'static str, fn() -> Factory);

fn rapier() -> Factory {
    Arc::new(|| Box::new(RapierImplementation::new()) as Box<dyn Implementation + Send>)
}

fn reference() -> Factory {
    Arc::new(|| Box::new(ReferenceImplementation::new()) as Box<dyn Implementation + Send>)
}

const REGISTRY: &[Entry] = &[("rapier", rapier), ("reference", reference)];

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
