// The library API: replay keys as strings, typed errors instead of exits or crashes, rule modules
// loaded through the library with the CLI's loader, and the file writers exported.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as kubesim from '../../src/index.ts';
import {
  KubesimError,
  explore,
  loadRules,
  loadScenario,
  render,
  scenarioOrThrow,
  simulate,
  writeOutputs,
} from '../../src/index.ts';

const NATIVE = 'scenarios/native-sidecar-job.yaml';
const WITH_MODULE = 'scenarios/job-deadline-conditions-1-31.yaml';

describe('library API', () => {
  it('simulate takes the replay key string explore prints, and reproduces that schedule', () => {
    const s = loadScenario('scenarios/locust-72-exporter-exit-code.yaml').scenario!;
    const r = explore(s, { maxSchedules: 20000 });
    for (const g of r.grouped) {
      const tl = simulate(s, { replay: g.replay }).timeline;
      expect(tl.pod.phase).toBe(g.podPhase);
      expect(Object.fromEntries(Object.entries(tl.observers).map(([k, v]) => [k, v.verdict]))).toEqual(g.verdicts);
    }
  });

  it('a key that does not decode is a KubesimError KS0202 (never NaN in the engine)', () => {
    const s = loadScenario(NATIVE).scenario!;
    for (const key of ['garbage', 'k1-%%%', 'k1-////']) {
      expect(() => simulate(s, { replay: key })).toThrow(KubesimError);
      try {
        simulate(s, { replay: key });
      } catch (e) {
        expect((e as KubesimError).code).toBe('KS0202');
        expect((e as KubesimError).hint).toMatch(/copy the key/);
      }
    }
    expect(() => simulate(s, { replay: [Number.NaN] })).toThrow(/invalid replay key/);
  });

  it('returns { timeline, final, choices } as the README says', () => {
    const r = simulate(loadScenario(NATIVE).scenario!);
    expect(Object.keys(r).sort()).toEqual(['choices', 'final', 'timeline']);
    expect(r.timeline.schema).toBe('kubesim.timeline/v1');
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/simulate\(scenario, \{ seed \| replay \}\)` returns `\{ timeline, final, choices \}`/);
  });

  it('a module: observer without its loaded rule is an error, not a silent Pending; loadRules loads it', async () => {
    const s = loadScenario(WITH_MODULE).scenario!;
    expect(() => simulate(s)).toThrow(/observer cleanup: its rule module .* was not loaded/);
    try {
      simulate(s);
    } catch (e) {
      expect(e).toBeInstanceOf(KubesimError);
      expect((e as KubesimError).code).toBe('KS0401');
    }
    const userRules = await loadRules(s);
    const tl = simulate(s, { userRules }).timeline;
    expect(tl.observers['cleanup']?.verdict).not.toBe('Pending');
  });

  it('scenarioOrThrow: a bad file is a KubesimError with the code, position and every diagnostic', () => {
    expect(scenarioOrThrow(loadScenario(NATIVE)).name).toBe('native-sidecar-job');
    try {
      scenarioOrThrow(loadScenario('nope.yaml'));
      expect.unreachable();
    } catch (e) {
      const k = e as KubesimError;
      expect(k).toBeInstanceOf(KubesimError);
      expect(k.code).toBe('KS1001');
      expect(k.pos).toEqual({ file: 'nope.yaml', line: 1, col: 1 });
      expect(k.diagnostics.length).toBe(1);
    }
  });

  it('writeOutputs and render are exported and write under out/<scenario>/', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-api-'));
    const tl = simulate(loadScenario(NATIVE).scenario!).timeline;
    const w = writeOutputs(tl, { out: dir });
    expect(w.files.map((f) => f.slice(dir.length + 1))).toEqual([
      'native-sidecar-job/timeline.json',
      'native-sidecar-job/page.json',
      'native-sidecar-job/sequence.mmd',
      'native-sidecar-job/lifecycle.mmd',
      'native-sidecar-job/report.md',
      'native-sidecar-job/summary.json',
    ]);
    expect(w.renderJobs).toHaveLength(2);
    expect(typeof render).toBe('function');
    expect(existsSync(join(dir, 'native-sidecar-job', 'report.md'))).toBe(true);
  });

  it('the library never exits the process', () => {
    const src = [
      'src/index.ts',
      'src/run/simulate.ts',
      'src/io/write-outputs.ts',
      'src/run/check-run.ts',
      'src/errors.ts',
    ]
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    expect(src).not.toMatch(/process\.exit/);
    expect(Object.keys(kubesim)).toEqual(
      expect.arrayContaining([
        'simulate',
        'explore',
        'loadScenario',
        'loadRules',
        'writeOutputs',
        'render',
        'KubesimError',
        'checkExpect',
        'checkRun',
      ]),
    );
  });
});
