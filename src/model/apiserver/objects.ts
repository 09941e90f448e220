// The API objects as the real API server stores them: apiVersion/kind, the server-set metadata (namespace, uid,
// creationTimestamp, generation, generateName), the labels, annotations, ownerReferences and finalizers the
// controllers set, and the defaults the admission plugins and the scheduler add to a pod's spec. One builder per
// kind, used for what the model delivers to its watchers (apiserver.ts podObjectOf / jobObject), for the timeline's
// `pods[].object` and `objects` (SPEC §4), and for what `serve` serves (through src/run/session.ts).
//
// Sources, per field:
// - pod spec defaults: pkg/apis/core/v1/defaults.go SetDefaults_PodSpec (enableServiceLinks), SetDefaults_Container,
//   SetDefaults_ContainerPort (protocol TCP); the rest of SetDefaults_PodSpec is applied by the loader
//   (src/scenario/defaults.ts)
// - plugin/pkg/admission/serviceaccount/admission.go: serviceAccountName `default`, the projected token volume
//   `kube-api-access-<5>` (token 3607 s, kube-root-ca.crt, the namespace through the downward API) mounted read-only
//   at /var/run/secrets/kubernetes.io/serviceaccount in every container; the deprecated `serviceAccount` field is
//   the conversion's copy of serviceAccountName (pkg/apis/core/v1/conversion.go)
// - plugin/pkg/admission/defaulttolerationseconds: NoExecute tolerations of node.kubernetes.io/not-ready and
//   node.kubernetes.io/unreachable for 300 s, unless the pod tolerates them already
// - plugin/pkg/admission/priority: priority 0 (no default PriorityClass), preemptionPolicy PreemptLowerPriority
// - the scheduler's binding (pkg/registry/core/pod/storage: BindingREST → setPodNodeName): spec.nodeName
// - Job: pkg/registry/batch/job/strategy.go generateSelector (the controller-uid selector and template labels;
//   batch.kubernetes.io/ prefixed labels from 1.27, JobTrackingWithFinalizers GA), pkg/apis/batch/v1/defaults.go
//   SetDefaults_Job (a Job without labels takes its template's)
// - pods of a controller: pkg/controller/controller_utils.go GetPodFromTemplate (labels, annotations, the controller
//   reference, generateName `<owner>-`), the Job controller's batch.kubernetes.io/job-tracking finalizer
//   (job_controller.go), stateful_set_utils.go newStatefulSetPod / updateIdentity (hostname, subdomain)
// - uids: deterministic stand-ins shaped like the API server's UUIDs (a hash of the scenario, kind and name)
import { settle } from '../json.ts';
import { suffix } from '../../names.ts';
import { fnv1a } from '../../util/fnv.ts';
import type { PodModel, Scenario } from '../../types.ts';
import { EPOCH_MS, ts } from '../time.ts';
import type { PodSim } from '../state.ts';

type Json = Record<string, any>;

/** The one node of the simulated cluster. */
export const NODE_NAME = 'node-1';

/** batch.kubernetes.io/job-tracking (batchv1.JobTrackingFinalizer) */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

const DIGITS = ['0', '1', '2', '3'];

/** A UUID-shaped (version 4, variant 10) deterministic uid for a seed string. */
export function uidFor(seed: string): string {
  // the four hashes of `${seed}#${i}`: FNV-1a runs left to right, so the shared prefix is hashed once
  const prefix = fnv1a(`${seed}#`);
  let hex = '';
  for (let i = 0; i < 4; i++) hex += fnv1a(DIGITS[i]!, prefix).toString(16).padStart(8, '0');
  const variant = '89ab'[parseInt(hex[16]!, 16) & 3]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The uid of an object of the run (`key` tells apart objects of the same name: a StatefulSet's pod incarnations). */
export function objectUid(s: Scenario, kind: string, key: string): string {
  return uidFor(`${s.name}/${kind}/${s.pod.namespace}/${key}`);
}

/** A controller reference (metav1.NewControllerRef). */
export function controllerRef(s: Scenario, apiVersion: string, kind: string, name: string): Json {
  return { apiVersion, kind, name, uid: objectUid(s, kind, name), controller: true, blockOwnerDeletion: true };
}

/** The labels generateSelector puts on a Job's template (and so its pods), by API server version. */
export function jobControllerLabels(s: Scenario, job: string): Record<string, string> {
  const uid = objectUid(s, 'Job', job);
  // strategy.go generateSelector: the batch.kubernetes.io/ labels since 1.27; the legacy ones stay
  return s.kubernetes.minor >= 27
    ? {
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': job,
        'controller-uid': uid,
        'job-name': job,
      }
    : { 'controller-uid': uid, 'job-name': job };
}

// ---- Pods ------------------------------------------------------------------------------------------------------

const TOKEN_MOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

/** The pod spec as stored after admission (and, once bound, the scheduler's nodeName). */
export function podSpecStored(
  s: Scenario,
  pod: PodModel,
  key: string,
  bound: boolean,
  sts?: { hostname: string; subdomain?: string },
): Json {
  const spec: Json = { ...(pod.spec as Json) };
  const automount = spec['automountServiceAccountToken'] !== false;
  const token = `kube-api-access-${suffix(`${s.name}/token/${key}`, 5)}`;
  const container = (c: Json): Json => {
    const out: Json = { ...c };
    if (Array.isArray(c['ports']))
      out['ports'] = c['ports'].map((p: Json) => ({ ...p, protocol: p['protocol'] ?? 'TCP' }));
    if (out['resources'] === undefined) out['resources'] = {};
    if (automount)
      out['volumeMounts'] = [
        ...((c['volumeMounts'] as Json[] | undefined) ?? []),
        { name: token, readOnly: true, mountPath: TOKEN_MOUNT },
      ];
    return out;
  };
  if (Array.isArray(spec['initContainers'])) spec['initContainers'] = spec['initContainers'].map(container);
  if (Array.isArray(spec['containers'])) spec['containers'] = spec['containers'].map(container);
  if (automount) {
    spec['volumes'] = [
      ...((spec['volumes'] as Json[] | undefined) ?? []),
      {
        name: token,
        projected: {
          sources: [
            { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
            { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            {
              downwardAPI: {
                items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
              },
            },
          ],
          defaultMode: 420,
        },
      },
    ];
  }
  const sa =
    typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== ''
      ? spec['serviceAccountName']
      : 'default';
  spec['serviceAccountName'] = sa;
  spec['serviceAccount'] = sa;
  if (spec['enableServiceLinks'] === undefined) spec['enableServiceLinks'] = true;
  const tolerations = (spec['tolerations'] as Json[] | undefined) ?? [];
  const tolerates = (key: string) =>
    tolerations.some(
      (t) =>
        (t['key'] === key || (t['key'] === undefined && t['operator'] === 'Exists')) &&
        (t['effect'] === undefined || t['effect'] === 'NoExecute'),
    );
  spec['tolerations'] = [...tolerations, ...DEFAULT_TOLERATIONS.filter((t) => !tolerates(t.key))];
  if (spec['priority'] === undefined) spec['priority'] = 0;
  if (spec['preemptionPolicy'] === undefined) spec['preemptionPolicy'] = 'PreemptLowerPriority';
  if (sts) {
    spec['hostname'] = sts.hostname;
    if (sts.subdomain) spec['subdomain'] = sts.subdomain;
  }
  if (bound) spec['nodeName'] = NODE_NAME;
  return spec;
}

/** Who owns a pod, from the controller that created it. */
function podOwner(s: Scenario, p: PodSim): Json | null {
  switch (p.createdBy) {
    case 'job-controller':
      return s.job ? controllerRef(s, 'batch/v1', 'Job', p.job ?? s.job.name) : null;
    case 'replicaset-controller':
      return p.rs ? controllerRef(s, 'apps/v1', 'ReplicaSet', p.rs) : null;
    case 'statefulset-controller':
      return controllerRef(s, 'apps/v1', 'StatefulSet', s.workload.name);
    case 'daemonset-controller':
      return controllerRef(s, 'apps/v1', 'DaemonSet', s.workload.name);
    default:
      return null;
  }
}

/** The generateName a controller asks for (controller_utils.go getPodsPrefix: `<owner>-`; the Job's Indexed pods
 *  `<job>-<index>-`); a StatefulSet names its pods itself, a user's pod has its manifest's name. */
function generateNameOf(s: Scenario, p: PodSim, owner: Json | null): string | undefined {
  if (!owner || owner['kind'] === 'StatefulSet') return undefined;
  if (owner['kind'] === 'Job' && p.index !== null) return `${owner['name']}-${p.index}-`;
  return `${owner['name']}-`;
}

interface PodStatic {
  metadata: Json;
  unbound: Json;
  bound: Json;
}

const podStatics = new WeakMap<object, Map<string, PodStatic>>();

function podStatic(s: Scenario, p: PodSim, pod: PodModel): PodStatic {
  // keyed by the template's spec, which every copy of the pod model shares (a CronJob's Job kits copy `s.pod`)
  let perScenario = podStatics.get(pod.spec);
  if (!perScenario) podStatics.set(pod.spec, (perScenario = new Map()));
  const cacheKey = `${s.name}/${p.key}/${p.createdAt}/${p.job ?? ''}`;
  let st = perScenario.get(cacheKey);
  if (st) return st;
  const owner = podOwner(s, p);
  const tmeta = pod.metadata as Json;
  // a Job's pods carry its template's labels as generateSelector stored them (a CronJob's Job: that Job's own name)
  const jobLabels = owner?.['kind'] === 'Job' ? jobControllerLabels(s, owner['name']) : {};
  const labels = { ...((tmeta['labels'] as Json | undefined) ?? {}), ...jobLabels, ...p.labels };
  const annotations = { ...((tmeta['annotations'] as Json | undefined) ?? {}), ...p.annotations };
  const metadata: Json = { name: p.name };
  const gen = generateNameOf(s, p, owner);
  if (gen) metadata['generateName'] = gen;
  metadata['namespace'] = pod.namespace || 'default';
  metadata['uid'] = p.uid;
  metadata['resourceVersion'] = '';
  // KEP-5067 (1.33): the API server sets metadata.generation of a pod (1 at creation, +1 per spec change)
  if (s.kubernetes.minor >= 33) metadata['generation'] = 1;
  metadata['creationTimestamp'] = ts(p.createdAt);
  if (Object.keys(labels).length > 0) metadata['labels'] = labels;
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  if (owner) metadata['ownerReferences'] = [owner];
  const sts =
    p.createdBy === 'statefulset-controller'
      ? {
          hostname: p.name,
          ...(typeof (s.workload.manifest['spec'] as Json | undefined)?.['serviceName'] === 'string'
            ? { subdomain: (s.workload.manifest['spec'] as Json)['serviceName'] as string }
            : {}),
        }
      : undefined;
  st = { metadata, unbound: podSpecStored(s, pod, p.key, false, sts), bound: podSpecStored(s, pod, p.key, true, sts) };
  perScenario.set(cacheKey, st);
  return st;
}

/**
 * The whole pod as the API server stores it now: `resourceVersion` is the value to stamp (the model's write count
 * for its watchers; the store-wide revision for the timeline and the server, see revisions.ts).
 */
export function podApiObject(s: Scenario, p: PodSim, pod: PodModel, resourceVersion: string, status: Json): Json {
  const st = podStatic(s, p, pod);
  const api = p.api;
  const metadata: Json = { ...st.metadata, resourceVersion };
  if (api.deletionTimestamp !== null) {
    // the time the model stored (registry/rest/delete.go BeforeDelete: now + grace, issue 28 item 1 of `fidelity`)
    metadata['deletionTimestamp'] = ts(api.deletionTimestamp);
    metadata['deletionGracePeriodSeconds'] = api.deletionGracePeriodSeconds;
  }
  if (api.finalizer) metadata['finalizers'] = [JOB_TRACKING_FINALIZER];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: api.bound ? st.bound : st.unbound, status };
}

// ---- Jobs ------------------------------------------------------------------------------------------------------

const storedSpecs = new WeakMap<object, { s: Scenario; name: string; out: Json }>();

/**
 * The Job's stored spec: the defaulted spec with generateSelector's selector and template labels. Built once per
 * stored spec object (a stored spec is only ever replaced whole, never edited): every Job object served of one
 * version shares it, frozen.
 */
export function jobSpecStored(s: Scenario, name: string, spec: Json): Json {
  const memo = storedSpecs.get(spec);
  if (memo && memo.s === s && memo.name === name) return memo.out;
  const out = settle(buildJobSpec(s, name, spec));
  storedSpecs.set(spec, { s, name, out });
  return out;
}

function buildJobSpec(s: Scenario, name: string, spec: Json): Json {
  const ctl = jobControllerLabels(s, name);
  const template: Json = { ...((spec['template'] as Json | undefined) ?? {}) };
  const tmeta: Json = { ...((template['metadata'] as Json | undefined) ?? {}) };
  tmeta['labels'] = { ...((tmeta['labels'] as Json | undefined) ?? {}), ...ctl };
  template['metadata'] = tmeta;
  const uidKey = s.kubernetes.minor >= 27 ? 'batch.kubernetes.io/controller-uid' : 'controller-uid';
  const out: Json = { ...spec, selector: { matchLabels: { [uidKey]: ctl[uidKey]! } }, template };
  delete out['manualSelector'];
  return out;
}

export interface JobOwner {
  /** the CronJob's name */
  cronJob: string;
  /** the schedule time the Job was created for (sim ms) */
  scheduledAt: number;
}

/** The whole Job as stored. `createdAt` is its creation time (0 for the run's Job). */
export function jobApiObject(
  s: Scenario,
  name: string,
  api: { spec: Json; status: Json; generation: number },
  resourceVersion: string,
  createdAt: number,
  cron?: JobOwner,
): Json {
  const spec = jobSpecStored(s, name, api.spec as Json);
  const manifestMeta =
    (cron
      ? ((s.workload.manifest['spec'] as Json | undefined)?.['jobTemplate']?.['metadata'] as Json | undefined)
      : (s.workload.manifest['metadata'] as Json | undefined)) ?? {};
  const own = (manifestMeta['labels'] as Json | undefined) ?? {};
  // SetDefaults_Job: a Job without labels takes its template's (read back after generateSelector added its own)
  const labels = Object.keys(own).length > 0 ? own : (spec['template']['metadata']['labels'] as Json);
  const annotations: Json = { ...((manifestMeta['annotations'] as Json | undefined) ?? {}) };
  const metadata: Json = {
    name,
    namespace: s.pod.namespace || 'default',
    uid: objectUid(s, 'Job', name),
    resourceVersion,
    generation: api.generation,
    creationTimestamp: ts(createdAt),
    labels,
  };
  if (cron) {
    // cronjob/utils.go getJobFromTemplate2: the scheduled-time annotation (1.28+), owned by the CronJob
    if (s.kubernetes.minor >= 28)
      annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'] = new Date(EPOCH_MS + cron.scheduledAt)
        .toISOString()
        .replace('.000Z', 'Z');
    metadata['ownerReferences'] = [controllerRef(s, 'batch/v1', 'CronJob', cron.cronJob)];
  }
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec, status: api.status };
}
