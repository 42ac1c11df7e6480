//! Valid `khr-2024-draft` scenes: KHR_physics_rigid_bodies + KHR_collision_shapes, spelled as
//! seed 002 and the seed-era samples spell them. The same scenes render as `khr-2025` (with
//! what [`super::khr25`] adds) through [`render_2025`]: one renderer, the revision a parameter.

use reference::decision::Decision;
use reference::issue::Code;
use reference::khr::{COLLISION_SHAPES, IMPLICIT_SHAPES, RIGID_BODIES};
use serde_json::{Map, Value};

use super::common::{Rendered, Tags, tag};
use super::hierarchy::{Placement, placement_tag};
use super::khr25::{Extras2025, GeometryMode};
use super::rigid::{BodySpelling, RigidDoc};
use super::rigid_scene::{BodyLeaf, KhrScene};
use super::shape::{Dialect, ShapeKind, ShapeSpec, solid_mesh};
use crate::case::ExpectedIssue;
use crate::doc::{DocBuilder, MeshData, TrsSpec};

/// How KHR writes a scene: the draft, or a 2025 revision with its extras.
struct KhrSpelling<'a> {
    /// `Some`: render as `khr-2025` (or `khr-2026`).
    r2025: Option<&'a Extras2025>,
    /// The glTF mesh written for each mesh data (2026 mesh geometry), so that colliders on
    /// the same data share one mesh.
    meshes: Vec<(MeshData, usize)>,
}

impl BodySpelling for KhrSpelling<'_> {
    const BODIES: &'static str = RIGID_BODIES;
    const JOINTS: &'static str = RIGID_BODIES;
    const ON_OWNER: bool = true;

    fn dialect(&self) -> Dialect {
        Dialect::Khr
    }

    /// The draft's `"shape": i`, or 2025's and 2026's `"geometry": {...}` (mesh kinds as node
    /// geometry [D-GEOMETRY-NODE] or mesh geometry [D-GEOMETRY-MESH]).
    fn shape_member(
        cx: &mut RigidDoc<Self>,
        (node, member): (usize, &str),
        s: &ShapeSpec,
        target: &mut Map<String, Value>,
    ) {
        let Some(extras) = cx.spelling.r2025 else {
            s.tags(&mut cx.tags);
            let v = s.render(Dialect::Khr, &mut cx.doc);
            let shape = cx.doc.push_root(COLLISION_SHAPES, "shapes", Value::from(v));
            target.insert("shape".into(), Value::from(shape));
            return;
        };
        let mut geometry = Map::new();
        if s.kind.is_mesh() {
            s.tags(&mut cx.tags);
            let convex = s.kind == ShapeKind::Convex;
            let data = solid_mesh(s.solid, s.a);
            let source = match extras.geometry {
                GeometryMode::Morphed => {
                    // The solid stored at half size, morphed back to full size by the node's
                    // weight 0.5 (the mesh's default weight is 0).
                    let g = cx
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let mesh = cx.doc.morphed_mesh(&data);
                    cx.doc.node_member(g, "mesh", Value::from(mesh));
                    cx.doc.node_member(g, "weights", Value::from([0.5]));
                    tag(&mut cx.tags, &["geometry", "node", "morphed"]);
                    g
                }
                GeometryMode::Skinned => {
                    // The solid stored at half size, skinned back to full size by a joint of
                    // scale 2 beside it under the geometry node.
                    let g = cx
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let joint = doubling_joint(&mut cx.doc, format!("Geometry{node}Joint"), g);
                    let skinned = cx.doc.node(
                        format!("Geometry{node}Skinned"),
                        TrsSpec::default(),
                        Some(g),
                    );
                    let mesh = cx.doc.skinned_mesh(&data, 0.5);
                    let skin = cx.doc.skin(&[joint]);
                    cx.doc.node_member(skinned, "mesh", Value::from(mesh));
                    cx.doc.node_member(skinned, "skin", Value::from(skin));
                    tag(&mut cx.tags, &["geometry", "node", "skinned"]);
                    g
                }
                GeometryMode::MeshDrawn => {
                    // As the Blender exporter 0.3.0 writes: the collider's node draws the mesh
                    // its geometry names.
                    let mesh = shared_mesh(cx, &data);
                    cx.doc.node_member(node, "mesh", Value::from(mesh));
                    tag(&mut cx.tags, &["geometry", "mesh", "drawn"]);
                    mesh
                }
                GeometryMode::MeshOnly => {
                    let mesh = shared_mesh(cx, &data);
                    tag(&mut cx.tags, &["geometry", "mesh", "only"]);
                    mesh
                }
                GeometryMode::MeshMorphed => {
                    // The solid stored at half size, morphed back to full size by the mesh's
                    // own weight 0.5: no node gives a mesh geometry weights [D-GEOMETRY-MESH].
                    let mesh = cx.doc.morphed_mesh(&data);
                    cx.doc.mesh_weights(mesh, &[0.5]);
                    tag(&mut cx.tags, &["geometry", "mesh", "morphed"]);
                    mesh
                }
                GeometryMode::MeshSkinned => {
                    // The solid as stored (its bind pose), drawn by a node outside the scene
                    // with a skin whose joint doubles it: a mesh geometry is read unskinned
                    // [D-GEOMETRY-MESH] (an information issue says so).
                    let drawn = cx
                        .doc
                        .detached_node(format!("Drawn{node}"), TrsSpec::default());
                    let joint = doubling_joint(&mut cx.doc, format!("Drawn{node}Joint"), drawn);
                    let mesh = cx.doc.skinned_mesh(&data, 1.0);
                    let skin = cx.doc.skin(&[joint]);
                    cx.doc.node_member(drawn, "mesh", Value::from(mesh));
                    cx.doc.node_member(drawn, "skin", Value::from(skin));
                    cx.expected.push(ExpectedIssue::new(
                        Code::KhrGeometryMeshUnskinned,
                        format!("/nodes/{node}/extensions/{RIGID_BODIES}/{member}/geometry/mesh"),
                    ));
                    tag(&mut cx.tags, &["geometry", "mesh", "skinned"]);
                    mesh
                }
                GeometryMode::SelfNode => {
                    let mesh = cx.doc.mesh(&data);
                    cx.doc.node_member(node, "mesh", Value::from(mesh));
                    tag(&mut cx.tags, &["geometry", "node", "self"]);
                    node
                }
                GeometryMode::Detached => {
                    let mesh = cx.doc.mesh(&data);
                    let g = cx
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    cx.doc.node_member(g, "mesh", Value::from(mesh));
                    tag(&mut cx.tags, &["geometry", "node", "detached"]);
                    g
                }
                GeometryMode::Children => {
                    let mesh = cx.doc.mesh(&data);
                    // Two children: the solid turned a quarter about +Y, and the solid at half
                    // size; both inside the solid's bounding sphere.
                    let g = cx
                        .doc
                        .detached_node(format!("Geometry{node}"), TrsSpec::default());
                    let turned = TrsSpec {
                        translation: None,
                        rotation: Some([
                            0.0,
                            std::f64::consts::FRAC_1_SQRT_2,
                            0.0,
                            std::f64::consts::FRAC_1_SQRT_2,
                        ]),
                        scale: None,
                    };
                    let c0 = cx.doc.node(format!("Geometry{node}Part0"), turned, Some(g));
                    cx.doc.node_member(c0, "mesh", Value::from(mesh));
                    let half = TrsSpec {
                        translation: None,
                        rotation: None,
                        scale: Some([0.5, 0.5, 0.5]),
                    };
                    let c1 = cx.doc.node(format!("Geometry{node}Part1"), half, Some(g));
                    cx.doc.node_member(c1, "mesh", Value::from(mesh));
                    tag(&mut cx.tags, &["geometry", "node", "children"]);
                    g
                }
            };
            let key = if extras.geometry.names_a_mesh() {
                cx.decisions.insert(Decision::GeometryMesh);
                "mesh"
            } else {
                cx.decisions.insert(Decision::GeometryNode);
                "node"
            };
            geometry.insert("convexHull".into(), Value::from(convex));
            geometry.insert(key.into(), Value::from(source));
        } else {
            s.tags(&mut cx.tags);
            if s.explicit
                && matches!(s.kind, ShapeKind::Capsule | ShapeKind::Cylinder)
                && s.b != s.c
            {
                tag(&mut cx.tags, &["shape", s.kind.tag(), "tapered"]);
            }
            let v = s.render(Dialect::Khr, &mut cx.doc);
            let shape = cx.doc.push_root(IMPLICIT_SHAPES, "shapes", Value::from(v));
            geometry.insert("shape".into(), Value::from(shape));
        }
        target.insert("geometry".into(), Value::from(geometry));
    }

    fn collider_placed(cx: &mut RigidDoc<Self>, placement: Placement, on_body: bool) {
        if on_body {
            placement_tag(&mut cx.tags, "collider", placement);
            if placement != Placement::OnNode {
                cx.decisions.insert(Decision::Frames);
            }
        }
    }

    fn motion(cx: &mut RigidDoc<Self>, node: usize, leaf: &BodyLeaf, nested: bool) {
        cx.doc
            .node_extension_member(node, RIGID_BODIES, "motion", leaf.motion.render());
        if cx.spelling.r2025.is_some() && leaf.motion.mass == Some(0.0) {
            // [D-MASS-ZERO-SCHEMA]: a warning, read as infinite.
            cx.expected.push(ExpectedIssue::new(
                Code::KhrMassZero,
                format!("/nodes/{node}/extensions/{RIGID_BODIES}/motion/mass"),
            ));
        }
        leaf.motion.tags(&mut cx.tags);
        if nested {
            cx.decisions.insert(Decision::Frames);
        }
    }

    fn static_group(cx: &mut RigidDoc<Self>, _group: usize, _node: usize) {
        tag(&mut cx.tags, &["body", "static"]);
    }

    fn description(cx: &mut RigidDoc<Self>, desc: usize) -> Value {
        let d = &cx.scene.descs[desc];
        // 2025: a description may hold no limit (the draft requires one).
        let limits = if cx.spelling.r2025.is_some() && d.limits.is_empty() {
            tag(&mut cx.tags, &["joint", "no-limits"]);
            None
        } else {
            Some(d.limits.iter().map(|l| l.render()).collect())
        };
        d.render(limits)
    }

    fn joint(cx: &mut RigidDoc<Self>, frame_a: usize, joint: Map<String, Value>, desc: usize) {
        let d = &cx.scene.descs[desc];
        d.tags(&mut cx.tags);
        cx.doc
            .node_extension_member(frame_a, RIGID_BODIES, "joint", Value::from(joint));
        cx.decisions.insert(Decision::Frames);
        if d.limits
            .iter()
            .any(|l| l.min.is_none() || l.max.is_none() || l.stiffness.is_none())
        {
            cx.decisions.insert(Decision::LimitDefaults);
        }
    }

    fn finish(cx: &mut RigidDoc<Self>, radii: &[f64]) {
        if let Some(extras) = cx.spelling.r2025 {
            let below = -(radii.iter().fold(0.0_f64, |m, r| m.max(*r)) + 1.0).ceil();
            let disabled = super::khr25::render_extras(
                extras,
                &mut cx.doc,
                &mut cx.tags,
                &mut cx.decisions,
                below,
            );
            cx.expected.extend(disabled);
        }
    }
}

/// A skin joint named `name` under `parent` whose scale 2 doubles what it skins at rest.
fn doubling_joint(doc: &mut DocBuilder, name: String, parent: usize) -> usize {
    let twice = TrsSpec {
        translation: None,
        rotation: None,
        scale: Some([2.0, 2.0, 2.0]),
    };
    doc.node(name, twice, Some(parent))
}

/// The glTF mesh of `data`, written once: colliders on the same data share it.
fn shared_mesh(cx: &mut RigidDoc<KhrSpelling>, data: &MeshData) -> usize {
    if let Some((_, mesh)) = cx.spelling.meshes.iter().find(|(d, _)| d == data) {
        tag(&mut cx.tags, &["geometry", "mesh", "shared"]);
        return *mesh;
    }
    let mesh = cx.doc.mesh(data);
    cx.spelling.meshes.push((data.clone(), mesh));
    mesh
}

/// Render `scene` as a `khr-2024-draft` glTF document.
pub fn render(scene: &KhrScene, stem: &str) -> Rendered {
    render_revision(scene, None, stem)
}

/// Render `scene` as a `khr-2025` glTF document with `extras`.
pub fn render_2025(scene: &KhrScene, extras: &Extras2025, stem: &str) -> Rendered {
    render_revision(scene, Some(extras), stem)
}

fn render_revision(scene: &KhrScene, r2025: Option<&Extras2025>, stem: &str) -> Rendered {
    let spelling = KhrSpelling {
        r2025,
        meshes: Vec::new(),
    };
    super::rigid::render(scene, spelling, stem)
}

/// Every tag a KHR scene can carry.
pub fn universe(tags: &mut Tags) {
    super::shape::universe(tags);
    super::body::universe_motion(tags, false);
    super::material::universe(tags);
    super::filter::universe(tags);
    super::limit::universe(tags);
    super::drive::universe(tags);
    super::hierarchy::universe(tags, "collider");
    tags.retain(|t| !t.starts_with("omi."));
    super::rigid::universe(tags);
}
