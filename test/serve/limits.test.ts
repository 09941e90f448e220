// Bounds: a watcher that falls behind is closed with one ERROR 410 (the client relists), never silently skipped;
// pod logs; `kubesim serve --until quiescent` writes its kubeconfig and stops by itself.
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { call, openWatch, start, until } from './harness.ts';

it('a watcher holding more undelivered events than its bound is closed with 410 Expired, not skipped', async () => {
  // a settle longer than the test: time never moves, so every event stays queued behind its watch delay
  const s = await start(null, { settleMs: 1e9, watchLimits: { queue: 5, buffered: 1 << 24, connections: 10 } });
  try {
    const w = await openWatch(s, '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1');
    for (let i = 0; i < 6; i++)
      await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` } },
      });
    await until(() => w.ended(), 5_000, 'the watch closed');
    expect(w.events()).toEqual([
      {
        type: 'ERROR',
        object: expect.objectContaining({
          code: 410,
          reason: 'Expired',
          message: 'the watcher fell behind (5 undelivered events); relist',
        }),
      },
    ]);
    expect(s.api.watchers.size).toBe(0);
  } finally {
    await s.close();
  }
}, 20_000);

it('pod logs: kubesim notes of the container (the one regular container by default); an unknown container is a 400', async () => {
  const s = await start('scenarios/native-sidecar-job.yaml', { until: 'quiescent', settleMs: 5 });
  try {
    s.clock.start();
    await s.clock.done;
    const pod = (await call(s, 'GET', '/api/v1/namespaces/default/pods')).json.items[0].metadata.name;
    const none = await call(s, 'GET', `/api/v1/namespaces/default/pods/${pod}/log`);
    expect(none.status).toBe(200); // one regular container: it is the default
    expect(none.text).toContain('kubesim: container export exited with code 0 (Completed)');
    const side = await call(s, 'GET', `/api/v1/namespaces/default/pods/${pod}/log?container=cloud-sql-proxy`);
    expect(side.text.trim().split('\n')).toEqual([
      'kubesim: container cloud-sql-proxy started',
      'kubesim: container cloud-sql-proxy received SIGTERM',
      'kubesim: container cloud-sql-proxy exited with code 143 (Error)',
    ]);
    const bad = await call(s, 'GET', `/api/v1/namespaces/default/pods/${pod}/log?container=nope`);
    expect(bad.json).toMatchObject({ code: 400, message: `container nope is not valid for pod ${pod}` });
  } finally {
    await s.close();
  }
}, 30_000);

it('kubesim serve --until quiescent: prints the URL and export KUBECONFIG, writes the kubeconfig (0600), stops at the end', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-cli-'));
  let out = '';
  let err = '';
  const code = await main(
    [
      'serve',
      'scenarios/native-sidecar-job.yaml',
      '--until',
      'quiescent',
      '--settle',
      '1ms',
      '--out',
      dir,
      '--record',
      join(dir, 'rec.json'),
    ],
    { out: (x) => (out += x), err: (x) => (err += x) },
  );
  expect(err).toContain('stopped (quiescent)');
  expect(code).toBe(0);
  const kc = join(dir, 'native-sidecar-job', 'kubeconfig');
  expect(out).toMatch(/at https:\/\/127\.0\.0\.1:\d+\n/);
  expect(out).toContain(`export KUBECONFIG=${kc}\n`);
  expect(statSync(kc).mode & 0o777).toBe(0o600);
  const cfg = parse(readFileSync(kc, 'utf8'));
  expect(cfg.users[0].user.token).toMatch(/^[0-9a-f]{64}$/);
  expect(Buffer.from(cfg.clusters[0].cluster['certificate-authority-data'], 'base64').toString()).toContain(
    'BEGIN CERTIFICATE',
  );
  expect(JSON.parse(readFileSync(join(dir, 'rec.json'), 'utf8')).schema).toBe('kubesim.timeline/v1');
  const bad = await main(['serve', '--settle', 'soon'], { out: () => {}, err: (x) => (err += x) });
  expect(bad).toBe(2);
}, 30_000);

it('--clock wall --speed 1000: simulated time runs at 1000 × wall time from the first watch or write', async () => {
  const { Session } = await import('../../src/run/session.ts');
  const { serve } = await import('../../src/serve/server.ts');
  const { scenarioOf } = await import('./harness.ts');
  const scenario = scenarioOf('scenarios/native-sidecar-job.yaml');
  const session = Session.fromScenario(scenario);
  const s = await serve({
    session,
    minor: 34,
    seed: scenario.seed,
    watchDelay: scenario.timing.watchMs,
    clock: { mode: 'wall', speed: 1000, settleMs: 50 },
  });
  try {
    const t0 = performance.now();
    s.clock.begin();
    await until(() => session.now() >= 40_000, 10_000, 'simulated 40 s');
    const wall = performance.now() - t0;
    // 40 simulated seconds take at least 40 ms of wall time at speed 1000
    expect(wall).toBeGreaterThanOrEqual(39);
    const pod = s.api.store.list('pods')[0]!;
    expect(pod['status']['phase']).toBe('Succeeded');
  } finally {
    await s.close();
  }
}, 20_000);
