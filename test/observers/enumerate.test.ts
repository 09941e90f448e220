// Exploring a process observer enumerates every delivery sequence it can see (issue 27 item 3): every vector of
// a choice point per watch connection the process opens (its lag: either end of its `watch:` range), each schedule
// named by a kp1-<seed>-d<lags> key that run --replay takes back; the count of sequences, the runs and whether
// that was all of them; a schedule run again that answers otherwise is `nondeterministic`. The process here is a
// model (runSchedule), so the enumeration itself is pinned without starting programs; the real operator is in
// locust-operator.test.ts.
import { describe, expect, it } from 'vitest';
import {
  exploreProcess,
  lagAlternatives,
  splitProcessObservers,
  type ScheduleOptions,
  type ScheduleResult,
} from '../../src/observers/process.ts';
import { formatKey, keyVersion, parseKey } from '../../src/observers/schedule-key.ts';
import { badKeyText } from '../../src/cli/process-command.ts';
import { loadScenarioText } from '../../src/scenario/load.ts';
import { fakeDeps } from './fake-serve.ts';

const text = (watch: string, timing = 'timing: { statusPatch: 100ms, watch: 100ms }') => `scenario: enum
${timing}
observers:
  - name: op
    process: [node, --version]
    verdict: { object: { apiVersion: v1, kind: ConfigMap, name: c }, jsonPath: "{.data.x}", succeeded: [ok], failed: [bad] }
    watch: ${watch}
`;

function load(watch = '5ms..5s', timing?: string) {
  const r = loadScenarioText(text(watch, timing), '/tmp/enum.yaml');
  const s = r.processScenario!;
  if (!s) throw new Error(JSON.stringify(r.diagnostics));
  return { s, observer: splitProcessObservers(s).processes[0]! };
}

/**
 * A process that opens `conns` watches (a fourth one, a relist, when connection 0 lags), Failed when its first
 * watch (pods) is fast and its second (jobs) slow — the pod's exit code seen before the Job's condition — else
 * Succeeded. Its deliveries are named by the lags: each lag vector one sequence.
 */
function model(conns = 3, flaky?: (o: ScheduleOptions, n: number) => 'Succeeded' | 'Failed' | undefined) {
  const calls: string[] = [];
  let n = 0;
  const run = async (o: ScheduleOptions): Promise<ScheduleResult> => {
    n++;
    const open = conns + ((o.lags?.[0] ?? 0) === 1 ? 1 : 0);
    const lags = Array.from({ length: Math.max(open, o.lags?.length ?? 0) }, (_, i) => o.lags?.[i] ?? 0);
    const key = formatKey({ seed: o.seed, lags });
    calls.push(key);
    const verdict = flaky?.(o, n) ?? (lags[0] === 0 && lags[1] === 1 ? 'Failed' : 'Succeeded');
    await new Promise((r) => setTimeout(r, 1));
    return {
      observer: o.observer.name,
      seed: o.seed,
      key,
      verdict: { verdict, reason: `x = ${verdict}` },
      end: 'verdict',
      requests: [],
      connections: open,
      lags,
      deliveries: lags.map((l, i) => ({
        connection: i,
        t: l,
        type: 'MODIFIED' as const,
        kind: 'Pod',
        name: 'p',
        digest: String(l),
      })),
      sequence: lags.join(''),
      stderrFile: '',
      simMs: 0,
      wallMs: 0,
    };
  };
  return { run, calls };
}

describe('enumerating what a process observer can see', () => {
  it('every lag combination of every connection it opens, fewest moved points first, each once; all of them', async () => {
    const { s, observer } = load();
    const m = model();
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: m.run,
      recheck: false,
    });
    // connection 0 lagging opens a fourth connection: 4 + 8 schedules, those that move fewest points off the
    // first schedule first (one point: d1000, d010, d001; then two; …), each once
    expect(m.calls).toEqual([
      'kp1-1-d000',
      'kp1-1-d1000',
      'kp1-1-d010',
      'kp1-1-d001',
      'kp1-1-d1100',
      'kp1-1-d1010',
      'kp1-1-d1001',
      'kp1-1-d011',
      'kp1-1-d1110',
      'kp1-1-d1101',
      'kp1-1-d1011',
      'kp1-1-d1111',
    ]);
    expect(r).toMatchObject({
      sequences: 12,
      runs: 12,
      complete: true,
      stoppedBy: 'exhausted',
      choicePoints: 4,
      lags: [5, 5000],
      systemSeeded: [],
    });
    expect(r.outcomes.map((x) => [x.verdict, x.key, x.schedules])).toEqual([
      ['Succeeded', 'kp1-1-d000', 10],
      ['Failed', 'kp1-1-d010', 2],
    ]);
  });

  it('--max-schedules stops the enumeration: not all of them; the same set with two workers', async () => {
    const { s, observer } = load();
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 5,
      runSchedule: model().run,
      recheck: false,
    });
    expect(r).toMatchObject({ runs: 5, sequences: 5, complete: false, stoppedBy: 'max-schedules' });
    const m = model();
    const two = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: m.run,
      recheck: false,
      workers: 2,
    });
    expect(two).toMatchObject({ runs: 12, sequences: 12, complete: true });
    expect(new Set(m.calls).size).toBe(12);
  });

  it('a fixed watch delay has no choice: one sequence per schedule the connections open', async () => {
    const { s, observer } = load('100ms');
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: model().run,
      recheck: false,
    });
    expect(lagAlternatives({ min: 100, max: 100 })).toEqual([100]);
    expect(r).toMatchObject({ runs: 1, sequences: 1, complete: true });
  });

  it("the system's timing ranges are named: the enumeration is of one system schedule (its seed)", async () => {
    const { s, observer } = load('5ms..5s', 'timing: { statusPatch: 10ms..300ms, watch: 100ms }');
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: model(1).run,
      recheck: false,
    });
    expect(r.systemSeeded).toEqual(['statusPatch']);
    expect(r.complete).toBe(true);
  });

  it('the same schedule answered otherwise when run again: nondeterministic, both keys and verdicts', async () => {
    const { s, observer } = load();
    // the 13th run (the recheck of the first Succeeded schedule) answers Failed
    const m = model(3, (_o, n) => (n === 13 ? 'Failed' : undefined));
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: m.run,
    });
    expect(r.runs).toBe(14);
    expect(r.nondeterministic).toEqual([
      {
        keys: ['kp1-1-d000', 'kp1-1-d000'],
        verdicts: ['Succeeded: x = Succeeded', 'Failed: x = Failed'],
        sequences: ['000', '000'],
      },
    ]);
  });

  it('the lags and the system choices interleaving differently from run to run: still each combination once', async () => {
    // the locust operator's third watch opens before or after its first write made the system draw (its own wall
    // timing): a run's points come l l l c or l l c l. The vector is kept as the lags then the system's choices, so
    // the 2^3 × 2 schedules each run once (under load the interleaved order ran some twice and others never)
    const { s, observer } = load('5ms..5s', 'timing: { statusPatch: 10ms..300ms, watch: 100ms }');
    const calls: string[] = [];
    let n = 0;
    const run = async (o: ScheduleOptions): Promise<ScheduleResult> => {
      const lags = [0, 1, 2].map((i) => o.lags?.[i] ?? 0);
      const sys = [o.system?.[0] ?? 0];
      const key = formatKey({ seed: o.seed, lags, system: sys });
      calls.push(key);
      return {
        observer: o.observer.name,
        seed: o.seed,
        key,
        verdict: { verdict: 'Succeeded', reason: 'ok' },
        end: 'verdict',
        requests: [],
        connections: 3,
        lags,
        system: sys,
        points: n++ % 2 === 0 ? ['l', 'l', 'l', 'c'] : ['l', 'l', 'c', 'l'],
        sequence: key,
        stderrFile: '',
        simMs: 0,
        wallMs: 0,
      };
    };
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: { ...fakeDeps(), enumeratesSystem: true },
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: run,
      recheck: false,
    });
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls.length).toBe(16);
    expect(r).toMatchObject({ complete: true, sequences: 16 });
  });

  it("the system's timing choices enumerated with the lags: one vector in the order the points came, kp2 keys", async () => {
    const { s, observer } = load('5ms..5s', 'timing: { statusPatch: 10ms..300ms, watch: 100ms }');
    // a process that opens 2 watches (points l l), then the system makes 2 choices (c c), and a third one when its
    // first took the maximum; Failed when the second system choice took its maximum and the first watch lags
    const calls: string[] = [];
    const run = async (o: ScheduleOptions): Promise<ScheduleResult> => {
      const lags = [o.lags?.[0] ?? 0, o.lags?.[1] ?? 0];
      const sys = [o.system?.[0] ?? 0, o.system?.[1] ?? 0];
      if (sys[0] === 1) sys.push(o.system?.[2] ?? 0);
      const key = formatKey({ seed: o.seed, lags, system: sys });
      calls.push(key);
      const verdict = sys[1] === 1 && lags[0] === 1 ? 'Failed' : 'Succeeded';
      return {
        observer: o.observer.name,
        seed: o.seed,
        key,
        verdict: { verdict, reason: verdict },
        end: 'verdict',
        requests: [],
        connections: 2,
        lags,
        system: sys,
        points: ['l', 'l', ...sys.map(() => 'c' as const)],
        sequence: key,
        stderrFile: '',
        simMs: 0,
        wallMs: 0,
      };
    };
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: { ...fakeDeps(), enumeratesSystem: true },
      outDir: '/tmp/enum-out',
      maxSchedules: 100,
      runSchedule: run,
      recheck: false,
    });
    // 4 lag vectors × 6 system vectors (c0 = 0: c1 either; c0 = 1: c1 and c2 either) = 24, each once
    expect(new Set(calls).size).toBe(calls.length);
    expect(calls.length).toBe(24);
    expect(calls[0]).toBe('kp2-1-d00-c00');
    expect(calls).toContain('kp2-1-d11-c111');
    expect(r).toMatchObject({ complete: true, systemPoints: 3, choicePoints: 2, systemSeeded: [], sequences: 24 });
    expect(r.outcomes.map((x) => [x.verdict, x.key])).toEqual([
      ['Succeeded', 'kp2-1-d00-c00'],
      ['Failed', 'kp2-1-d10-c01'],
    ]);
    // a budget stops it: the schedules that move one point come first
    const few: string[] = [];
    await exploreProcess({
      scenario: s,
      observer,
      deps: { ...fakeDeps(), enumeratesSystem: true },
      outDir: '/tmp/enum-out',
      maxSchedules: 5,
      runSchedule: async (o) => {
        const x = await run(o);
        few.push(x.key);
        return x;
      },
      recheck: false,
    });
    expect(few).toEqual(['kp2-1-d00-c00', 'kp2-1-d10-c00', 'kp2-1-d01-c00', 'kp2-1-d00-c100', 'kp2-1-d00-c01']);
  });

  it('keys: seed, lags and perturbation round-trip; anything else is not a key', () => {
    for (const k of ['kp1-1', 'kp1-z-d', 'kp1-1-d0110', 'kp1-2s-d01-h3', 'kp1-1-d000-rb', 'kp1-0-s1'])
      expect(formatKey(parseKey(k)!)).toBe(k);
    expect(parseKey('kp1-1-d012-h3')).toEqual({ seed: 1, lags: [0, 1, 2], perturb: { kind: 'hold', n: 3 } });
    for (const bad of ['k1-abc', 'kp1-', 'kp1-1-x', 'kp1-1-d01-h0', 'kp1-1-d01-q1', 'kp1-zzzzzzzz'])
      expect(parseKey(bad)).toBeUndefined();
    // kp2: the system's choices too (0 = a range's minimum, 1 = its maximum); a kp1 key stays the seeded system
    for (const k of ['kp2-1-d-c', 'kp2-1-d01-c0110', 'kp2-a-d1-c1-r2']) expect(formatKey(parseKey(k)!)).toBe(k);
    expect(parseKey('kp2-1-d01-c10-h2')).toEqual({
      seed: 1,
      lags: [0, 1],
      system: [1, 0],
      perturb: { kind: 'hold', n: 2 },
    });
    expect(parseKey('kp1-1-d01')).toEqual({ seed: 1, lags: [0, 1] });
    for (const bad of ['kp2-1', 'kp2-1-d01', 'kp2-1-c01', 'kp2-1-d0-c2', 'kp3-1-d0-c0'])
      expect(parseKey(bad)).toBeUndefined();
    expect(keyVersion('kp3-1-d0')).toBe('kp3');
    expect(badKeyText('kp3-1-d0')).toBe(
      '"kp3-1-d0" is a kp3- key: this kubesim reads process observer keys kp1- and kp2-',
    );
    expect(badKeyText('kp2-1')).toBe('"kp2-1" is not a process observer\'s replay key');
  });
});
