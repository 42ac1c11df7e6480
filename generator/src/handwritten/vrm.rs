//! Hand-written VRM cases: seed 003's example (completed into a document), and an
//! everything-at-once scene with every kind, both spaces, chains and a constrained parent.

use reference::decision::Decision;
use reference::profile::Profile;
use reference::vrm::KEY;
use serde_json::json;

use super::common::case;
use crate::case::{Case, Tier};
use crate::strategy::transform::quat;

const P: Profile = Profile::VrmcConstraintsDraft;

pub fn cases() -> Vec<Case> {
    vec![seed_003_example(), everything()]
}

/// Seed 003's example is a fragment (no `asset`, no `extensionsUsed`); the case completes it
/// with exactly those, keeping its nodes as written.
fn seed_003_example() -> Case {
    let c = case(
        "vrm/control/seed-003-position",
        P,
        "control",
        "Control and seed 003 example: NodeB's position follows NodeA (model space, all axes, weight 1). The seed's fragment is completed with asset, extensionsUsed and a scene.",
        "seed 003 VRMC_constraints Extending Nodes",
        Tier::Informative,
        &[
            "vrm.position",
            "vrm.position.model-model",
            "vrm.space.default",
            "vrm.position.freeze.default",
            "vrm.weight.one",
        ],
        &[Decision::VrmRest, Decision::VrmPosition],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [KEY],
            "nodes": [
                {"name": "NodeA"},
                {"name": "NodeB", "extensions": {KEY: {"position": {"source": 0, "weight": 1.0}}}}
            ],
            "scene": 0,
            "scenes": [{"nodes": [0, 1]}]
        }),
        vec![],
    );
    c.with_poses(&[(
        "source-moved",
        json!({"0": {"translation": [1.0, 2.0, 3.0]}}),
    )])
}

fn everything() -> Case {
    let c = case(
        "vrm/everything/all-features",
        P,
        "everything",
        "Everything at once: position (local to local, x and z frozen, weight 0.5), rotation (model to model, defaults), an aim with explicit vectors (model to local, yaw only), a chain (the aim's source is itself constrained) and a constrained parent.",
        "seed 003 VRMC_constraints",
        Tier::Informative,
        &[
            "vrm.position",
            "vrm.position.local-local",
            "vrm.position.freeze.tft",
            "vrm.weight.partial",
            "vrm.rotation",
            "vrm.rotation.model-model",
            "vrm.space.default",
            "vrm.rotation.freeze.default",
            "vrm.weight.default",
            "vrm.aim",
            "vrm.aim.model-local",
            "vrm.aim.freeze.tf",
            "vrm.aim.vectors.explicit",
            "vrm.weight.one",
            "vrm.chain",
            "vrm.constrained-parent",
        ],
        &[
            Decision::VrmRest,
            Decision::VrmPosition,
            Decision::VrmRotation,
            Decision::VrmAim,
            Decision::VrmOrder,
            Decision::VrmRange,
        ],
        json!({
            "asset": {"version": "2.0"},
            "extensionsUsed": [KEY],
            "nodes": [
                {"name": "Root", "children": [1, 4]},
                {"name": "Driver", "translation": [1.0, 0.0, 0.0], "children": [2]},
                {"name": "DriverTip", "translation": [0.0, 1.0, 0.0]},
                {"name": "Follower", "translation": [-1.0, 0.0, 0.0], "children": [5],
                    "extensions": {KEY: {"position": {"source": 1, "sourceSpace": "local", "destinationSpace": "local", "freezeAxes": [true, false, true], "weight": 0.5}}}},
                {"name": "Spinner", "translation": [0.0, 0.0, 2.0],
                    "extensions": {KEY: {"rotation": {"source": 2}}}},
                {"name": "FollowerEye", "translation": [0.0, 0.5, 0.0],
                    "extensions": {KEY: {"aim": {"source": 4, "sourceSpace": "model", "destinationSpace": "local", "aimVector": [0.0, 0.0, 1.0], "upVector": [0.0, 1.0, 0.0], "freezeAxes": [true, false], "weight": 1.0}}}}
            ],
            "scene": 0,
            "scenes": [{"nodes": [0, 3]}]
        }),
        vec![],
    );
    c.with_poses(&[
        (
            "driver-moved",
            json!({"1": {"translation": [1.5, 0.5, 0.0], "rotation": quat([0.0, 0.0, 1.0], 30.0)}}),
        ),
        (
            "tip-turned",
            json!({"2": {"rotation": quat([0.0, 1.0, 0.0], 90.0)}}),
        ),
    ])
}
