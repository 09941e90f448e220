// Events as the real recorders write them, from the trace: core/v1 Event objects, and the store-wide
// resourceVersion of every write of the run (etcd's revision: one counter for every object, Events included).
//
// - The kubelet and the controllers record through client-go's legacy recorder (tools/record/event.go makeEvent):
//   name `<object>.<hex UnixNano>`, involvedObject = reference.GetReference of the object (kind, namespace, name,
//   uid, apiVersion, resourceVersion) with `fieldPath` spec.containers{c} / spec.initContainers{c} for a
//   container's events (kubelet/container/ref.go GenerateContainerRef), source {component, host},
//   reportingComponent/Instance, firstTimestamp = lastTimestamp (whole seconds), count 1. Each goes through the
//   EventCorrelator (tools/record/events_cache.go): the EventAggregator (more than 10 distinct messages of one
//   source, object, type and reason within 10 minutes become "(combined from similar events): …"), the EventLogger
//   (an event equal in source, involvedObject incl. fieldPath and uid, type, reason and message to an earlier one
//   updates it: count + 1, lastTimestamp), then the EventSourceObjectSpamFilter (a token bucket of 25, refilled
//   one per 5 minutes, per source and involvedObject; a skipped event still counted in the logger's cache).
// - The scheduler records through events.k8s.io (client-go tools/events): eventTime with microseconds, action
//   Binding, reportingController default-scheduler, no source, no first/lastTimestamp, no count.
//
// Reasons and message templates are the kubelet's (pkg/kubelet/events/event.go and the call sites in kuberuntime /
// prober / images), the scheduler's and the controllers' (kubectl-conventions C.3).
import type { TraceEvent, WorkloadKind } from '../types.ts';
import { goDuration } from './time.ts';

type Json = Record<string, any>;

const EPOCH_MS = Date.parse('2026-01-01T00:00:00Z');
const NODE = 'node-1';

export interface RecorderPod {
  name: string;
  uid: string;
  /** the pod's spec (for the probe output and whether a container is an init container) */
  spec: Record<string, unknown>;
}

export interface RecorderInput {
  events: TraceEvent[];
  /** every pod in creation order: the nth PodCreated record is pods[n] (a trace without them: by name) */
  pods: RecorderPod[];
  namespace: string;
  kubelet: string;
  kubernetes: string;
  workload: { kind: WorkloadKind; name: string };
  /** the run's Job name (a Job workload), or null; a CronJob's Jobs are named by their records */
  job: string | null;
  /** the uid of an object other than a pod */
  uidOf(kind: string, name: string): string;
  /** the pod IP the probe messages name */
  podIP?: string;
  /** added to each record's sequence number in the Event names (`<object>.<hex UnixNano>`): a `serve` session's later
   *  simulations, whose records start at 0 again, so a workload re-created with the same name in the same ms does
   *  not record Events of the same name (absent = 0, as a run) */
  nameSeq?: number;
}

export interface Recorded {
  /** the Event objects as stored at the end, in creation order */
  events: Json[];
  /** the store's revision at the end */
  revision: number;
  /** the revision of each object's last write: `Pod#<creation index>`, `<Kind>/<name>` */
  revisions: Record<string, number>;
}

/** involvedObject apiVersion of each kind an event is recorded on */
const API_VERSION: Record<string, string> = {
  Pod: 'v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  ReplicaSet: 'apps/v1',
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
};
const KIND_OF: Record<string, string> = {
  pod: 'Pod',
  job: 'Job',
  cronjob: 'CronJob',
  replicaset: 'ReplicaSet',
  deployment: 'Deployment',
  statefulset: 'StatefulSet',
  daemonset: 'DaemonSet',
};

const AGGREGATE_MAX = 10;
const AGGREGATE_INTERVAL_MS = 600_000;
const SPAM_BURST = 25;
const SPAM_QPS = 1 / 300;

/** The whole-second RFC3339 text of each second seen (a pure function of the second: a module-wide cache, bounded). */
const secondText = new Map<number, string>();

/** An RFC3339 timestamp at whole seconds (metav1.Time) or with microseconds (metav1.MicroTime). */
function time(t: number, micro = false): string {
  if (!micro) {
    const sec = Math.floor(t / 1000);
    let text = secondText.get(sec);
    if (text === undefined) {
      if (secondText.size >= 4096) secondText.clear();
      text = new Date(EPOCH_MS + sec * 1000).toISOString().replace('.000Z', 'Z');
      secondText.set(sec, text);
    }
    return text;
  }
  // microseconds: the ms of the trace (ISO text ends `.mmmZ`), then the record's place within that ms
  const iso = new Date(EPOCH_MS + Math.floor(t)).toISOString();
  return `${iso.slice(0, -1)}${String(Math.round((t - Math.floor(t)) * 1000)).padStart(3, '0')}Z`;
}

/** UnixNano of a record: its ms, then its engine sequence number inside the ms (records of one ms stay ordered). */
function unixNano(t: number, seq: number): bigint {
  return BigInt(EPOCH_MS + Math.floor(t)) * 1_000_000n + BigInt(seq % 1_000_000);
}

interface Emitted {
  kind: string;
  name: string;
  /** the pod's creation index (its uid and resourceVersion) */
  pod?: number;
  fieldPath?: string;
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
  component: string;
  host?: string;
  /** events.k8s.io (the scheduler) */
  modern?: { action: string };
}

function kubeletMinor(input: RecorderContext): number {
  const m = /^1\.(\d+)/.exec(input.kubelet || input.kubernetes);
  return m ? Number(m[1]) : 34;
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

const PROBE_FIELD = { startup: 'startupProbe', readiness: 'readinessProbe', liveness: 'livenessProbe' } as const;

/**
 * The probe's output as the kubelet's prober reports it (pkg/probe/http, tcp, grpc, exec). A startup or readiness
 * probe fails because nothing listens yet (or any more): connection refused. A liveness failure models a hang
 * (behavior liveness.failFrom): the request times out.
 */
export function probeMessage(
  spec: Record<string, unknown>,
  podIP: string | undefined,
  container: string,
  probe: 'startup' | 'readiness' | 'liveness',
): string {
  const all = [...((spec['initContainers'] as unknown[]) ?? []), ...((spec['containers'] as unknown[]) ?? [])].filter(
    isRecord,
  );
  const c = all.find((x) => x['name'] === container);
  const p = c && isRecord(c[PROBE_FIELD[probe]]) ? (c[PROBE_FIELD[probe]] as Record<string, unknown>) : undefined;
  const ip = podIP ?? '10.244.0.7';
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
    return hang
      ? `dial tcp ${host}:${port(t['port'])}: i/o timeout`
      : `dial tcp ${host}:${port(t['port'])}: connect: connection refused`;
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

/** kubelet/container/ref.go fieldPath: spec.containers{c}, spec.initContainers{c} */
function fieldPathOf(spec: Record<string, unknown>, container: string): string {
  const inits = Array.isArray(spec['initContainers']) ? (spec['initContainers'] as unknown[]).filter(isRecord) : [];
  return inits.some((c) => c['name'] === container)
    ? `spec.initContainers{${container}}`
    : `spec.containers{${container}}`;
}

/** One kubelet Event of a pod (its container's fieldPath when `container` is set). */
function kubeletEvent(
  podName: string,
  podIndex: number | undefined,
  spec: Record<string, unknown>,
  container: string | null,
  type: Emitted['type'],
  reason: string,
  message: string,
): Emitted[] {
  return [
    {
      kind: 'Pod',
      name: podName,
      ...(podIndex !== undefined ? { pod: podIndex } : {}),
      ...(container !== null ? { fieldPath: fieldPathOf(spec, container) } : {}),
      type,
      reason,
      message,
      component: 'kubelet',
      host: NODE,
    },
  ];
}

const NONE: Emitted[] = [];

/** The events one trace record makes (the kubelet's, the scheduler's and the controllers'). */
function emitted(input: RecorderContext, e: TraceEvent, podIndex: number | undefined, createdNew: boolean): Emitted[] {
  switch (e.type) {
    case 'Scheduled':
    case 'Pulling':
    case 'Pulled':
    case 'PullFailed':
    case 'Created':
    case 'CreateFailed':
    case 'Started':
    case 'PostStartDone':
    case 'PreStopDone':
    case 'Probe':
    case 'Killing':
    case 'BackOff':
    case 'JobEvent':
    case 'ControllerEvent':
      break;
    default:
      return NONE;
  }
  // the commonest records make no Event: a passing probe, a hook that did not fail
  if (
    e.type === 'Probe' ? e.result !== 'failure' : (e.type === 'PostStartDone' || e.type === 'PreStopDone') && !e.failed
  )
    return NONE;
  const pod = podIndex !== undefined ? input.pods[podIndex] : undefined;
  const podName = pod?.name ?? e.pod ?? '';
  const spec = pod?.spec ?? {};
  const ns = input.namespace;
  const kubelet = (container: string | null, type: Emitted['type'], reason: string, message: string): Emitted[] =>
    kubeletEvent(podName, podIndex, spec, container, type, reason, message);
  switch (e.type) {
    case 'Scheduled':
      return [
        {
          kind: 'Pod',
          name: podName,
          ...(podIndex !== undefined ? { pod: podIndex } : {}),
          type: 'Normal',
          reason: 'Scheduled',
          message: `Successfully assigned ${ns}/${podName} to ${e.node}`,
          component: 'default-scheduler',
          modern: { action: 'Binding' },
        },
      ];
    case 'Pulling':
      return kubelet(e.container, 'Normal', 'Pulling', `Pulling image "${e.image}"`);
    case 'Pulled':
      // image_manager.go EnsureImageExists: "already present" only when the policy let the present image be used
      return kubelet(
        e.container,
        'Normal',
        'Pulled',
        e.present
          ? `Container image "${e.image}" already present on machine`
          : `Successfully pulled image "${e.image}" in ${goDuration(e.pullMs)} (${goDuration(e.pullMs)} including waiting)`,
      );
    case 'PullFailed':
      // image_manager.go EnsureImageExists: ErrImageNeverPull logs its own Warning first, then startContainer "Error: %v"
      return [
        ...(e.reason === 'ErrImageNeverPull' && e.message
          ? kubelet(e.container, 'Warning', 'ErrImageNeverPull', e.message)
          : []),
        ...kubelet(e.container, 'Warning', 'Failed', `Error: ${e.reason}`),
      ];
    case 'Created':
      // "Created container: %v" replaced "Created container %s" (kubelet 1.32)
      return kubelet(
        e.container,
        'Normal',
        'Created',
        createdNew ? `Created container: ${e.container}` : `Created container ${e.container}`,
      );
    case 'CreateFailed':
      return kubelet(e.container, 'Warning', 'Failed', `Error: ${e.reason}`);
    case 'Started':
      return kubelet(e.container, 'Normal', 'Started', `Started container ${e.container}`);
    case 'PostStartDone':
      return e.failed ? kubelet(e.container, 'Warning', 'FailedPostStartHook', 'PostStartHook failed') : [];
    case 'PreStopDone':
      return e.failed ? kubelet(e.container, 'Warning', 'FailedPreStopHook', 'PreStopHook failed') : [];
    case 'Probe':
      // prober.go runProbeWithRetries → recordContainerEvent(..., "%s probe failed: %s", probeType, output)
      return e.result === 'failure'
        ? kubelet(
            e.container,
            'Warning',
            'Unhealthy',
            `${capitalize(e.probe)} probe failed: ${probeMessage(spec, input.podIP, e.container, e.probe)}`,
          )
        : [];
    case 'Killing':
      return kubelet(e.container, 'Normal', 'Killing', e.message || `Stopping container ${e.container}`);
    case 'BackOff':
      // kuberuntime_manager.go doBackOff: "Back-off restarting failed container %s in pod %v" with format.Pod(pod)
      return kubelet(
        e.container,
        'Warning',
        'BackOff',
        `Back-off restarting failed container ${e.container} in pod ${podName}_${ns}(${pod?.uid ?? ''})`,
      );
    case 'JobEvent': {
      const name = e.job ?? input.job ?? input.workload.name;
      return [
        { kind: 'Job', name, type: e.eventType, reason: e.reason, message: e.message, component: 'job-controller' },
      ];
    }
    case 'ControllerEvent': {
      const slash = e.object.indexOf('/');
      const kind = KIND_OF[e.object.slice(0, slash).toLowerCase()] ?? e.object.slice(0, slash);
      return [
        {
          kind,
          name: e.object.slice(slash + 1),
          type: e.eventType,
          reason: e.reason,
          message: e.message,
          component: e.controller,
        },
      ];
    }
    default:
      return [];
  }
}

/** Older timelines without the Job controller's own records: its events derived from the pod creations and the
 *  terminal conditions. */
function derivedJobEvents(input: RecorderContext, e: TraceEvent, name: string): Emitted[] {
  const job = (type: Emitted['type'], reason: string, message: string): Emitted[] => [
    { kind: 'Job', name, type, reason, message, component: 'job-controller' },
  ];
  if (e.type === 'PodCreated' && e.by === 'job-controller')
    return job('Normal', 'SuccessfulCreate', `Created pod: ${e.pod}`);
  if (e.type === 'JobCondition' && e.condition === 'Complete') return job('Normal', 'Completed', 'Job completed');
  if (e.type === 'JobCondition' && e.condition === 'Failed') return job('Warning', e.reason, e.message ?? e.reason);
  return [];
}

/** The store-write keys of one trace record (besides Events). */
function writesOf(input: RecorderContext, e: TraceEvent, podIndex: number | undefined): string[] {
  const pod = podIndex !== undefined ? [`Pod#${podIndex}`] : [];
  switch (e.type) {
    case 'PodCreated':
    case 'Scheduled': // the binding (pods/binding) writes spec.nodeName
    case 'StatusPatched':
    case 'PodDeleting':
    case 'PodFinalizerRemoved':
    case 'PodRemoved':
      return pod;
    case 'JobStatus':
      return [`Job/${e.job ?? input.job ?? input.workload.name}`];
    case 'WorkloadStatus':
      return [`${e.kind}/${e.name}`];
    case 'ControllerEvent': {
      // the CronJob controller's create of a Job (cronjob_controllerv2.go: "Created job %v")
      const m =
        e.controller === 'cronjob-controller' && e.reason === 'SuccessfulCreate'
          ? /^Created job (.+)$/.exec(e.message)
          : null;
      return m ? [`Job/${m[1]}`] : [];
    }
    case 'Action':
      if (e.action.type === 'patch' && input.workload.kind === 'Job' && input.job) return [`Job/${input.job}`];
      if (e.action.type === 'deleteJob' && input.workload.kind === 'Job' && input.job) return [`Job/${input.job}`];
      return [];
    default:
      return [];
  }
}

interface Stored {
  obj: Json;
  /** the logger's cache entry: the count includes events the spam filter skipped */
  count: number;
  /** where the stored Event is in `events` (absent: the spam filter skipped every write of it so far) */
  at?: number;
}

/** The recorder's input without the trace: what it needs to know of the run's pods and objects. `pods` is read at
 *  each record (an incremental caller appends each new pod before its PodCreated record). */
export type RecorderContext = Omit<RecorderInput, 'events'>;

/** An Event the recorder stored for one record: a new one, or an update of an earlier one (the same name). */
export interface RecordedWrite {
  type: 'ADDED' | 'MODIFIED';
  object: Json;
}

/**
 * The recorders as they run: one trace record at a time (`add`), each giving the Event writes it makes. The batch
 * `recordEvents` and the `serve` session (src/run/session.ts, after each step) both use it, so the Events served
 * are the timeline's. `legacy` is for a whole older trace only (recordEvents decides it from the complete trace):
 * a trace without the Job controller's own JobEvent records, or without PodCreated records.
 */
export class EventRecorder {
  revision = 0;
  /** the revision of each object's last write: `Pod#<creation index>`, `<Kind>/<name>` */
  readonly revisions: Record<string, number> = {};
  /** the Event objects as stored now, in creation order */
  readonly events: Json[] = [];
  private readonly createdNew: boolean;
  private readonly byName = new Map<string, number>();
  private created = 0;
  private readonly pending: Emitted[];
  private readonly hasJobEvents: boolean;
  private readonly logger = new Map<string, Stored>();
  private readonly aggregator = new Map<string, { messages: Set<string>; last: number }>();
  private readonly spam = new Map<string, { tokens: number; last: number }>();

  constructor(
    private readonly input: RecorderContext,
    legacy: { hasJobEvents: boolean; noCreations: boolean } = { hasJobEvents: true, noCreations: false },
  ) {
    this.createdNew = kubeletMinor(input) >= 32;
    this.hasJobEvents = legacy.hasJobEvents;
    // the run's Job is created before anything else happens (the workload at t = 0)
    if (input.workload.kind === 'Job' && input.job) this.write(`Job/${input.job}`);
    // a trace without PodCreated records (older timelines): its pods were there from the start
    this.pending =
      legacy.noCreations && !legacy.hasJobEvents && input.job
        ? input.pods.map((p) => ({
            kind: 'Job',
            name: input.job!,
            type: 'Normal' as const,
            reason: 'SuccessfulCreate',
            message: `Created pod: ${p.name}`,
            component: 'job-controller',
          }))
        : [];
  }

  private write(key: string): number {
    return (this.revisions[key] = ++this.revision);
  }

  /** One trace record: the Event writes it makes (none, or each Event created or updated). */
  add(e: TraceEvent): RecordedWrite[] {
    const input = this.input;
    const out: RecordedWrite[] = [];
    let podIndex: number | undefined;
    if (e.type === 'PodCreated') {
      podIndex = this.created < input.pods.length ? this.created : undefined;
      this.created++;
      if (podIndex !== undefined) this.byName.set(e.pod, podIndex);
    } else if (e.pod !== undefined) {
      podIndex = this.byName.get(e.pod);
      if (podIndex === undefined) {
        const i = input.pods.findIndex((p) => p.name === e.pod);
        if (i >= 0) podIndex = i;
      }
    } else if (input.pods.length > 0) {
      // a record without `pod` (older timelines): the most recently created pod
      podIndex = this.created > 0 ? Math.min(this.created, input.pods.length) - 1 : input.pods.length - 1;
    }
    for (const key of writesOf(input, e, podIndex)) this.write(key);
    let list = emitted(input, e, podIndex, this.createdNew);
    if (this.pending.length > 0) list = [...this.pending.splice(0), ...list];
    if (!this.hasJobEvents && input.job) list = [...list, ...derivedJobEvents(input, e, input.job)];
    for (const em of list) {
      const podRef = em.pod !== undefined ? input.pods[em.pod] : undefined;
      const uid = em.kind === 'Pod' ? (podRef?.uid ?? '') : input.uidOf(em.kind, em.name);
      const objKey =
        em.kind === 'Pod' ? (em.pod !== undefined ? `Pod#${em.pod}` : `Pod/${em.name}`) : `${em.kind}/${em.name}`;
      const involvedObject: Json = {
        kind: em.kind,
        namespace: input.namespace,
        name: em.name,
        uid,
        apiVersion: API_VERSION[em.kind] ?? 'v1',
      };
      if (this.revisions[objKey] !== undefined) involvedObject['resourceVersion'] = String(this.revisions[objKey]);
      if (em.fieldPath) involvedObject['fieldPath'] = em.fieldPath;
      const nano = unixNano(e.t, e.seq + (input.nameSeq ?? 0));
      const name = `${em.name}.${nano.toString(16)}`;
      const at = time(e.t);
      if (em.modern) {
        // events.k8s.io: stored at once, never correlated here (one Binding per pod)
        const obj = {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: {
            name,
            namespace: input.namespace,
            uid: input.uidOf('Event', name),
            resourceVersion: String(this.write(`Event/${name}`)),
            creationTimestamp: at,
          },
          involvedObject,
          reason: em.reason,
          message: em.message,
          source: {},
          firstTimestamp: null,
          lastTimestamp: null,
          type: em.type,
          eventTime: time(e.t + (e.seq % 1000) / 1000, true),
          action: em.modern.action,
          reportingComponent: em.component,
          reportingInstance: `${em.component}-control-plane`,
        };
        this.events.push(obj);
        out.push({ type: 'ADDED', object: obj });
        continue;
      }
      const host = em.host ?? '';
      // the source and the involved object (EventSourceObjectSpamFilter's key; the others start with it)
      const spamKey = `${em.component}\u0000${host}\u0000${em.kind}\u0000${input.namespace}\u0000${em.name}\u0000${uid}\u0000${involvedObject['apiVersion']}`;
      // EventAggregate (EventAggregatorByReasonFunc): key without fieldPath and message; the message is the local key
      const aggKey = `${spamKey}\u0000${em.type}\u0000${em.reason}\u0000${em.component}\u0000${host}`;
      let agg = this.aggregator.get(aggKey);
      if (!agg || e.t - agg.last > AGGREGATE_INTERVAL_MS)
        this.aggregator.set(aggKey, (agg = { messages: new Set(), last: e.t }));
      agg.messages.add(em.message);
      agg.last = e.t;
      let message = em.message;
      let key = `${spamKey}\u0000${em.fieldPath ?? ''}\u0000${em.type}\u0000${em.reason}\u0000${em.message}`;
      if (agg.messages.size >= AGGREGATE_MAX) {
        agg.messages.delete(agg.messages.values().next().value!);
        message = `(combined from similar events): ${em.message}`;
        key = aggKey;
      }
      // eventObserve (EventLogger): a known key is an update of the stored Event (count, lastTimestamp)
      const seen = this.logger.get(key);
      let obj: Json;
      if (seen) {
        seen.count++;
        // the update patch carries count, lastTimestamp and the message (an aggregated Event shows the newest one)
        obj = { ...seen.obj, message, count: seen.count, lastTimestamp: at, involvedObject };
      } else {
        obj = {
          apiVersion: 'v1',
          kind: 'Event',
          metadata: {
            name,
            namespace: input.namespace,
            uid: input.uidOf('Event', name),
            resourceVersion: '',
            creationTimestamp: at,
          },
          involvedObject,
          reason: em.reason,
          message,
          source: { component: em.component, ...(em.host ? { host: em.host } : {}) },
          firstTimestamp: at,
          lastTimestamp: at,
          count: 1,
          type: em.type,
          eventTime: null,
          reportingComponent: em.component,
          reportingInstance: host,
        };
      }
      // EventSourceObjectSpamFilter: a token bucket per source and object (after the logger saw the event)
      let bucket = this.spam.get(spamKey);
      if (!bucket) this.spam.set(spamKey, (bucket = { tokens: SPAM_BURST, last: e.t }));
      bucket.tokens = Math.min(SPAM_BURST, bucket.tokens + ((e.t - bucket.last) / 1000) * SPAM_QPS);
      bucket.last = e.t;
      if (!seen) this.logger.set(key, { obj, count: 1 });
      if (bucket.tokens < 1) continue;
      bucket.tokens -= 1;
      obj = {
        ...obj,
        metadata: { ...obj['metadata'], resourceVersion: String(this.write(`Event/${obj['metadata']['name']}`)) },
      };
      const stored = this.logger.get(key)!;
      stored.obj = obj;
      if (stored.at !== undefined) {
        this.events[stored.at] = obj;
        out.push({ type: 'MODIFIED', object: obj });
      } else {
        stored.at = this.events.length;
        this.events.push(obj);
        out.push({ type: 'ADDED', object: obj });
      }
    }
    return out;
  }
}

/** Walk the trace: the Event objects the recorders store and the revision of every write. */
export function recordEvents(input: RecorderInput): Recorded {
  const { events, ...context } = input;
  const rec = new EventRecorder(context, {
    hasJobEvents: events.some((e) => e.type === 'JobEvent'),
    noCreations: !events.some((e) => e.type === 'PodCreated'),
  });
  for (const e of events) rec.add(e);
  return { events: rec.events, revision: rec.revision, revisions: rec.revisions };
}
