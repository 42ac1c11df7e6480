//! The node hierarchy: canonical [`Node`]s with their rest TRS, and the forest check.

use nalgebra::{Quaternion, UnitQuaternion, Vector3};

use crate::issue::Issues;
use crate::scene::{Node, NodeId, Trs};

use super::Document;

/// Canonical nodes and the roots of the default scene.
pub fn read_nodes(doc: &Document, _issues: &mut Issues) -> (Vec<Node>, Vec<NodeId>) {
    let count = doc.root.nodes.len();
    let mut nodes: Vec<Node> = doc
        .root
        .nodes
        .iter()
        .map(|n| {
            let rest = match n.matrix {
                Some(_) => Trs::default(), // TODO(document helper): decompose
                None => Trs {
                    translation: n
                        .translation
                        .map(Vector3::from)
                        .unwrap_or_else(Vector3::zeros)
                        .cast(),
                    rotation: n
                        .rotation
                        .map(|r| {
                            let [x, y, z, w] = r.0;
                            UnitQuaternion::new_normalize(Quaternion::new(
                                f64::from(w),
                                f64::from(x),
                                f64::from(y),
                                f64::from(z),
                            ))
                        })
                        .unwrap_or_else(UnitQuaternion::identity),
                    scale: n
                        .scale
                        .map(Vector3::from)
                        .unwrap_or_else(|| Vector3::new(1.0, 1.0, 1.0))
                        .cast(),
                },
            };
            Node {
                name: n.name.clone(),
                parent: None,
                children: n
                    .children
                    .iter()
                    .flatten()
                    .map(|c| c.value())
                    .filter(|&c| c < count)
                    .collect(),
                rest,
                from_matrix: n.matrix.is_some(),
                mesh: n.mesh.map(|m| m.value()),
                has_camera: n.camera.is_some(),
                other_extensions: Vec::new(),
                in_scene: true,
            }
        })
        .collect();
    for parent in 0..count {
        for child in nodes[parent].children.clone() {
            if nodes[child].parent.is_none() {
                nodes[child].parent = Some(parent);
            }
        }
    }
    let roots = (0..count).filter(|&n| nodes[n].parent.is_none()).collect();
    (nodes, roots)
}
