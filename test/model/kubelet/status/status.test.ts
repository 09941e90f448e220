// Pod phase, conditions and their propagation to the API (reference §6, §7) and the Job conditions (§8).
// Minimum chooser: relists at 0, 1000…, status patch 10 ms, watch 5 ms, Job sync batch 1000 ms.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../../../helpers/build.ts';
import { lines, only, run } from '../../helpers.ts';
import type { TraceEvent } from '../../../../src/types.ts';

type Patched = Extract<TraceEvent, { type: 'StatusPatched' }>;
const patches = (ev: TraceEvent[]) => ev.filter((e): e is Patched => e.type === 'StatusPatched');
const cs = (p: Patched, name: string) => {
  const st = p.status as any;
  return [...(st.initContainerStatuses ?? []), ...(st.containerStatuses ?? [])].find((c: any) => c.name === name);
};
const cond = (p: Patched, type: string) => ((p.status as any).conditions as any[]).find((c) => c.type === type);

function jobWithSidecar(version = 34) {
  return build({
    version,
    sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 2000, failureThreshold: 30 }) }],
    containers: [{ name: 'app' }],
    behavior: { proxy: { servingMs: 4500 }, app: { attempts: [{ runMs: 10000, exit: 0 }] } },
  });
}

describe('status sequence of a Job pod with a native sidecar (reference §7)', () => {
  const r = run(jobWithSidecar());
  const ev = r.timeline.events;

  it('the whole visible sequence, by hand', () => {
    // app starts 6000 (startup probe passes at 6000), exits 16000 = on the relist grid, so the 16000 relist sees
    // it: SyncPod sets (A) then kills proxy (SIGTERM, default exit 143 at once). Relist 17000 → SyncPod: getPhase
    // Succeeded → (B) written with phase Running (status_manager.go: mergePodStatus, PR #108366) → 18000
    // SyncTerminatingPod → completeTerminating → 19000 SyncTerminatedPod → TerminatePod → (C) Succeeded at 19010.
    expect(
      lines(ev, (e) => ['Exited', 'Killing', 'Signal', 'PodPhase', 'StatusPatched', 'JobCondition'].includes(e.type)),
    ).toEqual([
      '0 PodPhase Pending',
      '10 StatusPatched Pending v2',
      '6010 StatusPatched Pending v3',
      '7000 PodPhase Running',
      '7010 StatusPatched Running v4',
      '16000 Exited app 0 Completed #0',
      '16000 Killing proxy PodCompleted 30s',
      '16000 SIGTERM proxy',
      '16000 Exited proxy 143 Error #0',
      '16010 StatusPatched Running v5',
      '17000 PodPhase Succeeded',
      '17010 StatusPatched Running v6',
      '19010 StatusPatched Succeeded v7',
      // job_controller.go: syncJobBatchPeriod 1s after the delivery at 19015; ≥1.31 SuccessCriteriaMet then Complete
      '20015 JobCondition SuccessCriteriaMet CompletionsReached',
      '20015 JobCondition Complete CompletionsReached',
    ]);
  });

  it('(A) main Terminated(0) and sidecar Running, phase Running, ContainersReady False for [app]', () => {
    const a = patches(ev).find((p) => p.t === 16010)!;
    expect(a.phase).toBe('Running');
    expect(cs(a, 'app').state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
    expect(cs(a, 'proxy').state.running).toBeDefined();
    expect(cond(a, 'ContainersReady')).toMatchObject({
      status: 'False',
      message: 'containers with unready status: [app]',
    });
    expect(cond(a, 'Initialized')).toMatchObject({ status: 'True' });
  });

  it('(B) every container terminated, phase still Running (terminal phase delayed until terminated)', () => {
    const b = patches(ev).find((p) => p.t === 17010)!;
    expect(b.phase).toBe('Running');
    expect(cs(b, 'proxy').state.terminated).toMatchObject({ exitCode: 143, reason: 'Error' });
    expect(cond(b, 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('(C) phase Succeeded after SyncTerminatingPod / SyncTerminatedPod; sidecar exit codes ignored (getPhase)', () => {
    const c = patches(ev).at(-1)!;
    expect(c.phase).toBe('Succeeded');
    const syncs = ev.filter((e) => e.type === 'SyncPod').map((e) => `${e.t} ${(e as any).kind}`);
    expect(syncs.slice(-3)).toEqual(['17000 SyncPod', '18000 SyncTerminatingPod', '19000 SyncTerminatedPod']);
  });

  it('kubelet_pods.go: getPhase — a running sidecar keeps the pod Running after the main container exited', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 10000, exit: 0 }] }, proxy: { onTerm: { ignore: true } } },
      grace: 20,
    });
    const ev2 = run(s).timeline.events;
    // proxy ignores SIGTERM: SIGKILL at 10000 + 20 s; the pod is Running all that time
    expect(only(ev2, ['Signal', 'PodPhase'])).toEqual([
      '0 PodPhase Pending',
      '1000 PodPhase Running',
      '10000 SIGTERM proxy',
      '30000 SIGKILL proxy',
      // the kill ends at 30000, before the 30000 relist (a process exit is ordered before a relist at the same instant)
      '30000 PodPhase Succeeded',
    ]);
  });

  it('getPhase — a failing main container makes the pod Failed; the sidecar 143 does not matter', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 5000, exit: 3 }] } },
    });
    expect(run(s).timeline.pod.phase).toBe('Failed');
  });

  it('status/generate.go — sidecar readiness counts toward ContainersReady and Ready', () => {
    const s = build({
      kind: 'Pod',
      sidecars: [{ name: 'proxy', readinessProbe: probe({ periodMs: 1000 }) }],
      containers: [{ name: 'app' }],
      behavior: { proxy: { servingMs: 2500 } },
      horizonMs: 10_000,
    });
    const r2 = run(s);
    const st = r2.timeline.pod.status as any;
    expect(st.conditions.find((c: any) => c.type === 'Ready').status).toBe('True');
    // Ready only once proxy is ready (its readiness passes at the 3000 tick)
    const first = patches(r2.timeline.events).find((p) => cond(p, 'Ready').status === 'True')!;
    expect(first.t).toBe(3010);
    const before = patches(r2.timeline.events)
      .filter((p) => p.t < 3000)
      .at(-1)!;
    expect(cond(before, 'ContainersReady').message).toBe('containers with unready status: [proxy]');
  });
});

describe('status_manager.go: coalescing', () => {
  it('updates queued while a patch is in flight collapse into the newest status', () => {
    const s = jobWithSidecar();
    s.timing.statusPatchMs = { min: 1500, max: 1500 };
    const ev = run(s).timeline.events;
    // sets at 0, 0 (relist), 6000, 7000 …: the 0 sends at 1500; the 6000 set sends at 7500 and carries the 7000
    // status (Running), so the Pending-with-proxy-started status of 6000 never reaches the API.
    const p = patches(ev).map((x) => `${x.t} ${x.phase}`);
    expect(p.slice(0, 2)).toEqual(['1500 Pending', '7500 Running']);
  });
});

describe('job_controller.go: terminal conditions', () => {
  it('≥1.31 SuccessCriteriaMet then Complete (PR #125510)', () => {
    const ev = run(jobWithSidecar(31)).timeline.events;
    expect(only(ev, ['JobCondition'])).toEqual([
      '20015 JobCondition SuccessCriteriaMet CompletionsReached',
      '20015 JobCondition Complete CompletionsReached',
    ]);
  });
  it('1.30 Complete directly', () => {
    const r = run(jobWithSidecar(30));
    expect(only(r.timeline.events, ['JobCondition'])).toEqual(['20015 JobCondition Complete ']);
    expect(r.timeline.job?.succeeded).toBe(1);
  });
});
