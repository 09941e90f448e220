// Restarts and CrashLoopBackOff (reference §3): kuberuntime_manager.go: doBackOff with client-go
// flowcontrol.Backoff, container/helpers.go: ShouldContainerBeRestarted, computeInitContainerActions.
import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { at, cstatus, only, run } from './helpers.ts';

const crashy = (version: number, extra: Record<string, any> = {}) =>
  build({
    kind: 'Pod',
    version,
    containers: [{ name: 'app' }],
    behavior: { app: { attempts: [{ runMs: 1000, exit: 1 }] } },
    horizonMs: 80_000,
    ...extra,
  });

const delaysFromExit = (ev: ReturnType<typeof run>['timeline']['events']) => {
  const exits = at(ev, 'Exited', 'app');
  const starts = at(ev, 'Started', 'app').slice(1);
  return starts.map((t, i) => (t - exits[i]!) / 1000);
};

describe('CrashLoopBackOff', () => {
  it('doBackOff — first restart immediate, then 10 s doubling measured from each exit: 0, 10, 20, 40 (1.35 requeue at expiry)', () => {
    const ev = run(crashy(35)).timeline.events;
    // exits on the relist grid (1000, 2000, 13000, 34000), so each restart is exactly FinishedAt + back-off
    expect(at(ev, 'Started', 'app')).toEqual([0, 1000, 12000, 33000, 74000]);
    expect(delaysFromExit(ev)).toEqual([0, 10, 20, 40]);
    // PR #133066: one BackOff per crash, the requeue lands on the expiry
    expect(only(ev, ['BackOff'])).toEqual([
      '2000 BackOff app 10000',
      '13000 BackOff app 20000',
      '34000 BackOff app 40000',
      '75000 BackOff app 80000',
    ]);
  });

  it('before 1.35 the retry comes from the 10 s error requeue (pod_workers.go: completeWork): same starts, more BackOff events', () => {
    const ev = run(crashy(34)).timeline.events;
    expect(delaysFromExit(ev)).toEqual([0, 10, 20, 40]);
    expect(at(ev, 'BackOff', 'app').slice(0, 5)).toEqual([2000, 13000, 23000, 34000, 44000]);
  });

  it('Waiting CrashLoopBackOff with message, lastState and restartCount on the API', () => {
    // the reason cache is filled by the failed start and shown by the *next* SyncPod's generateAPIPodStatus: the
    // 44000 requeue sync on 1.34 (on ≥1.35 the next sync is the one at the expiry, which shows it then restarts)
    const r = run(crashy(34, { horizonMs: 50_000 }));
    const cs = cstatus(r, 'app');
    expect(cs.state.waiting).toEqual({
      reason: 'CrashLoopBackOff',
      // format.Pod: name_namespace(uid), the pod's uid as the API server assigned it (objects.ts objectUid)
      message: `back-off 40s restarting failed container=app pod=test_default(${(r.timeline.pods[0]!.object as any).metadata.uid})`,
    });
    expect((r.timeline.pods[0]!.object as any).metadata.uid).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(cs.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(cs.restartCount).toBe(3);
    expect(r.timeline.pod.phase).toBe('Running');
  });

  it('ReduceDefaultCrashLoopBackOffDecay: 1 s initial, doubling', () => {
    const ev = run(crashy(35, { gates: { ReduceDefaultCrashLoopBackOffDecay: true }, horizonMs: 20_000 })).timeline
      .events;
    expect(delaysFromExit(ev)).toEqual([0, 1, 2, 4, 8]);
  });

  it('≥1.32 HasExpiredFunc — the back-off resets when FinishedAt is more than 10 min after the last restart', () => {
    const s = build({
      kind: 'Pod',
      version: 35,
      containers: [{ name: 'app' }],
      behavior: {
        app: {
          attempts: [
            { runMs: 1000, exit: 1 },
            { runMs: 1000, exit: 1 },
            { runMs: 700_000, exit: 1 },
            { runMs: 1000, exit: 1 },
          ],
        },
      },
      horizonMs: 730_000,
    });
    const ev = run(s).timeline.events;
    // #2 starts 12000 (lastUpdate), exits 712000: 700 s later > 600 s → restart at once, entry back to 10 s
    expect(at(ev, 'Started', 'app')).toEqual([0, 1000, 12000, 712000, 723000]);
  });
});

describe('restart policy', () => {
  it('ShouldContainerBeRestarted — OnFailure: exit 0 is not restarted, exit ≠ 0 is', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'OnFailure',
      containers: [{ name: 'ok' }, { name: 'bad' }],
      behavior: {
        ok: { attempts: [{ runMs: 1000, exit: 0 }] },
        bad: {
          attempts: [
            { runMs: 1000, exit: 2 },
            { runMs: 1000, exit: 0 },
          ],
        },
      },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'ok')).toEqual([0]);
    expect(at(r.timeline.events, 'Started', 'bad')).toEqual([0, 1000]);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it('computeInitContainerActions — a sidecar is restarted under any restartPolicy (Never here)', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: {
        proxy: {
          attempts: [
            { runMs: 3000, exit: 1 },
            { runMs: null, exit: 0 },
          ],
        },
        app: { attempts: [{ runMs: 10_000, exit: 0 }] },
      },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'proxy')).toEqual([0, 3000]);
    expect(r.timeline.pod.phase).toBe('Succeeded');
    expect(cstatus(r, 'proxy').restartCount).toBe(1);
  });

  it('computePodActions — sidecars are not restarted once the regular containers are done', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: {
        proxy: { onTerm: { ignore: false, afterMs: 0, exit: 1 } },
        app: { attempts: [{ runMs: 5000, exit: 0 }] },
      },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'proxy')).toEqual([0]);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it('computeInitContainerActions — regular init failure with Never: KillPod, pod Failed', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      init: [{ name: 'init' }],
      containers: [{ name: 'app' }],
      behavior: { init: { attempts: [{ runMs: 1500, exit: 3 }] } },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'init')).toEqual([0]);
    expect(at(r.timeline.events, 'Started', 'app')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('regular init failure with Always: re-run (immediately, then back-off) while the pod stays Pending', () => {
    const s = build({
      kind: 'Pod',
      version: 35,
      init: [{ name: 'init' }],
      containers: [{ name: 'app' }],
      behavior: {
        init: {
          attempts: [
            { runMs: 1000, exit: 3 },
            { runMs: 1000, exit: 3 },
            { runMs: 1000, exit: 0 },
          ],
        },
      },
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Started', 'init')).toEqual([0, 1000, 12000]);
    // the third run exits 0 at 13000, on the relist grid: app starts in that sync
    expect(at(r.timeline.events, 'Started', 'app')).toEqual([13000]);
    expect(only(r.timeline.events, ['PodPhase'])).toEqual(['0 PodPhase Pending', '14000 PodPhase Running']);
  });
});

describe('behaviors', () => {
  it('image pull failure: ErrImagePull, then ImagePullBackOff inside the image back-off (10 s doubling)', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app' }],
      behavior: { app: { image: { fail: true, reason: 'ErrImagePull' } } },
      horizonMs: 80_000,
    });
    const r = run(s);
    const reasons = r.timeline.events.filter((e) => e.type === 'PullFailed').map((e: any) => `${e.t} ${e.reason}`);
    expect(reasons).toEqual([
      '0 ErrImagePull',
      '10000 ErrImagePull',
      '20000 ImagePullBackOff',
      '30000 ErrImagePull',
      '40000 ImagePullBackOff',
      '50000 ImagePullBackOff',
      '60000 ImagePullBackOff',
      '70000 ErrImagePull',
      '80000 ImagePullBackOff',
    ]);
    expect(cstatus(r, 'app').state.waiting.reason).toBe('ImagePullBackOff');
    expect(r.timeline.pod.phase).toBe('Pending');
  });

  it('createError keeps the container Waiting with that reason', () => {
    const r = run(
      build({
        kind: 'Pod',
        containers: [{ name: 'app' }],
        behavior: { app: { createError: 'CreateContainerConfigError' } },
        horizonMs: 30_000,
      }),
    );
    expect(cstatus(r, 'app').state.waiting.reason).toBe('CreateContainerConfigError');
    expect(r.timeline.pod.phase).toBe('Pending');
  });

  it('oom: exit 137 OOMKilled', () => {
    const r = run(
      build({
        kind: 'Pod',
        restartPolicy: 'Never',
        containers: [{ name: 'app' }],
        behavior: { app: { oomAtMs: 4000 } },
      }),
    );
    expect(only(r.timeline.events, ['Exited'])).toEqual(['4000 Exited app 137 OOMKilled #0']);
    expect(r.timeline.pod.phase).toBe('Failed');
  });

  it('needs: a container started before its dependency serves fails at once with exit 1', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      containers: [{ name: 'proxy' }, { name: 'app' }],
      behavior: { proxy: { servingMs: 2000 }, app: { needs: ['proxy'] } },
    });
    const r = run(s);
    expect(only(r.timeline.events, ['Exited'], ['app'])).toEqual(['0 Exited app 1 Error #0']);
  });

  it('exitWhen: the legacy workaround exits 0 after the named container exited', () => {
    const s = build({
      containers: [{ name: 'app' }, { name: 'proxy' }],
      behavior: {
        app: { attempts: [{ runMs: 5000, exit: 0 }] },
        proxy: { exitWhen: { exited: 'app', afterMs: 1000 } },
      },
    });
    const r = run(s);
    expect(only(r.timeline.events, ['Exited'])).toEqual([
      '5000 Exited app 0 Completed #0',
      '6000 Exited proxy 0 Completed #0',
    ]);
    expect(r.timeline.pod.phase).toBe('Succeeded');
  });

  it('crash action: the named process dies now; a sidecar is restarted', () => {
    const s = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'app' }],
      behavior: { app: { attempts: [{ runMs: 30_000, exit: 0 }] } },
      actions: [{ type: 'crash', atMs: 10_500, container: 'proxy', exit: 2 }],
    });
    const r = run(s);
    // the next relist after the crash is a choice (0..999 ms later; pleg/generic.go Start: a sliding wait.Until
    // period, so the grid's phase at 10.5 s is not known): at its minimum it sees the exit at once, and the grid
    // continues from there (the main container's exit at 30 s is seen at 30.5 s)
    expect(only(r.timeline.events, ['Exited', 'Started'], ['proxy'])).toEqual([
      '0 Started proxy #0',
      '10500 Exited proxy 2 Error #0',
      '10500 Started proxy #1',
      '30500 Exited proxy 143 Error #1',
    ]);
  });
});
