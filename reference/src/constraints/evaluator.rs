//! The constraint formulas [D-VRM-POSITION] [D-VRM-ROTATION] [D-VRM-AIM] of the draft and
//! [D-VRM1-ROLL] [D-VRM1-AIM] [D-VRM1-ROTATION] of VRM 1.0, prepared once per scene (order, rest
//! quantities) and evaluated per pose.

use nalgebra::{Matrix3, Matrix4, UnitQuaternion, Vector3};

use super::aim::{AimFrame, aim_direction, from_to};
use super::order::order;
use super::rotvec::{exp, fraction, log};
use super::{ConstraintError, Which};
use crate::decision::Decision;
use crate::math::rotation_of;
use crate::scene::{ConstraintKind, NodeConstraint, NodeId, Scene, Space, Trs};

/// A scene's constraints, ready to evaluate at any number of poses: the order and every rest
/// quantity are computed once.
#[derive(Debug)]
pub struct Evaluator<'a> {
    scene: &'a Scene,
    order: Vec<usize>,
    /// The rest pose, checked and with unit rotations.
    rest: Vec<Trs>,
    prepared: Vec<PreparedConstraint>,
}

/// The rest quantities of one constraint.
#[derive(Debug)]
enum PreparedConstraint {
    Position {
        /// The source's rest position in the source space.
        s0: Vector3<f64>,
        /// 1 for a constrained axis, 0 otherwise.
        mask: Vector3<f64>,
    },
    Rotation {
        /// Inverse of the source's rest rotation in the source space.
        s0_inv: UnitQuaternion<f64>,
        mask: Vector3<f64>,
    },
    Aim {
        frame: AimFrame,
        /// (yaw, pitch) of the rest direction and the inverse of its aim state; `None`: the
        /// source sits at the destination at rest.
        rest_state: Option<(f64, f64, UnitQuaternion<f64>)>,
        freeze: [bool; 2],
        /// The destination parent's rest model rotation (model destination) [D-VRM-AIM].
        parent_rest: UnitQuaternion<f64>,
    },
    /// VRM 1.0 roll [D-VRM1-ROLL].
    Roll {
        axis: Vector3<f64>,
        /// `srcRest^-1 dstRest`, as `delta = dstRest^-1 src srcRest^-1 dstRest`.
        src_rest_inv_dst_rest: UnitQuaternion<f64>,
    },
    /// VRM 1.0 aim [D-VRM1-AIM].
    AimAxis { axis: Vector3<f64> },
}

fn mask(axes: [bool; 3]) -> Vector3<f64> {
    Vector3::from(axes.map(|a| if a { 1.0 } else { 0.0 }))
}

/// Check a pose: finite numbers, a non-zero rotation (normalised on the way).
fn checked(trs: &Trs, node: NodeId, which: Which) -> Result<Trs, ConstraintError> {
    let q = trs.rotation.into_inner();
    let finite = trs.translation.iter().all(|v| v.is_finite())
        && trs.scale.iter().all(|v| v.is_finite())
        && q.coords.iter().all(|v| v.is_finite());
    if !finite {
        return Err(ConstraintError::NonFinite { node, which });
    }
    let scale = q.coords.amax(); // finite here
    if scale <= 0.0 {
        return Err(ConstraintError::ZeroRotation { node, which });
    }
    let q = q / scale;
    Ok(Trs {
        rotation: UnitQuaternion::new_normalize(q),
        ..*trs
    })
}

/// The affine matrix T R S of a TRS (built directly, cheaper than three 4x4 products).
fn affine(t: &Trs) -> Matrix4<f64> {
    let r = t.rotation.to_rotation_matrix().into_inner();
    let mut m = Matrix4::identity();
    for c in 0..3 {
        for row in 0..3 {
            m[(row, c)] = r[(row, c)] * t.scale[c];
        }
        m[(c, 3)] = t.translation[c];
    }
    m
}

/// Model (scene-root-relative) matrix of `node` under the local poses `locals`.
fn model(scene: &Scene, locals: &[Trs], node: NodeId) -> Matrix4<f64> {
    let mut m = affine(&locals[node]);
    for a in super::order::ancestors(scene, node) {
        match locals.get(a) {
            Some(t) => m = affine(t) * m,
            None => break,
        }
    }
    m
}

/// Model matrix of `node`'s parent (identity for a root).
fn parent_model(scene: &Scene, locals: &[Trs], node: NodeId) -> Matrix4<f64> {
    match scene.nodes[node].parent.filter(|&p| p < locals.len()) {
        Some(p) => model(scene, locals, p),
        None => Matrix4::identity(),
    }
}

fn linear(m: &Matrix4<f64>) -> Matrix3<f64> {
    m.fixed_view::<3, 3>(0, 0).into_owned()
}

fn translation(m: &Matrix4<f64>) -> Vector3<f64> {
    Vector3::new(m[(0, 3)], m[(1, 3)], m[(2, 3)])
}

/// Inverse of a parent's linear part; a singular one (a zero scale) gives its pseudo-inverse.
fn inverse_linear(l: &Matrix3<f64>) -> Matrix3<f64> {
    let size = l.column_iter().map(|c| c.norm()).product::<f64>();
    if l.determinant().abs() > 1e-12 * size
        && let Some(inv) = l.try_inverse()
    {
        return inv;
    }
    let eps = 1e-12 * l.amax();
    l.pseudo_inverse(eps).unwrap_or_else(|_| Matrix3::zeros())
}

/// A node's position in a space: its local translation, or its model-space position.
fn position(scene: &Scene, locals: &[Trs], node: NodeId, space: Space) -> Vector3<f64> {
    match space {
        Space::Local => locals[node].translation,
        Space::Model => translation(&model(scene, locals, node)),
    }
}

/// A node's rotation in a space: its local rotation, or its model-space rotation.
fn rotation(scene: &Scene, locals: &[Trs], node: NodeId, space: Space) -> UnitQuaternion<f64> {
    match space {
        Space::Local => locals[node].rotation,
        Space::Model => model_rotation(scene, locals, Some(node)),
    }
}

/// Cosines between a linear map's columns above which it counts as sheared [D-VRM1-SHEAR].
const SHEAR_COSINE: f64 = 1e-9;

/// Whether a linear map is sheared: two of its (non-zero) columns are not orthogonal, so no
/// rotation and scale make it [D-VRM1-SHEAR].
fn sheared(l: &Matrix3<f64>) -> bool {
    let cols: Vec<Vector3<f64>> = l
        .column_iter()
        .map(|c| c.into_owned())
        .filter(|c| c.norm() > 0.0)
        .map(|c| c.normalize())
        .collect();
    (0..cols.len()).any(|a| (a + 1..cols.len()).any(|b| cols[a].dot(&cols[b]).abs() > SHEAR_COSINE))
}

/// Whether a scale is uniform and positive, so it commutes with rotations.
fn uniform(s: &Vector3<f64>) -> bool {
    s.x > 0.0 && (s.y - s.x).abs() <= 1e-12 * s.x && (s.z - s.x).abs() <= 1e-12 * s.x
}

/// The model-space rotation of `node` (identity for `None`, the parent of a root): the closest
/// rotation to the model matrix' linear part ([`rotation_of`]). When every scale on the way is
/// uniform and positive, that is exactly the product of the local rotations, computed directly
/// (rotation_of normalises and checks the columns, and iterates when they are sheared).
fn model_rotation(scene: &Scene, locals: &[Trs], node: Option<NodeId>) -> UnitQuaternion<f64> {
    let Some(node) = node.filter(|&n| n < locals.len()) else {
        return UnitQuaternion::identity();
    };
    let mut q = locals[node].rotation;
    let mut all_uniform = uniform(&locals[node].scale);
    for a in super::order::ancestors(scene, node) {
        let Some(t) = locals.get(a) else { break };
        all_uniform &= uniform(&t.scale);
        q = t.rotation * q;
    }
    if all_uniform {
        q
    } else {
        rotation_of(&linear(&model(scene, locals, node)))
    }
}

/// Apply a rotation offset `delta` to the destination's rest rotation `q0`: in its own frame
/// (`q0 delta`, local rotation constraint), on the left in the parent frame (`delta q0`, local
/// aim), or on the left in the model frame (`P^-1 delta P q0`, model destination).
fn apply_model(
    scene: &Scene,
    locals: &[Trs],
    node: NodeId,
    delta: &UnitQuaternion<f64>,
    q0: &UnitQuaternion<f64>,
) -> UnitQuaternion<f64> {
    let p = model_rotation(scene, locals, scene.nodes[node].parent);
    p.inverse() * delta * p * q0
}

impl<'a> Evaluator<'a> {
    /// Check the scene's constraints and rest pose and prepare them; `Err` on a cycle, a node
    /// out of range, a weight outside [0, 1], a degenerate aim/up pair, or a bad rest pose.
    pub fn new(scene: &'a Scene) -> Result<Evaluator<'a>, ConstraintError> {
        let order = order(scene)?;
        let rest = scene
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| checked(&n.rest, i, Which::Rest))
            .collect::<Result<Vec<_>, _>>()?;
        let prepared = scene
            .constraints
            .iter()
            .enumerate()
            .map(|(i, c)| prepare(scene, &rest, i, c))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Evaluator {
            scene,
            order,
            rest,
            prepared,
        })
    }

    /// The order constraints run in.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// Evaluate at the local poses `locals` (one per node).
    pub fn evaluate(&self, locals: &[Trs]) -> Result<Vec<Trs>, ConstraintError> {
        let mut out = Vec::new();
        self.evaluate_into(locals, &mut out)?;
        Ok(out)
    }

    /// [`Evaluator::evaluate`] into a reused buffer.
    pub fn evaluate_into(&self, locals: &[Trs], out: &mut Vec<Trs>) -> Result<(), ConstraintError> {
        self.start(locals, out)?;
        for &i in &self.order {
            self.apply(i, out)?;
        }
        Ok(())
    }

    /// `out` set to the checked poses `locals`, before any constraint runs.
    fn start(&self, locals: &[Trs], out: &mut Vec<Trs>) -> Result<(), ConstraintError> {
        let expected = self.scene.nodes.len();
        if locals.len() != expected {
            return Err(ConstraintError::PoseCount {
                expected,
                actual: locals.len(),
            });
        }
        out.clear();
        for (i, t) in locals.iter().enumerate() {
            out.push(checked(t, i, Which::Pose)?);
        }
        Ok(())
    }

    /// The decisions the draft leaves open that an evaluation at `locals` reaches, each once:
    /// [D-VRM-FREEZE-ROTVEC] when a draft rotation constraint of non-zero weight with some
    /// axes frozen and some free has a delta whose sign is not the shortest path's: its `w < 0`
    /// as the stored quaternions multiply, or any model-space source (its rotation comes out of
    /// a model matrix, with the sign the implementation's decomposition gives). There, reading
    /// the rotation vector off the quaternion as it comes, as the draft's public
    /// implementation does, can give another output than the shortest path.
    /// [D-VRM1-SHEAR] when a VRM 1.0 aim's destination has a parent whose world matrix is
    /// sheared when the aim runs (a non-uniform scale above a rotated node): it has no world
    /// rotation, and the reference's choice of one is open.
    pub fn open_decisions(&self, locals: &[Trs]) -> Result<Vec<Decision>, ConstraintError> {
        let mut cur = Vec::new();
        self.start(locals, &mut cur)?;
        let mut open = Vec::new();
        for &i in &self.order {
            let c = &self.scene.constraints[i];
            match &self.prepared[i] {
                PreparedConstraint::Rotation { s0_inv, mask } => {
                    let partial = mask.sum() > 0.0 && mask.sum() < 3.0;
                    let signed = c.source_space == Space::Model
                        || self.rotation_delta(c, s0_inv, &cur).w < 0.0;
                    if c.weight > 0.0
                        && partial
                        && signed
                        && !open.contains(&Decision::VrmFreezeRotvec)
                    {
                        open.push(Decision::VrmFreezeRotvec);
                    }
                }
                PreparedConstraint::AimAxis { .. } => {
                    let parent = linear(&parent_model(self.scene, &cur, c.node));
                    if sheared(&parent) && !open.contains(&Decision::Vrm1Shear) {
                        open.push(Decision::Vrm1Shear);
                    }
                }
                _ => {}
            }
            self.apply(i, &mut cur)?;
        }
        Ok(open)
    }

    /// A draft rotation constraint's delta of its source from rest [D-VRM-ROTATION]: `S0^-1 S`
    /// (local) or `S S0^-1` (model), as the quaternions multiply (its sign not chosen).
    fn rotation_delta(
        &self,
        c: &NodeConstraint,
        s0_inv: &UnitQuaternion<f64>,
        cur: &[Trs],
    ) -> UnitQuaternion<f64> {
        let s = rotation(self.scene, cur, c.source, c.source_space);
        match c.source_space {
            Space::Local => s0_inv * s,
            Space::Model => s * s0_inv,
        }
    }

    /// Run constraint `i` on the current poses `cur`, changing its destination's local TRS.
    fn apply(&self, i: usize, cur: &mut [Trs]) -> Result<(), ConstraintError> {
        let c = &self.scene.constraints[i];
        let (dst, src) = (c.node, c.source);
        let rest = &self.rest[dst];
        let mut out = cur[dst];
        match &self.prepared[i] {
            PreparedConstraint::Position { s0, mask } => {
                // [D-VRM-POSITION] delta = (s - s0) masked, times weight, in the destination space.
                let s = position(self.scene, cur, src, c.source_space);
                let mut delta = (s - s0).component_mul(mask) * c.weight;
                if c.destination_space == Space::Model {
                    let l = linear(&parent_model(self.scene, cur, dst));
                    delta = inverse_linear(&l) * delta;
                }
                out.translation = rest.translation + delta;
            }
            PreparedConstraint::Rotation { s0_inv, mask } => {
                // [D-VRM-ROTATION] delta S0^-1 S (local) or S S0^-1 (model), frozen on the
                // rotation vector, slerp(I, delta, w) = exp(w log delta).
                let delta = self.rotation_delta(c, s0_inv, cur);
                let delta = exp(&(log(&delta).component_mul(mask) * c.weight));
                out.rotation = match c.destination_space {
                    Space::Local => rest.rotation * delta,
                    Space::Model => apply_model(self.scene, cur, dst, &delta, &rest.rotation),
                };
            }
            PreparedConstraint::Aim {
                frame,
                rest_state,
                freeze,
                parent_rest,
            } => {
                // [D-VRM-AIM] rotation from the rest aim state to the current one.
                let s = position(self.scene, cur, src, c.source_space);
                let p = position(self.scene, cur, dst, c.destination_space);
                let current = aim_direction(&p, &s).map(|d| frame.angles(&d));
                // The full rotation from the rest aim state to the current one.
                let r = match (rest_state, current) {
                    (Some((yaw0, pitch0, state0_inv)), Some((yaw1, pitch1))) => {
                        if !freeze[0] && freeze[1] {
                            // Pitch alone turns about the fixed side axis normalize(up x aim),
                            // not about that axis turned by the rest yaw.
                            UnitQuaternion::from_axis_angle(&frame.side, -(pitch1 - pitch0))
                        } else {
                            let yaw = if freeze[0] { yaw1 } else { *yaw0 };
                            let pitch = if freeze[1] { pitch1 } else { *pitch0 };
                            frame.state(yaw, pitch) * state0_inv
                        }
                    }
                    // No direction at rest or at the pose: the rest rotation (documented fallback).
                    _ => UnitQuaternion::identity(),
                };
                let q0 = rest.rotation;
                out.rotation = match c.destination_space {
                    Space::Local => fraction(&r, c.weight) * q0,
                    Space::Model => {
                        // The target's model rotation is r times the rest model rotation P0 q0,
                        // so the destination keeps aiming when its parent turns; the weight
                        // slerps from the rest rotation to that target.
                        let p = model_rotation(self.scene, cur, self.scene.nodes[dst].parent);
                        if p == *parent_rest {
                            // The same rotation in its conjugated form (the parent has not
                            // turned), which keeps the outputs of corpus/v1 bit for bit.
                            p.inverse() * fraction(&r, c.weight) * p * q0
                        } else {
                            let target = p.inverse() * r * parent_rest * q0;
                            q0 * fraction(&(q0.inverse() * target), c.weight)
                        }
                    }
                };
            }
            PreparedConstraint::Roll {
                axis,
                src_rest_inv_dst_rest,
            } => {
                // [D-VRM1-ROLL] delta = dstRest^-1 src srcRest^-1 dstRest; the swing that turns
                // the roll axis removed; slerp from the rest rotation.
                let q0 = rest.rotation;
                let delta = q0.inverse() * cur[src].rotation * src_rest_inv_dst_rest;
                let swing = from_to(axis, &(delta * axis));
                let roll = swing.inverse() * delta;
                out.rotation = q0 * fraction(&roll, c.weight);
            }
            PreparedConstraint::AimAxis { axis } => {
                // [D-VRM1-AIM] fromTo(P q0 axis, |src - dst|) in the parent frame, slerped.
                let q0 = rest.rotation;
                let p = model_rotation(self.scene, cur, self.scene.nodes[dst].parent);
                let s = position(self.scene, cur, src, Space::Model);
                let d = position(self.scene, cur, dst, Space::Model);
                out.rotation = match aim_direction(&d, &s) {
                    Some(to) => {
                        let from = p * q0 * axis;
                        let target = p.inverse() * from_to(&from, &to) * p * q0;
                        q0 * fraction(&(q0.inverse() * target), c.weight)
                    }
                    // The source at the destination: no direction, the rest rotation.
                    None => q0,
                };
            }
        }
        let q = out.rotation.into_inner();
        let finite =
            out.translation.iter().all(|v| v.is_finite()) && q.coords.iter().all(|v| v.is_finite());
        if !finite {
            return Err(ConstraintError::NonFiniteResult { constraint: i });
        }
        out.rotation = UnitQuaternion::new_normalize(q);
        cur[dst] = out;
        Ok(())
    }
}

/// Check one constraint and compute its rest quantities.
fn prepare(
    scene: &Scene,
    rest: &[Trs],
    i: usize,
    c: &NodeConstraint,
) -> Result<PreparedConstraint, ConstraintError> {
    if !(0.0..=1.0).contains(&c.weight) {
        return Err(ConstraintError::Weight {
            constraint: i,
            weight: c.weight,
        });
    }
    Ok(match &c.kind {
        ConstraintKind::Position { freeze_axes } => PreparedConstraint::Position {
            s0: position(scene, rest, c.source, c.source_space),
            mask: mask(*freeze_axes),
        },
        ConstraintKind::Rotation { freeze_axes } => PreparedConstraint::Rotation {
            s0_inv: rotation(scene, rest, c.source, c.source_space).inverse(),
            mask: mask(*freeze_axes),
        },
        ConstraintKind::Aim {
            aim_vector,
            up_vector,
            freeze_axes,
        } => {
            let frame = AimFrame::new(aim_vector, up_vector).map_err(|problem| {
                ConstraintError::AimGeometry {
                    constraint: i,
                    problem,
                }
            })?;
            let s0 = position(scene, rest, c.source, c.source_space);
            let p0 = position(scene, rest, c.node, c.destination_space);
            PreparedConstraint::Aim {
                frame,
                rest_state: aim_direction(&p0, &s0).map(|d| {
                    let (yaw, pitch) = frame.angles(&d);
                    (yaw, pitch, frame.state(yaw, pitch).inverse())
                }),
                freeze: *freeze_axes,
                parent_rest: model_rotation(scene, rest, scene.nodes[c.node].parent),
            }
        }
        ConstraintKind::Roll { roll_axis } => PreparedConstraint::Roll {
            axis: *roll_axis,
            src_rest_inv_dst_rest: rest[c.source].rotation.inverse() * rest[c.node].rotation,
        },
        ConstraintKind::AimAxis { aim_axis } => PreparedConstraint::AimAxis { axis: *aim_axis },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// The product-of-rotations shortcut equals the closest rotation of the model matrix
        /// when all scales are uniform and positive.
        #[test]
        fn model_rotation_shortcut_matches_rotation_of(
            parts in proptest::collection::vec(
                ((-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64), -3.0..3.0f64, 0.2..3.0f64), 1..5),
        ) {
            let locals: Vec<Trs> = parts
                .iter()
                .map(|&((x, y, z), angle, s)| Trs {
                    translation: Vector3::new(x, y, z),
                    rotation: UnitQuaternion::from_scaled_axis(Vector3::new(x, y, z) * angle),
                    scale: Vector3::new(s, s, s),
                })
                .collect();
            let scene = Scene::chain(Profile::VrmcConstraintsDraft, &locals);
            let last = locals.len() - 1;
            let fast = model_rotation(&scene, &locals, Some(last));
            let slow = rotation_of(&linear(&model(&scene, &locals, last)));
            prop_assert!(fast.angle_to(&slow) < 1e-6, "{} rad apart", fast.angle_to(&slow));
        }
    }

    /// Node 0 scaled (2, 1, 1), node 1 below it turned by `deg` about +Z, node 2 below node 1
    /// aiming (+X) at node 3 from (1, 0, 0). Node 1's world linear map is diag(2, 1, 1) Rz: its
    /// columns (2c, s, 0) and (-2s, c, 0) meet at a cosine of -3cs / (|..| |..|), non-zero
    /// unless the turn is a multiple of a quarter turn: sheared [D-VRM1-SHEAR]; with the scale
    /// on node 1 itself instead (diag on the right of Rz), or uniform, the columns stay
    /// orthogonal.
    fn shear_scene(deg: f64, scale_on: usize, scale: [f64; 3]) -> Vec<Decision> {
        let turn = UnitQuaternion::from_scaled_axis(Vector3::z() * deg.to_radians());
        let trs = |t: [f64; 3], r: UnitQuaternion<f64>, s: [f64; 3]| Trs {
            translation: Vector3::from(t),
            rotation: r,
            scale: Vector3::from(s),
        };
        let id = UnitQuaternion::identity();
        let mut nodes = vec![
            (None, trs([0.0; 3], id, [1.0; 3])),
            (Some(0), trs([0.0, 1.0, 0.0], turn, [1.0; 3])),
            (Some(1), trs([0.0; 3], id, [1.0; 3])),
            (None, trs([1.0, 0.0, 0.0], id, [1.0; 3])),
        ];
        nodes[scale_on].1.scale = Vector3::from(scale);
        let mut scene = Scene::from_parents(Profile::VrmcNodeConstraint10, &nodes);
        scene.constraints = vec![NodeConstraint {
            node: 2,
            source: 3,
            source_space: Space::Model,
            destination_space: Space::Model,
            weight: 1.0,
            kind: ConstraintKind::AimAxis {
                aim_axis: Vector3::x(),
            },
        }];
        let locals: Vec<Trs> = scene.nodes.iter().map(|n| n.rest).collect();
        Evaluator::new(&scene)
            .expect("valid")
            .open_decisions(&locals)
            .expect("evaluates")
    }

    #[test]
    fn an_aim_under_a_non_uniform_scale_above_a_rotated_parent_is_open() {
        let non_uniform = [2.0, 1.0, 1.0];
        assert_eq!(shear_scene(30.0, 0, non_uniform), [Decision::Vrm1Shear]);
        assert!(shear_scene(90.0, 0, non_uniform).is_empty());
        assert!(shear_scene(0.0, 0, non_uniform).is_empty());
        assert!(shear_scene(30.0, 1, non_uniform).is_empty());
        assert!(shear_scene(30.0, 2, non_uniform).is_empty());
        assert!(shear_scene(30.0, 0, [2.0, 2.0, 2.0]).is_empty());
    }
}
