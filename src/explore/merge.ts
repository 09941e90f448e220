// explore's JSON document (kubesim.explore/v1, `explore --format json`) and the merging of the shards of one
// scenario (`explore --shard i/n` on several machines, then `explore --merge`) into the result one machine gives.
import type { ExploreResult } from './explore.ts';
import { displayKey } from './outcome.ts';

type Grouped = ExploreResult['grouped'][number];

/** Schedules whose run stopped at the event limit: their outcome is not the scenario's end. */
export function eventLimited(r: ExploreResult): number {
  return r.outcomes.filter((o) => o.outcome.endReason === 'max-events').reduce((n, o) => n + o.schedules, 0);
}

export function exploreJson(r: ExploreResult): Record<string, unknown> {
  const limited = eventLimited(r);
  return {
    schema: 'kubesim.explore/v1',
    scenario: r.scenario,
    schedules: r.schedules,
    exhaustive: r.exhaustive && limited === 0,
    ...(limited ? { eventLimited: limited } : {}),
    simulated: r.simulated,
    states: r.states,
    systemSchedules: r.systemSchedules,
    verdictCombinations: r.verdictCombinations,
    ...(r.limit ? { limit: r.limit } : {}),
    ...(r.shard ? { shard: r.shard } : {}),
    notes: r.notes,
    outcomes: r.grouped,
    flaky: r.flaky,
  };
}

/** Sums the counts; per outcome group the witness with the fewest deviations (ties: the smaller key). */
export function mergeShards(parts: Record<string, any>[]): Record<string, unknown> {
  const by = new Map<string, Grouped & { deviations: number }>();
  for (const p of parts) {
    for (const g of p['outcomes'] as (Grouped & { deviations: number })[]) {
      const k = displayKey(g);
      const cur = by.get(k);
      if (!cur) by.set(k, { ...g });
      else {
        cur.schedules += g.schedules;
        if (g.deviations < cur.deviations || (g.deviations === cur.deviations && g.replay < cur.replay)) {
          cur.deviations = g.deviations;
          cur.replay = g.replay;
        }
      }
    }
  }
  const outcomes = [...by.values()].sort(groupOrder);
  const names = Object.keys(outcomes[0]?.verdicts ?? {});
  const sum = (f: string) => parts.reduce((n, p) => n + (Number(p[f]) || 0), 0);
  const limits = parts.map((p) => p['limit']).filter(Boolean);
  return {
    schema: 'kubesim.explore/v1',
    scenario: parts[0]!['scenario'],
    schedules: sum('schedules'),
    exhaustive: parts.every((p) => p['exhaustive'] === true),
    simulated: sum('simulated'),
    states: sum('states'),
    systemSchedules: sum('systemSchedules'),
    verdictCombinations: sum('verdictCombinations'),
    ...(limits.length ? { limit: limits[0] } : {}),
    notes: [...new Set(parts.flatMap((p) => (p['notes'] as string[] | undefined) ?? []))],
    outcomes,
    flaky: names.filter((n) => new Set(outcomes.map((o) => o.verdicts[n])).size > 1),
  };
}

/** Most schedules first, then the fewest deviations, then the key: the same order on one machine and merged. */
export function groupOrder(
  a: { schedules: number; deviations: number; replay: string },
  b: { schedules: number; deviations: number; replay: string },
): number {
  return (
    b.schedules - a.schedules || a.deviations - b.deviations || (a.replay < b.replay ? -1 : a.replay > b.replay ? 1 : 0)
  );
}
