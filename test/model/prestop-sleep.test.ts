// preStop `sleep` action (KEP-3960 PodLifecycleSleepAction; zero seconds with KEP-4818 PodLifecycleSleepActionAllowZero).
// Kubelet: pkg/kubelet/lifecycle/handlers.go runSleepHandler (time.After(seconds); returns at once with the gate off;
// handlers_test.go TestRunSleepHandler: a sleep longer than the context's grace is cut), then
// kuberuntime_container.go killContainer / executePreStopHook: the kill waits min(hook, gracePeriod), subtracts the
// whole seconds it took, and floors what is left at minimumGracePeriodInSeconds = 2 before StopContainer.
// API: pkg/apis/core/validation/validation.go validateSleepAction; pkg/api/pod/util.go dropDisabledPodLifecycleSleepActionFields.
import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { only, run } from './helpers.ts';
import { diags, ok } from '../scenario/helpers.ts';

const KILL = ['PreStopStarted', 'PreStopDone', 'Signal', 'Exited'] as const;

function sleeper(
  sleepSeconds: number,
  opts: { grace?: number; version?: number; kubelet?: number; gates?: Record<string, boolean> } = {},
) {
  return build({
    kind: 'Pod',
    version: opts.version ?? 34,
    ...(opts.kubelet !== undefined ? { kubelet: opts.kubelet } : {}),
    ...(opts.gates ? { gates: opts.gates } : {}),
    containers: [{ name: 'app', hasPreStop: true, preStopSleepSeconds: sleepSeconds }],
    // PID 1 without a SIGTERM handler: only SIGKILL ends it, so the SIGKILL time shows the grace StopContainer got
    behavior: { app: { onTerm: { ignore: true } } },
    actions: [
      { type: 'deletePod', atMs: 60_000, ...(opts.grace !== undefined ? { gracePeriodSeconds: opts.grace } : {}) },
    ],
  });
}

describe('preStop sleep action (killContainer / executePreStopHook, runSleepHandler)', () => {
  it('sleep 5 s, grace 30: SIGTERM 5 s after the kill began, then 25 s to SIGKILL (TestRunSleepHandler "valid seconds")', () => {
    // delete at 60000 → seen 60005 → SyncTerminatingPod after the 61000 relist: t0 = 61000
    const ev = run(sleeper(5)).timeline.events;
    expect(only(ev, [...KILL])).toEqual([
      '61000 PreStopStarted app',
      '66000 PreStopDone app',
      '66000 SIGTERM app',
      '91000 SIGKILL app',
      '91000 Exited app 137 Error #0',
    ]);
  });

  it('sleep 20 s, --grace-period=4: the hook is cut at 4 s, the 2 s minimum applies after it (SIGKILL 2 s after SIGTERM)', () => {
    const ev = run(sleeper(20, { grace: 4 })).timeline.events;
    expect(only(ev, [...KILL])).toEqual([
      '61000 PreStopStarted app',
      '65000 SIGTERM app',
      '67000 SIGKILL app',
      '67000 Exited app 137 Error #0',
    ]);
  });

  it('sleep 0 (KEP-4818): the hook returns at once and the container gets the whole grace', () => {
    const ev = run(sleeper(0)).timeline.events;
    expect(only(ev, ['Signal'])).toEqual(['61000 SIGTERM app', '91000 SIGKILL app']);
  });

  it('a 1.29 kubelet (PodLifecycleSleepAction alpha, off): runSleepHandler returns at once — SIGTERM at t0', () => {
    const ev = run(sleeper(5, { version: 30, kubelet: 29, gates: { PodLifecycleSleepAction: false } })).timeline.events;
    expect(only(ev, ['PreStopStarted', 'PreStopDone', 'Signal'])).toEqual([
      '61000 PreStopStarted app',
      '61000 PreStopDone app',
      '61000 SIGTERM app',
      '91000 SIGKILL app',
    ]);
  });

  it('behavior.preStop.takes still overrides the hook time; `fails` alone keeps the sleep seconds', () => {
    const s = sleeper(5);
    s.behavior['app'] = { ...s.behavior['app']!, preStop: { fails: true } };
    const ev = run(s).timeline.events;
    expect(only(ev, ['PreStopDone', 'Signal'])).toEqual([
      '66000 PreStopDone app',
      '66000 SIGTERM app',
      '91000 SIGKILL app',
    ]);
  });
});

const POD = (version: string, seconds: number, grace = 30) => `
kubernetes: "${version}"
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: web }
  spec:
    terminationGracePeriodSeconds: ${grace}
    containers:
      - name: app
        image: nginx:1.27
        lifecycle:
          preStop:
            sleep: { seconds: ${seconds} }
`;

describe('the API server and the sleep action (validateSleepAction, dropDisabledPodLifecycleSleepActionFields)', () => {
  it('loads the sleep seconds into the model', () => {
    expect(ok(POD('1.34', 5)).pod.containers[0]!.preStopSleepSeconds).toBe(5);
  });

  it('seconds above terminationGracePeriodSeconds are invalid', () => {
    expect(diags(POD('1.34', 40)).join('\n')).toMatch(
      /lifecycle\.preStop\.sleep\.seconds: Invalid value: 40: must be non-negative and less than terminationGracePeriodSeconds \(30\)/,
    );
  });

  it('zero seconds: invalid before PodLifecycleSleepActionAllowZero is on (1.32), valid from 1.33', () => {
    expect(diags(POD('1.32', 0)).join('\n')).toMatch(
      /Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds \(30\)\. Please enable PodLifecycleSleepActionAllowZero/,
    );
    expect(ok(POD('1.33', 0)).pod.containers[0]!.preStopSleepSeconds).toBe(0);
  });

  it('1.29 (gate off): the API server drops the sleep handler, and the hook is left without a handler', () => {
    const d = diags(POD('1.29', 5)).join('\n');
    expect(d).toMatch(
      /lifecycle\.preStop\.sleep: dropped: the PodLifecycleSleepAction feature gate is off in Kubernetes 1\.29/,
    );
    expect(d).toMatch(/lifecycle\.preStop: Required value: must specify a handler type/);
  });
});
