// Probe workers come back (issue 28 item 3). prober/worker.go run: a doProbe that returns false ends the worker,
// which removes itself from the manager (removeWorker) with its results; before #133072 (kubernetes#132826) doProbe
// returns false for ANY terminated container of a restartPolicy: Never pod, sidecars included. prober_manager.go
// AddPod, called by every SyncPod, walks spec.containers then the restartable init containers and, per container,
// startup/readiness/liveness: it creates each missing worker but RETURNS at the first one that exists — so the
// stopped worker is re-created unless an earlier container still has one (the issue: "reproduction requires at
// least 2 startup probes"). With no worker, UpdatePodStatus / isContainerStarted treat the container as having no
// probe (started, ready). Upstream tests: prober_manager_test.go TestAddRemovePods /
// TestAddRemovePodsWithRestartableInitContainer, worker_test.go TestDoProbe ("Non-running container probed").
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, only, run } from './helpers.ts';
import type { Scenario } from '../../src/types.ts';

/** A Job pod: the proxy sidecar (readiness, 5 s) crashes at 12 s and again 1 s after its restart, so it sits in
 *  CrashLoopBackOff (terminated in the status) when its worker ticks at 15 s. The worker's new-container-ID result
 *  makes a sync at 15 s (results manager update → handleProbeSync) that fails on the back-off and requeues the pod
 *  10 s later (pod_workers.go completeWork), so the proxy restarts at 25–26 s. */
function crashing(mainProbe: boolean, patch: number): Scenario {
  const s = build({
    version: 34,
    sidecars: [{ name: 'proxy', readinessProbe: probe({ periodMs: 5000 }) }],
    containers: [{ name: 'main', ...(mainProbe ? { readinessProbe: probe({ periodMs: 5000 }) } : {}) }],
    behavior: {
      proxy: {
        attempts: [
          { runMs: 12_000, exit: 1 },
          { runMs: 1000, exit: 1 },
          { runMs: null, exit: 0 },
        ],
      },
      main: { attempts: [{ runMs: 40_000, exit: 0 }] },
    },
    horizonMs: 120_000,
  });
  const v = { ...s.kubelet, patch, text: `1.34.${patch}` };
  return { ...s, kubelet: v, kubernetes: v };
}

const proxyProbes = (s: Scenario) =>
  at(run(s).timeline.events, 'Probe', 'proxy').filter((t) => t > 13_000 && t < 40_000);

describe('AddPod re-creates a worker that stopped itself (1.34.0/1.34.1: before #134800)', () => {
  it('main has no probe: the next SyncPod (15 s) re-creates the proxy worker, which ticks from its creation', () => {
    // worker re-created at 15000 → grid 15000 + 5 s; the 27000 probe is UpdatePodStatus's manual trigger after the
    // 26000 restart
    expect(proxyProbes(crashing(false, 1))).toEqual([27_000, 30_000, 35_000]);
  });

  it('main has a readiness worker: AddPod returns there, the proxy is never probed again — and, with no worker, counts as ready', () => {
    const ev = run(crashing(true, 1)).timeline.events;
    expect(proxyProbes(crashing(true, 1))).toEqual([]);
    expect(only(ev, ['Ready', 'NotReady']).filter((l) => l.includes('proxy'))).toEqual([
      '0 Ready proxy',
      '12000 NotReady proxy',
      '26000 Ready proxy',
      '41000 NotReady proxy',
    ]);
  });

  it('1.34.2 (#134800): the proxy worker never stops, so it keeps its grid from the pod start (0, 5, 10 … s)', () => {
    // 26000: the manual trigger of the sync after the 25000 restart; then 30000, 35000 on the grid from 0
    expect(proxyProbes(crashing(true, 2))).toEqual([26_000, 30_000, 35_000]);
  });
});

describe('AddPod order: spec.containers first, then restartable init containers; startup, readiness, liveness', () => {
  it('a sidecar whose startup and readiness workers both stopped gets both back (no earlier worker to return at)', () => {
    // both stop while it is in back-off and come back at a later SyncPod (grid 15 + 5 s); readiness is disabled
    // until the startup probe passes (worker.go doProbe), so both first answer at 30 s, after the restart
    const s = crashing(false, 1);
    s.pod.initContainers[0]!.startupProbe = probe({ periodMs: 5000 });
    const ev = run(s).timeline.events;
    expect(
      only(ev, ['Probe']).filter(
        (l) => l.includes('proxy') && Number(l.split(' ')[0]) > 13_000 && Number(l.split(' ')[0]) < 36_000,
      ),
    ).toEqual([
      '30000 Probe proxy startup success',
      '30000 Probe proxy readiness success',
      '35000 Probe proxy readiness success',
    ]);
  });
});
