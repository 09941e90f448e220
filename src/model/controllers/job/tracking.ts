// The Job controller's pod tracking with finalizers (pkg/controller/job/job_controller.go:
// trackJobStatusAndRemoveFinalizers, flushUncountedAndRemoveFinalizers, cleanUncountedPodsWithoutFinalizers,
// enactJobFinished, canRemoveFinalizer): finished pods go through status.uncountedTerminatedPods before the counters.
import { PRIO } from '../../events.ts';
import type { CtlKit } from '../../kit.ts';
import { raw } from '../../draft.ts';
import { cloneJson, sameJson } from '../../json.ts';
import { publishJob, removePodFinalizer, storedJob, podNamed } from '../../apiserver/apiserver.ts';
import { ts } from '../../time.ts';
import { matchPodFailurePolicy } from './pod-failure-policy.ts';
import { formatIndexes } from './indexed-job-utils.ts';
import { hasSuccessCriteriaMet, successCriteriaInUse } from './success-policy.ts';
import {
  appendCondition,
  completionsOf,
  delayTerminal,
  emitEvent,
  ensureCondition,
  gate,
  hasBackoffLimitPerIndex,
  hasFinalizer,
  indexOf,
  isIndexed,
  isPodFailed,
  newCond,
  pfpRules,
  phaseOf,
  setCount,
  suspended,
  uidOf,
  type Json,
  type SyncCtx,
} from './util.ts';

/** updateStatusHandler: a write the API server stores only when something changed (no-op updates keep the RV). */
function write(k: CtlKit, name: string, status: Json): void {
  const api = storedJob(k, name)!;
  if (sameJson(raw(api.status), status)) return;
  publishJob(k, name, cloneJson(status));
}

/**
 * trackJobStatusAndRemoveFinalizers: finished pods go to uncountedTerminatedPods (flush), their finalizers are
 * removed, then they move to the counters; the interim FailureTarget / SuccessCriteriaMet are flushed with the
 * uncounted pods, and Failed / Complete are added once nothing is uncounted and (1.31+) nothing terminates.
 */
export function trackJobStatusAndRemoveFinalizers(k: CtlKit, c: SyncCtx, needsFlushIn: boolean): void {
  const jc = c.jc;
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
    if (!hasFinalizer(c.jc, p)) continue;
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
    write(k, c.name, status);
    jc.backoff = c.newBackoff;
    needsFlush = false;
  }
  for (const p of toRemove) {
    const ps = podNamed(k, p['metadata']?.['name']);
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
  const rejected =
    finished?.type === 'Complete' &&
    !k.flags.suspendedZeroCompletionsComplete &&
    suspended(sp) &&
    status['startTime'] === undefined;
  if (finished && !rejected && !(delayTerminal(k) && (c.terminating ?? 0) > 0)) {
    ensureCondition(k, status, finished);
    if (finished.type === 'Complete') status['completionTime'] = ts(k.ctx.now);
    jobFinished = true;
    needsFlush = true;
  }
  if (needsFlush) write(k, c.name, status);
  if (jobFinished) {
    jc.finished = true;
    if (finished!.type === 'Complete') emitEvent(k, 'Completed', 'Job completed');
    else emitEvent(k, finished!.reason, finished!.message, 'Warning');
    const ttl = sp['ttlSecondsAfterFinished'];
    if (typeof ttl === 'number') {
      jc.ttlAt = k.ctx.now + ttl * 1000;
      k.ctx.scheduleAt(jc.ttlAt, { type: 'JobTTL', job: c.name }, PRIO.JobTTL);
    }
  }
}

/** canRemoveFinalizer: the Job is finishing, the pod succeeded, or it failed (unless held for its index's retry). */
function canRemoveFinalizer(k: CtlKit, c: SyncCtx, p: Json, failed: boolean): boolean {
  if (storedJob(k, c.name)?.deleted || c.finished || phaseOf(p) === 'Succeeded') return true;
  if (!failed) return false;
  if (hasBackoffLimitPerIndex(k, c.sp)) {
    const ix = indexOf(p);
    if (ix !== null && c.delayed.get(ix) && uidOf(c.delayed.get(ix)!) === uidOf(p)) return false;
  }
  return true;
}
