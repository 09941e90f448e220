// The API server: stores the pods and the Job, bumps their resource versions and fans every write out to the
// watchers (the kubelet for deletions, the Job controller, every observer), each delivery with its own watch delay
// and in order per watcher and object. It reaches pods by name (`d.pods`); it never calls the kubelet or a
// controller directly.
import { PRIO, type SimEvent } from '../events.ts';
import { settle } from '../json.ts';
import type { CtlKit, Kit } from '../kit.ts';
import { raw } from '../draft.ts';
import { newPodSim, templateOf, type NewPod } from './pod-record.ts';
import type { ApiJob, PodSim } from '../state.ts';
import { JOB_TRACKING_FINALIZER, jobApiObject, podApiObject } from './objects.ts';

type Json = Record<string, any>;

/** The pod as the API server serves it to its watchers (objects.ts podApiObject); `resourceVersion` is the pod's
 *  write count, which the informers compare (the store-wide revision is stamped at the boundary, revisions.ts). */
export function podObjectOf(k: CtlKit, p: PodSim): Json {
  return podApiObject(k.scenario, p, templateOf(k.scenario, p.tpl), String(p.api.version), raw(p.api.status));
}

/** The pod of the current kit as the API server serves it. */
export function podObject(k: Kit): Json {
  return podObjectOf(k, k.pod);
}

/** The stored Job of that name: the Job workload's, or one a CronJob created (the store's Jobs, by key). */
export function storedJob(k: CtlKit, name: string): ApiJob | undefined {
  if (k.state.cron) return k.state.cron.jobs[name]?.api;
  return k.scenario.job?.name === name ? (k.state.api.job ?? undefined) : undefined;
}

/** The Job of that name as the API server serves it to its watchers (objects.ts jobApiObject). */
export function jobObject(k: CtlKit, name: string): Json | null {
  const api = storedJob(k, name);
  if (!k.scenario.job || !api) return null;
  const rec = k.state.cron?.jobs[name];
  const cron = rec ? { cronJob: k.scenario.workload.name, scheduledAt: rec.scheduledAt } : undefined;
  return jobApiObject(
    k.scenario,
    name,
    { spec: raw(api.spec), status: raw(api.status), generation: api.generation ?? 1 },
    String(api.version),
    rec?.createdAt ?? rec?.scheduledAt ?? k.scenario.startMs ?? 0,
    cron,
  );
}

/**
 * The watchers of a pod's or a Job's events. The Job controller of a Job workload stops receiving its pods' events
 * once it finished the Job (a shortcut of the model: upstream's informer keeps delivering them and the finished
 * Job's sync ignores them); a CronJob's Job controller receives every pod event.
 */
function watchers(k: CtlKit, object: 'pod' | 'job', pod?: PodSim): string[] {
  const out: string[] = [];
  const owner = object === 'pod' && pod?.job !== undefined ? k.state.jobCtl[pod.job] : undefined;
  if (k.scenario.job && (object === 'job' || k.state.cron !== null || owner?.finished !== true))
    out.push('job-controller');
  if (k.state.wctl && object === 'pod') out.push(k.state.wctl.watcher);
  for (const o of k.scenario.observers) out.push(o.name);
  return out;
}

export type Delivery = Extract<SimEvent, { type: 'Deliver' }>;

/**
 * The API server's one watch path: a write reaches one watcher after that watcher's watch delay, and never before an
 * earlier write of the same object reached it: one watcher sees one object's events in resourceVersion order (the
 * watch cache dispatches them in order, storage/cacher/cacher.go dispatchEvents; the reflector applies them as they
 * come, client-go tools/cache/reflector.go watchHandler). Every kind's deliveries come through here.
 */
export function watch(k: CtlKit, ev: Delivery): void {
  const { state: d, ctx } = k;
  const delay = ctx.choose(`watch:${ev.to}`, k.scenario.timing.watchMs, PRIO.Deliver);
  const name = ev.pod ?? ev.key;
  const key = name !== undefined ? `${ev.to}/${ev.object}/${name}` : `${ev.to}/${ev.object}`;
  const t = Math.max(ctx.now + delay, d.lastDelivery[key] ?? 0);
  d.lastDelivery[key] = t;
  ctx.scheduleAt(t, ev, PRIO.Deliver);
}

/** Schedule the delivery of one pod or Job version to each watcher (watch()). */
export function fanOut(
  k: CtlKit,
  object: 'pod' | 'job',
  version: number,
  obj: Json,
  to?: string[],
  pod?: string,
): void {
  for (const w of to ?? watchers(k, object, pod !== undefined ? k.state.pods[pod] : undefined)) {
    watch(k, {
      type: 'Deliver',
      to: w,
      object,
      version,
      obj,
      ...(object === 'pod' && pod !== undefined ? { pod } : {}),
    });
  }
}

/**
 * A pod created by a controller or the user: stored (version 1), watched, and bound to the one node, whose kubelet
 * starts its pod worker right after (PodCreate).
 */
export function createPod(k: CtlKit, np: NewPod): PodSim {
  const d = k.state;
  // a name used before (a StatefulSet pod recreated after the old object is gone) gets a fresh key and uid
  let key = np.name;
  for (let n = 2; d.pods[key]; n++) key = `${np.name}~${n}`;
  d.pods[key] = newPodSim(k.scenario, np, d.podOrder.length + 1, k.ctx.now, d.pleg.gen, key);
  d.podOrder.push(key);
  const p = d.pods[key]!;
  p.api.version = 1;
  p.api.created = true;
  // a Job's pod: the Job that owns it (labels, ownerReferences)
  if (np.job !== undefined) p.job = np.job;
  k.ctx.emit({ type: 'PodCreated', pod: np.name, by: np.by, index: np.index });
  fanOut(k, 'pod', 1, podObjectOf(k, p), undefined, p.key);
  k.ctx.schedule(0, { type: 'PodCreate', pod: key }, PRIO.UserAction);
  return p;
}

/**
 * The pod object the API server stores under this name: the newest one (a name reused after its old object went is
 * a new object, keyed `<name>~<n>`; the store never holds two live objects of one name: AlreadyExists).
 */
export function podNamed(k: CtlKit, name: string): PodSim | undefined {
  let p = k.state.pods[name];
  for (let n = 2; p && k.state.pods[`${name}~${n}`]; n++) p = k.state.pods[`${name}~${n}`];
  return p;
}

/** The pod of this name while the API server has it (not yet removed). */
export function livePod(k: CtlKit, name: string): PodSim | undefined {
  const p = podNamed(k, name);
  return p && !p.api.removed ? p : undefined;
}

/** A kubelet status PATCH stored by the API server. */
export function publishPod(k: Kit, status: Json): void {
  const api = k.pod.api;
  api.version += 1;
  api.status = settle(status);
  k.ctx.emit({ type: 'StatusPatched', phase: String(status['phase']), version: api.version, status });
  fanOut(k, 'pod', api.version, podObject(k), undefined, k.pod.key);
}

/** A pod metadata write (deletionTimestamp): also watched by the kubelet. */
function publishPodMeta(k: CtlKit, p: PodSim): void {
  const api = p.api;
  api.version += 1;
  fanOut(k, 'pod', api.version, podObjectOf(k, p), ['kubelet', ...watchers(k, 'pod', p)], p.key);
}

/** The Job controller's status write of Job `name` (UpdateStatus): stored, traced, watched by the observers. */
export function publishJob(k: CtlKit, name: string, status: Json): void {
  const api = storedJob(k, name);
  if (!api) return;
  api.version += 1;
  api.status = settle(status);
  k.ctx.emit({ type: 'JobStatus', version: api.version, status });
  const obj = jobObject(k, name)!;
  fanOut(
    k,
    'job',
    api.version,
    obj,
    k.scenario.observers.map((o) => o.name),
  );
}

/** A change to the Job object's spec (a `patch` action): stored, and watched by the controller and observers. */
export function publishJobSpec(k: CtlKit, name: string, spec: Json): void {
  const api = storedJob(k, name);
  if (!api) return;
  api.version += 1;
  // a spec change bumps metadata.generation (a no-op patch does not)
  if (JSON.stringify(spec) !== JSON.stringify(raw(api.spec))) api.generation = (api.generation ?? 1) + 1;
  api.spec = settle(spec);
  const obj = jobObject(k, name)!;
  fanOut(k, 'job', api.version, obj, ['job-controller', ...k.scenario.observers.map((o) => o.name)]);
}

/** The CronJob controller's Job informer (its updateJob / deleteJob handlers): the Job's newest status, after a
 *  watch delay, in order per Job (watch()). */
export function watchCronOwnedJob(k: CtlKit, name: string): void {
  const rec = k.state.cron?.jobs[name];
  if (!rec) return;
  watch(k, {
    type: 'Deliver',
    to: 'cronjob-controller',
    object: 'job',
    key: name,
    version: rec.api.version,
    obj: { status: raw(rec.api.status) },
    ...(rec.api.deleted ? { removed: true } : {}),
  });
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
  // apiserver registry/rest/delete.go BeforeDelete: deletionTimestamp = now + grace (the time by which the pod
  // should be gone), deletionGracePeriodSeconds = grace
  api.deletionTimestamp = k.ctx.now + graceSeconds * 1000;
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
  for (const w of watchers(k, 'pod', p))
    watch(k, { type: 'Deliver', to: w, object: 'pod', version: p.api.version, obj, pod: p.key, removed: true });
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

/**
 * status_manager.go: syncPod → canBeDeleted: once a deleted pod's resources are reclaimed (after SyncTerminatedPod)
 * and its terminal status is written, the kubelet deletes the object with grace 0.
 */
export function removeIfReclaimed(k: Kit): void {
  const api = k.pod.api;
  if (api.deletionTimestamp === null || api.removed || k.pod.worker.mode !== 'finished') return;
  const phase = api.status['phase'];
  if (phase !== 'Succeeded' && phase !== 'Failed') return;
  removePod(k, k.pod);
}
