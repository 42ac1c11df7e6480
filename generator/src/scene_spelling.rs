//! How the physics profiles with coupled joints spell one scene, for the scenes written once
//! for several: `khr-2025` with `KHR_implicit_shapes` and a `geometry`, the `khr-2024-draft`
//! with `KHR_collision_shapes` and a `shape`, OMI (`omi-2024`, `omi-2025`) with
//! `OMI_physics_shape` and a `shape` (omi-2024 dated by an unused cylinder with a `radius`);
//! joints the same but for their extension. (`omi-2023`'s joints are per-axis constraints
//! between two named nodes: another model.)

use reference::khr::{COLLISION_SHAPES, IMPLICIT_SHAPES, RIGID_BODIES};
use reference::omi::{BODY, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Value, json};

/// The profiles the scenes are written in.
pub const PROFILES: [Profile; 3] = [Profile::Khr2025, Profile::Omi2024, Profile::Omi2025];

/// The extension of bodies, colliders and triggers.
pub fn body_extension(p: Profile) -> &'static str {
    if p.is_khr() { RIGID_BODIES } else { BODY }
}

pub fn sphere(radius: f64) -> Value {
    json!({"type": "sphere", "sphere": {"radius": radius}})
}

pub fn cuboid(size: [f64; 3]) -> Value {
    json!({"type": "box", "box": {"size": size}})
}

/// A collider or trigger member on shape `shape`.
pub fn shape_ref(p: Profile, shape: usize) -> Value {
    if matches!(p, Profile::Khr2025 | Profile::Khr2026) {
        json!({"geometry": {"shape": shape}})
    } else {
        json!({"shape": shape})
    }
}

/// A collider member on shape `shape` with physics material `material` (an index into the
/// document's `physicsMaterials`, see [`with_materials`]).
pub fn material_collider(p: Profile, shape: usize, material: usize) -> Value {
    let mut c = shape_ref(p, shape);
    c["physicsMaterial"] = json!(material);
    c
}

/// `doc` with the root `physicsMaterials` of the profile's body extension (KHR_physics_rigid_bodies
/// or OMI_physics_body; both write the same material object), beside what the extension holds.
pub fn with_materials(p: Profile, mut doc: Value, materials: Vec<Value>) -> Value {
    let ext = &mut doc["extensions"][body_extension(p)];
    if ext.is_null() {
        *ext = json!({});
    }
    ext["physicsMaterials"] = Value::Array(materials);
    doc
}

/// Frame B of a joint to the world, at the origin: for KHR a node without a body; for OMI,
/// whose connected node must be part of a body with motion, a static body
/// ([`world_frame_tags`]).
pub fn world_frame(p: Profile) -> Value {
    if p.is_khr() {
        json!({"name": "FrameB"})
    } else {
        node(p, "FrameB", [0.0; 3], json!({"motion": {"type": "static"}}))
    }
}

/// The feature tags of [`world_frame`].
pub fn world_frame_tags(p: Profile) -> &'static [&'static str] {
    if p.is_khr() {
        &[]
    } else {
        &["body.static.motion"]
    }
}

/// The feature tags of what [`document`] adds to a scene of profile `p`.
pub fn document_tags(p: Profile) -> &'static [&'static str] {
    if p == Profile::Omi2024 {
        &["shape.dating-cylinder"]
    } else {
        &[]
    }
}

/// A dynamic body of `mass` kg, or a kinematic one (`None`).
pub fn motion(p: Profile, mass: Option<f64>) -> Value {
    match (p.is_khr(), mass) {
        (true, Some(m)) => json!({"mass": m}),
        (true, None) => json!({"isKinematic": true}),
        (false, Some(m)) => json!({"type": "dynamic", "mass": m}),
        (false, None) => json!({"type": "kinematic"}),
    }
}

/// A node with the profile's body extension holding `members`.
pub fn node(p: Profile, name: &str, translation: [f64; 3], members: Value) -> Value {
    json!({"name": name, "translation": translation,
        "extensions": {body_extension(p): members}})
}

/// A joint node at `translation`: frame A, to the body it is on (none: the world); frame B
/// is `connected` [D-FRAMES], the joint's limits and drives `physicsJoints[joint]`.
pub fn joint_node(p: Profile, name: &str, translation: [f64; 3], connected: usize) -> Value {
    let joint = json!({"connectedNode": connected, "joint": 0});
    let members = if p.is_khr() {
        json!({RIGID_BODIES: {"joint": joint}})
    } else {
        json!({JOINT: joint})
    };
    json!({"name": name, "translation": translation, "extensions": members})
}

/// The document of `shapes`, `nodes` and the joint description `joint` (its `limits` and
/// `drives`), every node without a parent a root (omi-2024's dating cylinder added:
/// [`document_tags`]).
pub fn document(
    p: Profile,
    mut shapes: Vec<Value>,
    nodes: Vec<Value>,
    joint: Option<Value>,
) -> Value {
    let children: Vec<u64> = nodes
        .iter()
        .filter_map(|n| n.get("children")?.as_array())
        .flatten()
        .filter_map(Value::as_u64)
        .collect();
    let roots: Vec<usize> = (0..nodes.len())
        .filter(|i| !children.contains(&(*i as u64)))
        .collect();
    if p == Profile::Omi2024 {
        shapes.push(json!({"type": "cylinder", "cylinder": {"radius": 0.1, "height": 0.2}}));
    }
    let (used, shape_extension) = if matches!(p, Profile::Khr2025 | Profile::Khr2026) {
        (json!([IMPLICIT_SHAPES, RIGID_BODIES]), IMPLICIT_SHAPES)
    } else if p.is_khr() {
        (json!([COLLISION_SHAPES, RIGID_BODIES]), COLLISION_SHAPES)
    } else {
        (json!([BODY, SHAPE]), SHAPE)
    };
    let mut doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": used,
        "extensions": {shape_extension: {"shapes": shapes}},
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0
    });
    if let Some(joint) = joint {
        let joints = json!({"physicsJoints": [joint]});
        if p.is_khr() {
            doc["extensions"][RIGID_BODIES] = joints;
        } else {
            doc["extensions"][JOINT] = joints;
            doc["extensionsUsed"] = json!([BODY, JOINT, SHAPE]);
        }
    }
    doc
}

/// Where a scene's rules are specified: `khr` the section of KHR_physics_rigid_bodies, `omi`
/// that of the OMI extensions.
pub fn spec(p: Profile, khr: &str, omi: &str) -> String {
    if p == Profile::Khr2024Draft {
        format!("seed 002 KHR_physics_rigid_bodies {khr}")
    } else if p.is_khr() {
        format!("KHR_physics_rigid_bodies (glTF PR #2424) {khr}")
    } else {
        format!(
            "{omi} ({})",
            if p == Profile::Omi2024 {
                "807ce4b"
            } else {
                "df53422"
            }
        )
    }
}
