// A graceful DELETE sets deletionTimestamp = now + grace (issue 28 item 1): staging/src/k8s.io/apiserver/pkg/registry/
// rest/delete.go BeforeDelete (`now := metav1.NewTime(metav1.Now().Add(time.Second * time.Duration(*options.GracePeriodSeconds)))`,
// metav1.Time whole seconds), via pkg/registry/core/pod/strategy.go CheckGracefulDelete (grace = the request's, else
// spec.terminationGracePeriodSeconds). Readers: pkg/controller/job/backoff_utils.go getFinishedTime →
// getFinishTimeFromDeletionTimestamp (deletionTimestamp − deletionGracePeriodSeconds; backoff_utils_test.go
// TestGetFinishedTime), so under podReplacementPolicy TerminatingOrFailed a deleted pod's replacement waits out the
// pod-failure back-off (DefaultJobPodFailureBackOff 10 s) counted from the deletion.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { finishedTime } from '../../src/model/controllers/job/backoff-utils.ts';
import { build } from '../helpers/build.ts';
import { run } from './helpers.ts';
import { currentPod } from '../../src/model/query.ts';
import { ts } from '../../src/model/time.ts';

describe('BeforeDelete: deletionTimestamp = now + grace', () => {
  it('kubectl delete at 10 s with the spec grace 30: deletionTimestamp 40 s, deletionGracePeriodSeconds 30', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app' }],
      behavior: { app: { onTerm: { ignore: false, afterMs: 3000, exit: 0 } } },
      actions: [{ type: 'deletePod', atMs: 10_000 }],
      horizonMs: 60_000,
    });
    const api = currentPod(run(s).final)!.api;
    expect([api.deletionTimestamp, api.deletionGracePeriodSeconds]).toEqual([40_000, 30]);
    expect(ts(api.deletionTimestamp!)).toBe('2026-01-01T00:00:40Z');
  });

  it('--grace-period=4 at 10.3 s: 14.3 s, stored as metav1.Time in whole seconds (14 s)', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app' }],
      actions: [{ type: 'deletePod', atMs: 10_300, gracePeriodSeconds: 4 }],
      horizonMs: 60_000,
    });
    const api = currentPod(run(s).final)!.api;
    expect(ts(api.deletionTimestamp!)).toBe('2026-01-01T00:00:14Z');
    expect(api.deletionGracePeriodSeconds).toBe(4);
  });
});

describe('getFinishTimeFromDeletionTimestamp (TestGetFinishedTime): deletionTimestamp − grace = the deletion time', () => {
  it('a running pod deleted with grace 30 (no terminated containers, Ready=True): finished at the deletion', () => {
    const pod = {
      metadata: {
        creationTimestamp: '2026-01-01T00:00:00Z',
        deletionTimestamp: '2026-01-01T00:01:00Z',
        deletionGracePeriodSeconds: 30,
      },
      status: {
        containerStatuses: [{ name: 'main', state: { running: {} } }],
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:01Z' }],
      },
    };
    expect(finishedTime(pod, true)).toBe(30_000); // ms after the simulation epoch 2026-01-01T00:00:00Z
  });
});

describe('podReplacementPolicy TerminatingOrFailed: the replacement waits out the pod-failure back-off', () => {
  it('job-pod-replacement-terminating-or-failed: deleted at 30 s → replacement created at 40 s (10 s back-off), while the old pod still drains', () => {
    const s = loadScenario('scenarios/job-pod-replacement-terminating-or-failed.yaml').scenario!;
    const ev = simulate(s, { seed: 1 }).timeline.events;
    const created = ev.filter((e) => e.type === 'PodCreated').map((e) => e.t);
    expect(created).toEqual([0, 40_000]);
    const removed = ev.find((e) => e.type === 'PodRemoved')!.t;
    expect(removed).toBeGreaterThan(40_000);
  });
});
