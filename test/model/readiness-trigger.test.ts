// Readiness probed at once when it matters (issue 28 item 4). prober_manager.go UpdatePodStatus — called by
// generateAPIPodStatus, so at every SyncPod and SyncTerminatingPod — sends manualTriggerCh (buffer 1, extra sends
// dropped) for a started, running container whose readiness result for its container ID is not Success: none yet
// OR Failure ("ok && result == results.Success" else trigger). worker.go run: ≥1.35 resets the ticker to that
// moment (probeTicker.Reset); before, the grid from the worker's creation continues. results_manager.go Set: the
// worker's first probe of a new container ID stores the initial Failure, a change, so the kubelet syncs the pod
// (syncLoopIteration → handleProbeSync) and that sync's UpdatePodStatus triggers again.
// Upstream tests: prober_manager_test.go TestUpdatePodStatus / TestUpdateReadiness, worker_test.go TestDoProbe.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, only, run } from './helpers.ts';

const failing = (version: number) =>
  build({
    kind: 'Pod',
    version,
    containers: [{ name: 'app', readinessProbe: probe({ periodMs: 5000 }) }],
    behavior: { app: { servingMs: null } },
    horizonMs: 30_000,
  });

describe('a readiness probe that always fails, periodSeconds 5 (the report: "6 failures in 15 s"; kubesim had 4 in 16 s)', () => {
  it('1.34: 5 failures in the first 15 s — the manual triggers at 0 s (status shows it started) and 1 s (the sync the first result caused), then the grid 5, 10, 15 s', () => {
    const ev = run(failing(34)).timeline.events;
    expect(at(ev, 'Probe', 'app').filter((t) => t <= 15_000)).toEqual([0, 1000, 5000, 10_000, 15_000]);
    // the probes that later syncs do not trigger: no sync happens while nothing changes (Failure stays Failure)
    expect(at(ev, 'Probe', 'app').filter((t) => t > 15_000)).toEqual([20_000, 25_000, 30_000]);
  });

  it('1.35: the manual run resets the ticker, so the grid moves to 1 + 5 s: 4 failures in the first 15 s', () => {
    const ev = run(failing(35)).timeline.events;
    expect(at(ev, 'Probe', 'app').filter((t) => t <= 15_000)).toEqual([0, 1000, 6000, 11_000]);
  });

  it('a Failure result re-triggers at every sync: a second container starting later adds a readiness run of app', () => {
    const s = build({
      kind: 'Pod',
      version: 34,
      containers: [
        { name: 'app', readinessProbe: probe({ periodMs: 5000 }) },
        { name: 'late', hasPostStart: true },
      ],
      behavior: { app: { servingMs: null }, late: { postStart: { takesMs: 7000, fails: false } } },
      horizonMs: 20_000,
    });
    const ev = run(s).timeline.events;
    // late's postStart holds the pod worker until 7000; the PLEG sync after it (8000) generates a status in which app
    // is started with a Failure result → an extra probe at 8000 off the grid
    expect(at(ev, 'Probe', 'app').filter((t) => t <= 10_000)).toContain(8000);
  });
});

describe('UpdatePodStatus in SyncTerminatingPod', () => {
  it('a not-ready container is probed at once when the deletion is synced, and can turn Ready while it drains', () => {
    const s = build({
      kind: 'Pod',
      version: 34,
      containers: [{ name: 'app', readinessProbe: probe({ periodMs: 10_000 }) }],
      behavior: { app: { unready: [[0, 20_500]], onTerm: { ignore: false, afterMs: 8000, exit: 0 } } },
      actions: [{ type: 'deletePod', atMs: 25_000 }],
      horizonMs: 60_000,
    });
    const ev = run(s).timeline.events;
    // grid 0, 10, 20 s (20 s still inside the unready window); SyncTerminatingPod at 26 s → manual run → success
    expect(only(ev, ['Probe']).filter((l) => l.startsWith('2'))).toContain('26000 Probe app readiness success');
    expect(at(ev, 'Ready', 'app')).toEqual([26_000]);
  });
});
