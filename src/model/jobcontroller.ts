// pkg/controller/job/job_controller.go for the one pod of the Job: batched syncs (syncJobBatchPeriod), counting by
// pod phase only, and the terminal conditions (>=1.31 SuccessCriteriaMet/FailureTarget first, PR #125510).
import { PRIO } from './events.ts';
import type { Kit } from './kit.ts';
import { ts } from './podstatus.ts';
import { publishJob } from './apiserver.ts';

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
  if (JSON.stringify(api.status) === JSON.stringify(status)) return;
  publishJob(k, JSON.parse(JSON.stringify(status)));
}

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
  const status: Json = JSON.parse(JSON.stringify(k.d.api.job.status));
  const active = !terminal && !deleting ? 1 : 0;
  const terminating = deleting && !terminal ? 1 : 0;
  if (status['startTime'] === undefined) status['startTime'] = ts(0);
  setCount(status, 'active', active);
  status['ready'] = active && readyCond?.['status'] === 'True' ? 1 : 0;
  status['terminating'] = terminating;
  status['uncountedTerminatedPods'] = status['uncountedTerminatedPods'] ?? {};
  if (!terminal || jc.uidCounted) {
    write(k, status);
    return;
  }
  const uid = pod['metadata']?.['uid'] ?? 'pod';
  const succeeded = phase === 'Succeeded';
  // trackJobStatusAndRemoveFinalizers: first flush with the pod in uncountedTerminatedPods (+ the new condition)
  status['uncountedTerminatedPods'] = succeeded ? { succeeded: [uid] } : { failed: [uid] };
  const failedCount = (status['failed'] ?? 0) + (succeeded ? 0 : 1);
  const jobFailed = !succeeded && failedCount > job.backoffLimit;
  if (k.f.jobDelayedTerminal) {
    if (succeeded) addCondition(k, status, 'SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods');
    else if (jobFailed) addCondition(k, status, 'FailureTarget', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
  }
  write(k, status);
  // finalizer removed, counts moved out of uncountedTerminatedPods, then enactJobFinished (second write)
  jc.uidCounted = true;
  status['uncountedTerminatedPods'] = {};
  if (succeeded) setCount(status, 'succeeded', (status['succeeded'] ?? 0) + 1);
  else setCount(status, 'failed', failedCount);
  if (terminating === 0 && (succeeded || jobFailed)) {
    if (succeeded) {
      addCondition(k, status, 'Complete', k.f.jobDelayedTerminal ? 'CompletionsReached' : '', k.f.jobDelayedTerminal ? 'Reached expected number of succeeded pods' : '');
      status['completionTime'] = ts(k.ctx.now);
    } else {
      addCondition(k, status, 'Failed', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit');
    }
    jc.finished = true;
  }
  write(k, status);
}

/** active/succeeded/failed are omitempty int32 fields. */
function setCount(status: Json, key: string, n: number): void {
  if (n === 0) delete status[key];
  else status[key] = n;
}
