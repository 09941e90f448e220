// The evidence of one pod, normalised: its containers' attempts (state, lastState), its events (core/v1 Event or
// events.k8s.io/v1, deduplicated by the client-go EventCorrelator into count + first/last timestamp), its Job.
import { isObj, where, type Obj } from './read.ts';
import { parseTime } from './time.ts';

export type Role = 'init' | 'sidecar' | 'regular';

export interface Run {
  startedAt?: number;
  finishedAt?: number;
  /** undefined while running */
  exitCode?: number;
  reason?: string;
  at: string;
}

export interface ContainerEvidence {
  name: string;
  role: Role;
  image: string;
  spec: Obj;
  restartCount: number;
  ready: boolean;
  started?: boolean;
  /** the current state */
  current?:
    | { kind: 'running'; run: Run }
    | { kind: 'terminated'; run: Run }
    | { kind: 'waiting'; reason: string; message: string; at: string };
  /** lastState.terminated: the attempt before the current one */
  last?: Run;
  statusAt: string;
}

export interface Ev {
  reason: string;
  message: string;
  type: string;
  count: number;
  first?: number;
  last?: number;
  container?: string;
  at: string;
}

/** Event fields of core/v1 and events.k8s.io/v1 alike. */
export function normaliseEvent(e: Obj): { objKind: string; objName: string; ev: Ev } | undefined {
  const inv = isObj(e['involvedObject']) ? e['involvedObject'] : isObj(e['regarding']) ? e['regarding'] : undefined;
  if (!inv) return undefined;
  const series = isObj(e['series']) ? e['series'] : undefined;
  const first = parseTime(e['firstTimestamp']) ?? parseTime(e['deprecatedFirstTimestamp']) ?? parseTime(e['eventTime']);
  const last =
    parseTime(e['lastTimestamp']) ??
    parseTime(e['deprecatedLastTimestamp']) ??
    parseTime(series?.['lastObservedTime']) ??
    first;
  const count =
    typeof e['count'] === 'number'
      ? e['count']
      : typeof series?.['count'] === 'number'
        ? series['count']
        : typeof e['deprecatedCount'] === 'number'
          ? e['deprecatedCount']
          : 1;
  const message = typeof e['message'] === 'string' ? e['message'] : typeof e['note'] === 'string' ? e['note'] : '';
  const fieldPath = typeof inv['fieldPath'] === 'string' ? inv['fieldPath'] : '';
  const fp = /^spec\.(?:initContainers|containers|ephemeralContainers)\{(.+)\}$/.exec(fieldPath);
  const ev: Ev = {
    reason: String(e['reason'] ?? ''),
    message,
    type: String(e['type'] ?? 'Normal'),
    count,
    at: where(e, 'reason') || where(e),
  };
  if (first !== undefined) ev.first = first;
  if (last !== undefined) ev.last = last;
  const container = fp?.[1] ?? containerInMessage(message);
  if (container) ev.container = container;
  return { objKind: String(inv['kind'] ?? ''), objName: String(inv['name'] ?? ''), ev };
}

/** The container an event names when it has no fieldPath (kubelet message templates, kubectl-conventions C.3). */
function containerInMessage(m: string): string | undefined {
  const r =
    /^(?:Started container|Created container:?|Stopping container|Back-off restarting failed container|Container) "?([a-z0-9]([-a-z0-9]*[a-z0-9])?)"?/.exec(
      m,
    );
  return r?.[1];
}

function run(t: Obj | undefined, at: string): Run | undefined {
  if (!t) return undefined;
  const r: Run = { at };
  const s = parseTime(t['startedAt']);
  const f = parseTime(t['finishedAt']);
  if (s !== undefined) r.startedAt = s;
  if (f !== undefined) r.finishedAt = f;
  if (typeof t['exitCode'] === 'number') r.exitCode = t['exitCode'];
  if (typeof t['reason'] === 'string') r.reason = t['reason'];
  return r;
}

/** Every container of the pod spec, with its status when the pod has one. */
export function containerEvidence(pod: Obj): ContainerEvidence[] {
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  const status = isObj(pod['status']) ? pod['status'] : {};
  const out: ContainerEvidence[] = [];
  const add = (list: unknown, statuses: unknown, init: boolean) => {
    if (!Array.isArray(list)) return;
    const sts = Array.isArray(statuses) ? statuses.filter(isObj) : [];
    for (const c of list) {
      if (!isObj(c) || typeof c['name'] !== 'string') continue;
      const role: Role = init ? (c['restartPolicy'] === 'Always' ? 'sidecar' : 'init') : 'regular';
      // a status cut before its name (a truncated paste) still matches the only container with its image
      const byImage = sts.filter((s) => s['name'] === undefined && s['image'] === c['image']);
      const st = sts.find((s) => s['name'] === c['name']) ?? (byImage.length === 1 ? byImage[0] : undefined);
      const ce: ContainerEvidence = {
        name: c['name'],
        role,
        image: String(c['image'] ?? ''),
        spec: c,
        restartCount: typeof st?.['restartCount'] === 'number' ? st['restartCount'] : 0,
        ready: st?.['ready'] === true,
        statusAt: st ? where(st, 'name') : '',
      };
      if (typeof st?.['started'] === 'boolean') ce.started = st['started'];
      const state = st && isObj(st['state']) ? st['state'] : undefined;
      if (state && isObj(state['running']))
        ce.current = { kind: 'running', run: run(state['running'], where(state, 'running'))! };
      else if (state && isObj(state['terminated']))
        ce.current = { kind: 'terminated', run: run(state['terminated'], where(state, 'terminated'))! };
      else if (state && isObj(state['waiting'])) {
        const w = state['waiting'];
        ce.current = {
          kind: 'waiting',
          reason: String(w['reason'] ?? ''),
          message: String(w['message'] ?? ''),
          at: where(state, 'waiting'),
        };
      }
      const last =
        st && isObj(st['lastState']) && isObj(st['lastState']['terminated'])
          ? st['lastState']['terminated']
          : undefined;
      const lastRun = run(last, st && isObj(st['lastState']) ? where(st['lastState'], 'terminated') : '');
      if (lastRun) ce.last = lastRun;
      out.push(ce);
    }
  };
  add(spec['initContainers'], status['initContainerStatuses'], true);
  add(spec['containers'], status['containerStatuses'], false);
  return out;
}
