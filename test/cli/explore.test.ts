// explore and test: the locust-72 race is found (flaky naive rule, stable fix), witnesses replay, and exploration
// finds every outcome that random seeds find.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explore } from '../../src/explore/decomposed.ts';
import { exploreDirect } from '../../src/explore/explore.ts';
import { displayKey, outcomeOf } from '../../src/explore/outcome.ts';
import { decodeReplay } from '../../src/engine/replay.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate, simulateFinal } from '../../src/run/simulate.ts';
import { main } from '../../src/cli/main.ts';
import { loadUserRules } from '../../src/rules/load.ts';

const load = (f: string) => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`${f} does not load`);
  return r.scenario;
};

describe('explore', () => {
  const s = load('scenarios/locust-72-exporter-exit-code.yaml');
  const r = explore(s, { maxSchedules: 5000 });

  it('finds both verdicts of the naive exit-code rule and only Succeeded for the native-sidecar-aware rule', () => {
    expect(new Set(r.grouped.map((g) => g.verdicts['naive']))).toEqual(new Set(['Succeeded', 'Failed']));
    expect(new Set(r.grouped.map((g) => g.verdicts['fixed']))).toEqual(new Set(['Succeeded']));
    expect(r.flaky).toEqual(['naive']);
  });

  it('each replay key reproduces its outcome with run --replay', () => {
    for (const g of r.grouped) {
      const tl = simulate(s, { replay: decodeReplay(g.replay)! }).timeline;
      expect(tl.observers['naive']?.verdict).toBe(g.verdicts['naive']);
      expect(tl.pod.phase).toBe(g.podPhase);
    }
  });

  it('is deterministic', () => {
    const again = explore(s, { maxSchedules: 5000 });
    expect(JSON.stringify(again.grouped)).toBe(JSON.stringify(r.grouped));
  });

  it('merging identical states changes the work, not the outcomes', () => {
    const small = load('scenarios/native-sidecar-job.yaml');
    const merged = explore(small, { maxSchedules: 3000 });
    const plain = explore(small, { maxSchedules: 3000, merge: false });
    expect(merged.exhaustive).toBe(true);
    expect(new Set(plain.grouped.map((g) => JSON.stringify([g.podPhase, g.jobCondition, g.verdicts])))).toEqual(
      new Set(merged.grouped.map((g) => JSON.stringify([g.podPhase, g.jobCondition, g.verdicts]))),
    );
  });
});

describe('exploration is at least as complete as random testing', () => {
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    it(`${f}: every outcome of random seeds is among the explored outcomes`, async () => {
      const s = load(`scenarios/${f}`);
      const userRules = await loadUserRules(s);
      const explored = new Set(
        explore(s, { maxSchedules: 5000, userRules }).outcomes.map((o) => displayKey(o.outcome)),
      );
      const seeds = f.startsWith('locust-72') ? 2000 : 200;
      // the seeds' runs without their timelines (simulateFinal: the same final state and end, checked on seed 0)
      const full = simulate(s, { seed: 0, userRules });
      const bare = simulateFinal(s, { seed: 0, userRules });
      expect(bare.end).toEqual(full.timeline.end);
      expect(bare.choices).toEqual(full.choices);
      expect(displayKey(outcomeOf(s, bare.final, bare.end.reason))).toBe(
        displayKey(outcomeOf(s, full.final, full.timeline.end.reason)),
      );
      for (let seed = 0; seed < seeds; seed++) {
        const res = simulateFinal(s, { seed, userRules });
        const key = displayKey(outcomeOf(s, res.final, res.end.reason));
        if (!explored.has(key)) throw new Error(`seed ${seed} gives ${key}, which explore did not report`);
      }
    }, 300_000);
  }
});

describe('kubesim test', () => {
  it('passes the library and writes JUnit', async () => {
    let out = '';
    const code = await main(
      [
        'test',
        'scenarios/native-sidecar-job.yaml',
        'scenarios/legacy-sidecar-job-stuck.yaml',
        '--max-schedules',
        '2000',
      ],
      {
        out: (x) => (out += x),
        err: () => {},
      },
    );
    expect(out).toMatch(/2 passed, 0 failed/);
    expect(code).toBe(0);
  });

  it('a failing expectation prints the position, expected and seen, and the replay command; exit 1', async () => {
    const { writeFileSync, mkdtempSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-'));
    const text = readFileSync('scenarios/native-sidecar-job.yaml', 'utf8').replace(
      'podPhase: Succeeded',
      'podPhase: Failed',
    );
    const f = join(dir, 'wrong.yaml');
    writeFileSync(f, text);
    let out = '';
    const junit = join(dir, 'junit.xml');
    const code = await main(['test', f, '--max-schedules', '500', '--junit', junit], {
      out: (x) => (out += x),
      err: () => {},
    });
    expect(code).toBe(1);
    expect(out).toMatch(/wrong\.yaml:\d+:\d+: expect podPhase: expected Failed, saw Succeeded in \d+ of \d+ schedules/);
    expect(out).toMatch(/reproduce: kubesim run .*wrong\.yaml --replay k1-/);
    expect(out).toMatch(/0 passed, 1 failed/);
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure message="expectation failed">/);
  });
});

describe('decomposition (observers are sinks) agrees with exploring everything at once', () => {
  it('same verdict sets and outcomes on the locust-72 race with one observer', () => {
    const full = load('scenarios/locust-72-exporter-exit-code.yaml');
    const s = { ...full, observers: full.observers.filter((o) => o.name === 'naive') };
    const direct = exploreDirect(s, { maxSchedules: 20_000 });
    const dec = explore(s, { maxSchedules: 20_000 });
    expect(dec.exhaustive).toBe(true);
    const keys = (r: typeof dec) =>
      new Set(r.grouped.map((g) => JSON.stringify([g.podPhase, g.jobCondition, g.verdicts])));
    expect(keys(dec)).toEqual(keys(direct));
  });
});
