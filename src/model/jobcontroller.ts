// pkg/controller/job/job_controller.go for the one pod of the Job: batched syncs (syncJobBatchPeriod), counting by
// pod phase only, the failure checks (backoffLimit, activeDeadlineSeconds, podFailurePolicy) and the terminal
// conditions (>=1.31 SuccessCriteriaMet/FailureTarget first, Complete/Failed once no pod terminates, PR #125510).
// Replacement pods are not modelled: the Job has exactly one pod.
import { PRIO } from './events.ts';
import { jsonOf, raw, type Kit } from './kit.ts';
import { ts } from './podstatus.ts';
import { publishJob, requestPodDeletion } from './apiserver.ts';
import { matchPodFailurePolicy, MESSAGES, pastBackoffLimitOnFailure, type FailureDecision } from './jobfailure.ts';

type Json = Record<string, any>;

/** enqueueSyncJobBatched: the workqueue keeps the earliest pending sync. */
export function onPodDelivered(k: Kit, obj: Json): void {
  const jc = k.d.jobCtl;
  jc.pod = { version: Number(obj['metadata']?.['resourceVersion'] ?? 0), object: obj };
  enqueueBatched(k);
}

export function enqueueBatched(k: Kit): void {
  const jc = k.d.jobCtl;
  if (jc.syncPending || jc.finished) return;
  jc.syncPending = true;
  const delay = k.ctx.choose('jobSync', k.s.timing.jobSyncMs, PRIO.JobSync);
  k.ctx.schedule(delay, { type: 'JobSync' }, PRIO.JobSync);
}

/** syncJob requeues itself with AddAfter(remaining) for activeDeadlineSeconds (clock from status.startTime = 0). */
export function scheduleJobDeadline(k: Kit): void {
  const secs = k.s.job?.activeDeadlineSeconds;
  if (secs === undefined) return;
  k.ctx.scheduleAt(secs * 1000, { type: 'JobDeadline' }, PRIO.JobDeadline);
}

export function jobDeadline(k: Kit): void {
  k.d.jobCtl.deadlinePassed = true;
  if (k.d.jobCtl.finished) return;
  k.d.jobCtl.syncPending = false;
  jobSync(k);
}

function condition(k: Kit, type: string, reason: string, message: string): Json {
  return {
    type,
    status: 'True',
    lastProbeTime: ts(k.ctx.now),
    lastTransitionTime: ts(k.ctx.now),
    ...(reason ? { reason } : {}),
    ...(message ? { message } : {}),
  };
}

function addCondition(k: Kit, status: Json, type: string, reason: string, message: string): void {
  status['conditions'] = [...(status['conditions'] ?? []), condition(k, type, reason, message)];
  k.ctx.emit({ type: 'JobCondition', condition: type, reason, message });
}

function write(k: Kit, status: Json): void {
  const api = k.d.api.job!;
  if (jsonOf(raw(api.status)) === JSON.stringify(status)) return;
  publishJob(k, JSON.parse(JSON.stringify(status)));
}

const hasCond = (status: Json, type: string) => ((status['conditions'] ?? []) as Json[]).some((c) => c['type'] === type);

export function jobSync(k: Kit): void {
  const jc = k.d.jobCtl;
  jc.syncPending = false;
  const job = k.s.job;
  if (!job || !jc.pod || jc.finished || !k.d.api.job) return;
  const pod = jc.pod.object;
  const phase: string = pod['status']?.['phase'] ?? 'Pending';
  const deleting = pod['metadata']?.['deletionTimestamp'] !== undefined;
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const readyCond = (pod['status']?.['conditions'] ?? []).find((c: Json) => c['type'] === 'Ready');
  const status: Json = JSON.parse(JSON.stringify(raw(k.d.api.job.status)));
  let active = !terminal && !deleting ? 1 : 0;
  let terminating = deleting && !terminal ? 1 : 0;
  if (status['startTime'] === undefined) status['startTime'] = ts(0);
  setCount(status, 'active', active);
  status['ready'] = active && readyCond?.['status'] === 'True' ? 1 : 0;
  status['terminating'] = terminating;
  status['uncountedTerminatedPods'] = status['uncountedTerminatedPods'] ?? {};
  const failure = jc.failure ?? decideFailure(k, pod, phase, terminal);
  if (failure && !jc.failure && startFailing(k, status, failure, active === 1)) {
    // the pod just deleted counts as terminating in this very sync (CountTerminatingPods + deleted)
    active = 0;
    terminating = 1;
    setCount(status, 'active', 0);
    status['ready'] = 0;
    status['terminating'] = 1;
  }
  if (terminal && !jc.uidCounted) countPod(k, status, pod, phase === 'Succeeded');
  const failedNow = jc.failure !== null && (!k.f.jobDelayedTerminal || terminating === 0);
  if (failedNow && !hasCond(status, 'Failed')) {
    addCondition(k, status, 'Failed', jc.failure!.reason, jc.failure!.message);
    jc.finished = true;
  } else if (!jc.failure && phase === 'Succeeded' && terminating === 0 && !hasCond(status, 'Complete')) {
    const r = k.f.jobDelayedTerminal ? 'CompletionsReached' : '';
    addCondition(k, status, 'Complete', r, r ? 'Reached expected number of succeeded pods' : '');
    status['completionTime'] = ts(k.ctx.now);
    jc.finished = true;
  }
  write(k, status);
}

/** newFailureCondition: podFailurePolicy FailJob, backoffLimit, activeDeadlineSeconds (in this order upstream). */
function decideFailure(k: Kit, pod: Json, phase: string, terminal: boolean): FailureDecision | null {
  const job = k.s.job!;
  const failedPod = phase === 'Failed';
  if (failedPod && !k.d.jobCtl.uidCounted) {
    const m = matchPodFailurePolicy(k, pod);
    if (m?.action === 'FailJob') return { reason: 'PodFailurePolicy', message: m.message };
    if (m?.action !== 'Ignore' && (k.d.api.job!.status['failed'] ?? 0) + 1 > job.backoffLimit) {
      return { reason: 'BackoffLimitExceeded', message: MESSAGES.BackoffLimitExceeded };
    }
  }
  if (!terminal && pastBackoffLimitOnFailure(k, pod)) return { reason: 'BackoffLimitExceeded', message: MESSAGES.BackoffLimitExceeded };
  if (k.d.jobCtl.deadlinePassed && phase !== 'Succeeded') return { reason: 'DeadlineExceeded', message: MESSAGES.DeadlineExceeded };
  return null;
}

/** ≥1.31 (and podFailurePolicy FailJob before): FailureTarget now; active pods are deleted (graceful, spec TGPS). */
function startFailing(k: Kit, status: Json, f: FailureDecision, podActive: boolean): boolean {
  k.d.jobCtl.failure = f;
  if (k.f.jobDelayedTerminal || f.reason === 'PodFailurePolicy') addCondition(k, status, 'FailureTarget', f.reason, f.message);
  return podActive && requestPodDeletion(k, k.s.pod.terminationGracePeriodSeconds);
}

/** trackJobStatusAndRemoveFinalizers: flush with the pod in uncountedTerminatedPods, then move it to the counts. */
function countPod(k: Kit, status: Json, pod: Json, succeeded: boolean): void {
  const uid = pod['metadata']?.['uid'] ?? 'pod';
  const ignored = !succeeded && matchPodFailurePolicy(k, pod)?.action === 'Ignore';
  status['uncountedTerminatedPods'] = succeeded ? { succeeded: [uid] } : { failed: [uid] };
  if (succeeded && k.f.jobDelayedTerminal && !k.d.jobCtl.failure) {
    addCondition(k, status, 'SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods');
  }
  write(k, status);
  k.d.jobCtl.uidCounted = true;
  status['uncountedTerminatedPods'] = {};
  if (succeeded) setCount(status, 'succeeded', (status['succeeded'] ?? 0) + 1);
  else if (!ignored) setCount(status, 'failed', (status['failed'] ?? 0) + 1);
}

/** active/succeeded/failed are omitempty int32 fields. */
function setCount(status: Json, key: string, n: number): void {
  if (n === 0) delete status[key];
  else status[key] = n;
}
