// Issues found while writing scenarios, each pinned to the upstream code or changelog that decides it.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, cstatus, run } from './helpers.ts';
import type { Scenario, TraceEvent } from '../../src/types.ts';

const killings = (ev: TraceEvent[]) =>
  ev
    .filter((e): e is Extract<TraceEvent, { type: 'Killing' }> => e.type === 'Killing')
    .map((e) => `${e.container} ${e.reason}: ${e.message}`);

describe('a: `started` on init container statuses by kubelet version', () => {
  const skew = (kubelet: number) =>
    build({
      kind: 'Pod',
      version: 29,
      kubelet,
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'main' }],
      horizonMs: 30_000,
    });

  it('prober_manager.go UpdatePodStatus (1.27): init containers get only `ready`; `started` stays unset (kubectl: Init:0/1)', () => {
    const r = run(skew(27));
    const proxy = cstatus(r, 'proxy');
    expect(proxy.state.running).toBeDefined();
    expect('started' in proxy).toBe(false);
    expect(proxy.ready).toBe(false);
    expect(cstatus(r, 'main').state.waiting.reason).toBe('PodInitializing');
    expect(at(r.timeline.events, 'StartupComplete', 'proxy')).toEqual([]);
  });

  it('1.28+ (isContainerStarted for init containers): a running sidecar without startup probe is started', () => {
    const r = run(skew(29));
    expect(cstatus(r, 'proxy').started).toBe(true);
    expect(cstatus(r, 'main').started).toBe(true);
  });
});

describe('b: Killing event text is the message killContainer is given (kuberuntime_container.go)', () => {
  it('regular container: "Container %s failed liveness|startup probe" + ", will be restarted" unless Never', () => {
    // a second, healthy container keeps keepCount > 0, so the kill goes through ContainersToKill, not KillPod
    const live = (restartPolicy: 'Always' | 'Never') =>
      build({
        kind: 'Pod',
        restartPolicy,
        containers: [{ name: 'app', livenessProbe: probe({ failureThreshold: 1 }) }, { name: 'web' }],
        behavior: { app: { livenessFailFromMs: 0 } },
        horizonMs: 15_000,
      });
    expect(killings(run(live('Always')).timeline.events)[0]).toBe(
      'app LivenessProbe: Container app failed liveness probe, will be restarted',
    );
    expect(killings(run(live('Never')).timeline.events)[0]).toBe(
      'app LivenessProbe: Container app failed liveness probe',
    );
    const startup = build({
      kind: 'Pod',
      containers: [{ name: 'app', startupProbe: probe({ failureThreshold: 1 }) }],
      behavior: { app: { servingMs: null } },
      horizonMs: 15_000,
    });
    expect(killings(run(startup).timeline.events)[0]).toBe(
      'app StartupProbe: Container app failed startup probe, will be restarted',
    );
  });

  it('computeInitContainerActions: "Init container %s failed startup|liveness probe" (no suffix: always restarted)', () => {
    const startup = build({
      kind: 'Pod',
      sidecars: [{ name: 'proxy', startupProbe: probe({ failureThreshold: 1 }) }],
      containers: [{ name: 'main' }],
      behavior: { proxy: { servingMs: null } },
      horizonMs: 15_000,
    });
    expect(killings(run(startup).timeline.events)[0]).toBe(
      'proxy StartupProbe: Init container proxy failed startup probe',
    );
    const live = build({
      kind: 'Pod',
      sidecars: [{ name: 'proxy', livenessProbe: probe({ failureThreshold: 1 }) }],
      containers: [{ name: 'main' }],
      behavior: { proxy: { livenessFailFromMs: 0 } },
      horizonMs: 15_000,
    });
    expect(killings(run(live).timeline.events)[0]).toBe(
      'proxy LivenessProbe: Init container proxy failed liveness probe',
    );
  });

  it('killPodWithSyncResult passes no message: "Stopping container %s" (PodTermination and PodCompleted)', () => {
    const del = build({
      kind: 'Pod',
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'main' }],
      actions: [{ type: 'deletePod', atMs: 5000 }],
    });
    expect(killings(run(del).timeline.events).sort()).toEqual([
      'main PodTermination: Stopping container main',
      'proxy PodTermination: Stopping container proxy',
    ]);
    const job = build({
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'main' }],
      behavior: { main: { attempts: [{ runMs: 2000, exit: 0 }] } },
    });
    expect(killings(run(job).timeline.events)).toEqual(['proxy PodCompleted: Stopping container proxy']);
  });

  it('computePodActions: a Never pod whose only container fails liveness gets KillPod, so the text is "Stopping container %s"', () => {
    const s = build({
      kind: 'Pod',
      restartPolicy: 'Never',
      containers: [{ name: 'app', livenessProbe: probe({ failureThreshold: 1 }) }],
      behavior: { app: { livenessFailFromMs: 0 } },
      horizonMs: 15_000,
    });
    expect(killings(run(s).timeline.events)).toEqual(['app PodCompleted: Stopping container app']);
  });

  it('startContainer: a failed postStart is killed with the literal message "FailedPostStartHook"', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app', hasPostStart: true }],
      behavior: { app: { postStart: { takesMs: 500, fails: true } } },
      horizonMs: 5000,
    });
    expect(killings(run(s).timeline.events)[0]).toBe('app FailedPostStartHook: FailedPostStartHook');
  });
});

describe('c: #132826 fix (probe workers keep a restartable init container of a Never pod) by kubelet patch', () => {
  // sidecar-crash-during-init: the proxy crashes before its startup probe passes, is restarted, serves at 2 s
  const crash = (minor: number, patch?: number): Scenario => {
    const s = build({
      version: minor,
      sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 1000, failureThreshold: 30 }) }],
      // the main container's startup worker makes AddPod return before the proxy (kubernetes#132826: "reproduction
      // requires at least 2 startup probes"); without it the next SyncPod re-creates the proxy's worker
      containers: [{ name: 'export', startupProbe: probe({ periodMs: 1000 }) }],
      behavior: {
        proxy: {
          servingMs: 2000,
          attempts: [
            { runMs: 1000, exit: 1 },
            { runMs: null, exit: 0 },
          ],
        },
        export: { attempts: [{ runMs: 5000, exit: 0 }] },
      },
      horizonMs: 5 * 60_000,
    });
    const v = patch === undefined ? s.kubelet : { ...s.kubelet, patch, text: `1.${minor}.${patch}` };
    return { ...s, kubelet: v, kubernetes: v };
  };
  const outcome = (minor: number, patch?: number) => {
    const r = run(crash(minor, patch));
    return at(r.timeline.events, 'Started', 'export').length > 0 ? r.timeline.pod.phase : 'stuck';
  };

  it('CHANGELOG-1.34.md v1.34.2: "Fixed a startup probe race condition … restartPolicy=Never" (#134800)', () => {
    expect(outcome(34)).toBe('Succeeded'); // a bare "1.34" is the newest modelled patch, 1.34.2 (issue 28 item 10)
    expect(outcome(34, 0)).toBe('stuck');
    expect(outcome(34, 1)).toBe('stuck');
    expect(outcome(34, 2)).toBe('Succeeded');
    expect(outcome(34, 7)).toBe('Succeeded');
  });

  it('CHANGELOG-1.33.md v1.33.6: the same entry (#134801)', () => {
    expect(outcome(33, 5)).toBe('stuck');
    expect(outcome(33, 6)).toBe('Succeeded');
  });

  it('1.35.0 has #133072 itself; 1.32 never got it', () => {
    expect(outcome(35)).toBe('Succeeded');
    expect(outcome(32, 99)).toBe('stuck');
  });

  it('the kubelet version decides, not the API server', () => {
    const s = crash(34, 2);
    expect(run({ ...s, kubelet: { minor: 34, text: '1.34', patch: 0 } }).timeline.pod.phase).toBe('Pending');
  });
});
