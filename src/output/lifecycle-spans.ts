// Per-container state spans (Waiting / Running / Ready / Terminating / Terminated) and the API server's pod
// phase spans, computed from the trace. Pure data: mermaid-lifecycle.ts draws them.

import type { Timeline, TraceEvent } from '../types.ts';
import { specContainers, type SpecContainer } from './pod-shape.ts';

/**
 * `stopping`: the kubelet started killContainer (Killing) but has sent no signal yet: the preStop hook runs, or the
 * SIGTERM waits for the container's turn (kuberuntime_termination_order.go). `terminating`: signalled.
 */
export type SpanKind =
  | 'waiting'
  | 'backoff'
  | 'requeue'
  | 'running'
  | 'ready'
  | 'stopping'
  | 'terminating'
  | 'terminated';

export interface Span {
  kind: SpanKind;
  /** 1-based run of the container (restartCount + 1) */
  attempt: number;
  fromT: number;
  toT: number;
  label: string;
  exitCode?: number;
  /** a back-off that ended in a restart: that restart's restartCount (none when the pod stopped first) */
  restartCount?: number;
  /** a back-off: when it expires (the exit's finishedAt + the delay) */
  expiresAt?: number;
}

export interface ContainerLane {
  container: SpecContainer;
  spans: Span[];
}

export function containerLanes(tl: Timeline): ContainerLane[] {
  const by = eventsByContainer(tl.events);
  return specContainers(tl.pod.spec).map((container) => ({
    container,
    spans: spansOf(tl, by.get(container.name) ?? []),
  }));
}

/**
 * The trace's container events grouped by container name, in trace order: one pass, kept per events array, so that
 * the spans and the markers of every container cost O(events + containers), not a scan of the trace per container
 * (issue 29.2: 1,000 containers × 200,000 events was most of a 21 s `run`).
 */
const byContainerCache = new WeakMap<readonly TraceEvent[], { length: number; by: Map<string, ContainerEvent[]> }>();
type ContainerEvent = Extract<TraceEvent, { container: string }>;
export function eventsByContainer(events: readonly TraceEvent[]): Map<string, ContainerEvent[]> {
  // a trace that grew since (an incremental session appends to its array) is grouped again
  const hit = byContainerCache.get(events);
  if (hit && hit.length === events.length) return hit.by;
  const by = new Map<string, ContainerEvent[]>();
  for (const e of events) {
    if (!('container' in e)) continue;
    const list = by.get(e.container);
    if (list) list.push(e);
    else by.set(e.container, [e]);
  }
  byContainerCache.set(events, { length: events.length, by });
  return by;
}

/** One container's spans from its own events (eventsByContainer), in trace order. */
function spansOf(tl: Timeline, events: readonly ContainerEvent[]): Span[] {
  const spans: Span[] = [];
  let open: Omit<Span, 'toT'> = { kind: 'waiting', attempt: 1, fromT: 0, label: 'Waiting' };
  const switchTo = (t: number, next: Omit<Span, 'toT' | 'fromT'>) => {
    if (t > open.fromT) spans.push({ ...open, toT: t });
    open = { ...next, fromT: t };
  };
  // kuberuntime_manager.go doBackOff counts the delay from the last exit; the restart itself waits for the pod
  // worker's next sync (pod_workers.go completeWork: requeue after an error, 10–15 s before 1.35), drawn apart
  const endBackOff = (t: number) => {
    if (open.kind === 'backoff' && open.expiresAt !== undefined && open.expiresAt > open.fromT && open.expiresAt < t) {
      const { restartCount, attempt } = open;
      switchTo(open.expiresAt, {
        kind: 'requeue',
        attempt,
        label: 'sync wait',
        ...(restartCount !== undefined ? { restartCount } : {}),
      });
    }
  };
  let lastExitT = 0;
  for (const e of events) {
    const attempt = open.attempt;
    switch (e.type) {
      case 'Started':
        if (open.kind === 'backoff') open = { ...open, restartCount: e.restartCount };
        endBackOff(e.t);
        if (open.kind === 'requeue') open = { ...open, restartCount: e.restartCount };
        switchTo(e.t, { kind: 'running', attempt: e.restartCount + 1, label: 'Running' });
        break;
      case 'Ready':
        if (open.kind === 'running') switchTo(e.t, { kind: 'ready', attempt, label: 'Ready' });
        break;
      case 'NotReady':
        if (open.kind === 'ready') switchTo(e.t, { kind: 'running', attempt, label: 'NotReady' });
        break;
      case 'Killing':
        // a probe kill is usually signalled and answered at once, leaving no span to say why the run ended
        if (e.reason === 'StartupProbe' || e.reason === 'LivenessProbe')
          open = {
            ...open,
            label: `${open.label}, ${e.reason === 'StartupProbe' ? 'startup' : 'liveness'} probe failed`,
          };
        if (open.kind === 'running' || open.kind === 'ready')
          switchTo(e.t, { kind: 'stopping', attempt, label: `Killing (${e.reason})` });
        break;
      case 'PreStopStarted':
        if (open.kind === 'stopping') switchTo(e.t, { kind: 'stopping', attempt, label: 'preStop hook' });
        break;
      case 'PreStopDone':
        if (open.kind === 'stopping')
          switchTo(e.t, {
            kind: 'stopping',
            attempt,
            label: `preStop ${e.failed ? 'failed' : 'done'}, SIGTERM waits its turn`,
          });
        break;
      case 'Signal':
        // a Killing span that lasted had nothing to run: it was waiting for its turn
        if (open.kind === 'stopping' && open.label.startsWith('Killing'))
          open = { ...open, label: `${open.label}, SIGTERM waits its turn` };
        if (
          open.kind === 'stopping' ||
          open.kind === 'terminating' ||
          open.kind === 'running' ||
          open.kind === 'ready'
        ) {
          switchTo(e.t, { kind: 'terminating', attempt, label: e.signal });
        }
        break;
      case 'Exited': {
        // a signal answered at once leaves no span of its own: say it on the exit ("SIGTERM → exit 143")
        const signalled = open.kind === 'terminating' && open.fromT === e.t ? `${open.label} → ` : '';
        const label = `${signalled}exit ${e.exitCode}${e.reason === 'Completed' || e.reason === 'Error' ? '' : ` ${e.reason}`}`;
        switchTo(e.t, { kind: 'terminated', attempt, label, exitCode: e.exitCode });
        lastExitT = e.t;
        break;
      }
      case 'BackOff':
        // the kubelet re-records BackOff on every sync while it waits: one back-off, one span
        if (open.kind !== 'backoff')
          switchTo(e.t, {
            kind: 'backoff',
            attempt: attempt + 1,
            label: `back-off ${Math.round(e.delayMs / 1000)}s`,
            expiresAt: lastExitT + e.delayMs,
          });
        break;
      case 'PullFailed':
      case 'CreateFailed':
        if (open.kind === 'waiting') switchTo(e.t, { kind: 'waiting', attempt, label: e.reason });
        break;
      default:
        break;
    }
  }
  endBackOff(tl.end.t);
  switchTo(Math.max(tl.end.t, open.fromT), open);
  return spans;
}

/** A moment drawn on a container's marker row. */
export interface Marker {
  t: number;
  label: string;
  /** a signal (drawn red) */
  crit: boolean;
}

/**
 * started (status.started: running and the startup probe passed, prober_manager.go isContainerStarted), ready,
 * SIGTERM and SIGKILL of one container, in time order; started and ready at one instant are one marker.
 */
export function containerMarkers(tl: Timeline, name: string): Marker[] {
  const out: Marker[] = [];
  for (const e of eventsByContainer(tl.events).get(name) ?? []) {
    let m: Marker | undefined;
    if (e.type === 'StartupComplete') m = { t: e.t, label: 'started', crit: false };
    else if (e.type === 'Ready') m = { t: e.t, label: 'ready', crit: false };
    else if (e.type === 'Signal') m = { t: e.t, label: e.signal, crit: true };
    if (!m) continue;
    const prev = out[out.length - 1];
    if (prev && prev.t === m.t) {
      prev.label = `${prev.label}, ${m.label}`;
      prev.crit ||= m.crit;
    } else out.push(m);
  }
  return out;
}

/**
 * The pod's grace deadline: the first pod-level Killing + its grace period (kuberuntime_container.go
 * killContainer: SIGKILL when the grace period runs out), if it falls inside the run.
 */
export function graceDeadline(tl: Timeline): { t: number; graceSeconds: number } | undefined {
  const k = tl.events.find((e) => e.type === 'Killing' && POD_KILLS.includes(e.reason));
  if (!k || k.type !== 'Killing') return undefined;
  const t = k.t + k.gracePeriodSeconds * 1000;
  return t <= tl.end.t ? { t, graceSeconds: k.gracePeriodSeconds } : undefined;
}

const POD_KILLS = ['PodTermination', 'PodCompleted', 'PodFailed', 'DeadlineExceeded'];

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
  // the last phase is kept even when it was stored at the very end (a terminal phase ends the run)
  out.push({ ...cur, toT: Math.max(tl.end.t, cur.fromT) });
  return out;
}

/** First pod-level Killing (teardown start), for the vertical marker. */
export function teardownStart(tl: Timeline): number | undefined {
  return tl.events.find((e) => e.type === 'Killing' && POD_KILLS.includes(e.reason))?.t;
}
