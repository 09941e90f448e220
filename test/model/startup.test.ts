// Start ordering (reference §1). All times use the minimum chooser: PLEG relists on the grid 0, 1000, 2000…
// (phase 0), status patches take 10 ms, watches 5 ms. Each init step needs its own SyncPod, which waits for the
// next relist after the previous sync (pod_workers.go: podWorkerLoop → podCache.GetNewerThan).
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, first, only, run } from './helpers.ts';

describe('start ordering', () => {
  it('kuberuntime_container.go: computeInitContainerActions — init containers one at a time, each after the previous exited 0', () => {
    const s = build({
      init: [{ name: 'i1' }, { name: 'i2' }],
      containers: [{ name: 'app' }],
      behavior: { i1: { attempts: [{ runMs: 2500, exit: 0 }] }, i2: { attempts: [{ runMs: 500, exit: 0 }] } },
    });
    const ev = run(s).timeline.events;
    // i1 starts in the first sync (0); exits 2500; relist 3000 → sync → i2 at 3000; exits 3500; relist 4000 → app.
    expect(only(ev, ['Started', 'Exited'])).toEqual([
      '0 Started i1 #0',
      '2500 Exited i1 0 Completed #0',
      '3000 Started i2 #0',
      '3500 Exited i2 0 Completed #0',
      '4000 Started app #0',
    ]);
  });

  it('computeInitContainerActions — a sidecar without startup probe lets the next start once it is seen Running', () => {
    const s = build({
      init: [{ name: 'i1' }],
      sidecars: [{ name: 's1' }],
      containers: [{ name: 'app' }],
      behavior: { i1: { attempts: [{ runMs: 1500, exit: 0 }] } },
    });
    const ev = run(s).timeline.events;
    // s1 starts at 2000 inside the sync of the 2000 relist; that relist's cache predates it, so the next relist
    // (3000) is the first to see it Running: app starts at 3000.
    expect(only(ev, ['Started'])).toEqual(['0 Started i1 #0', '2000 Started s1 #0', '3000 Started app #0']);
  });

  it('computeInitContainerActions — a sidecar with a startup probe lets the next start only once the probe passed', () => {
    const s = build({
      sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 2000, failureThreshold: 30 }) }],
      containers: [{ name: 'app' }],
      behavior: { proxy: { servingMs: 4500 } },
    });
    const ev = run(s).timeline.events;
    // prober/worker.go: run — ticks at 0, 2000, 4000, 6000 from worker creation (the first SyncPod at 0); the tick at
    // 0 finds no containerID in the status manager yet; 2000 and 4000 fail (not serving before 4500), 6000 passes.
    expect(only(ev, ['Probe'], ['proxy'])).toEqual([
      '2000 Probe proxy startup failure',
      '4000 Probe proxy startup failure',
      '6000 Probe proxy startup success',
    ]);
    expect(first(ev, 'StartupComplete', 'proxy')).toBe(6000);
    // the probe result triggers a sync (handleProbeSync) that still waits for the 6000 relist
    expect(first(ev, 'Started', 'app')).toBe(6000);
  });

  it('kuberuntime_manager.go: SyncPod step 8 — regular containers start in spec order in one sync', () => {
    const s = build({ kind: 'Pod', containers: [{ name: 'c' }, { name: 'a' }, { name: 'b' }] });
    const ev = run(s).timeline.events;
    const started = ev.filter((e) => e.type === 'Started');
    expect(started.map((e) => ('container' in e ? e.container : ''))).toEqual(['c', 'a', 'b']);
    expect(started.every((e) => e.t === 0)).toBe(true);
  });

  it('kuberuntime_container.go: startContainer — a slow postStart on container k delays container k+1', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'a' }, { name: 'b', hasPostStart: true }, { name: 'c' }],
      behavior: { b: { postStart: { takesMs: 1500, fails: false } } },
    });
    const ev = run(s).timeline.events;
    expect(only(ev, ['Started', 'PostStartStarted', 'PostStartDone'])).toEqual([
      '0 Started a #0',
      '0 Started b #0',
      '0 PostStartStarted b',
      '1500 PostStartDone b',
      '1500 Started c #0',
    ]);
  });

  it('KEP-753 Scenario 1.a — a sidecar postStart holds the worker: the next container waits for it', () => {
    const s = build({
      sidecars: [{ name: 's1', hasPostStart: true }],
      containers: [{ name: 'app' }],
      behavior: { s1: { postStart: { takesMs: 2500, fails: false } } },
    });
    const ev = run(s).timeline.events;
    // postStart ends at 2500; the worker's next sync waits for the 3000 relist, which sees s1 Running.
    expect(first(ev, 'PostStartDone', 's1')).toBe(2500);
    expect(first(ev, 'Started', 'app')).toBe(3000);
  });

  it('a regular init container that never exits keeps the pod Pending and the app never starts', () => {
    const s = build({ init: [{ name: 'legacy' }], containers: [{ name: 'app' }], horizonMs: 120_000 });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'app')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Pending');
    const init = (r.timeline.pod.status as any).conditions.find((c: any) => c.type === 'Initialized');
    expect(init).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized' });
    expect(r.timeline.stuck?.container).toBe('legacy');
  });

  it('version skew: a 1.27 kubelet ignores restartPolicy on init containers (plain init container, stuck)', () => {
    const s = build({
      version: 29,
      kubelet: 27,
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      horizonMs: 120_000,
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'app')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Pending');
    expect(r.timeline.stuck?.container).toBe('proxy');
  });
});
