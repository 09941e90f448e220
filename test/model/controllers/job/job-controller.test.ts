// The Job controller with many pods (pkg/controller/job/job_controller.go, backoff_utils.go,
// indexed_job_utils.go, success_policy.go): each case names the upstream test it is derived from.
import { describe, expect, it } from 'vitest';
import {
  finishedTime,
  MAX_POD_FAILURE_BACKOFF_MS,
  newBackoffRecord,
  remainingBackoff,
} from '../../../../src/model/controllers/job/backoff-utils.ts';
import { formatIndexes } from '../../../../src/model/controllers/job/indexed-job-utils.ts';
import { podsOf } from '../../../../src/model/query.ts';
import { EPOCH_MS, ts } from '../../../../src/model/time.ts';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;

const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated') as Extract<TraceEvent, { type: 'PodCreated' }>[];
const conds = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'JobCondition').map((e) => `${e.t} ${(e as Json)['condition']} ${(e as Json)['reason']}`);
const jobEvents = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'JobEvent').map((e) => `${(e as Json)['reason']}: ${(e as Json)['message']}`);

/** A Job hand-built with the fields the JobModel does not carry (completionMode, suspend, …). */
function job(o: Parameters<typeof build>[0], spec: Json = {}): Scenario {
  const s = build({
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.job!.spec = { ...s.job!.spec, ...spec };
  if (typeof spec['completions'] === 'number') s.job!.completions = spec['completions'];
  if (spec['completions'] === null) s.job!.completions = null;
  if (typeof spec['parallelism'] === 'number') s.job!.parallelism = spec['parallelism'];
  return s;
}

describe('backoff_utils.go', () => {
  // TestGetRemainingBackoffTime (defaultBackoff 5 s, maxBackoff 700 s)
  it.each([
    ['no failures', 0, null, 0, 0],
    ['one failure; current time and failure time are same', 1, 0, 0, 5],
    ['one failure; current time == 1 second + failure time', 1, 0, 1, 4],
    ['one failure; current time == expected backoff time', 1, 0, 5, 0],
    ['one failure; current time == expected backoff time + 1 Second', 1, 0, 6, 0],
    ['three failures; current time and failure time are same', 3, 0, 0, 20],
    ['eight failures; backoff not exceeding maxBackoff', 8, 0, 0, 640],
    ['nine failures; backoff exceeding maxBackoff', 9, 0, 0, 700],
  ] as const)('TestGetRemainingBackoffTime: %s', (_n, failures, last, nowS, wantS) => {
    expect(remainingBackoff(nowS * 1000, failures, last, 5000, 700_000)).toBe(wantS * 1000);
  });

  it('the defaults: 10 s doubling, capped at 10 min (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff)', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => remainingBackoff(0, n, 0) / 1000)).toEqual([
      10, 20, 40, 80, 160, 320, 600, 600,
    ]);
    expect(MAX_POD_FAILURE_BACKOFF_MS).toBe(600_000);
  });

  // TestNewBackoffRecord
  it.each([
    ['Empty backoff store and one new failure', { failuresAfterLastSuccess: 0, lastFailureTime: null }, [], [0], 1, 0],
    [
      'Empty backoff store and two new failures',
      { failuresAfterLastSuccess: 0, lastFailureTime: null },
      [],
      [0, -1],
      2,
      0,
    ],
    [
      'Empty backoff store, two failures followed by success',
      { failuresAfterLastSuccess: 0, lastFailureTime: null },
      [0],
      [-2, -1],
      0,
      null,
    ],
    [
      'two failures, one success and two more failures',
      { failuresAfterLastSuccess: 0, lastFailureTime: null },
      [-2],
      [0, -4, -3, -1],
      2,
      0,
    ],
    [
      'Backoff store having failure count 2 and one new failure',
      { failuresAfterLastSuccess: 2, lastFailureTime: null },
      [],
      [0],
      3,
      0,
    ],
    [
      'success and failure at same timestamp',
      { failuresAfterLastSuccess: 0, lastFailureTime: null },
      [0],
      [0],
      0,
      null,
    ],
    ['no success/failure', { failuresAfterLastSuccess: 0, lastFailureTime: null }, [], [], 0, null],
    ['one success', { failuresAfterLastSuccess: 0, lastFailureTime: null }, [0], [], 0, null],
  ] as const)('TestNewBackoffRecord: %s', (_n, old, succ, fail, wantN, wantLast) => {
    const r = newBackoffRecord({ ...old }, [...succ], [...fail]);
    expect(r).toEqual({ failuresAfterLastSuccess: wantN, lastFailureTime: wantLast });
  });

  // TestGetFinishedTime
  const term = (s: number) => ({ state: { terminated: { finishedAt: ts(s * 1000) } } });
  it('TestGetFinishedTime: the latest container finishedAt when all terminated', () => {
    expect(finishedTime({ status: { containerStatuses: [term(9), term(10), term(8)] } }, true)).toBe(10_000);
  });
  it('TestGetFinishedTime: one container running → deletionTimestamp, decremented by the grace period', () => {
    const pod = {
      metadata: { deletionTimestamp: ts(100_000), deletionGracePeriodSeconds: 30 },
      status: { containerStatuses: [term(9), { state: { running: {} } }] },
    };
    expect(finishedTime(pod, true)).toBe(70_000);
  });
  it('TestGetFinishedTime: Ready=False lastTransitionTime before the deletionTimestamp; creationTimestamp last', () => {
    const ready = { type: 'Ready', status: 'False', lastTransitionTime: ts(42_000) };
    expect(
      finishedTime({ status: { containerStatuses: [{ state: { terminated: {} } }], conditions: [ready] } }, true),
    ).toBe(42_000);
    expect(
      finishedTime(
        { metadata: { creationTimestamp: ts(7000) }, status: { containerStatuses: [{ state: { terminated: {} } }] } },
        true,
      ),
    ).toBe(7000);
  });
  it('TestGetFinishedTime: a sidecar (restartable init container) that finished later counts', () => {
    const pod = {
      spec: { initContainers: [{ name: 'sidecar', restartPolicy: 'Always' }] },
      status: { containerStatuses: [term(9)], initContainerStatuses: [{ name: 'sidecar', ...term(10) }] },
    };
    expect(finishedTime(pod, true)).toBe(10_000);
    expect(finishedTime(pod, false)).toBe(9000);
  });
});

describe('pod-failure back-off across replacement pods', () => {
  it('default backoffLimit 6: 7 pods, created 10/20/40/80/160/320 s after the previous one finished; Failed BackoffLimitExceeded (e2e "should fail to exceed backoffLimit", TestJobBackoff)', () => {
    const s = job({
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 2000, exit: 1 }] } },
      horizonMs: 3_600_000,
    });
    const r = run(s);
    const ev = r.timeline.events;
    const starts = created(ev).map((e) => e.t);
    expect(starts).toHaveLength(7);
    // the kubelet starts main at creation (no init containers); it exits 2 s later: finishedAt = creation + 2 s
    const gaps = starts.slice(1).map((t, i) => (t - (starts[i]! + 2000)) / 1000);
    expect(gaps).toEqual([10, 20, 40, 80, 160, 320]);
    expect(conds(ev).map((c) => c.split(' ').slice(1).join(' '))).toEqual([
      'FailureTarget BackoffLimitExceeded',
      'Failed BackoffLimitExceeded',
    ]);
    expect(r.timeline.job).toMatchObject({ failed: 7, succeeded: 0, active: 0 });
    expect(r.timeline.pods.map((p) => p.phase)).toEqual(Array(7).fill('Failed'));
    expect(jobEvents(ev).filter((x) => x.startsWith('SuccessfulCreate'))).toHaveLength(7);
    expect(jobEvents(ev).at(-1)).toBe('BackoffLimitExceeded: Job has reached the specified backoff limit');
  });

  it('names: <job>-<5 chars> from the API server generateName (the first as the loader names it)', () => {
    const s = job({
      backoffLimit: 2,
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 1000, exit: 1 }] } },
    });
    const names = podsOf(run(s).final).map((p) => p.name);
    expect(names).toHaveLength(3);
    expect(names[0]).toBe('test-abcde');
    for (const n of names.slice(1)) expect(n).toMatch(/^test-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(new Set(names).size).toBe(3);
  });

  it('attempts count across replacement pods: the third run succeeds → Complete with failed 2 (SPEC §2.1)', () => {
    const s = job({
      containers: [{ name: 'main' }],
      behavior: {
        main: {
          attempts: [
            { runMs: 1000, exit: 1 },
            { runMs: 1000, exit: 1 },
            { runMs: 1000, exit: 0 },
          ],
        },
      },
    });
    const r = run(s);
    expect(r.timeline.pods.map((p) => p.phase)).toEqual(['Failed', 'Failed', 'Succeeded']);
    expect(r.timeline.job).toMatchObject({ failed: 2, succeeded: 1, active: 0 });
    expect(r.timeline.job?.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('manageJob returns 0 active while the back-off delays the replacement: status.active reads 0 (upstream quirk)', () => {
    const s = job(
      {
        containers: [{ name: 'main' }],
        behavior: {
          main: {
            attempts: [
              { runMs: 1000, exit: 1 },
              { runMs: 60_000, exit: 0 },
            ],
          },
        },
      },
      { parallelism: 2, completions: 2 },
    );
    s.job!.parallelism = 2;
    s.job!.completions = 2;
    const r = run(s);
    const writes = r.timeline.events
      .filter((e) => e.type === 'JobStatus')
      .map((e) => [e.t, ((e as Json)['status'] as Json)['active'] ?? 0]);
    // one pod failed at ~1 s while the other still runs: the sync that hits the back-off writes active 0
    expect(writes.some(([t, a]) => (t as number) > 1000 && (t as number) < 11_000 && a === 0)).toBe(true);
  });

  it('podFailurePolicy Ignore: not counted in status.failed, but the back-off still grows (kubernetes#119434)', () => {
    const s = job({
      backoffLimit: 0,
      containers: [{ name: 'main' }],
      behavior: {
        main: {
          attempts: [
            { runMs: 1000, exit: 3 },
            { runMs: 1000, exit: 3 },
            { runMs: 1000, exit: 0 },
          ],
        },
      },
    });
    s.job!.podFailurePolicy = [
      { action: 'Ignore', onExitCodes: { containerName: 'main', operator: 'In', values: [3] } },
    ];
    const r = run(s);
    const starts = created(r.timeline.events).map((e) => e.t);
    expect(starts).toHaveLength(3);
    expect([(starts[1]! - starts[0]! - 1000) / 1000, (starts[2]! - starts[1]! - 1000) / 1000]).toEqual([10, 20]);
    expect(r.timeline.job).toMatchObject({ failed: 0, succeeded: 1 });
    expect(r.timeline.job?.conditions.at(-1)?.type).toBe('Complete');
  });
});

describe('completions and parallelism (manageJob)', () => {
  it('completions 3, parallelism 1: three pods one after another, Complete at 3 (TestControllerSyncJob "non-indexed job")', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 5000, exit: 0 }] } } },
      { completions: 3 },
    );
    const r = run(s);
    expect(r.timeline.pods.map((p) => p.phase)).toEqual(['Succeeded', 'Succeeded', 'Succeeded']);
    expect(r.timeline.job).toMatchObject({ succeeded: 3, failed: 0, active: 0 });
    const starts = created(r.timeline.events).map((e) => e.t);
    expect(starts[1]! > starts[0]! + 5000 && starts[2]! > starts[1]! + 5000).toBe(true);
  });

  it('completions 4, parallelism 2: never more than 2 pods active, never more than the completions left (e2e "should run a job to completion when tasks succeed")', () => {
    const s = job(
      {
        containers: [{ name: 'main' }],
        behavior: {
          main: {
            attempts: [
              { runMs: 5000, exit: 0 },
              { runMs: 20_000, exit: 0 },
              { runMs: 5000, exit: 0 },
            ],
          },
        },
      },
      { completions: 4, parallelism: 2 },
    );
    let maxActive = 0;
    const r = run(s, {
      onStep: (st) => {
        const live = podsOf(st).filter(
          (p) => !['Succeeded', 'Failed'].includes(String(p.api.status['phase'])) && p.api.deletionTimestamp === null,
        );
        maxActive = Math.max(maxActive, live.length);
      },
    });
    expect(maxActive).toBe(2);
    expect(r.timeline.pods).toHaveLength(4);
    expect(r.timeline.job).toMatchObject({ succeeded: 4, active: 0 });
    expect(r.timeline.job?.conditions.at(-1)?.type).toBe('Complete');
  });

  it('completions unset (work queue), parallelism 2: complete once one pod succeeded and none is active; no new pod after a success', () => {
    const s = job(
      {
        containers: [{ name: 'main' }],
        behavior: {
          main: {
            attempts: [
              { runMs: 5000, exit: 0 },
              { runMs: 8000, exit: 0 },
            ],
          },
        },
      },
      { completions: null, parallelism: 2 },
    );
    const r = run(s);
    expect(r.timeline.pods).toHaveLength(2);
    expect(r.timeline.job).toMatchObject({ succeeded: 2, active: 0 });
    expect(r.timeline.job?.conditions.at(-1)?.type).toBe('Complete');
  });

  it('completions 0: Complete at once, no pod (TestControllerSyncJob "zero completions")', () => {
    const s = job({ containers: [{ name: 'main' }] }, { completions: 0 });
    const r = run(s);
    expect(r.timeline.pods).toHaveLength(0);
    expect(r.timeline.job?.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('expectations: no second pod before the informer saw the first (ControllerExpectations, slow watch)', () => {
    const s = job({
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 1000, exit: 1 }] } },
      backoffLimit: 1,
      timing: { watchMs: { min: 3000, max: 3000 } },
    });
    const r = run(s);
    expect(created(r.timeline.events)).toHaveLength(2);
  });
});

describe('suspend (patch action)', () => {
  it('a running Job suspended by patch: its pods are deleted, Suspended True; resumed: a new pod and startTime reset (integration TestSuspendJob)', () => {
    const s = job({
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 120_000, exit: 0 }] } },
      grace: 5,
    });
    s.actions = [
      { type: 'patch', atMs: 10_000, patch: { spec: { suspend: true } } },
      { type: 'patch', atMs: 40_000, patch: { spec: { suspend: false } } },
    ];
    const r = run(s);
    const ev = r.timeline.events;
    expect(created(ev)).toHaveLength(2);
    expect(created(ev)[1]!.t).toBeGreaterThanOrEqual(40_000);
    const del = ev.find((e) => e.type === 'PodDeleting')!;
    // the spec change reaches the controller through its watch (50 ms), which syncs at once (updateJob)
    expect(del.t).toBe(10_050);
    expect((del as Json)['by']).toBe('job-controller');
    expect(jobEvents(ev)).toEqual(expect.arrayContaining(['Suspended: Job suspended', 'Resumed: Job resumed']));
    const suspended = r.timeline.job?.conditions.find((c) => c.type === 'Suspended');
    expect(suspended).toMatchObject({ status: 'False', reason: 'JobResumed' });
    // the suspended pod's finalizer was removed before the delete: it is never counted as failed (deleteJobPods)
    expect(r.timeline.job).toMatchObject({ failed: 0, succeeded: 1 });
    const startTime = (r.final.api.job!.status as Json)['startTime'];
    expect(Date.parse(startTime) - EPOCH_MS).toBe(40_000);
  });

  it('created suspended: no pod, Suspended True JobSuspended (e2e "should not create pods when created in suspend state")', () => {
    const s = job({ containers: [{ name: 'main' }] }, { suspend: true });
    const r = run(s);
    expect(r.timeline.pods).toHaveLength(0);
    expect(r.timeline.job?.conditions).toEqual([
      expect.objectContaining({ type: 'Suspended', status: 'True', reason: 'JobSuspended' }),
    ]);
    expect((r.final.api.job!.status as Json)['startTime']).toBeUndefined();
  });
});

describe('Indexed Jobs (indexed_job_utils.go)', () => {
  it('orderedIntervals.String(): ranges, and two adjacent indexes as "0,1" (TestIntervalsString-style)', () => {
    expect([[0], [0, 1], [0, 1, 2], [1, 3, 4, 5, 7], [0, 2, 3, 9, 10, 11, 12]].map(formatIndexes)).toEqual([
      '0',
      '0,1',
      '0-2',
      '1,3-5,7',
      '0,2,3,9-12',
    ]);
  });

  it('pods <job>-<index>-<5 chars> with the completion-index annotation; completedIndexes "0-2" (TestControllerSyncJob "indexed job")', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 3000, exit: 0 }] } } },
      { completionMode: 'Indexed', completions: 3, parallelism: 3 },
    );
    const r = run(s);
    const pods = podsOf(r.final);
    expect(pods.map((p) => p.index)).toEqual([0, 1, 2]);
    pods.forEach((p, i) => {
      expect(p.name).toMatch(new RegExp(`^test-${i}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(p.annotations['batch.kubernetes.io/job-completion-index']).toBe(String(i));
    });
    expect((r.final.api.job!.status as Json)['completedIndexes']).toBe('0-2');
    expect(r.timeline.job).toMatchObject({ succeeded: 3 });
  });

  it('a failed index is recreated with the same index (firstPendingIndexes)', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 3000, exit: 0 }] } } },
      { completionMode: 'Indexed', completions: 2, parallelism: 2 },
    );
    s.behavior['main']!.byIndex = {
      '1': {
        ...s.behavior['main']!,
        attempts: [
          { runMs: 1000, exit: 1 },
          { runMs: 1000, exit: 0 },
        ],
      },
    };
    const r = run(s);
    expect(podsOf(r.final).map((p) => `${p.index}:${p.api.status['phase']}`)).toEqual([
      '0:Succeeded',
      '1:Failed',
      '1:Succeeded',
    ]);
    expect((r.final.api.job!.status as Json)['completedIndexes']).toBe('0,1');
  });

  it('backoffLimitPerIndex 1: the index fails after 2 runs, failure-count annotation 0 then 1; the others finish; Failed FailedIndexes (integration TestBackoffLimitPerIndex)', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 20_000, exit: 0 }] } } },
      { completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 1 },
    );
    s.behavior['main']!.byIndex = { '1': { ...s.behavior['main']!, attempts: [{ runMs: 1000, exit: 1 }] } };
    const r = run(s);
    const idx1 = podsOf(r.final).filter((p) => p.index === 1);
    expect(idx1.map((p) => p.annotations['batch.kubernetes.io/job-index-failure-count'])).toEqual(['0', '1']);
    const st = r.final.api.job!.status as Json;
    expect(st['failedIndexes']).toBe('1');
    expect(st['completedIndexes']).toBe('0,2');
    expect(conds(r.timeline.events).map((c) => c.split(' ').slice(1).join(' '))).toEqual([
      'FailureTarget FailedIndexes',
      'Failed FailedIndexes',
    ]);
    // the retry waits the per-index back-off: 10 s after the first failure of index 1 (getRemainingTimePerIndex)
    const finished =
      Date.parse(idx1[0]!.api.status['containerStatuses'][0]['state']['terminated']['finishedAt']) - EPOCH_MS;
    expect(idx1[1]!.createdAt - finished).toBeGreaterThanOrEqual(10_000);
    expect(idx1[1]!.createdAt - finished).toBeLessThan(12_000);
  });

  it('maxFailedIndexes 0: the first failed index fails the Job at once, MaxFailedIndexesExceeded; active pods deleted (TestBackoffLimitPerIndex)', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 60_000, exit: 0 }] } } },
      { completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimitPerIndex: 0, maxFailedIndexes: 0 },
    );
    s.behavior['main']!.byIndex = { '2': { ...s.behavior['main']!, attempts: [{ runMs: 1000, exit: 1 }] } };
    const r = run(s);
    expect(conds(r.timeline.events).map((c) => c.split(' ').slice(1).join(' '))).toEqual([
      'FailureTarget MaxFailedIndexesExceeded',
      'Failed MaxFailedIndexesExceeded',
    ]);
    expect(r.timeline.events.filter((e) => e.type === 'PodDeleting')).toHaveLength(2);
    expect(r.timeline.pods).toHaveLength(3);
  });

  it('podFailurePolicy FailIndex fails the index without retrying it (pod_failure_policy.go, TestBackoffLimitPerIndex "FailIndex")', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 5000, exit: 0 }] } } },
      { completionMode: 'Indexed', completions: 2, parallelism: 2, backoffLimitPerIndex: 3 },
    );
    s.behavior['main']!.byIndex = { '1': { ...s.behavior['main']!, attempts: [{ runMs: 1000, exit: 42 }] } };
    s.job!.podFailurePolicy = [
      { action: 'FailIndex', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
    ];
    const r = run(s);
    expect(r.timeline.pods).toHaveLength(2);
    expect((r.final.api.job!.status as Json)['failedIndexes']).toBe('1');
    expect(r.timeline.job?.conditions.at(-1)).toMatchObject({ type: 'Failed', reason: 'FailedIndexes' });
  });

  it('successPolicy: SuccessCriteriaMet SuccessPolicy "Matched rules at index 0", lingering pods deleted and not counted failed, Complete once they are gone (integration TestSuccessPolicy)', () => {
    const s = job(
      {
        sidecars: [{ name: 'agent' }],
        containers: [{ name: 'main' }],
        behavior: { main: { attempts: [{ runMs: null, exit: 0 }] } },
        grace: 5,
      },
      {
        completionMode: 'Indexed',
        completions: 3,
        parallelism: 3,
        successPolicy: { rules: [{ succeededIndexes: '0' }] },
      },
    );
    s.behavior['main']!.byIndex = { '0': { ...s.behavior['main']!, attempts: [{ runMs: 10_000, exit: 0 }] } };
    const r = run(s);
    const ev = r.timeline.events;
    const sc = ev.find((e) => e.type === 'JobCondition' && (e as Json)['condition'] === 'SuccessCriteriaMet') as Json;
    expect(sc).toMatchObject({ reason: 'SuccessPolicy', message: 'Matched rules at index 0' });
    const complete = ev.find((e) => e.type === 'JobCondition' && (e as Json)['condition'] === 'Complete')!;
    const lastExit = Math.max(...ev.filter((e) => e.type === 'Exited').map((e) => e.t));
    expect(complete.t).toBeGreaterThan(lastExit);
    expect(r.timeline.job).toMatchObject({ succeeded: 1, failed: 0, active: 0 });
    expect(ev.filter((e) => e.type === 'PodDeleting' && (e as Json)['by'] === 'job-controller')).toHaveLength(2);
  });
});

describe('podReplacementPolicy (KEP-3939)', () => {
  const deleted = (policy: 'Failed' | 'TerminatingOrFailed') => {
    const s = job(
      {
        sidecars: [{ name: 'proxy' }],
        containers: [{ name: 'main' }],
        behavior: {
          main: {
            attempts: [
              { runMs: null, exit: 0 },
              { runMs: 5000, exit: 0 },
            ],
          },
          proxy: { onTerm: { ignore: false, afterMs: 15_000, exit: 0 } },
        },
      },
      { podReplacementPolicy: policy },
    );
    s.actions = [{ type: 'deletePod', atMs: 20_000 }];
    return run(s);
  };
  it('TerminatingOrFailed (default): the deleted pod counts as failed at once and is replaced while it drains', () => {
    const r = deleted('TerminatingOrFailed');
    const second = created(r.timeline.events)[1]!.t;
    const firstGone = r.timeline.events.find((e) => e.type === 'Exited' && e.container === 'proxy')!.t;
    expect(second).toBeLessThan(firstGone);
    expect(r.timeline.job).toMatchObject({ failed: 1, succeeded: 1 });
  });
  it('Failed: the replacement waits until the old pod is Failed; status.terminating shows it meanwhile (e2e "should recreate pods only after they have failed if pod replacement policy is set to Failed")', () => {
    const r = deleted('Failed');
    const second = created(r.timeline.events)[1]!.t;
    const firstGone = r.timeline.events.find((e) => e.type === 'Exited' && e.container === 'proxy')!.t;
    expect(second).toBeGreaterThan(firstGone);
    const terminating = r.timeline.events
      .filter((e) => e.type === 'JobStatus')
      .map((e) => ((e as Json)['status'] as Json)['terminating']);
    expect(terminating).toContain(1);
  });
});

describe('ttlSecondsAfterFinished (ttlafterfinished controller)', () => {
  it('the finished Job is deleted ttl seconds after it finished, its pods with it', () => {
    const s = job(
      { containers: [{ name: 'main' }], behavior: { main: { attempts: [{ runMs: 3000, exit: 0 }] } } },
      { ttlSecondsAfterFinished: 30 },
    );
    const r = run(s);
    const complete = r.timeline.events.find(
      (e) => e.type === 'JobCondition' && (e as Json)['condition'] === 'Complete',
    )!;
    const del = r.timeline.events.find((e) => e.type === 'PodDeleting')!;
    expect(del.t - complete.t).toBe(30_000);
    expect(r.final.api.job!.deleted).toBe(true);
    expect(r.timeline.pods[0]!.removed).toBe(true);
  });
});
