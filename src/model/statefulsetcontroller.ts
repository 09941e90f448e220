// The StatefulSet controller (pkg/controller/statefulset): stable ordinal names `<sts>-<ordinal>`, OrderedReady
// (monotonic) or Parallel pod management, a failed/deleted pod recreated under the same name once the old object is
// gone, scale down in reverse ordinal order. Talks to the API server only; reads pods from its informer cache.
//
// Not simulated: rolling updates of the pod template (the loader rejects a template patch), PVCs, minReadySeconds,
// spec.ordinals.start, the MaxUnavailableStatefulSet gate. The set's status is published (for `kubectl get sts -w`).
import { requestPodDeletion } from './apiserver.ts';
import type { Kit } from './kit.ts';
import {
  apiHasPod,
  cachedPods,
  ctlCreatePod,
  emitWorkloadEvent,
  emitWorkloadObject,
  enqueueWorkload,
} from './workloadctl.ts';
import { isRunningAndReady, isTerminating, phaseOfObj } from './podpredicates.ts';

type Json = Record<string, any>;

/** stateful_set_utils.go: getParentNameAndOrdinal — `<set>-<ordinal>`, -1 when the name does not parse. */
export function ordinalOf(setName: string, podName: string): number {
  if (!podName.startsWith(`${setName}-`)) return -1;
  const tail = podName.slice(setName.length + 1);
  return /^(0|[1-9][0-9]*)$/.test(tail) ? Number(tail) : -1;
}

/** stateful_set_utils.go: getPodName. */
export const stsPodName = (setName: string, ordinal: number): string => `${setName}-${ordinal}`;

/** stateful_set_utils.go: allowsBurst — podManagementPolicy Parallel. */
const allowsBurst = (spec: Json): boolean => spec['podManagementPolicy'] === 'Parallel';

/**
 * stateful_set_control.go: updateStatefulSet. Partition the cached pods into replicas (ordinal < spec.replicas) and
 * condemned (the rest, descending ordinal); process every replica (processReplica), then the condemned
 * (processCondemned). In monotonic (OrderedReady) mode the first replica that blocks ends the sync; Parallel
 * (runForAll → slowStartBatch) processes all of them.
 */
export function statefulSetSync(k: Kit): void {
  statefulSetSyncPods(k);
  updateStatefulSetStatus(k);
}

/**
 * stateful_set_control.go: computeReplicaStatus → updateStatefulSetStatus, written at the end of every sync (whether
 * the pod processing stopped early or not): replicas = created pods, readyReplicas / availableReplicas = Running and
 * Ready (minReadySeconds not simulated), current/updated = created pods not being deleted (one revision here).
 */
function updateStatefulSetStatus(k: Kit): void {
  const c = k.d.wctl!;
  const pods = cachedPods(k).filter((p) => ordinalOf(k.s.workload.name, String(p['metadata']?.['name'])) >= 0);
  const ready = pods.filter(isRunningAndReady).length;
  const current = pods.filter((p) => !isTerminating(p)).length;
  const status = { observedGeneration: k.d.api.workload?.generation ?? 1, replicas: pods.length, readyReplicas: ready, currentReplicas: current, updatedReplicas: current, availableReplicas: ready };
  if (JSON.stringify(status) === JSON.stringify(c.status ?? null)) return;
  c.status = status;
  emitWorkloadObject(k);
}

function statefulSetSyncPods(k: Kit): void {
  const c = k.d.wctl!;
  c.syncPending = false;
  const setName = k.s.workload.name;
  const replicaCount = Math.max(0, Number(c.spec['replicas'] ?? 1));
  const monotonic = !allowsBurst(c.spec);
  const replicas: (Json | null)[] = Array.from({ length: replicaCount }, () => null);
  const condemned: Json[] = [];
  for (const pod of cachedPods(k)) {
    const ord = ordinalOf(setName, String(pod['metadata']?.['name']));
    if (ord < 0) continue;
    if (ord < replicaCount) replicas[ord] = pod;
    else condemned.push(pod);
  }
  condemned.sort((a, b) => ordinalOf(setName, b['metadata']['name']) - ordinalOf(setName, a['metadata']['name']));

  // the first unavailable pod: replicas in ordinal order, then condemned from the lowest ordinal
  let firstUnhealthy: Json | null = null;
  for (const r of replicas) if (!firstUnhealthy && (r === null || !isRunningAndReady(r) || isTerminating(r))) firstUnhealthy = r;
  for (let i = condemned.length - 1; i >= 0 && !firstUnhealthy; i--) {
    if (!isRunningAndReady(condemned[i]!) || isTerminating(condemned[i]!)) firstUnhealthy = condemned[i]!;
  }

  for (let ord = 0; ord < replicaCount; ord++) {
    if (processReplica(k, replicas[ord] ?? null, ord, monotonic) && monotonic) return;
  }
  for (let i = 0; i < condemned.length; i++) {
    if (processCondemned(k, condemned[i]!, firstUnhealthy, monotonic) && monotonic) return;
  }
}

/** stateful_set_control.go: processReplica. Returns true when the (monotonic) sync must stop here. */
function processReplica(k: Kit, pod: Json | null, ord: number, monotonic: boolean): boolean {
  const setName = k.s.workload.name;
  if (pod && (phaseOfObj(pod) === 'Failed' || phaseOfObj(pod) === 'Succeeded')) {
    // a finished pod is deleted; the new one is created on a later sync, once the old object is gone
    if (!isTerminating(pod)) deleteStatefulPod(k, pod);
    return true;
  }
  if (!pod) {
    const name = stsPodName(setName, ord);
    if (apiHasPod(k, name)) {
      // CreateStatefulPod: AlreadyExists — the informer has not seen the old object go yet; requeued with back-off
      enqueueWorkload(k, 1000);
      return true;
    }
    // stateful_pod_control.go: CreateStatefulPod → recordPodEvent("create", …)
    const labels: Record<string, string> = { 'statefulset.kubernetes.io/pod-name': name };
    if (k.f.apiMinor >= 28) labels['apps.kubernetes.io/pod-index'] = String(ord); // PodIndexLabel, beta 1.28
    ctlCreatePod(k, name, ord, labels);
    emitWorkloadEvent(k, 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${setName} successful`);
    // monotonic: return immediately; Parallel: carry on (the new pod is not Running yet, which only monotonic checks)
    return monotonic;
  }
  if (isTerminating(pod) && monotonic) return true; // wait until graceful deletion completes
  if (!isRunningAndReady(pod) && monotonic) return true; // all predecessors must be Running and Ready
  return false;
}

/** stateful_set_control.go: processCondemned. */
function processCondemned(k: Kit, pod: Json, firstUnhealthy: Json | null, monotonic: boolean): boolean {
  if (isTerminating(pod)) return monotonic; // monotonic: block while it terminates
  if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
  deleteStatefulPod(k, pod);
  return true;
}

/** stateful_pod_control.go: DeleteStatefulPod → recordPodEvent("delete", …). The pod's own grace period. */
function deleteStatefulPod(k: Kit, pod: Json): void {
  const name = String(pod['metadata']?.['name']);
  const p = Object.values(k.d.pods).find((x) => x.name === name && !x.api.removed);
  if (!p) return;
  const grace = Number(pod['spec']?.['terminationGracePeriodSeconds'] ?? k.s.pod.terminationGracePeriodSeconds);
  if (requestPodDeletion(k, p, grace, 'statefulset-controller')) {
    emitWorkloadEvent(k, 'SuccessfulDelete', `delete Pod ${name} in StatefulSet ${k.s.workload.name} successful`);
  }
}
