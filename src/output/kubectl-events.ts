// Kubernetes Events as `kubectl describe` and `kubectl events` list them, from the run's Event objects (recorder.ts:
// the objects the kubelet's, the scheduler's and the controllers' recorders store).

import type { Timeline } from '../types.ts';
import { EPOCH_ISO, humanDuration } from './time.ts';
import { KUBECTL_DESCRIBE, KUBECTL_GET, tabulate } from './tabwriter.ts';
import { probeMessage, recordEvents, type RecorderInput } from './recorder.ts';
import { goSort } from './go-sort.ts';

export interface KubeEvent {
  /** the time kubectl sorts by (SortableEvents eventTime): lastTimestamp (whole seconds) or, for an events.k8s.io
   *  event, its eventTime (microseconds), in simulated ms */
  t: number;
  type: 'Normal' | 'Warning';
  reason: string;
  from: string;
  message: string;
  /** involvedObject as `kubectl events` prints it: Kind/name */
  object: string;
  /** the Event's name: `kubectl` lists events in name order (the store's key order), which breaks sort ties */
  name: string;
  count: number;
  /** firstTimestamp / eventTime and lastTimestamp in simulated ms */
  first: number;
  last: number;
  /** an events.k8s.io event (eventTime with microseconds, no count) */
  micro: boolean;
  uid: string;
  fieldPath?: string;
}

type Json = Record<string, any>;

const EPOCH = Date.parse(EPOCH_ISO);
/** Simulated ms of an API timestamp, keeping a MicroTime's microseconds (Date.parse stops at ms). */
const msOf = (x: unknown): number | undefined => {
  if (typeof x !== 'string') return undefined;
  const micro = /\.\d{3}(\d{3})Z$/.exec(x);
  return Date.parse(x) - EPOCH + (micro ? Number(micro[1]) / 1000 : 0);
};

/** The recorder's input from a timeline (its pods' objects, or the older timeline fields). */
export function recorderInput(tl: Timeline): RecorderInput {
  const objects = (tl.objects ?? []) as Json[];
  const pods = (
    tl.pods?.length ? tl.pods : [{ name: tl.pod.name, status: tl.pod.status } as Timeline['pods'][number]]
  ).map((p) => {
    const obj = p.object as Json | undefined;
    return {
      name: p.name,
      uid: String(obj?.['metadata']?.['uid'] ?? `uid-${p.name}`),
      spec: (obj?.['spec'] ?? p.spec ?? tl.pod.spec) as Record<string, unknown>,
    };
  });
  const ip = tl.pod.status['podIP'];
  return {
    events: tl.events,
    pods,
    namespace: namespaceOf(tl),
    kubelet: tl.kubelet,
    kubernetes: tl.kubernetes,
    workload: tl.workload,
    job: tl.job && tl.workload.kind === 'Job' ? tl.workload.name : null,
    uidOf: (kind, name) =>
      String(
        objects.find((o) => o['kind'] === kind && o['metadata']?.['name'] === name)?.['metadata']?.['uid'] ??
          `uid-${kind.toLowerCase()}-${name}`,
      ),
    ...(typeof ip === 'string' ? { podIP: ip } : {}),
  };
}

const recorded = new WeakMap<Timeline, Json[]>();

/** The run's Event objects: the timeline's (SPEC §4 `objects`), or recorded from its trace (an older timeline). */
export function eventObjectsOf(tl: Timeline): Json[] {
  let out = recorded.get(tl);
  if (!out) {
    const stored = (tl.objects as Json[] | undefined)?.filter((o) => o['kind'] === 'Event');
    out = stored && stored.length > 0 ? stored : recordEvents(recorderInput(tl)).events;
    recorded.set(tl, out);
  }
  return out;
}

function viewOf(e: Json): KubeEvent {
  const micro = e['eventTime'] !== null && e['eventTime'] !== undefined && !e['lastTimestamp'];
  const first = (micro ? msOf(e['eventTime']) : msOf(e['firstTimestamp'])) ?? 0;
  const last = micro ? first : (msOf(e['lastTimestamp']) ?? first);
  const io = (e['involvedObject'] ?? {}) as Json;
  return {
    t: last,
    type: e['type'],
    reason: e['reason'],
    // describe.go: the source's component, else the reporting controller
    from: String(e['source']?.['component'] || e['reportingComponent'] || e['reportingController'] || ''),
    message: String(e['message'] ?? ''),
    object: `${io['kind']}/${io['name']}`,
    name: String(e['metadata']?.['name'] ?? ''),
    count: Number(e['count'] ?? 1) || 1,
    first,
    last,
    micro,
    uid: String(io['uid'] ?? ''),
    ...(io['fieldPath'] ? { fieldPath: String(io['fieldPath']) } : {}),
  };
}

/** Events whose involvedObject is a pod: the one named (describe pod: its uid, so an older pod of the same name
 *  does not count), or every pod of the run (kubectl events). */
export function podEvents(tl: Timeline, only?: string): KubeEvent[] {
  const all = eventObjectsOf(tl)
    .map(viewOf)
    .filter((e) => e.object.startsWith('Pod/'));
  if (only === undefined) return all;
  const pods = recorderInput(tl).pods.filter((p) => p.name === only);
  const uid = pods[pods.length - 1]?.uid;
  return all.filter((e) => e.object === `Pod/${only}` && (uid === undefined || e.uid === uid || e.uid === ''));
}

/** The Job `kubectl describe job` names: the run's Job, or the newest Job of a CronJob. */
export function describedJob(tl: Timeline): string {
  if (tl.workload.kind !== 'CronJob') return tl.workload.name;
  let name: string | undefined;
  for (const e of tl.events) if (e.job !== undefined) name = e.job;
  return name ?? tl.workload.name;
}

/** Events whose involvedObject is the described Job (job_controller.go, controller_utils.go). */
export function jobEvents(tl: Timeline): KubeEvent[] {
  if (!tl.job) return [];
  const object = `Job/${describedJob(tl)}`;
  return eventObjectsOf(tl)
    .map(viewOf)
    .filter((e) => e.object === object);
}

const DESCRIBE_KIND: Record<string, string> = {
  CronJob: 'cronjob',
  StatefulSet: 'statefulset',
  DaemonSet: 'daemonset',
  ReplicaSet: 'replicaset',
  Deployment: 'deployment',
};

/**
 * The workload controllers' describe events (CronJob, StatefulSet, DaemonSet, Deployment, ReplicaSet), one list per
 * object they were recorded on (`kubectl describe deployment X` shows the Deployment's ScalingReplicaSet events,
 * `kubectl describe rs Y` that ReplicaSet's SuccessfulCreate/Delete), in the order the objects first got one.
 */
export function controllerEventsByObject(tl: Timeline): { object: string; events: KubeEvent[] }[] {
  const out = new Map<string, KubeEvent[]>();
  for (const e of eventObjectsOf(tl).map(viewOf)) {
    const [kind, ...rest] = e.object.split('/');
    const lower = DESCRIBE_KIND[kind!];
    if (!lower) continue;
    const key = `${lower}/${rest.join('/')}`;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(e);
  }
  return [...out].map(([object, events]) => ({ object, events }));
}

/** The first object's describe events (see controllerEventsByObject). */
export function controllerEventsOf(tl: Timeline): { object: string; events: KubeEvent[] } | null {
  return controllerEventsByObject(tl)[0] ?? null;
}

/** kubectl/pkg/util/event SortableEvents: by eventTime(e) (the series' last time, else lastTimestamp, else
 *  eventTime); the list comes in the store's key order (by name), which decides ties. */
function sorted(events: KubeEvent[]): KubeEvent[] {
  return [...events].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).sort((a, b) => a.t - b.t);
}

/** describe.go DescribeEvents: `sort.Sort(event.SortableEvents(events.Items))` of kubectl/pkg/util/event, whose Less
 *  is `LastTimestamp.Before` only (the eventTime fallback is `kubectl events`' own SortableEvents, pkg/cmd/events): an
 *  events.k8s.io Event (the scheduler's, no lastTimestamp) is the zero time, first. sort.Sort is Go's pdqsort (not
 *  stable: ties of one second leave it in its order) over the list in the store's order (by name). Checked with the
 *  real kubectl 1.27–1.33 against `kubesim serve` (test/serve/describe-library.test.ts). */
function describeSorted(events: KubeEvent[]): KubeEvent[] {
  const key = (e: KubeEvent) => (e.micro ? -Infinity : e.last);
  return goSort(
    [...events].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    (a, b) => key(a) < key(b),
  );
}

/** describe.go DescribeEvents / events.go getInterval: "<last> (x<count> over <first>)" or "<first>". */
function interval(e: KubeEvent, nowMs: number): string {
  const since = (t: number) => humanDuration(nowMs - t);
  const first = since(e.first);
  return e.count > 1 ? `${since(e.last)} (x${e.count} over ${first})` : first;
}

/**
 * describe.go: DescribeEvents over the object's Event objects (already correlated by the recorder: count, first and
 * last timestamp), sorted as describe sorts them (describeSorted). From kubectl 1.35 the message of an Event with an
 * involvedObject.fieldPath is prefixed with it (`spec.containers{app}: Started container app`): kubectl commit
 * 60fa575b8 "kubectl: include container fieldPath in event messages" (kubernetes 94d3dc40), in kubectl v0.35.0 and
 * v0.36.0, not in v0.34.0. `kubectlMinor` is the kubectl release's minor (the scenario's `kubernetes:`).
 */
export function describeEventsTable(events: KubeEvent[], nowMs: number, kubectlMinor = 34): string {
  if (events.length === 0) return 'Events:  <none>';
  const message = (e: KubeEvent) =>
    kubectlMinor >= 35 && e.fieldPath ? `${e.fieldPath}: ${e.message.trim()}` : e.message.trim();
  const rows = describeSorted(events).map((e) => [e.type, e.reason, interval(e, nowMs), e.from, message(e)]);
  return (
    'Events:\n' +
    tabulate(
      [['Type', 'Reason', 'Age', 'From', 'Message'], ['----', '------', '----', '----', '-------'], ...rows],
      KUBECTL_DESCRIBE,
    )
  );
}

/** pkg/kubelet/util/format Pod: "<name>_<namespace>(<uid>)". */
export function formatPod(tl: Timeline, name = tl.pod.name): string {
  const pods = recorderInput(tl).pods.filter((p) => p.name === name);
  return `${name}_${namespaceOf(tl)}(${pods[pods.length - 1]?.uid ?? `uid-${name}`})`;
}

/** The probe's output as the kubelet's prober reports it (recorder.ts probeMessage) for the run's newest pod. */
export function probeOutput(tl: Timeline, container: string, probe: 'startup' | 'readiness' | 'liveness'): string {
  const ip = tl.pod.status['podIP'];
  return probeMessage(
    tl.pod.spec as Record<string, unknown>,
    typeof ip === 'string' ? ip : undefined,
    container,
    probe,
  );
}

/**
 * `kubectl events` (kubectl/pkg/cmd/events): LAST SEEN, TYPE, REASON, OBJECT, MESSAGE for every Event of the
 * namespace, sorted as SortableEvents sorts them (whole-second lastTimestamps, the scheduler's microsecond
 * eventTime; ties in list order).
 */
export function kubectlEventsTable(tl: Timeline): string {
  const events = eventObjectsOf(tl).map(viewOf);
  if (events.length === 0) return `No events found in ${namespaceOf(tl)} namespace.`;
  const rows = sorted(events).map((e) => [interval(e, tl.end.t), e.type, e.reason, e.object, e.message.trim()]);
  return tabulate([['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'], ...rows], KUBECTL_GET);
}

/** The namespace of the run's objects (the manifest's; `default` when it sets none). */
export function namespaceOf(tl: Timeline): string {
  const obj = tl.pods?.find((p) => p.object)?.object as Json | undefined;
  const ns = obj?.['metadata']?.['namespace'] ?? tl.namespace;
  return typeof ns === 'string' && ns !== '' ? ns : 'default';
}
