// Shapes of the kit's model as Jolt shape settings, with the collider's scale baked in (the
// kit's splitScale: a rigid pose and an upper-triangular scale), as in physx-node.
//
// Jolt's capsules, cylinders and their tapered forms lie along +Y like the model's, so no turn
// is needed. Every convex shape is built with a convex radius of 0 (Jolt rounds box and
// cylinder edges by 0.05 m by default), and at density 1 kg/m^3 (Jolt's default is 1000).
// Tapered capsules (`TaperedCapsuleShape`) and tapered cylinders (`TaperedCylinderShape`) are
// Jolt's own exact shapes, where PhysX and Rapier use convex hulls. An unbounded single-sided
// plane is a static `PlaneShape` (the half-space below it solid, as the reference's); a bounded
// one is a box 0.1 m deep whose top face is the plane (as in physx-node); a double-sided one is
// not supported.

import { NotSupported } from '../../kit/src/errors.js';
import { add, mat3Vec, qrotate } from '../../kit/src/math.js';
import { close, splitScale } from '../../kit/src/shape-scale.js';

/** Density (kg/m^3) for mass the file leaves to the engine (the spec names none; as physx-node). */
export const DEFAULT_DENSITY = 1;
/** Half the depth (m, after scale) of the box that stands in for a bounded plane. */
export const PLANE_HALF_THICKNESS = 0.05;
/** Half extent of the square Jolt gives an "unbounded" plane (its bounding box). */
export const PLANE_HALF_EXTENT = 1e4;

function vec3(J, v) { return new J.Vec3(v[0], v[1], v[2]); }

/** Create the shape of `settings`, or say why Jolt refuses it (not_supported). */
export function createShape(J, settings, what) {
  const result = settings.Create();
  if (result.HasError()) {
    const message = result.GetError().c_str();
    throw new NotSupported(`${what}: Jolt refuses the shape (${message})`);
  }
  return result.Get();
}

/**
 * The Jolt shape settings of one collider. `rel` is the collider's matrix relative to its body's
 * pose; `mesh` its triangles (convex, trimesh). Returns {settings, pose, report, note, plane}
 * where `pose` places the shape in the body and `report` is what the interpretation says.
 */
export function buildShape(J, shape, rel, mesh) {
  const s = splitScale(rel);
  const what = `a ${shape.type}`;
  const bake = (points) => points.map((p) => mat3Vec(s.upper, p));
  const noShear = () => {
    if (s.shear || s.mirrored) throw new NotSupported(`${what} under a sheared or mirrored scale`);
  };
  const convex = (settings) => { settings.mDensity = DEFAULT_DENSITY; return settings; };
  switch (shape.type) {
    case 'sphere': {
      if (!s.uniform) throw new NotSupported('a sphere under a non-uniform scale (an ellipsoid)');
      const r = shape.radius * s.diag[0];
      if (!(r > 0)) throw new NotSupported('a sphere of radius 0');
      return { settings: convex(new J.SphereShapeSettings(r)), pose: s.pose, report: { shape: 'sphere', parameters: { radius: r } } };
    }
    case 'box': {
      noShear();
      const size = shape.size.map((v, i) => v * s.diag[i]);
      if (!size.every((v) => v > 0)) throw new NotSupported('a box with a zero extent');
      const settings = convex(new J.BoxShapeSettings(vec3(J, size.map((v) => v / 2)), 0));
      return { settings, pose: s.pose, report: { shape: 'box', parameters: { size } } };
    }
    case 'capsule':
    case 'cylinder': {
      const tapered = shape.radiusTop !== shape.radiusBottom;
      const ok = shape.type === 'capsule' ? s.uniform : !s.shear && !s.mirrored && close(s.diag[0], s.diag[2]);
      if (!ok) throw new NotSupported(`${what} under a scale that changes its cross-section`);
      const k = s.diag[0];
      const top = shape.radiusTop * k;
      const bottom = shape.radiusBottom * k;
      const h = shape.height * s.diag[1];
      const parameters = { height: h, radius_top: top, radius_bottom: bottom };
      const report = { shape: shape.type, parameters };
      if (shape.type === 'capsule') {
        if (!(Math.max(top, bottom) > 0)) throw new NotSupported('a capsule of radius 0');
        if (!tapered) {
          // A capsule whose cap centres meet is a sphere (Jolt wants a positive half height).
          const settings = h > 0 ? new J.CapsuleShapeSettings(h / 2, top) : new J.SphereShapeSettings(top);
          return { settings: convex(settings), pose: s.pose, report };
        }
        return { settings: convex(new J.TaperedCapsuleShapeSettings(h / 2, top, bottom)), pose: s.pose, report };
      }
      if (!(h > 0)) throw new NotSupported('a cylinder of height 0');
      if (!tapered) {
        if (!(top > 0)) throw new NotSupported('a cylinder of radius 0');
        return { settings: convex(new J.CylinderShapeSettings(h / 2, top, 0)), pose: s.pose, report };
      }
      return { settings: convex(new J.TaperedCylinderShapeSettings(h / 2, top, bottom, 0)), pose: s.pose, report };
    }
    case 'convex': {
      const points = bake(mesh.positions);
      if (points.length < 4) throw new NotSupported('a convex hull of fewer than 4 points');
      const settings = convex(new J.ConvexHullShapeSettings());
      for (const p of points) settings.mPoints.push_back(vec3(J, p));
      settings.mMaxConvexRadius = 0;
      return { settings, pose: s.pose, report: { shape: 'convex', parameters: { vertex_count: points.length } }, hull: true };
    }
    case 'trimesh': {
      const points = bake(mesh.positions);
      const triangles = s.mirrored ? mesh.triangles.map(([a, b, c]) => [a, c, b]) : mesh.triangles;
      if (triangles.length === 0) throw new NotSupported('a triangle mesh without triangles');
      const vertices = new J.VertexList();
      const f = new J.Float3(0, 0, 0);
      for (const p of points) { f.x = p[0]; f.y = p[1]; f.z = p[2]; vertices.push_back(f); }
      const list = new J.IndexedTriangleList();
      const t = new J.IndexedTriangle();
      for (const [a, b, c] of triangles) {
        t.set_mIdx(0, a); t.set_mIdx(1, b); t.set_mIdx(2, c);
        list.push_back(t);
      }
      const settings = new J.MeshShapeSettings(vertices, list, new J.PhysicsMaterialList());
      J.destroy(f); J.destroy(t);
      return {
        settings,
        pose: s.pose,
        report: { shape: 'trimesh', parameters: { vertex_count: points.length, triangle_count: triangles.length } },
        owned: [vertices, list],
      };
    }
    case 'plane': {
      noShear();
      if (shape.doubleSided) {
        throw new NotSupported('a double-sided plane (Jolt\'s PlaneShape is a half-space, and a box would put the two faces off the plane)');
      }
      if (shape.sizeX === null && shape.sizeZ === null) {
        const plane = new J.Plane(new J.Vec3(0, 1, 0), 0);
        return { settings: new J.PlaneShapeSettings(plane, null, PLANE_HALF_EXTENT), pose: s.pose, report: { shape: 'plane', parameters: {} }, plane: true };
      }
      if (shape.sizeX === null || shape.sizeZ === null) throw new NotSupported('a plane bounded along one axis only');
      const sizeX = shape.sizeX * s.diag[0];
      const sizeZ = shape.sizeZ * s.diag[2];
      const fix = { p: [0, -PLANE_HALF_THICKNESS, 0], q: [0, 0, 0, 1] };
      return {
        settings: convex(new J.BoxShapeSettings(new J.Vec3(sizeX / 2, PLANE_HALF_THICKNESS, sizeZ / 2), 0)),
        pose: { p: add(s.pose.p, qrotate(s.pose.q, fix.p)), q: s.pose.q },
        reportPose: s.pose,
        report: { shape: 'plane', parameters: { size_x: sizeX, size_z: sizeZ } },
        note: `a bounded plane ${sizeX} x ${sizeZ} is a box ${2 * PLANE_HALF_THICKNESS} deep below it (Jolt's PlaneShape is a half-space)`,
      };
    }
    default:
      throw new NotSupported(`shape type ${shape.type}`);
  }
}
