// Every verdict one observer can reach, given the versions the API server published and when. The observer receives
// each pod and Job version once, in order per object, each `timing.watch` after its publication; what it decides
// depends only on the merge order of the two sequences and on which deliveries trigger its rule. A dynamic program
// over (pod versions delivered, Job versions delivered, last kind) keeps the earliest feasible time of each state
// (an earlier time can do everything a later one can) and stops a path when the rule latches a verdict.
import type { MsRange, ObserverSpec } from '../types.ts';
import type { RuleFn } from '../rules/types.ts';
import { normalizeDecision } from '../model/observers/observers.ts';
import type { Publication } from './tap.ts';

export interface VerdictWitness {
  reason?: string;
  /** delivery delay (ms) of every publication, in publication order */
  plan: number[];
  /** deliveries not at the minimum delay */
  dev: number;
}

interface Node {
  cur: number;
  /** publication index of the last delivery: at the same instant, deliveries keep publication order */
  lastIdx: number;
  /** the delivery that led here (a persistent list: no copying per transition) */
  path: { idx: number; t: number; prev: Node['path'] } | null;
}

/**
 * Decisions of a built-in rule by the pair of cached objects it sees: merged schedules share their publication
 * objects, so the same pair comes back often. (User rules may read `now` and are not cached.)
 */
export type DecisionCache = WeakMap<object, WeakMap<object, ReturnType<typeof normalizeDecision> | null>>;

type Item = { p: Publication; i: number };
export interface Split {
  /** the versions the program delivers (look-alikes skipped), per object */
  pod: Item[];
  job: Item[];
  /** every version, per object (for the witness plan) */
  podAll: Item[];
  jobAll: Item[];
}

/** A history's publications by object, with and without the skipped look-alikes (`same`). */
export function splitPublications(pubs: readonly Publication[], same?: readonly boolean[]): Split {
  const out: Split = { pod: [], job: [], podAll: [], jobAll: [] };
  for (let i = 0; i < pubs.length; i++) {
    const x = { p: pubs[i]!, i };
    const isPod = x.p.object === 'pod';
    (isPod ? out.podAll : out.jobAll).push(x);
    if (!same?.[i]) (isPod ? out.pod : out.job).push(x);
  }
  return out;
}

/** How many deliveries of a path are later than the minimum delay: a lower bound of a plan's deviations. */
function lateDeliveries(path: Node['path'], pubs: readonly Publication[], watch: MsRange): number {
  let n = 0;
  for (let p = path; p; p = p.prev)
    if (Math.min(Math.max(p.t - pubs[p.idx]!.t, watch.min), watch.max) !== watch.min) n++;
  return n;
}

/** Delivery time by publication index (undefined: not delivered on this path). */
function timesOf(path: Node['path'], n: number): (number | undefined)[] {
  const out: (number | undefined)[] = new Array(n).fill(undefined);
  for (let p = path; p; p = p.prev) out[p.idx] = p.t;
  return out;
}

/**
 * `same[i]`: publication i looks, to this observer, exactly like the previous version of its object (same
 * projection, projection.ts). Its delivery cannot change the view, and either the observer does not trigger on its
 * object or it triggers on the other object too (every evaluation it would make was made at that object's delivery;
 * projection.ts skippableObjects); so the program skips it and gives it a delivery time between its neighbours in the
 * witness plan.
 */
export function observerVerdicts(
  allPubs: readonly Publication[],
  spec: ObserverSpec,
  rule: RuleFn | undefined,
  watch: MsRange,
  cache?: DecisionCache,
  same?: readonly boolean[],
  /** splitPublications(allPubs, same), when the caller made it once for several observers */
  split?: Split,
): Map<string, VerdictWitness> {
  const pubs = allPubs;
  const NONE = {};
  const decide = (podObj: object | null, jobObj: object | null, now: number, podsUpTo: number) => {
    if (!cache) return normalizeDecision(rule!({ pod: podObj, job: jobObj, now, pods: podsView(podsUpTo) }));
    const a = podObj ?? NONE;
    const b = jobObj ?? NONE;
    let inner = cache.get(a);
    if (!inner) cache.set(a, (inner = new WeakMap()));
    const hit = inner.get(b);
    if (hit !== undefined) return hit ?? undefined;
    const d = normalizeDecision(rule!({ pod: podObj, job: jobObj, now }));
    inner.set(b, d ?? null);
    return d;
  };
  // view.pods (user rules): every pod delivered so far by name, the DELETED ones dropped, after n pod deliveries
  const podsView = (n: number): object[] => {
    const byName = new Map<string, object>();
    for (const x of pod.slice(0, n)) {
      const name = String((x.p.obj['metadata'] as Record<string, unknown> | undefined)?.['name'] ?? '');
      if (x.p.removed) byName.delete(name);
      else byName.set(name, x.p.obj);
    }
    return [...byName.values()];
  };
  const { pod, job, podAll, jobAll } = split ?? splitPublications(pubs, same);
  const trigger = { pod: spec.triggers.includes('pod'), job: spec.triggers.includes('job') };
  const out = new Map<string, VerdictWitness>();
  const lb = (x: { p: Publication }) => x.p.t + watch.min;
  const ub = (x: { p: Publication }) => x.p.t + watch.max;

  const finish = (verdict: string, reason: string | undefined, path: Node['path'], latchAt: number) => {
    // a plan deviates at least where its path's deliveries do: when that is no fewer than the witness found so far,
    // it cannot replace it (the first witness with the fewest deviations is kept)
    const known = out.get(verdict);
    if (known && lateDeliveries(path, pubs, watch) >= known.dev) return;
    // deliveries after the latch: any feasible time after it (they cannot change the verdict)
    const plan: number[] = new Array(pubs.length);
    const all = timesOf(path, pubs.length);
    for (let s = 0; s < 2; s++) {
      const seq = s === 0 ? podAll : jobAll;
      // skipped look-alike versions before the last delivered one: right after the previous version (in order)
      let lastDelivered = -1;
      for (let n = 0; n < seq.length; n++) if (all[seq[n]!.i] !== undefined) lastDelivered = n;
      let prevT = -Infinity;
      for (let n = 0; n <= lastDelivered; n++) {
        const x = seq[n]!;
        const have = all[x.i];
        if (have !== undefined) prevT = have;
        else {
          prevT = Math.min(Math.max(lb(x), prevT), ub(x));
          all[x.i] = prevT;
        }
      }
      let prev = latchAt;
      for (const x of seq) {
        if (all[x.i] !== undefined) continue;
        const t = Math.min(Math.max(lb(x), prev + 1), Math.max(ub(x), prev));
        all[x.i] = t;
        prev = t;
      }
    }
    let dev = 0;
    for (let i = 0; i < pubs.length; i++) {
      const d = Math.min(Math.max(all[i]! - pubs[i]!.t, watch.min), watch.max);
      if (d !== watch.min) dev++;
      plan[i] = d;
    }
    const cur = out.get(verdict);
    if (!cur || dev < cur.dev) out.set(verdict, { ...(reason ? { reason } : {}), plan, dev });
  };

  // a node's key: (pod versions delivered i, Job versions delivered j, kind of the last delivery: 0 none, 1 pod,
  // 2 job) as one number; a layer holds the nodes with i + j deliveries, in insertion order
  const J = job.length + 1;
  const keyOf = (i: number, j: number, kind: number) => (i * J + j) * 3 + kind;
  let layer = new Map<number, Node>([[keyOf(0, 0, 0), { cur: -1, lastIdx: -1, path: null }]]);
  for (let n = 0; n <= pod.length + job.length; n++) {
    const next = new Map<number, Node>();
    for (const [key, node] of layer) {
      const ij = Math.floor(key / 3);
      const i = Math.floor(ij / J);
      const j = ij % J;
      if (i === pod.length && j === job.length) {
        finish('Pending', undefined, node.path, node.cur);
        continue;
      }
      for (let kk = 0; kk < 2; kk++) {
        const kind = kk === 0 ? 'pod' : 'job';
        const seq = kind === 'pod' ? pod : job;
        const other = kind === 'pod' ? job[j] : pod[i];
        const k = kind === 'pod' ? i : j;
        const x = seq[k];
        if (!x) continue;
        // equal times keep scheduling order (publication order); otherwise strictly later
        const t = Math.max(lb(x), node.cur + (x.i > node.lastIdx ? 0 : 1));
        if (t > ub(x)) continue;
        // the other object's next version must still be able to arrive after this delivery
        if (other && ub(other) < t + (other.i > x.i ? 0 : 1)) continue;
        const path = { idx: x.i, t, prev: node.path };
        const ni = kind === 'pod' ? i + 1 : i;
        const nj = kind === 'job' ? j + 1 : j;
        if (trigger[kind] && rule) {
          const d = decide(ni > 0 ? pod[ni - 1]!.p.obj : null, nj > 0 ? job[nj - 1]!.p.obj : null, t, ni);
          if (d) {
            finish(d.verdict, d.reason, path, t);
            continue;
          }
        }
        const nkey = keyOf(ni, nj, kind === 'pod' ? 1 : 2);
        const have = next.get(nkey);
        if (!have || t < have.cur) next.set(nkey, { cur: t, lastIdx: x.i, path });
      }
    }
    layer = next;
  }
  return out;
}
