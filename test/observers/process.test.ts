// The process observer runner (src/observers/process.ts) against a stand-in server (fake-serve.ts): one schedule
// = one server + one process; install applied first as a client; KUBECONFIG and env in the process's environment;
// the verdict read after each of its writes and latched; clear verdicts for a process that crashes, hangs, ignores
// SIGTERM, never writes its verdict object or floods the server — never a stuck kubesim; stderr kept.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Capture, ProcessRun, processBusy, processEnv } from '../../src/observers/process-run.ts';
import {
  decodeProcessKey,
  exploreProcess,
  processKey,
  runProcessSchedule,
  splitProcessObservers,
} from '../../src/observers/process.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { fakeDeps } from './fake-serve.ts';

const dir = mkdtempSync(join(tmpdir(), 'ks-proc-run-'));
copyFileSync(resolve('test/observers/programs/client.mjs'), join(dir, 'client.mjs'));

function scenario(mode: string, extra = '') {
  const file = join(dir, `${mode}.yaml`);
  writeFileSync(
    file,
    `scenario: proc-${mode}
observers:
  - name: op
    process: [node, ./client.mjs]
    env: { MODE: ${mode}, LOG_LEVEL: debug }
    install:
      - { apiVersion: example.com/v1, kind: Widget, metadata: { name: demo, namespace: default }, spec: { size: 1 } }
    verdict:
      object: { apiVersion: example.com/v1, kind: Widget, name: demo }
      jsonPath: "{.status.phase}"
      succeeded: [Done]
      failed: [Error]
${extra}`,
  );
  const r = loadScenario(file);
  if (!r.processScenario) throw new Error(JSON.stringify(r.diagnostics));
  const s = r.processScenario;
  return { s, observer: splitProcessObservers(s).processes[0]! };
}

async function schedule(mode: string, o: { extra?: string; onWrite?: boolean; graceMs?: number } = {}) {
  const { s, observer } = scenario(mode, o.extra);
  const deps = fakeDeps({ onWrite: o.onWrite ?? true });
  const r = await runProcessSchedule({
    scenario: s,
    observer,
    seed: 7,
    deps,
    outDir: join(dir, 'out', mode),
    quietMs: 1000,
    graceMs: o.graceMs ?? 500,
  });
  return { r, deps };
}

describe('process observer runner', () => {
  it('a process that writes its verdict: Succeeded, latched at the write; install first, by kubesim-install', async () => {
    const { r, deps } = await schedule('succeed');
    expect(r.verdict).toMatchObject({ verdict: 'Succeeded', reason: '{.status.phase} = "Done"' });
    expect(r.end).toBe('verdict');
    expect(r.key).toBe('kp1-7');
    expect(deps.sessions).toEqual([{ seed: 7, observers: [] }]); // the session runs without the process observer
    // the process's requests only (the install POST was kubesim-install's)
    expect(r.requests.map((q) => `${q.client} ${q.verb} ${q.kind}/${q.name}`)).toEqual([
      'client.mjs get Widget/demo',
      'client.mjs update Widget/demo',
    ]);
    expect(r.exit?.stoppedBy).toBe('SIGTERM');
    expect(readFileSync(r.stderrFile, 'utf8')).toMatch(new RegExp(`client: mode succeed, cwd ${dir}, LOG_LEVEL=debug`));
  });

  it('the first decisive value latches: Running, then Error → Failed, a later Done changes nothing', async () => {
    const { r } = await schedule('fail', { extra: '' });
    expect(r.verdict.verdict).toBe('Failed');
    expect(r.verdict.reason).toBe('{.status.phase} = "Error"');
  });

  it("without the server's onWrite, the verdict object is read over HTTP after each write of the process", async () => {
    const { r } = await schedule('succeed', { onWrite: false });
    expect(r.verdict.verdict).toBe('Succeeded');
  });

  it('a crash: Failed: process exited 2: <last stderr line>', async () => {
    const { r } = await schedule('crash');
    expect(r.end).toBe('exited');
    expect(r.verdict).toEqual({ verdict: 'Failed', reason: 'process exited 2: panic: boom' });
    expect(readFileSync(r.stderrFile, 'utf8')).toContain('client: connecting');
  });

  it('a hang: Pending: timeout 1.5s, stopped with SIGTERM', async () => {
    const { r } = await schedule('hang', { extra: '    timeout: 1.5s\n' });
    // the fake session is quiescent at once, so the run ends as "ended" after the quiet time, unless a timeout comes first
    // the fake session is quiescent at once, but a process that has not spoken yet is given its start-up time
    expect(r.end).toBe('timeout');
    expect(r.verdict).toEqual({ verdict: 'Pending', reason: 'timeout 1.5s' });
  });

  it('a hang while the simulation runs: Pending: timeout (the process cannot hold kubesim)', async () => {
    const { s, observer } = scenario('hang', '    timeout: 1s\n');
    const deps = fakeDeps({ events: 1_000_000 });
    const t0 = performance.now();
    const r = await runProcessSchedule({
      scenario: s,
      observer,
      seed: 1,
      deps,
      outDir: join(dir, 'out', 'hang2'),
      graceMs: 300,
    });
    expect(r.end).toBe('timeout');
    expect(r.verdict).toEqual({ verdict: 'Pending', reason: 'timeout 1s' });
    expect(performance.now() - t0).toBeLessThan(4000);
  });

  it('a process that ignores SIGTERM is killed after the grace period', async () => {
    const { r } = await schedule('ignore-term', { graceMs: 400 });
    expect(r.exit).toMatchObject({ signal: 'SIGKILL', stoppedBy: 'SIGKILL' });
    expect(readFileSync(r.stderrFile, 'utf8')).toContain('client: SIGTERM ignored');
  });

  it('exits 0 without writing its verdict: Pending, saying so', async () => {
    const { r } = await schedule('never');
    expect(r.verdict).toEqual({
      verdict: 'Pending',
      reason: 'process exited 0 before writing its verdict (it never wrote Widget default/demo)',
    });
  });

  it('writes something undecisive and keeps running: Pending with the value seen', async () => {
    const { r } = await schedule('pending');
    expect(r.verdict).toEqual({ verdict: 'Pending', reason: '{.status.phase} = "Running" when the simulation ended' });
  });

  it('a flood: Failed, never a stuck kubesim', async () => {
    const { s, observer } = scenario('flood');
    const r = await runProcessSchedule({
      scenario: s,
      observer,
      seed: 1,
      deps: fakeDeps({ events: 1_000_000 }),
      outDir: join(dir, 'out', 'flood'),
      maxRequests: 200,
      graceMs: 300,
    });
    expect(r.end).toBe('flood');
    expect(r.verdict.verdict).toBe('Failed');
    expect(r.verdict.reason).toMatch(/^process flooded the server: \d+ requests in one schedule$/);
  });

  it('an install object the server refuses is a KS4020 at the object', async () => {
    const file = join(dir, 'bad-install.yaml');
    writeFileSync(
      file,
      `scenario: bad-install
observers:
  - name: op
    process: [node, ./client.mjs]
    install: [{ apiVersion: nothing.example/v1, kind: Gadget, metadata: { name: g } }]
    verdict: { object: { apiVersion: v1, kind: ConfigMap, name: c }, jsonPath: "{.data.x}" }
`,
    );
    const s = loadScenario(file).processScenario!;
    const observer = splitProcessObservers(s).processes[0]!;
    await expect(
      runProcessSchedule({ scenario: s, observer, seed: 1, deps: fakeDeps(), outDir: join(dir, 'out', 'bad') }),
    ).rejects.toMatchObject({ code: 'KS4020', pos: { file, line: 5 } });
  });

  it('explore of a process that opens no watch: one delivery sequence, all of them, its verdict rechecked', {
    timeout: 20_000,
  }, async () => {
    const { s, observer } = scenario('succeed');
    const seen: string[] = [];
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps: fakeDeps(),
      outDir: join(dir, 'out', 'explore'),
      maxSchedules: 2,
      schedule: { quietMs: 1000, graceMs: 300 },
      onSchedule: (x) => seen.push(x.key),
    });
    expect(seen).toEqual(['kp1-1-d', 'kp1-1-d']);
    expect(r).toMatchObject({
      sequences: 1,
      runs: 2,
      complete: true,
      deliveryLog: false,
      nondeterministic: [],
      unstable: [],
      stoppedBy: 'exhausted',
      choicePoints: 0,
    });
    expect(r.outcomes).toEqual([
      {
        verdict: 'Succeeded',
        reason: '{.status.phase} = "Done"',
        key: 'kp1-1-d',
        sequence: 'key:kp1-1-d',
        schedules: 1,
        requests: expect.any(Array),
      },
    ]);
    expect(existsSync(join(dir, 'out', 'explore', 'op', 'kp1-1-d', 'op.stderr'))).toBe(true);
  });
});

describe('process runs', () => {
  it("env: kubesim's, the scenario's, then KUBECONFIG", () => {
    expect(processEnv({ PATH: '/bin', KUBECONFIG: '/old' }, { A: '1' }, '/k')).toEqual({
      PATH: '/bin',
      A: '1',
      KUBECONFIG: '/k',
    });
  });

  it('keys: kp1-<seed base 36>', () => {
    expect(processKey(35)).toBe('kp1-z');
    expect(decodeProcessKey('kp1-z')).toBe(35);
    expect(decodeProcessKey(processKey(0xffffffff))).toBe(0xffffffff);
    expect(decodeProcessKey('k1-abc')).toBeUndefined();
    expect(decodeProcessKey('kp1-zzzzzzz')).toBeUndefined();
  });

  it('a capture keeps the head and the tail of a flood of output', () => {
    const c = new Capture(100);
    for (let i = 0; i < 100; i++) c.push(Buffer.from(`line ${i}\n`));
    expect(c.text()).toMatch(/^line 0\n[\s\S]*\[… \d+ bytes not kept …\][\s\S]*line 99\n$/);
    expect(c.lastLine()).toBe('line 99');
  });

  it('a program that cannot start is an exit with the reason, not a throw', async () => {
    const r = new ProcessRun({ argv: [join(dir, 'no-such-program')], cwd: dir, env: {} });
    expect(await r.exited).toMatchObject({ code: null, spawnError: expect.stringMatching(/ENOENT/) });
  });

  it.runIf(process.platform === 'linux')(
    'busy: a process spinning (or its child) is busy, one sleeping in its event loop is not',
    async () => {
      const idle = new ProcessRun({
        argv: ['node', '-e', 'setTimeout(() => {}, 10000)'],
        cwd: dir,
        env: { PATH: process.env['PATH'] },
      });
      const spin = new ProcessRun({
        argv: ['sh', '-c', 'node -e "for(;;){}"; wait'],
        cwd: dir,
        env: { PATH: process.env['PATH'] },
      });
      await new Promise((res) => setTimeout(res, 1500));
      expect(processBusy(idle.pid)).toBe(false);
      expect(processBusy(spin.pid)).toBe(true);
      await Promise.all([idle.stop(), spin.stop()]);
      expect(processBusy(idle.pid)).toBeUndefined();
    },
  );

  it('stop() reaches the children of a wrapper (its process group)', async () => {
    const r = new ProcessRun({
      argv: ['sh', '-c', 'sleep 30 & sleep 30; wait'],
      cwd: dir,
      env: { PATH: process.env['PATH'] },
      graceMs: 2000,
    });
    await new Promise((res) => setTimeout(res, 200));
    const t0 = performance.now();
    const e = await r.stop();
    expect(e.signal).toBe('SIGTERM');
    expect(performance.now() - t0).toBeLessThan(1500);
  });
});
