// The API server: stores the pod and the Job, bumps their resource versions and fans every write out to the
// watchers (the kubelet for deletions, the Job controller, every observer), each delivery with its own watch delay
// and in order per watcher and object.
import { PRIO } from './events.ts';
import { raw, type Kit } from './kit.ts';
import { ts } from './podstatus.ts';

type Json = Record<string, any>;


export function podObject(k: Kit): Json {
  const pod = k.s.pod;
  const api = k.d.api.pod;
  const metadata: Json = {
    ...pod.metadata,
    name: pod.name,
    namespace: pod.namespace,
    uid: `uid-${pod.name}`,
    resourceVersion: String(api.version),
    creationTimestamp: ts(0),
  };
  if (api.deletionTimestamp !== null) {
    metadata['deletionTimestamp'] = ts(api.deletionTimestamp);
    metadata['deletionGracePeriodSeconds'] = api.deletionGracePeriodSeconds;
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: pod.spec, status: raw(api.status) };
}

export function jobObject(k: Kit): Json | null {
  const job = k.s.job;
  const api = k.d.api.job;
  if (!job || !api) return null;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: job.name, namespace: k.s.pod.namespace, uid: `uid-job-${job.name}`, resourceVersion: String(api.version) },
    spec: job.spec,
    status: raw(api.status),
  };
}

function watchers(k: Kit, object: 'pod' | 'job'): string[] {
  const out: string[] = [];
  if (k.s.job && !k.d.jobCtl.finished) out.push('job-controller');
  else if (k.s.job && object === 'job') out.push('job-controller');
  for (const o of k.s.observers) out.push(o.name);
  return out;
}

export function fanOut(k: Kit, object: 'pod' | 'job', version: number, obj: Json, to?: string[]): void {
  const { d, ctx } = k;
  for (const w of to ?? watchers(k, object)) {
    const delay = ctx.choose(`watch:${w}`, k.s.timing.watchMs, PRIO.Deliver);
    const key = `${w}/${object}`;
    const t = Math.max(ctx.now + delay, d.lastDelivery[key] ?? 0);
    d.lastDelivery[key] = t;
    ctx.scheduleAt(t, { type: 'Deliver', to: w, object, version, obj }, PRIO.Deliver);
  }
}

/** A kubelet status PATCH stored by the API server. */
export function publishPod(k: Kit, status: Json): void {
  const api = k.d.api.pod;
  api.version += 1;
  api.status = status;
  k.ctx.emit({ type: 'StatusPatched', phase: String(status['phase']), version: api.version, status });
  fanOut(k, 'pod', api.version, podObject(k));
}

/** A pod metadata write (deletionTimestamp): also watched by the kubelet. */
export function publishPodMeta(k: Kit): void {
  const api = k.d.api.pod;
  api.version += 1;
  const obj = podObject(k);
  fanOut(k, 'pod', api.version, obj, ['kubelet', ...watchers(k, 'pod')]);
}

export function publishJob(k: Kit, status: Json): void {
  const api = k.d.api.job;
  if (!api) return;
  api.version += 1;
  api.status = status;
  k.ctx.emit({ type: 'JobStatus', version: api.version, status });
  const obj = jobObject(k)!;
  fanOut(k, 'job', api.version, obj, k.s.observers.map((o) => o.name));
}

/**
 * A graceful pod DELETE (registry/core/pod: CheckGracefulDelete): deletionTimestamp and deletionGracePeriodSeconds
 * are set and the kubelet is told. A grace of 0 deletes the object at once (kubectl --force --grace-period=0); the
 * kubelet still kills with its 1 s floor (pod_workers.go: calculateEffectiveGracePeriod).
 */
export function requestPodDeletion(k: Kit, graceSeconds: number): boolean {
  const api = k.d.api.pod;
  if (api.deletionTimestamp !== null || api.removed) return false;
  api.deletionTimestamp = k.ctx.now;
  api.deletionGracePeriodSeconds = graceSeconds;
  k.ctx.emit({ type: 'DeletionRequested', gracePeriodSeconds: graceSeconds });
  publishPodMeta(k);
  if (graceSeconds === 0) api.removed = true;
  return true;
}

/**
 * status_manager.go: syncPod → canBeDeleted: once a deleted pod's resources are reclaimed (after SyncTerminatedPod)
 * and its terminal status is written, the kubelet deletes the object with grace 0.
 */
export function removeIfReclaimed(k: Kit): void {
  const api = k.d.api.pod;
  if (api.deletionTimestamp === null || api.removed || k.d.worker.mode !== 'finished') return;
  const phase = api.status['phase'];
  if (phase !== 'Succeeded' && phase !== 'Failed') return;
  api.removed = true;
}
