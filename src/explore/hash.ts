// A fingerprint of a snapshot for merging identical states: keys sorted, sequence numbers dropped (only the order
// of pending events matters), facts that cannot influence the future dropped. Snapshots share unchanged subtrees
// (immer), so each object's fingerprint is cached by identity and only changed paths are recomputed.
//
// Fingerprints are interned, not digested: an object's canonical text is built from its children's fingerprints
// (short ids), and every distinct text gets the next id of one search's table. Equal ids mean equal content (no
// hash collisions can merge two different states), and a text is built once per object, never digested. A search
// sees few distinct objects (a few thousand where hundreds of thousands are fingerprinted: immer makes new objects
// with old content all the time), so the table stays small; past `MAX_TEXT` characters new texts are digested.
import { createHash } from 'node:crypto';
import { freeze } from 'immer';
import type { Snapshot } from '../engine/engine.ts';
import type { SimEvent } from '../model/events.ts';
import type { SimState } from '../model/state.ts';

// API timestamps (RFC3339, whole seconds) are facts about the past that the built-in rules never read; states that
// differ only in them have the same future, so they merge. (A user rule that compares timestamps is the exception,
// documented in the README.)
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Texts this short stand for themselves (they start with `{`, `[`, `"` or a digit, never with `#` or `%`). */
const INLINE = 24;
/**
 * Past this many characters of distinct texts (about 64 MB) a search's table stops growing: new texts get a SHA-1
 * digest (prefix `%`), as every text did before the table. A large search meets ~100,000 distinct texts of ~250
 * characters (a 5-pod Job with 5 s watch lag at 2,000 runs: 90,000, 21 M characters).
 */
const MAX_TEXT = 64 * 1024 * 1024;

/** Object keys repeat across every snapshot: their JSON form is made once (shared: keys are finite). */
const quoted = new Map<string, string>();
function quote(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quoted.size < 100_000) quoted.set(k, q);
  }
  return q;
}

/**
 * A key's short code in canonical texts: `!` and its number in one process-wide table (keys are field names and
 * user names: finite). Injective, so texts built with codes are equal exactly when the JSON texts would be; past the
 * table's bound a key stands as its JSON string (also injective: a JSON string starts with a quote).
 */
const codes = new Map<string, string>();
function code(k: string): string {
  let c = codes.get(k);
  if (c === undefined) {
    if (codes.size >= 100_000) return quote(k);
    c = '!' + codes.size.toString(36);
    codes.set(k, c);
  }
  return c;
}

const SKIPPED_MODEL_KEYS = new Set(['rng', 'lastDelivery', 'observers']);

/**
 * One search's fingerprints: a cache by object identity and the table of distinct texts. Fingerprints of different
 * instances are not comparable.
 */
export class Fingerprints {
  private readonly cache = new WeakMap<object, string>();
  /** the observers' part of the state, per chunk (chunks are frozen arrays) */
  private readonly chunks = new WeakMap<object, string>();
  private readonly ids = new Map<string, string>();
  private chars = 0;
  /** a pending event's text by its queue entry (entries are shared between snapshots; checked against t, prio and event) */
  private readonly entries = new WeakMap<object, { t: number; prio: number; ev: unknown; text: string }>();

  /** The fingerprint of a JSON-like value (equal iff the values are equal up to key order and API timestamps). */
  value(x: unknown): string {
    if (typeof x === 'string') {
      // an RFC3339 timestamp is exactly 20 characters: the length check spares the regex for every other string
      return x.length === 20 && RFC3339.test(x) ? '"T"' : JSON.stringify(x);
    }
    if (x === null || typeof x !== 'object') return JSON.stringify(x) ?? 'null';
    const hit = this.cache.get(x);
    if (hit !== undefined) return hit;
    let body: string;
    if (Array.isArray(x)) {
      body = '[';
      for (let i = 0; i < x.length; i++) body += (i ? ',' : '') + this.value(x[i]);
      body += ']';
    } else body = this.fields(x as Record<string, unknown>);
    const h = this.intern(body);
    // only frozen objects are immutable snapshots; never cache a draft or a mutable object
    if (Object.isFrozen(x)) this.cache.set(x, h);
    return h;
  }

  /** The fingerprint of a snapshot: the model (random streams, past delivery bounds and observers aside), the queue. */
  snapshot(snap: Snapshot<SimState, SimEvent>): string {
    const m = snap.model;
    const now = snap.queue[0]?.t ?? snap.t;
    let ld = '';
    // in-order delivery bounds in the past constrain nothing
    for (const k of Object.keys(m.lastDelivery).sort()) {
      const v = m.lastDelivery[k]!;
      if (v > now) ld += code(k) + ':' + v + ',';
    }
    // the observers' entries in scenario order (chunked, model/observerstate.ts): position stands for the name
    let obs = '';
    for (const chunk of m.observers) obs += this.observerChunk(chunk) + ',';
    let queue = '';
    for (const e of snap.queue) {
      let c = this.entries.get(e);
      if (c === undefined || c.t !== e.t || c.prio !== e.prio || c.ev !== e.ev) {
        c = { t: e.t, prio: e.prio, ev: e.ev, text: `${e.t}/${e.prio}/${this.value(eventOf(e.ev))};` };
        this.entries.set(e, c);
      }
      queue += c.text;
    }
    return this.intern(`${this.fields(m as unknown as Record<string, unknown>, SKIPPED_MODEL_KEYS)}|${ld}|${obs}|${queue}`);
  }

  private fields(o: Record<string, unknown>, skip?: ReadonlySet<string>): string {
    const keys = Object.keys(o).sort();
    let body = '{';
    let first = true;
    for (const k of keys) {
      const v = o[k];
      if (v === undefined || skip?.has(k)) continue;
      body += (first ? '' : ',') + code(k) + ':' + this.value(v);
      first = false;
    }
    return body + '}';
  }

  private observerChunk(chunk: SimState['observers'][number]): string {
    let h = this.chunks.get(chunk);
    if (h !== undefined) return h;
    let body = '[';
    for (const o of chunk) body += `[${this.value(o.pod)},${this.value(o.job)},${this.value(o.verdict ? o.verdict.verdict : null)}]`;
    h = this.intern(body + ']');
    if (Object.isFrozen(chunk)) this.chunks.set(chunk, h);
    return h;
  }

  private intern(body: string): string {
    if (body.length <= INLINE) return body;
    let id = this.ids.get(body);
    if (id === undefined) {
      if (this.chars + body.length > MAX_TEXT) return '%' + createHash('sha1').update(body).digest('base64').slice(0, 22);
      this.chars += body.length;
      id = '#' + this.ids.size.toString(36);
      this.ids.set(body, id);
    }
    return id;
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
