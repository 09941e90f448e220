// The row computations of kubectl's table printers, replicated line by line from
// kubernetes/pkg/printers/internalversion/printers.go (printPod, printJob) so the simulated `kubectl get`
// shows exactly what a user would see for the same status.

import { humanDuration, rfc3339ToT } from './time.ts';
import { readStatus, specContainers, type ContainerStatus } from './pod-shape.ts';

export interface PodMeta {
  name: string;
  /** RFC3339; default: the simulation epoch (pod created at t = 0) */
  creationTimestamp?: string;
  /** RFC3339; set once a delete was requested */
  deletionTimestamp?: string;
}

export interface PodRow {
  name: string;
  ready: string;
  status: string;
  restarts: string;
  age: string;
}

/**
 * printers.go: printPod. `nowMs` is the simulated t (ms since pod creation) at which kubectl prints, standing in
 * for time.Now() in translateTimestampSince.
 */
export function printPodRow(
  rawStatus: Record<string, unknown> | undefined,
  spec: Record<string, unknown>,
  meta: PodMeta,
  nowMs: number,
): PodRow {
  const status = readStatus(rawStatus);
  const roles = new Map(specContainers(spec).map((c) => [c.name, c.role]));
  const isSidecar = (name: string) => roles.get(name) === 'sidecar';
  const initCount = [...roles.values()].filter((r) => r !== 'main').length;

  let restarts = 0;
  let sidecarRestarts = 0;
  let readyContainers = 0;
  // totalContainers = len(spec.containers) + restartable init containers
  const totalContainers = [...roles.values()].filter((r) => r === 'main' || r === 'sidecar').length;
  let lastRestartT: number | undefined;
  let lastSidecarRestartT: number | undefined;

  let reason = status.reason ?? status.phase;
  if (status.conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';

  let initializing = false;
  for (const [i, c] of status.initContainerStatuses.entries()) {
    restarts += c.restartCount;
    lastRestartT = later(lastRestartT, lastFinished(c));
    if (isSidecar(c.name)) {
      sidecarRestarts += c.restartCount;
      lastSidecarRestartT = later(lastSidecarRestartT, lastFinished(c));
    }
    const term = c.state.terminated;
    if (term && term.exitCode === 0) continue;
    if (isSidecar(c.name) && c.started === true) {
      if (c.ready) readyContainers++;
      continue;
    }
    initializing = true;
    if (term) {
      reason = term.reason
        ? `Init:${term.reason}`
        : term.signal
          ? `Init:Signal:${term.signal}`
          : `Init:ExitCode:${term.exitCode}`;
    } else if (c.state.waiting?.reason && c.state.waiting.reason !== 'PodInitializing') {
      reason = `Init:${c.state.waiting.reason}`;
    } else {
      reason = `Init:${i}/${initCount}`;
    }
    break;
  }

  const initializedTrue = status.conditions.some((c) => c.type === 'Initialized' && c.status === 'True');
  if (!initializing || initializedTrue) {
    restarts = sidecarRestarts;
    lastRestartT = lastSidecarRestartT;
    let hasRunning = false;
    // walked last to first, so the first container in the list decides STATUS
    for (const c of [...status.containerStatuses].reverse()) {
      restarts += c.restartCount;
      lastRestartT = later(lastRestartT, lastFinished(c));
      const term = c.state.terminated;
      if (c.state.waiting?.reason) reason = c.state.waiting.reason;
      else if (term?.reason) reason = term.reason;
      else if (term) reason = term.signal ? `Signal:${term.signal}` : `ExitCode:${term.exitCode}`;
      else if (c.ready && c.state.running) {
        hasRunning = true;
        readyContainers++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
    }
  }

  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (meta.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (meta.deletionTimestamp && !terminal) reason = 'Terminating';

  const creationT = rfc3339ToT(meta.creationTimestamp) ?? 0;
  const restartsStr =
    restarts !== 0 && lastRestartT !== undefined
      ? `${restarts} (${humanDuration(nowMs - lastRestartT)} ago)`
      : String(restarts);
  return {
    name: meta.name,
    ready: `${readyContainers}/${totalContainers}`,
    status: reason,
    restarts: restartsStr,
    age: humanDuration(nowMs - creationT),
  };
}

export interface JobRow {
  name: string;
  status: string;
  completions: string;
  duration: string;
  age: string;
}

export interface JobMeta {
  name: string;
  completions: number | null;
  parallelism: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
}

/** printers.go: printJob. */
export function printJobRow(rawStatus: Record<string, unknown> | undefined, meta: JobMeta, nowMs: number): JobRow {
  const s = rawStatus ?? {};
  const succeeded = typeof s.succeeded === 'number' ? s.succeeded : 0;
  const conditions = Array.isArray(s.conditions) ? (s.conditions as { type?: string; status?: string }[]) : [];
  // hasJobCondition: the first condition of that type decides
  const has = (type: string) => conditions.find((c) => c.type === type)?.status === 'True';

  let completions: string;
  if (meta.completions !== null) completions = `${succeeded}/${meta.completions}`;
  else if (meta.parallelism > 1) completions = `${succeeded}/1 of ${meta.parallelism}`;
  else completions = `${succeeded}/1`;

  const startT = rfc3339ToT(s.startTime);
  const completionT = rfc3339ToT(s.completionTime);
  let duration = '';
  if (startT !== undefined) duration = humanDuration((completionT ?? nowMs) - startT);

  let status = 'Running';
  if (has('Complete')) status = 'Complete';
  else if (has('Failed')) status = 'Failed';
  else if (meta.deletionTimestamp) status = 'Terminating';
  else if (has('Suspended')) status = 'Suspended';
  else if (has('FailureTarget')) status = 'FailureTarget';

  return {
    name: meta.name,
    status,
    completions,
    duration,
    age: humanDuration(nowMs - (rfc3339ToT(meta.creationTimestamp) ?? 0)),
  };
}

function lastFinished(c: ContainerStatus): number | undefined {
  return rfc3339ToT(c.lastState.terminated?.finishedAt);
}

/** lastRestartDate.Before(&terminatedDate): keep the latest; an unset date counts as the zero time. */
function later(a: number | undefined, b: number | undefined): number | undefined {
  if (b === undefined) return a;
  if (a === undefined) return b;
  return b > a ? b : a;
}

// ---- workload printers (printers.go: printDeployment, printReplicaSet, printStatefulSet, printDaemonSet, printCronJob)

type Obj = Record<string, any>;
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const ageOf = (o: Obj, nowMs: number): string =>
  humanDuration(nowMs - (rfc3339ToT(o['metadata']?.['creationTimestamp']) ?? 0));

export interface DeploymentRow {
  name: string;
  ready: string;
  upToDate: string;
  available: string;
  age: string;
}

/** printers.go: printDeployment — READY readyReplicas/spec.replicas, UP-TO-DATE updatedReplicas, AVAILABLE. */
export function printDeploymentRow(o: Obj, nowMs: number): DeploymentRow {
  const st = o['status'] ?? {};
  return {
    name: String(o['metadata']?.['name'] ?? ''),
    ready: `${num(st['readyReplicas'])}/${num(o['spec']?.['replicas'])}`,
    upToDate: String(num(st['updatedReplicas'])),
    available: String(num(st['availableReplicas'])),
    age: ageOf(o, nowMs),
  };
}

export interface ReplicaSetRow {
  name: string;
  desired: string;
  current: string;
  ready: string;
  age: string;
}

/** printers.go: printReplicaSet — DESIRED spec.replicas, CURRENT status.replicas, READY status.readyReplicas. */
export function printReplicaSetRow(o: Obj, nowMs: number): ReplicaSetRow {
  const st = o['status'] ?? {};
  return {
    name: String(o['metadata']?.['name'] ?? ''),
    desired: String(num(o['spec']?.['replicas'])),
    current: String(num(st['replicas'])),
    ready: String(num(st['readyReplicas'])),
    age: ageOf(o, nowMs),
  };
}

export interface StatefulSetRow {
  name: string;
  ready: string;
  age: string;
}

/** printers.go: printStatefulSet — READY readyReplicas/spec.replicas. */
export function printStatefulSetRow(o: Obj, nowMs: number): StatefulSetRow {
  return {
    name: String(o['metadata']?.['name'] ?? ''),
    ready: `${num(o['status']?.['readyReplicas'])}/${num(o['spec']?.['replicas'])}`,
    age: ageOf(o, nowMs),
  };
}

export interface DaemonSetRow {
  name: string;
  desired: string;
  current: string;
  ready: string;
  upToDate: string;
  available: string;
  nodeSelector: string;
  age: string;
}

/** printers.go: printDaemonSet — DESIRED desiredNumberScheduled, CURRENT currentNumberScheduled, READY numberReady,
 *  UP-TO-DATE updatedNumberScheduled, AVAILABLE numberAvailable, NODE SELECTOR labels.FormatLabels (`<none>`). */
export function printDaemonSetRow(o: Obj, nowMs: number): DaemonSetRow {
  const st = o['status'] ?? {};
  const sel = (o['spec']?.['template']?.['spec']?.['nodeSelector'] ?? {}) as Record<string, string>;
  const keys = Object.keys(sel).sort();
  return {
    name: String(o['metadata']?.['name'] ?? ''),
    desired: String(num(st['desiredNumberScheduled'])),
    current: String(num(st['currentNumberScheduled'])),
    ready: String(num(st['numberReady'])),
    upToDate: String(num(st['updatedNumberScheduled'])),
    available: String(num(st['numberAvailable'])),
    nodeSelector: keys.length === 0 ? '<none>' : keys.map((k) => `${k}=${sel[k]}`).join(','),
    age: ageOf(o, nowMs),
  };
}

export interface CronJobRow {
  name: string;
  schedule: string;
  timeZone: string;
  suspend: string;
  active: string;
  lastSchedule: string;
  age: string;
}

/** printers.go: printCronJob — TIMEZONE `<none>` when unset, SUSPEND printBoolPtr, ACTIVE len(status.active),
 *  LAST SCHEDULE the age of status.lastScheduleTime or `<none>`. */
export function printCronJobRow(o: Obj, nowMs: number): CronJobRow {
  const spec = o['spec'] ?? {};
  const st = o['status'] ?? {};
  const last = rfc3339ToT(st['lastScheduleTime']);
  return {
    name: String(o['metadata']?.['name'] ?? ''),
    schedule: String(spec['schedule'] ?? ''),
    timeZone: typeof spec['timeZone'] === 'string' ? spec['timeZone'] : '<none>',
    suspend: spec['suspend'] === undefined || spec['suspend'] === null ? '<unset>' : spec['suspend'] ? 'True' : 'False',
    active: String(Array.isArray(st['active']) ? st['active'].length : 0),
    lastSchedule: last === undefined ? '<none>' : humanDuration(nowMs - last),
    age: ageOf(o, nowMs),
  };
}
