//! KHR collision filters (seed 002 Collision Filtering): systems, and at most one of
//! `collideWithSystems` / `notCollideWithSystems` (giving both is invalid).

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::common::{Tags, tag};

const SYSTEMS: [&str; 4] = ["Player", "Props", "Debris", "Sensors"];

#[derive(Clone, Debug, PartialEq)]
pub enum ListKind {
    None,
    CollideWith,
    NotCollideWith,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FilterSpec {
    pub systems: Option<Vec<usize>>,
    pub list: ListKind,
    pub list_systems: Vec<usize>,
}

fn systems() -> impl Strategy<Value = Vec<usize>> + Clone {
    prop::sample::subsequence((0..SYSTEMS.len()).collect::<Vec<_>>(), 1..=2)
}

pub fn filter() -> impl Strategy<Value = FilterSpec> + Clone {
    (
        prop::option::weighted(0.85, systems()),
        prop::sample::select(vec![
            ListKind::None,
            ListKind::CollideWith,
            ListKind::NotCollideWith,
        ]),
        systems(),
    )
        .prop_map(|(systems, list, list_systems)| FilterSpec {
            systems,
            list,
            list_systems,
        })
}

impl FilterSpec {
    pub fn render(&self) -> Value {
        let names = |v: &[usize]| v.iter().map(|&i| SYSTEMS[i]).collect::<Value>();
        let mut m = Map::new();
        if let Some(s) = &self.systems {
            m.insert("collisionSystems".into(), names(s));
        }
        match self.list {
            ListKind::None => {}
            ListKind::CollideWith => {
                m.insert("collideWithSystems".into(), names(&self.list_systems));
            }
            ListKind::NotCollideWith => {
                m.insert("notCollideWithSystems".into(), names(&self.list_systems));
            }
        }
        Value::from(m)
    }

    pub fn tags(&self, tags: &mut Tags) {
        let list = match self.list {
            ListKind::None => "systems-only",
            ListKind::CollideWith => "collide-with",
            ListKind::NotCollideWith => "not-collide-with",
        };
        tag(tags, &["filter", list]);
        if self.systems.is_none() {
            tag(tags, &["filter", "no-systems"]);
        }
    }
}

pub fn universe(tags: &mut Tags) {
    for t in [
        "systems-only",
        "collide-with",
        "not-collide-with",
        "no-systems",
    ] {
        tag(tags, &["filter", t]);
    }
}
