//! The implementations shipped with the suite, by the name `--impl` and the trial names use.

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

const REGISTRY: &[Entry] = &[];
