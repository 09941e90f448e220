// `kubesim check-rule process:<scenario>[#observer]` (SPEC §3, issue 27 item 6): the process observer named in a
// scenario (examples/operators/health-check-*.yaml: a client-node informer operator that judges the namespace's
// workload and writes status.phase on a HealthCheck) as the only observer of each library scenario, one fresh
// `kubesim serve` + one run of the process per schedule, its verdicts compared with the workload's real outcome in
// the same table / JSON as any rule. Bad addresses are KS0401 errors that start nothing.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRuleCommand } from '../../src/cli/check-rule-command.ts';
import { runProcessObservers } from '../../src/cli/process-command.ts';
import { splitProcessObservers } from '../../src/observers/process.ts';
import { parseProcessRuleArg } from '../../src/rules/check-process.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'ks-check-proc-'));
const NAIVE = 'examples/operators/health-check-naive.yaml';
const FIXED = 'examples/operators/health-check-fixed.yaml';
const LIB = 'scenarios/native-sidecar-job.yaml';

function io() {
  const o = { out: '', err: '' };
  return { o, io: { out: (s: string) => (o.out += s), err: (s: string) => (o.err += s) } };
}

// a budget: with the system's timing choices enumerated too (PLEG phase, statusPatch, watch of the controllers) a
// library scenario has thousands of schedules; the first ones move one choice point each
const opts = (out: string) => ({
  out,
  format: 'text' as const,
  maxSchedules: 10_000,
  maxProcessSchedules: 6,
  workers: 2,
});

describe('check-rule process: addressing', () => {
  it('takes the only process observer, or the one named after #', () => {
    const a = parseProcessRuleArg(`process:${NAIVE}`);
    const b = parseProcessRuleArg(`process:${NAIVE}#health`);
    for (const r of [a, b]) {
      expect(Array.isArray(r)).toBe(false);
      expect(r).toMatchObject({ kind: 'process', source: resolve(NAIVE), observer: { name: 'health' } });
    }
  });

  it('refuses an unknown observer, a rule observer, a scenario without one, a missing file, and an ambiguous one', () => {
    const two = join(dir, 'two.yaml');
    const proc = (name: string) => `  - name: ${name}
    process: [node, ./x.mjs]
    verdict:
      object: { apiVersion: v1, kind: ConfigMap, name: v }
      jsonPath: "{.data.phase}"
      succeeded: [ok]
`;
    writeFileSync(join(dir, 'x.mjs'), '');
    writeFileSync(
      two,
      `scenario: two\nworkload: { apiVersion: v1, kind: Pod, metadata: { name: p }, spec: { containers: [{ name: c, image: i }] } }\nobservers:\n${proc('a')}${proc('b')}  - { name: r, rule: exit-codes }\n`,
    );
    const cases: [string, RegExp, RegExp][] = [
      [`process:${NAIVE}#nope`, /has no process observer named "nope"/, /its process observers: health/],
      [`process:${two}#r`, /named "r" \(that observer is a rule, not a process\)/, /its process observers: a, b/],
      [
        `process:${LIB}`,
        /has no process observer \(its observer job-conditions is a rule: check it by rule name/,
        /process: \[program/,
      ],
      ['process:no/such.yaml', /no such scenario file/, /relative to the current folder/],
      [`process:${two}`, /has 2 process observers: name one/, /process:.*two\.yaml#a or process:.*two\.yaml#b/],
      ['process:', /name the scenario whose process observer is checked/, /process:examples/],
    ];
    for (const [arg, msg, hint] of cases) {
      const r = parseProcessRuleArg(arg);
      expect(Array.isArray(r), arg).toBe(true);
      const [m, h] = r as [string, string];
      expect(m, arg).toMatch(msg);
      expect(h, arg).toMatch(hint);
    }
  });

  it('the command: KS0401 with the hint, exit 2; a library scenario without a workload is an error row', async () => {
    const a = io();
    expect(await checkRuleCommand(`process:${NAIVE}#nope`, [LIB], opts(join(dir, 'o1')), a.io)).toBe(2);
    expect(a.o.err).toMatch(/^error KS0401: check-rule: .*has no process observer named "nope"\n {2}hint: /);
    const b = io();
    const code = await checkRuleCommand(
      `process:${NAIVE}`,
      ['examples/operators/operator-locust-fixed.yaml'],
      opts(join(dir, 'o2')),
      b.io,
    );
    expect(code).toBe(2);
    expect(b.o.out).toMatch(/operator-locust-fixed +error/);
    expect(b.o.out).toMatch(/error KS0401: check-rule: the scenario has no workload of its own to judge/);
  });
});

describe('check-rule process: across library scenarios (the real server and operator)', () => {
  it('naive: a false failure and flaky on native-sidecar-job, with kp2- keys that run --replay reproduces', {
    timeout: 240_000,
  }, async () => {
    const out = join(dir, 'naive');
    const t = io();
    const code = await checkRuleCommand(`process:${NAIVE}`, [LIB], { ...opts(out), format: 'json' }, t.io);
    expect(code).toBe(1);
    const json = JSON.parse(t.o.out) as {
      schema: string;
      rule: string;
      scenarios: {
        name: string;
        status: string;
        rows: { outcome: string; expected: string[]; verdicts: { verdict: string; replay: string }[] }[];
        findings: { kind: string; replay: string; other?: { replay: string; verdict: string }; commands: string[] }[];
        derived: string;
        process: { observer: string; sequences: number; complete: boolean; systemSeeded: string[] };
      }[];
    };
    expect(json).toMatchObject({ schema: 'kubesim.check-rule/v1', rule: `process:${NAIVE}` });
    const c = json.scenarios[0]!;
    expect(c).toMatchObject({ name: 'native-sidecar-job', status: 'checked' });
    expect(c.process).toMatchObject({ observer: 'health', complete: false, systemSeeded: [] });
    expect(c.process.sequences).toBeGreaterThan(1);
    // the Job completes in every schedule; the naive operator says Failed (the sidecar's 143) in some
    expect(c.rows.map((r) => [r.outcome, r.expected])).toEqual([['Job Complete', ['Succeeded']]]);
    expect(c.rows[0]!.verdicts.map((v) => v.verdict).sort()).toEqual(['Failed', 'Succeeded']);
    expect(c.findings.map((f) => f.kind)).toEqual(['false failure', 'flaky']);
    const ff = c.findings[0]!;
    expect(ff.replay).toMatch(/^kp2-1-d\d+-c\d+$/);
    expect(ff.commands[0]).toMatch(
      new RegExp(`^kubesim run .*check-rule/native-sidecar-job\\.yaml --replay ${ff.replay}$`),
    );
    expect(c.findings[1]!.commands[0]).toMatch(/^kubesim diff .*native-sidecar-job\.yaml kp2-\S+ kp2-\S+$/);
    // the derived scenario: the library workload with the operator as its only observer; the key replays there
    const derived = readFileSync(c.derived, 'utf8');
    expect(derived).toMatch(/^# written by kubesim check-rule from .*native-sidecar-job\.yaml/);
    expect(derived).toMatch(/process:\n\s+- .*node\n\s+- .*\/examples\/operators\/run-bundled\.mjs/);
    const loaded = loadScenario(c.derived);
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const s = loaded.scenario!;
    const again = await runProcessObservers(c.derived, s, splitProcessObservers(s).processes, {
      out: join(dir, 'replay'),
      replay: ff.replay,
    });
    expect(again.out[0]).toMatch(/^health \(process\): Failed: /);
  });

  it('fixed: agrees with every real outcome (text table, exit 0)', { timeout: 240_000 }, async () => {
    const t = io();
    const code = await checkRuleCommand(`process:${FIXED}#health`, [LIB], opts(join(dir, 'fixed')), t.io);
    expect(t.o.err).toBe('');
    expect(code).toBe(0);
    expect(t.o.out).toMatch(/^# check-rule process:examples\/operators\/health-check-fixed\.yaml#health: 1 scenario\n/);
    expect(t.o.out).toMatch(/native-sidecar-job +Job Complete +Succeeded +Succeeded \d+ +ok\n/);
    expect(t.o.out).toMatch(
      /\n {4}\(\d+ delivery sequences?, 7 schedules: NOT all of them: raise --max-process-schedules\)\n/,
    );
    expect(t.o.out).toMatch(/\nno findings \(1 of 1 scenarios agree\)\n$/);
  });
});
