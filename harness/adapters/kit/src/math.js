// Small vector, quaternion and matrix helpers on plain arrays (f64).
// Quaternions are [x, y, z, w]; 4x4 matrices are column-major 16-arrays as in glTF;
// 3x3 matrices are row-major arrays of three rows.

export const IDENTITY_Q = Object.freeze([0, 0, 0, 1]);

export function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
export function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
export function scale(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
export function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
export function cross(a, b) {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
export function norm(a) { return Math.sqrt(dot(a, a)); }

export function qmul(a, b) {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}
export function qconj(q) { return [-q[0], -q[1], -q[2], q[3]]; }
export function qnormalize(q) {
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  return n > 0 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}
/** Rotate vector v by unit quaternion q. */
export function qrotate(q, v) {
  const u = [q[0], q[1], q[2]];
  const t = scale(cross(u, v), 2);
  return add(add(v, scale(t, q[3])), cross(u, t));
}
export function qaxisAngle(axis, angle) {
  const s = Math.sin(angle / 2);
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(angle / 2)];
}
/** Integrate orientation q by angular velocity w (world) over dt (exact for constant w). */
export function qintegrate(q, w, dt) {
  const speed = norm(w);
  if (speed * dt < 1e-15) return q;
  return qnormalize(qmul(qaxisAngle(scale(w, 1 / speed), speed * dt), q));
}

/** Rotation matrix (row-major 3x3) of a unit quaternion. */
export function qToMat3(q) {
  const [x, y, z, w] = q;
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
  ];
}
/** Unit quaternion of a proper rotation matrix (row-major 3x3), Shepperd's method. */
export function mat3ToQ(m) {
  const tr = m[0][0] + m[1][1] + m[2][2];
  let q;
  if (tr > 0) {
    const s = Math.sqrt(tr + 1) * 2;
    q = [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, s / 4];
  } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
    const s = Math.sqrt(1 + m[0][0] - m[1][1] - m[2][2]) * 2;
    q = [s / 4, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s];
  } else if (m[1][1] > m[2][2]) {
    const s = Math.sqrt(1 + m[1][1] - m[0][0] - m[2][2]) * 2;
    q = [(m[0][1] + m[1][0]) / s, s / 4, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s];
  } else {
    const s = Math.sqrt(1 + m[2][2] - m[0][0] - m[1][1]) * 2;
    q = [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, s / 4, (m[1][0] - m[0][1]) / s];
  }
  q = qnormalize(q);
  return q[3] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

export function mat3Mul(a, b) {
  const r = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  }
  return r;
}
export function mat3Transpose(a) { return [0, 1, 2].map((i) => [a[0][i], a[1][i], a[2][i]]); }
export function mat3Vec(a, v) { return [dot(a[0], v), dot(a[1], v), dot(a[2], v)]; }
export function mat3Det(a) {
  return dot(a[0], cross(a[1], a[2]));
}

/** Column-major 4x4 of translation t, rotation q, scale s. */
export function trsToMat4(t, q, s) {
  const r = qToMat3(q);
  const m = new Array(16).fill(0);
  for (let c = 0; c < 3; c++) for (let row = 0; row < 3; row++) m[c * 4 + row] = r[row][c] * s[c];
  m[12] = t[0]; m[13] = t[1]; m[14] = t[2]; m[15] = 1;
  return m;
}
export function mat4Mul(a, b) {
  const r = new Array(16).fill(0);
  for (let c = 0; c < 4; c++) for (let row = 0; row < 4; row++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + row] * b[c * 4 + k];
    r[c * 4 + row] = s;
  }
  return r;
}
/** Linear part (row-major 3x3) and translation of an affine column-major 4x4. */
export function mat4Linear(m) {
  return [[m[0], m[4], m[8]], [m[1], m[5], m[9]], [m[2], m[6], m[10]]];
}
export function mat4Translation(m) { return [m[12], m[13], m[14]]; }

/**
 * Split a linear map L into a rotation Q and an upper-triangular U with L = Q U (Gram-Schmidt on
 * the columns). U's diagonal holds the scale along each local axis; off-diagonal entries are
 * shear. A mirror (det L < 0) flips the last axis of U, so Q is always a proper rotation.
 * Returns null when L is singular (a zero scale).
 */
export function qrDecompose(l) {
  const col = (j) => [l[0][j], l[1][j], l[2][j]];
  const a0 = col(0), a1 = col(1), a2 = col(2);
  const n0 = norm(a0);
  if (!(n0 > 1e-12)) return null;
  const e0 = scale(a0, 1 / n0);
  const r01 = dot(e0, a1);
  const u1 = sub(a1, scale(e0, r01));
  const n1 = norm(u1);
  if (!(n1 > 1e-12)) return null;
  const e1 = scale(u1, 1 / n1);
  const r02 = dot(e0, a2), r12 = dot(e1, a2);
  const u2 = sub(sub(a2, scale(e0, r02)), scale(e1, r12));
  let n2 = norm(u2);
  if (!(n2 > 1e-12)) return null;
  let e2 = scale(u2, 1 / n2);
  // Make Q proper: if e0, e1, e2 is left-handed, use e0 x e1 and negate the last scale.
  if (dot(cross(e0, e1), e2) < 0) { e2 = scale(e2, -1); n2 = -n2; }
  const q = [[e0[0], e1[0], e2[0]], [e0[1], e1[1], e2[1]], [e0[2], e1[2], e2[2]]];
  const u = [[n0, r01, r02], [0, n1, r12], [0, 0, n2]];
  return { rotation: q, upper: u };
}

/** A rigid pose {p, q} from an affine matrix: translation and the rotation of its QR split. */
export function poseOfMat4(m) {
  const split = qrDecompose(mat4Linear(m));
  return { p: mat4Translation(m), q: split ? mat3ToQ(split.rotation) : [0, 0, 0, 1] };
}

export function poseMul(a, b) {
  return { p: add(a.p, qrotate(a.q, b.p)), q: qnormalize(qmul(a.q, b.q)) };
}
export function poseInv(a) {
  const qi = qconj(a.q);
  return { p: scale(qrotate(qi, a.p), -1), q: qi };
}
/** The affine map of pose a's inverse applied to matrix m: inv(a) * m, as a column-major 4x4. */
export function poseInvTimesMat4(a, m) {
  const inv = poseInv(a);
  return mat4Mul(trsToMat4(inv.p, inv.q, [1, 1, 1]), m);
}

/**
 * Eigen-decomposition of a symmetric 3x3 (row-major) by cyclic Jacobi rotations.
 * Returns {values: [3], vectors: rotation matrix whose columns are the eigenvectors}, with
 * det(vectors) = +1 so it is a proper rotation: A = V diag(values) V^T.
 */
export function symmetricEigen(a) {
  const m = a.map((r) => r.slice());
  let v = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  for (let sweep = 0; sweep < 64; sweep++) {
    const off = m[0][1] ** 2 + m[0][2] ** 2 + m[1][2] ** 2;
    const scaleAll = m[0][0] ** 2 + m[1][1] ** 2 + m[2][2] ** 2 + off;
    if (off <= 1e-30 * Math.max(scaleAll, 1e-300)) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      if (Math.abs(m[p][q]) < 1e-300) continue;
      const theta = (m[q][q] - m[p][p]) / (2 * m[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      const j = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
      j[p][p] = c; j[q][q] = c; j[p][q] = s; j[q][p] = -s;
      const mj = mat3Mul(mat3Mul(mat3Transpose(j), m), j);
      for (let i = 0; i < 3; i++) for (let k = 0; k < 3; k++) m[i][k] = mj[i][k];
      v = mat3Mul(v, j);
    }
  }
  if (mat3Det(v) < 0) v = v.map((r) => [r[0], r[1], -r[2]]);
  return { values: [m[0][0], m[1][1], m[2][2]], vectors: v };
}

/** `v` scaled to unit length (`v` itself when it is zero). */
export function vnormalize(v) {
  const n = Math.hypot(...v);
  return n > 0 ? v.map((x) => x / n) : v;
}

/** The rotation whose frame has x along `x` and y along `y` (orthonormalised). */
export function quatFromAxes(x, y) {
  const X = vnormalize(x);
  const Z = vnormalize(cross(X, y));
  const Y = cross(Z, X);
  // Rotation matrix with columns X, Y, Z.
  const m00 = X[0], m01 = Y[0], m02 = Z[0];
  const m10 = X[1], m11 = Y[1], m12 = Z[1];
  const m20 = X[2], m21 = Y[2], m22 = Z[2];
  const trace = m00 + m11 + m22;
  let q;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return qnormalize(q);
}

export function distance(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/** The normalised linear interpolation of two rotations, along the shorter arc. */
export function nlerp(a, b, t) {
  let qb = b;
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) qb = b.map((x) => -x);
  return qnormalize(a.map((x, i) => x + (qb[i] - x) * t));
}

/** The pose between `a` and `b` at `t` in [0, 1]: positions lerped, rotations [`nlerp`]ed. */
export function poseLerp(a, b, t) {
  return { p: a.p.map((x, i) => x + (b.p[i] - x) * t), q: nlerp(a.q, b.q, t) };
}
