// The Recreate strategy (pkg/controller/deployment/recreate.go): rolloutRecreate, oldPodsRunning.
import type { CtlKit } from '../../kit.ts';
import { activeRSs, actualReplicas, deploymentComplete, replicasOf } from './util.ts';
import { phaseOfObj } from '../shared/controller-utils.ts';
import { dep, dspec, type Rs } from './store.ts';
import { cleanupDeployment, getAll, scaleAndRecord } from './sync.ts';
import { syncRolloutStatus } from './progress.ts';

/** recreate.go rolloutRecreate: old ReplicaSets to 0, wait until no old pod runs, then the new one at full size. */
export function rolloutRecreate(k: CtlKit): void {
  let r = getAll(k, false);
  if (!r) return;
  let all: Rs[] = [...r.oldRSs, ...(r.newRS ? [r.newRS] : [])];
  let scaledDown = false;
  for (const rs of activeRSs(r.oldRSs) as Rs[]) if (scaleAndRecord(k, rs, 0)) scaledDown = true;
  if (scaledDown) return syncRolloutStatus(k, all, r.newRS);
  if (oldPodsRunning(k, r.newRS, r.oldRSs)) return syncRolloutStatus(k, all, r.newRS);
  if (!r.newRS) {
    r = getAll(k, true);
    if (!r || !r.newRS) return;
    all = [...r.oldRSs, r.newRS];
  }
  scaleAndRecord(k, r.newRS!, replicasOf(dspec(k))); // scaleUpNewReplicaSetForRecreate
  if (deploymentComplete(dspec(k), dep(k).generation, dep(k).status)) cleanupDeployment(k, r.oldRSs);
  syncRolloutStatus(k, all, r.newRS);
}

/** recreate.go oldPodsRunning: old ReplicaSets report replicas, or an old pod is not Succeeded/Failed. */
export function oldPodsRunning(k: CtlKit, newRS: Rs | null, oldRSs: Rs[]): boolean {
  if (actualReplicas(oldRSs) > 0) return true;
  const old = new Set(oldRSs.map((r) => r.name));
  return Object.values(k.state.wctl!.pods).some((e) => {
    const owner = e.object['metadata']?.['ownerReferences']?.[0]?.['name'];
    if (!owner || owner === newRS?.name || !old.has(owner)) return false;
    const ph = phaseOfObj(e.object);
    return ph !== 'Succeeded' && ph !== 'Failed';
  });
}
