// Shapes of the model as PhysX geometries, with the collider's scale baked in.
//
// A collider's pose relative to its actor is an affine map M = T Q U (U upper triangular from
// the QR split: scale on the diagonal, shear above it). PhysX shapes have a rigid local pose
// (T, Q) and unscaled geometry, so U goes into the geometry: exactly for boxes (no shear),
// spheres and capsules (uniform scale), cylinders (equal X/Z scale), and always for convex and
// triangle meshes (vertices are transformed). Anything else is `not_supported`.
//
// PhysX capsules and convex-core cylinders lie along X; the model's lie along Y, so their local
// pose gets a quarter turn about Z (X -> Y). A PhysX plane is x = 0 with normal +X, solid
// behind: the same quarter turn makes it the khr-2025 plane (normal +Y, the half-space below
// solid), exactly for an unbounded single-sided plane. A bounded single-sided plane is a thin box
// whose top face is the plane (a rectangle that is solid below, 2 * PLANE_HALF_THICKNESS deep).
// A double-sided plane is `not_supported`: PhysX has no zero-thickness surface, and a box would
// put its two faces off the plane.

import { NotSupported } from '../../kit/src/errors.js';
import { add, mat3Vec, qaxisAngle, qmul, qrotate } from '../../kit/src/math.js';
import { close, HULL_SEGMENTS, roundPoints, splitScale } from '../../kit/src/shape-scale.js';

export { HULL_SEGMENTS, roundPoints, splitScale };

const QUARTER_Z = qaxisAngle([0, 0, 1], Math.PI / 2);
/** Half the depth (m, after scale) of the box that stands in for a bounded plane. */
export const PLANE_HALF_THICKNESS = 0.05;

/**
 * The PhysX geometry of one collider. `cook` turns points (and triangles) into PhysX meshes.
 * Returns {geometry, pose, report: {shape, parameters}, note, kind, fix} where `kind` is the
 * PhysX geometry family ('sphere', 'box', 'capsule', 'core', 'convex', 'trimesh', 'plane') and
 * `fix` the pose buildGeometry appended to the collider's frame (pose = frame * fix), so that
 * reports can undo it.
 */
export function buildGeometry(P, shape, rel, mesh, cook, keep) {
  const s = splitScale(rel);
  const what = `a ${shape.type}`;
  const bake = (points) => points.map((p) => mat3Vec(s.upper, p));
  const noShear = () => {
    if (s.shear || s.mirrored) throw new NotSupported(`${what} under a sheared or mirrored scale`);
  };
  switch (shape.type) {
    case 'sphere': {
      if (!s.uniform) throw new NotSupported('a sphere under a non-uniform scale (an ellipsoid)');
      const r = shape.radius * s.diag[0];
      if (!(r > 0)) throw new NotSupported('a sphere of radius 0');
      return {
        kind: 'sphere',
        geometry: keep(new P.PxSphereGeometry(r)),
        pose: s.pose,
        report: { shape: 'sphere', parameters: { radius: r } },
      };
    }
    case 'box': {
      noShear();
      const size = shape.size.map((v, i) => v * s.diag[i]);
      if (!size.every((v) => v > 0)) throw new NotSupported('a box with a zero extent');
      return {
        kind: 'box',
        geometry: keep(new P.PxBoxGeometry(size[0] / 2, size[1] / 2, size[2] / 2)),
        pose: s.pose,
        report: { shape: 'box', parameters: { size } },
      };
    }
    case 'capsule':
    case 'cylinder': {
      const exact = shape.radiusTop === shape.radiusBottom;
      if (exact) {
        const k = s.diag[0];
        const ok = shape.type === 'capsule' ? s.uniform : !s.shear && !s.mirrored && close(s.diag[0], s.diag[2]);
        if (!ok) throw new NotSupported(`${what} under a scale that changes its cross-section`);
        const r = shape.radiusTop * k;
        const h = shape.height * s.diag[1];
        if (!(r > 0)) throw new NotSupported(`${what} of radius 0`);
        const pose = { p: s.pose.p, q: qmul(s.pose.q, QUARTER_Z) };
        const parameters = { height: h, radius_top: r, radius_bottom: r };
        if (shape.type === 'capsule') {
          return { kind: 'capsule', geometry: keep(new P.PxCapsuleGeometry(r, h / 2)), pose, report: { shape: 'capsule', parameters } };
        }
        if (!(h > 0)) throw new NotSupported('a cylinder of height 0');
        const core = keep(new P.PxConvexCoreCylinder(h, r));
        const geometry = keep(P.PxConvexCoreGeometryFactory.prototype.createFromCylinder(core, 0));
        return { kind: 'core', geometry, pose, report: { shape: 'cylinder', parameters } };
      }
      if (shape.height === 0 && shape.type === 'cylinder') throw new NotSupported('a cylinder of height 0');
      const convex = cook.convex(bake(roundPoints(shape)));
      const geometry = keep(new P.PxConvexMeshGeometry(convex));
      const d = s.diag;
      return {
        kind: 'convex',
        geometry,
        pose: s.pose,
        report: {
          shape: shape.type,
          parameters: { height: shape.height * d[1], radius_top: shape.radiusTop * d[0], radius_bottom: shape.radiusBottom * d[0], vertex_count: convex.getNbVertices() },
        },
        note: `${what} with radii ${shape.radiusTop} and ${shape.radiusBottom} is approximated by a convex hull of ${HULL_SEGMENTS} segments (PhysX has no tapered ${shape.type})`,
      };
    }
    case 'convex': {
      const points = bake(mesh.positions);
      if (points.length < 4) throw new NotSupported('a convex hull of fewer than 4 points');
      const convex = cook.convex(points);
      const note = convex.getNbVertices() >= 255
        ? 'a convex hull with 255 or more vertices: PhysX limits hulls to 255 vertices and may have simplified it'
        : undefined;
      return {
        kind: 'convex',
        geometry: keep(new P.PxConvexMeshGeometry(convex)),
        pose: s.pose,
        report: { shape: 'convex', parameters: { vertex_count: convex.getNbVertices() } },
        note,
      };
    }
    case 'trimesh': {
      const points = bake(mesh.positions);
      const triangles = s.mirrored ? mesh.triangles.map(([a, b, c]) => [a, c, b]) : mesh.triangles;
      if (triangles.length === 0) throw new NotSupported('a triangle mesh without triangles');
      const tri = cook.triangles(points, triangles);
      return {
        kind: 'trimesh',
        geometry: keep(new P.PxTriangleMeshGeometry(tri)),
        pose: s.pose,
        report: { shape: 'trimesh', parameters: { vertex_count: tri.getNbVertices(), triangle_count: tri.getNbTriangles() } },
      };
    }
    case 'plane': {
      noShear();
      if (shape.doubleSided) {
        throw new NotSupported('a double-sided plane (PhysX planes are half-spaces, and a box would put the two faces off the plane)');
      }
      const q = qmul(s.pose.q, QUARTER_Z);
      if (shape.sizeX === null && shape.sizeZ === null) {
        return {
          kind: 'plane',
          geometry: keep(new P.PxPlaneGeometry()),
          pose: { p: s.pose.p, q },
          report: { shape: 'plane', parameters: {} },
        };
      }
      if (shape.sizeX === null || shape.sizeZ === null) throw new NotSupported('a plane bounded along one axis only');
      const sizeX = shape.sizeX * s.diag[0];
      const sizeZ = shape.sizeZ * s.diag[2];
      const fix = { p: [0, -PLANE_HALF_THICKNESS, 0], q: [0, 0, 0, 1] };
      return {
        kind: 'box',
        geometry: keep(new P.PxBoxGeometry(sizeX / 2, PLANE_HALF_THICKNESS, sizeZ / 2)),
        pose: { p: add(s.pose.p, qrotate(s.pose.q, fix.p)), q: s.pose.q },
        fix,
        report: { shape: 'plane', parameters: { size_x: sizeX, size_z: sizeZ } },
        note: `a bounded plane ${sizeX} x ${sizeZ} is a box ${2 * PLANE_HALF_THICKNESS} deep below it (PhysX planes are unbounded)`,
      };
    }
    default:
      throw new NotSupported(`shape type ${shape.type}`);
  }
}

/** The rotation that `buildGeometry` added to a shape's pose, so reports can undo it. */
export function canonicalFix(kind) {
  return kind === 'capsule' || kind === 'core' || kind === 'plane' ? QUARTER_Z : [0, 0, 0, 1];
}
