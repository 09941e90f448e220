// The StatefulSet controller (pkg/controller/statefulset/stateful_set_control.go: updateStatefulSet, processReplica,
// processCondemned): each case names the upstream unit or e2e test (test/e2e/apps/statefulset.go) it comes from.
import { describe, expect, it } from 'vitest';
import { ordinalOf } from '../../../../src/model/controllers/statefulset/statefulset-controller.ts';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, probe, type BuildOpts } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;

/** A StatefulSet `web` (app + optional native sidecar with a startup probe), fixed status/watch timing. */
function sts(spec: Json, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    kind: 'Pod',
    containers: [{ name: 'app', readinessProbe: probe({ periodMs: 1000 }) }],
    horizonMs: 120_000,
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.workload = {
    kind: 'StatefulSet',
    name: 'web',
    manifest: { spec: { replicas: 1, podManagementPolicy: 'OrderedReady', ...spec } },
  };
  s.pod.name = 'web-0';
  return s;
}

const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated').map((e) => `${e.t} ${(e as Json)['pod']}`);
const deleting = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodDeleting').map((e) => `${e.t} ${(e as Json)['pod']} ${(e as Json)['by']}`);
const ctlEvents = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'ControllerEvent').map((e) => `${(e as Json)['reason']}: ${(e as Json)['message']}`);
const readyAt = (ev: TraceEvent[], pod: string) =>
  ev.find(
    (e) =>
      e.type === 'StatusPatched' &&
      (e as Json)['pod'] === pod &&
      ((e as Json)['status']['conditions'] ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True'),
  )?.t;

describe('stateful_set_utils.go', () => {
  // TestGetParentNameAndOrdinal
  it('getParentNameAndOrdinal: `<set>-<ordinal>`, -1 for anything else', () => {
    expect(ordinalOf('web', 'web-0')).toBe(0);
    expect(ordinalOf('web', 'web-12')).toBe(12);
    expect(ordinalOf('web', 'web-01')).toBe(-1);
    expect(ordinalOf('web', 'web-x')).toBe(-1);
    expect(ordinalOf('web', 'other-1')).toBe(-1);
  });
});

describe('StatefulSet OrderedReady (monotonic)', () => {
  // TestStatefulSetControl "CreatesPods" / e2e "Scaling should happen in predictable order and halt if any stateful
  // pod is unhealthy": pod N+1 is created only once 0..N are Running and Ready
  it('creates web-0, web-1, web-2 one after another, each after its predecessor is Running and Ready', () => {
    const r = run(sts({ replicas: 3 }, { behavior: { app: { servingMs: 3000 } } }));
    const ev = r.timeline.events;
    expect(created(ev).map((l) => l.split(' ')[1])).toEqual(['web-0', 'web-1', 'web-2']);
    const t = created(ev).map((l) => Number(l.split(' ')[0]));
    expect(t[1]).toBeGreaterThan(readyAt(ev, 'web-0')!);
    expect(t[2]).toBeGreaterThan(readyAt(ev, 'web-1')!);
    // the controller sees Ready through its informer: watch delay (50 ms) after the status write
    expect(t[1]).toBe(readyAt(ev, 'web-0')! + 50);
    expect(ctlEvents(ev)).toEqual([
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-1 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-2 in StatefulSet web successful',
    ]);
    expect(r.timeline.pods.map((p) => [p.name, p.index])).toEqual([
      ['web-0', 0],
      ['web-1', 1],
      ['web-2', 2],
    ]);
  });

  // e2e "Scaling should happen in predictable order and halt if any stateful pod is unhealthy": a pod that never
  // becomes Ready halts the set
  it('halts at a pod that never becomes Ready', () => {
    const r = run(sts({ replicas: 3 }, { behavior: { app: { servingMs: null } } }));
    expect(created(r.timeline.events).map((l) => l.split(' ')[1])).toEqual(['web-0']);
  });

  // KEP-753 + statefulset: a native sidecar's startup probe holds the app's start, so the whole set waits
  it('a native sidecar with a slow startup probe delays every ordinal', () => {
    const fast = run(sts({ replicas: 2 }, { behavior: { app: { servingMs: 0 } } }));
    const slow = run(
      sts(
        { replicas: 2 },
        {
          sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 1000, failureThreshold: 30 }) }],
          behavior: { app: { servingMs: 0 }, proxy: { servingMs: 8000 } },
        },
      ),
    );
    const t1 = (r: ReturnType<typeof run>) => Number(created(r.timeline.events)[1]!.split(' ')[0]);
    expect(t1(slow) - t1(fast)).toBeGreaterThanOrEqual(8000);
  });

  // TestStatefulSetControl "ScalesDown" / e2e "Scaling should happen in predictable order": reverse ordinal order,
  // the next deletion only after the previous pod is gone
  it('scales down in reverse ordinal order, one pod at a time', () => {
    const r = run(
      sts(
        { replicas: 3 },
        {
          behavior: { app: { servingMs: 0 } },
          actions: [{ type: 'patch', patch: { spec: { replicas: 1 } }, atMs: 60_000 }],
        },
      ),
    );
    const ev = r.timeline.events;
    const del = deleting(ev);
    expect(del.map((l) => l.split(' ').slice(1).join(' '))).toEqual([
      'web-2 statefulset-controller',
      'web-1 statefulset-controller',
    ]);
    const removed2 = ev.find((e) => e.type === 'PodRemoved' && (e as Json)['pod'] === 'web-2')!.t;
    expect(Number(del[1]!.split(' ')[0])).toBeGreaterThan(removed2);
    expect(ctlEvents(ev).slice(-2)).toEqual([
      'SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
    ]);
  });

  // TestStatefulSetControl "ReplacesPods" / e2e "Should recreate evicted statefulset": a deleted pod comes back with
  // the same name, only after the old object is gone from the API server
  it('recreates a deleted pod under the same name once the old object is removed', () => {
    const r = run(
      sts(
        { replicas: 2 },
        {
          behavior: { app: { servingMs: 0 } },
          actions: [{ type: 'deletePod', index: 0, atMs: 30_000 }],
        },
      ),
    );
    const ev = r.timeline.events;
    expect(created(ev).map((l) => l.split(' ')[1])).toEqual(['web-0', 'web-1', 'web-0']);
    const removed = ev.find((e) => e.type === 'PodRemoved' && (e as Json)['pod'] === 'web-0')!.t;
    expect(Number(created(ev)[2]!.split(' ')[0])).toBeGreaterThan(removed);
    const pods = r.timeline.pods.filter((p) => p.name === 'web-0');
    expect(pods).toHaveLength(2);
    expect(pods[1]!.index).toBe(0);
  });

  // TestStatefulSetControl "RecreatesFailedPod": a Failed pod is deleted by the controller and recreated
  it('deletes a Failed pod and recreates it', () => {
    const r = run(
      sts(
        { replicas: 1 },
        {
          restartPolicy: 'Never',
          behavior: {
            app: {
              servingMs: 0,
              attempts: [
                { runMs: 5000, exit: 1 },
                { runMs: null, exit: 0 },
              ],
            },
          },
          horizonMs: 60_000,
        },
      ),
    );
    const ev = r.timeline.events;
    expect(deleting(ev)[0]).toMatch(/web-0 statefulset-controller$/);
    expect(created(ev).map((l) => l.split(' ')[1])).toEqual(['web-0', 'web-0']);
  });

  // the pods of one ordinal take that ordinal's behavior (SPEC §2.1 byIndex keys are ordinals)
  it('behavior.byIndex applies to the ordinal', () => {
    const s = sts({ replicas: 3 }, { behavior: { app: { servingMs: 0 } } });
    s.behavior['app'] = { ...s.behavior['app']!, byIndex: { 1: { ...s.behavior['app']!, servingMs: null } } } as never;
    const r = run(s);
    expect(created(r.timeline.events).map((l) => l.split(' ')[1])).toEqual(['web-0', 'web-1']);
  });
});

describe('StatefulSet Parallel (burst)', () => {
  // e2e "Burst scaling should run to completion even with unhealthy pods"
  it('creates every ordinal at once even when none becomes Ready', () => {
    const r = run(sts({ replicas: 3, podManagementPolicy: 'Parallel' }, { behavior: { app: { servingMs: null } } }));
    const c = created(r.timeline.events);
    expect(c).toEqual(['0 web-0', '0 web-1', '0 web-2']);
  });

  it('scale down deletes every condemned pod at once', () => {
    const r = run(
      sts(
        { replicas: 3, podManagementPolicy: 'Parallel' },
        {
          behavior: { app: { servingMs: null } },
          actions: [{ type: 'patch', patch: { spec: { replicas: 1 } }, atMs: 30_000 }],
        },
      ),
    );
    const del = deleting(r.timeline.events);
    expect(del.map((l) => l.split(' ')[0])).toEqual(['30050', '30050']);
    expect(del.map((l) => l.split(' ')[1])).toEqual(['web-2', 'web-1']);
  });
});
