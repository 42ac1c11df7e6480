//! Pose overrides: local TRS of some nodes, the input of `eval` and of constraint evaluation.
//!
//! The file format is `{"nodes": {"<node index>": {"translation": [x,y,z], "rotation":
//! [x,y,z,w], "scale": [x,y,z]}}}`; every field may be omitted and other nodes stay at rest.
//! A rotation that is not unit length is normalised (documented fallback); a zero rotation, a
//! non-finite number or an unknown node is an error.

use std::collections::BTreeMap;

use nalgebra::{UnitQuaternion, Vector3};
use serde::Deserialize;

use crate::math::quaternion_xyzw;
use crate::scene::{NodeId, Scene, Trs};

/// Local TRS overrides by node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Poses {
    pub nodes: BTreeMap<NodeId, PoseOverride>,
}

/// Override of some components of one node's local TRS.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PoseOverride {
    pub translation: Option<Vector3<f64>>,
    pub rotation: Option<UnitQuaternion<f64>>,
    pub scale: Option<Vector3<f64>>,
}

/// Why a poses file was rejected.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PosesError {
    #[error("poses are not valid JSON of the form {{\"nodes\": {{\"<index>\": {{...}}}}}}: {0}")]
    Syntax(String),
    #[error("node key {0:?} is not a node index")]
    BadKey(String),
    #[error("node {node} does not exist (the scene has {count} nodes)")]
    UnknownNode { node: NodeId, count: usize },
    #[error("node {node}: {field} has a non-finite component")]
    NonFinite { node: NodeId, field: &'static str },
    #[error("node {node}: rotation is the zero quaternion")]
    ZeroRotation { node: NodeId },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PosesFile {
    nodes: BTreeMap<String, PoseFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PoseFile {
    translation: Option<[f64; 3]>,
    rotation: Option<[f64; 4]>,
    scale: Option<[f64; 3]>,
}

impl Poses {
    /// Parse a poses file for a scene of `node_count` nodes.
    pub fn from_json(text: &str, node_count: usize) -> Result<Poses, PosesError> {
        let file: PosesFile =
            serde_json::from_str(text).map_err(|e| PosesError::Syntax(e.to_string()))?;
        Poses::from_file(file, node_count)
    }

    /// [`Poses::from_json`] of a value already parsed (the same poses as parsing its text).
    pub fn from_value(value: &serde_json::Value, node_count: usize) -> Result<Poses, PosesError> {
        let file = PosesFile::deserialize(value).map_err(|e| PosesError::Syntax(e.to_string()))?;
        Poses::from_file(file, node_count)
    }

    fn from_file(file: PosesFile, node_count: usize) -> Result<Poses, PosesError> {
        let mut poses = Poses::default();
        for (key, pose) in file.nodes {
            let node: NodeId = key.parse().map_err(|_| PosesError::BadKey(key.clone()))?;
            if node >= node_count {
                return Err(PosesError::UnknownNode {
                    node,
                    count: node_count,
                });
            }
            let finite = |v: &[f64], field| {
                if v.iter().all(|x| x.is_finite()) {
                    Ok(())
                } else {
                    Err(PosesError::NonFinite { node, field })
                }
            };
            let mut o = PoseOverride::default();
            if let Some(t) = pose.translation {
                finite(&t, "translation")?;
                o.translation = Some(Vector3::from(t));
            }
            if let Some(s) = pose.scale {
                finite(&s, "scale")?;
                o.scale = Some(Vector3::from(s));
            }
            if let Some(r) = pose.rotation {
                finite(&r, "rotation")?;
                let q = quaternion_xyzw(r);
                if q.norm() < 1e-12 {
                    return Err(PosesError::ZeroRotation { node });
                }
                o.rotation = Some(UnitQuaternion::from_quaternion(q));
            }
            poses.nodes.insert(node, o);
        }
        Ok(poses)
    }

    /// No override: [`Poses::locals`] gives every node's rest TRS as it is.
    pub fn is_rest(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The local TRS of every node of `scene`: the rest pose with these overrides applied.
    pub fn locals(&self, scene: &Scene) -> Vec<Trs> {
        scene
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let mut t = n.rest;
                if let Some(o) = self.nodes.get(&i) {
                    if let Some(v) = o.translation {
                        t.translation = v;
                    }
                    if let Some(r) = o.rotation {
                        t.rotation = r;
                    }
                    if let Some(s) = o.scale {
                        t.scale = s;
                    }
                }
                t
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_partial_overrides_and_normalises() {
        let p = Poses::from_json(
            r#"{"nodes": {"1": {"rotation": [0, 0, 0, 2]}, "0": {"translation": [1, 2, 3]}}}"#,
            2,
        )
        .expect("valid");
        assert_eq!(p.nodes[&1].rotation, Some(UnitQuaternion::identity()));
        assert_eq!(p.nodes[&0].translation, Some(Vector3::new(1.0, 2.0, 3.0)));
        assert_eq!(p.nodes[&0].rotation, None);
    }

    #[test]
    fn rejects_bad_input() {
        assert_eq!(
            Poses::from_json(r#"{"nodes": {"5": {}}}"#, 2),
            Err(PosesError::UnknownNode { node: 5, count: 2 })
        );
        assert_eq!(
            Poses::from_json(r#"{"nodes": {"x": {}}}"#, 2),
            Err(PosesError::BadKey("x".into()))
        );
        assert_eq!(
            Poses::from_json(r#"{"nodes": {"0": {"rotation": [0,0,0,0]}}}"#, 2),
            Err(PosesError::ZeroRotation { node: 0 })
        );
        assert!(matches!(
            Poses::from_json("[", 2),
            Err(PosesError::Syntax(_))
        ));
        assert!(matches!(
            Poses::from_value(&serde_json::json!({"nodes": {"0": {"turn": 1}}}), 2),
            Err(PosesError::Syntax(_))
        ));
    }

    /// A parsed value gives the poses its text gives, errors included.
    #[test]
    fn a_value_reads_as_its_text() {
        let cases = [
            r#"{"nodes": {"1": {"rotation": [0, 0, 0, 2]}, "0": {"translation": [1, 2.5, 3]}}}"#,
            r#"{"nodes": {"0": {"scale": [1, 1, 0.25], "rotation": [0.1, 0.2, 0.3, 0.9]}}}"#,
            r#"{"nodes": {"7": {}}}"#,
            r#"{"nodes": {"x": {}}}"#,
            r#"{"nodes": {"0": {"rotation": [0, 0, 0, 0]}}}"#,
        ];
        for text in cases {
            let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
            assert_eq!(
                Poses::from_value(&value, 2),
                Poses::from_json(text, 2),
                "{text}"
            );
        }
    }
}
