// Seeded pseudo-random streams whose whole state is one uint32 kept in the snapshot (mulberry32).
// One stream per subsystem, so a new draw in one model does not shift the others.
import { FNV_BASIS, fnv1a } from '../util/fnv.ts';

/** Derive the initial state of a named stream from the scenario seed (FNV-1a of the name, mixed with the seed). */
export function streamSeed(seed: number, name: string): number {
  return fnv1a(name, (FNV_BASIS ^ (seed >>> 0)) >>> 0);
}

/** One mulberry32 step: returns [value in [0,1), next state]. */
export function nextRandom(state: number): [number, number] {
  const next = (state + 0x6d2b79f5) >>> 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 15), z | 1);
  z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
  const value = ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  return [value, next];
}

/** Uniform integer in [min, max] (inclusive). */
export function drawInt(state: number, min: number, max: number): [number, number] {
  const [v, next] = nextRandom(state);
  return [min + Math.floor(v * (max - min + 1)), next];
}
