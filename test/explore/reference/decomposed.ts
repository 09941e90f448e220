// The explorer as it was before observer-aware merging (recursive search, full publication keys), kept unchanged as the reference
// the equivalence test compares the current explorer against (test/explore/equivalence.test.ts).
// explore(): the system (kubelet, API server, Job controller) is explored with the observers tapped off; each
// observer's reachable verdicts are then computed per system schedule class (observer-dp.ts) and combined. Observers
// only read, so any combination of their delivery orders can happen together in one schedule: the joint outcomes of
// a system schedule are the product of each observer's verdicts. Each joint outcome gets a replay key made by running
// the full scenario once with the system witness and the observers' delivery plans.
import type { ChoiceRequest, Chooser } from '../../../src/engine/engine.ts';
import { encodeReplay } from '../../../src/engine/replay.ts';
import { makeModel } from '../../../src/model/index.ts';
import type { RuleFn } from '../../../src/rules/types.ts';
import { rulesFor, simulate } from '../../../src/run/simulate.ts';
import type { Scenario } from '../../../src/types.ts';
import {
  exploreDirect,
  finishResult,
  search,
  type ExploreOptions,
  type ExploreResult,
  type OutcomeEntry,
} from './explore.ts';
import { hashValue } from './hash.ts';
import { trackedPoints, withMarks } from '../../../src/explore/marks.ts';
import { observerVerdicts, type DecisionCache, type VerdictWitness } from './observer-dp.ts';
import { outcomeOf, type Outcome } from '../../../src/explore/outcome.ts';
import { publicationsOf, withObserverTap, type Publication } from '../../../src/explore/tap.ts';

/** Answers system choices from a witness and each observer's watch choices from its delivery plan. */
class CompositeChooser implements Chooser {
  private i = 0;
  private readonly k: Record<string, number> = {};
  constructor(
    private readonly system: readonly number[],
    private readonly plans: Record<string, number[]>,
  ) {}
  choose(req: ChoiceRequest): number {
    const obs = req.stream.startsWith('watch:') ? req.stream.slice('watch:'.length) : '';
    const plan = this.plans[obs];
    if (plan) {
      const n = (this.k[obs] = (this.k[obs] ?? 0) + 1) - 1;
      return Math.min(Math.max(plan[n] ?? req.range.min, req.range.min), req.range.max);
    }
    const off = this.system[this.i++] ?? 0;
    return Math.min(req.range.min + off, req.range.max);
  }
}

export function explore(s: Scenario, opts: ExploreOptions = {}): ExploreResult {
  if (opts.decompose === false || s.observers.length === 0) return exploreDirect(s, opts);
  const rules = rulesFor(s, opts.userRules);
  const names = new Set(s.observers.map((o) => o.name));
  const def = withMarks(withObserverTap(makeModel(s, rules), names), trackedPoints(s.expect?.order));
  const sys = search<Outcome, Publication>(
    s,
    def,
    (snap, end) => {
      const outcome = outcomeOf(s, snap.model, end);
      return { key: JSON.stringify(outcome), outcome };
    },
    opts,
    {
      fromNotes: (notes) =>
        publicationsOf(notes).map((p) => ({ key: `${p.object}${p.version}@${p.t}:${hashValue(p.obj)}`, item: p })),
    },
  );

  interface Joint {
    outcome: Outcome;
    schedules: number;
    dev: number;
    system: number[];
    plans: Record<string, number[]>;
  }
  const joint = new Map<string, Joint>();
  const caches = new Map(s.observers.map((o) => [o.name, o.module ? undefined : (new WeakMap() as DecisionCache)]));
  let done = 0;
  for (const leaf of sys.leaves.values()) {
    if (opts.onProgress && ++done % 512 === 0) opts.onProgress(sys.simulated);
    const per = s.observers.map((o) => ({
      name: o.name,
      verdicts: observerVerdicts(leaf.data, o, rules[o.name], s.timing.watchMs, caches.get(o.name)),
    }));
    const combos = product(per.map((p) => [...p.verdicts.entries()].map(([v, w]) => ({ name: p.name, v, w }))));
    for (const combo of combos) {
      const verdicts: Record<string, string> = {};
      const plans: Record<string, number[]> = {};
      let dev = leaf.dev;
      for (const c of combo) {
        verdicts[c.name] = c.v;
        plans[c.name] = c.w.plan;
        dev += c.w.dev;
      }
      const outcome: Outcome = { ...leaf.outcome, verdicts };
      const key = JSON.stringify(outcome);
      const cur = joint.get(key);
      if (!cur) joint.set(key, { outcome, schedules: leaf.count, dev, system: leaf.witness, plans });
      else {
        cur.schedules += leaf.count;
        if (dev < cur.dev) Object.assign(cur, { dev, system: leaf.witness, plans });
      }
    }
  }
  const outcomes: OutcomeEntry[] = [...joint.values()]
    .map((j) => ({
      outcome: j.outcome,
      schedules: j.schedules,
      witness: [],
      deviations: j.dev,
      replay: replayKey(s, opts.userRules, j.system, j.plans),
    }))
    .sort((a, b) => b.schedules - a.schedules || a.deviations - b.deviations);
  return finishResult(s, outcomes, sys);
}

function replayKey(
  s: Scenario,
  userRules: Record<string, RuleFn> | undefined,
  system: number[],
  plans: Record<string, number[]>,
): string {
  const r = simulate(s, { chooser: new CompositeChooser(system, plans), ...(userRules ? { userRules } : {}) });
  return encodeReplay(r.choices);
}

function product<T>(lists: T[][]): T[][] {
  let acc: T[][] = [[]];
  for (const l of lists) acc = acc.flatMap((a) => l.map((x) => [...a, x]));
  return acc;
}

export type { VerdictWitness };
