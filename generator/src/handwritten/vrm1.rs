//! Hand-written VRMC_node_constraint 1.0 cases: the text's own example and hierarchies (twist
//! bones, a sleeve), a chain written against its dependency order, and the two edge cases the
//! text leaves open (informative).

use reference::decision::Decision;
use reference::profile::Profile;
use reference::vrm1::KEY;
use serde_json::{Value, json};

use super::common::case;
use crate::case::{Case, Tier};
use crate::strategy::transform::quat;

const P: Profile = Profile::VrmcNodeConstraint10;
const SPEC: &str = "VRMC_node_constraint 1.0 (vrm-specification 3942748)";

pub fn cases() -> Vec<Case> {
    vec![
        text_example(),
        twist_bones(),
        sleeve(),
        chain_against_file_order(),
        aim_source_opposite(),
        aim_source_at_destination(),
    ]
}

fn ext(constraint: Value) -> Value {
    json!({KEY: {"specVersion": "1.0", "constraint": constraint}})
}

fn doc(nodes: Value, roots: Value) -> Value {
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": [KEY],
        "nodes": nodes,
        "scene": 0,
        "scenes": [{"nodes": roots}]
    })
}

/// The text's example: NodeB's rotation follows NodeA (weight 1).
fn text_example() -> Case {
    case(
        "vrm1/control/text-example",
        P,
        "control",
        "Control and the text's example: a rotation constraint on NodeB with source NodeA, weight 1.0, completed with asset and a scene.",
        "VRMC_node_constraint 1.0 Extending Nodes",
        Tier::Required,
        &["vrm1.rotation", "vrm1.weight.one"],
        &[Decision::Vrm1Rotation, Decision::Vrm1Order],
        doc(
            json!([
                {"name": "NodeA"},
                {"name": "NodeB", "extensions": ext(json!({"rotation": {"source": 0, "weight": 1.0}}))}
            ]),
            json!([0, 1]),
        ),
        vec![],
    )
    .with_poses(&[
        (
            "a-turned",
            json!({"0": {"rotation": quat([1.0, 2.0, 3.0], 50.0)}}),
        ),
        (
            "a-turned-back",
            json!({"0": {"rotation": quat([-2.0, 1.0, 0.5], -120.0)}}),
        ),
    ])
}

/// The text's roll hierarchy: LowerArm with Hand, Twist1 and Twist2 (rolls about X with source
/// LowerArm, its parent, at weights 0.5 and 1).
fn twist_bones() -> Case {
    let twist_swing = |t: f64, s: f64| {
        let q =
            nalgebra::UnitQuaternion::from_axis_angle(&nalgebra::Vector3::z_axis(), s.to_radians())
                * nalgebra::UnitQuaternion::from_axis_angle(
                    &nalgebra::Vector3::x_axis(),
                    t.to_radians(),
                )
                * nalgebra::UnitQuaternion::from_axis_angle(
                    &nalgebra::Vector3::z_axis(),
                    10f64.to_radians(),
                );
        json!([q.i, q.j, q.k, q.w])
    };
    case(
        "vrm1/roll/twist-bones",
        P,
        "roll",
        "The text's roll hierarchy: Twist1 (weight 0.5) and Twist2 (default weight) roll about X with their parent LowerArm as source; LowerArm turns with a twist about X and a swing, which the rolls drop.",
        "VRMC_node_constraint 1.0 Roll Constraint",
        Tier::Required,
        &[
            "vrm1.roll.x",
            "vrm1.weight.partial",
            "vrm1.weight.default",
            "vrm1.source-parent",
        ],
        &[Decision::Vrm1Roll, Decision::Vrm1Order],
        doc(
            json!([
                {"name": "UpperArm", "children": [1]},
                {"name": "LowerArm", "translation": [1.0, 0.0, 0.0], "rotation": quat([0.0, 0.0, 1.0], 10.0), "children": [2, 3, 4]},
                {"name": "Hand", "translation": [1.0, 0.0, 0.0]},
                {"name": "Twist1", "translation": [0.33, 0.0, 0.0],
                    "extensions": ext(json!({"roll": {"source": 1, "rollAxis": "X", "weight": 0.5}}))},
                {"name": "Twist2", "translation": [0.66, 0.0, 0.0], "rotation": quat([0.0, 1.0, 0.0], 15.0),
                    "extensions": ext(json!({"roll": {"source": 1, "rollAxis": "X"}}))}
            ]),
            json!([0]),
        ),
        vec![],
    )
    .with_poses(&[
        (
            "twist-60-swing-30",
            json!({"1": {"rotation": twist_swing(60.0, 30.0)}}),
        ),
        (
            "twist-minus-80-swing-45",
            json!({"1": {"rotation": twist_swing(-80.0, 45.0)}, "0": {"rotation": quat([0.0, 1.0, 0.0], 30.0)}}),
        ),
    ])
}

/// The text's aim hierarchy: a sleeve (a sibling of UpperArm) aims at LowerArm.
fn sleeve() -> Case {
    case(
        "vrm1/aim/sleeve",
        P,
        "aim",
        "The text's aim hierarchy: Sleeve, under a turned Chest, aims PositiveX at LowerArm (child of UpperArm) at weights 1 and 0.5 (Sleeve2); UpperArm and Chest turn, so the direction and the parent world rotation both change.",
        "VRMC_node_constraint 1.0 Aim Constraint",
        Tier::Required,
        &[
            "vrm1.aim.positivex",
            "vrm1.weight.default",
            "vrm1.weight.partial",
        ],
        &[Decision::Vrm1Aim, Decision::Vrm1Order],
        doc(
            json!([
                {"name": "Chest", "rotation": quat([0.0, 1.0, 0.0], 20.0), "children": [1, 3, 4]},
                {"name": "UpperArm", "translation": [0.2, 0.0, 0.0], "children": [2]},
                {"name": "LowerArm", "translation": [1.0, 0.0, 0.0]},
                {"name": "Sleeve", "translation": [0.2, 0.1, 0.0],
                    "extensions": ext(json!({"aim": {"source": 2, "aimAxis": "PositiveX"}}))},
                {"name": "Sleeve2", "translation": [0.2, -0.1, 0.0], "rotation": quat([1.0, 0.0, 0.0], 30.0),
                    "extensions": ext(json!({"aim": {"source": 2, "aimAxis": "PositiveX", "weight": 0.5}}))}
            ]),
            json!([0]),
        ),
        vec![],
    )
    .with_poses(&[
        (
            "arm-down",
            json!({"1": {"rotation": quat([0.0, 0.0, 1.0], -60.0)}}),
        ),
        (
            "arm-forward-chest-turned",
            json!({"1": {"rotation": quat([0.0, 1.0, 0.0], -70.0)}, "0": {"rotation": quat([1.0, 1.0, 0.0], 40.0)}}),
        ),
    ])
}

/// Roll, aim and rotation in a chain whose file order is the reverse of its dependency order.
fn chain_against_file_order() -> Case {
    case(
        "vrm1/order/chain-against-file-order",
        P,
        "order",
        "A chain written against its dependency order: node 1 aims at node 2, whose parent node 3 copies node 4's rotation at weight 0.75, and node 4 rolls about Z with source node 5. Evaluated in file order, each would read a node not yet updated.",
        "VRMC_node_constraint 1.0 Dependency resolution between constraints",
        Tier::Required,
        &[
            "vrm1.aim.negativez",
            "vrm1.rotation",
            "vrm1.roll.z",
            "vrm1.chain",
            "vrm1.weight.partial",
            "vrm1.weight.default",
        ],
        &[
            Decision::Vrm1Aim,
            Decision::Vrm1Rotation,
            Decision::Vrm1Roll,
            Decision::Vrm1Order,
        ],
        doc(
            json!([
                {"name": "Root", "children": [1, 3, 4, 5]},
                {"name": "Aimer", "translation": [0.0, 0.0, 2.0],
                    "extensions": ext(json!({"aim": {"source": 2, "aimAxis": "NegativeZ"}}))},
                {"name": "Tip", "translation": [1.0, 0.5, 0.0]},
                {"name": "Arm", "translation": [0.0, 1.0, 0.0], "children": [2],
                    "extensions": ext(json!({"rotation": {"source": 4, "weight": 0.75}}))},
                {"name": "Roller", "translation": [2.0, 0.0, 0.0],
                    "extensions": ext(json!({"roll": {"source": 5, "rollAxis": "Z"}}))},
                {"name": "Driver", "translation": [-2.0, 0.0, 0.0]}
            ]),
            json!([0]),
        ),
        vec![],
    )
    .with_poses(&[
        (
            "driver-turned",
            json!({"5": {"rotation": quat([1.0, 0.5, 2.0], 70.0)}}),
        ),
        (
            "driver-turned-other-way",
            json!({"5": {"rotation": quat([-0.5, 1.0, 1.5], -50.0)}}),
        ),
    ])
}

/// The source exactly opposite the aim axis: the smallest rotation is a half turn about an axis
/// the text leaves open [D-VRM1-FROM-TO].
fn aim_source_opposite() -> Case {
    case(
        "vrm1/edge/aim-source-opposite",
        P,
        "edge",
        "Edge case the text leaves open: the source sits exactly opposite the aim axis (PositiveZ, source at -Z), so the smallest rotation is a half turn about any axis orthogonal to Z; the reference takes three.js's choice.",
        SPEC,
        Tier::Informative,
        &["vrm1.aim.positivez", "vrm1.weight.one"],
        &[Decision::Vrm1Aim, Decision::Vrm1FromTo],
        doc(
            json!([
                {"name": "Target", "translation": [0.0, 0.0, 3.0]},
                {"name": "Aimer", "extensions": ext(json!({"aim": {"source": 0, "aimAxis": "PositiveZ", "weight": 1.0}}))}
            ]),
            json!([0, 1]),
        ),
        vec![],
    )
    .with_poses(&[("behind", json!({"0": {"translation": [0.0, 0.0, -3.0]}}))])
}

/// The source at the destination's position: no direction; the reference keeps the rest
/// rotation (three.js's normalize of a zero vector gives the same).
fn aim_source_at_destination() -> Case {
    case(
        "vrm1/edge/aim-source-at-destination",
        P,
        "edge",
        "Edge case the text leaves open: the source moves onto the destination's position, so there is no direction to aim at; the reference keeps the rest rotation.",
        SPEC,
        Tier::Informative,
        &["vrm1.aim.positivey", "vrm1.weight.one"],
        &[Decision::Vrm1Aim],
        doc(
            json!([
                {"name": "Target", "translation": [1.0, 1.0, 0.0]},
                {"name": "Aimer", "translation": [1.0, 0.0, 0.0], "rotation": quat([0.0, 0.0, 1.0], 30.0),
                    "extensions": ext(json!({"aim": {"source": 0, "aimAxis": "PositiveY", "weight": 1.0}}))}
            ]),
            json!([0, 1]),
        ),
        vec![],
    )
    .with_poses(&[("on-top", json!({"0": {"translation": [1.0, 0.0, 0.0]}}))])
}
