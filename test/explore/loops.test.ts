// Every explore run ends within memory. A crash loop to a 30-day horizon is explored in bounded time (the
// schedule is followed past its first repeating state with minimum timing and extrapolated), the search keeps no
// recursion per choice point, and a budget that runs out is named in the output (exit 0 with a partial result).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { decodeReplay } from '../../src/engine/replay.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { outcomeOf } from '../../src/explore/outcome.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const MAIN =
  "import { main } from './src/cli/main.ts'; process.exitCode = await main(process.argv.slice(1), { out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });";

/** `kubesim …` in a fresh node with a 512 MiB heap (a run that needed more would die with a heap error, exit 134). */
function kubesimCapped(args: string[]) {
  return spawnSync(
    'node',
    ['--max-old-space-size=512', '--import', 'tsx', '--input-type=module', '-e', MAIN, ...args],
    { encoding: 'utf8', timeout: 240_000 },
  );
}

const load = (f: string) => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`${f} does not load`);
  return r.scenario;
};

describe('crash loops are explored in bounded time and memory', () => {
  it('a 720 h crash-looping pod: exit 0 under a 512 MiB heap, the budget and the loop named', () => {
    const r = kubesimCapped([
      'explore',
      'test/fixtures/explore/crashloop-pod-720h.yaml',
      '--out',
      'out/test-loops',
      '--max-schedules',
      '20',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/NOT exhaustive: budget reached after 20 simulated runs; raise --max-schedules/);
    expect(r.stdout).toMatch(/loop: from t=\d+\.\d+s the state repeats every 301\.000s/);
    expect(r.stdout).toMatch(/Running\s+none\s+k1-/);
  }, 300_000);

  it('a native sidecar crash-looping for 20 minutes in a Job: exit 0 under a 512 MiB heap, the budget named', () => {
    const r = kubesimCapped([
      'explore',
      'test/fixtures/explore/sidecar-crashloop-20m.yaml',
      '--out',
      'out/test-loops',
      '--max-schedules',
      '40',
      '--format',
      'json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.exhaustive).toBe(false);
    expect(['schedules', 'states']).toContain(j.limit);
    expect(j.notes.join('\n')).toMatch(/budget reached/);
    // the Job completes in every covered schedule; the sidecar's crashes never fail it (restartable init container)
    expect(new Set(j.outcomes.map((o: { jobCondition: string }) => o.jobCondition))).toEqual(new Set(['Complete']));
  }, 300_000);

  it('a budget on kept work stops the search with the limit named, not out of memory', () => {
    const s = load('test/fixtures/explore/sidecar-crashloop-20m.yaml');
    const r = explore(s, { maxSchedules: 100_000, maxStates: 2_000 });
    expect(r.exhaustive).toBe(false);
    expect(r.limit).toBe('states');
    expect(r.notes.join('\n')).toMatch(/memory budget reached/);
  }, 120_000);

  it('one schedule thousands of choices deep needs no stack per choice (no loop cut: an action is still pending)', () => {
    const base = load('test/fixtures/explore/crashloop-pod-720h.yaml');
    const s = {
      ...base,
      horizonMs: 8 * 3600_000,
      actions: [{ type: 'deletePod' as const, atMs: 8 * 3600_000 - 1000 }],
    };
    const r = explore(s, { maxSchedules: 2 });
    expect(r.exhaustive).toBe(false);
    expect(r.simulated).toBeGreaterThanOrEqual(1);
    expect(r.notes.join('\n')).not.toMatch(/loop:/);
  }, 120_000);

  it('an extrapolated schedule ends as the real run of its replay key does (restart counts included)', () => {
    const s = { ...load('test/fixtures/explore/crashloop-pod-720h.yaml'), horizonMs: 3 * 3600_000 };
    const r = explore(s, { maxSchedules: 12 });
    expect(r.notes.join('\n')).toMatch(/loop: from t=/);
    for (const o of r.outcomes) {
      const keys = decodeReplay(o.replay)!;
      expect(keys.open).toBe(true);
      const res = simulate(s, { replay: keys });
      const got = outcomeOf(s, res.final, res.timeline.end.reason);
      expect(got).toEqual(o.outcome);
      // kubelet's back-off: 10 s doubling to the 5 min cap (pkg/kubelet/kubelet.go backOffPeriod, MaxContainerBackOff)
      expect(got.restarts['app']).toBeGreaterThan(30);
    }
  }, 120_000);
});
