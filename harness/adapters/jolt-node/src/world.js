// One loaded scene as a Jolt physics system: built from the kit's model (scene.js), stepped,
// and read back for the harness.
//
// - Bodies: one Jolt body per body, its solid colliders the children of a static compound (each
//   child's user data is its collider index + 1, so callbacks find the collider of a sub-shape);
//   a given centre of mass by an OffsetCenterOfMassShape; mass and inertia set on the motion
//   properties (inverse mass or an inverse inertia component 0 = infinite). One static body per
//   collider without a body. Gravity factor: Jolt's own per-body factor. Damping 0 (Jolt's
//   default is 0.05), sleeping off, velocity clamps raised.
// - Triggers: Jolt sensors are whole bodies, so each trigger collider is its own kinematic sensor
//   body (colliding with static and kinematic bodies too), moved to its owner's pose after every
//   substep (a body's trigger follows it one substep behind).
// - Pair rules in Jolt's callbacks: the sim-shape filter decides per collider pair from the
//   kit's filter rule [D-FILTER] and joints without enableCollision; the contact listener sets
//   each contact's combined friction and restitution from the kit's combine rule [D-COMBINE]
//   (Jolt has one friction coefficient: the pair's static friction while the contact sticks,
//   its dynamic friction once its tangential speed exceeds 1 cm/s, as the Rapier adapter does),
//   and counts contacts and trigger overlaps per collider pair.
// - Joints: the kit's joint plan on a SixDOFConstraint (twist about X, a circular swing cone,
//   per-axis translation limits with limit springs, motors with springs); a distance limit over
//   3 coupled linear axes is a DistanceConstraint beside it.

import { NotSupported } from '../../kit/src/errors.js';
import { planJoint } from '../../kit/src/joints.js';
import { poseInv, poseInvTimesMat4, poseLerp, poseMul, poseOfMat4, qaxisAngle, qmul, qnormalize, qrotate } from '../../kit/src/math.js';
import { applyAction } from '../../kit/src/actions.js';
import { colliderReport, jointReport, observation, pairReports, restingNode, staticBody } from '../../kit/src/report.js';
import { apply, filtersCollide, pairMode } from '../../kit/src/rules.js';
import { buildShape, createShape } from './shapes.js';

/** Friction and restitution of a collider without a material (the spec names none; as physx-node). */
export const DEFAULT_MATERIAL = Object.freeze({ staticFriction: 0.5, dynamicFriction: 0.5, restitution: 0 });
/** Tangential speed (m/s) above which a contact slides and gets the dynamic friction. */
export const SLIDING_SPEED = 1e-2;
/** Solver iterations per step: Jolt's default 10 velocity steps; 8 position steps (Jolt's default
 * is 2), as physx-node and the Rapier adapter use 8: ball-joint chains open less (5 generated
 * scenes of corpus/v2 pass with 8 that fail with 2). */
const VELOCITY_STEPS = 10;
const POSITION_STEPS = 8;
/** Jolt collision steps per harness substep (`Step(h, 1)`): one, the engine as stepped at the
 * harness's rate. */
const COLLISION_STEPS = 1;
const LAYER_STATIC = 0;
const LAYER_MOVING = 1;
const BIG = 1e30;

export class World {
  constructor(runtime, scene, config) {
    this.J = runtime.J;
    this.scene = scene;
    this.config = config;
    this.notes = [...scene.notes];
    this.time = 0;
    this.touching = new Map(); // "i,j" collider indices -> count
    this.overlaps = new Map(); // "triggerNode,otherNode" -> count
    this.contactKeys = new Map(); // Jolt sub-shape pair -> {i, j, sensor}
    this.events = [];
    this.heldForces = new Map();
    this.pendingPoses = new Map();
    this.owned = [];
    try {
      this.#build();
    } catch (error) {
      this.release();
      throw error;
    }
  }

  keep(o) { this.owned.push(o); return o; }
  v3(v) { return this.keep(new this.J.Vec3(v[0], v[1], v[2])); }
  r3(v) { return this.keep(new this.J.RVec3(v[0], v[1], v[2])); }
  quat(q) { return this.keep(new this.J.Quat(q[0], q[1], q[2], q[3])); }

  #build() {
    const { J, scene } = this;
    const doc = scene.doc;
    this.#buildPairTables();
    const settings = new J.JoltSettings();
    const pairs = new J.ObjectLayerPairFilterTable(2);
    pairs.EnableCollision(LAYER_STATIC, LAYER_MOVING);
    pairs.EnableCollision(LAYER_MOVING, LAYER_MOVING);
    const bp = new J.BroadPhaseLayerInterfaceTable(2, 2);
    bp.MapObjectToBroadPhaseLayer(LAYER_STATIC, new J.BroadPhaseLayer(0));
    bp.MapObjectToBroadPhaseLayer(LAYER_MOVING, new J.BroadPhaseLayer(1));
    settings.mObjectLayerPairFilter = pairs;
    settings.mBroadPhaseLayerInterface = bp;
    settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bp, 2, pairs, 2);
    settings.mMaxBodies = Math.max(64, 2 * (scene.bodies.length + scene.colliders.length) + 8);
    this.jolt = new J.JoltInterface(settings);
    J.destroy(settings);
    this.system = this.jolt.GetPhysicsSystem();
    this.bi = this.system.GetBodyInterfaceNoLock();
    const physicsSettings = this.system.GetPhysicsSettings();
    physicsSettings.mNumVelocitySteps = VELOCITY_STEPS;
    physicsSettings.mNumPositionSteps = POSITION_STEPS;
    this.system.SetPhysicsSettings(physicsSettings);
    this.system.SetGravity(this.v3(this.config.gravity));
    this.shapeFilter = this.#shapeFilter();
    this.system.SetSimShapeFilter(this.shapeFilter);
    this.listener = this.#contactListener();
    this.system.SetContactListener(this.listener);

    const meshes = new Map();
    const meshOf = (m) => {
      if (!meshes.has(m)) meshes.set(m, doc.meshTriangles(m));
      return meshes.get(m);
    };
    // Shapes per collider, relative to their holder's pose.
    this.colliderInfo = []; // ci -> {report, pose (in holder), holder}
    const leaves = new Map(); // body index -> [{ci, built}]
    const statics = [];
    const triggers = [];
    for (const [ci, c] of scene.colliders.entries()) {
      const shape = scene.shapes[c.shape];
      const world = c.world ?? doc.world[c.node];
      const holderPose = c.body === null ? poseOfMat4(world) : poseOfMat4(doc.world[scene.bodies[c.body].node]);
      const body = c.body === null ? null : scene.bodies[c.body];
      if (shape.type === 'trimesh' && body?.kind === 'dynamic' && !c.isTrigger) {
        throw new NotSupported('a triangle mesh on a dynamic body (Jolt gives mesh shapes no volume or mass, and meshes do not collide with meshes)');
      }
      if (shape.type === 'plane' && (c.isTrigger || body !== null)) {
        throw new NotSupported(`a plane ${c.isTrigger ? 'trigger' : 'on a body'} (Jolt's PlaneShape is for static bodies only)`);
      }
      const mesh = shape.type === 'convex' || shape.type === 'trimesh' ? shape.triangles ?? meshOf(shape.mesh) : null;
      const built = buildShape(J, shape, poseInvTimesMat4(holderPose, world), mesh);
      for (const o of built.owned ?? []) this.keep(o);
      built.settings.mUserData = ci + 1;
      if (built.note) this.notes.push(`collider at node ${c.node}: ${built.note}`);
      this.colliderInfo[ci] = { report: built.report, pose: built.reportPose ?? built.pose, holderPose, body: c.body };
      const entry = { ci, built, holderPose };
      if (c.isTrigger) triggers.push(entry);
      else if (c.body === null) statics.push(entry);
      else {
        if (!leaves.has(c.body)) leaves.set(c.body, []);
        leaves.get(c.body).push(entry);
      }
    }

    // Bodies.
    this.bodies = new Map(); // body index -> {id, jbody, pose, body}
    for (const [bi, body] of scene.bodies.entries()) {
      const pose = poseOfMat4(doc.world[body.node]);
      this.bodies.set(bi, this.#createBody(body, pose, leaves.get(bi) ?? []));
    }
    this.statics = new Map(); // ci -> {id, jbody, pose}
    for (const { ci, built, holderPose } of statics) {
      const compound = built.plane ? built.settings : this.#compound([{ ci, built }]);
      const shape = createShape(J, compound, `collider at node ${scene.colliders[ci].node}`);
      const pose = built.plane ? poseMul(holderPose, built.pose) : holderPose;
      const cs = new J.BodyCreationSettings(shape, this.r3(pose.p), this.quat(pose.q), J.EMotionType_Static, LAYER_STATIC);
      const jbody = this.bi.CreateBody(cs);
      J.destroy(cs);
      this.bi.AddBody(jbody.GetID(), J.EActivation_DontActivate);
      this.statics.set(ci, { id: jbody.GetID(), jbody, pose: holderPose });
      if (built.plane) this.colliderInfo[ci].pose = built.pose;
    }
    this.sensors = new Map(); // ci -> {id, jbody, owner (body index or null), offset}
    for (const { ci, built, holderPose } of triggers) {
      const shape = createShape(J, this.#compound([{ ci, built }]), `trigger at node ${scene.colliders[ci].node}`);
      const cs = new J.BodyCreationSettings(shape, this.r3(holderPose.p), this.quat(holderPose.q), J.EMotionType_Kinematic, LAYER_MOVING);
      cs.mIsSensor = true;
      cs.mCollideKinematicVsNonDynamic = true;
      cs.mAllowSleeping = false;
      cs.mOverrideMassProperties = J.EOverrideMassProperties_MassAndInertiaProvided;
      cs.mMassPropertiesOverride.mMass = 1;
      const jbody = this.bi.CreateBody(cs);
      J.destroy(cs);
      this.bi.AddBody(jbody.GetID(), J.EActivation_Activate);
      this.sensors.set(ci, { id: jbody.GetID(), jbody, owner: scene.colliders[ci].body, pose: holderPose });
    }
    this.byBodyId = new Map();
    this.#buildJoints();
    this.triggerNode = new Map();
    for (const [ci, c] of scene.colliders.entries()) if (c.isTrigger) this.triggerNode.set(ci, c.node);
    for (const comp of scene.compounds) {
      for (const [ci, c] of scene.colliders.entries()) if (comp.members.includes(c.node) && c.isTrigger) this.triggerNode.set(ci, comp.node);
    }
    this.system.OptimizeBroadPhase();
  }

  /** A static compound of the given leaves (each placed by its pose, user data its collider + 1). */
  #compound(entries) {
    const J = this.J;
    const compound = new J.StaticCompoundShapeSettings();
    for (const { ci, built } of entries) {
      compound.AddShape(this.v3(built.pose.p), this.quat(qnormalize(built.pose.q)), built.settings, ci + 1);
    }
    return compound;
  }

  #createBody(body, pose, entries) {
    const { J } = this;
    const what = `body at node ${body.node}`;
    const solid = entries.length > 0;
    let settings = solid ? this.#compound(entries) : new J.EmptyShapeSettings();
    let shape = createShape(J, settings, what);
    if (body.com !== null && solid) {
      const c = shape.GetCenterOfMass();
      const offset = [body.com[0] - c.GetX(), body.com[1] - c.GetY(), body.com[2] - c.GetZ()];
      settings = new J.OffsetCenterOfMassShapeSettings(this.v3(offset), settings);
      shape = createShape(J, settings, what);
    }
    const hasMesh = entries.some((e) => e.built.report.shape === 'trimesh');
    const motion = body.kind === 'static' ? J.EMotionType_Static : body.kind === 'kinematic' ? J.EMotionType_Kinematic : J.EMotionType_Dynamic;
    const cs = new J.BodyCreationSettings(shape, this.r3(pose.p), this.quat(pose.q), motion, body.kind === 'static' ? LAYER_STATIC : LAYER_MOVING);
    cs.mAllowSleeping = false;
    cs.mLinearDamping = 0;
    cs.mAngularDamping = 0;
    cs.mMaxLinearVelocity = 1e4;
    cs.mMaxAngularVelocity = 1e4;
    cs.mGravityFactor = body.gravityFactor;
    cs.mCollideKinematicVsNonDynamic = body.kind === 'kinematic';
    if (body.kind !== 'static') {
      cs.mLinearVelocity = this.v3(body.linearVelocity);
      cs.mAngularVelocity = this.v3(body.angularVelocity);
      if (!solid || hasMesh) {
        cs.mOverrideMassProperties = J.EOverrideMassProperties_MassAndInertiaProvided;
        cs.mMassPropertiesOverride.mMass = 1;
      }
    }
    const jbody = this.bi.CreateBody(cs);
    J.destroy(cs);
    if (body.kind !== 'static') this.#massProperties(jbody, body, solid && !hasMesh);
    this.bi.AddBody(jbody.GetID(), J.EActivation_Activate);
    return { id: jbody.GetID(), jbody, pose, body };
  }

  /** Mass and inertia: the file's where given, Jolt's (density 1) otherwise. */
  #massProperties(jbody, body, computed) {
    const { J } = this;
    const mp = jbody.GetMotionProperties();
    if (!computed) {
      this.notes.push(`body at node ${body.node} has no solid collider Jolt can weigh: unit mass and inertia unless the file gives them`);
    }
    if (body.mass.kind === 'finite') {
      if (computed) mp.ScaleToMass(body.mass.value);
      else mp.SetInverseMass(1 / body.mass.value);
    } else if (body.mass.kind === 'infinite') {
      mp.SetInverseMass(0);
      if (body.inertia === null) {
        this.notes.push(`body at node ${body.node}: an infinite mass without a given inertia gets infinite inertia`);
        mp.SetInverseInertia(this.v3([0, 0, 0]), this.quat([0, 0, 0, 1]));
      }
    }
    if (body.inertia !== null) {
      const inv = body.inertia.diagonal.map((d) => (Number.isFinite(d) && d > 0 ? 1 / d : 0));
      mp.SetInverseInertia(this.v3(inv), this.quat(body.inertia.orientation));
    } else if (!computed && body.mass.kind !== 'infinite') {
      mp.SetInverseInertia(this.v3([1, 1, 1]), this.quat([0, 0, 0, 1]));
    }
  }

  #buildPairTables() {
    const { scene } = this;
    const n = scene.colliders.length;
    this.allowed = new Uint8Array(n * n);
    this.pairValues = new Array(n * n).fill(null);
    const filter = (c) => (c.filter === null ? null : scene.filters[c.filter]);
    const material = (c) => (c.material === null ? DEFAULT_MATERIAL : scene.materials[c.material]);
    const mode = (c, key) => (c.material === null ? null : scene.materials[c.material][key]);
    const bodyNode = (c) => (c.body === null ? null : scene.bodies[c.body].node);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i === j) continue;
        const a = scene.colliders[i], b = scene.colliders[j];
        const filters = filtersCollide(filter(a), filter(b));
        const joined = this.#joined(bodyNode(a), bodyNode(b));
        this.allowed[i * n + j] = filters ? (joined ? 1 : 3) : 0;
        const ma = material(a), mb = material(b);
        const fm = pairMode(mode(a, 'frictionCombine'), mode(b, 'frictionCombine')) ?? 'average';
        const rm = pairMode(mode(a, 'restitutionCombine'), mode(b, 'restitutionCombine')) ?? 'average';
        this.pairValues[i * n + j] = {
          staticFriction: apply(fm, ma.staticFriction, mb.staticFriction),
          dynamicFriction: apply(fm, ma.dynamicFriction, mb.dynamicFriction),
          restitution: apply(rm, ma.restitution, mb.restitution),
        };
      }
    }
  }

  #joined(p, q) {
    return this.scene.joints.some((j) => !j.enableCollision
      && ((j.a.body === p && j.b.body === q) || (j.a.body === q && j.b.body === p)));
  }

  /** The collider index of a sub-shape of a Jolt body (pointer or object), or -1. */
  colliderOf(body, subShapeId) {
    return body.GetShape().GetSubShapeUserData(subShapeId) - 1;
  }

  #shapeFilter() {
    const { J } = this;
    const f = new J.SimShapeFilterJS();
    const { scene } = this;
    const n = scene.colliders.length;
    // A trigger is its own sensor body, so Jolt would pair it with its owner's colliders, with
    // static colliders and with other triggers; as in physx-node (one actor per body, no
    // static-static pairs, no trigger-trigger pairs) it is not.
    const fixed = scene.colliders.map((c) => c.body === null || scene.bodies[c.body].kind === 'static');
    f.ShouldCollide = (b1, _s1, id1, b2, _s2, id2) => {
      const body1 = J.wrapPointer(b1, J.Body), body2 = J.wrapPointer(b2, J.Body);
      const i = this.colliderOf(body1, J.wrapPointer(id1, J.SubShapeID));
      const j = this.colliderOf(body2, J.wrapPointer(id2, J.SubShapeID));
      if (i < 0 || j < 0 || i >= n || j >= n || i === j) return true;
      const rule = this.allowed[i * n + j];
      const sensor = body1.IsSensor() || body2.IsSensor();
      if (!sensor) return (rule & 2) !== 0;
      const a = scene.colliders[i], b = scene.colliders[j];
      if (body1.IsSensor() && body2.IsSensor()) return false;
      if ((a.body !== null && a.body === b.body) || (fixed[i] && fixed[j])) return false;
      return (rule & 1) !== 0;
    };
    return f;
  }

  #contactListener() {
    const { J } = this;
    const l = new J.ContactListenerJS();
    const n = this.scene.colliders.length;
    const key = (id1, s1, id2, s2) => (id1 < id2 || (id1 === id2 && s1 <= s2) ? `${id1}:${s1}:${id2}:${s2}` : `${id2}:${s2}:${id1}:${s1}`);
    const contact = (b1, b2, m, s, added) => {
      const body1 = J.wrapPointer(b1, J.Body), body2 = J.wrapPointer(b2, J.Body);
      const manifold = J.wrapPointer(m, J.ContactManifold);
      const i = this.colliderOf(body1, manifold.mSubShapeID1);
      const j = this.colliderOf(body2, manifold.mSubShapeID2);
      if (i < 0 || j < 0 || i >= n || j >= n) return;
      const sensor = body1.IsSensor() || body2.IsSensor();
      if (added) {
        const k = key(body1.GetID().GetIndexAndSequenceNumber(), manifold.mSubShapeID1.GetValue(), body2.GetID().GetIndexAndSequenceNumber(), manifold.mSubShapeID2.GetValue());
        if (!this.contactKeys.has(k)) {
          this.contactKeys.set(k, { i, j, sensor, trigger: body1.IsSensor() ? i : j, other: body1.IsSensor() ? j : i });
          if (sensor) this.#overlap(body1.IsSensor() ? i : j, body1.IsSensor() ? j : i, +1);
          else this.#touch(i, j, +1);
        }
      }
      if (sensor) return;
      const values = this.pairValues[i * n + j];
      const settings = J.wrapPointer(s, J.ContactSettings);
      settings.mCombinedRestitution = values.restitution;
      settings.mCombinedFriction = this.#sliding(body1, body2, manifold) ? values.dynamicFriction : values.staticFriction;
    };
    l.OnContactValidate = () => J.ValidateResult_AcceptAllContactsForThisBodyPair;
    l.OnContactAdded = (b1, b2, m, s) => contact(b1, b2, m, s, true);
    l.OnContactPersisted = (b1, b2, m, s) => contact(b1, b2, m, s, false);
    l.OnContactRemoved = (p) => {
      const pair = J.wrapPointer(p, J.SubShapeIDPair);
      const k = key(pair.GetBody1ID().GetIndexAndSequenceNumber(), pair.GetSubShapeID1().GetValue(), pair.GetBody2ID().GetIndexAndSequenceNumber(), pair.GetSubShapeID2().GetValue());
      const c = this.contactKeys.get(k);
      if (!c) return;
      this.contactKeys.delete(k);
      if (c.sensor) this.#overlap(c.trigger, c.other, -1);
      else this.#touch(c.i, c.j, -1);
    };
    return l;
  }

  /** Whether a contact slides: the tangential relative speed at its first point. */
  #sliding(body1, body2, manifold) {
    const p = manifold.GetWorldSpaceContactPointOn1(0);
    const point = [p.GetX(), p.GetY(), p.GetZ()];
    const velocity = (b) => {
      const c = b.GetCenterOfMassPosition();
      const v = b.GetLinearVelocity(), w = b.GetAngularVelocity();
      const r = [point[0] - c.GetX(), point[1] - c.GetY(), point[2] - c.GetZ()];
      const wv = [w.GetX(), w.GetY(), w.GetZ()];
      return [
        v.GetX() + wv[1] * r[2] - wv[2] * r[1],
        v.GetY() + wv[2] * r[0] - wv[0] * r[2],
        v.GetZ() + wv[0] * r[1] - wv[1] * r[0],
      ];
    };
    const a = velocity(body1), b = velocity(body2);
    const rel = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const nn = manifold.mWorldSpaceNormal;
    const nv = [nn.GetX(), nn.GetY(), nn.GetZ()];
    const d = rel[0] * nv[0] + rel[1] * nv[1] + rel[2] * nv[2];
    const t = [rel[0] - d * nv[0], rel[1] - d * nv[1], rel[2] - d * nv[2]];
    return Math.hypot(t[0], t[1], t[2]) > SLIDING_SPEED;
  }

  #touch(i, j, delta) {
    const k = i < j ? `${i},${j}` : `${j},${i}`;
    const left = (this.touching.get(k) ?? 0) + delta;
    if (left > 0) this.touching.set(k, left); else this.touching.delete(k);
  }

  #overlap(t, o, delta) {
    const trigger = this.triggerNode.get(t);
    const other = this.scene.colliders[o]?.node;
    if (trigger === undefined || other === undefined) return;
    const k = `${trigger},${other}`;
    const count = this.overlaps.get(k) ?? 0;
    if (delta > 0) {
      this.overlaps.set(k, count + 1);
      if (count === 0) this.events.push({ kind: 'enter', trigger, other });
    } else if (count <= 1) {
      this.overlaps.delete(k);
      if (count === 1) this.events.push({ kind: 'exit', trigger, other });
    } else this.overlaps.set(k, count - 1);
  }

  // ----------------------------------------------------------------------------------------
  // Joints

  #buildJoints() {
    const { J, scene } = this;
    const doc = scene.doc;
    const holderOf = (node) => {
      if (node === null) return null;
      for (const [, h] of this.bodies) if (h.body.node === node) return h;
      return null;
    };
    this.joints = [];
    for (const joint of scene.joints) {
      const plan = planJoint(joint, { engine: 'Jolt' });
      const what = `joint at node ${joint.node}`;
      const ends = [joint.a, joint.b].map((e) => {
        const h = holderOf(e.body);
        const frame = poseOfMat4(doc.world[e.frame]);
        return { h, frame, jbody: h ? h.jbody : this.jolt.sGetFixedToWorldBody() };
      });
      if (!ends[0].h && !ends[1].h) throw new NotSupported(`${what}: neither end is a body`);
      const s = new J.SixDOFConstraintSettings();
      s.mSpace = J.EConstraintSpace_WorldSpace;
      const [fa, fb] = ends.map((e) => ({ p: e.frame.p, q: qmul(e.frame.q, plan.frameRotation) }));
      s.mPosition1 = this.r3(fa.p);
      s.mAxisX1 = this.v3(qrotate(fa.q, [1, 0, 0]));
      s.mAxisY1 = this.v3(qrotate(fa.q, [0, 1, 0]));
      s.mPosition2 = this.r3(fb.p);
      s.mAxisX2 = this.v3(qrotate(fb.q, [1, 0, 0]));
      s.mAxisY2 = this.v3(qrotate(fb.q, [0, 1, 0]));
      const AX = [J.SixDOFConstraintSettings_EAxis_TranslationX, J.SixDOFConstraintSettings_EAxis_TranslationY, J.SixDOFConstraintSettings_EAxis_TranslationZ,
        J.SixDOFConstraintSettings_EAxis_RotationX, J.SixDOFConstraintSettings_EAxis_RotationY, J.SixDOFConstraintSettings_EAxis_RotationZ];
      const spring = (target, sp) => {
        target.mMode = J.ESpringMode_StiffnessAndDamping;
        target.mStiffness = sp.stiffness;
        target.mDamping = sp.damping;
      };
      plan.linear.forEach((m, k) => {
        if (m.motion === 'locked') s.MakeFixedAxis(AX[k]);
        else if (m.motion === 'free' || m.lower === undefined) s.MakeFreeAxis(AX[k]);
        else {
          s.SetLimitedAxis(AX[k], Math.max(m.lower, -BIG), Math.min(m.upper, BIG));
          if (m.spring) spring(s.get_mLimitsSpringSettings(k), m.spring);
        }
      });
      if (plan.distance !== null && plan.linear.filter((m) => m.motion === 'limited' && m.lower === undefined).length !== 3) {
        throw new NotSupported(`${what}: a distance from a line (2 coupled linear axes); Jolt's SixDOF limits translation per axis and its DistanceConstraint measures from a point`);
      }
      const { twist, swing1 } = plan.angular;
      if (twist.motion === 'locked') s.MakeFixedAxis(AX[3]);
      else if (twist.motion === 'free') s.MakeFreeAxis(AX[3]);
      else {
        if (twist.spring) throw new NotSupported(`${what}: a soft angular limit (Jolt's SixDOF has limit springs on its translation axes only)`);
        s.SetLimitedAxis(AX[3], twist.lower, twist.upper);
      }
      if (swing1.motion === 'locked') { s.MakeFixedAxis(AX[4]); s.MakeFixedAxis(AX[5]); }
      else if (plan.cone === null) { s.MakeFreeAxis(AX[4]); s.MakeFreeAxis(AX[5]); }
      else {
        if (plan.cone.spring) throw new NotSupported(`${what}: a soft cone limit (Jolt's SixDOF has limit springs on its translation axes only)`);
        s.mSwingType = J.ESwingType_Cone;
        s.SetLimitedAxis(AX[4], -plan.cone.angle, plan.cone.angle);
        s.SetLimitedAxis(AX[5], -plan.cone.angle, plan.cone.angle);
      }
      const drives = plan.drives.map((d) => {
        const k = { x: 0, y: 1, z: 2, twist: 3 }[d.dof];
        const ms = s.get_mMotorSettings(k);
        const sp = ms.mSpringSettings;
        sp.mMode = d.acceleration ? J.ESpringMode_MassNormalizedStiffnessAndDamping : J.ESpringMode_StiffnessAndDamping;
        sp.mStiffness = d.stiffness;
        sp.mDamping = d.damping;
        const limit = d.forceLimit === null ? 3.4e38 : d.forceLimit;
        if (k < 3) { ms.mMinForceLimit = -limit; ms.mMaxForceLimit = limit; } else { ms.mMinTorqueLimit = -limit; ms.mMaxTorqueLimit = limit; }
        return { ...d, axis: k };
      });
      const constraint = J.castObject(s.Create(ends[0].jbody, ends[1].jbody), J.SixDOFConstraint);
      J.destroy(s);
      this.system.AddConstraint(constraint);
      if (drives.length) {
        const position = [0, 0, 0], velocity = [0, 0, 0];
        let angle = 0, spin = 0;
        for (const d of drives) {
          if (d.axis < 3) { position[d.axis] = d.position; velocity[d.axis] = d.velocity; } else { angle = d.position; spin = d.velocity; }
          constraint.SetMotorState(AX[d.axis], J.EMotorState_PositionAndVelocity);
        }
        constraint.SetTargetPositionCS(this.v3(position));
        constraint.SetTargetVelocityCS(this.v3(velocity));
        constraint.SetTargetOrientationCS(this.quat(qaxisAngle([1, 0, 0], angle)));
        constraint.SetTargetAngularVelocityCS(this.v3([spin, 0, 0]));
      }
      let distance = null;
      if (plan.distance !== null) {
        const ds = new J.DistanceConstraintSettings();
        ds.mSpace = J.EConstraintSpace_WorldSpace;
        ds.mPoint1 = this.r3(fa.p);
        ds.mPoint2 = this.r3(fb.p);
        ds.mMinDistance = 0;
        ds.mMaxDistance = plan.distance.extent;
        if (plan.distance.spring) spring(ds.mLimitsSpringSettings, plan.distance.spring);
        distance = ds.Create(ends[0].jbody, ends[1].jbody);
        J.destroy(ds);
        this.system.AddConstraint(distance);
      }
      this.joints.push({ joint, plan, constraint, distance, frames: ends.map((e) => poseMul(poseInv(e.h ? e.h.pose : { p: [0, 0, 0], q: [0, 0, 0, 1] }), e.frame)) });
    }
  }

  // ----------------------------------------------------------------------------------------
  // Simulation

  configure(config) {
    this.config = config;
    this.system.SetGravity(this.v3(config.gravity));
  }

  step(steps) {
    const { J } = this;
    const { dt, substeps } = this.config;
    const h = dt / substeps;
    const v = new J.Vec3(0, 0, 0);
    const p = new J.RVec3(0, 0, 0);
    const q = new J.Quat(0, 0, 0, 1);
    const reached = [];
    try {
      for (let s = 0; s < steps; s++) {
        const poses = s === 0 ? this.pendingPoses : new Map();
        for (let k = 0; k < substeps; k++) {
          for (const [, hold] of this.bodies) {
            const body = hold.body;
            if (body.kind === 'dynamic') {
              const f = this.heldForces.get(body.node);
              if (f) { v.Set(f[0], f[1], f[2]); hold.jbody.AddForce(v); }
            } else if (body.kind === 'kinematic') {
              const goal = poses.get(body.node);
              if (goal) {
                const start = hold.goalStart ?? this.#pose(hold.jbody);
                hold.goalStart = k + 1 === substeps ? undefined : start;
                const next = k + 1 === substeps ? goal : poseLerp(start, goal, (k + 1) / substeps);
                p.Set(next.p[0], next.p[1], next.p[2]);
                q.Set(next.q[0], next.q[1], next.q[2], next.q[3]);
                this.bi.MoveKinematic(hold.id, p, q, h);
                if (k + 1 === substeps) reached.push(hold);
              }
            }
          }
          this.jolt.Step(h, COLLISION_STEPS);
          // MoveKinematic left the velocity that reached the pose: back to the body's own.
          for (const hold of reached.splice(0)) {
            v.Set(...hold.body.linearVelocity);
            hold.jbody.SetLinearVelocity(v);
            v.Set(...hold.body.angularVelocity);
            hold.jbody.SetAngularVelocity(v);
          }
          this.#followSensors(p, q);
        }
        if (s === 0) this.pendingPoses = new Map();
        this.time += dt;
      }
    } finally {
      J.destroy(v); J.destroy(p); J.destroy(q);
    }
    this.heldForces.clear();
  }

  #pose(jbody) {
    const t = jbody.GetPosition(), r = jbody.GetRotation();
    return { p: [t.GetX(), t.GetY(), t.GetZ()], q: [r.GetX(), r.GetY(), r.GetZ(), r.GetW()] };
  }

  /** Sensors of moving bodies take their owner's pose. */
  #followSensors(p, q) {
    for (const [, s] of this.sensors) {
      if (s.owner === null) continue;
      const hold = this.bodies.get(s.owner);
      if (hold.body.kind === 'static') continue;
      const pose = this.#pose(hold.jbody);
      p.Set(pose.p[0], pose.p[1], pose.p[2]);
      q.Set(pose.q[0], pose.q[1], pose.q[2], pose.q[3]);
      this.bi.SetPositionAndRotation(s.id, p, q, this.J.EActivation_Activate);
    }
  }

  apply(action) {
    applyAction(this, this.bodies.values(), action, (hold, j) => hold.jbody.AddImpulse(this.v3(j)));
  }

  // ----------------------------------------------------------------------------------------
  // Observation

  observe() {
    const nodes = [];
    const xyz = (v) => [v.GetX(), v.GetY(), v.GetZ()];
    for (const [, h] of this.bodies) {
      const pose = this.#pose(h.jbody);
      const moving = h.body.kind !== 'static';
      nodes.push({
        node: h.body.node,
        translation: pose.p,
        rotation: pose.q,
        linear_velocity: moving ? xyz(h.jbody.GetLinearVelocity()) : [0, 0, 0],
        angular_velocity: moving ? xyz(h.jbody.GetAngularVelocity()) : [0, 0, 0],
      });
    }
    // Static colliders and static triggers (sensors without a body) are reported where they
    // stand, as physx-node reports its static actors.
    const fixed = [...this.statics].concat([...this.sensors].filter(([, s]) => s.owner === null));
    for (const [ci, s] of fixed) nodes.push(restingNode(this.scene.colliders[ci].node, s.pose));
    const events = this.events;
    this.events = [];
    return observation(this.time, nodes, this.touching.keys(), this.scene.colliders, events);
  }

  interpretation() {
    const { scene } = this;
    const xyz = (v) => [v.GetX(), v.GetY(), v.GetZ()];
    const finite = (x) => ({ kind: 'finite', value: x });
    const bodies = [];
    for (const [, h] of this.bodies) {
      const { body, jbody } = h;
      if (body.kind === 'static') {
        bodies.push(staticBody(body));
        continue;
      }
      const mp = jbody.GetMotionProperties();
      const invMass = mp.GetInverseMassUnchecked();
      const inv = xyz(mp.GetInverseInertiaDiagonal());
      const r = mp.GetInertiaRotation();
      const com = xyz(jbody.GetShape().GetCenterOfMass());
      const kinematic = body.kind === 'kinematic';
      bodies.push({
        node: body.node,
        kind: body.kind,
        mass: invMass > 0 ? finite(1 / invMass) : { kind: 'infinite' },
        center_of_mass: com,
        inertia_diagonal: inv.map((x) => (x > 0 ? finite(1 / x) : { kind: 'infinite' })),
        inertia_orientation: [r.GetX(), r.GetY(), r.GetZ(), r.GetW()],
        linear_velocity: kinematic ? body.linearVelocity : xyz(jbody.GetLinearVelocity()),
        angular_velocity: kinematic ? body.angularVelocity : xyz(jbody.GetAngularVelocity()),
        gravity_factor: mp.GetGravityFactor(),
      });
    }
    bodies.sort((a, b) => a.node - b.node);
    const colliders = scene.colliders.map((c, ci) => {
      const info = this.colliderInfo[ci];
      const pose = c.body === null ? poseMul(info.holderPose, info.pose) : info.pose;
      const sensor = this.sensors.get(ci);
      return colliderReport(scene, c, pose, sensor ? sensor.jbody.IsSensor() : false, info.report);
    });
    const n = scene.colliders.length;
    const pairs = pairReports(scene.colliders, this.allowed, (i, j) => {
      const values = this.pairValues[i * n + j];
      return { static_friction: values.staticFriction, dynamic_friction: values.dynamicFriction, restitution: values.restitution };
    });
    const joints = this.joints.map(({ joint, frames }) => jointReport(joint, frames.map((f) => ({ translation: f.p, rotation: f.q }))));
    return { bodies, colliders, pairs, joints };
  }

  release() {
    const { J } = this;
    if (this.jolt) {
      try { J.destroy(this.jolt); } catch { /* gone */ }
      this.jolt = null;
    }
    for (const o of [this.listener, this.shapeFilter, ...this.owned]) {
      if (!o) continue;
      try { J.destroy(o); } catch { /* not destroyable */ }
    }
    this.owned = [];
    this.listener = null;
    this.shapeFilter = null;
  }
}


