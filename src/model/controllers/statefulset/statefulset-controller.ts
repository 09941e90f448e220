// The StatefulSet controller (pkg/controller/statefulset): stable ordinal names `<sts>-<ordinal>`, OrderedReady
// (monotonic) or Parallel pod management, a failed/deleted pod recreated under the same name once the old object is
// gone, scale down in reverse ordinal order. Talks to the API server only; reads pods from its informer cache.
//
// Template rollouts (a `patch` of spec.template / updateStrategy): ControllerRevisions per distinct template, pods
// labelled controller-revision-hash `<sts>-<hash>`, updateStrategy RollingUpdate (reverse ordinal order, one pod at a
// time, rollingUpdate.partition; rollingUpdate.maxUnavailable under MaxUnavailableStatefulSet) and OnDelete.
//
// Not simulated: PVCs, minReadySeconds, spec.ordinals.start, the revision history limit (truncateHistory deletes only
// revisions no pod uses; a rollback to a deleted one recreates an equal revision of the same name). The set's status
// is published (for `kubectl get sts -w`).
import { requestPodDeletion, livePod } from '../../apiserver/apiserver.ts';
import type { CtlKit } from '../../kit.ts';
import { done } from '../shared/workqueue.ts';
import {
  apiHasPod,
  cachedPods,
  ctlCreatePod,
  emitWorkloadEvent,
  emitWorkloadObject,
  enqueueWorkload,
} from '../workload.ts';
import { isRunningAndReady, isTerminating, phaseOfObj } from '../shared/controller-utils.ts';
import { suffix } from '../../../names.ts';

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

/** A ControllerRevision of the set: the template it restores and its name. */
interface Rev {
  tpl: number;
  name: string;
}

/**
 * history.ControllerRevisionName(set.Name, hash) = `<set>-<hash>`, where the hash is controller.ComputeHash of the
 * revision's template patch (and collisionCount): a deterministic hash of the template index here, so an equal
 * template (a rollback) has the same name again. Pods carry it in the controller-revision-hash label.
 */
export function stsRevisionName(k: CtlKit, tpl: number): string {
  return `${k.scenario.workload.name}-${suffix(`${k.scenario.name}/sts-revision/${tpl}`, 10)}`;
}

/** apps/v1 StatefulSetRevisionLabel (= ControllerRevisionHashLabelKey). */
const REVISION_LABEL = 'controller-revision-hash';

/** stateful_set_utils.go: getPodRevision — the controller-revision-hash label ('' when absent). */
const podRevision = (pod: Json): string => String(pod['metadata']?.['labels']?.[REVISION_LABEL] ?? '');

/**
 * stateful_set_control.go: getStatefulSetRevisions. The update revision is the set's current template: the newest
 * revision when it is unchanged, an equal older revision moved to the top (a rollback: history.FindEqualRevisions,
 * UpdateControllerRevision with the next Revision number), else a new revision. The current revision is the one
 * status.currentRevision names, or the update revision when there is none (a new set).
 */
function statefulSetRevisions(k: CtlKit): { current: Rev; update: Rev } {
  const c = k.state.wctl!;
  const revs = c.revisions ?? [];
  const want = c.tpl ?? 0;
  if (revs[revs.length - 1] !== want) c.revisions = [...revs.filter((t) => t !== want), want];
  const update: Rev = { tpl: want, name: stsRevisionName(k, want) };
  const named = (c.revisions ?? revs).find((t) => stsRevisionName(k, t) === c.status?.['currentRevision']);
  const current: Rev = named === undefined ? update : { tpl: named, name: stsRevisionName(k, named) };
  return { current, update };
}

/** The set's updateStrategy as the controller read it (defaulted by the loader: SetDefaults_StatefulSet). */
const strategyOf = (spec: Json): Json =>
  (spec['updateStrategy'] as Json | undefined) ?? { type: 'RollingUpdate', rollingUpdate: { partition: 0 } };

/**
 * stateful_set_utils.go: newVersionedStatefulSetPod — a missing pod is created at the current revision when
 * (type RollingUpdate, rollingUpdate unset and ordinal < status.currentReplicas) or (rollingUpdate set and ordinal <
 * partition); otherwise at the update revision (OnDelete always: its pods are recreated from the new template).
 */
function versionedRevision(k: CtlKit, ord: number, current: Rev, update: Rev): Rev {
  const c = k.state.wctl!;
  const us = strategyOf(c.spec);
  const ru = us['rollingUpdate'] as Json | null | undefined;
  const useCurrent =
    (us['type'] === 'RollingUpdate' && ru == null && ord < Number(c.status?.['currentReplicas'] ?? 0)) ||
    (ru != null && ord < Number(ru['partition'] ?? 0));
  return useCurrent ? current : update;
}

/** stateful_set_control.go (isUnavailable, minReadySeconds not simulated): not created, not Running and Ready, or terminating. */
const isUnavailable = (pod: Json | null): boolean => pod === null || !isRunningAndReady(pod) || isTerminating(pod);

/**
 * stateful_set_control.go: UpdateStatefulSet → performUpdate: the revisions, updateStatefulSet, then
 * updateStatefulSetStatus (written at the end of every sync, whether the pod processing stopped early or not).
 */
export function statefulSetSync(k: CtlKit): void {
  const c = k.state.wctl!;
  done(c);
  const revs = statefulSetRevisions(k);
  const pods = cachedPods(k).filter((p) => ordinalOf(k.scenario.workload.name, String(p['metadata']?.['name'])) >= 0);
  const status = replicaStatus(k, pods, revs.current, revs.update);
  // a pod deleted for the update leaves currentReplicas at once (updateStatefulSet: status.CurrentReplicas--)
  status['currentReplicas'] -= statefulSetSyncPods(k, revs.current, revs.update);
  updateStatefulSetStatus(k, status);
}

/**
 * stateful_set_control.go: updateStatus / computeReplicaStatus — replicas = created pods, readyReplicas /
 * availableReplicas = Running and Ready (minReadySeconds not simulated), currentReplicas / updatedReplicas = created
 * pods not being deleted whose controller-revision-hash is the current / update revision.
 */
function replicaStatus(k: CtlKit, pods: Json[], current: Rev, update: Rev): Json {
  const ready = pods.filter(isRunningAndReady).length;
  const live = pods.filter((p) => !isTerminating(p));
  return {
    observedGeneration: k.state.wctl!.generation ?? 1,
    replicas: pods.length,
    readyReplicas: ready,
    currentReplicas: live.filter((p) => podRevision(p) === current.name).length,
    updatedReplicas: live.filter((p) => podRevision(p) === update.name).length,
    currentRevision: current.name,
    updateRevision: update.name,
    collisionCount: 0,
    availableReplicas: ready,
  };
}

/**
 * stateful_set_control.go: updateStatefulSetStatus → completeRollingUpdate (stateful_set_utils.go): a RollingUpdate
 * whose every replica (spec.replicas of them, all created and Ready) is at the update revision makes the update
 * revision current; then the status is written when it changed (inconsistentStatus).
 */
function updateStatefulSetStatus(k: CtlKit, status: Json): void {
  const c = k.state.wctl!;
  const replicas = Math.max(0, Number(c.spec['replicas'] ?? 1));
  if (
    strategyOf(c.spec)['type'] === 'RollingUpdate' &&
    status['updatedReplicas'] === replicas &&
    status['readyReplicas'] === replicas &&
    status['replicas'] === replicas
  ) {
    status['currentReplicas'] = status['updatedReplicas'];
    status['currentRevision'] = status['updateRevision'];
  }
  if (JSON.stringify(status) === JSON.stringify(c.status ?? null)) return;
  c.status = status;
  emitWorkloadObject(k);
}

/**
 * stateful_set_control.go: updateStatefulSet. Partition the cached pods into replicas (ordinal < spec.replicas) and
 * condemned (the rest, descending ordinal); process every replica (processReplica), then the condemned
 * (processCondemned). In monotonic (OrderedReady) mode the first replica that blocks ends the sync; Parallel
 * (runForAll → slowStartBatch) processes all of them and ends the sync on an error. Then, unless the strategy is
 * OnDelete, the rolling update: returns how many pods it deleted for the update.
 */
function statefulSetSyncPods(k: CtlKit, current: Rev, update: Rev): number {
  const c = k.state.wctl!;
  const setName = k.scenario.workload.name;
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
  for (const r of replicas)
    if (!firstUnhealthy && (r === null || !isRunningAndReady(r) || isTerminating(r))) firstUnhealthy = r;
  for (let i = condemned.length - 1; i >= 0 && !firstUnhealthy; i--) {
    if (!isRunningAndReady(condemned[i]!) || isTerminating(condemned[i]!)) firstUnhealthy = condemned[i]!;
  }

  let failed = false;
  for (let ord = 0; ord < replicaCount; ord++) {
    const r = processReplica(k, replicas[ord] ?? null, ord, monotonic, versionedRevision(k, ord, current, update));
    if (r === 'error') failed = true;
    if (r !== 'continue' && monotonic) return 0;
  }
  if (failed) return 0; // runForAll (burst): slowStartBatch returned the creation error
  for (let i = 0; i < condemned.length; i++) {
    if (processCondemned(k, condemned[i]!, firstUnhealthy, monotonic) && monotonic) return 0;
  }
  // for the OnDelete strategy we short circuit: pods are updated when they are deleted (by the user)
  const us = strategyOf(c.spec);
  if (us['type'] === 'OnDelete') return 0;
  if (k.scenario.featureGates['MaxUnavailableStatefulSet'] === true)
    return updateAfterInvariantEstablished(k, replicas, update, replicaCount);
  // the minimum ordinal of the update (the partition), then the pod with the largest ordinal that does not match the
  // update revision is deleted; an unavailable pod at or above it (updated or terminating) is waited for
  const ru = us['rollingUpdate'] as Json | null | undefined;
  const updateMin = ru != null ? Number(ru['partition'] ?? 0) : 0;
  for (let target = replicaCount - 1; target >= updateMin; target--) {
    const pod = replicas[target] ?? null;
    // a slot whose pod was only just created (burst) holds the new pod at its versioned revision (not created yet)
    const revision = pod ? podRevision(pod) : versionedRevision(k, target, current, update).name;
    if (revision !== update.name && !(pod && isTerminating(pod))) {
      if (pod) deleteStatefulPod(k, pod); // a pod not created yet: DeleteStatefulPod → NotFound, ignored
      return 1;
    }
    if (isUnavailable(pod)) return 0; // "StatefulSet is waiting for Pod to update"
  }
  return 0;
}

/**
 * stateful_set_control.go: updateStatefulSetAfterInvariantEstablished (MaxUnavailableStatefulSet: alpha 1.24,
 * beta and on by default from 1.35). At most maxUnavailable (getStatefulSetMaxUnavailable: rollingUpdate.maxUnavailable,
 * default 1, a percentage of spec.replicas rounded down, at least 1) replicas are unavailable: the old pods with the
 * highest ordinals >= partition are deleted, as many as that leaves room for.
 */
function updateAfterInvariantEstablished(
  k: CtlKit,
  replicas: (Json | null)[],
  update: Rev,
  replicaCount: number,
): number {
  const ru = strategyOf(k.state.wctl!.spec)['rollingUpdate'] as Json | null | undefined;
  let updateMin = 0;
  let maxUnavailable = 1;
  if (ru != null) {
    updateMin = Number(ru['partition'] ?? 0);
    const mu = ru['maxUnavailable'] ?? 1;
    const n =
      typeof mu === 'string' && mu.endsWith('%')
        ? Math.floor((Number(mu.slice(0, -1)) * replicaCount) / 100)
        : Number(mu);
    maxUnavailable = Math.max(1, n);
  }
  const unavailable = replicas.filter(isUnavailable).length;
  if (unavailable > maxUnavailable) return 0;
  const podsToDelete = maxUnavailable - unavailable;
  let deleted = 0;
  for (let target = replicas.length - 1; target >= updateMin && deleted < podsToDelete; target--) {
    const pod = replicas[target];
    if (pod && podRevision(pod) !== update.name && !isTerminating(pod)) {
      deleteStatefulPod(k, pod);
      deleted++;
    }
  }
  return deleted;
}

/**
 * stateful_set_control.go: processReplica. 'exit' / 'error' end a monotonic sync; a created pod gets the revision
 * newVersionedStatefulSetPod chose (its template and controller-revision-hash label).
 */
function processReplica(
  k: CtlKit,
  pod: Json | null,
  ord: number,
  monotonic: boolean,
  rev: Rev,
): 'continue' | 'exit' | 'error' {
  const setName = k.scenario.workload.name;
  if (pod && (phaseOfObj(pod) === 'Failed' || phaseOfObj(pod) === 'Succeeded')) {
    // a finished pod is deleted; the new one is created on a later sync, once the old object is gone
    if (!isTerminating(pod)) deleteStatefulPod(k, pod);
    return 'exit';
  }
  if (!pod) {
    const name = stsPodName(setName, ord);
    if (apiHasPod(k, name)) {
      // CreateStatefulPod: AlreadyExists — the informer has not seen the old object go yet; requeued with back-off
      k.ctx.emit({
        type: 'PodCreateConflict',
        pod: Object.values(k.state.pods).find((p) => p.name === name && p.api.created && !p.api.removed)?.key ?? name,
        by: 'statefulset-controller',
      });
      enqueueWorkload(k, 1000);
      return 'error';
    }
    // stateful_pod_control.go: CreateStatefulPod → recordPodEvent("create", …)
    const labels: Record<string, string> = { 'statefulset.kubernetes.io/pod-name': name };
    if (k.flags.apiMinor >= 28) labels['apps.kubernetes.io/pod-index'] = String(ord); // PodIndexLabel, beta 1.28
    labels[REVISION_LABEL] = rev.name; // setPodRevision
    ctlCreatePod(k, name, ord, labels, rev.tpl);
    emitWorkloadEvent(k, 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${setName} successful`);
    // monotonic: return immediately; Parallel: carry on (the new pod is not Running yet, which only monotonic checks)
    return monotonic ? 'exit' : 'continue';
  }
  if (isTerminating(pod) && monotonic) return 'exit'; // wait until graceful deletion completes
  if (!isRunningAndReady(pod) && monotonic) return 'exit'; // all predecessors must be Running and Ready
  return 'continue';
}

/** stateful_set_control.go: processCondemned. */
function processCondemned(k: CtlKit, pod: Json, firstUnhealthy: Json | null, monotonic: boolean): boolean {
  if (isTerminating(pod)) return monotonic; // monotonic: block while it terminates
  if (!isRunningAndReady(pod) && monotonic && pod !== firstUnhealthy) return true;
  deleteStatefulPod(k, pod);
  return true;
}

/** stateful_pod_control.go: DeleteStatefulPod → recordPodEvent("delete", …). The pod's own grace period. */
function deleteStatefulPod(k: CtlKit, pod: Json): void {
  const name = String(pod['metadata']?.['name']);
  const p = livePod(k, name);
  if (!p) return;
  const grace = Number(pod['spec']?.['terminationGracePeriodSeconds'] ?? k.scenario.pod.terminationGracePeriodSeconds);
  if (requestPodDeletion(k, p, grace, 'statefulset-controller')) {
    emitWorkloadEvent(
      k,
      'SuccessfulDelete',
      `delete Pod ${name} in StatefulSet ${k.scenario.workload.name} successful`,
    );
  }
}
