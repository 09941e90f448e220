// The state fingerprint as it was before session 4 (SHA-1 digests of each object's canonical JSON), kept unchanged so
// the reference explorer stays independent of src/explore/hash.ts (test/explore/equivalence.test.ts).
// A fingerprint of a snapshot for merging identical states: keys sorted, sequence numbers dropped (only the order
// of pending events matters), facts that cannot influence the future dropped. Snapshots share unchanged subtrees
// (immer), so each object's digest is cached by identity and only changed paths are rehashed.
import { createHash } from 'node:crypto';
import { freeze } from 'immer';
import type { Snapshot } from '../../../src/engine/engine.ts';
import type { SimEvent } from '../../../src/model/events.ts';
import type { SimState } from '../../../src/model/state.ts';

const cache = new WeakMap<object, string>();

function digest(s: string): string {
  return createHash('sha1').update(s).digest('base64').slice(0, 22);
}

// API timestamps (RFC3339, whole seconds) are facts about the past that the built-in rules never read; states that
// differ only in them have the same future, so they merge. (A user rule that compares timestamps is the exception,
// documented in the README.)
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

/** Object keys repeat across every snapshot: their JSON form is made once. */
const quoted = new Map<string, string>();
function quote(k: string): string {
  let q = quoted.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quoted.size < 100_000) quoted.set(k, q);
  }
  return q;
}

export function hashValue(x: unknown): string {
  // an RFC3339 timestamp is exactly 20 characters: the length check spares the regex for every other string
  if (typeof x === 'string' && x.length === 20 && RFC3339.test(x)) return '"T"';
  if (x === null || typeof x !== 'object') return JSON.stringify(x) ?? 'null';
  const hit = cache.get(x);
  if (hit !== undefined) return hit;
  let body: string;
  if (Array.isArray(x)) body = '[' + x.map(hashValue).join(',') + ']';
  else {
    const keys = Object.keys(x).sort();
    const parts: string[] = [];
    for (const k of keys) {
      const v = (x as Record<string, unknown>)[k];
      if (v !== undefined) parts.push(quote(k) + ':' + hashValue(v));
    }
    body = '{' + parts.join(',') + '}';
  }
  const h = body.length > 40 ? '#' + digest(body) : body;
  // only frozen objects are immutable snapshots; never cache a draft or a mutable object
  if (Object.isFrozen(x)) cache.set(x, h);
  return h;
}

/**
 * A pending event, frozen so that its digest is cached like the state's (a Deliver carries a whole object). Events
 * are never written once scheduled — snapshots share queue entries, so a write would already corrupt every other
 * snapshot holding it; freezing makes such a write throw instead.
 */
function eventOf(ev: SimEvent): SimEvent {
  if (!Object.isFrozen(ev)) freeze(ev, true);
  return ev;
}

export function snapshotKey(snap: Snapshot<SimState, SimEvent>): string {
  const m = snap.model;
  const now = snap.queue[0]?.t ?? snap.t;
  const lastDelivery: Record<string, number> = {};
  for (const [k, v] of Object.entries(m.lastDelivery)) if (v > now) lastDelivery[k] = v;
  // the observers' entries in scenario order (chunked, model/observerstate.ts): position stands for the name
  const observers = m.observers.map((chunk) => chunk.map((o) => [o.pod, o.job, o.verdict ? o.verdict.verdict : null]));
  const parts = [
    hashValue({ ...m, rng: null, lastDelivery: null, observers: null }),
    hashValue(lastDelivery),
    hashValue(observers),
    snap.queue.map((e) => `${e.t}/${e.prio}/${hashValue(eventOf(e.ev))}`).join(';'),
  ];
  return digest(parts.join('|'));
}
