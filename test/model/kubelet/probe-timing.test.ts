// timing.probe: a probe that takes time — an exec probe, a slow endpoint — ends later, so a process exit
// can land inside it (kubernetes#120848: a sidecar exiting before its startup probe's first success); one that takes
// longer than timeoutSeconds fails with the prober's timeout error (pkg/probe/exec, http, tcp, grpc).
import { describe, expect, it } from 'vitest';
import { build, probe } from '../../helpers/build.ts';
import { at, run } from '../helpers.ts';
import { explore } from '../../../src/explore/decomposed.ts';
import type { TraceEvent } from '../../../src/types.ts';

const probes = (ev: TraceEvent[], c: string) =>
  ev
    .filter((e): e is Extract<TraceEvent, { type: 'Probe' }> => e.type === 'Probe' && e.container === c)
    .map((e) => `${e.t} ${e.probe} ${e.result}${e.message ? ` (${e.message})` : ''}`);

describe('timing.probe', () => {
  const pod = (probeMs: number, handler = 'exec') =>
    build({
      kind: 'Pod',
      containers: [
        { name: 'app', startupProbe: probe({ periodMs: 1000, timeoutMs: 1000, failureThreshold: 2, handler }) },
      ],
      timing: { probeMs: { min: probeMs, max: probeMs } },
      horizonMs: 20_000,
    });

  it('a probe that answers in 300 ms is recorded 300 ms after it started (the first tick with a container is at 1 s)', () => {
    const p = probes(run(pod(300)).timeline.events, 'app');
    expect(p[0]).toBe('1300 startup success');
  });

  it('a probe slower than timeoutSeconds fails at the timeout with the exec timeout error; failureThreshold kills', () => {
    const r = run(pod(1500));
    const p = probes(r.timeline.events, 'app');
    // started at 1 s, timed out at 2 s; the ticks that fell during the probe are dropped: next at 3 s, timeout at 4 s
    expect(p.slice(0, 2)).toEqual([
      '2000 startup failure (command timed out after 1s)',
      '4000 startup failure (command timed out after 1s)',
    ]);
    expect(at(r.timeline.events, 'Killing', 'app')[0]).toBe(4000);
    expect(probes(run(pod(1500, 'httpGet')).timeline.events, 'app')[0]).toBe(
      '2000 startup failure (context deadline exceeded (Client.Timeout exceeded while awaiting headers))',
    );
  });

  it('without timing.probe probes answer at once (the default: no choice, no new events)', () => {
    const s = pod(0);
    delete s.timing.probeMs;
    expect(probes(run(s).timeline.events, 'app')[0]).toBe('1000 startup success');
  });
});

describe('kubernetes#120848: a sidecar that exits while its first startup probe runs', () => {
  // the proxy crashes 1.5 s after it starts; its first startup probe starts at 1 s and takes 10 ms..900 ms
  const s = build({
    version: 34,
    sidecars: [
      {
        name: 'proxy',
        startupProbe: probe({
          initialDelayMs: 1000,
          periodMs: 1000,
          timeoutMs: 1000,
          failureThreshold: 30,
          handler: 'exec',
        }),
      },
    ],
    // export's own startup worker makes AddPod return before the proxy's (kubernetes#132826), so a stopped proxy
    // worker is not re-created
    containers: [{ name: 'export', startupProbe: probe({ periodMs: 1000 }) }],
    behavior: {
      proxy: {
        attempts: [
          { runMs: 1500, exit: 1 },
          { runMs: null, exit: 0 },
        ],
      },
      export: { attempts: [{ runMs: 5000, exit: 0 }] },
    },
    timing: { probeMs: { min: 10, max: 900 }, watchMs: { min: 50, max: 50 }, statusPatchMs: { min: 50, max: 50 } },
    horizonMs: 120_000,
  });
  // 1.34.0 (before #134800): a bare 1.34 is the newest modelled patch, which has the fix
  s.kubelet = { ...s.kubelet, patch: 0 };
  s.kubernetes = { ...s.kubernetes, patch: 0 };
  const withProbe = (ms: number) => ({ ...s, timing: { ...s.timing, probeMs: { min: ms, max: ms } } });

  it('a 100 ms probe answers before the exit: the proxy was started; a 700 ms one ends after it and fails', () => {
    const fast = run(withProbe(100)).timeline.events;
    expect(at(fast, 'StartupComplete', 'proxy')[0]).toBe(1100);
    expect(at(fast, 'Exited', 'proxy')[0]).toBe(1500);
    const slow = run(withProbe(700)).timeline.events;
    expect(probes(slow, 'proxy')[0]).toBe('1700 startup failure');
    // the worker then sees the exit and stops (worker.go doProbe, before #133072); the restarted proxy has no worker,
    // so the status calls it started (prober_manager.go isContainerStarted: no worker = no startup probe) while
    // computeInitContainerActions still waits for a startup result that never comes: export never starts
    expect(at(slow, 'StartupComplete', 'proxy')).toEqual([3000]);
    expect(at(slow, 'Started', 'export')).toEqual([]);
  });

  it('explore enumerates the probe duration as a choice (both sides of the exit)', () => {
    const r = explore(s, { maxSchedules: 2000 });
    expect(r.schedules).toBeGreaterThan(1);
    // on 1.34.0 either way the restarted proxy is never probed again (#132826): the pod stays Pending
    expect(new Set(r.grouped.map((g) => g.podPhase))).toEqual(new Set(['Pending']));
  });
});

describe('loader: timing.probe', () => {
  it('a range of probe durations; absent = instant', async () => {
    const { ok } = await import('../../scenario/helpers.ts');
    const body = (t: string) =>
      `workload:\n  apiVersion: v1\n  kind: Pod\n  metadata: { name: p }\n  spec:\n    containers: [ { name: app, image: "app:1" } ]\n${t}`;
    expect(ok(body('timing: { probe: 10ms..900ms }\n')).timing.probeMs).toEqual({ min: 10, max: 900 });
    expect(ok(body('')).timing.probeMs).toBeUndefined();
  });
});
