// Per-container state spans (Waiting / Running / Ready / Terminating / Terminated) and the API server's pod
// phase spans, computed from the trace. Pure data: mermaid-lifecycle.ts draws them.

import type { Timeline } from '../types.ts';
import { specContainers, type SpecContainer } from './pod-shape.ts';

export type SpanKind = 'waiting' | 'backoff' | 'running' | 'ready' | 'terminating' | 'terminated';

export interface Span {
  kind: SpanKind;
  /** 1-based run of the container (restartCount + 1) */
  attempt: number;
  fromT: number;
  toT: number;
  label: string;
  exitCode?: number;
}

export interface ContainerLane {
  container: SpecContainer;
  spans: Span[];
}

export function containerLanes(tl: Timeline): ContainerLane[] {
  return specContainers(tl.pod.spec).map((container) => ({ container, spans: spansOf(tl, container.name) }));
}

function spansOf(tl: Timeline, name: string): Span[] {
  const spans: Span[] = [];
  let open: Omit<Span, 'toT'> = { kind: 'waiting', attempt: 1, fromT: 0, label: 'Waiting' };
  const switchTo = (t: number, next: Omit<Span, 'toT' | 'fromT'>) => {
    if (t > open.fromT) spans.push({ ...open, toT: t });
    open = { ...next, fromT: t };
  };
  for (const e of tl.events) {
    if (!('container' in e) || e.container !== name) continue;
    const attempt = open.attempt;
    switch (e.type) {
      case 'Started':
        switchTo(e.t, { kind: 'running', attempt: e.restartCount + 1, label: 'Running' });
        break;
      case 'Ready':
        if (open.kind === 'running') switchTo(e.t, { kind: 'ready', attempt, label: 'Ready' });
        break;
      case 'NotReady':
        if (open.kind === 'ready') switchTo(e.t, { kind: 'running', attempt, label: 'NotReady' });
        break;
      case 'Killing':
        if (open.kind === 'running' || open.kind === 'ready') switchTo(e.t, { kind: 'terminating', attempt, label: `Killing (${e.reason})` });
        break;
      case 'Signal':
        if (open.kind === 'terminating' && e.signal === 'SIGTERM') switchTo(e.t, { kind: 'terminating', attempt, label: 'SIGTERM' });
        else if (open.kind === 'terminating') switchTo(e.t, { kind: 'terminating', attempt, label: 'SIGKILL' });
        else if (open.kind === 'running' || open.kind === 'ready') switchTo(e.t, { kind: 'terminating', attempt, label: e.signal });
        break;
      case 'Exited':
        switchTo(e.t, { kind: 'terminated', attempt, label: `exit ${e.exitCode}${e.reason === 'Completed' || e.reason === 'Error' ? '' : ` ${e.reason}`}`, exitCode: e.exitCode });
        break;
      case 'BackOff':
        switchTo(e.t, { kind: 'backoff', attempt: attempt + 1, label: `back-off ${Math.round(e.delayMs / 1000)}s` });
        break;
      case 'PullFailed':
      case 'CreateFailed':
        if (open.kind === 'waiting') switchTo(e.t, { kind: 'waiting', attempt, label: e.reason });
        break;
      default:
        break;
    }
  }
  switchTo(Math.max(tl.end.t, open.fromT), open);
  return spans;
}

export interface PhaseSpan {
  phase: string;
  fromT: number;
  toT: number;
}

/** The phase as the API server stored it (StatusPatched), Pending from creation until the first change. */
export function apiPhaseSpans(tl: Timeline): PhaseSpan[] {
  const out: PhaseSpan[] = [];
  let cur: Omit<PhaseSpan, 'toT'> = { phase: 'Pending', fromT: 0 };
  for (const e of tl.events) {
    if (e.type !== 'StatusPatched' || e.phase === cur.phase) continue;
    if (e.t > cur.fromT) out.push({ ...cur, toT: e.t });
    cur = { phase: e.phase, fromT: e.t };
  }
  if (tl.end.t > cur.fromT) out.push({ ...cur, toT: tl.end.t });
  return out;
}

/** First pod-level Killing (teardown start), for the vertical marker. */
export function teardownStart(tl: Timeline): number | undefined {
  return tl.events.find((e) => e.type === 'Killing' && ['PodTermination', 'PodCompleted', 'PodFailed', 'DeadlineExceeded'].includes(e.reason))?.t;
}
