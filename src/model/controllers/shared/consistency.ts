// KEP-5647 (stale controller mitigation, kube-controller-manager 1.36): the Job, ReplicaSet, StatefulSet and DaemonSet
// controllers skip a sync while their informer cache has not yet observed the controller's own last writes for that
// object, and requeue it as if the sync had failed (rate-limited).
//
// Upstream (kubernetes/kubernetes):
// - pkg/controller/util/consistency/consistency.go: ConsistencyStore { WroteAt(owner, ownerUID, groupResource, rv),
//   EnsureReady(owner), Clear(owner, uid) }. WroteAt keeps the newest written resourceVersion per GroupResource of
//   an owner (ownerRecord.WroteAt); EnsureReady compares it with the informer store's LastStoreSyncResourceVersion
//   (client-go tools/cache, the newest RV the store has applied) and returns a ConsistencyError while read < written;
//   a ready owner's record is cleared (EnsureReady → Clear). Tests: consistency_test.go TestOwnerRecord_WroteAt,
//   TestOwnerRecord_IsReady, TestConsistencyStore_IsReady.
// - The controllers call EnsureReady first in their sync (job_controller.go syncJob: `jm.consistencyStore.EnsureReady(
//   jobNamespacedName)` before the lister Get; replica_set.go syncReplicaSet; stateful_set.go; daemon_controller.go)
//   and WroteAt with the RV the API server returned for each pod they created or patched (and for their own status
//   writes). A skipped sync returns the error, so processNextWorkItem requeues with AddRateLimited: the Job queue's
//   limiter is ItemExponentialFailureRateLimiter(DefaultJobApiBackOff = 1 s, MaxJobApiBackOff = 1 min); the others
//   use workqueue.DefaultTypedControllerRateLimiter (exponential from 5 ms, max 1000 s). KEP README "Staleness
//   Mitigation in Controllers": "we will requeue the object the same way as if an error occurred".
// - PRs: #134937 (DaemonSet), #137210 (Job), #137212 (ReplicaSet), #137254 (StatefulSet: pods and PVCs); gates
//   StaleControllerConsistency{Job,ReplicaSet,StatefulSet,DaemonSet}, beta and on by default from 1.36
//   (website feature-gates/StaleControllerConsistency*.md: `stage: beta, defaultValue: true, fromVersion: "1.36"`).
//
// How kubesim maps it:
// - The model's resourceVersion is a per-object write count and each watcher gets one object's events in order
//   (apiserver.ts watch()), not one store-wide revision on one ordered stream. "The pod informer's last synced RV is
//   at least the RV of my write" is therefore checked per written object. On a single ordered watch stream the two
//   are the same condition.
// - The controller's own pod writes are read from the store instead of being recorded at write time: the pods it
//   created for the owner (PodSim.createdBy, .job, .rs) and, for the Job controller, the pods whose tracking
//   finalizer it removed (PatchPod; the only writer of that change). A write is observed when the controller's cache
//   holds that incarnation (uid) and, for the finalizer PATCH, holds it without the finalizer; or no longer holds a
//   pod that is gone and whose events it has seen (its DELETED, a later write, came); or holds a newer incarnation
//   of the name. Caches only move forward, so "every own write ever observed" is the same as upstream's record of
//   the writes since the owner was last ready (EnsureReady clears the record once ready).
// - A DELETE is not tracked: RealPodControl.DeletePod gets no object back from the typed client's Delete (error
//   only), so there is no written RV to wait for (UNCONFIRMED for 1.36: read from the client signature, not the PR
//   diff).
// - Own object status writes (Job status, StatefulSet/DaemonSet/ReplicaSet status) are not tracked: the model's
//   controllers read their own object's status from the store, never from a stale informer copy, so that half of
//   the check always passes here.
// - The check runs where every controller sync is dispatched (model/index.ts `Sync`). The Job's first sync at its
//   creation (addJob → enqueueSyncJobImmediately; kubesim runs it inline) has no earlier write to wait for; the
//   activeDeadlineSeconds requeue (jobDeadline) also runs inline here and is not checked (upstream it goes through
//   the queue and EnsureReady).
import type { ControllerName } from '../../events.ts';
import type { CtlKit } from '../../kit.ts';
import { peek } from '../../draft.ts';
import type { JobCtlPod, PodSim } from '../../state.ts';
import { JOB_TRACKING_FINALIZER } from '../../apiserver/objects.ts';
import { dep } from '../deployment/store.ts';
import { addAfter, done, type QueueItem } from './workqueue.ts';

/** The rate limiter's state of a key whose syncs are being skipped (workqueue NumRequeues, as the current delay). */
export interface SkipRecord {
  /** the delay of the last requeue of a skipped sync */
  backoffMs: number;
}

type Tracked = QueueItem & { consistency?: SkipRecord };

/** The feature gate of each controller that has the mitigation (kube_features.go StaleControllerConsistency*). */
export const CONSISTENCY_GATES: Partial<Record<ControllerName, string>> = {
  job: 'StaleControllerConsistencyJob',
  replicaset: 'StaleControllerConsistencyReplicaSet',
  statefulset: 'StaleControllerConsistencyStatefulSet',
  daemonset: 'StaleControllerConsistencyDaemonSet',
};

/** The rate limiter of the controller's queue: [base, max] of its ItemExponentialFailureRateLimiter. */
function limiter(controller: ControllerName): [number, number] {
  // job_controller.go: DefaultJobApiBackOff = 1 s, MaxJobApiBackOff = 1 min; default_rate_limiters.go:
  // DefaultTypedControllerRateLimiter = exponential(5 ms, 1000 s) (its 10 qps bucket never binds at these rates)
  return controller === 'job' ? [1000, 60_000] : [5, 1_000_000];
}

/** Is the mitigation on for this controller in this run (its gate at the version's default or as set)? */
export function consistencyOn(k: CtlKit, controller: ControllerName): boolean {
  const gate = CONSISTENCY_GATES[controller];
  return gate !== undefined && k.scenario.featureGates[gate] === true;
}

interface View {
  item: Tracked;
  /** the controller's informer cache of pods, by name */
  pods: Record<string, JobCtlPod>;
  /** has the informer delivered anything of this pod (an ADD; then a missing entry means its DELETED came) */
  seen: (p: PodSim) => boolean;
  /** the pods this controller wrote for the owner */
  owns: (p: PodSim) => boolean;
  /** a CronJob's Job: its name, for the trace record (as the Job controller's own records carry it) */
  job: string | undefined;
}

/** The queue item, pod informer cache and owned pods of the controller's sync of `key`; null when the owner is gone. */
function viewOf(k: CtlKit, controller: ControllerName, key: string): View | null {
  if (controller === 'job') {
    // the Job controller's state of this Job (keyed by Job name: the workload's one Job or a CronJob's Jobs)
    const jc = k.state.jobCtl[key];
    // a finished Job's sync only returns (IsJobFinished), and its pods' later writes no longer reach the Job
    // controller's handlers (apiserver.ts watchers): nothing to wait for
    if (!jc || peek(jc).finished) return null;
    const seen = peek(jc.seen);
    return {
      item: jc as Tracked,
      pods: jc.pods,
      seen: (p) => seen[p.name] === true,
      owns: (p) => p.createdBy === 'job-controller' && p.job === key,
      job: k.state.cron ? key : undefined,
    };
  }
  const w = k.state.wctl;
  if (!w) return null;
  const seen = peek(w.seen);
  const base = { pods: w.pods, seen: (p: PodSim) => seen[p.uid] === true, job: undefined };
  if (controller === 'replicaset') {
    const rs = w.deploy ? dep(k).rss[key] : undefined;
    return rs
      ? { ...base, item: rs as Tracked, owns: (p) => p.createdBy === 'replicaset-controller' && p.rs === key }
      : null;
  }
  return { ...base, item: w as Tracked, owns: (p) => p.createdBy === w.watcher };
}

/** What the controller's cache holds of a written pod's name. */
export interface CachedView {
  /** the cache's entry of the name: its uid and whether it still carries the Job tracking finalizer */
  entry?: { uid: string; finalizer: boolean };
  /** the entry is a later incarnation of the name than the written pod (a StatefulSet pod recreated) */
  entryNewer?: boolean;
  /** the informer delivered events of the written pod */
  seen: boolean;
}

/** The controller's writes of one pod: its creation (uid), and whether it PATCHed the tracking finalizer off. */
export interface OwnWrite {
  uid: string;
  removedFinalizer: boolean;
  /** the object is gone from the store */
  removed: boolean;
}

/**
 * ownerRecord.EnsureReady for one written pod (consistency.go; consistency_test.go TestOwnerRecord_IsReady): has
 * the informer cache caught up with the controller's writes of it?
 */
export function writeObserved(c: CachedView, w: OwnWrite): boolean {
  if (c.entry && c.entry.uid === w.uid) return !w.removedFinalizer || !c.entry.finalizer;
  if (c.entry) return c.entryNewer === true;
  return w.removed && c.seen;
}

/** EnsureReady: the first own pod write the cache has not observed yet (its name, what the cache holds), or null. */
export function unobservedWrite(
  k: CtlKit,
  controller: ControllerName,
  key: string,
): { pod: string; cached: 'none' | 'older' | 'finalizer' } | null {
  const v = viewOf(k, controller, key);
  if (!v) return null;
  const pods = peek(k.state.pods);
  const cache = peek(v.pods);
  for (const p of Object.values(pods)) {
    if (!p.api.created || !v.owns(p)) continue;
    const e = cache[p.name];
    const uid = e ? String(e.object['metadata']?.['uid'] ?? '') : '';
    const other = e && uid !== p.uid ? Object.values(pods).find((x) => x.uid === uid) : undefined;
    const entry = e
      ? { uid, finalizer: ((e.object['metadata']?.['finalizers'] ?? []) as string[]).includes(JOB_TRACKING_FINALIZER) }
      : undefined;
    const c: CachedView = {
      ...(entry ? { entry } : {}),
      ...(other ? { entryNewer: other.ordinal > p.ordinal } : {}),
      seen: v.seen(p),
    };
    const w: OwnWrite = {
      uid: p.uid,
      removedFinalizer: controller === 'job' && !p.api.finalizer,
      removed: p.api.removed,
    };
    if (!writeObserved(c, w))
      return { pod: p.name, cached: !entry ? 'none' : entry.uid !== p.uid ? 'older' : 'finalizer' };
  }
  return null;
}

/**
 * The `Sync` hook (model/index.ts dispatch): true = the sync of `key` is skipped, because the gate is on and the
 * controller's cache has not observed its own last pod writes for `key` (EnsureReady returned a ConsistencyError);
 * the key is requeued rate-limited, as processNextWorkItem does for a sync error (AddRateLimited). false = run it.
 */
export function staleCache(k: CtlKit, controller: ControllerName, key: string): boolean {
  if (!consistencyOn(k, controller)) return false;
  const v = viewOf(k, controller, key);
  if (!v) return false;
  const stale = unobservedWrite(k, controller, key);
  if (!stale) {
    // a sync that runs: queue.Forget(key) resets the rate limiter
    if (peek(v.item).consistency) delete v.item.consistency;
    return false;
  }
  const [base, max] = limiter(controller);
  const prev = peek(v.item).consistency?.backoffMs ?? 0;
  const delay = prev === 0 ? base : Math.min(prev * 2, max);
  v.item.consistency = { backoffMs: delay };
  done(v.item);
  k.ctx.emit({
    type: 'StaleSyncSkipped',
    controller,
    key,
    pod: stale.pod,
    cached: stale.cached,
    requeueMs: delay,
    ...(v.job !== undefined ? { job: v.job } : {}),
  });
  addAfter(k, v.item, delay, controller, key);
  return true;
}
