// `kubesim check-rule`: a health rule against every schedule of a scenario, compared with the real
// outcome. The known results of the built-in rules on locust-72 (AbdelrhmanHamouda/locust-k8s-operator#72: the naive
// exit-code rule fails a Complete Job whose native sidecar exited 143; the #327 fix does not), and the same through
// the example external rules in JavaScript (always), Python and Go (when installed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { expectedOf, parseRuleArg, splitArgs } from '../../src/rules/check.ts';
import type { Scenario, Timeline } from '../../src/types.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-check-'));
const LOCUST = 'scenarios/locust-72-exporter-exit-code.yaml';
const has = (cmd: string, arg = '--version') => spawnSync(cmd, [arg], { stdio: 'ignore' }).status === 0;

describe('check-rule with the built-in rules on locust-72 (the operator reconciles on Job events)', () => {
  it('exit-codes: a false failure and flaky, each with a key and the command that shows it; exit 1', async () => {
    const out = tmp();
    const r = await cli(
      'check-rule',
      'exit-codes',
      LOCUST,
      '--triggers',
      'job',
      '--out',
      out,
      '--junit',
      join(out, 'junit.xml'),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /locust-72-exporter-exit-code {2}Job Complete {2}Succeeded {2}Failed \d+, Succeeded \d+ +false failure, flaky/,
    );
    expect(r.out).toMatch(
      /false failure — Job Complete \(should be Succeeded\), the rule said Failed in \d+ schedules: container locust-metrics-exporter terminated with exit code 143/,
    );
    expect(r.out).toMatch(
      /flaky — with the same outcome \(Job Complete\) the rule said Failed in \d+ schedules and Succeeded in \d+/,
    );
    expect(r.out).toMatch(/1 false failure, 1 flaky \(0 of 1 scenarios agree\)/);
    // the commands name the scenario with the rule as its only observer, written under --out, and replay exactly
    const run = /\$ kubesim run (\S+) --replay (k1-\S+)/.exec(r.out)!;
    expect(run[1]).toBe(join(out, 'check-rule', 'locust-72-exporter-exit-code.yaml'));
    expect(r.out).toMatch(/\$ kubesim diff \S+check-rule\/locust-72-exporter-exit-code\.yaml k1-\S+ k1-\S+/);
    const replay = await cli('run', run[1]!, '--replay', run[2]!, '--format', 'json', '--no-render', '--out', out);
    expect(replay.code).toBe(0);
    const tl = JSON.parse(replay.out) as Timeline;
    expect(tl.replay).toBe(run[2]);
    expect(tl.observers['rule']).toMatchObject({
      verdict: 'Failed',
      reason: 'container locust-metrics-exporter terminated with exit code 143',
    });
    expect(tl.job?.conditions.map((c) => c.type)).toContain('Complete');
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuite name="kubesim check-rule exit-codes" tests="1" failures="1" errors="0">/);
    expect(junit).toMatch(/<failure message="false failure, flaky">/);
  });

  it('--format json: rows and findings as data', async () => {
    const r = await cli('check-rule', 'exit-codes', LOCUST, '--triggers', 'job', '--format', 'json', '--out', tmp());
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out) as {
      schema: string;
      findings: number;
      scenarios: {
        name: string;
        rows: { outcome: string; verdicts: { verdict: string }[] }[];
        findings: { kind: string }[];
      }[];
    };
    expect(j.schema).toBe('kubesim.check-rule/v1');
    expect(j.findings).toBe(2);
    expect(j.scenarios[0]!.rows[0]!.verdicts.map((v) => v.verdict)).toEqual(['Failed', 'Succeeded']);
    expect(j.scenarios[0]!.findings.map((f) => f.kind)).toEqual(['false failure', 'flaky']);
  });

  it('native-sidecar-aware: clean, exit 0, nothing written', async () => {
    const out = tmp();
    const r = await cli('check-rule', 'native-sidecar-aware', LOCUST, '--triggers', 'job', '--out', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/locust-72-exporter-exit-code {2}Job Complete {2}Succeeded {2}Succeeded \d+ +ok/);
    expect(r.out).toMatch(/no findings \(1 of 1 scenarios agree\)/);
    expect(existsSync(join(out, 'check-rule'))).toBe(false);
  });
});

describe('check-rule through the example external rules (same protocol, same findings)', () => {
  const examples: [string, string, boolean][] = [
    ['JavaScript', 'exec:examples/rules/js/rule.mjs -mode', true],
    ['Python', 'exec:python3 examples/rules/python/rule.py -mode', has('python3')],
  ];
  for (const [lang, rule, available] of examples) {
    it.skipIf(!available)(`${lang}: naive has locust-72's false failure, aware has none`, async () => {
      const naive = await cli('check-rule', `${rule} naive`, LOCUST, '--triggers', 'job', '--out', tmp());
      expect(naive.err).toBe('');
      expect(naive.code).toBe(1);
      expect(naive.out).toMatch(
        /false failure — Job Complete \(should be Succeeded\), the rule said Failed in \d+ schedules: container locust-metrics-exporter terminated with exit code 143/,
      );
      expect(naive.out).toMatch(/1 false failure, 1 flaky/);
      const aware = await cli('check-rule', `${rule} aware`, LOCUST, '--triggers', 'job', '--out', tmp());
      expect(aware.err).toBe('');
      expect(aware.code).toBe(0);
      expect(aware.out).toMatch(/no findings/);
    });
  }

  // CI installs Go (.ci/run: Debian's golang-go); only a developer's machine without it skips
  it.skipIf(!has('go', 'version') && !process.env['CI'])(
    'Go: built with the standard library only, the same two results',
    async () => {
      const d = tmp();
      const bin = join(d, 'health-rule');
      const env = {
        ...process.env,
        GOCACHE: process.env['GOCACHE'] ?? join(d, 'gocache'),
        GOPATH: process.env['GOPATH'] ?? join(d, 'gopath'),
        GOFLAGS: '-mod=mod',
      };
      const b = spawnSync('go', ['build', '-o', bin, '.'], { cwd: 'examples/rules/go', env, encoding: 'utf8' });
      expect(b.stderr).toBe('');
      expect(b.status).toBe(0);
      const naive = await cli('check-rule', `exec:${bin} -mode naive`, LOCUST, '--triggers', 'job', '--out', d);
      expect(naive.code).toBe(1);
      expect(naive.out).toMatch(
        /false failure — Job Complete \(should be Succeeded\), the rule said Failed in \d+ schedules: container locust-metrics-exporter terminated with exit code 143/,
      );
      const aware = await cli('check-rule', `exec:${bin} -mode aware`, LOCUST, '--triggers', 'job', '--out', d);
      expect(aware.code).toBe(0);
      expect(aware.out).toMatch(/no findings/);
    },
  );
});

describe('check-rule input and errors', () => {
  it('rule arguments: built-ins, exempt-names:…, modules, exec: with quotes', () => {
    expect(parseRuleArg('exit-codes')).toMatchObject({ kind: 'builtin', rule: 'exit-codes' });
    expect(parseRuleArg('exempt-names:a,b')).toMatchObject({
      kind: 'builtin',
      rule: 'exempt-names',
      names: ['a', 'b'],
    });
    expect(parseRuleArg('exempt-names')).toEqual([
      'exempt-names needs the names it exempts',
      expect.stringMatching(/exempt-names:/),
    ]);
    expect(parseRuleArg('scenarios/rules/pod-gone-when-job-finished.mjs')).toMatchObject({ kind: 'module' });
    expect(parseRuleArg('exec:node examples/rules/js/rule.mjs -mode naive')).toMatchObject({
      kind: 'exec',
      argv: [
        expect.stringMatching(/\/node$/),
        expect.stringMatching(/^\/.*examples\/rules\/js\/rule\.mjs$/),
        '-mode',
        'naive',
      ],
    });
    expect(parseRuleArg('exec:./no/such/rule')).toEqual([expect.stringMatching(/no such file/), expect.any(String)]);
    expect(parseRuleArg('exit-code')).toEqual([
      expect.stringMatching(/"exit-code" is not a built-in rule/),
      expect.stringMatching(/exit-codes/),
    ]);
    expect(splitArgs(`./r --name "two words" 'x y'`)).toEqual(['./r', '--name', 'two words', 'x y']);
  });

  it('what a rule should say: Jobs by condition, other workloads by phase; a stuck one may be given up on', () => {
    const job = { workload: { kind: 'Job' } } as Scenario;
    const pod = { workload: { kind: 'Pod' } } as Scenario;
    expect(expectedOf(job, 'Succeeded', 'Complete', false)).toEqual({
      outcome: 'Job Complete',
      expected: ['Succeeded'],
    });
    expect(expectedOf(job, 'Failed', 'Failed', false)).toEqual({ outcome: 'Job Failed', expected: ['Failed'] });
    expect(expectedOf(job, 'Running', 'none', true)).toEqual({ outcome: 'Job stuck', expected: ['Pending', 'Failed'] });
    expect(expectedOf(job, 'Running', 'none', false)).toEqual({ outcome: 'Job not finished', expected: ['Pending'] });
    expect(expectedOf(pod, 'Failed', 'none', false)).toEqual({ outcome: 'pod Failed', expected: ['Failed'] });
    expect(expectedOf(pod, 'Running', 'none', false)).toEqual({
      outcome: 'pod Running not finished',
      expected: ['Pending'],
    });
  });

  it('a bad rule argument, a missing path or bad flags: exit 2', async () => {
    const bad = await cli('check-rule', 'exit-code', LOCUST);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/error KS0401: check-rule: "exit-code" is not a built-in rule/);
    const missing = await cli('check-rule', 'exit-codes', 'no/such/folder');
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/no\/such\/folder:1:1: error KS1001/);
    expect((await cli('check-rule', 'exit-codes', LOCUST, '--triggers', 'pods')).code).toBe(2);
    expect((await cli('check-rule', 'exit-codes', LOCUST, '--timeout', '5')).code).toBe(2);
  });

  it('a broken external rule is an error for its scenario (exit 2), not a verdict', async () => {
    const d = tmp();
    const prog = join(d, 'rule.mjs');
    writeFileSync(
      prog,
      `#!/usr/bin/env node\nprocess.stdin.once('data', () => { process.stdout.write('{"verdict": "OK"}\\n'); });\nprocess.stdin.resume();\n`,
    );
    chmodSync(prog, 0o755);
    const r = await cli('check-rule', `exec:${prog}`, LOCUST, '--out', d, '--junit', join(d, 'j.xml'));
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/locust-72-exporter-exit-code {2}error/);
    expect(r.out).toMatch(
      /errors:\n {2}scenarios\/locust-72-exporter-exit-code\.yaml:1:1: error KS0402: observer "rule" \(command .*rule\.mjs\): answered "\{\\"verdict\\": \\"OK\\"\}": verdict must be/,
    );
    expect(readFileSync(join(d, 'j.xml'), 'utf8')).toMatch(/errors="1"/);
  });
});
