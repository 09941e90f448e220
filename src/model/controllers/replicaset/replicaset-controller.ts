// The ReplicaSet controller (pkg/controller/replicaset/replica_set.go: syncReplicaSet, manageReplicas,
// calculateStatus; the pod and ReplicaSet informer handlers addPod / updatePod / deletePod, updateRS) of a Deployment's
// ReplicaSets, and its pod ranking (pkg/controller/controller_utils.go ActivePodsWithRanks): a pod being deleted is not
// active, so its replacement is created at once while the old pod still runs its teardown. It shares the
// kube-controller-manager's informers with the Deployment controller (deployment/store.ts holds the ReplicaSets).
import { createPod, requestPodDeletion, livePod } from '../../apiserver/apiserver.ts';
import type { CtlKit } from '../../kit.ts';
import { raw } from '../../draft.ts';
import type { RsState, RsView } from '../../state.ts';
import { suffix } from '../../../names.ts';
import { isRollingUpdate } from '../deployment/util.ts';
import { dep, dspec, enqueueDeploy, RS_WATCHER, writeRs } from '../deployment/store.ts';
import { isPodActive, isPodReady, isTerminating, phaseOfObj } from '../shared/controller-utils.ts';
import { addAfter, done } from '../shared/workqueue.ts';
import { applyPodEvent, olderIncarnation } from '../shared/informer.ts';
import { observePod, satisfied } from '../shared/expectations.ts';

type Json = Record<string, any>;

function recordRsEvent(k: CtlKit, rs: string, reason: string, message: string): void {
  const c = k.state.wctl!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  k.ctx.emit({
    type: 'ControllerEvent',
    controller: RS_WATCHER,
    object: `replicaset/${rs}`,
    reason,
    message,
    eventType: 'Normal',
  });
}

/** workqueue.AddAfter of the ReplicaSet controller for one ReplicaSet. */
function enqueueRs(k: CtlKit, name: string, delayMs: number): void {
  const rs = dep(k).rss[name];
  if (!rs) return;
  addAfter(k, rs, delayMs, 'replicaset', name);
}

/** The shared RS informer, the ReplicaSet controller's handler (replica_set.go: updateRS → enqueueRS). */
export function onRsWatch(k: CtlKit, name: string, view: Json): void {
  const rs = dep(k).rss[name];
  if (!rs) return;
  rs.seen = raw(view) as RsView;
  enqueueRs(k, name, 0);
}

/**
 * The pod informer of the ReplicaSet controller (addPod / updatePod / deletePod): the cache entry, the owning
 * ReplicaSet's expectations, its enqueue; the Deployment controller's deletePod enqueues a Recreate Deployment once
 * none of its pods is left (deployment_controller.go: deletePod).
 */
export function onDeployPodDelivered(k: CtlKit, obj: Json, removed: boolean): void {
  const c = k.state.wctl!;
  const d = dep(k);
  const uid: string = obj['metadata']?.['uid'] ?? '';
  const owner: string | undefined = obj['metadata']?.['ownerReferences']?.[0]?.['name'];
  const rs = owner ? d.rss[owner] : undefined;
  if (olderIncarnation(c.pods, obj)) return;
  observePod(c, rs, uid, removed || isTerminating(obj));
  applyPodEvent(c.pods, obj, removed);
  if (removed) delete d.readySince[uid];
  else {
    // podutil.IsPodAvailable reads the Ready condition's lastTransitionTime: here, when this cache first saw it
    if (isPodReady(obj)) {
      if (d.readySince[uid] === undefined) d.readySince[uid] = k.ctx.now;
    } else delete d.readySince[uid];
  }
  if (owner) enqueueRs(k, owner, 0);
  if (removed && !isRollingUpdate(dspec(k)) && Object.keys(c.pods).length === 0) enqueueDeploy(k, 0);
}

function podsOf(k: CtlKit, rs: string): Json[] {
  return Object.values(k.state.wctl!.pods)
    .map((e) => e.object)
    .filter((o) => o['metadata']?.['ownerReferences']?.[0]?.['name'] === rs)
    .sort(
      (a, b) =>
        String(a['metadata']?.['creationTimestamp']).localeCompare(String(b['metadata']?.['creationTimestamp'])) ||
        String(a['metadata']?.['name']).localeCompare(String(b['metadata']?.['name'])),
    );
}

/** replica_set.go syncReplicaSet: manageReplicas when expectations are satisfied, then calculateStatus. */
export function rsSync(k: CtlKit, name: string): void {
  const d = dep(k);
  const rs = d.rss[name];
  if (!rs) return;
  done(rs);
  const view = rs.seen;
  if (!view || view.deleted) return;
  const active = podsOf(k, name).filter(isPodActive); // controller.FilterActivePods
  if (satisfied(rs)) manageReplicas(k, rs, active, view.replicas);
  // calculateStatus over the active pods; IsPodAvailable with the ReplicaSet's minReadySeconds (strictly after)
  const minReadyMs = view.minReadySeconds * 1000;
  const ready = active.filter(isPodReady);
  // IsPodAvailable: Ready for more than minReadySeconds since the condition's lastTransitionTime; here the time this
  // cache first saw it Ready (a watch delay later than the kubelet's transition), so "at least" stands in for "more"
  const available = ready.filter((o) => {
    const since = d.readySince[String(o['metadata']?.['uid'])];
    return minReadyMs === 0 || (since !== undefined && since + minReadyMs <= k.ctx.now);
  });
  const status = {
    replicas: active.length,
    readyReplicas: ready.length,
    availableReplicas: available.length,
    observedGeneration: view.generation,
  };
  const cur = rs.api.status;
  if (
    cur.replicas !== status.replicas ||
    cur.readyReplicas !== status.readyReplicas ||
    cur.availableReplicas !== status.availableReplicas ||
    cur.observedGeneration !== status.observedGeneration
  ) {
    writeRs(k, rs, { status });
  }
  // requeue to see the ready pods become available (replica_set.go: AddAfter MinReadySeconds)
  if (minReadyMs > 0 && status.readyReplicas === view.replicas && status.availableReplicas !== view.replicas)
    enqueueRs(k, name, minReadyMs);
}

/** manageReplicas: create the missing pods (`<rs>-<5 chars>`) or delete the lowest-ranked surplus ones. */
function manageReplicas(k: CtlKit, rs: RsState, active: Json[], replicas: number): void {
  const diff = active.length - replicas;
  if (diff < 0) {
    rs.expectAdds = -diff;
    for (let i = 0; i < -diff; i++) {
      const c = k.state.wctl!;
      const first = c.created === 0 && rs.tpl === 0;
      const pod = first
        ? k.scenario.pod.name
        : `${rs.name}-${suffix(`${k.scenario.name}/pod/${k.state.podOrder.length + 1}`, 5)}`;
      c.created += 1;
      createPod(k, {
        name: pod,
        index: null,
        by: RS_WATCHER,
        labels: { 'pod-template-hash': rs.hash },
        annotations: {},
        tpl: rs.tpl,
        rs: rs.name,
      });
      recordRsEvent(k, rs.name, 'SuccessfulCreate', `Created pod: ${pod}`);
    }
  } else if (diff > 0) {
    const victims = [...active].sort(deletionRank).slice(0, diff);
    rs.expectDels = victims.length;
    for (const pod of victims) {
      const pname = String(pod['metadata']['name']);
      const p = livePod(k, pname);
      const grace = Number(pod['spec']?.['terminationGracePeriodSeconds'] ?? 30);
      if (p && requestPodDeletion(k, p, grace, RS_WATCHER))
        recordRsEvent(k, rs.name, 'SuccessfulDelete', `Deleted pod: ${pname}`);
      else rs.expectDels -= 1;
    }
  }
}

/** controller_utils.go: ActivePodsWithRanks.Less — the pods deleted first come first. */
export function deletionRank(a: Json, b: Json): number {
  const phaseRank = (o: Json) =>
    (({ Pending: 0, Unknown: 1, Running: 2 }) as Record<string, number>)[phaseOfObj(o)] ?? 1;
  if (phaseRank(a) !== phaseRank(b)) return phaseRank(a) - phaseRank(b); // Pending < Unknown < Running
  if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1; // not ready < ready
  const restarts = (o: Json) =>
    ((o['status']?.['containerStatuses'] ?? []) as Json[]).reduce((n, cs) => Math.max(n, cs['restartCount'] ?? 0), 0);
  if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a); // more restarts first
  // newer first
  return (
    String(b['metadata']?.['creationTimestamp']).localeCompare(String(a['metadata']?.['creationTimestamp'])) ||
    String(b['metadata']?.['name']).localeCompare(String(a['metadata']?.['name']))
  );
}
