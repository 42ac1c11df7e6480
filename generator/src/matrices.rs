//! The same scene with its nodes' transforms written as a `matrix` instead of TRS
//! ([`crate::plan::Edition::V2`]): an importer that ignores `matrix` misplaces bodies,
//! colliders and joint frames, and the interpretation and dynamics checks see it.

use std::collections::BTreeSet;

use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use reference::scene::Trs;
use serde_json::{Value, json};

/// The feature tag of a case whose nodes are written as matrices.
pub const TAG: &str = "node.matrix";

fn numbers<const N: usize>(v: Option<&Value>, default: [f64; N]) -> Option<[f64; N]> {
    let Some(v) = v else {
        return Some(default);
    };
    let a = v.as_array().filter(|a| a.len() == N)?;
    let mut out = default;
    for (o, x) in out.iter_mut().zip(a) {
        *o = x.as_f64()?;
    }
    Some(out)
}

/// The column-major matrix `T R S` of a node's TRS members ([`Trs::matrix`], the reference's
/// own); `None` when a member is not a list of numbers of its length.
fn matrix_of(node: &Value) -> Option<[f64; 16]> {
    let t = numbers(node.get("translation"), [0.0; 3])?;
    let r = numbers(node.get("rotation"), [0.0, 0.0, 0.0, 1.0])?;
    let s = numbers(node.get("scale"), [1.0; 3])?;
    let trs = Trs {
        translation: Vector3::from(t),
        rotation: UnitQuaternion::new_normalize(Quaternion::new(r[3], r[0], r[1], r[2])),
        scale: Vector3::from(s),
    };
    let mut out = [0.0; 16];
    out.copy_from_slice(trs.matrix().as_slice());
    Some(out)
}

/// `json` with every node that has a translation, rotation or scale, and is not in `keep`,
/// written with the equivalent `matrix`; `None` when no node changes.
pub fn written_as_matrices(json: &Value, keep: &BTreeSet<usize>) -> Option<Value> {
    let mut out = json.clone();
    let nodes = out.get_mut("nodes")?.as_array_mut()?;
    let mut changed = false;
    for (i, node) in nodes.iter_mut().enumerate() {
        let Some(members) = node.as_object_mut() else {
            continue;
        };
        let trs = ["translation", "rotation", "scale"];
        if keep.contains(&i) || !trs.iter().any(|k| members.contains_key(*k)) {
            continue;
        }
        let Some(m) = matrix_of(&Value::Object(members.clone())) else {
            continue;
        };
        for k in trs {
            members.remove(k);
        }
        members.insert("matrix".into(), json!(m));
        changed = true;
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quarter_turn_about_y_with_scale_and_translation() {
        // T (1, 2, 3), R a quarter turn about +Y (x -> -z, z -> x), S (2, 1, 1):
        // columns R S e_x = 2 (0, 0, -1), R S e_y = (0, 1, 0), R S e_z = (1, 0, 0), then T.
        let h = std::f64::consts::FRAC_1_SQRT_2;
        let doc = json!({"nodes": [
            {"translation": [1.0, 2.0, 3.0], "rotation": [0.0, h, 0.0, h], "scale": [2.0, 1.0, 1.0]},
            {"name": "no transform"},
            {"translation": [5.0, 0.0, 0.0]}
        ]});
        let out = written_as_matrices(&doc, &BTreeSet::from([2])).expect("changed");
        let m: Vec<f64> = out["nodes"][0]["matrix"]
            .as_array()
            .expect("matrix")
            .iter()
            .map(|x| x.as_f64().expect("number"))
            .collect();
        let want = [
            0.0, 0.0, -2.0, 0.0, //
            0.0, 1.0, 0.0, 0.0, //
            1.0, 0.0, 0.0, 0.0, //
            1.0, 2.0, 3.0, 1.0,
        ];
        for (g, w) in m.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{m:?}");
        }
        assert!(out["nodes"][0].get("translation").is_none());
        assert!(out["nodes"][0].get("rotation").is_none());
        assert!(out["nodes"][0].get("scale").is_none());
        assert_eq!(out["nodes"][1], doc["nodes"][1]);
        // Kept: a node the case poses keeps its TRS.
        assert_eq!(out["nodes"][2], doc["nodes"][2]);
    }

    #[test]
    fn nothing_to_write() {
        let doc = json!({"nodes": [{"name": "a"}, {"translation": [1.0, 0.0, 0.0]}]});
        assert!(written_as_matrices(&doc, &BTreeSet::from([1])).is_none());
    }
}
