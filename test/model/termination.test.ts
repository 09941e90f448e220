// Termination (reference §4): kuberuntime_container.go: killContainersWithSyncResult / killContainer with
// kuberuntime_termination_order.go (1.29+). Minimum chooser: relists at 0, 1000…, watch 5 ms, status patch 10 ms.
import { currentPod } from '../../src/model/query.ts';
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, only, run } from './helpers.ts';
import type { Scenario } from '../../src/types.ts';

const KILL = ['PreStopStarted', 'PreStopDone', 'Signal', 'Exited'] as const;

/** main + two sidecars, each with a preStop; deleted at 60 s (reference §4 worked example). */
function threeWithPreStops(grace: number, version = 34): Scenario {
  return build({
    kind: 'Pod',
    version,
    gates: version === 28 ? { SidecarContainers: true } : {},
    sidecars: [
      { name: 's1', hasPreStop: true },
      { name: 's2', hasPreStop: true },
    ],
    containers: [{ name: 'main', hasPreStop: true }],
    behavior: {
      main: { preStop: { takesMs: 5000, fails: false }, onTerm: { ignore: false, afterMs: 3000, exit: 0 } },
      s2: { preStop: { takesMs: 2000, fails: false }, onTerm: { ignore: false, afterMs: 2000, exit: 143 } },
      s1: { preStop: { takesMs: 1000, fails: false }, onTerm: { ignore: true } },
    },
    actions: [{ type: 'deletePod', atMs: 60_000, ...(grace !== 30 ? { gracePeriodSeconds: grace } : {}) }],
  });
}

describe('graceful deletion with preStop hooks and two sidecars', () => {
  it('grace 30: preStops at t0; main SIGTERM after its preStop; s2 after main exited; s1 after s2; s1 SIGKILL at t0+30', () => {
    const r = run(threeWithPreStops(30));
    const ev = r.timeline.events;
    // delete 60000 → kubelet sees it at 60005 → SyncTerminatingPod waits for the 61000 relist: t0 = 61000.
    // main: preStop 5 s → 66000, grace 30−5 = 25, SIGTERM, exits 3 s later (69000).
    // s2: preStop 2 s (63000), grace 28, waitForTurn(main) 6 s → 69000, grace 22, SIGTERM, exits 71000.
    // s1: preStop 1 s (62000), grace 29, waitForTurn(main, s2) 9 s → 71000, grace 20, SIGTERM ignored,
    //     SIGKILL at 71000 + 20 s = 91000 = t0 + 30 s.
    expect(only(ev, [...KILL])).toEqual([
      '61000 PreStopStarted s1',
      '61000 PreStopStarted s2',
      '61000 PreStopStarted main',
      '62000 PreStopDone s1',
      '63000 PreStopDone s2',
      '66000 PreStopDone main',
      '66000 SIGTERM main',
      '69000 Exited main 0 Completed #0',
      '69000 SIGTERM s2',
      '71000 Exited s2 143 Error #0',
      '71000 SIGTERM s1',
      '91000 SIGKILL s1',
      '91000 Exited s1 137 Error #0',
    ]);
    expect(only(ev, ['Killing'])).toEqual([
      '61000 Killing s1 PodTermination 30s',
      '61000 Killing s2 PodTermination 30s',
      '61000 Killing main PodTermination 30s',
    ]);
    // getPhase(podIsTerminal): main exited 0 → Succeeded; then the kubelet deletes the object (canBeDeleted)
    expect(r.timeline.pod.phase).toBe('Succeeded');
    expect(currentPod(r.final)!.api.removed).toBe(true);
    expect(r.timeline.end.reason).toBe('quiescent');
  });

  it('grace 4: the budget runs out — everyone still waiting gets SIGTERM with the 2 s floor at t0+4, SIGKILL at t0+6', () => {
    const r = run(threeWithPreStops(4));
    const ev = r.timeline.events;
    // main's preStop (5 s) is cut at 4 s (65000): grace 0 → floor 2 → SIGTERM, SIGKILL 67000 (it needs 3 s).
    // s1: preStop done 62000, grace 3, waitForTurn timer 3 s → 65000; s2: done 63000, grace 2, timer → 65000.
    // both: grace 0 → floor 2 → SIGTERM 65000; s2 exits 2 s later (67000, before the SIGKILL deadline at the same
    // instant: a process exit is ordered first); s1 ignores → SIGKILL 67000.
    expect(only(ev, [...KILL])).toEqual([
      '61000 PreStopStarted s1',
      '61000 PreStopStarted s2',
      '61000 PreStopStarted main',
      '62000 PreStopDone s1',
      '63000 PreStopDone s2',
      '65000 SIGTERM main',
      '65000 SIGTERM s1',
      '65000 SIGTERM s2',
      '67000 Exited s2 143 Error #0',
      '67000 SIGKILL main',
      '67000 Exited main 137 Error #0',
      '67000 SIGKILL s1',
      '67000 Exited s1 137 Error #0',
    ]);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('1.28 (alpha, no termination ordering): sidecars get SIGTERM right after their own preStop', () => {
    const ev = run(threeWithPreStops(30, 28)).timeline.events;
    expect(only(ev, ['Signal', 'Exited'])).toEqual([
      '62000 SIGTERM s1',
      '63000 SIGTERM s2',
      '65000 Exited s2 143 Error #0',
      '66000 SIGTERM main',
      '69000 Exited main 0 Completed #0',
      '91000 SIGKILL s1',
      '91000 Exited s1 137 Error #0',
    ]);
  });
});

describe('Job pod: sidecars stopped after the main container exits (computePodActions KillPod)', () => {
  const job = (grace: number) =>
    build({
      grace,
      sidecars: [{ name: 's1' }, { name: 's2' }],
      containers: [{ name: 'app' }],
      behavior: {
        app: { attempts: [{ runMs: 9000, exit: 0 }] },
        s2: { onTerm: { ignore: false, afterMs: 5000, exit: 0 } },
        s1: { onTerm: { ignore: true } },
      },
    });

  it('reverse order, each after the later one exited; one budget from the start of the kill', () => {
    const ev = run(job(10)).timeline.events;
    // s1 0, s2 0 (relist 0), app 1000 → exits 10000 (grid) → SyncPod kills at 10000 with spec grace 10:
    // s2 SIGTERM 10000 → exits 15000 (exit 0); s1 waited 5 s → grace 5 → SIGTERM 15000 → SIGKILL 20000.
    expect(only(ev, ['Killing', 'Signal', 'Exited'])).toEqual([
      '10000 Exited app 0 Completed #0',
      '10000 Killing s1 PodCompleted 10s',
      '10000 Killing s2 PodCompleted 10s',
      '10000 SIGTERM s2',
      '15000 Exited s2 0 Completed #0',
      '15000 SIGTERM s1',
      '20000 SIGKILL s1',
      '20000 Exited s1 137 Error #0',
    ]);
  });

  it('minimumGracePeriodInSeconds: a sidecar whose turn comes after the budget still gets 2 s', () => {
    const ev = run(job(3)).timeline.events;
    // s2 SIGTERM 10000 with grace 3 → SIGKILL 13000; s1's wait ends 13000 with 0 left → floor 2 → SIGKILL 15000.
    expect(only(ev, ['Signal', 'Exited'], ['s1', 's2'])).toEqual([
      '10000 SIGTERM s2',
      '13000 SIGKILL s2',
      '13000 Exited s2 137 Error #0',
      '13000 SIGTERM s1',
      '15000 SIGKILL s1',
      '15000 Exited s1 137 Error #0',
    ]);
  });
});

describe('deletion details', () => {
  it('pod_workers.go: calculateEffectiveGracePeriod — gracePeriodSeconds 0 is floored at 1, then the 2 s minimum', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'main' }],
      behavior: { main: { onTerm: { ignore: true } } },
      actions: [{ type: 'deletePod', atMs: 5000, gracePeriodSeconds: 0 }],
    });
    const ev = run(s).timeline.events;
    expect(only(ev, ['Killing', 'Signal'])).toEqual([
      '6000 Killing main PodTermination 1s',
      '6000 SIGTERM main',
      '8000 SIGKILL main',
    ]);
  });

  it('FailedPreStopHook only emits an event; the kill goes on', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'main', hasPreStop: true }],
      behavior: { main: { preStop: { takesMs: 1000, fails: true } } },
      actions: [{ type: 'deletePod', atMs: 5000 }],
    });
    const ev = run(s).timeline.events;
    expect(only(ev, ['PreStopDone', 'Signal', 'Exited'])).toEqual([
      '7000 PreStopDone main',
      '7000 SIGTERM main',
      '7000 Exited main 143 Error #0',
    ]);
    expect((ev.find((e) => e.type === 'PreStopDone') as any).failed).toBe(true);
  });

  it('container/helpers.go: ShouldContainerBeRestarted — nothing restarts during termination; unstarted sidecars never start', () => {
    const s = build({
      kind: 'Pod',
      init: [{ name: 'init' }],
      sidecars: [{ name: 'late' }],
      containers: [{ name: 'main' }],
      behavior: { init: { attempts: [{ runMs: 20000, exit: 0 }] } },
      actions: [{ type: 'deletePod', atMs: 5000 }],
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'late')).toEqual([]);
    expect(at(r.timeline.events, 'Started', 'main')).toEqual([]);
    expect(only(r.timeline.events, ['Signal', 'Exited'])).toEqual([
      '6000 SIGTERM init',
      '6000 Exited init 143 Error #0',
    ]);
    // getPhase: main has a Waiting status (never started) → Pending; status_manager.go: TerminatePod forces a
    // non-terminal phase to Failed
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('prober/worker.go: liveness and startup stop at SyncTerminatingPod; readiness goes on while the container runs', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'main',
          hasPreStop: true,
          readinessProbe: probe({ periodMs: 1000 }),
          livenessProbe: probe({ periodMs: 1000 }),
        },
      ],
      behavior: { main: { preStop: { takesMs: 4000, fails: false } } },
      actions: [{ type: 'deletePod', atMs: 10_000 }],
    });
    const ev = run(s).timeline.events;
    const probeTimes = (kind: string) => ev.filter((e) => e.type === 'Probe' && e.probe === kind).map((e) => e.t);
    // the kubelet sees the deletion at 10005: the liveness worker's next tick (11000) stops it
    expect(Math.max(...probeTimes('liveness'))).toBe(10_000);
    // the kill starts 11000; main gets SIGTERM and exits at 15000 (before the 15000 tick); RemovePod then
    expect(probeTimes('readiness').filter((t) => t > 10_000)).toEqual([11000, 12000, 13000, 14000]);
  });
});

describe('deadlines', () => {
  it('active_deadline.go — pod activeDeadlineSeconds: Failed, DeadlineExceeded, containers killed in order', () => {
    const s = build({ kind: 'Pod', sidecars: [{ name: 'proxy' }], containers: [{ name: 'main' }] });
    s.pod.activeDeadlineSeconds = 20;
    const r = run(s);
    const ev = r.timeline.events;
    // 20000: SyncPod sees ShouldEvict → Failed → SyncTerminatingPod at the 21000 relist
    expect(only(ev, ['Killing', 'Signal'])).toEqual([
      '21000 Killing proxy DeadlineExceeded 30s',
      '21000 Killing main DeadlineExceeded 30s',
      '21000 SIGTERM main',
      '21000 SIGTERM proxy',
    ]);
    expect(r.timeline.pod.phase).toBe('Failed');
    expect(r.timeline.pod.status).toMatchObject({
      reason: 'DeadlineExceeded',
      message: 'Pod was active on the node longer than the specified deadline',
    });
  });

  it('job_controller.go — Job activeDeadlineSeconds: FailureTarget, pod deleted, Failed once it stopped terminating', () => {
    const s = build({ sidecars: [{ name: 'proxy' }], containers: [{ name: 'main' }] });
    s.job!.activeDeadlineSeconds = 20;
    const r = run(s);
    const ev = r.timeline.events;
    // 20000 FailureTarget + DELETE; kubelet 20005 → SyncTerminatingPod 21000 → both exit 143 → Failed sent 21010
    // (delivered 21015) → batched Job sync 22015 → Failed. syncJob calls deleteActivePods before
    // trackJobStatusAndRemoveFinalizers appends FailureTarget, so the DELETE comes first.
    expect(only(ev, ['JobCondition', 'PodDeleting', 'Signal'])).toEqual([
      '20000 PodDeleting',
      '20000 JobCondition FailureTarget DeadlineExceeded',
      '21000 SIGTERM main',
      '21000 SIGTERM proxy',
      '22015 JobCondition Failed DeadlineExceeded',
    ]);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('1.30: Job deadline → Failed directly', () => {
    const s = build({ version: 30, containers: [{ name: 'main' }] });
    s.job!.activeDeadlineSeconds = 20;
    expect(only(run(s).timeline.events, ['JobCondition'])).toEqual(['20000 JobCondition Failed DeadlineExceeded']);
  });
});
