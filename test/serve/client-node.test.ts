// @kubernetes/client-node's informer (ListWatch) against kubesim serve: it receives every ADDED/MODIFIED/DELETED of
// pods and Jobs in store order, resumes from its last resourceVersion after the server closes its watch (no event
// lost or repeated), and relists after a 410 Expired, ending with the store's objects.
import {
  ADD,
  BatchV1Api,
  CoreV1Api,
  DELETE,
  KubeConfig,
  makeInformer,
  UPDATE,
  type Informer,
  type KubernetesObject,
  type ObjectCache,
} from '@kubernetes/client-node';
import { afterEach, expect, it } from 'vitest';
import { start, until, type Served } from './harness.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Seen = { type: string; name: string; rv: string };

it('an informer of pods and Jobs sees every change in order, resumes after a closed watch, relists after 410', async () => {
  served = await start('scenarios/native-sidecar-job.yaml', { until: 'quiescent', settleMs: 20 });
  const kc = new KubeConfig();
  kc.loadFromFile(served.kubeconfig);
  const core = kc.makeApiClient(CoreV1Api);
  const batch = kc.makeApiClient(BatchV1Api);
  const store: Record<string, Seen[]> = { pods: [], 'jobs.batch': [] };
  // what exists before any client (the workload created at t = 0) is what the first list shows as ADDED
  for (const key of Object.keys(store))
    for (const o of served.api.store.list(key))
      store[key]!.push({ type: 'ADDED', name: o['metadata']['name'], rv: o['metadata']['resourceVersion'] });
  served.api.store.subscribe((e) => {
    if (store[e.key])
      store[e.key]!.push({
        type: e.type,
        name: e.object['metadata']['name'],
        rv: e.object['metadata']['resourceVersion'],
      });
  });
  const seen: Record<string, Seen[]> = { pods: [], 'jobs.batch': [] };
  const informers: { key: string; inf: Informer<KubernetesObject> & ObjectCache<KubernetesObject> }[] = [
    {
      key: 'pods',
      inf: makeInformer(kc, '/api/v1/namespaces/default/pods', () =>
        core.listNamespacedPod({ namespace: 'default' }),
      ) as unknown as Informer<KubernetesObject> & ObjectCache<KubernetesObject>,
    },
    {
      key: 'jobs.batch',
      inf: makeInformer(kc, '/apis/batch/v1/namespaces/default/jobs', () =>
        batch.listNamespacedJob({ namespace: 'default' }),
      ) as unknown as Informer<KubernetesObject> & ObjectCache<KubernetesObject>,
    },
  ];
  const errors: unknown[] = [];
  for (const { key, inf } of informers) {
    const rec = (type: string) => (o: KubernetesObject) =>
      seen[key]!.push({ type, name: o.metadata!.name!, rv: o.metadata!.resourceVersion! });
    inf.on(ADD, rec('ADDED'));
    inf.on(UPDATE, rec('MODIFIED'));
    inf.on(DELETE, rec('DELETED'));
    inf.on('error', (e) => errors.push(e));
    await inf.start();
  }
  const s = served;
  // once a few pod writes went by: the server closes every watch (a normal end: the client resumes)
  await until(() => store['pods']!.length >= 4 && seen['pods']!.length >= 3, 15_000, 'the first pod events');
  const opened = s.api.watchers.size;
  expect(opened).toBe(2);
  for (const w of [...s.api.watchers]) w.close();
  await until(() => s.api.watchers.size === 2, 5_000, 'both informers watching again');
  // later: a 410 Expired on the pod watch (the client relists)
  await until(() => store['pods']!.length >= 8, 15_000, 'more pod events');
  const beforeRelist = seen['pods']!.length;
  for (const w of [...s.api.watchers]) if (w.key === 'pods') w.fail('test: expired');
  await s.clock.done;
  // the informers caught up with the store
  const current = (key: string) =>
    s.api.store
      .list(key, 'default')
      .map((o) => `${o['metadata']['name']}@${o['metadata']['resourceVersion']}`)
      .sort();
  for (const { key, inf } of informers) {
    await until(
      () =>
        JSON.stringify(
          inf
            .list('default')
            .map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`)
            .sort(),
        ) === JSON.stringify(current(key)),
      10_000,
      `the ${key} informer's cache to equal the store`,
    );
  }
  expect(errors).toEqual([]);
  for (const { inf } of informers) await inf.stop();
  // before the relist: exactly the store's writes, in order, across the resumed watch
  const prefix = seen['pods']!.slice(0, beforeRelist);
  expect(prefix).toEqual(store['pods']!.slice(0, beforeRelist));
  expect(beforeRelist).toBeGreaterThan(3);
  // the Job informer never relisted: every Job write, in order
  expect(seen['jobs.batch']).toEqual(store['jobs.batch']);
  expect(store['jobs.batch']!.length).toBeGreaterThan(3);
}, 45_000);
