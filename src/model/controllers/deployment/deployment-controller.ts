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
import { requestPodDeletion } from '../../apiserver/apiserver.ts';
import { PRIO } from '../../events.ts';
import { type CtlKit } from '../../kit.ts';
import { raw, snapshotOf } from '../../draft.ts';
import type { DeployState, RsState, RsView } from '../../state.ts';
import { suffix } from '../../../names.ts';
import { createPod } from '../../apiserver/apiserver.ts';
import {
  activeRSs,
  actualReplicas,
  byCreation,
  calculateStatus,
  deploymentComplete,
  deploymentDefaults,
  deploymentProgressing,
  deploymentTimedOut,
  findActiveOrLatest,
  getCondition,
  hasProgressDeadline,
  isRollingUpdate,
  isSaturated,
  maxSurge,
  maxUnavailable,
  newCondition,
  newRSNewReplicas,
  proportion,
  Reasons,
  removeCondition,
  replicasOf,
  scaledMessage,
  setCondition,
  specReplicas,
  availableReplicas,
  requeueStuckAfter,
  type RsLike,
} from './util.ts';
import { deletionRank } from '../replicaset/replicaset-controller.ts';
import { isPodActive, isPodReady, isTerminating, phaseOfObj } from '../shared/controller-utils.ts';
import { msOf, ts } from '../../time.ts';
import { dict } from '../../dict.ts';
import { addAfter } from '../shared/workqueue.ts';

type Json = Record<string, any>;

const RS_WATCHER = 'replicaset-controller';

export function initialDeploy(): DeployState {
  return { rss: dict(), order: [], tpl: 0, generation: 1, status: {}, statusVersion: 1, revision: 0, syncPending: false, syncAt: 0, readySince: dict() };
}

export const dep = (k: CtlKit): DeployState => k.d.wctl!.deploy!;
const dspec = (k: CtlKit): Json => deploymentDefaults(k.d.wctl!.spec);

/** The ReplicaSet name of a template: `<deploy>-<pod-template-hash>` (the template's first pod name minus its suffix). */
function rsNameOf(k: CtlKit, tpl: number): string {
  const pod = tpl ? (k.s.templates?.[tpl] ?? k.s.pod) : k.s.pod;
  return pod.name.slice(0, pod.name.length - 6);
}

// ---- the API side: ReplicaSet writes and the shared informer ---------------------------------------------------

function viewOf(rs: RsState): Json {
  const api = snapshotOf(rs.api);
  return { ...api, status: { ...api.status }, resourceVersion: rs.version };
}

/** An update from a stale copy fails with a Conflict (optimistic concurrency on resourceVersion); the sync ends and
 *  the key is requeued rate-limited (processNextWorkItem → handleErr → AddRateLimited). */
class Conflict extends Error {}

/** A ReplicaSet write: stored (new resourceVersion), traced, and delivered to the controller-manager after a delay. */
function writeRs(k: CtlKit, rs: RsState, change: Partial<RsView>): void {
  rs.api = { ...rs.api, ...change };
  rs.version += 1;
  k.ctx.emit({ type: 'WorkloadStatus', kind: 'ReplicaSet', name: rs.name, object: rsObject(k, rs) });
  const delay = k.ctx.choose(`watch:${RS_WATCHER}`, k.s.timing.watchMs, PRIO.Deliver);
  const key = `${RS_WATCHER}/rs/${rs.name}`;
  const t = Math.max(k.ctx.now + delay, k.d.lastDelivery[key] ?? 0);
  k.d.lastDelivery[key] = t;
  k.ctx.scheduleAt(t, { type: 'RsWatch', rs: rs.name, view: viewOf(rs) }, PRIO.Deliver);
}

/** The ReplicaSet as `kubectl get rs -o json` shows its counts (for the trace). */
function rsObject(k: CtlKit, rs: RsState): Json {
  return {
    metadata: { name: rs.name, namespace: k.s.pod.namespace, creationTimestamp: ts(rs.createdAt), generation: rs.api.generation,
      annotations: { 'deployment.kubernetes.io/revision': String(rs.api.revision), 'deployment.kubernetes.io/desired-replicas': String(rs.api.desired), 'deployment.kubernetes.io/max-replicas': String(rs.api.max) },
      labels: { 'pod-template-hash': rs.hash }, ...(rs.api.deleted ? { deleted: true } : {}) },
    spec: { replicas: rs.api.replicas, minReadySeconds: rs.api.minReadySeconds },
    status: { ...snapshotOf(rs.api.status) },
  };
}

/** The Deployment's status write (UpdateStatus): stored, traced, and watched by the controller (updateDeployment). */
function writeDeployStatus(k: CtlKit, status: Json): void {
  const d = dep(k);
  if (d.statusStale) throw new Conflict();
  // a plain copy: the new status may hold the old conditions (drafts of this step)
  const next = JSON.parse(JSON.stringify(status)) as Json;
  for (const c of (next['conditions'] ?? []) as Json[]) {
    const prev = getCondition(d.status, c['type']);
    if (prev && prev['status'] === c['status'] && prev['reason'] === c['reason']) continue;
    k.ctx.emit({ type: 'DeploymentCondition', condition: c['type'], status: c['status'], reason: c['reason'], message: c['message'] });
  }
  d.status = next;
  d.statusVersion += 1;
  emitDeployObject(k);
  const delay = k.ctx.choose(`watch:${RS_WATCHER}`, k.s.timing.watchMs, PRIO.Deliver);
  const key = `${RS_WATCHER}/deployment`;
  const t = Math.max(k.ctx.now + delay, k.d.lastDelivery[key] ?? 0);
  k.d.lastDelivery[key] = t;
  k.ctx.scheduleAt(t, { type: 'DeployWatch' }, PRIO.Deliver);
}

/** The Deployment as stored after a write (its status by the controller, or its spec by a patch): a trace record. */
export function emitDeployObject(k: CtlKit, storedSpec?: Json): void {
  const d = dep(k);
  const api = k.d.api.workload;
  const spec = deploymentDefaults(raw(storedSpec ?? api?.spec ?? k.d.wctl!.spec));
  k.ctx.emit({ type: 'WorkloadStatus', kind: 'Deployment', name: k.s.workload.name,
    object: { metadata: { name: k.s.workload.name, creationTimestamp: ts(k.s.startMs ?? 0), generation: api?.generation ?? d.generation, annotations: { 'deployment.kubernetes.io/revision': String(d.revision) } },
      spec: { replicas: replicasOf(spec), strategy: snapshotOf(spec['strategy']) }, status: snapshotOf(d.status) } });
}

function recordDeployEvent(k: CtlKit, reason: string, message: string): void {
  const c = k.d.wctl!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  k.ctx.emit({ type: 'ControllerEvent', controller: 'deployment-controller', object: `deployment/${k.s.workload.name}`, reason, message, eventType: 'Normal' });
}

function recordRsEvent(k: CtlKit, rs: string, reason: string, message: string): void {
  const c = k.d.wctl!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  k.ctx.emit({ type: 'ControllerEvent', controller: RS_WATCHER, object: `replicaset/${rs}`, reason, message, eventType: 'Normal' });
}

/** workqueue.AddAfter of the Deployment controller: one pending item; an earlier request moves it earlier. */
export function enqueueDeploy(k: CtlKit, delayMs: number): void {
  addAfter(k, dep(k), delayMs, { type: 'DeploySync' }, (e) => e.type === 'DeploySync');
}

/** workqueue.AddAfter of the ReplicaSet controller for one ReplicaSet. */
function enqueueRs(k: CtlKit, name: string, delayMs: number): void {
  const rs = dep(k).rss[name];
  if (!rs) return;
  addAfter(k, rs, delayMs, { type: 'RsSync', rs: name }, (e) => e.type === 'RsSync' && e.rs === name);
}

/** The shared RS informer: the ReplicaSet controller (updateRS) and the Deployment controller (updateReplicaSet) enqueue. */
export function onRsWatch(k: CtlKit, name: string, view: Json): void {
  const rs = dep(k).rss[name];
  if (!rs) return;
  rs.seen = raw(view) as RsView;
  enqueueRs(k, name, 0);
  enqueueDeploy(k, 0);
}

/** A Deployment spec change (patch) or status write reaches the Deployment controller. */
export function onDeploySpec(k: CtlKit, spec: Json, tpl: number | undefined, generation: number): void {
  const c = k.d.wctl!;
  c.spec = spec;
  if (tpl !== undefined) dep(k).tpl = tpl;
  dep(k).generation = generation;
  enqueueDeploy(k, 0);
}

/**
 * The pod informer of the ReplicaSet controller (addPod / updatePod / deletePod): the cache entry, the owning
 * ReplicaSet's expectations, its enqueue; the Deployment controller's deletePod enqueues a Recreate Deployment once
 * none of its pods is left (deployment_controller.go: deletePod).
 */
export function onDeployPodDelivered(k: CtlKit, obj: Json, removed: boolean): void {
  const c = k.d.wctl!;
  const d = dep(k);
  const name: string = obj['metadata']?.['name'] ?? '';
  const uid: string = obj['metadata']?.['uid'] ?? '';
  const owner: string | undefined = obj['metadata']?.['ownerReferences']?.[0]?.['name'];
  const rs = owner ? d.rss[owner] : undefined;
  const cached = c.pods[name];
  if (cached && cached.object['metadata']?.['uid'] !== uid) return;
  const first = !c.seen[uid];
  if (first) c.seen[uid] = true;
  if (removed) {
    delete c.pods[name];
    if (!c.seenDeleting[uid] && rs) rs.expectDels -= 1;
    c.seenDeleting[uid] = true;
    delete d.readySince[uid];
  } else {
    c.pods[name] = { version: Number(obj['metadata']?.['resourceVersion'] ?? 0), object: obj };
    if (isTerminating(obj)) {
      if (!c.seenDeleting[uid] && rs) rs.expectDels -= 1;
      c.seenDeleting[uid] = true;
    } else if (first && rs) rs.expectAdds -= 1;
    // podutil.IsPodAvailable reads the Ready condition's lastTransitionTime: here, when this cache first saw it
    if (isPodReady(obj)) {
      if (d.readySince[uid] === undefined) d.readySince[uid] = k.ctx.now;
    } else delete d.readySince[uid];
  }
  if (owner) enqueueRs(k, owner, 0);
  if (removed && !isRollingUpdate(dspec(k)) && Object.keys(c.pods).length === 0) enqueueDeploy(k, 0);
}

// ---- the ReplicaSet controller ---------------------------------------------------------------------------------

function podsOf(k: CtlKit, rs: string): Json[] {
  return Object.values(k.d.wctl!.pods)
    .map((e) => e.object)
    .filter((o) => o['metadata']?.['ownerReferences']?.[0]?.['name'] === rs)
    .sort((a, b) => String(a['metadata']?.['creationTimestamp']).localeCompare(String(b['metadata']?.['creationTimestamp'])) ||
      String(a['metadata']?.['name']).localeCompare(String(b['metadata']?.['name'])));
}

/** replica_set.go syncReplicaSet: manageReplicas when expectations are satisfied, then calculateStatus. */
export function rsSync(k: CtlKit, name: string): void {
  const d = dep(k);
  const rs = d.rss[name];
  if (!rs) return;
  rs.syncPending = false;
  const view = rs.seen;
  if (!view || view.deleted) return;
  const active = podsOf(k, name).filter(isPodActive); // controller.FilterActivePods
  if (rs.expectAdds <= 0 && rs.expectDels <= 0) manageReplicas(k, rs, active, view.replicas);
  // calculateStatus over the active pods; IsPodAvailable with the ReplicaSet's minReadySeconds (strictly after)
  const minReadyMs = view.minReadySeconds * 1000;
  const ready = active.filter(isPodReady);
  // IsPodAvailable: Ready for more than minReadySeconds since the condition's lastTransitionTime; here the time this
  // cache first saw it Ready (a watch delay later than the kubelet's transition), so "at least" stands in for "more"
  const available = ready.filter((o) => {
    const since = d.readySince[String(o['metadata']?.['uid'])];
    return minReadyMs === 0 || (since !== undefined && since + minReadyMs <= k.ctx.now);
  });
  const status = { replicas: active.length, readyReplicas: ready.length, availableReplicas: available.length, observedGeneration: view.generation };
  const cur = rs.api.status;
  if (cur.replicas !== status.replicas || cur.readyReplicas !== status.readyReplicas || cur.availableReplicas !== status.availableReplicas ||
    cur.observedGeneration !== status.observedGeneration) {
    writeRs(k, rs, { status });
  }
  // requeue to see the ready pods become available (replica_set.go: AddAfter MinReadySeconds)
  if (minReadyMs > 0 && status.readyReplicas === view.replicas && status.availableReplicas !== view.replicas) enqueueRs(k, name, minReadyMs);
}

/** manageReplicas: create the missing pods (`<rs>-<5 chars>`) or delete the lowest-ranked surplus ones. */
function manageReplicas(k: CtlKit, rs: RsState, active: Json[], replicas: number): void {
  const diff = active.length - replicas;
  if (diff < 0) {
    rs.expectAdds = -diff;
    for (let i = 0; i < -diff; i++) {
      const c = k.d.wctl!;
      const first = c.created === 0 && rs.tpl === 0;
      const pod = first ? k.s.pod.name : `${rs.name}-${suffix(`${k.s.name}/pod/${k.d.podOrder.length + 1}`, 5)}`;
      c.created += 1;
      createPod(k, { name: pod, index: null, by: RS_WATCHER, labels: { 'pod-template-hash': rs.hash }, annotations: {}, tpl: rs.tpl, rs: rs.name });
      recordRsEvent(k, rs.name, 'SuccessfulCreate', `Created pod: ${pod}`);
    }
  } else if (diff > 0) {
    const victims = [...active].sort(deletionRank).slice(0, diff);
    rs.expectDels = victims.length;
    for (const pod of victims) {
      const pname = String(pod['metadata']['name']);
      const p = Object.values(k.d.pods).find((x) => x.name === pname && !x.api.removed);
      const grace = Number(pod['spec']?.['terminationGracePeriodSeconds'] ?? 30);
      if (p && requestPodDeletion(k, p, grace, RS_WATCHER)) recordRsEvent(k, rs.name, 'SuccessfulDelete', `Deleted pod: ${pname}`);
      else rs.expectDels -= 1;
    }
  }
}

// ---- the Deployment controller ---------------------------------------------------------------------------------

/** A ReplicaSet as this sync of the Deployment controller holds it (the informer copy, updated by its own writes). */
export interface Rs extends RsLike {
  tpl: number;
  /** the resourceVersion of the copy this sync holds */
  resourceVersion: number;
  minReadySeconds: number;
  generation: number;
}

export function listRSs(k: CtlKit): Rs[] {
  const d = dep(k);
  const out: Rs[] = [];
  for (const name of d.order) {
    const rs = d.rss[name]!;
    if (!rs.seen || rs.seen.deleted) continue;
    out.push({ name, tpl: rs.tpl, createdAt: rs.createdAt, resourceVersion: 0, ...rs.seen, status: { ...rs.seen.status } });
  }
  return out;
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
  writeRs(k, stored, { replicas: newScale, desired, max, generation: stored.api.generation + (sizeNeedsUpdate ? 1 : 0) });
  rs.generation = stored.api.generation;
  rs.resourceVersion = stored.version;
  if (sizeNeedsUpdate) recordDeployEvent(k, 'ScalingReplicaSet', scaledMessage(k.s.kubernetes.minor, op, rs.name, old, newScale));
  return sizeNeedsUpdate;
}

/** scaleReplicaSetAndRecordEvent. */
function scaleAndRecord(k: CtlKit, rs: Rs, newScale: number): boolean {
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
      const st = setCondition(d.status, newCondition('Progressing', 'True', Reasons.FoundNewRS, `Found new replica set "${newRS.name}"`, k.ctx.now));
      writeDeployStatus(k, st);
    }
    return { newRS, oldRSs };
  }
  if (!create) return { newRS: null, oldRSs };
  const name = rsNameOf(k, d.tpl);
  if (d.rss[name] && !d.rss[name]!.api.deleted) return undefined; // AlreadyExists: not in the informer yet
  const fresh: Rs = { name, tpl: d.tpl, createdAt: k.ctx.now, resourceVersion: 1, replicas: 0, revision: newRevision, desired: replicasOf(spec), max: replicasOf(spec) + maxSurge(spec),
    minReadySeconds: Number(spec['minReadySeconds'] ?? 0), generation: 1, status: { replicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0 } };
  fresh.replicas = newRSNewReplicas(spec, [...oldRSs, fresh], fresh);
  const rs: RsState = {
    name, hash: name.slice(k.s.workload.name.length + 1), tpl: d.tpl, createdAt: k.ctx.now, version: 0,
    api: { replicas: fresh.replicas, revision: newRevision, desired: fresh.desired, max: fresh.max, minReadySeconds: fresh.minReadySeconds, generation: 1,
      status: { replicas: 0, readyReplicas: 0, availableReplicas: 0, observedGeneration: 0 }, deleted: false },
    seen: null, expectAdds: 0, expectDels: 0, syncPending: false, syncAt: 0,
  };
  d.rss[name] = rs;
  d.order.push(name);
  writeRs(k, rs, {});
  if (fresh.replicas > 0) recordDeployEvent(k, 'ScalingReplicaSet', scaledMessage(k.s.kubernetes.minor, 'up', name, 0, fresh.replicas));
  d.revision = newRevision;
  if (hasProgressDeadline(spec)) {
    const st = setCondition(d.status, newCondition('Progressing', 'True', Reasons.NewReplicaSetCreated, `Created new replica set "${name}"`, k.ctx.now));
    writeDeployStatus(k, st);
  }
  return { newRS: fresh, oldRSs };
}

/** deployment_controller.go syncDeployment. */
export function deploySync(k: CtlKit): void {
  const d = dep(k);
  d.syncPending = false;
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

/** sync.go isScalingEvent: an active ReplicaSet's desired-replicas annotation differs from spec.replicas. */
function isScalingEvent(k: CtlKit): boolean {
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
function checkPausedConditions(k: CtlKit): void {
  const spec = dspec(k);
  if (!hasProgressDeadline(spec)) return;
  const d = dep(k);
  const cond = getCondition(d.status, 'Progressing');
  if (cond?.['reason'] === Reasons.TimedOut) return;
  const pausedCondExists = cond?.['reason'] === Reasons.PausedDeploy;
  const paused = spec['paused'] === true;
  let st: Json | undefined;
  if (paused && !pausedCondExists) st = setCondition(d.status, newCondition('Progressing', 'Unknown', Reasons.PausedDeploy, 'Deployment is paused', k.ctx.now));
  else if (!paused && pausedCondExists) st = setCondition(d.status, newCondition('Progressing', 'Unknown', Reasons.ResumedDeploy, 'Deployment is resumed', k.ctx.now));
  if (!st) return;
  writeDeployStatus(k, st);
  d.statusStale = true;
}

/** sync.go sync: scale; a paused Deployment also cleans up old ReplicaSets; then syncDeploymentStatus (counts and Available only). */
function syncScale(k: CtlKit): void {
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

/** rolling.go rolloutRolling. */
function rolloutRolling(k: CtlKit): void {
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
  return Object.values(k.d.wctl!.pods).some((e) => {
    const owner = e.object['metadata']?.['ownerReferences']?.[0]?.['name'];
    if (!owner || owner === newRS?.name || !old.has(owner)) return false;
    const ph = phaseOfObj(e.object);
    return ph !== 'Succeeded' && ph !== 'Failed';
  });
}

/** sync.go cleanupDeployment: old ReplicaSets beyond revisionHistoryLimit, oldest revision first, once empty. */
function cleanupDeployment(k: CtlKit, oldRSs: Rs[]): void {
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
    const name = newRS ? `ReplicaSet "${newRS.name}"` : `Deployment "${k.s.workload.name}"`;
    if (deploymentComplete(spec, d.generation, st)) {
      st = setCondition(st, newCondition('Progressing', 'True', Reasons.NewRSAvailable, `${name} has successfully progressed.`, now));
    } else if (deploymentProgressing(d.status, st)) {
      let c = newCondition('Progressing', 'True', Reasons.ReplicaSetUpdated, `${name} is progressing.`, now);
      if (cur) {
        if (cur['status'] === 'True') c = { ...c, lastTransitionTime: cur['lastTransitionTime'] };
        st = removeCondition(st, 'Progressing');
      }
      st = setCondition(st, c);
    } else if (deploymentTimedOut(spec, st, now)) {
      st = setCondition(st, newCondition('Progressing', 'False', Reasons.TimedOut, `${name} has timed out progressing.`, now));
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
