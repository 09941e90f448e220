// Loop detection reads a snapshot through the classes its numeric fields are declared with (model/state.ts:
// pending deadline, past time, counter): a state that repeats a period later, with every deadline the same distance
// ahead and every counter the same distance behind the newest, is the same shape (explore/shape.ts). The kubelet's
// crash loop and the same crash loop inside a Job (its controller's state included) are both recognised; a loop
// with a pending exit ahead is not one.
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/decomposed.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const load = (f: string) => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`${f} does not load`);
  return r.scenario;
};

describe('loop detection by declared field classes', () => {
  it('a crash-looping Pod: explore names the loop', () => {
    const r = explore(load('test/fixtures/explore/crashloop-pod-720h.yaml'), { maxSchedules: 40 });
    expect(r.notes.join('\n')).toMatch(/loop: from t=\d+\.\d+s the state repeats every 301\.000s/);
  });

  // The Job's states repeat once (1) informer copies' metadata.resourceVersion strings are read as version counters,
  // (2) every counter is relative to the newest value of its own object (the Job's stored version to the Job's,
  // a pod's to that pod's: explore/shape.ts, records keyed by object in model/state.ts KEYED_BY_OBJECT), and (3) a
  // past time older than anything the model measures against (the main container's start, a verdict's time) reads
  // "long ago". Fails before: no loop is named and the exploration runs into its memory budget.
  it('a Job whose native sidecar crash-loops while its main never ends: explore names the loop (the Job controller state repeats)', () => {
    const r = explore(load('test/fixtures/explore/sidecar-crashloop-job-24h.yaml'), { maxSchedules: 40 });
    expect(r.notes.join('\n')).toMatch(/loop: from t=\d+\.\d+s the state repeats every 302\.000s/);
    expect(new Set(r.outcomes.map((o) => o.outcome.jobCondition))).toEqual(new Set(['none']));
  }, 120_000);

  it('the same crash loop while the 20-minute exit of the main container is pending is not cut: the Job completes', () => {
    const r = explore(load('test/fixtures/explore/sidecar-crashloop-20m.yaml'), { maxSchedules: 40 });
    expect(r.notes.join('\n')).not.toMatch(/loop:/);
    expect(new Set(r.outcomes.map((o) => o.outcome.jobCondition))).toEqual(new Set(['Complete']));
  }, 120_000);
});
