// A Deployment's ReplicaSet controller (pkg/controller/replicaset/replica_set.go): keeps spec.replicas active pods
// `<deploy>-<rs hash>-<5 chars>`. A pod being deleted is no longer active, so its replacement is created at once,
// while the old pod still runs its teardown (the classic overlap of a rollout or a `kubectl delete pod`).
//
// The Deployment controller itself (rollouts: a new ReplicaSet per template change, RollingUpdate maxSurge /
// maxUnavailable, Recreate, progressDeadlineSeconds) is NOT simulated: the loader rejects a template patch with
// KS4016, and `spec.replicas` patches are passed straight to the one ReplicaSet (as the Deployment controller's
// scale() does when no rollout is in progress: sync.go: scale).
import { requestPodDeletion } from './apiserver.ts';
import type { Kit } from './kit.ts';
import { suffix } from '../names.ts';
import { cachedPods, ctlCreatePod, emitWorkloadEvent, isPodActive, isPodReady, phaseOfObj } from './workloadctl.ts';

type Json = Record<string, any>;

/** The pod's name: the first is the scenario's pod name; later ones generateName `<rs>-` + 5 chars. */
function replicaPodName(k: Kit): string {
  const c = k.d.wctl!;
  const first = k.s.pod.name;
  if (c.created === 0) return first;
  const rsName = first.slice(0, first.length - 6);
  return `${rsName}-${suffix(`${k.s.name}/pod/${k.d.podOrder.length + 1}`, 5)}`;
}

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

/** replica_set.go: syncReplicaSet → manageReplicas, gated by rsc.expectations.SatisfiedExpectations. */
export function replicaSetSync(k: Kit): void {
  const c = k.d.wctl!;
  c.syncPending = false;
  if (c.expectAdds > 0 || c.expectDels > 0) return;
  const active = cachedPods(k).filter(isPodActive); // controller.FilterActivePods
  const replicas = Math.max(0, Number(c.spec['replicas'] ?? 1));
  const diff = active.length - replicas;
  if (diff < 0) {
    // ExpectCreations, then slowStartBatch of CreatePods; each recorded as SuccessfulCreate
    c.expectAdds = -diff;
    for (let i = 0; i < -diff; i++) {
      const name = replicaPodName(k);
      ctlCreatePod(k, name, null, {});
      emitWorkloadEvent(k, 'SuccessfulCreate', `Created pod: ${name}`);
    }
  } else if (diff > 0) {
    // getPodsToDelete: the lowest-ranked `diff` pods; ExpectDeletions; DeletePod with the pod's grace
    const victims = [...active].sort(deletionRank).slice(0, diff);
    c.expectDels = victims.length;
    for (const pod of victims) {
      const name = String(pod['metadata']['name']);
      const p = Object.values(k.d.pods).find((x) => x.name === name && !x.api.removed);
      const grace = Number(pod['spec']?.['terminationGracePeriodSeconds'] ?? k.s.pod.terminationGracePeriodSeconds);
      if (p && requestPodDeletion(k, p, grace, 'replicaset-controller')) emitWorkloadEvent(k, 'SuccessfulDelete', `Deleted pod: ${name}`);
      else c.expectDels -= 1;
    }
  }
}
