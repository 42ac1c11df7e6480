//! VRM node constraints (seed 003): position, rotation and aim, with every source and
//! destination space, freeze pattern and weight, written or left to their defaults.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::common::{Tags, present, tag};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DraftKind {
    Position,
    Rotation,
    Aim,
}

impl DraftKind {
    pub const ALL: [DraftKind; 3] = [DraftKind::Position, DraftKind::Rotation, DraftKind::Aim];

    pub fn name(self) -> &'static str {
        match self {
            DraftKind::Position => "position",
            DraftKind::Rotation => "rotation",
            DraftKind::Aim => "aim",
        }
    }

    fn axes(self) -> usize {
        if self == DraftKind::Aim { 2 } else { 3 }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ConstraintSpec {
    pub kind: DraftKind,
    /// `Some(true)`: model, `Some(false)`: local, `None`: omitted (default model).
    pub source_model: Option<bool>,
    pub destination_model: Option<bool>,
    pub freeze: Option<Vec<bool>>,
    pub weight: Option<f64>,
    pub aim: Option<[f64; 3]>,
    pub up: Option<[f64; 3]>,
}

const DIRECTIONS: [[f64; 3]; 7] = [
    [1.0, 0.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, -1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, -1.0],
    [1.0, 1.0, 0.0],
];
/// Seed 003 defaults (the schema's `upVector` default `[0, 0, 1]` is a typo: it would be
/// parallel to the default aim vector).
pub const DEFAULT_AIM: [f64; 3] = [0.0, 0.0, 1.0];
pub const DEFAULT_UP: [f64; 3] = [0.0, 1.0, 0.0];

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Whether two non-zero vectors are parallel (or anti-parallel).
pub fn parallel(a: [f64; 3], b: [f64; 3]) -> bool {
    cross(a, b).iter().all(|c| c.abs() < 1e-9)
}

pub fn constraint(kinds: Vec<DraftKind>) -> impl Strategy<Value = ConstraintSpec> + Clone {
    (
        prop::sample::select(kinds),
        prop::option::weighted(0.8, any::<bool>()),
        prop::option::weighted(0.8, any::<bool>()),
        prop::option::weighted(0.75, prop::collection::vec(any::<bool>(), 3)),
        prop_oneof![
            Just(None),
            Just(Some(0.0)),
            Just(Some(1.0)),
            (1i32..=19).prop_map(|k| Some(f64::from(k) / 20.0))
        ],
        prop::option::weighted(0.6, prop::sample::select(DIRECTIONS.to_vec())),
        prop::option::weighted(0.6, prop::sample::select(DIRECTIONS.to_vec())),
    )
        .prop_map(|(kind, src, dst, freeze, weight, aim, up)| {
            let freeze = freeze.map(|f| f[..kind.axes()].to_vec());
            let (mut aim, mut up) = if kind == DraftKind::Aim {
                (aim, up)
            } else {
                (None, None)
            };
            if kind == DraftKind::Aim
                && parallel(aim.unwrap_or(DEFAULT_AIM), up.unwrap_or(DEFAULT_UP))
            {
                // Keep the written aim and pick an up perpendicular to it.
                let a = aim.unwrap_or(DEFAULT_AIM);
                up = Some(if parallel(a, [0.0, 0.0, 1.0]) {
                    [0.0, 1.0, 0.0]
                } else {
                    [0.0, 0.0, 1.0]
                });
                aim = Some(a);
            }
            ConstraintSpec {
                kind,
                source_model: src,
                destination_model: dst,
                freeze,
                weight,
                aim,
                up,
            }
        })
        .boxed()
}

fn space(model: bool) -> &'static str {
    if model { "model" } else { "local" }
}

impl ConstraintSpec {
    /// The extension object `{"<kind>": {...}}` with `source`.
    pub fn render(&self, source: usize) -> Map<String, Value> {
        let spelled = |model: Option<bool>| model.map(|s| Value::from(space(s)));
        let mut m = present([
            ("sourceSpace", spelled(self.source_model)),
            ("destinationSpace", spelled(self.destination_model)),
            (
                "freezeAxes",
                self.freeze.as_ref().map(|f| Value::from(&f[..])),
            ),
            ("weight", self.weight.map(Value::from)),
            ("aimVector", self.aim.map(Value::from)),
            ("upVector", self.up.map(Value::from)),
        ]);
        m.insert("source".into(), Value::from(source));
        let mut ext = Map::new();
        ext.insert(self.kind.name().into(), Value::from(m));
        ext
    }

    pub fn tags(&self, tags: &mut Tags) {
        let k = self.kind.name();
        tag(tags, &["vrm", k]);
        let pair = format!(
            "{}-{}",
            space(self.source_model.unwrap_or(true)),
            space(self.destination_model.unwrap_or(true))
        );
        tag(tags, &["vrm", k, &pair]);
        if self.source_model.is_none() || self.destination_model.is_none() {
            tag(tags, &["vrm", "space", "default"]);
        }
        let pattern = self.freeze.as_ref().map_or_else(
            || "default".to_owned(),
            |f| f.iter().map(|&b| if b { 't' } else { 'f' }).collect(),
        );
        tag(tags, &["vrm", k, "freeze", &pattern]);
        let weight = match self.weight {
            None => "default",
            Some(0.0) => "zero",
            Some(1.0) => "one",
            Some(_) => "partial",
        };
        tag(tags, &["vrm", "weight", weight]);
        if self.kind == DraftKind::Aim {
            let v = if self.aim.is_none() && self.up.is_none() {
                "default"
            } else {
                "explicit"
            };
            tag(tags, &["vrm", "aim", "vectors", v]);
        }
    }
}

pub fn universe(tags: &mut Tags) {
    for kind in DraftKind::ALL {
        let k = kind.name();
        tag(tags, &["vrm", k]);
        for s in ["local", "model"] {
            for d in ["local", "model"] {
                tag(tags, &["vrm", k, &format!("{s}-{d}")]);
            }
        }
        tag(tags, &["vrm", k, "freeze", "default"]);
        for bits in 0..(1u32 << kind.axes()) {
            let p: String = (0..kind.axes())
                .map(|i| if bits & (1 << i) != 0 { 't' } else { 'f' })
                .collect();
            tag(tags, &["vrm", k, "freeze", &p]);
        }
    }
    for w in ["default", "zero", "one", "partial"] {
        tag(tags, &["vrm", "weight", w]);
    }
    tag(tags, &["vrm", "space", "default"]);
    tag(tags, &["vrm", "aim", "vectors", "default"]);
    tag(tags, &["vrm", "aim", "vectors", "explicit"]);
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    proptest! {
        #[test]
        fn aim_never_parallel_to_up(c in constraint(vec![DraftKind::Aim])) {
            prop_assert!(!parallel(c.aim.unwrap_or(DEFAULT_AIM), c.up.unwrap_or(DEFAULT_UP)));
        }
    }

    #[test]
    fn renders_seed_spelling() {
        let c = ConstraintSpec {
            kind: DraftKind::Rotation,
            source_model: Some(false),
            destination_model: None,
            freeze: Some(vec![true, false, true]),
            weight: Some(0.5),
            aim: None,
            up: None,
        };
        assert_eq!(
            Value::from(c.render(3)),
            json!({"rotation": {"source": 3, "sourceSpace": "local", "freezeAxes": [true, false, true], "weight": 0.5}})
        );
        let mut t = Tags::new();
        c.tags(&mut t);
        assert!(
            t.contains("vrm.rotation.local-model") && t.contains("vrm.rotation.freeze.tft"),
            "{t:?}"
        );
    }
}
