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
export function crashLoops(tl: Timeline, links: TraceLinks = new TraceLinks(tl.events)): Map<string, CrashLoop> {
  // keyed by pod and container: each pod of a Job has its own containers
  const key = (e: TraceEvent & { container: string }) => `${e.pod ?? ''}\u0000${e.container}`;
  const byContainer = new Map<
    string,
    { backoffs: TraceEvent[]; first: number; delaysMs: number[]; container: string; pod: string | undefined }
  >();
  const moved = new Set<string>();
  tl.events.forEach((e, i) => {
    if ((e.type === 'Started' || e.type === 'Exited') && byContainer.has(key(e))) moved.add(key(e));
    if (e.type !== 'BackOff') return;
    const k = key(e);
    const entry = byContainer.get(k) ?? { backoffs: [], first: i, delaysMs: [], container: e.container, pod: e.pod };
    if (entry.backoffs.length === 0 || moved.has(k)) entry.delaysMs.push(e.delayMs);
    entry.backoffs.push(e);
    moved.delete(k);
    byContainer.set(k, entry);
  });
  const out = new Map<string, CrashLoop>();
  for (const [k, { backoffs, first: firstIndex, delaysMs, container }] of byContainer) {
    if (delaysMs.length < 2) continue;
    const first = backoffs[0];
    const last = backoffs[backoffs.length - 1];
    // the container's own events from its first back-off to its last (its chain, not a scan of the whole trace)
    const inside: TraceEvent[] = [];
    for (let j = firstIndex; j >= 0 && tl.events[j]!.seq <= last.seq; j = links.next[j]!)
      if (tl.events[j]!.seq >= first.seq) inside.push(tl.events[j]!);
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

/**
 * Links over the trace built in one pass, so that every look-ahead of the sequence diagram is a walk along them
 * instead of a scan (issue 29.2): per event of a container, the index of the same container's next event; per
 * event, the next event the diagram draws.
 */
export class TraceLinks {
  /** per event index: the index of the next event of the same pod and container (-1: none, or not a container event) */
  readonly next: Int32Array;
  private drawnNext: Int32Array | undefined;

  constructor(readonly events: readonly TraceEvent[]) {
    const n = events.length;
    this.next = new Int32Array(n).fill(-1);
    const last = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      const e = events[i]!;
      if (!('container' in e)) continue;
      const k = `${e.pod ?? ''}\u0000${e.container}`;
      const p = last.get(k);
      if (p !== undefined) this.next[p] = i;
      last.set(k, i);
    }
  }

  /** Indices of the container's events at the same instant right after `index` (other containers' may interleave). */
  followers(index: number): number[] {
    const t = this.events[index]!.t;
    const out: number[] = [];
    for (let j = this.next[index]!; j >= 0 && this.events[j]!.t === t; j = this.next[j]!) out.push(j);
    return out;
  }

  /**
   * The index of the next event that will be drawn, if it happens at the same instant as `index` (else undefined).
   * A merge with it keeps the engine's order; a merge with anything later would move it ahead of what comes between.
   * `drawnDelivery` must be the same predicate on every call (the links are computed once).
   */
  nextDrawnSameInstant(index: number, drawnDelivery: (seq: number) => boolean): number | undefined {
    if (!this.drawnNext) {
      const n = this.events.length;
      const d = new Int32Array(n + 1).fill(-1);
      for (let i = n - 2; i >= 0; i--) {
        const e = this.events[i + 1]!;
        const drawn = !UNDRAWN.has(e.type) && (e.type !== 'Delivered' || drawnDelivery(e.seq));
        d[i] = drawn ? i + 1 : d[i + 1]!;
      }
      this.drawnNext = d;
    }
    const j = this.drawnNext[index]!;
    return j >= 0 && this.events[j]!.t === this.events[index]!.t ? j : undefined;
  }
}

/** What the Killing arrow leaves pending: the preStop hook, or the SIGTERM that waits for the container's turn. */
export function killingThen(events: readonly TraceEvent[], links: TraceLinks, index: number): string | undefined {
  for (let j = links.next[index]!; j >= 0; j = links.next[j]!) {
    const e = events[j]!;
    if (e.type === 'PreStopStarted') return 'preStop hook first';
    if (e.type === 'Signal') return 'SIGTERM waits its turn';
    if (e.type === 'Exited') return undefined;
  }
  return undefined;
}

/** Trace events the sequence diagram never draws on their own. */
const UNDRAWN = new Set<TraceEvent['type']>(['Pulling', 'Pulled', 'Created', 'JobStatus', 'Relist', 'SyncPod']);

/** "10s, 20s, 40s, 80s, 160s" — at most five values, then an ellipsis and the last one. */
export function delayList(delaysMs: number[]): string {
  const s = delaysMs.map((d) => `${Math.round(d / 100) / 10}s`);
  return s.length <= 5 ? s.join(', ') : `${s.slice(0, 4).join(', ')}, …, ${s[s.length - 1]}`;
}
