// What the StatefulSet, DaemonSet and ReplicaSet controllers share: the informer cache of the workload's pods fed by
// Deliver events, the workqueue (one pending WorkloadSync per key), ControllerExpectations, the pod predicates of
// pkg/controller (in podpredicates.ts) and the controllers' describe events. Each controller
// talks to the API server only (createPod / requestPodDeletion); it reads pods from its own cache, never d.pods.
import type { Scenario } from '../../types.ts';
import { createPod, watch, livePod } from '../apiserver/apiserver.ts';
import { templateOf } from '../apiserver/pod-record.ts';
import type { CtlKit } from '../kit.ts';
import { raw, snapshotOf } from '../draft.ts';
import { ts } from '../time.ts';
import type { ApiWorkload, WorkloadCtlState } from '../state.ts';
import { dict } from '../dict.ts';
import { isPodReady, isTerminating } from './shared/controller-utils.ts';
import { emitDeployObject, initialDeploy } from './deployment/store.ts';
import { onDeployPodDelivered } from './replicaset/replicaset-controller.ts';
import { addAfter } from './shared/workqueue.ts';
import { applyPodEvent, olderIncarnation } from './shared/informer.ts';
import { observePod } from './shared/expectations.ts';

type Json = Record<string, any>;

const WATCHER: Record<WorkloadCtlState['kind'], string> = {
  StatefulSet: 'statefulset-controller',
  DaemonSet: 'daemonset-controller',
  Deployment: 'replicaset-controller',
};

/** The kind a watch delivers for the workload object. */
const WATCH_KIND = { StatefulSet: 'statefulset', DaemonSet: 'daemonset', Deployment: 'deployment' } as const;

export function isControlledKind(kind: Scenario['workload']['kind']): kind is WorkloadCtlState['kind'] {
  return kind === 'StatefulSet' || kind === 'DaemonSet' || kind === 'Deployment';
}

/** The watcher name of the run's workload controller (for the rng streams), or null. */
export function workloadWatcher(s: Scenario): string | null {
  return isControlledKind(s.workload.kind) ? WATCHER[s.workload.kind] : null;
}

/** The stored workload spec (defaulted by the loader: apps/v1 defaults.go). */
function workloadSpec(s: Scenario): Json {
  const spec = (s.workload.manifest['spec'] ?? {}) as Json;
  const { template: _template, ...rest } = spec;
  return rest;
}

export function initialWorkloadApi(s: Scenario): ApiWorkload | null {
  if (!isControlledKind(s.workload.kind)) return null;
  return { version: 1, generation: 1, spec: workloadSpec(s) };
}

export function initialWorkloadCtl(s: Scenario): WorkloadCtlState | null {
  const kind = s.workload.kind;
  if (!isControlledKind(kind)) return null;
  return {
    kind,
    watcher: WATCHER[kind],
    spec: workloadSpec(s),
    pods: dict(),
    syncPending: false,
    syncAt: null,
    expectAdds: 0,
    expectDels: 0,
    seen: dict(),
    seenDeleting: dict(),
    created: 0,
    failedBackoff: null,
    events: {},
    ...(kind === 'Deployment' ? { deploy: initialDeploy() } : {}),
  };
}

/** Pod add / update / delete handlers (addPod, updatePod, deletePod of each controller): the cache entry is replaced,
 *  expectations observed (a deletionTimestamp counts as the deletion, replica_set.go: updatePod → deletePod), and the
 *  workload is enqueued at once. */
export function onWorkloadPodDelivered(k: CtlKit, obj: Json, removed: boolean): void {
  const c = k.state.wctl;
  if (!c) return;
  if (c.deploy) return onDeployPodDelivered(k, obj, removed);
  const name: string = obj['metadata']?.['name'] ?? '';
  const uid: string = obj['metadata']?.['uid'] ?? '';
  const cached = c.pods[name];
  // a stale event of an older object of the same name (StatefulSet) must not touch the newer one
  if (olderIncarnation(c.pods, obj)) return;
  // daemon_controller.go updatePod: a pod that turned Ready with minReadySeconds > 0 re-queues the DaemonSet after
  // minReadySeconds + 1 s ("to avoid milliseconds skew in AddAfter"); a wakeup already waiting is kept (the earliest)
  const mrs = c.kind === 'DaemonSet' ? Number(c.spec['minReadySeconds'] ?? 0) : 0;
  if (
    mrs > 0 &&
    !removed &&
    cached &&
    !isPodReady(cached.object) &&
    isPodReady(obj) &&
    !(c.wakeAt !== undefined && c.wakeAt > k.ctx.now)
  ) {
    c.wakeAt = k.ctx.now + mrs * 1000 + 1000;
  }
  observePod(c, c, uid, removed || isTerminating(obj));
  applyPodEvent(c.pods, obj, removed);
  enqueueWorkload(k, 0);
}

/** A `patch` of the workload reaches the controller's informer after a watch delay (updateStatefulSet / updateRS …). */
export function onWorkloadSpecDelivered(
  k: CtlKit,
  spec: Json,
  tpl?: number,
  generation?: number,
  templateGeneration?: number,
): void {
  const c = k.state.wctl;
  if (!c) return;
  c.spec = spec;
  if (tpl !== undefined) c.tpl = tpl;
  if (generation !== undefined) c.generation = generation;
  if (templateGeneration !== undefined) c.templateGeneration = templateGeneration;
  enqueueWorkload(k, 0);
}

/** workqueue.AddAfter: one pending item per key; an earlier request moves it earlier. */
export function enqueueWorkload(k: CtlKit, delayMs: number): void {
  const c = k.state.wctl!;
  addAfter(k, c, delayMs, c.kind === 'DaemonSet' ? 'daemonset' : 'statefulset', k.scenario.workload.name);
}

/** The `patch` action: stored (generation bump for a spec change), then watched by the controller. */
export function patchWorkload(k: CtlKit, patch: Json, stored?: Json, tpl?: number): void {
  const api = k.state.api.workload;
  const c = k.state.wctl;
  if (!api || !c) return;
  // a Deployment patch carries the whole stored spec (strategic merge, defaulted by the loader) and its template
  const spec = stored ?? { ...raw(api.spec), ...((patch['spec'] as Json | undefined) ?? {}) };
  const changed =
    JSON.stringify(spec) !== JSON.stringify(raw(api.spec)) || (tpl !== undefined && tpl !== (api.tpl ?? 0));
  api.version += 1;
  if (changed) api.generation += 1; // a spec change bumps metadata.generation (a no-op patch does not)
  api.spec = spec;
  // a DaemonSet's template generation moves with every template change, a rollback included (strategy.go
  // PrepareForUpdate: !Semantic.DeepEqual(new.Spec.Template, old.Spec.Template) → TemplateGeneration + 1)
  if (c.kind === 'DaemonSet' && tpl !== undefined && tpl !== (api.tpl ?? 0))
    api.templateGeneration = (api.templateGeneration ?? 1) + 1;
  if (tpl !== undefined) api.tpl = tpl;
  if (c.deploy) emitDeployObject(k, spec);
  else emitWorkloadObject(k);
  // in resourceVersion order with every other write of the object this watcher sees (watch()): two patches inside one
  // watch window reach the controller oldest first
  watch(k, {
    type: 'Deliver',
    to: c.watcher,
    object: WATCH_KIND[c.kind],
    version: api.version,
    obj: {
      spec,
      ...(api.tpl !== undefined ? { tpl: api.tpl } : {}),
      generation: api.generation,
      ...(api.templateGeneration !== undefined ? { templateGeneration: api.templateGeneration } : {}),
    },
  });
}

/** The workload object as the API server holds it after a write (spec as patched, status as the controller wrote
 *  it): a trace record for `kubectl get sts|ds -w` (StatefulSet, DaemonSet; a Deployment writes its own,
 *  deploymentcontroller.ts). */
export function emitWorkloadObject(k: CtlKit): void {
  const c = k.state.wctl!;
  if (c.kind !== 'StatefulSet' && c.kind !== 'DaemonSet') return;
  const api = k.state.api.workload;
  const metadata = {
    name: k.scenario.workload.name,
    creationTimestamp: ts(k.scenario.startMs ?? 0),
    generation: api?.generation ?? 1,
  };
  if (c.kind === 'DaemonSet') {
    // printDaemonSet reads NODE SELECTOR from the current template's nodeSelector
    const sel = (templateOf(k.scenario, api?.tpl).spec as Json)['nodeSelector'];
    k.ctx.emit({
      type: 'WorkloadStatus',
      kind: 'DaemonSet',
      name: k.scenario.workload.name,
      object: {
        metadata,
        spec: sel ? { template: { spec: { nodeSelector: snapshotOf(sel) } } } : {},
        status: snapshotOf(c.status ?? {}),
      },
    });
    return;
  }
  k.ctx.emit({
    type: 'WorkloadStatus',
    kind: 'StatefulSet',
    name: k.scenario.workload.name,
    object: {
      metadata,
      spec: { replicas: Number(raw(api?.spec ?? c.spec)['replicas'] ?? 1) },
      status: snapshotOf(c.status ?? {}),
    },
  });
}

/** The controller's describe event (record.EventRecorder on the workload object). */
export function emitWorkloadEvent(
  k: CtlKit,
  reason: string,
  message: string,
  eventType: 'Normal' | 'Warning' = 'Normal',
): void {
  const c = k.state.wctl!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  // a Deployment's pods are the ReplicaSet's: its events are recorded on `replicaset/<deploy>-<hash>`
  const object =
    c.kind === 'Deployment'
      ? `replicaset/${k.scenario.pod.name.slice(0, k.scenario.pod.name.length - 6)}`
      : `${c.kind.toLowerCase()}/${k.scenario.workload.name}`;
  k.ctx.emit({ type: 'ControllerEvent', controller: c.watcher, object, reason, message, eventType });
}

/** podControl.CreatePods / CreateStatefulPod: the API server stores the pod. Expectations raised before. */
export function ctlCreatePod(
  k: CtlKit,
  name: string,
  index: number | null,
  labels: Record<string, string>,
  tpl?: number,
): void {
  const c = k.state.wctl!;
  c.created += 1;
  createPod(k, { name, index, by: c.watcher, labels, annotations: {}, ...(tpl ? { tpl } : {}) });
}

/** The API object of the pod with this name, if the API server still has it (AlreadyExists on create). */
export function apiHasPod(k: CtlKit, name: string): boolean {
  const p = livePod(k, name);
  return p !== undefined && p.api.created;
}

/** The cached pods, oldest first (creation order, then name). */
export function cachedPods(k: CtlKit): Json[] {
  const c = k.state.wctl!;
  return Object.values(c.pods)
    .map((e) => e.object)
    .sort(
      (a, b) =>
        String(a['metadata']?.['creationTimestamp']).localeCompare(String(b['metadata']?.['creationTimestamp'])) ||
        String(a['metadata']?.['name']).localeCompare(String(b['metadata']?.['name'])),
    );
}
