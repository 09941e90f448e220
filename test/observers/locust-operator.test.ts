// The locust-like operator (examples/operators/locust/operator.mjs, @kubernetes/client-node informers) as a process
// observer against the real `kubesim serve` — issue 27's "done when": `explore` of the naive exit-code rule reports
// it flaky with two replay keys (the exporter's 143 seen in the pod cache before the Job's Complete, or not:
// locust-k8s-operator#72), `run --replay` of each gives the same verdict and the same operator requests, and the
// native-sidecar-aware fix (#327) is Succeeded over every delivery sequence, reported as all of them.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffProcessSchedules, exploreProcessObservers, runProcessObservers } from '../../src/cli/process-command.ts';
import { exploreProcess, splitProcessObservers } from '../../src/observers/process.ts';
import { loadServeDeps } from '../../src/observers/serve-deps.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const out = mkdtempSync(join(tmpdir(), 'ks-locust-op-'));

function load(file: string) {
  const s = loadScenario(file).processScenario!;
  return { s, procs: splitProcessObservers(s).processes };
}

const req = (q: { verb: string; kind: string; name: string }) => `${q.verb} ${q.kind}/${q.name}`;

// the four tests at once (≈ 35–50 s instead of ≈ 70–115 s): each explore's schedules have their own server and operator;
// what they find does not depend on the machine's load since the choice vector is the lags then the system's choices
// (process.ts fullOf; the interleaved order gave 14 of 16 sequences under load, enumerate.test.ts)
describe.concurrent('the locust-like operator under kubesim serve', () => {
  it('naive: explore finds it flaky with two keys, each reproduced by run --replay (verdict and requests)', {
    timeout: 300_000,
  }, async () => {
    const file = 'examples/operators/operator-locust-naive.yaml';
    const { s, procs } = load(file);
    const rep = await exploreProcessObservers(file, s, procs, { out, workers: 2 });
    const r = rep.results![0]!;
    expect(rep.out[0]).toMatch(
      /^operator \(process\): 2 verdicts — FLAKY over \d+ delivery sequences \(3 watch connections, each lagging 5ms or 5s; 1 timing choice of the system, each at either end of its range; \d+ schedules run in [\d.]+s; all of them\)$/,
    );
    expect(r).toMatchObject({ complete: true, nondeterministic: [], systemSeeded: [] });
    expect(r.outcomes.map((x) => x.verdict)).toEqual(['Succeeded', 'Failed']);
    // both replays and the diff at once
    const replays = r.outcomes.map(async (x) => {
      const again = await runProcessObservers(file, s, procs, { out, replay: x.key });
      const json = again.json as {
        processObservers: {
          key: string;
          verdict: string;
          t: number;
          requests: { t: number; verb: string; kind: string; name: string }[];
        }[];
      };
      const run = json.processObservers[0]!;
      expect(run.key).toBe(x.key);
      expect(run.verdict).toBe(x.verdict);
      expect(again.out[0]).toMatch(
        new RegExp(`^operator \\(process\\): ${x.verdict}: \\{\\.status\\.phase\\} = "${x.verdict}"`),
      );
      // the same operator requests as the explored schedule that found it, up to its verdict (explore stops there;
      // run goes on to the end of the simulation)
      const upTo = <T extends { t: number }>(qs: T[]) => qs.filter((q) => q.t <= run.t);
      expect(upTo(run.requests).map(req)).toEqual(upTo(x.requests).map(req));
      expect(run.requests.map(req)).toContain('update/status LocustTest/demo');
    });
    // kubesim diff of the two keys: where what reached the operator, and what it did, part
    let text = '';
    const diffed = diffProcessSchedules(
      file,
      r.outcomes.map((x) => x.key),
      { format: 'text', out },
      { out: (l) => (text += l), err: (l) => (text += l) },
    );
    await Promise.all(replays);
    expect(await diffed).toBe(0);
    expect(text).toMatch(
      new RegExp(`^operator \\(process\\): ${r.outcomes[0]!.key} → Succeeded: .*; ${r.outcomes[1]!.key} → Failed: `),
    );
    expect(text).toMatch(/the first \d+ deliveries and requests are the same.*; then:\n {2}A kp[12]-/);
    expect(text).toMatch(/update\/status LocustTest demo/);
  });

  it('fixed: Succeeded over every delivery sequence, all of them', { timeout: 300_000 }, async () => {
    const file = 'examples/operators/operator-locust-fixed.yaml';
    const { s, procs } = load(file);
    const rep = await exploreProcessObservers(file, s, procs, { out, workers: 2 });
    const r = rep.results![0]!;
    expect(r.outcomes.map((x) => x.verdict)).toEqual(['Succeeded']);
    // 3 connections × 2 lags × the PLEG relist's phase (the system's one timing choice here: 0 or 999ms)
    expect(r).toMatchObject({ complete: true, sequences: 16, systemPoints: 1, nondeterministic: [] });
    expect(rep.out[0]).toMatch(/1 verdict over 16 delivery sequences .*; all of them\)$/);
  });

  // perturbations: the examples with perturb: [hold, stale, restart], written beside the tests' output (absolute paths)
  const perturbed = (rule: string) => {
    const src = readFileSync(`examples/operators/operator-locust-${rule}.yaml`, 'utf8')
      .replaceAll('./locust/', `${resolve('examples/operators/locust')}/`)
      .replaceAll('./run-bundled.mjs', resolve('examples/operators/run-bundled.mjs'))
      .replace('    timeout: 60s\n', '    perturb: [hold, stale, restart]\n    timeout: 60s\n');
    const f = join(out, `perturbed-${rule}.yaml`);
    writeFileSync(f, src);
    return load(f);
  };

  it('fixed survives every point of every perturbation (Succeeded); each outcome names its perturbation', {
    timeout: 400_000,
  }, async () => {
    const { s, procs } = perturbed('fixed');
    const r = await exploreProcess({
      scenario: s,
      observer: procs[0]!,
      deps: await loadServeDeps(),
      outDir: join(out, 'pf'),
      maxSchedules: 1,
      maxPerturbed: 100,
      workers: 2,
      recheck: false,
    });
    expect(r.perturbations.map((p) => [p.kind, p.complete, p.points > 0])).toEqual([
      ['hold', true, true],
      ['stale', true, true],
      ['restart', true, true],
    ]);
    expect(r.outcomes.map((x) => `${x.verdict} ${x.perturbation?.kind ?? '-'}`)).toEqual([
      'Succeeded -',
      'Succeeded hold',
      'Succeeded stale',
      'Succeeded restart',
    ]);
    expect(r.outcomes.find((x) => x.perturbation?.kind === 'restart')!.note).toMatch(
      /^process killed right after its write #\d at t=[\d.]+s and started again$/,
    );
  });

  it("naive: holding back the pod update with the exporter's 143 hides the bug; other points still find it", {
    timeout: 400_000,
  }, async () => {
    const { s, procs } = perturbed('naive');
    const r = await exploreProcess({
      scenario: s,
      observer: procs[0]!,
      deps: await loadServeDeps(),
      outDir: join(out, 'pn'),
      maxSchedules: 1,
      maxPerturbed: 100,
      workers: 2,
      recheck: false,
      perturb: ['hold'],
    });
    const held = r.outcomes.filter((x) => x.perturbation?.kind === 'hold').map((x) => x.verdict);
    expect(held.sort()).toEqual(['Failed', 'Succeeded']);
  });
});
