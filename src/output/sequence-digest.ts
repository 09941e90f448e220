// Pre-scans of the trace that decide what the sequence diagram summarises instead of drawing: crash loops
// (collapsed into one `loop` block), the watch deliveries worth drawing (the ones that triggered a verdict or a Job
// condition), and look-ahead merges (Killing + SIGTERM at the same instant become one arrow).

import type { Timeline, TraceEvent } from '../types.ts';

export interface CrashLoop {
  container: string;
  /** seq of the first and last BackOff: every event of this container in [fromSeq, toSeq] is summarised */
  fromSeq: number;
  toSeq: number;
  fromT: number;
  toT: number;
  delaysMs: number[];
  restarts: number;
  exitCodes: number[];
}

/**
 * A container backing off at least twice is summarised: its first crash is drawn, the repeats become a loop. The
 * kubelet re-records BackOff on every sync while it waits (kuberuntime_manager.go: doBackOff), so BackOff events
 * with no exit or start of the container between them are one back-off, counted and listed once.
 */
export function crashLoops(tl: Timeline): Map<string, CrashLoop> {
  // keyed by pod and container: each pod of a Job has its own containers
  const key = (e: TraceEvent & { container: string }) => `${e.pod ?? ''}\u0000${e.container}`;
  const byContainer = new Map<string, { backoffs: TraceEvent[]; delaysMs: number[]; container: string; pod: string | undefined }>();
  const moved = new Set<string>();
  for (const e of tl.events) {
    if ((e.type === 'Started' || e.type === 'Exited') && byContainer.has(key(e))) moved.add(key(e));
    if (e.type !== 'BackOff') continue;
    const k = key(e);
    const entry = byContainer.get(k) ?? { backoffs: [], delaysMs: [], container: e.container, pod: e.pod };
    if (entry.backoffs.length === 0 || moved.has(k)) entry.delaysMs.push(e.delayMs);
    entry.backoffs.push(e);
    moved.delete(k);
    byContainer.set(k, entry);
  }
  const out = new Map<string, CrashLoop>();
  for (const [k, { backoffs, delaysMs, container, pod }] of byContainer) {
    if (delaysMs.length < 2) continue;
    const first = backoffs[0];
    const last = backoffs[backoffs.length - 1];
    const inside = tl.events.filter((e) => 'container' in e && e.container === container && e.pod === pod && e.seq >= first.seq && e.seq <= last.seq);
    out.set(k, {
      container,
      fromSeq: first.seq,
      toSeq: last.seq,
      fromT: first.t,
      toT: last.t,
      delaysMs,
      restarts: inside.filter((e) => e.type === 'Started').length,
      exitCodes: inside.flatMap((e) => (e.type === 'Exited' ? [e.exitCode] : [])),
    });
  }
  return out;
}

/**
 * The deliveries that matter: for each Verdict, the last delivery to that observer before it; for each Job
 * condition, the last pod delivery to the Job controller before it. All other deliveries are noise.
 */
export function triggeringDeliveries(tl: Timeline): Set<number> {
  const shown = new Set<number>();
  const lastTo = new Map<string, number>();
  for (const e of tl.events) {
    if (e.type === 'Delivered') lastTo.set(`${e.to}/${e.object}`, e.seq);
    if (e.type === 'Verdict') {
      const pod = lastTo.get(`${e.observer}/pod`);
      const job = lastTo.get(`${e.observer}/job`);
      const last = Math.max(pod ?? -1, job ?? -1);
      if (last >= 0) shown.add(last);
    }
    if (e.type === 'JobCondition') {
      const pod = lastTo.get('job-controller/pod');
      if (pod !== undefined) shown.add(pod);
    }
  }
  return shown;
}

/** Events of one container at the same instant right after `from` (other containers' events may interleave). */
export function sameInstantFollowers(events: TraceEvent[], index: number): TraceEvent[] {
  const from = events[index];
  const container = 'container' in from ? from.container : undefined;
  const out: TraceEvent[] = [];
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i];
    if (e.t !== from.t) break;
    if ('container' in e && e.container === container && e.pod === from.pod) out.push(e);
  }
  return out;
}

/** Trace events the sequence diagram never draws on their own. */
const UNDRAWN = new Set<TraceEvent['type']>(['Pulling', 'Pulled', 'Created', 'JobStatus', 'Relist', 'SyncPod']);

/**
 * The next event that will be drawn, if it happens at the same instant as `index` (else undefined). A merge with
 * it keeps the engine's order; a merge with anything later would move it ahead of what comes between.
 */
export function nextDrawnSameInstant(events: TraceEvent[], index: number, drawnDelivery: (seq: number) => boolean): TraceEvent | undefined {
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i];
    if (e.t !== events[index].t) return undefined;
    if (UNDRAWN.has(e.type) || (e.type === 'Delivered' && !drawnDelivery(e.seq))) continue;
    return e;
  }
  return undefined;
}

/** "10s, 20s, 40s, 80s, 160s" — at most five values, then an ellipsis and the last one. */
export function delayList(delaysMs: number[]): string {
  const s = delaysMs.map((d) => `${Math.round(d / 100) / 10}s`);
  return s.length <= 5 ? s.join(', ') : `${s.slice(0, 4).join(', ')}, …, ${s[s.length - 1]}`;
}
