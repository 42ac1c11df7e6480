// A collider's scale, split off its pose, and the points of tapered round shapes: shared by the
// engine adapters that bake a node's scale into their shapes (physx-node, jolt-node).

import { NotSupported } from './errors.js';
import { mat3ToQ, mat4Linear, mat4Translation, qrDecompose } from './math.js';

const TOLERANCE = 1e-9;
/** Segments of the hull that stands in for a tapered capsule or cylinder (an approximation). */
export const HULL_SEGMENTS = 48;

export function close(a, b) {
  return Math.abs(a - b) <= TOLERANCE * Math.max(Math.abs(a), Math.abs(b), 1e-12);
}

/**
 * Split the collider's affine map (relative to its actor) into a rigid pose and a scale.
 * Returns {pose: {p, q}, upper, diag, shear, uniform, mirrored}.
 */
export function splitScale(rel) {
  const split = qrDecompose(mat4Linear(rel));
  if (!split) throw new NotSupported('a collider with a zero scale');
  const u = split.upper;
  const diag = [u[0][0], u[1][1], u[2][2]];
  const big = Math.max(...diag.map(Math.abs));
  const shear = Math.abs(u[0][1]) + Math.abs(u[0][2]) + Math.abs(u[1][2]) > TOLERANCE * big;
  return {
    pose: { p: mat4Translation(rel), q: mat3ToQ(split.rotation) },
    upper: u,
    diag,
    shear,
    mirrored: diag[2] < 0,
    uniform: !shear && close(diag[0], diag[1]) && close(diag[1], diag[2]) && diag[2] > 0,
  };
}

/** Points of the convex hull of two spheres (a tapered capsule) or two circles (a frustum). */
export function roundPoints(shape) {
  const { height, radiusTop, radiusBottom } = shape;
  const pts = [];
  const n = HULL_SEGMENTS;
  if (shape.type === 'cylinder') {
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * i) / n;
      pts.push([radiusTop * Math.cos(a), height / 2, radiusTop * Math.sin(a)]);
      pts.push([radiusBottom * Math.cos(a), -height / 2, radiusBottom * Math.sin(a)]);
    }
    return pts;
  }
  const rings = n / 2;
  for (const [cy, r] of [[height / 2, radiusTop], [-height / 2, radiusBottom]]) {
    for (let j = 0; j <= rings; j++) {
      const phi = (Math.PI * j) / rings - Math.PI / 2;
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        pts.push([r * Math.cos(phi) * Math.cos(a), cy + r * Math.sin(phi), r * Math.cos(phi) * Math.sin(a)]);
      }
    }
  }
  return pts;
}

