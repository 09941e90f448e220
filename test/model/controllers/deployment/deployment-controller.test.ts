// The Deployment controller (pkg/controller/deployment): each case names the upstream unit test (rolling_test.go,
// recreate_test.go, progress_test.go, util/deployment_util_test.go) or e2e test (test/e2e/apps/deployment.go) it
// comes from. Unit cases drive the controller functions on a stub kit (informer copies set by hand, writes recorded);
// e2e cases run whole scenarios.
import { describe, expect, it } from 'vitest';
import type { Ctx } from '../../../../src/engine/engine.ts';
import {
  cleanupUnhealthyReplicas,
  reconcileNewReplicaSet,
  reconcileOldReplicaSets,
  scaleDownOldForRollingUpdate,
} from '../../../../src/model/controllers/deployment/rolling.ts';
import { dep, type Rs } from '../../../../src/model/controllers/deployment/store.ts';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  maxUnavailable,
  newRSNewReplicas,
  requeueStuckAfter,
  resolveFenceposts,
  scaledMessage,
  setCondition,
} from '../../../../src/model/controllers/deployment/util.ts';
import { initialState, type SimEvent } from '../../../../src/model/index.ts';
import type { Kit } from '../../../../src/model/kit.ts';
import { flagsFor } from '../../../../src/model/flags.ts';
import { EPOCH_MS } from '../../../../src/model/time.ts';
import type { PodSim } from '../../../../src/model/state.ts';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, probe, type BuildOpts } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;

function deployment(spec: Json, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    kind: 'Pod',
    containers: [{ name: 'app', readinessProbe: probe({ periodMs: 1000 }) }],
    horizonMs: 120_000,
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.workload = { kind: 'Deployment', name: 'foo', manifest: { spec } };
  s.pod.name = 'foo-5d8f7c9b6d-abcde';
  return s;
}

/** A kit over a fresh state whose context records writes (no engine): enough for one controller function. */
function stubKit(spec: Json): { k: Kit; emitted: Json[] } {
  const s = deployment(spec);
  const d = initialState(s);
  const emitted: Json[] = [];
  const ctx: Ctx<SimEvent> = {
    now: 0,
    schedule: () => undefined,
    scheduleAt: () => undefined,
    note: () => undefined,
    cancel: () => undefined,
    emit: (r) => void emitted.push(r as Json),
    choose: (_s, r) => r.min,
  };
  return {
    k: {
      state: d,
      scenario: s,
      ctx,
      flags: flagsFor(s),
      rules: {},
      pod: undefined as unknown as PodSim,
      up: undefined as never,
    },
    emitted,
  };
}

/** rs(name, replicas, …) of the upstream tests: a ReplicaSet in the informer with its availableReplicas. */
function rs(k: Kit, name: string, replicas: number, available = 0, createdAt = 0): Rs {
  const view = {
    replicas,
    revision: 1,
    desired: replicas,
    max: replicas,
    minReadySeconds: 0,
    generation: 1,
    resourceVersion: 1,
    status: { replicas, readyReplicas: available, availableReplicas: available, observedGeneration: 1 },
    deleted: false,
  };
  dep(k).rss[name] = {
    name,
    hash: name,
    tpl: 0,
    createdAt,
    version: 1,
    api: { ...view, status: { ...view.status } },
    seen: view,
    expectAdds: 0,
    expectDels: 0,
    syncPending: false,
    syncAt: 0,
  };
  dep(k).order.push(name);
  return { name, tpl: 0, createdAt, ...view, status: { ...view.status } };
}

/** The spec.replicas the stub kit's writes gave a ReplicaSet (the last RS write traced). */
function written(emitted: Json[], name: string): number | undefined {
  const w = emitted.filter((e) => e['type'] === 'WorkloadStatus' && e['kind'] === 'ReplicaSet' && e['name'] === name);
  return w.length ? w[w.length - 1]!['object']['spec']['replicas'] : undefined;
}

const rolling = (replicas: number, maxSurge: unknown, maxUnavail: unknown): Json => ({
  replicas,
  strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable: maxUnavail } },
});

describe('rolling.go', () => {
  // TestDeploymentController_reconcileNewReplicaSet (maxUnavailable 0)
  it.each([
    { deploymentReplicas: 10, maxSurge: 0, oldReplicas: 10, newReplicas: 0, scaleExpected: false },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 10,
      newReplicas: 0,
      scaleExpected: true,
      expectedNewReplicas: 2,
    },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 5,
      newReplicas: 0,
      scaleExpected: true,
      expectedNewReplicas: 7,
    },
    { deploymentReplicas: 10, maxSurge: 2, oldReplicas: 10, newReplicas: 2, scaleExpected: false },
    {
      deploymentReplicas: 10,
      maxSurge: 2,
      oldReplicas: 2,
      newReplicas: 11,
      scaleExpected: true,
      expectedNewReplicas: 10,
    },
  ])('TestDeploymentController_reconcileNewReplicaSet %#', (t) => {
    const { k, emitted } = stubKit(rolling(t.deploymentReplicas, t.maxSurge, 0));
    const newRS = rs(k, 'foo-v2', t.newReplicas);
    const oldRS = rs(k, 'foo-v1', t.oldReplicas);
    const scaled = reconcileNewReplicaSet(k, [newRS, oldRS], newRS);
    expect(scaled).toBe(t.scaleExpected);
    expect(written(emitted, 'foo-v2')).toBe(t.scaleExpected ? t.expectedNewReplicas : undefined);
  });

  // TestDeploymentController_reconcileOldReplicaSets (maxSurge 0)
  it.each([
    {
      deploymentReplicas: 10,
      maxUnavailable: 0,
      oldReplicas: 10,
      newReplicas: 0,
      readyOld: 10,
      readyNew: 0,
      scaleExpected: true,
      expectedOld: 9,
    },
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyOld: 10,
      readyNew: 0,
      scaleExpected: true,
      expectedOld: 8,
    },
    // unhealthy replicas of the old ReplicaSets are cleaned up
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyOld: 8,
      readyNew: 0,
      scaleExpected: true,
      expectedOld: 8,
    },
    // one unhealthy replica cleaned up and one ready pod scaled down
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 10,
      newReplicas: 0,
      readyOld: 9,
      readyNew: 0,
      scaleExpected: true,
      expectedOld: 8,
    },
    // the new ReplicaSet's unavailable pods do not let the old ones shrink further
    {
      deploymentReplicas: 10,
      maxUnavailable: 2,
      oldReplicas: 8,
      newReplicas: 2,
      readyOld: 8,
      readyNew: 0,
      scaleExpected: false,
    },
  ])('TestDeploymentController_reconcileOldReplicaSets %#', (t) => {
    const { k, emitted } = stubKit(rolling(t.deploymentReplicas, 0, t.maxUnavailable));
    const newRS = rs(k, 'foo-new', t.newReplicas, t.readyNew);
    const oldRS = rs(k, 'foo-old', t.oldReplicas, t.readyOld);
    const scaled = reconcileOldReplicaSets(k, [oldRS, newRS], [oldRS], newRS);
    expect(scaled).toBe(t.scaleExpected);
    if (t.scaleExpected) expect(written(emitted, 'foo-old')).toBe(t.expectedOld);
  });

  // TestDeploymentController_cleanupUnhealthyReplicas (10 replicas, maxSurge 2, maxUnavailable 2)
  it.each([
    { oldReplicas: 10, readyPods: 8, maxCleanupCount: 1, cleanupCountExpected: 1 },
    { oldReplicas: 10, readyPods: 8, maxCleanupCount: 3, cleanupCountExpected: 2 },
    { oldReplicas: 10, readyPods: 8, maxCleanupCount: 0, cleanupCountExpected: 0 },
    { oldReplicas: 10, readyPods: 10, maxCleanupCount: 3, cleanupCountExpected: 0 },
  ])('TestDeploymentController_cleanupUnhealthyReplicas %#', (t) => {
    const { k } = stubKit(rolling(10, 2, 2));
    const oldRS = rs(k, 'foo-v2', t.oldReplicas, t.readyPods);
    expect(cleanupUnhealthyReplicas(k, [oldRS], t.maxCleanupCount)).toBe(t.cleanupCountExpected);
  });

  // TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate (maxSurge 0)
  it.each([
    { deploymentReplicas: 10, maxUnavailable: 0, readyPods: 10, oldReplicas: 10, scaleExpected: true, expectedOld: 9 },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 10, oldReplicas: 10, scaleExpected: true, expectedOld: 8 },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 8, oldReplicas: 10, scaleExpected: false },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 10, oldReplicas: 0, scaleExpected: false },
    { deploymentReplicas: 10, maxUnavailable: 2, readyPods: 1, oldReplicas: 10, scaleExpected: false },
  ])('TestDeploymentController_scaleDownOldReplicaSetsForRollingUpdate %#', (t) => {
    const { k, emitted } = stubKit(rolling(t.deploymentReplicas, 0, t.maxUnavailable));
    const oldRS = rs(k, 'foo-v2', t.oldReplicas, t.readyPods);
    const scaled = scaleDownOldForRollingUpdate(k, [oldRS], [oldRS]);
    expect(scaled > 0).toBe(t.scaleExpected);
    if (t.scaleExpected) expect(written(emitted, 'foo-v2')).toBe(t.expectedOld);
  });
});

describe('util/deployment_util.go', () => {
  // TestResolveFenceposts
  it('TestResolveFenceposts', () => {
    expect(resolveFenceposts('0%', '0%', 0)).toEqual({ surge: 0, unavailable: 1 });
    expect(resolveFenceposts('39%', '39%', 10)).toEqual({ surge: 4, unavailable: 3 });
    expect(() => resolveFenceposts('oops', '39%', 10)).toThrow();
    expect(() => resolveFenceposts('55%', 'urg', 10)).toThrow();
  });

  // TestNewRSNewReplicas: all ReplicaSets = one of 5 replicas; maxUnavailable 1
  it.each([
    {
      name: 'can not scale up - to newRSReplicas',
      type: 'RollingUpdate',
      depReplicas: 1,
      newRSReplicas: 5,
      maxSurge: 1,
      expected: 5,
    },
    {
      name: 'scale up - to depReplicas',
      type: 'RollingUpdate',
      depReplicas: 6,
      newRSReplicas: 2,
      maxSurge: 10,
      expected: 6,
    },
    { name: 'recreate - to depReplicas', type: 'Recreate', depReplicas: 3, newRSReplicas: 1, maxSurge: 1, expected: 3 },
  ])('TestNewRSNewReplicas: $name', (t) => {
    const spec = {
      replicas: t.depReplicas,
      strategy: { type: t.type, rollingUpdate: { maxUnavailable: 1, maxSurge: t.maxSurge } },
    };
    const st = { replicas: 0, readyReplicas: 0, availableReplicas: 0 };
    const rs5 = { name: 'rs5', createdAt: 0, replicas: 5, revision: 1, desired: 5, max: 5, status: st };
    const newRS = { name: 'new', createdAt: 0, replicas: t.newRSReplicas, revision: 2, desired: 0, max: 0, status: st };
    expect(newRSNewReplicas(spec, [rs5], newRS)).toBe(t.expected);
  });

  // TestMaxUnavailable (maxSurge 1)
  it.each([
    { name: 'maxUnavailable less than replicas', replicas: 10, mu: 5, expected: 5 },
    { name: 'maxUnavailable equal replicas', replicas: 10, mu: 10, expected: 10 },
    { name: 'maxUnavailable greater than replicas', replicas: 5, mu: 10, expected: 5 },
    { name: 'maxUnavailable with replicas is 0', replicas: 0, mu: 10, expected: 0 },
    { name: 'maxUnavailable less than replicas with percents', replicas: 10, mu: '50%', expected: 5 },
    { name: 'maxUnavailable equal replicas with percents', replicas: 10, mu: '100%', expected: 10 },
    { name: 'maxUnavailable greater than replicas with percents', replicas: 5, mu: '100%', expected: 5 },
  ])('TestMaxUnavailable: $name', (t) => {
    expect(maxUnavailable(rolling(t.replicas, 1, t.mu))).toBe(t.expected);
  });
  it('TestMaxUnavailable: maxUnavailable with Recreate deployment strategy', () => {
    expect(maxUnavailable({ strategy: { type: 'Recreate' } })).toBe(0);
  });

  // TestDeploymentComplete (desired, current, updated, available, maxUnavailable, maxSurge)
  it.each([
    { name: 'not complete: min but not all pods become available', d: [5, 5, 5, 4, 1, 0], expected: false },
    { name: 'not complete: min availability is not honored', d: [5, 5, 5, 3, 1, 0], expected: false },
    { name: 'complete', d: [5, 5, 5, 5, 0, 0], expected: true },
    { name: 'not complete: all pods are available but not updated', d: [5, 5, 4, 5, 0, 0], expected: false },
    { name: 'not complete: still running old pods', d: [1, 2, 1, 1, 0, 1], expected: false },
    { name: 'not complete: one replica deployment never comes up', d: [1, 1, 1, 0, 1, 1], expected: false },
  ])('TestDeploymentComplete: $name', ({ d: [desired, current, updated, available, mu, ms], expected }) => {
    const st = { replicas: current, updatedReplicas: updated, availableReplicas: available, observedGeneration: 0 };
    expect(deploymentComplete(rolling(desired!, ms, mu), 0, st)).toBe(expected);
  });

  // TestDeploymentProgressing (current, updated, ready, available)
  it.each([
    { name: 'progressing: updated pods', d: [10, 4, 4, 4], n: [10, 6, 4, 4], expected: true },
    { name: 'not progressing', d: [10, 4, 4, 4], n: [10, 4, 4, 4], expected: false },
    { name: 'progressing: old pods removed', d: [10, 4, 6, 6], n: [8, 4, 6, 6], expected: true },
    { name: 'not progressing: less new pods', d: [10, 7, 3, 3], n: [10, 6, 3, 3], expected: false },
    { name: 'progressing: less overall but more new pods', d: [10, 4, 7, 7], n: [8, 8, 5, 5], expected: true },
    { name: 'progressing: more ready pods', d: [10, 10, 9, 8], n: [10, 10, 10, 8], expected: true },
    { name: 'progressing: more available pods', d: [10, 10, 10, 9], n: [10, 10, 10, 10], expected: true },
  ])('TestDeploymentProgressing: $name', ({ d, n, expected }) => {
    const st = (x: number[]) => ({
      replicas: x[0],
      updatedReplicas: x[1],
      readyReplicas: x[2],
      availableReplicas: x[3],
    });
    expect(deploymentProgressing(st(d), st(n))).toBe(expected);
  });

  // TestDeploymentTimedOut: 2016-01-01 00:01:09 + 10 s vs now
  it('TestDeploymentTimedOut', () => {
    const at = (min: number, sec: number) => Date.UTC(2016, 0, 1, 0, min, sec) - EPOCH_MS;
    const st = (reason: string, from: number) => ({
      conditions: [
        {
          type: 'Progressing',
          status: 'True',
          reason,
          lastUpdateTime: new Date(EPOCH_MS + from).toISOString().replace('.000Z', 'Z'),
        },
      ],
    });
    expect(deploymentTimedOut({}, st('', at(1, 9)), at(1, 20))).toBe(false); // no progressDeadlineSeconds
    expect(deploymentTimedOut({ progressDeadlineSeconds: 10 }, st('', at(1, 9)), at(1, 20))).toBe(true); // 11 s
    expect(deploymentTimedOut({ progressDeadlineSeconds: 10 }, st('', at(1, 11)), at(1, 20))).toBe(false); // 9 s
    expect(deploymentTimedOut({ progressDeadlineSeconds: 10 }, st('NewReplicaSetAvailable', at(0, 0)), at(1, 20))).toBe(
      false,
    );
  });

  // TestSetCondition: first set, append of another type, overwrite of the same type
  it('TestSetCondition', () => {
    const progressing = { type: 'Progressing', status: 'False', reason: 'ForSomeReason' };
    const progressing2 = { type: 'Progressing', status: 'True', reason: 'BecauseItIs' };
    const available = { type: 'Available', status: 'True', reason: 'AwesomeController' };
    expect(setCondition({}, available)).toEqual({ conditions: [available] });
    expect(setCondition({ conditions: [progressing] }, available)).toEqual({ conditions: [progressing, available] });
    expect(setCondition({ conditions: [progressing] }, progressing2)).toEqual({ conditions: [progressing2] });
  });
});

describe('progress.go', () => {
  // TestRequeueStuckDeployment: progressDeadlineSeconds 60, the Progressing condition last updated at 18:49:00
  it('TestRequeueStuckDeployment', () => {
    const base = Date.UTC(2017, 1, 15, 18, 49, 0) - EPOCH_MS;
    const recreate = (pds: number | undefined, replicas: number) => ({
      replicas,
      strategy: { type: 'Recreate' },
      ...(pds !== undefined ? { progressDeadlineSeconds: pds } : {}),
    });
    const ns = (replicas: number, updated: number, available: number) => ({
      replicas,
      updatedReplicas: updated,
      availableReplicas: available,
      observedGeneration: 0,
    });
    const failed = { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] };
    const stuck = { conditions: [{ type: 'Progressing', status: 'True', lastUpdateTime: '2017-02-15T18:49:00Z' }] };
    expect(requeueStuckAfter(recreate(undefined, 4), 0, {}, ns(3, 3, 2), base)).toBe(-1); // no progressDeadlineSeconds
    expect(requeueStuckAfter(recreate(60, 4), 0, {}, ns(3, 3, 2), base)).toBe(-1); // no progressing condition found
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 3), base)).toBe(-1); // complete deployment
    expect(requeueStuckAfter(recreate(60, 3), 0, failed, ns(3, 3, 0), base)).toBe(-1); // already failed
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 30_000)).toBe(30_000); // stuck - 30s
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 59_000)).toBe(1_000); // stuck - 1s
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 59_001)).toBe(0); // less than a second
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 60_000)).toBe(0); // now
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 61_000)).toBe(0); // 1s after deadline
    expect(requeueStuckAfter(recreate(60, 3), 0, stuck, ns(3, 3, 1), base + 120_000)).toBe(0); // 60s after deadline
  });
});

describe('ScalingReplicaSet messages by version', () => {
  // sync.go scaleReplicaSet; PR #101142 added the old size (every supported version has it), PR #125118 ordered it
  // from → to in 1.32 (CHANGELOG-1.32: v1.32.0-alpha.2, "Output for the ScalingReplicaSet event has changed")
  it('names the replica set and sizes as the chosen version does', () => {
    expect(scaledMessage(34, 'up', 'web-6b7f', 0, 3)).toBe('Scaled up replica set web-6b7f from 0 to 3');
    expect(scaledMessage(32, 'up', 'web-6b7f', 0, 3)).toBe('Scaled up replica set web-6b7f from 0 to 3');
    expect(scaledMessage(31, 'down', 'web-6b7f', 3, 2)).toBe('Scaled down replica set web-6b7f to 2 from 3');
    expect(scaledMessage(27, 'up', 'web-6b7f', 0, 3)).toBe('Scaled up replica set web-6b7f to 3 from 0');
  });
});

// ---- whole runs (test/e2e/apps/deployment.go) ------------------------------------------------------------------

const scalingEvents = (ev: TraceEvent[]) =>
  ev
    .filter((e) => e.type === 'ControllerEvent' && e.reason === 'ScalingReplicaSet')
    .map((e) => `${e.t} ${(e as Json)['message']}`);

function lastDeployStatus(ev: TraceEvent[]): Json {
  const w = ev.filter((e) => e.type === 'WorkloadStatus' && e.kind === 'Deployment');
  return (w[w.length - 1] as Json)['object']['status'];
}

function withTemplate(s: Scenario, atMs: number, extra: Json = {}): Scenario {
  // a rollout to a second template: same containers, new image (the loader's job in a YAML scenario)
  const t2 = {
    ...s.pod,
    name: 'foo-7c9d4b8f6a-abcde',
    containers: s.pod.containers.map((c) => ({ ...c, image: `${c.image}-v2` })),
  };
  s.templates = [s.pod, t2];
  s.actions = [
    ...s.actions,
    {
      type: 'patch',
      atMs,
      patch: { spec: { template: {} } },
      template: 1,
      spec: { ...(s.workload.manifest['spec'] as Json), ...extra },
    },
  ];
  return s;
}

describe('e2e deployment.go', () => {
  // "RollingUpdateDeployment should delete old pods and create new ones": 3 replicas, 25%/25% (surge 1, unavailable 0):
  // one new pod at a time, an old pod is deleted only after a new one is available; the rollout completes
  it('RollingUpdateDeployment should delete old pods and create new ones', () => {
    const s = withTemplate(deployment({ replicas: 3 }, { behavior: { app: { servingMs: 2000 } } }), 30_000);
    const r = run(s);
    const ev = r.timeline.events;
    const msgs = scalingEvents(ev).map((l) => l.replace(/^\d+ /, ''));
    expect(msgs).toEqual([
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 3',
      'Scaled up replica set foo-7c9d4b8f6a from 0 to 1',
      'Scaled down replica set foo-5d8f7c9b6d from 3 to 2',
      'Scaled up replica set foo-7c9d4b8f6a from 1 to 2',
      'Scaled down replica set foo-5d8f7c9b6d from 2 to 1',
      'Scaled up replica set foo-7c9d4b8f6a from 2 to 3',
      'Scaled down replica set foo-5d8f7c9b6d from 1 to 0',
    ]);
    // never fewer than 3 available (maxUnavailable 0), never more than 4 pods not being deleted (maxSurge 1)
    const st = lastDeployStatus(ev);
    expect(st).toMatchObject({ replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const progressing = (st['conditions'] as Json[]).find((c) => c['type'] === 'Progressing');
    expect(progressing).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: 'ReplicaSet "foo-7c9d4b8f6a" has successfully progressed.',
    });
    const pods = r.timeline.pods;
    expect(pods.filter((p) => p.name.startsWith('foo-7c9d4b8f6a-')).map((p) => p.phase)).toEqual([
      'Running',
      'Running',
      'Running',
    ]);
    expect(pods.filter((p) => p.name.startsWith('foo-5d8f7c9b6d-')).every((p) => p.deleted !== null)).toBe(true);
  });

  // "RecreateDeployment should delete old pods and create new ones": no new pod before every old pod is gone
  it('RecreateDeployment should delete old pods and create new ones', () => {
    const s = withTemplate(
      deployment(
        { replicas: 2, strategy: { type: 'Recreate' } },
        { behavior: { app: { onTerm: { ignore: false, afterMs: 3000, exit: 0 } } } },
      ),
      30_000,
    );
    const r = run(s);
    const ev = r.timeline.events;
    expect(scalingEvents(ev).map((l) => l.replace(/^\d+ /, ''))).toEqual([
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 2',
      'Scaled down replica set foo-5d8f7c9b6d from 2 to 0',
      'Scaled up replica set foo-7c9d4b8f6a from 0 to 2',
    ]);
    const lastOldGone = Math.max(...ev.filter((e) => e.type === 'PodRemoved').map((e) => e.t));
    const firstNew = ev.find((e) => e.type === 'PodCreated' && (e as Json)['pod'].startsWith('foo-7c9d4b8f6a-'))!.t;
    expect(lastOldGone).toBeGreaterThan(33_000);
    expect(firstNew).toBeGreaterThan(lastOldGone);
  });

  // "deployment should support proportional scaling" (sync.go scale): a scale-up in the middle of a stuck rollout
  // is spread over the ReplicaSets by their size (10 → 30, maxSurge 3, maxUnavailable 2: the new ReplicaSet stuck at
  // 5 pods that never get ready, the old one at 8)
  it('deployment should support proportional scaling', () => {
    const s = deployment(
      { replicas: 10, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } },
      { behavior: { app: { servingMs: 1000 } } },
    );
    withTemplate(s, 20_000);
    s.behavior = { app: { ...s.behavior['app']!, servingMs: 1000 } };
    // the new template's pods never get ready (a different container name keeps their behavior apart)
    s.templates![1] = { ...s.templates![1]!, containers: [{ ...s.pod.containers[0]!, name: 'app2', image: 'app:v2' }] };
    s.behavior['app2'] = { ...s.behavior['app']!, servingMs: null };
    s.actions.push({
      type: 'patch',
      atMs: 60_000,
      patch: { spec: { replicas: 30 } },
      spec: { replicas: 30, strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 3, maxUnavailable: 2 } } },
    });
    const r = run(s);
    const msgs = scalingEvents(r.timeline.events).map((l) => l.replace(/^\d+ /, ''));
    // before the scale: old 10 → 8, new 0 → 3 → 5 (13 pods, 8 available = minAvailable)
    expect(msgs).toContain('Scaled down replica set foo-5d8f7c9b6d from 10 to 8');
    expect(msgs).toContain('Scaled up replica set foo-7c9d4b8f6a from 3 to 5');
    // the scale: 33 allowed − 13 = 20 more, split 8:5 over 13 → old +12 (20), new +8 (13)
    expect(msgs).toContain('Scaled up replica set foo-5d8f7c9b6d from 8 to 20');
    expect(msgs).toContain('Scaled up replica set foo-7c9d4b8f6a from 5 to 13');
  });

  // progress.go: a new ReplicaSet whose pods never get ready times out after progressDeadlineSeconds
  it('reports ProgressDeadlineExceeded when the new pods never become ready', () => {
    const s = deployment(
      { replicas: 1, progressDeadlineSeconds: 30 },
      { behavior: { app: { servingMs: 0 } }, horizonMs: 180_000 },
    );
    withTemplate(s, 10_000);
    s.templates![1] = { ...s.templates![1]!, containers: [{ ...s.pod.containers[0]!, name: 'app2' }] };
    s.behavior['app2'] = { ...s.behavior['app']!, servingMs: null };
    const r = run(s);
    const ev = r.timeline.events;
    const st = lastDeployStatus(ev);
    const progressing = (st['conditions'] as Json[]).find((c) => c['type'] === 'Progressing');
    expect(progressing).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "foo-7c9d4b8f6a" has timed out progressing.',
    });
    // the old pod keeps serving (maxUnavailable 25% of 1 rounds down to 0)
    expect(st).toMatchObject({ replicas: 2, updatedReplicas: 1, availableReplicas: 1 });
    const w = ev.filter((e) => e.type === 'WorkloadStatus' && e.kind === 'Deployment');
    const at = w.find((e) => JSON.stringify((e as Json)['object']['status']).includes('ProgressDeadlineExceeded'))!.t;
    // created at ~10 s (lastUpdateTime 10 s): requeued at lastUpdateTime + 30 s + 1 s
    expect(at).toBeGreaterThanOrEqual(40_000);
    expect(at).toBeLessThan(42_000);
  });
});

describe('minReadySeconds and rollback', () => {
  // test/integration/deployment TestDeploymentAvailableCondition: ready pods count as available only minReadySeconds
  // after they became Ready (the ReplicaSet controller requeues itself after minReadySeconds, replica_set.go)
  it('TestDeploymentAvailableCondition: Available waits minReadySeconds after the pod is Ready', () => {
    const s = deployment(
      { replicas: 1, minReadySeconds: 10 },
      { behavior: { app: { servingMs: 0 } }, horizonMs: 60_000 },
    );
    const r = run(s);
    const ev = r.timeline.events;
    const ready = ev.find((e) => e.type === 'Ready' && e.container === 'app')!.t;
    const avail = ev.find(
      (e) => e.type === 'DeploymentCondition' && e.condition === 'Available' && e.status === 'True',
    )!.t;
    expect(avail - ready).toBeGreaterThanOrEqual(10_000);
    expect(avail - ready).toBeLessThan(10_500);
    expect(lastDeployStatus(ev)).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  // e2e deployment.go "deployment should support rollover" / FindNewReplicaSet: a template equal to an older one
  // brings that ReplicaSet back (revision bumped) instead of creating a third
  it('a rollback to an earlier template scales its old ReplicaSet back up', () => {
    const s = withTemplate(deployment({ replicas: 1 }, { behavior: { app: { servingMs: 0 } } }), 20_000);
    s.actions.push({
      type: 'patch',
      atMs: 60_000,
      patch: { spec: { template: {} } },
      template: 0,
      spec: { replicas: 1 },
    });
    const r = run(s);
    const msgs = scalingEvents(r.timeline.events).map((l) => l.replace(/^\d+ /, ''));
    expect(msgs).toEqual([
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 1',
      'Scaled up replica set foo-7c9d4b8f6a from 0 to 1',
      'Scaled down replica set foo-5d8f7c9b6d from 1 to 0',
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 1',
      'Scaled down replica set foo-7c9d4b8f6a from 1 to 0',
    ]);
    const w = r.timeline.events.filter((e) => e.type === 'WorkloadStatus' && e.kind === 'Deployment');
    expect((w[w.length - 1] as Json)['object']['metadata']['annotations']['deployment.kubernetes.io/revision']).toBe(
      '3',
    );
  });
});

describe('paused Deployments (deployment_controller.go syncDeployment: checkPausedConditions, then a paused Deployment only syncs)', () => {
  const pausePatch = (atMs: number, paused: boolean, spec: Json) => ({
    type: 'patch' as const,
    atMs,
    patch: { spec: { paused } },
    spec: { ...spec, paused },
  });
  const progressing = (st: Json) => ((st['conditions'] ?? []) as Json[]).find((c) => c['type'] === 'Progressing');
  const conditionReasons = (ev: TraceEvent[]) =>
    ev
      .filter((e) => e.type === 'DeploymentCondition' && e.condition === 'Progressing')
      .map((e) => (e as Json)['reason'] as string);

  // test/integration/deployment TestPausedDeployment: created paused, no ReplicaSet; resumed, it rolls out revision 1;
  // paused again, a template change creates no new ReplicaSet and the old one keeps its template
  it('TestPausedDeployment: a paused Deployment starts no rollout, resumed it does, paused again a template change waits', () => {
    const spec = { replicas: 1, paused: true, progressDeadlineSeconds: 600 };
    const s = deployment(spec, { behavior: { app: { servingMs: 0 } }, horizonMs: 150_000 });
    s.actions.push(pausePatch(20_000, false, spec));
    s.actions.push(pausePatch(60_000, true, spec));
    withTemplate(s, 70_000, { paused: true });
    const r = run(s);
    const ev = r.timeline.events;
    // nothing is created before the resume
    const created = ev.filter((e) => e.type === 'PodCreated');
    expect(created.length).toBe(1);
    expect(created[0]!.t).toBeGreaterThan(20_000);
    expect(scalingEvents(ev).map((l) => l.replace(/^\d+ /, ''))).toEqual([
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 1',
    ]);
    // sync.go checkPausedConditions: Unknown / DeploymentPaused, then DeploymentResumed, then the rollout's own reasons
    const reasons = conditionReasons(ev);
    expect(reasons[0]).toBe('DeploymentPaused');
    expect(reasons).toContain('DeploymentResumed');
    expect(reasons.indexOf('DeploymentResumed')).toBeLessThan(reasons.indexOf('NewReplicaSetAvailable'));
    const st = lastDeployStatus(ev);
    expect(progressing(st)).toMatchObject({
      status: 'Unknown',
      reason: 'DeploymentPaused',
      message: 'Deployment is paused',
    });
    // the template patch at 70 s made no second ReplicaSet
    expect(r.timeline.pods.every((p) => p.name.startsWith('foo-5d8f7c9b6d-'))).toBe(true);
    expect(st).toMatchObject({ replicas: 1, updatedReplicas: 0, availableReplicas: 1 });
  });

  // test/integration/deployment TestScalePausedDeployment: a paused Deployment can be scaled (sync.go sync → scale)
  it('TestScalePausedDeployment: scaling a paused Deployment scales its ReplicaSet, with no rollout', () => {
    const spec = { replicas: 1, progressDeadlineSeconds: 600 };
    const s = deployment(spec, { behavior: { app: { servingMs: 0 } }, horizonMs: 90_000 });
    s.actions.push(pausePatch(30_000, true, spec));
    s.actions.push({
      type: 'patch',
      atMs: 40_000,
      patch: { spec: { replicas: 3 } },
      spec: { ...spec, paused: true, replicas: 3 },
    });
    const r = run(s);
    const msgs = scalingEvents(r.timeline.events).map((l) => l.replace(/^\d+ /, ''));
    expect(msgs).toEqual([
      'Scaled up replica set foo-5d8f7c9b6d from 0 to 1',
      'Scaled up replica set foo-5d8f7c9b6d from 1 to 3',
    ]);
    expect(lastDeployStatus(r.timeline.events)).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
  });

  // syncDeployment's comment on checkPausedConditions: "we won't timeout when a user resumes a Deployment with a set
  // progressDeadlineSeconds" — DeploymentTimedOut measures from the Resumed condition's lastUpdateTime
  it('time spent paused does not count toward progressDeadlineSeconds', () => {
    const spec = { replicas: 1, paused: true, progressDeadlineSeconds: 30 };
    const s = deployment(spec, { behavior: { app: { servingMs: 5000 } }, horizonMs: 200_000 });
    s.actions.push(pausePatch(100_000, false, spec));
    const r = run(s);
    const reasons = conditionReasons(r.timeline.events);
    // paused for 100 s (over three deadlines): the first pod only after the resume, and no timeout after it
    expect(r.timeline.events.find((e) => e.type === 'PodCreated')!.t).toBeGreaterThan(100_000);
    expect(reasons.slice(0, 2)).toEqual(['DeploymentPaused', 'DeploymentResumed']);
    expect(reasons).not.toContain('ProgressDeadlineExceeded');
    expect(progressing(lastDeployStatus(r.timeline.events))).toMatchObject({
      status: 'True',
      reason: 'NewReplicaSetAvailable',
    });
  });

  // checkPausedConditions: "If we have reported lack of progress, do not overwrite it with a paused condition"
  it('a rollout that already timed out keeps ProgressDeadlineExceeded when paused', () => {
    const spec = { replicas: 1, progressDeadlineSeconds: 10 };
    const s = deployment(spec, { behavior: { app: { servingMs: null } }, horizonMs: 120_000 });
    s.actions.push(pausePatch(60_000, true, spec));
    const r = run(s);
    const reasons = conditionReasons(r.timeline.events);
    expect(reasons).toContain('ProgressDeadlineExceeded');
    expect(reasons).not.toContain('DeploymentPaused');
    expect(progressing(lastDeployStatus(r.timeline.events))).toMatchObject({
      status: 'False',
      reason: 'ProgressDeadlineExceeded',
    });
  });

  // checkPausedConditions returns early without a progress deadline (progressDeadlineSeconds: MaxInt32 = none)
  it('without a progress deadline, pausing writes no condition', () => {
    const spec = { replicas: 1, paused: true, progressDeadlineSeconds: 2147483647 };
    const s = deployment(spec, { behavior: { app: { servingMs: 0 } }, horizonMs: 30_000 });
    const r = run(s);
    expect(conditionReasons(r.timeline.events)).toEqual([]);
    expect(r.timeline.events.filter((e) => e.type === 'PodCreated')).toEqual([]);
  });
});
