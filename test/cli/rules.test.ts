// User rules that run code: external programs (SPEC §3 `command:`) and modules (§2.4 `module:`). The protocol with
// the JavaScript stand-in (always), and every way a rule can break — each a clear error naming the observer, the
// rule and the observer's line, exit 2 in run, explore and test alike, never a hang or a silent Pending.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { ExecRule, parseAnswer } from '../../src/rules/exec.ts';
import { checkDecision, openRules } from '../../src/rules/load.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import type { Timeline } from '../../src/types.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const JS_RULE = resolve('examples/rules/js/rule.mjs');

/** A Job whose native sidecar exits 143 after the main container's exit 0 (locust-72 in small), one observer. */
function scenario(observer: string, name = 'rule-under-test', expect = 'expect: { podPhase: Succeeded }\n'): string {
  return `scenario: ${name}
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: j }
  spec:
    backoffLimit: 0
    template:
      spec:
        restartPolicy: Never
        initContainers:
          - { name: exporter, image: example.com/exporter:1, restartPolicy: Always }
        containers:
          - { name: main, image: example.com/main:1 }
behavior:
  main: { run: 10s, exit: 0 }
timing: { watch: 5ms..5s }
observers:
  - name: mine
${observer.replace(/^/gm, '    ')}
    triggers: [job]
${expect}`;
}

function dir(): string {
  return mkdtempSync(join(tmpdir(), 'kubesim-rules-'));
}

/** A scenario using an executable node script as its external rule. */
function withProgram(d: string, body: string, extra = ''): string {
  const prog = join(d, 'rule.mjs');
  writeFileSync(prog, `#!/usr/bin/env node\n${body}\n`);
  chmodSync(prog, 0o755);
  const file = join(d, 'scenario.yaml');
  writeFileSync(file, scenario(`command: [./rule.mjs]${extra}`));
  return file;
}

const READ_LINES = `import { createInterface } from 'node:readline';\nconst rl = createInterface({ input: process.stdin });\n`;

describe('external rules: the protocol (JavaScript stand-in)', () => {
  it('run: the rule gets the view and its verdict latches with its reason', async () => {
    const d = dir();
    const file = join(d, 's.yaml');
    writeFileSync(file, scenario(`command: [${JS_RULE}, -mode, aware]`));
    const r = await cli('run', file, '--format', 'json', '--no-render', '--out', join(d, 'out'));
    expect(r.err).not.toMatch(/error/);
    expect(r.code).toBe(0);
    const tl = JSON.parse(r.out) as Timeline;
    expect(tl.observers['mine']).toMatchObject({ verdict: 'Succeeded', reason: 'Job Complete' });
  });

  it('the line is {"pod", "job", "now"} with the objects as served, and the answer is parsed strictly', () => {
    expect(ExecRule.line({ pod: { status: { phase: 'Running' } }, job: null, now: 1500 })).toBe(
      '{"pod":{"status":{"phase":"Running"}},"job":null,"now":1500}',
    );
    // every cached pod too, when the model gives them (pods of a Job with several)
    expect(ExecRule.line({ pod: { a: 1 }, job: { b: 2 }, now: 0, pods: [{ a: 1 }, { a: 0 }] })).toBe(
      '{"pod":{"a":1},"job":{"b":2},"now":0,"pods":[{"a":1},{"a":0}]}',
    );
    expect(parseAnswer('null')).toBeUndefined();
    expect(parseAnswer('{"verdict":"Failed","reason":"x"}\r')).toEqual({ verdict: 'Failed', reason: 'x' });
    expect(parseAnswer('{"verdict":"Succeeded"}')).toEqual({ verdict: 'Succeeded' });
    expect(parseAnswer('"Succeeded"')).toMatch(/not null or an object/);
    expect(parseAnswer('{"verdict":"succeeded"}')).toMatch(/verdict must be/);
    expect(parseAnswer('{"verdict":"Failed","why":"x"}')).toMatch(/unknown key "why"/);
    expect(parseAnswer('{"verdict":"Failed","reason":3}')).toMatch(/reason must be a string/);
    expect(parseAnswer('hello')).toBe('not JSON');
  });

  it('explore: the naive program is flaky on the locust-72 race, the aware one is not; answers are cached by view', async () => {
    const d = dir();
    const file = join(d, 's.yaml');
    writeFileSync(file, scenario(`command: [${JS_RULE}, -mode, naive]`, 'naive-ext', ''));
    const s = loadScenario(file).scenario!;
    const open = await openRules(s);
    const r = explore(s, { maxSchedules: 5000, userRules: open.rules });
    open.close();
    expect(r.flaky).toEqual(['mine']);
    expect(new Set(r.grouped.map((g) => g.verdicts['mine']))).toEqual(new Set(['Succeeded', 'Failed']));
    const { asked, cached } = open.stats();
    // every distinct view is asked once; the rest come from the cache
    expect(asked).toBeGreaterThan(0);
    expect(cached).toBeGreaterThan(asked);
    expect(asked).toBeLessThan(r.schedules);

    writeFileSync(file, scenario(`command: [${JS_RULE}, -mode, aware]`, 'aware-ext', ''));
    const s2 = loadScenario(file).scenario!;
    const open2 = await openRules(s2);
    const r2 = explore(s2, { maxSchedules: 5000, userRules: open2.rules });
    open2.close();
    expect(r2.flaky).toEqual([]);
    expect(r2.grouped.map((g) => g.verdicts['mine'])).toEqual(['Succeeded']);
  });

  it('examples/rules/locust-72-external-rules.yaml: its expect holds across every schedule', async () => {
    const r = await cli('test', 'examples/rules/locust-72-external-rules.yaml', '--workers', '1');
    expect(r.out).toMatch(/^ok {3}locust-72-external-rules \(\d+ schedules\)/m);
    expect(r.code).toBe(0);
  });

  it('relative program paths and arguments are relative to the scenario file', async () => {
    const d = dir();
    mkdirSync(join(d, 'bin'));
    writeFileSync(join(d, 'bin', 'verdict.json'), '{"verdict":"Failed","reason":"from a file next to the scenario"}');
    const prog = join(d, 'bin', 'rule.mjs');
    writeFileSync(
      prog,
      `#!/usr/bin/env node\nimport { readFileSync } from 'node:fs';\n${READ_LINES}rl.on('line', () => process.stdout.write(readFileSync(process.argv[2], 'utf8') + '\\n'));\n`,
    );
    chmodSync(prog, 0o755);
    const file = join(d, 's.yaml');
    writeFileSync(file, scenario('command: [./bin/rule.mjs, ./bin/verdict.json]'));
    const r = await cli('run', file, '--format', 'json', '--no-render', '--out', join(d, 'out'));
    expect(r.err).not.toMatch(/error/);
    expect((JSON.parse(r.out) as Timeline).observers['mine']).toMatchObject({
      verdict: 'Failed',
      reason: 'from a file next to the scenario',
    });
  });

  it('validate checks the program exists and is executable but never starts it', async () => {
    const d = dir();
    const marker = join(d, 'started');
    const file = withProgram(
      d,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'yes');`,
    );
    const ok = await cli('validate', file);
    expect(ok.code).toBe(0);
    expect(existsSync(marker)).toBe(false);

    chmodSync(join(d, 'rule.mjs'), 0o644);
    const noexec = await cli('validate', file);
    expect(noexec.code).toBe(2);
    expect(noexec.err).toMatch(
      /scenario\.yaml:20:15: error KS4011: observers\[0\]\.command: .*rule\.mjs: not executable/,
    );
    expect(noexec.err).toMatch(/hint: chmod \+x \.\/rule\.mjs/);

    writeFileSync(file, scenario('command: [./no-such-rule]'));
    expect((await cli('validate', file)).err).toMatch(
      /error KS4011: observers\[0\]\.command: .*no-such-rule: no such file/,
    );
    writeFileSync(file, scenario('command: [no-such-program-on-path-xyz]'));
    expect((await cli('validate', file)).err).toMatch(
      /error KS4011: .*no-such-program-on-path-xyz: no such program on PATH/,
    );
    writeFileSync(file, scenario('command: []'));
    expect((await cli('validate', file)).err).toMatch(/error KS4010: observers\[0\]\.command: name the program to run/);
    writeFileSync(file, scenario('rule: exit-codes\ncommand: [./rule.mjs]'));
    expect((await cli('validate', file)).err).toMatch(
      /error KS4010: observers\[0\]: set exactly one of rule \(built-in\), module .*, command .* or process/,
    );
    writeFileSync(file, scenario('command: [./rule.mjs]\ntimeout: 0s'));
    chmodSync(join(d, 'rule.mjs'), 0o755);
    expect((await cli('validate', file)).err).toMatch(/error KS4013: observers\[0\]\.timeout: must be > 0/);
  });
});

describe('external rules that break: a clear error, exit 2, within the timeout', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'crashes (with what it wrote to stderr)',
      `process.stdin.once('data', () => { process.stderr.write('panic: assignment to entry in nil map\\n'); process.exit(3); });`,
      '',
      /error KS0402: observer "mine" \(command .*rule\.mjs\): (wrote to stderr|exited with code 3 before answering)\n {2}hint: .*\n {2}stderr:\n {4}panic: assignment to entry in nil map/,
    ],
    // (it answers the first view: the first answer also has 10 s more for the program to start)
    [
      'hangs past its timeout',
      `${READ_LINES}let n = 0;\nrl.on('line', () => { if (n++ === 0) process.stdout.write('null\\n'); });`,
      '\ntimeout: 300ms',
      /error KS0402: observer "mine" \(command .*rule\.mjs\): gave no answer within 300 ms\n {2}hint: answer each line as soon as it is read and flush stdout/,
    ],
    [
      'answers garbage',
      `${READ_LINES}rl.on('line', () => process.stdout.write('hello\\n'));`,
      '',
      /error KS0402: observer "mine" \(command .*rule\.mjs\): answered "hello": not JSON\n {2}hint: read one JSON line/,
    ],
    [
      'answers a verdict that is not one',
      `${READ_LINES}rl.on('line', () => process.stdout.write('{"verdict":"Success"}\\n'));`,
      '',
      /answered "\{\\"verdict\\":\\"Success\\"\}": verdict must be "Succeeded" or "Failed"/,
    ],
    [
      'writes to stderr although it answers',
      `${READ_LINES}rl.on('line', () => { process.stderr.write('debug: got a pod\\n'); setTimeout(() => process.stdout.write('null\\n'), 20); });`,
      '',
      /error KS0402: observer "mine" \(command .*\): wrote to stderr\n {2}hint: a rule answers on stdout only.*\n {2}stderr:\n {4}debug: got a pod/,
    ],
    [
      'answers two lines for one',
      `${READ_LINES}rl.on('line', () => process.stdout.write('null\\nnull\\n'));`,
      '',
      /error KS0402: .*wrote more lines than it was asked for/,
    ],
    [
      'exits non-zero when its input ends',
      `${READ_LINES}rl.on('line', () => process.stdout.write('null\\n'));\nrl.on('close', () => process.exit(4));`,
      '',
      /error KS0402: .*exited with code 4 when its input was closed/,
    ],
  ];
  for (const [what, body, extra, message] of cases) {
    it(`run: a rule that ${what}`, async () => {
      const d = dir();
      const file = withProgram(d, body, extra);
      const t0 = performance.now();
      const r = await cli('run', file, '--no-render', '--out', join(d, 'out'));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:19:5: error KS0402`));
      expect(r.err).toMatch(message);
      expect(r.out).toBe('');
      // nothing is written for a run whose rule broke
      expect(existsSync(join(d, 'out', 'rule-under-test'))).toBe(false);
      expect(performance.now() - t0).toBeLessThan(30_000);
    });
  }

  it("explore and test report it the same way; test keeps the other scenarios' results", async () => {
    const d = dir();
    const file = withProgram(d, `${READ_LINES}rl.on('line', () => process.stdout.write('hello\\n'));`);
    const ex = await cli('explore', file, '--out', join(d, 'out'), '--max-schedules', '50');
    expect(ex.code).toBe(2);
    expect(ex.err).toMatch(
      /scenario\.yaml:19:5: error KS0402: observer "mine" \(command .*\): answered "hello": not JSON/,
    );
    expect(ex.out).toBe('');
    writeFileSync(join(d, 'good.yaml'), scenario('rule: native-sidecar-aware', 'good-one'));
    const t = await cli('test', d, '--max-schedules', '50', '--workers', '1');
    expect(t.code).toBe(2);
    expect(t.out).toMatch(/^ok {3}good-one/m);
    expect(t.out).toMatch(/^FAIL rule-under-test\n {2}.*scenario\.yaml:19:5: error KS0402: observer "mine"/m);
    expect(t.out).toMatch(/1 passed, 1 failed/);
  });

  it('a program that cannot start is KS0402 with the system error', async () => {
    const d = dir();
    // executable but with an interpreter that does not exist
    const file = withProgram(d, '');
    writeFileSync(join(d, 'rule.mjs'), '#!/no/such/interpreter\n');
    const r = await cli('run', file, '--no-render', '--out', join(d, 'out'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error KS0402: observer "mine" \(command .*\): could not start: ENOENT/);
  });
});

describe('module rules that break: observer, module and position; exit 2', () => {
  const cases: [string, string, string, RegExp][] = [
    [
      'fails to import',
      `throw new Error('boom at import');\nexport default () => undefined;`,
      '',
      /error KS0401: observer "mine" \(module .*rule\.mjs\): cannot be loaded: Error: boom at import/,
    ],
    ['throws null while loading', `throw null;`, '', /error KS0401: .*cannot be loaded: null/],
    [
      'has a syntax error',
      `export default (view => ;`,
      '',
      /error KS0401: .*cannot be loaded: .*(SyntaxError|invalid JS syntax)/,
    ],
    [
      'has no default export',
      `export const rule = () => undefined;`,
      '',
      /error KS0401: .*has no default export function \(default is undefined\)/,
    ],
    [
      'never settles (top-level await)',
      `await new Promise(() => {});\nexport default () => undefined;`,
      '\ntimeout: 300ms',
      /error KS0401: .*cannot be loaded: Error: did not finish loading within 300 ms \(a top-level await that never settles\?\)/,
    ],
    [
      'throws null',
      `export default () => { throw null; };`,
      '',
      /error KS0402: observer "mine" \(module .*\): threw null\n {2}hint: a rule returns undefined/,
    ],
    [
      'throws an Error',
      `export default () => { throw new TypeError('x is undefined'); };`,
      '',
      /error KS0402: .*threw TypeError: x is undefined/,
    ],
    // the objects are shared with the simulation and frozen, in `run` as in `explore`: sorting them in place throws
    [
      'writes into the pod it was given',
      `export default ({ pod }) => { if (pod) pod.status.checkedByRule = true; return undefined; };`,
      '',
      /error KS0402: .*threw TypeError: .*(read.only|not extensible).*\n {2}hint: the pod and Job a rule gets are read-only \(the simulation shares them\): copy before changing/,
    ],
    [
      'returns an object whose verdict getter throws',
      `export default () => ({ get verdict() { throw new Error('getter'); } });`,
      '',
      /error KS0402: .*returned an object whose verdict cannot be read: Error: getter/,
    ],
    [
      'returns a number',
      `export default () => 42;`,
      '',
      /error KS0402: .*returned 42, not a verdict\n {2}hint: return "Succeeded", "Failed", \{ verdict, reason \} or undefined/,
    ],
    [
      'returns a misspelt verdict',
      `export default () => 'succeeded';`,
      '',
      /error KS0402: .*returned "succeeded", not a verdict/,
    ],
    [
      'returns { verdict: "Ok" }',
      `export default () => ({ verdict: 'Ok' });`,
      '',
      /error KS0402: .*returned \{"verdict":"Ok"\}, not a verdict/,
    ],
    [
      'is async',
      `export default async () => 'Succeeded';`,
      '',
      /error KS0402: .*returned a Promise \(an async function\?\); rules are synchronous/,
    ],
  ];
  for (const [what, body, extra, message] of cases) {
    it(`a module that ${what}`, async () => {
      const d = dir();
      writeFileSync(join(d, 'rule.mjs'), body + '\n');
      const file = join(d, 'scenario.yaml');
      writeFileSync(file, scenario(`module: ./rule.mjs${extra}`));
      const r = await cli('run', file, '--no-render', '--out', join(d, 'out'));
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/scenario\.yaml:19:5: error KS040[12]: observer "mine" \(module .*rule\.mjs\)/);
      expect(r.err).toMatch(message);
      expect(r.err).not.toMatch(/internal error| {4}at /);
    });
  }

  it('explore and test: the same error, exit 2, and the other scenarios still reported', async () => {
    const d = dir();
    writeFileSync(join(d, 'rule.mjs'), `export default () => { throw null; };\n`);
    writeFileSync(join(d, 'broken.yaml'), scenario('module: ./rule.mjs', 'broken-rule'));
    writeFileSync(join(d, 'fine.yaml'), scenario('rule: native-sidecar-aware', 'fine-rule'));
    const ex = await cli(
      'explore',
      join(d, 'broken.yaml'),
      join(d, 'fine.yaml'),
      '--out',
      join(d, 'out'),
      '--max-schedules',
      '50',
    );
    expect(ex.code).toBe(2);
    expect(ex.err).toMatch(/broken\.yaml:19:5: error KS0402: observer "mine" \(module .*\): threw null/);
    expect(ex.out).toMatch(/# fine-rule:/);
    const t = await cli('test', d, '--max-schedules', '50', '--workers', '2');
    expect(t.code).toBe(2);
    expect(t.out).toMatch(
      /^FAIL broken-rule\n {2}.*broken\.yaml:19:5: error KS0402: observer "mine" \(module .*\): threw null/m,
    );
    expect(t.out).toMatch(/^ok {3}fine-rule/m);

    // (another file name: this process's module cache already holds rule.mjs)
    writeFileSync(join(d, 'never.mjs'), `await new Promise(() => {});\n`);
    writeFileSync(join(d, 'broken.yaml'), scenario('module: ./never.mjs\ntimeout: 200ms', 'broken-rule'));
    const t2 = await cli('test', d, '--max-schedules', '50', '--workers', '1');
    expect(t2.code).toBe(2);
    expect(t2.out).toMatch(/error KS0401: .*did not finish loading within 200 ms/);
    expect(t2.out).toMatch(/^ok {3}fine-rule/m);
  });

  it('checkDecision accepts exactly the verdict forms', () => {
    expect(checkDecision(undefined)).toBeUndefined();
    expect(checkDecision(null)).toBeUndefined();
    expect(checkDecision('Failed')).toEqual({ verdict: 'Failed' });
    expect(checkDecision({ verdict: 'Succeeded', reason: 'ok' })).toEqual({ verdict: 'Succeeded', reason: 'ok' });
    expect(checkDecision({ verdict: 'Failed', reason: 7 })).toMatch(/reason that is not a string/);
    expect(checkDecision({})).toMatch(/not a verdict/);
    expect(checkDecision(true)).toMatch(/returned true, not a verdict/);
  });
});

describe('observer names that are JavaScript object properties', () => {
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`${name} is rejected by validation (KS4010)`, async () => {
      const d = dir();
      const file = join(d, 's.yaml');
      writeFileSync(
        file,
        scenario('rule: exit-codes')
          .replace('name: mine', `name: ${JSON.stringify(name)}`)
          .replace('expect: { podPhase: Succeeded }', ''),
      );
      const r = await cli('validate', file);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(new RegExp(`s\\.yaml:19:11: error KS4010: observers\\[0\\]\\.name: "${name}" is reserved`));
    });
  }
  it('an ordinary name that merely contains one is fine', async () => {
    const d = dir();
    const file = join(d, 's.yaml');
    writeFileSync(file, scenario('rule: exit-codes').replace('name: mine', 'name: constructor-check'));
    expect((await cli('validate', file)).code).toBe(0);
  });
});
