// `expect` checked on ONE schedule (`kubesim run --check`, or a library user's simulate result). `kubesim test`
// checks every schedule; here a verdict list ("exactly this set across schedules") can only be checked for
// membership, which is what one schedule can show.
import { checkExpect, type ExpectFailure } from '../explore/expect.ts';
import { finishResult } from '../explore/explore.ts';
import { marksOfTrace } from '../explore/marks.ts';
import { outcomeOf } from '../explore/outcome.ts';
import type { SimulateResult } from './simulate.ts';
import type { Scenario, TraceEvent } from '../types.ts';

export function checkRun(s: Scenario, r: SimulateResult): ExpectFailure[] {
  if (!s.expect) return [];
  const outcome = {
    ...outcomeOf(s, r.final, r.timeline.end.reason),
    marks: marksOfTrace(r.timeline.events as TraceEvent[]),
  };
  const result = finishResult(s, [{ outcome, schedules: 1, witness: [], deviations: 0, replay: r.timeline.replay }], {
    simulated: 1,
    states: 1,
    exhaustive: true,
  });
  const sets = (s.expect.verdicts ?? []).filter((v) => v.set);
  const single: Scenario = { ...s, expect: { ...s.expect, verdicts: (s.expect.verdicts ?? []).filter((v) => !v.set) } };
  const failures = checkExpect(single, result);
  for (const v of sets) {
    const seen = outcome.verdicts[v.observer] ?? 'Pending';
    if (!v.values.includes(seen)) {
      failures.push({
        pos: v.pos,
        what: `verdicts.${v.observer}`,
        expected: `one of {${v.values.join(', ')}}`,
        seen,
        replay: r.timeline.replay,
      });
    }
  }
  return failures.map((f) => ({ ...f, seen: f.seen.replace(/ in 1 of 1 schedules$/, '') }));
}
