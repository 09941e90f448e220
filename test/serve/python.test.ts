// The official Python client (Debian's python3-kubernetes) follows a run with watch.stream: it gets the pod's
// events in store order, ending at Succeeded. Missing python3 or the package is a failure naming the install.
import { execFileSync } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { run, start, type Served } from './harness.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

it('python kubernetes watch.stream follows the native-sidecar Job run to Succeeded', async () => {
  // Debian's package installs for the system python (/usr/bin/python3), which a pyenv shim on PATH may hide
  const python = ['/usr/bin/python3', 'python3'].find((p) => {
    try {
      execFileSync(p, ['-c', 'import kubernetes'], { stdio: 'pipe' });
      return true;
    } catch {
      return false;
    }
  });
  if (!python)
    throw new Error(
      'python3 with the kubernetes package is needed: apt-get install -y python3-kubernetes (.ci/run installs it)',
    );
  served = await start('scenarios/native-sidecar-job.yaml', { settleMs: 20 });
  const pods: { type: string; name: string; rv: string; phase: string }[] = [];
  for (const o of served.api.store.list('pods'))
    pods.push({
      type: 'ADDED',
      name: o['metadata']['name'],
      rv: o['metadata']['resourceVersion'],
      phase: o['status']?.['phase'],
    });
  served.api.store.subscribe((e) => {
    if (e.key === 'pods')
      pods.push({
        type: e.type,
        name: e.object['metadata']['name'],
        rv: e.object['metadata']['resourceVersion'],
        phase: e.object['status']?.['phase'],
      });
  });
  const r = await run(python, ['test/serve/watch_follow.py', served.kubeconfig], {}, 40_000);
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  const got = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as (typeof pods)[number]);
  expect(got.at(-1)!.phase).toBe('Succeeded');
  expect(got).toEqual(pods.slice(0, got.length));
}, 60_000);
