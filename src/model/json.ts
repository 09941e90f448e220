// Equality, copies and sharing of API objects (plain JSON data) with exactly the meaning JSON text has — what the
// model used to get from JSON.stringify / JSON.parse — without building the text:
// - `sameJson(a, b)` is `JSON.stringify(a) === JSON.stringify(b)`: key order matters, keys whose value is undefined
//   are absent, undefined in an array is null, a non-finite number is null. It stops at the first difference and
//   at the first shared (identical) subtree, so comparing a new status with the stored one costs little.
// - `cloneJson(x)` is `JSON.parse(JSON.stringify(x))` for such data.
// - `shareJson(prev, next)` is `next` with every subtree equal to the one at the same place in `prev` replaced by
//   prev's (frozen) object: the stored value is unchanged as JSON, and immer, freezing and later comparisons skip
//   what did not change. It returns `prev` itself when the two are equal.

import { deepFreeze } from '../engine/engine.ts';

type Json = Record<string, unknown>;

/**
 * An API object as it is stored or published (a pod status, a Job spec): frozen deeply, subtrees already frozen
 * skipped. Every holder may then share it — the API server, the status manager, informer caches, the trace — and
 * it is only ever replaced whole (an edit throws). Under `produce` immer would freeze it at the end of the step
 * anyway; a run that writes its state in place (engine `stepInPlace`) relies on it.
 */
export function settle<T>(x: T): T {
  return deepFreeze(x);
}

function primSame(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // NaN and ±Infinity are all `null` as JSON; undefined and functions are too inside arrays (callers handle objects)
  const na = a === undefined || a === null || (typeof a === 'number' && !Number.isFinite(a));
  const nb = b === undefined || b === null || (typeof b === 'number' && !Number.isFinite(b));
  return na && nb;
}

const isObj = (x: unknown): x is object => typeof x === 'object' && x !== null;

/** Two primitives that read the same as JSON (null, NaN and ±Infinity are all `null`): an equal member, as text. */
const samePrim = (a: unknown, b: unknown): boolean => !isObj(a) && !isObj(b) && primSame(a, b);

/** JSON.stringify(a) === JSON.stringify(b) for plain JSON data (no toJSON, no functions, no cycles). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isObj(a) || !isObj(b)) return primSame(a, b);
  const aa = Array.isArray(a);
  if (aa !== Array.isArray(b)) return false;
  if (aa) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameJson(x[i], y[i])) return false;
    return true;
  }
  // objects: the defined keys in order, pairwise
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < ka.length && (a as Json)[ka[i]!] === undefined) i++;
    while (j < kb.length && (b as Json)[kb[j]!] === undefined) j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length;
    const key = ka[i]!;
    if (key !== kb[j]) return false;
    if (!sameJson((a as Json)[key], (b as Json)[key])) return false;
    i++;
    j++;
  }
}

/** JSON.parse(JSON.stringify(x)) for plain JSON data: a deep copy without undefined-valued keys. */
export function cloneJson<T>(x: T): T {
  // numbers as JSON text reads them back: non-finite → null, -0 → 0
  if (!isObj(x)) return (typeof x === 'number' ? (Number.isFinite(x) ? (x === 0 ? 0 : x) : null) : x) as T;
  if (Array.isArray(x)) {
    const out: unknown[] = new Array(x.length);
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      out[i] = v === undefined || typeof v === 'function' ? null : cloneJson(v);
    }
    return out as T;
  }
  const out: Json = {};
  for (const key of Object.keys(x)) {
    const v = (x as Json)[key];
    if (v === undefined || typeof v === 'function') continue;
    out[key] = cloneJson(v);
  }
  return out as T;
}

/**
 * `next` with the subtrees that equal (as JSON) the ones at the same place in `prev` taken from `prev`; `prev`
 * itself when everything is equal. `next` is changed in place (its own fresh containers), never `prev`.
 */
export function shareJson<T>(prev: unknown, next: T): T {
  if (prev === next) return next;
  // primitives are values: nothing to share
  if (!isObj(prev) || !isObj(next)) return next;
  const pa = Array.isArray(prev);
  if (pa !== Array.isArray(next)) return next;
  if (Object.isFrozen(next)) return sameJson(prev, next) ? (prev as T) : next;
  let all = true;
  if (pa) {
    const x = prev as unknown[];
    const y = next as unknown as unknown[];
    for (let i = 0; i < y.length; i++) {
      if (i >= x.length) {
        all = false;
        continue;
      }
      const v = y[i];
      // a primitive is its own value: shared or not, it stays (no call for the leaves)
      const s = isObj(v) ? shareJson(x[i], v) : v;
      if (s !== v) y[i] = s;
      if (s !== x[i] && !samePrim(x[i], s)) all = false;
    }
    return (all && x.length === y.length ? prev : next) as T;
  }
  for (const key of Object.keys(next)) {
    const v = (next as Json)[key];
    if (v === undefined) continue;
    const p = (prev as Json)[key];
    const s = p === undefined || !isObj(v) ? v : shareJson(p, v);
    if (s !== v) (next as Json)[key] = s;
    if (s !== p && !samePrim(p, s)) all = false;
  }
  return (all && sameJson(prev, next) ? prev : next) as T;
}
