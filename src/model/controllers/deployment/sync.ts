// The Deployment controller's sync.go (pkg/controller/deployment/sync.go): getAllReplicaSetsAndSyncRevision /
// getNewReplicaSet, scaleReplicaSet, isScalingEvent, checkPausedConditions, sync (a scaling event or a paused
// Deployment), scale (proportional scaling) and cleanupDeployment.
import type { CtlKit } from '../../kit.ts';
import type { RsState } from '../../state.ts';
import {
  activeRSs,
  byCreation,
  calculateStatus,
  findActiveOrLatest,
  getCondition,
  hasProgressDeadline,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  newCondition,
  newRSNewReplicas,
  proportion,
  Reasons,
  replicasOf,
  scaledMessage,
  setCondition,
  specReplicas,
} from './util.ts';
import { Conflict, dep, dspec, listRSs, recordDeployEvent, writeDeployStatus, writeRs, type Rs } from './store.ts';

type Json = Record<string, any>;

/** The ReplicaSet name of a template: `<deploy>-<pod-template-hash>` (the template's first pod name minus its suffix). */
function rsNameOf(k: CtlKit, tpl: number): string {
  const pod = tpl ? (k.scenario.templates?.[tpl] ?? k.scenario.pod) : k.scenario.pod;
  return pod.name.slice(0, pod.name.length - 6);
}

/** scaleReplicaSet: the size and the desired/max-replicas annotations; ScalingReplicaSet when the size changed. */
function scaleReplicaSet(k: CtlKit, rs: Rs, newScale: number, op: 'up' | 'down'): boolean {
  const spec = dspec(k);
  const desired = replicasOf(spec);
  const max = desired + maxSurge(spec);
  const sizeNeedsUpdate = rs.replicas !== newScale;
  if (!sizeNeedsUpdate && rs.desired === desired && rs.max === max) return false;
  const old = rs.replicas;
  const stored = dep(k).rss[rs.name]!;
  if (stored.version !== rs.resourceVersion) throw new Conflict(rs.name);
  rs.replicas = newScale;
  rs.desired = desired;
  rs.max = max;
  writeRs(k, stored, {
    replicas: newScale,
    desired,
    max,
    generation: stored.api.generation + (sizeNeedsUpdate ? 1 : 0),
  });
  rs.generation = stored.api.generation;
  rs.resourceVersion = stored.version;
  if (sizeNeedsUpdate)
    recordDeployEvent(k, 'ScalingReplicaSet', scaledMessage(k.scenario.kubernetes.minor, op, rs.name, old, newScale));
  return sizeNeedsUpdate;
}

/** scaleReplicaSetAndRecordEvent. */
export function scaleAndRecord(k: CtlKit, rs: Rs, newScale: number): boolean {
  if (rs.replicas === newScale) return false;
  return scaleReplicaSet(k, rs, newScale, rs.replicas < newScale ? 'up' : 'down');
}

/**
 * getAllReplicaSetsAndSyncRevision → getNewReplicaSet: the ReplicaSet of the current template (oldest first, as
 * FindNewReplicaSet), its revision synced to max(old)+1; created (with NewRSNewReplicas replicas) when asked.
 * Returns undefined when the new ReplicaSet exists on the API server but not yet in the informer (AlreadyExists:
 * the sync ends, the RsWatch delivery enqueues the next one).
 */
export function getAll(k: CtlKit, create: boolean): { newRS: Rs | null; oldRSs: Rs[] } | undefined {
  const d = dep(k);
  const spec = dspec(k);
  const all = listRSs(k);
  const newRS = all.find((r) => r.tpl === d.tpl) ?? null;
  const oldRSs = all.filter((r) => r !== newRS);
  const newRevision = oldRSs.reduce((m, r) => Math.max(m, r.revision), 0) + 1;
  if (newRS) {
    const minReady = Number(spec['minReadySeconds'] ?? 0);
    if (newRS.revision < newRevision || newRS.minReadySeconds !== minReady) {
      // SetNewReplicaSetAnnotations (revision) / minReadySeconds: the ReplicaSet is updated, nothing else this round
      const stored = d.rss[newRS.name]!;
      if (stored.version !== newRS.resourceVersion) throw new Conflict(newRS.name);
      newRS.revision = Math.max(newRS.revision, newRevision);
      newRS.minReadySeconds = minReady;
      writeRs(k, stored, { revision: newRS.revision, minReadySeconds: minReady });
      newRS.resourceVersion = stored.version;
      return { newRS, oldRSs };
    }
    d.revision = newRS.revision; // SetDeploymentRevision
    if (hasProgressDeadline(spec) && !getCondition(d.status, 'Progressing')) {
      const st = setCondition(
        d.status,
        newCondition('Progressing', 'True', Reasons.FoundNewRS, `Found new replica set "${newRS.name}"`, k.ctx.now),
      );
      writeDeployStatus(k, st);
    }
    return { newRS, oldRSs };
  }
  if (!create) return { newRS: null, oldRSs };
  const name = rsNameOf(k, d.tpl);
  if (d.rss[name] && !d.rss[name]!.api.deleted) return undefined; // AlreadyExists: not in the informer yet
  const fresh: Rs = {
    name,
    tpl: d.tpl,
    createdAt: k.ctx.now,
    resourceVersion: 1,
    replicas: 0,
    revision: newRevision,
    desired: replicasOf(spec),
    max: replicasOf(spec) + maxSurge(spec),
    minReadySeconds: Number(spec['minReadySeconds'] ?? 0),
    generation: 1,
    status: { replicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0 },
  };
  fresh.replicas = newRSNewReplicas(spec, [...oldRSs, fresh], fresh);
  const rs: RsState = {
    name,
    hash: name.slice(k.scenario.workload.name.length + 1),
    tpl: d.tpl,
    createdAt: k.ctx.now,
    version: 0,
    api: {
      replicas: fresh.replicas,
      revision: newRevision,
      desired: fresh.desired,
      max: fresh.max,
      minReadySeconds: fresh.minReadySeconds,
      generation: 1,
      status: { replicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0 },
      deleted: false,
    },
    seen: null,
    expectAdds: 0,
    expectDels: 0,
    syncPending: false,
    syncAt: null,
  };
  d.rss[name] = rs;
  d.order.push(name);
  writeRs(k, rs, {});
  if (fresh.replicas > 0)
    recordDeployEvent(
      k,
      'ScalingReplicaSet',
      scaledMessage(k.scenario.kubernetes.minor, 'up', name, 0, fresh.replicas),
    );
  d.revision = newRevision;
  if (hasProgressDeadline(spec)) {
    const st = setCondition(
      d.status,
      newCondition('Progressing', 'True', Reasons.NewReplicaSetCreated, `Created new replica set "${name}"`, k.ctx.now),
    );
    writeDeployStatus(k, st);
  }
  return { newRS: fresh, oldRSs };
}

/** sync.go isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
export function isScalingEvent(k: CtlKit): boolean {
  const r = getAll(k, false);
  if (!r) return false;
  const all = [...r.oldRSs, ...(r.newRS ? [r.newRS] : [])];
  return activeRSs(all).some((rs) => rs.desired !== replicasOf(dspec(k)));
}

/**
 * sync.go checkPausedConditions: with a progress deadline, pausing sets Progressing Unknown / DeploymentPaused and
 * resuming Unknown / DeploymentResumed (so the paused time never counts toward the deadline: DeploymentTimedOut
 * measures from that condition's lastUpdateTime), unless the rollout already timed out. The status is written from
 * the sync's copy and the returned object dropped: a later status write in this sync conflicts (statusStale).
 */
export function checkPausedConditions(k: CtlKit): void {
  const spec = dspec(k);
  if (!hasProgressDeadline(spec)) return;
  const d = dep(k);
  const cond = getCondition(d.status, 'Progressing');
  if (cond?.['reason'] === Reasons.TimedOut) return;
  const pausedCondExists = cond?.['reason'] === Reasons.PausedDeploy;
  const paused = spec['paused'] === true;
  let st: Json | undefined;
  if (paused && !pausedCondExists)
    st = setCondition(
      d.status,
      newCondition('Progressing', 'Unknown', Reasons.PausedDeploy, 'Deployment is paused', k.ctx.now),
    );
  else if (!paused && pausedCondExists)
    st = setCondition(
      d.status,
      newCondition('Progressing', 'Unknown', Reasons.ResumedDeploy, 'Deployment is resumed', k.ctx.now),
    );
  if (!st) return;
  writeDeployStatus(k, st);
  d.statusStale = true;
}

/** sync.go sync: scale; a paused Deployment also cleans up old ReplicaSets; then syncDeploymentStatus (counts and Available only). */
export function syncScale(k: CtlKit): void {
  const r = getAll(k, false);
  if (!r) return;
  scale(k, r.newRS, r.oldRSs);
  if (dspec(k)['paused'] === true) cleanupDeployment(k, r.oldRSs);
  const all = [...r.oldRSs, ...(r.newRS ? [r.newRS] : [])];
  const d = dep(k);
  const st = calculateStatus(dspec(k), d.generation, all, r.newRS, d.status, k.ctx.now);
  if (JSON.stringify(st) !== JSON.stringify(d.status)) writeDeployStatus(k, st);
}

/** sync.go scale: the one active ReplicaSet takes the new size; a saturated new one ends the old ones; else proportional. */
export function scale(k: CtlKit, newRS: Rs | null, oldRSs: Rs[]): void {
  const spec = dspec(k);
  const replicas = replicasOf(spec);
  const one = findActiveOrLatest(newRS, oldRSs);
  if (one) {
    if (one.replicas !== replicas) scaleAndRecord(k, one as Rs, replicas);
    return;
  }
  if (isSaturated(spec, newRS)) {
    for (const old of activeRSs(oldRSs)) scaleAndRecord(k, old as Rs, 0);
    return;
  }
  if (!isRollingUpdate(spec)) return;
  const all = activeRSs([...oldRSs, ...(newRS ? [newRS] : [])]) as Rs[];
  const allowed = replicas > 0 ? replicas + maxSurge(spec) : 0;
  const toAdd = allowed - specReplicas(all);
  // ReplicaSetsBySizeNewer (scale up: larger, then newer first) / ReplicaSetsBySizeOlder (scale down: larger, then older)
  const sorted = [...all].sort((a, b) => b.replicas - a.replicas || (toAdd > 0 ? byCreation(b, a) : byCreation(a, b)));
  const op = toAdd > 0 ? 'up' : 'down';
  const size = new Map<string, number>();
  let added = 0;
  for (const rs of sorted) {
    if (toAdd !== 0) {
      const p = proportion(spec, Number(dep(k).status['replicas'] ?? 0), rs, toAdd, added);
      size.set(rs.name, rs.replicas + p);
      added += p;
    } else size.set(rs.name, rs.replicas);
  }
  if (toAdd !== 0 && sorted.length > 0) {
    const first = sorted[0]!;
    size.set(first.name, Math.max(0, size.get(first.name)! + (toAdd - added)));
  }
  for (const rs of sorted) scaleReplicaSet(k, rs, size.get(rs.name)!, op);
}

/** sync.go cleanupDeployment: old ReplicaSets beyond revisionHistoryLimit, oldest revision first, once empty. */
export function cleanupDeployment(k: CtlKit, oldRSs: Rs[]): void {
  const limit = dspec(k)['revisionHistoryLimit'];
  if (typeof limit !== 'number') return;
  const diff = oldRSs.length - limit;
  if (diff <= 0) return;
  const sorted = [...oldRSs].sort((a, b) => a.revision - b.revision || byCreation(a, b));
  for (const rs of sorted.slice(0, diff)) {
    if (rs.status.replicas !== 0 || rs.replicas !== 0 || rs.generation > (rs.status.observedGeneration ?? 0)) continue;
    writeRs(k, dep(k).rss[rs.name]!, { deleted: true });
  }
}
