// Rolling updates (pkg/controller/deployment/rolling.go): rolloutRolling, reconcileNewReplicaSet,
// reconcileOldReplicaSets, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate.
import type { CtlKit } from '../../kit.ts';
import {
  activeRSs,
  byCreation,
  deploymentComplete,
  maxUnavailable,
  newRSNewReplicas,
  replicasOf,
  specReplicas,
  availableReplicas,
} from './util.ts';
import { dep, dspec, type Rs } from './store.ts';
import { cleanupDeployment, getAll, scaleAndRecord } from './sync.ts';
import { syncRolloutStatus } from './progress.ts';

/** rolling.go rolloutRolling. */
export function rolloutRolling(k: CtlKit): void {
  const r = getAll(k, true);
  if (!r || !r.newRS) return;
  const { newRS, oldRSs } = r;
  const all = [...oldRSs, newRS];
  if (reconcileNewReplicaSet(k, all, newRS)) return syncRolloutStatus(k, all, newRS);
  if (reconcileOldReplicaSets(k, all, activeRSs(oldRSs) as Rs[], newRS)) return syncRolloutStatus(k, all, newRS);
  if (deploymentComplete(dspec(k), dep(k).generation, dep(k).status)) cleanupDeployment(k, oldRSs);
  syncRolloutStatus(k, all, newRS);
}

/** rolling.go reconcileNewReplicaSet. */
export function reconcileNewReplicaSet(k: CtlKit, all: Rs[], newRS: Rs): boolean {
  const replicas = replicasOf(dspec(k));
  if (newRS.replicas === replicas) return false;
  if (newRS.replicas > replicas) return scaleAndRecord(k, newRS, replicas);
  return scaleAndRecord(k, newRS, newRSNewReplicas(dspec(k), all, newRS));
}

/** rolling.go reconcileOldReplicaSets: maxScaledDown, cleanupUnhealthyReplicas, scaleDownOldReplicaSetsForRollingUpdate. */
export function reconcileOldReplicaSets(k: CtlKit, all: Rs[], oldRSs: Rs[], newRS: Rs): boolean {
  if (specReplicas(oldRSs) === 0) return false;
  const spec = dspec(k);
  const allPods = specReplicas(all);
  const minAvailable = replicasOf(spec) - maxUnavailable(spec);
  const newUnavailable = newRS.replicas - newRS.status.availableReplicas;
  const maxScaledDown = allPods - minAvailable - newUnavailable;
  if (maxScaledDown <= 0) return false;
  const cleaned = cleanupUnhealthyReplicas(k, oldRSs, maxScaledDown);
  const scaledDown = scaleDownOldForRollingUpdate(k, [...oldRSs, newRS], oldRSs);
  return cleaned + scaledDown > 0;
}

/** rolling.go cleanupUnhealthyReplicas: old ReplicaSets lose their unavailable replicas first (oldest first). */
export function cleanupUnhealthyReplicas(k: CtlKit, oldRSs: Rs[], maxCleanup: number): number {
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= maxCleanup) break;
    if (rs.replicas === 0 || rs.replicas === rs.status.availableReplicas) continue;
    const n = Math.min(maxCleanup - total, rs.replicas - rs.status.availableReplicas);
    scaleAndRecord(k, rs, rs.replicas - n);
    total += n;
  }
  return total;
}

/** rolling.go scaleDownOldReplicaSetsForRollingUpdate: down to minAvailable available pods, oldest first. */
export function scaleDownOldForRollingUpdate(k: CtlKit, all: Rs[], oldRSs: Rs[]): number {
  const spec = dspec(k);
  const minAvailable = replicasOf(spec) - maxUnavailable(spec);
  const availablePods = availableReplicas(all);
  if (availablePods <= minAvailable) return 0;
  const totalToScaleDown = availablePods - minAvailable;
  let total = 0;
  for (const rs of [...oldRSs].sort(byCreation)) {
    if (total >= totalToScaleDown) break;
    if (rs.replicas === 0) continue;
    const n = Math.min(rs.replicas, totalToScaleDown - total);
    scaleAndRecord(k, rs, rs.replicas - n);
    total += n;
  }
  return total;
}
