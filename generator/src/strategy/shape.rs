//! Collision shapes of every type, with parameters omitted (profile defaults) or explicit, and
//! mesh shapes backed by real triangle meshes.

use proptest::prelude::*;
use serde_json::{Map, Value};

use super::common::{Tags, dec, tag};
use crate::doc::{DocBuilder, MeshData};

/// Every shape type (KHR `convex` is OMI_collider `hull` and OMI_physics_shape `convex`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShapeKind {
    Sphere,
    Box,
    Capsule,
    Cylinder,
    Convex,
    Trimesh,
}

impl ShapeKind {
    pub const ALL: [ShapeKind; 6] = [
        ShapeKind::Sphere,
        ShapeKind::Box,
        ShapeKind::Capsule,
        ShapeKind::Cylinder,
        ShapeKind::Convex,
        ShapeKind::Trimesh,
    ];

    /// The name used in feature tags (`shape.<tag>.*`).
    pub fn tag(self) -> &'static str {
        match self {
            ShapeKind::Sphere => "sphere",
            ShapeKind::Box => "box",
            ShapeKind::Capsule => "capsule",
            ShapeKind::Cylinder => "cylinder",
            ShapeKind::Convex => "convex",
            ShapeKind::Trimesh => "trimesh",
        }
    }

    pub fn is_mesh(self) -> bool {
        matches!(self, ShapeKind::Convex | ShapeKind::Trimesh)
    }

    /// The kinds a moving body may use: trimesh is for static geometry only (seed 002
    /// Colliders, seed 004).
    pub fn moving() -> Vec<ShapeKind> {
        ShapeKind::ALL
            .into_iter()
            .filter(|k| *k != ShapeKind::Trimesh)
            .collect()
    }
}

/// How a shape is spelled in the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// KHR_collision_shapes: `{"type": "box", "box": {"size": [...]}}`; capsule and cylinder
    /// have `height` (between cap centres for capsules), `radiusTop`, `radiusBottom`.
    Khr,
    /// OMI_collider (seed 004): flat `{"type": "box", "size": [...]}`, `hull`, full capsule height.
    OmiCollider,
    /// OMI_physics_shape (seed 001): `{"type": "box", "box": {"size": [...]}}`, `convex`.
    /// Also the `omi-2024` spelling: capsule and cylinder `radius`, capsule full height.
    OmiShape,
    /// OMI_physics_shape `omi-2025`: capsule and cylinder `radiusBottom` and `radiusTop` (equal
    /// here: tapered shapes are hand-written), capsule `height` between the cap centres. Sizes
    /// as [`Dialect::OmiShape`]'s (the same shape in the other spelling).
    Omi2025,
}

/// A convex solid used as mesh data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Solid {
    Tetrahedron,
    Octahedron,
    Cube,
}

/// One shape.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeSpec {
    pub kind: ShapeKind,
    /// Parameters written out; `false`: the parameter object is empty (defaults).
    pub explicit: bool,
    /// Sizes used when explicit: radius / box x / capsule-cylinder height...
    pub a: f64,
    pub b: f64,
    pub c: f64,
    /// Mesh shapes: which solid, scaled by `a`.
    pub solid: Solid,
}

/// Any shape whose kind is in `kinds`.
pub fn shape(kinds: Vec<ShapeKind>) -> impl Strategy<Value = ShapeSpec> + Clone {
    (
        prop::sample::select(kinds),
        any::<bool>(),
        dec(2, 8, 10.0),
        dec(2, 8, 10.0),
        dec(2, 8, 10.0),
        prop::sample::select(vec![Solid::Tetrahedron, Solid::Octahedron, Solid::Cube]),
    )
        .prop_map(|(kind, explicit, a, b, c, solid)| ShapeSpec {
            kind,
            explicit: explicit || kind.is_mesh(),
            a,
            b,
            c,
            solid,
        })
}

impl ShapeSpec {
    /// Radius of a sphere around the local origin that holds the shape, in the dialect's
    /// reading (defaults included), for placing bodies apart.
    pub fn bounding_radius(&self, dialect: Dialect) -> f64 {
        let (a, b, c) = (self.a, self.b, self.c);
        match (self.kind, self.explicit, dialect) {
            (ShapeKind::Sphere, true, _) => a,
            (ShapeKind::Sphere, false, _) => 0.5,
            (ShapeKind::Box, true, _) => 0.5 * (a * a + b * b + c * c).sqrt(),
            (ShapeKind::Box, false, _) => 0.5 * 3f64.sqrt(),
            // KHR capsule: caps centred at +-height/2, radius max(top, bottom).
            (ShapeKind::Capsule, true, Dialect::Khr) => a / 2.0 + b.max(c),
            (ShapeKind::Capsule, false, Dialect::Khr) => 0.25 + 0.25,
            // OMI capsule: full height `2 r + a`, radius `b`.
            (ShapeKind::Capsule, true, _) => (2.0 * b + a) / 2.0,
            (ShapeKind::Capsule, false, _) => 1.0,
            (ShapeKind::Cylinder, true, Dialect::Khr) => (a * a / 4.0 + b.max(c).powi(2)).sqrt(),
            (ShapeKind::Cylinder, false, Dialect::Khr) => (0.0625f64 + 0.0625).sqrt(),
            (ShapeKind::Cylinder, true, _) => (a * a / 4.0 + b * b).sqrt(),
            (ShapeKind::Cylinder, false, _) => (1.0f64 + 0.25).sqrt(),
            (ShapeKind::Convex | ShapeKind::Trimesh, _, _) => a * 3f64.sqrt(),
        }
    }

    /// Tags: `shape.<kind>.defaults|explicit`, `shape.mesh.<solid>`.
    pub fn tags(&self, tags: &mut Tags) {
        let mode = if self.explicit {
            "explicit"
        } else {
            "defaults"
        };
        if self.kind.is_mesh() {
            tag(tags, &["shape", self.kind.tag()]);
            tag(tags, &["shape", "mesh", solid_tag(self.solid)]);
        } else {
            tag(tags, &["shape", self.kind.tag(), mode]);
        }
    }

    /// The shape object as the dialect spells it; mesh shapes add their mesh to `doc`.
    pub fn render(&self, dialect: Dialect, doc: &mut DocBuilder) -> Map<String, Value> {
        let (a, b, c) = (self.a, self.b, self.c);
        let mut shape = Map::new();
        let mut nested = Map::new();
        let type_name = match (self.kind, dialect) {
            (ShapeKind::Convex, Dialect::OmiCollider) => "hull",
            (kind, _) => kind.tag(),
        };
        shape.insert("type".into(), Value::from(type_name));
        // OMI_collider spells the parameters flat in the shape, the others in an object.
        let params = match dialect {
            Dialect::OmiCollider => &mut shape,
            Dialect::Khr | Dialect::OmiShape | Dialect::Omi2025 => &mut nested,
        };
        if self.kind.is_mesh() {
            let mesh = doc.mesh(&solid_mesh(self.solid, a));
            params.insert("mesh".into(), Value::from(mesh));
        } else if self.explicit {
            match (self.kind, dialect) {
                (ShapeKind::Sphere, _) => {
                    params.insert("radius".into(), Value::from(a));
                }
                (ShapeKind::Box, _) => {
                    params.insert("size".into(), Value::from([a, b, c]));
                }
                (ShapeKind::Capsule | ShapeKind::Cylinder, Dialect::Khr) => {
                    params.insert("height".into(), Value::from(a));
                    params.insert("radiusTop".into(), Value::from(b));
                    params.insert("radiusBottom".into(), Value::from(c));
                }
                (ShapeKind::Capsule | ShapeKind::Cylinder, Dialect::Omi2025) => {
                    params.insert("height".into(), Value::from(a));
                    params.insert("radiusBottom".into(), Value::from(b));
                    params.insert("radiusTop".into(), Value::from(b));
                }
                (ShapeKind::Capsule, _) => {
                    // Full height: at least twice the radius (seed 004 Capsule).
                    params.insert("radius".into(), Value::from(b));
                    params.insert(
                        "height".into(),
                        Value::from(crate::canonical::round(2.0 * b + a, 6)),
                    );
                }
                (ShapeKind::Cylinder, _) => {
                    params.insert("radius".into(), Value::from(b));
                    params.insert("height".into(), Value::from(a));
                }
                (ShapeKind::Convex | ShapeKind::Trimesh, _) => {}
            }
        }
        if dialect != Dialect::OmiCollider {
            shape.insert(type_name.into(), Value::from(nested));
        }
        shape
    }
}

fn solid_tag(solid: Solid) -> &'static str {
    match solid {
        Solid::Tetrahedron => "tetrahedron",
        Solid::Octahedron => "octahedron",
        Solid::Cube => "cube",
    }
}

/// Vertices and outward-facing triangles of a solid of "radius" `s` about the origin.
pub fn solid_mesh(solid: Solid, s: f64) -> MeshData {
    #[allow(clippy::cast_possible_truncation)]
    let s = s as f32;
    match solid {
        Solid::Tetrahedron => MeshData {
            positions: vec![[s, s, s], [s, -s, -s], [-s, s, -s], [-s, -s, s]],
            indices: vec![0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2],
        },
        Solid::Octahedron => MeshData {
            positions: vec![
                [s, 0.0, 0.0],
                [-s, 0.0, 0.0],
                [0.0, s, 0.0],
                [0.0, -s, 0.0],
                [0.0, 0.0, s],
                [0.0, 0.0, -s],
            ],
            indices: vec![
                0, 2, 4, 2, 1, 4, 1, 3, 4, 3, 0, 4, 2, 0, 5, 1, 2, 5, 3, 1, 5, 0, 3, 5,
            ],
        },
        Solid::Cube => MeshData {
            positions: vec![
                [-s, -s, -s],
                [s, -s, -s],
                [s, s, -s],
                [-s, s, -s],
                [-s, -s, s],
                [s, -s, s],
                [s, s, s],
                [-s, s, s],
            ],
            indices: vec![
                0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4, 2, 3, 7, 2, 7, 6, 1, 2, 6, 1,
                6, 5, 0, 4, 7, 0, 7, 3,
            ],
        },
    }
}

/// Every tag this module can emit.
pub fn universe(tags: &mut Tags) {
    for kind in ShapeKind::ALL {
        if kind.is_mesh() {
            tag(tags, &["shape", kind.tag()]);
        } else {
            tag(tags, &["shape", kind.tag(), "defaults"]);
            tag(tags, &["shape", kind.tag(), "explicit"]);
        }
    }
    for solid in [Solid::Tetrahedron, Solid::Octahedron, Solid::Cube] {
        tag(tags, &["shape", "mesh", solid_tag(solid)]);
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::doc::BufferMode;

    fn spec(kind: ShapeKind, explicit: bool) -> ShapeSpec {
        ShapeSpec {
            kind,
            explicit,
            a: 0.4,
            b: 0.3,
            c: 0.2,
            solid: Solid::Cube,
        }
    }

    #[test]
    fn dialects_spell_shapes_as_their_seeds() {
        let mut doc = DocBuilder::new("s", BufferMode::DataUri);
        assert_eq!(
            Value::from(spec(ShapeKind::Box, true).render(Dialect::Khr, &mut doc)),
            json!({"type": "box", "box": {"size": [0.4, 0.3, 0.2]}})
        );
        assert_eq!(
            Value::from(spec(ShapeKind::Capsule, false).render(Dialect::Khr, &mut doc)),
            json!({"type": "capsule", "capsule": {}})
        );
        // OMI_collider capsule: full height = 2 * 0.3 + 0.4 = 1.0.
        assert_eq!(
            Value::from(spec(ShapeKind::Capsule, true).render(Dialect::OmiCollider, &mut doc)),
            json!({"type": "capsule", "radius": 0.3, "height": 1.0})
        );
        assert_eq!(
            Value::from(spec(ShapeKind::Convex, true).render(Dialect::OmiCollider, &mut doc)),
            json!({"type": "hull", "mesh": 0})
        );
        assert_eq!(
            Value::from(spec(ShapeKind::Convex, true).render(Dialect::OmiShape, &mut doc)),
            json!({"type": "convex", "convex": {"mesh": 1}})
        );
    }

    #[test]
    fn bounding_radii() {
        // KHR capsule, height 0.4 between centres, radii 0.3 / 0.2: 0.2 + 0.3 = 0.5.
        assert!((spec(ShapeKind::Capsule, true).bounding_radius(Dialect::Khr) - 0.5).abs() < 1e-12);
        // Box 0.4 x 0.3 x 0.2: half diagonal = 0.5 * sqrt(0.16 + 0.09 + 0.04) = 0.2693.
        let r = spec(ShapeKind::Box, true).bounding_radius(Dialect::Khr);
        assert!((r - 0.5 * 0.29f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn solids_are_closed_meshes() {
        for solid in [Solid::Tetrahedron, Solid::Octahedron, Solid::Cube] {
            let m = solid_mesh(solid, 1.0);
            assert_eq!(m.indices.len() % 3, 0);
            // Every edge of a closed surface is shared by exactly two triangles.
            let mut edges = std::collections::BTreeMap::new();
            for t in m.indices.chunks(3) {
                for (x, y) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                    *edges.entry((x.min(y), x.max(y))).or_insert(0) += 1;
                }
            }
            assert!(edges.values().all(|&n| n == 2), "{solid:?}");
        }
    }
}
