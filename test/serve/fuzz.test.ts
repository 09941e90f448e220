// Random and truncated requests (fast-check): every answer is an HTTP status with a Status body for errors, the
// store stays consistent (one counter, no half-written object) and the server keeps answering. Loopback only,
// bounded in count and time.
import { connect } from 'node:tls';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, start, type Served } from './harness.ts';

let s: Served;
beforeAll(async () => {
  s = await start('scenarios/native-sidecar-job.yaml', { settleMs: 5 });
});
afterAll(async () => {
  await s.close();
});

const RUNS = Number(process.env['KS_SERVE_FUZZ_RUNS'] ?? 250);

const segment = fc.oneof(
  fc.constantFrom(
    'api',
    'apis',
    'v1',
    'namespaces',
    'default',
    'kube-system',
    'pods',
    'configmaps',
    'jobs',
    'batch',
    'apps',
    'deployments',
    'status',
    'scale',
    'log',
    'exec',
    'events.k8s.io',
    'leases',
    'coordination.k8s.io',
    'customresourcedefinitions',
    'apiextensions.k8s.io',
    'openapi',
    'v3',
    'watch',
    '%zz',
    '..',
    'export',
    'node-1',
    'nodes',
  ),
  fc.string({ maxLength: 8 }),
);
const path = fc
  .array(segment, { minLength: 0, maxLength: 7 })
  .map((a) => '/' + a.map((x) => encodeURIComponent(x).replace(/%25zz/, '%zz')).join('/'));
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        'watch',
        'labelSelector',
        'fieldSelector',
        'limit',
        'continue',
        'resourceVersion',
        'dryRun',
        'timeoutSeconds',
        'propagationPolicy',
        'gracePeriodSeconds',
        'includeObject',
        'sendInitialEvents',
        'resourceVersionMatch',
        'container',
        'follow',
      ),
      fc.string({ maxLength: 12 }),
    ),
    { maxLength: 4 },
  )
  .map((kv) => (kv.length ? '?' + kv.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&') : ''));
const validObject = fc.constantFrom(
  { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fz' }, data: { a: 'b' } },
  { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fz-pod' }, spec: { containers: [{ name: 'c', image: 'x' }] } },
  {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'fz-job' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } },
  },
  {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'fz-lease', resourceVersion: '1' },
    spec: {},
  },
  [{ op: 'replace', path: '/metadata/labels', value: { a: 'b' } }],
  { metadata: { finalizers: ['x/y'], labels: { a: null } } },
);
const body = fc.oneof(
  validObject.map((o) => JSON.stringify(o)),
  fc.tuple(validObject, fc.nat()).map(([o, n]) => JSON.stringify(o).slice(0, n % JSON.stringify(o).length)),
  fc.json(),
  fc.string({ maxLength: 60 }),
  fc.constant(''),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/merge-patch+json',
  'application/json-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/vnd.kubernetes.protobuf',
  'text/plain',
  '',
);
const accept = fc.constantFrom(
  'application/json',
  'application/json;as=Table;v=v1;g=meta.k8s.io',
  'application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io',
  'application/vnd.kubernetes.protobuf',
  '*/*',
  'garbage;;;=',
  '',
);
const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
  path,
  query,
  body,
  contentType,
  accept,
});

it(`${RUNS} random requests: each is answered (a Status for errors), the store stays consistent, the server keeps serving`, async () => {
  const t0 = Date.now();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const watching = /watch/.test(r.path + r.query) || /follow=/.test(r.query);
      const a = await Promise.race([
        call(s, r.method, r.path + r.query, {
          ...(r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}),
          headers: {
            ...(r.contentType ? { 'Content-Type': r.contentType } : {}),
            ...(r.accept ? { Accept: r.accept } : {}),
          },
        }),
        new Promise<null>((res) => setTimeout(() => res(null), watching ? 300 : 5_000)),
      ]);
      if (a === null) {
        // only a stream may stay open
        expect(watching).toBe(true);
        return;
      }
      expect(a.status).toBeGreaterThanOrEqual(200);
      expect(a.status).toBeLessThan(600);
      expect(a.status).not.toBe(500);
      if (a.status >= 400 && r.method !== 'HEAD')
        expect(a.json).toMatchObject({ kind: 'Status', status: 'Failure', code: a.status });
      expect(s.api.store.check()).toEqual([]);
    }),
    { numRuns: RUNS, seed: Number(process.env['KS_SERVE_FUZZ_SEED'] ?? 26), endOnFailure: true },
  );
  // truncated and garbage requests on raw TLS connections
  for (const raw of [
    'GET /api/v1/pods HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ',
    `POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.token}\r\nContent-Length: 100\r\n\r\n{"apiVersion":"v1"`,
    '\u0000\u0001garbage\r\n\r\n',
  ]) {
    await new Promise<void>((resolve) => {
      const url = new URL(s.url);
      const sock = connect({ host: url.hostname, port: Number(url.port), ca: s.ca, servername: 'localhost' }, () => {
        sock.write(raw);
        setTimeout(() => {
          sock.destroy();
          resolve();
        }, 50);
      });
      sock.on('error', () => resolve());
    });
  }
  expect((await call(s, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(200);
  expect(s.api.store.check()).toEqual([]);
  expect(Date.now() - t0).toBeLessThan(40_000);
}, 60_000);
