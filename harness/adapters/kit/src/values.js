// Small readers that reject what a valid file cannot contain, and the document-level objects
// KHR_physics_rigid_bodies and OMI_physics_body spell alike (materials, collision filters).

import { Rejected } from './errors.js';


export function num(value, fallback, what, { min = -Infinity } = {}) {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min) throw new Rejected(`${what} must be a number >= ${min}`);
  return value;
}
export function vec(value, length, fallback, what) {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length !== length || !value.every(Number.isFinite)) {
    throw new Rejected(`${what} must be ${length} finite numbers`);
  }
  return value.slice();
}
export function index(value, length, what) {
  if (!Number.isInteger(value) || value < 0 || value >= length) {
    throw new Rejected(`${what} ${JSON.stringify(value)} is out of range (0..${length})`);
  }
  return value;
}
export function axes(value, what) {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((a) => a === 0 || a === 1 || a === 2)) {
    throw new Rejected(`${what} must list axes 0, 1 or 2`);
  }
  if (new Set(value).size !== value.length) throw new Rejected(`${what} repeats an axis`);
  return value.slice();
}
export function strings(value, what) {
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.every((s) => typeof s === 'string')) {
    throw new Rejected(`${what} must be an array of strings`);
  }
  return value.slice();
}
/** A combine mode; an unknown one is read as unset (the reader warns; the spec names four). */
export function combine(value, what, notes) {
  if (value === undefined) return null;
  if (!['average', 'minimum', 'maximum', 'multiply'].includes(value)) {
    notes.push(`${what} ${JSON.stringify(value)} is not a combine mode: read as unset`);
    return null;
  }
  return value;
}

/** The root extension's `physicsMaterials` and `collisionFilters` into `scene`. */
export function readMaterialsAndFilters(root, scene) {
  for (const [i, m] of (root.physicsMaterials ?? []).entries()) {
    const at = `physicsMaterials[${i}]`;
    scene.materials.push({
      staticFriction: num(m.staticFriction, 0.6, `${at}.staticFriction`, { min: 0 }),
      dynamicFriction: num(m.dynamicFriction, 0.6, `${at}.dynamicFriction`, { min: 0 }),
      restitution: num(m.restitution, 0, `${at}.restitution`, { min: 0 }),
      frictionCombine: combine(m.frictionCombine, `${at}.frictionCombine`, scene.notes),
      restitutionCombine: combine(m.restitutionCombine, `${at}.restitutionCombine`, scene.notes),
    });
  }
  for (const [i, f] of (root.collisionFilters ?? []).entries()) {
    const at = `collisionFilters[${i}]`;
    const filter = {
      systems: strings(f.collisionSystems, `${at}.collisionSystems`) ?? [],
      collideWith: strings(f.collideWithSystems, `${at}.collideWithSystems`),
      notCollideWith: strings(f.notCollideWithSystems, `${at}.notCollideWithSystems`),
    };
    if (filter.collideWith && filter.notCollideWith) {
      throw new Rejected(`${at} gives both collideWithSystems and notCollideWithSystems`);
    }
    scene.filters.push(filter);
  }
}
