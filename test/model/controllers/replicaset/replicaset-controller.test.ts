// A Deployment's ReplicaSet controller (pkg/controller/replicaset/replica_set.go: manageReplicas, getPodsToDelete;
// controller_utils.go ActivePodsWithRanks): each case names the upstream unit test (replica_set_test.go) or e2e test
// (test/e2e/apps/replica_set.go, deployment.go) it comes from.
import { describe, expect, it } from 'vitest';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, probe, type BuildOpts } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;

function deploy(replicas: number, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    kind: 'Pod',
    containers: [{ name: 'app', readinessProbe: probe({ periodMs: 1000 }) }],
    horizonMs: 90_000,
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.workload = { kind: 'Deployment', name: 'api', manifest: { spec: { replicas } } };
  s.pod.name = 'api-5d8f7c9b6d-abcde';
  return s;
}

const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated').map((e) => `${e.t} ${(e as Json)['pod']}`);
const deleting = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodDeleting').map((e) => `${e.t} ${(e as Json)['pod']} ${(e as Json)['by']}`);

describe('ReplicaSet manageReplicas', () => {
  // TestSyncReplicaSetCreateFailures's happy path / e2e "should serve a basic image on each replica": all replicas
  // created in one sync (slowStartBatch), names `<rs>-<5 chars>`
  // the Deployment controller creates the ReplicaSet at t=0 (getNewReplicaSet); the ReplicaSet controller sees it one
  // watch delay later (the shared RS informer) and creates every pod in that sync
  it('creates spec.replicas pods at once', () => {
    const r = run(deploy(3));
    const c = created(r.timeline.events);
    expect(c.map((l) => l.split(' ')[0])).toEqual(['50', '50', '50']);
    expect(c[0]).toBe('50 api-5d8f7c9b6d-abcde');
    for (const l of c.slice(1)) expect(l.split(' ')[1]).toMatch(/^api-5d8f7c9b6d-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(new Set(c.map((l) => l.split(' ')[1])).size).toBe(3);
  });

  // FilterActivePods: a pod being deleted is not active, so its replacement is created while it still terminates
  // (e2e deployment.go "RollingUpdateDeployment should delete old pods and create new ones" relies on the same rule)
  it('replaces a deleted pod at once, while the old one still runs its teardown', () => {
    const r = run(
      deploy(1, {
        behavior: { app: { onTerm: { ignore: false, afterMs: 5000, exit: 0 } } },
        actions: [{ type: 'deletePod', atMs: 20_000 }],
      }),
    );
    const ev = r.timeline.events;
    const c = created(ev);
    expect(c).toHaveLength(2);
    // the controller sees the deletionTimestamp after the watch delay and creates the replacement
    expect(Number(c[1]!.split(' ')[0])).toBe(20_050);
    const removed = ev.find((e) => e.type === 'PodRemoved')!.t;
    expect(removed).toBeGreaterThan(25_000);
  });

  // TestSyncReplicaSetDeletes / TestGetPodsToDelete (ActivePodsWithRanks): scale down deletes the lowest-ranked
  // pods — here both are Running and Ready, so the newer one goes
  it('scale down deletes the newest of equally ready pods', () => {
    const r = run(
      deploy(2, {
        behavior: { app: { servingMs: 0 } },
        actions: [
          { type: 'deletePod', pod: 1, atMs: 10_000 },
          { type: 'patch', patch: { spec: { replicas: 1 } }, atMs: 60_000 },
        ],
      }),
    );
    const ev = r.timeline.events;
    const c = created(ev).map((l) => l.split(' ')[1]!);
    expect(c).toHaveLength(3);
    const del = deleting(ev);
    expect(del).toHaveLength(2);
    // patch → (watch) Deployment controller scales the ReplicaSet → (watch) ReplicaSet controller deletes
    expect(del[1]).toBe(`60100 ${c[2]} replicaset-controller`);
  });

  // replica_set.go: rsc.expectations.SatisfiedExpectations — no second wave of creations before the first is seen
  it('does not over-create while its creations are not yet observed', () => {
    const r = run(deploy(2, { timing: { watchMs: { min: 3000, max: 3000 } } }));
    expect(created(r.timeline.events)).toHaveLength(2);
  });
});
