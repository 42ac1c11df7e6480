//! physics-cts adapter for unavi's `gltf_kun` 0.4.0 (crates.io, unmodified, feature
//! `omi_physics`): each case is imported with gltf_kun's own importer, and the interpretation is
//! read back from gltf_kun's graph — its nodes' TRS and children, the `OmiPhysicsBody` extension
//! of each node (motion, collider and trigger shapes) and the document's `OmiPhysicsShape`
//! shapes. Nothing here reads the glTF JSON.
//!
//! What the adapter adds, since gltf_kun stops at the graph (see README.md):
//! - world transforms, from the TRS and parent edges gltf_kun keeps;
//! - the body a collider or trigger moves with: the nearest node, itself or an ancestor, whose
//!   `OmiPhysicsBody` has a motion (OMI_physics_body: "If a node with a collider shape does not
//!   have a motion property on itself or an ancestor node, it should be a static solid object");
//! - shapes in the protocol's canonical convention (a capsule's `height` is the distance between
//!   its cap centres: gltf_kun keeps the omi-2024 full height), under the node's world scale;
//! - pairs: every two colliders or triggers on different bodies, `collide` unless one is a
//!   trigger (gltf_kun reads no collision filters, no joints and no physics materials, so no
//!   friction or restitution is reported).

pub mod log;
pub mod protocol;

use std::collections::BTreeMap;
use std::path::Path;

use glam::{DMat4, DQuat, DVec3};
use gltf_kun::extensions::DefaultExtensions;
use gltf_kun::extensions::omi_physics_body::OmiPhysicsBody;
use gltf_kun::extensions::omi_physics_body::weight::BodyType;
use gltf_kun::extensions::omi_physics_shape::physics_shape::{PhysicsShape, PhysicsShapeWeight};
use gltf_kun::graph::gltf::document::GltfDocument;
use gltf_kun::graph::gltf::node::Node;
use gltf_kun::graph::{ByteNode, Extensions, Graph, GraphNodeWeight};
use gltf_kun::io::format::glb::GlbImport;
use gltf_kun::io::format::gltf::GltfImport;
use serde_json::{Map, Value, json};

/// The only profile gltf_kun 0.4.0 reads: `OMI_physics_body` with `motion`/`collider`/`trigger`
/// and `OMI_physics_shape` with one `radius` and a full `height` (omigroup/gltf-extensions,
/// November 2024).
pub const PROFILE: &str = "omi-2024";

/// The gltf_kun version this adapter is built against (pinned in Cargo.toml).
pub const GLTF_KUN_VERSION: &str = "0.4.0";

/// Every feature of the profile, as three-vrm declares every feature of VRM 1.0: a document
/// of the revision gltf_kun says it reads is read whole, and what gltf_kun 0.4.0 leaves out is
/// scored as it reads it, not set aside. It has no field for `gravityFactor` (so every body
/// reports 1), physics materials (no friction or restitution is reported), collision filters
/// (every pair of solids collides), compound triggers (`trigger.nodes`) or OMI_physics_joint (no
/// joint is reported). Invalid cases are never sent: the adapter does not validate.
pub const FEATURES: &[&str] = &[
    "body.",
    "buffer.",
    "collider.",
    "filter.",
    "joint.",
    "material.",
    "node.",
    "omi.",
    "scene.",
    "shape.",
    "trigger.",
];

/// Relative tolerance under which a world scale counts as uniform or as none.
const SCALE_TOLERANCE: f64 = 1e-6;

/// Run a future that never waits on anything (gltf_kun's importers are `async` but read files
/// synchronously) to its end.
pub fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(out) = future.as_mut().poll(&mut context) {
            return out;
        }
        std::thread::yield_now();
    }
}

/// A document gltf_kun imported, with its graph.
#[derive(Debug)]
pub struct Loaded {
    pub graph: Graph,
    pub doc: GltfDocument,
}

/// What importing a file gave: the document, or gltf_kun's error; with gltf_kun's warnings.
#[derive(Debug)]
pub struct Imported {
    pub result: Result<Loaded, String>,
    pub notes: Vec<String>,
}

/// Import a `.gltf` or `.glb` with gltf_kun and its default extensions (OMI_physics_shape, then
/// OMI_physics_body), keeping its warnings. A panic inside gltf_kun is an error naming it.
pub fn import(path: &Path) -> Imported {
    log::install();
    let _ = log::take();
    let result = std::panic::catch_unwind(|| import_unguarded(path)).unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<&str>()
            .map(ToString::to_string)
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        Err(format!("gltf_kun panicked: {text}"))
    });
    Imported {
        result,
        notes: log::take(),
    }
}

fn import_unguarded(path: &Path) -> Result<Loaded, String> {
    let mut graph = Graph::default();
    let glb = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("glb"));
    let doc = if glb {
        block_on(GlbImport::<DefaultExtensions>::import_file(
            &mut graph, path,
        ))
        .map_err(|e| e.to_string())?
    } else {
        block_on(GltfImport::<DefaultExtensions>::import_file(
            &mut graph, path,
        ))
        .map_err(|e| e.to_string())?
    };
    Ok(Loaded { graph, doc })
}

fn vec3(v: glam::Vec3) -> DVec3 {
    v.as_dvec3()
}

fn quat(q: glam::Quat) -> DQuat {
    q.as_dquat().normalize()
}

fn array3(v: DVec3) -> [f64; 3] {
    [v.x, v.y, v.z]
}

fn xyzw(q: DQuat) -> [f64; 4] {
    [q.x, q.y, q.z, q.w]
}

/// A number for the protocol: non-finite ones as the strings it reserves for them.
fn number(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else if x.is_nan() {
        json!("NaN")
    } else if x > 0.0 {
        json!("Infinity")
    } else {
        json!("-Infinity")
    }
}

fn numbers(v: &[f64]) -> Value {
    Value::Array(v.iter().map(|x| number(*x)).collect())
}

/// The graph's nodes in glTF order, each with its parent (the first one gltf_kun lists).
struct Tree {
    nodes: Vec<Node>,
    parent: Vec<Option<usize>>,
    world: Vec<DMat4>,
    /// Whether the node is in the scene shown (see [`Tree::of`]).
    shown: Vec<bool>,
}

impl Tree {
    fn of(loaded: &Loaded) -> Tree {
        let graph = &loaded.graph;
        let nodes = loaded.doc.nodes(graph);
        let index: BTreeMap<Node, usize> = nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let parent: Vec<Option<usize>> = nodes
            .iter()
            .map(|n| n.parents(graph).first().and_then(|p| index.get(p).copied()))
            .collect();
        let local: Vec<DMat4> = nodes
            .iter()
            .map(|n| {
                let w = n.get(graph);
                DMat4::from_scale_rotation_translation(
                    vec3(w.scale),
                    quat(w.rotation),
                    vec3(w.translation),
                )
            })
            .collect();
        let mut world = vec![None; nodes.len()];
        for i in 0..nodes.len() {
            // Walk up to the nearest node already placed (a cycle stops at the node itself).
            let mut chain = vec![i];
            let mut at = i;
            while let Some(p) = parent[at] {
                if world[p].is_some() || chain.contains(&p) {
                    break;
                }
                chain.push(p);
                at = p;
            }
            for &n in chain.iter().rev() {
                let above = parent[n].and_then(|p| world[p]).unwrap_or(DMat4::IDENTITY);
                world[n] = Some(above * local[n]);
            }
        }
        let world = world
            .into_iter()
            .map(|m| m.unwrap_or(DMat4::IDENTITY))
            .collect();
        // The scene an engine instantiates: the document's `scene`, else the first, else every
        // node without a parent; a node outside it is not in the world.
        let doc = &loaded.doc;
        let scene = doc
            .default_scene(graph)
            .or_else(|| doc.scenes(graph).first().copied());
        let mut stack: Vec<usize> = match scene {
            Some(s) => s
                .nodes(graph)
                .iter()
                .filter_map(|n| index.get(n).copied())
                .collect(),
            None => (0..nodes.len()).filter(|&n| parent[n].is_none()).collect(),
        };
        let mut shown = vec![false; nodes.len()];
        while let Some(n) = stack.pop() {
            if std::mem::replace(&mut shown[n], true) {
                continue;
            }
            stack.extend(
                nodes[n]
                    .children(graph)
                    .iter()
                    .filter_map(|c| index.get(c).copied()),
            );
        }
        Tree {
            nodes,
            parent,
            world,
            shown,
        }
    }

    /// The rigid part of a node's world transform (scale taken out).
    fn rigid(&self, i: usize) -> (DVec3, DQuat, DVec3) {
        let (scale, rotation, translation) = self.world[i].to_scale_rotation_translation();
        (scale, rotation.normalize(), translation)
    }

    /// The node itself or its nearest ancestor for which `has` holds.
    fn nearest(&self, i: usize, has: impl Fn(usize) -> bool) -> Option<usize> {
        let mut at = Some(i);
        let mut seen = 0;
        while let Some(n) = at {
            if has(n) {
                return Some(n);
            }
            seen += 1;
            if seen > self.nodes.len() {
                return None;
            }
            at = self.parent[n];
        }
        None
    }
}

/// A shape of gltf_kun's graph in the protocol's canonical form under the world scale `scale`
/// (absolute values): its kind and parameters.
pub fn shape_report(weight: &PhysicsShapeWeight, scale: DVec3) -> (String, Map<String, Value>) {
    let s = scale.abs();
    let uniform = (s.x - s.y).abs() <= SCALE_TOLERANCE * s.x.max(1.0)
        && (s.y - s.z).abs() <= SCALE_TOLERANCE * s.y.max(1.0);
    let round = (s.x - s.z).abs() <= SCALE_TOLERANCE * s.x.max(1.0);
    let mut p = Map::new();
    let kind = match weight {
        PhysicsShapeWeight::Box(b) => {
            let size = b.size.0;
            p.insert(
                "size".into(),
                numbers(&[
                    f64::from(size[0]) * s.x,
                    f64::from(size[1]) * s.y,
                    f64::from(size[2]) * s.z,
                ]),
            );
            "box"
        }
        PhysicsShapeWeight::Sphere(sphere) => {
            let r = f64::from(sphere.radius.0);
            if uniform {
                p.insert("radius".into(), number(r * s.x));
            } else {
                p.insert("radius".into(), number(r));
                p.insert("scale".into(), numbers(&array3(s)));
            }
            "sphere"
        }
        PhysicsShapeWeight::Capsule(c) => {
            // gltf_kun keeps the file's `height`, the full height in omi-2024; the protocol's
            // is the distance between the cap centres.
            let (r, h) = (f64::from(c.radius.0), f64::from(c.height.0));
            round_parameters(&mut p, r, h - 2.0 * r, s, round);
            "capsule"
        }
        PhysicsShapeWeight::Cylinder(c) => {
            let (r, h) = (f64::from(c.radius.0), f64::from(c.height.0));
            round_parameters(&mut p, r, h, s, round);
            "cylinder"
        }
        // gltf_kun keeps the kind only: no mesh index, so no vertices to count.
        PhysicsShapeWeight::Convex => "convex",
        PhysicsShapeWeight::Trimesh => "trimesh",
    };
    (kind.to_owned(), p)
}

/// A capsule's or cylinder's radius and height, the scale folded in when x and z agree.
fn round_parameters(p: &mut Map<String, Value>, r: f64, h: f64, s: DVec3, round: bool) {
    if round {
        p.insert("radius_bottom".into(), number(r * s.x));
        p.insert("radius_top".into(), number(r * s.x));
        p.insert("height".into(), number(h * s.y));
    } else {
        p.insert("radius_bottom".into(), number(r));
        p.insert("radius_top".into(), number(r));
        p.insert("height".into(), number(h));
        p.insert("scale".into(), numbers(&array3(s)));
    }
}

/// One collider or trigger read from the graph.
#[derive(Debug)]
struct ReadCollider {
    node: usize,
    body: Option<usize>,
    trigger: bool,
    shape: PhysicsShape,
}

/// The interpretation (protocol message `Interpretation`) of an imported document.
pub fn interpretation(loaded: &Loaded) -> Value {
    let graph = &loaded.graph;
    let tree = Tree::of(loaded);
    let ext: Vec<Option<OmiPhysicsBody>> = tree
        .nodes
        .iter()
        .zip(&tree.shown)
        .map(|(n, shown)| {
            shown
                .then(|| n.get_extension::<OmiPhysicsBody>(graph))
                .flatten()
        })
        .collect();
    let motion: Vec<_> = ext
        .iter()
        .map(|e| e.and_then(|e| e.read(graph).motion))
        .collect();

    let mut bodies = Vec::new();
    for (i, m) in motion.iter().enumerate() {
        let Some(m) = m else { continue };
        let kind = match m.typ {
            BodyType::Static => "static",
            BodyType::Kinematic => "kinematic",
            BodyType::Dynamic => "dynamic",
        };
        let diagonal = m.intertial_diagonal.map(f64::from);
        // "If zero or not specified, the inertia should be calculated automatically": this
        // adapter computes nothing, so the moments are unspecified.
        let moment = |x: f64| {
            if diagonal.iter().all(|d| *d == 0.0) {
                json!({"kind": "unspecified"})
            } else {
                json!({"kind": "finite", "value": number(x)})
            }
        };
        let o = m.inertia_orientation.0.map(f64::from);
        bodies.push(json!({
            "node": i,
            "kind": kind,
            "mass": {"kind": "finite", "value": number(f64::from(m.mass.0))},
            "center_of_mass": numbers(&m.center_of_mass.map(f64::from)),
            "inertia_diagonal": [moment(diagonal[0]), moment(diagonal[1]), moment(diagonal[2])],
            "inertia_orientation": numbers(&o),
            "linear_velocity": numbers(&m.linear_velocity.map(f64::from)),
            "angular_velocity": numbers(&m.angular_velocity.map(f64::from)),
            // gltf_kun 0.4.0 has no gravityFactor: every body falls under the whole gravity.
            "gravity_factor": 1.0,
        }));
    }

    let mut colliders = Vec::new();
    for (i, e) in ext.iter().enumerate() {
        let Some(e) = e else { continue };
        let body = tree.nearest(i, |n| motion[n].is_some());
        let shapes = [(e.collider(graph), false), (e.trigger(graph), true)];
        for (shape, trigger) in shapes {
            if let Some(shape) = shape {
                colliders.push(ReadCollider {
                    node: i,
                    body,
                    trigger,
                    shape,
                });
            }
        }
    }

    let reports: Vec<Value> = colliders
        .iter()
        .map(|c| {
            let (scale, rotation, translation) = tree.rigid(c.node);
            let (kind, parameters) = shape_report(&c.shape.read(graph), scale);
            let (t, q) = match c.body {
                Some(b) => {
                    let (_, br, bt) = tree.rigid(b);
                    let inverse = br.inverse();
                    (
                        inverse * (translation - bt),
                        (inverse * rotation).normalize(),
                    )
                }
                None => (translation, rotation),
            };
            json!({
                "node": c.node,
                "body": c.body,
                "is_trigger": c.trigger,
                "shape": kind,
                "parameters": parameters,
                "translation": numbers(&array3(t)),
                "rotation": numbers(&xyzw(q)),
            })
        })
        .collect();

    let mut pairs = Vec::new();
    for (i, a) in colliders.iter().enumerate() {
        for b in colliders.iter().skip(i + 1) {
            if a.body == b.body || a.node == b.node {
                continue;
            }
            pairs.push(json!({
                "a": a.node.min(b.node),
                "b": a.node.max(b.node),
                "collide": !a.trigger && !b.trigger,
            }));
        }
    }

    json!({"bodies": bodies, "colliders": reports, "pairs": pairs, "joints": []})
}

#[cfg(test)]
mod tests;
