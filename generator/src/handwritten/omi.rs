//! Hand-written OMI cases: the examples of seeds 000, 001 and 004, the special joint cases of
//! seed 000 (fixed, pin, hinge, slider), and an everything-at-once scene.

use reference::decision::Decision;
use reference::issue::Code;
use reference::omi::{BODY, COLLIDER, JOINT, SHAPE};
use reference::profile::Profile;
use serde_json::{Value, json};

use super::common::case;
use crate::case::{Case, ExpectedIssue, Tier};

const P: Profile = Profile::Omi2023;

pub fn cases() -> Vec<Case> {
    let mut v = vec![seed_004_example(), seed_001_example(), seed_000_example()];
    v.extend(special_joints());
    v.push(everything());
    v
}

/// Seed 004's example, the simplest OMI scene: a static box collider without a body.
fn seed_004_example() -> Case {
    case(
        "omi/control/seed-004-box-collider",
        P,
        "control",
        "Control and seed 004 example: a single box collider of 1 m, no body (a static solid).",
        "seed 004 OMI_collider Example",
        Tier::Required,
        &[
            "shape.box.explicit",
            "body.none",
            "omi.dialect.omi-collider",
        ],
        &[],
        json!({
            "asset": {"version": "2.0"},
            "extensions": {COLLIDER: {"colliders": [{"size": [1, 1, 1], "type": "box"}]}},
            "extensionsUsed": [COLLIDER],
            "nodes": [{"extensions": {COLLIDER: {"collider": 0}}, "name": "BoxCollider"}],
            "scene": 0,
            "scenes": [{"nodes": [0]}]
        }),
        vec![],
    )
}

fn seed_001_example() -> Case {
    case(
        "omi/seed/seed-001-static-box",
        P,
        "body",
        "Seed 001 example: a static body with a box shape (OMI_physics_shape, size 1 x 2 x 3) on a child node.",
        "seed 001 OMI_physics_body Example",
        Tier::Required,
        &[
            "body.omi.static",
            "shape.box.explicit",
            "collider.child",
            "omi.dialect.omi-physics-shape",
        ],
        &[],
        json!({
            "asset": {"version": "2.0"},
            "extensions": {SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}}]}},
            "extensionsUsed": [BODY, SHAPE],
            "nodes": [
                {"children": [1], "extensions": {BODY: {"type": "static"}}, "name": "StaticBox"},
                {"extensions": {SHAPE: {"shape": 0}}, "name": "StaticShape"}
            ],
            "scene": 0,
            "scenes": [{"nodes": [0]}]
        }),
        vec![],
    )
}

/// Seed 000's example as written: a pin joint between two rigid bodies that have no shape (the
/// example is a subset of a sample file), so each body draws the "should have shapes" warning.
fn seed_000_example() -> Case {
    case(
        "omi/seed/seed-000-pin-joint",
        P,
        "joint",
        "Seed 000 example as written: a pin joint (linear axes 0, 1, 2 fixed) between two rigid bodies; the excerpt omits their shapes, so both bodies are reported as shapeless (a warning), and its capsule collider is unused.",
        "seed 000 OMI_physics_joint Example; seed 001 Overview",
        Tier::Optional,
        &[
            "omi.joint.pin",
            "body.omi.rigid",
            "omi.constraint.linear.3",
            "omi.constraint.limits-default",
        ],
        &[
            Decision::OmiPerAxis,
            Decision::LimitDefaults,
            Decision::Frames,
        ],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLIDER, BODY, JOINT],
            "extensions": {
                COLLIDER: {"colliders": [{"height": 0.5, "radius": 0.05, "type": "capsule"}]},
                JOINT: {"constraints": [{"linearAxes": [0, 1, 2]}]}
            },
            "nodes": [
                {"extensions": {JOINT: {"constraints": [0], "nodeA": 1, "nodeB": 2}}, "name": "PinJoint", "translation": [-0.23, 0.6, 0.0]},
                {"extensions": {BODY: {"type": "rigid"}}, "name": "BodyA", "rotation": [0.0, 0.0, -0.17364804446697, 0.984807789325714], "translation": [-0.45, 0.68, 0.0]},
                {"extensions": {BODY: {"type": "rigid"}}, "name": "BodyB", "translation": [0.0, 0.6, 0.0]}
            ]
        }),
        vec![
            ExpectedIssue::new(
                Code::OmiBodyWithoutShapes,
                "/nodes/1/extensions/OMI_physics_body",
            ),
            ExpectedIssue::new(
                Code::OmiBodyWithoutShapes,
                "/nodes/2/extensions/OMI_physics_body",
            ),
        ],
    )
}

/// Two rigid spheres 1 m apart joined at the midpoint by `constraints`.
fn two_spheres(constraints: Value, kind: &str) -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [COLLIDER, BODY, JOINT],
        "extensions": {
            COLLIDER: {"colliders": [{"radius": 0.25, "type": "sphere"}]},
            JOINT: {"constraints": constraints}
        },
        "nodes": [
            {"name": format!("{kind}Joint"), "translation": [0.0, 1.0, 0.0],
                "extensions": {JOINT: {"constraints": (0..constraints.as_array().map_or(0, Vec::len)).collect::<Vec<_>>(), "nodeA": 1, "nodeB": 3}}},
            {"name": "BodyA", "translation": [-0.5, 1.0, 0.0], "children": [2], "extensions": {BODY: {"type": "rigid"}}},
            {"name": "BodyAShape", "extensions": {COLLIDER: {"collider": 0}}},
            {"name": "BodyB", "translation": [0.5, 1.0, 0.0], "children": [4], "extensions": {BODY: {"type": "rigid"}}},
            {"name": "BodyBShape", "extensions": {COLLIDER: {"collider": 0}}}
        ],
        "scene": 0,
        "scenes": [{"nodes": [0, 1, 3]}]
    })
}

fn special_joints() -> Vec<Case> {
    let d = [
        Decision::OmiPerAxis,
        Decision::LimitDefaults,
        Decision::Frames,
    ];
    let one = |name: &str, what: &str, constraints: Value, features: &[&str]| {
        case(
            &format!("omi/joint/special/{name}"),
            P,
            "joint",
            &format!("Seed 000 special case {name}: {what}"),
            "seed 000 OMI_physics_joint Special Cases",
            Tier::Required,
            features,
            &d,
            two_spheres(constraints, name),
            vec![],
        )
    };
    vec![
        one(
            "fixed",
            "all linear and angular axes fixed (lower = upper = 0 by default).",
            json!([{"linearAxes": [0, 1, 2], "angularAxes": [0, 1, 2]}]),
            &["omi.joint.fixed"],
        ),
        one(
            "pin",
            "all linear axes fixed, all angular axes free.",
            json!([{"linearAxes": [0, 1, 2]}]),
            &["omi.joint.pin"],
        ),
        one(
            "hinge",
            "one angular axis (z) in [-1, 1] rad, the rest fixed.",
            json!([{"linearAxes": [0, 1, 2], "angularAxes": [0, 1]}, {"angularAxes": [2], "lowerLimit": -1.0, "upperLimit": 1.0}]),
            &["omi.joint.hinge"],
        ),
        one(
            "slider",
            "one linear axis (x) in [-0.25, 0.25] m, the rest fixed.",
            json!([{"linearAxes": [0], "lowerLimit": -0.25, "upperLimit": 0.25}, {"linearAxes": [1, 2], "angularAxes": [0, 1, 2]}]),
            &["omi.joint.slider"],
        ),
        one(
            "slider-with-rotation",
            "one linear axis (x) and the angular axis around it with ranges, the rest fixed.",
            json!([{"linearAxes": [0], "lowerLimit": -0.25, "upperLimit": 0.25}, {"angularAxes": [0], "lowerLimit": -0.5, "upperLimit": 0.5}, {"linearAxes": [1, 2], "angularAxes": [1, 2]}]),
            &["omi.joint.slider"],
        ),
    ]
}

fn everything() -> Case {
    case(
        "omi/everything/all-features",
        P,
        "everything",
        "Everything at once (OMI_collider dialect): every body type (static, kinematic, character, rigid with mass, velocities, centre of mass and inertia tensor, vehicle, trigger), every shape type (defaults and explicit, hull and trimesh from a mesh), a trigger shape, a nested trigger body, and a soft damped hinge joint plus a slider.",
        "seeds 000, 001, 004",
        Tier::Required,
        &[
            "body.omi.static",
            "body.omi.kinematic",
            "body.omi.character",
            "body.omi.rigid",
            "body.omi.vehicle",
            "body.omi.trigger",
            "shape.box.defaults",
            "shape.sphere.explicit",
            "shape.capsule.explicit",
            "shape.cylinder.defaults",
            "shape.convex",
            "shape.trimesh",
            "shape.is-trigger.true",
            "body.nested",
            "omi.joint.hinge",
            "omi.joint.slider",
            "omi.constraint.soft",
            "omi.constraint.damping",
        ],
        &[
            Decision::OmiPerAxis,
            Decision::LimitDefaults,
            Decision::Frames,
            Decision::Capsule,
            Decision::MassZero,
            Decision::OmiVelocity,
        ],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [COLLIDER, BODY, JOINT],
            "extensions": {
                COLLIDER: {"colliders": [
                    {"type": "box"},
                    {"type": "sphere", "radius": 0.3},
                    {"type": "capsule", "radius": 0.2, "height": 1.0},
                    {"type": "cylinder"},
                    {"type": "hull", "mesh": 0},
                    {"type": "trimesh", "mesh": 0},
                    {"type": "sphere", "radius": 0.5, "isTrigger": true}
                ]},
                JOINT: {"constraints": [
                    {"linearAxes": [0, 1, 2], "angularAxes": [0, 2]},
                    {"angularAxes": [1], "lowerLimit": -0.8, "upperLimit": 0.8, "stiffness": 20.0, "damping": 0.5},
                    {"linearAxes": [0], "lowerLimit": -0.5, "upperLimit": 0.5},
                    {"linearAxes": [1, 2], "angularAxes": [0, 1, 2]}
                ]}
            },
            "buffers": [{"byteLength": 72, "uri": "data:application/octet-stream;base64,AACAPwAAgD8AAIA/AACAPwAAgL8AAIC/AACAvwAAgD8AAIC/AACAvwAAgL8AAIA/AAABAAIAAAADAAEAAAACAAMAAQADAAIA"}],
            "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 48, "target": 34962}, {"buffer": 0, "byteOffset": 48, "byteLength": 24, "target": 34963}],
            "accessors": [
                {"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [-1.0, -1.0, -1.0], "max": [1.0, 1.0, 1.0]},
                {"bufferView": 1, "componentType": 5123, "count": 12, "type": "SCALAR"}
            ],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1, "mode": 4}]}],
            "nodes": [
                {"name": "Ground", "translation": [0.0, -1.0, 0.0], "children": [1], "extensions": {BODY: {"type": "static"}}},
                {"name": "GroundShape", "extensions": {COLLIDER: {"collider": 5}}},
                {"name": "Platform", "translation": [4.0, 1.0, 0.0], "children": [3], "extensions": {BODY: {"type": "kinematic", "linearVelocity": [0.0, 0.0, 0.5]}}},
                {"name": "PlatformShape", "extensions": {COLLIDER: {"collider": 0}}},
                {"name": "Player", "translation": [8.0, 1.0, 0.0], "children": [5], "extensions": {BODY: {"type": "character"}}},
                {"name": "PlayerShape", "extensions": {COLLIDER: {"collider": 2}}},
                {"name": "Crate", "translation": [0.0, 4.0, 4.0], "children": [7, 8], "extensions": {BODY: {"type": "rigid", "mass": 3.0,
                    "linearVelocity": [1.0, 0.0, 0.0], "angularVelocity": [0.0, 0.5, 0.0], "centerOfMass": [0.0, 0.1, 0.0],
                    "inertiaTensor": [2.0, 0.1, 0.0, 0.1, 2.0, 0.0, 0.0, 0.0, 2.0]}}},
                {"name": "CrateShape", "extensions": {COLLIDER: {"collider": 4}}},
                {"name": "CrateSensor", "translation": [0.0, 3.0, 0.0], "children": [9], "extensions": {BODY: {"type": "trigger"}}},
                {"name": "CrateSensorShape", "extensions": {COLLIDER: {"collider": 6}}},
                {"name": "Car", "translation": [4.0, 4.0, 4.0], "children": [11], "extensions": {BODY: {"type": "vehicle", "mass": 800.0}}},
                {"name": "CarShape", "extensions": {COLLIDER: {"collider": 3}}},
                {"name": "Hinge", "translation": [2.0, 4.0, 4.0], "extensions": {JOINT: {"constraints": [0, 1], "nodeA": 6, "nodeB": 10}}},
                {"name": "Ball", "translation": [8.0, 4.0, 4.0], "children": [14], "extensions": {BODY: {"type": "rigid"}}},
                {"name": "BallShape", "extensions": {COLLIDER: {"collider": 1}}},
                {"name": "Slider", "translation": [6.0, 4.0, 4.0], "extensions": {JOINT: {"constraints": [2, 3], "nodeA": 13, "nodeB": 10}}}
            ],
            "scene": 0,
            "scenes": [{"nodes": [0, 2, 4, 6, 10, 12, 13, 15]}]
        }),
        vec![],
    )
}
