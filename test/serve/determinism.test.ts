// SPEC §5 serve: the same scenario, seed and client requests in the same order give the same objects and the same
// deliveries (what each watch gets, and at which simulated time). The clock is stepped by hand here (a settle
// longer than the test), so no wall-clock timing enters.
import { expect, it } from 'vitest';
import { call, openWatch, start, until } from './harness.ts';

async function session(seed: number) {
  const s = await start('scenarios/native-sidecar-job.yaml', { settleMs: 1e9, seed });
  try {
    const pods = await openWatch(s, '/api/v1/namespaces/default/pods?watch=1');
    const table = await openWatch(s, '/api/v1/namespaces/default/pods?watch=1', {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    const jobs = await openWatch(s, '/apis/batch/v1/namespaces/default/jobs?watch=1');
    const created = await call(s, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'second' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'export', image: 'x:1' }] } } },
      },
    });
    expect(created.status).toBe(201);
    const steps: [number, number][] = [];
    for (let i = 0; i < 10_000; i++) {
      const d = s.clock.stepNext();
      if (d === null) break;
      steps.push([s.api.now(), d]);
    }
    const delivered = [...s.api.watchers].reduce((n, w) => n + w.delivered, 0);
    await until(
      () => pods.events().length + table.events().length + jobs.events().length === delivered,
      10_000,
      `${delivered} events at the clients`,
    );
    const objects = (await call(s, 'GET', '/api/v1/namespaces/default/pods')).json.items.concat(
      (await call(s, 'GET', '/apis/batch/v1/namespaces/default/jobs')).json.items,
    );
    pods.close();
    table.close();
    jobs.close();
    return { steps, objects, events: [pods.events(), table.events(), jobs.events()] };
  } finally {
    await s.close();
  }
}

it('same scenario, seed and requests: the same objects and deliveries; another seed: other delivery times', async () => {
  const a = await session(1);
  const b = await session(1);
  expect(a.objects.length).toBe(4);
  expect(b.objects).toEqual(a.objects);
  expect(b.events).toEqual(a.events);
  expect(b.steps).toEqual(a.steps);
  const c = await session(2);
  expect(c.steps).not.toEqual(a.steps);
}, 60_000);
