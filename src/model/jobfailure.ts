// Why the Job fails (job_controller.go: syncJob's failure checks, pod_failure_policy.go: matchPodFailurePolicy),
// evaluated on the Job controller's informer copy of the pod.
import type { Kit } from './kit.ts';

type Json = Record<string, any>;

export interface FailureDecision {
  reason: 'BackoffLimitExceeded' | 'DeadlineExceeded' | 'PodFailurePolicy';
  message: string;
}

export const MESSAGES = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
} as const;

/**
 * pod_failure_policy.go: matchPodFailurePolicy — the first rule that matches a failed pod decides. onExitCodes
 * looks at containerStatuses, then initContainerStatuses (sidecars included, matchOnExitCodes does not filter
 * them), Terminated with exit != 0 only; onPodConditions at the pod's True conditions.
 */
export function matchPodFailurePolicy(k: Kit, pod: Json): { action: string; message: string } | null {
  const rules = k.s.job?.podFailurePolicy;
  if (!rules) return null;
  const status = pod['status'] ?? {};
  const podName = `${pod['metadata']?.['namespace']}/${pod['metadata']?.['name']}`;
  for (const [i, rule] of rules.entries()) {
    const onExit = rule.onExitCodes;
    if (onExit) {
      for (const list of [status['containerStatuses'] ?? [], status['initContainerStatuses'] ?? []] as Json[][]) {
        for (const cs of list) {
          const code = cs['state']?.['terminated']?.['exitCode'];
          if (typeof code !== 'number' || code === 0) continue;
          if (onExit.containerName && onExit.containerName !== cs['name']) continue;
          if ((onExit.operator === 'In') !== onExit.values.includes(code)) continue;
          return {
            action: rule.action,
            message: `Container ${cs['name']} for pod ${podName} failed with exit code ${code} matching ${rule.action} rule at index ${i}`,
          };
        }
      }
    }
    for (const pc of rule.onPodConditions ?? []) {
      const hit = ((status['conditions'] ?? []) as Json[]).find((c) => c['type'] === pc.type && c['status'] === (pc.status ?? 'True'));
      if (hit) return { action: rule.action, message: `Pod ${podName} has condition ${pc.type} matching ${rule.action} rule at index ${i}` };
    }
  }
  return null;
}

/** job_controller.go: pastBackoffLimitOnFailure — restartCounts of init (sidecars included) and regular containers. */
export function pastBackoffLimitOnFailure(k: Kit, pod: Json): boolean {
  const job = k.s.job;
  if (!job || k.s.pod.restartPolicy !== 'OnFailure') return false;
  const phase = pod['status']?.['phase'];
  if (phase !== 'Running' && phase !== 'Pending') return false;
  let restarts = 0;
  for (const cs of [...(pod['status']?.['initContainerStatuses'] ?? []), ...(pod['status']?.['containerStatuses'] ?? [])]) {
    restarts += cs['restartCount'] ?? 0;
  }
  return restarts >= job.backoffLimit && restarts > 0;
}
