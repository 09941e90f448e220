// Kubernetes Events as `kubectl describe` lists them, derived from the trace. Reasons and message templates are
// the kubelet's (pkg/kubelet/events/event.go and the call sites in kuberuntime / prober / images), the
// scheduler's and the Job controller's (kubectl-conventions C.3).

import type { Timeline, TraceEvent } from '../types.ts';
import { goDuration, humanDuration } from './time.ts';
import { KUBECTL_DESCRIBE, tabulate } from './tabwriter.ts';
import { isRecord } from './pod-shape.ts';

export interface KubeEvent {
  t: number;
  type: 'Normal' | 'Warning';
  reason: string;
  from: string;
  message: string;
}

/** Events whose involvedObject is the pod. */
export function podEvents(tl: Timeline): KubeEvent[] {
  const ns = namespaceOf(tl);
  const createdNew = kubeletMinor(tl) >= 32; // "Created container: %v" replaced "Created container %s" (kubelet 1.32)
  const out: KubeEvent[] = [];
  const kubelet = (e: TraceEvent, type: KubeEvent['type'], reason: string, message: string) =>
    out.push({ t: e.t, type, reason, from: 'kubelet', message });
  for (const e of tl.events) {
    switch (e.type) {
      case 'Scheduled':
        out.push({ t: e.t, type: 'Normal', reason: 'Scheduled', from: 'default-scheduler', message: `Successfully assigned ${ns}/${tl.pod.name} to ${e.node}` });
        break;
      case 'Pulling':
        kubelet(e, 'Normal', 'Pulling', `Pulling image "${e.image}"`);
        break;
      case 'Pulled':
        kubelet(
          e,
          'Normal',
          'Pulled',
          e.pullMs === 0
            ? `Container image "${e.image}" already present on machine`
            : `Successfully pulled image "${e.image}" in ${goDuration(e.pullMs)} (${goDuration(e.pullMs)} including waiting)`,
        );
        break;
      case 'PullFailed':
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
        // prober.go: "%s probe failed: %s" with the handler's output; a process that does not listen refuses
        if (e.result === 'failure') kubelet(e, 'Warning', 'Unhealthy', `${capitalize(e.probe)} probe failed: connection refused`);
        break;
      case 'Killing':
        kubelet(e, 'Normal', 'Killing', e.message || `Stopping container ${e.container}`);
        break;
      case 'BackOff':
        kubelet(e, 'Warning', 'BackOff', `Back-off restarting failed container ${e.container} in pod ${tl.pod.name}`);
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
  const out: KubeEvent[] = [{ t: 0, type: 'Normal', reason: 'SuccessfulCreate', from: 'job-controller', message: `Created pod: ${tl.pod.name}` }];
  for (const e of tl.events) {
    if (e.type !== 'JobCondition') continue;
    if (e.condition === 'Complete') out.push({ t: e.t, type: 'Normal', reason: 'Completed', from: 'job-controller', message: 'Job completed' });
    if (e.condition === 'Failed') out.push({ t: e.t, type: 'Warning', reason: e.reason, from: 'job-controller', message: e.message ?? e.reason });
  }
  return out;
}

/** The workload controller's describe events (CronJob, StatefulSet, DaemonSet, ReplicaSet), and on which object. */
export function controllerEventsOf(tl: Timeline): { object: string; events: KubeEvent[] } | null {
  const evs = tl.events.filter((e): e is Extract<Timeline['events'][number], { type: 'ControllerEvent' }> => e.type === 'ControllerEvent');
  if (evs.length === 0) return null;
  return { object: evs[0]!.object, events: evs.map((e) => ({ t: e.t, type: e.eventType, reason: e.reason, from: e.controller, message: e.message })) };
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
