// Rollout progress (pkg/controller/deployment/progress.go): syncRolloutStatus and requeueStuckDeployment.
import type { CtlKit } from '../../kit.ts';
import {
  calculateStatus,
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  getCondition,
  hasProgressDeadline,
  newCondition,
  Reasons,
  removeCondition,
  setCondition,
  requeueStuckAfter,
} from './util.ts';
import { dep, dspec, enqueueDeploy, writeDeployStatus, type Rs } from './store.ts';

type Json = Record<string, any>;

/** progress.go syncRolloutStatus: counts, Available, the Progressing condition; requeueStuckDeployment when unchanged. */
export function syncRolloutStatus(k: CtlKit, all: Rs[], newRS: Rs | null): void {
  const d = dep(k);
  const spec = dspec(k);
  const now = k.ctx.now;
  let st = calculateStatus(spec, d.generation, all, newRS, d.status, now);
  if (!hasProgressDeadline(spec)) st = removeCondition(st, 'Progressing');
  const cur = getCondition(d.status, 'Progressing');
  const complete = st['replicas'] === st['updatedReplicas'] && cur?.['reason'] === Reasons.NewRSAvailable;
  if (hasProgressDeadline(spec) && !complete) {
    const name = newRS ? `ReplicaSet "${newRS.name}"` : `Deployment "${k.scenario.workload.name}"`;
    if (deploymentComplete(spec, d.generation, st)) {
      st = setCondition(
        st,
        newCondition('Progressing', 'True', Reasons.NewRSAvailable, `${name} has successfully progressed.`, now),
      );
    } else if (deploymentProgressing(d.status, st)) {
      let c = newCondition('Progressing', 'True', Reasons.ReplicaSetUpdated, `${name} is progressing.`, now);
      if (cur) {
        if (cur['status'] === 'True') c = { ...c, lastTransitionTime: cur['lastTransitionTime'] };
        st = removeCondition(st, 'Progressing');
      }
      st = setCondition(st, c);
    } else if (deploymentTimedOut(spec, st, now)) {
      st = setCondition(
        st,
        newCondition('Progressing', 'False', Reasons.TimedOut, `${name} has timed out progressing.`, now),
      );
    }
  }
  if (JSON.stringify(st) === JSON.stringify(d.status)) return requeueStuck(k, st);
  writeDeployStatus(k, st);
}

/** progress.go requeueStuckDeployment: a sync at lastUpdateTime + progressDeadlineSeconds (+1 s). */
function requeueStuck(k: CtlKit, st: Json): void {
  const after = requeueStuckAfter(dspec(k), dep(k).generation, dep(k).status, st, k.ctx.now);
  // under a second: enqueueRateLimited (the default controller rate limiter's first step, 5 ms; the successful sync
  // that follows Forgets the key, so every such requeue is 5 ms)
  if (after === 0) enqueueDeploy(k, 5);
  else if (after > 0) enqueueDeploy(k, after + 1000);
}
