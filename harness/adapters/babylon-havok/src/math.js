// Small rigid-transform helpers on plain arrays: vectors [x, y, z], quaternions [x, y, z, w],
// poses {p, q}. Only for composing what Babylon and Havok report (never for physics).

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

export function qconj(q) {
  return [-q[0], -q[1], -q[2], q[3]];
}

export function qnormalize(q) {
  const n = Math.hypot(...q);
  return n > 0 ? q.map((x) => x / n) : [0, 0, 0, 1];
}

/** Rotate vector v by unit quaternion q. */
export function rotate(q, v) {
  const p = qmul(qmul(q, [v[0], v[1], v[2], 0]), qconj(q));
  return [p[0], p[1], p[2]];
}

export function poseMul(a, b) {
  const r = rotate(a.q, b.p);
  return { p: [a.p[0] + r[0], a.p[1] + r[1], a.p[2] + r[2]], q: qmul(a.q, b.q) };
}

export function poseInv(a) {
  const qi = qconj(a.q);
  const p = rotate(qi, a.p);
  return { p: [-p[0], -p[1], -p[2]], q: qi };
}

export function cross(a, b) {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function normalize(v) {
  const n = Math.hypot(...v);
  return n > 0 ? v.map((x) => x / n) : v;
}

/** The rotation whose frame has x along `x` and y along `y` (orthonormalised). */
export function quatFromAxes(x, y) {
  const X = normalize(x);
  const Z = normalize(cross(X, y));
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

export function slerpish(a, b, t) {
  let qb = b;
  const d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  if (d < 0) qb = b.map((x) => -x);
  return qnormalize(a.map((x, i) => x + (qb[i] - x) * t));
}
