// One loaded scene as a PhysX scene: building it from the model of scene.js, stepping it,
// and reading back what the harness observes. Everything reported is read from the PhysX
// objects (or from the adapter's own per-pair tables that decide what PhysX does), never
// copied from the file.
//
// Pair rules PhysX cannot state itself are enforced in the simulation filter shader, which
// PhysX calls once per new shape pair (here a JavaScript function):
// - filters [D-FILTER]: the shader looks the pair up in a table computed with the spec's
//   subset formula on the full system-name lists (no 32-bit group squeezing);
// - joints without `enableCollision` disable contacts between their bodies (the static world
//   counts as one body, as in the reference);
// - material combining [D-COMBINE]: PhysX combines with the larger enum mode (its precedence is
//   maximum > multiply > minimum > average; the spec's is average > minimum > maximum >
//   multiply). Every collider therefore gets one PhysX shape per combine mode pair it needs,
//   each with a material whose PhysX modes are the pair's spec modes, and the shader lets
//   exactly the matching copies of two colliders touch. PhysX then combines both values with
//   the spec's mode. Mass properties are computed before the extra copies are attached.

import { Failed, NotSupported } from '../../kit/src/errors.js';
import { planJoint } from '../../kit/src/joints.js';
import { poseInv, poseInvTimesMat4, poseLerp, poseMul, poseOfMat4, qaxisAngle, qconj, qintegrate } from '../../kit/src/math.js';
import { applyAction } from '../../kit/src/actions.js';
import { colliderReport, jointReport, observation, pairReports, restingNode, staticBody } from '../../kit/src/report.js';
import { apply, filtersCollide, pairMode } from '../../kit/src/rules.js';
import { PHYSX_ORDER, physxPairMode } from './physx-rules.js';

/** Position iterations of every moving body (PhysX's default is 4; the Rapier adapter uses 8). */
const SOLVER_POSITION_ITERATIONS = 8;
import { buildGeometry, canonicalFix } from './shapes.js';

/** Density (kg/m^3) for mass the file leaves to the engine (the spec names none). */
export const DEFAULT_DENSITY = 1;
/** Friction and restitution of a collider without a material (the spec names none). */
export const DEFAULT_MATERIAL = Object.freeze({ staticFriction: 0.5, dynamicFriction: 0.5, restitution: 0 });
const MAX_F32 = 3.4028234663852886e38;

export class World {
  /** Build the PhysX scene for `scene` under the simulation `config`. */
  constructor(runtime, scene, config) {
    this.rt = runtime;
    this.P = runtime.P;
    this.scene = scene;
    this.config = config;
    this.notes = [...scene.notes];
    this.owned = []; // PhysX wrapper objects to destroy at release
    this.releasable = []; // PhysX objects to release(), in order
    this.time = 0;
    this.touching = new Map(); // "i,j" collider indices -> count
    this.overlaps = new Map(); // "triggerNode,otherNode" -> count
    this.events = [];
    this.heldForces = new Map(); // body node -> [fx, fy, fz]
    this.pendingPoses = new Map(); // kinematic body node -> {p, q}
    try {
      this.#build();
    } catch (error) {
      this.release();
      throw error;
    }
  }

  keep(obj) {
    this.owned.push(obj);
    return obj;
  }
  vec(v) { return this.keep(new this.P.PxVec3(v[0], v[1], v[2])); }
  transform(pose) {
    const P = this.P;
    return this.keep(new P.PxTransform(this.vec(pose.p), this.keep(new P.PxQuat(pose.q[0], pose.q[1], pose.q[2], pose.q[3]))));
  }

  #build() {
    const { P, scene } = this;
    const doc = scene.doc;
    this.#buildPairTables();
    const desc = this.keep(new P.PxSceneDesc(this.rt.tolerances));
    desc.gravity = this.vec(this.config.gravity);
    desc.cpuDispatcher = this.rt.dispatcher;
    // PGS, not TGS: on a hinge swinging onto its limit TGS overshot by 0.24 rad and sagged
    // 0.026 rad at rest (dt 1/60); PGS held the limit to 1e-4 (see README).
    desc.solverType = P.PxSolverTypeEnum.ePGS;
    // Report pairs with kinematic and static actors too (triggers on static nodes).
    desc.kineKineFilteringMode = P.PxPairFilteringModeEnum.eKEEP;
    desc.staticKineFilteringMode = P.PxPairFilteringModeEnum.eKEEP;
    this.shader = this.#filterShader();
    P.PxTopLevelFunctions.prototype.setupPassThroughFilterShader(desc, this.shader);
    this.callback = this.#eventCallback();
    desc.simulationEventCallback = this.callback;
    this.pxScene = physicsCall(() => this.rt.physics.createScene(desc), 'createScene');

    // Actors: one per body, one per static collider node.
    this.actors = new Map(); // body index -> {actor, pose, body}
    for (const [i, body] of scene.bodies.entries()) {
      const pose = poseOfMat4(doc.world[body.node]);
      const t = this.transform(pose);
      const actor = body.kind === 'static' ? this.rt.physics.createRigidStatic(t) : this.rt.physics.createRigidDynamic(t);
      if (body.kind === 'kinematic') actor.setRigidBodyFlag(P.PxRigidBodyFlagEnum.eKINEMATIC, true);
      // 8 position iterations (PhysX's default is 4), as the Rapier adapter uses: joint chains
      // at one substep come closer to their hard limits.
      if (body.kind !== 'static') {
        actor.setSolverIterationCounts(SOLVER_POSITION_ITERATIONS, 1);
        // No damping: neither extension has any. PhysX's default angular damping (0.05)
        // slowed a free spin past an open limit side 0.05 rad short of where it is expected
        // (found by `physics-cts fuzz --impl physx`).
        actor.setAngularDamping(0);
        actor.setLinearDamping(0);
      }
      this.actors.set(i, { actor, pose, body });
    }
    this.staticActors = new Map(); // collider index -> {actor, pose}
    this.shapeOf = []; // collider index -> {primary shape, kind, report, variants}
    const meshes = new Map();
    const meshOf = (m) => {
      if (!meshes.has(m)) meshes.set(m, doc.meshTriangles(m));
      return meshes.get(m);
    };
    const cook = this.#cooker();
    const extras = [];
    for (const [ci, c] of scene.colliders.entries()) {
      const shape = scene.shapes[c.shape];
      let holder;
      // khr-2025 gives the world matrix to simulate (a mirror acts by |scale|).
      const world = c.world ?? doc.world[c.node];
      if (c.body === null) {
        const pose = poseOfMat4(world);
        holder = { actor: this.rt.physics.createRigidStatic(this.transform(pose)), pose, body: null };
        this.staticActors.set(ci, holder);
      } else {
        holder = this.actors.get(c.body);
      }
      if (shape.type === 'trimesh' && c.isTrigger) {
        throw new NotSupported('a triangle-mesh trigger (PhysX triggers need volumes)');
      }
      if (shape.type === 'trimesh' && holder.body?.kind === 'dynamic') {
        throw new NotSupported('a triangle mesh on a dynamic body (PhysX simulates triangle meshes on static and kinematic actors only)');
      }
      if (shape.type === 'plane' && (c.isTrigger || holder.body !== null)) {
        throw new NotSupported(`a plane ${c.isTrigger ? 'trigger' : 'on a body'} (PhysX planes are static colliders, without volume or mass)`);
      }
      const rel = poseInvTimesMat4(holder.pose, world);
      // Node geometry (khr-2025) carries its merged triangles; draft meshes are read by index.
      const mesh = shape.type === 'convex' || shape.type === 'trimesh' ? shape.triangles ?? meshOf(shape.mesh) : null;
      const built = buildGeometry(P, shape, rel, mesh, cook, (o) => this.keep(o));
      if (built.note) this.notes.push(`collider at node ${c.node}: ${built.note}`);
      const flags = this.keep(new P.PxShapeFlags(c.isTrigger
        ? P.PxShapeFlagEnum.eTRIGGER_SHAPE
        : P.PxShapeFlagEnum.eSIMULATION_SHAPE | P.PxShapeFlagEnum.eSCENE_QUERY_SHAPE));
      const codes = c.isTrigger ? [0] : [...this.codes[ci]].sort((a, b) => a - b);
      const variants = codes.map((code) => {
        const material = this.#material(c.material, code);
        const s = physicsCall(() => this.rt.physics.createShape(built.geometry, material, true, flags), 'createShape');
        s.setLocalPose(this.transform(built.pose));
        s.setSimulationFilterData(this.keep(new P.PxFilterData(ci + 1, code, 0, 0)));
        return { code, shape: s, material };
      });
      holder.actor.attachShape(variants[0].shape);
      for (const v of variants.slice(1)) extras.push([holder.actor, v.shape]);
      const fix = built.fix ?? { p: [0, 0, 0], q: canonicalFix(built.kind) };
      this.shapeOf[ci] = { kind: built.kind, report: built.report, variants, holder, fix };
    }
    for (const [, h] of this.actors) this.#massProperties(h);
    for (const [actor, shape] of extras) actor.attachShape(shape);
    for (const [, h] of this.actors) {
      this.pxScene.addActor(h.actor);
      if (h.body.kind === 'dynamic') {
        h.actor.setLinearVelocity(this.vec(h.body.linearVelocity));
        h.actor.setAngularVelocity(this.vec(h.body.angularVelocity));
        if (h.body.gravityFactor !== 1) h.actor.setActorFlag(P.PxActorFlagEnum.eDISABLE_GRAVITY, true);
      }
    }
    for (const [, h] of this.staticActors) this.pxScene.addActor(h.actor);
    this.kinematicVelocity = new Map();
    for (const [, h] of this.actors) {
      if (h.body.kind === 'kinematic') this.kinematicVelocity.set(h.body.node, { v: h.body.linearVelocity, w: h.body.angularVelocity });
    }
    this.#buildJoints();
    this.triggerNode = new Map(); // collider index -> reporting node (compound or own)
    for (const [ci, c] of scene.colliders.entries()) if (c.isTrigger) this.triggerNode.set(ci, c.node);
    for (const comp of scene.compounds) {
      for (const [ci, c] of scene.colliders.entries()) if (comp.members.includes(c.node) && c.isTrigger) this.triggerNode.set(ci, comp.node);
    }
    // Reusable temporaries for stepping.
    this.tmpVec = this.keep(new P.PxVec3(0, 0, 0));
    this.tmpQuat = this.keep(new P.PxQuat(0, 0, 0, 1));
    this.tmpTransform = this.keep(new P.PxTransform(this.tmpVec, this.tmpQuat));
  }

  /** Per collider pair: whether filters (and joints) allow it, and the PhysX mode code it uses. */
  #buildPairTables() {
    const { scene } = this;
    const n = scene.colliders.length;
    this.allowed = new Uint8Array(n * n); // 1 filters allow, 2 contacts allowed (filters and joints)
    this.pairCode = new Int8Array(n * n).fill(-1);
    this.codes = scene.colliders.map(() => new Set());
    const filter = (c) => (c.filter === null ? null : scene.filters[c.filter]);
    const material = (c) => (c.material === null ? null : scene.materials[c.material]);
    const bodyNode = (c) => (c.body === null ? null : scene.bodies[c.body].node);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const a = scene.colliders[i], b = scene.colliders[j];
        const filters = filtersCollide(filter(a), filter(b));
        const joined = this.#joinedBy(bodyNode(a), bodyNode(b)) !== null;
        this.allowed[i * n + j] = filters ? (joined ? 1 : 3) : 0;
        // Every pair gets its code (the interpretation reports the combined values of pairs
        // that never touch too: triggers, filtered or joined pairs); only pairs that can
        // touch need a shape copy carrying it.
        const ma = material(a), mb = material(b);
        const fm = pairMode(ma?.frictionCombine ?? null, mb?.frictionCombine ?? null) ?? 'average';
        const rm = pairMode(ma?.restitutionCombine ?? null, mb?.restitutionCombine ?? null) ?? 'average';
        const code = modeCode(fm, rm);
        this.pairCode[i * n + j] = code;
        if (!a.isTrigger && !b.isTrigger && a.body !== b.body && filters && !joined) this.codes[i].add(code);
      }
    }
    for (const [i, c] of scene.colliders.entries()) {
      if (this.codes[i].size === 0) {
        const m = material(c);
        this.codes[i].add(modeCode(m?.frictionCombine ?? 'average', m?.restitutionCombine ?? 'average'));
      }
    }
  }

  /** The joint node joining bodies (by node; null = the world) without enableCollision, or null. */
  #joinedBy(p, q) {
    const j = this.scene.joints.find((j) => !j.enableCollision
      && ((j.a.body === p && j.b.body === q) || (j.a.body === q && j.b.body === p)));
    return j ? j.node : null;
  }

  #material(index, code) {
    const key = `${index}:${code}`;
    this.materials ??= new Map();
    if (this.materials.has(key)) return this.materials.get(key);
    const P = this.P;
    const m = index === null ? DEFAULT_MATERIAL : this.scene.materials[index];
    const mat = this.rt.physics.createMaterial(m.staticFriction, m.dynamicFriction, m.restitution);
    const [fm, rm] = codeModes(code);
    mat.setFrictionCombineMode(P.PxCombineModeEnum[PHYSX_ENUM[fm]]);
    mat.setRestitutionCombineMode(P.PxCombineModeEnum[PHYSX_ENUM[rm]]);
    this.materials.set(key, mat);
    return mat;
  }

  #cooker() {
    const P = this.P;
    const params = this.rt.cookingParams;
    const points = (list) => {
      const arr = this.keep(new P.PxArray_PxVec3(list.length));
      const v = this.keep(new P.PxVec3(0, 0, 0));
      list.forEach((p, i) => { v.x = p[0]; v.y = p[1]; v.z = p[2]; arr.set(i, v); });
      return arr;
    };
    return {
      convex: (list) => {
        const desc = this.keep(new P.PxConvexMeshDesc());
        const arr = points(list);
        desc.points.count = list.length;
        desc.points.stride = 12;
        desc.points.data = arr.begin();
        desc.flags = this.keep(new P.PxConvexFlags(P.PxConvexFlagEnum.eCOMPUTE_CONVEX));
        const mesh = P.PxTopLevelFunctions.prototype.CreateConvexMesh(params, desc);
        if (!mesh || !mesh.ptr) throw new Failed('PhysX could not cook a convex hull');
        this.releasable.push(mesh);
        return mesh;
      },
      triangles: (list, triangles) => {
        const desc = this.keep(new P.PxTriangleMeshDesc());
        const arr = points(list);
        const idx = this.keep(new P.PxArray_PxU32(triangles.length * 3));
        triangles.forEach((t, i) => { idx.set(3 * i, t[0]); idx.set(3 * i + 1, t[1]); idx.set(3 * i + 2, t[2]); });
        desc.points.count = list.length;
        desc.points.stride = 12;
        desc.points.data = arr.begin();
        desc.triangles.count = triangles.length;
        desc.triangles.stride = 12;
        desc.triangles.data = idx.begin();
        const mesh = P.PxTopLevelFunctions.prototype.CreateTriangleMesh(params, desc);
        if (!mesh || !mesh.ptr) throw new Failed('PhysX could not cook a triangle mesh');
        this.releasable.push(mesh);
        return mesh;
      },
    };
  }

  /** Mass, centre of mass and inertia: the file's values where given, PhysX's otherwise. */
  #massProperties(h) {
    const { P } = this;
    const { actor, body } = h;
    if (body.kind === 'static') return;
    const ext = P.PxRigidBodyExt.prototype;
    const com = body.com === null ? undefined : this.vec(body.com);
    const hasShapes = [...this.shapeOf].some((s) => s && s.holder === h && s.variants[0].shape.getFlags().isSet(P.PxShapeFlagEnum.eSIMULATION_SHAPE));
    if (!hasShapes) {
      this.notes.push(`body at node ${body.node} has no solid collider: PhysX's default unit inertia is kept unless the file gives one`);
    }
    if (body.mass.kind === 'finite' && hasShapes) {
      ext.setMassAndUpdateInertia(actor, body.mass.value, com);
    } else {
      if (hasShapes) ext.updateMassAndInertia(actor, DEFAULT_DENSITY, com);
      else if (body.com !== null) actor.setCMassLocalPose(this.transform({ p: body.com, q: [0, 0, 0, 1] }));
      if (body.mass.kind === 'finite') actor.setMass(body.mass.value);
      if (body.mass.kind === 'infinite') {
        actor.setMass(0);
        if (body.inertia === null) {
          // Infinite mass with an engine-computed inertia: the inertia scales with the mass.
          actor.setMassSpaceInertiaTensor(this.vec([0, 0, 0]));
          this.notes.push(`body at node ${body.node}: infinite mass without an inertia is given infinite inertia`);
        }
      }
    }
    if (body.inertia !== null) {
      const d = body.inertia.diagonal.map((x) => (Number.isFinite(x) ? x : 0)); // PhysX: 0 = infinite
      const p = actor.getCMassLocalPose().p;
      actor.setCMassLocalPose(this.transform({ p: [p.x, p.y, p.z], q: body.inertia.orientation }));
      actor.setMassSpaceInertiaTensor(this.vec(d));
    }
  }

  #buildJoints() {
    const { P, scene, doc } = { P: this.P, scene: this.scene, doc: this.scene.doc };
    this.joints = [];
    const actorOf = (bodyNode) => {
      if (bodyNode === null) return { actor: null, pose: { p: [0, 0, 0], q: [0, 0, 0, 1] } };
      const i = scene.bodies.findIndex((b) => b.node === bodyNode);
      return this.actors.get(i);
    };
    const A = P.PxD6AxisEnum, M = P.PxD6MotionEnum;
    const motion = (m) => M[{ free: 'eFREE', locked: 'eLOCKED', limited: 'eLIMITED' }[m]];
    const spring = (s) => this.keep(new P.PxSpring(s?.stiffness ?? 0, s?.damping ?? 0));
    for (const j of scene.joints) {
      const plan = planJoint(j, { engine: 'PhysX' });
      const ends = [j.a, j.b].map((att) => actorOf(att.body));
      if (ends[0].actor === null && ends[1].actor === null) {
        this.notes.push(`joint at node ${j.node} joins no body and is left out`);
        continue;
      }
      const fix = { p: [0, 0, 0], q: plan.frameRotation };
      const local = [j.a, j.b].map((att, k) => poseMul(poseMul(poseInv(ends[k].pose), poseOfMat4(doc.world[att.frame])), fix));
      const d6 = P.PxTopLevelFunctions.prototype.D6JointCreate(this.rt.physics, ends[0].actor, this.transform(local[0]), ends[1].actor, this.transform(local[1]));
      if (!d6 || !d6.ptr) throw new Failed(`PhysX could not create the joint at node ${j.node}`);
      this.releasable.unshift(d6);
      [A.eX, A.eY, A.eZ].forEach((axis, k) => {
        const m = plan.linear[k];
        d6.setMotion(axis, motion(m.motion));
        if (m.motion === 'limited' && plan.distance === null) {
          const limit = this.keep(new P.PxJointLinearLimitPair(m.lower, m.upper, spring(m.spring)));
          if (!limit.isValid()) throw new NotSupported(`joint at node ${j.node}: PhysX refuses the linear limit [${m.lower}, ${m.upper}]`);
          d6.setLinearLimit(axis, limit);
        }
      });
      if (plan.distance !== null) {
        const limit = this.keep(new P.PxJointLinearLimit(plan.distance.extent, spring(plan.distance.spring)));
        if (!limit.isValid()) throw new NotSupported(`joint at node ${j.node}: PhysX refuses the distance limit ${plan.distance.extent}`);
        d6.setDistanceLimit(limit);
      }
      const { twist, swing1, swing2 } = plan.angular;
      d6.setMotion(A.eTWIST, motion(twist.motion));
      d6.setMotion(A.eSWING1, motion(swing1.motion));
      d6.setMotion(A.eSWING2, motion(swing2.motion));
      if (twist.motion === 'limited') {
        const limit = this.keep(new P.PxJointAngularLimitPair(twist.lower, twist.upper, spring(twist.spring)));
        if (!limit.isValid()) throw new NotSupported(`joint at node ${j.node}: PhysX refuses the twist limit [${twist.lower}, ${twist.upper}]`);
        d6.setTwistLimit(limit);
      }
      if (plan.cone !== null) {
        const limit = this.keep(new P.PxJointLimitCone(plan.cone.angle, plan.cone.angle, spring(plan.cone.spring)));
        if (!limit.isValid()) throw new NotSupported(`joint at node ${j.node}: PhysX refuses the cone limit ${plan.cone.angle}`);
        d6.setSwingLimit(limit);
      }
      if (plan.drives.length > 0) {
        const pos = [0, 0, 0];
        const vel = [0, 0, 0];
        let twistAngle = 0;
        let twistRate = 0;
        for (const d of plan.drives) {
          const drive = this.keep(new P.PxD6JointDrive(d.stiffness, d.damping, d.forceLimit ?? MAX_F32, d.acceleration));
          d6.setDrive(P.PxD6DriveEnum[{ x: 'eX', y: 'eY', z: 'eZ', twist: 'eTWIST' }[d.dof]], drive);
          if (d.dof === 'twist') { twistAngle = d.position; twistRate = d.velocity; } else {
            const k = { x: 0, y: 1, z: 2 }[d.dof];
            pos[k] = d.position;
            vel[k] = d.velocity;
          }
        }
        d6.setDrivePosition(this.transform({ p: pos, q: qaxisAngle([1, 0, 0], twistAngle) }));
        // PhysX's angular drive velocity is that of actor 0 relative to actor 1 (measured: a
        // target +w turns actor 1 at -w about the twist axis), the opposite of its linear one.
        d6.setDriveVelocity(this.vec(vel), this.vec([-twistRate, 0, 0]));
      }
      d6.setConstraintFlag(P.PxConstraintFlagEnum.eCOLLISION_ENABLED, j.enableCollision);
      d6.setConstraintFlag(P.PxConstraintFlagEnum.eDRIVE_LIMITS_ARE_FORCES, true);
      this.joints.push({ joint: j, d6, plan });
    }
  }

  #filterShader() {
    const P = this.P;
    const n = this.scene.colliders.length;
    const TRIGGER = P.PxFilterObjectFlagEnum.eTRIGGER;
    const KILL = P.PxFilterFlagEnum.eKILL;
    const DEFAULT = P.PxFilterFlagEnum.eDEFAULT;
    const contactFlags = P.PxPairFlagEnum.eCONTACT_DEFAULT | P.PxPairFlagEnum.eNOTIFY_TOUCH_FOUND | P.PxPairFlagEnum.eNOTIFY_TOUCH_LOST;
    const triggerFlags = P.PxPairFlagEnum.eTRIGGER_DEFAULT;
    const shader = new P.PassThroughFilterShaderImpl();
    const allowed = this.allowed, pairCode = this.pairCode;
    shader.filterShader = (a0, w00, w01, _w02, _w03, a1, w10, w11) => {
      const i = w00 - 1, j = w10 - 1;
      if (i < 0 || j < 0 || i >= n || j >= n) { shader.outputPairFlags = contactFlags; return DEFAULT; }
      const rule = allowed[i * n + j];
      if ((a0 & TRIGGER) || (a1 & TRIGGER)) {
        if (!(rule & 1)) return KILL;
        shader.outputPairFlags = triggerFlags;
        return DEFAULT;
      }
      if (!(rule & 2)) return KILL;
      const code = pairCode[i * n + j];
      if (w01 !== code || w11 !== code) return KILL;
      shader.outputPairFlags = contactFlags;
      return DEFAULT;
    };
    return shader;
  }

  #eventCallback() {
    const P = this.P;
    const cb = new P.PxSimulationEventCallbackImpl();
    const helpers = P.NativeArrayHelpers.prototype;
    const FOUND = P.PxPairFlagEnum.eNOTIFY_TOUCH_FOUND;
    const LOST = P.PxPairFlagEnum.eNOTIFY_TOUCH_LOST;
    const colliderOf = (shape) => shape.getSimulationFilterData().word0 - 1;
    cb.onContact = (_header, pairs, count) => {
      for (let k = 0; k < count; k++) {
        const pair = helpers.getContactPairAt(pairs, k);
        const i = colliderOf(pair.get_shapes(0)), j = colliderOf(pair.get_shapes(1));
        const key = i < j ? `${i},${j}` : `${j},${i}`;
        const events = pair.events;
        if (events.isSet(FOUND)) this.touching.set(key, (this.touching.get(key) ?? 0) + 1);
        if (events.isSet(LOST)) {
          const left = (this.touching.get(key) ?? 0) - 1;
          if (left > 0) this.touching.set(key, left); else this.touching.delete(key);
        }
      }
    };
    cb.onTrigger = (pairs, count) => {
      for (let k = 0; k < count; k++) {
        const pair = helpers.getTriggerPairAt(pairs, k);
        const t = colliderOf(pair.triggerShape), o = colliderOf(pair.otherShape);
        const trigger = this.triggerNode.get(t);
        const other = this.scene.colliders[o]?.node;
        if (trigger === undefined || other === undefined) continue;
        const key = `${trigger},${other}`;
        const n = this.overlaps.get(key) ?? 0;
        if (pair.status === FOUND) {
          this.overlaps.set(key, n + 1);
          if (n === 0) this.events.push({ kind: 'enter', trigger, other });
        } else if (pair.status === LOST) {
          if (n <= 1) { this.overlaps.delete(key); if (n === 1) this.events.push({ kind: 'exit', trigger, other }); } else this.overlaps.set(key, n - 1);
        }
      }
    };
    cb.onConstraintBreak = () => {};
    cb.onWake = () => {};
    cb.onSleep = () => {};
    return cb;
  }

  // ----------------------------------------------------------------------------------------
  // Simulation

  configure(config) {
    this.config = config;
    const g = this.config.gravity;
    this.tmpVec.x = g[0]; this.tmpVec.y = g[1]; this.tmpVec.z = g[2];
    this.pxScene.setGravity(this.tmpVec);
  }

  step(steps) {
    const { P } = this;
    const { dt, substeps, gravity } = this.config;
    const h = dt / substeps;
    for (let s = 0; s < steps; s++) {
      const poses = s === 0 ? this.pendingPoses : new Map();
      for (let k = 0; k < substeps; k++) {
        for (const [, hold] of this.actors) {
          const body = hold.body;
          if (body.kind === 'dynamic') {
            const f = this.heldForces.get(body.node);
            if (f) this.#addForce(hold.actor, f, P.PxForceModeEnum.eFORCE);
            if (body.gravityFactor !== 1 && body.gravityFactor !== 0) {
              this.#addForce(hold.actor, gravity.map((x) => x * body.gravityFactor), P.PxForceModeEnum.eACCELERATION);
            }
          } else if (body.kind === 'kinematic') {
            this.#kinematicTarget(hold, poses.get(body.node), (k + 1) / substeps, h);
          }
        }
        this.pxScene.simulate(h);
        this.pxScene.fetchResults(true);
      }
      if (s === 0) this.pendingPoses = new Map();
      this.time += dt;
    }
    this.heldForces.clear();
  }

  #addForce(actor, f, mode) {
    this.tmpVec.x = f[0]; this.tmpVec.y = f[1]; this.tmpVec.z = f[2];
    actor.addForce(this.tmpVec, mode, true);
  }

  /** Move a kinematic body one substep: toward a requested pose, or by its velocity. */
  #kinematicTarget(hold, goal, fraction, h) {
    const g = hold.actor.getGlobalPose();
    const now = { p: [g.p.x, g.p.y, g.p.z], q: [g.q.x, g.q.y, g.q.z, g.q.w] };
    let next;
    if (goal) {
      if (fraction === 1) next = goal;
      else {
        const start = hold.goalStart ?? now;
        hold.goalStart = start;
        next = poseLerp(start, goal, fraction);
      }
      if (fraction === 1) hold.goalStart = undefined;
    } else {
      const vel = this.kinematicVelocity.get(hold.body.node);
      if (!vel || (vel.v.every((x) => x === 0) && vel.w.every((x) => x === 0))) return;
      next = { p: now.p.map((x, i) => x + vel.v[i] * h), q: qintegrate(now.q, vel.w, h) };
    }
    const t = this.tmpTransform;
    this.tmpVec.x = next.p[0]; this.tmpVec.y = next.p[1]; this.tmpVec.z = next.p[2];
    t.p = this.tmpVec;
    this.tmpQuat.x = next.q[0]; this.tmpQuat.y = next.q[1]; this.tmpQuat.z = next.q[2]; this.tmpQuat.w = next.q[3];
    t.q = this.tmpQuat;
    hold.actor.setKinematicTarget(t);
  }

  /** Apply a harness action (see `Action` in the protocol). */
  apply(action) {
    const eIMPULSE = this.P.PxForceModeEnum.eIMPULSE;
    applyAction(this, this.actors.values(), action, (hold, j) => this.#addForce(hold.actor, j, eIMPULSE));
  }

  // ----------------------------------------------------------------------------------------
  // Observation

  observe() {
    const nodes = [];
    for (const [, h] of this.actors) {
      const g = h.actor.getGlobalPose();
      const moving = h.body.kind !== 'static';
      const v = moving ? h.actor.getLinearVelocity() : { x: 0, y: 0, z: 0 };
      const w = moving ? h.actor.getAngularVelocity() : { x: 0, y: 0, z: 0 };
      nodes.push({
        node: h.body.node,
        translation: [g.p.x, g.p.y, g.p.z],
        rotation: [g.q.x, g.q.y, g.q.z, g.q.w],
        linear_velocity: [v.x, v.y, v.z],
        angular_velocity: [w.x, w.y, w.z],
      });
    }
    for (const [ci, h] of this.staticActors) {
      const g = h.actor.getGlobalPose();
      nodes.push(restingNode(this.scene.colliders[ci].node, { p: [g.p.x, g.p.y, g.p.z], q: [g.q.x, g.q.y, g.q.z, g.q.w] }));
    }
    const events = this.events;
    this.events = [];
    return observation(this.time, nodes, this.touching.keys(), this.scene.colliders, events);
  }

  interpretation() {
    const { P, scene } = this;
    const mass = (x) => (x > 0 && Number.isFinite(x) ? { kind: 'finite', value: x } : { kind: 'infinite' });
    const bodies = [];
    for (const [, h] of this.actors) {
      const { body, actor } = h;
      if (body.kind === 'static') {
        bodies.push(staticBody(body));
        continue;
      }
      const c = actor.getCMassLocalPose();
      const inv = actor.getMassSpaceInvInertiaTensor();
      const i = actor.getMassSpaceInertiaTensor();
      const moment = (value, inverse) => (inverse === 0 ? { kind: 'infinite' } : mass(value));
      const kinematic = body.kind === 'kinematic';
      const v = kinematic ? body.linearVelocity : xyz(actor.getLinearVelocity());
      const w = kinematic ? body.angularVelocity : xyz(actor.getAngularVelocity());
      bodies.push({
        node: body.node,
        kind: body.kind,
        mass: actor.getInvMass() === 0 ? { kind: 'infinite' } : mass(actor.getMass()),
        center_of_mass: xyz(c.p),
        inertia_diagonal: [moment(i.x, inv.x), moment(i.y, inv.y), moment(i.z, inv.z)],
        inertia_orientation: [c.q.x, c.q.y, c.q.z, c.q.w],
        linear_velocity: v,
        angular_velocity: w,
        // Applied by the world itself (PhysX has no per-actor gravity scale), see `step`.
        gravity_factor: body.gravityFactor,
      });
    }
    bodies.sort((a, b) => a.node - b.node);
    const colliders = scene.colliders.map((c, ci) => {
      const s = this.shapeOf[ci];
      const primary = s.variants[0].shape;
      const lp = primary.getLocalPose();
      let pose = poseMul({ p: xyz(lp.p), q: [lp.q.x, lp.q.y, lp.q.z, lp.q.w] }, poseInv(s.fix));
      if (c.body === null) pose = poseMul(s.holder.pose, pose);
      return colliderReport(scene, c, pose, primary.getFlags().isSet(P.PxShapeFlagEnum.eTRIGGER_SHAPE), s.report);
    });
    const pairs = pairReports(scene.colliders, this.allowed, (i, j) => {
      const [ma, mb] = this.#pairMaterials(i, j);
      const friction = physxPairMode(combineName(ma.getFrictionCombineMode(), P), combineName(mb.getFrictionCombineMode(), P));
      const restitution = physxPairMode(combineName(ma.getRestitutionCombineMode(), P), combineName(mb.getRestitutionCombineMode(), P));
      return {
        static_friction: apply(friction, ma.getStaticFriction(), mb.getStaticFriction()),
        dynamic_friction: apply(friction, ma.getDynamicFriction(), mb.getDynamicFriction()),
        restitution: apply(restitution, ma.getRestitution(), mb.getRestitution()),
      };
    });
    const joints = this.joints.map(({ joint, d6, plan }) => {
      const unfix = { p: [0, 0, 0], q: qconj(plan.frameRotation) };
      const frames = [P.PxJointActorIndexEnum.eACTOR0, P.PxJointActorIndexEnum.eACTOR1].map((k) => {
        const t = d6.getLocalPose(k);
        const pose = poseMul({ p: xyz(t.p), q: [t.q.x, t.q.y, t.q.z, t.q.w] }, unfix);
        return { translation: pose.p, rotation: pose.q };
      });
      return jointReport(joint, frames);
    });
    return { bodies, colliders, pairs, joints };
  }

  /**
   * The PhysX materials two colliders touch with: those of the copies the shader lets meet.
   * A pair that never touches (a trigger, a filtered or joined pair) has no such copies; it is
   * read from the materials its copies would carry (same cache, same PhysX objects), so the
   * report still says how PhysX would combine the pair, with the spec's mode.
   */
  #pairMaterials(i, j) {
    const n = this.scene.colliders.length;
    const code = this.pairCode[i * n + j];
    const pick = (ci) => this.shapeOf[ci].variants.find((v) => v.code === code)?.material
      ?? this.#material(this.scene.colliders[ci].material, code);
    return [pick(i), pick(j)];
  }

  release() {
    for (const obj of this.releasable) {
      try { obj.release(); } catch { /* already gone */ }
    }
    this.releasable = [];
    for (const [, h] of this.actors ?? []) h.actor.release();
    for (const [, h] of this.staticActors ?? []) h.actor.release();
    for (const [, m] of this.materials ?? []) m.release();
    if (this.pxScene) this.pxScene.release();
    this.pxScene = null;
    for (const obj of this.owned) {
      try { this.P.destroy(obj); } catch { /* not destroyable */ }
    }
    this.owned = [];
  }
}

// ------------------------------------------------------------------------------------------

const PHYSX_ENUM = { average: 'eAVERAGE', minimum: 'eMIN', multiply: 'eMULTIPLY', maximum: 'eMAX' };

/** A (friction mode, restitution mode) pair as one small integer. */
export function modeCode(friction, restitution) {
  return PHYSX_ORDER.indexOf(friction) * 4 + PHYSX_ORDER.indexOf(restitution);
}
export function codeModes(code) {
  return [PHYSX_ORDER[Math.floor(code / 4)], PHYSX_ORDER[code % 4]];
}
function combineName(value, P) {
  return Object.keys(PHYSX_ENUM).find((k) => P.PxCombineModeEnum[PHYSX_ENUM[k]] === value);
}
function xyz(v) { return [v.x, v.y, v.z]; }


function physicsCall(f, what) {
  const out = f();
  if (!out || !out.ptr) throw new Failed(`PhysX ${what} failed`);
  return out;
}
