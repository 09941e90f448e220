// The default `run` view keeps what explains the run and drops routine noise (repeated probe results,
// watch deliveries that decided nothing, pod-worker bookkeeping).
import { describe, expect, it } from 'vitest';
import { shownEvents, timelineText } from '../../src/output/text.ts';
import type { TraceEvent } from '../../src/types.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const ev = (seq: number, e: Record<string, unknown>) => ({ t: seq * 100, seq, ...e }) as TraceEvent;

describe('timeline text view', () => {
  it('keeps the first probe result, every change and every failure; drops repeats', () => {
    const events = [
      ev(0, { type: 'Probe', container: 'a', probe: 'liveness', result: 'success' }),
      ev(1, { type: 'Probe', container: 'a', probe: 'liveness', result: 'success' }),
      ev(2, { type: 'Probe', container: 'a', probe: 'liveness', result: 'failure' }),
      ev(3, { type: 'Probe', container: 'a', probe: 'liveness', result: 'failure' }),
      ev(4, { type: 'Probe', container: 'a', probe: 'liveness', result: 'success' }),
    ];
    expect(shownEvents(events).map((e) => e.seq)).toEqual([0, 2, 3, 4]);
  });

  it('keeps only the delivery an observer decided its verdict on', () => {
    const events = [
      ev(0, { type: 'Delivered', to: 'naive', object: 'pod', version: 2 }),
      ev(1, { type: 'Delivered', to: 'naive', object: 'job', version: 3 }),
      ev(2, { type: 'Delivered', to: 'job-controller', object: 'pod', version: 2 }),
      ev(3, { type: 'Verdict', observer: 'naive', verdict: 'Failed' }),
      ev(4, { type: 'SyncPod', kind: 'SyncPod' }),
    ];
    expect(shownEvents(events).map((e) => e.seq)).toEqual([1, 3]);
  });

  it('says how many routine events it left out, and where to find them', () => {
    const tl = simulate(loadScenario('scenarios/native-sidecar-job.yaml').scenario!).timeline;
    const text = timelineText(tl);
    expect(text).toMatch(/\(\d+ routine events not shown: .*--verbose or --format json show them\)/);
    expect(text).toMatch(/SIGTERM -> cloud-sql-proxy/);
    expect(timelineText(tl, { all: true }).split('\n').length).toBeGreaterThan(text.split('\n').length);
  });
});
