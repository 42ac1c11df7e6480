// The profiles read into one small model that each engine's `world.js` turns into its objects
// (physx-node, jolt-node).
//
// khr-2024-draft: KHR_physics_rigid_bodies (node motion / collider / trigger / joint; document
//   physicsMaterials, collisionFilters, physicsJoints) + KHR_collision_shapes (2023-08-26 shape
//   schema: capsule and cylinder with height and radiusTop / radiusBottom).
// omi-2023: OMI_physics_body (type string) + OMI_collider (flat colliders) or OMI_physics_shape
//   (type + parameter sub-object) + OMI_physics_joint (document constraints, joint nodes).
// omi-2024 / omi-2025: the restructured OMI extensions, read by omi24.js.
// khr-2025: KHR_physics_rigid_bodies (PR #2424) + KHR_implicit_shapes (PR #2370), read by the
//   KHR reader with the revision's shape rules from khr-geometry.js: a collider's `geometry`
//   (an implicit shape or a node's meshes), planes, zero / negative scale, zero-limit joints,
//   drive targets with their gains, no filter on a compound trigger.
// khr-2026: KHR_physics_rigid_bodies as of January 2026: khr-2025 plus `geometry.mesh` (a glTF
//   mesh in the collider's own frame, khr-geometry.js); `geometry.node` still reads as in 2025.
//
// The model keeps what differs in meaning: KHR limits are coupled (2 linear axes = distance from
// a line), OMI limits are per axis; KHR mass 0 is infinite; capsule height is the distance
// between the cap centres (OMI's full height h is read as h - 2r); velocities are world space.

import { NotSupported, Rejected } from './errors.js';
import { mat3ToQ, poseOfMat4, qrotate, qnormalize, symmetricEigen } from './math.js';
import { colliderWorld, geometryShape, IMPLICIT_SHAPES, implicitShape, zeroScale } from './khr-geometry.js';
import { readOmi24 } from './omi24.js';
import { axes, index, num, readMaterialsAndFilters, vec } from './values.js';

/** The profiles this importer reads; the handshake declares exactly these (capabilities.js). */
export const PROFILES = ['khr-2024-draft', 'khr-2025', 'khr-2026', 'omi-2023', 'omi-2024', 'omi-2025'];
/** The KHR profiles by revision (the year): 2025 and later read `geometry`, 2026 also its `mesh`. */
const KHR_REVISIONS = new Map([['khr-2024-draft', 2024], ['khr-2025', 2025], ['khr-2026', 2026]]);
const KHR_BODIES = 'KHR_physics_rigid_bodies';
const KHR_SHAPES = 'KHR_collision_shapes';

/** Read the physics of `doc` in `profile` (one of PROFILES). */
export function readScene(doc, profile) {
  const scene = {
    profile,
    doc,
    bodies: [],
    shapes: [],
    materials: [],
    filters: [],
    colliders: [],
    compounds: [],
    joints: [],
    notes: [],
  };
  if (KHR_REVISIONS.has(profile)) readKhr(doc, scene, KHR_REVISIONS.get(profile));
  else if (profile === 'omi-2023') readOmi(doc, scene);
  else if (profile === 'omi-2024' || profile === 'omi-2025') readOmi24(doc, scene, profile);
  else throw new Rejected(`unknown profile ${JSON.stringify(profile)}`);
  keepDefaultScene(scene, doc);
  return scene;
}

/**
 * Leave out the bodies, colliders, triggers and joints of nodes outside the default scene
 * [D-SCENE] (a joint also when a frame or its body is outside it), renumbering the bodies.
 */
function keepDefaultScene(scene, doc) {
  const kept = (n) => doc.inScene[n] === true;
  const renumbered = [];
  const bodies = [];
  for (const b of scene.bodies) {
    renumbered.push(kept(b.node) ? bodies.length : null);
    if (kept(b.node)) bodies.push(b);
  }
  scene.bodies = bodies;
  scene.colliders = scene.colliders
    .filter((c) => kept(c.node))
    .map((c) => ({ ...c, body: c.body === null ? null : renumbered[c.body] }));
  scene.compounds = scene.compounds.filter((t) => kept(t.node));
  scene.joints = scene.joints.filter((j) => kept(j.node)
    && [j.a, j.b].every((e) => kept(e.frame) && (e.body === null || kept(e.body))));
}

/** World rotation of a node (the rotation of its QR split). */
function worldRotation(doc, node) {
  return poseOfMat4(doc.world[node]).q;
}

// ------------------------------------------------------------------------------------------
// KHR

/**
 * Read KHR_physics_rigid_bodies of `revision`: 2024 (the March 2024 draft), 2025, or 2026 (the
 * 2025 reading with mesh geometry).
 */
function readKhr(doc, scene, revision) {
  const r2025 = revision >= 2025;
  const root = doc.rootExtension(KHR_BODIES) ?? {};
  const shapesRoot = doc.rootExtension(r2025 ? IMPLICIT_SHAPES : KHR_SHAPES) ?? {};
  for (const [i, s] of (shapesRoot.shapes ?? []).entries()) scene.shapes.push(r2025 ? implicitShape(s, i) : khrShape(s, i, doc));
  // 2025: implicit shapes first, node (and 2026 mesh) geometries appended as colliders name them.
  const geometry = { implicit: scene.shapes.length, meshes: new Map() };
  readMaterialsAndFilters(root, scene);
  const jointDescs = root.physicsJoints ?? [];

  const ext = (n) => doc.nodeExtension(n, KHR_BODIES);
  // Bodies first, in node order, so colliders can find their owner.
  const bodyOfNode = new Map();
  for (let n = 0; n < doc.nodes.length; n++) {
    const motion = ext(n)?.motion;
    if (motion === undefined) continue;
    bodyOfNode.set(n, scene.bodies.length);
    scene.bodies.push(khrBody(doc, n, motion));
  }
  const owner = (n) => {
    if (bodyOfNode.has(n)) return bodyOfNode.get(n);
    for (const a of doc.ancestors(n)) if (bodyOfNode.has(a)) return bodyOfNode.get(a);
    return null;
  };
  // The shape of a collider or simple trigger at `at`: draft `shape`, 2025 and 2026 `geometry`
  // (null: a node or mesh geometry without triangles, left out).
  const shapeOf = (o, at) => (r2025
    ? geometryShape(o.geometry, `${at}.geometry`, doc, scene, geometry, revision)
    : index(o.shape, scene.shapes.length, `${at}.shape`));
  const given = (o) => (r2025 ? o.geometry !== undefined : o.shape !== undefined);
  const push = (collider) => {
    if (collider.shape === null) return;
    if (r2025) {
      // [D-SHAPE-SCALE]: a zero world scale disables the shape; a mirror acts by |scale|.
      if (zeroScale(doc.world[collider.node])) {
        scene.notes.push(`collider at node ${collider.node}: zero scale on all axes, left out`);
        return;
      }
      collider.world = colliderWorld(doc.world[collider.node], scene.shapes[collider.shape]);
    }
    scene.colliders.push(collider);
  };
  for (let n = 0; n < doc.nodes.length; n++) {
    const e = ext(n);
    if (!e) continue;
    const at = `nodes[${n}].${KHR_BODIES}`;
    if (e.collider !== undefined) {
      const c = e.collider;
      if (!given(c)) throw new Rejected(`${at}.collider has no ${r2025 ? 'geometry' : 'shape'}`);
      push({
        node: n,
        shape: shapeOf(c, `${at}.collider`),
        material: c.physicsMaterial === undefined ? null : index(c.physicsMaterial, scene.materials.length, `${at}.collider.physicsMaterial`),
        filter: c.collisionFilter === undefined ? null : index(c.collisionFilter, scene.filters.length, `${at}.collider.collisionFilter`),
        isTrigger: false,
        body: owner(n),
      });
    }
    if (e.trigger !== undefined) {
      const t = e.trigger;
      if (given(t) && t.nodes !== undefined) throw new Rejected(`${at}.trigger gives both ${r2025 ? 'geometry' : 'shape'} and nodes`);
      if (given(t)) {
        push({
          node: n,
          shape: shapeOf(t, `${at}.trigger`),
          material: null,
          filter: t.collisionFilter === undefined ? null : index(t.collisionFilter, scene.filters.length, `${at}.trigger.collisionFilter`),
          isTrigger: true,
          body: owner(n),
        });
      } else if (Array.isArray(t.nodes) && t.nodes.length > 0) {
        if (r2025 && t.collisionFilter !== undefined) throw new Rejected(`${at}.trigger: a compound trigger may not have a collisionFilter`);
        const members = t.nodes.map((m) => index(m, doc.nodes.length, `${at}.trigger.nodes`));
        for (const m of members) {
          if (!doc.isDescendant(m, n) || ext(m)?.trigger === undefined) {
            throw new Rejected(`${at}.trigger.nodes: node ${m} is not a descendant trigger`);
          }
        }
        scene.compounds.push({ node: n, members });
      } else {
        throw new Rejected(`${at}.trigger has neither shape nor nodes`);
      }
    }
    if (e.joint !== undefined) {
      const j = e.joint;
      const connected = index(j.connectedNode, doc.nodes.length, `${at}.joint.connectedNode`);
      const desc = jointDescs[index(j.joint, jointDescs.length, `${at}.joint.joint`)];
      const bodyNode = (b) => (b === null ? null : scene.bodies[b].node);
      scene.joints.push({
        node: n,
        a: { frame: n, body: bodyNode(owner(n)) },
        b: { frame: connected, body: bodyNode(owner(connected)) },
        coupling: 'coupled',
        limits: (desc.limits ?? []).map((l, i) => khrLimit(l, `physicsJoints[${j.joint}].limits[${i}]`)),
        drives: (desc.drives ?? []).map((d, i) => khrDrive(d, `physicsJoints[${j.joint}].drives[${i}]`, r2025)),
        enableCollision: j.enableCollision === true,
      });
    }
  }
}

function khrShape(s, i, doc) {
  const at = `${KHR_SHAPES}.shapes[${i}]`;
  const p = s?.[s?.type] ?? {};
  switch (s?.type) {
    case 'sphere':
      return { type: 'sphere', radius: num(p.radius, 0.5, `${at}.sphere.radius`, { min: 0 }) };
    case 'box':
      return { type: 'box', size: vec(p.size, 3, [1, 1, 1], `${at}.box.size`) };
    case 'capsule':
    case 'cylinder':
      return {
        type: s.type,
        height: num(p.height, 0.5, `${at}.${s.type}.height`, { min: 0 }),
        radiusTop: num(p.radiusTop, 0.25, `${at}.${s.type}.radiusTop`, { min: 0 }),
        radiusBottom: num(p.radiusBottom, 0.25, `${at}.${s.type}.radiusBottom`, { min: 0 }),
      };
    case 'convex':
    case 'trimesh': {
      const mesh = index(p.mesh, doc.json.meshes?.length ?? 0, `${at}.${s.type}.mesh`);
      return { type: s.type, mesh };
    }
    default:
      throw new Rejected(`${at} has an unknown type ${JSON.stringify(s?.type)}`);
  }
}

function khrBody(doc, n, m) {
  const at = `nodes[${n}].${KHR_BODIES}.motion`;
  const massValue = num(m.mass, undefined, `${at}.mass`, { min: 0 });
  const mass = massValue === undefined ? { kind: 'computed' }
    : massValue === 0 ? { kind: 'infinite' } : { kind: 'finite', value: massValue };
  let inertia = null;
  if (m.inertiaDiagonal !== undefined) {
    const d = vec(m.inertiaDiagonal, 3, null, `${at}.inertiaDiagonal`);
    if (d.some((x) => x < 0)) throw new Rejected(`${at}.inertiaDiagonal is negative`);
    const q = vec(m.inertiaOrientation, 4, [0, 0, 0, 1], `${at}.inertiaOrientation`);
    inertia = { diagonal: d.map((x) => (x === 0 ? Infinity : x)), orientation: qnormalize(q) };
  }
  const r = worldRotation(doc, n);
  return {
    node: n,
    kind: m.isKinematic === true ? 'kinematic' : 'dynamic',
    mass,
    com: vec(m.centerOfMass, 3, null, `${at}.centerOfMass`),
    inertia,
    // KHR velocities are in the body's local frame [D-FRAMES].
    linearVelocity: qrotate(r, vec(m.linearVelocity, 3, [0, 0, 0], `${at}.linearVelocity`)),
    angularVelocity: qrotate(r, vec(m.angularVelocity, 3, [0, 0, 0], `${at}.angularVelocity`)),
    gravityFactor: num(m.gravityFactor, 1, `${at}.gravityFactor`),
  };
}

function khrLimit(l, at) {
  const linear = l.linearAxes !== undefined;
  if (linear === (l.angularAxes !== undefined)) throw new Rejected(`${at} needs exactly one of linearAxes, angularAxes`);
  const list = axes(linear ? l.linearAxes : l.angularAxes, at);
  if (list.length === 0) throw new Rejected(`${at} lists no axis`);
  const min = num(l.min, null, `${at}.min`);
  const max = num(l.max, null, `${at}.max`);
  if (min !== null && max !== null && min > max) throw new Rejected(`${at}: min > max`);
  return {
    kind: linear ? 'linear' : 'angular',
    axes: list,
    min,
    max,
    stiffness: num(l.stiffness, null, `${at}.stiffness`, { min: 0 }),
    damping: num(l.damping, 0, `${at}.damping`, { min: 0 }),
  };
}

function khrDrive(d, at, r2025 = false) {
  // 2025: a target comes with its gain and a gain with its target (the schema's dependencies).
  if (r2025) {
    for (const [a, b] of [['positionTarget', 'stiffness'], ['velocityTarget', 'damping']]) {
      if ((d[a] === undefined) !== (d[b] === undefined)) throw new Rejected(`${at}: ${a} and ${b} come together`);
    }
  }
  // The schema admits any string for type and mode (for later revisions): unknown ones cannot be
  // simulated, which is not the file's fault.
  if (d.type !== 'linear' && d.type !== 'angular') throw new NotSupported(`${at}.type ${JSON.stringify(d.type)}`);
  if (d.mode !== 'force' && d.mode !== 'acceleration') throw new NotSupported(`${at}.mode ${JSON.stringify(d.mode)}`);
  if (![0, 1, 2].includes(d.axis)) throw new Rejected(`${at}.axis must be 0, 1 or 2`);
  return {
    kind: d.type,
    mode: d.mode,
    axis: d.axis,
    maxForce: num(d.maxForce, null, `${at}.maxForce`, { min: 0 }),
    positionTarget: num(d.positionTarget, null, `${at}.positionTarget`),
    velocityTarget: num(d.velocityTarget, null, `${at}.velocityTarget`),
    stiffness: num(d.stiffness, 0, `${at}.stiffness`, { min: 0 }),
    damping: num(d.damping, 0, `${at}.damping`, { min: 0 }),
  };
}

// ------------------------------------------------------------------------------------------
// OMI

const OMI_KINDS = {
  static: 'static', kinematic: 'kinematic', character: 'kinematic',
  rigid: 'dynamic', vehicle: 'dynamic', trigger: null,
};

function readOmi(doc, scene) {
  const colliderDefs = (doc.rootExtension('OMI_collider')?.colliders ?? [])
    .map((c, i) => omiColliderShape(c, `OMI_collider.colliders[${i}]`, doc, scene));
  const shapeDefs = (doc.rootExtension('OMI_physics_shape')?.shapes ?? [])
    .map((s, i) => omiPhysicsShape(s, `OMI_physics_shape.shapes[${i}]`, doc, scene));
  const constraints = doc.rootExtension('OMI_physics_joint')?.constraints ?? [];

  // Body types by node; trigger bodies are not bodies.
  const typeOf = new Map();
  const bodyOfNode = new Map();
  for (let n = 0; n < doc.nodes.length; n++) {
    const b = doc.nodeExtension(n, 'OMI_physics_body');
    if (b === undefined) continue;
    const at = `nodes[${n}].OMI_physics_body`;
    if (!(b.type in OMI_KINDS)) throw new Rejected(`${at}.type ${JSON.stringify(b.type)} is unknown`);
    typeOf.set(n, b.type);
    const kind = OMI_KINDS[b.type];
    if (kind === null) continue;
    bodyOfNode.set(n, scene.bodies.length);
    scene.bodies.push(omiBody(n, b, kind, at));
  }
  const nearest = (n) => [n, ...doc.ancestors(n)].find((m) => typeOf.has(m));
  const owner = (n) => {
    for (const m of [n, ...doc.ancestors(n)]) if (bodyOfNode.has(m)) return bodyOfNode.get(m);
    return null;
  };
  for (let n = 0; n < doc.nodes.length; n++) {
    for (const [key, prop, defs] of [['OMI_collider', 'collider', colliderDefs], ['OMI_physics_shape', 'shape', shapeDefs]]) {
      const e = doc.nodeExtension(n, key);
      if (e === undefined) continue;
      const def = defs[index(e[prop], defs.length, `nodes[${n}].${key}.${prop}`)];
      const near = nearest(n);
      scene.colliders.push({
        node: n,
        shape: def.shape,
        material: null,
        filter: null,
        isTrigger: def.isTrigger || (near !== undefined && typeOf.get(near) === 'trigger'),
        body: owner(n),
      });
    }
  }
  for (let n = 0; n < doc.nodes.length; n++) {
    const j = doc.nodeExtension(n, 'OMI_physics_joint');
    if (j === undefined) continue;
    const at = `nodes[${n}].OMI_physics_joint`;
    const ends = ['nodeA', 'nodeB'].map((k) => {
      const m = index(j[k], doc.nodes.length, `${at}.${k}`);
      if (!bodyOfNode.has(m)) throw new Rejected(`${at}.${k} is not a (non-trigger) body`);
      return m;
    });
    if (!Array.isArray(j.constraints) || j.constraints.length === 0) throw new Rejected(`${at}.constraints is empty`);
    const limits = [];
    for (const ci of j.constraints) {
      const c = constraints[index(ci, constraints.length, `${at}.constraints`)];
      const cat = `OMI_physics_joint.constraints[${ci}]`;
      const common = {
        min: num(c.lowerLimit, 0, `${cat}.lowerLimit`),
        max: num(c.upperLimit, 0, `${cat}.upperLimit`),
        stiffness: num(c.stiffness, null, `${cat}.stiffness`, { min: 0 }),
        damping: num(c.damping, 1, `${cat}.damping`, { min: 0 }),
      };
      if (common.min > common.max) throw new Rejected(`${cat}: lowerLimit > upperLimit`);
      const lin = axes(c.linearAxes, `${cat}.linearAxes`);
      const ang = axes(c.angularAxes, `${cat}.angularAxes`);
      if (lin.length) limits.push({ kind: 'linear', axes: lin, ...common });
      if (ang.length) limits.push({ kind: 'angular', axes: ang, ...common });
    }
    scene.joints.push({
      node: n,
      // Both attachment frames are the joint node [D-FRAMES].
      a: { frame: n, body: ends[0] },
      b: { frame: n, body: ends[1] },
      coupling: 'per-axis',
      limits,
      drives: [],
      enableCollision: false,
    });
  }
}

function omiBody(n, b, kind, at) {
  const mass = num(b.mass, 1, `${at}.mass`, { min: 0 });
  let inertia = null;
  if (b.inertiaTensor !== undefined) {
    const t = vec(b.inertiaTensor, 9, null, `${at}.inertiaTensor`);
    if (t.some((x) => x !== 0)) {
      const m = [t.slice(0, 3), t.slice(3, 6), t.slice(6, 9)];
      const sym = [0, 1, 2].map((i) => [0, 1, 2].map((k) => (m[i][k] + m[k][i]) / 2));
      const { values, vectors } = symmetricEigen(sym);
      if (values.some((v) => !(v > 0))) throw new Rejected(`${at}.inertiaTensor is not positive definite`);
      inertia = { diagonal: values, orientation: mat3ToQ(vectors) };
    }
  }
  return {
    node: n,
    kind,
    mass: mass === 0 ? { kind: 'infinite' } : { kind: 'finite', value: mass },
    // Seed 001: the centre of mass defaults to the body origin.
    com: vec(b.centerOfMass, 3, [0, 0, 0], `${at}.centerOfMass`),
    inertia,
    // OMI velocities are world space [D-OMI-VELOCITY].
    linearVelocity: vec(b.linearVelocity, 3, [0, 0, 0], `${at}.linearVelocity`),
    angularVelocity: vec(b.angularVelocity, 3, [0, 0, 0], `${at}.angularVelocity`),
    gravityFactor: 1,
  };
}

/** OMI capsule / cylinder: `height` is the full height; the model keeps cap-centre distance. */
function omiRound(type, radius, height, at) {
  if (type === 'capsule') {
    if (height < 2 * radius * (1 - 1e-9)) throw new Rejected(`${at}: capsule height < 2 radius`);
    return { type, height: Math.max(height - 2 * radius, 0), radiusTop: radius, radiusBottom: radius };
  }
  return { type, height, radiusTop: radius, radiusBottom: radius };
}

function pushShape(scene, shape) {
  scene.shapes.push(shape);
  return scene.shapes.length - 1;
}

function omiColliderShape(c, at, doc, scene) {
  const isTrigger = c.isTrigger === true;
  const radius = () => num(c.radius, 0.5, `${at}.radius`, { min: 0 });
  const height = () => num(c.height, 2, `${at}.height`, { min: 0 });
  let shape;
  switch (c.type) {
    case 'box': shape = { type: 'box', size: vec(c.size, 3, [1, 1, 1], `${at}.size`) }; break;
    case 'sphere': shape = { type: 'sphere', radius: radius() }; break;
    case 'capsule': case 'cylinder': shape = omiRound(c.type, radius(), height(), at); break;
    case 'hull': case 'trimesh':
      shape = { type: c.type === 'hull' ? 'convex' : 'trimesh', mesh: index(c.mesh, doc.json.meshes?.length ?? 0, `${at}.mesh`) };
      break;
    default: throw new Rejected(`${at}.type ${JSON.stringify(c.type)} is unknown`);
  }
  return { shape: pushShape(scene, shape), isTrigger };
}

function omiPhysicsShape(s, at, doc, scene) {
  const p = s?.[s?.type] ?? {};
  const radius = () => num(p.radius, 0.5, `${at}.radius`, { min: 0 });
  const height = () => num(p.height, 2, `${at}.height`, { min: 0 });
  let shape;
  switch (s?.type) {
    case 'box': shape = { type: 'box', size: vec(p.size, 3, [1, 1, 1], `${at}.box.size`) }; break;
    case 'sphere': shape = { type: 'sphere', radius: radius() }; break;
    case 'capsule': case 'cylinder': shape = omiRound(s.type, radius(), height(), at); break;
    case 'convex': case 'trimesh':
      shape = { type: s.type, mesh: index(p.mesh, doc.json.meshes?.length ?? 0, `${at}.${s.type}.mesh`) };
      break;
    default: throw new Rejected(`${at}.type ${JSON.stringify(s?.type)} is unknown`);
  }
  return { shape: pushShape(scene, shape), isTrigger: false };
}
