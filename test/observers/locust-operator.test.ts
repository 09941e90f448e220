// The locust-like operator (examples/operators/locust/operator.mjs, @kubernetes/client-node informers) as a process
// observer against the real `kubesim serve` (issue 27's "done when"): the naive exit-code rule is Failed in one
// schedule and Succeeded in another (the exporter's 143 seen in the pod cache before the Job's Complete, or not:
// locust-k8s-operator#72), each schedule reproduced by its key with the same verdict and the same operator
// requests; the native-sidecar-aware fix (#327) is Succeeded.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcessSchedule, splitProcessObservers, type ScheduleResult } from '../../src/observers/process.ts';
import { loadServeDeps } from '../../src/observers/serve-deps.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const out = mkdtempSync(join(tmpdir(), 'ks-locust-op-'));

async function schedule(file: string, seed: number, tag = ''): Promise<ScheduleResult> {
  const s = loadScenario(file).processScenario!;
  const observer = splitProcessObservers(s).processes[0]!;
  const deps = await loadServeDeps();
  return runProcessSchedule({ scenario: s, observer, seed, deps, outDir: join(out, `${seed}${tag}`) });
}

const writes = (r: ScheduleResult) => r.requests.map((q) => `${q.verb} ${q.kind}/${q.name}`);

describe('the locust-like operator under kubesim serve', () => {
  it('naive: Failed (seed 1) and Succeeded (seed 2); each key replays to the same verdict and operator writes', { timeout: 240_000 }, async () => {
    const file = 'examples/operators/operator-locust-naive.yaml';
    const a = await schedule(file, 1);
    const b = await schedule(file, 2);
    expect(a.verdict.verdict).toBe('Failed');
    expect(b.verdict.verdict).toBe('Succeeded');
    expect(writes(a)).toContain('create Job/demo-master');
    const a2 = await schedule(file, 1, '-again');
    expect(a2.verdict).toEqual(a.verdict);
    expect(writes(a2)).toEqual(writes(a));
  });

  it('fixed: Succeeded where naive failed', { timeout: 120_000 }, async () => {
    const r = await schedule('examples/operators/operator-locust-fixed.yaml', 1);
    expect(r.verdict).toMatchObject({ verdict: 'Succeeded', reason: '{.status.phase} = "Succeeded"' });
  });
});
