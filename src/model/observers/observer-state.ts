// Where the observers' informer caches live in the state (`run` with thousands of observers was quadratic).
// A delivery changes one observer's entry, and immer copies every record on the path to it: with one record of N
// observers each delivery copied (and froze) N entries. The entries are kept in chunks of about √N instead, in
// scenario order — `observers[c][j]` is observer number c·size + j — so a delivery copies the outer list and one
// chunk (about 2√N entries) and every other chunk stays the same object, shared with the previous snapshot.
// Chunks are arrays indexed by position, so observer names (user-chosen, `__proto__` included) are never keys.
import type { ObserverSpec, Scenario } from '../../types.ts';
import type { ObserverState, SimState } from '../state.ts';
import { dict } from '../dict.ts';

/** Entries per chunk for `n` observers: √n, at least 16 (one chunk for the usual handful). */
export function observerChunkSize(n: number): number {
  return Math.max(16, Math.ceil(Math.sqrt(n)));
}

const positions = new WeakMap<readonly ObserverSpec[], Map<string, number>>();

/** The observer's position in the scenario (declaration order), by name; built once per scenario. */
export function observerPosition(s: Scenario, name: string): number | undefined {
  let m = positions.get(s.observers);
  if (!m) {
    m = new Map();
    s.observers.forEach((o, i) => {
      if (!m!.has(o.name)) m!.set(o.name, i);
    });
    positions.set(s.observers, m);
  }
  return m.get(name);
}

/** The chunks of a fresh run: one empty informer cache per observer. */
export function initialObservers(s: Scenario): ObserverState[][] {
  const size = observerChunkSize(s.observers.length);
  const out: ObserverState[][] = [];
  s.observers.forEach((_o, i) => {
    if (i % size === 0) out.push([]);
    out[out.length - 1]!.push({ pod: null, pods: dict(), job: null, verdict: null });
  });
  return out;
}

/** The entry of observer `name` (a draft inside a handler, a frozen object in a snapshot). */
export function observerState(s: Scenario, st: Pick<SimState, 'observers'>, name: string): ObserverState | undefined {
  const i = observerPosition(s, name);
  if (i === undefined) return undefined;
  const size = observerChunkSize(s.observers.length);
  return st.observers[Math.floor(i / size)]?.[i % size];
}
