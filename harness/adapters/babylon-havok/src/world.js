// One loaded file: a fresh Babylon scene (right-handed, physics v2 with Havok) into which the
// glTF loader, with the rigid-body loader's plugins, builds the nodes, bodies, shapes and
// constraints. Everything reported is read back from Babylon and Havok objects (or from the
// records of what Havok was told, see runtime.js), never from the file.

import { readFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';

import { Scene } from '@babylonjs/core/scene.js';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { SceneLoader } from '@babylonjs/core/Loading/sceneLoader.js';

import { Failed, NotSupported } from '../../kit/src/errors.js';
import { enumValue, handleKey } from './runtime.js';
import { distance, nlerp, poseInv, poseMul, qnormalize, qrotate as rotate, quatFromAxes } from '../../kit/src/math.js';

// Babylon's enums (IPhysicsEnginePlugin), by value.
const MOTION = { 0: 'static', 1: 'kinematic', 2: 'dynamic' };
const AXIS = { LINEAR_X: 0, LINEAR_Y: 1, LINEAR_Z: 2, ANGULAR_X: 3, ANGULAR_Y: 4, ANGULAR_Z: 5, LINEAR_DISTANCE: 6 };
const LIMIT_MODE = { FREE: 0, LIMITED: 1, LOCKED: 2 };
// PhysicsMaterialCombineMode; "a value later in this list will be preferentially used".
const COMBINE = { 0: 'geometric', 1: 'minimum', 2: 'maximum', 3: 'average', 4: 'multiply' };
/** Havok's unlimited motor force, as the loader sets it (KHR_rigid_bodies.ts:673). */
const UNLIMITED_FORCE = 3.4e38;

const v3 = (v) => [v.x, v.y, v.z];
const q4 = (q) => [q.x, q.y, q.z, q.w];

/** The combined value of a pair by Havok's documented rule: the later mode in the enum wins. */
export function combine(modeA, modeB, a, b) {
  const mode = COMBINE[Math.max(modeA, modeB)];
  switch (mode) {
    case 'geometric': return Math.sqrt(a * b);
    case 'minimum': return Math.min(a, b);
    case 'maximum': return Math.max(a, b);
    case 'average': return (a + b) / 2;
    case 'multiply': return a * b;
    default: return null;
  }
}

/** Read a file's buffers from disk for Babylon's glTF loader (Node has no XMLHttpRequest). */
function answerFromDisk(fileLoader, root) {
  const original = fileLoader._loadFile.bind(fileLoader);
  fileLoader._loadFile = (scene, url, onSuccess, useArrayBuffer, onError, onOpened) => {
    if (typeof url !== 'string' || !url.startsWith(root)) return original(scene, url, onSuccess, useArrayBuffer, onError, onOpened);
    const path = decodeURIComponent(url);
    const request = { abort() {}, status: 0, statusText: '' };
    readFile(path).then(
      (bytes) => onSuccess(useArrayBuffer ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : bytes.toString('utf8')),
      (error) => { request.status = 404; request.statusText = String(error.code ?? error.message); onError?.(request, error); },
    );
    return request;
  };
}

export class World {
  /** Load `path` into a fresh scene. Throws `Rejected`-like errors as `{rejected: reason}`. */
  static async load(runtime, path, config) {
    const w = new World(runtime, config);
    try {
      await w.#load(path);
    } catch (error) {
      w.release();
      throw error;
    }
    return w;
  }

  constructor(runtime, config) {
    this.rt = runtime;
    this.HK = runtime.HK;
    this.config = config;
    this.time = 0;
    this.record = runtime.beginRecord();
    this.scene = new Scene(runtime.engine);
    this.scene.useRightHandedSystem = true;
    this.plugin = runtime.plugin();
    this.scene.enablePhysics(new Vector3(...config.gravity), this.plugin);
    this.physics = this.scene.getPhysicsEngine();
    this.heldForces = new Map();
    this.pendingPoses = new Map();
    this.touching = new Map(); // "a,b" collider nodes -> [a, b], from the last step's events
  }

  async #load(path) {
    const root = `${dirname(path)}/`;
    const ext = extname(path).toLowerCase();
    const bytes = await readFile(path);
    const source = ext === '.glb' ? new Uint8Array(bytes) : `data:${bytes.toString('utf8')}`;
    const observer = SceneLoader.OnPluginActivatedObservable.add((fileLoader) => {
      if (fileLoader.name !== 'gltf') return;
      fileLoader.skipMaterials = true;
      answerFromDisk(fileLoader, root);
    });
    try {
      await SceneLoader.ImportMeshAsync('', root, source, this.scene, undefined, ext === '.glb' ? '.glb' : '.gltf');
    } finally {
      SceneLoader.OnPluginActivatedObservable.remove(observer);
    }
    if (!this.record.gltf) throw new Failed('the KHR_physics_rigid_bodies plugin was not activated (no KHR_physics_rigid_bodies in extensionsUsed?)');
    this.nodes = this.record.gltf.nodes ?? [];
    // glTF node index <-> Babylon node: as the plugin saw them (see Record.sceneNodes), else
    // the loader's own field for nodes without the extension.
    this.babylonNode = new Map();
    this.nodes.forEach((n, i) => {
      const tn = this.record.sceneNodes.get(i) ?? n._babylonTransformNode;
      if (tn) this.babylonNode.set(i, tn);
    });
    this.nodeOf = new Map([...this.babylonNode].map(([i, tn]) => [tn, i]));
    this.#index();
    this.observer = this.plugin.onCollisionObservable.add((e) => this.#onCollision(e));
    for (const b of this.physics.getBodies()) b.setCollisionCallbackEnabled(true);
  }

  /** Bodies, colliders (with their container child records) and joints as built. */
  #index() {
    const P = this.plugin;
    this.bodies = []; // {node, body, kind}
    this.staticBodies = []; // {body}
    for (const body of this.physics.getBodies()) {
      const kind = MOTION[P.getMotionType(body)];
      const node = this.nodeOf.get(body.transformNode);
      if (kind === 'static' || node === undefined) this.staticBodies.push({ body, node });
      else this.bodies.push({ node, body, kind });
    }
    this.bodies.sort((a, b) => a.node - b.node);
    const bodyOfContainer = new Map();
    for (const body of this.physics.getBodies()) {
      if (body.shape) bodyOfContainer.set(handleKey(body.shape._pluginData), body);
    }
    this.colliders = [];
    for (const [shape, node] of this.record.shapeNode) {
      const key = handleKey(shape._pluginData);
      let child = null;
      let body = null;
      for (const [container, list] of this.record.children) {
        const found = list.find((c) => c.child === key);
        if (found) { child = found; body = bodyOfContainer.get(container) ?? null; break; }
      }
      if (!child || !body) continue; // a shape the plugin made but never attached
      const kind = MOTION[P.getMotionType(body)];
      this.colliders.push({ node, shape, key, child, body, dynamicNode: kind === 'static' ? null : this.nodeOf.get(body.transformNode) ?? null });
    }
    this.colliders.sort((a, b) => a.node - b.node);
  }

  /** A Havok body's world pose. */
  bodyPose(body) {
    const t = this.HK.HP_Body_GetQTransform(body._pluginData.hpBodyId)[1];
    return { p: [...t[0]], q: [...t[1]] };
  }

  // ----------------------------------------------------------------------------------------
  // Interpretation

  interpretation() {
    const P = this.plugin;
    const mass = (x) => (x > 0 && Number.isFinite(x) ? { kind: 'finite', value: x } : { kind: 'infinite' });
    const bodies = this.bodies.map(({ node, body, kind }) => {
      const m = P.getMassProperties(body);
      const lin = new Vector3();
      const ang = new Vector3();
      P.getLinearVelocityToRef(body, lin);
      P.getAngularVelocityToRef(body, ang);
      return {
        node,
        kind,
        mass: mass(m.mass),
        center_of_mass: v3(m.centerOfMass),
        inertia_diagonal: v3(m.inertia).map(mass),
        inertia_orientation: q4(m.inertiaOrientation),
        linear_velocity: v3(lin),
        angular_velocity: v3(ang),
        gravity_factor: P.getGravityFactor(body),
      };
    });
    const colliders = this.colliders.map((c) => {
      const { shape, parameters } = this.#describe(c);
      let pose = { p: c.child.t, q: c.child.q };
      if (c.dynamicNode === null) pose = poseMul(this.bodyPose(c.body), pose);
      return {
        node: c.node,
        body: c.dynamicNode,
        is_trigger: this.record.triggers.has(c.key),
        shape,
        parameters,
        translation: pose.p,
        rotation: pose.q,
      };
    });
    return { bodies, colliders, pairs: this.#pairs(), joints: this.#joints() };
  }

  /** The shape Havok was given, in the reference's vocabulary, scaled by the child's scale. */
  #describe(c) {
    const s = this.record.shapes.get(c.key);
    const [sx, sy, sz] = c.child.s.map(Math.abs);
    if (!s) return { shape: 'other', parameters: {} };
    switch (s.type) {
      case 'sphere':
        return { shape: 'sphere', parameters: { radius: s.radius * Math.max(sx, sy, sz) } };
      case 'box':
        return { shape: 'box', parameters: { size: [s.extents[0] * sx, s.extents[1] * sy, s.extents[2] * sz] } };
      case 'capsule':
      case 'cylinder': {
        const a = [s.a[0] * sx, s.a[1] * sy, s.a[2] * sz];
        const b = [s.b[0] * sx, s.b[1] * sy, s.b[2] * sz];
        const r = s.radius * Math.max(sx, sz);
        return { shape: s.type, parameters: { height: distance(a, b), radius_top: r, radius_bottom: r } };
      }
      case 'convex':
        return { shape: 'convex', parameters: { vertex_count: s.vertexCount } };
      case 'trimesh':
        return { shape: 'trimesh', parameters: { vertex_count: s.vertexCount, triangle_count: s.triangleCount } };
      default:
        return { shape: s.type, parameters: {} };
    }
  }

  /** Whether two bodies are joined by a constraint with collisions disabled. */
  #joinedWithoutCollision(a, b) {
    return this.record.constraints.some(({ constraint, body, childBody }) => ((body === a && childBody === b) || (body === b && childBody === a))
      && !this.plugin.getCollisionsEnabled(constraint));
  }

  #pairs() {
    const HK = this.HK;
    // Havok's material, read directly (Babylon's getMaterial compares embind enum objects by
    // identity and loses the combine modes).
    const info = this.colliders.map((c) => {
      const m = HK.HP_Shape_GetMaterial(c.shape._pluginData)[1];
      return {
        filter: HK.HP_Shape_GetFilterInfo(c.shape._pluginData)[1],
        material: { staticFriction: m[0], friction: m[1], restitution: m[2], frictionCombine: enumValue(m[3]), restitutionCombine: enumValue(m[4]) },
      };
    });
    const pairs = [];
    for (let i = 0; i < this.colliders.length; i++) {
      for (let j = i + 1; j < this.colliders.length; j++) {
        const a = this.colliders[i], b = this.colliders[j];
        if (a.body === b.body) continue;
        if (a.dynamicNode === null && b.dynamicNode === null) continue; // static against static
        const [fa, fb] = [info[i].filter, info[j].filter];
        const filters = (fa[0] & fb[1]) !== 0 && (fb[0] & fa[1]) !== 0;
        const trigger = this.record.triggers.has(a.key) || this.record.triggers.has(b.key);
        const collide = filters && !trigger && !this.#joinedWithoutCollision(a.body, b.body);
        const [ma, mb] = [info[i].material, info[j].material];
        const [x, y] = a.node <= b.node ? [a, b] : [b, a];
        pairs.push({
          a: x.node,
          b: y.node,
          collide,
          static_friction: combine(ma.frictionCombine, mb.frictionCombine, ma.staticFriction, mb.staticFriction),
          dynamic_friction: combine(ma.frictionCombine, mb.frictionCombine, ma.friction, mb.friction),
          restitution: combine(ma.restitutionCombine, mb.restitutionCombine, ma.restitution, mb.restitution),
        });
      }
    }
    return pairs;
  }

  #joints() {
    const P = this.plugin;
    const HK = this.HK;
    const out = [];
    for (const { node, constraint, body, childBody } of this.record.joints) {
      const jointId = constraint._pluginData[0];
      const jointKey = handleKey(jointId);
      const bodyNode = (b) => (MOTION[P.getMotionType(b)] === 'static' ? null : this.nodeOf.get(b.transformNode) ?? null);
      // The options Babylon handed to Havok's anchors (constraint._initOptions is not used: its
      // perpAxisA is a clone of a scratch vector that perpAxisB has overwritten).
      const o = constraint.options;
      const frame = (b, pivot, axis, perp) => {
        let pose = { p: v3(pivot), q: quatFromAxes(v3(axis), v3(perp)) };
        if (bodyNode(b) === null) pose = poseMul(this.bodyPose(b), pose);
        return { translation: pose.p, rotation: pose.q };
      };
      const frames = [frame(body, o.pivotA, o.axisA, o.perpAxisA), frame(childBody, o.pivotB, o.axisB, o.perpAxisB)];
      // Limits: the axes Babylon's constraint lists, each read back from Havok.
      // Havok holds one range per axis: an axis Babylon lists twice (two of the file's limits
      // on it) is read once, where it first appears, with the values the last one left.
      const perAxis = [];
      const seenAxes = new Set();
      for (const l of constraint.limits ?? []) {
        const axis = l.axis;
        if (seenAxes.has(axis)) continue;
        seenAxes.add(axis);
        const hpAxis = enumValue(P._constraintAxisToNative(axis));
        const mode = P.getAxisMode(constraint, axis);
        const spring = this.record.axisSpring.get(`${jointKey}:${hpAxis}`) ?? {};
        let min = null, max = null;
        if (mode === LIMIT_MODE.LOCKED) { min = 0; max = 0; }
        else if (mode === LIMIT_MODE.LIMITED) {
          // A side the loader left unset keeps Havok's default: open.
          min = spring.minSet === undefined ? null : P.getAxisMinLimit(constraint, axis);
          max = spring.maxSet === undefined ? null : P.getAxisMaxLimit(constraint, axis);
        } else continue; // FREE: Havok holds no limit on this axis
        const entry = {
          kind: axis === AXIS.LINEAR_DISTANCE || axis <= AXIS.LINEAR_Z ? 'linear' : 'angular',
          axes: axis === AXIS.LINEAR_DISTANCE ? [0, 1, 2] : [axis % 3],
          min, max,
          stiffness: spring.stiffness ? spring.stiffness : null,
          damping: spring.damping ?? 0,
        };
        perAxis.push(entry);
      }
      // One limit over several axes is several consecutive axis entries with the same values
      // (KHR_rigid_bodies.ts:599-625); they are listed together, as the file's one limit.
      const limits = [];
      for (const e of perAxis) {
        const last = limits[limits.length - 1];
        if (last && last.kind === e.kind && e.axes.length === 1 && last.axes.length < 3 && !last.axes.includes(e.axes[0])
          && last.min === e.min && last.max === e.max && last.stiffness === e.stiffness && last.damping === e.damping
          && !(last.kind === 'linear' && last.axes.length === 3)) {
          last.axes.push(e.axes[0]);
        } else limits.push({ ...e, axes: [...e.axes] });
      }
      const drives = [];
      for (const hpAxis of this.record.motorOrder.get(jointKey) ?? []) {
        const axis = Object.values(HK.ConstraintAxis).find((a) => enumValue(a) === hpAxis);
        const name = Object.entries(HK.ConstraintAxis).find(([, a]) => enumValue(a) === hpAxis)?.[0] ?? '';
        const type = enumValue(HK.HP_Constraint_GetAxisMotorType(jointId, axis)[1]);
        if (type === enumValue(HK.ConstraintMotorType.NONE)) continue;
        const mode = type === enumValue(HK.ConstraintMotorType.SPRING_FORCE) ? 'force'
          : type === enumValue(HK.ConstraintMotorType.SPRING_ACCELERATION) ? 'acceleration' : null;
        if (!mode) continue;
        const told = this.record.axisSpring.get(`${jointKey}:${hpAxis}`) ?? {};
        const stiffness = HK.HP_Constraint_GetAxisMotorStiffness(jointId, axis)[1];
        const damping = told.motorDamping ?? 0;
        const maxForce = HK.HP_Constraint_GetAxisMotorMaxForce(jointId, axis)[1];
        drives.push({
          kind: name.startsWith('LINEAR') ? 'linear' : 'angular',
          axis: { X: 0, Y: 1, Z: 2 }[name.slice(-1)] ?? 0,
          mode,
          max_force: maxForce >= UNLIMITED_FORCE * (1 - 1e-6) ? null : maxForce,
          // A target the loader never set keeps Havok's default (0): absent.
          position_target: told.positionTargetSet === undefined ? null : HK.HP_Constraint_GetAxisMotorPositionTarget(jointId, axis)[1],
          velocity_target: told.velocityTargetSet === undefined ? null : HK.HP_Constraint_GetAxisMotorVelocityTarget(jointId, axis)[1],
          stiffness,
          damping,
        });
      }
      out.push({ node, bodies: [bodyNode(body), bodyNode(childBody)], frames, limits, drives });
    }
    return out.sort((a, b) => a.node - b.node);
  }

  // ----------------------------------------------------------------------------------------
  // Simulation

  configure(config) {
    this.config = config;
    this.plugin.setGravity(new Vector3(...config.gravity));
  }

  #centerOfMassWorld(body) {
    const pose = this.bodyPose(body);
    const c = this.plugin.getMassProperties(body).centerOfMass;
    const r = rotate(pose.q, v3(c));
    return new Vector3(pose.p[0] + r[0], pose.p[1] + r[1], pose.p[2] + r[2]);
  }

  step(steps) {
    const { dt, substeps } = this.config;
    const h = dt / substeps;
    for (let s = 0; s < steps; s++) {
      const goals = s === 0 ? this.pendingPoses : new Map();
      const starts = new Map();
      const velocities = new Map();
      for (const [node] of goals) {
        const b = this.bodies.find((x) => x.node === node);
        starts.set(node, this.bodyPose(b.body));
        const lin = new Vector3();
        const ang = new Vector3();
        this.plugin.getLinearVelocityToRef(b.body, lin);
        this.plugin.getAngularVelocityToRef(b.body, ang);
        velocities.set(node, [lin, ang]);
      }
      for (let k = 0; k < substeps; k++) {
        for (const [node, f] of this.heldForces) {
          const b = this.bodies.find((x) => x.node === node);
          this.plugin.applyImpulse(b.body, new Vector3(f[0] * h, f[1] * h, f[2] * h), this.#centerOfMassWorld(b.body));
        }
        for (const [node, goal] of goals) {
          const b = this.bodies.find((x) => x.node === node);
          const t = (k + 1) / substeps;
          const a = starts.get(node);
          const p = a.p.map((x, i) => x + (goal.p[i] - x) * t);
          const q = nlerp(a.q, goal.q, t);
          this.plugin.setTargetTransform(b.body, new Vector3(...p), new Quaternion(...q));
        }
        this.touching = new Map();
        this.plugin.executeStep(h, this.physics.getBodies());
      }
      // Havok moves a kinematic body to its target by giving it the velocity that reaches it in
      // one substep, and keeps that velocity: the body's own velocity is given back.
      for (const [node, [lin, ang]] of velocities) {
        const b = this.bodies.find((x) => x.node === node);
        this.plugin.setLinearVelocity(b.body, lin);
        this.plugin.setAngularVelocity(b.body, ang);
      }
      if (s === 0) this.pendingPoses = new Map();
      this.time += dt;
    }
    this.heldForces.clear();
  }

  #onCollision(e) {
    if (e.type === 'COLLISION_FINISHED') return;
    const point = e.point ? v3(e.point) : null;
    const nearest = (body) => {
      let best = null;
      let bestD = Infinity;
      const pose = this.bodyPose(body);
      for (const c of this.colliders) {
        if (c.body !== body) continue;
        const centre = poseMul(pose, { p: c.child.t, q: c.child.q }).p;
        const d = point ? distance(centre, point) : 0;
        if (d < bestD) { bestD = d; best = c; }
      }
      return best;
    };
    const a = nearest(e.collider), b = nearest(e.collidedAgainst);
    if (!a || !b || a.node === b.node) return;
    const pair = a.node < b.node ? [a.node, b.node] : [b.node, a.node];
    this.touching.set(pair.join(','), pair);
  }

  apply(action) {
    const b = this.bodies.find((x) => x.node === action.node);
    if (!b) throw new NotSupported(`node ${action.node} is not a body`);
    switch (action.action) {
      case 'impulse':
        if (b.kind !== 'dynamic') throw new NotSupported(`an impulse on the ${b.kind} body at node ${action.node}`);
        this.plugin.applyImpulse(b.body, new Vector3(...action.impulse), this.#centerOfMassWorld(b.body));
        return;
      case 'force': {
        if (b.kind !== 'dynamic') throw new NotSupported(`a force on the ${b.kind} body at node ${action.node}`);
        const f = this.heldForces.get(action.node) ?? [0, 0, 0];
        this.heldForces.set(action.node, f.map((x, i) => x + action.force[i]));
        return;
      }
      case 'kinematic_pose':
        if (b.kind !== 'kinematic') throw new NotSupported(`a kinematic pose for the ${b.kind} body at node ${action.node}`);
        this.pendingPoses.set(action.node, { p: action.translation, q: qnormalize(action.rotation) });
        return;
      default:
        throw new NotSupported(`action ${action.action}`);
    }
  }

  observe() {
    const P = this.plugin;
    const nodes = [];
    const pose = (tn) => {
      tn.computeWorldMatrix(true);
      const q = tn.absoluteRotationQuaternion;
      return { translation: v3(tn.absolutePosition), rotation: q4(q) };
    };
    for (const { node, body } of this.bodies) {
      const lin = new Vector3();
      const ang = new Vector3();
      P.getLinearVelocityToRef(body, lin);
      P.getAngularVelocityToRef(body, ang);
      nodes.push({ node, ...pose(body.transformNode), linear_velocity: v3(lin), angular_velocity: v3(ang) });
    }
    const seen = new Set(nodes.map((n) => n.node));
    for (const c of this.colliders) {
      if (c.dynamicNode !== null || seen.has(c.node)) continue;
      seen.add(c.node);
      const tn = this.babylonNode.get(c.node);
      nodes.push({ node: c.node, ...pose(tn), linear_velocity: [0, 0, 0], angular_velocity: [0, 0, 0] });
    }
    nodes.sort((a, b) => a.node - b.node);
    return {
      time: this.time,
      nodes,
      contacts: [...this.touching.values()].sort((x, y) => x[0] - y[0] || x[1] - y[1]),
      trigger_events: [],
    };
  }

  release() {
    try {
      if (this.observer) this.plugin.onCollisionObservable.remove(this.observer);
      this.scene?.dispose();
    } catch (error) {
      process.stderr.write(`babylon: disposing the scene: ${error?.message ?? error}\n`);
    }
    this.scene = null;
    this.rt.endRecord();
  }
}

export { poseInv };
