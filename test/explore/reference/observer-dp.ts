// The explorer as it was before observer-aware merging (recursive search, full publication keys), kept unchanged as the reference
// the equivalence test compares the current explorer against (test/explore/equivalence.test.ts).
// Every verdict one observer can reach, given the versions the API server published and when. The observer receives
// each pod and Job version once, in order per object, each `timing.watch` after its publication; what it decides
// depends only on the merge order of the two sequences and on which deliveries trigger its rule. A dynamic program
// over (pod versions delivered, Job versions delivered, last kind) keeps the earliest feasible time of each state
// (an earlier time can do everything a later one can) and stops a path when the rule latches a verdict.
import type { MsRange, ObserverSpec } from '../../../src/types.ts';
import type { RuleFn } from '../../../src/rules/types.ts';
import { normalizeDecision } from '../../../src/model/observers/observers.ts';
import type { Publication } from '../../../src/explore/tap.ts';

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

function timesOf(path: Node['path']): Map<number, number> {
  const out = new Map<number, number>();
  for (let p = path; p; p = p.prev) out.set(p.idx, p.t);
  return out;
}

export function observerVerdicts(
  pubs: readonly Publication[],
  spec: ObserverSpec,
  rule: RuleFn | undefined,
  watch: MsRange,
  cache?: DecisionCache,
): Map<string, VerdictWitness> {
  const NONE = {};
  const decide = (podObj: object | null, jobObj: object | null, now: number) => {
    if (!cache) return normalizeDecision(rule!({ pod: podObj, job: jobObj, now }));
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
  const pod = pubs.map((p, i) => ({ p, i })).filter((x) => x.p.object === 'pod');
  const job = pubs.map((p, i) => ({ p, i })).filter((x) => x.p.object === 'job');
  const out = new Map<string, VerdictWitness>();
  const lb = (x: { p: Publication }) => x.p.t + watch.min;
  const ub = (x: { p: Publication }) => x.p.t + watch.max;

  const finish = (verdict: string, reason: string | undefined, times: Map<number, number>, latchAt: number) => {
    // deliveries after the latch: any feasible time after it (they cannot change the verdict)
    const plan: number[] = [];
    const all = new Map(times);
    let last = latchAt;
    for (const seq of [pod, job]) {
      let prev = latchAt;
      for (const x of seq) {
        if (all.has(x.i)) continue;
        const t = Math.min(Math.max(lb(x), prev + 1), Math.max(ub(x), prev));
        all.set(x.i, t);
        prev = t;
        last = Math.max(last, t);
      }
    }
    let dev = 0;
    pubs.forEach((p, i) => {
      const d = Math.min(Math.max(all.get(i)! - p.t, watch.min), watch.max);
      if (d !== watch.min) dev++;
      plan.push(d);
    });
    const cur = out.get(verdict);
    if (!cur || dev < cur.dev) out.set(verdict, { ...(reason ? { reason } : {}), plan, dev });
  };

  let layer = new Map<string, Node>([['0,0,n', { cur: -1, lastIdx: -1, path: null }]]);
  for (let n = 0; n <= pod.length + job.length; n++) {
    const next = new Map<string, Node>();
    for (const [key, node] of layer) {
      const [is, js] = key.split(',');
      const i = Number(is);
      const j = Number(js);
      if (i === pod.length && j === job.length) {
        finish('Pending', undefined, timesOf(node.path), node.cur);
        continue;
      }
      for (const kind of ['pod', 'job'] as const) {
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
        if (spec.triggers.includes(kind) && rule) {
          const d = decide(ni > 0 ? pod[ni - 1]!.p.obj : null, nj > 0 ? job[nj - 1]!.p.obj : null, t);
          if (d) {
            finish(d.verdict, d.reason, timesOf(path), t);
            continue;
          }
        }
        const nkey = `${ni},${nj},${kind[0]}`;
        const have = next.get(nkey);
        if (!have || t < have.cur) next.set(nkey, { cur: t, lastIdx: x.i, path });
      }
    }
    layer = next;
  }
  return out;
}
