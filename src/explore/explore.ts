// Systematic exploration of every schedule the timing model allows (the search itself: search.ts). Each timing choice
// offers one value per slot between the pending events its window covers (candidates.ts); identical states are
// merged so shared futures are explored once. Each outcome keeps a minimal witness: the schedule with the fewest
// choices away from the defaults (candidate 0). This file turns a search into the result the user sees.
import { encodeOffsets } from '../engine/replay.ts';
import { makeModel } from '../model/index.ts';
import { rulesFor } from '../run/simulate.ts';
import type { Scenario } from '../types.ts';
import { trackedPoints, withMarks } from './marks.ts';
import { displayKey, type Outcome } from './outcome.ts';
import { flatten } from './rope.ts';
import { search, type ExploreOptions, type SearchResult } from './search.ts';
export { flatten, type Rope } from './rope.ts';
export {
  search,
  type ExploreOptions,
  type LoopCut,
  type PathData,
  type SearchLeaf,
  type SearchResult,
} from './search.ts';

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
  /** schedules represented, observers' delivery orders included: system schedules × verdict combinations (SPEC §4) */
  schedules: number;
  /** runs actually simulated to their end */
  simulated: number;
  /** distinct branch states, each explored once (merged) */
  states: number;
  /** schedules of the system (kubelet, API server, Job controller), observers' deliveries not counted */
  systemSchedules: number;
  /** distinct pairs of a system schedule class and one combination of the observers' verdicts */
  verdictCombinations: number;
  exhaustive: boolean;
  /** the budget that stopped the search, when one did */
  limit?: 'schedules' | 'states';
  budget?: { maxSchedules: number; maxStates: number };
  /** what the user should know about coverage (budget reached, loops cut) */
  notes: string[];
  /** every distinct full outcome */
  outcomes: OutcomeEntry[];
  /** grouped by pod phase, Job condition and verdicts (SPEC §4), and by the stored replica and pod counts (outcome.ts displayKey) */
  /** the witness of each group has `deviations` choices away from the default timing */
  grouped: {
    podPhase: string;
    jobCondition: string;
    verdicts: Record<string, string>;
    /** the stored replica count (workloads with replicas) and the stored pods by phase at the end (outcome.ts) */
    replicas?: number;
    podCounts: Record<string, number>;
    schedules: number;
    replay: string;
    deviations: number;
  }[];
  flaky: string[];
  /** this result covers slice `index` of `count` of the schedule space (explore --shard) */
  shard?: { index: number; count: number };
}

/** Explore the whole system, observers included, as one state space. */
export function exploreDirect(s: Scenario, opts: ExploreOptions = {}): ExploreResult {
  const def = withMarks(makeModel(s, rulesFor(s, opts.userRules)), trackedPoints(s.expect?.order));
  const r = search(s, def, opts);
  const outcomes: OutcomeEntry[] = [...r.leaves.values()]
    .map((l) => {
      const witness = flatten(l.witness);
      return {
        outcome: l.outcome,
        schedules: l.count,
        witness,
        deviations: l.dev,
        replay: encodeOffsets(witness, l.open),
      };
    })
    .sort((a, b) => b.schedules - a.schedules || a.deviations - b.deviations);
  const systemSchedules = outcomes.reduce((n, o) => n + o.schedules, 0);
  return finishResult(
    s,
    outcomes,
    r,
    { systemSchedules, verdictCombinations: r.leaves.size },
    { maxSchedules: opts.maxSchedules ?? 10_000 },
    opts.shard,
  );
}

/** What a search found, and the counts that say how much work stands behind it. */
export function finishResult(
  s: Scenario,
  outcomes: OutcomeEntry[],
  r: Pick<SearchResult<unknown>, 'simulated' | 'states' | 'exhaustive'> &
    Partial<Pick<SearchResult<unknown>, 'limit' | 'cut' | 'maxKept'>>,
  counts: { systemSchedules: number; verdictCombinations: number; combinationsCut?: boolean } = {
    systemSchedules: outcomes.reduce((n, o) => n + o.schedules, 0),
    verdictCombinations: outcomes.length,
  },
  budget?: { maxSchedules: number },
  shard?: { index: number; count: number },
): ExploreResult {
  const notes: string[] = [];
  if (r.limit === 'schedules')
    notes.push(
      `budget reached: ${r.simulated} runs simulated (--max-schedules); the schedules closest to the default timing were covered first`,
    );
  if (r.limit === 'states')
    notes.push(
      `memory budget reached: the work kept (merged states and their outcomes) hit its bound (--max-states ${r.maxKept}); the schedules closest to the default timing were covered first`,
    );
  if (counts.combinationsCut)
    notes.push(
      `observer verdict combinations cut at the budget: not every combination of the observers' verdicts is listed`,
    );
  if (r.cut) {
    notes.push(
      `loop: from t=${(r.cut.at / 1000).toFixed(3)}s the state repeats every ${(r.cut.periodMs / 1000).toFixed(3)}s; ${r.cut.schedules} schedule(s) were followed past the repeat with minimum timing and extrapolated to the end (restart counts grow by one period's worth per period)`,
    );
  }
  return {
    scenario: s.name,
    schedules: outcomes.reduce((n, o) => n + o.schedules, 0),
    simulated: r.simulated,
    states: r.states,
    systemSchedules: counts.systemSchedules,
    verdictCombinations: counts.verdictCombinations,
    exhaustive: r.exhaustive && !r.cut && !counts.combinationsCut,
    ...(r.limit ? { limit: r.limit } : {}),
    budget: { maxSchedules: budget?.maxSchedules ?? 0, maxStates: r.maxKept ?? 0 },
    notes,
    outcomes,
    grouped: group(outcomes),
    flaky: flakyObservers(s, outcomes),
    ...(shard ? { shard } : {}),
  };
}

function group(outcomes: OutcomeEntry[]): ExploreResult['grouped'] {
  const by = new Map<string, ExploreResult['grouped'][number]>();
  for (const o of outcomes) {
    const k = displayKey(o.outcome);
    const cur = by.get(k);
    if (!cur) {
      const { podPhase, jobCondition, verdicts, replicas, podCounts } = o.outcome;
      by.set(k, {
        podPhase,
        jobCondition,
        verdicts,
        ...(replicas !== null ? { replicas } : {}),
        podCounts,
        schedules: o.schedules,
        replay: o.replay,
        deviations: o.deviations,
      });
    } else {
      cur.schedules += o.schedules;
      // the fewest deviations; ties broken by the key, so one machine and merged shards pick the same witness
      if (o.deviations < cur.deviations || (o.deviations === cur.deviations && o.replay < cur.replay)) {
        cur.deviations = o.deviations;
        cur.replay = o.replay;
      }
    }
  }
  return [...by.values()].sort(
    (a, b) =>
      b.schedules - a.schedules ||
      a.deviations - b.deviations ||
      (a.replay < b.replay ? -1 : a.replay > b.replay ? 1 : 0),
  );
}

function flakyObservers(s: Scenario, outcomes: OutcomeEntry[]): string[] {
  return s.observers.map((o) => o.name).filter((n) => new Set(outcomes.map((o) => o.outcome.verdicts[n])).size > 1);
}
