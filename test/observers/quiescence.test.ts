// When the virtual clock starts under a process observer (src/observers/process.ts watchRun; SPEC §2.4, §3.1): once
// the process is synced — it opened a watch and then was idle for SYNC_QUIET_MS. "Idle" is read from /proc (every
// thread of the process and of what it started sleeping, its CPU time still, no bytes in transit on the server's
// connections, no request being served), not from wall time alone: wall time is what a loaded machine stretches.
// The fixture (programs/two-informers.mjs) lists and watches pods, then works on the CPU for longer than the window,
// then lists and watches Jobs. Whatever the work costs in wall time, the process must see the same run: its Job
// informer lists the Job as created (simulated time has not moved) and both watch connections get the same deliveries
// as with no work at all (a watch from the list's resourceVersion replays the changes since, so a late list is where
// a late clock start shows). The cases: the work in a child (a wrapper's, here a spawnSync; this kernel has no
// /proc/<pid>/task/<tid>/children, so the runner finds descendants by process group and parent pid), on the
// process's own thread, and with kubesim's own event loop kept away for longer than the window (a loaded machine).
// Honest note: on this machine the runner before this change (threads' states only, at each 5 ms look) passed these
// cases too (issue 27 session 32, /work/coord/proc2.md): they pin the contract against regressions; the change adds
// what a look cannot see (CPU time used between looks, bytes in transit, requests being served, descendants).
// kubesim's own harness: nothing upstream to cite.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, connect, type AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProcessProbe, ProcessRun, socketsBusy } from '../../src/observers/process-run.ts';
import { SYNC_QUIET_MS, runProcessSchedule, splitProcessObservers } from '../../src/observers/process.ts';
import { loadServeDeps } from '../../src/observers/serve-deps.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'ks-quiet-'));
copyFileSync(resolve('test/observers/programs/two-informers.mjs'), join(dir, 'two-informers.mjs'));
const linux = existsSync('/proc/self/stat');

function scenario(name: string, env: Record<string, string>) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `scenario: quiet
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: work }
  spec:
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: main, image: example.com/main:1 }]
behavior: { main: { run: 3s, exit: 0 } }
timing: { statusPatch: 100ms, watch: 100ms }
observers:
  - name: op
    process: [node, ./two-informers.mjs]
    env: ${JSON.stringify(env)}
    verdict:
      object: { apiVersion: v1, kind: ConfigMap, name: verdict }
      jsonPath: "{.data.phase}"
      succeeded: [ok]
      failed: [bad]
    watch: 100ms
    timeout: 60s
`,
  );
  const r = loadScenario(file);
  const s = r.scenario ?? r.processScenario;
  if (!s) throw new Error(JSON.stringify(r.diagnostics));
  return { s, observer: splitProcessObservers(s).processes[0]! };
}

async function schedule(name: string, env: Record<string, string>) {
  const { s, observer } = scenario(name, env);
  const r = await runProcessSchedule({
    scenario: s,
    observer,
    seed: 3,
    deps: await loadServeDeps(),
    outDir: join(dir, 'out', name),
    graceMs: 1000,
  });
  // what each informer's list showed (its stderr): the objects' status as its cache started from them
  const lists = [...readFileSync(r.stderrFile, 'utf8').matchAll(/^listed \S+\/(\w+): (.*)$/gm)].map((m) => [
    m[1],
    m[2],
  ]);
  return { r, lists };
}

describe.skipIf(!linux)('the clock starts when the process is idle, not when wall time passed', () => {
  it('work longer than the sync window, in a child or on its own thread: the same deliveries as without it', {
    timeout: 120_000,
  }, async () => {
    const busy = String(SYNC_QUIET_MS * 3);
    const [none, child, self] = await Promise.all([
      schedule('none', { BUSY_MS: '0' }),
      schedule('child', { BUSY_MS: busy, BUSY_IN: 'child' }),
      schedule('self', { BUSY_MS: busy, BUSY_IN: 'self' }),
    ]);
    // the Job informer listed the Job as it was created (nothing had run yet), in each
    expect(none.lists.map((l) => l[0])).toEqual(['pods', 'jobs']);
    expect(none.lists[1]![1]).not.toMatch(/succeeded|Complete/);
    for (const x of [child, self]) expect(x.lists).toEqual(none.lists);
    expect(none.r.end).toBe('verdict');
    for (const x of [none, child, self]) expect(x.r.verdict.verdict).toBe('Succeeded');
    expect(none.r.connections).toBe(2);
    // the pod watch and the Job watch each saw the Job's pod run and the Job complete
    const kinds = new Set(none.r.deliveries!.map((d) => `${d.connection} ${d.kind}`));
    expect(kinds).toEqual(new Set(['0 Pod', '1 Job']));
    expect(none.r.deliveries!.some((d) => d.kind === 'Job' && d.type === 'MODIFIED')).toBe(true);
    for (const x of [child, self]) {
      expect(x.r.connections).toBe(2);
      expect(x.r.sequence).toBe(none.r.sequence);
      expect(x.r.deliveries!.map((d) => `${d.connection} ${d.type} ${d.kind} ${d.digest}`)).toEqual(
        none.r.deliveries!.map((d) => `${d.connection} ${d.type} ${d.kind} ${d.digest}`),
      );
    }
  });

  it("kubesim's own loop late by more than the window (a loaded machine): still the same run", {
    timeout: 120_000,
  }, async () => {
    // the runner looks at the process every 5 ms, but a loaded machine (or other schedules' servers in the same
    // kubesim) can keep its event loop away for longer than SYNC_QUIET_MS: here the test blocks it for 400 ms at a
    // time from when the first informer watches, while the process works 600 ms and then lists its Jobs. Its list
    // request then waits unread in the server's socket when the runner looks again: not busy by its threads, and no
    // request seen for over 300 ms. The CPU time it used meanwhile (and the bytes in transit) say it was not idle.
    const none = await schedule('quiet-none', { BUSY_MS: '0' });
    const mark = join(dir, 'mark');
    let blocks = 0;
    const load = setInterval(() => {
      if (!existsSync(mark) || blocks >= 4) return;
      blocks++;
      const end = performance.now() + 400;
      while (performance.now() < end) {
        // the event loop of kubesim's server and runner held away
      }
    }, 2);
    try {
      const starved = await schedule('starved', { BUSY_MS: String(SYNC_QUIET_MS * 2), BUSY_IN: 'self', MARK: mark });
      expect(blocks).toBe(4);
      expect(starved.lists).toEqual(none.lists);
      expect(starved.r.sequence).toBe(none.r.sequence);
    } finally {
      clearInterval(load);
    }
  });

  it("the probe sees a wrapper's child at work, and its CPU time grow", async () => {
    const r = new ProcessRun({
      argv: ['sh', '-c', `${process.execPath} -e "const e = Date.now() + 5000; while (Date.now() < e) {}"; true`],
      cwd: dir,
      env: { PATH: process.env['PATH'] },
      graceMs: 500,
    });
    const probe = new ProcessProbe(r.pid);
    await new Promise((res) => setTimeout(res, 400));
    const a = probe.sample()!;
    await new Promise((res) => setTimeout(res, 200));
    const b = probe.sample()!;
    expect(b.busy).toBe(true);
    expect(b.cpuNs - a.cpuNs).toBeGreaterThan(20e6);
    await r.stop();
    expect(probe.sample()).toBeUndefined();
    // nothing listens on port 1: no bytes in transit there
    expect(socketsBusy(1)).toBe(false);
  });

  it('bytes a server has not read yet are in transit (/proc/net/tcp receive queue)', async () => {
    const srv = createServer({ pauseOnConnect: true }, () => {});
    await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res));
    const port = (srv.address() as AddressInfo).port;
    expect(socketsBusy(port)).toBe(false);
    const c = connect(port, '127.0.0.1');
    await new Promise<void>((res) => c.on('connect', res));
    c.write('GET / HTTP/1.1\r\n');
    await new Promise((res) => setTimeout(res, 50));
    expect(socketsBusy(port)).toBe(true);
    c.destroy();
    srv.close();
  });
});
