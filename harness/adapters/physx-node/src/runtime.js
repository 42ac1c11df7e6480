// The PhysX SDK objects that live as long as the process: foundation, physics, cooking
// parameters and the (single-threaded) CPU dispatcher. Scenes come and go; these do not.

import { loadPhysX, packageVersion } from './physx-loader.js';

export async function createRuntime() {
  const P = await loadPhysX();
  const F = P.PxTopLevelFunctions.prototype;
  const version = F.PHYSICS_VERSION ?? P.PHYSICS_VERSION;
  const foundation = F.CreateFoundation(version, new P.PxDefaultAllocator(), new P.PxDefaultErrorCallback());
  const tolerances = new P.PxTolerancesScale();
  const physics = F.CreatePhysics(version, foundation, tolerances);
  F.InitExtensions(physics);
  return {
    P,
    physics,
    tolerances,
    cookingParams: new P.PxCookingParams(tolerances),
    dispatcher: F.DefaultCpuDispatcherCreate(0),
    // PX_PHYSICS_VERSION is (major << 24) | (minor << 16) | (bugfix << 8).
    engine: `PhysX ${version >>> 24}.${(version >>> 16) & 255}.${(version >>> 8) & 255} (physx-js-webidl ${packageVersion()}, WebAssembly)`,
  };
}
