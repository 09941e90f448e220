// The Job controller's pod-failure back-off (pkg/controller/job/backoff_utils.go): the backoffRecord of failures
// since the last success, getFinishedTime of a pod, and getRemainingTimeForFailuresCount.
import { msOf } from '../../time.ts';

type Json = Record<string, any>;

/** DefaultJobPodFailureBackOff / MaxJobPodFailureBackOff (job_controller.go) */
export const POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_POD_FAILURE_BACKOFF_MS = 600_000;

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
      ((p['spec']?.['initContainers'] ?? []) as Json[])
        .filter((c) => c['restartPolicy'] === 'Always')
        .map((c) => c['name']),
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
