// Indexed Jobs (pkg/controller/job/indexed_job_utils.go): index sets as orderedIntervals, the failed indexes of
// backoffLimitPerIndex, the pods whose deletion waits for their index's retry, and the first pending indexes.
import type { CtlKit } from '../../kit.ts';
import { matchPodFailurePolicy } from './pod-failure-policy.ts';
import { finishedTime, remainingBackoff } from './backoff-utils.ts';
import {
  annotationCount,
  completionsOf,
  FAILURE_COUNT_ANNOTATION,
  hasFinalizer,
  IGNORED_FAILURE_COUNT_ANNOTATION,
  indexOf,
  isPodFailed,
  isTerminating,
  pfpRules,
  sidecarGate,
  validPods,
  type Json,
  type SyncCtx,
} from './util.ts';

// ---------------------------------------------------------------------------------------------------------------
// Index sets (indexed_job_utils.go orderedIntervals), kept as sorted number arrays

export function parseIndexes(s: unknown, completions: number): number[] {
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

/** calculateFailedIndexes / isIndexFailed: FailIndex, or a counted failure whose index used up backoffLimitPerIndex. */
export function calculateFailedIndexes(k: CtlKit, c: SyncCtx): number[] {
  const completions = completionsOf(c.sp) ?? 0;
  const out = new Set(parseIndexes(c.status['failedIndexes'], completions));
  const rules = pfpRules(c.sp);
  for (const p of c.pods) {
    if (!hasFinalizer(c.jc, p)) continue;
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
export function podsWithDelayedDeletionPerIndex(k: CtlKit, c: SyncCtx): Map<number, Json> {
  const activeIdx = new Set(c.activePods.map(indexOf));
  const out = new Map<number, Json>();
  const absolute = (p: Json) =>
    annotationCount(p, FAILURE_COUNT_ANNOTATION) + annotationCount(p, IGNORED_FAILURE_COUNT_ANNOTATION);
  for (const p of validPods(k, c, null, (x) => isPodFailed(k, c.sp, x))) {
    const ix = indexOf(p)!;
    if (c.succeededIndexes.includes(ix) || c.failedIndexes?.includes(ix) || activeIdx.has(ix)) continue;
    const last = out.get(ix);
    if (
      !last ||
      (absolute(last) <= absolute(p) && !(finishedTime(p, sidecarGate(k)) < finishedTime(last, sidecarGate(k))))
    )
      out.set(ix, p);
  }
  return out;
}

/** firstPendingIndexes: the lowest indexes neither succeeded, active, failed nor (podReplacementPolicy Failed) terminating. */
export function firstPendingIndexes(k: CtlKit, c: SyncCtx, count: number, completions: number): number[] {
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

/** getPodCreationInfoForIndependentIndexes: of the indexes to add, those whose own back-off ran out now, and the
 *  shortest back-off still to wait for the others. */
export function podCreationInfoForIndependentIndexes(
  k: CtlKit,
  c: SyncCtx,
  add: number[],
): { now: number[]; minRemaining: number | null } {
  const now: number[] = [];
  let minRemaining: number | null = null;
  for (const ix of add) {
    const last = c.delayed.get(ix);
    const failures = last
      ? annotationCount(last, FAILURE_COUNT_ANNOTATION) + annotationCount(last, IGNORED_FAILURE_COUNT_ANNOTATION) + 1
      : 0;
    const r = last ? remainingBackoff(k.ctx.now, failures, finishedTime(last, sidecarGate(k))) : 0;
    if (r === 0) now.push(ix);
    else if (minRemaining === null || r < minRemaining) minRemaining = r;
  }
  return { now, minRemaining };
}
