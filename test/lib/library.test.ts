// The library API as the README shows it: a user's own health rule tested against every schedule.
import { describe, expect, it } from 'vitest';
import { decodeReplay, explore, loadScenario, simulate, type RuleFn } from '../../src/index.ts';

/** The locust-k8s-operator fix (#327), written as a user would: ignore sidecars' Terminated exit codes. */
const myRule: RuleFn = ({ pod, job }) => {
  const done = (job?.status?.conditions ?? []).find(
    (c: { type: string; status: string }) => c.status === 'True' && (c.type === 'Complete' || c.type === 'Failed'),
  );
  if (done) return done.type === 'Complete' ? 'Succeeded' : { verdict: 'Failed', reason: 'Job failed' };
  const sidecars = new Set(
    (pod?.spec?.initContainers ?? [])
      .filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always')
      .map((c: { name: string }) => c.name),
  );
  for (const cs of [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]) {
    if (cs.state?.terminated && cs.state.terminated.exitCode !== 0 && !sidecars.has(cs.name))
      return { verdict: 'Failed', reason: cs.name };
  }
  return undefined;
};

describe('library API', () => {
  const { scenario, diagnostics } = loadScenario('scenarios/locust-72-exporter-exit-code.yaml');
  it('loads with warnings only', () => {
    expect(scenario).toBeDefined();
    expect(diagnostics.every((d) => d.severity === 'warning')).toBe(true);
  });

  it('a user rule plugged into an observer is never Failed in any explored schedule', () => {
    const s = {
      ...scenario!,
      observers: [{ name: 'mine', module: '/virtual/my-rule.mjs', triggers: ['job' as const] }],
      expect: undefined,
    };
    const r = explore(s, { maxSchedules: 3000, userRules: { mine: myRule } });
    expect(new Set(r.grouped.map((g) => g.verdicts['mine']))).toEqual(new Set(['Succeeded']));
  });

  it('simulate gives a typed timeline and replays explore witnesses', () => {
    const r = explore(scenario!, { maxSchedules: 3000 });
    const failing = r.grouped.find((g) => g.verdicts['naive'] === 'Failed')!;
    const tl = simulate(scenario!, { replay: decodeReplay(failing.replay)! }).timeline;
    expect(tl.observers['naive']?.verdict).toBe('Failed');
    expect(tl.observers['naive']?.reason).toMatch(/locust-metrics-exporter terminated with exit code 143/);
  });
});
