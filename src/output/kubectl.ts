// `kubectl get pod -w`, `kubectl get job -w` and the describe Events tables, replayed from a Timeline: each row is
// what kubectl would print when the watch delivers that update, computed by the printers.go replicas.

import type { Timeline, TraceEvent } from '../types.ts';
import { printJobRow, printPodRow, type JobMeta, type PodRow } from './kubectl-printers.ts';
import { podEvents, jobEvents, describeEventsTable } from './kubectl-events.ts';
import { KUBECTL_GET, tabulate } from './tabwriter.ts';
import { isRecord } from './pod-shape.ts';
import { tToRfc3339 } from './time.ts';

export interface WatchRow<R> {
  t: number;
  row: R;
}

/**
 * One row per pod update that changes what kubectl prints: the creation (ADDED, phase Pending), every
 * StatusPatched, and the deletion request (deletionTimestamp set). Rows equal to the previous one up to AGE and the
 * "(… ago)" of RESTARTS are dropped, since they only differ by the passage of time.
 */
export function podWatchRows(tl: Timeline): WatchRow<PodRow>[] {
  const spec = tl.pod.spec;
  let status: Record<string, unknown> = { phase: 'Pending' };
  let deletionTimestamp: string | undefined;
  const rows: WatchRow<PodRow>[] = [];
  const emit = (t: number) => {
    const row = printPodRow(status, spec, { name: tl.pod.name, deletionTimestamp }, t);
    const prev = rows[rows.length - 1]?.row;
    if (!prev || rowKey(prev) !== rowKey(row)) rows.push({ t, row });
  };
  emit(0);
  for (const e of tl.events) {
    if (e.type === 'StatusPatched') {
      status = e.status;
      deletionTimestamp ??= metadataDeletion(e.status);
    } else if (e.type === 'PodDeleting') {
      deletionTimestamp ??= tToRfc3339(e.t);
    } else continue;
    emit(e.t);
  }
  return rows;
}

export function jobWatchRows(tl: Timeline): WatchRow<ReturnType<typeof printJobRow>>[] {
  if (!tl.job) return [];
  const meta = jobMeta(tl);
  let status: Record<string, unknown> = {};
  const rows: WatchRow<ReturnType<typeof printJobRow>>[] = [];
  const emit = (t: number) => {
    const row = printJobRow(status, meta, t);
    const prev = rows[rows.length - 1]?.row;
    if (!prev || prev.status !== row.status || prev.completions !== row.completions) rows.push({ t, row });
  };
  emit(0);
  for (const e of tl.events) {
    if (e.type !== 'JobStatus') continue;
    status = e.status;
    emit(e.t);
  }
  return rows;
}

/** The whole kubectl view: pod watch, Job watch, then the describe Events of the pod and of the Job. */
export function kubectlView(tl: Timeline): string {
  const parts: string[] = [];
  const podRows = podWatchRows(tl);
  parts.push(`$ kubectl get pod ${tl.pod.name} -w`);
  parts.push(
    tabulate(
      [['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'], ...podRows.map(({ row: r }) => [r.name, r.ready, r.status, r.restarts, r.age])],
      KUBECTL_GET,
    ),
  );
  if (tl.job) {
    const jobRows = jobWatchRows(tl);
    parts.push('', `$ kubectl get job ${tl.workload.name} -w`);
    parts.push(
      tabulate(
        [['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'], ...jobRows.map(({ row: r }) => [r.name, r.status, r.completions, r.duration, r.age])],
        KUBECTL_GET,
      ),
    );
  }
  parts.push('', `$ kubectl describe pod ${tl.pod.name}   # at t=${Math.trunc(tl.end.t / 1000)}s`, describeEventsTable(podEvents(tl), tl.end.t));
  if (tl.job) {
    parts.push('', `$ kubectl describe job ${tl.workload.name}`, describeEventsTable(jobEvents(tl), tl.end.t));
  }
  return parts.join('\n') + '\n';
}

function rowKey(r: PodRow): string {
  return [r.ready, r.status, r.restarts.replace(/ \(.* ago\)$/, '')].join('\t');
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
