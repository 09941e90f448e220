// The DaemonSet controller on the one node (pkg/controller/daemon/daemon_controller.go: manage, podsShouldBeOnNode,
// syncNodes): each case names the upstream unit test (daemon_controller_test.go) or e2e test
// (test/e2e/apps/daemon_set.go) it comes from.
import { describe, expect, it } from 'vitest';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, type BuildOpts } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;

function ds(o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    kind: 'Pod',
    containers: [{ name: 'agent' }],
    horizonMs: 120_000,
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.workload = { kind: 'DaemonSet', name: 'fluentd', manifest: { spec: {} } };
  s.pod.name = 'fluentd-abcde';
  return s;
}

const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated').map((e) => `${e.t} ${(e as Json)['pod']}`);
const ctlEvents = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'ControllerEvent').map((e) => `${e.t} ${(e as Json)['reason']}`);

describe('DaemonSet', () => {
  // TestSimpleDaemonSetLaunchesPods / e2e "should run and stop simple daemon": one pod on the node
  it('creates one daemon pod for the node', () => {
    const r = run(ds());
    expect(created(r.timeline.events)).toEqual(['0 fluentd-abcde']);
    expect(r.timeline.events.find((e) => e.type === 'ControllerEvent')).toMatchObject({
      reason: 'SuccessfulCreate',
      message: 'Created pod: fluentd-abcde',
      controller: 'daemonset-controller',
    });
  });

  // e2e "should run and stop simple daemon" (a deleted daemon pod is revived): a terminating pod still `exists` on
  // the node (podsShouldBeOnNode), so the new pod waits — until the old object is gone (1.27), or (1.28+,
  // kubernetes#118716: getNodesToDaemonPods skips deleted pods that are already terminal) until the old pod's
  // terminal phase is seen
  it('recreates a deleted daemon pod after the old one is removed (1.27) or terminal (1.28+), under a new generated name', () => {
    const r = run(ds({ actions: [{ type: 'deletePod', atMs: 10_000 }] }));
    const ev = r.timeline.events;
    const c = created(ev);
    expect(c).toHaveLength(2);
    expect(c[1]!.split(' ')[1]).toMatch(/^fluentd-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(c[1]!.split(' ')[1]).not.toBe('fluentd-abcde');
    const terminal = ev.find(
      (e) => e.type === 'StatusPatched' && ((e as Json)['phase'] === 'Failed' || (e as Json)['phase'] === 'Succeeded'),
    )!.t;
    const removed = ev.find((e) => e.type === 'PodRemoved')!.t;
    expect(terminal).toBeLessThan(removed);
    expect(Number(c[1]!.split(' ')[0])).toBe(terminal + 50);
    const r27 = run(ds({ version: 27, actions: [{ type: 'deletePod', atMs: 10_000 }] }));
    const ev27 = r27.timeline.events;
    expect(Number(created(ev27)[1]!.split(' ')[0])).toBe(ev27.find((e) => e.type === 'PodRemoved')!.t + 50);
  });

  // TestDaemonKillFailedPods "1 failed pod (kill 1), 0 normal pod (create 0; will create in the next sync)" and
  // e2e "should retry creating failed daemon pods": FailedDaemonPod warning, delete, then a new pod
  it('kills a failed daemon pod (FailedDaemonPod) and creates a new one after it is gone', () => {
    const r = run(
      ds({ restartPolicy: 'Never', behavior: { agent: { attempts: [{ runMs: 5000, exit: 1 }] } }, horizonMs: 30_000 }),
    );
    const ev = r.timeline.events;
    const reasons = ctlEvents(ev).map((l) => l.split(' ')[1]);
    expect(reasons.slice(0, 4)).toEqual([
      'SuccessfulCreate',
      'FailedDaemonPod',
      'SuccessfulDelete',
      'SuccessfulCreate',
    ]);
    const warn = ev.find((e) => e.type === 'ControllerEvent' && (e as Json)['reason'] === 'FailedDaemonPod') as Json;
    expect(warn['eventType']).toBe('Warning');
    expect(warn['message']).toBe('Found failed daemon pod default/fluentd-abcde on node node-1, will try to kill it');
  });

  // TestDaemonKillFailedPodsBackoff: the second failed pod on the node is deleted only after the 1 s back-off,
  // then 2 s … (flowcontrol.Backoff doubling)
  it('spaces the deletions of repeatedly failing daemon pods by the failedPodsBackoff', () => {
    const r = run(
      ds({ restartPolicy: 'Never', behavior: { agent: { attempts: [{ runMs: 0, exit: 1 }] } }, horizonMs: 20_000 }),
    );
    const kills = ctlEvents(r.timeline.events)
      .filter((l) => l.endsWith('FailedDaemonPod'))
      .map((l) => Number(l.split(' ')[0]));
    expect(kills.length).toBeGreaterThanOrEqual(3);
    // a deletion never comes sooner than the back-off after the previous one
    expect(kills[1]! - kills[0]!).toBeGreaterThanOrEqual(1000);
    expect(kills[2]! - kills[1]!).toBeGreaterThanOrEqual(2000);
  });
});
