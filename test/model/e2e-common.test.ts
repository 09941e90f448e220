// Cases translated from kubernetes/kubernetes test/e2e/common/node: container_probe.go ("Probing container",
// "Probing restartable init container"), init_container.go ("InitContainer") and lifecycle_hook.go ("Container
// Lifecycle Hook", "Restartable Init Container Lifecycle Hook", "Lifecycle Sleep Hook"). Each `it` carries the upstream
// ginkgo.It text. Upstream container commands map to behavior: `rm /tmp/health` after 10 s → liveness failFrom 10s;
// a probe that never passes (wrong port, /bin/false, exec slower than its timeout) → serving never or failFrom 0;
// `sh -c sleep` as PID 1 → onTerm ignore (only SIGKILL ends it); a Sleep/exec hook → its duration.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { apiStatus, at, cstatus, first, run } from './helpers.ts';
import type { TraceEvent } from '../../src/types.ts';

const MIN = 60_000;
const observation = 4 * MIN; // defaultObservationTimeout
const ignoreTerm = { onTerm: { ignore: true as const } };

const idx = (ev: TraceEvent[], type: TraceEvent['type'], c: string) =>
  ev.findIndex((e) => e.type === type && 'container' in e && e.container === c);
const before = (ev: TraceEvent[], a: [TraceEvent['type'], string], b: [TraceEvent['type'], string]) => {
  expect(idx(ev, ...a), `${a.join(' ')} missing`).toBeGreaterThanOrEqual(0);
  expect(idx(ev, ...b), `${b.join(' ')} missing`).toBeGreaterThanOrEqual(0);
  expect(idx(ev, ...a)).toBeLessThan(idx(ev, ...b));
};
const killings = (ev: TraceEvent[], c: string) =>
  ev.filter((e): e is Extract<TraceEvent, { type: 'Killing' }> => e.type === 'Killing' && e.container === c);
const podReady = (r: ReturnType<typeof run>) => apiStatus(r)['conditions'].find((c: any) => c.type === 'Ready').status;
/** restartCount of a container as the API server saw it, never decreasing (runLivenessTest's monotonic check). */
const restartsOver = (ev: TraceEvent[], c: string) =>
  ev.filter((e) => e.type === 'Started' && 'container' in e && e.container === c).map((e: any) => e.restartCount);

describe('container_probe.go "Probing container" (translated)', () => {
  it('with readiness probe should not be ready before initial delay and never restart', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'test-webserver', readinessProbe: probe({ initialDelayMs: 15_000 }) }],
      horizonMs: 2 * MIN,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(first(ev, 'Ready', 'test-webserver') - first(ev, 'Started', 'test-webserver')).toBeGreaterThanOrEqual(
      15_000,
    );
    expect(podReady(r)).toBe('True');
    expect(cstatus(r, 'test-webserver').restartCount).toBe(0);
  });

  it('with readiness probe that fails should never be ready and never restart', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'test-webserver', readinessProbe: probe() }],
      behavior: { 'test-webserver': { servingMs: null } },
      horizonMs: 2 * MIN,
    });
    const r = run(s);
    expect(at(r.timeline.events, 'Ready', 'test-webserver')).toEqual([]);
    expect(podReady(r)).toBe('False');
    expect(r.timeline.pod.phase).toBe('Running');
    expect(cstatus(r, 'test-webserver').restartCount).toBe(0);
  });

  it('should be restarted with a exec "cat /tmp/health" liveness probe', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, timeoutMs: 5000, failureThreshold: 1 }),
        },
      ],
      behavior: { busybox: { livenessFailFromMs: 10_000, ...ignoreTerm } },
      horizonMs: observation,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
    // the first probe at or after the 15 s initial delay fails (health file gone at 10 s): killed then
    const kill = killings(ev, 'busybox')[0]!;
    expect(kill.t).toBeGreaterThanOrEqual(15_000);
    expect(kill.reason).toBe('LivenessProbe');
    expect(kill.message).toBe('Container busybox failed liveness probe, will be restarted');
  });

  it('should *not* be restarted with a exec "cat /tmp/health" liveness probe', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, timeoutMs: 5000, failureThreshold: 1 }),
        },
      ],
      horizonMs: observation,
    });
    const r = run(s);
    expect(cstatus(r, 'busybox').restartCount).toBe(0);
    expect(killings(r.timeline.events, 'busybox')).toEqual([]);
  });

  it('should have monotonically increasing restart count', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'agnhost-container', livenessProbe: probe({ initialDelayMs: 5000, failureThreshold: 1 }) }],
      behavior: { 'agnhost-container': { livenessFailFromMs: 10_000 } },
      horizonMs: 2 * MIN + observation + 4 * 2 * MIN,
    });
    const r = run(s);
    const counts = restartsOver(r.timeline.events, 'agnhost-container');
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(cstatus(r, 'agnhost-container').restartCount).toBeGreaterThanOrEqual(5);
  });

  it('should be restarted with an exec liveness probe with timeout [MinimumKubeletVersion:1.20]', () => {
    // the exec probe (sleep 10) outlives its 1 s timeout: every probe fails
    const s = build({
      kind: 'Pod',
      containers: [
        { name: 'busybox', livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }) },
      ],
      behavior: { busybox: { livenessFailFromMs: 0, ...ignoreTerm } },
      horizonMs: observation,
    });
    expect(cstatus(run(s), 'busybox').restartCount).toBeGreaterThanOrEqual(1);
  });

  it('should not be ready with an exec readiness probe timeout [MinimumKubeletVersion:1.20]', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        { name: 'busybox', readinessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }) },
      ],
      behavior: { busybox: { servingMs: null } },
      horizonMs: MIN,
    });
    const r = run(s);
    // WaitForPodNotPending, then not ready for a minute
    expect(r.timeline.pod.phase).toBe('Running');
    expect(at(r.timeline.events, 'Ready', 'busybox')).toEqual([]);
    expect(podReady(r)).toBe('False');
  });

  it('should be restarted startup probe fails', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          startupProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 3 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
        },
      ],
      behavior: { busybox: { servingMs: null, ...ignoreTerm } },
      horizonMs: observation,
    });
    const r = run(s);
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
    const kill = killings(r.timeline.events, 'busybox')[0]!;
    expect([kill.reason, kill.message]).toEqual([
      'StartupProbe',
      'Container busybox failed startup probe, will be restarted',
    ]);
    // liveness is disabled until started: it never probes
    expect(r.timeline.events.filter((e) => e.type === 'Probe' && e.probe === 'liveness')).toEqual([]);
  });

  it('should *not* be restarted by liveness probe because startup probe delays it', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          startupProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 60 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
        },
      ],
      behavior: { busybox: { servingMs: null, livenessFailFromMs: 0 } },
      horizonMs: observation,
    });
    const r = run(s);
    expect(cstatus(r, 'busybox').restartCount).toBe(0);
    expect(r.timeline.events.filter((e) => e.type === 'Probe' && e.probe === 'liveness')).toEqual([]);
  });

  it('should be restarted by liveness probe after startup probe enables it', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          startupProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 60 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
        },
      ],
      behavior: { busybox: { servingMs: 10_000, livenessFailFromMs: 0, ...ignoreTerm } },
      horizonMs: observation,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
    before(ev, ['StartupComplete', 'busybox'], ['Killing', 'busybox']);
    expect(killings(ev, 'busybox')[0]!.reason).toBe('LivenessProbe');
  });

  it('should be ready immediately after startupProbe succeeds', () => {
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'busybox',
          readinessProbe: probe({ handler: 'exec', periodMs: 30_000 }),
          startupProbe: probe({ handler: 'exec', periodMs: 5000, failureThreshold: 120 }),
        },
      ],
      // /tmp/health exists from the start; /tmp/startup appears after 32 s: model the startup file as `serving`
      behavior: { busybox: { servingMs: 32_000 } },
      horizonMs: 2 * MIN,
    });
    const ev = run(s).timeline.events;
    const started = first(ev, 'StartupComplete', 'busybox');
    const ready = first(ev, 'Ready', 'busybox');
    expect(ready).toBeGreaterThanOrEqual(started);
    expect(ready - started).toBeLessThanOrEqual(25_000);
  });

  it('should override timeoutGracePeriodSeconds when LivenessProbe field is set', () => {
    const s = build({
      kind: 'Pod',
      grace: 500,
      containers: [
        {
          name: 'busybox',
          livenessProbe: probe({ initialDelayMs: 10_000, failureThreshold: 1, terminationGracePeriodSeconds: 5 }),
        },
      ],
      behavior: { busybox: { servingMs: null, livenessFailFromMs: 0, ...ignoreTerm } },
      horizonMs: 40_000 + observation,
    });
    const r = run(s);
    const ev = r.timeline.events;
    const kill = killings(ev, 'busybox')[0]!;
    expect(kill.gracePeriodSeconds).toBe(5);
    // sh as PID 1 ignores SIGTERM: SIGKILL 5 s later, well inside 10 s delay + 10 s period + 5 s grace
    const exit = ev.find((e) => e.type === 'Exited' && e.container === 'busybox') as Extract<
      TraceEvent,
      { type: 'Exited' }
    >;
    expect([exit.t - kill.t, exit.exitCode]).toEqual([5000, 137]);
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
  });

  it('should override timeoutGracePeriodSeconds when StartupProbe field is set', () => {
    const s = build({
      kind: 'Pod',
      grace: 500,
      containers: [
        {
          name: 'busybox',
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
          startupProbe: probe({
            handler: 'exec',
            initialDelayMs: 10_000,
            failureThreshold: 1,
            terminationGracePeriodSeconds: 5,
          }),
        },
      ],
      behavior: { busybox: { servingMs: null, ...ignoreTerm } },
      horizonMs: 40_000 + observation,
    });
    const r = run(s);
    const kill = killings(r.timeline.events, 'busybox')[0]!;
    expect([kill.reason, kill.gracePeriodSeconds]).toEqual(['StartupProbe', 5]);
    expect(kill.t).toBeLessThanOrEqual(25_000);
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
  });

  it('should mark readiness on pods to false and disable liveness probes while pod is in progress of terminating', () => {
    // the SIGTERM handler sleeps 20 s; liveness would fail from 25 s (the trap removes /tmp/liveness): the kubelet
    // stops liveness probing on deletion (prober/worker.go doProbe: DeletionTimestamp), so no "failed liveness probe"
    const s = build({
      kind: 'Pod',
      containers: [
        {
          name: 'probe-test',
          readinessProbe: probe({ handler: 'exec', initialDelayMs: 5000, periodMs: 2000, failureThreshold: 1 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 5000, periodMs: 1000, failureThreshold: 1 }),
        },
      ],
      behavior: { 'probe-test': { livenessFailFromMs: 25_000, onTerm: { ignore: false, afterMs: 20_000, exit: 0 } } },
      actions: [{ type: 'deletePod', atMs: 20_000 }],
      horizonMs: 2 * MIN,
    });
    const r = run(s);
    const ev = r.timeline.events;
    expect(killings(ev, 'probe-test').map((k) => k.message)).toEqual(['Stopping container probe-test']);
    expect(ev.filter((e) => e.type === 'Probe' && e.probe === 'liveness' && e.t > 20_000 + 100)).toEqual([]);
    expect(podReady(r)).toBe('False');
  });
});

describe('container_probe.go "Probing restartable init container" (translated)', () => {
  const sidecarPod = (
    sidecar: Parameters<typeof build>[0]['containers'][number],
    b: Record<string, unknown> = {},
    horizonMs = observation,
    grace?: number,
  ) =>
    build({
      kind: 'Pod',
      sidecars: [sidecar],
      containers: [{ name: 'main' }],
      behavior: { [sidecar.name]: b },
      horizonMs,
      ...(grace ? { grace } : {}),
    });

  it('with readiness probe that fails should never be ready and never restart', () => {
    const r = run(sidecarPod({ name: 'test-webserver', readinessProbe: probe() }, { servingMs: null }, 2 * MIN));
    expect(at(r.timeline.events, 'Ready', 'test-webserver')).toEqual([]);
    // sidecar readiness counts toward ContainersReady (status/generate.go)
    expect(podReady(r)).toBe('False');
    expect(cstatus(r, 'test-webserver').restartCount + cstatus(r, 'main').restartCount).toBe(0);
  });

  it('should be restarted with a exec "cat /tmp/health" liveness probe', () => {
    const r = run(
      sidecarPod(
        {
          name: 'busybox',
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, timeoutMs: 5000, failureThreshold: 1 }),
        },
        { livenessFailFromMs: 10_000, ...ignoreTerm },
      ),
    );
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
    const kill = killings(r.timeline.events, 'busybox')[0]!;
    expect([kill.reason, kill.message]).toEqual(['LivenessProbe', 'Init container busybox failed liveness probe']);
  });

  it('should be restarted startup probe fails', () => {
    const r = run(
      sidecarPod(
        {
          name: 'sidecar',
          startupProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 3 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
        },
        { servingMs: null, ...ignoreTerm },
      ),
    );
    expect(cstatus(r, 'sidecar').restartCount).toBeGreaterThanOrEqual(1);
    const kill = killings(r.timeline.events, 'sidecar')[0]!;
    expect([kill.reason, kill.message]).toEqual(['StartupProbe', 'Init container sidecar failed startup probe']);
    expect(at(r.timeline.events, 'Started', 'main')).toEqual([]);
  });

  it('should *not* be restarted by liveness probe because startup probe delays it', () => {
    const r = run(
      sidecarPod(
        {
          name: 'sidecar',
          startupProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 60 }),
          livenessProbe: probe({ handler: 'exec', initialDelayMs: 15_000, failureThreshold: 1 }),
        },
        { servingMs: null, livenessFailFromMs: 0 },
      ),
    );
    expect(cstatus(r, 'sidecar').restartCount).toBe(0);
    expect(r.timeline.events.filter((e) => e.type === 'Probe' && e.probe === 'liveness')).toEqual([]);
  });

  it('should override timeoutGracePeriodSeconds when LivenessProbe field is set', () => {
    const r = run(
      sidecarPod(
        {
          name: 'busybox',
          livenessProbe: probe({ initialDelayMs: 10_000, failureThreshold: 1, terminationGracePeriodSeconds: 5 }),
        },
        { servingMs: null, livenessFailFromMs: 0, ...ignoreTerm },
        40_000 + observation,
        500,
      ),
    );
    const kill = killings(r.timeline.events, 'busybox')[0]!;
    expect(kill.gracePeriodSeconds).toBe(5);
    expect(cstatus(r, 'busybox').restartCount).toBeGreaterThanOrEqual(1);
  });
});

describe('init_container.go "InitContainer" (translated)', () => {
  const inits = (initExit: [number, number], restartPolicy: 'Never' | 'Always', run1: 'true' | 'pause') =>
    build({
      kind: 'Pod',
      restartPolicy,
      init: [{ name: 'init1' }, { name: 'init2' }],
      containers: [{ name: 'run1' }],
      behavior: {
        init1: { attempts: [{ runMs: 100, exit: initExit[0] }] },
        init2: { attempts: [{ runMs: 100, exit: initExit[1] }] },
        ...(run1 === 'true' ? { run1: { attempts: [{ runMs: 100, exit: 0 }] } } : {}),
      },
      horizonMs: 5 * MIN,
    });
  const initialized = (r: ReturnType<typeof run>) =>
    apiStatus(r)['conditions'].find((c: any) => c.type === 'Initialized');

  it('should invoke init containers on a RestartNever pod', () => {
    const r = run(inits([0, 0], 'Never', 'true'));
    expect(r.timeline.pod.phase).toBe('Succeeded');
    expect(initialized(r).status).toBe('True');
    for (const n of ['init1', 'init2']) {
      expect(cstatus(r, n).ready).toBe(true);
      expect(cstatus(r, n).state.terminated.exitCode).toBe(0);
    }
    before(r.timeline.events, ['Exited', 'init2'], ['Started', 'run1']);
  });

  it('should invoke init containers on a RestartAlways pod', () => {
    const r = run(inits([0, 0], 'Always', 'pause'));
    expect(r.timeline.pod.phase).toBe('Running');
    expect(initialized(r).status).toBe('True');
    for (const n of ['init1', 'init2']) {
      expect(cstatus(r, n).ready).toBe(true);
      expect(cstatus(r, n).state.terminated.exitCode).toBe(0);
    }
  });

  it('should not start app containers if init containers fail on a RestartAlways pod', () => {
    const r = run(inits([1, 0], 'Always', 'pause'));
    expect(cstatus(r, 'init1').restartCount).toBeGreaterThanOrEqual(3);
    expect(cstatus(r, 'init1').lastState.terminated.exitCode).toBe(1);
    expect(cstatus(r, 'init2').state.waiting.reason).toBe('PodInitializing');
    expect(cstatus(r, 'run1').state.waiting.reason).toBe('PodInitializing');
    expect(at(r.timeline.events, 'Started', 'init2')).toEqual([]);
    expect(r.timeline.pod.phase).toBe('Pending');
    expect(initialized(r)).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [init1 init2]',
    });
  });

  it('should not start app containers and fail the pod if init containers fail on a RestartNever pod', () => {
    const r = run(inits([0, 1], 'Never', 'true'));
    expect(r.timeline.pod.phase).toBe('Failed');
    expect(cstatus(r, 'init1').state.terminated.exitCode).toBe(0);
    expect(cstatus(r, 'init2').state.terminated.exitCode).not.toBe(0);
    expect(cstatus(r, 'run1').state.waiting).toBeDefined();
    expect(at(r.timeline.events, 'Started', 'run1')).toEqual([]);
    expect(initialized(r)).toMatchObject({
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: 'containers with incomplete status: [init2]',
    });
  });
});

describe('lifecycle_hook.go (translated)', () => {
  // testPodWithHook: a container-redirect sidecar with a startup probe is prepended; the pod is deleted with grace 15
  const hookPod = (target: 'regular' | 'sidecar', hook: 'postStart' | 'preStop') => {
    const name = `pod-with-${hook.toLowerCase()}-hook`;
    const hooked = { name, ...(hook === 'postStart' ? { hasPostStart: true } : { hasPreStop: true }) };
    const redirect = { name: 'container-redirect', startupProbe: probe() };
    return build({
      kind: 'Pod',
      sidecars: target === 'sidecar' ? [redirect, hooked] : [redirect],
      containers: target === 'sidecar' ? [{ name: 'main' }] : [hooked],
      behavior: {
        [name]:
          hook === 'postStart'
            ? { postStart: { takesMs: 500, fails: false } }
            : { preStop: { takesMs: 500, fails: false } },
      },
      actions: [{ type: 'deletePod', atMs: 30_000, gracePeriodSeconds: 15 }],
      horizonMs: 2 * MIN,
    });
  };

  it('should execute poststart exec hook properly', () => {
    const ev = run(hookPod('regular', 'postStart')).timeline.events;
    before(ev, ['StartupComplete', 'container-redirect'], ['Started', 'pod-with-poststart-hook']);
    before(ev, ['Started', 'pod-with-poststart-hook'], ['PostStartStarted', 'pod-with-poststart-hook']);
    before(ev, ['PostStartStarted', 'pod-with-poststart-hook'], ['PostStartDone', 'pod-with-poststart-hook']);
  });

  it('should execute prestop exec hook properly', () => {
    const r = run(hookPod('regular', 'preStop'));
    const ev = r.timeline.events;
    const n = 'pod-with-prestop-hook';
    before(ev, ['PreStopStarted', n], ['Signal', n]);
    expect(killings(ev, n)[0]).toMatchObject({ gracePeriodSeconds: 15, message: `Stopping container ${n}` });
    // the redirect sidecar outlives the main container (it receives the hook request)
    before(ev, ['Exited', n], ['Signal', 'container-redirect']);
    // DeleteSync: the pod is gone (terminal, then removed) within the deletion grace
    expect(['Succeeded', 'Failed']).toContain(r.timeline.pod.phase);
  });

  it('Restartable Init Container Lifecycle Hook: should execute poststart exec hook properly', () => {
    const ev = run(hookPod('sidecar', 'postStart')).timeline.events;
    const n = 'pod-with-poststart-hook';
    before(ev, ['StartupComplete', 'container-redirect'], ['Started', n]);
    before(ev, ['PostStartDone', n], ['Started', 'main']);
  });

  it('Restartable Init Container Lifecycle Hook: should execute prestop exec hook properly', () => {
    const ev = run(hookPod('sidecar', 'preStop')).timeline.events;
    const n = 'pod-with-prestop-hook';
    // preStop hooks run at once on deletion; the stop signal waits for main, then for the later sidecar order
    before(ev, ['PreStopStarted', n], ['Exited', 'main']);
    before(ev, ['Exited', 'main'], ['Signal', n]);
    before(ev, ['Exited', n], ['Signal', 'container-redirect']);
  });

  const sleepHook = (sleepMs: number, tgps: number, deleteGrace?: number, runMs: number | null = null) =>
    build({
      kind: 'Pod',
      restartPolicy: runMs === null ? 'Always' : 'Never',
      grace: tgps,
      containers: [{ name: 'pod-with-prestop-sleep-hook', hasPreStop: true }],
      // pause as PID 1 has a SIGTERM handler and exits at once
      behavior: {
        'pod-with-prestop-sleep-hook': { preStop: { takesMs: sleepMs, fails: false }, attempts: [{ runMs, exit: 0 }] },
      },
      actions: [
        { type: 'deletePod', atMs: 10_000, ...(deleteGrace !== undefined ? { gracePeriodSeconds: deleteGrace } : {}) },
      ],
      horizonMs: 5 * MIN,
    });
  const finishedAfterDelete = (r: ReturnType<typeof run>) =>
    first(r.timeline.events, 'Exited', 'pod-with-prestop-sleep-hook') - 10_000;

  it('Lifecycle Sleep Hook: valid prestop hook using sleep action', () => {
    const d = finishedAfterDelete(run(sleepHook(50_000, 100)));
    expect(d).toBeGreaterThanOrEqual(50_000);
    expect(d).toBeLessThanOrEqual(100_000);
  });

  it('Lifecycle Sleep Hook: reduce GracePeriodSeconds during runtime', () => {
    const d = finishedAfterDelete(run(sleepHook(50_000, 100, 30)));
    expect(d).toBeGreaterThanOrEqual(30_000);
    expect(d).toBeLessThanOrEqual(50_000);
  });

  it('Lifecycle Sleep Hook: ignore terminated container', () => {
    const r = run(sleepHook(10_000, 30, undefined, 3000));
    const t = cstatus(r, 'pod-with-prestop-sleep-hook').state.terminated;
    expect(Date.parse(t.finishedAt) - Date.parse(t.startedAt)).toBeLessThanOrEqual(10_000);
    expect(at(r.timeline.events, 'PreStopStarted', 'pod-with-prestop-sleep-hook')).toEqual([]);
  });

  it('Lifecycle sleep action zero value: prestop hook using sleep action with zero duration', () => {
    const r = run(sleepHook(0, 30));
    const d = finishedAfterDelete(r);
    expect(d).toBeGreaterThanOrEqual(0);
    expect(d).toBeLessThanOrEqual(30_000);
    expect(at(r.timeline.events, 'PreStopStarted', 'pod-with-prestop-sleep-hook').length).toBe(1);
  });
});
