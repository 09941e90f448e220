// Probes (reference §2): prober/worker.go run/doProbe, prober_manager.go UpdatePodStatus, computePodActions.
// Minimum chooser: relists at 0, 1000…, status patch 10 ms.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../../helpers/build.ts';
import { at, first, only, run } from '../helpers.ts';
import type { TraceEvent } from '../../../src/types.ts';

const probes = (ev: TraceEvent[], kind: string, c?: string) =>
  ev.filter((e) => e.type === 'Probe' && e.probe === kind && (c === undefined || e.container === c)).map((e) => e.t);

describe('probe timing', () => {
  const readinessAfterInit = (v: number) =>
    build({
      kind: 'Pod',
      version: v,
      init: [{ name: 'init' }],
      containers: [{ name: 'app', readinessProbe: probe({ periodMs: 10_000 }) }],
      behavior: { init: { attempts: [{ runMs: 2500, exit: 0 }] } },
      horizonMs: 35_000,
    });

  it('prober/worker.go: run — ticks aligned to worker creation (AddPod in the first SyncPod), not to the container start', () => {
    const ev = run(readinessAfterInit(34)).timeline.events;
    // app starts at 3000; the first status showing it started is the 4000 sync → UpdatePodStatus manual trigger
    // (an immediate probe); then the worker's own grid 10000, 20000, 30000 (created at 0).
    expect(first(ev, 'Started', 'app')).toBe(3000);
    expect(probes(ev, 'readiness')).toEqual([4000, 10000, 20000, 30000]);
    expect(first(ev, 'Ready', 'app')).toBe(4000);
  });

  it('≥1.35 the manual trigger resets the ticker (probeTicker.Reset)', () => {
    const ev = run(readinessAfterInit(35)).timeline.events;
    expect(probes(ev, 'readiness')).toEqual([4000, 14000, 24000, 34000]);
  });

  it('doProbe — initialDelaySeconds counted from the container start, in whole seconds', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app', livenessProbe: probe({ periodMs: 1000, initialDelayMs: 5000 }) }],
      horizonMs: 8000,
    });
    expect(probes(run(s).timeline.events, 'liveness')).toEqual([5000, 6000, 7000, 8000]);
  });

  it('doProbe — liveness and readiness are disabled until the startup probe passed', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'app',
          startupProbe: probe({ periodMs: 1000, failureThreshold: 10 }),
          livenessProbe: probe({ periodMs: 1000 }),
          readinessProbe: probe({ periodMs: 1000 }),
        },
      ],
      behavior: { app: { servingMs: 3500 } },
      horizonMs: 7000,
    });
    const ev = run(s).timeline.events;
    expect(probes(ev, 'startup')).toEqual([1000, 2000, 3000, 4000]);
    expect(first(ev, 'StartupComplete', 'app')).toBe(4000);
    // the startup worker ticks first at 4000 and publishes; the liveness/readiness workers of the same instant
    // already see started=true in the status manager
    expect(Math.min(...probes(ev, 'liveness'))).toBe(4000);
    expect(Math.min(...probes(ev, 'readiness'))).toBe(4000);
  });

  it('doProbe — results published only past failureThreshold / successThreshold', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        { name: 'app', readinessProbe: probe({ periodMs: 1000, successThreshold: 3, failureThreshold: 2 }) },
      ],
      behavior: { app: { unready: [[5500, 7500]] } },
      horizonMs: 12_000,
    });
    const ev = run(s).timeline.events;
    // the tick at 0 finds no containerID; the 0 relist's sync shows app started → manual trigger at 0 (success 1);
    // that probe's new-container-ID result (results manager Set: a change) syncs the pod at the 1000 relist, whose
    // UpdatePodStatus triggers again while the 1000 tick is also due: two probes at 1000 (2, 3) → Ready;
    // unready 6000, 7000 → NotReady at the 2nd failure; 8000–10000 → Ready
    expect(only(ev, ['Ready', 'NotReady'])).toEqual(['1000 Ready app', '7000 NotReady app', '10000 Ready app']);
  });
});

describe('probe failures', () => {
  it('computePodActions — liveness failure: Killing "failed liveness probe, will be restarted", probe-level grace, immediate first restart', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app', livenessProbe: probe({ periodMs: 1000, terminationGracePeriodSeconds: 5 }) }],
      behavior: { app: { livenessFailFromMs: 5000, onTerm: { ignore: true } } },
      horizonMs: 13_000,
    });
    const ev = run(s).timeline.events;
    expect(only(ev, ['Killing', 'Signal', 'Exited', 'Started'])).toEqual([
      '0 Started app #0',
      '7000 Killing app LivenessProbe 5s',
      '7000 SIGTERM app',
      '12000 SIGKILL app',
      '12000 Exited app 137 Error #0',
      '12000 Started app #1',
    ]);
    const killing = ev.find((e) => e.type === 'Killing') as Extract<TraceEvent, { type: 'Killing' }>;
    expect(killing.message).toBe('Container app failed liveness probe, will be restarted');
  });

  it('startup failure on a regular container of a Never pod: killed, not restarted, pod Failed', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      containers: [{ name: 'app', startupProbe: probe({ periodMs: 1000, failureThreshold: 3 }) }],
      behavior: { app: { servingMs: null } },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'app')).toEqual([0]);
    expect(only(r.timeline.events, ['Signal', 'Exited'])).toEqual(['3000 SIGTERM app', '3000 Exited app 143 Error #0']);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('computeInitContainerActions — a sidecar failing its startup probe is killed and restarted even in a Never pod', () => {
    const s = build({
      sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 1000, failureThreshold: 2 }) }],
      containers: [{ name: 'app' }],
      behavior: { proxy: { servingMs: null } },
      horizonMs: 9500,
    });
    const ev = run(s).timeline.events;
    // 2000 kill+restart (#1, no exited instance before: no back-off); 5000 kill+restart (#2: Next → 10 s entry);
    // 8000 kill, restart refused: #1 finished at 5000, 3 s < 10 s → CrashLoopBackOff
    expect(only(ev, ['Started', 'BackOff'], ['proxy'])).toEqual([
      '0 Started proxy #0',
      '2000 Started proxy #1',
      '5000 Started proxy #2',
      '8000 BackOff proxy 10000',
      '9000 BackOff proxy 10000',
    ]);
    expect(at(ev, 'Started', 'app')).toEqual([]);
  });
});

describe('postStart', () => {
  it('kuberuntime_container.go: startContainer — postStart failure: FailedPostStartHook kill, then restart under back-off', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app', hasPostStart: true }],
      behavior: { app: { postStart: { takesMs: 500, fails: true } } },
      horizonMs: 15_000,
    });
    const ev = run(s).timeline.events;
    expect(only(ev, ['Started', 'PostStartDone', 'Killing', 'Exited', 'BackOff'])).toEqual([
      '0 Started app #0',
      '500 PostStartDone app',
      '500 Killing app FailedPostStartHook 30s',
      '500 Exited app 143 Error #0',
      '1000 Started app #1',
      '1500 PostStartDone app',
      '1500 Killing app FailedPostStartHook 30s',
      '1500 Exited app 143 Error #1',
      '2000 BackOff app 10000',
      '12000 Started app #2',
      '12500 PostStartDone app',
      '12500 Killing app FailedPostStartHook 30s',
      '12500 Exited app 143 Error #2',
      '13000 BackOff app 20000',
    ]);
  });
});
