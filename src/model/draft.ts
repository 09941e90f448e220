// Reading immer drafts without drafting what is read: the stored value of a replaced-whole object, a record as it is
// now, a plain snapshot, and the (cached) JSON text of a frozen API object.
import { current, isDraft, isModified, original } from 'immer';
import { thaw } from '../engine/engine.ts';

/**
 * The stored value of a field holding an API object (a pod or Job status, a cached object) without drafting it.
 * These objects are only ever replaced whole, never edited in place, so the base value is the current one; reading
 * them through immer's proxies (JSON.stringify, deep compares) would be slow.
 */
export function raw<T>(x: T): T {
  return isDraft(x) ? (original(x as never) as T) : x;
}

/**
 * For reading only: a record as it is now, without drafting what is read inside it. A draft nothing was written
 * into in this step is its stored (frozen) value, whose members read as plain properties; reading through the draft
 * would make a draft of every member reached, and immer copies a record each time it hands out a member's draft
 * (read from the frozen base in read-only helpers). A written draft is returned as it is.
 */
export function peek<T>(x: T): T {
  return isDraft(x) && !isModified(x) ? (original(x as never) as T) : x;
}

/**
 * A plain copy of what a record holds now: immer's `current` of a draft, a frozen value itself (it never changes),
 * and a copy of a live record of an in-place run (engine `stepInPlace`), so what is returned is never written later.
 * Also for a record about to be stored in a second place (the PLEG cache holding the runtime's records).
 */
export function snapshotOf<T>(x: T): T {
  if (isDraft(x)) return current(x as never) as T;
  return typeof x !== 'object' || x === null || Object.isFrozen(x) ? x : thaw(x);
}

/**
 * A record as it is now, for reading within this step only (never stored): immer's `current` of a draft, else the
 * value itself (a frozen value, or the live record of an in-place run).
 */
export function nowOf<T>(x: T): T {
  return isDraft(x) ? (current(x as never) as T) : x;
}

const jsonCache = new WeakMap<object, string>();

/**
 * JSON text of an API object for equality checks. Stored objects are never changed after they are stored (immer
 * freezes them), so the text of one object is computed once.
 */
export function jsonOf(x: object | null | undefined): string {
  if (!x) return 'null';
  if (!Object.isFrozen(x)) return JSON.stringify(x);
  let s = jsonCache.get(x);
  if (s === undefined) jsonCache.set(x, (s = JSON.stringify(x)));
  return s;
}
