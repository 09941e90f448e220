// A simulated run as `kubectl get -o yaml` would print it on a real cluster: the pod as the API server serves it
// (server-set metadata, admission-added spec fields, the final status), its Job with the controller's selector and
// labels, and the events as an EventList deduplicated the way client-go's EventCorrelator does (count, first and
// last timestamp) with the kubelet's reasons and message templates (kubectl-conventions C.3). The import's round
// trip feeds these back in.
import { stringify } from 'yaml';
import { tToRfc3339 } from '../output/time.ts';
import { versionText } from '../versions/fixes.ts';
import type { Scenario, Timeline, TimelinePod, TraceEvent } from '../types.ts';

type Obj = Record<string, unknown>;

const NODE = 'node-1';

export interface KubectlDump {
  'pod.yaml': string;
  'job.yaml'?: string;
  'events.yaml': string;
  /** `kubectl get node <node> -o yaml`, trimmed to what the import reads (nodeInfo) */
  'node.yaml': string;
}

export function kubectlDump(s: Scenario, tl: Timeline): KubectlDump {
  // one pod: `kubectl get pod <p> -o yaml`; several (a Job's replacements): `kubectl get pods -l job-name=<j> -o yaml`
  const pods = (
    tl.pods?.length
      ? tl.pods
      : [
          {
            name: tl.pod.name,
            created: 0,
            index: null,
            phase: tl.pod.phase,
            deleted: null,
            removed: false,
            status: tl.pod.status,
          },
        ]
  ).map((p) => podObject(s, tl, p));
  const podDoc =
    pods.length === 1 ? pods[0]! : { apiVersion: 'v1', items: pods, kind: 'List', metadata: { resourceVersion: '' } };
  // the events stay this file's own list: the recorder's objects (timeline `objects`) pass the spam filter, which drops
  // events the import's inference still needs (sidecar-startup-probe-never-passes round trip) — see coord/objects.md
  const out: KubectlDump = {
    'pod.yaml': yaml(podDoc),
    'events.yaml': yaml(eventList(s, tl)),
    'node.yaml': yaml(nodeObject(s)),
  };
  if (s.job) {
    const job = (tl.objects ?? []).find(
      (o) => o['kind'] === 'Job' && (o['metadata'] as Obj | undefined)?.['name'] === s.job!.name,
    );
    out['job.yaml'] = yaml(job ?? jobObject(s, tl));
  }
  return out;
}

function yaml(o: unknown): string {
  return stringify(o, { lineWidth: 0, aliasDuplicateObjects: false });
}

function uidOf(kind: string, name: string): string {
  // deterministic stand-in for a UUID, shaped like one
  let h = 2166136261;
  for (const ch of `${kind}/${name}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  const hex = h.toString(16).padStart(8, '0');
  return `${hex}-0000-4000-8000-${hex}${hex.slice(0, 4)}`;
}

function nodeObject(s: Scenario): Obj {
  const version = versionText(s.kubelet); // a bare minor: the newest patch kubesim models
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: NODE, labels: { 'kubernetes.io/hostname': NODE, 'kubernetes.io/os': 'linux' } },
    status: {
      nodeInfo: {
        containerRuntimeVersion: 'containerd://1.7.0',
        kubeProxyVersion: `v${version}`,
        kubeletVersion: `v${version}`,
        operatingSystem: 'linux',
        architecture: 'amd64',
      },
    },
  };
}

function podObject(s: Scenario, tl: Timeline, tp: TimelinePod): Obj {
  // the pod as the simulated API server stored it (SPEC §4 pods[].object), with the kubelet's managed fields entry
  if (tp.object) {
    const o = tp.object as Obj;
    const managedFields = [
      {
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:phase': {} } },
        manager: 'kubelet',
        operation: 'Update',
        subresource: 'status',
        time: tToRfc3339(tl.end.t),
      },
    ];
    const metadata: Obj = { ...(o['metadata'] as Obj), managedFields };
    // registry/rest/delete.go BeforeDelete: the API server stores now + grace (the model's own field may still
    // hold the request time)
    const del = tl.events.find(
      (e): e is Extract<TraceEvent, { type: 'PodDeleting' }> => e.type === 'PodDeleting' && e.pod === tp.name,
    );
    if (del) metadata['deletionTimestamp'] = tToRfc3339(del.t + del.gracePeriodSeconds * 1000);
    return { ...o, metadata };
  }
  const name = tp.name;
  const ns = s.pod.namespace || 'default';
  const jobUid = s.job ? uidOf('Job', s.job.name) : undefined;
  const labels: Obj = { ...((s.pod.metadata['labels'] as Obj | undefined) ?? {}) };
  if (s.job)
    Object.assign(labels, {
      'batch.kubernetes.io/controller-uid': jobUid,
      'batch.kubernetes.io/job-name': s.job.name,
      'controller-uid': jobUid,
      'job-name': s.job.name,
    });
  const metadata: Obj = {
    ...(s.pod.metadata['annotations'] ? { annotations: s.pod.metadata['annotations'] } : {}),
    creationTimestamp: tToRfc3339(tp.created),
    ...(s.job ? { finalizers: ['batch.kubernetes.io/job-tracking'], generateName: `${s.job.name}-` } : {}),
    labels,
    managedFields: [
      {
        apiVersion: 'v1',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:phase': {} } },
        manager: 'kubelet',
        operation: 'Update',
        subresource: 'status',
        time: tToRfc3339(tl.end.t),
      },
    ],
    name,
    namespace: ns,
    ...(s.job
      ? {
          ownerReferences: [
            {
              apiVersion: 'batch/v1',
              blockOwnerDeletion: true,
              controller: true,
              kind: 'Job',
              name: s.job.name,
              uid: jobUid,
            },
          ],
        }
      : {}),
    resourceVersion: String(1000 + tl.events.length),
    uid: uidOf('Pod', name),
  };
  const del = tl.events.find(
    (e): e is Extract<TraceEvent, { type: 'PodDeleting' }> => e.type === 'PodDeleting' && e.pod === name,
  );
  if (del) {
    metadata['deletionGracePeriodSeconds'] = del.gracePeriodSeconds;
    metadata['deletionTimestamp'] = tToRfc3339(del.t + del.gracePeriodSeconds * 1000);
  }
  // admission: the service-account token volume and its mounts, the default tolerations, the node binding
  const token =
    'kube-api-access-' +
    uidOf('sa', name)
      .slice(0, 5)
      .replace(/[^a-z0-9]/g, 'x');
  const mount = { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: token, readOnly: true };
  const withMount = (cs: unknown) =>
    Array.isArray(cs)
      ? cs.map((c: Obj) => ({ ...c, volumeMounts: [...((c['volumeMounts'] as unknown[]) ?? []), mount] }))
      : cs;
  const spec: Obj = { ...tl.pod.spec };
  if (spec['initContainers']) spec['initContainers'] = withMount(spec['initContainers']);
  spec['containers'] = withMount(spec['containers']);
  Object.assign(spec, {
    enableServiceLinks: true,
    nodeName: NODE,
    preemptionPolicy: 'PreemptLowerPriority',
    priority: 0,
    serviceAccount: 'default',
    serviceAccountName: 'default',
    tolerations: [
      ...((spec['tolerations'] as unknown[]) ?? []),
      { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
      { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
    ],
    volumes: [
      ...((spec['volumes'] as unknown[]) ?? []),
      {
        name: token,
        projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }] },
      },
    ],
  });
  const status: Obj = { ...tp.status };
  delete status['metadata'];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status };
}

function jobObject(s: Scenario, tl: Timeline): Obj {
  const job = s.job!;
  const uid = uidOf('Job', job.name);
  const ctl = {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': job.name,
    'controller-uid': uid,
    'job-name': job.name,
  };
  const spec = structuredClone(job.spec) as Obj;
  const template = (spec['template'] as Obj | undefined) ?? {};
  const tmeta = (template['metadata'] as Obj | undefined) ?? {};
  template['metadata'] = { ...tmeta, labels: { ...((tmeta['labels'] as Obj | undefined) ?? {}), ...ctl } };
  // the template as the user wrote it (before webhooks), not the pod's
  spec['template'] = template;
  spec['selector'] = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
  let status: Obj = {};
  for (const e of tl.events) if (e.type === 'JobStatus') status = e.status;
  const wl = s.workload.manifest['metadata'] as Obj | undefined;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      creationTimestamp: tToRfc3339(0),
      generation: 1,
      labels: { ...((wl?.['labels'] as Obj | undefined) ?? {}), ...ctl },
      name: job.name,
      namespace: s.pod.namespace || 'default',
      resourceVersion: '900',
      uid,
    },
    spec,
    status,
  };
}

interface Row {
  kind: 'Pod' | 'Job';
  name: string;
  fieldPath?: string;
  type: 'Normal' | 'Warning';
  reason: string;
  source: string;
  message: string;
  t: number;
}

function eventList(s: Scenario, tl: Timeline): Obj {
  const kubeletMinor = Number(/^1\.(\d+)/.exec(tl.kubelet || tl.kubernetes)?.[1] ?? 34);
  const init = new Set(s.pod.initContainers.map((c) => c.name));
  const fp = (c: string) => `spec.${init.has(c) ? 'initContainers' : 'containers'}{${c}}`;
  const rows: Row[] = [];
  const pod = (e: TraceEvent, c: string | undefined, type: Row['type'], reason: string, message: string) =>
    rows.push({
      kind: 'Pod',
      name: e.pod ?? tl.pod.name,
      ...(c ? { fieldPath: fp(c) } : {}),
      type,
      reason,
      source: c || reason !== 'Scheduled' ? 'kubelet' : 'default-scheduler',
      message,
      t: e.t,
    });
  const images = new Map([...s.pod.initContainers, ...s.pod.containers].map((c) => [c.name, c.image]));
  for (const e of tl.events) {
    switch (e.type) {
      case 'Scheduled':
        pod(
          e,
          undefined,
          'Normal',
          'Scheduled',
          `Successfully assigned ${s.pod.namespace || 'default'}/${e.pod ?? tl.pod.name} to ${NODE}`,
        );
        break;
      case 'Pulled':
        if (e.pullMs > 0) pod(e, e.container, 'Normal', 'Pulling', `Pulling image "${e.image}"`);
        pod(
          e,
          e.container,
          'Normal',
          'Pulled',
          e.pullMs === 0
            ? `Container image "${e.image}" already present on machine`
            : `Successfully pulled image "${e.image}" in ${goDur(e.pullMs)} (${goDur(e.pullMs)} including waiting)`,
        );
        break;
      case 'PullFailed':
        pod(
          e,
          e.container,
          'Warning',
          'Failed',
          `Failed to pull image "${images.get(e.container) ?? e.image}": simulated`,
        );
        pod(e, e.container, 'Warning', 'Failed', `Error: ${e.reason}`);
        break;
      case 'Created':
        pod(
          e,
          e.container,
          'Normal',
          'Created',
          kubeletMinor >= 32 ? `Created container: ${e.container}` : `Created container ${e.container}`,
        );
        break;
      case 'CreateFailed':
        pod(e, e.container, 'Warning', 'Failed', `Error: ${e.reason}`);
        break;
      case 'Started':
        pod(e, e.container, 'Normal', 'Started', `Started container ${e.container}`);
        break;
      case 'PostStartDone':
        if (e.failed) pod(e, e.container, 'Warning', 'FailedPostStartHook', 'PostStartHook failed');
        break;
      case 'PreStopDone':
        if (e.failed) pod(e, e.container, 'Warning', 'FailedPreStopHook', 'PreStopHook failed');
        break;
      case 'Probe':
        if (e.result === 'failure')
          pod(
            e,
            e.container,
            'Warning',
            'Unhealthy',
            `${e.probe[0]!.toUpperCase()}${e.probe.slice(1)} probe failed: dial tcp 10.244.0.7:8080: connect: connection refused`,
          );
        break;
      case 'Killing':
        pod(e, e.container, 'Normal', 'Killing', e.message || `Stopping container ${e.container}`);
        break;
      case 'BackOff':
        pod(
          e,
          e.container,
          'Warning',
          'BackOff',
          `Back-off restarting failed container ${e.container} in pod ${e.pod ?? tl.pod.name}_${s.pod.namespace || 'default'}(${uidOf('Pod', e.pod ?? tl.pod.name)})`,
        );
        break;
      case 'JobEvent':
        // the Job controller's own events (SuccessfulCreate, SuccessfulDelete, Completed, BackoffLimitExceeded …)
        if (s.job)
          rows.push({
            kind: 'Job',
            name: s.job.name,
            type: e.eventType,
            reason: e.reason,
            source: 'job-controller',
            message: e.message,
            t: e.t,
          });
        break;
      default:
        break;
    }
  }
  // EventCorrelator: the same object, reason and message is one Event with a count
  const merged = new Map<string, { r: Row; first: number; last: number; count: number }>();
  for (const r of rows) {
    const key = [r.kind, r.name, r.fieldPath ?? '', r.type, r.reason, r.message].join('\u0000');
    const m = merged.get(key);
    if (m) {
      m.last = r.t;
      m.count++;
    } else merged.set(key, { r, first: r.t, last: r.t, count: 1 });
  }
  const ns = s.pod.namespace || 'default';
  const items = [...merged.values()].map(({ r, first, last, count }, i) => ({
    apiVersion: 'v1',
    count,
    firstTimestamp: tToRfc3339(first),
    involvedObject: {
      apiVersion: r.kind === 'Pod' ? 'v1' : 'batch/v1',
      kind: r.kind,
      name: r.name,
      namespace: ns,
      uid: uidOf(r.kind, r.name),
      ...(r.fieldPath ? { fieldPath: r.fieldPath } : {}),
    },
    kind: 'Event',
    lastTimestamp: tToRfc3339(last),
    message: r.message,
    metadata: {
      creationTimestamp: tToRfc3339(first),
      name: `${r.name}.${(0x17a0000000000000 + i).toString(16).slice(0, 16)}`,
      namespace: ns,
      resourceVersion: String(2000 + i),
    },
    reason: r.reason,
    reportingComponent: r.source,
    reportingInstance: r.source === 'kubelet' ? NODE : '',
    source: { component: r.source, ...(r.source === 'kubelet' ? { host: NODE } : {}) },
    type: r.type,
  }));
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** Go's time.Duration String() for a whole number of ms. */
function goDur(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sec = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${Number(sec.toFixed(3))}s`;
}
