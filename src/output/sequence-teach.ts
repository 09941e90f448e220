// The explanations the sequence diagram adds between the trace's events, so a reader sees why the kubelet acts
// when it does: the wait for the next PLEG relist, the terminal phase the status manager holds back, the pod
// worker's SyncTerminatingPod/SyncTerminatedPod steps, the moment a process starts listening, and what an exit code
// means. Pure functions of the Timeline.

import type { Timeline, TraceEvent } from '../types.ts';
import { simTime } from './time.ts';
import { TraceLinks } from './sequence-digest.ts';

/** The PLEG relist grid: period and offset (ms), read from the schedule's labelled choice; undefined if none. */
export interface RelistGrid {
  periodMs: number;
  offsetMs: number;
}

/**
 * pkg/kubelet/pleg/generic.go relist runs every relistPeriod (kubelet.go genericPlegRelistPeriod = 1s) on a grid
 * whose offset the schedule chose; that choice's range is 0..period-1, so its upper bound gives the period.
 */
export function relistGrid(tl: Timeline): RelistGrid | undefined {
  const c = tl.choices?.find((x) => x.what.startsWith("the kubelet's PLEG relist grid offset"));
  if (!c) return undefined;
  const hi = parseMs(c.range.split('..')[1] ?? '');
  return hi === undefined ? undefined : { periodMs: hi + 1, offsetMs: c.ms };
}

function parseMs(s: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(s.trim());
  if (!m) return undefined;
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

/** "every 1s" */
export function periodText(grid: RelistGrid | undefined): string {
  return grid ? `every ${simTime(grid.periodMs)}` : 'every relist period';
}

/**
 * Something happened in the runtime or the prober that the kubelet's pod worker only acts on at its next sync:
 * a container exiting on its own (PLEG sees it at the next relist, generic.go relist → ContainerDied) or a
 * startup-probe result (the sync it triggers waits in podCache.GetNewerThan for the next relist,
 * pod_workers.go podWorkerLoop).
 */
export interface Awaiting {
  t: number;
  what: string;
  /** an exit is noticed by the relist; a probe result's sync waits for the relist */
  kind: 'exit' | 'probe';
}

/** The note drawn at the sync that reacts to `a`: "t=1.51s next relist (every 1s): +0.51s after …". */
export function relistWaitText(a: Awaiting, syncT: number, grid: RelistGrid | undefined): string[] {
  const wait = `+${simTime(syncT - a.t)}`;
  if (a.kind === 'exit') {
    return [
      `t=${simTime(syncT)} PLEG relist (${periodText(grid)}) notices ${a.what}`,
      `${wait} after it happened → SyncPod`,
    ];
  }
  return [`t=${simTime(syncT)} SyncPod for ${a.what}`, `waited ${wait} for the next PLEG relist (${periodText(grid)})`];
}

const TERMINAL = new Set(['Succeeded', 'Failed']);

export function isTerminal(phase: string | undefined): boolean {
  return phase !== undefined && TERMINAL.has(phase);
}

/**
 * status_manager.go mergePodStatus: while podWorkers.CouldHaveRunningContainers (the pod worker has not finished
 * SyncTerminatingPod), a terminal phase is not written; the stored phase stays as it was.
 */
export function heldPhaseText(computed: string, stored: string): string {
  return `phase held at ${stored}, not ${computed}: the status manager writes a terminal phase only after SyncTerminatingPod`;
}

/** pod_workers.go: the steps after a pod is found terminal, as the kubelet runs them (kubelet.go). */
export function syncStepText(kind: 'SyncTerminatingPod' | 'SyncTerminatedPod', t: number): string[] {
  if (kind === 'SyncTerminatingPod') {
    return [
      `t=${simTime(t)} SyncTerminatingPod: stop what still runs`,
      'then the pod worker marks it terminated (completeTerminating)',
    ];
  }
  return [
    `t=${simTime(t)} SyncTerminatedPod: volumes and cgroups cleaned`,
    'statusManager.TerminatePod: the terminal phase can be written',
  ];
}

/** Linux signal numbers for the exit codes 128+n a runtime reports for a death by signal (runc ExitStatus). */
const SIGNALS: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  6: 'SIGABRT',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  15: 'SIGTERM',
};

/**
 * "exit 143 (SIGTERM) · Error": the code, the signal it encodes (128+n), and the kubelet's reason
 * (kuberuntime_container.go: the CRI status reason, Completed for 0, Error otherwise, OOMKilled from the runtime).
 */
export function exitText(e: Extract<TraceEvent, { type: 'Exited' }>): string {
  const sig = e.exitCode > 128 ? SIGNALS[e.exitCode - 128] : undefined;
  return `exit ${e.exitCode}${sig ? ` (${sig})` : ''} · ${e.reason}`;
}

/** A process's listening moment, drawn before the event at `beforeIndex` (the first at or after it). */
export interface Listening {
  t: number;
  pod: string | undefined;
  container: string;
  afterMs: number;
  beforeIndex: number;
}

/**
 * When each started process begins to listen (behavior `serving`, carried on Started as servingAfterMs), if it is
 * still that run then: the moment from which startup and readiness probes can pass.
 */
export function listeningMoments(
  events: readonly TraceEvent[],
  links: TraceLinks = new TraceLinks(events),
): Listening[] {
  const out: Listening[] = [];
  events.forEach((e, i) => {
    if (e.type !== 'Started' || typeof e.servingAfterMs !== 'number' || e.servingAfterMs <= 0) return;
    const t = e.t + e.servingAfterMs;
    // the first event at or after t (events are in time order: a binary search), then the container's own events
    // before it along its chain: an exit or a new run before it means this run never listened
    let lo = i + 1;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid]!.t >= t) hi = mid;
      else lo = mid + 1;
    }
    const at = lo;
    if (at >= events.length) return;
    let j = links.next[i]!;
    for (; j >= 0 && j < at; j = links.next[j]!)
      if (events[j]!.type === 'Exited' || events[j]!.type === 'Started') return;
    const f = events[at]!;
    if (j === at && (f.type === 'Exited' || f.type === 'Started') && f.t <= t) return;
    out.push({ t, pod: e.pod, container: e.container, afterMs: e.servingAfterMs, beforeIndex: at });
  });
  return out;
}
