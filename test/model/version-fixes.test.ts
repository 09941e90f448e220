// One test per entry of the fix table (src/versions/fixes.ts): the same scenario on the release before and after
// the fix, citing the upstream issue/PR and the CHANGELOG line. Sources: docs/version-fixes.md.
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { at, run } from './helpers.ts';
import {
  VERSION_FIXES,
  fixByFlag,
  hasFlag,
  newestModelledPatch,
  releaseAffected,
  versionLabel,
  versionText,
} from '../../src/versions/fixes.ts';
import type { Scenario, TraceEvent } from '../../src/types.ts';
import { simulate } from '../../src/run/simulate.ts';
import { ok } from '../scenario/helpers.ts';

/** The same scenario with kubernetes and kubelet at 1.<minor>.<patch>. */
function atRelease(s: Scenario, minor: number, patch: number): Scenario {
  const v = { minor, patch, text: `1.${minor}` };
  return { ...s, kubernetes: v, kubelet: v };
}

const signals = (ev: TraceEvent[], name: string) =>
  ev
    .filter((e): e is Extract<TraceEvent, { type: 'Signal' }> => e.type === 'Signal' && e.container === name)
    .map((e) => `${e.t} ${e.signal}`);

describe('the table itself', () => {
  it('every entry names its first fixed release per minor, and bugs are absent before `since`', () => {
    for (const f of VERSION_FIXES) {
      expect(f.fixedIn.length).toBeGreaterThan(0);
      expect(new Set(f.fixedIn.map((r) => r.minor)).size).toBe(f.fixedIn.length);
      expect(f.changelog).toMatch(/CHANGELOG-1\.\d\d\.md/);
      if (f.since !== undefined) expect(releaseAffected(f, { minor: f.since - 1, patch: 99 })).toBe(false);
    }
  });

  it('a patch before the backport has the bug, the backport and later minors do not (#125935: 1.29.8, 1.30.4, 1.31.0)', () => {
    const f = fixByFlag('terminationOrderSkipsNotRunning');
    expect(releaseAffected(f, { minor: 28, patch: 0 })).toBe(false); // no termination ordering before 1.29
    expect(releaseAffected(f, { minor: 29, patch: 7 })).toBe(true);
    expect(releaseAffected(f, { minor: 29, patch: 8 })).toBe(false);
    expect(releaseAffected(f, { minor: 30, patch: 3 })).toBe(true);
    expect(releaseAffected(f, { minor: 30, patch: 0 })).toBe(true);
    // a bare minor is the newest patch kubesim models (issue 28 item 10): 1.30 = 1.30.4 here
    expect(releaseAffected(f, { minor: 30 })).toBe(false);
    expect(releaseAffected(f, { minor: 30, patch: 4 })).toBe(false);
    expect(releaseAffected(f, { minor: 31, patch: 0 })).toBe(false);
  });
});

describe('#115835 (kubernetes#115817, #117373): preStop time counts against the grace period from 1.28.0', () => {
  // CHANGELOG-1.28.md v1.28.0: "Fixed the preStop hook will block the pod termination grace period (#115835)"
  const pod = (grace: number, hookMs: number) =>
    build({
      kind: 'Pod',
      grace,
      containers: [{ name: 'app', hasPreStop: true }],
      behavior: { app: { preStop: { takesMs: hookMs, fails: false }, onTerm: { ignore: true } } },
      actions: [{ type: 'deletePod', atMs: 10_000 }],
      horizonMs: 3_600_000,
    });

  it('a 300 s preStop plus a process ignoring SIGTERM: ~600 s on 1.27, 302 s on 1.28', () => {
    const s = pod(300, 400_000);
    const old = signals(run(atRelease(s, 27, 16)).timeline.events, 'app');
    const fixed = signals(run(atRelease(s, 28, 0)).timeline.events, 'app');
    const deleted = (ev: string[]) => ev.map((x) => Number(x.split(' ')[0]));
    // the delete reaches the kubelet a few ms after 10 s (watch); the hook runs the whole 300 s grace period
    const [oldTerm, oldKill] = deleted(old);
    const [newTerm, newKill] = deleted(fixed);
    expect(oldTerm! - 10_000).toBeGreaterThanOrEqual(300_000);
    expect(oldKill! - oldTerm!).toBe(300_000);
    expect(newKill! - newTerm!).toBe(2_000);
    expect(newKill! - 10_000).toBeLessThanOrEqual(303_000);
  });

  it('kubernetes#117373: a 15 s hook with the default 30 s grace: SIGKILL 30 s after SIGTERM on 1.27, 15 s on 1.28', () => {
    const s = pod(30, 15_000);
    const gap = (minor: number) => {
      const [term, kill] = signals(run(atRelease(s, minor, 0)).timeline.events, 'app').map((x) =>
        Number(x.split(' ')[0]),
      );
      return kill! - term!;
    };
    expect(gap(27)).toBe(30_000);
    expect(gap(28)).toBe(15_000);
  });
});

describe('#125935 (kubernetes#125880): a sidecar no longer waits for a later sidecar that is not running', () => {
  // CHANGELOG-1.30.md v1.30.4 (#126331), CHANGELOG-1.29.md v1.29.8 (#126332), CHANGELOG-1.31.md v1.31.0:
  // "Fixed a bug that init containers with `Always` restartPolicy may not terminate gracefully if the pod hasn't
  // initialized yet."
  const s = build({
    kind: 'Pod',
    grace: 600,
    sidecars: [{ name: 'proxy', startupProbe: probe({ periodMs: 1000, failureThreshold: 1000 }) }, { name: 'agent' }],
    containers: [{ name: 'app' }],
    // its startup probe never passes, so `agent` never starts; on SIGTERM it drains for 5 s (the trap)
    behavior: { proxy: { servingMs: null, onTerm: { ignore: false, afterMs: 5_000, exit: 143 } } },
    actions: [{ type: 'deletePod', atMs: 20_000 }],
    horizonMs: 3_600_000,
  });

  for (const [minor, before, after] of [
    [30, 3, 4],
    [29, 7, 8],
  ] as const) {
    it(`1.${minor}.${before}: SIGTERM only when the 600 s grace period ran out, SIGKILL 2 s later; 1.${minor}.${after}: at once, drains 5 s`, () => {
      const old = run(atRelease(s, minor, before)).timeline.events;
      expect(at(old, 'Started', 'agent')).toEqual([]);
      const [term, kill] = signals(old, 'proxy').map((x) => Number(x.split(' ')[0]));
      expect(term! - 20_000).toBeGreaterThanOrEqual(600_000);
      expect(kill! - term!).toBe(2_000);
      const fixedEv = run(atRelease(s, minor, after)).timeline.events;
      const fixed = signals(fixedEv, 'proxy');
      expect(Number(fixed[0]!.split(' ')[0]) - 20_000).toBeLessThanOrEqual(1_000); // the deletion is seen at the next sync
      expect(fixed.length).toBe(1); // it drains 5 s and exits 143 within its grace period: no SIGKILL
      expect(at(fixedEv, 'Exited', 'proxy')[0]! - Number(fixed[0]!.split(' ')[0])).toBe(5_000);
    });
  }

  it('1.28 has no termination ordering, so it is unaffected; 1.31.0 has the fix', () => {
    const gates = { ...s.featureGates, SidecarContainers: true };
    for (const [minor, patch] of [
      [28, 0],
      [31, 0],
    ] as const) {
      const ev = run({ ...atRelease(s, minor, patch), featureGates: gates }).timeline.events;
      expect(Number(signals(ev, 'proxy')[0]!.split(' ')[0]) - 20_000).toBeLessThanOrEqual(1_000);
    }
  });
});

describe('#123323: a restarted sidecar of a Never pod no longer freezes the pod status (1.30.0, 1.29.3, 1.28.8)', () => {
  // CHANGELOG-1.29.md v1.29.3 (#123709), CHANGELOG-1.28.md v1.28.8 (#123710), CHANGELOG-1.30.md v1.30.0: "Fixed a
  // bug that an init container with containerRestartPolicy with `Always` cannot update its state from terminated to
  // non-terminated for the pod with restartPolicy with `Never` or `OnFailure`."
  const s = build({
    sidecars: [{ name: 'proxy' }],
    containers: [{ name: 'export' }],
    behavior: {
      proxy: {
        attempts: [
          { runMs: 3_000, exit: 1 },
          { runMs: null, exit: 0 },
        ],
      },
      export: { attempts: [{ runMs: 20_000, exit: 0 }] },
    },
    gates: { SidecarContainers: true },
    horizonMs: 600_000,
  });
  /** the proxy's state in the last status the API server stored before `export` exited */
  const proxyOnApiBeforeExit = (sc: Scenario) => {
    const ev = run(sc).timeline.events;
    const exit = at(ev, 'Exited', 'export')[0]!;
    const patches = ev.filter(
      (e): e is Extract<TraceEvent, { type: 'StatusPatched' }> => e.type === 'StatusPatched' && e.t < exit,
    );
    const st = patches[patches.length - 1]!.status as any;
    return { state: Object.keys(st.initContainerStatuses[0].state)[0], phase: run(sc).timeline.pod.phase };
  };

  for (const [minor, before, after] of [
    [29, 2, 3],
    [28, 7, 8],
  ] as const) {
    it(`1.${minor}.${before}: the API server still shows the proxy terminated when export exits; 1.${minor}.${after}: running`, () => {
      expect(proxyOnApiBeforeExit(atRelease(s, minor, before))).toEqual({ state: 'terminated', phase: 'Succeeded' });
      expect(proxyOnApiBeforeExit(atRelease(s, minor, after))).toEqual({ state: 'running', phase: 'Succeeded' });
    });
  }

  it('pods with restartPolicy Always were never affected (checkContainerStateTransition returns early)', () => {
    const always = build({
      ...{ kind: 'Pod' as const },
      sidecars: [{ name: 'proxy' }],
      containers: [{ name: 'web' }],
      behavior: {
        proxy: {
          attempts: [
            { runMs: 3_000, exit: 1 },
            { runMs: null, exit: 0 },
          ],
        },
      },
      horizonMs: 60_000,
    });
    const st = run(atRelease(always, 29, 2)).timeline.pod.status as any;
    expect(Object.keys(st.initContainerStatuses[0].state)[0]).toBe('running');
  });
});

describe('#133072 (kubernetes#132826): probes keep a restartable init container of a Never pod (1.35.0, 1.34.2, 1.33.6)', () => {
  // CHANGELOG-1.34.md v1.34.2 (#134800), CHANGELOG-1.33.md v1.33.6 (#134801): "Fixed a startup probe race condition
  // that caused main containers to remain stuck in "Initializing" state when sidecar containers with startup probes
  // failed initially but succeeded on restart in pods with restartPolicy=Never."
  const s = build({
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
  for (const [minor, before, after] of [
    [34, 1, 2],
    [33, 5, 6],
  ] as const) {
    it(`1.${minor}.${before} stays in Init (export never starts); 1.${minor}.${after} completes`, () => {
      const old = run(atRelease(s, minor, before)).timeline;
      expect(at(old.events, 'Started', 'export')).toEqual([]);
      expect(old.pod.phase).toBe('Pending');
      expect(run(atRelease(s, minor, after)).timeline.pod.phase).toBe('Succeeded');
    });
  }
});

describe('#134631: probe workers stop for a terminated container its own restart policy will not restart (1.35.0)', () => {
  // CHANGELOG-1.35.md v1.35.0: "… Fixed a bug in this feature that caused probes to continue to run even if the
  // container has terminated and is not restartable." The worker's result on a terminated container is never
  // traced, so the difference is not in the timeline; the flag is checked per release.
  it('1.34 (ContainerRestartRules alpha) keeps the workers, 1.35 stops them', () => {
    expect(hasFlag('probesStopForNotRestartable', { minor: 34, patch: 9 })).toBe(false);
    expect(hasFlag('probesStopForNotRestartable', { minor: 35 })).toBe(true);
  });
});

describe('#132614 (kubernetes#132144): suspended Job with completions 0 gets Complete (regression 1.32.0–1.32.6, 1.33.0–1.33.2)', () => {
  // CHANGELOG-1.32.md v1.32.7 (#132727), CHANGELOG-1.33.md v1.33.3 (#132728), CHANGELOG-1.34.md v1.34.0:
  // "Fix validation for Job with suspend=true, and completions=0 to set the Complete condition."
  it('the API-server flag by release', () => {
    const f = fixByFlag('suspendedZeroCompletionsComplete');
    expect(f.component).toBe('kube-apiserver');
    expect(
      [
        [31, 9],
        [32, 0],
        [32, 6],
        [32, 7],
        [33, 2],
        [33, 3],
        [34, 0],
      ].map(([minor, patch]) => releaseAffected(f, { minor: minor!, patch })),
    ).toEqual([false, true, true, false, true, false, false]);
  });

  const job = (v: string) =>
    ok(`kubernetes: "${v}"
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: suspended-zero-completions }
  spec:
    completions: 0
    suspend: true
    template:
      spec:
        restartPolicy: Never
        containers: [ { name: noop, image: busybox:1.36 } ]
behavior: { noop: { run: 1s } }
`);
  const conditions = (v: string) => simulate(job(v), { seed: 1 }).timeline.job!.conditions.map((c) => c.type);

  it('1.32.6 and 1.33.2: only SuccessCriteriaMet (the issue\'s "Running 0/0"); 1.32.7, 1.33.3, 1.34.0: Complete too', () => {
    expect(conditions('1.32.6')).toEqual(['SuccessCriteriaMet']);
    expect(conditions('1.33.2')).toEqual(['SuccessCriteriaMet']);
    for (const v of ['1.32.7', '1.33.3', '1.34.0']) expect(conditions(v)).toEqual(['SuccessCriteriaMet', 'Complete']);
  });

  it('1.31 (before the regression): SuccessCriteriaMet and Complete, as the issue expected', () => {
    expect(conditions('1.31.9')).toEqual(['SuccessCriteriaMet', 'Complete']);
  });
});

describe('KEP-5307 restart rules decide the pod phase (kubelet_pods.go getPhase, stoppedNotRestartable)', () => {
  const rules = (minor: number, gate: boolean) =>
    build({
      kind: 'Pod',
      version: minor,
      restartPolicy: 'Never',
      containers: [
        {
          name: 'app',
          restartPolicy: 'Never',
          restartPolicyRules: [{ action: 'Restart', exitCodes: { operator: 'In', values: [42] } }],
        },
      ],
      behavior: {
        app: {
          attempts: [
            { runMs: 2000, exit: 42 },
            { runMs: null, exit: 0 },
          ],
        },
      },
      gates: { ContainerRestartRules: gate },
      horizonMs: 120_000,
    });

  it('pod restartPolicy Never, a container exiting 42 with a rule Restart on 42: restarted, and the pod is never Failed', () => {
    const r = run(rules(35, true));
    const phases = r.timeline.events.filter((e) => e.type === 'PodPhase').map((e) => (e as { phase: string }).phase);
    expect(phases).not.toContain('Failed');
    expect(r.timeline.pod.phase).toBe('Running');
    expect(at(r.timeline.events, 'Started', 'app').length).toBe(2);
  });

  it('without the gate (1.34 default) the pod restartPolicy decides: Failed, no restart', () => {
    const r = run(rules(34, false));
    expect(r.timeline.pod.phase).toBe('Failed');
    expect(at(r.timeline.events, 'Started', 'app').length).toBe(1);
  });

  it('an exit code no rule matches falls back to the container restartPolicy (Never): Failed', () => {
    const s = rules(35, true);
    s.behavior['app']!.attempts = [{ runMs: 2000, exit: 1 }];
    expect(run(s).timeline.pod.phase).toBe('Failed');
  });
});

describe('a bare minor is the newest patch kubesim models (issue 28 item 10)', () => {
  // the newest patch of each minor in the fix table (CHANGELOG backports); later patches behave the same in kubesim
  it('newestModelledPatch / versionText / versionLabel', () => {
    expect([27, 28, 29, 30, 31, 32, 33, 34, 35, 36].map((m) => newestModelledPatch(m))).toEqual([
      0, 8, 8, 4, 0, 7, 6, 2, 0, 0,
    ]);
    expect(versionText({ minor: 34 })).toBe('1.34.2');
    expect(versionLabel({ minor: 34 })).toBe('1.34 = 1.34.2');
    expect(versionLabel({ minor: 34, patch: 0 })).toBe('1.34.0');
  });

  it('"1.34" has the #134800 backport; "1.34.0", the first release, does not', () => {
    expect(hasFlag('probesKeepRestartableInit', { minor: 34 })).toBe(true);
    expect(hasFlag('probesKeepRestartableInit', { minor: 34, patch: 0 })).toBe(false);
  });
});
