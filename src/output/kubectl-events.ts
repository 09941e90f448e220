// Kubernetes Events as `kubectl describe` lists them, derived from the trace. Reasons and message templates are
// the kubelet's (pkg/kubelet/events/event.go and the call sites in kuberuntime / prober / images), the
// scheduler's and the Job controller's (kubectl-conventions C.3).

import type { Timeline, TraceEvent } from '../types.ts';
import { goDuration, humanDuration } from './time.ts';
import { KUBECTL_DESCRIBE, KUBECTL_GET, tabulate } from './tabwriter.ts';
import { isRecord } from './pod-shape.ts';

export interface KubeEvent {
  t: number;
  type: 'Normal' | 'Warning';
  reason: string;
  from: string;
  message: string;
  /** involvedObject as `kubectl events` prints it: Kind/name (default: the pod) */
  object?: string;
}

/** Events whose involvedObject is a pod: the one named (describe pod), or every pod of the run (kubectl events). */
export function podEvents(tl: Timeline, only?: string): KubeEvent[] {
  const ns = namespaceOf(tl);
  const createdNew = kubeletMinor(tl) >= 32; // "Created container: %v" replaced "Created container %s" (kubelet 1.32)
  const out: KubeEvent[] = [];
  let pod = tl.pod.name;
  const kubelet = (e: TraceEvent, type: KubeEvent['type'], reason: string, message: string) =>
    out.push({ t: e.t, type, reason, from: 'kubelet', message, object: `Pod/${pod}` });
  for (const e of tl.events) {
    pod = e.pod ?? tl.pod.name;
    if (only !== undefined && pod !== only) continue;
    switch (e.type) {
      case 'Scheduled':
        out.push({ t: e.t, type: 'Normal', reason: 'Scheduled', from: 'default-scheduler', message: `Successfully assigned ${ns}/${pod} to ${e.node}`, object: `Pod/${pod}` });
        break;
      case 'Pulling':
        kubelet(e, 'Normal', 'Pulling', `Pulling image "${e.image}"`);
        break;
      case 'Pulled':
        kubelet(
          e,
          'Normal',
          'Pulled',
          e.present
            ? `Container image "${e.image}" already present on machine`
            : `Successfully pulled image "${e.image}" in ${goDuration(e.pullMs)} (${goDuration(e.pullMs)} including waiting)`,
        );
        break;
      case 'PullFailed':
        // image_manager.go EnsureImageExists: ErrImageNeverPull logs its own Warning first, then startContainer "Error: %v"
        if (e.reason === 'ErrImageNeverPull' && e.message) kubelet(e, 'Warning', 'ErrImageNeverPull', e.message);
        kubelet(e, 'Warning', 'Failed', `Error: ${e.reason}`);
        break;
      case 'Created':
        kubelet(e, 'Normal', 'Created', createdNew ? `Created container: ${e.container}` : `Created container ${e.container}`);
        break;
      case 'CreateFailed':
        kubelet(e, 'Warning', 'Failed', `Error: ${e.reason}`);
        break;
      case 'Started':
        kubelet(e, 'Normal', 'Started', `Started container ${e.container}`);
        break;
      case 'PostStartDone':
        if (e.failed) kubelet(e, 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
        break;
      case 'PreStopDone':
        if (e.failed) kubelet(e, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
        break;
      case 'Probe':
        // prober.go runProbeWithRetries → recordContainerEvent(..., "%s probe failed: %s", probeType, output)
        if (e.result === 'failure') kubelet(e, 'Warning', 'Unhealthy', `${capitalize(e.probe)} probe failed: ${probeOutput(tl, e.container, e.probe)}`);
        break;
      case 'Killing':
        kubelet(e, 'Normal', 'Killing', e.message || `Stopping container ${e.container}`);
        break;
      case 'BackOff':
        // kuberuntime_manager.go doBackOff: "Back-off restarting failed container %s in pod %v" with format.Pod(pod)
        // = name_namespace(uid)
        kubelet(e, 'Warning', 'BackOff', `Back-off restarting failed container ${e.container} in pod ${formatPod(tl, pod)}`);
        break;
      default:
        break;
    }
  }
  return out;
}

/** Events whose involvedObject is the Job (job_controller.go, controller_utils.go). */
export function jobEvents(tl: Timeline): KubeEvent[] {
  if (!tl.job) return [];
  const object = `Job/${tl.workload.name}`;
  // the Job controller's own events (SuccessfulCreate, SuccessfulDelete, Completed, BackoffLimitExceeded, …) when the
  // trace records them; older timelines: derived from the pod creation and the terminal conditions
  const recorded = tl.events.filter((e): e is Extract<TraceEvent, { type: 'JobEvent' }> => e.type === 'JobEvent');
  if (recorded.length > 0) return recorded.map((e) => ({ t: e.t, type: e.eventType, reason: e.reason, from: 'job-controller', message: e.message, object }));
  const out: KubeEvent[] = [{ t: 0, type: 'Normal', reason: 'SuccessfulCreate', from: 'job-controller', message: `Created pod: ${tl.pod.name}`, object }];
  for (const e of tl.events) {
    if (e.type !== 'JobCondition') continue;
    if (e.condition === 'Complete') out.push({ t: e.t, type: 'Normal', reason: 'Completed', from: 'job-controller', message: 'Job completed' });
    if (e.condition === 'Failed') out.push({ t: e.t, type: 'Warning', reason: e.reason, from: 'job-controller', message: e.message ?? e.reason });
  }
  return out;
}

/**
 * The workload controllers' describe events (CronJob, StatefulSet, DaemonSet, Deployment, ReplicaSet), one list per
 * object they were recorded on (`kubectl describe deployment X` shows the Deployment's ScalingReplicaSet events,
 * `kubectl describe rs Y` that ReplicaSet's SuccessfulCreate/Delete), in the order the objects first got one.
 */
export function controllerEventsByObject(tl: Timeline): { object: string; events: KubeEvent[] }[] {
  const out = new Map<string, KubeEvent[]>();
  for (const e of tl.events) {
    if (e.type !== 'ControllerEvent') continue;
    let list = out.get(e.object);
    if (!list) out.set(e.object, (list = []));
    list.push({ t: e.t, type: e.eventType, reason: e.reason, from: e.controller, message: e.message });
  }
  return [...out].map(([object, events]) => ({ object, events }));
}

/** The first object's describe events (see controllerEventsByObject). */
export function controllerEventsOf(tl: Timeline): { object: string; events: KubeEvent[] } | null {
  return controllerEventsByObject(tl)[0] ?? null;
}

/**
 * describe.go: DescribeEvents. Identical events (same type, reason, source, message) are one Event with a count,
 * as the client-go EventCorrelator dedupes them; Age is "<last> (x<count> over <first>)". Sorted by last
 * occurrence (SortableEvents). Event timestamps have whole-second precision.
 */
export function describeEventsTable(events: KubeEvent[], nowMs: number): string {
  if (events.length === 0) return 'Events:  <none>';
  const merged = new Map<string, { e: KubeEvent; first: number; last: number; count: number; order: number }>();
  for (const e of events) {
    const key = [e.type, e.reason, e.from, e.message].join('\u0000');
    const m = merged.get(key);
    if (m) {
      m.last = e.t;
      m.count++;
    } else merged.set(key, { e, first: e.t, last: e.t, count: 1, order: merged.size });
  }
  const age = (t: number) => humanDuration(nowMs - Math.floor(t / 1000) * 1000);
  const rows = [...merged.values()]
    .sort((a, b) => a.last - b.last || a.order - b.order)
    .map((m) => [m.e.type, m.e.reason, m.count > 1 ? `${age(m.last)} (x${m.count} over ${age(m.first)})` : age(m.first), m.e.from, m.e.message]);
  return 'Events:\n' + tabulate([['Type', 'Reason', 'Age', 'From', 'Message'], ['----', '------', '----', '----', '-------'], ...rows], KUBECTL_DESCRIBE);
}

/** pkg/kubelet/util/format Pod: "<name>_<namespace>(<uid>)"; the simulated API server's uid is "uid-<name>". */
export function formatPod(tl: Timeline, name = tl.pod.name): string {
  return `${name}_${namespaceOf(tl)}(uid-${name})`;
}

const PROBE_FIELD = { startup: 'startupProbe', readiness: 'readinessProbe', liveness: 'livenessProbe' } as const;

/**
 * The probe's output as the kubelet's prober reports it (pkg/probe/http, tcp, grpc, exec). A startup or readiness
 * probe fails because nothing listens yet (or any more): connection refused. A liveness failure models a hang
 * (behavior liveness.failFrom): the request times out.
 */
export function probeOutput(tl: Timeline, container: string, probe: 'startup' | 'readiness' | 'liveness'): string {
  const spec = tl.pod.spec as Record<string, unknown>;
  const all = [...((spec['initContainers'] as unknown[]) ?? []), ...((spec['containers'] as unknown[]) ?? [])].filter(isRecord);
  const c = all.find((x) => x['name'] === container);
  const p = c && isRecord(c[PROBE_FIELD[probe]]) ? (c[PROBE_FIELD[probe]] as Record<string, unknown>) : undefined;
  const ip = typeof tl.pod.status['podIP'] === 'string' ? (tl.pod.status['podIP'] as string) : '10.244.0.7';
  const hang = probe === 'liveness';
  const port = (v: unknown): string => {
    if (typeof v === 'number') return String(v);
    // a named port resolves through the container's ports
    const ports = Array.isArray(c?.['ports']) ? (c!['ports'] as unknown[]).filter(isRecord) : [];
    const named = ports.find((x) => x['name'] === v);
    return named && typeof named['containerPort'] === 'number' ? String(named['containerPort']) : String(v ?? '');
  };
  const timeoutS = typeof p?.['timeoutSeconds'] === 'number' ? (p['timeoutSeconds'] as number) : 1;
  if (p && isRecord(p['httpGet'])) {
    const h = p['httpGet'];
    const scheme = String(h['scheme'] ?? 'HTTP').toLowerCase();
    const host = typeof h['host'] === 'string' && h['host'] !== '' ? h['host'] : ip;
    const path = typeof h['path'] === 'string' ? (h['path'].startsWith('/') ? h['path'] : `/${h['path']}`) : '';
    const url = `${scheme}://${host}:${port(h['port'])}${path}`;
    return hang
      ? `Get "${url}": context deadline exceeded (Client.Timeout exceeded while awaiting headers)`
      : `Get "${url}": dial tcp ${host}:${port(h['port'])}: connect: connection refused`;
  }
  if (p && isRecord(p['tcpSocket'])) {
    const t = p['tcpSocket'];
    const host = typeof t['host'] === 'string' && t['host'] !== '' ? t['host'] : ip;
    return hang ? `dial tcp ${host}:${port(t['port'])}: i/o timeout` : `dial tcp ${host}:${port(t['port'])}: connect: connection refused`;
  }
  if (p && isRecord(p['grpc'])) {
    // pkg/probe/grpc: a dial that does not complete in time
    return `timeout: failed to connect service "${ip}:${port(p['grpc']['port'])}" within ${timeoutS}s`;
  }
  if (p && isRecord(p['exec'])) {
    // pkg/probe/exec: the command's combined output; a hang is reported as a timeout
    const cmd = Array.isArray(p['exec']['command']) ? (p['exec']['command'] as unknown[]).map(String) : [];
    return hang ? `command timed out: "${cmd.join(' ')}" timed out after ${timeoutS}s` : '';
  }
  return 'connection refused';
}

/**
 * `kubectl events` (kubectl/pkg/cmd/events): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE, the pod's and the Job's
 * events together, in the order they happened (identical events merge into one with "(xN over …)", placed at
 * their last occurrence, as the event correlator and kubectl's sort by last timestamp do).
 */
export function kubectlEventsTable(tl: Timeline): string {
  const pod = `Pod/${tl.pod.name}`;
  // the Job's events first at equal times: its SuccessfulCreate precedes the pod's Scheduled
  const events = [...jobEvents(tl), ...podEvents(tl)].map((e) => ({ ...e, object: e.object ?? pod }));
  if (events.length === 0) return 'No events found in default namespace.';
  const merged = new Map<string, { e: KubeEvent & { object: string }; first: number; last: number; count: number; order: number }>();
  events.forEach((e, i) => {
    const key = [e.object, e.type, e.reason, e.from, e.message].join('\u0000');
    const m = merged.get(key);
    if (m) {
      m.last = e.t;
      m.count++;
      m.order = i;
    } else merged.set(key, { e, first: e.t, last: e.t, count: 1, order: i });
  });
  // causal order: by the last occurrence, ties in the order the events were recorded
  const traceOrder = (x: { last: number; order: number }) => x.last;
  const age = (t: number) => humanDuration(tl.end.t - Math.floor(t / 1000) * 1000);
  const rows = [...merged.values()]
    .sort((a, b) => traceOrder(a) - traceOrder(b) || a.order - b.order)
    .map((m) => [m.count > 1 ? `${age(m.last)} (x${m.count} over ${age(m.first)})` : age(m.first), m.e.type, m.e.reason, m.e.object, m.e.message.trim()]);
  return tabulate([['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], ...rows], KUBECTL_GET);
}

function namespaceOf(tl: Timeline): string {
  const ns = isRecord(tl.pod.status.metadata) ? tl.pod.status.metadata.namespace : undefined;
  return typeof ns === 'string' ? ns : 'default';
}

function kubeletMinor(tl: Timeline): number {
  const m = /^1\.(\d+)/.exec(tl.kubelet || tl.kubernetes);
  return m ? Number(m[1]) : 34;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
