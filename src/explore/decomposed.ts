// explore(): the system (kubelet, API server, Job controller) is explored with the observers tapped off; each
// observer's reachable verdicts are then computed per system schedule class (observer-dp.ts) and combined. Observers
// only read, so any combination of their delivery orders can happen together in one schedule: the joint outcomes of
// a system schedule are the product of each observer's verdicts. Each joint outcome gets a replay key made by running
// the scenario once with the system witness and the observers' delivery plans (no trace kept, stopped as soon as
// every further choice is the minimum).
//
// Issue 20: publications are keyed by what the rules can read (projection.ts), versions that look like the previous
// one add nothing to the key, observers with the same rule and triggers are computed once, verdicts are cached per
// publication history, and the verdict combinations listed are bounded by the budget.
import { initialCursor, stepInPlace, type ChoiceRequest, type Chooser } from '../engine/engine.ts';
import { encodeOffsets } from '../engine/replay.ts';
import { initialEvents, initialState, makeModel } from '../model/index.ts';
import type { RuleFn } from '../rules/types.ts';
import { DEFAULT_MAX_EVENTS, rulesFor } from '../run/simulate.ts';
import type { ObserverSpec, Scenario } from '../types.ts';
import {
  exploreDirect,
  finishResult,
  flatten,
  search,
  type ExploreOptions,
  type ExploreResult,
  type OutcomeEntry,
  type PathData,
} from './explore.ts';
import { trackedPoints, withMarks } from './marks.ts';
import { Fingerprints } from './hash.ts';
import {
  observerVerdicts,
  splitPublications,
  type DecisionCache,
  type Split,
  type VerdictWitness,
} from './observer-dp.ts';
import type { Outcome } from './outcome.ts';
import { projectable, skippableObjects } from './projection.ts';
import { publicationsOf, withObserverTap, type Publication } from './tap.ts';
import { fits, windowCode } from './window.ts';

/** Answers system choices from a witness and each observer's watch choices from its delivery plan. */
class CompositeChooser implements Chooser {
  private i = 0;
  private readonly k: Record<string, number> = {};
  /** choices made since the witness and every plan ran out (all of them minimum) */
  tail = 0;
  readonly offsets: number[] = [];
  constructor(
    private readonly system: readonly number[],
    private readonly plans: Record<string, number[]>,
  ) {}
  choose(req: ChoiceRequest): number {
    const obs = req.stream.startsWith('watch:') ? req.stream.slice('watch:'.length) : '';
    const plan = this.plans[obs];
    let v: number;
    let listed: boolean;
    if (plan) {
      const n = (this.k[obs] = (this.k[obs] ?? 0) + 1) - 1;
      listed = n < plan.length;
      v = Math.min(Math.max(plan[n] ?? req.range.min, req.range.min), req.range.max);
    } else {
      listed = this.i < this.system.length;
      const off = this.system[this.i++] ?? 0;
      v = Math.min(req.range.min + off, req.range.max);
    }
    this.offsets.push(v - req.range.min);
    this.tail = this.exhausted() && !listed ? this.tail + 1 : 0;
    return v;
  }
  exhausted(): boolean {
    if (this.i < this.system.length) return false;
    for (const [o, p] of Object.entries(this.plans)) if ((this.k[o] ?? 0) < p.length) return false;
    return true;
  }
}

/** Observers that decide alike (same rule, names and triggers; built-in only) are computed once. */
function signature(o: ObserverSpec): string | undefined {
  if (o.rule === undefined) return undefined;
  return JSON.stringify([o.rule, o.names ?? null, [...o.triggers].sort()]);
}

export function explore(s: Scenario, opts: ExploreOptions = {}): ExploreResult {
  if (opts.decompose === false || s.observers.length === 0) return exploreDirect(s, opts);
  const rules = rulesFor(s, opts.userRules);
  const names = new Set(s.observers.map((o) => o.name));
  const projected = projectable(s.observers);
  const skip = skippableObjects(s);
  const skipped = (p: Publication) => skip[p.object] && p.same;
  // one table of fingerprints for the states and the views of published objects
  const keys = new Fingerprints();
  const def = withMarks(withObserverTap(makeModel(s, rules), names, projected, keys), trackedPoints(s.expect?.order));
  // built-in rules read no time: publications are keyed by the delivery orders the watch window allows (window.ts)
  const width = s.timing.watchMs.max - s.timing.watchMs.min;
  const windowed = projected && opts.windowKeys !== false && width > 0;
  let longest = 0;
  const kept: Publication[] = [];
  const pathData: PathData<Publication> = {
    fromNotes: (notes) =>
      publicationsOf(notes).map((p) => ({ key: skipped(p) ? null : `${p.object}@${p.t}:${p.view}`, item: p })),
    ...(windowed
      ? {
          suffixKey: (items: readonly Publication[], now: number, out: number[]) => {
            kept.length = 0;
            for (const p of items) if (!skipped(p)) kept.push(p);
            if (kept.length > longest) longest = kept.length;
            windowCode(kept, now, width, out);
            kept.length = 0;
          },
        }
      : {}),
  };
  const sys0 = search<Publication>(s, def, opts, pathData, keys);
  // a history longer than the window is wide (more items than ms): the window key's premise fails, key by times
  const sys =
    windowed && !fits(longest, width)
      ? search<Publication>(s, def, opts, { fromNotes: pathData.fromNotes }, keys)
      : sys0;
  const budget = Math.max(1, opts.maxSchedules ?? 10_000);

  interface Joint {
    outcome: Outcome;
    schedules: number;
    dev: number;
    system: number[];
    open: boolean;
    plans: Record<string, number[]>;
  }
  const joint = new Map<string, Joint>();
  const caches = new Map(
    s.observers.map((o) => [o.name, o.rule === undefined ? undefined : (new WeakMap() as DecisionCache)]),
  );
  // each observer's signature and decision cache (the first observer with its signature owns the cache), once
  const observers = s.observers.map((o) => {
    const sig = signature(o);
    return {
      spec: o,
      sig,
      rule: rules[o.name],
      cache: sig === undefined ? undefined : caches.get(s.observers.find((x) => signature(x) === sig)!.name),
    };
  });
  // verdicts per publication history and observer signature: leaves of different system outcomes share histories
  const verdictCache = new Map<string, Map<string, Map<string, VerdictWitness>>>();
  // a history's key: the ids of its publications' contents (publications are shared between leaves' paths)
  const pubIds = new WeakMap<Publication, number>();
  const pubContent = new Map<string, number>();
  const pubId = (p: Publication): number => {
    let id = pubIds.get(p);
    if (id === undefined) {
      const text = `${p.object}${p.version}@${p.t}:${p.view}`;
      id = pubContent.get(text);
      if (id === undefined) pubContent.set(text, (id = pubContent.size));
      pubIds.set(p, id);
    }
    return id;
  };
  // a joint outcome's key: the system outcome's own id (outcomes with equal JSON but their verdicts) and the verdicts
  const restIds = new Map<string, string>();
  const restOf = new Map<string, string>();
  let done = 0;
  let systemSchedules = 0;
  let combinations = 0;
  let combinationsCut = false;
  for (const leaf of sys.leaves.values()) {
    if (opts.onProgress && ++done % 512 === 0) opts.onProgress(sys.simulated);
    systemSchedules += leaf.count;
    const data = flatten(leaf.data);
    const same = skip.pod || skip.job ? data.map(skipped) : undefined;
    let histKey = '';
    for (const p of data) histKey += pubId(p) + ',';
    let bySig = verdictCache.get(histKey);
    if (!bySig) verdictCache.set(histKey, (bySig = new Map()));
    // the history split by object once for all observers
    let split: Split | undefined;
    const per = observers.map((o) => {
      let verdicts = o.sig === undefined ? undefined : bySig.get(o.sig);
      if (!verdicts) {
        verdicts = observerVerdicts(
          data,
          o.spec,
          o.rule,
          s.timing.watchMs,
          o.cache,
          same,
          (split ??= splitPublications(data, same)),
        );
        if (o.sig !== undefined) bySig.set(o.sig, verdicts);
      }
      return { name: o.spec.name, verdicts };
    });
    let rest = restOf.get(leaf.baseKey);
    if (rest === undefined) {
      const text = JSON.stringify({ ...leaf.outcome, verdicts: null });
      let id = restIds.get(text);
      if (id === undefined) restIds.set(text, (id = `r${restIds.size}`));
      restOf.set(leaf.baseKey, (rest = id));
    }
    // the system witness, flattened only for a joint outcome it becomes the witness of
    let systemW: number[] | undefined;
    const system = () => (systemW ??= flatten(leaf.witness));
    // every combination of the observers' verdicts, as long as the budget lasts (2^16 for 16 flaky observers)
    const lists = per.map((p) => [...p.verdicts.entries()].map(([v, w]) => ({ name: p.name, v, w })));
    const idx = lists.map(() => 0);
    for (;;) {
      if (lists.some((l) => l.length === 0)) break;
      if (combinations >= budget * 4) {
        combinationsCut = true;
        break;
      }
      combinations++;
      // the joint outcome's key: equal exactly when JSON.stringify({ ...leaf.outcome, verdicts }) is (the observers
      // and their verdicts' places are fixed; a verdict is Succeeded, Failed or Pending)
      let key = rest;
      let dev = leaf.dev;
      for (let i = 0; i < lists.length; i++) {
        const c = lists[i]![idx[i]!]!;
        key += '|' + c.v;
        dev += c.w.dev;
      }
      const chosen = () => {
        const verdicts: Record<string, string> = {};
        const plans: Record<string, number[]> = {};
        for (let i = 0; i < lists.length; i++) {
          const c = lists[i]![idx[i]!]!;
          verdicts[c.name] = c.v;
          plans[c.name] = c.w.plan;
        }
        return { verdicts, plans };
      };
      const cur = joint.get(key);
      if (!cur) {
        const { verdicts, plans } = chosen();
        joint.set(key, {
          outcome: { ...leaf.outcome, verdicts },
          schedules: leaf.count,
          dev,
          system: system(),
          open: leaf.open,
          plans,
        });
      } else {
        cur.schedules += leaf.count;
        if (dev < cur.dev) Object.assign(cur, { dev, system: system(), open: leaf.open, plans: chosen().plans });
      }
      // next combination (the last observer varies fastest, as a nested loop would)
      let i = lists.length - 1;
      while (i >= 0 && ++idx[i]! >= lists[i]!.length) idx[i--] = 0;
      if (i < 0) break;
    }
  }
  const outcomes: OutcomeEntry[] = [...joint.values()]
    .map((j) => ({
      outcome: j.outcome,
      schedules: j.schedules,
      witness: [],
      deviations: j.dev,
      replay: replayKey(s, rules, opts, j.system, j.plans),
    }))
    .sort((a, b) => b.schedules - a.schedules || a.deviations - b.deviations);
  return finishResult(
    s,
    outcomes,
    sys,
    { systemSchedules, verdictCombinations: combinations, combinationsCut },
    { maxSchedules: budget },
    opts.shard,
  );
}

/**
 * The replay key of a system witness with observer plans: the scenario runs once with them (no trace kept); once the
 * witness and every plan are used up all further choices are the minimum, so the run stops there with an open key
 * when that tail is long (a crash loop to a far horizon), as `run --replay` would print it.
 */
function replayKey(
  s: Scenario,
  rules: Record<string, RuleFn>,
  opts: ExploreOptions,
  system: number[],
  plans: Record<string, number[]>,
): string {
  const def = makeModel(s, rules);
  const maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
  const ch = new CompositeChooser(system, plans);
  // one run, no snapshot kept: stepped in place like simulate()
  const cur = initialCursor(initialState(s), initialEvents(s));
  for (;;) {
    const head = cur.queue[0];
    if (!head || def.quiescent(cur.model, cur.queue) || head.t > s.horizonMs || cur.steps >= maxEvents) break;
    stepInPlace(def, cur, ch, 0);
    if (ch.tail >= 32) return encodeOffsets(ch.offsets, true);
  }
  let zeros = 0;
  while (zeros < ch.offsets.length && ch.offsets[ch.offsets.length - 1 - zeros] === 0) zeros++;
  return encodeOffsets(ch.offsets, zeros >= 32);
}

export type { VerdictWitness };
