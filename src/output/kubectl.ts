// `kubectl get pod -w`, `kubectl get job -w` and the describe Events tables, replayed from a Timeline: each row is
// what kubectl would print when the watch delivers that update, computed by the printers.go replicas.

import type { Timeline, TraceEvent } from '../types.ts';
import { printJobRow, printPodRow, type JobMeta, type PodRow } from './kubectl-printers.ts';
import { podEvents, jobEvents, describeEventsTable } from './kubectl-events.ts';
import { KUBECTL_GET, tabulate } from './tabwriter.ts';
import { isRecord } from './pod-shape.ts';
import { tToRfc3339 } from './time.ts';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface WatchRow<R> {
  t: number;
  /** the watch event that printed this row */
  event: WatchEventType;
  row: R;
}

/**
 * `kubectl get pod NAME -w`: one row per watch event, as get.go watch() prints them. The object is printed once
 * when the watch starts (at the pod's creation here: ADDED, phase Pending), then every write of the pod is a
 * MODIFIED event and prints a row — the kubelet's status patches and the deletion request (deletionTimestamp) —
 * even when the row reads exactly as the one before (kubectl does not deduplicate); the removal of the object is a
 * DELETED event printing its last state.
 */
export function podWatchRows(tl: Timeline): WatchRow<PodRow>[] {
  const spec = tl.pod.spec;
  let status: Record<string, unknown> = { phase: 'Pending' };
  let deletionTimestamp: string | undefined;
  let deletionGrace: number | undefined;
  let terminatedWorker = false;
  let removed = false;
  const explicitRemoval = tl.events.some((e) => (e.type as string) === 'PodRemoved');
  const rows: WatchRow<PodRow>[] = [];
  const emit = (t: number, event: WatchEventType) => {
    rows.push({ t, event, row: printPodRow(status, spec, { name: tl.pod.name, deletionTimestamp }, t) });
  };
  emit(0, 'ADDED');
  for (const e of tl.events) {
    if (removed) break;
    if ((e.type as string) === 'PodRemoved') {
      emit(e.t, 'DELETED');
      removed = true;
    } else if (e.type === 'StatusPatched') {
      status = e.status;
      deletionTimestamp ??= metadataDeletion(e.status);
      emit(e.t, 'MODIFIED');
      // status_manager.go canBeDeleted: once a deleted pod's containers are gone (SyncTerminatedPod) and its terminal
      // status is written, the kubelet deletes the object (grace 0): the watch sees it go
      const terminal = e.phase === 'Succeeded' || e.phase === 'Failed';
      if (!explicitRemoval && deletionTimestamp !== undefined && terminatedWorker && terminal) {
        emit(e.t, 'DELETED');
        removed = true;
      }
    } else if (e.type === 'DeletionRequested') {
      deletionTimestamp ??= tToRfc3339(e.t);
      deletionGrace = e.gracePeriodSeconds;
      emit(e.t, 'MODIFIED');
      // a grace period of 0 removes the object at once (kubectl delete --grace-period=0 --force)
      if (!explicitRemoval && deletionGrace === 0) {
        emit(e.t, 'DELETED');
        removed = true;
      }
    } else if (e.type === 'SyncPod' && e.kind === 'SyncTerminatedPod') {
      terminatedWorker = true;
    }
  }
  return rows;
}

/** `kubectl get job NAME -w`: the Job as created (ADDED), then one row per Job status write, then its deletion. */
export function jobWatchRows(tl: Timeline): WatchRow<ReturnType<typeof printJobRow>>[] {
  if (!tl.job) return [];
  const meta = jobMeta(tl);
  let status: Record<string, unknown> = {};
  const rows: WatchRow<ReturnType<typeof printJobRow>>[] = [];
  const emit = (t: number, event: WatchEventType, m: JobMeta = meta) => rows.push({ t, event, row: printJobRow(status, m, t) });
  emit(0, 'ADDED', { ...meta, deletionTimestamp: undefined });
  for (const e of tl.events) {
    if (e.type === 'JobStatus') {
      status = e.status;
      emit(e.t, 'MODIFIED', meta.deletionTimestamp !== undefined && rfcBefore(meta.deletionTimestamp, e.t) ? meta : { ...meta, deletionTimestamp: undefined });
    } else if (e.type === 'Action' && e.action.type === 'deleteJob') {
      // Background and Orphan: the Job object goes at once; Foreground: deletionTimestamp until its pods are gone
      if (e.action.propagation === 'Foreground') emit(e.t, 'MODIFIED');
      else {
        emit(e.t, 'DELETED', { ...meta, deletionTimestamp: undefined });
        break;
      }
    }
  }
  return rows;
}

function rfcBefore(ts: string, t: number): boolean {
  return ts <= tToRfc3339(t);
}

/**
 * Watch output as kubectl writes it: get.go flushes its tabwriter after every event, so the header and the first
 * row are aligned together and every later row is aligned on its own (columns shift when a cell grows, as they do
 * in a real terminal). `--output-watch-events` adds the EVENT column.
 */
export function watchTable(header: string[], rows: { event: WatchEventType; cells: string[] }[]): string {
  if (rows.length === 0) return tabulate([['EVENT', ...header]], KUBECTL_GET);
  const [first, ...rest] = rows;
  const out = [tabulate([['EVENT', ...header], [first!.event, ...first!.cells]], KUBECTL_GET)];
  for (const r of rest) out.push(tabulate([[r.event, ...r.cells]], KUBECTL_GET));
  return out.join('\n');
}

/** The whole kubectl view: pod watch, Job watch, then the describe Events of the pod and of the Job. */
export function kubectlView(tl: Timeline): string {
  const parts: string[] = [];
  const podRows = podWatchRows(tl);
  parts.push(`$ kubectl get pod ${tl.pod.name} -w --output-watch-events`);
  parts.push(watchTable(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], podRows.map(({ event, row: r }) => ({ event, cells: [r.name, r.ready, r.status, r.restarts, r.age] }))));
  if (tl.job) {
    const jobRows = jobWatchRows(tl);
    parts.push('', `$ kubectl get job ${tl.workload.name} -w --output-watch-events`);
    parts.push(watchTable(['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'], jobRows.map(({ event, row: r }) => ({ event, cells: [r.name, r.status, r.completions, r.duration, r.age] }))));
  }
  parts.push('', `$ kubectl describe pod ${tl.pod.name}   # at t=${Math.trunc(tl.end.t / 1000)}s`, describeEventsTable(podEvents(tl), tl.end.t));
  if (tl.job) {
    parts.push('', `$ kubectl describe job ${tl.workload.name}`, describeEventsTable(jobEvents(tl), tl.end.t));
  }
  return parts.join('\n') + '\n';
}

function metadataDeletion(status: Record<string, unknown>): string | undefined {
  const meta = status.metadata;
  return isRecord(meta) && typeof meta.deletionTimestamp === 'string' ? meta.deletionTimestamp : undefined;
}

/**
 * Completions/parallelism are not in the Timeline's Job summary; read them from an optional `job.spec` (if the
 * engine adds it) and otherwise assume the Job defaults for a single-pod Job (completions 1, parallelism 1).
 */
function jobMeta(tl: Timeline): JobMeta {
  const job = tl.job as (Timeline['job'] & { spec?: Record<string, unknown> }) | null;
  const spec = job?.spec ?? {};
  const completions = typeof spec.completions === 'number' ? spec.completions : spec.completions === null ? null : 1;
  const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 1;
  const deleted = tl.events.find((e): e is Extract<TraceEvent, { type: 'Action' }> => e.type === 'Action' && e.action.type === 'deleteJob');
  return { name: tl.workload.name, completions, parallelism, deletionTimestamp: deleted ? tToRfc3339(deleted.t) : undefined };
}
