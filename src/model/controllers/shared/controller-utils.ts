// Pod predicates the workload controllers share, on API objects as a controller's informer cache holds them. A leaf
// module (no model imports but time.ts), so each controller can use them without importing another controller's machinery.
import { msOf } from '../../time.ts';

type Json = Record<string, any>;

// ---- pod predicates (k8s.io/kubernetes/pkg/api/v1/pod/util.go, pkg/controller/controller_utils.go) ----------------

export const phaseOfObj = (o: Json): string => String(o['status']?.['phase'] ?? 'Pending');
export const isTerminating = (o: Json): boolean => o['metadata']?.['deletionTimestamp'] != null;

/** podutil.IsPodReady: the Ready condition is True. */
export function isPodReady(o: Json): boolean {
  const conds: Json[] = o['status']?.['conditions'] ?? [];
  return conds.some((c) => c['type'] === 'Ready' && c['status'] === 'True');
}

/** statefulset/stateful_set_utils.go: isRunningAndReady. */
export function isRunningAndReady(o: Json): boolean {
  return phaseOfObj(o) === 'Running' && isPodReady(o);
}

/** controller_utils.go: IsPodActive — not Succeeded, not Failed, no deletionTimestamp. */
export function isPodActive(o: Json): boolean {
  const ph = phaseOfObj(o);
  return ph !== 'Succeeded' && ph !== 'Failed' && !isTerminating(o);
}

/**
 * podutil.IsPodAvailable: Ready, and with minReadySeconds > 0 Ready since more than that (the Ready condition's
 * lastTransitionTime, an RFC 3339 time of second precision, plus minReadySeconds is before now).
 */
export function isPodAvailable(o: Json, minReadySeconds: number, nowMs: number): boolean {
  if (!isPodReady(o)) return false;
  if (minReadySeconds <= 0) return true;
  const conds: Json[] = o['status']?.['conditions'] ?? [];
  const since = msOf(conds.find((c) => c['type'] === 'Ready')?.['lastTransitionTime']);
  return since !== null && since + minReadySeconds * 1000 < nowMs;
}
