//! Rotations written by hand and posed scenes, for the constraint tests. Quaternions are
//! `(w, x, y, z)`; `rx(a)`, `ry(a)`, `rz(a)` rotate by `a` degrees about x, y, z;
//! `c(a) = cos(a deg)`, `s(a) = sin(a deg)`.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use reference::poses::{PoseOverride, Poses};
use reference::scene::{Scene, Trs};

pub fn c(deg: f64) -> f64 {
    deg.to_radians().cos()
}
pub fn s(deg: f64) -> f64 {
    deg.to_radians().sin()
}
pub fn q(w: f64, x: f64, y: f64, z: f64) -> UnitQuaternion<f64> {
    UnitQuaternion::new_normalize(Quaternion::new(w, x, y, z))
}
pub fn rx(deg: f64) -> UnitQuaternion<f64> {
    q(c(deg / 2.0), s(deg / 2.0), 0.0, 0.0)
}
pub fn ry(deg: f64) -> UnitQuaternion<f64> {
    q(c(deg / 2.0), 0.0, s(deg / 2.0), 0.0)
}
pub fn rz(deg: f64) -> UnitQuaternion<f64> {
    q(c(deg / 2.0), 0.0, 0.0, s(deg / 2.0))
}

/// A node's local override: its index, translation and rotation (each optional).
pub type Override = (usize, Option<[f64; 3]>, Option<UnitQuaternion<f64>>);

/// Local poses: rest, with the given overrides (through [`Poses`]).
pub fn posed(scene: &Scene, overrides: &[Override]) -> Vec<Trs> {
    let mut poses = Poses::default();
    for &(n, t, r) in overrides {
        let fields = PoseOverride {
            translation: t.map(Vector3::from),
            rotation: r,
            scale: None,
        };
        poses.nodes.insert(n, fields);
    }
    poses.locals(scene)
}
