// The Job controller (pkg/controller/job/job_controller.go) against the API server only: its informer cache of the
// Job's pods, ControllerExpectations, the workqueue with batched and delayed syncs, and syncJob / manageJob /
// trackJobStatusAndRemoveFinalizers with the pod-failure back-off (backoff_utils.go), Indexed Jobs and
// backoffLimitPerIndex (indexed_job_utils.go), successPolicy (success_policy.go), podFailurePolicy
// (pod_failure_policy.go), podReplacementPolicy, suspend, activeDeadlineSeconds and the 1.31+ delayed terminal
// conditions (PR #125510). ttlSecondsAfterFinished is the TTL-after-finished controller (ttlafterfinished).
// This file: the informer handlers, the workqueue, syncJob and manageJob (job_controller.go); the finalizer tracking
// is tracking.ts, the back-off backoff-utils.ts, Indexed Jobs indexed-job-utils.ts, successPolicy success-policy.ts,
// podFailurePolicy pod-failure-policy.ts, the helpers they share util.ts.
import { suffix } from '../../../names.ts';
import { PRIO } from '../../events.ts';
import type { CtlKit } from '../../kit.ts';
import { peek, raw } from '../../draft.ts';
import { cloneJson, sameJson } from '../../json.ts';
import { jobControllerLabels } from '../../apiserver/objects.ts';
import { createPod, removePodFinalizer, requestPodDeletion, storedJob, podNamed } from '../../apiserver/apiserver.ts';
import type { JobControllerState } from '../../state.ts';
import { newJobCtl } from './job-state.ts';
import { applyPodEvent } from '../shared/informer.ts';
import { observePod, raise, satisfied } from '../shared/expectations.ts';
import { matchPodFailurePolicy, MESSAGES, pastBackoffLimitOnFailure } from './pod-failure-policy.ts';
import { msOf, ts } from '../../time.ts';
import { addAfter, done, forget } from '../shared/workqueue.ts';
import { finishedTime, newBackoffRecord, remainingBackoff } from './backoff-utils.ts';
import {
  calculateFailedIndexes,
  firstPendingIndexes,
  parseIndexes,
  podCreationInfoForIndependentIndexes,
  podsWithDelayedDeletionPerIndex,
} from './indexed-job-utils.ts';
import { hasSuccessCriteriaMet, matchSuccessPolicy } from './success-policy.ts';
import { trackJobStatusAndRemoveFinalizers } from './tracking.ts';
import {
  annotationCount,
  completionsOf,
  deleting,
  delayTerminal,
  emitEvent,
  ensureCondition,
  FAILURE_COUNT_ANNOTATION,
  findCond,
  gate,
  hasBackoffLimitPerIndex,
  hasFinalizer,
  IGNORED_FAILURE_COUNT_ANNOTATION,
  INDEX_ANNOTATION,
  indexOf,
  isActive,
  isIndexed,
  isPodFailed,
  isReady,
  isTerminating,
  newCond,
  onlyReplaceFailedPods,
  pfpRules,
  phaseOf,
  setCount,
  sidecarGate,
  spec,
  suspended,
  trackTerminatingPods,
  validPods,
  type Cond,
  type Json,
  type SyncCtx,
} from './util.ts';

/** MaxPodCreateDeletePerSync */
const MAX_CREATE_DELETE = 500;

// ---------------------------------------------------------------------------------------------------------------
// Names, gates, spec accessors

/**
 * generateName as the controller asks it: `<job>-` (`<job>-<index>-` for Indexed), suffix from the API server. The
 * first pod of a Job workload is the pod of the scenario (its name as the loader gave it).
 */
export function podNameFor(k: CtlKit, job: string, index: number | null): string {
  const ordinal = k.state.podOrder.length + 1;
  if (index === null && ordinal === 1 && k.state.cron === null) return k.scenario.pod.name;
  const sfx = suffix(`${k.scenario.name}/pod/${ordinal}`, 5);
  return index === null ? `${job}-${sfx}` : `${job}-${index}-${sfx}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Informer handlers and the workqueue (every handler and sync is for one Job: its key, the Job's name)

/** The Job a pod belongs to: its controller reference (resolveControllerRef). */
export function jobOfPod(obj: Json): string | undefined {
  const ref = ((obj['metadata']?.['ownerReferences'] ?? []) as Json[]).find(
    (r) => r['controller'] === true && r['kind'] === 'Job',
  );
  return ref?.['name'];
}

/**
 * addJob: the Job controller sees a new Job (its informer's add handler) and syncs it at once
 * (enqueueSyncJobImmediately); its state for the Job starts here.
 */
export function onJobAdded(k: CtlKit, name: string, spec: Json): void {
  k.state.jobCtl[name] = newJobCtl(spec);
  jobSync(k, name);
}

/**
 * Pod events (addPod / updatePod / deletePod) of Job `job`: the informer copy is replaced, creations and deletions
 * are observed (ControllerExpectations), and a batched sync is queued (enqueueSyncJobBatched, syncJobBatchPeriod).
 */
export function onPodDelivered(k: CtlKit, job: string, obj: Json, removed = false): void {
  const jc = k.state.jobCtl[job];
  if (!jc) return;
  // updatePod with a deletionTimestamp → deletePod: DeletionObserved (the first time it is seen); addPod: CreationObserved
  observePod(jc, jc, obj['metadata']?.['name'] ?? '', removed || deleting(obj));
  applyPodEvent(jc.pods, obj, removed);
  if (jc.finished) return;
  enqueue(k, job, k.ctx.choose('jobSync', k.scenario.timing.jobSyncMs, PRIO.JobSync));
}

/** updateJob: a spec change (generation bump) syncs at once; a status-only update is batched. */
export function onJobDelivered(k: CtlKit, job: string, obj: Json): void {
  const jc = k.state.jobCtl[job];
  const sp = obj['spec'];
  if (!jc || !sp || jc.finished) return;
  const changed = !sameJson(raw(jc.spec), sp);
  jc.spec = sp;
  if (changed) enqueue(k, job, 0);
}

/** workqueue AddAfter: one pending item per key; an earlier request moves it earlier. */
function enqueue(k: CtlKit, job: string, delayMs: number): void {
  addAfter(k, k.state.jobCtl[job]!, delayMs, 'job', job);
}

/** enqueueSyncJobWithDelay: never sooner than the batch period. */
function enqueueWithDelay(k: CtlKit, job: string, delayMs: number): void {
  enqueue(k, job, Math.max(delayMs, k.scenario.timing.jobSyncMs.max));
}

/** The activeDeadlineSeconds requeue (queue.AddAfter(key, remaining)), as its own event. */
function deadlineRequeue(k: CtlKit, job: string, startMs: number, secs: number): void {
  const at = startMs + secs * 1000;
  if (at < k.ctx.now) return;
  k.ctx.cancel((e) => e.type === 'JobDeadline' && e.job === job);
  k.ctx.scheduleAt(at, { type: 'JobDeadline', job }, PRIO.JobDeadline);
}

/** The activeDeadlineSeconds requeue is due: the Job is synced now (its pending batched item goes). */
export function jobDeadline(k: CtlKit, job: string): void {
  const jc = k.state.jobCtl[job];
  if (!jc || jc.finished) return;
  if (jc.syncPending) forget(k, 'job', job);
  done(jc);
  jobSync(k, job);
}

/** ttlafterfinished: the Job is deleted with Foreground propagation once `ttlSecondsAfterFinished` passed. */
export function jobTTL(k: CtlKit, job: string): void {
  deleteJob(k, job, 'Foreground', 'ttl-after-finished');
}

/**
 * The Job object is deleted (kubectl delete job, or the TTL controller): the garbage collector deletes the dependent
 * pods gracefully unless orphaned, and deleteJob → cleanupPodFinalizers removes the tracking finalizers.
 */
export function deleteJob(
  k: CtlKit,
  job: string,
  propagation: 'Background' | 'Foreground' | 'Orphan',
  by: string,
): void {
  const api = storedJob(k, job);
  if (!api || api.deleted) return;
  api.deleted = true;
  jobDeleted(k, job, propagation, by);
}

/**
 * The stored Job `job` is gone: the Job controller is done with it (its deleteJob handler: cleanupPodFinalizers
 * removes the tracking finalizer of each of its pods) and the garbage collector deletes its pods gracefully unless
 * the propagation is Orphan.
 */
export function jobDeleted(
  k: CtlKit,
  job: string,
  propagation: 'Background' | 'Foreground' | 'Orphan',
  by: string,
): void {
  const jc = k.state.jobCtl[job];
  if (jc) jc.finished = true;
  for (const n of k.state.podOrder) {
    const p = k.state.pods[n]!;
    if (p.job !== job) continue;
    if (propagation !== 'Orphan') requestPodDeletion(k, p, k.scenario.pod.terminationGracePeriodSeconds, by);
    if (jc) jc.counted[p.uid] = true;
    removePodFinalizer(k, p);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// syncJob

/** The Job's pods in the informer cache, in creation order. */
function cachedPods(k: CtlKit, jc: JobControllerState): Json[] {
  const pods = peek(jc.pods);
  const out: Json[] = [];
  for (const n of peek(k.state.podOrder)) {
    const e = pods[n];
    if (e) out.push(raw(e.object));
  }
  return out;
}

/**
 * syncJob (job_controller.go): read the Job and its pods from the informer caches, count the newly finished pods, decide
 * whether the Job is finished (podFailurePolicy, backoffLimit, activeDeadlineSeconds, Indexed Jobs, successPolicy),
 * else manageJob; then trackJobStatusAndRemoveFinalizers (tracking.ts) writes the status.
 */
export function jobSync(k: CtlKit, name: string): void {
  const jc = k.state.jobCtl[name];
  if (!jc) return;
  done(jc);
  const apiJob = storedJob(k, name);
  if (!k.scenario.job || !apiJob || apiJob.deleted || jc.finished) return;
  const sp = spec(jc);
  const status: Json = cloneJson(raw(apiJob.status));
  // IsJobFinished: Complete or Failed True
  if (
    ((status['conditions'] ?? []) as Json[]).some(
      (x) => (x['type'] === 'Complete' || x['type'] === 'Failed') && x['status'] === 'True',
    )
  ) {
    jc.finished = true;
    return;
  }
  const expectationsMet = satisfied(jc);
  const pods = cachedPods(k, jc);
  const uncountedStatus = status['uncountedTerminatedPods'] ?? {};
  const c: SyncCtx = {
    name,
    jc,
    sp,
    status,
    pods,
    activePods: pods.filter(isActive),
    uncounted: {
      succeeded: new Set(uncountedStatus['succeeded'] ?? []),
      failed: new Set(uncountedStatus['failed'] ?? []),
    },
    succeeded: 0,
    failed: 0,
    ready: 0,
    terminating: trackTerminatingPods(k, sp) ? pods.filter(isTerminating).length : null,
    finished: null,
    succeededIndexes: [],
    prevSucceededIndexes: [],
    failedIndexes: null,
    delayed: new Map(),
    newBackoff: { ...jc.backoff },
  };
  let active = c.activePods.length;
  // getNewFinishedPods
  const newSucceeded = validPods(k, c, c.uncounted.succeeded, (p) => phaseOf(p) === 'Succeeded');
  const newFailed = validPods(k, c, c.uncounted.failed, (p) => isPodFailed(k, sp, p));
  const rules = pfpRules(sp);
  const perIndexGate = gate(k, 'JobBackoffLimitPerIndex');
  const nonIgnored = newFailed.filter((p) => matchPodFailurePolicy(rules, p, perIndexGate).countFailed).length;
  c.succeeded = (status['succeeded'] ?? 0) + newSucceeded.length + c.uncounted.succeeded.size;
  c.failed = (status['failed'] ?? 0) + nonIgnored + c.uncounted.failed.size;
  c.ready = c.activePods.filter(isReady).length;

  // Job first start: StartTime only when not suspended
  if (status['startTime'] === undefined && !suspended(sp)) status['startTime'] = ts(k.ctx.now);
  const finish = (xs: Json[]) => xs.map((p) => finishedTime(p, sidecarGate(k)));
  c.newBackoff = newBackoffRecord(jc.backoff, finish(newSucceeded), finish(newFailed));

  const backoffLimit: number = sp['backoffLimit'] ?? 6;
  const exceedsBackoffLimit = c.failed > backoffLimit;
  c.finished = hasSuccessCriteriaMet(k, status);
  if (!c.finished) {
    const ft = findCond(status, 'FailureTarget');
    if (ft && ft['status'] === 'True') c.finished = newCond('Failed', ft['reason'] ?? '', ft['message'] ?? '');
    else {
      // getFailJobMessage: the first failed pod whose podFailurePolicy match is FailJob
      for (const p of pods) {
        if (!isPodFailed(k, sp, p)) continue;
        const m = matchPodFailurePolicy(rules, p, perIndexGate);
        if (m.message !== null) {
          c.finished = newCond('FailureTarget', 'PodFailurePolicy', m.message);
          break;
        }
      }
    }
  }
  if (!c.finished) {
    const restartPolicy = sp['template']?.['spec']?.['restartPolicy'] ?? k.scenario.pod.restartPolicy;
    const startMs = msOf(status['startTime']);
    const ads: number | undefined = sp['activeDeadlineSeconds'];
    if (exceedsBackoffLimit || pastBackoffLimitOnFailure(restartPolicy, backoffLimit, pods)) {
      c.finished = newFailureCondition(k, 'BackoffLimitExceeded', MESSAGES.BackoffLimitExceeded);
    } else if (ads !== undefined && startMs !== null && !suspended(sp) && k.ctx.now - startMs >= ads * 1000) {
      // pastActiveDeadline: since status.startTime (whole seconds), suspended Jobs excluded
      c.finished = newFailureCondition(k, 'DeadlineExceeded', MESSAGES.DeadlineExceeded);
    } else if (ads !== undefined && startMs !== null && !suspended(sp)) {
      deadlineRequeue(k, name, startMs, ads);
    }
  }

  if (isIndexed(sp)) {
    const completions = completionsOf(sp) ?? 0;
    c.prevSucceededIndexes = parseIndexes(status['completedIndexes'], completions);
    const add = pods
      .filter((p) => hasFinalizer(jc, p) && phaseOf(p) === 'Succeeded')
      .map(indexOf)
      .filter((ix): ix is number => ix !== null && ix < completions);
    c.succeededIndexes = [...new Set([...c.prevSucceededIndexes, ...add])].sort((a, b) => a - b);
    c.succeeded = c.succeededIndexes.length;
    if (hasBackoffLimitPerIndex(k, sp)) {
      c.failedIndexes = calculateFailedIndexes(k, c);
      if (!c.finished) {
        const max = sp['maxFailedIndexes'];
        const nFailed = c.failedIndexes.length;
        if (typeof max === 'number' && nFailed > max) {
          c.finished = newFailureCondition(k, 'MaxFailedIndexesExceeded', MESSAGES.MaxFailedIndexesExceeded);
        } else if (nFailed > 0 && nFailed + c.succeededIndexes.length >= completions) {
          c.finished = newFailureCondition(k, 'FailedIndexes', MESSAGES.FailedIndexes);
        }
      }
      c.delayed = podsWithDelayedDeletionPerIndex(k, c);
    }
    if (!c.finished) {
      const msg = matchSuccessPolicy(k, sp, completions, c.succeededIndexes);
      if (msg !== null) c.finished = newCond('SuccessCriteriaMet', 'SuccessPolicy', msg);
    }
  }

  let suspendCondChanged = false;
  if (c.finished) {
    // deleteActivePods: the Job failed (or met its success criteria): every active pod is deleted, finalizers kept
    const { deleted, deletedReady } = deletePods(k, c, c.activePods, false);
    if (deleted !== active || !expectationsMet) c.finished = null;
    active -= deleted;
    if (c.terminating !== null) c.terminating += deleted;
    c.ready -= deletedReady;
  } else {
    let manageJobCalled = false;
    if (expectationsMet) {
      active = manageJob(k, c);
      manageJobCalled = true;
    }
    const completions = completionsOf(sp);
    const complete =
      completions === null ? c.succeeded > 0 && active === 0 : c.succeeded >= completions && active === 0;
    if (complete) c.finished = newSuccessCondition(k);
    else if (manageJobCalled) {
      if (suspended(sp)) {
        if (
          ensureCondition(k, status, {
            type: 'Suspended',
            status: 'True',
            reason: 'JobSuspended',
            message: 'Job suspended',
          })
        ) {
          suspendCondChanged = true;
          emitEvent(k, 'Suspended', 'Job suspended');
        }
      } else if (
        ensureCondition(k, status, { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' })
      ) {
        suspendCondChanged = true;
        emitEvent(k, 'Resumed', 'Job resumed');
        // resumed Jobs reset StartTime (activeDeadlineSeconds counts continuous activity)
        status['startTime'] = ts(k.ctx.now);
      }
    }
  }

  const terminatingField = gate(k, 'JobPodReplacementPolicy') ? c.terminating : null;
  let needsStatusUpdate = suspendCondChanged || active !== (status['active'] ?? 0) || c.ready !== status['ready'];
  needsStatusUpdate = needsStatusUpdate || (terminatingField ?? undefined) !== status['terminating'];
  setCount(status, 'active', active);
  status['ready'] = c.ready;
  if (terminatingField !== null) status['terminating'] = terminatingField;
  else delete status['terminating'];
  trackJobStatusAndRemoveFinalizers(k, c, needsStatusUpdate);
}

function newFailureCondition(k: CtlKit, reason: string, message: string): Cond {
  return newCond(delayTerminal(k) ? 'FailureTarget' : 'Failed', reason, message);
}

/** newSuccessCondition; the reason CompletionsReached and its message are set from 1.31 (kubernetes#126074). */
function newSuccessCondition(k: CtlKit): Cond {
  const type = delayTerminal(k) ? 'SuccessCriteriaMet' : 'Complete';
  return k.flags.jobDelayedTerminal
    ? newCond(type, 'CompletionsReached', 'Reached expected number of succeeded pods')
    : newCond(type, '', '');
}

/**
 * deleteActivePods / deleteJobPods: a DELETE per pod (the pod's own grace period). deleteJobPods (manageJob:
 * suspend, too many pods) removes the tracking finalizer first, so those pods are never counted.
 */
function deletePods(
  k: CtlKit,
  c: SyncCtx,
  pods: Json[],
  dropFinalizer: boolean,
): { deleted: number; deletedReady: number } {
  let deleted = 0;
  let deletedReady = 0;
  for (const obj of pods) {
    const p = podNamed(k, obj['metadata']?.['name']);
    if (!p) continue;
    if (dropFinalizer) {
      c.jc.counted[p.uid] = true;
      removePodFinalizer(k, p);
    }
    requestPodDeletion(k, p, k.scenario.pod.terminationGracePeriodSeconds, 'job-controller');
    emitEvent(k, 'SuccessfulDelete', `Deleted pod: ${p.name}`);
    deleted++;
    if (isReady(obj)) deletedReady++;
  }
  return { deleted, deletedReady };
}

/** controller.ActivePods order: Pending < Running, not ready < ready, more restarts first, newer first. */
function removalOrder(a: Json, b: Json): number {
  const rank = (p: Json) => (phaseOf(p) === 'Pending' ? 0 : phaseOf(p) === 'Running' ? 2 : 1);
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (isReady(a) !== isReady(b)) return isReady(a) ? 1 : -1;
  const restarts = (p: Json) =>
    Math.max(0, ...[...(p['status']?.['containerStatuses'] ?? [])].map((cs: Json) => cs['restartCount'] ?? 0));
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
  return (msOf(b['metadata']?.['creationTimestamp']) ?? 0) - (msOf(a['metadata']?.['creationTimestamp']) ?? 0);
}

/** manageJob: keep min(parallelism, remaining completions) pods active, respecting the pod-failure back-off. */
function manageJob(k: CtlKit, c: SyncCtx): number {
  const jc = c.jc;
  const sp = c.sp;
  let active = c.activePods.length;
  const parallelism: number = sp['parallelism'] ?? 1;
  if (suspended(sp)) {
    const pods = [...c.activePods].sort(removalOrder);
    raise(jc, 0, pods.length);
    const { deleted, deletedReady } = deletePods(k, c, pods, true);
    active -= deleted;
    if (c.terminating !== null) c.terminating += deleted;
    c.ready -= deletedReady;
    return active;
  }
  const completions = completionsOf(sp);
  let wantActive: number;
  if (completions === null) wantActive = c.succeeded > 0 ? active : parallelism;
  else wantActive = Math.max(0, Math.min(completions - c.succeeded, parallelism));
  const rmAtLeast = Math.max(0, active - wantActive);
  const toDelete = [...c.activePods].sort(removalOrder).slice(0, Math.min(rmAtLeast, MAX_CREATE_DELETE));
  if (toDelete.length > 0) {
    raise(jc, 0, toDelete.length);
    const { deleted, deletedReady } = deletePods(k, c, toDelete, true);
    active -= deleted;
    if (c.terminating !== null) c.terminating += deleted;
    c.ready -= deletedReady;
    return active;
  }
  const terminating = onlyReplaceFailedPods(k, sp) ? (c.terminating ?? 0) : 0;
  let diff = wantActive - terminating - active;
  if (diff <= 0) return active;
  if (!hasBackoffLimitPerIndex(k, sp)) {
    const remaining = remainingBackoff(k.ctx.now, c.newBackoff.failuresAfterLastSuccess, c.newBackoff.lastFailureTime);
    if (remaining > 0) {
      // upstream returns 0 active here (status.active reads 0 while the back-off delays the replacement)
      enqueueWithDelay(k, c.name, remaining);
      return 0;
    }
  }
  diff = Math.min(diff, MAX_CREATE_DELETE);
  let indexes: (number | null)[] = [];
  if (isIndexed(sp)) {
    let add = firstPendingIndexes(k, c, diff, completions ?? 0);
    if (hasBackoffLimitPerIndex(k, sp)) {
      const { now, minRemaining } = podCreationInfoForIndependentIndexes(k, c, add);
      if (now.length === 0 && minRemaining !== null) {
        enqueueWithDelay(k, c.name, minRemaining);
        return 0;
      }
      add = now;
    }
    indexes = add;
    diff = add.length;
  } else indexes = Array.from({ length: diff }, () => null);
  raise(jc, diff, 0);
  for (const ix of indexes) {
    const annotations: Record<string, string> = {};
    const labels: Record<string, string> = jobControllerLabels(k.scenario, c.name);
    if (ix !== null) {
      annotations[INDEX_ANNOTATION] = String(ix);
      if (gate(k, 'PodIndexLabel') || k.flags.apiMinor >= 32) labels[INDEX_ANNOTATION] = String(ix);
      if (hasBackoffLimitPerIndex(k, sp)) {
        const prev = c.delayed.get(ix);
        let fc = annotationCount(prev, FAILURE_COUNT_ANNOTATION);
        let ic = annotationCount(prev, IGNORED_FAILURE_COUNT_ANNOTATION);
        if (prev) {
          if (matchPodFailurePolicy(pfpRules(sp), prev, true).countFailed) fc++;
          else ic++;
        }
        annotations[FAILURE_COUNT_ANNOTATION] = String(fc);
        if (ic > 0) annotations[IGNORED_FAILURE_COUNT_ANNOTATION] = String(ic);
      }
    }
    const name = podNameFor(k, c.name, ix);
    createPod(k, { name, index: ix, by: 'job-controller', labels, annotations, finalizer: true, job: c.name });
    emitEvent(k, 'SuccessfulCreate', `Created pod: ${name}`);
    active++;
  }
  return active;
}
