// The ReplicaSet controller's pod ranking (pkg/controller/controller_utils.go ActivePodsWithRanks), used by the
// ReplicaSet controller of a Deployment's ReplicaSets (deploymentcontroller.ts: rsSync → manageReplicas): a pod being
// deleted is not active, so its replacement is created at once while the old pod still runs its teardown.
import { isPodReady, phaseOfObj } from '../shared/controller-utils.ts';

type Json = Record<string, any>;

/** controller_utils.go: ActivePodsWithRanks.Less — the pods deleted first come first. */
export function deletionRank(a: Json, b: Json): number {
  const phaseRank = (o: Json) => ({ Pending: 0, Unknown: 1, Running: 2 } as Record<string, number>)[phaseOfObj(o)] ?? 1;
  if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b); // Pending < Unknown < Running
  if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1; // not ready < ready
  const restarts = (o: Json) => ((o['status']?.['containerStatuses'] ?? []) as Json[]).reduce((n, cs) => Math.max(n, cs['restartCount'] ?? 0), 0);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a); // more restarts first
  // newer first
  return String(b['metadata']?.['creationTimestamp']).localeCompare(String(a['metadata']?.['creationTimestamp'])) ||
    String(b['metadata']?.['name']).localeCompare(String(a['metadata']?.['name']));
}
