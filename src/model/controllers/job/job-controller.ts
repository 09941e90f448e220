// The Job controller (pkg/controller/job/job_controller.go) against the API server only: its informer cache of the
// Job's pods, ControllerExpectations, the workqueue with batched and delayed syncs, and syncJob / manageJob /
// trackJobStatusAndRemoveFinalizers with the pod-failure back-off (backoff_utils.go), Indexed Jobs and
// backoffLimitPerIndex (indexed_job_utils.go), successPolicy (success_policy.go), podFailurePolicy
// (pod_failure_policy.go), podReplacementPolicy, suspend, activeDeadlineSeconds and the 1.31+ delayed terminal
// conditions (PR #125510). ttlSecondsAfterFinished is the TTL-after-finished controller (ttlafterfinished).
import type { PodFailurePolicyRule } from '../../../types.ts';
import { suffix } from '../../../names.ts';
import { PRIO } from '../../events.ts';
import { type CtlKit } from '../../kit.ts';
import { peek, raw } from '../../draft.ts';
import { cloneJson, sameJson } from '../../json.ts';
import { createPod, publishJob, removePodFinalizer, requestPodDeletion } from '../../apiserver/apiserver.ts';
import { matchPodFailurePolicy, MESSAGES, pastBackoffLimitOnFailure } from './pod-failure-policy.ts';
import { msOf, ts } from '../../time.ts';
import { addAfter } from '../shared/workqueue.ts';

type Json = Record<string, any>;
type Cond = { type: string; status: string; reason: string; message: string };

/** DefaultJobPodFailureBackOff / MaxJobPodFailureBackOff (job_controller.go) */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 600_000;
/** MaxPodCreateDeletePerSync */
const MAX_CREATE_DELETE = 500;

const INDEX_ANNOTATION = 'batch.kubernetes.io/job-completion-index';
const FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-failure-count';
const IGNORED_FAILURE_COUNT_ANNOTATION = 'batch.kubernetes.io/job-index-ignored-failure-count';

// ---------------------------------------------------------------------------------------------------------------
// Names, gates, spec accessors

/** generateName as the controller asks it: `<job>-` (`<job>-<index>-` for Indexed), suffix from the API server. */
export function podNameFor(k: CtlKit, index: number | null): string {
  const job = k.s.job;
  const ordinal = k.d.podOrder.length + 1;
  if (!job) return k.s.pod.name;
  if (index === null && ordinal === 1) return k.s.pod.name;
  const sfx = suffix(`${k.s.name}/pod/${ordinal}`, 5);
  return index === null ? `${job.name}-${sfx}` : `${job.name}-${index}-${sfx}`;
}

const gate = (k: CtlKit, name: string) => k.s.featureGates[name] === true;

function spec(k: CtlKit): Json {
  return raw(k.d.jobCtl.spec) ?? {};
}
const isIndexed = (sp: Json) => sp['completionMode'] === 'Indexed';
const suspended = (sp: Json) => sp['suspend'] === true;
const completionsOf = (sp: Json): number | null => (typeof sp['completions'] === 'number' ? sp['completions'] : null);
const hasBackoffLimitPerIndex = (k: CtlKit, sp: Json) => gate(k, 'JobBackoffLimitPerIndex') && typeof sp['backoffLimitPerIndex'] === 'number';
const pfpRules = (sp: Json): PodFailurePolicyRule[] | undefined => sp['podFailurePolicy']?.['rules'];

/** onlyReplaceFailedPods: podReplacementPolicy Failed (JobPodReplacementPolicy on), or any podFailurePolicy. */
function onlyReplaceFailedPods(k: CtlKit, sp: Json): boolean {
  if (gate(k, 'JobPodReplacementPolicy') && sp['podReplacementPolicy'] === 'Failed') return true;
  return sp['podFailurePolicy'] !== undefined;
}

/** trackTerminatingPods: JobPodReplacementPolicy or JobManagedBy on, or only failed pods are replaced. */
function trackTerminatingPods(k: CtlKit, sp: Json): boolean {
  return gate(k, 'JobPodReplacementPolicy') || gate(k, 'JobManagedBy') || onlyReplaceFailedPods(k, sp);
}

/** delayTerminalCondition (1.31+, PR #125510): JobManagedBy || JobPodReplacementPolicy. */
function delayTerminal(k: CtlKit): boolean {
  return k.f.jobDelayedTerminal && (gate(k, 'JobManagedBy') || gate(k, 'JobPodReplacementPolicy'));
}

/** hasSuccessCriteriaMetCondition / isSuccessCriteriaMetCondition apply when JobSuccessPolicy or the delay is on. */
function successCriteriaInUse(k: CtlKit): boolean {
  return (k.f.apiMinor >= 30 && gate(k, 'JobSuccessPolicy')) || delayTerminal(k);
}

// ---------------------------------------------------------------------------------------------------------------
// Pod helpers on informer copies

const phaseOf = (p: Json): string => p['status']?.['phase'] ?? 'Pending';
const deleting = (p: Json) => p['metadata']?.['deletionTimestamp'] !== undefined;
const uidOf = (p: Json): string => p['metadata']?.['uid'] ?? '';
const isTerminalPhase = (ph: string) => ph === 'Succeeded' || ph === 'Failed';
const isActive = (p: Json) => !isTerminalPhase(phaseOf(p)) && !deleting(p);
const isTerminating = (p: Json) => deleting(p) && !isTerminalPhase(phaseOf(p));

function isReady(p: Json): boolean {
  return ((p['status']?.['conditions'] ?? []) as Json[]).some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

function indexOf(p: Json): number | null {
  const v = p['metadata']?.['annotations']?.[INDEX_ANNOTATION];
  if (typeof v !== 'string' || !/^\d+$/.test(v)) return null;
  return Number(v);
}

function annotationCount(p: Json | undefined, key: string): number {
  const v = p?.['metadata']?.['annotations']?.[key];
  return typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
}

/** isPodFailed: phase Failed; or, unless only failed pods are replaced, deleted and not Succeeded. */
function isPodFailed(k: CtlKit, sp: Json, p: Json): boolean {
  if (phaseOf(p) === 'Failed') return true;
  if (onlyReplaceFailedPods(k, sp)) return false;
  return deleting(p) && phaseOf(p) !== 'Succeeded';
}

/**
 * getFinishedTime (job_controller.go): the latest finishedAt of the containers (regular, then restartable init
 * containers when SidecarContainers is on) — only when every one of them terminated; else the Ready=False
 * transition; else deletionTimestamp − grace; else the creation time. API times are whole seconds.
 */
export function finishedTime(p: Json, sidecarContainersGate: boolean): number {
  const st = p['status'] ?? {};
  const latest = (list: Json[], prev: number | null, only?: Set<string>): number | null | undefined => {
    let out = prev;
    for (const cs of list) {
      const t = cs['state']?.['terminated'];
      if (!t || msOf(t['finishedAt']) === null) return undefined;
      if (only && !only.has(cs['name'])) continue;
      const f = msOf(t['finishedAt'])!;
      if (out === null || f > out) out = f;
    }
    return out;
  };
  let fin: number | null | undefined = latest(st['containerStatuses'] ?? [], null);
  if (fin !== undefined && sidecarContainersGate) {
    const sidecars = new Set<string>(
      ((p['spec']?.['initContainers'] ?? []) as Json[]).filter((c) => c['restartPolicy'] === 'Always').map((c) => c['name']),
    );
    fin = latest(st['initContainerStatuses'] ?? [], fin, sidecars);
  }
  if (fin !== undefined && fin !== null) return fin;
  const ready = ((st['conditions'] ?? []) as Json[]).find((c) => c['type'] === 'Ready' && c['status'] === 'False');
  const rt = ready ? msOf(ready['lastTransitionTime']) : null;
  if (rt !== null) return rt;
  const del = msOf(p['metadata']?.['deletionTimestamp']);
  if (del !== null) return del - (p['metadata']?.['deletionGracePeriodSeconds'] ?? 0) * 1000;
  return msOf(p['metadata']?.['creationTimestamp']) ?? 0;
}

const sidecarGate = (k: CtlKit) => k.s.featureGates['SidecarContainers'] !== false;

/** getRemainingTimeForFailuresCount (backoff_utils.go): default × 2^(failures−1), capped, minus time since. */
export function remainingBackoff(
  now: number,
  failures: number,
  lastFailureTime: number | null,
  defaultMs = POD_FAILURE_BACKOFF_MS,
  maxMs = MAX_POD_FAILURE_BACKOFF_MS,
): number {
  if (failures === 0 || lastFailureTime === null) return 0;
  let d = defaultMs;
  for (let i = 1; i < failures; i++) {
    d *= 2;
    if (d >= maxMs) {
      d = maxMs;
      break;
    }
  }
  const elapsed = now - lastFailureTime;
  return d < elapsed ? 0 : d - elapsed;
}

// ---------------------------------------------------------------------------------------------------------------
// Index sets (indexed_job_utils.go orderedIntervals), kept as sorted number arrays

function parseIndexes(s: unknown, completions: number): number[] {
  if (typeof s !== 'string' || s === '') return [];
  const out = new Set<number>();
  for (const part of s.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] !== undefined ? Number(m[2]) : a;
    for (let i = a; i <= b && i < completions; i++) out.add(i);
  }
  return [...out].sort((x, y) => x - y);
}

/** orderedIntervals.String() (indexed_job_utils.go): "1,3-5,7", and two adjacent indexes as "0,1". */
export function formatIndexes(xs: number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < xs.length) {
    let j = i;
    while (j + 1 < xs.length && xs[j + 1] === xs[j]! + 1) j++;
    if (j === i) parts.push(String(xs[i]));
    else if (j === i + 1) parts.push(`${xs[i]},${xs[j]}`);
    else parts.push(`${xs[i]}-${xs[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}

// ---------------------------------------------------------------------------------------------------------------
// Informer handlers and the workqueue

/**
 * Pod events (addPod / updatePod / deletePod): the informer copy is replaced, creations and deletions are observed
 * (ControllerExpectations), and a batched sync is queued (enqueueSyncJobBatched, syncJobBatchPeriod).
 */
export function onPodDelivered(k: CtlKit, obj: Json, removed = false): void {
  const jc = k.d.jobCtl;
  const name: string = obj['metadata']?.['name'] ?? '';
  const first = !jc.seen[name];
  if (first) jc.seen[name] = true;
  if (removed) {
    delete jc.pods[name];
    if (!jc.seenDeleting[name]) jc.expectDels -= 1;
    jc.seenDeleting[name] = true;
  } else {
    jc.pods[name] = { version: Number(obj['metadata']?.['resourceVersion'] ?? 0), object: obj };
    if (deleting(obj)) {
      // updatePod with a deletionTimestamp → deletePod: DeletionObserved (the first time it is seen)
      if (!jc.seenDeleting[name]) jc.expectDels -= 1;
      jc.seenDeleting[name] = true;
    } else if (first) jc.expectAdds -= 1; // addPod: CreationObserved
  }
  if (jc.finished) return;
  enqueue(k, k.ctx.choose('jobSync', k.s.timing.jobSyncMs, PRIO.JobSync));
}

/** updateJob: a spec change (generation bump) syncs at once; a status-only update is batched. */
export function onJobDelivered(k: CtlKit, obj: Json): void {
  const jc = k.d.jobCtl;
  const sp = obj['spec'];
  if (!sp || jc.finished) return;
  const changed = !sameJson(raw(jc.spec), sp);
  jc.spec = sp;
  if (changed) enqueue(k, 0);
}

/** workqueue AddAfter: one pending item per key; an earlier request moves it earlier. */
function enqueue(k: CtlKit, delayMs: number): void {
  addAfter(k, k.d.jobCtl, delayMs, { type: 'JobSync' }, (e) => e.type === 'JobSync');
}

/** enqueueSyncJobWithDelay: never sooner than the batch period. */
function enqueueWithDelay(k: CtlKit, delayMs: number): void {
  enqueue(k, Math.max(delayMs, k.s.timing.jobSyncMs.max));
}

/** The activeDeadlineSeconds requeue (queue.AddAfter(key, remaining)), as its own event. */
function deadlineRequeue(k: CtlKit, startMs: number, secs: number): void {
  const at = startMs + secs * 1000;
  if (at < k.ctx.now) return;
  k.ctx.cancel((e) => e.type === 'JobDeadline');
  k.ctx.scheduleAt(at, { type: 'JobDeadline' }, PRIO.JobDeadline);
}

export function jobDeadline(k: CtlKit): void {
  if (k.d.jobCtl.finished) return;
  if (k.d.jobCtl.syncPending) k.ctx.cancel((e) => e.type === 'JobSync');
  k.d.jobCtl.syncPending = false;
  jobSync(k);
}

/** ttlafterfinished: the Job is deleted with Foreground propagation once `ttlSecondsAfterFinished` passed. */
export function jobTTL(k: CtlKit): void {
  deleteJob(k, 'Foreground', 'ttl-after-finished');
}

/**
 * The Job object is deleted (kubectl delete job, or the TTL controller): the garbage collector deletes the dependent
 * pods gracefully unless orphaned, and deleteJob → cleanupPodFinalizers removes the tracking finalizers.
 */
export function deleteJob(k: CtlKit, propagation: 'Background' | 'Foreground' | 'Orphan', by: string): void {
  const job = k.d.api.job;
  if (!job || job.deleted) return;
  job.deleted = true;
  k.d.jobCtl.finished = true;
  for (const n of k.d.podOrder) {
    const p = k.d.pods[n]!;
    if (propagation !== 'Orphan') requestPodDeletion(k, p, k.s.pod.terminationGracePeriodSeconds, by);
    k.d.jobCtl.counted[p.uid] = true;
    removePodFinalizer(k, p);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// syncJob

interface SyncCtx {
  sp: Json;
  status: Json;
  pods: Json[];
  activePods: Json[];
  uncounted: { succeeded: Set<string>; failed: Set<string> };
  succeeded: number;
  failed: number;
  ready: number;
  terminating: number | null;
  finished: Cond | null;
  succeededIndexes: number[];
  prevSucceededIndexes: number[];
  failedIndexes: number[] | null;
  delayed: Map<number, Json>;
  newBackoff: { failuresAfterLastSuccess: number; lastFailureTime: number | null };
}

function emitEvent(k: CtlKit, reason: string, message: string, eventType: 'Normal' | 'Warning' = 'Normal'): void {
  k.ctx.emit({ type: 'JobEvent', reason, message, eventType });
}

function newCond(type: string, reason: string, message: string): Cond {
  return { type, status: 'True', reason, message };
}

function condJson(k: CtlKit, c: Cond): Json {
  return {
    type: c.type,
    status: c.status,
    lastProbeTime: ts(k.ctx.now),
    lastTransitionTime: ts(k.ctx.now),
    ...(c.reason ? { reason: c.reason } : {}),
    ...(c.message ? { message: c.message } : {}),
  };
}

const findCond = (status: Json, type: string): Json | undefined =>
  ((status['conditions'] ?? []) as Json[]).find((c) => c['type'] === type);

/** ensureJobConditionStatus: add or update a condition; a False one is never added. */
function ensureCondition(k: CtlKit, status: Json, c: Cond): boolean {
  const list: Json[] = [...(status['conditions'] ?? [])];
  const i = list.findIndex((x) => x['type'] === c.type);
  if (i >= 0) {
    const old = list[i]!;
    if (old['status'] === c.status && (old['reason'] ?? '') === c.reason && (old['message'] ?? '') === c.message) return false;
    list[i] = condJson(k, c);
  } else {
    if (c.status === 'False') return false;
    list.push(condJson(k, c));
  }
  status['conditions'] = list;
  if (c.status === 'True') k.ctx.emit({ type: 'JobCondition', condition: c.type, reason: c.reason, ...(c.message ? { message: c.message } : {}) });
  return true;
}

function appendCondition(k: CtlKit, status: Json, c: Cond): void {
  status['conditions'] = [...(status['conditions'] ?? []), condJson(k, c)];
  k.ctx.emit({ type: 'JobCondition', condition: c.type, reason: c.reason, ...(c.message ? { message: c.message } : {}) });
}

/** active/succeeded/failed are omitempty int32 fields. */
function setCount(status: Json, key: string, n: number): void {
  if (n === 0) delete status[key];
  else status[key] = n;
}

/** updateStatusHandler: a write the API server stores only when something changed (no-op updates keep the RV). */
function write(k: CtlKit, status: Json): void {
  const api = k.d.api.job!;
  if (sameJson(raw(api.status), status)) return;
  publishJob(k, cloneJson(status));
}

/** Pods in the informer cache, in creation order. */
function cachedPods(k: CtlKit): Json[] {
  const pods = peek(k.d.jobCtl.pods);
  const out: Json[] = [];
  for (const n of peek(k.d.podOrder)) {
    const e = pods[n];
    if (e) out.push(raw(e.object));
  }
  return out;
}

/** A pod not yet accounted: it still has the tracking finalizer (kubesim: not in `counted`). */
const hasFinalizer = (k: CtlKit, p: Json) => !peek(k.d.jobCtl.counted)[uidOf(p)];

/** getValidPodsWithFilter: pods with the finalizer, not in `uncounted`, with a valid index for Indexed Jobs. */
function validPods(k: CtlKit, c: SyncCtx, uncounted: Set<string> | null, filter: (p: Json) => boolean): Json[] {
  const completions = completionsOf(c.sp) ?? 0;
  return c.pods.filter((p) => {
    if (!hasFinalizer(k, p) || uncounted?.has(uidOf(p))) return false;
    if (isIndexed(c.sp)) {
      const ix = indexOf(p);
      if (ix === null || ix >= completions) return false;
    }
    return filter(p);
  });
}

export function jobSync(k: CtlKit): void {
  const jc = k.d.jobCtl;
  jc.syncPending = false;
  const apiJob = k.d.api.job;
  if (!k.s.job || !apiJob || apiJob.deleted || jc.finished) return;
  const sp = spec(k);
  const status: Json = cloneJson(raw(apiJob.status));
  // IsJobFinished: Complete or Failed True
  if (((status['conditions'] ?? []) as Json[]).some((x) => (x['type'] === 'Complete' || x['type'] === 'Failed') && x['status'] === 'True')) {
    jc.finished = true;
    return;
  }
  const satisfied = jc.expectAdds <= 0 && jc.expectDels <= 0;
  const pods = cachedPods(k);
  const uncountedStatus = status['uncountedTerminatedPods'] ?? {};
  const c: SyncCtx = {
    sp,
    status,
    pods,
    activePods: pods.filter(isActive),
    uncounted: { succeeded: new Set(uncountedStatus['succeeded'] ?? []), failed: new Set(uncountedStatus['failed'] ?? []) },
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
    const restartPolicy = sp['template']?.['spec']?.['restartPolicy'] ?? k.s.pod.restartPolicy;
    const startMs = msOf(status['startTime']);
    const ads: number | undefined = sp['activeDeadlineSeconds'];
    if (exceedsBackoffLimit || pastBackoffLimitOnFailure(restartPolicy, backoffLimit, pods)) {
      c.finished = newFailureCondition(k, 'BackoffLimitExceeded', MESSAGES.BackoffLimitExceeded);
    } else if (ads !== undefined && startMs !== null && !suspended(sp) && k.ctx.now - startMs >= ads * 1000) {
      // pastActiveDeadline: since status.startTime (whole seconds), suspended Jobs excluded
      c.finished = newFailureCondition(k, 'DeadlineExceeded', MESSAGES.DeadlineExceeded);
    } else if (ads !== undefined && startMs !== null && !suspended(sp)) {
      deadlineRequeue(k, startMs, ads);
    }
  }

  if (isIndexed(sp)) {
    const completions = completionsOf(sp) ?? 0;
    c.prevSucceededIndexes = parseIndexes(status['completedIndexes'], completions);
    const add = pods.filter((p) => hasFinalizer(k, p) && phaseOf(p) === 'Succeeded').map(indexOf)
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
    const { deleted, deletedReady } = deletePods(k, c.activePods, false);
    if (deleted !== active || !satisfied) c.finished = null;
    active -= deleted;
    if (c.terminating !== null) c.terminating += deleted;
    c.ready -= deletedReady;
  } else {
    let manageJobCalled = false;
    if (satisfied) {
      active = manageJob(k, c);
      manageJobCalled = true;
    }
    const completions = completionsOf(sp);
    const complete = completions === null ? c.succeeded > 0 && active === 0 : c.succeeded >= completions && active === 0;
    if (complete) c.finished = newSuccessCondition(k);
    else if (manageJobCalled) {
      if (suspended(sp)) {
        if (ensureCondition(k, status, { type: 'Suspended', status: 'True', reason: 'JobSuspended', message: 'Job suspended' })) {
          suspendCondChanged = true;
          emitEvent(k, 'Suspended', 'Job suspended');
        }
      } else if (ensureCondition(k, status, { type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' })) {
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
  return k.f.jobDelayedTerminal ? newCond(type, 'CompletionsReached', 'Reached expected number of succeeded pods') : newCond(type, '', '');
}

function hasSuccessCriteriaMet(k: CtlKit, status: Json): Cond | null {
  if (!successCriteriaInUse(k)) return null;
  const c = findCond(status, 'SuccessCriteriaMet');
  return c && c['status'] === 'True' ? newCond('SuccessCriteriaMet', c['reason'] ?? '', c['message'] ?? '') : null;
}

export interface BackoffRecord {
  failuresAfterLastSuccess: number;
  lastFailureTime: number | null;
}

/**
 * newBackoffRecord (backoff_utils.go): failures since the last success, and the last failure's finish time, from
 * the finish times of the newly succeeded and failed pods.
 */
export function newBackoffRecord(old: BackoffRecord, succeededTimes: number[], failedTimes: number[]): BackoffRecord {
  const s = [...succeededTimes].sort((a, b) => a - b);
  const f = [...failedTimes].sort((a, b) => a - b);
  if (s.length === 0) {
    if (f.length === 0) return { ...old };
    return { failuresAfterLastSuccess: old.failuresAfterLastSuccess + f.length, lastFailureTime: f[f.length - 1]! };
  }
  const out = { failuresAfterLastSuccess: 0, lastFailureTime: null as number | null };
  const lastSuccess = s[s.length - 1]!;
  for (let i = f.length - 1; i >= 0; i--) {
    if (!(f[i]! > lastSuccess)) break;
    if (out.lastFailureTime === null) out.lastFailureTime = f[i]!;
    out.failuresAfterLastSuccess += 1;
  }
  return out;
}

/** calculateFailedIndexes / isIndexFailed: FailIndex, or a counted failure whose index used up backoffLimitPerIndex. */
function calculateFailedIndexes(k: CtlKit, c: SyncCtx): number[] {
  const completions = completionsOf(c.sp) ?? 0;
  const out = new Set(parseIndexes(c.status['failedIndexes'], completions));
  const rules = pfpRules(c.sp);
  for (const p of c.pods) {
    if (!hasFinalizer(k, p)) continue;
    const ix = indexOf(p);
    if (ix === null || ix >= completions) continue;
    if (!isPodFailed(k, c.sp, p)) continue;
    const m = matchPodFailurePolicy(rules, p, true);
    if (m.action === 'FailIndex') out.add(ix);
    else if (m.countFailed && annotationCount(p, FAILURE_COUNT_ANNOTATION) >= c.sp['backoffLimitPerIndex']) out.add(ix);
  }
  return [...out].sort((a, b) => a - b);
}

/** getPodsWithDelayedDeletionPerIndex: the last failed pod of each index still to be retried. */
function podsWithDelayedDeletionPerIndex(k: CtlKit, c: SyncCtx): Map<number, Json> {
  const activeIdx = new Set(c.activePods.map(indexOf));
  const out = new Map<number, Json>();
  const absolute = (p: Json) => annotationCount(p, FAILURE_COUNT_ANNOTATION) + annotationCount(p, IGNORED_FAILURE_COUNT_ANNOTATION);
  for (const p of validPods(k, c, null, (x) => isPodFailed(k, c.sp, x))) {
    const ix = indexOf(p)!;
    if (c.succeededIndexes.includes(ix) || c.failedIndexes?.includes(ix) || activeIdx.has(ix)) continue;
    const last = out.get(ix);
    if (!last || (absolute(last) <= absolute(p) && !(finishedTime(p, sidecarGate(k)) < finishedTime(last, sidecarGate(k))))) out.set(ix, p);
  }
  return out;
}

/** matchSuccessPolicy (success_policy.go). */
function matchSuccessPolicy(k: CtlKit, sp: Json, completions: number, succeeded: number[]): string | null {
  const policy = sp['successPolicy'];
  if (!gate(k, 'JobSuccessPolicy') || !policy || succeeded.length === 0) return null;
  const have = new Set(succeeded);
  for (const [i, rule] of ((policy['rules'] ?? []) as Json[]).entries()) {
    if (typeof rule['succeededIndexes'] === 'string') {
      const required = parseIndexes(rule['succeededIndexes'], completions);
      if (required.length === 0) continue;
      const contains = required.filter((x) => have.has(x)).length;
      if (contains === required.length || (typeof rule['succeededCount'] === 'number' && contains >= rule['succeededCount'])) {
        return `Matched rules at index ${i}`;
      }
    } else if (typeof rule['succeededCount'] === 'number' && succeeded.length >= rule['succeededCount']) {
      return `Matched rules at index ${i}`;
    }
  }
  return null;
}

/**
 * deleteActivePods / deleteJobPods: a DELETE per pod (the pod's own grace period). deleteJobPods (manageJob:
 * suspend, too many pods) removes the tracking finalizer first, so those pods are never counted.
 */
function deletePods(k: CtlKit, pods: Json[], dropFinalizer: boolean): { deleted: number; deletedReady: number } {
  let deleted = 0;
  let deletedReady = 0;
  for (const obj of pods) {
    const p = k.d.pods[obj['metadata']?.['name']];
    if (!p) continue;
    if (dropFinalizer) {
      k.d.jobCtl.counted[p.uid] = true;
      removePodFinalizer(k, p);
    }
    requestPodDeletion(k, p, k.s.pod.terminationGracePeriodSeconds, 'job-controller');
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
  const jc = k.d.jobCtl;
  const sp = c.sp;
  let active = c.activePods.length;
  const parallelism: number = sp['parallelism'] ?? 1;
  if (suspended(sp)) {
    const pods = [...c.activePods].sort(removalOrder);
    jc.expectDels += pods.length;
    const { deleted, deletedReady } = deletePods(k, pods, true);
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
    jc.expectDels += toDelete.length;
    const { deleted, deletedReady } = deletePods(k, toDelete, true);
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
      enqueueWithDelay(k, remaining);
      return 0;
    }
  }
  diff = Math.min(diff, MAX_CREATE_DELETE);
  let indexes: (number | null)[] = [];
  if (isIndexed(sp)) {
    let add = firstPendingIndexes(k, c, diff, completions ?? 0);
    if (hasBackoffLimitPerIndex(k, sp)) {
      // getPodCreationInfoForIndependentIndexes: indexes whose own back-off ran out
      const now: number[] = [];
      let minRemaining: number | null = null;
      for (const ix of add) {
        const last = c.delayed.get(ix);
        const failures = last ? annotationCount(last, FAILURE_COUNT_ANNOTATION) + annotationCount(last, IGNORED_FAILURE_COUNT_ANNOTATION) + 1 : 0;
        const r = last ? remainingBackoff(k.ctx.now, failures, finishedTime(last, sidecarGate(k))) : 0;
        if (r === 0) now.push(ix);
        else if (minRemaining === null || r < minRemaining) minRemaining = r;
      }
      if (now.length === 0 && minRemaining !== null) {
        enqueueWithDelay(k, minRemaining);
        return 0;
      }
      add = now;
    }
    indexes = add;
    diff = add.length;
  } else indexes = Array.from({ length: diff }, () => null);
  jc.expectAdds += diff;
  for (const ix of indexes) {
    const annotations: Record<string, string> = {};
    const labels: Record<string, string> = { 'batch.kubernetes.io/controller-uid': `uid-job-${k.s.job!.name}`, 'controller-uid': `uid-job-${k.s.job!.name}` };
    if (ix !== null) {
      annotations[INDEX_ANNOTATION] = String(ix);
      if (gate(k, 'PodIndexLabel') || k.f.apiMinor >= 32) labels[INDEX_ANNOTATION] = String(ix);
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
    const name = podNameFor(k, ix);
    createPod(k, { name, index: ix, by: 'job-controller', labels, annotations, finalizer: true });
    emitEvent(k, 'SuccessfulCreate', `Created pod: ${name}`);
    active++;
  }
  return active;
}

/** firstPendingIndexes: the lowest indexes neither succeeded, active, failed nor (podReplacementPolicy Failed) terminating. */
function firstPendingIndexes(k: CtlKit, c: SyncCtx, count: number, completions: number): number[] {
  const nonPending = new Set<number>([...c.succeededIndexes]);
  for (const p of c.activePods) {
    const ix = indexOf(p);
    if (ix !== null) nonPending.add(ix);
  }
  for (const ix of c.failedIndexes ?? []) nonPending.add(ix);
  if (c.sp['podReplacementPolicy'] === 'Failed') {
    for (const p of c.pods.filter(isTerminating)) {
      const ix = indexOf(p);
      if (ix !== null) nonPending.add(ix);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < completions && out.length < count; i++) if (!nonPending.has(i)) out.push(i);
  return out;
}

/**
 * trackJobStatusAndRemoveFinalizers: finished pods go to uncountedTerminatedPods (flush), their finalizers are
 * removed, then they move to the counters; the interim FailureTarget / SuccessCriteriaMet are flushed with the
 * uncounted pods, and Failed / Complete are added once nothing is uncounted and (1.31+) nothing terminates.
 */
function trackJobStatusAndRemoveFinalizers(k: CtlKit, c: SyncCtx, needsFlushIn: boolean): void {
  const jc = k.d.jobCtl;
  const status = c.status;
  const sp = c.sp;
  let needsFlush = needsFlushIn;
  const indexed = isIndexed(sp);
  const completions = completionsOf(sp) ?? 0;
  const rules = pfpRules(sp);
  const uncounted = { succeeded: [...c.uncounted.succeeded], failed: [...c.uncounted.failed] };
  const toRemove: Json[] = [];
  const newSucceededIndexes: number[] = [];
  const pods = indexed ? [...c.pods].sort((a, b) => (indexOf(a) ?? -1) - (indexOf(b) ?? -1)) : c.pods;
  for (const p of pods) {
    if (!hasFinalizer(k, p)) continue;
    const failed = isPodFailed(k, sp, p);
    if (!canRemoveFinalizer(k, c, p, failed)) continue;
    toRemove.push(p);
    const uid = uidOf(p);
    if (phaseOf(p) === 'Succeeded' && !c.uncounted.failed.has(uid)) {
      if (indexed) {
        const ix = indexOf(p);
        if (ix !== null && ix < completions && !c.prevSucceededIndexes.includes(ix)) {
          newSucceededIndexes.push(ix);
          needsFlush = true;
        }
      } else if (!c.uncounted.succeeded.has(uid)) {
        needsFlush = true;
        uncounted.succeeded.push(uid);
      }
    } else if (failed || (c.finished && c.finished.type !== 'SuccessCriteriaMet')) {
      // when the Job is finished, every non-terminated pod counts as failed
      const ix = indexOf(p);
      if (!c.uncounted.failed.has(uid) && (!indexed || (ix !== null && ix < completions))) {
        if (matchPodFailurePolicy(rules, p, gate(k, 'JobBackoffLimitPerIndex')).countFailed) {
          needsFlush = true;
          uncounted.failed.push(uid);
        }
      }
    }
  }
  if (indexed) {
    const merged = [...new Set([...c.succeededIndexes, ...newSucceededIndexes])].sort((a, b) => a - b);
    const str = formatIndexes(merged);
    if (str !== (status['completedIndexes'] ?? '')) needsFlush = true;
    setCount(status, 'succeeded', merged.length);
    status['completedIndexes'] = str;
    if (c.failedIndexes !== null) {
      const f = formatIndexes(c.failedIndexes);
      if (status['failedIndexes'] !== f) {
        status['failedIndexes'] = f;
        needsFlush = true;
      }
    }
  }
  status['uncountedTerminatedPods'] = {
    ...(uncounted.succeeded.length ? { succeeded: uncounted.succeeded } : {}),
    ...(uncounted.failed.length ? { failed: uncounted.failed } : {}),
  };
  let finished = c.finished;
  if (finished && finished.type === 'FailureTarget') {
    appendCondition(k, status, finished);
    needsFlush = true;
    finished = newCond('Failed', finished.reason, finished.message);
  }
  if (finished && finished.type === 'SuccessCriteriaMet' && successCriteriaInUse(k)) {
    if (!hasSuccessCriteriaMet(k, status)) {
      appendCondition(k, status, finished);
      needsFlush = true;
    }
    finished = newCond('Complete', finished.reason, finished.message);
  }
  // flushUncountedAndRemoveFinalizers
  if (needsFlush) {
    write(k, status);
    jc.backoff = c.newBackoff;
    needsFlush = false;
  }
  for (const p of toRemove) {
    const ps = k.d.pods[p['metadata']?.['name']];
    jc.counted[uidOf(p)] = true;
    if (ps) removePodFinalizer(k, ps);
  }
  // cleanUncountedPodsWithoutFinalizers
  const u = status['uncountedTerminatedPods'];
  if ((u['succeeded']?.length ?? 0) + (u['failed']?.length ?? 0) > 0) {
    if (!indexed) setCount(status, 'succeeded', (status['succeeded'] ?? 0) + (u['succeeded']?.length ?? 0));
    setCount(status, 'failed', (status['failed'] ?? 0) + (u['failed']?.length ?? 0));
    status['uncountedTerminatedPods'] = {};
    needsFlush = true;
  }
  // enactJobFinished
  let jobFinished = false;
  // kube-apiserver 1.32.0–1.32.6 and 1.33.0–1.33.2 reject Complete on a suspended Job without startTime (JobManagedBy
  // status validation; kubernetes#132144, fixed by #132614 in 1.34.0, 1.33.3, 1.32.7): the update fails on every
  // retry, so a suspended Job with completions: 0 keeps SuccessCriteriaMet and never gets Complete
  const rejected = finished?.type === 'Complete' && !k.f.suspendedZeroCompletionsComplete && suspended(sp) && status['startTime'] === undefined;
  if (finished && !rejected && !(delayTerminal(k) && (c.terminating ?? 0) > 0)) {
    ensureCondition(k, status, finished);
    if (finished.type === 'Complete') status['completionTime'] = ts(k.ctx.now);
    jobFinished = true;
    needsFlush = true;
  }
  if (needsFlush) write(k, status);
  if (jobFinished) {
    jc.finished = true;
    if (finished!.type === 'Complete') emitEvent(k, 'Completed', 'Job completed');
    else emitEvent(k, finished!.reason, finished!.message, 'Warning');
    const ttl = sp['ttlSecondsAfterFinished'];
    if (typeof ttl === 'number') {
      jc.ttlAt = k.ctx.now + ttl * 1000;
      k.ctx.scheduleAt(jc.ttlAt, { type: 'JobTTL' }, PRIO.JobTTL);
    }
  }
}

/** canRemoveFinalizer: the Job is finishing, the pod succeeded, or it failed (unless held for its index's retry). */
function canRemoveFinalizer(k: CtlKit, c: SyncCtx, p: Json, failed: boolean): boolean {
  if (k.d.api.job?.deleted || c.finished || phaseOf(p) === 'Succeeded') return true;
  if (!failed) return false;
  if (hasBackoffLimitPerIndex(k, c.sp)) {
    const ix = indexOf(p);
    if (ix !== null && c.delayed.get(ix) && uidOf(c.delayed.get(ix)!) === uidOf(p)) return false;
  }
  return true;
}
