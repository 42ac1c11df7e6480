// What lives as long as the process: one Havok (WebAssembly) instance, one Babylon NullEngine,
// and the loader's two plugins registered with Babylon's glTF loader under their extension names.
//
// Havok reports neither shape parameters, nor container child transforms, nor a limit's spring,
// nor the order drives were set in. The adapter records them where they are created, at the
// boundary between Babylon and Havok: each `HP_*` call below is wrapped on the Havok module
// object (the adapter's own instance) so that its arguments are kept, then the call goes on
// unchanged. The loader's code runs as compiled from its sources; its plugin instance is
// observed from outside (three of its methods wrapped on the instance) only to learn which glTF
// node each shape and each constraint was made for.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import HavokPhysics from '@babylonjs/havok';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Logger } from '@babylonjs/core/Misc/logger.js';
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin.js';
import '@babylonjs/core/Physics/v2/physicsEngineComponent.js';
import { registerGLTFExtension } from '@babylonjs/loaders/glTF/2.0/glTFLoaderExtensionRegistry.js';
import '@babylonjs/loaders/glTF/2.0/glTFLoader.js';
import '@babylonjs/loaders/glTF/glTFFileLoader.js';

import { packageVersion } from './setup.js';

const require = createRequire(import.meta.url);

/** A Havok handle (`[bigint]`) as a map key. */
export function handleKey(h) {
  return String(Array.isArray(h) ? h[0] : h);
}

/** An embind enum value as a plain number. */
export function enumValue(v) {
  return typeof v === 'object' && v !== null && 'value' in v ? v.value : v;
}

/** Per-load records of what Havok was told. */
export class Record {
  constructor() {
    this.shapes = new Map(); // shape key -> {type, ...parameters}
    this.children = new Map(); // container key -> [{child, t, q, s}]
    this.triggers = new Set(); // shape keys made triggers
    this.axisSpring = new Map(); // `${joint}:${axis}` -> {stiffness, damping}
    this.motorOrder = new Map(); // joint key -> [hpAxis value, ...] in the order set
    // From the plugin instance:
    this.shapeNode = new Map(); // PhysicsShape -> glTF node index
    // glTF node index -> the Babylon node the plugin built the node's objects on. Babylon's
    // `_loadMeshAsync`, which the plugin calls for a mesh collider, overwrites the node's
    // `_babylonTransformNode` with the collider mesh, so that field cannot be read afterwards.
    this.sceneNodes = new Map();
    this.joints = []; // {node, constraint}
    this.constraints = []; // {constraint, body, childBody} as HavokPlugin.initConstraint saw them
    this.gltf = null; // the glTF loader's parsed document (nodes carry _babylonTransformNode)
  }
}

function wrapHavok(HK, current) {
  const wrap = (name, after) => {
    const f = HK[name];
    if (typeof f !== 'function') throw new Error(`Havok has no ${name}`);
    HK[name] = function wrapped(...args) {
      const result = f.apply(this, args);
      const rec = current();
      if (rec) after(rec, result, args);
      return result;
    };
  };
  const shape = (rec, result, value) => rec.shapes.set(handleKey(result[1]), value);
  wrap('HP_Shape_CreateSphere', (rec, r, [center, radius]) => shape(rec, r, { type: 'sphere', center, radius }));
  wrap('HP_Shape_CreateBox', (rec, r, [center, rotation, extents]) => shape(rec, r, { type: 'box', center, rotation, extents }));
  wrap('HP_Shape_CreateCapsule', (rec, r, [a, b, radius]) => shape(rec, r, { type: 'capsule', a, b, radius }));
  wrap('HP_Shape_CreateCylinder', (rec, r, [a, b, radius]) => shape(rec, r, { type: 'cylinder', a, b, radius }));
  wrap('HP_Shape_CreateConvexHull', (rec, r, [, count]) => shape(rec, r, { type: 'convex', vertexCount: count }));
  wrap('HP_Shape_CreateMesh', (rec, r, [, vertices, , triangles]) => shape(rec, r, { type: 'trimesh', vertexCount: vertices, triangleCount: triangles }));
  wrap('HP_Shape_CreateContainer', (rec, r) => shape(rec, r, { type: 'container' }));
  wrap('HP_Shape_AddChild', (rec, _r, [parent, child, transform]) => {
    const key = handleKey(parent);
    if (!rec.children.has(key)) rec.children.set(key, []);
    const [t, q, s] = transform;
    rec.children.get(key).push({ child: handleKey(child), t: [...t], q: [...q], s: [...s] });
  });
  wrap('HP_Shape_SetTrigger', (rec, _r, [s, on]) => {
    if (on) rec.triggers.add(handleKey(s)); else rec.triggers.delete(handleKey(s));
  });
  const spring = (field) => (rec, _r, [joint, axis, value]) => {
    const key = `${handleKey(joint)}:${enumValue(axis)}`;
    rec.axisSpring.set(key, { ...rec.axisSpring.get(key), [field]: value });
  };
  wrap('HP_Constraint_SetAxisStiffness', spring('stiffness'));
  // Which limit sides were set: an unset side keeps Havok's default (+-3.4e38, +-pi for the
  // swing axes), which the report calls open.
  wrap('HP_Constraint_SetAxisMinLimit', spring('minSet'));
  wrap('HP_Constraint_SetAxisMaxLimit', spring('maxSet'));
  wrap('HP_Constraint_SetAxisDamping', spring('damping'));
  // Motor targets: which were set (an unset one is absent in the file, KHR_rigid_bodies.ts:659-665);
  // motor damping: Havok 1.3.14's HP_Constraint_GetAxisMotorDamping answers the stiffness, so
  // the value Havok was given is kept.
  wrap('HP_Constraint_SetAxisMotorPositionTarget', spring('positionTargetSet'));
  wrap('HP_Constraint_SetAxisMotorVelocityTarget', spring('velocityTargetSet'));
  wrap('HP_Constraint_SetAxisMotorDamping', spring('motorDamping'));
  wrap('HP_Constraint_SetAxisMotorType', (rec, _r, [joint, axis]) => {
    const key = handleKey(joint);
    if (!rec.motorOrder.has(key)) rec.motorOrder.set(key, []);
    const order = rec.motorOrder.get(key);
    const a = enumValue(axis);
    if (!order.includes(a)) order.push(a);
  });
}

/** A HavokPlugin that also lists the constraints it initialises (Havok cannot list them). */
export function recordingPlugin(HK, current) {
  class RecordingHavokPlugin extends HavokPlugin {
    initConstraint(constraint, body, childBody, instanceIndex, childInstanceIndex) {
      super.initConstraint(constraint, body, childBody, instanceIndex, childInstanceIndex);
      current()?.constraints.push({ constraint, body, childBody });
    }
  }
  return new RecordingHavokPlugin(true, HK);
}

/** Wrap the loader plugin instance's methods that know the glTF node (from outside). */
function observePlugin(plugin, current) {
  const rec = current();
  if (rec) rec.gltf = plugin.loader?.gltf ?? null;
  const shapeMaker = (name) => {
    const original = plugin[name];
    plugin[name] = function observed(context, sceneNode, gltfNode, ...rest) {
      const result = original.call(this, context, sceneNode, gltfNode, ...rest);
      const note = (s) => {
        const r = current();
        if (s && r) r.shapeNode.set(s, gltfNode.index);
        return s;
      };
      return result instanceof Promise ? result.then(note) : note(result);
    };
  };
  const construct = plugin._constructNodeObjects;
  plugin._constructNodeObjects = function observed(context, sceneNode, gltfNode, ...rest) {
    current()?.sceneNodes.set(gltfNode.index, sceneNode);
    return construct.call(this, context, sceneNode, gltfNode, ...rest);
  };
  shapeMaker('_constructPhysicsShape');
  shapeMaker('_constructPhysicsMesh');
  const make = plugin.make6DoFJoint;
  plugin.make6DoFJoint = function observed(joint) {
    const r = current();
    const before = r ? r.constraints.length : 0;
    const result = make.call(this, joint);
    if (r) {
      r.gltf = this.loader?.gltf ?? r.gltf;
      let node = -1;
      for (const [i, n] of r.sceneNodes) if (n === joint.pivotA) node = i;
      for (const c of r.constraints.slice(before)) r.joints.push({ node, ...c });
    }
    return result;
  };
  return plugin;
}

export async function createRuntime(loaderBuild) {
  // Babylon logs to console.log: stdout carries the protocol only.
  console.log = (...args) => console.error(...args);
  console.info = (...args) => console.error(...args);
  console.warn = (...args) => console.error(...args);
  Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;

  const wasmBinary = readFileSync(require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm'));
  const HK = await HavokPhysics({
    wasmBinary,
    print: (t) => process.stderr.write(`[havok] ${t}\n`),
    printErr: (t) => process.stderr.write(`[havok] ${t}\n`),
  });
  let record = null;
  const current = () => record;
  wrapHavok(HK, current);

  const rigid = await import(pathToFileURL(join(loaderBuild, 'KHR_rigid_bodies.js')).href);
  const shapes = await import(pathToFileURL(join(loaderBuild, 'KHR_implicit_shapes.js')).href);
  registerGLTFExtension('KHR_physics_rigid_bodies', true, (loader) => observePlugin(new rigid.KHR_PhysicsRigidBodies_Plugin(loader), current));
  registerGLTFExtension('KHR_implicit_shapes', true, (loader) => new shapes.KHR_ImplicitShapes_Plugin(loader));

  const engine = new NullEngine();
  return {
    HK,
    engine,
    beginRecord() {
      record = new Record();
      return record;
    },
    endRecord() {
      record = null;
    },
    plugin: () => recordingPlugin(HK, current),
    versions: {
      core: packageVersion('@babylonjs/core'),
      loaders: packageVersion('@babylonjs/loaders'),
      havok: packageVersion('@babylonjs/havok'),
    },
  };
}
