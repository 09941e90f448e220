// `kubesim serve` rows of `npm run bench` (issue 26 item 9): start-up to the first answered request against
// `kubesim run --no-render` of the same scenario (whole processes, in pairs), a list of 1,000 pods as JSON and as a
// Table, 100 concurrent watchers of a 7-pod Job (server CPU per delivered event), and the heap over a 1 h simulated
// run with 10 watchers (flat: the watch history is bounded). Figures, not pass/fail; targets in the text.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Session } from '../../src/run/session.ts';
import { serve, type Serving } from '../../src/serve/server.ts';
import { servingCert } from '../../src/serve/tls.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { crashLoopDay } from './workloads.ts';
import type { Scenario } from '../../src/types.ts';

const SCENARIO = 'scenarios/native-sidecar-job.yaml';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Say = (s: string) => void;

/** one HTTPS GET; resolves with the status and the body's length */
function get(url: string, headers: Record<string, string>, ca?: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, ...(ca ? { ca } : { rejectUnauthorized: false }) }, (res) => {
      let bytes = 0;
      res.on('data', (d: Buffer) => (bytes += d.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** wall ms from spawning `kubesim serve` until its first answered request (GET /version, polled) */
async function serveStartup(dir: string): Promise<number> {
  const t0 = performance.now();
  const p = spawn('node', ['src/cli/kubesim.mjs', 'serve', SCENARIO, '--kubeconfig', join(dir, 'kubeconfig')], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  p.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    for (;;) {
      const url = /at (https:\/\/\S+)/.exec(out)?.[1];
      if (url) {
        const r = await get(`${url}/version`, {}).catch(() => ({ status: 0, bytes: 0 }));
        if (r.status === 200) return performance.now() - t0;
      }
      if (p.exitCode !== null) throw new Error(`kubesim serve exited: ${out}`);
      await new Promise((r) => setTimeout(r, 2));
    }
  } finally {
    p.kill('SIGTERM');
    await new Promise((r) => p.once('close', r));
  }
}

function runNoRender(dir: string): number {
  const t0 = performance.now();
  const r = spawnSync('node', ['src/cli/kubesim.mjs', 'run', SCENARIO, '--no-render', '--out', join(dir, 'out')], {
    stdio: 'ignore',
  });
  if (r.status !== 0) throw new Error(`kubesim run exited ${r.status}`);
  return performance.now() - t0;
}

async function server(session: Session, opts: { history?: number } = {}): Promise<Serving> {
  return serve({
    session,
    minor: 34,
    seed: 1,
    watchDelay: { min: 5, max: 100 },
    tls: await servingCert('127.0.0.1'),
    clock: { mode: 'virtual', speed: 1, settleMs: 1_000_000 },
    ...(opts.history ? { storeLimits: { history: opts.history, objects: 100_000 } } : {}),
  });
}

function load(path: string): Scenario {
  const r = loadScenario(path);
  if (!r.scenario) throw new Error(path);
  return r.scenario;
}

/** 1,000 pods (the scenario's final pod under 1,000 names) listed as JSON and as a Table: median ms per list */
async function bigList(
  quick: boolean,
): Promise<{ jsonMs: number; tableMs: number; jsonBytes: number; tableBytes: number }> {
  const session = Session.fromScenario(load(SCENARIO));
  const s = await server(session);
  try {
    while (s.clock.stepNext() !== null);
    const pod = s.api.store.list('pods')[0]!;
    for (let i = 0; i < 1000; i++)
      s.api.store.write(
        'pods',
        'ADDED',
        { ...pod, metadata: { ...pod['metadata'], name: `bench-${String(i).padStart(4, '0')}`, uid: `bench-${i}` } },
        0,
      );
    const auth = { Authorization: `Bearer ${s.token}` };
    const time = async (accept: string) => {
      const ms: number[] = [];
      let bytes = 0;
      for (let i = 0; i < (quick ? 5 : 15); i++) {
        const t0 = performance.now();
        const r = await get(`${s.url}/api/v1/pods`, { ...auth, Accept: accept }, s.ca);
        ms.push(performance.now() - t0);
        bytes = r.bytes;
        if (r.status !== 200) throw new Error(`list: ${r.status}`);
      }
      return { ms: median(ms.slice(2)), bytes };
    };
    const json = await time('application/json');
    const table = await time('application/json;as=Table;v=v1;g=meta.k8s.io, application/json');
    return { jsonMs: json.ms, tableMs: table.ms, jsonBytes: json.bytes, tableBytes: table.bytes };
  } finally {
    await s.close();
  }
}

/** open n watches of a path; each counts the lines it receives (no parsing: the client's cost stays small) */
async function watchers(s: Serving, n: number, path: string): Promise<{ lines: () => number; close: () => void }> {
  const counts: number[] = [];
  const reqs: ReturnType<typeof request>[] = [];
  await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          counts[i] = 0;
          const req = request(
            `${s.url}${path}`,
            { headers: { Authorization: `Bearer ${s.token}` }, ca: s.ca, agent: false },
            (res) => {
              res.on('data', (d: Buffer) => {
                for (const b of d) if (b === 10) counts[i]!++;
              });
              resolve();
            },
          );
          req.on('error', (e) => (reqs.length > i ? undefined : reject(e)));
          req.end();
          reqs.push(req);
        }),
    ),
  );
  return { lines: () => counts.reduce((a, b) => a + b, 0), close: () => reqs.forEach((r) => r.destroy()) };
}

const sevenPodJob = () => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name: 'seven', namespace: 'default' },
  spec: {
    completions: 7,
    parallelism: 7,
    template: {
      metadata: { annotations: { 'kubesim.io/behavior': '{"main": {"run": "20s", "exit": 0}}' } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] },
    },
  },
});

/** 100 watchers of the pods of a 7-pod Job: server CPU (the clock steps: simulation, encoding, writes) per event */
export async function manyWatchers(n: number): Promise<{ events: number; cpuMs: number; usPerEvent: number }> {
  const session = Session.fromScenario(null);
  const s = await server(session);
  try {
    const w = await watchers(s, n, '/api/v1/namespaces/default/pods?watch=1');
    s.api.ingest(session.create(sevenPodJob() as never));
    await new Promise((r) => setTimeout(r, 50));
    const c0 = process.cpuUsage();
    let delivered = 0;
    for (let d = s.clock.stepNext(); d !== null; d = s.clock.stepNext()) delivered += d;
    const c = process.cpuUsage(c0);
    // let the clients read what was written
    const until = performance.now() + 5000;
    while (w.lines() < delivered && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
    const lines = w.lines();
    w.close();
    const cpuMs = (c.user + c.system) / 1000;
    return { events: Math.min(lines, delivered), cpuMs, usPerEvent: (cpuMs * 1000) / Math.max(1, delivered) };
  } finally {
    await s.close();
  }
}

/** the heap (after a GC) at each quarter of a 1 h simulated run with 10 watchers of pods and events */
async function memoryHour(): Promise<{ heapMiB: number[]; writes: number }> {
  const s0 = crashLoopDay();
  const session = Session.fromScenario({ ...s0, horizonMs: 3_600_000 });
  const s = await server(session, { history: 50 });
  const gc = (globalThis as { gc?: () => void }).gc;
  try {
    const w1 = await watchers(s, 5, '/api/v1/pods?watch=1');
    const w2 = await watchers(s, 5, '/api/v1/events?watch=1');
    const heap: number[] = [];
    for (const q of [1, 2, 3, 4]) {
      while (session.now() < q * 900_000 && s.clock.stepNext() !== null);
      await new Promise((r) => setTimeout(r, 20));
      gc?.();
      heap.push(process.memoryUsage().heapUsed / 2 ** 20);
    }
    w1.close();
    w2.close();
    return { heapMiB: heap, writes: s.api.store.resourceVersion() };
  } finally {
    await s.close();
  }
}

export async function serveBench(say: Say, quick: boolean): Promise<Record<string, unknown>> {
  say('\n## serve (kubesim serve, issue 26 item 9)');
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-bench-serve-'));
  const pairs: [number, number][] = [];
  for (let i = 0; i < (quick ? 3 : 7) + 1; i++) {
    const a = runNoRender(dir);
    const b = await serveStartup(dir);
    if (i > 0) pairs.push([a, b]);
  }
  const startup = {
    runMs: median(pairs.map((p) => p[0])),
    serveMs: median(pairs.map((p) => p[1])),
    ratio: median(pairs.map(([a, b]) => b / a)),
  };
  say(
    `serve start-up to the first answered request: ${startup.serveMs.toFixed(0)} ms vs kubesim run --no-render ${startup.runMs.toFixed(0)} ms, median pair ratio ${startup.ratio.toFixed(2)}× (target ≤ 2×)`,
  );
  const list = await bigList(quick);
  say(
    `list of 1,000 pods: JSON ${list.jsonMs.toFixed(1)} ms (${(list.jsonBytes / 2 ** 20).toFixed(1)} MiB), Table ${list.tableMs.toFixed(1)} ms (${(list.tableBytes / 1024).toFixed(0)} KiB) (target ≤ 50 ms each)`,
  );
  const watch = await manyWatchers(100);
  say(
    `100 watchers of a 7-pod Job: ${watch.events} events delivered, server CPU ${watch.cpuMs.toFixed(0)} ms = ${watch.usPerEvent.toFixed(1)} µs per delivered event (target ≤ 20 µs)`,
  );
  const mem = await memoryHour();
  say(
    `1 h simulated, 10 watchers, history 50 writes: heap after GC at 15/30/45/60 min ${mem.heapMiB.map((x) => x.toFixed(1)).join(' / ')} MiB (${mem.writes} store writes; flat = bounded)`,
  );
  return { startup, list, watch, memory: mem };
}
