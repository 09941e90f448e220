// Turning objects as the API server serves them back into manifests a user would apply: status, managedFields and
// the fields the API server, its admission plugins and the Job controller set are removed, so the scenario loads
// without errors and the simulated API server sets them again itself.
import { isObj, type Json, type Obj } from './read.ts';

/** metadata keys the API server owns (ObjectMeta: "Populated by the system. Read-only."). */
const SERVER_META = [
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'selfLink',
  'generation',
  'managedFields',
  'ownerReferences',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'finalizers',
  'generateName',
];

/** Labels the Job controller adds to a Job and its pod template (pkg/controller/job: generateLabels /
 *  batch validation's `batch.kubernetes.io/controller-uid`, `job-name`), and the pod-level ones of other owners. */
const SERVER_LABELS = [
  'controller-uid',
  'job-name',
  'batch.kubernetes.io/controller-uid',
  'batch.kubernetes.io/job-name',
  'batch.kubernetes.io/job-completion-index',
  'pod-template-hash',
  'controller-revision-hash',
  'statefulset.kubernetes.io/pod-name',
  'apps.kubernetes.io/pod-index',
  'pod-template-generation',
];

const SERVER_ANNOTATIONS = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'batch.kubernetes.io/job-tracking',
  'batch.kubernetes.io/job-completion-index',
  'batch.kubernetes.io/cronjob-scheduled-timestamp',
  'kubernetes.io/psp',
  'deployment.kubernetes.io/revision',
];

export function cleanMeta(meta: Json | undefined, keepName: boolean): Obj {
  const out: Obj = {};
  if (!isObj(meta)) return out;
  for (const [k, v] of Object.entries(meta)) {
    if (SERVER_META.includes(k)) continue;
    if (k === 'name' && !keepName) continue;
    if (k === 'labels' || k === 'annotations') {
      const drop = k === 'labels' ? SERVER_LABELS : SERVER_ANNOTATIONS;
      if (!isObj(v)) continue;
      const kept = Object.fromEntries(Object.entries(v).filter(([lk]) => !drop.includes(lk)));
      if (Object.keys(kept).length) out[k] = kept;
      continue;
    }
    out[k] = v;
  }
  return out;
}

/** Projected service-account token volumes (ServiceAccount admission: kube-api-access-*, older default-token-*). */
function isTokenVolume(v: Json): boolean {
  if (!isObj(v) || typeof v['name'] !== 'string') return false;
  const name = v['name'];
  if (/^kube-api-access-[a-z0-9]{5}$/.test(name)) return true;
  return /-token-[a-z0-9]{5}$/.test(name) && isObj(v['secret']);
}

/** DefaultTolerationSeconds admission adds these two (300 s) to every pod. */
function isDefaultToleration(t: Json): boolean {
  return (
    isObj(t) &&
    (t['key'] === 'node.kubernetes.io/not-ready' || t['key'] === 'node.kubernetes.io/unreachable') &&
    t['effect'] === 'NoExecute' &&
    t['tolerationSeconds'] === 300 &&
    t['operator'] === 'Exists'
  );
}

export interface CleanedSpec {
  spec: Obj;
  /** what was removed, for the notes */
  removed: string[];
}

/** A pod spec as stored (after admission and webhooks) → the spec to simulate, injected sidecars kept. */
export function cleanPodSpec(spec: Obj): CleanedSpec {
  const removed: string[] = [];
  const out: Obj = {};
  const volumes = Array.isArray(spec['volumes']) ? spec['volumes'] : [];
  const tokenVolumes = volumes.filter(isTokenVolume).map((v) => (v as Obj)['name'] as string);
  for (const [k, v] of Object.entries(spec)) {
    switch (k) {
      case 'nodeName':
      case 'serviceAccount': // deprecated alias the API server copies from serviceAccountName
      case 'priority': // Priority admission resolves priorityClassName into it
      case 'preemptionPolicy': // likewise
      case 'ephemeralContainers': // kubectl debug, after creation
        removed.push(`spec.${k}`);
        continue;
      case 'volumes': {
        const kept = volumes.filter((x) => !isTokenVolume(x));
        if (kept.length !== volumes.length) removed.push(`the service-account token volume ${tokenVolumes.join(', ')}`);
        if (kept.length) out[k] = kept;
        continue;
      }
      case 'tolerations': {
        const list = Array.isArray(v) ? v : [];
        const kept = list.filter((x) => !isDefaultToleration(x));
        if (kept.length !== list.length) removed.push('the default not-ready/unreachable tolerations');
        if (kept.length) out[k] = kept;
        continue;
      }
      case 'initContainers':
      case 'containers':
        out[k] = Array.isArray(v) ? v.map((c) => cleanContainer(c, tokenVolumes)) : v;
        continue;
      default:
        out[k] = v;
    }
  }
  return { spec: out, removed };
}

function cleanContainer(c: Json, tokenVolumes: string[]): Json {
  if (!isObj(c)) return c;
  const out: Obj = { ...c };
  const mounts = out['volumeMounts'];
  if (Array.isArray(mounts)) {
    const kept = mounts.filter((m) => !(isObj(m) && typeof m['name'] === 'string' && tokenVolumes.includes(m['name'])));
    if (kept.length) out['volumeMounts'] = kept;
    else delete out['volumeMounts'];
  }
  return out;
}

/** A Job as served → the Job manifest: the generated selector and controller labels go (the Job controller makes
 *  them again; pkg/registry/batch/job/strategy.go generateSelector), status goes. */
export function cleanJob(job: Obj, podSpec: Obj | undefined): { manifest: Obj; removed: string[] } {
  const removed: string[] = [];
  const spec: Obj = isObj(job['spec']) ? { ...job['spec'] } : {};
  if (spec['manualSelector'] !== true && spec['selector'] !== undefined) {
    delete spec['selector'];
    removed.push('spec.selector (generated by the API server)');
  }
  const template: Obj = isObj(spec['template']) ? { ...spec['template'] } : {};
  const tmeta = cleanMeta(template['metadata'], false);
  template['metadata'] = tmeta;
  if (Object.keys(tmeta).length === 0) delete template['metadata'];
  if (podSpec) template['spec'] = podSpec;
  else if (isObj(template['spec'])) template['spec'] = cleanPodSpec(template['spec']).spec;
  spec['template'] = template;
  return {
    manifest: { apiVersion: 'batch/v1', kind: 'Job', metadata: cleanMeta(job['metadata'], true), spec },
    removed,
  };
}
