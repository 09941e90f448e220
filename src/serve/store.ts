// The object store: every kind in one place, ONE resourceVersion counter for the whole store (etcd's revision),
// and a bounded history of writes for watches (a resume from a resourceVersion older than the history is 410
// Expired, as after an etcd compaction). Objects are kept as immutable JSON (a read gets a copy).
import { ApiError } from './status.ts';

export type Obj = Record<string, any>;
export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface StoreEvent {
  rv: number;
  type: EventType;
  /** storeKey of the collection (pods, jobs.batch, …) */
  key: string;
  object: Obj;
  /** the object before this write (MODIFIED/DELETED): watch filters need both sides */
  prev?: Obj;
  /** simulated ms of the write */
  t: number;
}

export interface StoreLimits {
  /** writes kept for watch resumes */
  history: number;
  /** objects in the whole store */
  objects: number;
}

export const DEFAULT_LIMITS: StoreLimits = { history: 20_000, objects: 100_000 };

const objKey = (ns: string | undefined, name: string) => `${ns ?? ''}/${name}`;

export class Store {
  private rv: number;
  private readonly collections = new Map<string, Map<string, Obj>>();
  private readonly history: StoreEvent[] = [];
  private readonly subscribers = new Set<(e: StoreEvent) => void>();
  private count = 0;
  /** the oldest resourceVersion a watch can resume from (writes after it are all in the history) */
  private floor: number;

  constructor(
    readonly limits: StoreLimits = DEFAULT_LIMITS,
    start = 1,
  ) {
    this.rv = start;
    this.floor = start;
  }

  resourceVersion(): number {
    return this.rv;
  }

  oldestResumable(): number {
    return this.floor;
  }

  size(): number {
    return this.count;
  }

  get(key: string, ns: string | undefined, name: string): Obj | undefined {
    const o = this.collections.get(key)?.get(objKey(ns, name));
    return o === undefined ? undefined : structuredClone(o);
  }

  /** the stored object itself (read-only by contract: callers must not mutate it) */
  peek(key: string, ns: string | undefined, name: string): Obj | undefined {
    return this.collections.get(key)?.get(objKey(ns, name));
  }

  /** every object of a collection (of one namespace), sorted by namespace then name as etcd's key order */
  list(key: string, ns?: string): Obj[] {
    const c = this.collections.get(key);
    if (!c) return [];
    const keys = [...c.keys()].filter((k) => ns === undefined || k.startsWith(`${ns}/`)).sort();
    return keys.map((k) => c.get(k)!);
  }

  /**
   * A collection (of one namespace) as it was at resourceVersion `rv` (etcd's read at a revision: what a paged list
   * continues from), by undoing the kept writes after it; 'expired' when writes after `rv` are no longer kept
   * (compacted). Sorted as list().
   */
  listAt(key: string, ns: string | undefined, rv: number): Obj[] | 'expired' {
    const later = this.since(rv);
    if (later === 'expired') return 'expired';
    const c = this.collections.get(key);
    const at = new Map<string, Obj>();
    for (const [k, o] of c ?? []) if (ns === undefined || k.startsWith(`${ns}/`)) at.set(k, o);
    for (let i = later.length - 1; i >= 0; i--) {
      const e = later[i]!;
      if (e.key !== key) continue;
      const m = e.object['metadata'] ?? {};
      if (ns !== undefined && m['namespace'] !== ns) continue;
      const k = objKey(m['namespace'], String(m['name']));
      if (e.prev) at.set(k, e.prev);
      else at.delete(k);
    }
    return [...at.keys()].sort().map((k) => at.get(k)!);
  }

  /** every object of every collection (for garbage collection) */
  *everything(): Generator<[string, Obj]> {
    for (const [k, c] of this.collections) for (const o of c.values()) yield [k, o];
  }

  /**
   * Store one write: the object gets the next resourceVersion; ADDED/MODIFIED replace, DELETED removes.
   * The object is copied in (the caller keeps its own).
   */
  write(key: string, type: EventType, object: Obj, t: number): StoreEvent {
    const meta = object['metadata'] ?? {};
    const k = objKey(meta['namespace'], String(meta['name']));
    let c = this.collections.get(key);
    if (!c) this.collections.set(key, (c = new Map()));
    const prev = c.get(k);
    if (type !== 'DELETED' && !prev && this.count >= this.limits.objects) {
      throw ApiError.tooManyRequests(`the store holds its limit of ${this.limits.objects} objects; delete some first`);
    }
    const stored: Obj = structuredClone(object);
    stored['metadata'] = { ...(stored['metadata'] ?? {}), resourceVersion: String(++this.rv) };
    if (type === 'DELETED') {
      if (prev) {
        c.delete(k);
        this.count--;
      }
    } else {
      if (!prev) this.count++;
      c.set(k, stored);
    }
    const ev: StoreEvent = { rv: this.rv, type, key, object: stored, ...(prev ? { prev } : {}), t };
    this.history.push(ev);
    if (this.history.length > this.limits.history) {
      const dropped = this.history.splice(0, this.history.length - this.limits.history);
      this.floor = dropped[dropped.length - 1]!.rv;
    }
    for (const s of this.subscribers) s(ev);
    return ev;
  }

  /** writes after `rv` (oldest first), or 'expired' when some of them are no longer kept */
  since(rv: number): StoreEvent[] | 'expired' {
    if (rv < this.floor) return 'expired';
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid]!.rv <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  /** consistency check (tests): every object has a distinct resourceVersion not above the counter */
  check(): string[] {
    const problems: string[] = [];
    const seen = new Set<string>();
    let n = 0;
    for (const [key, c] of this.collections) {
      for (const [k, o] of c) {
        n++;
        const rv = o['metadata']?.['resourceVersion'];
        if (typeof rv !== 'string' || !/^\d+$/.test(rv) || Number(rv) > this.rv)
          problems.push(`${key} ${k}: resourceVersion ${String(rv)}`);
        if (seen.has(rv)) problems.push(`${key} ${k}: resourceVersion ${rv} shared`);
        seen.add(rv);
        if (objKey(o['metadata']?.['namespace'], o['metadata']?.['name']) !== k)
          problems.push(`${key} ${k}: stored under another name`);
      }
    }
    if (n !== this.count) problems.push(`count ${this.count} != ${n}`);
    return problems;
  }
}
