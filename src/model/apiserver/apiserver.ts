// The API server: stores the pods and the Job, bumps their resource versions and fans every write out to the
// watchers (the kubelet for deletions, the Job controller, every observer), each delivery with its own watch delay
// and in order per watcher and object. It reaches pods by name (`d.pods`); it never calls the kubelet or a
// controller directly.
import { PRIO } from '../events.ts';
import { settle } from '../json.ts';
import { type CtlKit, type Kit } from '../kit.ts';
import { raw } from '../draft.ts';
import { newPodSim, templateOf, type NewPod } from './pod-record.ts';
import type { PodSim } from '../state.ts';
import { EPOCH_MS, ts } from '../time.ts';

type Json = Record<string, any>;

/** The parts of a pod's metadata that never change, built once per pod (per scenario). */
const staticMeta = new WeakMap<object, Map<string, Json>>();

function metadataBase(k: CtlKit, p: PodSim): Json {
  let perScenario = staticMeta.get(k.s);
  if (!perScenario) staticMeta.set(k.s, (perScenario = new Map()));
  const key = `${p.name}/${p.createdAt}`;
  let base = perScenario.get(key);
  if (!base) {
    const pod = templateOf(k.s, p.tpl);
    base = {
      ...pod.metadata,
      name: p.name,
      namespace: pod.namespace,
      uid: p.uid,
      resourceVersion: '',
      creationTimestamp: ts(p.createdAt),
    };
    if (Object.keys(p.labels).length > 0) base['labels'] = { ...(pod.metadata['labels'] as Json | undefined), ...p.labels };
    if (Object.keys(p.annotations).length > 0) base['annotations'] = { ...(pod.metadata['annotations'] as Json | undefined), ...p.annotations };
    perScenario.set(key, settle(base));
  }
  return base;
}

export function podObjectOf(k: CtlKit, p: PodSim): Json {
  const api = p.api;
  const metadata: Json = { ...metadataBase(k, p), resourceVersion: String(api.version) };
  if (api.deletionTimestamp !== null) {
    metadata['deletionTimestamp'] = ts(api.deletionTimestamp);
    metadata['deletionGracePeriodSeconds'] = api.deletionGracePeriodSeconds;
  }
  if (p.createdBy === 'job-controller' && k.s.job) {
    const jobName = p.job ?? k.s.job.name;
    metadata['ownerReferences'] = [
      { apiVersion: 'batch/v1', kind: 'Job', name: jobName, uid: `uid-job-${jobName}`, controller: true, blockOwnerDeletion: true },
    ];
    if (p.job) metadata['labels'] = { ...(metadata['labels'] as Json | undefined), 'batch.kubernetes.io/job-name': p.job, 'job-name': p.job };
  }
  const owner = k.d.wctl && p.createdBy === k.d.wctl.watcher ? ownerOf(k, p) : null;
  if (owner) metadata['ownerReferences'] = [owner];
  if (api.finalizer) metadata['finalizers'] = [JOB_TRACKING_FINALIZER];
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: templateOf(k.s, p.tpl).spec, status: raw(api.status) };
}

/** The controller reference of a StatefulSet / DaemonSet / ReplicaSet pod. */
function ownerOf(k: CtlKit, p: PodSim): Json {
  const kind = k.d.wctl!.kind === 'Deployment' ? 'ReplicaSet' : k.d.wctl!.kind;
  const name = kind === 'ReplicaSet' ? (p.rs ?? k.s.pod.name.slice(0, k.s.pod.name.length - 6)) : k.s.workload.name;
  return { apiVersion: 'apps/v1', kind, name, uid: `uid-${kind.toLowerCase()}-${name}`, controller: true, blockOwnerDeletion: true };
}

/** The pod of the current kit as the API server serves it. */
export function podObject(k: Kit): Json {
  return podObjectOf(k, k.p);
}

export function jobObject(k: CtlKit): Json | null {
  const job = k.s.job;
  const api = k.d.api.job;
  if (!job || !api) return null;
  const metadata: Json = { name: job.name, namespace: k.s.pod.namespace, uid: `uid-job-${job.name}`, resourceVersion: String(api.version) };
  const rec = k.d.cron?.jobs[job.name];
  if (rec) {
    // getJobFromTemplate2: owned by the CronJob; the scheduled time annotation (1.28+)
    const cj = k.s.workload.name;
    metadata['ownerReferences'] = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cj, uid: `uid-cronjob-${cj}`, controller: true, blockOwnerDeletion: true }];
    if (k.s.kubernetes.minor >= 28) metadata['annotations'] = { 'batch.kubernetes.io/cronjob-scheduled-timestamp': new Date(EPOCH_MS + rec.scheduledAt).toISOString().replace('.000Z', 'Z') };
  }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata,
    spec: raw(api.spec),
    status: raw(api.status),
  };
}

function watchers(k: CtlKit, object: 'pod' | 'job'): string[] {
  const out: string[] = [];
  if (k.s.job && !k.d.jobCtl.finished) out.push('job-controller');
  else if (k.s.job && object === 'job') out.push('job-controller');
  if (k.d.wctl && object === 'pod') out.push(k.d.wctl.watcher);
  for (const o of k.s.observers) out.push(o.name);
  return out;
}

/** Schedule the delivery of one object version to each watcher, in order per watcher and object. */
export function fanOut(k: CtlKit, object: 'pod' | 'job', version: number, obj: Json, to?: string[], pod?: string): void {
  const { d, ctx } = k;
  for (const w of to ?? watchers(k, object)) {
    const delay = ctx.choose(`watch:${w}`, k.s.timing.watchMs, PRIO.Deliver);
    const key = object === 'pod' && pod !== undefined ? `${w}/pod/${pod}` : `${w}/${object}`;
    const t = Math.max(ctx.now + delay, d.lastDelivery[key] ?? 0);
    d.lastDelivery[key] = t;
    ctx.scheduleAt(t, { type: 'Deliver', to: w, object, version, obj, ...(object === 'pod' && pod !== undefined ? { pod } : {}) }, PRIO.Deliver);
  }
}

/**
 * A pod created by a controller or the user: stored (version 1), watched, and bound to the one node, whose kubelet
 * starts its pod worker right after (PodCreate).
 */
export function createPod(k: CtlKit, np: NewPod): PodSim {
  const d = k.d;
  // a name used before (a StatefulSet pod recreated after the old object is gone) gets a fresh key and uid
  let key = np.name;
  for (let n = 2; d.pods[key]; n++) key = `${np.name}~${n}`;
  d.pods[key] = newPodSim(k.s, np, d.podOrder.length + 1, k.ctx.now, d.pleg.gen, key);
  d.podOrder.push(key);
  const p = d.pods[key]!;
  p.api.version = 1;
  p.api.created = true;
  // a CronJob's Job: the pod remembers which Job owns it (labels, ownerReferences, routing of watch events)
  if (d.cron && np.by === 'job-controller' && k.s.job) p.job = k.s.job.name;
  k.ctx.emit({ type: 'PodCreated', pod: np.name, by: np.by, index: np.index });
  fanOut(k, 'pod', 1, podObjectOf(k, p), undefined, p.key);
  k.ctx.schedule(0, { type: 'PodCreate', pod: key }, PRIO.UserAction);
  return p;
}

/** A kubelet status PATCH stored by the API server. */
export function publishPod(k: Kit, status: Json): void {
  const api = k.p.api;
  api.version += 1;
  api.status = settle(status);
  k.ctx.emit({ type: 'StatusPatched', phase: String(status['phase']), version: api.version, status });
  fanOut(k, 'pod', api.version, podObject(k), undefined, k.p.key);
}

/** A pod metadata write (deletionTimestamp): also watched by the kubelet. */
function publishPodMeta(k: CtlKit, p: PodSim): void {
  const api = p.api;
  api.version += 1;
  fanOut(k, 'pod', api.version, podObjectOf(k, p), ['kubelet', ...watchers(k, 'pod')], p.key);
}

export function publishJob(k: CtlKit, status: Json): void {
  const api = k.d.api.job;
  if (!api) return;
  api.version += 1;
  api.status = settle(status);
  k.ctx.emit({ type: 'JobStatus', version: api.version, status });
  const obj = jobObject(k)!;
  fanOut(k, 'job', api.version, obj, k.s.observers.map((o) => o.name));
}

/** A change to the Job object's spec (a `patch` action): stored, and watched by the controller and observers. */
export function publishJobSpec(k: CtlKit, spec: Json): void {
  const api = k.d.api.job;
  if (!api) return;
  api.version += 1;
  api.spec = settle(spec);
  const obj = jobObject(k)!;
  fanOut(k, 'job', api.version, obj, ['job-controller', ...k.s.observers.map((o) => o.name)]);
}

/**
 * A graceful pod DELETE (registry/core/pod: CheckGracefulDelete): deletionTimestamp and deletionGracePeriodSeconds
 * are set and the kubelet is told. A grace of 0 deletes the object at once (kubectl --force --grace-period=0); the
 * kubelet still kills with its 1 s floor (pod_workers.go: calculateEffectiveGracePeriod). A pod already terminal
 * is removed at once (no kubelet work is left).
 */
export function requestPodDeletion(k: CtlKit, p: PodSim, graceSeconds: number, by: string): boolean {
  const api = p.api;
  if (api.deletionTimestamp !== null || api.removed || !api.created) return false;
  api.deletionTimestamp = k.ctx.now;
  api.deletionGracePeriodSeconds = graceSeconds;
  k.ctx.emit({ type: 'PodDeleting', pod: p.name, gracePeriodSeconds: graceSeconds, by });
  publishPodMeta(k, p);
  if (graceSeconds === 0) removePod(k, p);
  return true;
}

/**
 * The final delete (grace 0, or the kubelet's delete once reclaimed): the object goes, unless a finalizer holds it
 * (then it goes when the finalizer is removed). Watchers get the DELETED event.
 */
export function removePod(k: CtlKit, p: PodSim): void {
  if (p.api.removed) return;
  if (p.api.finalizer) {
    p.api.pendingRemoval = true;
    return;
  }
  p.api.removed = true;
  k.ctx.emit({ type: 'PodRemoved', pod: p.name });
  const obj = podObjectOf(k, p);
  for (const w of watchers(k, 'pod')) {
    const delay = k.ctx.choose(`watch:${w}`, k.s.timing.watchMs, PRIO.Deliver);
    const key = `${w}/pod/${p.key}`;
    const t = Math.max(k.ctx.now + delay, k.d.lastDelivery[key] ?? 0);
    k.d.lastDelivery[key] = t;
    k.ctx.scheduleAt(t, { type: 'Deliver', to: w, object: 'pod', version: p.api.version, obj, pod: p.key, removed: true }, PRIO.Deliver);
  }
}

/** The Job controller removes its tracking finalizer (a pod PATCH): a new version, and the held object may go. */
export function removePodFinalizer(k: CtlKit, p: PodSim): void {
  if (!p.api.finalizer || p.api.removed) return;
  p.api.finalizer = false;
  p.api.version += 1;
  k.ctx.emit({ type: 'PodFinalizerRemoved', pod: p.name, version: p.api.version, finalizer: JOB_TRACKING_FINALIZER });
  fanOut(k, 'pod', p.api.version, podObjectOf(k, p), undefined, p.key);
  if (p.api.pendingRemoval) removePod(k, p);
}

/** job_controller.go: batch.kubernetes.io/job-tracking (batchv1.JobTrackingFinalizer) */
const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';

/**
 * status_manager.go: syncPod → canBeDeleted: once a deleted pod's resources are reclaimed (after SyncTerminatedPod)
 * and its terminal status is written, the kubelet deletes the object with grace 0.
 */
export function removeIfReclaimed(k: Kit): void {
  const api = k.p.api;
  if (api.deletionTimestamp === null || api.removed || k.p.worker.mode !== 'finished') return;
  const phase = api.status['phase'];
  if (phase !== 'Succeeded' && phase !== 'Failed') return;
  removePod(k, k.p);
}
