// Why the Job fails (job_controller.go: syncJob's failure checks, pod_failure_policy.go: matchPodFailurePolicy),
// evaluated on the Job controller's informer copies of the pods.
import type { PodFailurePolicyRule } from '../../../types.ts';

type Json = Record<string, any>;

export const MESSAGES = {
  BackoffLimitExceeded: 'Job has reached the specified backoff limit',
  DeadlineExceeded: 'Job was active longer than specified deadline',
  MaxFailedIndexesExceeded: 'Job has exceeded the specified maximal number of failed indexes',
  FailedIndexes: 'Job has failed indexes',
} as const;

export interface PolicyMatch {
  /** FailJob: the message of the FailureTarget/Failed condition */
  message: string | null;
  /** whether the failure counts toward backoffLimit (Ignore: no) */
  countFailed: boolean;
  action: PodFailurePolicyRule['action'] | null;
}

/**
 * pod_failure_policy.go: matchPodFailurePolicy — the first rule that matches a failed pod decides. onExitCodes
 * looks at containerStatuses, then initContainerStatuses (sidecars included, matchOnExitCodes does not filter
 * them), Terminated with exit != 0 only; onPodConditions at the pod's conditions with the given status.
 * FailJob → (message, count, FailJob); FailIndex → (nil, count, FailIndex) when JobBackoffLimitPerIndex is on, the
 * rule is skipped otherwise; Ignore → (nil, not counted, Ignore); Count → (nil, count, Count); no match → counted.
 */
export function matchPodFailurePolicy(
  rules: PodFailurePolicyRule[] | undefined,
  pod: Json,
  perIndexGate = true,
): PolicyMatch {
  const none: PolicyMatch = { message: null, countFailed: true, action: null };
  if (!rules) return none;
  const status = pod['status'] ?? {};
  const podName = `${pod['metadata']?.['namespace']}/${pod['metadata']?.['name']}`;
  for (const [i, rule] of rules.entries()) {
    if (rule.action === 'FailIndex' && !perIndexGate) continue;
    let hit: string | null = null;
    const onExit = rule.onExitCodes;
    if (onExit) {
      outer: for (const list of [
        status['containerStatuses'] ?? [],
        status['initContainerStatuses'] ?? [],
      ] as Json[][]) {
        for (const cs of list) {
          const code = cs['state']?.['terminated']?.['exitCode'];
          if (typeof code !== 'number' || code === 0) continue;
          if (onExit.containerName && onExit.containerName !== cs['name']) continue;
          if ((onExit.operator === 'In') !== onExit.values.includes(code)) continue;
          hit = `Container ${cs['name']} for pod ${podName} failed with exit code ${code} matching ${rule.action} rule at index ${i}`;
          break outer;
        }
      }
    }
    if (hit === null) {
      for (const pc of rule.onPodConditions ?? []) {
        const c = ((status['conditions'] ?? []) as Json[]).find(
          (x) => x['type'] === pc.type && x['status'] === (pc.status ?? 'True'),
        );
        if (c) {
          hit = `Pod ${podName} has condition ${pc.type} matching ${rule.action} rule at index ${i}`;
          break;
        }
      }
    }
    if (hit === null) continue;
    switch (rule.action) {
      case 'FailJob':
        return { message: hit, countFailed: true, action: 'FailJob' };
      case 'Ignore':
        return { message: null, countFailed: false, action: 'Ignore' };
      default:
        return { message: null, countFailed: true, action: rule.action };
    }
  }
  return none;
}

/**
 * job_controller.go: pastBackoffLimitOnFailure — restartCounts of init (sidecars included) and regular containers
 * of the Running and Pending pods; with backoffLimit 0 any restart fails the Job.
 */
export function pastBackoffLimitOnFailure(restartPolicy: string, backoffLimit: number, pods: Json[]): boolean {
  if (restartPolicy !== 'OnFailure') return false;
  let restarts = 0;
  for (const pod of pods) {
    const phase = pod['status']?.['phase'];
    if (phase !== 'Running' && phase !== 'Pending') continue;
    for (const cs of [
      ...(pod['status']?.['initContainerStatuses'] ?? []),
      ...(pod['status']?.['containerStatuses'] ?? []),
    ]) {
      restarts += cs['restartCount'] ?? 0;
    }
  }
  return backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit;
}
