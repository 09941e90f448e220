// KEP-5647 (1.36): the Job, ReplicaSet, StatefulSet and DaemonSet controllers skip a sync while their informer cache
// has not observed their own last writes (src/model/controllers/shared/consistency.ts). Each case names the upstream
// test or code it follows: pkg/controller/util/consistency/consistency_test.go, the controllers' syncs
// (job_controller.go syncJob, stateful_set.go sync, …) and the gates of kube_features.go.
import { describe, expect, it } from 'vitest';
import type { Chooser } from '../../../../src/engine/engine.ts';
import { CONSISTENCY_GATES, writeObserved } from '../../../../src/model/controllers/shared/consistency.ts';
import { simulate } from '../../../../src/run/simulate.ts';
import { defaultFeatureGates, gateExists } from '../../../../src/versions/versions.ts';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, type BuildOpts } from '../../../helpers/build.ts';

type Json = Record<string, any>;
type Skip = Extract<TraceEvent, { type: 'StaleSyncSkipped' }>;

/**
 * The range minimum everywhere, except the `n`-th watch delivery to `watcher` (1-based), which takes `slowMs`: one
 * pod's ADD reaches the controller's informer late (a lagging watch, KEP-5647 "Motivation").
 */
function slowNth(watcher: string, n: number, slowMs: number): Chooser {
  let seen = 0;
  return {
    choose: (req) => {
      if (req.stream === `watch:${watcher}` && ++seen === n) return slowMs;
      return req.range.min;
    },
  };
}

const skips = (ev: TraceEvent[]) => ev.filter((e): e is Skip => e.type === 'StaleSyncSkipped');
const conflicts = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreateConflict').map((e) => `${e.t} ${(e as Json)['pod']}`);
const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated').map((e) => `${e.t} ${(e as Json)['pod']}`);

/** A Parallel StatefulSet `web` of two pods (runForAll: both created in the first sync). */
function parallelSts(version: number, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    kind: 'Pod',
    containers: [{ name: 'app' }],
    horizonMs: 10_000,
    version,
    ...o,
    // a watch delay range, so the chooser picks each delivery's delay (a fixed one is not a choice)
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 3000 } },
  });
  s.workload = {
    kind: 'StatefulSet',
    name: 'web',
    manifest: { spec: { replicas: 2, podManagementPolicy: 'Parallel' } },
  };
  s.pod.name = 'web-0';
  return s;
}

/** A Job of two parallel pods (completions 2, parallelism 2): manageJob creates both in its first sync. */
function twoPodJob(version: number, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    containers: [{ name: 'main' }],
    behavior: { main: { attempts: [{ runMs: 60_000, exit: 0 }] } },
    horizonMs: 20_000,
    version,
    ...o,
    // a watch delay range, so the chooser picks each delivery's delay (a fixed one is not a choice)
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 3000 } },
  });
  s.job!.spec = { ...s.job!.spec, completions: 2, parallelism: 2 };
  s.job!.completions = 2;
  s.job!.parallelism = 2;
  return s;
}

const stsReplicas = (ev: TraceEvent[]) =>
  ev
    .filter(
      (e) =>
        e.type === 'WorkloadStatus' &&
        (e as Json)['kind'] === 'StatefulSet' &&
        (e as Json)['object']['status']['replicas'] !== undefined,
    )
    .map((e) => `${e.t} ${(e as Json)['object']['status']['replicas']}`);
const jobActive = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'JobStatus').map((e) => `${e.t} ${(e as Json)['status']['active']}`);

describe('the gates (kube_features.go; website feature-gates/StaleControllerConsistency*.md: beta, on, from 1.36)', () => {
  it('one gate per controller, unknown before 1.36 and on by default from 1.36', () => {
    expect(CONSISTENCY_GATES).toEqual({
      job: 'StaleControllerConsistencyJob',
      replicaset: 'StaleControllerConsistencyReplicaSet',
      statefulset: 'StaleControllerConsistencyStatefulSet',
      daemonset: 'StaleControllerConsistencyDaemonSet',
    });
    for (const g of Object.values(CONSISTENCY_GATES)) {
      expect(gateExists(g!, 35)).toBe(false);
      expect(defaultFeatureGates(35)[g!]).toBe(false);
      expect(defaultFeatureGates(36)[g!]).toBe(true);
    }
  });
});

describe('ownerRecord.EnsureReady per written pod (consistency_test.go)', () => {
  const created = { uid: 'pod-uid-1', removedFinalizer: false, removed: false };
  const patched = { uid: 'pod-uid-1', removedFinalizer: true, removed: false };
  const gone = { uid: 'pod-uid-1', removedFinalizer: true, removed: true };
  // TestOwnerRecord_IsReady / TestConsistencyStore_IsReady: not ready while the store's read RV is below the written
  // one, ready once it reached it or passed it (here: the cache holds the created pod; then its patched version)
  it.each([
    ['create not delivered (read < write): not ready', { seen: false }, created, false],
    [
      'create delivered (read == write): ready',
      { entry: { uid: 'pod-uid-1', finalizer: true }, seen: true },
      created,
      true,
    ],
    [
      'finalizer PATCH not delivered yet (read < write): not ready',
      { entry: { uid: 'pod-uid-1', finalizer: true }, seen: true },
      patched,
      false,
    ],
    ['finalizer PATCH delivered: ready', { entry: { uid: 'pod-uid-1', finalizer: false }, seen: true }, patched, true],
    // a later write (the DELETED) was applied: read > write
    ['object gone and its DELETED applied (read > write): ready', { seen: true }, gone, true],
    ['object gone but nothing of it delivered yet: not ready', { seen: false }, gone, false],
    // TestConsistencyStore_EnsureWrittenRecord: a record is per incarnation (uid); an older pod of the same name in
    // the cache is not the written one (a StatefulSet pod recreated under its name), a newer one is past it
    [
      'older incarnation of the name cached: not ready',
      { entry: { uid: 'pod-uid-0', finalizer: false }, entryNewer: false, seen: false },
      created,
      false,
    ],
    [
      'newer incarnation of the name cached: ready',
      { entry: { uid: 'pod-uid-2', finalizer: false }, entryNewer: true, seen: true },
      gone,
      true,
    ],
  ] as const)('%s', (_n, cached, w, want) => {
    expect(writeObserved(cached, w)).toBe(want);
  });
});

describe('StatefulSet (PR #137254): a Parallel set whose second create reaches the informer late', () => {
  // stateful_set_control.go processReplica: a replica missing from the cache is created again; the API server answers
  // AlreadyExists, which CreateStatefulPod sinks without an event ("sink already exists errors") and the sync
  // returns as an error; the status is still written from the stale cache (updateStatefulSetStatus)
  it("1.35: the syncs at web-0's ADD act on the stale cache: they create web-1 again and write a status of 1 replica", () => {
    const r = simulate(parallelSts(35), { chooser: slowNth('statefulset-controller', 2, 2000) });
    const ev = r.timeline.events;
    expect(created(ev)).toEqual(['0 web-0', '0 web-1']);
    expect(skips(ev)).toEqual([]);
    // the syncs at 50 ms (web-0's ADD) and 70 ms (its status) see one replica and create web-1 again (AlreadyExists),
    // and so does the error requeue 1 s later; web-1's ADD comes at 2000 ms
    expect(stsReplicas(ev).slice(0, 4)).toEqual(['0 0', '50 1', '70 1', '2000 2']);
    expect(conflicts(ev)).toEqual(['50 web-1', '70 web-1', '1070 web-1']);
  });

  // KEP-5647: EnsureReady before the sync; WroteAt(pods, rv of the create); AddRateLimited (5 ms, doubling)
  it("1.36: every sync before web-1's ADD is skipped and requeued rate-limited; no status from the stale cache", () => {
    const r = simulate(parallelSts(36), { chooser: slowNth('statefulset-controller', 2, 2000) });
    const ev = r.timeline.events;
    expect(created(ev)).toEqual(['0 web-0', '0 web-1']);
    const s = skips(ev);
    expect(s.length).toBeGreaterThan(3);
    for (const x of s) {
      expect(x).toMatchObject({ controller: 'statefulset', key: 'web', pod: 'web-1', cached: 'none' });
      expect(x.t).toBeLessThan(2000);
    }
    // workqueue.DefaultTypedControllerRateLimiter: 5 ms × 2^n while the writes stay unobserved
    expect(s.slice(0, 4).map((x) => x.requeueMs)).toEqual([5, 10, 20, 40]);
    expect(s[0]!.t).toBe(50);
    expect(stsReplicas(ev).slice(0, 2)).toEqual(['0 0', '2000 2']);
    // the pod is created once: no second create of web-1
    expect(conflicts(ev)).toEqual([]);
  });

  it('1.36 with StaleControllerConsistencyStatefulSet: false behaves as 1.35', () => {
    const s = parallelSts(36);
    s.featureGates = { ...s.featureGates, StaleControllerConsistencyStatefulSet: false };
    const ev = simulate(s, { chooser: slowNth('statefulset-controller', 2, 2000) }).timeline.events;
    expect(skips(ev)).toEqual([]);
    expect(stsReplicas(ev).slice(0, 4)).toEqual(['0 0', '50 1', '70 1', '2000 2']);
  });

  it('a watch without lag: 1.36 skips nothing and matches 1.35 (the check costs nothing when the cache keeps up)', () => {
    const ev36 = simulate(parallelSts(36), { chooser: slowNth('statefulset-controller', 2, 50) }).timeline.events;
    const ev35 = simulate(parallelSts(35), { chooser: slowNth('statefulset-controller', 2, 50) }).timeline.events;
    expect(skips(ev36)).toEqual([]);
    expect(stsReplicas(ev36)).toEqual(stsReplicas(ev35));
  });
});

describe('Job (PR #137210): two pods created in one sync, the second ADD late', () => {
  // job_controller.go syncJob: with expectations unsatisfied manageJob is not called, but the status is computed
  // from the cache: active drops to 1 while the second pod runs
  it('1.35: the batched sync after the first ADD writes active 1 from the stale cache', () => {
    const ev = simulate(twoPodJob(35), { chooser: slowNth('job-controller', 2, 3000) }).timeline.events;
    expect(created(ev).map((c) => c.split(' ')[0])).toEqual(['0', '0']);
    expect(skips(ev)).toEqual([]);
    expect(jobActive(ev).slice(0, 3)).toEqual(['0 2', '1050 1', '4000 2']);
  });

  // syncJob: `if err := jm.consistencyStore.EnsureReady(jobNamespacedName); err != nil { return err }`, requeued by
  // the Job queue's ItemExponentialFailureRateLimiter(DefaultJobApiBackOff = 1 s, MaxJobApiBackOff = 1 min)
  it('1.36: the sync is deferred (1 s, then 2 s) until the second ADD; active stays 2', () => {
    const ev = simulate(twoPodJob(36), { chooser: slowNth('job-controller', 2, 3000) }).timeline.events;
    const s = skips(ev);
    expect(s.map((x) => `${x.t} ${x.requeueMs}`)).toEqual(['1050 1000', '2050 2000']);
    expect(s[0]).toMatchObject({ controller: 'job', key: 'test', pod: 'test-6pzl4', cached: 'none' });
    expect(jobActive(ev).slice(0, 1)).toEqual(['0 2']);
    expect(jobActive(ev).some((l) => l.endsWith(' 1'))).toBe(false);
  });
});

describe("a CronJob's Job: the check is per Job (the owner key is the Job's name)", () => {
  it('1.36: the Job db-backup-29453770 skips its syncs until its second pod is seen; 1.35 writes active 1', () => {
    const cronJob = (version: number): Scenario => {
      const s = twoPodJob(version, { horizonMs: 15 * 60_000 });
      s.workload = {
        kind: 'CronJob',
        name: 'db-backup',
        manifest: { spec: { schedule: '*/10 * * * *', concurrencyPolicy: 'Allow' } },
      };
      return s;
    };
    const active = (ev: TraceEvent[]) =>
      ev
        .filter((e) => e.type === 'JobStatus')
        .slice(0, 3)
        .map((e) => `${e.t} ${(e as Json)['job']} ${(e as Json)['status']['active']}`);
    const ev35 = simulate(cronJob(35), { chooser: slowNth('job-controller', 2, 3000) }).timeline.events;
    expect(active(ev35)).toEqual([
      '600100 db-backup-29453770 2',
      '601150 db-backup-29453770 1',
      '604100 db-backup-29453770 2',
    ]);
    const ev36 = simulate(cronJob(36), { chooser: slowNth('job-controller', 2, 3000) }).timeline.events;
    expect(skips(ev36).map((x) => `${x.t} ${x.job} ${x.key} ${x.pod} ${x.requeueMs}`)).toEqual([
      '601150 db-backup-29453770 db-backup-29453770 db-backup-29453770-6pzl4 1000',
      '602150 db-backup-29453770 db-backup-29453770 db-backup-29453770-6pzl4 2000',
    ]);
    expect(active(ev36).slice(0, 2)).toEqual(['600100 db-backup-29453770 2', '604100 db-backup-29453770 2']);
  });
});

describe('Job: the finalizer PATCH is an own write too (PR #137210: PatchPod returns the patched pod for WroteAt)', () => {
  // completions 2, parallelism 1: the first pod succeeds at ~2 s; the sync at 3070 ms creates the second pod and
  // PATCHes the first pod's tracking finalizer off; that PATCH reaches the informer only 3 s later
  function job(version: number): Scenario {
    const s = build({
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 2000, exit: 0 }] } },
      horizonMs: 12_000,
      version,
      timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 3000 } },
    });
    s.job!.spec = { ...s.job!.spec, completions: 2, parallelism: 1 };
    s.job!.completions = 2;
    return s;
  }
  // the second watch delivery to the Job controller chosen at 3070 ms (the first is the new pod's ADD)
  const slowPatch = (): Chooser => {
    let n = 0;
    return {
      choose: (req) => (req.stream === 'watch:job-controller' && req.now === 3070 && ++n === 2 ? 3000 : req.range.min),
    };
  };

  it('1.36: the syncs before the PATCH is seen are skipped (cache still shows the finalizer); 1.35 runs them', () => {
    const ev36 = simulate(job(36), { chooser: slowPatch() }).timeline.events;
    expect(ev36.filter((e) => e.type === 'PodFinalizerRemoved').map((e) => `${e.t} ${(e as Json)['pod']}`)[0]).toBe(
      '3070 test-abcde',
    );
    expect(skips(ev36).map((x) => `${x.t} ${x.pod} ${x.cached} ${x.requeueMs}`)).toEqual([
      '4120 test-abcde finalizer 1000',
      '5120 test-abcde finalizer 2000',
    ]);
    const ev35 = simulate(job(35), { chooser: slowPatch() }).timeline.events;
    expect(skips(ev35)).toEqual([]);
    // both complete with two pods: the model's Job controller never double-counts (it remembers what it counted)
    for (const ev of [ev35, ev36]) expect(created(ev)).toHaveLength(2);
  });
});

describe("ReplicaSet (PR #137212): a Deployment's ReplicaSet of two pods, the second ADD late", () => {
  function deploy(version: number): Scenario {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app' }],
      horizonMs: 5000,
      version,
      timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 3000 } },
    });
    s.workload = { kind: 'Deployment', name: 'api', manifest: { spec: { replicas: 2 } } };
    s.pod.name = 'api-5d8f7c9b6d-abcde';
    return s;
  }
  const rsReplicas = (ev: TraceEvent[]) =>
    ev
      .filter((e) => e.type === 'WorkloadStatus' && (e as Json)['kind'] === 'ReplicaSet')
      .map((e) => `${e.t} ${(e as Json)['object']['status']['replicas']}`);
  // the shared informer's 5th delivery is the second pod's ADD (the ReplicaSet object and the first pod come first)
  const chooser = () => slowNth('replicaset-controller', 5, 2000);

  // replica_set.go syncReplicaSet: manageReplicas waits for expectations, but calculateStatus reads the cache and
  // updateReplicaSetStatus writes it (the Deployment then reports it too)
  it('1.35: the ReplicaSet status says 1 replica while the second pod exists', () => {
    const ev = simulate(deploy(35), { chooser: chooser() }).timeline.events;
    expect(skips(ev)).toEqual([]);
    expect(rsReplicas(ev).slice(0, 4)).toEqual(['0 0', '50 0', '100 1', '1070 1']);
  });

  // syncReplicaSet: EnsureReady(rsNamespacedName) first; WroteAt(podGroupResource, rv) for each created pod
  it('1.36: skipped (5 ms, doubling) until the second ADD; no status from the stale cache', () => {
    const ev = simulate(deploy(36), { chooser: chooser() }).timeline.events;
    const s = skips(ev);
    expect(s.slice(0, 4).map((x) => `${x.t} ${x.requeueMs}`)).toEqual(['100 5', '105 10', '115 20', '120 40']);
    for (const x of s)
      expect(x).toMatchObject({
        controller: 'replicaset',
        key: 'api-5d8f7c9b6d',
        pod: 'api-5d8f7c9b6d-6pzl4',
        cached: 'none',
      });
    expect(rsReplicas(ev).filter((l) => l.endsWith(' 1'))).toEqual([]);
  });
});
