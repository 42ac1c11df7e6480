// omi-2024 / omi-2025: the restructured OMI extensions (omigroup/gltf-extensions 807ce4b and
// df53422), read into the model of scene.js.
//
// OMI_physics_body: node motion (type static / kinematic / dynamic) / collider / trigger, document
// physicsMaterials and collisionFilters; OMI_physics_shape: type + parameter object (absent: every
// default); OMI_physics_joint: document physicsJoints, joint nodes with joint / connectedNode /
// enableCollision. The revisions differ only in capsules and cylinders: omi-2024 has one
// `radius` and a capsule `height` that is the full height (default 2), omi-2025 has
// `radiusBottom` / `radiusTop` and a capsule `height` between the cap centres (default 1).
// The reference's decisions: mass defaults to 1, mass 0 and a zero or partly zero inertia
// diagonal are computed by the engine [D-OMI-INERTIA]; velocities are world space
// [D-OMI-VELOCITY]; limits couple their axes as KHR's, a limit with both axis lists is two
// limits, a negative stiffness is a hard limit, a negative maxForce is unlimited [D-OMI-LIMITS].

import { NotSupported, Rejected } from './errors.js';
import { qnormalize } from './math.js';
import { axes, index, num, readMaterialsAndFilters, vec } from './values.js';

const BODY = 'OMI_physics_body';
const SHAPE = 'OMI_physics_shape';
const JOINT = 'OMI_physics_joint';
const KINDS = ['static', 'kinematic', 'dynamic'];

/** Read `doc` under `profile` ('omi-2024' or 'omi-2025') into `scene`. */
export function readOmi24(doc, scene, profile) {
  const root = doc.rootExtension(BODY) ?? {};
  const shapeDefs = doc.rootExtension(SHAPE)?.shapes ?? [];
  for (const [i, s] of shapeDefs.entries()) scene.shapes.push(shape(s, `${SHAPE}.shapes[${i}]`, doc, profile));
  readMaterialsAndFilters(root, scene);
  const settings = doc.rootExtension(JOINT)?.physicsJoints ?? [];

  const ext = (n) => doc.nodeExtension(n, BODY);
  const bodyOfNode = new Map();
  for (let n = 0; n < doc.nodes.length; n++) {
    const motion = ext(n)?.motion;
    if (motion === undefined) continue;
    bodyOfNode.set(n, scene.bodies.length);
    scene.bodies.push(body(n, motion));
  }
  const owner = (n) => {
    for (const m of [n, ...doc.ancestors(n)]) if (bodyOfNode.has(m)) return bodyOfNode.get(m);
    return null;
  };
  // -1 (the schemas' default) means none.
  const optional = (v, length, what) => (v === undefined || v === -1 ? null : index(v, length, what));
  for (let n = 0; n < doc.nodes.length; n++) {
    const e = ext(n);
    if (!e) continue;
    const at = `nodes[${n}].${BODY}`;
    if (e.collider !== undefined) {
      const c = e.collider;
      const s = optional(c.shape, scene.shapes.length, `${at}.collider.shape`);
      if (s !== null) {
        scene.colliders.push({
          node: n,
          shape: s,
          material: optional(c.physicsMaterial, scene.materials.length, `${at}.collider.physicsMaterial`),
          filter: optional(c.collisionFilter, scene.filters.length, `${at}.collider.collisionFilter`),
          isTrigger: false,
          body: owner(n),
        });
      }
    }
    if (e.trigger !== undefined) {
      const t = e.trigger;
      const s = optional(t.shape, scene.shapes.length, `${at}.trigger.shape`);
      if (s !== null) {
        scene.colliders.push({
          node: n,
          shape: s,
          material: null,
          filter: optional(t.collisionFilter, scene.filters.length, `${at}.trigger.collisionFilter`),
          isTrigger: true,
          body: owner(n),
        });
      } else if (Array.isArray(t.nodes) && t.nodes.length > 0) {
        const members = t.nodes.map((m) => index(m, doc.nodes.length, `${at}.trigger.nodes`));
        for (const m of members) {
          if (!doc.isDescendant(m, n) || ext(m)?.trigger === undefined) {
            throw new Rejected(`${at}.trigger.nodes: node ${m} is not a descendant trigger`);
          }
        }
        scene.compounds.push({ node: n, members: [...new Set(members)] });
      }
      // A trigger with neither shape nor nodes adds nothing (the examples write `trigger: {}`
      // above their trigger shapes) [D-OMI-EXAMPLES].
    }
  }
  for (let n = 0; n < doc.nodes.length; n++) {
    const j = doc.nodeExtension(n, JOINT);
    if (j === undefined) continue;
    const at = `nodes[${n}].${JOINT}`;
    const connected = index(j.connectedNode, doc.nodes.length, `${at}.connectedNode`);
    const si = index(j.joint, settings.length, `${at}.joint`);
    const s = settings[si];
    const a = owner(n);
    const b = owner(connected);
    if (b === null) throw new Rejected(`${at}.connectedNode is not part of a body`);
    // One end must be dynamic; the examples hang joints from static bodies [D-OMI-EXAMPLES].
    const dynamic = (x) => x !== null && scene.bodies[x].kind === 'dynamic';
    if (!dynamic(a) && !dynamic(b)) throw new Rejected(`${at}: neither end is in a dynamic body`);
    if (a === b) continue; // both frames in one body: no effect (a warning in the reference)
    scene.joints.push({
      node: n,
      a: { frame: n, body: a === null ? null : scene.bodies[a].node },
      b: { frame: connected, body: scene.bodies[b].node },
      coupling: 'coupled',
      limits: (s.limits ?? []).flatMap((l, i) => limits(l, `physicsJoints[${si}].limits[${i}]`)),
      drives: (s.drives ?? []).map((d, i) => drive(d, `physicsJoints[${si}].drives[${i}]`)),
      enableCollision: j.enableCollision === true,
    });
  }
}

function shape(s, at, doc, profile) {
  const p = s?.[s?.type] ?? {};
  const r2025 = profile === 'omi-2025';
  const radius = (key) => num(p[key], 0.5, `${at}.${s.type}.${key}`, { min: 0 });
  switch (s?.type) {
    case 'sphere':
      return { type: 'sphere', radius: radius('radius') };
    case 'box':
      return { type: 'box', size: vec(p.size, 3, [1, 1, 1], `${at}.box.size`) };
    case 'capsule':
    case 'cylinder': {
      const [bottom, top] = r2025 ? [radius('radiusBottom'), radius('radiusTop')] : [radius('radius'), radius('radius')];
      const fallback = s.type === 'capsule' && r2025 ? 1 : 2;
      const h = num(p.height, fallback, `${at}.${s.type}.height`, { min: 0 });
      if (s.type === 'capsule' && !r2025) {
        if (h < 2 * bottom * (1 - 1e-9)) throw new Rejected(`${at}: capsule height < 2 radius`);
        return { type: 'capsule', height: Math.max(h - 2 * bottom, 0), radiusTop: top, radiusBottom: bottom };
      }
      return { type: s.type, height: h, radiusTop: top, radiusBottom: bottom };
    }
    case 'convex':
    case 'trimesh':
      return { type: s.type, mesh: index(p.mesh, doc.json.meshes?.length ?? 0, `${at}.${s.type}.mesh`) };
    default:
      throw new Rejected(`${at} has an unknown type ${JSON.stringify(s?.type)}`);
  }
}

function body(n, m) {
  const at = `nodes[${n}].${BODY}.motion`;
  // A motion without type is driven by physics: dynamic [D-OMI-EXAMPLES].
  const kind = m.type ?? 'dynamic';
  if (!KINDS.includes(kind)) throw new Rejected(`${at}.type ${JSON.stringify(m.type)} is unknown`);
  const massValue = num(m.mass, 1, `${at}.mass`, { min: 0 });
  let inertia = null;
  if (m.inertiaDiagonal !== undefined) {
    const d = vec(m.inertiaDiagonal, 3, null, `${at}.inertiaDiagonal`);
    if (d.some((x) => x < 0)) throw new Rejected(`${at}.inertiaDiagonal is negative`);
    if (d.every((x) => x > 0)) {
      const q = vec(m.inertiaOrientation, 4, [0, 0, 0, 1], `${at}.inertiaOrientation`);
      inertia = { diagonal: d, orientation: qnormalize(q) };
    }
  }
  return {
    node: n,
    kind,
    mass: massValue === 0 ? { kind: 'computed' } : { kind: 'finite', value: massValue },
    com: vec(m.centerOfMass, 3, null, `${at}.centerOfMass`),
    inertia,
    linearVelocity: vec(m.linearVelocity, 3, [0, 0, 0], `${at}.linearVelocity`),
    angularVelocity: vec(m.angularVelocity, 3, [0, 0, 0], `${at}.angularVelocity`),
    gravityFactor: num(m.gravityFactor, 1, `${at}.gravityFactor`),
  };
}

function limits(l, at) {
  const lin = axes(l.linearAxes, `${at}.linearAxes`);
  const ang = axes(l.angularAxes, `${at}.angularAxes`);
  if (lin.length === 0 && ang.length === 0) throw new Rejected(`${at} lists no axis`);
  const min = num(l.min, null, `${at}.min`);
  const max = num(l.max, null, `${at}.max`);
  if (min !== null && max !== null && min > max) throw new Rejected(`${at}: min > max`);
  const stiffness = num(l.stiffness, null, `${at}.stiffness`);
  const common = {
    min,
    max,
    stiffness: stiffness !== null && stiffness < 0 ? null : stiffness,
    damping: num(l.damping, 0, `${at}.damping`, { min: 0 }),
  };
  return [
    ...(lin.length ? [{ kind: 'linear', axes: lin, ...common }] : []),
    ...(ang.length ? [{ kind: 'angular', axes: ang, ...common }] : []),
  ];
}

function drive(d, at) {
  if (d.type !== 'linear' && d.type !== 'angular') throw new NotSupported(`${at}.type ${JSON.stringify(d.type)}`);
  if (d.mode !== 'force' && d.mode !== 'acceleration') throw new NotSupported(`${at}.mode ${JSON.stringify(d.mode)}`);
  if (![0, 1, 2].includes(d.axis)) throw new Rejected(`${at}.axis must be 0, 1 or 2`);
  const maxForce = num(d.maxForce, null, `${at}.maxForce`);
  return {
    kind: d.type,
    mode: d.mode,
    axis: d.axis,
    maxForce: maxForce !== null && maxForce < 0 ? null : maxForce,
    positionTarget: num(d.positionTarget, null, `${at}.positionTarget`),
    velocityTarget: num(d.velocityTarget, null, `${at}.velocityTarget`),
    stiffness: num(d.stiffness, 0, `${at}.stiffness`, { min: 0 }),
    damping: num(d.damping, 0, `${at}.damping`, { min: 0 }),
  };
}
