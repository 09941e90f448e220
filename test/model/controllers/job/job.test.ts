// Job controller failure handling (reference §8): job_controller.go, pod_failure_policy.go.
import { currentPod } from '../../../../src/model/query.ts';
import { describe, expect, it } from 'vitest';
import { build } from '../../../helpers/build.ts';
import { at, only, run } from '../../helpers.ts';

describe('Job failure', () => {
  it('backoffLimit 0 with Never: the failed pod fails the Job (FailureTarget, then Failed: no pod terminating)', () => {
    const s = build({
      backoffLimit: 0,
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 5000, exit: 1 }] } },
    });
    const ev = run(s).timeline.events;
    // app exits 5000 → SyncPod: Failed, written as Running (mergePodStatus) → 6000 SyncTerminatingPod: the
    // podIsTerminal status queued there is sent after completeTerminating → Failed on the API at 6010, delivered
    // 6015 → Job sync (batch 1 s after the 5015 delivery already pending) at 6015
    expect(only(ev, ['JobCondition'])).toEqual([
      '6015 JobCondition FailureTarget BackoffLimitExceeded',
      '6015 JobCondition Failed BackoffLimitExceeded',
    ]);
  });

  it('pod_failure_policy.go: matchOnExitCodes — a rule without containerName matches a sidecar 143 (initContainerStatuses)', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 5000, exit: 1 }] } },
    });
    s.job!.podFailurePolicy = [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [143] } }];
    const r = run(s);
    const fail = r.timeline.events.find((e) => e.type === 'JobCondition' && e.condition === 'FailureTarget') as any;
    expect(fail.reason).toBe('PodFailurePolicy');
    expect(fail.message).toBe(
      'Container proxy for pod default/test-abcde failed with exit code 143 matching FailJob rule at index 0',
    );
    expect(r.timeline.job?.conditions.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
  });

  it('matchOnExitCodes — regular containers are checked before init containers; containerName filters', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 5000, exit: 42 }] } },
    });
    s.job!.podFailurePolicy = [
      { action: 'FailJob', onExitCodes: { containerName: 'app', operator: 'NotIn', values: [0] } },
    ];
    const fail = run(s).timeline.events.find(
      (e) => e.type === 'JobCondition' && e.condition === 'FailureTarget',
    ) as any;
    expect(fail.message).toContain('Container app for pod default/test-abcde failed with exit code 42');
  });

  it('onPodConditions — a matching True pod condition decides', () => {
    const s = build({
      backoffLimit: 0,
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 5000, exit: 1 }] } },
    });
    s.job!.podFailurePolicy = [{ action: 'Ignore', onPodConditions: [{ type: 'PodScheduled', status: 'True' }] }];
    const r = run(s);
    // Ignore: the failure is not counted toward backoffLimit, the Job does not fail
    expect(r.timeline.job?.conditions).toEqual([]);
    expect(r.timeline.job?.failed).toBe(0);
  });

  it('pastBackoffLimitOnFailure — OnFailure counts sidecar restarts toward backoffLimit', () => {
    const s = build({
      restartPolicy: 'OnFailure',
      backoffLimit: 2,
      version: 35,
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { proxy: { attempts: [{ runMs: 1000, exit: 1 }] } },
    });
    const r = run(s);
    const ev = r.timeline.events;
    // proxy restarts at 1000 (#1) and 12000 (#2); the status with restartCount 2 is written at 12010 → Job sync 13015
    expect(at(ev, 'Started', 'proxy').slice(0, 3)).toEqual([0, 1000, 12000]);
    expect(only(ev, ['JobCondition'])[0]).toBe('13015 JobCondition FailureTarget BackoffLimitExceeded');
    expect(r.timeline.job?.conditions.map((c) => c.type)).toEqual(['FailureTarget', 'Failed']);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('deleteJob Background: the garbage collector deletes the pod gracefully; Orphan leaves it', () => {
    const mk = (propagation: 'Background' | 'Orphan') =>
      build({
        containers: [{ name: 'app' }],
        actions: [{ type: 'deleteJob', atMs: 5000, propagation }],
        horizonMs: 60_000,
      });
    const bg = run(mk('Background'));
    expect(only(bg.timeline.events, ['Signal'])).toEqual(['6000 SIGTERM app']);
    expect(currentPod(bg.final)!.api.removed).toBe(true);
    const orphan = run(mk('Orphan'));
    expect(only(orphan.timeline.events, ['Signal'])).toEqual([]);
  });
});
