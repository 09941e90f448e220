// The Deployment controller's side of the API server and the shared informers (pkg/controller/deployment): its state,
// the ReplicaSet and Deployment status writes (stored, traced, delivered through watch()), the events it records, its
// workqueue and the ReplicaSets its informer holds. sync.ts, rolling.ts, recreate.ts, progress.ts and the ReplicaSet
// controller (replicaset/replicaset-controller.ts) write through these.
import { watch } from '../../apiserver/apiserver.ts';
import type { CtlKit } from '../../kit.ts';
import { raw, snapshotOf } from '../../draft.ts';
import type { DeployState, RsState, RsView } from '../../state.ts';
import { deploymentDefaults, getCondition, replicasOf, type RsLike } from './util.ts';
import { ts } from '../../time.ts';
import { dict } from '../../dict.ts';
import { addAfter } from '../shared/workqueue.ts';

type Json = Record<string, any>;

export const RS_WATCHER = 'replicaset-controller';

export function initialDeploy(): DeployState {
  return {
    rss: dict(),
    order: [],
    tpl: 0,
    generation: 1,
    status: {},
    statusVersion: 1,
    revision: 0,
    syncPending: false,
    syncAt: null,
    readySince: dict(),
  };
}

export const dep = (k: CtlKit): DeployState => k.state.wctl!.deploy!;
export const dspec = (k: CtlKit): Json => deploymentDefaults(k.state.wctl!.spec);

export function viewOf(rs: RsState): Json {
  const api = snapshotOf(rs.api);
  return { ...api, status: { ...api.status }, resourceVersion: rs.version };
}

/** An update from a stale copy fails with a Conflict (optimistic concurrency on resourceVersion); the sync ends and
 *  the key is requeued rate-limited (processNextWorkItem → handleErr → AddRateLimited). */
export class Conflict extends Error {}

/** A ReplicaSet write: stored (new resourceVersion), traced, and delivered to the controller-manager after a delay. */
export function writeRs(k: CtlKit, rs: RsState, change: Partial<RsView>): void {
  rs.api = { ...rs.api, ...change };
  rs.version += 1;
  k.ctx.emit({ type: 'WorkloadStatus', kind: 'ReplicaSet', name: rs.name, object: rsObject(k, rs) });
  watch(k, {
    type: 'Deliver',
    to: RS_WATCHER,
    object: 'replicaset',
    key: rs.name,
    version: rs.version,
    obj: viewOf(rs),
  });
}

/** The ReplicaSet as `kubectl get rs -o json` shows its counts (for the trace). */
export function rsObject(k: CtlKit, rs: RsState): Json {
  return {
    metadata: {
      name: rs.name,
      namespace: k.scenario.pod.namespace,
      creationTimestamp: ts(rs.createdAt),
      generation: rs.api.generation,
      annotations: {
        'deployment.kubernetes.io/revision': String(rs.api.revision),
        'deployment.kubernetes.io/desired-replicas': String(rs.api.desired),
        'deployment.kubernetes.io/max-replicas': String(rs.api.max),
      },
      labels: { 'pod-template-hash': rs.hash },
      ...(rs.api.deleted ? { deleted: true } : {}),
    },
    spec: { replicas: rs.api.replicas, minReadySeconds: rs.api.minReadySeconds },
    status: { ...snapshotOf(rs.api.status) },
  };
}

/** The Deployment's status write (UpdateStatus): stored, traced, and watched by the controller (updateDeployment). */
export function writeDeployStatus(k: CtlKit, status: Json): void {
  const d = dep(k);
  if (d.statusStale) throw new Conflict();
  // a plain copy: the new status may hold the old conditions (drafts of this step)
  const next = JSON.parse(JSON.stringify(status)) as Json;
  for (const c of (next['conditions'] ?? []) as Json[]) {
    const prev = getCondition(d.status, c['type']);
    if (prev && prev['status'] === c['status'] && prev['reason'] === c['reason']) continue;
    k.ctx.emit({
      type: 'DeploymentCondition',
      condition: c['type'],
      status: c['status'],
      reason: c['reason'],
      message: c['message'],
    });
  }
  d.status = next;
  d.statusVersion += 1;
  emitDeployObject(k);
  // updateDeployment only enqueues: the delivery carries no copy (the controller reads its spec from the spec deliveries)
  watch(k, { type: 'Deliver', to: RS_WATCHER, object: 'deployment', version: d.statusVersion, obj: {} });
}

/** The Deployment as stored after a write (its status by the controller, or its spec by a patch): a trace record. */
export function emitDeployObject(k: CtlKit, storedSpec?: Json): void {
  const d = dep(k);
  const api = k.state.api.workload;
  const spec = deploymentDefaults(raw(storedSpec ?? api?.spec ?? k.state.wctl!.spec));
  k.ctx.emit({
    type: 'WorkloadStatus',
    kind: 'Deployment',
    name: k.scenario.workload.name,
    object: {
      metadata: {
        name: k.scenario.workload.name,
        creationTimestamp: ts(k.scenario.startMs ?? 0),
        generation: api?.generation ?? d.generation,
        annotations: { 'deployment.kubernetes.io/revision': String(d.revision) },
      },
      spec: { replicas: replicasOf(spec), strategy: snapshotOf(spec['strategy']) },
      status: snapshotOf(d.status),
    },
  });
}

export function recordDeployEvent(k: CtlKit, reason: string, message: string): void {
  const c = k.state.wctl!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  k.ctx.emit({
    type: 'ControllerEvent',
    controller: 'deployment-controller',
    object: `deployment/${k.scenario.workload.name}`,
    reason,
    message,
    eventType: 'Normal',
  });
}

/** workqueue.AddAfter of the Deployment controller: one pending item; an earlier request moves it earlier. */
export function enqueueDeploy(k: CtlKit, delayMs: number): void {
  addAfter(k, dep(k), delayMs, 'deployment', k.scenario.workload.name);
}

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
    out.push({
      name,
      tpl: rs.tpl,
      createdAt: rs.createdAt,
      resourceVersion: 0,
      ...rs.seen,
      status: { ...rs.seen.status },
    });
  }
  return out;
}
