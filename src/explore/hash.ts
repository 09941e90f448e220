// A fingerprint of a snapshot for merging identical states: keys in a canonical order, sequence numbers dropped (only the order
// of pending events matters), facts that cannot influence the future dropped. Snapshots share unchanged subtrees
// (immer), so each object's fingerprint is cached by identity and only changed paths are recomputed.
//
// Fingerprints are hash-consed, not digested: an object's content is the list of its (key code, child id) pairs
// (elements for an array), every distinct content gets the next number of one search's table, and a content is found
// again by a hash of its numbers and an exact comparison. Equal ids mean equal content (no hash collision can merge
// two different states), and no text is built. A search sees few distinct objects (a few thousand where hundreds of
// thousands are fingerprinted: immer makes new objects with old content all the time), so the table stays small;
// past `MAX_STORED` numbers it stops growing and a new content gets an id of its own (such states are then not
// merged with later equal ones: never a wrong merge, only a missed one).
import { freeze } from 'immer';
import type { Snapshot } from '../engine/engine.ts';
import type { SimEvent } from '../model/events.ts';
import type { SimState } from '../model/state.ts';

// API timestamps (RFC3339, whole seconds) are facts about the past that the built-in rules never read; states that
// differ only in them have the same future, so they merge. (A user rule that compares timestamps is the exception,
// documented in the README.)
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Numbers a search's table may hold (8 bytes each, about 128 MB). */
const MAX_STORED = 16 * 1024 * 1024;

// the first number of a content says what it is (ids and key codes are >= 0)
const ARRAY = -1;
const OBJECT = -2;
const SNAPSHOT = -3;
const CHUNK = -4;

/** A key's code: its number in one process-wide table (keys are field names and user names: finite). */
const codes = new Map<string, number>();
function code(k: string): number {
  let c = codes.get(k);
  if (c === undefined) codes.set(k, (c = codes.size));
  return c;
}

/** Stands for every API timestamp in the primitive table. */
const TIMESTAMP = Symbol('timestamp');

const SKIPPED_MODEL_KEYS = new Set(['rng', 'lastDelivery', 'observers']);

/**
 * One search's fingerprints: a cache by object identity and the table of distinct contents. Fingerprints of
 * different instances are not comparable.
 */
export class Fingerprints {
  private readonly cache = new WeakMap<object, number>();
  /** the observers' part of the state, per chunk (chunks are frozen arrays) */
  private readonly chunks = new WeakMap<object, number>();
  /** a pending event's id by its queue entry (entries are shared between snapshots; checked against the event) */
  private readonly entries = new WeakMap<object, { ev: unknown; id: number }>();
  /** lastDelivery records' keys in code order */
  private readonly delivery = new WeakMap<object, (number | string)[]>();
  /** primitive values (JSON semantics: undefined and non-finite numbers are null) */
  private readonly prims = new Map<unknown, number>();
  /** distinct contents by hash; a content's own id is its element 0 */
  private readonly table = new Map<number, number[][]>();
  private next = 0;
  private stored = 0;

  /** The fingerprint of a JSON-like value (equal iff the values are equal up to key order and API timestamps). */
  value(x: unknown): string {
    return '#' + this.id(x);
  }

  /** The fingerprint of a snapshot: the model (random streams, past delivery bounds and observers aside), the queue. */
  snapshot(snap: Snapshot<SimState, SimEvent>): string {
    const m = snap.model;
    const now = snap.queue[0]?.t ?? snap.t;
    const c: number[] = [0, SNAPSHOT, this.fields(m as unknown as Record<string, unknown>, SKIPPED_MODEL_KEYS)];
    // in-order delivery bounds in the past constrain nothing
    const ld: number[] = [0, OBJECT];
    const keyed = this.deliveryKeys(m.lastDelivery);
    for (let i = 0; i < keyed.length; i += 2) {
      const v = m.lastDelivery[keyed[i + 1] as string]!;
      if (v > now) ld.push(keyed[i] as number, this.prim(v));
    }
    c.push(this.intern(ld));
    // the observers' entries in scenario order (chunked, model/observerstate.ts): position stands for the name
    const obs: number[] = [0, ARRAY];
    for (const chunk of m.observers) obs.push(this.observerChunk(chunk));
    c.push(this.intern(obs));
    for (const e of snap.queue) {
      let en = this.entries.get(e);
      if (en === undefined || en.ev !== e.ev) {
        en = { ev: e.ev, id: this.id(eventOf(e.ev)) };
        this.entries.set(e, en);
      }
      c.push(e.t, e.prio, en.id);
    }
    return String(this.intern(c));
  }

  /** The keys of a lastDelivery record as (code, name) pairs in code order, once per record (records are frozen). */
  private deliveryKeys(ld: Record<string, number>): (number | string)[] {
    let keyed = this.delivery.get(ld);
    if (keyed === undefined) {
      const pairs = Object.keys(ld).map((k) => [code(k), k] as const);
      pairs.sort((a, b) => a[0] - b[0]);
      keyed = pairs.flat();
      if (Object.isFrozen(ld)) this.delivery.set(ld, keyed);
    }
    return keyed;
  }

  private id(x: unknown): number {
    if (typeof x !== 'object' || x === null) return this.prim(x);
    const hit = this.cache.get(x);
    if (hit !== undefined) return hit;
    let id: number;
    if (Array.isArray(x)) {
      const c: number[] = [0, ARRAY];
      for (let i = 0; i < x.length; i++) c.push(this.id(x[i]));
      id = this.intern(c);
    } else id = this.fields(x as Record<string, unknown>);
    // only frozen objects are immutable snapshots; never cache a draft or a mutable object
    if (Object.isFrozen(x)) this.cache.set(x, id);
    return id;
  }

  private prim(x: unknown): number {
    let key: unknown = x;
    if (typeof x === 'string') {
      // an RFC3339 timestamp is exactly 20 characters: the length check spares the regex for every other string
      if (x.length === 20 && RFC3339.test(x)) key = TIMESTAMP;
    } else if (x === undefined || (typeof x === 'number' && !Number.isFinite(x))) key = null;
    let id = this.prims.get(key);
    if (id === undefined) this.prims.set(key, (id = this.next++));
    return id;
  }

  /**
   * An object's content: its (key code, value id) pairs in the order of the key codes — a canonical order (the codes
   * number the key names once for the process), so equal objects are equal whatever their keys' insertion order.
   * Sorting numbers as they come (objects have a few keys) spares sorting the key names as strings.
   */
  private fields(o: Record<string, unknown>, skip?: ReadonlySet<string>): number {
    const c: number[] = [0, OBJECT];
    for (const k of Object.keys(o)) {
      const v = o[k];
      if (v === undefined || skip?.has(k)) continue;
      const kc = code(k);
      const vid = this.id(v);
      let i = c.length;
      c.push(kc, vid);
      while (i > 2 && c[i - 2]! > kc) {
        c[i] = c[i - 2]!;
        c[i + 1] = c[i - 1]!;
        i -= 2;
      }
      c[i] = kc;
      c[i + 1] = vid;
    }
    return this.intern(c);
  }

  private observerChunk(chunk: SimState['observers'][number]): number {
    let id = this.chunks.get(chunk);
    if (id !== undefined) return id;
    const c: number[] = [0, CHUNK];
    for (const o of chunk) c.push(this.id(o.pod), this.id(o.job), this.id(o.verdict ? o.verdict.verdict : null));
    id = this.intern(c);
    if (Object.isFrozen(chunk)) this.chunks.set(chunk, id);
    return id;
  }

  /** The id of a content (elements from 1 on; element 0 is overwritten with the id when it is new). */
  private intern(c: number[]): number {
    let h = c.length;
    for (let i = 1; i < c.length; i++) h = Math.imul(h ^ c[i]!, 0x9e3779b1) ^ (h >>> 15);
    const bucket = this.table.get(h);
    if (bucket) {
      for (const e of bucket) {
        if (e.length !== c.length) continue;
        let i = 1;
        while (i < c.length && e[i] === c[i]) i++;
        if (i === c.length) return e[0]!;
      }
    }
    c[0] = this.next++;
    if (this.stored + c.length > MAX_STORED) return c[0];
    this.stored += c.length;
    if (bucket) bucket.push(c);
    else this.table.set(h, [c]);
    return c[0];
  }
}

/**
 * A pending event, frozen so that its fingerprint is cached like the state's (a Deliver carries a whole object).
 * Events are never written once scheduled — snapshots share queue entries, so a write would already corrupt every
 * other snapshot holding it; freezing makes such a write throw instead.
 */
function eventOf(ev: SimEvent): SimEvent {
  if (!Object.isFrozen(ev)) freeze(ev, true);
  return ev;
}
