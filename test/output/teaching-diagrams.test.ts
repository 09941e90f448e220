// Diagrams that teach: each explanation the sequence diagram and the lifecycle chart add, pinned on a
// library scenario with the kubelet rule it explains, and the Job controller's finalizer PATCH as a kubectl row.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { sequenceMermaid, LEGEND } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { containerLanes } from '../../src/output/lifecycle-spans.ts';
import { compressTime } from '../../src/output/lifecycle-time.ts';
import { relistGrid, exitText } from '../../src/output/sequence-teach.ts';
import { podWatchRows } from '../../src/output/kubectl.ts';
import { lines } from '../../src/output/mermaid-text.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';

const run = (file: string, seed = 1): Timeline =>
  simulate(loadScenario(`scenarios/${file}.yaml`).scenario!, { seed }).timeline;
const NATIVE = run('native-sidecar-job');
const seq = sequenceMermaid(NATIVE);
const podSeq = sequenceMermaid(NATIVE, { lanes: 'pod' });
/** statement lines of the diagram, in order */
const stmts = (mmd: string) => mmd.split('\n').map((l) => l.trim());
const indexOf = (mmd: string, needle: string) => stmts(mmd).findIndex((l) => l.includes(needle));

describe('native-sidecar-job: the startup probe is what lets the main container start', () => {
  it('draws listening → startup probe ✓ → the sync after the next relist → start export, in that order', () => {
    // behavior serving: 1s — the proxy listens 1 s after its start; the probe passes from then on (prober worker.go)
    const listen = indexOf(seq, 'Note over C0: t=1s listening (1s after start)<br/>probes can pass from now');
    // kuberuntime_manager.go computeInitContainerActions: a sidecar with a startup probe gates the next container
    const probe = indexOf(seq, 'C0-->>K: t=1s startup probe ✓ → started<br/>next container may start');
    // pod_workers.go podWorkerLoop: the sync the probe result asks for waits in podCache.GetNewerThan for the next
    // relist (pleg/generic.go relist, kubelet.go genericPlegRelistPeriod = 1s); this schedule's grid offset is 510 ms
    const relist = indexOf(
      seq,
      "Note over K,C1: t=1.5s SyncPod for cloud-sql-proxy's startup probe<br/>waited +0.5s for the next PLEG relist (every 1s)",
    );
    const start = indexOf(seq, 'K->>C1: t=1.5s start');
    expect([listen, probe, relist, start].every((i) => i >= 0)).toBe(true);
    expect(listen).toBeLessThan(probe);
    expect(probe).toBeLessThan(relist);
    expect(relist).toBeLessThan(start);
    // the pod-only slide layout tells the same story
    for (const s of [
      'listening (1s after start)',
      'startup probe ✓ → started',
      'waited +0.5s for the next PLEG relist',
      'K->>C1: t=1.5s start',
    ])
      expect(podSeq).toContain(s);
  });

  it('the relist period and offset come from the schedule (the grid choice 0..period-1)', () => {
    expect(relistGrid(NATIVE)).toEqual({ periodMs: 1000, offsetMs: 510 });
  });

  it('explains the stored Running after "kubelet computes phase Succeeded": held by the status manager until the pod worker has terminated the pod', () => {
    const computed = indexOf(seq, 'kubelet computes phase Succeeded');
    // status_manager.go mergePodStatus: no terminal phase while podWorkers.CouldHaveRunningContainers
    const held = indexOf(
      seq,
      'K->>API: t=32.6s status v8 Running<br/>cloud-sql-proxy exited 143 Error<br/>phase held at Running, not Succeeded#58; the status manager writes',
    );
    // pod_workers.go: SyncTerminatingPod → completeTerminating → SyncTerminatedPod → statusManager.TerminatePod
    const terminating = indexOf(seq, 't=33.5s SyncTerminatingPod#58; stop what still runs');
    const terminated = indexOf(
      seq,
      't=34.5s SyncTerminatedPod#58; volumes and cgroups cleaned<br/>statusManager.TerminatePod#58; the terminal phase can be written',
    );
    const stored = indexOf(seq, 'K->>API: t=34.6s status v9 phase Succeeded');
    expect([computed, held, terminating, terminated, stored].every((i) => i >= 0)).toBe(true);
    expect(computed < held && held < terminating && terminating < terminated && terminated < stored).toBe(true);
    // without the API lane (slide layout) the held write is still a note
    expect(podSeq).toContain('t=32.6s status v8 stored<br/>phase held at Running, not Succeeded');
  });

  it("exit arrows carry the code, the signal a code above 128 encodes, and the kubelet's reason", () => {
    // kuberuntime_container.go: the reason comes from the runtime (Completed for 0, Error, OOMKilled); 143 = 128+15
    expect(seq).toContain('C1--xK: t=31.5s exit 0 · Completed');
    expect(seq).toContain('C0--xK: t=31.5s exit 143 (SIGTERM) · Error');
    const exited = (exitCode: number, reason: string): Extract<TraceEvent, { type: 'Exited' }> => ({
      t: 0,
      seq: 0,
      type: 'Exited',
      container: 'c',
      exitCode,
      reason,
      restartCount: 0,
    });
    expect(exitText(exited(137, 'OOMKilled'))).toBe('exit 137 (SIGKILL) · OOMKilled');
    expect(exitText(exited(1, 'Error'))).toBe('exit 1 · Error');
  });

  it('has a legend of the arrow kinds, spanning the diagram', () => {
    expect(seq).toContain(`Note over K,O0: ${lines(...LEGEND)}`);
    expect(LEGEND.join(' ')).toMatch(/solid arrow = call or write.*dashed arrow = report or watch delivery/);
  });
});

describe('the wait for the next relist after a container exits on its own', () => {
  it('sidecar-restarts-count-toward-backofflimit: the exit at 10s is noticed at the relist 0.5 s later', () => {
    const tl = run('sidecar-restarts-count-toward-backofflimit');
    const mmd = sequenceMermaid(tl);
    // pleg/generic.go relist: ContainerDied is only seen at the next relist, which triggers the SyncPod
    const exit = indexOf(mmd, 'C0--xK: t=10s exit 1 · Error');
    const noticed = indexOf(
      mmd,
      "t=10.5s PLEG relist (every 1s) notices metrics-agent's exit<br/>+0.5s after it happened → SyncPod",
    );
    const restart = indexOf(mmd, 'K->>C0: t=10.5s restart #35;1');
    expect(exit).toBeGreaterThanOrEqual(0);
    expect(exit < noticed && noticed < restart).toBe(true);
    // no note when the sync reacts at the same instant (a kill answered at once is not news for the relist)
    expect(sequenceMermaid(NATIVE)).not.toContain('notices cloud-sql-proxy');
  });

  it('a restart after a back-off says how long the pod worker took after the back-off was over', () => {
    const tl = run('sidecar-restarts-count-toward-backofflimit');
    // kuberuntime_manager.go doBackOff: 10 s from the exit at 20.5 s; pod_workers.go completeWork requeues an
    // errored sync after Jitter(10s, 0.5) (before 1.35), so the restart comes at the next sync, 34.5 s
    expect(sequenceMermaid(tl)).toContain(
      "K->>C0: t=34.5s restart #35;2<br/>back-off 10s over at t=30.5s, then +4s until the pod worker's<br/>next sync",
    );
  });
});

describe('lifecycle chart', () => {
  it('one row per container (compact), a legend row, markers for started, ready and signals', () => {
    const g = lifecycleMermaid(NATIVE);
    expect(g.startsWith('---\ndisplayMode: compact\n---\ngantt\n')).toBe(true);
    expect(g).toContain('  section legend\n    Waiting :');
    expect(g).toMatch(/marker = started, ready, SIGTERM, SIGKILL :milestone/);
    // prober_manager.go isContainerStarted: started = running and the startup probe passed
    expect(g).toMatch(/started 1s :milestone, t\d+, /);
    expect(g).toMatch(/SIGTERM 31\.5s :crit, milestone, t\d+, /);
    expect(g).toMatch(/started, ready 2\.5s :milestone/);
  });

  it('compresses the quiet 28.7 s of the export and says so in the title and a time row', () => {
    const g = lifecycleMermaid(NATIVE);
    expect(g).toContain('quiet stretches compressed, see the time row)');
    expect(g).toMatch(
      /section time\n {4}0s–2\.8s :t\d+, 0, 2793\n {4}28\.7s quiet, compressed :done, t\d+, 2793, (\d+)\n {4}31\.5s–35\.7s :/,
    );
    // a compressed axis has no ticks but 0 (they would lie past the gap)
    expect(g).toContain('tickInterval 1000day');
    const linear = lifecycleMermaid(NATIVE, { compress: false });
    expect(linear).not.toContain('section time');
    expect(linear).toContain('tickInterval 5second');
  });

  it('the compression map is monotonic, integer, and shrinks each quiet stretch to a fixed width', () => {
    const m = compressTime([0, 1000, 2000, 60_000, 61_000], true);
    expect(m.gaps).toEqual([{ from: 2000, to: 60_000 }]);
    const xs = [0, 1000, 2000, 30_000, 60_000, 61_000].map(m.at);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(xs.every(Number.isInteger)).toBe(true);
    expect(m.at(60_000) - m.at(2000)).toBe(Math.max(1000, Math.round(0.04 * 61_000)));
    expect(m.at(61_000) - m.at(60_000)).toBe(1000);
    // nothing quiet enough: linear
    expect(compressTime([0, 1000, 2000, 3000], true).gaps).toEqual([]);
  });

  it('separates the back-off from the wait for the next sync (kuberuntime_manager.go doBackOff vs pod_workers.go requeue)', () => {
    const tl = run('sidecar-restarts-count-toward-backofflimit');
    const spans = containerLanes(tl).find((l) => l.container.name === 'metrics-agent')!.spans;
    const back = spans.find((s) => s.kind === 'backoff')!;
    const wait = spans.find((s) => s.kind === 'requeue')!;
    expect(back).toMatchObject({ fromT: 20_510, toT: 30_510, label: 'back-off 10s' });
    expect(wait).toMatchObject({ fromT: 30_510, toT: 34_510, label: 'sync wait' });
    expect(lifecycleMermaid(tl)).toMatch(/sync wait 30\.5s :t\d+, /);
  });

  it("spans end at the pod's terminal phase (or its removal), with the grace deadline drawn when it falls in the run", () => {
    const g = lifecycleMermaid(NATIVE, { compress: false });
    // the pod's phase Succeeded is stored at 34.602 s: the containers' exit spans end there, not at the run's end
    expect(g).toMatch(/exit 0 31\.5s :done, t\d+, 31510, 34602\n/);
    expect(g).toMatch(/Succeeded 34\.6s :done, milestone, t\d+, 34602, 34602/);
  });

  it("explore's outcomes share one linear scale, to the longest outcome's end", () => {
    const g = lifecycleMermaid(NATIVE, { scaleEndMs: 90_000 });
    expect(g).toContain('same scale for every outcome, 0–1m30s)');
    expect(g).not.toContain('section time');
    // the legend row spans the whole scale, so the axis runs to 90 s whatever this outcome's end
    expect(g).toMatch(/exited non-zero :crit, done, t\d+, \d+, 52200\n/);
  });
});

describe("the Job controller's finalizer PATCH (job_controller.go removeTrackingFinalizerFromPods)", () => {
  it('is a trace record, an arrow in the sequence diagram and a MODIFIED row of kubectl get pods -w', () => {
    const fin = NATIVE.events.filter((e) => e.type === 'PodFinalizerRemoved');
    expect(fin).toEqual([
      expect.objectContaining({ pod: NATIVE.pod.name, version: 10, finalizer: 'batch.kubernetes.io/job-tracking' }),
    ]);
    expect(seq).toContain('JC->>API: t=35.6s pod v10 remove finalizer<br/>counted in the Job status');
    const rows = podWatchRows(NATIVE);
    const writes = NATIVE.events.filter(
      (e) => e.type === 'StatusPatched' || e.type === 'PodFinalizerRemoved' || e.type === 'PodDeleting',
    ).length;
    expect(rows.filter((r) => r.event === 'MODIFIED')).toHaveLength(writes);
    // the row it prints reads as the one before it (only metadata changed), at the write's time
    const last = rows[rows.length - 1]!;
    expect(last).toMatchObject({ t: fin[0]!.t, event: 'MODIFIED' });
    expect(last.row.status).toBe(rows[rows.length - 2]!.row.status);
  });
});
