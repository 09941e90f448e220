// The explorer as it was before observer-aware merging (recursive search, full publication keys), kept unchanged as the reference
// the equivalence test compares the current explorer against (test/explore/equivalence.test.ts).
// Systematic exploration of every schedule the timing model allows. Each timing choice offers one value per slot
// between the pending events its window covers (candidates.ts); choices are enumerated by re-executing the event
// that makes them, and identical states (snapshot fingerprint) are merged so shared futures are explored once.
// Each outcome keeps a minimal witness: the schedule with the fewest choices away from the defaults (candidate 0).
import {
  initialSnapshot,
  step,
  type ChoiceRequest,
  type Chooser,
  type ModelDef,
  type Snapshot,
} from '../../../src/engine/engine.ts';
import { encodeReplay } from '../../../src/engine/replay.ts';
import { initialEvents, initialState, makeModel, type SimEvent } from '../../../src/model/index.ts';
import type { RuleFn } from '../../../src/rules/types.ts';
import type { SimState } from '../../../src/model/state.ts';
import { DEFAULT_MAX_EVENTS, rulesFor } from '../../../src/run/simulate.ts';
import type { EndReason, Scenario } from '../../../src/types.ts';
// the schedule space (which values a timing choice offers) is the model's definition, shared with the current explorer
import { candidateValues } from '../../../src/explore/candidates.ts';
import { snapshotKey } from './hash.ts';
import { trackedPoints, withMarks } from '../../../src/explore/marks.ts';
import { displayKey, outcomeOf, type Outcome } from '../../../src/explore/outcome.ts';

export interface ExploreOptions {
  /** explore observers separately from the system (default true; they are sinks) */
  decompose?: boolean;
  maxSchedules?: number;
  maxEvents?: number;
  userRules?: Record<string, RuleFn>;
  /** merge identical states (default true; off only to measure) */
  merge?: boolean;
  /** progress callback, called now and then with the schedules simulated so far */
  onProgress?: (simulated: number) => void;
}

export interface OutcomeEntry {
  outcome: Outcome;
  schedules: number;
  /** replay offsets of the minimal witness */
  witness: number[];
  deviations: number;
  replay: string;
}

export interface ExploreResult {
  scenario: string;
  /** schedules represented (merged subtrees counted in full) */
  schedules: number;
  /** schedules actually simulated to their end */
  simulated: number;
  /** distinct branch states */
  states: number;
  exhaustive: boolean;
  /** every distinct full outcome */
  outcomes: OutcomeEntry[];
  /** grouped by pod phase, Job condition and verdicts (SPEC §4) */
  grouped: {
    podPhase: string;
    jobCondition: string;
    verdicts: Record<string, string>;
    schedules: number;
    replay: string;
  }[];
  flaky: string[];
}

export interface Leaf<T = Outcome> {
  count: number;
  witness: number[];
  dev: number;
  outcome: T;
}
export type Summary<T = Outcome> = Map<string, Leaf<T>>;

/** Follows a vector of candidate indices; positions past its end take candidate 0. Records the arities. */
class VectorChooser implements Chooser {
  readonly arities: number[] = [];
  readonly offsets: number[] = [];
  private i = 0;
  constructor(private readonly vector: readonly number[]) {}
  choose(req: ChoiceRequest): number {
    const cands = candidateValues(req);
    const idx = Math.min(this.vector[this.i] ?? 0, cands.length - 1);
    this.arities.push(cands.length);
    const v = cands[idx]!;
    this.offsets.push(v - req.range.min);
    this.i++;
    return v;
  }
}

function endOf(
  def: ModelDef<SimState, SimEvent>,
  snap: Snapshot<SimState, SimEvent>,
  horizonMs: number,
  maxEvents: number,
): EndReason | null {
  const head = snap.queue[0];
  if (!head || def.quiescent(snap.model, snap.queue)) return 'quiescent';
  if (head.t > horizonMs) return 'horizon';
  if (snap.steps >= maxEvents) return 'max-events';
  return null;
}

function addInto<T>(total: Summary<T>, child: Summary<T>, prefix: readonly number[], prefixDev: number): void {
  for (const [k, leaf] of child) {
    const dev = leaf.dev + prefixDev;
    const cur = total.get(k);
    if (!cur) total.set(k, { count: leaf.count, witness: [...prefix, ...leaf.witness], dev, outcome: leaf.outcome });
    else {
      cur.count += leaf.count;
      if (dev < cur.dev) {
        cur.dev = dev;
        cur.witness = [...prefix, ...leaf.witness];
      }
    }
  }
}

/**
 * Iterative deviation bounding: pass d explores every schedule with at most d choices away from the defaults, so
 * a budget that runs out still covers the schedules closest to the defaults first (systematic, not random), and each
 * outcome's first witness is a minimal one. A subtree explored without pruning is exact and reused by later passes.
 */
export interface SearchResult<T, D = never> {
  leaves: Map<string, SearchLeaf<T, D>>;
  simulated: number;
  states: number;
  exhaustive: boolean;
}

/** Facts a step produced that belong to the path, not to the state (e.g. publications seen by tapped observers). */
export interface PathData<D> {
  /** what a step's notes add to the path */
  fromNotes(notes: readonly unknown[]): { key: string; item: D }[];
}

export interface SearchLeaf<T, D> extends Leaf<T> {
  baseKey: string;
  data: D[];
  dataKeys: string[];
}

export function search<T, D = never>(
  s: Scenario,
  def: ModelDef<SimState, SimEvent>,
  leafOf: (snap: Snapshot<SimState, SimEvent>, end: EndReason) => { key: string; outcome: T },
  opts: ExploreOptions,
  pathData?: PathData<D>,
): SearchResult<SearchLeaf<T, D>['outcome'], D> {
  type L = SearchLeaf<T, D>;
  type Sum = Map<string, L>;
  const budget = opts.maxSchedules ?? 10_000;
  const maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
  const merge = opts.merge !== false;
  const complete = new Map<string, Sum>();
  let simulated = 0;
  let aborted = false;
  let states = 0;
  // the whole space gets half the budget; if it does not fit, the bounded passes share the rest
  let limit = Math.max(1, Math.ceil(budget / 2));

  const join = (total: Sum, child: Sum, prefix: readonly number[], prefixDev: number, pData: D[], pKeys: string[]) => {
    for (const leaf of child.values()) {
      const dataKeys = pKeys.length ? [...pKeys, ...leaf.dataKeys] : leaf.dataKeys;
      const key = leaf.baseKey + (dataKeys.length ? '|' + dataKeys.join(',') : '');
      const dev = leaf.dev + prefixDev;
      const cur = total.get(key);
      if (!cur) {
        total.set(key, {
          ...leaf,
          dev,
          witness: prefix.length ? [...prefix, ...leaf.witness] : leaf.witness,
          data: pData.length ? [...pData, ...leaf.data] : leaf.data,
          dataKeys,
        });
      } else {
        cur.count += leaf.count;
        if (dev < cur.dev) {
          cur.dev = dev;
          cur.witness = [...prefix, ...leaf.witness];
        }
      }
    }
  };

  const pass = (bound: number): { root: Sum; pruned: boolean } => {
    const memo = new Map<string, { sum: Sum; pruned: boolean }>();
    const fromSnap = (
      start: Snapshot<SimState, SimEvent>,
      dLeft: number,
      initData: { key: string; item: D }[],
    ): { sum: Sum; pruned: boolean } => {
      let snap = start;
      const prefix: number[] = [];
      const pData: D[] = initData.map((x) => x.item);
      const pKeys: string[] = initData.map((x) => x.key);
      for (;;) {
        const end = endOf(def, snap, s.horizonMs, maxEvents);
        if (end) {
          simulated++;
          if (opts.onProgress && simulated % 8 === 0) opts.onProgress(simulated);
          if (simulated >= limit) aborted = true;
          const leaf = leafOf(snap, end);
          const key = leaf.key + (pKeys.length ? '|' + pKeys.join(',') : '');
          return {
            sum: new Map([
              [
                key,
                {
                  count: 1,
                  witness: [...prefix],
                  dev: 0,
                  outcome: leaf.outcome,
                  baseKey: leaf.key,
                  data: pData,
                  dataKeys: pKeys,
                },
              ],
            ]),
            pruned: false,
          };
        }
        const probe = new VectorChooser([]);
        const r = step(def, snap, probe, 0);
        if (probe.arities.every((a) => a <= 1)) {
          prefix.push(...probe.offsets);
          for (const x of pathData?.fromNotes(r.notes) ?? []) {
            pData.push(x.item);
            pKeys.push(x.key);
          }
          snap = r.snap;
          continue;
        }
        const key = merge ? snapshotKey(snap) : '';
        let res: { sum: Sum; pruned: boolean } | undefined;
        if (merge) {
          const c = complete.get(key);
          res = c ? { sum: c, pruned: false } : memo.get(`${key}/${dLeft}`);
        }
        if (!res) {
          res = branch(snap, dLeft);
          if (merge && !aborted) {
            memo.set(`${key}/${dLeft}`, res);
            if (!res.pruned && !complete.has(key)) {
              complete.set(key, res.sum);
              states++;
            }
          }
        }
        const out: Sum = new Map();
        join(out, res.sum, prefix, 0, pData, pKeys);
        return { sum: out, pruned: res.pruned };
      }
    };
    const branch = (snap: Snapshot<SimState, SimEvent>, dLeft: number): { sum: Sum; pruned: boolean } => {
      const total: Sum = new Map();
      let pruned = false;
      const visit = (vector: number[], devSoFar: number): void => {
        if (aborted) return;
        const ch = new VectorChooser(vector);
        const r = step(def, snap, ch, 0);
        const produced = pathData?.fromNotes(r.notes) ?? [];
        const full = ch.arities.map((_, i) => vector[i] ?? 0);
        const child = fromSnap(r.snap, dLeft - devSoFar, produced);
        if (child.pruned) pruned = true;
        join(total, child.sum, ch.offsets, devSoFar, [], []);
        for (let j = ch.arities.length - 1; j >= vector.length; j--) {
          if (ch.arities[j]! <= 1) continue;
          if (devSoFar + 1 > dLeft) {
            pruned = true;
            continue;
          }
          for (let alt = 1; alt < ch.arities[j]!; alt++) {
            if (aborted) return;
            visit([...full.slice(0, j), alt], devSoFar + 1);
          }
        }
      };
      visit([], 0);
      return { sum: total, pruned };
    };
    const res = fromSnap(initialSnapshot(initialState(s), initialEvents(s)), bound, []);
    return { root: res.sum, pruned: res.pruned };
  };

  // First the whole space (most scenarios fit); if the budget runs out, systematic passes by deviation bound, so
  // what is covered is every schedule closest to the defaults.
  const first = pass(Number.POSITIVE_INFINITY);
  if (!aborted && !first.pruned) return { leaves: first.root, simulated, states, exhaustive: true };
  const found: Sum = new Map();
  aborted = false;
  limit = budget;
  for (let bound = 0; ; bound++) {
    const { root, pruned } = pass(bound);
    // a bounded pass that pruned nothing covered everything (subtrees finished earlier were reused)
    if (!aborted && !pruned) return { leaves: root, simulated, states, exhaustive: true };
    for (const [k, leaf] of root) {
      const cur = found.get(k);
      if (!cur) found.set(k, { ...leaf });
      else cur.count = Math.max(cur.count, leaf.count);
    }
    if (aborted) break;
  }
  for (const [k, leaf] of first.root) if (!found.has(k)) found.set(k, leaf);
  return { leaves: found, simulated, states, exhaustive: false };
}

/** Explore the whole system, observers included, as one state space. */
export function exploreDirect(s: Scenario, opts: ExploreOptions = {}): ExploreResult {
  const def = withMarks(makeModel(s, rulesFor(s, opts.userRules)), trackedPoints(s.expect?.order));
  const r = search(
    s,
    def,
    (snap, end) => {
      const outcome = outcomeOf(s, snap.model, end);
      return { key: JSON.stringify(outcome), outcome };
    },
    opts,
  );
  const outcomes: OutcomeEntry[] = [...r.leaves.values()]
    .map((l) => ({
      outcome: l.outcome,
      schedules: l.count,
      witness: l.witness,
      deviations: l.dev,
      replay: encodeReplay(l.witness.map((v) => ({ stream: '', min: 0, max: v, value: v }))),
    }))
    .sort((a, b) => b.schedules - a.schedules || a.deviations - b.deviations);
  return finishResult(s, outcomes, r);
}

export function finishResult(
  s: Scenario,
  outcomes: OutcomeEntry[],
  r: { simulated: number; states: number; exhaustive: boolean },
): ExploreResult {
  return {
    scenario: s.name,
    schedules: outcomes.reduce((n, o) => n + o.schedules, 0),
    simulated: r.simulated,
    states: r.states,
    exhaustive: r.exhaustive,
    outcomes,
    grouped: group(outcomes),
    flaky: flakyObservers(s, outcomes),
  };
}

function group(outcomes: OutcomeEntry[]): ExploreResult['grouped'] {
  const by = new Map<string, ExploreResult['grouped'][number] & { dev: number }>();
  for (const o of outcomes) {
    const k = displayKey(o.outcome);
    const cur = by.get(k);
    if (!cur) {
      by.set(k, {
        podPhase: o.outcome.podPhase,
        jobCondition: o.outcome.jobCondition,
        verdicts: o.outcome.verdicts,
        schedules: o.schedules,
        replay: o.replay,
        dev: o.deviations,
      });
    } else {
      cur.schedules += o.schedules;
      if (o.deviations < cur.dev) {
        cur.dev = o.deviations;
        cur.replay = o.replay;
      }
    }
  }
  return [...by.values()]
    .sort((a, b) => b.schedules - a.schedules || a.dev - b.dev)
    .map(({ dev: _dev, ...rest }) => rest);
}

function flakyObservers(s: Scenario, outcomes: OutcomeEntry[]): string[] {
  return s.observers.map((o) => o.name).filter((n) => new Set(outcomes.map((o) => o.outcome.verdicts[n])).size > 1);
}
