// khr-2025 (KHR_physics_rigid_bodies PR #2424 with KHR_implicit_shapes PR #2370): what the
// revision changes in shapes, read into the model of scene.js.
//
// - `KHR_implicit_shapes.shapes[]`: plane, sphere, box, capsule, cylinder (defaults as the draft's:
//   radius 0.5, size [1, 1, 1], height 0.5 between the cap centres, radii 0.25). A plane has
//   `sizeX` / `sizeZ` (absent: unbounded along that axis) and `doubleSided` (default false).
//   Degenerate shapes are prohibited (a zero radius, extent, height or plane size, both radii 0):
//   the file is refused.
// - A collider's or trigger's `geometry` gives exactly one of `shape` and `node`. Node geometry
//   [D-GEOMETRY-NODE]: the meshes of the node and of its descendants, each placed by its
//   transform relative to the geometry node (the geometry node's own transform, and whether it
//   is in the scene, do not count), make one mesh in the collider node's frame; `convexHull`
//   makes it a convex hull, else a triangle mesh. Skins and morph weights are not applied (the
//   reference's KHR_GEOMETRY_DEFORMED), so the rest positions are read.
// - khr-2026 (KHR_physics_rigid_bodies, January 2026) adds a third kind: `geometry.mesh`, an index
//   into the glTF `meshes`, read by [`meshGeometry`]: the mesh's primitives in the collider's (or
//   trigger's) own node frame (so under that node's world transform, scale included, by the same
//   scale rules), morphed by the mesh's own default `weights` (missing: no morph; node weights
//   never apply), never skinned (POSITION as stored, the bind pose). `shape` and `node` read as in
//   khr-2025.
// - Scale [D-SHAPE-SCALE]: a collider whose world scale is zero on all three axes is left out; a
//   mirroring world matrix acts by the absolute value of its scale ([`colliderWorld`]).

import { Rejected, NotSupported } from './errors.js';
import { cross, dot, mat3Mul, mat3ToQ, mat3Transpose, mat4Linear, mat4Mul, norm, qaxisAngle, qToMat3, scale } from './math.js';
import { index, num, vec } from './values.js';

export const IMPLICIT_SHAPES = 'KHR_implicit_shapes';
const TYPES = ['plane', 'sphere', 'box', 'capsule', 'cylinder'];

/** One `KHR_implicit_shapes.shapes[i]` as a model shape; a degenerate shape is refused. */
export function implicitShape(s, i) {
  const at = `${IMPLICIT_SHAPES}.shapes[${i}]`;
  if (!TYPES.includes(s?.type)) throw new Rejected(`${at} has an unknown type ${JSON.stringify(s?.type)}`);
  const p = s[s.type] ?? {};
  const positive = (v, what) => {
    if (v === 0) throw new Rejected(`${at}.${s.type}.${what} is 0 (degenerate shapes are prohibited)`);
    return v;
  };
  switch (s.type) {
    case 'sphere':
      return { type: 'sphere', radius: positive(num(p.radius, 0.5, `${at}.sphere.radius`, { min: 0 }), 'radius') };
    case 'box': {
      const size = vec(p.size, 3, [1, 1, 1], `${at}.box.size`);
      if (size.some((v) => v < 0)) throw new Rejected(`${at}.box.size is negative`);
      size.forEach((v) => positive(v, 'size'));
      return { type: 'box', size };
    }
    case 'capsule':
    case 'cylinder': {
      const shape = {
        type: s.type,
        height: positive(num(p.height, 0.5, `${at}.${s.type}.height`, { min: 0 }), 'height'),
        radiusTop: num(p.radiusTop, 0.25, `${at}.${s.type}.radiusTop`, { min: 0 }),
        radiusBottom: num(p.radiusBottom, 0.25, `${at}.${s.type}.radiusBottom`, { min: 0 }),
      };
      if (shape.radiusTop === 0 && shape.radiusBottom === 0) throw new Rejected(`${at}: both radii are 0`);
      return shape;
    }
    default: {
      // plane
      const size = (key) => (p[key] === undefined ? null : positive(num(p[key], null, `${at}.plane.${key}`, { min: 0 }), key));
      if (p.doubleSided !== undefined && typeof p.doubleSided !== 'boolean') throw new Rejected(`${at}.plane.doubleSided is not a boolean`);
      return { type: 'plane', sizeX: size('sizeX'), sizeZ: size('sizeZ'), doubleSided: p.doubleSided === true };
    }
  }
}

/**
 * The model shape index of a `geometry` object at `at`: an implicit shape, or a mesh shape made
 * from a node (khr-2025 and later) or from a mesh (khr-2026, `revision` 2026), added to
 * `scene.shapes` once per source and convexHull, through `cache`. Returns null when the source has
 * no triangles (the collider is left out, with a note).
 */
export function geometryShape(g, at, doc, scene, cache, revision = 2025) {
  if (g === null || typeof g !== 'object' || Array.isArray(g)) throw new Rejected(`${at} is not an object`);
  const kinds = revision >= 2026 ? ['shape', 'node', 'mesh'] : ['shape', 'node'];
  if (kinds.filter((k) => g[k] !== undefined).length !== 1) throw new Rejected(`${at} needs exactly one of ${kinds.join(', ')}`);
  if (g.convexHull !== undefined && typeof g.convexHull !== 'boolean') throw new Rejected(`${at}.convexHull is not a boolean`);
  if (g.shape !== undefined) return index(g.shape, cache.implicit, `${at}.shape`);
  const convex = g.convexHull === true;
  const source = g.node !== undefined
    ? { what: 'node', index: index(g.node, doc.nodes.length, `${at}.node`), read: nodeMesh }
    : { what: 'mesh', index: index(g.mesh, doc.json.meshes?.length ?? 0, `${at}.mesh`), read: meshGeometry };
  const key = `${source.what}:${source.index}:${convex}`;
  if (!cache.meshes.has(key)) {
    const triangles = source.read(doc, source.index);
    let id = null;
    if (triangles.triangles.length === 0) {
      const what = source.what === 'node' ? 'has no triangle mesh at or below it' : 'has no triangles';
      scene.notes.push(`${at}: ${source.what} ${source.index} ${what}; the collider is left out`);
    } else {
      // `mesh: null`: the triangles are carried (a draft shape's `mesh` index would be read as stored).
      scene.shapes.push({ type: convex ? 'convex' : 'trimesh', mesh: null, triangles, source: { [source.what]: source.index } });
      id = scene.shapes.length - 1;
    }
    cache.meshes.set(key, id);
  }
  return cache.meshes.get(key);
}

/**
 * A khr-2026 mesh geometry: the primitives of mesh `mesh` in the collider's own frame (no node
 * transform of their own), morphed by the mesh's default `weights` (absent: the stored
 * positions); node weights and skins never apply, so a skinned mesh is read in its bind pose.
 */
export function meshGeometry(doc, mesh) {
  const weights = doc.json.meshes[mesh]?.weights;
  if (weights !== undefined && (!Array.isArray(weights) || !weights.every(Number.isFinite))) {
    throw new Rejected(`meshes[${mesh}].weights must be finite numbers`);
  }
  return doc.meshTriangles(mesh, weights ?? null);
}

/** Column-major 4x4 times a point. */
function transformPoint(m, p) {
  return [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
}

const IDENTITY4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/**
 * The meshes of `node` and its descendants merged in `node`'s frame [D-GEOMETRY-NODE]: each
 * mesh moved by the product of the local matrices from below `node` down to its node.
 */
export function nodeMesh(doc, node) {
  const positions = [];
  const triangles = [];
  const stack = [[node, IDENTITY4]];
  let budget = doc.nodes.length;
  while (stack.length > 0 && budget-- > 0) {
    const [n, matrix] = stack.pop();
    const def = doc.nodes[n];
    if (def.mesh !== undefined) {
      const part = doc.meshTriangles(index(def.mesh, doc.json.meshes?.length ?? 0, `nodes[${n}].mesh`));
      const base = positions.length;
      positions.push(...part.positions.map((p) => transformPoint(matrix, p)));
      triangles.push(...part.triangles.map((t) => t.map((v) => v + base)));
    }
    for (const child of [...(def.children ?? [])].reverse()) stack.push([child, mat4Mul(matrix, doc.local[child])]);
  }
  return { positions, triangles };
}

/** Whether a world matrix scales to zero on all three axes (the collider is disabled). */
export function zeroScale(m) {
  return mat4Linear(m).every((row) => row.every((v) => v === 0));
}

/** Relative tolerance under which a stretch counts as axis-aligned (the reference's). */
const AXIS_TOLERANCE = 1e-6;

/**
 * The world matrix a khr-2025 collider is simulated with [D-SHAPE-SCALE]. A proper matrix is
 * kept. A mirroring one (det < 0) acts by the absolute value of its scale: its rotation R is the
 * one the reference reads (the closest rotation, [`closestRotation`]), its stretch S = R^T L must
 * be axis-aligned, and the matrix becomes T R |S|. A mirrored mesh whose stretch is not
 * axis-aligned keeps its matrix (vertices take any map; the winding is turned by shapes.js);
 * a mirrored implicit shape whose stretch shears cannot be simulated.
 */
export function colliderWorld(m, shape) {
  const l = mat4Linear(m);
  const det = dot(l[0], cross(l[1], l[2]));
  if (!(det < 0)) return m;
  const r = closestRotation(l);
  const s = mat3Mul(mat3Transpose(r), l);
  const big = Math.max(...s.flat().map(Math.abs));
  const off = Math.max(...[[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1]].map(([i, k]) => Math.abs(s[i][k])));
  if (off > AXIS_TOLERANCE * big) {
    if (shape.type === 'convex' || shape.type === 'trimesh') return m;
    throw new NotSupported(`a ${shape.type} under a mirroring scale that is not axis-aligned`);
  }
  const k = [0, 1, 2].map((i) => Math.abs(s[i][i]));
  const out = m.slice();
  for (let c = 0; c < 3; c++) for (let row = 0; row < 3; row++) out[c * 4 + row] = r[row][c] * k[c];
  return out;
}

/**
 * The rotation (row-major 3x3) closest to the linear map `l` as the reference computes it
 * (`reference::math::rotation_of`): the columns normalised; a right-handed orthonormal result is
 * the rotation itself; otherwise (shear, mirroring) nalgebra's iterative extraction (Müller et
 * al., `Rotation3::from_matrix_eps` with eps 1e-12, 100 iterations, the identity as first guess).
 * For a mirror the closest rotation is not unique; the iteration's choice is the reference's.
 */
export function closestRotation(l) {
  const cols = [0, 1, 2].map((j) => {
    const c = [l[0][j], l[1][j], l[2][j]];
    const n = norm(c);
    return n > 0 ? scale(c, 1 / n) : c;
  });
  const off = Math.max(Math.abs(dot(cols[0], cols[1])), Math.abs(dot(cols[0], cols[2])), Math.abs(dot(cols[1], cols[2])));
  if (off <= 1e-14 && dot(cross(cols[0], cols[1]), cols[2]) > 0) {
    return [0, 1, 2].map((row) => [cols[0][row], cols[1][row], cols[2][row]]);
  }
  let rot = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  const col = (a, j) => [a[0][j], a[1][j], a[2][j]];
  for (let it = 0; it < 100; it++) {
    let axis = [0, 0, 0];
    let denom = 0;
    for (let j = 0; j < 3; j++) {
      const c = cross(col(rot, j), cols[j]);
      axis = [axis[0] + c[0], axis[1] + c[1], axis[2] + c[2]];
      denom += dot(col(rot, j), cols[j]);
    }
    const aa = scale(axis, 1 / (Math.abs(denom) + Number.EPSILON));
    const angle = norm(aa);
    if (!(angle > 1e-12)) break;
    rot = mat3Mul(qToMat3(qaxisAngle(scale(aa, 1 / angle), angle)), rot);
  }
  return rot;
}

/** The quaternion of `closestRotation` (for tests and notes). */
export function closestRotationQ(l) {
  return mat3ToQ(closestRotation(l));
}
