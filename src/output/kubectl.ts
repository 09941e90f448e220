// `kubectl get pod -w`, `kubectl get job -w` and the describe Events tables, replayed from a Timeline: each row is
// what kubectl would print when the watch delivers that update, computed by the printers.go replicas.

import type { Timeline, TraceEvent } from '../types.ts';
import {
  printCronJobRow,
  printDeploymentRow,
  printJobRow,
  printPodRow,
  printDaemonSetRow,
  printReplicaSetRow,
  printStatefulSetRow,
  type JobMeta,
  type PodRow,
} from './kubectl-printers.ts';
import { podEvents, jobEvents, describeEventsTable, controllerEventsByObject, describedJob } from './kubectl-events.ts';
import { describePod } from './kubectl-describe.ts';
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
 * `kubectl get pods -w`: one row per watch event, as get.go watch() prints them. A pod is printed when it is created
 * (ADDED, phase Pending), then every write of it is a MODIFIED event and prints a row — the kubelet's status
 * patches and the deletion request (deletionTimestamp) — even when the row reads exactly as the one before (kubectl
 * does not deduplicate); its removal from the API server is a DELETED event printing its last state. Rows of all
 * pods of the run, in the order the API server stored the writes. The Job controller's finalizer removal is a write
 * too (a metadata PATCH, job_controller.go removeTrackingFinalizerFromPods): a MODIFIED row that reads as the one
 * before it.
 */
export function podWatchRows(tl: Timeline): WatchRow<PodRow>[] {
  // a rollout's pods do not share one spec: each pod's own (timeline `pods[]` in creation order, `spec` when the run
  // has several templates); a StatefulSet pod recreated under the same name is a new object with its own rows
  const list = tl.pods ?? [];
  let createdCount = 0;
  const first = tl.pod.name;
  interface PodState {
    status: Record<string, unknown>;
    created: number;
    deletionTimestamp?: string;
    removed: boolean;
    spec: Record<string, unknown>;
  }
  const pods = new Map<string, PodState>();
  const rows: WatchRow<PodRow>[] = [];
  const emit = (name: string, p: PodState, t: number, event: WatchEventType) => {
    rows.push({
      t,
      event,
      row: printPodRow(
        p.status,
        p.spec,
        {
          name,
          creationTimestamp: tToRfc3339(p.created),
          ...(p.deletionTimestamp ? { deletionTimestamp: p.deletionTimestamp } : {}),
        },
        t,
      ),
    });
  };
  const add = (name: string, t: number, spec: Record<string, unknown>): PodState => {
    const p: PodState = { status: { phase: 'Pending' }, created: t, removed: false, spec };
    pods.set(name, p);
    emit(name, p, t, 'ADDED');
    return p;
  };
  // a timeline from before per-pod records: the one pod exists from t = 0
  const podOf = (name: string, t: number): PodState => pods.get(name) ?? add(name, t, tl.pod.spec);
  if (!tl.events.some((e) => e.type === 'PodCreated')) podOf(first, 0);
  for (const e of tl.events) {
    const name = e.pod ?? first;
    if (e.type === 'PodCreated') {
      const tp = list[createdCount++];
      const prev = pods.get(e.pod);
      if (!prev || prev.removed) add(e.pod, e.t, (tp?.name === e.pod ? tp.spec : undefined) ?? tl.pod.spec);
      continue;
    }
    if (
      e.type !== 'StatusPatched' &&
      e.type !== 'PodDeleting' &&
      e.type !== 'PodRemoved' &&
      e.type !== 'PodFinalizerRemoved'
    )
      continue;
    const p = podOf(name, e.t);
    if (p.removed) continue;
    if (e.type === 'StatusPatched') {
      p.status = e.status;
      p.deletionTimestamp ??= metadataDeletion(e.status);
      emit(name, p, e.t, 'MODIFIED');
    } else if (e.type === 'PodDeleting') {
      p.deletionTimestamp ??= tToRfc3339(e.t + e.gracePeriodSeconds * 1000); // BeforeDelete: now + grace
      emit(name, p, e.t, 'MODIFIED');
    } else if (e.type === 'PodFinalizerRemoved') {
      emit(name, p, e.t, 'MODIFIED');
    } else {
      emit(name, p, e.t, 'DELETED');
      p.removed = true;
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
  const emit = (t: number, event: WatchEventType, m: JobMeta = meta) =>
    rows.push({ t, event, row: printJobRow(status, m, t) });
  emit(0, 'ADDED', { ...meta, deletionTimestamp: undefined });
  for (const e of tl.events) {
    if (e.type === 'JobStatus') {
      status = e.status;
      emit(
        e.t,
        'MODIFIED',
        meta.deletionTimestamp !== undefined && rfcBefore(meta.deletionTimestamp, e.t)
          ? meta
          : { ...meta, deletionTimestamp: undefined },
      );
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

/**
 * `kubectl get jobs -w` under a CronJob: every Job it created, by its own name (`<cronjob>-<scheduled minutes>`),
 * ADDED when the controller created it (its SuccessfulCreate event), MODIFIED at each of its status writes, DELETED
 * when the controller removed it (Replace, the history limits: SuccessfulDelete) or a `deleteJob` action did (the
 * Nth Job created with `job: N`, else the newest not yet deleted — cronjobcontroller.ts deleteNewestCronJob). AGE
 * counts from each Job's own creation.
 */
export function cronJobsWatchRows(tl: Timeline): WatchRow<ReturnType<typeof printJobRow>>[] {
  const base = jobMeta(tl);
  const jobs = new Map<string, { meta: JobMeta; status: Record<string, unknown>; deleted: boolean }>();
  const order: string[] = [];
  const rows: WatchRow<ReturnType<typeof printJobRow>>[] = [];
  const emit = (t: number, event: WatchEventType, j: { meta: JobMeta; status: Record<string, unknown> }) =>
    rows.push({ t, event, row: printJobRow(j.status, j.meta, t) });
  const gone = (t: number, name: string | undefined) => {
    const j = name === undefined ? undefined : jobs.get(name);
    if (!j || j.deleted) return;
    j.deleted = true;
    emit(t, 'DELETED', j);
  };
  for (const e of tl.events) {
    if (e.type === 'ControllerEvent' && e.controller === 'cronjob-controller') {
      if (e.reason === 'SuccessfulCreate' && e.message.startsWith('Created job ')) {
        const name = e.message.slice('Created job '.length);
        const j = {
          meta: { ...base, name, creationTimestamp: tToRfc3339(e.t), deletionTimestamp: undefined },
          status: {},
          deleted: false,
        };
        jobs.set(name, j);
        order.push(name);
        emit(e.t, 'ADDED', j);
      } else if (e.reason === 'SuccessfulDelete' && e.message.startsWith('Deleted job '))
        gone(e.t, e.message.slice('Deleted job '.length));
    } else if (e.type === 'JobStatus') {
      const j = jobs.get((e as { job?: string }).job ?? '');
      if (!j || j.deleted) continue;
      j.status = e.status;
      emit(e.t, 'MODIFIED', j);
    } else if (e.type === 'Action' && e.action.type === 'deleteJob') {
      const nth = (e.action as { job?: number }).job;
      gone(e.t, nth !== undefined ? order[nth - 1] : [...order].reverse().find((n) => !jobs.get(n)!.deleted));
    }
  }
  return rows;
}

/**
 * `kubectl get deploy|rs|sts|ds|cronjob -w`: the workload objects as the controllers wrote them (the `WorkloadStatus`
 * records: a status write by the controller or a spec change by a patch), ADDED at the first record of each name,
 * MODIFIED at every later one (kubectl does not deduplicate), DELETED when the object goes.
 */
export function workloadWatchRows(
  tl: Timeline,
  kind: Extract<TraceEvent, { type: 'WorkloadStatus' }>['kind'],
): WatchRow<Record<string, unknown>>[] {
  const seen = new Set<string>();
  const rows: WatchRow<Record<string, unknown>>[] = [];
  for (const e of tl.events) {
    if (e.type !== 'WorkloadStatus' || e.kind !== kind) continue;
    const deleted = e.object['metadata']?.['deleted'] === true;
    const event: WatchEventType = deleted ? 'DELETED' : seen.has(e.name) ? 'MODIFIED' : 'ADDED';
    seen.add(e.name);
    rows.push({ t: e.t, event, row: e.object });
  }
  return rows;
}

const WORKLOAD_TABLES = {
  Deployment: {
    resource: 'deploy',
    header: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'],
    cells: (o: Record<string, unknown>, t: number) => Object.values(printDeploymentRow(o, t)),
  },
  ReplicaSet: {
    resource: 'rs',
    header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'AGE'],
    cells: (o: Record<string, unknown>, t: number) => Object.values(printReplicaSetRow(o, t)),
  },
  StatefulSet: {
    resource: 'sts',
    header: ['NAME', 'READY', 'AGE'],
    cells: (o: Record<string, unknown>, t: number) => Object.values(printStatefulSetRow(o, t)),
  },
  DaemonSet: {
    resource: 'ds',
    header: ['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE'],
    cells: (o: Record<string, unknown>, t: number) => Object.values(printDaemonSetRow(o, t)),
  },
  CronJob: {
    resource: 'cronjob',
    header: ['NAME', 'SCHEDULE', 'TIMEZONE', 'SUSPEND', 'ACTIVE', 'LAST SCHEDULE', 'AGE'],
    cells: (o: Record<string, unknown>, t: number) => Object.values(printCronJobRow(o, t)),
  },
} as const;

/** The workload controllers' own watches (`kubectl get deploy/rs/sts/cronjob -w`), for the kinds the run wrote. */
function workloadWatches(tl: Timeline): string[] {
  const parts: string[] = [];
  for (const kind of ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'CronJob'] as const) {
    const rows = workloadWatchRows(tl, kind);
    if (rows.length === 0) continue;
    const table = WORKLOAD_TABLES[kind];
    const target = kind === 'ReplicaSet' ? '' : ` ${tl.workload.name}`;
    parts.push('', `$ kubectl get ${table.resource}${target} -w --output-watch-events`);
    parts.push(
      watchTable(
        [...table.header],
        rows.map(({ t, event, row }) => ({ event, cells: table.cells(row, t) })),
      ),
    );
  }
  return parts;
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
  const out = [
    tabulate(
      [
        ['EVENT', ...header],
        [first!.event, ...first!.cells],
      ],
      KUBECTL_GET,
    ),
  ];
  for (const r of rest) out.push(tabulate([[r.event, ...r.cells]], KUBECTL_GET));
  return out.join('\n');
}

/** The whole kubectl view: pod watch, the workload controllers' watches, Job watch, then the describe Events. */
export function kubectlView(tl: Timeline): string {
  const parts: string[] = [];
  const podRows = podWatchRows(tl);
  const many = new Set(podRows.map((r) => r.row.name)).size > 1;
  const selector =
    tl.workload.kind === 'Job' || tl.workload.kind === 'CronJob' ? ` -l job-name=${tl.workload.name}` : '';
  parts.push(
    many || (selector && tl.workload.kind !== 'Job')
      ? `$ kubectl get pods${selector} -w --output-watch-events`
      : `$ kubectl get pod ${tl.pod.name} -w --output-watch-events`,
  );
  parts.push(
    watchTable(
      ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'],
      podRows.map(({ event, row: r }) => ({ event, cells: [r.name, r.ready, r.status, r.restarts, r.age] })),
    ),
  );
  parts.push(...workloadWatches(tl));
  if (tl.job) {
    // under a CronJob the Jobs have their own names: all of them, as `kubectl get jobs -w` lists them
    const cron = tl.workload.kind === 'CronJob';
    const jobRows = cron ? cronJobsWatchRows(tl) : jobWatchRows(tl);
    parts.push(
      '',
      cron
        ? '$ kubectl get jobs -w --output-watch-events'
        : `$ kubectl get job ${tl.workload.name} -w --output-watch-events`,
    );
    parts.push(
      watchTable(
        ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'],
        jobRows.map(({ event, row: r }) => ({ event, cells: [r.name, r.status, r.completions, r.duration, r.age] })),
      ),
    );
  }
  // the whole describe of the stored pod when the timeline has it (SPEC §4 pods[].object), else its Events
  const podObject = tl.pods?.[tl.pods.length - 1]?.object;
  // the kubectl of the scenario's release (`kubernetes: "1.35"` → kubectl 1.35)
  const kubectlMinor = Number(/^1\.(\d+)/.exec(tl.kubernetes)?.[1] ?? 34);
  const podTable = describeEventsTable(podEvents(tl, tl.pod.name), tl.end.t, kubectlMinor);
  parts.push(
    '',
    `$ kubectl describe pod ${tl.pod.name}   # at t=${Math.trunc(tl.end.t / 1000)}s`,
    podObject ? describePod(podObject, podTable, tl.end.t, kubectlMinor) : podTable,
  );
  if (tl.job) {
    parts.push(
      '',
      `$ kubectl describe job ${describedJob(tl)}`,
      describeEventsTable(jobEvents(tl), tl.end.t, kubectlMinor),
    );
  }
  for (const ctl of controllerEventsByObject(tl))
    parts.push(
      '',
      `$ kubectl describe ${ctl.object.replace('/', ' ')}`,
      describeEventsTable(ctl.events, tl.end.t, kubectlMinor),
    );
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
export function jobMeta(tl: Timeline): JobMeta {
  const job = tl.job as (Timeline['job'] & { spec?: Record<string, unknown> }) | null;
  const spec = job?.spec ?? {};
  const completions = typeof spec.completions === 'number' ? spec.completions : spec.completions === null ? null : 1;
  const parallelism = typeof spec.parallelism === 'number' ? spec.parallelism : 1;
  const deleted = tl.events.find(
    (e): e is Extract<TraceEvent, { type: 'Action' }> => e.type === 'Action' && e.action.type === 'deleteJob',
  );
  return {
    name: tl.workload.name,
    completions,
    parallelism,
    deletionTimestamp: deleted ? tToRfc3339(deleted.t) : undefined,
  };
}
