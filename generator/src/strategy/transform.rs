//! Node transforms: rotations from a small set of axes and angles (exact unit quaternions),
//! offsets on a grid, and the world-pose arithmetic the profiles need to place joint frames.

use nalgebra::{Isometry3, Translation3, Unit, UnitQuaternion, Vector3};
use proptest::prelude::*;

use serde_json::{Map, Value};

/// Axes rotations are drawn about.
const AXES: [[f64; 3]; 5] = [
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [1.0, 1.0, 0.0],
    [1.0, -1.0, 1.0],
];

/// A rotation about one of [`AXES`] by a multiple of 15 degrees in (-180, 180], as glTF
/// `[x, y, z, w]`.
pub fn rotation() -> impl Strategy<Value = [f64; 4]> + Clone {
    (0..AXES.len(), -11i32..=12).prop_map(|(axis, steps)| step_rotation(axis, steps))
}

/// Number of 15-degree steps in (-180, 180].
const STEPS: usize = 24;

/// [`quat`]`(AXES[axis], steps * 15)` for `steps` in `-11..=12`, read from a table computed
/// once (drawing a scene would otherwise compute a sine and a cosine per rotation).
fn step_rotation(axis: usize, steps: i32) -> [f64; 4] {
    static TABLE: std::sync::OnceLock<[[[f64; 4]; STEPS]; AXES.len()]> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|a| {
            std::array::from_fn(|k| {
                let steps = i32::try_from(k).unwrap_or(0) - 11;
                quat(AXES[a], f64::from(steps) * 15.0)
            })
        })
    });
    match usize::try_from(steps + 11) {
        Ok(k) if k < STEPS && axis < AXES.len() => table[axis][k],
        _ => quat(AXES[axis % AXES.len()], f64::from(steps) * 15.0),
    }
}

/// Sometimes no rotation at all.
pub fn maybe_rotation() -> impl Strategy<Value = Option<[f64; 4]>> + Clone {
    prop::option::weighted(0.6, rotation())
}

/// The unit quaternion `[x, y, z, w]` for `degrees` about `axis` (normalised).
pub fn quat(axis: [f64; 3], degrees: f64) -> [f64; 4] {
    let q = UnitQuaternion::from_axis_angle(
        &Unit::new_normalize(Vector3::from(axis)),
        degrees.to_radians(),
    );
    xyzw(&q)
}

/// glTF order `[x, y, z, w]`.
pub fn xyzw(q: &UnitQuaternion<f64>) -> [f64; 4] {
    [q.i, q.j, q.k, q.w]
}

/// A unit quaternion from glTF `[x, y, z, w]`.
pub fn unit(q: [f64; 4]) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(reference::math::quaternion_xyzw(q))
}

/// The rigid transform of a node's translation and rotation.
pub fn iso(translation: [f64; 3], rotation: Option<[f64; 4]>) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::from(Vector3::from(translation)),
        rotation.map(unit).unwrap_or_else(UnitQuaternion::identity),
    )
}

/// `local` such that `parent * local == world`.
pub fn relative(parent: &Isometry3<f64>, world: &Isometry3<f64>) -> Isometry3<f64> {
    parent.inverse() * world
}

/// Translation and rotation of an isometry in glTF form (rotation omitted when identity).
pub fn parts(i: &Isometry3<f64>) -> ([f64; 3], Option<[f64; 4]>) {
    let t = i.translation.vector;
    let r = if i.rotation.angle() < 1e-12 {
        None
    } else {
        Some(xyzw(&i.rotation))
    };
    ([t.x, t.y, t.z], r)
}

/// The two pose sets of a scene with joints: every moved node, from its pose
/// `(node, translation, rotation)`, shifted by (0.1, -0.05, 0.02) m and twisted 20 degrees about
/// +Y. One place for both profiles, so their pose outputs move the same way.
pub fn shift_and_twist(
    moved: impl IntoIterator<Item = (usize, Vector3<f64>, UnitQuaternion<f64>)>,
) -> Vec<crate::case::PoseSet> {
    let mut shifted = Map::new();
    let mut twisted = Map::new();
    for (node, t, r) in moved {
        let mut shift = Map::new();
        shift.insert(
            "translation".into(),
            Value::from([t.x + 0.1, t.y - 0.05, t.z + 0.02]),
        );
        shifted.insert(node.to_string(), Value::Object(shift));
        let twist = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), 20f64.to_radians()) * r;
        let mut turn = Map::new();
        turn.insert("rotation".into(), Value::from(xyzw(&twist)));
        twisted.insert(node.to_string(), Value::Object(turn));
    }
    vec![
        crate::case::PoseSet::of_nodes("shifted", shifted),
        crate::case::PoseSet::of_nodes("twisted", twisted),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarter_turn_about_z() {
        // 90 degrees about z: (x, y, z, w) = (0, 0, sin 45, cos 45) = (0, 0, 0.7071, 0.7071).
        let q = quat([0.0, 0.0, 1.0], 90.0);
        assert!((q[2] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-15);
        assert!((q[3] - std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-15);
    }

    #[test]
    fn relative_inverts_composition() {
        let parent = iso([1.0, 2.0, 3.0], Some(quat([0.0, 1.0, 0.0], 90.0)));
        let world = iso([4.0, 2.0, 3.0], None);
        let local = relative(&parent, &world);
        // Parent x axis maps to world -z after 90 degrees about y, so world +x (3 m away) is
        // local +z: local translation (0, 0, 3).
        let (t, _) = parts(&local);
        assert!((t[2] - 3.0).abs() < 1e-12 && t[0].abs() < 1e-12);
        assert!(((parent * local).translation.vector - world.translation.vector).norm() < 1e-12);
    }

    #[test]
    fn table_rotations_are_quat_bit_for_bit() {
        for (axis, a) in AXES.iter().enumerate() {
            for steps in -11..=12 {
                let expected = quat(*a, f64::from(steps) * 15.0).map(f64::to_bits);
                assert_eq!(step_rotation(axis, steps).map(f64::to_bits), expected);
            }
        }
        // Out of the table: computed directly. 195 degrees about x: half-angle 97.5 degrees,
        // (sin 97.5, 0, 0, cos 97.5) = (0.9914449, 0, 0, -0.1305262).
        let q = step_rotation(0, 13);
        for (got, want) in
            q.iter()
                .zip([0.991_444_861_373_810_4, 0.0, 0.0, -0.130_526_192_220_051_6])
        {
            assert!((got - want).abs() < 1e-15, "{q:?}");
        }
    }

    proptest! {
        #[test]
        fn rotations_are_unit(q in rotation()) {
            let n = q.iter().map(|c| c * c).sum::<f64>().sqrt();
            prop_assert!((n - 1.0).abs() < 1e-12);
        }
    }
}
