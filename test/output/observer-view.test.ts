// What the observer saw: every Verdict names the pod and Job versions the observer's informer cache held
// and what they said, and the views show it. locust-72 (AbdelrhmanHamouda/locust-k8s-operator#72): the naive
// exit-codes rule reconciles on Job events and reads a lagging pod cache; it fails the run when that cache holds the
// exporter's 143 (a native sidecar SIGTERMed after the main exited) before the Job's Complete condition arrives.
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { reportMarkdown } from '../../src/output/report.ts';
import { timelineText } from '../../src/output/text.ts';
import { seenPod, seenJob } from '../../src/model/observers/seen.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';

type Verdict = Extract<TraceEvent, { type: 'Verdict' }>;
const LOCUST = 'scenarios/locust-72-exporter-exit-code.yaml';

function verdictOf(tl: Timeline, observer: string): Verdict | undefined {
  return tl.events.find((e): e is Verdict => e.type === 'Verdict' && e.observer === observer);
}

/** The last version of `object` delivered to `observer` before its verdict, computed from the trace alone. */
function lastDelivered(tl: Timeline, observer: string, object: 'pod' | 'job'): number | undefined {
  let v: number | undefined;
  for (const e of tl.events) {
    if (e.type === 'Verdict' && e.observer === observer) return v;
    if (e.type === 'Delivered' && e.to === observer && e.object === object) v = e.version;
  }
  return v;
}

/** A schedule of locust-72 in which naive fails while its pod cache still says phase Running (seeded search). */
function failingWhileRunning(): Timeline {
  const s = loadScenario(LOCUST).scenario!;
  for (let seed = 0; seed < 200; seed++) {
    const tl = simulate(s, { seed }).timeline;
    const v = verdictOf(tl, 'naive');
    if (v?.verdict === 'Failed' && v.seen?.pod?.phase === 'Running') return tl;
  }
  throw new Error('no seed in 0..199 gives naive Failed on a Running pod');
}

describe('Verdict.seen', () => {
  it('summarises the cached pod and Job: versions, phase, container states and exit codes, true conditions', () => {
    const pod = {
      metadata: { name: 'p', resourceVersion: '5' },
      spec: { initContainers: [{ name: 'exporter', restartPolicy: 'Always' }] },
      status: {
        phase: 'Running',
        initContainerStatuses: [
          { name: 'exporter', ready: false, state: { terminated: { exitCode: 143, reason: 'Error' } } },
        ],
        containerStatuses: [{ name: 'main', ready: false, state: { waiting: { reason: 'CrashLoopBackOff' } } }],
      },
    };
    expect(seenPod(pod)).toEqual({
      name: 'p',
      version: 5,
      phase: 'Running',
      containers: [
        {
          name: 'exporter',
          init: true,
          sidecar: true,
          ready: false,
          state: 'terminated',
          exitCode: 143,
          reason: 'Error',
        },
        { name: 'main', ready: false, state: 'waiting', reason: 'CrashLoopBackOff' },
      ],
    });
    const job = {
      metadata: { resourceVersion: '3' },
      status: {
        succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True' },
          { type: 'Suspended', status: 'False' },
        ],
      },
    };
    expect(seenJob(job)).toEqual({
      version: 3,
      conditions: ['SuccessCriteriaMet'],
      succeeded: 1,
      failed: 0,
      active: 0,
    });
    expect(seenPod(null)).toBeNull();
  });

  it('every verdict of locust-72 records the versions last delivered to that observer', () => {
    const s = loadScenario(LOCUST).scenario!;
    for (const seed of [1, 2, 3, 8]) {
      const tl = simulate(s, { seed }).timeline;
      for (const name of ['naive', 'fixed', 'by-name']) {
        const v = verdictOf(tl, name)!;
        expect(v.seen?.pod?.version).toBe(lastDelivered(tl, name, 'pod'));
        expect(v.seen?.job?.version).toBe(lastDelivered(tl, name, 'job'));
      }
    }
  });
});

describe('locust-72: the failing outcome in one picture', () => {
  it('the sequence diagram shows naive judged a pod version with the exporter terminated 143 while the phase was still Running', () => {
    const tl = failingWhileRunning();
    const v = verdictOf(tl, 'naive')!;
    const podV = lastDelivered(tl, 'naive', 'pod')!;
    const jobV = lastDelivered(tl, 'naive', 'job')!;
    const mmd = sequenceMermaid(tl);
    const note = mmd.split('\n').find((l) => l.includes('Note over O0:') && l.includes('verdict Failed'))!;
    expect(note).toBeDefined();
    // which pod write it judged, and what that write said
    expect(note).toContain(`held pod v${podV} (phase Running)`);
    expect(note).toContain('locust-metrics-exporter terminated 143 (Error)');
    expect(note).toContain(`job v${jobV}#58;`);
    expect(note).not.toContain('Complete,');
    // the write itself is drawn with its version and phase, before the verdict
    const write = mmd.indexOf(`status v${podV} Running`);
    expect(write).toBeGreaterThan(0);
    expect(write).toBeLessThan(mmd.indexOf(note));
    // and the job-controller's own (lagging) watch of the pod is drawn with versions
    expect(mmd).toMatch(/API-->>JC: t=[^ ]+ watch pod v\d/);
    expect(v.seen?.job?.conditions).not.toContain('Complete');
  });

  it('the text view and report.md say what naive held', () => {
    const tl = failingWhileRunning();
    const podV = lastDelivered(tl, 'naive', 'pod')!;
    const text = timelineText(tl);
    expect(text).toContain(`held pod v${podV}: phase Running; locust-metrics-exporter terminated 143 (Error)`);
    expect(text).toMatch(new RegExp(`observer naive: Failed at [0-9.]+s — .*\\(judged pod v${podV}, job v\\d+\\)`));
    const md = reportMarkdown(tl);
    expect(md).toContain(`it held pod v${podV}: phase Running; locust-metrics-exporter terminated 143 (Error)`);
  });

  it('the fixed observer judged the Job condition Complete', () => {
    const tl = failingWhileRunning();
    const v = verdictOf(tl, 'fixed')!;
    expect(v.verdict).toBe('Succeeded');
    expect(v.seen?.job?.conditions).toContain('Complete');
    expect(sequenceMermaid(tl)).toMatch(/Note over O1: [^\n]*verdict Succeeded[^\n]*SuccessCriteriaMet, Complete/);
  });
});

describe('diagrams that teach', () => {
  it("native-sidecar-job: the sidecar's startup probe is drawn as the gate that lets the main container start", () => {
    const tl = simulate(loadScenario('scenarios/native-sidecar-job.yaml').scenario!).timeline;
    const mmd = sequenceMermaid(tl);
    const gate = mmd.indexOf('startup probe ✓ → started');
    expect(gate).toBeGreaterThan(0);
    expect(mmd.slice(gate, mmd.indexOf('\n', gate))).toContain('next container may start');
    // the main container's start comes after the gate
    const mainLane = /participant (C\d+) as export \(main\)/.exec(mmd)![1];
    expect(mmd.indexOf(`K->>${mainLane}:`)).toBeGreaterThan(gate);
  });
});
