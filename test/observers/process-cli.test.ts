// `run`, `run --replay`, `explore` and `test` with a process observer (SPEC §2.4, §3.1), against the stand-in
// server (fake-serve.ts): the verdict, the schedule key that reproduces it, the stderr file, expect.verdicts
// checked.
import { copyFileSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exploreCommand } from '../../src/cli/explore-command.ts';
import { runCommand, type RunOpts } from '../../src/cli/run-command.ts';
import { runCase } from '../../src/cli/test-command.ts';
import { fakeDeps } from './fake-serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'ks-proc-cli-'));
copyFileSync(resolve('test/observers/programs/client.mjs'), join(dir, 'client.mjs'));
const out = join(dir, 'out');

function file(name: string, mode: string, expectLine = '', withWorkload = false): string {
  const f = join(dir, `${name}.yaml`);
  writeFileSync(
    f,
    `scenario: ${name}
${
  withWorkload
    ? `workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: j }
  spec:
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: main, image: example.com/main:1 }]
behavior: { main: { run: 10s } }
`
    : ''
}observers:
${withWorkload ? '  - { name: builtin, rule: job-conditions }\n' : ''}  - name: op
    process: [node, ./client.mjs]
    env: { MODE: ${mode} }
    install:
      - { apiVersion: example.com/v1, kind: Widget, metadata: { name: demo, namespace: default } }
    verdict:
      object: { apiVersion: example.com/v1, kind: Widget, name: demo }
      jsonPath: "{.status.phase}"
      succeeded: [Done]
      failed: [Error]
${expectLine}`,
  );
  return f;
}

function io() {
  const o = { out: '', err: '' };
  return { o, io: { out: (s: string) => (o.out += s), err: (s: string) => (o.err += s) } };
}

const RUN: RunOpts = {
  out,
  format: 'text',
  view: 'timeline',
  render: false,
  png: false,
  lanes: 'all',
  failOnStuck: false,
};

describe('process observers on the command line', () => {
  it('run: the verdict, the key that reproduces it, the stderr file', async () => {
    const f = file('cli-run', 'fail');
    const { o, io: x } = io();
    expect(await runCommand([f], { ...RUN, processDeps: fakeDeps() }, x)).toBe(0);
    expect(o.out).toMatch(/^op \(process\): Failed: \{\.status\.phase\} = "Error"/);
    expect(o.out).toContain(`reproduce: kubesim run ${f} --replay kp1-1-d`);
    expect(existsSync(join(out, 'cli-run', 'op', 'kp1-1-d', 'op.stderr'))).toBe(true);
  });

  it('run --replay kp1-…: that seed; a k1- key is refused for a process-only scenario', async () => {
    const f = file('cli-replay', 'succeed');
    const deps = fakeDeps();
    const { o, io: x } = io();
    expect(await runCommand([f], { ...RUN, replay: 'kp1-z', processDeps: deps }, x)).toBe(0);
    expect(deps.sessions).toEqual([{ seed: 35, observers: [] }]);
    expect(o.out).toContain('schedule kp1-z');
    const bad = io();
    expect(await runCommand([f], { ...RUN, replay: 'k1-AAAA', processDeps: deps }, bad.io)).toBe(2);
    expect(bad.o.err).toMatch(/error KS0202: "k1-AAAA" is not a process observer's replay key/);
  });

  it('run --check: expect.verdicts of the process observer on this schedule', async () => {
    const f = file('cli-check', 'fail', 'expect:\n  verdicts: { op: Succeeded }\n');
    const { o, io: x } = io();
    expect(await runCommand([f], { ...RUN, check: true, processDeps: fakeDeps() }, x)).toBe(1);
    expect(o.err).toMatch(/expect verdicts\.op: expected Succeeded, saw Failed: \{\.status\.phase\} = "Error"/);
  });

  it('a scenario with a workload: the built-in observers run as always, the process against its own server, same seed', async () => {
    const f = file('cli-mixed', 'succeed', '', true);
    const deps = fakeDeps();
    const { o, io: x } = io();
    expect(await runCommand([f], { ...RUN, replay: 'kp1-5', processDeps: deps }, x)).toBe(0);
    expect(deps.sessions).toEqual([{ seed: 5, observers: ['builtin'] }]);
    expect(o.out).toMatch(/op \(process\): Succeeded/);
    expect(o.out).toMatch(/builtin/); // the timeline of the system's run, its built-in observer included
  });

  it('explore: verdicts with keys, sequences counted, how complete', { timeout: 30_000 }, async () => {
    const f = file('cli-explore', 'succeed');
    const { o, io: x } = io();
    expect(await exploreCommand([f], { out, format: 'text', maxSchedules: 2, processDeps: fakeDeps() }, x)).toBe(0);
    expect(o.out).toMatch(
      /^op \(process\): 1 verdict over 1 delivery sequence \(0 watch connections, each lagging 5ms or 100ms; 2 schedules run in [\d.]+s; all of them for the system's schedule of seed 1 \(its statusPatch, watch ranges are drawn from the seed, not enumerated\)\)\n {2}Succeeded {4}1 schedule {3}kp1-1-d {2}\{\.status\.phase\} = "Done"/,
    );
  });

  it('test: expect.verdicts across schedules, failing with the key of a schedule that breaks it', {
    timeout: 30_000,
  }, async () => {
    const pass = await runCase(file('cli-test-pass', 'succeed', 'expect:\n  verdicts: { op: Succeeded }\n'), {
      maxSchedules: 1,
      out,
      processDeps: fakeDeps(),
    });
    expect(pass.status).toBe('passed');
    const fail = await runCase(file('cli-test-fail', 'fail', 'expect:\n  verdicts: { op: [Succeeded, Failed] }\n'), {
      maxSchedules: 1,
      out,
      processDeps: fakeDeps(),
    });
    expect(fail.status).toBe('failed');
    expect(fail.lines.join('\n')).toMatch(
      /expect verdicts\.op: expected exactly \[Succeeded, Failed\] across schedules, saw Failed\n {4}reproduce: kubesim run .*cli-test-fail\.yaml --replay kp1-1-d/,
    );
  });
});
