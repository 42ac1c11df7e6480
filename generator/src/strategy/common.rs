//! What every strategy module shares: the rendered scene with its feature tags, exact decimals,
//! and objects of the optional properties a spec gives. A leaf, so that the profile modules
//! need not import the module that lists them.

use std::collections::BTreeSet;

use proptest::prelude::*;
use reference::decision::Decision;
use serde_json::{Map, Value};

use crate::case::{ExpectedIssue, PoseSet};
use crate::doc::Built;

/// Feature tags of a case, e.g. `shape.capsule.defaults`.
pub type Tags = BTreeSet<String>;

/// A scene rendered to glTF, with what it exercises.
#[derive(Clone, Debug, PartialEq)]
pub struct Rendered {
    pub built: Built,
    pub tags: Tags,
    pub decisions: BTreeSet<Decision>,
    pub poses: Vec<PoseSet>,
    /// One line saying what the scene holds.
    pub summary: String,
    /// Warnings and information a valid scene draws on purpose (khr-2025's zero mass and
    /// zero scale); empty for the other profiles.
    pub expected: Vec<ExpectedIssue>,
}

impl Rendered {
    /// A scene that draws no issue on purpose.
    pub fn plain(
        built: Built,
        tags: Tags,
        decisions: BTreeSet<Decision>,
        poses: Vec<PoseSet>,
        summary: String,
    ) -> Rendered {
        Rendered {
            built,
            tags,
            decisions,
            poses,
            summary,
            expected: Vec::new(),
        }
    }
}

/// An object of the properties that are present (`None`: left out).
pub fn present<const N: usize>(properties: [(&str, Option<Value>); N]) -> Map<String, Value> {
    properties
        .into_iter()
        .filter_map(|(k, v)| Some((k.to_owned(), v?)))
        .collect()
}

/// Numbers `k / denom` for `k` in `lo..=hi`: short, exact in text (`3 / 10` prints `0.3`).
pub fn dec(lo: i32, hi: i32, denom: f64) -> impl Strategy<Value = f64> + Clone {
    (lo..=hi).prop_map(move |k| f64::from(k) / denom)
}

/// Three numbers from [`dec`].
pub fn dec3(lo: i32, hi: i32, denom: f64) -> impl Strategy<Value = [f64; 3]> + Clone {
    (dec(lo, hi, denom), dec(lo, hi, denom), dec(lo, hi, denom)).prop_map(|(a, b, c)| [a, b, c])
}

/// Add a tag built from parts joined by `.`.
pub fn tag(tags: &mut Tags, parts: &[&str]) {
    // Most tags of a scene repeat: join into a reused buffer and allocate only new ones.
    thread_local! {
        static JOINED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    JOINED.with_borrow_mut(|joined| {
        joined.clear();
        for (k, p) in parts.iter().enumerate() {
            if k > 0 {
                joined.push('.');
            }
            joined.push_str(p);
        }
        if !tags.contains(joined.as_str()) {
            tags.insert(joined.clone());
        }
    });
}
