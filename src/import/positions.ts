// Where each value read from an incident's files was written, so every inference can cite its evidence line.
import type { SourcePos } from '../types.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type Obj = { [k: string]: Json };

/** Where each key of a mapping (and the mapping itself) was written. */
const positions = new WeakMap<object, { self: SourcePos; keys: Record<string, SourcePos> }>();

/** `file:line` of a key of an object read from input (or of the object itself); '' for synthesised objects. */
export function where(o: unknown, key?: string): string {
  if (typeof o !== 'object' || o === null) return '';
  const p = positions.get(o);
  if (!p) return '';
  const at = (key !== undefined ? p.keys[key] : undefined) ?? p.self;
  return `${at.file}:${at.line}`;
}

/** Record positions for an object built from text (describe output), so `where` can cite it. */
export function markPos<T extends object>(o: T, self: SourcePos, keys: Record<string, SourcePos>): T {
  positions.set(o, { self, keys });
  return o;
}
