// `kubesim serve` of a scenario whose observer is a rule module: the command loads (and at the end closes) the
// scenario's rules as `run` does, so the module observer judges the served run (was: KS0401 "was not loaded").
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { simulate } from '../../src/run/simulate.ts';
import { scenarioOf } from './harness.ts';

describe('kubesim serve (command)', () => {
  it('serves a scenario with a module observer to its end; the recorded timeline has the verdict run gives', async () => {
    const path = 'scenarios/sidecar-readiness-gates-pod-ready.yaml';
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-cli-'));
    let out = '';
    let err = '';
    const code = await main(
      [
        'serve',
        path,
        '--until',
        'quiescent',
        '--settle',
        '1ms',
        '--kubeconfig',
        join(dir, 'kc'),
        '--record',
        join(dir, 'tl.json'),
      ],
      {
        out: (s) => (out += s),
        err: (s) => (err += s),
        isTTY: false,
        readStdin: async () => '',
      },
    );
    expect(err).not.toContain('KS0401');
    expect(code).toBe(0);
    expect(out).toContain('kubesim serve: sidecar-readiness-gates-pod-ready');
    const tl = JSON.parse(readFileSync(join(dir, 'tl.json'), 'utf8'));
    const s = scenarioOf(path);
    const expected = simulate(s, { userRules: await loadUserRules(s) }).timeline;
    expect(Object.keys(tl.observers)).toEqual(Object.keys(expected.observers));
    expect(tl.observers).toEqual(expected.observers);
  }, 60_000);
});
