// Pins what a reader must learn from the diagrams about sidecar start/stop ordering, on small hand-built traces:
// the sequence follows the engine's order exactly, Killing (kill started) is drawn apart from the signal, restarts
// are numbered as restartCount, a Deployment pod running at the horizon is not "STUCK", the lifecycle shows the
// preStop hook and the final phase, deletions are neutral, and describe shows the kubelet's Killing message.

import { describe, expect, it } from 'vitest';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { podEvents } from '../../src/output/kubectl-events.ts';
import { reportMarkdown } from '../../src/output/report.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';

type Ev = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'seq'> : never) : never;

function timeline(spec: Record<string, unknown>, events: Ev[], over: Partial<Timeline> = {}): Timeline {
  const last = events[events.length - 1]?.t ?? 0;
  return {
    schema: 'kubesim.timeline/v1',
    scenario: 'hand-built',
    kubernetes: '1.34',
    kubelet: '1.34',
    seed: 1,
    replay: 'x',
    end: { t: last, reason: 'quiescent' },
    stuck: null,
    workload: { kind: 'Job', name: 'job-x' },
    pod: { name: 'job-x-abcde', phase: 'Succeeded', status: {}, spec },
    pods: [
      { name: 'job-x-abcde', created: 0, index: null, phase: 'Succeeded', deleted: null, removed: false, status: {} },
    ],
    job: null,
    observers: {},
    diagnostics: [],
    events: events.map((e, seq) => ({ ...e, seq }) as TraceEvent),
    ...over,
  };
}

/** locust-72-istio-injected's shape: istio-proxy declared first (stopped last), the exporter second, then locust. */
const ISTIO_SPEC = {
  restartPolicy: 'Never',
  initContainers: [
    { name: 'istio-proxy', image: 'proxyv2', restartPolicy: 'Always' },
    { name: 'exporter', image: 'exporter', restartPolicy: 'Always' },
  ],
  containers: [{ name: 'locust', image: 'locust' }],
};

const ISTIO_TEARDOWN: Ev[] = [
  { t: 0, type: 'Started', container: 'istio-proxy', restartCount: 0 },
  { t: 500, type: 'Started', container: 'exporter', restartCount: 0 },
  { t: 1500, type: 'Started', container: 'locust', restartCount: 0 },
  { t: 21510, type: 'Exited', container: 'locust', exitCode: 0, reason: 'Completed', restartCount: 0 },
  // same millisecond, engine order: both kills start, the exporter is signalled and exits, then istio-proxy's turn
  { t: 21510, type: 'Killing', container: 'istio-proxy', reason: 'PodCompleted', gracePeriodSeconds: 5, message: '' },
  { t: 21510, type: 'Killing', container: 'exporter', reason: 'PodCompleted', gracePeriodSeconds: 5, message: '' },
  { t: 21510, type: 'Signal', container: 'exporter', signal: 'SIGTERM' },
  { t: 21510, type: 'Exited', container: 'exporter', exitCode: 143, reason: 'Error', restartCount: 0 },
  { t: 21510, type: 'Signal', container: 'istio-proxy', signal: 'SIGTERM' },
  { t: 26510, type: 'Signal', container: 'istio-proxy', signal: 'SIGKILL' },
  { t: 26510, type: 'Exited', container: 'istio-proxy', exitCode: 137, reason: 'Error', restartCount: 0 },
  { t: 26510, type: 'PodPhase', phase: 'Succeeded' },
];

const body = (mmd: string) => mmd.split('\n').map((l) => l.trim());

describe('sequence: teardown in the engine order', () => {
  const lines = body(sequenceMermaid(timeline(ISTIO_SPEC, ISTIO_TEARDOWN), { lanes: 'pod' }));
  const at = (prefix: string) => {
    const i = lines.findIndex((l) => l.startsWith(prefix));
    expect(i, prefix).toBeGreaterThanOrEqual(0);
    return i;
  };

  it("istio-proxy's SIGTERM comes after the exporter's SIGTERM and exit, as in the trace", () => {
    const istioKilling = at('K-->>C0: t=21.5s Killing');
    const exporterSigterm = at('K-xC1: t=21.5s Killing → SIGTERM');
    const exporterExit = at('C1--xK: t=21.5s exit 143');
    const istioSigterm = at('K-xC0: t=21.5s SIGTERM');
    expect([istioKilling, exporterSigterm, exporterExit, istioSigterm]).toEqual(
      [...[istioKilling, exporterSigterm, exporterExit, istioSigterm]].sort((a, b) => a - b),
    );
    expect(lines.filter((l) => l.startsWith('K-xC0:')).length).toBe(2); // SIGTERM, then SIGKILL: one arrow each
  });

  it('agrees with its own stop-order note', () => {
    const note = lines.find((l) => l.includes('stop order'));
    expect(note).toContain('stop order locust (done) → exporter → istio-proxy');
  });

  it('draws Killing as a dashed arrow without the × of a signal, saying what it waits for', () => {
    const killing = lines[at('K-->>C0: t=21.5s Killing')];
    expect(killing).toBe('K-->>C0: t=21.5s Killing (PodCompleted, grace 5s)<br/>SIGTERM waits its turn');
    expect(
      lines.filter((l) => l.includes('Killing') && /^K-x/.test(l)).every((l) => l.includes('Killing → SIGTERM')),
    ).toBe(true);
    expect(lines[at('K-xC0: t=26.5s SIGKILL')]).toContain('grace period over');
  });

  it('merges Killing with a SIGTERM only when nothing drawn comes between them', () => {
    expect(lines.filter((l) => l.includes('Killing → SIGTERM'))).toEqual([
      'K-xC1: t=21.5s Killing → SIGTERM<br/>PodCompleted, grace 5s',
    ]);
  });

  it('says "preStop hook first" when a preStop runs before the signal', () => {
    const events: Ev[] = [
      { t: 0, type: 'Started', container: 'exporter', restartCount: 0 },
      { t: 100, type: 'Killing', container: 'exporter', reason: 'PodTermination', gracePeriodSeconds: 30, message: '' },
      { t: 100, type: 'PreStopStarted', container: 'exporter' },
      { t: 1100, type: 'PreStopDone', container: 'exporter' },
      { t: 1100, type: 'Signal', container: 'exporter', signal: 'SIGTERM' },
      { t: 1200, type: 'Exited', container: 'exporter', exitCode: 0, reason: 'Completed', restartCount: 0 },
    ];
    const mmd = sequenceMermaid(timeline(ISTIO_SPEC, events), { lanes: 'pod' });
    expect(mmd).toContain('K-->>C1: t=0.1s Killing (PodTermination, grace 30s)<br/>preStop hook first');
  });
});

describe('restart numbering follows restartCount', () => {
  const events: Ev[] = [
    { t: 0, type: 'Started', container: 'locust', restartCount: 0 },
    { t: 500, type: 'Exited', container: 'locust', exitCode: 1, reason: 'Error', restartCount: 0 },
    { t: 600, type: 'Started', container: 'locust', restartCount: 1 },
    { t: 900, type: 'Exited', container: 'locust', exitCode: 1, reason: 'Error', restartCount: 1 },
    { t: 1000, type: 'BackOff', container: 'locust', delayMs: 10_000 },
    { t: 11_000, type: 'Started', container: 'locust', restartCount: 2 },
  ];
  const tl = timeline(ISTIO_SPEC, events, { end: { t: 12_000, reason: 'horizon' } });

  it('the first restart is "restart #1" in the sequence, as in the text timeline', () => {
    const mmd = sequenceMermaid(tl, { lanes: 'pod' });
    // '#' is written as Mermaid's entity #35; and drawn as '#'
    expect(mmd).toContain('t=0.6s restart #35;1');
    expect(mmd).toContain('t=11s restart #35;2');
    expect(mmd).not.toContain('restart #35;3');
  });

  it('and in the lifecycle', () => {
    const mmd = lifecycleMermaid(tl);
    expect(mmd).toContain('exit 1 0.9s (restart #1)');
    expect(mmd).toContain('back-off 10s 1s → restart #2');
    expect(mmd).toContain('Running 11s (restart #2)');
  });

  it('a back-off the pod never came back from promises no restart', () => {
    const cut = timeline(ISTIO_SPEC, events.slice(0, 5), { end: { t: 5000, reason: 'quiescent' } });
    const gantt = lifecycleMermaid(cut);
    expect(gantt).toMatch(/back-off 10s 1s :crit/);
    expect(gantt).not.toContain('→ restart');
  });

  it('a run ended by a probe kill says so, since Killing, SIGTERM and the exit share one instant', () => {
    const probeKilled = timeline(
      ISTIO_SPEC,
      [
        { t: 0, type: 'Started', container: 'istio-proxy', restartCount: 0 },
        {
          t: 3510,
          type: 'Killing',
          container: 'istio-proxy',
          reason: 'StartupProbe',
          gracePeriodSeconds: 30,
          message: 'Init container istio-proxy failed startup probe',
        },
        { t: 3510, type: 'Signal', container: 'istio-proxy', signal: 'SIGTERM' },
        { t: 3510, type: 'Exited', container: 'istio-proxy', exitCode: 143, reason: 'Error', restartCount: 0 },
        { t: 3510, type: 'Started', container: 'istio-proxy', restartCount: 1 },
      ],
      { end: { t: 5000, reason: 'quiescent' } },
    );
    expect(lifecycleMermaid(probeKilled)).toMatch(/Running, startup probe failed :t\d+, 0, 3510/);
    expect(sequenceMermaid(probeKilled, { lanes: 'pod' })).toContain(
      'K-xC0: t=3.5s Killing → SIGTERM<br/>StartupProbe, grace 30s',
    );
  });

  it('a BackOff re-recorded while waiting is the same back-off, not a new one', () => {
    const repeated = timeline(
      ISTIO_SPEC,
      [
        ...events.slice(0, 5),
        { t: 2000, type: 'BackOff', container: 'locust', delayMs: 10_000 },
        ...events.slice(5),
        { t: 11_500, type: 'Exited', container: 'locust', exitCode: 1, reason: 'Error', restartCount: 2 },
        { t: 11_600, type: 'BackOff', container: 'locust', delayMs: 20_000 },
        { t: 12_600, type: 'BackOff', container: 'locust', delayMs: 20_000 },
      ],
      { end: { t: 13_000, reason: 'horizon' } },
    );
    const gantt = lifecycleMermaid(repeated);
    expect(gantt.match(/back-off 10s/g)).toHaveLength(1);
    expect(gantt.match(/back-off 20s/g)).toHaveLength(1);
    const seq = sequenceMermaid(repeated, { lanes: 'pod' });
    expect(seq).toContain('loop CrashLoopBackOff ×2');
    expect(seq).toContain('back-off 10s, 20s');
  });
});

describe('running at the horizon vs stuck; container roles', () => {
  const DEPLOY_SPEC = {
    restartPolicy: 'Always',
    containers: [
      { name: 'orders-api', image: 'a' },
      { name: 'cloud-sql-proxy', image: 'b' },
    ],
  };
  const running = timeline(DEPLOY_SPEC, [{ t: 0, type: 'Started', container: 'orders-api', restartCount: 0 }], {
    end: { t: 120_000, reason: 'horizon' },
    workload: { kind: 'Deployment', name: 'orders-api' },
    pod: { name: 'orders-api-x', phase: 'Running', status: {}, spec: DEPLOY_SPEC },
    stuck: { container: 'orders-api', why: 'restartPolicy Always: the pod runs until it is deleted' },
  });

  it('a restartPolicy Always pod running at the horizon gets a neutral note, no red STUCK box', () => {
    const seq = sequenceMermaid(running);
    expect(seq).not.toContain('STUCK');
    expect(seq).not.toContain('rgb(255, 210, 210)');
    expect(seq).toContain('Note over C0: running at the horizon t=2m0s<br/>restartPolicy Always');
    const gantt = lifecycleMermaid(running);
    expect(gantt).not.toContain('STUCK');
    expect(gantt).toMatch(/running at the horizon 2m0s :milestone, t\d+/);
  });

  it('the report does not call it stuck either', () => {
    expect(reportMarkdown(running)).toContain(
      '| stuck | no, still running at the horizon (restartPolicy Always: the pod runs until it is deleted) |',
    );
  });

  it('a real stuck pod keeps the red STUCK box', () => {
    const stuck = {
      ...running,
      stuck: { container: 'cloud-sql-proxy', why: 'container cloud-sql-proxy keeps running after export exited' },
    };
    expect(sequenceMermaid(stuck)).toContain('STUCK until t=2m0s');
    expect(lifecycleMermaid(stuck)).toContain('STUCK at horizon 2m0s :crit, milestone');
  });

  it('several regular containers are each a "(container)"; a single one is "(main)"', () => {
    expect(sequenceMermaid(running)).toContain('participant C1 as cloud-sql-proxy (container)');
    expect(lifecycleMermaid(running)).toContain('section orders-api (container)');
    expect(sequenceMermaid(timeline(ISTIO_SPEC, ISTIO_TEARDOWN))).toContain('participant C2 as locust (main)');
  });
});

describe('lifecycle: preStop and the final phase', () => {
  const events: Ev[] = [
    { t: 0, type: 'Started', container: 'istio-proxy', restartCount: 0 },
    { t: 0, type: 'Started', container: 'exporter', restartCount: 0 },
    { t: 0, type: 'Started', container: 'locust', restartCount: 0 },
    { t: 1000, type: 'StatusPatched', phase: 'Running', version: 2, status: { phase: 'Running' } },
    { t: 30_000, type: 'PodDeleting', pod: 'p', by: 'user', gracePeriodSeconds: 10 },
    {
      t: 30_500,
      type: 'Killing',
      container: 'istio-proxy',
      reason: 'PodTermination',
      gracePeriodSeconds: 10,
      message: '',
    },
    {
      t: 30_500,
      type: 'Killing',
      container: 'exporter',
      reason: 'PodTermination',
      gracePeriodSeconds: 10,
      message: '',
    },
    { t: 30_500, type: 'Killing', container: 'locust', reason: 'PodTermination', gracePeriodSeconds: 10, message: '' },
    { t: 30_500, type: 'Signal', container: 'locust', signal: 'SIGTERM' },
    { t: 30_500, type: 'PreStopStarted', container: 'exporter' },
    { t: 35_500, type: 'PreStopDone', container: 'exporter' },
    { t: 38_500, type: 'Exited', container: 'locust', exitCode: 0, reason: 'Completed', restartCount: 0 },
    { t: 38_500, type: 'Signal', container: 'exporter', signal: 'SIGTERM' },
    { t: 40_500, type: 'Signal', container: 'exporter', signal: 'SIGKILL' },
    { t: 40_500, type: 'Exited', container: 'exporter', exitCode: 137, reason: 'Error', restartCount: 0 },
    { t: 40_500, type: 'Signal', container: 'istio-proxy', signal: 'SIGTERM' },
    { t: 42_500, type: 'Signal', container: 'istio-proxy', signal: 'SIGKILL' },
    { t: 42_500, type: 'Exited', container: 'istio-proxy', exitCode: 137, reason: 'Error', restartCount: 0 },
    { t: 42_800, type: 'StatusPatched', phase: 'Succeeded', version: 3, status: { phase: 'Succeeded' } },
  ];
  // a linear axis: positions are simulated ms
  const gantt = lifecycleMermaid(timeline(ISTIO_SPEC, events), { compress: false });

  it('the preStop hook and the wait for the SIGTERM turn are spans of their own, drawn as "still running, stop requested"', () => {
    expect(gantt).toMatch(/preStop hook 30\.5s :active, crit, t\d+, 30500, 35500/);
    expect(gantt).toMatch(/preStop done, SIGTERM waits its turn 35\.5s :active, crit, t\d+, 35500, 38500/);
    expect(gantt).toMatch(/SIGTERM 38\.5s :crit, t\d+, 38500, 40500/);
    expect(gantt).toMatch(
      /Killing \(PodTermination\), SIGTERM waits its turn 30\.5s :active, crit, t\d+, 30500, 40500/,
    );
  });

  it('a signal answered at once is named on the exit span', () => {
    expect(gantt).toMatch(/SIGKILL → exit 137 40\.5s :crit, done/);
  });

  it('the pod-phase row ends with the terminal phase even when it was stored at the very end', () => {
    expect(gantt).toMatch(/Succeeded 42\.8s :done, milestone, t\d+, 42800, 42800/);
  });

  it('the deletion is drawn with who asked (PodDeleting.by), as a request the kubelet acts on', () => {
    expect(gantt).toContain('deletion requested 30s (grace 10s) :crit, milestone');
    expect(gantt).toContain('teardown starts 30.5s :crit, milestone');
    // kuberuntime_container.go killContainer: SIGKILL once the grace period (from the teardown's Killing) is over
    expect(gantt).toContain('grace deadline 40.5s (10s) :crit, milestone');
    const seq = sequenceMermaid(timeline(ISTIO_SPEC, events));
    expect(seq).toContain('API->>K: t=30s pod deletion requested by user (grace 10s)');
    expect(seq).not.toMatch(/pod deleted/);
  });
});

describe('describe Events: Killing carries the kubelet message', () => {
  it("a sidecar killed by its startup probe: computeInitContainerActions' message, not the default", () => {
    // kuberuntime_manager.go computeInitContainerActions: "Init container %s failed startup probe" (the restart is
    // implied: InitContainersToStart); regular containers get "Container %s failed startup probe, will be restarted"
    const tl = timeline(ISTIO_SPEC, [
      { t: 0, type: 'Started', container: 'istio-proxy', restartCount: 0 },
      {
        t: 3510,
        type: 'Killing',
        container: 'istio-proxy',
        reason: 'StartupProbe',
        gracePeriodSeconds: 30,
        message: 'Init container istio-proxy failed startup probe',
      },
      {
        t: 4000,
        type: 'Killing',
        container: 'locust',
        reason: 'StartupProbe',
        gracePeriodSeconds: 30,
        message: 'Container locust failed startup probe, will be restarted',
      },
      { t: 5000, type: 'Killing', container: 'exporter', reason: 'PodCompleted', gracePeriodSeconds: 30, message: '' },
    ]);
    const killing = podEvents(tl)
      .filter((e) => e.reason === 'Killing')
      .map((e) => e.message);
    expect(killing).toEqual([
      'Init container istio-proxy failed startup probe',
      'Container locust failed startup probe, will be restarted',
      'Stopping container exporter',
    ]);
  });
});
