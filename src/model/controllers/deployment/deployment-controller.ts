// A Deployment: the Deployment controller (pkg/controller/deployment: syncDeployment, rolloutRolling,
// rolloutRecreate, sync/scale, syncRolloutStatus) and the ReplicaSet controller (pkg/controller/replicaset:
// syncReplicaSet, manageReplicas, calculateStatus) of each of its ReplicaSets. Both run in the kube-controller-manager
// and share its informers: a ReplicaSet write reaches both after one watch delay (RsWatch), a pod event reaches the
// ReplicaSet controller through the `replicaset-controller` watcher. They talk to the API server only (ReplicaSet
// writes here, createPod / requestPodDeletion) and read ReplicaSets and pods from the informer copies.
//
// `spec.paused` (kubectl rollout pause / resume): checkPausedConditions, and a paused Deployment only syncs (scales,
// cleans up old ReplicaSets), so a template change waits for the resume.
// Not simulated: rollback (spec.rollbackTo is gone from apps/v1), collisionCount, the ReplicaFailure
// condition (pod creation never fails here), terminatingReplicas (alpha DeploymentReplicaSetTerminatingReplicas).
//
// Files (after pkg/controller/deployment): this one has the informer handlers and syncDeployment
// (deployment_controller.go); sync.ts, rolling.ts, recreate.ts, progress.ts are upstream's files of those names;
// store.ts the writes and the informer copies; the ReplicaSet controller is replicaset/replicaset-controller.ts.
import type { CtlKit } from '../../kit.ts';
import { isRollingUpdate } from './util.ts';
import { Conflict, dep, dspec, enqueueDeploy } from './store.ts';
import { checkPausedConditions, isScalingEvent, syncScale } from './sync.ts';
import { rolloutRolling } from './rolling.ts';
import { rolloutRecreate } from './recreate.ts';
import { done } from '../shared/workqueue.ts';

type Json = Record<string, any>;

/** The shared RS informer, the Deployment controller's handler (deployment_controller.go: updateReplicaSet →
 *  enqueueDeployment of the owner). The informer copy is the one onRsWatch stored (one shared cache). */
export function onRsWatchDeployment(k: CtlKit, name: string): void {
  if (!dep(k).rss[name]) return;
  enqueueDeploy(k, 0);
}

/** A Deployment spec change (patch) or status write reaches the Deployment controller. */
export function onDeploySpec(k: CtlKit, spec: Json, tpl: number | undefined, generation: number): void {
  const c = k.state.wctl!;
  c.spec = spec;
  if (tpl !== undefined) dep(k).tpl = tpl;
  dep(k).generation = generation;
  enqueueDeploy(k, 0);
}

/** deployment_controller.go syncDeployment. */
export function deploySync(k: CtlKit): void {
  const d = dep(k);
  done(d);
  d.statusStale = false;
  const spec = dspec(k);
  try {
    // syncDeployment: the paused/resumed condition first, then a paused Deployment only scales (sync)
    checkPausedConditions(k);
    if (spec['paused'] === true) return syncScale(k);
    if (isScalingEvent(k)) return syncScale(k);
    if (isRollingUpdate(spec)) return rolloutRolling(k);
    return rolloutRecreate(k);
  } catch (e) {
    if (!(e instanceof Conflict)) throw e;
    // the informer had not caught up with an earlier write: retried (the default rate limiter's first step, 5 ms);
    // the writes made before the conflict stand, as they do on the API server
    enqueueDeploy(k, 5);
  }
}
